//! Choosing a best move from a solved table.

use crate::{Game, Value};

/// The best move at `pos` given the values of its children, and the value it
/// achieves: the fastest win, else a tie (fastest), else a move that keeps
/// the draw, else the slowest loss.
///
/// Ties between equally good moves go to the move that comes *first* in
/// [`Game::moves`] order, so the choice is deterministic. `value_of` returns
/// the value of a child for the player to move there; a child it knows
/// nothing about (`None`) is skipped. Returns `None` when `pos` has no moves
/// with known values.
///
/// `None` where the game is over ([`Game::outcome`] is `Some`) or no move
/// has a value. `buf` is a scratch buffer for the moves (cleared first).
///
/// ```
/// use game_core::{best_move, Game, Value};
/// struct Take12; // take 1 or 2 from a pile; no move = lose
/// impl Game for Take12 {
///     type Position = u32;
///     type Move = u32;
///     fn moves(&self, n: &u32, out: &mut Vec<u32>) { out.extend((1..=2).filter(|t| t <= n)) }
///     fn play(&self, n: &u32, t: &u32) -> u32 { n - t }
/// }
/// // Piles divisible by 3 are lost; take n mod 3 otherwise.
/// let value = |n: &u32| Some(if n % 3 == 0 { Value::lose(2 * (n / 3)) } else { Value::win(2 * (n / 3) + 1) });
/// assert_eq!(best_move(&Take12, &5, value, &mut Vec::new()), Some((2, Value::win(3))));
/// ```
pub fn best_move<G: Game>(
    game: &G,
    pos: &G::Position,
    mut value_of: impl FnMut(&G::Position) -> Option<Value>,
    buf: &mut Vec<G::Move>,
) -> Option<(G::Move, Value)> {
    buf.clear();
    if game.outcome(pos).is_some() {
        // The game is over: there is no move to make.
        return None;
    }
    game.moves(pos, buf);
    let mut best: Option<(usize, Value)> = None;
    for (i, mv) in buf.iter().enumerate() {
        let Some(child) = value_of(&game.play(pos, mv)) else {
            continue;
        };
        let Some(v) = child.checked_parent() else {
            continue;
        };
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map(|(i, v)| (buf[i].clone(), v))
}

/// One ply of a [`principal_variation`]: the position, the move played and
/// the value of the position for the player who moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ply<P, M> {
    /// The position before the move.
    pub position: P,
    /// The move chosen by [`best_move`].
    pub mv: M,
    /// The value of `position` for the player to move there.
    pub value: Value,
}

/// How a [`principal_variation`] ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineEnd<P> {
    /// The game is over at this position.
    Over(P),
    /// This position occurred before: perfect play goes round a cycle (a
    /// draw).
    Repeats(P),
    /// The line was cut at the ply limit.
    Cut(P),
    /// The values stop here: `value_of` knows neither this position nor
    /// any of its children (a solution that does not hold this part of the
    /// game).
    Unknown(P),
}

/// A line of play: the plies and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line<P, M> {
    /// The plies, in order.
    pub plies: Vec<Ply<P, M>>,
    /// How the line ended.
    pub end: LineEnd<P>,
}

/// The line of perfect play from `start`: each side plays [`best_move`]
/// until the game ends, a position repeats, `max_plies` plies are played,
/// or `value_of` has no value for a position or for any of its children.
///
/// `value_of` gives each position's value (from any solver).
///
/// ```
/// use game_core::{principal_variation, Game, LineEnd, Value};
/// struct Take12;
/// impl Game for Take12 {
///     type Position = u32;
///     type Move = u32;
///     fn moves(&self, n: &u32, out: &mut Vec<u32>) { out.extend((1..=2).filter(|t| t <= n)) }
///     fn play(&self, n: &u32, t: &u32) -> u32 { n - t }
/// }
/// let value = |n: &u32| Some(if n % 3 == 0 { Value::lose(2 * (n / 3)) } else { Value::win(2 * (n / 3) + 1) });
/// let line = principal_variation(&Take12, 4, value, 100);
/// let moves: Vec<u32> = line.plies.iter().map(|p| p.mv).collect();
/// assert_eq!(moves, [1, 1, 2]); // to 3, then the loser stalls, then take the last two
/// assert_eq!(line.end, LineEnd::Over(0));
/// // Values known only below 3 (a solution of part of the game): the line
/// // stops where they stop, not as if the game were over there.
/// let part = |n: &u32| (*n < 3).then(|| value(n).unwrap());
/// assert_eq!(principal_variation(&Take12, 7, part, 100).end, LineEnd::Unknown(7));
/// let line = principal_variation(&Take12, 2, part, 100);
/// assert_eq!((line.plies.len(), line.end), (1, LineEnd::Over(0)));
/// ```
pub fn principal_variation<G: Game>(
    game: &G,
    start: G::Position,
    mut value_of: impl FnMut(&G::Position) -> Option<Value>,
    max_plies: usize,
) -> Line<G::Position, G::Move> {
    let mut seen = rustc_hash::FxHashSet::default();
    let mut plies = Vec::new();
    let mut pos = start;
    let mut buf = Vec::new();
    loop {
        if !seen.insert(pos.clone()) {
            return Line {
                plies,
                end: LineEnd::Repeats(pos),
            };
        }
        if plies.len() >= max_plies {
            return Line {
                plies,
                end: LineEnd::Cut(pos),
            };
        }
        if game.outcome(&pos).is_some() {
            return Line {
                plies,
                end: LineEnd::Over(pos),
            };
        }
        let value = value_of(&pos);
        let best = best_move(game, &pos, &mut value_of, &mut buf);
        let (Some(value), Some((mv, _))) = (value, best) else {
            // No move at all: over by running out of moves; else the
            // values are missing.
            let end = if buf.is_empty() {
                LineEnd::Over(pos)
            } else {
                LineEnd::Unknown(pos)
            };
            return Line { plies, end };
        };
        let next = game.play(&pos, &mv);
        plies.push(Ply {
            position: pos,
            mv,
            value,
        });
        pos = next;
    }
}
