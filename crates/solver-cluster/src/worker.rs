//! One timely worker: its shard of every tier, the levels, the exchanges.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use game_core::{Outcome, ParentIndices, Tier};
use game_db::{Database, ShardEntry};
use rustc_hash::FxHashMap;
use solver_retro::Progress;
use timely::dataflow::operators::vec::Input;
use timely::dataflow::operators::{Exchange, Inspect, Probe};
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::progress::Stamp;
use timely::worker::Worker;

use crate::cell::{self, Piece, TierCells};
use crate::local::Local;
use crate::space::{After, Event, Seeds, Space};
use crate::updates::{self, Encoder, Span};
use crate::{Error, Traffic};

/// Ids seeded at once (the unit of work the process's workers share).
const SEED_BLOCK: u64 = 1 << 14;

/// Words of updates a worker gathers for a worker of another process
/// before sending them on (a level's messages stay a few hundred kilobytes
/// each).
const MESSAGE: usize = 1 << 15;
/// Words of updates a worker gathers for a worker of its own process
/// before posting them: small, so that the owner applies them while the
/// level is still being expanded.
const POST: usize = 1 << 11;
/// "No event left" in a summary.
const NONE: u64 = u64::MAX;
/// A summary that names a finished tier (by its place in the order).
const DONE: u64 = u64::MAX;
/// A summary that says whether its worker has a database (1) or not (0).
const HAS_DB: u64 = u64::MAX - 1;
/// Cells per message of a gathered tier.
const GATHER: usize = 1 << 16;

/// Solved tiers in full, shared by the workers of one process: every
/// worker moves its shard in when its levels end, and the shards of other
/// processes arrive by the gather. Also the process's mailboxes.
pub(crate) struct Shared {
    /// Workers in the cluster.
    peers: usize,
    building: Mutex<FxHashMap<Tier, Vec<Option<Piece>>>>,
    ready: Mutex<FxHashMap<Tier, Arc<TierCells>>>,
    pub(crate) local: Local,
}

impl Shared {
    /// For a cluster of `peers` workers, `per_process` in each process.
    pub(crate) fn new(peers: usize, per_process: usize) -> Shared {
        Shared {
            peers,
            building: Mutex::default(),
            ready: Mutex::default(),
            local: Local::new(per_process),
        }
    }

    /// Files `piece` as worker `k`'s shard of `tier`.
    fn put_piece(&self, tier: Tier, k: usize, piece: Piece) {
        let mut b = self.building.lock().unwrap_or_else(PoisonError::into_inner);
        let v = b
            .entry(tier)
            .or_insert_with(|| (0..self.peers).map(|_| None).collect());
        if let Some(slot) = v.get_mut(k) {
            *slot = Some(piece);
        }
    }

    /// Copies `cells` to `first..` of `tier` (of `size` indices), into the
    /// shard that holds them (a shard of another process, gathered).
    fn put_cells(&self, tier: Tier, size: u64, first: u64, cells: &[u32]) -> Result<(), Error> {
        let mut b = self.building.lock().unwrap_or_else(PoisonError::into_inner);
        let v = b
            .entry(tier)
            .or_insert_with(|| (0..self.peers).map(|_| None).collect());
        let chunk = size.div_ceil(self.peers as u64).max(1);
        let k = (first / chunk) as usize;
        let (lo, hi) = shard_range(size, self.peers, k);
        let Some(slot) = v.get_mut(k) else {
            return Ok(());
        };
        if slot.is_none() {
            *slot = Some(Piece::filled((hi - lo) as usize, cell::INVALID)?);
        }
        if let Some(piece) = slot {
            let at = (first - lo) as usize;
            if let Some(dst) = piece.get_mut(at..at + cells.len()) {
                dst.copy_from_slice(cells);
            }
        }
        Ok(())
    }

    /// The whole of `tier`, once every shard is in (after a barrier).
    pub(crate) fn get(&self, tier: Tier, size: u64) -> Result<Option<Arc<TierCells>>, Error> {
        let mut r = self.ready.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(v) = r.get(&tier) {
            return Ok(Some(Arc::clone(v)));
        }
        let Some(pieces) = self
            .building
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&tier)
        else {
            return Ok(None);
        };
        let v = Arc::new(assemble(pieces, size, self.peers)?);
        r.insert(tier, Arc::clone(&v));
        Ok(Some(v))
    }

    /// Every tier held, for the caller once the workers are done.
    pub(crate) fn take_all(
        &self,
        size: impl Fn(Tier) -> u64,
    ) -> Result<Vec<(Tier, Arc<TierCells>)>, Error> {
        let mut out: Vec<(Tier, Arc<TierCells>)> = self
            .ready
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain()
            .collect();
        let building: Vec<_> = self
            .building
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain()
            .collect();
        for (t, pieces) in building {
            out.push((t, Arc::new(assemble(pieces, size(t), self.peers)?)));
        }
        Ok(out)
    }
}

/// A tier from its shards (a shard never filed: no positions).
fn assemble(pieces: Vec<Option<Piece>>, size: u64, peers: usize) -> Result<TierCells, Error> {
    let chunk = size.div_ceil(peers as u64).max(1);
    let mut out = Vec::with_capacity(pieces.len());
    for (k, p) in pieces.into_iter().enumerate() {
        let (lo, hi) = shard_range(size, peers, k);
        out.push(Arc::new(match p {
            Some(p) if p.len() as u64 == hi - lo => p,
            _ => Piece::filled((hi - lo) as usize, cell::INVALID)?,
        }));
    }
    Ok(TierCells::new(chunk, size, out))
}

/// A written shard's manifest entry, to worker 0: the target worker, then
/// tier, shard, first index, records, bytes, and the header's and file's
/// CRC-32 as one word.
type EntryMsg = (u64, [u64; 6]);

fn entry_words(e: &ShardEntry) -> [u64; 6] {
    [
        e.tier,
        u64::from(e.shard.unwrap_or(u32::MAX)),
        e.first,
        e.records,
        e.bytes,
        u64::from(e.header_crc32) << 32 | u64::from(e.file_crc32),
    ]
}

fn entry_of(w: &[u64; 6]) -> ShardEntry {
    ShardEntry {
        tier: w[0],
        shard: u32::try_from(w[1]).ok().filter(|&k| k != u32::MAX),
        first: w[2],
        records: w[3],
        bytes: w[4],
        header_crc32: (w[5] >> 32) as u32,
        file_crc32: w[5] as u32,
    }
}

/// A progress callback.
pub(crate) type ProgressFn = Arc<dyn Fn(Progress) + Send + Sync>;

/// What every worker of a process shares.
pub(crate) struct Ctx<S> {
    pub space: Arc<S>,
    pub shared: Arc<Shared>,
    /// Workers a process.
    pub per_process: usize,
    /// The database: the same directory on every process.
    pub db: Option<Arc<Database>>,
    pub progress: Option<ProgressFn>,
}

/// What arrived for a worker, by round: a fast worker's next round may
/// arrive before this worker has finished the last one.
type Buf<T> = Rc<RefCell<std::collections::BTreeMap<u64, Vec<T>>>>;

/// Moves what arrived for rounds before `round` into `out`.
fn take<T>(buf: &Buf<T>, round: u64, out: &mut Vec<T>) {
    let mut b = buf.borrow_mut();
    let later = b.split_off(&round);
    for (_, mut v) in std::mem::replace(&mut *b, later) {
        if out.is_empty() {
            *out = std::mem::take(&mut v);
        } else {
            out.append(&mut v);
        }
    }
}

/// The worker's inputs, what arrived for it, and the round (timestamp).
struct Io {
    /// Parent updates to workers of other processes: the target worker
    /// and the words (see `updates.rs`).
    updates: InputHandleVec<u64, (u64, Vec<u64>)>,
    summary: InputHandleVec<u64, (u64, u64, u64)>,
    gather: InputHandleVec<u64, (u64, Tier, u64, Vec<u32>)>,
    entries: InputHandleVec<u64, EntryMsg>,
    probe: ProbeHandle<u64>,
    got_updates: Buf<(u64, Vec<u64>)>,
    got_summary: Buf<(u64, u64, u64)>,
    got_entries: Buf<EntryMsg>,
    round: u64,
    /// A crash to simulate at this round (tests of faults).
    abort_at: Option<u64>,
}

/// An inspector that files each batch under its round.
#[allow(clippy::type_complexity)]
fn collect<T: Clone + 'static>(
    buf: &Buf<T>,
) -> impl FnMut(Result<(&Stamp<u64>, &Vec<T>), &[u64]>) + 'static {
    let buf = Rc::clone(buf);
    move |ev| {
        if let Ok((stamp, data)) = ev {
            // An input's batch carries one time (the round it was sent in).
            let t = stamp.iter().copied().min().unwrap_or(0);
            buf.borrow_mut()
                .entry(t)
                .or_default()
                .extend_from_slice(data);
        }
    }
}

impl Io {
    fn new<S: Space>(worker: &mut Worker, ctx: &Ctx<S>) -> Io {
        let mut io = Io {
            updates: InputHandleVec::new(),
            summary: InputHandleVec::new(),
            gather: InputHandleVec::new(),
            entries: InputHandleVec::new(),
            probe: ProbeHandle::new(),
            got_updates: Rc::default(),
            got_summary: Rc::default(),
            got_entries: Rc::default(),
            round: 0,
            abort_at: abort_at(worker.index() / ctx.per_process.max(1)),
        };
        let (gu, gm, ge) = (
            collect(&io.got_updates),
            collect(&io.got_summary),
            collect(&io.got_entries),
        );
        let (shared, space) = (Arc::clone(&ctx.shared), Arc::clone(&ctx.space));
        let probe = io.probe.clone();
        let Io {
            updates,
            summary,
            gather,
            entries,
            ..
        } = &mut io;
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(updates)
                .exchange(|x: &(u64, Vec<u64>)| x.0)
                .inspect_core(gu)
                .probe_with(&probe);
            scope
                .input_from(summary)
                .exchange(|x: &(u64, u64, u64)| x.0)
                .inspect_core(gm)
                .probe_with(&probe);
            scope
                .input_from(gather)
                .exchange(|x: &(u64, Tier, u64, Vec<u32>)| x.0)
                .inspect_core(move |ev| {
                    if let Ok((_, data)) = ev {
                        for (_, tier, first, cells) in data {
                            if let Err(e) =
                                shared.put_cells(*tier, space.size(*tier), *first, cells)
                            {
                                crate::fault::set(e.to_string());
                            }
                        }
                    }
                })
                .probe_with(&probe);
            scope
                .input_from(entries)
                .exchange(|x: &EntryMsg| x.0)
                .inspect_core(ge)
                .probe_with(&probe);
        });
        io
    }

    /// Starts the next round, crashing here if asked to.
    fn advance(&mut self) -> u64 {
        self.round += 1;
        let r = self.round;
        if self.abort_at == Some(r) {
            eprintln!("solver-cluster: SOLVER_CLUSTER_ABORT_AT: this process crashes at round {r}");
            std::process::abort();
        }
        r
    }

    /// Ends the round among this process's workers only (a process that is
    /// the whole cluster): what they posted each other has arrived.
    fn local_barrier(&mut self, local: &Local) -> Result<(), Error> {
        self.advance();
        local.barrier()
    }

    /// Ends the round: every message sent in it, by timely or to a
    /// mailbox, has arrived when this returns (timely's progress tracking
    /// says so: every worker has advanced its inputs past the round, after
    /// posting its mail).
    fn barrier(&mut self, worker: &mut Worker) -> Result<(), Error> {
        let r = self.advance();
        self.updates.advance_to(r);
        self.summary.advance_to(r);
        self.gather.advance_to(r);
        self.entries.advance_to(r);
        let mut spins = 0u32;
        while self.probe.less_than(&r) {
            if let Some(msg) = crate::fault::get() {
                return Err(Error::Failed(msg));
            }
            spins += 1;
            if spins < 1000 {
                worker.step();
            } else {
                worker.step_or_park(Some(Duration::from_millis(50)));
            }
        }
        Ok(())
    }
}

/// `SOLVER_CLUSTER_ABORT_AT=P:R` makes process `P` crash (abort, as a
/// killed process) when it reaches round `R`: how the tests and the
/// fault demonstration kill a process at a chosen point of a solve.
fn abort_at(process: usize) -> Option<u64> {
    let v = std::env::var("SOLVER_CLUSTER_ABORT_AT").ok()?;
    let (p, r) = v.split_once(':')?;
    (p.parse::<usize>().ok()? == process).then_some(())?;
    r.parse().ok()
}

/// Which half of a tier's levels runs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Decisive,
    Ties,
}

/// A worker's shard of the tier being solved.
struct Shard<'a, S: Space> {
    space: &'a S,
    shared: &'a Shared,
    tier: Tier,
    size: u64,
    lo: u64,
    hi: u64,
    me: u64,
    chunk: u64,
    per_process: u64,
    /// Processes in the cluster.
    processes: u64,
    lazy: bool,
    cells: Piece,
    next: Vec<u64>,
    scratch: S::Scratch,
    buf: ParentIndices,
    /// Updates for every other worker, this level.
    out: Vec<Encoder>,
    /// Mail read.
    inbox: Vec<u64>,
}

/// Runs worker `worker` to the end of the solve.
pub(crate) fn work<S: Space>(worker: &mut Worker, ctx: &Ctx<S>) -> Result<Traffic, Error> {
    let me = worker.index();
    let peers = worker.peers();
    let pp = ctx.per_process.max(1);
    let processes = peers / pp;
    let lead = me == 0;
    let report = |p: Progress| {
        if let (true, Some(f)) = (lead, &ctx.progress) {
            f(p);
        }
    };
    let mut traffic = Traffic::default();
    let mut io = Io::new(worker, ctx);
    let space = &*ctx.space;
    let order = space.tiers();
    // Round 1: which tiers the database holds finished (worker 0 reads
    // its manifest and tells everyone), and whether every worker has the
    // database.
    for w in 0..peers {
        io.summary
            .send((w as u64, HAS_DB, u64::from(ctx.db.is_some())));
    }
    if let (true, Some(db)) = (lead, &ctx.db) {
        for (k, &t) in order.iter().enumerate() {
            if db.is_finished(t) {
                for w in 0..peers {
                    io.summary.send((w as u64, DONE, k as u64));
                }
            }
        }
    }
    io.barrier(worker)?;
    let mut done = vec![false; order.len()];
    let mut summaries = Vec::new();
    take(&io.got_summary, io.round, &mut summaries);
    let mut with_db = 0;
    for (_, a, k) in summaries.drain(..) {
        if a == HAS_DB {
            with_db += k;
        } else if a == DONE {
            if let Some(d) = done.get_mut(k as usize) {
                *d = true;
            }
        }
    }
    if with_db != 0 && with_db != peers as u64 {
        return Err(Error::Db(format!(
            "{with_db} of {peers} workers have a database: give every process the same \
             --db directory (shared by all processes)"
        )));
    }
    // Round 2: the finished tiers an unfinished one needs, from the
    // database to every process: each worker reads its range of the tier
    // (in whatever shards hold it) and sends it on as after a solve.
    let place: FxHashMap<Tier, usize> = order.iter().enumerate().map(|(k, &t)| (t, k)).collect();
    let mut kids = Vec::new();
    let mut need = Vec::new();
    for (k, &t) in order.iter().enumerate() {
        if done[k] {
            continue;
        }
        kids.clear();
        space.child_tiers(t, &mut kids);
        for c in &kids {
            if place.get(c).is_some_and(|&j| done[j]) && !need.contains(c) {
                need.push(*c);
            }
        }
    }
    if let Some(db) = &ctx.db {
        for &c in &need {
            let size = space.size(c);
            if !db.is_finished(c) {
                return Err(Error::Db(format!(
                    "process {} does not see tier {} finished in {}, which process 0 does: \
                     every process must be given the same, shared --db directory",
                    me / pp,
                    space.name(c),
                    db.dir().display()
                )));
            }
            if db.records(c)? != size {
                return Err(Error::Db(format!(
                    "tier {} holds {} records, the game has {size} indices",
                    space.name(c),
                    db.records(c)?
                )));
            }
            let (lo, hi) = shard_range(size, peers, me);
            let mut cells = Piece::filled((hi - lo) as usize, cell::INVALID)?;
            db.for_each_block_in(c, lo..hi, |first, values| {
                let at = (first - lo) as usize;
                for (dst, v) in cells[at..at + values.len()].iter_mut().zip(values) {
                    *dst = cell::from_value(*v);
                }
            })?;
            gather(&mut io, &cells, c, lo, me, pp, processes, &mut traffic);
            ctx.shared.put_piece(c, me, cells);
        }
    }
    io.barrier(worker)?;
    let total = order.len() as u64;
    let mut scratch = S::Scratch::default();
    let mut seed_buf: Vec<u32> = Vec::new();
    let mut block_seeds = Seeds::default();
    for (k, &t) in order.iter().enumerate() {
        if done[k] {
            continue;
        }
        let size = space.size(t);
        let chunk = size.div_ceil(peers as u64).max(1);
        let (lo, hi) = shard_range(size, peers, me);
        kids.clear();
        space.child_tiers(t, &mut kids);
        let mut held: Vec<(Tier, Arc<TierCells>)> = Vec::with_capacity(kids.len());
        for &c in &kids {
            if let Some(v) = ctx.shared.get(c, space.size(c))? {
                held.push((c, v));
            }
        }
        let tables: Vec<(Tier, &TierCells)> = held.iter().map(|(c, v)| (*c, &**v)).collect();
        // Seeding, shared by the process's workers block by block.
        let local = &ctx.shared.local;
        let first_local = me / pp * pp;
        let seed_round = io.round;
        let blocks: Vec<(usize, u64, u64, u64)> = (0..pp)
            .flat_map(|w| {
                let (a, b) = shard_range(size, peers, first_local + w);
                (a..b)
                    .step_by(SEED_BLOCK as usize)
                    .map(move |s| (w, a, s, (s + SEED_BLOCK).min(b)))
            })
            .collect();
        while let Some(k) = local.claim_block(seed_round, blocks.len()) {
            let (w, a, s, e) = blocks[k];
            let (_, b) = shard_range(size, peers, first_local + w);
            seed_buf.clear();
            seed_buf.resize((e - s) as usize, 0);
            let after = space.seed(t, s, &mut seed_buf, &tables, &mut block_seeds, &mut scratch)?;
            local.set_after(seed_round, after);
            local.deliver(
                w,
                (b - a) as usize,
                (s - a) as usize,
                &seed_buf,
                &mut block_seeds,
            )?;
        }
        drop(tables);
        drop(held);
        io.local_barrier(local)?;
        let after = local.after(seed_round).unwrap_or(After::Done);
        let (cells, mut seeds) = local.seeded(me - first_local);
        let mut cells = match cells {
            Some(c) => c,
            None => Piece::filled((hi - lo) as usize, cell::INVALID)?,
        };
        if let After::Levels { lazy } = after {
            let mut shard = Shard {
                space,
                shared: &ctx.shared,
                tier: t,
                size,
                lo,
                hi,
                me: me as u64,
                chunk,
                per_process: pp as u64,
                processes: processes as u64,
                lazy,
                cells,
                next: Vec::new(),
                scratch,
                buf: ParentIndices::default(),
                out: (0..peers).map(|_| Encoder::default()).collect(),
                inbox: Vec::new(),
            };
            let mut events = std::mem::take(&mut seeds.events);
            events.sort_unstable_by_key(|e| (e.level, e.id));
            let (ties, decisive): (Vec<Event>, Vec<Event>) =
                events.into_iter().partition(|e| e.outcome == Outcome::Tie);
            let mut resolved = 0u64;
            shard.run(
                worker,
                &mut io,
                Phase::Decisive,
                std::mem::take(&mut seeds.decisive),
                &decisive,
                peers,
                &mut traffic,
                &mut resolved,
                &report,
            )?;
            shard.run(
                worker,
                &mut io,
                Phase::Ties,
                std::mem::take(&mut seeds.ties),
                &ties,
                peers,
                &mut traffic,
                &mut resolved,
                &report,
            )?;
            cells = shard.cells;
            scratch = shard.scratch;
        }
        // The shard to the database (its own file; worker 0 lists the
        // tier once every shard is written), and to every process: moved
        // into this process's table, sent to one worker of each other
        // process.
        if let Some(db) = &ctx.db {
            let e = write_shard(db, t, me, lo, &cells)?;
            io.entries.send((0, entry_words(&e)));
        }
        gather(&mut io, &cells, t, lo, me, pp, processes, &mut traffic);
        ctx.shared.put_piece(t, me, cells);
        io.barrier(worker)?;
        traffic.tiers += 1;
        let mut entries = Vec::new();
        take(&io.got_entries, io.round, &mut entries);
        if let (true, Some(db)) = (lead, &ctx.db) {
            let shards: Vec<ShardEntry> = entries.iter().map(|(_, w)| entry_of(w)).collect();
            if shards.len() != peers {
                return Err(Error::Db(format!(
                    "{} of {peers} shards of tier {} were written",
                    shards.len(),
                    space.name(t)
                )));
            }
            db.finish_sharded(t, size, &shards)?;
        }
        report(Progress::Tier {
            done: k as u64 + 1,
            total,
            positions: size,
        });
    }
    traffic.rounds = io.round;
    Ok(traffic)
}

/// The ids worker `me` of `peers` owns in a tier of `size`: contiguous
/// chunks of `⌈size / peers⌉` (the last ones short or empty).
fn shard_range(size: u64, peers: usize, me: usize) -> (u64, u64) {
    let chunk = size.div_ceil(peers as u64).max(1);
    let lo = (me as u64 * chunk).min(size);
    (lo, (lo + chunk).min(size))
}

/// Sends the cells `lo..` of tier `t` to one worker of every other
/// process (the worker of the same rank).
#[allow(clippy::too_many_arguments)]
fn gather(
    io: &mut Io,
    cells: &[u32],
    t: Tier,
    lo: u64,
    me: usize,
    pp: usize,
    processes: usize,
    traffic: &mut Traffic,
) {
    let mine = me / pp;
    for q in (0..processes).filter(|&q| q != mine) {
        let target = (q * pp + me % pp) as u64;
        for (j, part) in cells.chunks(GATHER).enumerate() {
            let first = lo + (j * GATHER) as u64;
            io.gather.send((target, t, first, part.to_vec()));
            traffic.gather_cells_remote += part.len() as u64;
        }
    }
}

/// Writes worker `me`'s shard of tier `t` (cells from index `lo`) as shard
/// `me` of the tier in `db`.
fn write_shard(
    db: &Database,
    t: Tier,
    me: usize,
    lo: u64,
    cells: &[u32],
) -> Result<ShardEntry, Error> {
    let shard =
        u32::try_from(me).map_err(|_| Error::Db(format!("worker {me}: too many shards")))?;
    let mut w = db.shard_writer(t, shard, lo)?;
    let mut buf = Vec::with_capacity(GATHER);
    for chunk in cells.chunks(GATHER) {
        buf.clear();
        buf.extend(chunk.iter().map(|&c| cell::value(c)));
        w.write(&buf)?;
    }
    Ok(w.finish()?)
}

impl<S: Space> Shard<'_, S> {
    /// The levels of one phase, each ended by a barrier: among the
    /// process's workers when the process is the whole cluster, else
    /// timely's.
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        worker: &mut Worker,
        io: &mut Io,
        phase: Phase,
        mut level: Vec<u64>,
        events: &[Event],
        peers: usize,
        traffic: &mut Traffic,
        resolved: &mut u64,
        report: &dyn Fn(Progress),
    ) -> Result<(), Error> {
        let mut at = 0;
        let mut r = 0u64;
        let mut got_updates = Vec::new();
        let mut got_summary = Vec::new();
        let alone = self.processes == 1;
        let pp = self.per_process as usize;
        let first_local = (self.me / self.per_process) as usize * pp;
        let mine = self.me as usize - first_local;
        // Level entries carry the lost bit: a worker that takes another's
        // children cannot read their cells.
        if phase == Phase::Decisive {
            for x in &mut level {
                let c = self.cells[(*x - self.lo) as usize];
                if cell::value(c).is_some_and(|v| v.outcome() == Outcome::Lose) {
                    *x |= updates::LOST;
                }
            }
        }
        loop {
            let next = r + 1;
            if next > cell::MAX_REMOTENESS {
                return Err(solver_retro::Error::TooDeep {
                    max: cell::MAX_REMOTENESS,
                }
                .into());
            }
            let mut busy = level.len() as u64;
            while let Some(e) = events.get(at) {
                if e.level != r {
                    break;
                }
                at += 1;
                busy += 1;
                self.update(
                    (e.id - self.lo) as usize,
                    e.outcome == Outcome::Lose,
                    phase,
                    next,
                )?;
            }
            let sent_before = traffic.bytes;
            // The level's children, shared among this process's workers.
            let round = io.round;
            level = self.shared.local.publish(round, mine, level);
            while let Some((part, range)) = self.shared.local.take_work(round, mine) {
                for &x in &part[range] {
                    self.send(
                        x & updates::ID,
                        x & updates::LOST != 0,
                        phase,
                        next,
                        io,
                        traffic,
                    )?;
                }
                // What the others posted so far, applied while they work.
                self.drain(round, phase, next)?;
            }
            // What is left for other workers: to the mailboxes of this
            // process's, by timely to other processes'.
            for w in 0..peers {
                if w == self.me as usize || self.out[w].words.is_empty() {
                    continue;
                }
                self.flush(w, io, traffic);
            }
            traffic.max_level_bytes = traffic.max_level_bytes.max(traffic.bytes - sent_before);
            let next_event = events.get(at).map_or(NONE, |e| e.level);
            if alone {
                self.shared.local.summarize(round, mine, (busy, next_event));
                traffic.summaries += pp as u64;
                io.local_barrier(&self.shared.local)?;
            } else {
                for w in 0..peers {
                    io.summary.send((w as u64, busy, next_event));
                }
                traffic.summaries += peers as u64;
                io.barrier(worker)?;
            }
            traffic.levels += 1;
            self.drain(round, phase, next)?;
            if !alone {
                take(&io.got_updates, io.round, &mut got_updates);
                for (_, words) in got_updates.drain(..) {
                    self.apply(&words, phase, next)?;
                }
            }
            let (mut all_busy, mut first_event) = (0u64, NONE);
            if alone {
                for (b, e) in self.shared.local.summaries(round) {
                    all_busy += b;
                    first_event = first_event.min(e);
                }
            } else {
                take(&io.got_summary, io.round, &mut got_summary);
                for (_, b, e) in got_summary.drain(..) {
                    all_busy += b;
                    first_event = first_event.min(e);
                }
            }
            *resolved += all_busy;
            report(Progress::Level {
                level: next,
                positions: *resolved,
            });
            level.clear();
            std::mem::swap(&mut level, &mut self.next);
            if all_busy == 0 {
                if first_event == NONE {
                    return Ok(());
                }
                r = first_event;
            } else {
                r = next;
            }
        }
    }

    /// Applies what this process's other workers have posted to this one
    /// in round `round` so far.
    fn drain(&mut self, round: u64, phase: Phase, next: u64) -> Result<(), Error> {
        let pp = self.per_process as usize;
        let mine = self.me as usize % pp;
        for from in (0..pp).filter(|&f| f != mine) {
            let mut inbox = std::mem::take(&mut self.inbox);
            self.shared.local.take(round, from, mine, &mut inbox);
            let r = self.apply(&inbox, phase, next);
            self.inbox = inbox;
            r?;
        }
        Ok(())
    }

    /// Sends the updates gathered for worker `w`: to its mailbox if it is
    /// a worker of this process, else by timely.
    fn flush(&mut self, w: usize, io: &mut Io, traffic: &mut Traffic) {
        let pp = self.per_process as usize;
        let words = &mut self.out[w];
        let bytes = 8 * words.words.len() as u64;
        traffic.bytes += bytes;
        if w / pp == self.me as usize / pp {
            let mut v = words.take();
            self.shared
                .local
                .post(io.round, self.me as usize % pp, w % pp, &mut v);
        } else {
            traffic.remote_bytes += bytes;
            io.updates.send((w as u64, words.take()));
        }
    }

    /// Words gathered for worker `w` before they are sent.
    #[inline]
    fn limit(&self, w: usize) -> usize {
        if w as u64 / self.per_process == self.me / self.per_process {
            POST
        } else {
            MESSAGE
        }
    }

    /// Applies the updates of `words`, all for this shard.
    fn apply(&mut self, words: &[u64], phase: Phase, next: u64) -> Result<(), Error> {
        let broken = |m: String| Error::from(solver_retro::Error::Broken(m));
        updates::decode(
            words,
            |Span { start, end, lost }| {
                if start < self.lo || end > self.hi {
                    return Err(broken(format!(
                        "worker {} was sent parent ids {start}..{end}, outside its shard {}..{}",
                        self.me, self.lo, self.hi
                    )));
                }
                self.apply_run(
                    (start - self.lo) as usize,
                    (end - self.lo) as usize,
                    lost,
                    phase,
                    next,
                )
            },
            broken,
        )
    }

    /// Parents at offsets `lo..hi`: won children's runs decrement their
    /// counters in one tight pass, then resolve the counters that reached
    /// zero (as the rayon engine); anything else goes one by one.
    fn apply_run(
        &mut self,
        lo: usize,
        hi: usize,
        lost: bool,
        phase: Phase,
        next: u64,
    ) -> Result<(), Error> {
        if hi - lo == 1 || lost || self.lazy || phase == Phase::Ties {
            for i in lo..hi {
                self.update(i, lost, phase, next)?;
            }
            return Ok(());
        }
        let mut zero = false;
        for c in &mut self.cells[lo..hi] {
            // Open cells (top bit clear) above zero lose one; resolved and
            // invalid cells (top bit set) stay.
            *c -= u32::from((*c as i32) > 0);
            zero |= *c == 0;
        }
        if zero {
            let lose = cell::resolved(Outcome::Lose, next);
            for i in lo..hi {
                if self.cells[i] == 0 {
                    self.cells[i] = lose;
                    self.next.push((self.lo + i as u64) | updates::LOST);
                }
            }
        }
        Ok(())
    }

    /// The parents of `child`: own ones updated at once, others gathered
    /// for their owners.
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
        self.space
            .parents(self.tier, child, &mut buf, &mut self.scratch)?;
        let (space, tier) = (self.space, self.tier);
        let past = move |p: u64| {
            Error::from(solver_retro::Error::Broken(format!(
                "the game gave parent id {p} of tier {}, past its last id",
                space.name(tier)
            )))
        };
        let mut result = Ok(());
        for &p in &buf.singles {
            if p >= self.size {
                result = Err(past(p));
                break;
            }
            if p >= self.lo && p < self.hi {
                traffic.local_updates += 1;
                if let Err(e) = self.update((p - self.lo) as usize, lost, phase, next) {
                    result = Err(e);
                    break;
                }
            } else {
                let o = (p / self.chunk) as usize;
                self.out[o].push(p, p + 1, lost);
                traffic.singles += 1;
                if self.out[o].words.len() >= self.limit(o) {
                    self.flush(o, io, traffic);
                }
            }
        }
        if result.is_ok() {
            'runs: for run in &buf.runs {
                if run.end > self.size {
                    result = Err(past(run.end - 1));
                    break;
                }
                let mut start = run.start;
                while start < run.end {
                    let o = start / self.chunk;
                    let end = run.end.min((o + 1) * self.chunk);
                    if o == self.me {
                        traffic.local_updates += end - start;
                        let (a, b) = ((start - self.lo) as usize, (end - self.lo) as usize);
                        if let Err(e) = self.apply_run(a, b, lost, phase, next) {
                            result = Err(e);
                            break 'runs;
                        }
                    } else {
                        let o = o as usize;
                        self.out[o].push(start, end, lost);
                        traffic.runs += 1;
                        traffic.run_parents += end - start;
                        if self.out[o].words.len() >= self.limit(o) {
                            self.flush(o, io, traffic);
                        }
                    }
                    start = end;
                }
            }
        }
        self.buf = buf;
        result
    }

    /// One parent (at offset `i`) of a child resolved at the current
    /// level: lost (in the tie phase: tied) or won.
    #[inline]
    fn update(&mut self, i: usize, lost: bool, phase: Phase, next: u64) -> Result<(), Error> {
        let c = self.cells[i];
        let Some(mut open) = cell::open(c) else {
            return Ok(());
        };
        let (new, flag) = match phase {
            Phase::Ties => (cell::resolved(Outcome::Tie, next), 0),
            Phase::Decisive if lost => (cell::resolved(Outcome::Win, next), 0),
            Phase::Decisive => {
                if open == cell::UNCOUNTED {
                    open = self
                        .space
                        .count(self.tier, self.lo + i as u64, &mut self.scratch)?;
                    if open > cell::MAX_COUNT {
                        return Err(solver_retro::Error::TooManyChildren {
                            max: cell::MAX_COUNT,
                        }
                        .into());
                    }
                }
                match open {
                    0 => {
                        return Err(solver_retro::Error::Broken(format!(
                            "position id {} has more parents' updates than children \
                             (its child count or its unmoves are wrong)",
                            self.lo + i as u64
                        ))
                        .into())
                    }
                    1 => (cell::resolved(Outcome::Lose, next), updates::LOST),
                    _ => {
                        self.cells[i] = cell::counter(open - 1);
                        return Ok(());
                    }
                }
            }
        };
        self.cells[i] = new;
        self.next.push((self.lo + i as u64) | flag);
        Ok(())
    }
}
