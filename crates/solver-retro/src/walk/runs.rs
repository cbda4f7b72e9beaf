//! Strided children a task of the reachable walk knows are marked, so that
//! a run it has marked whole is not marked again.
//!
//! Design note: a game often gives neighbouring positions one strided run
//! of children less an index of their own. Magic Fingers' transfers are
//! the case in point: every position (A, B) reaches (B, X) for each X of
//! A's sum but A itself, a column of the index given as two pieces around
//! that hole, and all the positions of a sum class with the same B reach
//! that same column. A level is expanded in index order, so a task meets
//! the same run again and again: at F = 128 the walk marked 3.07·10⁹
//! children one bit at a time, some 98 % of them seen already, and that
//! was three quarters of its time. Here two pieces of one step with a
//! single index between them are taken as one run with a hole; a task
//! remembers the last runs it marked (a few dozen slots, by hash), and a
//! run met again costs nothing — or one bit, the hole it left last time,
//! when this position's hole is elsewhere.
//!
//! Why it is exact: a remembered run's bits (all but its hole) were set
//! in the walk's bitmap of positions seen, which only ever gains bits, so
//! they are still set; whoever set a bit first put that position in the
//! next level. Skipping a set bit is what marking it would have done.

use game_core::Run;

/// Slots of a task's memory of runs (a power of two).
const SLOTS: usize = 64;

/// One remembered run: its whole extent (from its first index, `count`
/// indices `step` apart) and the index it left out, if any.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Slot {
    start: u64,
    step: u64,
    count: u64,
    /// The index of the run not known to be marked (`u64::MAX`: none;
    /// an index that large is never inside a run of a game's size).
    hole: u64,
}

/// An empty slot: a run of no index matches no run of children.
const EMPTY: Slot = Slot {
    start: 0,
    step: 0,
    count: 0,
    hole: u64::MAX,
};

/// The runs a task marked last ([`Marked::mark_runs`]).
pub(super) struct Marked {
    slots: Vec<Slot>,
}

impl Default for Marked {
    fn default() -> Self {
        Marked {
            slots: vec![EMPTY; SLOTS],
        }
    }
}

/// The run `p`, the index `hole` and the run `q` one after the other with
/// one step between each: their whole extent and the hole. (A run of one
/// index may have any step, so nothing here may overflow.)
fn joined(p: &Run, q: &Run) -> Option<(Run, u64)> {
    if p.count == 0 || q.count == 0 || p.step == 0 || p.step != q.step {
        return None;
    }
    if p.except.is_some() || q.except.is_some() {
        return None;
    }
    let hole = p.step.checked_mul(p.count)?.checked_add(p.start)?;
    let count = p.count.checked_add(1)?.checked_add(q.count)?;
    (hole.checked_add(p.step) == Some(q.start))
        .then_some((Run::strided(p.start, p.step, count), hole))
}

impl Marked {
    /// Marks every index of the strided children `runs` of one position
    /// with `mark`, but those of runs this task knows are marked already.
    /// Every run must be [within](Run::within) the game.
    ///
    /// # Errors
    /// The first error `mark` returns.
    pub(super) fn mark_runs<E>(
        &mut self,
        runs: &[Run],
        mark: &mut impl FnMut(u64) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut i = 0;
        while i < runs.len() {
            let p = &runs[i];
            // A run with a hole of its own is whole less that index; two
            // plain pieces with one index between them are joined so.
            let (whole, hole, pieces, n) = match (p.hole(), runs.get(i + 1)) {
                (Some(k), _) => (
                    Run { except: None, ..*p },
                    p.start.wrapping_add(p.step.wrapping_mul(k)),
                    p.pieces(),
                    1,
                ),
                (None, next) => match next.and_then(|q| joined(p, q)) {
                    Some((whole, hole)) => (whole, hole, [*p, runs[i + 1]], 2),
                    None => (*p, u64::MAX, [*p, Run::strided(0, 1, 0)], 1),
                },
            };
            i += n;
            let slot = &mut self.slots[slot_of(&whole)];
            if (slot.start, slot.step, slot.count) == (whole.start, whole.step, whole.count) {
                // All of the run but `slot.hole` is marked: this position
                // adds that one index unless it leaves it out too.
                if slot.hole != u64::MAX && slot.hole != hole {
                    mark(slot.hole)?;
                    slot.hole = u64::MAX;
                }
                continue;
            }
            for piece in &pieces {
                for k in piece.iter() {
                    mark(k)?;
                }
            }
            *slot = Slot {
                start: whole.start,
                step: whole.step,
                count: whole.count,
                hole,
            };
        }
        Ok(())
    }
}

/// The slot a run is remembered in.
#[inline]
fn slot_of(run: &Run) -> usize {
    let h = (run.start ^ run.count.rotate_left(32) ^ run.step.rotate_left(48))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 58) as usize & (SLOTS - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Pieces of children: a run over a small index, maybe cut around a
    /// hole, as a game would give them.
    fn children() -> impl Strategy<Value = Vec<Run>> {
        let run = (0u64..3, 1u64..3, 2u64..7, 0u64..8, any::<bool>());
        // Now and then a run of one index with any step (within any size).
        let single = (0u64..128, any::<u64>()).prop_map(|(start, step)| (start, step, 1, 0, false));
        let runs = prop_oneof![4 => run, 1 => single];
        proptest::collection::vec(runs, 0..4).prop_map(|runs| {
            let mut out = Vec::new();
            for (start, step, count, cut, holed) in runs {
                if holed && cut < count {
                    // One run less its index `cut` (or less an index
                    // past it, which leaves nothing out).
                    out.push(Run::strided(start, step, count).except(start + cut * step));
                } else if cut < count && cut > 0 {
                    // Two pieces around the index `cut` of the run.
                    out.push(Run::strided(start, step, cut));
                    out.push(Run::strided(
                        start + (cut + 1) * step,
                        step,
                        count - cut - 1,
                    ));
                } else {
                    out.push(Run::strided(start, step, count));
                }
            }
            out
        })
    }

    proptest! {
        /// Position after position, every child is marked once it has been
        /// given, and each index is found new exactly when a plain marking
        /// of every child would find it new.
        #[test]
        fn marks_what_marking_everything_marks(positions in proptest::collection::vec(children(), 1..40)) {
            let mut seen = vec![false; 128];
            let mut plain = vec![false; 128];
            let (mut found, mut found_plain) = (Vec::new(), Vec::new());
            let mut marked = Marked::default();
            for runs in &positions {
                marked
                    .mark_runs(runs, &mut |k: u64| -> Result<(), ()> {
                        if !std::mem::replace(&mut seen[k as usize], true) {
                            found.push(k);
                        }
                        Ok(())
                    })
                    .unwrap();
                for run in runs {
                    for k in run.iter() {
                        if !std::mem::replace(&mut plain[k as usize], true) {
                            found_plain.push(k);
                        }
                    }
                }
                prop_assert_eq!(&seen, &plain);
                prop_assert_eq!(&found, &found_plain);
            }
        }
    }

    /// Two pieces of one step around a single index are one run with a
    /// hole; with a gap of two, or other steps, they are not.
    #[test]
    fn pieces_join_around_one_hole() {
        let p = Run::strided(3, 10, 2);
        let q = |start, step| Run::strided(start, step, 4);
        let (whole, hole) = joined(&p, &q(33, 10)).unwrap();
        assert_eq!((whole.start, whole.count, hole), (3, 7, 23));
        assert!(joined(&p, &q(43, 10)).is_none());
        assert!(joined(&p, &q(33, 5)).is_none());
        assert!(joined(&p, &q(23, 10)).is_none());
        // Runs of one index may have any step: no overflow (it panicked
        // in debug builds).
        let one = |start| Run::strided(start, u64::MAX, 1);
        assert!(joined(&one(1), &one(0)).is_none());
        assert!(joined(&one(0), &one(u64::MAX)).is_none());
    }

    /// A run met again is not marked again: the second position of a sum
    /// class marks only the first one's hole, the third nothing.
    #[test]
    fn a_run_met_again_costs_its_old_hole_at_most() {
        let around = |hole: u64| {
            [
                Run::strided(0, 7, hole),
                Run::strided((hole + 1) * 7, 7, 9 - hole),
            ]
        };
        let mut marked = Marked::default();
        let mut calls = |hole| {
            let mut n = 0;
            marked
                .mark_runs(&around(hole), &mut |_k| -> Result<(), ()> {
                    n += 1;
                    Ok(())
                })
                .unwrap();
            n
        };
        assert_eq!(calls(4), 9);
        // Only 4 was not marked yet; 6 is left out but was marked.
        assert_eq!(calls(6), 1);
        assert_eq!(calls(2), 0);
        // The same run given whole with a hole (as Fingers gives it) is
        // the same run: its new hole 5 was marked already.
        let mut n = 0;
        marked
            .mark_runs(&[Run::strided(0, 7, 10).except(35)], &mut |_k| -> Result<
                (),
                (),
            > {
                n += 1;
                Ok(())
            })
            .unwrap();
        assert_eq!(n, 0);
    }
}
