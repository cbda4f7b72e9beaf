//! [`Unmoves`]: predecessors, for retrograde analysis without a stored graph.

use crate::{Game, Indexed, Run};

capability! {
    macro unmoves_methods;
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
}

/// The parents of a position by index, as single indices and as
/// [`Run`]s (which solvers can update with one tight loop): the same
/// [`Indices`](crate::Indices) a position's children come in.
pub type ParentIndices = crate::Indices;

/// Where [`IndexedUnmoves::visit_unmove_indices`] sends a position's
/// parents: one by one, or as [`Run`]s. [`ParentIndices`] is one (it
/// keeps them in its lists).
///
/// ```
/// use game_core::{ParentIndices, ParentVisitor, Run};
/// let mut seen = ParentIndices::default();
/// seen.run(Run::range(3..7).except(5));
/// seen.run(Run::range(10..12).except(10));
/// seen.run(Run::strided(20, 5, 2).except(99));
/// assert_eq!(seen.iter().collect::<Vec<_>>(), [3, 4, 6, 11, 20, 25]);
/// ```
pub trait ParentVisitor {
    /// One parent.
    fn single(&mut self, index: u64);
    /// The parents of `run`: its indices less its hole (Fingers'
    /// transfers: every other split of the same number of fingers, not
    /// the child's own). A solver may update a run with a hole in one
    /// pass and leave the hole's cell as it was.
    fn run(&mut self, run: Run);
}

impl ParentVisitor for ParentIndices {
    #[inline]
    fn single(&mut self, index: u64) {
        self.singles.push(index);
    }
    #[inline]
    fn run(&mut self, run: Run) {
        self.runs.push(run);
    }
}

/// A child count as a solver's cells hold it: 16 bits (2-byte cells) or
/// 32. What [`IndexedUnmoves::child_counts`] writes.
pub trait ChildCount: Copy + Default + From<u16> + Send + Sync + 'static {
    /// `n`, or the largest count this type holds when `n` is larger
    /// (more than a 2-byte cell counts, so such a solver moves to wider
    /// cells).
    fn saturating(n: u32) -> Self;
}

impl ChildCount for u16 {
    #[inline]
    fn saturating(n: u32) -> Self {
        n.min(u32::from(u16::MAX)) as u16
    }
}

impl ChildCount for u32 {
    #[inline]
    fn saturating(n: u32) -> Self {
        n
    }
}

capability! {
    macro indexed_unmoves_methods;
    /// Index-level help for retrograde solvers on games that are both
    /// [`Indexed`] and [`Unmoves`]: every method has a default
    /// built from those two traits, and a game overrides what it can do
    /// faster. Implementing it with no methods (`impl IndexedUnmoves for G {}`)
    /// is enough to use the graph-free solver.
    pub trait IndexedUnmoves: Indexed + Unmoves {
        /// If the game can list them directly, appends the index of every
        /// position that is over or has no move (repeats are harmless) and
        /// returns `true`; the solver
        /// then need not scan all positions to find them. The default returns
        /// `false` (the solver scans).
        fn terminal_indices(&self, _out: &mut Vec<u64>) -> bool {
            false
        }

        /// If the game can count children in bulk, writes into `out[k]` the
        /// number of distinct children of the position at index `first + k`
        /// ([`ChildCount::saturating`]: in 16 bits a count above
        /// `u16::MAX` is written as `u16::MAX`; any number for indices that
        /// are no position or are over: the solver ignores those) and
        /// returns `true`. The default returns `false`. One method for
        /// both widths: a game counts in the width it is asked for (in 16
        /// bits, twice the counts a SIMD register and no narrowing: a tenth
        /// of Fingers F = 64's whole solve).
        ///
        /// ```
        /// use game_core::{ChildCount, IndexedUnmoves};
        /// # use game_core::{Game, Indexed, Unmoves};
        /// /// Position `i` has `30_000 * i` children (only counted here).
        /// struct Wide;
        /// # impl Game for Wide {
        /// #     type Position = u64; type Move = ();
        /// #     fn moves(&self, _: &u64, _: &mut Vec<()>) {}
        /// #     fn play(&self, p: &u64, _: &()) -> u64 { *p }
        /// # }
        /// # impl Indexed for Wide {
        /// #     fn size(&self) -> u64 { 4 }
        /// #     fn index(&self, p: &u64) -> u64 { *p }
        /// #     fn position(&self, i: u64) -> Option<u64> { (i < 4).then_some(i) }
        /// # }
        /// # impl Unmoves for Wide { fn unmoves(&self, _: &u64, _: &mut Vec<u64>) {} }
        /// impl IndexedUnmoves for Wide {
        ///     fn child_counts<T: ChildCount>(&self, first: u64, out: &mut [T]) -> bool {
        ///         for (k, o) in out.iter_mut().enumerate() {
        ///             *o = T::saturating(30_000 * (first as u32 + k as u32));
        ///         }
        ///         true
        ///     }
        /// }
        /// let (mut narrow, mut wide) = ([0u16; 4], [0u32; 4]);
        /// assert!(Wide.child_counts(0, &mut narrow) && Wide.child_counts(0, &mut wide));
        /// assert_eq!(narrow, [0, 30_000, 60_000, u16::MAX]);
        /// assert_eq!(wide[3], 90_000);
        /// ```
        fn child_counts<T: ChildCount>(&self, _first: u64, _out: &mut [T]) -> bool {
            false
        }

        /// Adds to `out` the index of every distinct parent of the position at
        /// `index` (see [`Unmoves::unmoves`]), each exactly once, as singles or
        /// runs. The default decodes the position, calls `unmoves` into
        /// `scratch`, and indexes each parent.
        fn unmove_indices(
            &self,
            index: u64,
            out: &mut ParentIndices,
            scratch: &mut Vec<Self::Position>,
        ) {
            let Some(pos) = self.position(index) else {
                return;
            };
            scratch.clear();
            self.unmoves(&pos, scratch);
            out.singles.extend(scratch.iter().map(|p| self.index(p)));
        }

        /// Sends to `visit` exactly the parents that
        /// [`IndexedUnmoves::unmove_indices`] adds for `index`, with no list
        /// between where the game can: a solver whose table sits in the
        /// cache updates each parent as it comes. The default clears `buf`,
        /// calls `unmove_indices` into it and sends what it holds; a game that
        /// overrides `unmove_indices` with a fast generator usually overrides
        /// this with the same generator (and [`ParentIndices`] as the
        /// visitor for `unmove_indices`).
        ///
        /// ```
        /// use game_core::{IndexedUnmoves, ParentIndices};
        /// # use game_core::{Game, Indexed, Outcome, Unmoves};
        /// # struct Count;
        /// # impl Game for Count {
        /// #     type Position = u64; type Move = ();
        /// #     fn moves(&self, p: &u64, out: &mut Vec<()>) { if *p > 0 { out.push(()) } }
        /// #     fn play(&self, p: &u64, _: &()) -> u64 { p - 1 }
        /// #     fn outcome(&self, p: &u64) -> Option<Outcome> { (*p == 0).then_some(Outcome::Lose) }
        /// # }
        /// # impl Indexed for Count {
        /// #     fn size(&self) -> u64 { 4 }
        /// #     fn index(&self, p: &u64) -> u64 { *p }
        /// #     fn position(&self, i: u64) -> Option<u64> { (i < 4).then_some(i) }
        /// # }
        /// # impl Unmoves for Count {
        /// #     fn unmoves(&self, p: &u64, out: &mut Vec<u64>) { if *p < 3 { out.push(p + 1) } }
        /// # }
        /// impl IndexedUnmoves for Count {}
        ///
        /// // A countdown: the parent of 1 is 2.
        /// let (mut buf, mut scratch, mut seen) = (ParentIndices::default(), Vec::new(), ParentIndices::default());
        /// Count.visit_unmove_indices(1, &mut buf, &mut scratch, &mut seen);
        /// assert_eq!(seen.iter().collect::<Vec<_>>(), [2]);
        /// ```
        fn visit_unmove_indices<V: ParentVisitor>(
            &self,
            index: u64,
            buf: &mut ParentIndices,
            scratch: &mut Vec<Self::Position>,
            visit: &mut V,
        ) where
            Self: Sized,
        {
            buf.clear();
            self.unmove_indices(index, buf, scratch);
            buf.send_to(visit);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Overlapping runs past `u64::MAX` saturate, and a run's hole is
    /// not counted: neither overflows.
    #[test]
    fn len_of_holed_and_huge_runs() {
        let holed = ParentIndices {
            singles: vec![],
            runs: vec![
                Run::range(3..7).except(4),
                Run::range(std::ops::Range { start: 7, end: 3 }),
            ],
        };
        assert_eq!(holed.iter().count(), 3);
        assert_eq!(holed.len(), 3);
        assert!(!holed.is_empty());
        let huge = ParentIndices {
            singles: vec![1],
            runs: vec![Run::range(0..u64::MAX), Run::range(0..u64::MAX)],
        };
        assert_eq!(huge.len(), u64::MAX);
    }

    /// The narrow count saturates, the wide one does not.
    #[test]
    fn counts_saturate_in_16_bits() {
        assert_eq!(u16::saturating(70_000), u16::MAX);
        assert_eq!(u16::saturating(7), 7);
        assert_eq!(u32::saturating(70_000), 70_000);
    }
}
