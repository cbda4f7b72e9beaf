//! What the server needs of a served game ([`ServedGame`], object-safe,
//! positions in text), the answers it gives ([`Answer`], with
//! GamesmanOne's field names), and [`Served`], the one implementation for
//! any game with a [`Notation`] and a source of [`Values`].

use game_core::{Game, Outcome, Value};
use serde::Serialize;

use crate::notation::Notation;
use crate::values::Values;
use crate::Error;

/// How the explorer page draws a game's board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[non_exhaustive]
pub enum Board {
    /// Connect Four: a grid, positions written as the columns played.
    Connect4 {
        /// Columns.
        width: u32,
        /// Rows.
        height: u32,
    },
    /// Magic Fingers: two hands each, positions written `ME OPP`
    /// (`1,3 2,2`, the player to move's hands first).
    Fingers {
        /// Fingers a hand counts to (a hand of this many is dead).
        fingers: u8,
    },
    /// Teeko: a 5×5 board, positions written as 25 squares (rank 1
    /// first, `b`, `r` or `.`) and the side to move.
    Teeko,
    /// Dobutsu shogi: a 3×4 board and both hands, positions written as the
    /// first player sees the board (capitals theirs, rank 1 first), then
    /// the hands and the player to move (`b` first, `w` second).
    Dobutsu,
    /// Any other game: its text picture and a list of moves.
    Text,
}

/// A served game as the list of games shows it.
#[derive(Debug, Clone, Serialize)]
pub struct GameInfo {
    /// The id in the API's paths.
    pub id: String,
    /// The game and its rules, for people.
    pub title: String,
    /// What tells its rules from another game's (a database's rules key).
    pub rules: String,
    /// The start position, in the game's notation.
    pub start: String,
    /// How many positions are solved (stored, for a database).
    pub positions: u64,
    /// How the page draws it.
    pub board: Board,
}

/// One legal move of an [`Explored`] position.
#[derive(Debug, Clone, PartialEq)]
pub struct ExploredMove {
    /// The move's name.
    pub name: String,
    /// The position it leads to, in the game's notation.
    pub child: String,
    /// The child's value, for the player to move there.
    pub value: Value,
}

/// A position with its value and every legal move's child and value.
#[derive(Debug, Clone, PartialEq)]
pub struct Explored {
    /// The position, as asked.
    pub position: String,
    /// Its value for the player to move.
    pub value: Value,
    /// Its picture for people (may span lines).
    pub picture: String,
    /// The legal moves in the game's order (none when the game is over).
    pub moves: Vec<ExploredMove>,
}

/// What the server needs of a game: object-safe, positions in the game's
/// text notation (the CLI's `value` notation), so any game can be served
/// beside any other.
pub trait ServedGame: Send + Sync {
    /// The game as listed.
    fn info(&self) -> &GameInfo;
    /// Reads `position`, looks up its value and every move's child.
    ///
    /// # Errors
    /// [`Error::BadPosition`] when it does not parse or cannot occur;
    /// a database's read errors; [`Error::Contradicted`] when the children's
    /// records contradict the position's.
    fn explore(&self, position: &str) -> Result<Explored, Error>;
}

/// Any game with a notation, answered from any source of values.
pub struct Served<N, V> {
    info: GameInfo,
    notation: N,
    values: V,
    /// Whether each answer is checked against its children's records (a
    /// database's, whose checksums can hold over wrong records).
    check: bool,
}

impl<N: Notation, V: Values<<N::Game as Game>::Position>> Served<N, V> {
    /// `notation`'s game answered from `values`, listed with `id`, `title`
    /// and `rules`; `check` when the values come from a file whose answers
    /// are to be checked against their children's (a database's).
    pub fn new(
        id: impl Into<String>,
        title: impl Into<String>,
        rules: impl Into<String>,
        notation: N,
        values: V,
        check: bool,
    ) -> Self {
        let info = GameInfo {
            id: id.into(),
            title: title.into(),
            rules: rules.into(),
            start: notation.start(),
            positions: values.positions(),
            board: notation.board(),
        };
        Served {
            info,
            notation,
            values,
            check,
        }
    }
}

impl<N: Notation, V: Values<<N::Game as Game>::Position>> ServedGame for Served<N, V>
where
    N::Game: Sync,
{
    fn info(&self) -> &GameInfo {
        &self.info
    }

    fn explore(&self, text: &str) -> Result<Explored, Error> {
        let game = self.notation.game();
        let pos = self.notation.parse(text).map_err(Error::BadPosition)?;
        let unsolved = || {
            Error::BadPosition(format!(
                "'{}' is not a position that this game's solve reached",
                game_core::echo(text)
            ))
        };
        let lookup = |p: &_| self.values.value(p);
        // Stored values are checked against their children's before they
        // are served ([`solver_retro::look_up_checked`]).
        let (value, children) = if self.check {
            let looked =
                solver_retro::look_up_checked(game, &pos, lookup, |_, flaw| Error::Contradicted {
                    position: text.to_string(),
                    flaw,
                })?
                .ok_or_else(unsolved)?;
            (looked.value, looked.moves)
        } else {
            let value = lookup(&pos)?.ok_or_else(unsolved)?;
            let mut children = Vec::new();
            if game.outcome(&pos).is_none() {
                let mut mv = Vec::new();
                game.moves(&pos, &mut mv);
                for m in mv {
                    if let Some(cv) = lookup(&game.play(&pos, &m))? {
                        children.push((m, cv));
                    }
                }
            }
            (value, children)
        };
        let moves = children
            .iter()
            .map(|(m, cv)| ExploredMove {
                name: self.notation.move_name(text, &pos, m),
                child: self.notation.child(text, &pos, m),
                value: *cv,
            })
            .collect();
        Ok(Explored {
            position: text.to_string(),
            value,
            picture: self.notation.picture_at(text, &pos),
            moves,
        })
    }
}

/// A value's name in the API: `win`, `lose`, `tie` or `draw`.
#[must_use]
pub fn value_name(v: Value) -> &'static str {
    v.outcome().name()
}

/// One move of an [`Answer`]: the child's own fields and the mover's view.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnswerMove {
    /// The move's name.
    #[serde(rename = "move")]
    pub name: String,
    /// The child's value seen by the mover.
    pub move_value: &'static str,
    /// How far this move is from the best move of the same move value, as
    /// GamesCrafters' UWAPI (the server behind GamesmanUni) defines it,
    /// in the children's remoteness: for a winning move, its child's
    /// remoteness minus the least remoteness of the losing children; for
    /// a tying move, its child's minus the least of the tying children;
    /// for a losing move, the greatest remoteness of the winning children
    /// minus its child's; 0 for a draw. So 0 marks the best move of each
    /// value, and GamesmanUni fades a move the more, the larger it is.
    pub delta_remoteness: u32,
    /// The child position.
    pub position: String,
    /// The child's value, for the player to move there.
    pub position_value: &'static str,
    /// The child's remoteness (`null` for a draw).
    pub remoteness: Option<u32>,
}

/// A position's answer: its value, remoteness and every move, best first.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Answer {
    /// The position, as asked.
    pub position: String,
    /// Its value for the player to move.
    pub position_value: &'static str,
    /// Its remoteness (`null` for a draw).
    pub remoteness: Option<u32>,
    /// Its picture for people.
    pub picture: String,
    /// The legal moves, best first for the mover: win, tie, draw, lose,
    /// the quickest win and the slowest loss first, else in the game's
    /// order.
    pub moves: Vec<AnswerMove>,
}

impl From<Explored> for Answer {
    fn from(e: Explored) -> Self {
        let mut moves = e.moves;
        // Stable: equal values keep the game's order of moves.
        moves.sort_by_key(|m| std::cmp::Reverse(m.value.parent()));
        let best = |o: Outcome| {
            moves
                .iter()
                .map(|m| m.value.parent())
                .find(|v| v.outcome() == o)
        };
        let moves = moves
            .iter()
            .map(|m| {
                let seen = m.value.parent();
                let r = seen.remoteness().unwrap_or(0);
                let b = best(seen.outcome())
                    .and_then(Value::remoteness)
                    .unwrap_or(0);
                AnswerMove {
                    name: m.name.clone(),
                    move_value: value_name(seen),
                    delta_remoteness: r.abs_diff(b),
                    position: m.child.clone(),
                    position_value: value_name(m.value),
                    remoteness: m.value.remoteness(),
                }
            })
            .collect();
        Answer {
            position: e.position,
            position_value: value_name(e.value),
            remoteness: e.value.remoteness(),
            picture: e.picture,
            moves,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explored(children: &[Value]) -> Explored {
        Explored {
            position: "p".into(),
            value: Value::win(4),
            picture: String::new(),
            moves: children
                .iter()
                .enumerate()
                .map(|(i, &value)| ExploredMove {
                    name: format!("m{i}"),
                    child: format!("c{i}"),
                    value,
                })
                .collect(),
        }
    }

    /// UWAPI's `wrangle_move_objects_2Player` (GamesCrafters'
    /// GamesCraftersUWAPI, server.py), worked by hand for these children:
    /// winning moves lead to the losing children (remoteness 3 and 5:
    /// deltas 0 and 2), tying moves to ties (4 and 8: 0 and 4), losing
    /// moves to wins (2 and 6: the greatest, 6, less each: 4 and 0), a
    /// draw 0; sorted by move value (win, tie, draw, lose), then delta.
    #[test]
    fn delta_remoteness_is_uwapis() {
        let children = [
            Value::win(2),
            Value::tie(8),
            Value::lose(5),
            Value::DRAW,
            Value::lose(3),
            Value::win(6),
            Value::tie(4),
        ];
        let a = Answer::from(explored(&children));
        let got: Vec<(&str, &str, u32, Option<u32>)> = a
            .moves
            .iter()
            .map(|m| {
                (
                    m.name.as_str(),
                    m.move_value,
                    m.delta_remoteness,
                    m.remoteness,
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("m4", "win", 0, Some(3)),
                ("m2", "win", 2, Some(5)),
                ("m6", "tie", 0, Some(4)),
                ("m1", "tie", 4, Some(8)),
                ("m3", "draw", 0, None),
                ("m5", "lose", 0, Some(6)),
                ("m0", "lose", 4, Some(2)),
            ]
        );
    }

    /// One move of each value is the best of its value: delta 0.
    #[test]
    fn a_lone_move_of_each_value_has_delta_zero() {
        let a = Answer::from(explored(&[
            Value::lose(7),
            Value::win(1),
            Value::tie(0),
            Value::DRAW,
        ]));
        assert!(a.moves.iter().all(|m| m.delta_remoteness == 0));
        assert_eq!(
            a.moves.iter().map(|m| m.move_value).collect::<Vec<_>>(),
            ["win", "tie", "draw", "lose"]
        );
    }
}
