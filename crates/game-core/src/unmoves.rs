//! [`Unmoves`]: predecessors, for retrograde analysis without a stored graph.

use crate::{Game, Indexed};

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

/// The parents of a position by index, as single indices and as runs of
/// consecutive indices (which solvers can update with one tight loop).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParentIndices {
    /// Parents given one by one.
    pub singles: Vec<u64>,
    /// Parents given as runs `start..end` of consecutive indices.
    pub runs: Vec<std::ops::Range<u64>>,
}

impl ParentIndices {
    /// Empties both lists, keeping their memory.
    pub fn clear(&mut self) {
        self.singles.clear();
        self.runs.clear();
    }

    /// The number of parents: a run `start..end` with `end <= start` is
    /// empty (as [`ParentIndices::iter`] walks it), and a count past
    /// `u64::MAX` (runs that overlap) saturates.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.runs.iter().fold(self.singles.len() as u64, |n, r| {
            n.saturating_add(r.end.saturating_sub(r.start))
        })
    }

    /// Whether there is no parent.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Sends every parent to `visit`, singles first, runs as runs.
    pub fn send_to(&self, visit: &mut impl ParentVisitor) {
        for &p in &self.singles {
            visit.single(p);
        }
        for run in &self.runs {
            visit.run(run.clone());
        }
    }

    /// Every parent index, singles first.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.singles
            .iter()
            .copied()
            .chain(self.runs.iter().flat_map(|r| r.clone()))
    }
}

/// Where [`IndexedUnmoves::visit_unmove_indices`] sends a position's
/// parents: one by one, or as runs of consecutive indices.
/// [`ParentIndices`] is one (it keeps them in its lists).
pub trait ParentVisitor {
    /// One parent.
    fn single(&mut self, index: u64);
    /// The parents `run.start..run.end`.
    fn run(&mut self, run: std::ops::Range<u64>);
    /// The parents `run.start..run.end` but `hole`: a run with one index
    /// inside it that is no parent (Fingers' transfers: every other
    /// split of the same number of fingers, not the child's own). The
    /// default sends the runs either side of the hole (the whole run if
    /// the hole is outside it); a solver may instead update the whole
    /// run in one pass and leave the hole's cell as it was.
    ///
    /// ```
    /// use game_core::{ParentIndices, ParentVisitor};
    /// let mut seen = ParentIndices::default();
    /// seen.run_except(3..7, 5);
    /// seen.run_except(10..12, 10);
    /// seen.run_except(20..22, 99);
    /// assert_eq!(seen.iter().collect::<Vec<_>>(), [3, 4, 6, 11, 20, 21]);
    /// ```
    #[inline]
    fn run_except(&mut self, run: std::ops::Range<u64>, hole: u64) {
        if !run.contains(&hole) {
            self.run(run);
            return;
        }
        if run.start < hole {
            self.run(run.start..hole);
        }
        if hole + 1 < run.end {
            self.run(hole + 1..run.end);
        }
    }
}

impl ParentVisitor for ParentIndices {
    #[inline]
    fn single(&mut self, index: u64) {
        self.singles.push(index);
    }
    #[inline]
    fn run(&mut self, run: std::ops::Range<u64>) {
        self.runs.push(run);
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
        /// (any number for indices that are no position or are over: the
        /// solver ignores those) and returns `true`. The default returns
        /// `false`.
        fn child_counts(&self, _first: u64, _out: &mut [u32]) -> bool {
            false
        }

        /// [`IndexedUnmoves::child_counts`] in 16 bits, for solvers whose
        /// cells are 2 bytes: the same counts, each above `u16::MAX` written as
        /// `u16::MAX` (more than a 2-byte cell counts, so such a solver moves
        /// to wider cells). Returns what `child_counts` returns. The default
        /// asks `child_counts` a few hundred at a time and narrows (slots past
        /// index `u64::MAX`, which no position has, get 0); a game
        /// that counts in bulk overrides this as well when it can count in 16
        /// bits directly (twice the counts a SIMD register, no narrowing: a
        /// tenth of Fingers F = 64's whole solve).
        ///
        /// ```
        /// use game_core::IndexedUnmoves;
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
        ///     fn child_counts(&self, first: u64, out: &mut [u32]) -> bool {
        ///         for (k, o) in out.iter_mut().enumerate() {
        ///             *o = 30_000 * (first as u32 + k as u32);
        ///         }
        ///         true
        ///     }
        /// }
        /// let mut narrow = [0u16; 4];
        /// assert!(Wide.child_counts_narrow(0, &mut narrow));
        /// assert_eq!(narrow, [0, 30_000, 60_000, u16::MAX]);
        /// ```
        fn child_counts_narrow(&self, first: u64, out: &mut [u16]) -> bool {
            const CHUNK: usize = 256;
            if out.is_empty() {
                return self.child_counts(first, &mut []);
            }
            let mut wide = [0u32; CHUNK];
            let mut done = 0;
            while done < out.len() {
                // Slots past index u64::MAX stand for no position: any number.
                let Some(start) = first.checked_add(done as u64) else {
                    out[done..].fill(0);
                    break;
                };
                let end = (done + CHUNK).min(out.len());
                let narrow = &mut out[done..end];
                let wide = &mut wide[..narrow.len()];
                if !self.child_counts(start, wide) {
                    return false;
                }
                for (n, &w) in narrow.iter_mut().zip(wide.iter()) {
                    *n = w.min(u32::from(u16::MAX)) as u16;
                }
                done += narrow.len();
            }
            true
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
    use std::ops::Range;

    /// A reversed run is empty, as its iterator says, and overlapping runs
    /// past `u64::MAX` saturate: neither overflows.
    #[test]
    fn len_of_reversed_and_huge_runs() {
        let reversed = ParentIndices {
            singles: vec![],
            runs: vec![Range { start: 7, end: 3 }],
        };
        assert_eq!(reversed.iter().count(), 0);
        assert_eq!(reversed.len(), 0);
        assert!(reversed.is_empty());
        let huge = ParentIndices {
            singles: vec![1],
            runs: vec![0..u64::MAX, 0..u64::MAX],
        };
        assert_eq!(huge.len(), u64::MAX);
    }

    /// Every index counts one child.
    struct Ones;

    impl Game for Ones {
        type Position = u64;
        type Move = ();
        fn moves(&self, _: &u64, _: &mut Vec<()>) {}
        fn play(&self, p: &u64, (): &()) -> u64 {
            *p
        }
    }

    impl crate::Indexed for Ones {
        fn size(&self) -> u64 {
            u64::MAX
        }
        fn index(&self, p: &u64) -> u64 {
            *p
        }
        fn position(&self, i: u64) -> Option<u64> {
            Some(i)
        }
    }

    impl Unmoves for Ones {
        fn unmoves(&self, _: &u64, _: &mut Vec<u64>) {}
    }

    impl IndexedUnmoves for Ones {
        fn child_counts(&self, _: u64, out: &mut [u32]) -> bool {
            out.fill(1);
            true
        }
    }

    /// Narrow counts asked past index `u64::MAX` (more than one chunk from
    /// near the end): the chunks that start past it are no positions,
    /// not an overflow.
    #[test]
    fn narrow_counts_near_the_last_index() {
        let mut narrow = [7u16; 600];
        assert!(Ones.child_counts_narrow(u64::MAX - 10, &mut narrow));
        assert!(narrow[..256].iter().all(|&n| n == 1));
        let mut narrow = [7u16; 600];
        assert!(Ones.child_counts_narrow(5, &mut narrow));
        assert!(narrow.iter().all(|&n| n == 1));
    }
}
