//! The levels of a tier on one worker: its view of the process's blocks
//! (a [`Shard`]), the children of a level shared among the process's
//! workers, their parents routed to blocks (applied under the block's
//! lock by solver-retro's update rule, [`solver_retro::step`]) or to the
//! workers of other processes, and the summaries that end each round.

use std::sync::{Mutex, TryLockError};

use game_core::{Outcome, ParentIndices, Tier};
use solver_retro::step::{self, Phase, Seeds, Updated};
use solver_retro::Progress;
use timely::worker::Worker;

use super::io::{take, Io};
use super::store::Shared;
use super::Ctx;
use crate::cell::{Cell, Piece, View, Width};
use crate::layout::Layout;
use crate::local;
use crate::space::Space;
use crate::updates::{self, Encoder, Span};
use crate::{Error, Traffic};

/// Words of updates a worker gathers for a worker of another process
/// before sending them on (a level's messages stay a few hundred kilobytes
/// each).
const MESSAGE: usize = 1 << 15;
/// Words of updates a worker gathers for a block of its own process
/// before it applies them (their cells read in one pass first).
const POST: usize = 1 << 11;
/// "No event left" in a summary.
const NONE: u64 = u64::MAX;
/// The bit of a level's summary (its count of positions resolved) that
/// says a cell of its worker was too narrow.
const OVERFLOW: u64 = 1 << 63;
/// The bit of a level's summary (the process is the whole cluster) that
/// says its worker's list of the next level grew past its cap: every
/// worker finds that level by a scan. Across processes the workers of
/// each process agree at its own barrier instead (see `Shard::run`).
const UNLISTED: u64 = 1 << 62;
/// The bit of a round's summary that says its worker has more of the
/// level to send: the level goes on for another round.
const MORE: u64 = 1 << 61;
/// A summary's count of positions (below its flags).
const COUNT: u64 = MORE - 1;
/// Cells a scan for a level reads under one hold of a block's lock.
const SCAN: usize = 1 << 14;

/// The longest list of a level's children worker `me` keeps
/// ([`crate::ClusterConfig::level_list_cap`]): by default a sixteenth of
/// its shard's cells, at least 1,024.
pub(super) fn list_cap<S>(ctx: &Ctx<S>, lay: &Layout, me: usize) -> usize {
    let (lo, hi) = lay.shard_range(me);
    let cap = ctx.list_cap.unwrap_or(((hi - lo) / 16).max(1 << 10));
    usize::try_from(cap).unwrap_or(usize::MAX)
}

/// The most bytes of updates a worker sends to other processes in a
/// round, for a tier of `size` cells solved by `peers` workers
/// ([`crate::ClusterConfig::round_bytes`]): by default half a byte a cell
/// shared among the workers, at least 256 KiB a worker.
fn round_bytes<S>(ctx: &Ctx<S>, size: u64, peers: usize) -> u64 {
    ctx.round_bytes
        .unwrap_or((size / (2 * peers.max(1) as u64)).max(1 << 18))
        .max(1)
}

/// A worker's view of the tier being solved: the process's blocks, and
/// what it has gathered for them and for other processes' workers.
struct Shard<'a, S: Space> {
    space: &'a S,
    shared: &'a Shared,
    tier: Tier,
    lay: Layout,
    /// The owner of every block.
    owners: Vec<u32>,
    /// This process's blocks: `first..first + blocks.len()`.
    first: usize,
    blocks: &'a [Mutex<Option<Piece>>],
    me: u64,
    per_process: u64,
    /// Processes in the cluster.
    processes: u64,
    lazy: bool,
    /// The cells' width.
    width: Width,
    /// A cell narrower than 4 bytes was too narrow this level.
    overflow: bool,
    /// The next level's children found so far (unless `unlisted`).
    next: Vec<u64>,
    /// The longest `next` may grow ([`list_cap`]).
    cap: usize,
    /// `next` grew past `cap`: the next level is found by a scan.
    unlisted: bool,
    /// The most bytes sent to other processes in a round ([`round_bytes`]).
    round_bytes: u64,
    /// Words gathered for other processes this round (sent or not yet).
    round_words: u64,
    /// Children of the level found by a scan, a few at a time.
    found: Vec<u64>,
    scratch: S::Scratch,
    buf: ParentIndices,
    /// Updates for each of the process's blocks, this level.
    out: Vec<Encoder>,
    /// Updates for every worker of another process, this level.
    remote: Vec<Encoder>,
    /// Spans being applied.
    spans: Vec<Span>,
}

/// What the levels of one tier are run with, besides the worker and its
/// I/O.
pub(super) struct TierRun<'a, S: Space> {
    /// What the process's workers share.
    pub ctx: &'a Ctx<S>,
    /// The tier.
    pub tier: Tier,
    /// Its layout.
    pub lay: Layout,
    /// The process's blocks, `first..end` of the tier's.
    pub first: usize,
    /// One past the process's last block.
    pub end: usize,
    /// The process's blocks, seeded.
    pub blocks: &'a [Mutex<Option<Piece>>],
    /// Cells may hold [`solver_retro::Cell::UNCOUNTED`].
    pub lazy: bool,
    /// The cells' width.
    pub width: Width,
    /// The longest list of a level ([`list_cap`]).
    pub cap: usize,
}

/// Runs the levels of a seeded tier, wins and losses then ties, from
/// `seeds` (the level-0 lists this process left to a scan in
/// `unlisted`, [`local::UNLISTED_DECISIVE`] and [`local::UNLISTED_TIES`]):
/// `true` when 1- or 2-byte cells turned out too narrow (every worker
/// returns it after the same barrier).
#[allow(clippy::too_many_arguments)]
pub(super) fn run_tier<S: Space>(
    worker: &mut Worker,
    io: &mut Io,
    run: &TierRun<'_, S>,
    mut seeds: Seeds,
    unlisted: u8,
    scratch: &mut S::Scratch,
    traffic: &mut Traffic,
    report: &dyn Fn(Progress),
) -> Result<bool, Error> {
    let me = worker.index();
    let peers = worker.peers();
    let pp = run.ctx.per_process.max(1);
    let processes = peers / pp;
    let size = run.lay.size;
    let mut shard = Shard {
        space: &*run.ctx.space,
        shared: &run.ctx.shared,
        tier: run.tier,
        lay: run.lay,
        owners: run.lay.owners(),
        first: run.first,
        blocks: run.blocks,
        me: me as u64,
        per_process: pp as u64,
        processes: processes as u64,
        lazy: run.lazy,
        width: run.width,
        overflow: false,
        next: Vec::new(),
        cap: run.cap,
        unlisted: false,
        round_bytes: round_bytes(run.ctx, size, peers),
        round_words: 0,
        found: Vec::new(),
        scratch: std::mem::take(scratch),
        buf: ParentIndices::default(),
        out: (run.first..run.end).map(|_| Encoder::default()).collect(),
        remote: (0..peers).map(|_| Encoder::default()).collect(),
        spans: Vec::new(),
    };
    // Sorted by phase, level and id (solver-retro's packing): the
    // decisive events, then the ties'.
    let mut events = std::mem::take(&mut seeds.events);
    events.sort_unstable();
    let split = events.partition_point(|&e| !step::event_tied(e));
    let (decisive, ties) = events.split_at(split);
    let mut resolved = 0u64;
    // Wins and losses, then ties (unless a cell overflowed).
    let phases = [
        (
            Phase::Decisive,
            std::mem::take(&mut seeds.decisive),
            local::UNLISTED_DECISIVE,
            decisive,
        ),
        (
            Phase::Ties,
            std::mem::take(&mut seeds.ties),
            local::UNLISTED_TIES,
            ties,
        ),
    ];
    let mut overflow = false;
    for (phase, level, bit, events) in phases {
        if overflow {
            break;
        }
        overflow = shard.run(
            worker,
            io,
            phase,
            level,
            unlisted & bit != 0,
            events,
            peers,
            traffic,
            &mut resolved,
            report,
        )?;
    }
    *scratch = shard.scratch;
    Ok(overflow)
}

/// Adds to `found` the ids (from `base` on) of the `cells` resolved at
/// remoteness `r` in `phase` — won or lost (a loss with the lost bit), or
/// tied — as the level lists hold them.
fn find_level<C: Cell>(cells: &[C], base: u64, r: u64, phase: Phase, found: &mut Vec<u64>) {
    let [a, b] = step::level_cells::<C>(phase, r);
    let flag = if phase == Phase::Decisive {
        updates::LOST
    } else {
        0
    };
    let mut from = 0;
    while let Some(i) = solver_retro::next_in_level(cells, from, [a, b]) {
        found.push((base + i as u64) | if cells[i] == a { flag } else { 0 });
        from = i + 1;
    }
}

/// Adds `x` to the list `next` while it is below `cap`, else marks the
/// level `unlisted` (found by a scan).
#[inline(always)]
fn list_in(next: &mut Vec<u64>, cap: usize, unlisted: &mut bool, x: u64) {
    if next.len() < cap {
        next.push(x);
    } else {
        *unlisted = true;
    }
}

/// How many updates a block's list may hold before the worker applies it
/// even if another worker holds the block (it waits for the lock then).
const PATIENCE: usize = 8;

impl<S: Space> Shard<'_, S> {
    /// The levels of one phase, each ended by a barrier: among the
    /// process's workers when the process is the whole cluster, else
    /// timely's (a level whose updates to other processes pass
    /// [`Shard::round_bytes`] in some worker takes several rounds). The
    /// first level is `level`, or found by a scan when `scan`. `true`
    /// when 1- or 2-byte cells turned out too narrow (every worker returns
    /// it after the same barrier).
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        worker: &mut Worker,
        io: &mut Io,
        phase: Phase,
        mut level: Vec<u64>,
        mut scan: bool,
        events: &[u64],
        peers: usize,
        traffic: &mut Traffic,
        resolved: &mut u64,
        report: &dyn Fn(Progress),
    ) -> Result<bool, Error> {
        let mut at = 0;
        let mut r = 0u64;
        let mut got_updates = Vec::new();
        let mut got_summary = Vec::new();
        let alone = self.processes == 1;
        let pp = self.per_process as usize;
        let mine = self.me as usize % pp;
        loop {
            let next = r + 1;
            // Every worker sees the same level.
            if self.width != Width::Wide && next > self.width.max_remoteness() {
                return Ok(true);
            }
            if next > u32::MAX_REMOTENESS {
                return Err(solver_retro::Error::TooDeep {
                    max: u32::MAX_REMOTENESS,
                }
                .into());
            }
            if scan {
                level.clear();
                traffic.scanned_levels += 1;
            }
            let mut busy = level.len() as u64;
            let level_bytes = traffic.remote_bytes;
            // The level's children, shared among this process's workers
            // (or each worker scans its own shard for them).
            let level_round = io.round;
            level = self.shared.local.publish(level_round, mine, level);
            let mut cursor = (0, 0);
            let mut overflow = false;
            let mut unlisted = false;
            let mut first_event = NONE;
            let mut all_busy = 0u64;
            // The level's rounds: one, unless this worker's updates to
            // other processes pass `round_bytes` (then every worker runs
            // another round, applying what it received in between).
            loop {
                let round = io.round;
                let limit = self.round_bytes.div_ceil(8);
                let round_start = traffic.remote_bytes;
                self.round_words = 0;
                let mut more = false;
                while let Some(&e) = events.get(at) {
                    if step::event_level(e) != r {
                        break;
                    }
                    if self.round_words >= limit {
                        more = true;
                        break;
                    }
                    at += 1;
                    busy += 1;
                    let id = step::event_id(e);
                    self.route(id, id + 1, step::event_lost(e), phase, next, io, traffic)?;
                }
                while !more {
                    let Some((part, range)) = self.shared.local.take_work(level_round, mine) else {
                        break;
                    };
                    self.send_listed(&part[range], phase, next, io, traffic)?;
                    more = self.round_words >= limit;
                }
                if scan {
                    let mut found = std::mem::take(&mut self.found);
                    while !more && self.scan_some(&mut cursor, r, phase, &mut found)? {
                        busy += found.len() as u64;
                        self.send_listed(&found, phase, next, io, traffic)?;
                        found.clear();
                        more = self.round_words >= limit;
                    }
                    self.found = found;
                }
                // What is left: applied to this process's blocks, sent by
                // timely to other processes' workers.
                self.flush_blocks(phase, next)?;
                for w in 0..peers {
                    if !self.remote[w].words.is_empty() {
                        self.flush_remote(w, io, traffic);
                    }
                }
                traffic.max_round_bytes = traffic
                    .max_round_bytes
                    .max(traffic.remote_bytes - round_start);
                let next_event = events.get(at).map_or(NONE, |&e| step::event_level(e));
                let summary = busy
                    | if self.overflow { OVERFLOW } else { 0 }
                    | if self.unlisted { UNLISTED } else { 0 }
                    | if more { MORE } else { 0 };
                let mut go_on = false;
                let mut sums = |b: u64, e: u64| {
                    all_busy += b & COUNT;
                    overflow |= b & OVERFLOW != 0;
                    unlisted |= b & UNLISTED != 0;
                    go_on |= b & MORE != 0;
                    first_event = first_event.min(e);
                };
                if alone {
                    // Nothing is sent: one round a level.
                    self.shared
                        .local
                        .summarize(round, mine, (summary, next_event));
                    traffic.summaries += pp as u64;
                    io.local_barrier(&self.shared.local)?;
                    for (b, e) in self.shared.local.summaries(round) {
                        sums(b, e);
                    }
                } else {
                    for w in 0..peers {
                        io.summary.send((w as u64, summary, next_event));
                    }
                    traffic.summaries += peers as u64;
                    io.barrier(worker)?;
                    take(&io.got_summary, io.round, &mut got_summary);
                    for (_, b, e) in got_summary.drain(..) {
                        sums(b, e);
                    }
                    // What other processes sent, applied before any worker
                    // of this process starts the next round (dropped when
                    // the tier starts again in wide cells).
                    take(&io.got_updates, io.round, &mut got_updates);
                    if overflow {
                        got_updates.clear();
                    }
                    for (_, words) in got_updates.drain(..) {
                        self.receive(&words, phase, next)?;
                    }
                    self.flush_blocks(phase, next)?;
                    // Whether a list passed its cap, the updates received
                    // included (listed after the summaries went out): the
                    // process's workers agree among themselves, since a
                    // worker lists positions of its own process only. A
                    // worker that dropped entries while the others kept
                    // their lists would lose positions.
                    let at = io.round;
                    self.shared
                        .local
                        .summarize(at, mine, (u64::from(self.unlisted), 0));
                    self.shared.local.barrier()?;
                    unlisted = self.shared.local.summaries(at).any(|(u, _)| u != 0);
                }
                if !go_on || overflow {
                    break;
                }
                // Another round of the level: the sums start again.
                (all_busy, first_event, unlisted) = (0, NONE, false);
            }
            traffic.max_level_bytes = traffic
                .max_level_bytes
                .max(traffic.remote_bytes - level_bytes);
            traffic.levels += 1;
            if overflow {
                return Ok(true);
            }
            *resolved += all_busy;
            report(Progress::Level {
                level: next,
                positions: *resolved,
            });
            level.clear();
            std::mem::swap(&mut level, &mut self.next);
            // A level too long for some worker's list is found by a scan
            // in every worker of its process (lists hold ids of the
            // process's other shards too).
            scan = unlisted;
            self.unlisted = false;
            if all_busy == 0 {
                if first_event == NONE {
                    return Ok(false);
                }
                r = first_event;
            } else {
                r = next;
            }
        }
    }

    /// Finds the next children of level `r` in this worker's shard, by
    /// scanning its cells from `at` (a block of the shard, an offset in
    /// it) on for those resolved at remoteness `r` in `phase` (wins and
    /// losses, or ties), into `found` with their lost bit: `false` once
    /// the whole shard is scanned. Holds one block's lock at a time, for
    /// [`SCAN`] cells at most.
    fn scan_some(
        &mut self,
        at: &mut (usize, usize),
        r: u64,
        phase: Phase,
        found: &mut Vec<u64>,
    ) -> Result<bool, Error> {
        let mine = self.lay.blocks_of(self.me as usize);
        loop {
            let b = mine.start + at.0;
            if b >= mine.end {
                return Ok(false);
            }
            let base = self.lay.block_range(b).0;
            let mut guard = local::lock(&self.blocks[b - self.first]);
            let Some(piece) = guard.as_mut() else {
                return Err(self.unseeded(b));
            };
            let len = piece.len();
            let (from, to) = (at.1, (at.1 + SCAN).min(len));
            match piece.view() {
                View::Byte(c) => find_level(&c[from..to], base + from as u64, r, phase, found),
                View::Narrow(c) => find_level(&c[from..to], base + from as u64, r, phase, found),
                View::Wide(c) => find_level(&c[from..to], base + from as u64, r, phase, found),
            }
            drop(guard);
            *at = if to == len { (at.0 + 1, 0) } else { (at.0, to) };
            if !found.is_empty() {
                return Ok(true);
            }
        }
    }

    /// The error for block `b` of the process found empty.
    fn unseeded(&self, b: usize) -> Error {
        solver_retro::Error::Broken(format!(
            "block {b} of tier {} was never seeded",
            self.space.name(self.tier)
        ))
        .into()
    }

    /// Adds `x` (an id and its lost bit) to the next level, unless the
    /// list is full: then the next level is found by a scan.
    #[inline(always)]
    fn list(&mut self, x: u64) {
        list_in(&mut self.next, self.cap, &mut self.unlisted, x);
    }

    /// Updates that another process sent this worker: every span lies in
    /// its shard (else the sender broke the layout).
    fn receive(&mut self, words: &[u64], phase: Phase, next: u64) -> Result<(), Error> {
        let (lo, hi) = self.lay.shard_range(self.me as usize);
        let mut spans = std::mem::take(&mut self.spans);
        spans.clear();
        let broken = |m: String| Error::from(solver_retro::Error::Broken(m));
        let r = updates::decode(
            words,
            |span| {
                if span.start < lo || span.end > hi {
                    return Err(broken(format!(
                        "worker {} was sent parent ids {}..{}, outside its shard {lo}..{hi}",
                        self.me, span.start, span.end
                    )));
                }
                spans.push(span);
                Ok(())
            },
            broken,
        );
        let r = r.and_then(|()| {
            spans.iter().try_for_each(|s| {
                let mut start = s.start;
                while start < s.end {
                    let b = self.lay.block_of(start);
                    let end = s.end.min(self.lay.block_range(b).1);
                    self.push_local(b - self.first, start, end, s.lost, phase, next)?;
                    start = end;
                }
                Ok(())
            })
        });
        spans.clear();
        self.spans = spans;
        r
    }

    /// Routes parents `start..end` (below the tier's size) to their
    /// blocks: this process's to the block's list, other processes' to
    /// the owner's.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn route(
        &mut self,
        mut start: u64,
        end: u64,
        lost: bool,
        phase: Phase,
        next: u64,
        io: &mut Io,
        traffic: &mut Traffic,
    ) -> Result<(), Error> {
        while start < end {
            let b = self.lay.block_of(start);
            let stop = end.min(self.lay.block_range(b).1);
            let j = b.wrapping_sub(self.first);
            if j < self.out.len() {
                traffic.local_updates += stop - start;
                self.push_local(j, start, stop, lost, phase, next)?;
            } else {
                let o = self.owners[b] as usize;
                let before = self.remote[o].words.len();
                self.remote[o].push(start, stop, lost);
                self.round_words += (self.remote[o].words.len() - before) as u64;
                if stop - start == 1 {
                    traffic.singles += 1;
                } else {
                    traffic.runs += 1;
                    traffic.run_parents += stop - start;
                }
                if self.remote[o].words.len() >= MESSAGE {
                    self.flush_remote(o, io, traffic);
                }
            }
            start = stop;
        }
        Ok(())
    }

    /// Adds parents `start..end` (all in block `j` of the process) to the
    /// block's list, applying the list once it is long enough and the
    /// block free (or the list much longer).
    #[inline(always)]
    fn push_local(
        &mut self,
        j: usize,
        start: u64,
        end: u64,
        lost: bool,
        phase: Phase,
        next: u64,
    ) -> Result<(), Error> {
        let out = &mut self.out[j];
        out.push(start, end, lost);
        if out.words.len() >= POST {
            let force = out.words.len() >= PATIENCE * POST;
            self.flush_block(j, force, phase, next)?;
        }
        Ok(())
    }

    /// Applies every block's list (waiting for blocks other workers hold).
    fn flush_blocks(&mut self, phase: Phase, next: u64) -> Result<(), Error> {
        for j in 0..self.out.len() {
            if !self.out[j].words.is_empty() {
                self.flush_block(j, true, phase, next)?;
            }
        }
        Ok(())
    }

    /// Applies block `j`'s list if the block is free, or, with `force`,
    /// once it is.
    fn flush_block(&mut self, j: usize, force: bool, phase: Phase, next: u64) -> Result<(), Error> {
        let blocks = self.blocks;
        let mut guard = match blocks[j].try_lock() {
            Ok(g) => g,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) if !force => return Ok(()),
            Err(TryLockError::WouldBlock) => local::lock(&blocks[j]),
        };
        let base = self.lay.block_range(self.first + j).0;
        let Some(piece) = guard.as_mut() else {
            return Err(self.unseeded(self.first + j));
        };
        let mut words = self.out[j].take();
        let r = match piece.view() {
            View::Byte(cells) => self.apply(cells, base, &words, phase, next),
            View::Narrow(cells) => self.apply(cells, base, &words, phase, next),
            View::Wide(cells) => self.apply(cells, base, &words, phase, next),
        };
        drop(guard);
        words.clear();
        self.out[j].words = words;
        r
    }

    /// Applies the updates of `words` to a block's `cells` (ids from
    /// `base`): their cells are read in one pass first, so that the cache
    /// misses overlap, then updated in order.
    fn apply<C: Cell>(
        &mut self,
        cells: &mut [C],
        base: u64,
        words: &[u64],
        phase: Phase,
        next: u64,
    ) -> Result<(), Error> {
        // The first word of every update holds its first id.
        let mut open = 0usize;
        let mut k = 0;
        while let Some(&w) = words.get(k) {
            k += if w & updates::RUN == 0 { 1 } else { 2 };
            if let Some(&c) = cells.get((w & updates::ID).wrapping_sub(base) as usize) {
                open += usize::from(c.is_open());
            }
        }
        std::hint::black_box(open);
        let len = cells.len() as u64;
        let mut k = 0;
        while let Some(&w) = words.get(k) {
            let start = w & updates::ID;
            let end = if w & updates::RUN == 0 {
                k += 1;
                start + 1
            } else {
                k += 2;
                words.get(k - 1).copied().unwrap_or(0)
            };
            let (lo, hi) = (start.wrapping_sub(base), end.wrapping_sub(base));
            if start < base || end <= start || hi > len {
                return Err(solver_retro::Error::Broken(format!(
                    "parent ids {start}..{end} are not a run in block {base}..{}",
                    base + len
                ))
                .into());
            }
            let lost = w & updates::LOST != 0;
            self.apply_run(cells, base, lo as usize, hi as usize, lost, phase, next)?;
        }
        Ok(())
    }

    /// Sends the updates gathered for worker `w` of another process.
    fn flush_remote(&mut self, w: usize, io: &mut Io, traffic: &mut Traffic) {
        let words = self.remote[w].take();
        let bytes = 8 * words.len() as u64;
        traffic.bytes += bytes;
        traffic.remote_bytes += bytes;
        io.updates.send((w as u64, words));
    }

    /// Parents at offsets `lo..hi` of a block's `cells`: won children's
    /// runs decrement their counters in one tight pass, then resolve the
    /// counters that reached zero (as the rayon engine); anything else
    /// goes one by one.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn apply_run<C: Cell>(
        &mut self,
        cells: &mut [C],
        base: u64,
        lo: usize,
        hi: usize,
        lost: bool,
        phase: Phase,
        next: u64,
    ) -> Result<(), Error> {
        if hi - lo == 1 || lost || self.lazy || phase == Phase::Ties {
            for i in lo..hi {
                self.update(cells, base, i, lost, phase, next)?;
            }
            return Ok(());
        }
        // Open cells above zero lose one; a loss or no position refuses
        // the update: the rayon engine's rule for a run.
        let lose = C::resolved(Outcome::Lose, next);
        let at = base + lo as u64;
        let (next_list, cap, unlisted) = (&mut self.next, self.cap, &mut self.unlisted);
        let refused = step::dec_run(&mut cells[lo..hi], lose, |i| {
            list_in(next_list, cap, unlisted, (at + i as u64) | updates::LOST);
        });
        if let Some(k) = refused {
            let (id, c) = (at + k as u64, cells[lo + k]);
            return Err(solver_retro::Error::refused_update(id, c == C::INVALID).into());
        }
        Ok(())
    }

    /// The parents of every child of `level` (an id with its lost bit, as
    /// level lists hold them), routed to their blocks.
    fn send_listed(
        &mut self,
        level: &[u64],
        phase: Phase,
        next: u64,
        io: &mut Io,
        traffic: &mut Traffic,
    ) -> Result<(), Error> {
        for &x in level {
            let (child, lost) = (x & updates::ID, x & updates::LOST != 0);
            self.send(child, lost, phase, next, io, traffic)?;
        }
        Ok(())
    }

    /// The parents of `child`, routed to their blocks.
    fn send(
        &mut self,
        child: u64,
        lost: bool,
        phase: Phase,
        next: u64,
        io: &mut Io,
        traffic: &mut Traffic,
    ) -> Result<(), Error> {
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        let r = self
            .space
            .parents(self.tier, child, &mut buf, &mut self.scratch)
            .and_then(|()| {
                let size = self.lay.size;
                for &p in &buf.singles {
                    if p >= size {
                        return Err(self.past(p));
                    }
                    self.route(p, p + 1, lost, phase, next, io, traffic)?;
                }
                for run in &buf.runs {
                    if !run.within(size) {
                        return Err(self.past_run(run));
                    }
                    // Consecutive pieces routed whole, strided ones by id.
                    for piece in run.pieces() {
                        match piece.span() {
                            Some(span) if !span.is_empty() => {
                                self.route(span.start, span.end, lost, phase, next, io, traffic)?;
                            }
                            Some(_) => {}
                            None => {
                                for p in piece.iter() {
                                    self.route(p, p + 1, lost, phase, next, io, traffic)?;
                                }
                            }
                        }
                    }
                }
                Ok(())
            });
        self.buf = buf;
        r
    }

    /// The error for a run of parents that passes the tier's last id or
    /// repeats one.
    fn past_run(&self, run: &game_core::Run) -> Error {
        Error::from(solver_retro::Error::Broken(format!(
            "the game gave the run of parents {run:?} of tier {}, which passes its last id or \
             repeats one",
            self.space.name(self.tier)
        )))
    }

    /// The error for a parent id past the tier's last.
    fn past(&self, p: u64) -> Error {
        Error::from(solver_retro::Error::Broken(format!(
            "the game gave parent id {p} of tier {}, past its last id",
            self.space.name(self.tier)
        )))
    }

    /// One parent (at offset `i` of a block's `cells`, ids from `base`) of
    /// a child resolved at the current level: lost (in the tie phase:
    /// tied) or won.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn update<C: Cell>(
        &mut self,
        cells: &mut [C],
        base: u64,
        i: usize,
        lost: bool,
        phase: Phase,
        next: u64,
    ) -> Result<(), Error> {
        let id = base + i as u64;
        let (space, tier, scratch) = (self.space, self.tier, &mut self.scratch);
        let updated = step::update(cells[i], id, lost, phase, next, || {
            space.count(tier, id, scratch)
        });
        match updated {
            Ok(Updated::Unchanged) => {}
            Ok(Updated::Counted(c)) => cells[i] = c,
            Ok(Updated::Resolved(c)) => {
                cells[i] = c;
                // Resolved by a won child: a loss (by a lost one a win, by
                // a tied one a tie).
                let flag = if phase == Phase::Decisive && !lost {
                    updates::LOST
                } else {
                    0
                };
                self.list(id | flag);
            }
            // A count past a 1- or 2-byte cell: the tier starts again in
            // wider cells after this level; the cell stays as it is.
            Err(solver_retro::Error::TooManyChildren { .. }) if self.width != Width::Wide => {
                self.overflow = true;
            }
            Err(e) => return Err(e.into()),
        }
        Ok(())
    }
}
