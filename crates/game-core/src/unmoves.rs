//! [`Unmoves`]: predecessors, for retrograde analysis without a stored graph.

use crate::Game;

/// The positions from which one move reaches a given position.
///
/// Retrograde solvers walk the game graph backwards; with this trait they
/// generate parents on the fly instead of storing the reverse graph (4 bytes
/// or more a move).
pub trait Unmoves: Game {
    /// Appends to `out` every position with a move to `pos`, each once per
    /// such move (a parent with two moves to `pos` appears twice).
    fn unmoves(&self, pos: &Self::Position, out: &mut Vec<Self::Position>);
}
