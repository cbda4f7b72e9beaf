//! [`Unmoves`]: predecessors, for retrograde analysis without a stored graph.

use crate::Game;

/// The positions from which one move reaches a given position.
///
/// Retrograde solvers walk the game graph backwards; with this trait they
/// generate parents on the fly instead of storing the reverse graph (4 bytes
/// or more a move).
///
/// Both methods speak of *distinct* positions: a parent with two moves to
/// the same child is one parent, and a child reached by two moves is one
/// child. Solvers count a position's unresolved children with
/// [`Unmoves::child_count`] and walk back with [`Unmoves::unmoves`], so the
/// two must agree with [`Game::moves`] and [`Game::play`]:
/// `q` is in `unmoves(p)` exactly when `p` is among the positions played
/// from `q`, and `q` is not over ([`Game::outcome`] is `None`).
pub trait Unmoves: Game {
    /// Appends to `out` every distinct position, not over, with a move to `pos`.
    fn unmoves(&self, pos: &Self::Position, out: &mut Vec<Self::Position>);

    /// The number of distinct positions one move from `pos` reaches.
    ///
    /// The default generates the moves and counts distinct results with the
    /// two scratch buffers (quadratic in the number of moves). Games with a
    /// closed form should override it: retrograde solvers call it once for
    /// every position.
    fn child_count(
        &self,
        pos: &Self::Position,
        moves: &mut Vec<Self::Move>,
        children: &mut Vec<Self::Position>,
    ) -> usize {
        moves.clear();
        children.clear();
        self.moves(pos, moves);
        for m in moves.iter() {
            let c = self.play(pos, m);
            if !children.contains(&c) {
                children.push(c);
            }
        }
        children.len()
    }
}

/// Index-level help for retrograde solvers on games that are both
/// [`Indexed`](crate::Indexed) and [`Unmoves`]: every method has a default
/// built from those two traits, and a game overrides what it can do
/// faster. Implementing it with no methods (`impl IndexedUnmoves for G {}`)
/// is enough to use the graph-free solver.
pub trait IndexedUnmoves: crate::Indexed + Unmoves {
    /// If the game can list them directly, appends the index of every
    /// position that is over or has no move and returns `true`; the solver
    /// then skips its scan of all positions and counts a position's
    /// children only when it first needs them. The default returns `false`
    /// (the solver scans).
    fn terminal_indices(&self, _out: &mut Vec<u64>) -> bool {
        false
    }

    /// Appends the index of every distinct parent of the position at
    /// `index` (see [`Unmoves::unmoves`]). The default decodes the
    /// position, calls `unmoves` into `scratch`, and indexes each parent.
    fn unmove_indices(&self, index: u64, out: &mut Vec<u64>, scratch: &mut Vec<Self::Position>) {
        let Some(pos) = self.position(index) else {
            return;
        };
        scratch.clear();
        self.unmoves(&pos, scratch);
        out.extend(scratch.iter().map(|p| self.index(p)));
    }
}
