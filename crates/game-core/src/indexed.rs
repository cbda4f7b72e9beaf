//! [`Indexed`]: a dense numbering of positions, for flat tables.

use crate::Game;

/// A bijection between the game's positions (or a superset of them) and the
/// integers `0..size()`.
///
/// Solvers that see this trait keep their tables as flat arrays of a few
/// bytes a position instead of hash maps. Indices that stand for no legal
/// position are allowed: [`Indexed::position`] may return `None` for them,
/// and solvers skip such indices.
pub trait Indexed: Game {
    /// The number of indices; every position's index is below it.
    fn size(&self) -> u64;
    /// The index of `pos`, in `0..size()`.
    fn index(&self, pos: &Self::Position) -> u64;
    /// The position with index `index`, or `None` if that index stands for
    /// no position.
    fn position(&self, index: u64) -> Option<Self::Position>;
}
