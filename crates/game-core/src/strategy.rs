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
/// `buf` is a scratch buffer for the moves (cleared first).
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
