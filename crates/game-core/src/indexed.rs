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

/// A run of indices `start, start + step, …` (`count` of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Strided {
    /// The first index.
    pub start: u64,
    /// The distance between consecutive indices (at least 1).
    pub step: u64,
    /// How many indices.
    pub count: u64,
}

impl Strided {
    /// The indices in order. A run that would pass `u64::MAX` (one that
    /// is [`within`](Strided::within) no size) stops at its last index
    /// below it.
    ///
    /// ```
    /// use game_core::Strided;
    /// let run = Strided { start: u64::MAX - 1, step: 1, count: 5 };
    /// assert_eq!(run.iter().collect::<Vec<_>>(), [u64::MAX - 1, u64::MAX]);
    /// let all = Strided { start: 0, step: 1, count: u64::MAX };
    /// assert_eq!(all.iter().nth(3), Some(3));
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = u64> {
        let Strided { start, step, count } = *self;
        // The indices up to u64::MAX, counted once: no check an index in
        // the loop (the certificate and the reachable walk run it over
        // every strided child).
        let reach = match step {
            0 => count,
            // 2⁶⁴ indices from 0 by 1 saturate to u64::MAX, more than any count.
            _ => count.min(((u64::MAX - start) / step).saturating_add(1)),
        };
        (0..reach).map(move |k| start + k * step)
    }

    /// Whether the run keeps its promises for a game of `size` indices:
    /// distinct indices (a step of at least 1 unless it holds one index)
    /// that all lie below `size`. What a solver checks before it walks a
    /// run a game gave it: a step of 0 repeated `u64::MAX` times would
    /// never end.
    ///
    /// ```
    /// use game_core::Strided;
    /// assert!(Strided { start: 2, step: 3, count: 3 }.within(9)); // 2, 5, 8
    /// assert!(!Strided { start: 2, step: 3, count: 3 }.within(8));
    /// assert!(!Strided { start: 2, step: 0, count: 2 }.within(9));
    /// assert!(Strided { start: 2, step: 0, count: 1 }.within(9));
    /// assert!(Strided { start: 9, step: 1, count: 0 }.within(9)); // empty
    /// assert!(!Strided { start: 1, step: u64::MAX, count: 3 }.within(u64::MAX));
    /// ```
    #[must_use]
    pub fn within(&self, size: u64) -> bool {
        let Strided { start, step, count } = *self;
        match count {
            0 => true,
            1 => start < size,
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

/// The children of a position by index: single indices and strided runs,
/// every distinct child exactly once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChildIndices {
    /// Children given one by one.
    pub singles: Vec<u64>,
    /// Children given as strided runs.
    pub strided: Vec<Strided>,
}

impl ChildIndices {
    /// Empties both lists, keeping their memory.
    pub fn clear(&mut self) {
        self.singles.clear();
        self.strided.clear();
    }

    /// The number of children, `u64::MAX` if they are more (runs that
    /// promise more distinct indices than there are: see
    /// [`Strided::within`]).
    #[must_use]
    pub fn len(&self) -> u64 {
        self.strided
            .iter()
            .fold(self.singles.len() as u64, |n, s| n.saturating_add(s.count))
    }

    /// Whether there is no child.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every child index, singles first.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.singles
            .iter()
            .copied()
            .chain(self.strided.iter().flat_map(Strided::iter))
    }
}

capability! {
    macro indexed_children_methods;
    /// Children by index, for checkers and walks that visit every position:
    /// the default generates the moves, plays them and indexes the results; a
    /// game with structure in its index overrides it (Magic Fingers lists its
    /// transfers as one strided run).
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
        let run = Strided {
            start: 0,
            step: 0,
            count: u64::MAX,
        };
        let kids = ChildIndices {
            singles: vec![1],
            strided: vec![run, run],
        };
        assert_eq!(kids.len(), u64::MAX);
        assert!(!kids.is_empty());
    }

    /// A run past `u64::MAX` ends there instead of overflowing.
    #[test]
    fn a_run_past_the_last_index_stops_there() {
        let run = Strided {
            start: 1,
            step: u64::MAX / 2,
            count: 4,
        };
        assert_eq!(
            run.iter().collect::<Vec<_>>(),
            [1, 1 + u64::MAX / 2, u64::MAX]
        );
        let kids = ChildIndices {
            singles: vec![9],
            strided: vec![run],
        };
        assert_eq!(kids.iter().count(), 4);
        let ok = Strided {
            start: 2,
            step: 3,
            count: 3,
        };
        assert_eq!(ok.iter().collect::<Vec<_>>(), [2, 5, 8]);
    }
}
