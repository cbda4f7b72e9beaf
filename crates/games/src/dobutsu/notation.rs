//! Text forms of Dōbutsu shōgi positions and moves.
//!
//! Squares are named on the fixed board, as the first player sees it: files
//! a–c, ranks 1–4, the first player's home on rank 4. A move is `b3b2`
//! (a step; a promotion is implied) or `C*b2` (a drop: `G`, `E` or `C`).
//! A position is written rank 1 first, each rank from file a to c, ranks
//! separated by `/`: the first player's pieces in capitals (`L G E C H`),
//! the second player's in small letters, `.` for an empty square; then a
//! space and the pieces in hand (capitals for the first player's, small
//! letters for the second's, `-` for none); then a space and the player to
//! move, `b` (first) or `w` (second). The start is `gle/.c./.C./ELG - b`.

use std::fmt;
use std::str::FromStr;

use super::piece::{parse_square, square_name, DobutsuPiece, EMPTY, SQUARES, THEIRS};
use super::{DobutsuMove, DobutsuPosition, DobutsuSide};
use crate::Error;

/// Reads a move written by `side` on the fixed board and turns it into
/// `side`'s view.
pub(crate) fn parse_move(text: &str, side: DobutsuSide) -> Result<DobutsuMove, Error> {
    let fail = |reason: &str| Error::Parse {
        what: "Dobutsu move",
        input: text.to_string(),
        reason: reason.to_string(),
    };
    let b = text.trim().as_bytes();
    let square = |i: usize| {
        parse_square(b[i], b[i + 1])
            .map(|s| side.absolute(s) as u8)
            .ok_or_else(|| fail("a square is a file a-c and a rank 1-4"))
    };
    match b.len() {
        4 if b[1] == b'*' => {
            let piece = DobutsuPiece::from_letter(char::from(b[0]))
                .ok_or_else(|| fail("the piece dropped is G, E or C"))?;
            if piece.hand_slot().is_none() || piece == DobutsuPiece::Hen {
                return Err(fail(
                    "only a giraffe, an elephant or a chick can be in hand",
                ));
            }
            Ok(DobutsuMove::Drop {
                piece,
                to: square(2)?,
            })
        }
        4 => {
            let (from, to) = (square(0)?, square(2)?);
            if from == to {
                return Err(fail("a step goes to another square"));
            }
            Ok(DobutsuMove::Step { from, to })
        }
        _ => Err(fail(
            "expected a step (b3b2: from, to) or a drop (C*b2: piece, square)",
        )),
    }
}

impl DobutsuMove {
    /// The move in the notation of the fixed board, made by `side`.
    #[must_use]
    pub fn notation(&self, side: DobutsuSide) -> String {
        let name = |s: u8| square_name(side.absolute(usize::from(s)));
        match *self {
            DobutsuMove::Step { from, to } => format!("{}{}", name(from), name(to)),
            DobutsuMove::Drop { piece, to } => format!("{}*{}", piece.letter(), name(to)),
        }
    }
}

impl fmt::Display for DobutsuMove {
    /// The notation as if the first player made the move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation(DobutsuSide::First))
    }
}

impl FromStr for DobutsuMove {
    type Err = Error;

    /// Reads a move as the first player writes it.
    fn from_str(text: &str) -> Result<Self, Error> {
        parse_move(text, DobutsuSide::First)
    }
}

impl DobutsuPosition {
    /// The text form with `side` to move: the board as the first player
    /// sees it.
    #[must_use]
    pub fn board_string(&self, side: DobutsuSide) -> String {
        let fixed = match side {
            DobutsuSide::First => *self,
            DobutsuSide::Second => self.flipped(),
        };
        let mut out = String::with_capacity(24);
        for (s, &c) in fixed.board.iter().enumerate() {
            if s > 0 && s % 3 == 0 {
                out.push('/');
            }
            out.push(if c == EMPTY {
                '.'
            } else {
                let l = DobutsuPiece::of_code(c).letter();
                if c & THEIRS == 0 {
                    l
                } else {
                    l.to_ascii_lowercase()
                }
            });
        }
        out.push(' ');
        let before = out.len();
        for (hand, lower) in [(fixed.hands[0], false), (fixed.hands[1], true)] {
            for (slot, &n) in hand.iter().enumerate() {
                let l = DobutsuPiece::IN_HAND[slot].letter();
                for _ in 0..n {
                    out.push(if lower { l.to_ascii_lowercase() } else { l });
                }
            }
        }
        if out.len() == before {
            out.push('-');
        }
        out.push_str(match side {
            DobutsuSide::First => " b",
            DobutsuSide::Second => " w",
        });
        out
    }

    /// Reads the text form, and says who is to move.
    ///
    /// # Errors
    /// [`Error::Parse`] for text not in the form, [`Error::Core`] with an
    /// invalid position for pieces no game has (see [`DobutsuPosition`]).
    pub fn parse_with_side(text: &str) -> Result<(Self, DobutsuSide), Error> {
        let fail = |reason: String| Error::Parse {
            what: "Dobutsu position",
            input: text.to_string(),
            reason,
        };
        let mut words = text.split_whitespace();
        let (Some(board), Some(hands), Some(side), None) =
            (words.next(), words.next(), words.next(), words.next())
        else {
            return Err(fail(
                "expected the board, a space, the pieces in hand (or -), a space and b or w".into(),
            ));
        };
        let side = match side {
            "b" | "B" => DobutsuSide::First,
            "w" | "W" => DobutsuSide::Second,
            other => {
                return Err(fail(format!(
                    "the player to move is b or w, not {:?}",
                    game_core::echo(other)
                )))
            }
        };
        let mut fixed = DobutsuPosition {
            board: [EMPTY; SQUARES],
            hands: [[0; 3]; 2],
        };
        let mut n = 0;
        for c in board.chars().filter(|&c| c != '/') {
            if n == SQUARES {
                return Err(fail("more than 12 squares".into()));
            }
            if c != '.' && c != '-' {
                let piece = DobutsuPiece::from_letter(c).ok_or_else(|| {
                    fail(format!("a square is . or one of LGECH lgech, not {c:?}"))
                })?;
                fixed.board[n] = piece.code() | if c.is_ascii_uppercase() { 0 } else { THEIRS };
            }
            n += 1;
        }
        if n != SQUARES {
            return Err(fail(format!("{n} squares instead of 12")));
        }
        if hands != "-" {
            for c in hands.chars() {
                let slot = DobutsuPiece::from_letter(c)
                    .filter(|p| *p != DobutsuPiece::Hen)
                    .and_then(DobutsuPiece::hand_slot)
                    .ok_or_else(|| fail(format!("a piece in hand is G, E or C, not {c:?}")))?;
                let h = &mut fixed.hands[usize::from(c.is_ascii_lowercase())][slot];
                *h = h.saturating_add(1);
            }
        }
        let pos = match side {
            DobutsuSide::First => fixed,
            DobutsuSide::Second => fixed.flipped(),
        };
        pos.check()?;
        Ok((pos, side))
    }
}

impl fmt::Display for DobutsuPosition {
    /// The text form with the player to move as the first player.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.board_string(DobutsuSide::First))
    }
}

impl FromStr for DobutsuPosition {
    type Err = Error;

    /// [`DobutsuPosition::parse_with_side`], forgetting the side.
    fn from_str(text: &str) -> Result<Self, Error> {
        Self::parse_with_side(text).map(|(p, _)| p)
    }
}
