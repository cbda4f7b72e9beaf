//! [`Indexed`]: a dense numbering of positions, for flat tables, and
//! [`IndexedChildren`]: children by index.

use crate::Game;

capability! {
    macro indexed_methods;
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
}

/// A run of indices `start, start + step, …` (`count` of them), less
/// `except` when that is one of them: the one shape in which a game
/// gives many children ([`ChildIndices`]) or parents
/// ([`ParentIndices`](crate::ParentIndices),
/// [`ParentVisitor::run`](crate::ParentVisitor::run)) at once. Magic
/// Fingers' transfers are one: every other split of the same number of
/// fingers, a column of the index (`step` the row length) or a row
/// (`step` 1), less the position's own split.
///
/// ```
/// use game_core::Run;
/// let run = Run::range(3..7).except(5);
/// assert_eq!(run.iter().collect::<Vec<_>>(), [3, 4, 6]);
/// assert_eq!(run.len(), 3);
/// let column = Run::strided(1, 10, 3);
/// assert_eq!(column.iter().collect::<Vec<_>>(), [1, 11, 21]);
/// // A hole that is none of the run's indices leaves nothing out.
/// assert_eq!(column.except(12).len(), 3);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Run {
    /// The first index.
    pub start: u64,
    /// The distance between consecutive indices (at least 1 when there
    /// are two or more).
    pub step: u64,
    /// How many indices, the hole included.
    pub count: u64,
    /// An index left out: the run's indices less this one (nothing is
    /// left out when it is none of them).
    pub except: Option<u64>,
}

impl Run {
    /// The consecutive indices `range.start..range.end` (none when the
    /// range is reversed).
    #[inline]
    #[must_use]
    pub fn range(range: std::ops::Range<u64>) -> Run {
        Run {
            start: range.start,
            step: 1,
            count: range.end.saturating_sub(range.start),
            except: None,
        }
    }

    /// `count` indices from `start`, `step` apart.
    #[inline]
    #[must_use]
    pub fn strided(start: u64, step: u64, count: u64) -> Run {
        Run {
            start,
            step,
            count,
            except: None,
        }
    }

    /// The same run less `hole`.
    #[inline]
    #[must_use]
    pub fn except(self, hole: u64) -> Run {
        Run {
            except: Some(hole),
            ..self
        }
    }

    /// The position of `hole` among the run's indices (`Some(k)`: it is
    /// `start + k * step`, `k < count`), or `None` when there is no hole
    /// or it is none of them.
    #[inline]
    #[must_use]
    pub fn hole(&self) -> Option<u64> {
        let hole = self.except?;
        let off = hole.checked_sub(self.start)?;
        // A step of 1 first: no division on the solvers' common run.
        let k = match self.step {
            1 => off,
            0 if off == 0 => 0,
            0 => return None,
            step if off % step == 0 => off / step,
            _ => return None,
        };
        (k < self.count).then_some(k)
    }

    /// The run as at most two runs with no hole: the indices before the
    /// hole and those after it (the second empty, `count` 0, when there
    /// is no hole). What a consumer that walks plain runs reads.
    ///
    /// ```
    /// use game_core::Run;
    /// let [a, b] = Run::range(3..7).except(3).pieces();
    /// assert_eq!((a.count, b.start, b.count), (0, 4, 3));
    /// ```
    #[inline]
    #[must_use]
    pub fn pieces(&self) -> [Run; 2] {
        let plain = Run {
            except: None,
            ..*self
        };
        match self.hole() {
            None => [plain, Run::strided(self.start, self.step, 0)],
            Some(k) => [
                Run::strided(self.start, self.step, k),
                // k < count, so the index after the hole is at most the
                // run's last: no overflow in a run within a size.
                Run::strided(
                    self.start
                        .wrapping_add(self.step.wrapping_mul(k))
                        .wrapping_add(self.step),
                    self.step,
                    self.count - k - 1,
                ),
            ],
        }
    }

    /// The run as consecutive indices `start..end`, when it is (a step
    /// of 1, or at most one index), hole not left out; `None` for a
    /// strided run. The end saturates at `u64::MAX` (a run that passes
    /// it is within no size).
    #[inline]
    #[must_use]
    pub fn span(&self) -> Option<std::ops::Range<u64>> {
        (self.step == 1 || self.count <= 1)
            .then(|| self.start..self.start.saturating_add(self.count))
    }

    /// The number of indices, less the hole when it is one of them.
    #[inline]
    #[must_use]
    pub fn len(&self) -> u64 {
        self.count - u64::from(self.hole().is_some())
    }

    /// Whether the run holds no index.
    #[inline]
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The indices in order, the hole left out. A run that would pass
    /// `u64::MAX` (one that is [`within`](Run::within) no size) stops at
    /// its last index below it.
    ///
    /// ```
    /// use game_core::Run;
    /// let run = Run::strided(u64::MAX - 1, 1, 5);
    /// assert_eq!(run.iter().collect::<Vec<_>>(), [u64::MAX - 1, u64::MAX]);
    /// let all = Run::strided(0, 1, u64::MAX);
    /// assert_eq!(all.iter().nth(3), Some(3));
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = u64> {
        // The pieces either side of the hole, each a plain count: no
        // check an index for the hole in the loop (the certificate and
        // the reachable walk run it over every strided child).
        let [before, after] = self.pieces();
        before.plain().chain(after.plain())
    }

    /// The indices of the run with its hole kept, up to `u64::MAX`
    /// (counted once, before the loop).
    fn plain(self) -> impl Iterator<Item = u64> {
        let Run {
            start, step, count, ..
        } = self;
        let reach = match step {
            0 => count,
            // 2⁶⁴ indices from 0 by 1 saturate to u64::MAX, more than any count.
            _ => count.min(((u64::MAX - start) / step).saturating_add(1)),
        };
        (0..reach).map(move |k| start + k * step)
    }

    /// Whether the run keeps its promises for a game of `size` indices:
    /// distinct indices (a step of at least 1 unless it holds one index)
    /// that all lie below `size` (the hole, left out, need not). What a
    /// solver checks before it walks a run a game gave it: a step of 0
    /// repeated `u64::MAX` times would never end.
    ///
    /// ```
    /// use game_core::Run;
    /// assert!(Run::strided(2, 3, 3).within(9)); // 2, 5, 8
    /// assert!(!Run::strided(2, 3, 3).within(8));
    /// assert!(!Run::strided(2, 0, 2).within(9));
    /// assert!(Run::strided(2, 0, 1).within(9));
    /// assert!(Run::strided(9, 1, 0).within(9)); // empty
    /// assert!(!Run::strided(1, u64::MAX, 3).within(u64::MAX));
    /// assert!(Run::range(0..9).within(9) && !Run::range(0..10).within(9));
    /// ```
    #[inline]
    #[must_use]
    pub fn within(&self, size: u64) -> bool {
        let Run {
            start, step, count, ..
        } = *self;
        match count {
            0 => true,
            1 => start < size,
            _ if step == 1 => start < size && count <= size - start,
            _ => {
                step >= 1
                    && step
                        .checked_mul(count - 1)
                        .and_then(|span| start.checked_add(span))
                        .is_some_and(|last| last < size)
            }
        }
    }
}

/// Indices given as single indices and as [`Run`]s: a position's
/// children ([`ChildIndices`], every distinct child exactly once) or its
/// parents ([`ParentIndices`](crate::ParentIndices), which may repeat),
/// one type for both, so that a solver reads them by one loop.
///
/// ```
/// use game_core::{Indices, Run};
/// let mut kids = Indices::default();
/// kids.singles.push(9);
/// kids.runs.push(Run::range(3..7).except(5));
/// assert_eq!(kids.len(), 4);
/// assert_eq!(kids.iter().collect::<Vec<_>>(), [9, 3, 4, 6]);
/// kids.clear();
/// assert!(kids.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Indices {
    /// Indices given one by one.
    pub singles: Vec<u64>,
    /// Indices given as runs.
    pub runs: Vec<Run>,
}

/// The children of a position by index ([`IndexedChildren::child_indices`]):
/// single indices and runs, every distinct child exactly once.
pub type ChildIndices = Indices;

impl Indices {
    /// Empties both lists, keeping their memory.
    pub fn clear(&mut self) {
        self.singles.clear();
        self.runs.clear();
    }

    /// The number of indices, runs counted by [`Run::len`]; a count past
    /// `u64::MAX` (runs that promise more distinct indices than there
    /// are: see [`Run::within`]) saturates.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.runs
            .iter()
            .fold(self.singles.len() as u64, |n, s| n.saturating_add(s.len()))
    }

    /// Whether there is no index.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every index, singles first.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.singles
            .iter()
            .copied()
            .chain(self.runs.iter().flat_map(Run::iter))
    }

    /// Sends every index to `visit`, singles first, runs as runs.
    pub fn send_to(&self, visit: &mut impl crate::ParentVisitor) {
        for &p in &self.singles {
            visit.single(p);
        }
        for &run in &self.runs {
            visit.run(run);
        }
    }
}

capability! {
    macro indexed_children_methods;
    /// Children by index, for checkers and walks that visit every position:
    /// the default generates the moves, plays them and indexes the results; a
    /// game with structure in its index overrides it (Magic Fingers lists its
    /// transfers as one run of the index less a hole).
    pub trait IndexedChildren: Indexed {
        /// Adds to `out` the index of every distinct child of the position at
        /// `index`, each exactly once — none when `index` is no position or the
        /// game is over there ([`Game::outcome`] is `Some`). `moves` is scratch.
        fn child_indices(&self, index: u64, out: &mut ChildIndices, moves: &mut Vec<Self::Move>) {
            child_indices_by_moves(self, index, out, moves);
        }
    }
}

/// Sorts `v[first..]` and drops its repeats in place, leaving `v[..first]`
/// as it was: a list of indices one position added to the end of a
/// buffer, made distinct.
///
/// ```
/// let mut v = vec![9, 4, 7, 4, 9, 7, 1];
/// game_core::sort_dedup_tail(&mut v, 2);
/// assert_eq!(v, [9, 4, 1, 4, 7, 9]);
/// ```
pub fn sort_dedup_tail(v: &mut Vec<u64>, first: usize) {
    let Some(tail) = v.get_mut(first..) else {
        return;
    };
    tail.sort_unstable();
    let mut keep = first;
    for k in first..v.len() {
        if k == first || v[k] != v[keep - 1] {
            v[keep] = v[k];
            keep += 1;
        }
    }
    v.truncate(keep);
}

/// [`IndexedChildren::child_indices`] the plain way: decode the position,
/// generate its moves, play and index each, sort and drop repeats. For
/// games that override `child_indices` only for some rules.
pub fn child_indices_by_moves<G: Indexed + ?Sized>(
    game: &G,
    index: u64,
    out: &mut ChildIndices,
    moves: &mut Vec<G::Move>,
) {
    let Some(pos) = game.position(index) else {
        return;
    };
    if game.outcome(&pos).is_some() {
        return;
    }
    moves.clear();
    game.moves(&pos, moves);
    let first = out.singles.len();
    out.singles
        .extend(moves.iter().map(|m| game.index(&game.play(&pos, m))));
    sort_dedup_tail(&mut out.singles, first);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs that promise more children than `u64` counts: the count
    /// saturates instead of overflowing.
    #[test]
    fn len_of_runs_past_u64_saturates() {
        let run = Run::strided(0, 0, u64::MAX);
        let kids = ChildIndices {
            singles: vec![1],
            runs: vec![run, run],
        };
        assert_eq!(kids.len(), u64::MAX);
        assert!(!kids.is_empty());
    }

    /// A run past `u64::MAX` ends there instead of overflowing.
    #[test]
    fn a_run_past_the_last_index_stops_there() {
        let run = Run::strided(1, u64::MAX / 2, 4);
        assert_eq!(
            run.iter().collect::<Vec<_>>(),
            [1, 1 + u64::MAX / 2, u64::MAX]
        );
        let kids = ChildIndices {
            singles: vec![9],
            runs: vec![run],
        };
        assert_eq!(kids.iter().count(), 4);
        let ok = Run::strided(2, 3, 3);
        assert_eq!(ok.iter().collect::<Vec<_>>(), [2, 5, 8]);
    }

    /// A hole is left out wherever it lies in the run, and nothing is
    /// left out for a hole that is none of its indices; the pieces hold
    /// exactly the indices the run walks (checked against a filter of
    /// the plain run, for every hole near a few small runs).
    #[test]
    fn holes_and_pieces_agree_with_a_filter() {
        for (start, step, count) in [(0, 1, 5), (3, 4, 4), (7, 0, 1), (2, 3, 0), (5, 2, 1)] {
            let plain = Run::strided(start, step, count);
            for hole in 0..start + step * count + 3 {
                let run = plain.except(hole);
                let want: Vec<u64> = plain.iter().filter(|&k| k != hole).collect();
                assert_eq!(run.iter().collect::<Vec<_>>(), want, "{run:?}");
                assert_eq!(run.len(), want.len() as u64, "{run:?}");
                let pieces: Vec<u64> = run.pieces().iter().flat_map(Run::iter).collect();
                assert_eq!(pieces, want, "{run:?}");
                assert!(run.pieces().iter().all(|p| p.hole().is_none()));
            }
        }
        assert_eq!(Run::range(std::ops::Range { start: 4, end: 2 }).len(), 0);
        assert_eq!(Run::range(4..9).span(), Some(4..9));
        assert_eq!(Run::strided(4, 2, 3).span(), None);
    }
}
