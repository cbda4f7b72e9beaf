//! A crew of threads for many short rounds of parallel tasks: the engine's
//! steps on a table cut among owners.
//!
//! A step of the level engine is two rounds of one task per owner (send,
//! then receive), and a solve runs hundreds of steps of a fraction of a
//! millisecond each. On a pool that puts idle threads to sleep, every
//! round pays for waking the other threads and, at its end, for waking
//! the thread that waits for the last task: measured on Fingers F = 128
//! at two threads, some 18 µs at the start and 40 µs at the end of each
//! of 278 rounds (a sixth of the solve), because the threads go to sleep
//! while one of them does the step's sequential part. The crew's helpers
//! do not sleep between rounds: they spin, then yield, until the leader
//! publishes the next round or ends the crew; only a helper that has
//! waited long (a run of levels too small to share) naps, 200 µs at a
//! time, and the leader wakes it when it publishes a round (a napping
//! helper used to join its round up to a nap late: on Fingers F = 128 at
//! two threads, some 30 rounds a solve began ~100 µs short of a thread).
//!
//! Design note: the helpers are scoped threads of their own, not jobs on
//! the rayon pool, so that nothing the leader does between rounds (a
//! game's code included) can pick a helper's job off the pool's queue and
//! run its loop on the leader's stack. A task is claimed by a
//! compare-and-swap on one word holding the round's number, its task count
//! and the next task, so a helper that sees a round late can never run a
//! task of the next one; the leader starts a round only when every task of
//! the last one has finished. No task waits for a helper to arrive: a crew
//! whose helpers never got a core still finishes, on the leader alone.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::thread::Thread;

/// Tasks a round may have (16 bits of the claim word).
pub(crate) const MAX_TASKS: usize = (1 << 16) - 1;

/// Spins before a waiting helper starts yielding its core.
const SPINS: u32 = 1 << 8;

/// Yields (some microseconds each) before a waiting helper starts to nap.
const YIELDS: u32 = 1 << 8;

/// A waiting helper's nap once it has waited long (the leader is running
/// levels too small to share, or its own sequential work): it then costs
/// no core. The leader wakes a napping helper when it publishes a round;
/// the nap's bound only caps how long a wake-up lost to a race can delay
/// it.
const NAP: std::time::Duration = std::time::Duration::from_micros(200);

/// The claim word: round (its low 32 bits), task count (16), next task
/// (16).
fn pack(round: u64, count: usize, next: usize) -> u64 {
    ((round & ROUND_MASK) << 32) | ((count as u64) << 16) | next as u64
}

/// The bits of a round's number the claim word holds.
const ROUND_MASK: u64 = (1 << 32) - 1;

/// The round, task count and next task of a claim word.
fn unpack(c: u64) -> (u64, usize, usize) {
    (
        c >> 32,
        ((c >> 16) & 0xffff) as usize,
        (c & 0xffff) as usize,
    )
}

/// Whether a helper that last worked in round `done` has nothing to
/// claim in claim word `c`: no new round, or every task taken.
fn idle(c: u64, done: u64) -> bool {
    let (round, count, next) = unpack(c);
    round == done || next >= count
}

/// The leader's handle: runs rounds of tasks on itself and its helpers.
pub(crate) struct Crew<'t, R> {
    task: &'t (dyn Fn(R, usize) + Sync),
    /// What the current round does, with its number.
    round: Mutex<(u64, Option<R>)>,
    claim: AtomicU64,
    /// Tasks of the current round not yet finished.
    left: AtomicUsize,
    stop: AtomicBool,
    /// A task panicked on a helper.
    poisoned: AtomicBool,
    /// Helpers napping (or about to): the leader wakes them for a round.
    napping: AtomicUsize,
    /// The helpers, to wake (set once they are spawned).
    helpers: OnceLock<Vec<Thread>>,
}

/// Counts a claimed task as finished when dropped, even when the task
/// panics (the leader must not wait for it forever).
struct Finish<'a>(&'a AtomicUsize, &'a AtomicBool);

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.1.store(true, Ordering::Release);
        }
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Ends the crew when the leader leaves, even by a panic (the helpers
/// must not spin forever), and wakes any napping helper to see it.
struct Stop<'a, 't, R>(&'a Crew<'t, R>);

impl<R> Drop for Stop<'_, '_, R> {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::SeqCst);
        self.0.wake();
    }
}

impl<R> Crew<'_, R> {
    /// Wakes the helpers if any is napping. The leader publishes a round
    /// (or the stop) before it looks, and a helper counts itself napping
    /// before it looks for a round last: one of the two sees the other
    /// (both sequentially consistent), so no helper sleeps through a
    /// round; a wake-up that comes before the nap ends it at once.
    fn wake(&self) {
        if self.napping.load(Ordering::SeqCst) > 0 {
            for t in self.helpers.get().into_iter().flatten() {
                t.unpark();
            }
        }
    }
}

impl<R: Copy + Send> Crew<'_, R> {
    /// Claims and runs tasks of the current round while there are any;
    /// false when the claim word belongs to another round than `seen`.
    fn work(&self, seen: u64, what: R) -> bool {
        loop {
            let c = self.claim.load(Ordering::Acquire);
            let (round, count, next) = unpack(c);
            if round != seen {
                return false;
            }
            if next >= count {
                return true;
            }
            if self
                .claim
                .compare_exchange_weak(c, c + 1, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                let _done = Finish(&self.left, &self.poisoned);
                (self.task)(what, next);
            }
        }
    }

    /// A helper's life: wait for a round, help with its tasks, again,
    /// until the crew ends.
    fn help(&self) {
        let mut done = 0u64;
        let mut spins = 0u32;
        while !self.stop.load(Ordering::Acquire) {
            let c = self.claim.load(Ordering::Acquire);
            if idle(c, done) {
                // Nothing to claim: spin a while (the next round is
                // usually microseconds away), then give the core away
                // between looks, then nap.
                if spins < SPINS {
                    std::hint::spin_loop();
                } else if spins < SPINS + YIELDS {
                    std::thread::yield_now();
                } else {
                    self.napping.fetch_add(1, Ordering::SeqCst);
                    // Looked at again after counting itself napping (see
                    // `wake`).
                    if idle(self.claim.load(Ordering::SeqCst), done)
                        && !self.stop.load(Ordering::SeqCst)
                    {
                        std::thread::park_timeout(NAP);
                    }
                    self.napping.fetch_sub(1, Ordering::SeqCst);
                }
                spins = spins.saturating_add(1);
                continue;
            }
            spins = 0;
            let round = unpack(c).0;
            let Ok(guard) = self.round.lock() else { return };
            let (number, what) = *guard;
            drop(guard);
            match what {
                Some(what) if number & ROUND_MASK == round && self.work(round, what) => {
                    done = round
                }
                _ => {}
            }
        }
    }

    /// Runs tasks `0..count` of a round doing `what`, on this thread and
    /// the helpers; returns when all have finished.
    ///
    /// # Panics
    ///
    /// If a task panicked on a helper (the panic itself surfaces when the
    /// crew ends), or with more than [`MAX_TASKS`] tasks.
    pub(crate) fn round(&self, what: R, count: usize) {
        assert!(count <= MAX_TASKS, "a crew round of {count} tasks");
        let number = {
            let mut guard = self.round.lock().unwrap_or_else(|e| e.into_inner());
            guard.0 += 1;
            guard.1 = Some(what);
            guard.0
        };
        self.left.store(count, Ordering::Release);
        self.claim.store(pack(number, count, 0), Ordering::SeqCst);
        self.wake();
        self.work(number & ROUND_MASK, what);
        let mut spins = 0u32;
        while self.left.load(Ordering::Acquire) != 0 {
            if spins < SPINS {
                spins += 1;
                std::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
        assert!(
            !self.poisoned.load(Ordering::Acquire),
            "a crew task panicked"
        );
    }
}

/// Runs `lead` on this thread with a crew of `helpers` more threads that
/// run `task(what, k)` for the rounds `lead` starts ([`Crew::round`]).
pub(crate) fn with_crew<R: Copy + Send, T>(
    helpers: usize,
    task: &(dyn Fn(R, usize) + Sync),
    lead: impl FnOnce(&Crew<'_, R>) -> T,
) -> T {
    let crew = Crew {
        task,
        round: Mutex::new((0, None)),
        claim: AtomicU64::new(0),
        left: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        poisoned: AtomicBool::new(false),
        napping: AtomicUsize::new(0),
        helpers: OnceLock::new(),
    };
    std::thread::scope(|s| {
        let threads = (0..helpers)
            .map(|_| s.spawn(|| crew.help()).thread().clone())
            .collect();
        let _ = crew.helpers.set(threads);
        let _stop = Stop(&crew);
        lead(&crew)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_task_of_every_round_runs_once() {
        let hits: Vec<AtomicUsize> = (0..300).map(|_| AtomicUsize::new(0)).collect();
        let task = |round: usize, k: usize| {
            hits[k].fetch_add(round, Ordering::Relaxed);
        };
        with_crew(3, &task, |crew| {
            for round in 1..=200 {
                crew.round(round, 1 + round % 300);
            }
        });
        for (k, h) in hits.iter().enumerate() {
            // Task k ran in every round r with 1 + r % 300 > k, adding r.
            let want: usize = (1..=200).filter(|r| 1 + r % 300 > k).sum();
            assert_eq!(h.load(Ordering::Relaxed), want, "task {k}");
        }
    }

    #[test]
    fn rounds_past_two_to_the_32_still_run_every_task() {
        let hits: Vec<AtomicUsize> = (0..40).map(|_| AtomicUsize::new(0)).collect();
        let task = |_: (), k: usize| {
            hits[k].fetch_add(1, Ordering::Relaxed);
        };
        with_crew(2, &task, |crew| {
            // The claim word holds 32 bits of the round's number.
            crew.round.lock().unwrap().0 = (1 << 32) - 3;
            for _ in 0..6 {
                crew.round((), 40);
            }
        });
        assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 6));
    }

    #[test]
    fn rounds_after_the_helpers_nap_run_every_task_once() {
        let hits: Vec<AtomicUsize> = (0..8).map(|_| AtomicUsize::new(0)).collect();
        let task = |_: (), k: usize| {
            hits[k].fetch_add(1, Ordering::Relaxed);
        };
        let napped = AtomicBool::new(false);
        with_crew(2, &task, |crew| {
            for _ in 0..5 {
                // Long enough for the helpers to spin, yield and nap.
                let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
                while crew.napping.load(Ordering::SeqCst) == 0
                    && std::time::Instant::now() < deadline
                {
                    std::thread::sleep(std::time::Duration::from_micros(50));
                }
                napped.fetch_or(crew.napping.load(Ordering::SeqCst) > 0, Ordering::Relaxed);
                crew.round((), 8);
            }
        });
        assert!(napped.load(Ordering::Relaxed), "no helper ever napped");
        assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 5));
    }

    #[test]
    fn a_crew_without_helpers_runs_on_the_leader() {
        let n = AtomicUsize::new(0);
        let task = |_: (), _k: usize| {
            n.fetch_add(1, Ordering::Relaxed);
        };
        with_crew(0, &task, |crew| crew.round((), 7));
        assert_eq!(n.load(Ordering::Relaxed), 7);
    }

    #[test]
    fn a_panicking_task_ends_the_crew_instead_of_hanging_it() {
        let task = |_: (), k: usize| {
            assert!(k != 5, "task 5 breaks");
        };
        let r = std::panic::catch_unwind(|| with_crew(2, &task, |crew| crew.round((), 64)));
        assert!(r.is_err());
    }
}
