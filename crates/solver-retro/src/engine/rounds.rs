//! The rounds of the level engine: a phase's levels step after step, each
//! step's halves (sends, then receives) as rounds of one task per owner —
//! on a crew of threads ([`crate::crew`]), or on the calling thread for one
//! thread, one owner or a small level.
//!
//! With a crew the owners sit behind a lock each: a task holds its owner's
//! lock for the round, the leader takes them one by one between rounds.
//! Alone, the owners are plain references and nothing is locked.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock};

use super::{key, level_events, Inbox, Owner, Parents, Phase, Step, ID_BITS, MAX_EVENT_LEVEL};
use crate::cell::Cell;
use crate::crew;
use crate::Error;

/// The most positions and events a level may hold to run on one thread
/// ([`level_is_small`]).
const SMALL_LEVEL: usize = 32;

/// Whether level `r` is small enough to run on the calling thread: no
/// owner scans its cells (`scan`), and its `listed` positions and events
/// number at most [`SMALL_LEVEL`]. Under test, every other level
/// regardless, so that both paths run in the unit tests' small games.
fn level_is_small<P: Parents>(
    scan: bool,
    listed: usize,
    step: &Step<'_, P>,
    tie: bool,
    r: u64,
) -> bool {
    if cfg!(test) {
        return r % 2 == 1;
    }
    !scan && listed + level_events(step.events, tie, r).len() <= SMALL_LEVEL
}

/// The lock of `m`, poisoned or not (a poisoned lock means a task
/// panicked, and the crew carries that panic out).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a task of a round does ([`crate::crew`]): an owner's send or
/// receive in the step that produces level `next` from level `r`.
#[derive(Clone, Copy)]
enum Job {
    Send { r: u64, next: u64, phase: Phase },
    Receive { next: u64, phase: Phase },
}

/// Helpers besides the calling thread for `owners` owners: one fewer than
/// the threads, but no more than the cores (a helper that waits for a core
/// only slows the others) or the owners.
fn crew_helpers(config: &crate::Config, owners: usize) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    // Under test at least two, so that the crew runs on any machine.
    let cores = if cfg!(test) { cores.max(2) } else { cores };
    let threads = config
        .thread_count()
        .min(cores)
        .min(owners)
        .min(crew::MAX_TASKS);
    threads.max(1) - 1
}

/// Runs both phases' levels to the end (wins and losses, then ties, with
/// the `ties` listed or found by a scan): on this thread for one owner or
/// one thread, else with a crew of threads ([`crate::crew`]) that runs
/// each round's sends, then its receives, one task per owner.
pub(super) fn run_phases<C: Cell, P: Parents>(
    parts: &mut [Owner<'_, C, P::Scratch>],
    step: Step<'_, P>,
    ties: Vec<u64>,
    ties_by_scan: bool,
    config: &crate::Config,
    resolved: &mut u64,
) -> Result<(), Error> {
    let n = parts.len();
    let helpers = crew_helpers(config, n);
    if helpers == 0 {
        let mut alone = Alone {
            owners: parts.iter_mut().collect(),
            room: Room::default(),
        };
        return both_phases(&mut alone, n, step, ties, ties_by_scan, config, resolved);
    }
    let owners: Vec<Mutex<&mut Owner<'_, C, P::Scratch>>> =
        parts.iter_mut().map(Mutex::new).collect();
    // What the owners posted in a round's sends, read by its receives.
    let posts: RwLock<Vec<Vec<Inbox>>> = RwLock::new(Vec::new());
    // Each task's result, read in owner order after its round.
    let sent: Vec<Mutex<Result<bool, Error>>> = (0..n).map(|_| Mutex::new(Ok(true))).collect();
    let got: Vec<Mutex<Result<(), Error>>> = (0..n).map(|_| Mutex::new(Ok(()))).collect();
    // Task `i` of a round is owner `order[i]`: the heaviest first.
    let order: Vec<AtomicUsize> = (0..n).map(AtomicUsize::new).collect();
    let task = |job: Job, i: usize| {
        let k = order[i].load(Ordering::Relaxed);
        let mut o = lock(&owners[k]);
        let (Job::Send { next, phase, .. } | Job::Receive { next, phase }) = job;
        let step = Step {
            next,
            phase,
            ..step
        };
        match job {
            Job::Send { r, .. } => *lock(&sent[k]) = o.send(k, r, &step),
            Job::Receive { .. } => {
                let posts = posts.read().unwrap_or_else(PoisonError::into_inner);
                *lock(&got[k]) = o.receive(k, &posts, &step);
            }
        }
    };
    crew::with_crew(helpers, &task, |crew| {
        let mut crewed = Crewed {
            owners: &owners,
            crew,
            posts: &posts,
            sent: &sent,
            got: &got,
            order: &order,
            held: None,
            room: Room::default(),
        };
        both_phases(&mut crewed, n, step, ties, ties_by_scan, config, resolved)
    })
}

/// Both phases on the `owners` owners of `parts`: wins and losses, then
/// ties from the `ties` listed or found by a scan.
fn both_phases<'c, C: Cell, P: Parents>(
    parts: &mut impl Parts<'c, C, P::Scratch, P>,
    owners: usize,
    step: Step<'_, P>,
    ties: Vec<u64>,
    ties_by_scan: bool,
    config: &crate::Config,
    resolved: &mut u64,
) -> Result<(), Error> {
    levels(parts, &step, config, resolved)?;
    set_ties(parts, owners, ties, ties_by_scan, step.shift);
    let ties = Step {
        phase: Phase::Ties,
        ..step
    };
    levels(parts, &ties, config, resolved)
}

/// Sets the owners' levels for the ties phase: level 0 is the `ties`
/// listed (ids; owner `k` holds ids `k << shift` on), or found by a scan.
fn set_ties<'c, C: Cell, S, P>(
    parts: &mut impl Parts<'c, C, S, P>,
    owners: usize,
    ties: Vec<u64>,
    by_scan: bool,
    shift: u32,
) {
    let mut mine = vec![Vec::new(); owners];
    for id in ties {
        mine[(id >> shift) as usize].push(id);
    }
    let mut mine = mine.into_iter();
    parts.each(&mut |o| {
        o.level.clear();
        o.level.append(&mut mine.next().unwrap_or_default());
        o.scan = by_scan;
        o.next_scan = false;
    });
}

/// The owners as a phase's levels see them: each in turn on this thread,
/// and a round of a step on all of them.
trait Parts<'c, C, S, P> {
    /// `f` on every owner in order, on this thread.
    fn each(&mut self, f: &mut dyn FnMut(&mut Owner<'c, C, S>));
    /// One round of a step: every owner takes its level until it has
    /// posted enough, then every owner applies what it was sent (on this
    /// thread, owner after owner, for a `small` level). True when the
    /// level is done.
    fn round(&mut self, small: bool, step: &Step<'_, P>, r: u64) -> Result<bool, Error>;
}

/// The owners of one thread: no crew, no locks.
struct Alone<'a, 'c, C, S> {
    owners: Vec<&'a mut Owner<'c, C, S>>,
    /// [`round_here`]'s room.
    room: Room,
}

/// What [`round_here`] needs for a round, kept from round to round by
/// its caller: a chain of millions of levels is millions of rounds, and
/// none of them allocates.
#[derive(Default)]
struct Room {
    /// A mark for each owner posted to.
    posted_to: Vec<bool>,
    /// The owners' inboxes while the receives read them.
    posts: Vec<Vec<Inbox>>,
}

impl<'c, C: Cell, P: Parents> Parts<'c, C, P::Scratch, P> for Alone<'_, 'c, C, P::Scratch> {
    fn each(&mut self, f: &mut dyn FnMut(&mut Owner<'c, C, P::Scratch>)) {
        self.owners.iter_mut().for_each(|o| f(o));
    }

    fn round(&mut self, _small: bool, step: &Step<'_, P>, r: u64) -> Result<bool, Error> {
        round_here(&mut self.owners, &mut self.room, step, r)
    }
}

/// An owner as [`round_here`] takes it: borrowed, or behind the lock the
/// leader holds.
trait OwnerRef<'c, C, S> {
    /// The owner.
    fn owner(&self) -> &Owner<'c, C, S>;
    /// The owner, to change.
    fn owner_mut(&mut self) -> &mut Owner<'c, C, S>;
}

impl<'c, C, S> OwnerRef<'c, C, S> for &mut Owner<'c, C, S> {
    fn owner(&self) -> &Owner<'c, C, S> {
        self
    }
    fn owner_mut(&mut self) -> &mut Owner<'c, C, S> {
        self
    }
}

impl<'c, C, S> OwnerRef<'c, C, S> for MutexGuard<'_, &mut Owner<'c, C, S>> {
    fn owner(&self) -> &Owner<'c, C, S> {
        self
    }
    fn owner_mut(&mut self) -> &mut Owner<'c, C, S> {
        self
    }
}

/// A round ([`Parts::round`]) on this thread, owner after owner, in the
/// caller's `room`.
fn round_here<'c, C: Cell, P: Parents>(
    owners: &mut [impl OwnerRef<'c, C, P::Scratch>],
    room: &mut Room,
    step: &Step<'_, P>,
    r: u64,
) -> Result<bool, Error> {
    let mut finished = true;
    for (k, o) in owners.iter_mut().enumerate() {
        finished &= o.owner_mut().send(k, r, step)?;
    }
    // Only the owners posted to receive: a round of a small level posts
    // to a few of them.
    let Room { posted_to, posts } = room;
    posted_to.clear();
    posted_to.resize(owners.len(), false);
    for o in owners.iter().map(OwnerRef::owner) {
        for &t in &o.watch {
            posted_to[t as usize] |= !o.out[t as usize].is_empty();
        }
    }
    posts.clear();
    posts.extend(
        owners
            .iter_mut()
            .map(|o| std::mem::take(&mut o.owner_mut().out)),
    );
    let mut received = Ok(());
    for (k, o) in owners.iter_mut().enumerate() {
        if !posted_to[k] {
            continue;
        }
        received = o.owner_mut().receive(k, posts, step);
        if received.is_err() {
            break;
        }
    }
    // Each sender empties its inboxes as its next send starts.
    for (o, out) in owners.iter_mut().zip(posts.drain(..)) {
        o.owner_mut().out = out;
    }
    received.map(|()| finished)
}

/// The owners of a crew: each behind a lock, with what the rounds share:
/// the posts of a round's sends (read by its receives) and each task's
/// result.
struct Crewed<'a, 'b, 'c, 't, C, S> {
    owners: &'a [Mutex<&'b mut Owner<'c, C, S>>],
    crew: &'a crew::Crew<'t, Job>,
    posts: &'a RwLock<Vec<Vec<Inbox>>>,
    sent: &'a [Mutex<Result<bool, Error>>],
    got: &'a [Mutex<Result<(), Error>>],
    /// The owner each task of a round takes.
    order: &'a [AtomicUsize],
    /// Every owner's lock, held by the leader from a small level's round
    /// until the next round on the crew: a run of small levels (a chain
    /// of millions of one-position levels) locks the owners once, not
    /// twice a level.
    held: Option<Vec<MutexGuard<'a, &'b mut Owner<'c, C, S>>>>,
    /// [`round_here`]'s room for the small levels.
    room: Room,
}

impl<C, S> Crewed<'_, '_, '_, '_, C, S> {
    /// Orders the round's tasks by `weight` of their owners, heaviest
    /// first, so that no heavy task starts last and keeps the others
    /// waiting (the order of tasks changes nothing else: each writes only
    /// its own owner, and results are read in owner order).
    fn order_by(&self, weight: impl Fn(usize) -> usize) {
        let mut by: Vec<(usize, usize)> = (0..self.order.len()).map(|k| (weight(k), k)).collect();
        by.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (slot, (_, k)) in self.order.iter().zip(by) {
            slot.store(k, Ordering::Relaxed);
        }
    }
}

impl<'c, C: Cell, P: Parents> Parts<'c, C, P::Scratch, P>
    for Crewed<'_, '_, 'c, '_, C, P::Scratch>
{
    fn each(&mut self, f: &mut dyn FnMut(&mut Owner<'c, C, P::Scratch>)) {
        match &mut self.held {
            Some(guards) => guards.iter_mut().for_each(|g| f(g)),
            None => self.owners.iter().for_each(|o| f(&mut lock(o))),
        }
    }

    fn round(&mut self, small: bool, step: &Step<'_, P>, r: u64) -> Result<bool, Error> {
        if small {
            // Every owner locked once, not once a task, and kept locked
            // for the small levels that follow.
            let owners = self.owners;
            let guards = self
                .held
                .get_or_insert_with(|| owners.iter().map(lock).collect());
            return round_here(guards, &mut self.room, step, r);
        }
        // The crew's tasks lock their owners.
        self.held = None;
        let (next, phase) = (step.next, step.phase);
        // What is left of each owner's level (a scanned level counted as
        // the cells left to scan, an eighth of them positions).
        let left: Vec<usize> = self
            .owners
            .iter()
            .map(|o| {
                let o = lock(o);
                if o.scan {
                    (o.cells.len() - o.cursor.min(o.cells.len())) / 8
                } else {
                    o.level.len().saturating_sub(o.cursor)
                }
            })
            .collect();
        self.order_by(|k| left[k]);
        self.crew
            .round(Job::Send { r, next, phase }, self.owners.len());
        let mut finished = true;
        for s in self.sent {
            finished &= std::mem::replace(&mut *lock(s), Ok(true))?;
        }
        // Inboxes are read in owner order: the same result for any crew.
        let posts: Vec<Vec<Inbox>> = self
            .owners
            .iter()
            .map(|o| std::mem::take(&mut lock(o).out))
            .collect();
        // A run is weighed as a few single parents.
        self.order_by(|k| {
            posts
                .iter()
                .map(|out| out[k].lost.len() + out[k].won.len() + 8 * out[k].runs.len())
                .sum()
        });
        *self.posts.write().unwrap_or_else(PoisonError::into_inner) = posts;
        self.crew
            .round(Job::Receive { next, phase }, self.owners.len());
        let posts =
            std::mem::take(&mut *self.posts.write().unwrap_or_else(PoisonError::into_inner));
        // Each sender empties its inboxes as its next send starts.
        for (o, out) in self.owners.iter().zip(posts) {
            lock(o).out = out;
        }
        for g in self.got {
            std::mem::replace(&mut *lock(g), Ok(()))?;
        }
        Ok(finished)
    }
}

/// The levels of a phase, step after step, until no level and no event
/// is left.
fn levels<'c, C: Cell, P: Parents>(
    parts: &mut impl Parts<'c, C, P::Scratch, P>,
    step: &Step<'_, P>,
    config: &crate::Config,
    resolved: &mut u64,
) -> Result<(), Error> {
    let tie = step.phase == Phase::Ties;
    let mut r = 0u64;
    let mut first = true;
    loop {
        // One pass over the owners: close the level just made (unless
        // this is the first), look at the one to expand, and reset each
        // owner's step.
        let (mut busy, mut scan, mut listed, mut made) = (false, false, 0usize, 0u64);
        parts.each(&mut |o| {
            if !first {
                std::mem::swap(&mut o.level, &mut o.next);
                o.next.clear();
                // A list's room may have grown past its cap (doubling, or
                // a level 0 of seeds crowded into one owner): give it back.
                o.next.shrink_to(o.cap);
                o.scan = o.next_scan;
                o.next_scan = false;
                made += o.made;
            }
            busy |= o.scan || o.next_scan || !o.level.is_empty();
            scan |= o.scan;
            listed += o.level.len();
            o.cursor = 0;
            o.fresh = true;
            o.made = 0;
        });
        if !first {
            *resolved += made;
            step.expansion.level_end();
            config.report(crate::config::Progress::Level {
                level: r,
                positions: *resolved,
            });
        }
        first = false;
        if !busy {
            // No event lies past the last level an event can carry (and a
            // key for a deeper level would wrap onto a shallower one).
            if r > MAX_EVENT_LEVEL {
                return Ok(());
            }
            // Skip to the next level an event waits for, if any.
            let k = step.events.partition_point(|&e| e < key(tie, r, 0));
            match step.events.get(k) {
                Some(&e) if (e >> 63 == 1) == tie => r = (e >> (ID_BITS + 1)) & MAX_EVENT_LEVEL,
                _ => return Ok(()),
            }
        }
        let next = r + 1;
        if next > C::MAX_REMOTENESS {
            return Err(Error::TooDeep {
                max: C::MAX_REMOTENESS,
            });
        }
        // A level of a few positions runs on this thread, owner after
        // owner: a round on the crew costs more than the work (a chain of
        // millions of one-position levels spent most of its time in the
        // pool's wake-ups when levels ran on the rayon pool). The same
        // sends and receives in the same owner order, so the same
        // result.
        let small = level_is_small(scan, listed, step, tie, r);
        let step = Step { next, ..*step };
        while !parts.round(small, &step, r)? {}
        r = next;
    }
}
