//! The level engine: retrograde propagation level by level, over cells
//! split among owners that run on a crew of threads ([`crate::crew`]).
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
//! The cells are cut into contiguous ranges of ids (at most 2³¹), one per
//! *owner*. An owner alone writes its range: in the first half of a step
//! it takes its own part of the level, asks for the parents of each
//! position, updates the parents it owns at once and posts the others to
//! their owners' inboxes (4-byte offsets into the owner's range; a run of
//! parents in 8 bytes); in the second half it applies what the other
//! owners posted to it. Each half is a round of one task per owner on the
//! crew; a task holds its owner's lock for the round, so no two threads
//! ever write one owner's cells, and the cells themselves are plain
//! memory (no atomics). With one owner nothing is posted and no crew
//! starts. The same shape carries over to owners on other machines: one
//! exchange per level.
//!
//! What the posts cost (Fingers F = 128, measured; docs/benchmark-history.md, seventh
//! session): the 17 owners of two threads run on one thread take ~12 %
//! more than one owner, and on two threads their tasks take another ~15 %
//! of thread time, while two independent solves side by side lose
//! nothing: a post written on one core and read on the other is the
//! price of sharing a table between threads.
//!
//! An owner takes its level in batches of [`BATCH`] children: the
//! parents of a whole batch are found first and their cells read in one
//! tight pass, so that the cache misses of the batch overlap, and then
//! updated child by child. A lone owner whose cells fit in the cache
//! skips that: each parent goes straight from the game to its cell
//! ([`Parents::visit`], [`Direct`]).
//!
//! A level's posts are bounded: an owner stops taking its level once it
//! has posted its share of updates ([`post_cap`]; checked between
//! batches), the owners apply what was posted, and the step goes on in
//! another round. Posts take 16 to 64 MiB at most over all owners (an
//! eighth of an update a cell between those bounds; more only with so
//! many owners that a share falls below 4,096 updates an owner), however
//! large the level, and an inbox gives back room far beyond what its last
//! round used.
//!
//! # Levels in memory
//!
//! A level is a list of ids while it is small. When the list an owner is
//! filling passes an eighth of its cells, the owner drops it and finds the
//! level instead by scanning its cells for those resolved at that level
//! (one sequential pass): a level never takes more than a byte a cell.
//!
//! # Events
//!
//! A tier solved after its child tiers knows, for each position, the values
//! of its children outside the tier. They enter as *events*: "a child of
//! `p` resolved at level `k` with this outcome", applied when the engine
//! reaches level `k`, exactly as if that child were in the tier. A position
//! needs at most three: the fastest lost child, the slowest won child when
//! every outside child is won, and the fastest tied child. An event is one
//! `u64` (phase, level, id and whether the child was lost, in that order
//! of bits), so sorting the events sorts them by level and, inside a
//! level, by owner. Positions that outside children settle at level 1 (a
//! lost child at level 0) are resolved by the seeding itself and level 1
//! is scanned.

use game_core::{Outcome, ParentIndices, ParentVisitor, Run};
use rayon::prelude::*;

use crate::cell::Cell;
use crate::Error;

pub(crate) use crate::step::{
    dec_run, event_id, key, level_cells, level_events, refused, refused_cell, too_many_updates,
    Parents, Phase, Seeds, Updated, ID_BITS, MAX_EVENT_LEVEL,
};

mod rounds;
use rounds::run_phases;

/// The most updates an owner posts to the others in one round of a step
/// under test: tiny, so that the unit tests' small games run steps of
/// many rounds.
const TEST_POST_CAP: usize = 3;

/// The most updates an owner of `owners` posts in one round of a step
/// over `cells` cells: all owners' posts together stay near an eighth of
/// an update a cell, between 2²¹ and 2²³ updates (16 and 64 MiB, a post
/// being 4 bytes, 8 for a run), however many threads; never below 4,096
/// an owner.
///
/// Design note: the bound grows with the table (up to a point) rather
/// than staying at 16 MiB because a round's posts are applied after the
/// round's sends, and what was cached of a receiver's cells is gone by
/// its next round. Fingers F = 128 (68 M cells), its big step (699,008
/// wins): one owner takes 38 ms; the 32 owners of two threads, run on
/// one thread, took 44–47 ms with 2¹⁶ posts an owner — the transfer runs,
/// decremented again and again by neighbouring children, missed the
/// cache from round to round — and 36–38 ms with 2¹⁸ (2²³ in all); on
/// two threads the step went from 22–25 to 19–21 ms.
fn post_cap(owners: usize, cells: usize) -> usize {
    if cfg!(test) {
        TEST_POST_CAP
    } else {
        ((cells / 8).clamp(1 << 21, 1 << 23) / owners.max(1)).max(1 << 12)
    }
}

/// The longest list a level of an owner of `cells` cells is kept in
/// before it is found by a scan instead (small under test, so that the
/// unit tests' games mix lists and scans).
fn level_cap(cells: usize) -> usize {
    if cfg!(test) {
        (cells / 8).max(2)
    } else {
        (cells / 8).max(1 << 12)
    }
}

/// The most seeds (positions resolved at level 0, won or lost; or tied)
/// listed before that level 0 is found by a scan of the cells instead:
/// like any level, an eighth of the cells (one under test, so that the
/// unit tests' games scan it too).
pub(crate) fn seed_cap(cells: u64) -> u64 {
    if cfg!(test) {
        1
    } else {
        cells / 8
    }
}

/// The most bytes the engine takes besides the cells, for `cells` cells
/// of `C` solved with `config`: two levels' lists at once (each at most
/// [`level_cap`] 8-byte ids an owner, about a byte a cell) and, with more
/// than one owner, a round's posts (at most [`post_cap`] an owner, 8
/// bytes each at most). A table within the cache ([`in_cache`]) is
/// counted as one owner's, posting nothing: so it is unless its children
/// are counted lazily, when its owners' posts (up to 16 MiB) are not
/// counted.
pub(crate) fn working_bytes<C: Cell>(cells: u64, config: &crate::Config) -> u64 {
    let owners = owners_of::<C>(cells, config);
    let per_owner = usize::try_from(cells.div_ceil(owners as u64)).unwrap_or(usize::MAX);
    let lists = 2 * 8 * (level_cap(per_owner) as u64).saturating_mul(owners as u64);
    lists.saturating_add(posts_bytes::<C>(cells, config))
}

/// The most bytes a round's posts take for `cells` cells of `C` solved
/// with `config` ([`working_bytes`]): none for one owner.
pub(crate) fn posts_bytes<C: Cell>(cells: u64, config: &crate::Config) -> u64 {
    let owners = owners_of::<C>(cells, config);
    if owners > 1 {
        8 * (post_cap(owners, usize::try_from(cells).unwrap_or(usize::MAX)) as u64)
            .saturating_mul(owners as u64)
    } else {
        0
    }
}

/// The owners [`working_bytes`] counts for `cells` cells of `C`.
fn owners_of<C: Cell>(cells: u64, config: &crate::Config) -> usize {
    owner_count(in_cache::<C>(cells), config)
}

/// The owners a table is cut into: one for a `cached` table (it fits in
/// the cache, [`in_cache`]), else [`crate::Config::owners`], at most 4,096.
fn owner_count(cached: bool, config: &crate::Config) -> usize {
    if cached {
        1
    } else {
        config.owners().clamp(1, 1 << 12)
    }
}

/// Children expanded together ([`Owner::expand_batch`]).
const BATCH: usize = if cfg!(test) { 4 } else { 32 };

/// Posts from one owner to another.
#[derive(Default)]
struct Inbox {
    /// Offsets into the receiver's range of parents of lost children.
    lost: Vec<u32>,
    /// The same for won children.
    won: Vec<u32>,
    /// Runs of parents, [`run_post`] packed.
    runs: Vec<u64>,
    /// Rounds in a row that used less than a quarter of the room.
    quiet: u32,
    /// In its sender's [`Owner::watch`] list.
    watched: bool,
}

/// A run of parents `start..end` (inside one owner's range of `2^shift`
/// ids, `shift` at most 31) posted in 8 bytes: the offsets of its start
/// (31 bits) and end (32 bits), and whether the child was lost.
fn run_post(start: u64, end: u64, lost: bool, shift: u32) -> u64 {
    let first = start >> shift << shift;
    ((start - first) << 33) | ((end - first) << 1) | u64::from(lost)
}

/// The run of [`run_post`] in the range from `base`.
fn run_of_post(post: u64, base: u64) -> (u64, u64, bool) {
    (
        base + (post >> 33),
        base + ((post >> 1) & 0xffff_ffff),
        post & 1 == 1,
    )
}

/// Rounds in a row an inbox must use under a quarter of its room before
/// it gives the rest back.
const QUIET_ROUNDS: u32 = 64;

impl Inbox {
    /// Empties the inbox for the next round, keeping the room it used
    /// (steady traffic reallocates nothing), and giving back room far
    /// beyond what it used once it has stayed unused for
    /// [`QUIET_ROUNDS`] rounds: when the traffic moves to other owners,
    /// the room it left does not stay held for the rest of the solve, but
    /// traffic that comes and goes from level to level (as it does) does
    /// not free and fault in fresh pages every level either.
    fn clear(&mut self) {
        // What a list keeps when it shrinks: twice what it used.
        fn keep<T>(v: &[T]) -> usize {
            2 * v.len().max(1 << 10)
        }
        let kept = [keep(&self.lost), keep(&self.won), keep(&self.runs)];
        let caps = [
            self.lost.capacity(),
            self.won.capacity(),
            self.runs.capacity(),
        ];
        let roomy = kept.iter().zip(caps).any(|(&k, c)| c > 2 * k);
        self.quiet = if roomy { self.quiet + 1 } else { 0 };
        self.lost.clear();
        self.won.clear();
        self.runs.clear();
        if self.quiet >= QUIET_ROUNDS {
            self.quiet = 0;
            self.lost.shrink_to(kept[0]);
            self.won.shrink_to(kept[1]);
            self.runs.shrink_to(kept[2]);
        }
    }

    /// Nothing posted.
    fn is_empty(&self) -> bool {
        self.lost.is_empty() && self.won.is_empty() && self.runs.is_empty()
    }

    /// Whether [`Inbox::clear`], called on this inbox while it stays
    /// empty, would do nothing but keep `quiet` at zero: it holds no more
    /// room than an empty inbox keeps, so it need not be watched.
    fn idle(&self) -> bool {
        let room = 4 << 10;
        self.quiet == 0
            && self.lost.capacity() <= room
            && self.won.capacity() <= room
            && self.runs.capacity() <= room
    }
}

/// Inbox `t` of `out`, to post to: put in the `watch` list of the
/// inboxes to clear ([`Owner::watch`]) unless it is there already.
#[inline]
fn post_to<'a>(out: &'a mut [Inbox], watch: &mut Vec<u32>, t: usize) -> &'a mut Inbox {
    let inbox = &mut out[t];
    if !inbox.watched {
        inbox.watched = true;
        watch.push(t as u32);
    }
    inbox
}

/// Clears the inboxes of `out` in `watch` ([`Inbox::clear`]), keeping in
/// `watch` those not [`Inbox::idle`] after it (their room is given back
/// after some quiet rounds). An inbox left out is empty and idle, and
/// clearing it would change nothing.
fn clear_watched(out: &mut [Inbox], watch: &mut Vec<u32>) {
    watch.retain(|&t| {
        let inbox = &mut out[t as usize];
        inbox.clear();
        inbox.watched = !inbox.idle();
        inbox.watched
    });
}

/// One owner's range of cells and working memory.
struct Owner<'c, C, S> {
    base: u64,
    cells: &'c mut [C],
    /// The current level's ids, unless `scan`.
    level: Vec<u64>,
    /// The current level is found by scanning the cells.
    scan: bool,
    /// How far into the level (list or cells) this step has got.
    cursor: usize,
    /// This level's events are still to apply.
    fresh: bool,
    /// The next level's ids, unless `next_scan`.
    next: Vec<u64>,
    next_scan: bool,
    /// Positions put in the next level.
    made: u64,
    /// The longest list a level may grow to before it is scanned instead.
    cap: usize,
    out: Vec<Inbox>,
    /// The inboxes of `out` posted to since they were last cleared, or
    /// not [`Inbox::idle`]: the only ones a round clears, so that a level
    /// of a few positions costs nothing for the inboxes it leaves alone
    /// (a chain of millions of one-position levels spent most of its time
    /// clearing empty inboxes, 33 × 33 a level).
    watch: Vec<u32>,
    /// Updates posted in this round.
    posted: usize,
    scratch: S,
    /// Children taken from the level but not yet expanded, and whether
    /// each was lost.
    batch: Vec<(u64, bool)>,
    /// The parents of each child in `batch`, a list each.
    bufs: Vec<ParentIndices>,
}

/// The rules of one step, shared by every owner.
struct Step<'p, P> {
    parents: &'p P,
    /// Every event, sorted.
    events: &'p [u64],
    shift: u32,
    owners: usize,
    /// The most updates an owner posts in a round ([`post_cap`]).
    post_cap: usize,
    lazy: bool,
    /// Parents are updated as the game gives them ([`Direct`]).
    direct: bool,
    phase: Phase,
    /// The level being produced.
    next: u64,
    /// The positions expanded so far, for the progress reports.
    expansion: &'p Expansion<'p>,
}

/// The positions a table's levels have expanded so far, reported as
/// [`crate::Progress::Expanded`]: one atomic add a batch of children
/// (none at all without a progress callback), a report each time the
/// count passes a multiple of [`crate::Progress::EXPANDED_EVERY`] and at
/// the end of a level.
pub(crate) struct Expansion<'c> {
    /// Positions expanded so far.
    expanded: std::sync::atomic::AtomicU64,
    /// The count at the last level's end.
    at_level_end: std::sync::atomic::AtomicU64,
    /// The most positions the levels may expand.
    positions: u64,
    /// Where reports go: `None` without a progress callback.
    config: Option<&'c crate::Config>,
}

impl<'c> Expansion<'c> {
    /// Nothing expanded yet of at most `positions`; reports go to
    /// `config`'s callback, if any (the first, of none expanded, now).
    fn new(positions: u64, config: &'c crate::Config) -> Self {
        let e = Expansion {
            expanded: std::sync::atomic::AtomicU64::new(0),
            at_level_end: std::sync::atomic::AtomicU64::new(0),
            positions,
            config: config.has_progress().then_some(config),
        };
        e.report(0);
        e
    }

    /// Reports `expanded` positions expanded so far.
    fn report(&self, expanded: u64) {
        if let Some(config) = self.config {
            config.report(crate::config::Progress::Expanded {
                expanded,
                positions: self.positions,
            });
        }
    }

    /// `n` more positions expanded (a batch of them).
    #[inline]
    fn add(&self, n: usize) {
        if self.config.is_none() || n == 0 {
            return;
        }
        let n = n as u64;
        let before = self
            .expanded
            .fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        let every = crate::config::Progress::EXPANDED_EVERY;
        if (before + n) / every != before / every {
            self.report(before + n);
        }
    }

    /// A level is done: its count reported, unless it expanded none.
    pub(crate) fn level_end(&self) {
        if self.config.is_none() {
            return;
        }
        use std::sync::atomic::Ordering::Relaxed;
        let now = self.expanded.load(Relaxed);
        if self.at_level_end.swap(now, Relaxed) != now {
            self.report(now);
        }
    }
}

impl<P> Clone for Step<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P> Copy for Step<'_, P> {}

/// Runs the propagation to its end with `owners` owners, on a crew of
/// threads ([`rounds`]). On entry `cells` holds a counter of distinct
/// unresolved children (or [`Cell::UNCOUNTED`] with `lazy`) for every
/// open position, the value for every position resolved at level 0 (or
/// settled at level 1), and [`Cell::INVALID`] for ids that are no
/// position.
pub(crate) fn propagate<C: Cell, P: Parents>(
    cells: &mut [C],
    seeds: Seeds,
    parents: &P,
    lazy: bool,
    config: &crate::Config,
) -> Result<(), Error> {
    let count = cells.len();
    let n = count.max(1) as u64;
    // A table that fits in the cache is one owner's whatever the threads
    // (and seeded on one thread, [`in_cache`]): its updates cost less than
    // posting them to other owners (Fingers F = 64 at two threads: 9.9 ms
    // with 32 owners, 7.6 ms with one). Under test, small games keep
    // their owners, so that the posts are exercised.
    let cached = !lazy && in_cache::<C>(n);
    let want = owner_count(cached && !cfg!(test), config) as u64;
    // Ranges of at most 2³¹ cells: posts are 4-byte offsets.
    let shift = (n.div_ceil(want))
        .next_power_of_two()
        .trailing_zeros()
        .min(31);
    let chunk = 1usize << shift;
    let mut parts: Vec<Owner<'_, C, P::Scratch>> = cells
        .chunks_mut(chunk)
        .enumerate()
        .map(|(k, cells)| Owner {
            base: (k * chunk) as u64,
            cap: level_cap(cells.len()),
            cells,
            level: Vec::new(),
            scan: false,
            cursor: 0,
            fresh: false,
            next: Vec::new(),
            next_scan: false,
            made: 0,
            out: Vec::new(),
            watch: Vec::new(),
            posted: 0,
            scratch: P::Scratch::default(),
            batch: Vec::with_capacity(BATCH),
            bufs: vec![ParentIndices::default(); BATCH],
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
    // One owner whose cells fit in the cache updates each parent as the
    // game gives it: batches only pay where the parents' cells miss.
    let direct = owners == 1 && cached && direct_allowed(config);
    let mut resolved = (seeds.decisive.len() + seeds.ties.len()) as u64
        + seeds.settled_at_one
        + seeds.unlisted_decisive
        + seeds.unlisted_ties;
    // Seeds too many to list: level 0 is every cell won or lost at 0
    // (only a seed holds such a value), found by a scan.
    if seeds.unlisted_decisive > 0 {
        for o in &mut parts {
            o.scan = true;
        }
    }
    // The seeds move into the owners' lists and are freed, not kept
    // beside them for the whole solve.
    for id in seeds.decisive {
        parts[owner_of(id)].level.push(id);
    }
    // The tied seeds wait through the decisive phase. Past an eighth of
    // the cells (like any level) they are dropped now, and the ties'
    // level 0 is found by scanning for Tie(0) cells instead: only a tied
    // seed holds Tie(0) (what ties later does so at level 1 or more).
    let ties_by_scan = seeds.unlisted_ties > 0 || seeds.ties.len() as u64 > seed_cap(n);
    let ties = if ties_by_scan {
        drop(seeds.ties);
        Vec::new()
    } else {
        seeds.ties
    };
    let mut events = seeds.events;
    // One thread: no rayon at all (the preset may run on the caller's
    // thread, outside any pool: see `solve_unmoves_with`).
    if config.thread_count() == 1 {
        events.sort_unstable();
    } else {
        events.par_sort_unstable();
    }
    if seeds.settled_at_one > 0 {
        for o in &mut parts {
            o.next_scan = true;
        }
    }
    // What the levels may expand: every position resolved or open when
    // they begin, where the seeding counted the open ones.
    let positions = seeds
        .open
        .map_or(count as u64, |open| resolved.saturating_add(open));
    let expansion = Expansion::new(positions, config);
    let step = Step {
        parents,
        events: &events,
        shift,
        owners,
        post_cap: post_cap(owners, count),
        lazy,
        direct,
        phase: Phase::Decisive,
        next: 0,
        expansion: &expansion,
    };
    run_phases(&mut parts, step, ties, ties_by_scan, config, &mut resolved)
}

impl<C: Cell, S> Owner<'_, C, S> {
    /// The first half of a round: this owner's events, then its level
    /// until it has posted [`Step::post_cap`] updates. True when the
    /// level is done.
    fn send<P: Parents<Scratch = S>>(
        &mut self,
        me: usize,
        r: u64,
        step: &Step<'_, P>,
    ) -> Result<bool, Error> {
        // What this owner posted last round has been read: the inboxes it
        // posted to are emptied here, on the owner's own thread, rather
        // than all of them by the leader between rounds (32 × 32 inboxes
        // at two threads, 2 µs of a round that every other thread waits
        // for).
        clear_watched(&mut self.out, &mut self.watch);
        self.posted = 0;
        if std::mem::take(&mut self.fresh) {
            let level = level_events(step.events, step.phase == Phase::Ties, r);
            let end = self.base + self.cells.len() as u64;
            let a = level.partition_point(|&e| event_id(e) < self.base);
            let b = level.partition_point(|&e| event_id(e) < end);
            for &e in &level[a..b] {
                let i = (event_id(e) - self.base) as usize;
                let cell = self.cells[i];
                self.update(step, i, cell, e & 1 == 1)?;
            }
        }
        if step.direct {
            // One owner, nothing posted: the whole level at once.
            let level = std::mem::take(&mut self.level);
            let result = self.expand_direct_level(step, r, &level);
            self.level = level;
            return result.map(|()| true);
        }
        let lose = C::resolved(Outcome::Lose, r);
        if self.scan {
            let [mine, other] = level_cells::<C>(step.phase, r);
            while self.cursor < self.cells.len() {
                if self.posted >= step.post_cap {
                    return Ok(false);
                }
                while self.batch.len() < BATCH {
                    let Some(i) = next_in_level(&self.cells[..], self.cursor, [mine, other]) else {
                        self.cursor = self.cells.len();
                        break;
                    };
                    self.cursor = i + 1;
                    let lost = step.phase == Phase::Decisive && self.cells[i] == lose;
                    self.batch.push((self.base + i as u64, lost));
                }
                step.expansion.add(self.batch.len());
                self.expand_batch(me, step)?;
            }
            return Ok(true);
        }
        let level = std::mem::take(&mut self.level);
        let mut result = Ok(true);
        while self.cursor < level.len() {
            if self.posted >= step.post_cap {
                result = Ok(false);
                break;
            }
            let end = level.len().min(self.cursor + BATCH);
            for &child in &level[self.cursor..end] {
                let lost = step.phase == Phase::Decisive
                    && self.cells[(child - self.base) as usize] == lose;
                self.batch.push((child, lost));
            }
            step.expansion.add(end - self.cursor);
            self.cursor = end;
            if let Err(e) = self.expand_batch(me, step) {
                result = Err(e);
                break;
            }
        }
        self.level = level;
        result
    }

    /// Expands the children in `batch`: their parents are found first and
    /// the parents' cells read in one tight pass, so that the cache misses
    /// of a whole batch overlap (with one child at a time the processor
    /// waits for a few misses after every child); then each child's
    /// parents are updated (or posted) in order, exactly as one by one.
    fn expand_batch<P: Parents<Scratch = S>>(
        &mut self,
        me: usize,
        step: &Step<'_, P>,
    ) -> Result<(), Error> {
        let mut bufs = std::mem::take(&mut self.bufs);
        let mut result = Ok(());
        for (&(child, _), buf) in self.batch.iter().zip(&mut bufs) {
            buf.clear();
            result = step.parents.parents(child, buf, &mut self.scratch);
            if result.is_err() {
                break;
            }
        }
        if result.is_ok() {
            let n = self.batch.len();
            let bufs = &bufs[..n];
            self.touch(bufs.iter().flat_map(|b| &b.singles).copied());
            self.touch(bufs.iter().flat_map(|b| &b.runs).map(|r| r.start));
            for (k, buf) in bufs.iter().enumerate() {
                result = self.expand(me, &buf.singles, &buf.runs, self.batch[k].1, step);
                if result.is_err() {
                    break;
                }
            }
        }
        self.batch.clear();
        self.bufs = bufs;
        result
    }

    /// Reads the cell of every id in `ids` that is this owner's, for
    /// nothing but to have them cached: independent loads in one tight
    /// loop let the processor fetch many lines at once, where updating
    /// each parent as it comes leaves it waiting for a few misses at a
    /// time. (A prefetch instruction would do the same without the wait,
    /// but needs `unsafe`, which this workspace forbids.)
    #[inline]
    fn touch(&self, ids: impl Iterator<Item = u64>) {
        let mut open = 0usize;
        for p in ids {
            if let Some(c) = self.cells.get(p.wrapping_sub(self.base) as usize) {
                open += usize::from(c.open().is_some());
            }
        }
        std::hint::black_box(open);
    }

    /// Updates or posts the parents of a child resolved at this level:
    /// `singles` and `runs` (consecutive pieces in one pass a owner,
    /// strided ones one by one).
    fn expand<P: Parents<Scratch = S>>(
        &mut self,
        me: usize,
        singles: &[u64],
        runs: &[Run],
        lost: bool,
        step: &Step<'_, P>,
    ) -> Result<(), Error> {
        for &p in singles {
            self.expand_one(p, lost, step)?;
        }
        for run in runs {
            for piece in run.pieces() {
                let Some(span) = piece.span() else {
                    if !piece.within(u64::MAX) {
                        return Err(bad_run(&piece));
                    }
                    for p in piece.iter() {
                        self.expand_one(p, lost, step)?;
                    }
                    continue;
                };
                let mut start = span.start;
                while start < span.end {
                    let t = (start >> step.shift) as usize;
                    let end = span.end.min(((t as u64) + 1) << step.shift);
                    if t == me {
                        self.apply_run(step, start, end, lost)?;
                    } else if t >= step.owners {
                        return Err(past_the_end(start));
                    } else {
                        post_to(&mut self.out, &mut self.watch, t)
                            .runs
                            .push(run_post(start, end, lost, step.shift));
                        self.posted += 1;
                    }
                    start = end;
                }
            }
        }
        Ok(())
    }

    /// Updates or posts one parent of a child resolved at this level.
    #[inline]
    fn expand_one<P: Parents<Scratch = S>>(
        &mut self,
        p: u64,
        lost: bool,
        step: &Step<'_, P>,
    ) -> Result<(), Error> {
        let (lo, hi) = (self.base, self.base + self.cells.len() as u64);
        if p >= lo && p < hi {
            let cell = self.cells[(p - lo) as usize];
            return self.update(step, (p - lo) as usize, cell, lost);
        }
        let t = (p >> step.shift) as usize;
        if t >= step.owners {
            return Err(past_the_end(p));
        }
        let inbox = post_to(&mut self.out, &mut self.watch, t);
        if lost {
            &mut inbox.lost
        } else {
            &mut inbox.won
        }
        .push((p & ((1 << step.shift) - 1)) as u32);
        self.posted += 1;
        Ok(())
    }

    /// The second half of a round: what the other owners posted.
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
                // A chunk's cells are read in one pass first (see `touch`).
                for chunk in list.chunks(4 * BATCH) {
                    let base = self.base;
                    self.touch(chunk.iter().map(|&o| base + u64::from(o)));
                    for &o in chunk {
                        let i = o as usize;
                        let cell = self.cells[i];
                        self.update(step, i, cell, lost)?;
                    }
                }
            }
            for &post in &inbox.runs {
                let (start, end, lost) = run_of_post(post, self.base);
                self.apply_run(step, start, end, lost)?;
            }
        }
        Ok(())
    }

    /// Puts offset `i` in the next level: in its list while the list is
    /// short, else the next level is scanned.
    #[inline]
    fn record(&mut self, i: usize) {
        self.cells_made().1.record(i);
    }

    /// The cells, and what the next level is made into: borrowed
    /// together.
    #[inline]
    fn cells_made(&mut self) -> (&mut [C], Made<'_>) {
        let made = Made {
            base: self.base,
            next: &mut self.next,
            next_scan: &mut self.next_scan,
            made: &mut self.made,
            cap: self.cap,
        };
        (&mut *self.cells, made)
    }

    /// Expands this owner's whole level straight into the cells
    /// ([`Direct`]): the children listed in `level`, or (when the level is
    /// scanned) every cell resolved at level `r`. One visitor serves the
    /// whole level, the child's cell read through it.
    fn expand_direct_level<P: Parents<Scratch = S>>(
        &mut self,
        step: &Step<'_, P>,
        r: u64,
        level: &[u64],
    ) -> Result<(), Error> {
        let base = self.base;
        let lose = C::resolved(Outcome::Lose, r);
        // What the parents of a lost (in the ties phase: tied) child
        // become.
        let set = match step.phase {
            Phase::Ties => C::resolved(Outcome::Tie, step.next),
            Phase::Decisive => C::resolved(Outcome::Win, step.next),
        };
        // Field by field: the game's visit borrows the buffers meanwhile.
        let (buf, scratch) = (&mut self.bufs[0], &mut self.scratch);
        let mut direct = Direct {
            cells: &mut *self.cells,
            made: Made {
                base,
                next: &mut self.next,
                next_scan: &mut self.next_scan,
                made: &mut self.made,
                cap: self.cap,
            },
            set: None,
            lose: C::resolved(Outcome::Lose, step.next),
            phase: step.phase,
            broken: None,
        };
        let mut expand = |direct: &mut Direct<'_, C>, child: u64, c: C| {
            let setting = step.phase == Phase::Ties || c == lose;
            direct.set = setting.then_some(set);
            step.parents.visit(child, buf, scratch, direct)?;
            match direct.broken.take() {
                Some(e) => Err(e),
                None => Ok(()),
            }
        };
        // Counted a batch's worth at a time, as the other paths count.
        if self.scan {
            let [mine, other] = level_cells::<C>(step.phase, r);
            let (mut from, mut counted) = (0, 0);
            while let Some(i) = next_in_level(&direct.cells[..], from, [mine, other]) {
                let c = direct.cells[i];
                expand(&mut direct, base + i as u64, c)?;
                from = i + 1;
                counted += 1;
                if counted == BATCH {
                    step.expansion.add(counted);
                    counted = 0;
                }
            }
            step.expansion.add(counted);
        } else {
            for batch in level.chunks(BATCH) {
                for &child in batch {
                    let c = direct.cells[(child - base) as usize];
                    expand(&mut direct, child, c)?;
                }
                step.expansion.add(batch.len());
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
            return Err(past_the_end(end - 1));
        }
        if lost || step.lazy || step.phase == Phase::Ties {
            for i in lo..hi {
                let cell = self.cells[i];
                self.update(step, i, cell, lost)?;
            }
            return Ok(());
        }
        let (cells, mut made) = self.cells_made();
        let mut made = made.at(lo as u64);
        if let Some(k) = dec_run(
            &mut cells[lo..hi],
            C::resolved(Outcome::Lose, step.next),
            |i| made.record(i),
        ) {
            return Err(refused_cell(start + k as u64, cells[lo + k]));
        }
        Ok(())
    }

    /// One parent (at offset `i`, holding `cell`) of a child resolved at
    /// the current level: lost (or, in the tie phase, tied) or won, by
    /// the one update rule ([`crate::step::update`]).
    #[inline]
    fn update<P: Parents<Scratch = S>>(
        &mut self,
        step: &Step<'_, P>,
        i: usize,
        cell: C,
        lost: bool,
    ) -> Result<(), Error> {
        let id = self.base + i as u64;
        let scratch = &mut self.scratch;
        match crate::step::update(cell, id, lost, step.phase, step.next, || {
            step.parents.count(id, scratch)
        })? {
            Updated::Unchanged => {}
            Updated::Counted(c) => self.cells[i] = c,
            Updated::Resolved(c) => {
                self.cells[i] = c;
                self.record(i);
            }
        }
        Ok(())
    }
}

/// The most bytes of cells for which one owner updates each parent as the
/// game gives it ([`Direct`]): within the last-level cache, where a
/// parent's cell is seldom a miss.
const DIRECT_BYTES: u64 = 16 << 20;

/// Cells a scan tests at once ([`next_in_level`]).
const SCAN_CHUNK: usize = 64;

/// The offset of the first of `cells` at or after `from` that holds
/// `a` or `b` (a scanned level's two values: lost and won at its
/// remoteness, or tied twice), if any. Whole chunks of 64 cells holding
/// neither are skipped at one branch each, over compares the compiler
/// makes wide: most of a table holds none of one level. Every level scan
/// goes through here (solver-cluster's included).
///
/// ```
/// use solver_retro::{next_in_level, Cell};
/// use game_core::Outcome;
///
/// let level = [u16::resolved(Outcome::Lose, 3), u16::resolved(Outcome::Win, 3)];
/// let mut cells = vec![u16::counter(2); 300];
/// cells[130] = level[1];
/// cells[299] = level[0];
/// assert_eq!(next_in_level(&cells, 0, level), Some(130));
/// assert_eq!(next_in_level(&cells, 131, level), Some(299));
/// assert_eq!(next_in_level(&cells, 300, level), None);
/// ```
pub fn next_in_level<C: Cell>(cells: &[C], mut from: usize, [a, b]: [C; 2]) -> Option<usize> {
    let hit = |c: C| c == a || c == b;
    // Cell by cell up to a chunk's start.
    while from < cells.len() && !from.is_multiple_of(SCAN_CHUNK) {
        if hit(cells[from]) {
            return Some(from);
        }
        from += 1;
    }
    while let Some(chunk) = cells.get(from..from + SCAN_CHUNK) {
        if chunk
            .iter()
            .fold(false, |any, &c| any | (c == a) | (c == b))
        {
            break;
        }
        from += SCAN_CHUNK;
    }
    // The chunk that holds one, or the tail shorter than a chunk.
    cells
        .get(from..)?
        .iter()
        .position(|&c| hit(c))
        .map(|k| from + k)
}

/// The bytes of `n` cells.
fn cells_bytes<C: Cell>(n: u64) -> u64 {
    n.saturating_mul(C::BYTES)
}

/// Whether a table of `n` cells fits in the cache ([`DIRECT_BYTES`]): then
/// one owner solves it on one thread, and it is seeded on that thread too
/// — seeded on several, its lines would sit in other cores' caches when
/// the owner reads them (Fingers F = 64 at two threads: 6.8–10.5 ms with
/// the seeding on both, 6.2–6.4 on one).
pub(crate) fn in_cache<C: Cell>(n: u64) -> bool {
    cells_bytes::<C>(n) <= DIRECT_BYTES
}

/// Whether the direct path may run: always, but in the unit tests, which
/// run both paths (as the test's config says, else every other solve).
#[cfg(not(test))]
fn direct_allowed(_: &crate::Config) -> bool {
    true
}

/// Whether the direct path may run: always, but in the unit tests, which
/// run both paths (as the test's config says, else every other solve).
#[cfg(test)]
fn direct_allowed(config: &crate::Config) -> bool {
    use std::sync::atomic::{AtomicU64, Ordering};
    static RUNS: AtomicU64 = AtomicU64::new(0);
    config
        .direct
        .unwrap_or_else(|| RUNS.fetch_add(1, Ordering::Relaxed).is_multiple_of(2))
}

/// Where a step puts what it resolves: the next level's list (ids from
/// `base` on), or a scan once the list is long.
struct Made<'a> {
    base: u64,
    next: &'a mut Vec<u64>,
    next_scan: &'a mut bool,
    made: &'a mut u64,
    cap: usize,
}

impl Made<'_> {
    /// The same, for cells from `offset` on.
    #[inline]
    fn at(&mut self, offset: u64) -> Made<'_> {
        Made {
            base: self.base + offset,
            next: &mut *self.next,
            next_scan: &mut *self.next_scan,
            made: &mut *self.made,
            cap: self.cap,
        }
    }

    /// Puts offset `i` (from `base`) in the next level: in its list while
    /// the list is short, else the next level is scanned.
    #[inline]
    fn record(&mut self, i: usize) {
        *self.made += 1;
        if !*self.next_scan {
            if self.next.len() < self.cap {
                self.next.push(self.base + i as u64);
            } else {
                *self.next_scan = true;
                self.next.clear();
            }
        }
    }
}

/// One owner's cells updated straight from the game's parents, with no
/// list between: for a table in the cache, where the batches' second
/// pass over the parents costs more than the misses it hides.
struct Direct<'a, C> {
    cells: &'a mut [C],
    made: Made<'a>,
    /// What an open parent becomes: a win (lost child) or a tie (tied
    /// child); `None`: a won child, whose parents count down.
    set: Option<C>,
    /// What a parent whose last child won becomes.
    lose: C,
    /// Which half of the solve is running.
    phase: Phase,
    /// The first broken promise met.
    broken: Option<Error>,
}

impl<C: Cell> ParentVisitor for Direct<'_, C> {
    #[inline]
    fn single(&mut self, p: u64) {
        // The common cases here: an open parent counted down or set, a
        // resolved one that takes the update and stays. The rest (a count
        // reaching zero, a refusal, an id past the table) out of line, so
        // that this body is small enough for the game's generator to
        // inline (Fingers F = 64: 6.25 -> 5.77 ms; the visitor was called
        // out of line, with a frame, for every parent).
        let i = p.wrapping_sub(self.made.base) as usize;
        if let Some(cell) = self.cells.get_mut(i) {
            match (self.set, cell.open()) {
                (None, Some(open @ 2..)) => {
                    *cell = C::counter(open - 1);
                    return;
                }
                (Some(set), Some(_)) => {
                    *cell = set;
                    self.made.record(i);
                    return;
                }
                (Some(_), None) if !cell.refuses_update_in(self.phase == Phase::Ties) => return,
                _ => {}
            }
        }
        self.single_slow(p);
    }

    /// A run of parents: consecutive ones in one pass
    /// ([`Direct::range`], [`Direct::range_except`]), strided ones one by
    /// one.
    #[inline]
    fn run(&mut self, run: Run) {
        let Some(span) = run.span() else {
            return self.strided(run);
        };
        match run.except {
            None => self.range(span),
            Some(hole) => self.range_except(span, hole),
        }
    }
}

impl<C: Cell> Direct<'_, C> {
    /// Consecutive parents `run`, a won child's counted down in one pass.
    #[inline]
    fn range(&mut self, run: std::ops::Range<u64>) {
        let base = self.made.base;
        let (lo, hi) = (run.start.wrapping_sub(base), run.end.wrapping_sub(base));
        if lo > hi || hi > self.cells.len() as u64 {
            self.broken
                .get_or_insert_with(|| past_the_end(run.end.saturating_sub(1)));
            return;
        }
        if self.set.is_some() {
            for p in run {
                self.single(p);
            }
            return;
        }
        let cells = &mut self.cells[lo as usize..hi as usize];
        let mut made = self.made.at(lo);
        if let Some(k) = dec_run(cells, self.lose, |i| made.record(i)) {
            let e = refused_cell(run.start + k as u64, cells[k]);
            self.broken.get_or_insert(e);
        }
    }

    /// A won child's run of parents with a hole, decremented in one
    /// pass: the hole's cell stands in as an open counter of 2 meanwhile
    /// (neither refused nor brought to zero) and gets its value back
    /// after: one pass where two runs would each pay their setup (Fingers
    /// F = 64: a fifteenth of the solve). Otherwise (a lost or tied
    /// child, a hole outside the run) parent by parent; a run past the
    /// table is refused as [`Direct::range`] refuses it.
    #[inline]
    fn range_except(&mut self, run: std::ops::Range<u64>, hole: u64) {
        let base = self.made.base;
        let (lo, hi) = (run.start.wrapping_sub(base), run.end.wrapping_sub(base));
        if lo > hi || hi > self.cells.len() as u64 {
            // Past the table: refused at once, as a run is.
            return self.range(run);
        }
        if self.set.is_some() || !run.contains(&hole) {
            for p in run.filter(|&p| p != hole) {
                self.single(p);
            }
            return;
        }
        let cells = &mut self.cells[lo as usize..hi as usize];
        let k = (hole - run.start) as usize;
        let kept = cells[k];
        cells[k] = C::counter(2);
        let mut made = self.made.at(lo);
        let refused = dec_run(cells, self.lose, |i| made.record(i));
        cells[k] = kept;
        if let Some(k) = refused {
            let e = refused_cell(run.start + k as u64, cells[k]);
            self.broken.get_or_insert(e);
        }
    }

    /// Strided parents, one by one; a run past the table (or one that
    /// repeats an index) is refused as a whole.
    #[inline(never)]
    fn strided(&mut self, run: Run) {
        let end = self.made.base.saturating_add(self.cells.len() as u64);
        if !run.within(end) || run.start < self.made.base {
            self.broken.get_or_insert_with(|| bad_run(&run));
            return;
        }
        for p in run.iter() {
            self.single(p);
        }
    }

    /// [`ParentVisitor::single`] past its common case.
    #[inline(never)]
    fn single_slow(&mut self, p: u64) {
        let i = p.wrapping_sub(self.made.base) as usize;
        let Some(cell) = self.cells.get_mut(i) else {
            self.broken.get_or_insert_with(|| past_the_end(p));
            return;
        };
        let Some(open) = cell.open() else {
            if let Some(e) = refused(self.phase, p, *cell) {
                self.broken.get_or_insert(e);
            }
            return;
        };
        let new = match (self.set, open) {
            (Some(c), _) => c,
            (None, 0) => {
                self.broken.get_or_insert_with(|| too_many_updates(p));
                return;
            }
            (None, 1) => self.lose,
            (None, _) => {
                *cell = C::counter(open - 1);
                return;
            }
        };
        *cell = new;
        self.made.record(i);
    }
}

/// The error for a strided run of parents that repeats an id or passes
/// the table.
#[cold]
fn bad_run(run: &Run) -> Error {
    Error::Broken(format!(
        "the game gave the run of parents {run:?}, which repeats an id or passes the last"
    ))
}

/// The error for a parent id past the table.
#[cold]
fn past_the_end(id: u64) -> Error {
    Error::Broken(format!("the game gave parent id {id}, past the last id"))
}

#[cfg(test)]
mod tests;
