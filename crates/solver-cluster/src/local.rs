//! What the workers of one process share without timely: the blocks of
//! the tier being solved, the work of a level, the summaries of a round
//! and the barrier among the process's workers. When the process is the
//! whole cluster a summary is the round's (busy, next event, flags);
//! across processes timely carries those, and the local slots carry only
//! whether a worker's list of the next level passed its cap, which the
//! process's workers agree on after applying what other processes sent.
//!
//! The process's blocks (see `layout.rs`) sit behind a lock each. Any
//! worker seeds any block (blocks are claimed in turn, the last first: an
//! index's cost varies so much along a tier — Connect Four's later
//! indices hold more positions — that equal ranges alone leave one worker
//! idle), and during the levels any worker applies updates to any block
//! of the process, holding its lock while it applies a batch of them. So
//! the work of a level goes to whichever worker is free, however the
//! level's updates fall among the shards.
//!
//! The workers of a process also share the children of a level: each
//! publishes its part (the children whose parents are to be found, each
//! with its lost bit) and takes it in chunks; a worker done with its own
//! part takes chunks of the others' parts.
//!
//! A level's summaries are written before the level's barrier and read
//! after it, so summary slots and parts are kept twice, by the parity of
//! the round: a worker that has read round `r`'s and runs ahead writes
//! round `r + 1`'s in the other half, and cannot write round `r + 2`'s
//! before every worker has passed barrier `r + 1`, that is, read round
//! `r`'s.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use crate::cell::Piece;
use crate::fault::Fault;
use crate::space::After;
use crate::Error;

/// A worker's part of a level, and how far into it the workers have
/// taken.
type Part = (Arc<Vec<u64>>, usize);

/// The blocks of the tier being solved in a process, by their place
/// among the process's blocks (`None` until seeded).
pub(crate) type Blocks = Arc<Vec<Mutex<Option<Piece>>>>;

/// The seeding under way in a process.
struct Seeding {
    round: u64,
    /// Blocks claimed so far.
    claimed: usize,
    after: Option<After>,
    /// A cell was too narrow: the tier starts again in wide cells.
    overflow: bool,
    /// Which of the seeds' lists grew too long for a worker
    /// ([`UNLISTED_DECISIVE`], [`UNLISTED_TIES`]): their level 0 is found
    /// by scanning the cells.
    unlisted: u8,
    blocks: Blocks,
    /// The round, outcome, overflow and unlisted lists of the seeding
    /// before (a worker that starts a tier again may start seeding before
    /// the others have read the last seeding's outcome).
    before: (u64, Option<After>, bool, u8),
}

/// The seeds won or lost at level 0 were too many to list.
pub(crate) const UNLISTED_DECISIVE: u8 = 1;
/// The seeds tied at level 0 were too many to list.
pub(crate) const UNLISTED_TIES: u8 = 2;

/// The blocks, shared work and barrier of one process's workers.
pub(crate) struct Local {
    /// Workers in the process.
    n: usize,
    /// `[parity][worker]`: the worker's summary (busy, next event).
    summaries: [Vec<Mutex<(u64, u64)>>; 2],
    /// `[parity][worker]`: the worker's part of the level and how far
    /// into it the workers have taken.
    parts: [Vec<Mutex<Part>>; 2],
    /// The seeding under way (and the blocks it fills).
    seeding: Mutex<Seeding>,
    barrier: Barrier,
    /// The run's failure record.
    pub(crate) fault: Fault,
}

/// Children a worker takes from a part of a level at once, at most: a
/// part is cut in [`CHUNKS`] chunks a worker of the process or more (a
/// child may have thousands of parents, so a level of a few thousand
/// children in chunks of 256 left one worker with the last chunk while
/// the others waited), of [`MIN_TAKE`] children at least.
const TAKE: usize = 256;
/// Chunks a part is cut in, a worker.
const CHUNKS: usize = 16;
/// The fewest children taken at once.
const MIN_TAKE: usize = 4;

impl Local {
    /// For a process of `n` workers of the run that `fault` records.
    pub(crate) fn new(n: usize, fault: Fault) -> Local {
        let slots = || (0..n).map(|_| Mutex::new((0, 0))).collect();
        let parts = || (0..n).map(|_| Mutex::new((Arc::default(), 0))).collect();
        Local {
            n,
            summaries: [slots(), slots()],
            parts: [parts(), parts()],
            seeding: Mutex::new(Seeding {
                round: u64::MAX,
                claimed: 0,
                after: None,
                overflow: false,
                unlisted: 0,
                blocks: Arc::default(),
                before: (u64::MAX, None, false, 0),
            }),
            barrier: Barrier {
                n,
                state: Mutex::new(0),
                generation: AtomicU64::new(0),
                wake: Condvar::new(),
            },
            fault,
        }
    }

    /// Sets local worker `w`'s summary of round `round`.
    pub(crate) fn summarize(&self, round: u64, w: usize, summary: (u64, u64)) {
        *lock(&self.summaries[(round & 1) as usize][w]) = summary;
    }

    /// Every local worker's summary of round `round`.
    pub(crate) fn summaries(&self, round: u64) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.summaries[(round & 1) as usize]
            .iter()
            .map(|s| *lock(s))
    }

    /// Publishes local worker `w`'s part of the level of round `round`,
    /// and takes back its part of two rounds before (every worker has
    /// finished with it).
    pub(crate) fn publish(&self, round: u64, w: usize, part: Vec<u64>) -> Vec<u64> {
        let old = std::mem::replace(
            &mut *lock(&self.parts[(round & 1) as usize][w]),
            (Arc::new(part), 0),
        );
        let mut v = Arc::try_unwrap(old.0).unwrap_or_default();
        v.clear();
        v
    }

    /// Takes the next chunk of the level of round `round` for local worker
    /// `me`: from its own part first, then from the others'; `None` once
    /// every part is taken. Returns the part and the range taken.
    pub(crate) fn take_work(
        &self,
        round: u64,
        me: usize,
    ) -> Option<(Arc<Vec<u64>>, std::ops::Range<usize>)> {
        let parts = &self.parts[(round & 1) as usize];
        for k in 0..self.n {
            let w = (me + k) % self.n;
            let mut slot = lock(&parts[w]);
            let (part, at) = &mut *slot;
            if *at < part.len() {
                let start = *at;
                let take = (part.len() / (CHUNKS * self.n)).clamp(MIN_TAKE, TAKE);
                *at = (start + take).min(part.len());
                return Some((Arc::clone(part), start..*at));
            }
        }
        None
    }

    /// The process's `blocks` blocks to seed in round `round`, empty: the
    /// first worker to ask in a round makes them, the others get the same.
    pub(crate) fn start_seeding(&self, round: u64, blocks: usize) -> Blocks {
        let mut s = lock(&self.seeding);
        if s.round != round {
            *s = Seeding {
                round,
                claimed: 0,
                after: None,
                overflow: false,
                unlisted: 0,
                blocks: Arc::new((0..blocks).map(|_| Mutex::new(None)).collect()),
                before: (s.round, s.after, s.overflow, s.unlisted),
            };
        }
        Arc::clone(&s.blocks)
    }

    /// The next block to seed in round `round`, if any is left (none once
    /// a cell overflowed): the last first (later indices tend to cost
    /// more).
    pub(crate) fn claim_block(&self, round: u64) -> Option<usize> {
        let mut s = lock(&self.seeding);
        let n = s.blocks.len();
        (s.round == round && s.claimed < n && !s.overflow).then(|| {
            s.claimed += 1;
            n - s.claimed
        })
    }

    /// Records how the tier seeded in round `round` goes on.
    pub(crate) fn set_after(&self, round: u64, after: After) {
        let mut s = lock(&self.seeding);
        if s.round == round {
            s.after = Some(after);
        }
    }

    /// Records that a cell of the seeding of round `round` was too narrow.
    pub(crate) fn set_overflow(&self, round: u64) {
        let mut s = lock(&self.seeding);
        if s.round == round {
            s.overflow = true;
        }
    }

    /// Records that a worker's seeds of round `round` grew too long to
    /// list (`lists`: [`UNLISTED_DECISIVE`], [`UNLISTED_TIES`] or both).
    pub(crate) fn set_unlisted(&self, round: u64, lists: u8) {
        let mut s = lock(&self.seeding);
        if s.round == round {
            s.unlisted |= lists;
        }
    }

    /// How the tier seeded in round `round` goes on (`None`: no block),
    /// whether a cell was too narrow, and which seed lists some worker
    /// could not keep ([`Local::set_unlisted`]).
    pub(crate) fn after(&self, round: u64) -> (Option<After>, bool, u8) {
        let s = lock(&self.seeding);
        if s.round == round {
            (s.after, s.overflow, s.unlisted)
        } else if s.before.0 == round {
            (s.before.1, s.before.2, s.before.3)
        } else {
            (None, false, 0)
        }
    }

    /// Waits until every local worker has reached this barrier (or a
    /// failure is recorded anywhere: [`Error::Failed`]).
    pub(crate) fn barrier(&self) -> Result<(), Error> {
        self.barrier.wait(&self.fault)
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A reusable barrier that spins briefly (a level of a few microseconds
/// should not pay a sleep) and then sleeps, checking for failures.
struct Barrier {
    n: usize,
    /// Workers arrived in the current generation.
    state: Mutex<usize>,
    generation: AtomicU64,
    wake: Condvar,
}

/// Spins before sleeping.
const SPINS: u32 = 1 << 14;

impl Barrier {
    fn wait(&self, fault: &Fault) -> Result<(), Error> {
        let g = self.generation.load(Ordering::Acquire);
        {
            let mut arrived = lock(&self.state);
            *arrived += 1;
            if *arrived == self.n {
                *arrived = 0;
                self.generation.store(g + 1, Ordering::Release);
                self.wake.notify_all();
                return Ok(());
            }
        }
        for k in 0..SPINS {
            if self.generation.load(Ordering::Acquire) != g {
                return Ok(());
            }
            if k % 64 == 63 {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        let mut arrived = lock(&self.state);
        while self.generation.load(Ordering::Acquire) == g {
            if let Some(m) = fault.get() {
                return Err(Error::Failed(m));
            }
            arrived = self
                .wake
                .wait_timeout(arrived, Duration::from_millis(50))
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    /// Runs `work(me, local)` on `n` threads sharing one [`Local`] of `n`
    /// workers; their results in worker order.
    fn on_workers<T: Send + 'static>(
        n: usize,
        work: impl Fn(usize, &Local) -> T + Send + Sync + 'static,
    ) -> Vec<T> {
        let local = Arc::new(Local::new(n, Fault::new()));
        let work = Arc::new(work);
        let handles: Vec<_> = (0..n)
            .map(|me| {
                let (local, work) = (Arc::clone(&local), Arc::clone(&work));
                std::thread::spawn(move || work(me, &local))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker"))
            .collect()
    }

    #[test]
    fn summaries_cross_the_barrier_by_round() {
        let n = 3;
        let sums = on_workers(n, |me, local| {
            let mut sums = Vec::new();
            for round in 0..50u64 {
                local.summarize(round, me, (round, me as u64));
                local.barrier().expect("no failure");
                sums.push(local.summaries(round).map(|s| s.1).sum::<u64>());
                assert!(local.summaries(round).all(|s| s.0 == round));
            }
            sums
        });
        for s in sums {
            assert_eq!(s, vec![3; 50]);
        }
    }

    #[test]
    fn every_block_is_claimed_once() {
        let n = 3;
        let got = on_workers(n, |_, local| {
            let mut got = Vec::new();
            for round in 0..20u64 {
                let blocks = local.start_seeding(round, 40);
                while let Some(b) = local.claim_block(round) {
                    *lock(&blocks[b]) =
                        Some(Piece::zeroed(1, crate::cell::Width::Wide).expect("memory"));
                    got.push((round, b));
                }
                local.barrier().expect("no failure");
                assert!(blocks.iter().all(|b| lock(b).is_some()));
                local.barrier().expect("no failure");
            }
            got
        });
        let mut all: Vec<(u64, usize)> = got.into_iter().flatten().collect();
        all.sort_unstable();
        let want: Vec<(u64, usize)> = (0..20u64)
            .flat_map(|r| (0..40).map(move |b| (r, b)))
            .collect();
        assert_eq!(all, want);
    }

    #[test]
    fn every_child_of_a_level_is_taken_once() {
        let n = 3;
        let taken = on_workers(n, |me, local| {
            let mut taken = Vec::new();
            let mut mine = Vec::new();
            for round in 0..20u64 {
                // Worker 0 has a large part, the others small ones.
                let len = if me == 0 { 5000 } else { 10 * me as u64 };
                mine.extend((0..len).map(|i| round << 32 | (me as u64) << 16 | i));
                mine = local.publish(round, me, std::mem::take(&mut mine));
                assert!(mine.is_empty());
                while let Some((part, range)) = local.take_work(round, me) {
                    taken.extend_from_slice(&part[range]);
                }
                local.barrier().expect("no failure");
            }
            taken
        });
        let mut all: Vec<u64> = taken.into_iter().flatten().collect();
        all.sort_unstable();
        let mut want: Vec<u64> = (0..20u64)
            .flat_map(|round| {
                (0..n as u64).flat_map(move |me| {
                    let len = if me == 0 { 5000 } else { 10 * me };
                    (0..len).map(move |i| round << 32 | me << 16 | i)
                })
            })
            .collect();
        want.sort_unstable();
        assert_eq!(all, want);
    }
}
