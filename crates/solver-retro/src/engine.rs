//! The level engine: retrograde propagation level by level, over cells
//! split among owners that run on a thread pool.
//!
//! # Levels
//!
//! Level `r` is the set of positions resolved with remoteness `r`. One step
//! takes level `r` and produces level `r + 1`: every open parent of a lost
//! position becomes a win in `r + 1`; every won position lowers its open
//! parents' counters of unresolved children, and a counter that reaches
//! zero makes its parent a loss in `r + 1` (its slowest child was the one
//! just resolved, at `r`). Wins and losses run to the last level; then ties
//! spread the same way from tied positions to open parents; whatever stays
//! open is a draw. Because a level is finished before the next begins,
//! every remoteness is exact whatever order positions are taken in inside a
//! level — which is what makes the result the same for any number of
//! threads.
//!
//! # Owners
//!
//! The cells are cut into contiguous ranges of ids, one per *owner*. An
//! owner alone writes its range: in the first half of a step it takes its
//! own part of the level, asks for the parents of each position, updates the
//! parents it owns at once and posts the others to their owners' inboxes;
//! in the second half it applies what the other owners posted to it. No
//! locks, no atomics, and with one owner nothing is posted at all. The same
//! shape carries over to owners on other machines: one exchange per level.
//!
//! # Events
//!
//! A tier solved after its child tiers knows, for each position, the values
//! of its children outside the tier. They enter as *events*: "a child of
//! `p` resolved at level `k` with this outcome", applied when the engine
//! reaches level `k`, exactly as if that child were in the tier. A position
//! needs at most three: the fastest lost child, the slowest won child when
//! every outside child is won, and the fastest tied child.

use game_core::{Outcome, ParentIndices};
use rayon::prelude::*;

use crate::cell::Cell;
use crate::Error;

/// What a child of `id` turned out to be, and at which level.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Event {
    /// The level of the child (its remoteness).
    pub level: u64,
    /// The parent, an id of the cells being solved.
    pub id: u64,
    /// The child's outcome: lose, win or tie.
    pub outcome: Outcome,
}

/// Where the parents of a resolved position come from.
pub(crate) trait Parents: Sync {
    /// Per-owner scratch memory.
    type Scratch: Default + Send;

    /// Adds the ids of the distinct open-able parents of `id` to `out`.
    fn parents(&self, id: u64, out: &mut ParentIndices, s: &mut Self::Scratch)
        -> Result<(), Error>;

    /// Counts the distinct children of `id` (for cells left
    /// [`Cell::UNCOUNTED`]).
    fn count(&self, _id: u64, _s: &mut Self::Scratch) -> Result<u64, Error> {
        Err(Error::Broken(
            "a cell was left uncounted by a source that cannot count".into(),
        ))
    }
}

/// A solve's inputs besides the cells.
#[derive(Debug, Default)]
pub(crate) struct Seeds {
    /// Positions resolved (won or lost) at level 0.
    pub decisive: Vec<u64>,
    /// Positions tied at level 0.
    pub ties: Vec<u64>,
    /// Children outside the cells, in any order.
    pub events: Vec<Event>,
}

/// Posts from one owner to another.
#[derive(Default)]
struct Inbox {
    lost: Vec<u64>,
    won: Vec<u64>,
    runs: Vec<(u64, u64, bool)>,
}

impl Inbox {
    fn clear(&mut self) {
        self.lost.clear();
        self.won.clear();
        self.runs.clear();
    }
}

/// One owner's range of cells and working memory.
struct Owner<'c, C, S> {
    base: u64,
    cells: &'c mut [C],
    level: Vec<u64>,
    next: Vec<u64>,
    events: Vec<Event>,
    event_at: usize,
    out: Vec<Inbox>,
    scratch: S,
    buf: ParentIndices,
    seen: Vec<C>,
}

/// Which half of the solve is running.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Decisive,
    Ties,
}

/// The rules of one step, shared by every owner.
struct Step<'p, P> {
    parents: &'p P,
    shift: u32,
    owners: usize,
    lazy: bool,
    phase: Phase,
    /// The level being produced.
    next: u64,
}

/// Runs the propagation to its end with `owners` owners on the current
/// rayon pool. On entry `cells` holds a counter of distinct unresolved
/// children (or [`Cell::UNCOUNTED`] with `lazy`) for every open position,
/// the value for every position resolved at level 0, and
/// [`Cell::INVALID`] for ids that are no position.
pub(crate) fn propagate<C: Cell, P: Parents>(
    cells: &mut [C],
    seeds: Seeds,
    parents: &P,
    lazy: bool,
    config: &crate::Config,
) -> Result<(), Error> {
    let owners = config.owners();
    let n = cells.len().max(1) as u64;
    let want = owners.clamp(1, 1 << 12) as u64;
    let shift = (n.div_ceil(want)).next_power_of_two().trailing_zeros();
    let chunk = 1usize << shift;
    let mut parts: Vec<Owner<'_, C, P::Scratch>> = cells
        .chunks_mut(chunk)
        .enumerate()
        .map(|(k, cells)| Owner {
            base: (k * chunk) as u64,
            cells,
            level: Vec::new(),
            next: Vec::new(),
            events: Vec::new(),
            event_at: 0,
            out: Vec::new(),
            scratch: P::Scratch::default(),
            buf: ParentIndices::default(),
            seen: Vec::new(),
        })
        .collect();
    let owners = parts.len();
    if owners == 0 {
        return Ok(());
    }
    for o in &mut parts {
        o.out.resize_with(owners, Inbox::default);
    }
    let owner_of = |id: u64| (id >> shift) as usize;
    for &id in &seeds.decisive {
        parts[owner_of(id)].level.push(id);
    }
    let mut events = seeds.events;
    events.par_sort_unstable_by_key(|e| (e.level, e.id));
    let (mut tie_events, decisive_events): (Vec<Event>, Vec<Event>) =
        events.into_iter().partition(|e| e.outcome == Outcome::Tie);
    for e in decisive_events {
        parts[owner_of(e.id)].events.push(e);
    }
    let mut resolved = (seeds.decisive.len() + seeds.ties.len()) as u64;
    run_phase(
        &mut parts,
        parents,
        shift,
        lazy,
        Phase::Decisive,
        config,
        &mut resolved,
    )?;
    for o in &mut parts {
        o.level.clear();
        o.events.clear();
        o.event_at = 0;
    }
    for &id in &seeds.ties {
        parts[owner_of(id)].level.push(id);
    }
    tie_events.sort_unstable_by_key(|e| (e.level, e.id));
    for e in tie_events {
        parts[owner_of(e.id)].events.push(e);
    }
    run_phase(
        &mut parts,
        parents,
        shift,
        lazy,
        Phase::Ties,
        config,
        &mut resolved,
    )?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn run_phase<C: Cell, P: Parents>(
    parts: &mut [Owner<'_, C, P::Scratch>],
    parents: &P,
    shift: u32,
    lazy: bool,
    phase: Phase,
    config: &crate::Config,
    resolved: &mut u64,
) -> Result<(), Error> {
    let owners = parts.len();
    let mut r = 0u64;
    loop {
        let busy = parts.iter().any(|o| !o.level.is_empty());
        if !busy {
            // Skip to the next level an event waits for, if any.
            match parts
                .iter()
                .filter_map(|o| o.events.get(o.event_at).map(|e| e.level))
                .min()
            {
                Some(l) if l >= r => r = l,
                Some(_) => unreachable!("events of passed levels are applied"),
                None => return Ok(()),
            }
        }
        let next = r + 1;
        if next > C::MAX_REMOTENESS {
            return Err(Error::TooDeep {
                max: C::MAX_REMOTENESS,
            });
        }
        let step = Step {
            parents,
            shift,
            owners,
            lazy,
            phase,
            next,
        };
        let errors: Vec<Result<(), Error>> = parts
            .par_iter_mut()
            .enumerate()
            .map(|(t, o)| o.send(t, r, &step))
            .collect();
        errors.into_iter().collect::<Result<(), Error>>()?;
        // Inboxes are read in owner order: the same result for any pool.
        let (outs, mut owned): (Vec<Vec<Inbox>>, Vec<_>) = parts
            .iter_mut()
            .map(|o| (std::mem::take(&mut o.out), o))
            .unzip();
        let errors: Vec<Result<(), Error>> = owned
            .par_iter_mut()
            .enumerate()
            .map(|(t, o)| o.receive(t, &outs, &step))
            .collect();
        drop(owned);
        for (o, mut out) in parts.iter_mut().zip(outs) {
            out.iter_mut().for_each(Inbox::clear);
            o.out = out;
            std::mem::swap(&mut o.level, &mut o.next);
            o.next.clear();
        }
        errors.into_iter().collect::<Result<(), Error>>()?;
        *resolved += parts.iter().map(|o| o.level.len() as u64).sum::<u64>();
        config.report(crate::config::Progress::Level {
            level: next,
            positions: *resolved,
        });
        r = next;
    }
}

impl<C: Cell, S> Owner<'_, C, S> {
    /// The first half of a step: this owner's events and level.
    fn send<P: Parents<Scratch = S>>(
        &mut self,
        me: usize,
        r: u64,
        step: &Step<'_, P>,
    ) -> Result<(), Error> {
        while let Some(&e) = self.events.get(self.event_at) {
            if e.level != r {
                break;
            }
            self.event_at += 1;
            let i = (e.id - self.base) as usize;
            let cell = self.cells[i];
            self.update(step, i, cell, e.outcome == Outcome::Lose)?;
        }
        let level = std::mem::take(&mut self.level);
        for &child in &level {
            let lost = match step.phase {
                Phase::Ties => false,
                Phase::Decisive => {
                    let v = self.cells[(child - self.base) as usize].value();
                    v.map(|v| v.outcome()) == Some(Outcome::Lose)
                }
            };
            self.buf.clear();
            step.parents
                .parents(child, &mut self.buf, &mut self.scratch)?;
            let buf = std::mem::take(&mut self.buf);
            // Read every own single parent's cell first: independent loads
            // overlap their cache misses.
            let (lo, hi) = (self.base, self.base + self.cells.len() as u64);
            self.seen.clear();
            self.seen.extend(
                buf.singles
                    .iter()
                    .filter(|&&p| p >= lo && p < hi)
                    .map(|&p| self.cells[(p - lo) as usize]),
            );
            let mut k = 0;
            for &p in &buf.singles {
                if p >= lo && p < hi {
                    let cell = self.seen[k];
                    k += 1;
                    self.update(step, (p - lo) as usize, cell, lost)?;
                } else {
                    let t = (p >> step.shift) as usize;
                    if t >= step.owners {
                        return Err(Error::Broken(format!(
                            "the game gave parent id {p}, past the last id"
                        )));
                    }
                    let inbox = &mut self.out[t];
                    if lost {
                        &mut inbox.lost
                    } else {
                        &mut inbox.won
                    }
                    .push(p);
                }
            }
            for run in &buf.runs {
                let mut start = run.start;
                while start < run.end {
                    let t = (start >> step.shift) as usize;
                    let end = run.end.min(((t as u64) + 1) << step.shift);
                    if t == me {
                        self.apply_run(step, start, end, lost)?;
                    } else if t >= step.owners {
                        return Err(Error::Broken(format!(
                            "the game gave parent id {start}, past the last id"
                        )));
                    } else {
                        self.out[t].runs.push((start, end, lost));
                    }
                    start = end;
                }
            }
            self.buf = buf;
        }
        self.level = level;
        Ok(())
    }

    /// The second half of a step: what the other owners posted.
    fn receive<P: Parents<Scratch = S>>(
        &mut self,
        me: usize,
        outs: &[Vec<Inbox>],
        step: &Step<'_, P>,
    ) -> Result<(), Error> {
        for (from, out) in outs.iter().enumerate() {
            if from == me {
                continue;
            }
            let inbox = &out[me];
            for (list, lost) in [(&inbox.lost, true), (&inbox.won, false)] {
                for &p in list {
                    let i = (p - self.base) as usize;
                    let cell = self.cells[i];
                    self.update(step, i, cell, lost)?;
                }
            }
            for &(start, end, lost) in &inbox.runs {
                self.apply_run(step, start, end, lost)?;
            }
        }
        Ok(())
    }

    /// Parents `start..end`, all owned here.
    fn apply_run<P: Parents<Scratch = S>>(
        &mut self,
        step: &Step<'_, P>,
        start: u64,
        end: u64,
        lost: bool,
    ) -> Result<(), Error> {
        let (lo, hi) = ((start - self.base) as usize, (end - self.base) as usize);
        if hi > self.cells.len() {
            return Err(Error::Broken(format!(
                "the game gave parent id {}, past the last id",
                end - 1
            )));
        }
        if lost || step.lazy || step.phase == Phase::Ties {
            for i in lo..hi {
                let cell = self.cells[i];
                self.update(step, i, cell, lost)?;
            }
            return Ok(());
        }
        let mut zero = false;
        for c in &mut self.cells[lo..hi] {
            *c = c.dec_open();
            zero |= *c == C::counter(0);
        }
        if zero {
            for i in lo..hi {
                if self.cells[i] == C::counter(0) {
                    self.cells[i] = C::resolved(Outcome::Lose, step.next);
                    self.next.push(self.base + i as u64);
                }
            }
        }
        Ok(())
    }

    /// One parent (at offset `i`, holding `cell`) of a child resolved at
    /// the current level: lost (or, in the tie phase, tied) or won.
    #[inline]
    fn update<P: Parents<Scratch = S>>(
        &mut self,
        step: &Step<'_, P>,
        i: usize,
        cell: C,
        lost: bool,
    ) -> Result<(), Error> {
        let Some(mut open) = cell.open() else {
            return Ok(());
        };
        let new = match step.phase {
            Phase::Ties => C::resolved(Outcome::Tie, step.next),
            Phase::Decisive if lost => C::resolved(Outcome::Win, step.next),
            Phase::Decisive => {
                if open == C::UNCOUNTED {
                    open = step
                        .parents
                        .count(self.base + i as u64, &mut self.scratch)?;
                    if open > C::MAX_COUNT {
                        return Err(Error::TooManyChildren { max: C::MAX_COUNT });
                    }
                }
                match open {
                    0 => {
                        return Err(Error::Broken(format!(
                            "position id {} has more parents' updates than children \
                             (its child count or its unmoves are wrong)",
                            self.base + i as u64
                        )))
                    }
                    1 => C::resolved(Outcome::Lose, step.next),
                    _ => {
                        self.cells[i] = C::counter(open - 1);
                        return Ok(());
                    }
                }
            }
        };
        self.cells[i] = new;
        self.next.push(self.base + i as u64);
        Ok(())
    }
}
