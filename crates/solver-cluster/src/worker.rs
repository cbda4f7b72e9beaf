//! One timely worker: its shard of every tier, the levels, the exchanges.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::{Arc, Mutex, PoisonError, TryLockError};
use std::time::Duration;

use game_core::{Outcome, ParentIndices, Tier};
use game_db::{Database, ShardEntry};
use rustc_hash::FxHashMap;
use solver_retro::step::{self, Phase, Seeds, Updated};
use solver_retro::{Progress, Table};
use timely::dataflow::operators::vec::Input;
use timely::dataflow::operators::{Exchange, Inspect, Probe};
use timely::dataflow::{InputHandleVec, ProbeHandle};
use timely::progress::Stamp;
use timely::worker::Worker;

use crate::cell::{self, Cell, Piece, TierCells, View};
use crate::layout::Layout;
use crate::local::{self, Local};
use crate::space::{After, Space};
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
/// A summary that names a finished tier (by its place in the order).
const DONE: u64 = u64::MAX;
/// A summary that says whether its worker has a database (1) or not (0).
const HAS_DB: u64 = u64::MAX - 1;
/// A summary that says whether a cell of its worker's process's seeding
/// was too narrow (1) or not (0).
const SEEDED: u64 = u64::MAX - 2;
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
/// Cells per message of a gathered tier.
const GATHER: usize = 1 << 16;

/// Solved tiers in full, shared by the workers of one process: every
/// worker moves its shard's blocks in when its levels end, and the blocks
/// of other processes arrive by the gather. Also what the process's
/// workers share while they solve a tier.
pub(crate) struct Shared {
    /// Workers in the cluster.
    peers: usize,
    /// Tiers being put together, by block.
    building: Mutex<FxHashMap<Tier, Vec<Option<Piece>>>>,
    ready: Mutex<FxHashMap<Tier, Arc<TierCells>>>,
    /// Tiers no tier left to solve reads, as tables.
    done: Mutex<FxHashMap<Tier, Table>>,
    /// Blocks of those tiers, for the blocks of tiers still to seed: fresh
    /// memory costs the system a page clearing on first touch.
    free: Mutex<Vec<Piece>>,
    /// The most bytes `free` keeps (beyond them the largest blocks are
    /// given back to the system): what [`crate::held_bytes`] counts for
    /// it.
    free_cap: usize,
    pub(crate) local: Local,
}

impl Shared {
    /// For a cluster of `peers` workers, `per_process` in each process, of
    /// the run that `fault` records, keeping at most `free_cap` bytes of
    /// free blocks.
    pub(crate) fn new(
        peers: usize,
        per_process: usize,
        fault: crate::fault::Fault,
        free_cap: usize,
    ) -> Shared {
        Shared {
            peers,
            building: Mutex::default(),
            ready: Mutex::default(),
            done: Mutex::default(),
            free: Mutex::default(),
            free_cap,
            local: Local::new(per_process, fault),
        }
    }

    /// Gives the largest free blocks back to the system until the rest
    /// fit in [`Shared::free_cap`].
    fn trim_free(&self, free: &mut Vec<Piece>) {
        let mut kept: usize = free.iter().map(Piece::capacity).sum();
        while kept > self.free_cap {
            let Some(k) = (0..free.len()).max_by_key(|&k| free[k].capacity()) else {
                break;
            };
            kept -= free.swap_remove(k).capacity();
        }
    }

    /// Files `piece` as block `b` of `tier`, laid out as `lay`.
    fn put_block(&self, tier: Tier, lay: &Layout, b: usize, piece: Piece) {
        let mut all = self.building.lock().unwrap_or_else(PoisonError::into_inner);
        let v = all
            .entry(tier)
            .or_insert_with(|| (0..lay.blocks).map(|_| None).collect());
        if let Some(slot) = v.get_mut(b) {
            *slot = Some(piece);
        }
    }

    /// Copies `cells` (wide) to `first..` of `tier` (of `size` indices),
    /// into the block that holds them, of 2-byte cells if `narrow` (a
    /// block of another process, gathered; a message never spans blocks).
    fn put_cells(
        &self,
        tier: Tier,
        size: u64,
        first: u64,
        narrow: bool,
        cells: &[u32],
    ) -> Result<(), Error> {
        let lay = Layout::new(size, self.peers);
        let mut all = self.building.lock().unwrap_or_else(PoisonError::into_inner);
        let v = all
            .entry(tier)
            .or_insert_with(|| (0..lay.blocks).map(|_| None).collect());
        let b = lay.block_of(first);
        let (lo, hi) = lay.block_range(b);
        let Some(slot) = v.get_mut(b) else {
            return Ok(());
        };
        if slot.is_none() {
            *slot = Some(Piece::invalid((hi - lo) as usize, narrow)?);
        }
        if let Some(piece) = slot {
            piece.put_wide((first - lo) as usize, cells);
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

    /// `len` cells (of 2 bytes if `narrow`) to be written whole: the
    /// smallest free block that holds them, if any holds them with less
    /// than half to spare, else fresh memory.
    fn block_for(&self, len: usize, narrow: bool) -> Result<Piece, Error> {
        let bytes = len * if narrow { 2 } else { 4 };
        let mut free = local::lock(&self.free);
        let best = free
            .iter()
            .enumerate()
            .filter(|(_, p)| p.capacity() >= bytes && p.capacity() / 2 <= bytes)
            .min_by_key(|(_, p)| p.capacity())
            .map(|(k, _)| k);
        match best {
            Some(k) => Ok(free.swap_remove(k).reuse(len, narrow)),
            None => {
                drop(free);
                Piece::zeroed(len, narrow)
            }
        }
    }

    /// Keeps `piece` for the blocks of tiers to come (within
    /// [`Shared::free_cap`]).
    fn free(&self, piece: Piece) {
        let mut free = local::lock(&self.free);
        free.push(piece);
        self.trim_free(&mut free);
    }

    /// Makes `tier` (no tier left to solve reads it; no worker holds it)
    /// a table, and its blocks free for tiers to come.
    fn retire(&self, tier: Tier, size: u64) -> Result<(), Error> {
        let Some(cells) = self.get(tier, size)? else {
            return Ok(());
        };
        self.ready
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&tier);
        let table = cells.table()?;
        if let Ok(cells) = Arc::try_unwrap(cells) {
            let mut free = local::lock(&self.free);
            free.extend(cells.into_pieces());
            self.trim_free(&mut free);
        }
        local::lock(&self.done).insert(tier, table);
        Ok(())
    }

    /// Every tier held, as tables, for the caller once the workers are
    /// done.
    pub(crate) fn tables(&self, size: impl Fn(Tier) -> u64) -> Result<Vec<(Tier, Table)>, Error> {
        let mut out: Vec<(Tier, Table)> = local::lock(&self.done).drain().collect();
        for (t, cells) in self.take_all(size)? {
            out.push((t, cells.table()?));
        }
        Ok(out)
    }

    /// Every tier held as cells.
    fn take_all(&self, size: impl Fn(Tier) -> u64) -> Result<Vec<(Tier, Arc<TierCells>)>, Error> {
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

/// A tier from its blocks (a block never filed: no positions, in the
/// width of the others).
fn assemble(pieces: Vec<Option<Piece>>, size: u64, peers: usize) -> Result<TierCells, Error> {
    let lay = Layout::new(size, peers);
    let narrow = pieces.iter().flatten().all(Piece::is_narrow);
    let mut pieces = pieces.into_iter();
    let mut out = Vec::with_capacity(lay.blocks);
    for b in 0..lay.blocks {
        let (lo, hi) = lay.block_range(b);
        out.push(Arc::new(match pieces.next().flatten() {
            Some(p) if p.len() as u64 == hi - lo => p,
            _ => Piece::invalid((hi - lo) as usize, narrow)?,
        }));
    }
    Ok(TierCells::new(1 << lay.shift, size, out))
}

/// Whether `e` says a cell of 2 bytes was too narrow (the tier is solved
/// again in cells of 4, as solver-retro does).
fn too_narrow(e: &Error) -> bool {
    matches!(
        e,
        Error::Retro(
            solver_retro::Error::TooManyChildren { .. } | solver_retro::Error::TooDeep { .. }
        )
    )
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

/// Cells of a solved tier to another process: the target worker, the
/// tier, the first index, whether the tier is in 2-byte cells, and the
/// cells in the wide layout.
type GatherMsg = (u64, Tier, u64, bool, Vec<u32>);

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
    /// [`crate::ClusterConfig::level_list_cap`], if set.
    pub list_cap: Option<u64>,
    /// [`crate::ClusterConfig::round_bytes`], if set.
    pub round_bytes: Option<u64>,
    /// The memory limit, for the events seeding finds.
    pub budget: game_core::Budget,
    /// The bytes [`crate::held_bytes`] counts and the channels
    /// ([`crate::ClusterConfig::channel_bytes`]), checked before the start.
    pub held: u64,
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
    gather: InputHandleVec<u64, GatherMsg>,
    entries: InputHandleVec<u64, EntryMsg>,
    probe: ProbeHandle<u64>,
    got_updates: Buf<(u64, Vec<u64>)>,
    got_summary: Buf<(u64, u64, u64)>,
    got_entries: Buf<EntryMsg>,
    round: u64,
    /// A crash to simulate at this round (tests of faults).
    abort_at: Option<u64>,
    /// A stop (`SIGSTOP`) to simulate at this round (tests of faults).
    stop_at: Option<u64>,
    /// The run's failure record.
    fault: crate::fault::Fault,
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

/// The inspector `inner`, which panics at the first batch sent in round
/// `at` or later it sees (`SOLVER_CLUSTER_PANIC_AT`, tests of faults):
/// a panic inside timely's step.
#[allow(clippy::type_complexity)]
fn panicking_at<T: 'static>(
    mut inner: impl FnMut(Result<(&Stamp<u64>, &Vec<T>), &[u64]>) + 'static,
    at: Option<u64>,
) -> impl FnMut(Result<(&Stamp<u64>, &Vec<T>), &[u64]>) + 'static {
    move |ev| {
        if let (Some(at), Ok((stamp, _))) = (at, &ev) {
            // A batch sent in round t + 1 carries the time t.
            let t = stamp.iter().copied().min().unwrap_or(0);
            assert!(
                t + 1 < at,
                "SOLVER_CLUSTER_PANIC_AT: a panic inside timely's step, in round {}",
                t + 1
            );
        }
        inner(ev);
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
            abort_at: at_round(
                "SOLVER_CLUSTER_ABORT_AT",
                worker.index() / ctx.per_process.max(1),
            ),
            stop_at: at_round(
                "SOLVER_CLUSTER_STOP_AT",
                worker.index() / ctx.per_process.max(1),
            ),
            fault: ctx.shared.local.fault.clone(),
        };
        let (gu, gm, ge) = (
            collect(&io.got_updates),
            collect(&io.got_summary),
            collect(&io.got_entries),
        );
        let panic_at = at_round(
            "SOLVER_CLUSTER_PANIC_AT",
            worker.index() / ctx.per_process.max(1),
        );
        let gm = panicking_at(gm, panic_at);
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
                .exchange(|x: &GatherMsg| x.0)
                .inspect_core(move |ev| {
                    if let Ok((_, data)) = ev {
                        for (_, tier, first, narrow, cells) in data {
                            if let Err(e) =
                                shared.put_cells(*tier, space.size(*tier), *first, *narrow, cells)
                            {
                                shared.local.fault.set(e.to_string());
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
        if self.stop_at == Some(r) {
            // Stopped as a whole, its connections open, as a host that
            // vanished: only its silence tells.
            eprintln!("solver-cluster: SOLVER_CLUSTER_STOP_AT: this process stops at round {r}");
            let _ = std::process::Command::new("kill")
                .args(["-STOP", &std::process::id().to_string()])
                .status();
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
            if let Some(msg) = self.fault.get() {
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

/// Steps `worker` until its dataflows are complete (the inputs were
/// dropped with the worker's [`Io`]: every worker of the cluster has
/// finished), or the run fails ([`Error::Failed`]). timely's own wait
/// for this, after a worker's work, would wait for ever on a peer that
/// failed.
pub(crate) fn finish(worker: &mut Worker, fault: &crate::fault::Fault) -> Result<(), Error> {
    while worker.has_dataflows() {
        if let Some(msg) = fault.get() {
            return Err(Error::Failed(msg));
        }
        worker.step_or_park(Some(Duration::from_millis(50)));
    }
    Ok(())
}

/// Drops `worker`'s dataflows, once its run failed: timely then neither
/// steps the worker again nor waits for its dataflows to complete (they
/// never would), and the worker's thread ends.
pub(crate) fn stop(worker: &mut Worker) {
    for d in worker.installed_dataflows() {
        worker.drop_dataflow(d);
    }
}

/// `SOLVER_CLUSTER_ABORT_AT=P:R` makes process `P` crash (abort, as a
/// killed process) when it reaches round `R`,
/// `SOLVER_CLUSTER_STOP_AT=P:R` makes it stop (`SIGSTOP`, as a host that
/// vanished), and `SOLVER_CLUSTER_PANIC_AT=P:R` makes its workers panic
/// inside timely's step (in the operator that takes the summaries) at the
/// first summaries sent in round `R` or later that they take: how the
/// tests and the fault demonstration fail a process at a chosen point of
/// a solve. The round of the variable `var` for
/// process `process`, if any (`threads.rs` reads
/// `SOLVER_CLUSTER_SPAWN_FAIL_AT=P:K` with it too).
pub(crate) fn at_round(var: &str, process: usize) -> Option<u64> {
    let v = std::env::var(var).ok()?;
    let (p, r) = v.split_once(':')?;
    (p.parse::<usize>().ok()? == process).then_some(())?;
    r.parse().ok()
}

/// The longest list of a level's children worker `me` keeps
/// ([`crate::ClusterConfig::level_list_cap`]): by default a sixteenth of
/// its shard's cells, at least 1,024.
fn list_cap<S>(ctx: &Ctx<S>, lay: &Layout, me: usize) -> usize {
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
    /// Cells of 2 bytes.
    narrow: bool,
    /// A cell of 2 bytes was too narrow this level.
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
            let lay = Layout::new(size, peers);
            let mine = lay.blocks_of(me);
            let mut pieces = Vec::with_capacity(mine.len());
            for b in mine.clone() {
                let (lo, hi) = lay.block_range(b);
                // Wide: the database's remoteness may need it.
                pieces.push(Piece::invalid((hi - lo) as usize, false)?);
            }
            let (lo, hi) = lay.shard_range(me);
            // The first record no cell can hold, if any.
            let mut too_deep = None;
            db.for_each_block_in(c, lo..hi, |at, values| {
                let mut at = at;
                let mut values = values;
                while !values.is_empty() && too_deep.is_none() {
                    let b = lay.block_of(at);
                    let (blo, bhi) = lay.block_range(b);
                    let n = ((bhi - at) as usize).min(values.len());
                    if let Some(View::Wide(piece)) = pieces.get_mut(b - mine.start).map(Piece::view)
                    {
                        let off = (at - blo) as usize;
                        for (k, (dst, v)) in
                            piece[off..off + n].iter_mut().zip(&values[..n]).enumerate()
                        {
                            match cell::from_value(*v) {
                                Some(x) => *dst = x,
                                None => {
                                    too_deep = Some((at + k as u64, *v));
                                    break;
                                }
                            }
                        }
                    }
                    at += n as u64;
                    values = &values[n..];
                }
            })?;
            if let Some((i, v)) = too_deep {
                return Err(Error::Db(format!(
                    "tier {} holds {v:?} at index {i}, a remoteness past the {} a cell holds: \
                     the database is damaged or was not written by this solver",
                    space.name(c),
                    u32::MAX_REMOTENESS
                )));
            }
            let parts: Vec<(usize, &Piece)> = mine.clone().zip(pieces.iter()).collect();
            gather(&mut io, &parts, &lay, c, me, pp, processes, &mut traffic);
            for (b, piece) in mine.zip(pieces) {
                ctx.shared.put_block(c, &lay, b, piece);
            }
        }
    }
    io.barrier(worker)?;
    let total = order.len() as u64;
    // The last tier to solve that reads each tier: past it the tier is
    // made a table and its blocks serve the tiers to come.
    let mut last_use: FxHashMap<Tier, usize> = FxHashMap::default();
    for (k, &t) in order.iter().enumerate() {
        if done[k] {
            continue;
        }
        kids.clear();
        space.child_tiers(t, &mut kids);
        for &c in &kids {
            last_use.insert(c, k);
        }
    }
    let mut scratch = S::Scratch::default();
    let mut got = Vec::new();
    for (k, &t) in order.iter().enumerate() {
        if done[k] {
            continue;
        }
        let size = space.size(t);
        let lay = Layout::new(size, peers);
        let local = &ctx.shared.local;
        let first_local = me / pp * pp;
        let first = lay.blocks_of(first_local).start;
        let end = lay.blocks_of(first_local + pp - 1).end;
        // In 2-byte cells first, as solver-retro solves a tier; again in
        // 4-byte cells if a count or a remoteness does not fit (every
        // worker learns it at the same barrier).
        let mut narrow = true;
        let blocks = loop {
            kids.clear();
            space.child_tiers(t, &mut kids);
            let mut held: Vec<(Tier, Arc<TierCells>)> = Vec::with_capacity(kids.len());
            for &c in &kids {
                if let Some(v) = ctx.shared.get(c, space.size(c))? {
                    held.push((c, v));
                }
            }
            let tables: Vec<(Tier, &TierCells)> = held.iter().map(|(c, v)| (*c, &**v)).collect();
            // Seeding, shared by the process's workers block by block,
            // each block straight into its own memory; the seeds stay with
            // the worker that found them (any worker takes any child of a
            // level).
            let seed_round = io.round;
            let blocks = local.start_seeding(seed_round, end - first);
            let mut seeds = Seeds::default();
            let cap = list_cap(ctx, &lay, me);
            while let Some(j) = local.claim_block(seed_round) {
                let (s, e) = lay.block_range(first + j);
                let mut piece = ctx.shared.block_for((e - s) as usize, narrow)?;
                let before = seeds.decisive.len();
                let seeded = match piece.view() {
                    View::Narrow(c) => space.seed(t, s, c, &tables, &mut seeds, &mut scratch),
                    View::Wide(c) => space.seed(t, s, c, &tables, &mut seeds, &mut scratch),
                };
                let after = match seeded {
                    Ok(after) => after,
                    Err(e) if narrow && too_narrow(&e) => {
                        local.set_overflow(seed_round);
                        ctx.shared.free(piece);
                        break;
                    }
                    Err(e) => return Err(e),
                };
                // Level entries carry the lost bit: a worker that takes
                // another's children does not read their cells.
                for x in &mut seeds.decisive[before..] {
                    let c = piece.value((*x - s) as usize);
                    if c.is_some_and(|v| v.outcome() == Outcome::Lose) {
                        *x |= updates::LOST;
                    }
                }
                // Seeds past the cap are not kept: level 0 is found by a
                // scan instead (in every worker of the process).
                let mut unlisted = 0;
                if seeds.decisive.len() > cap {
                    seeds.decisive = Vec::new();
                    unlisted |= local::UNLISTED_DECISIVE;
                }
                if seeds.ties.len() > cap {
                    seeds.ties = Vec::new();
                    unlisted |= local::UNLISTED_TIES;
                }
                if unlisted != 0 {
                    local.set_unlisted(seed_round, unlisted);
                }
                // The events, as they grow: this worker's share of what
                // the limit leaves the process (the refusal's words made
                // only when it is refused).
                let events = (seeds.events.capacity() * std::mem::size_of::<u64>()) as u64;
                let needed = ctx.held.saturating_add(events.saturating_mul(pp as u64));
                if needed > ctx.budget.memory() {
                    return Err(solver_retro::Error::TooLarge(ctx.budget.memory_error(
                        format!(
                            "tier {}'s events (positions with children in other tiers) beside every tier's table",
                            space.name(t)
                        ),
                        needed,
                    ))
                    .into());
                }
                local.set_after(seed_round, after);
                *local::lock(&blocks[j]) = Some(piece);
            }
            drop(tables);
            drop(held);
            io.local_barrier(local)?;
            // Which seed lists this process left to a scan: its workers
            // agree through `local`, and each process decides for its
            // own (a worker lists positions of its own process only), as
            // at every later level.
            let (after, mut overflow, unlisted) = local.after(seed_round);
            if processes > 1 {
                // Whether any process's seeding overflowed.
                for w in 0..peers {
                    io.summary.send((w as u64, SEEDED, u64::from(overflow)));
                }
                io.barrier(worker)?;
                take(&io.got_summary, io.round, &mut got);
                for (_, a, f) in got.drain(..) {
                    if a == SEEDED {
                        overflow |= f & 1 != 0;
                    }
                }
            }
            if !overflow {
                if let Some(After::Levels { lazy }) = after {
                    let mut shard = Shard {
                        space,
                        shared: &ctx.shared,
                        tier: t,
                        lay,
                        owners: lay.owners(),
                        first,
                        blocks: &blocks,
                        me: me as u64,
                        per_process: pp as u64,
                        processes: processes as u64,
                        lazy,
                        narrow,
                        overflow: false,
                        next: Vec::new(),
                        cap,
                        unlisted: false,
                        round_bytes: round_bytes(ctx, size, peers),
                        round_words: 0,
                        found: Vec::new(),
                        scratch,
                        buf: ParentIndices::default(),
                        out: (first..end).map(|_| Encoder::default()).collect(),
                        remote: (0..peers).map(|_| Encoder::default()).collect(),
                        spans: Vec::new(),
                    };
                    // Sorted by phase, level and id (solver-retro's packing):
                    // the decisive events, then the ties'.
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
                    for (phase, level, bit, events) in phases {
                        if overflow {
                            break;
                        }
                        overflow = shard.run(
                            worker,
                            &mut io,
                            phase,
                            level,
                            unlisted & bit != 0,
                            events,
                            peers,
                            &mut traffic,
                            &mut resolved,
                            &report,
                        )?;
                    }
                    scratch = shard.scratch;
                }
            }
            if !overflow {
                break blocks;
            }
            // Every worker of the cluster is here: the blocks go back to
            // the free ones (each worker its own shard's), and the tier
            // starts again in wide cells.
            for b in lay.blocks_of(me) {
                if let Some(p) = local::lock(&blocks[b - first]).take() {
                    ctx.shared.free(p);
                }
            }
            narrow = false;
        };
        // This worker's blocks (every worker is past the levels): to the
        // database (its own shard file; worker 0 lists the tier once every
        // shard is written), and to every process: moved into this
        // process's table, sent to one worker of each other process.
        let mine = lay.blocks_of(me);
        let mut pieces = Vec::with_capacity(mine.len());
        for b in mine.clone() {
            let (lo, hi) = lay.block_range(b);
            pieces.push(match local::lock(&blocks[b - first]).take() {
                Some(p) => p,
                None => Piece::invalid((hi - lo) as usize, narrow)?,
            });
        }
        drop(blocks);
        let parts: Vec<(usize, &Piece)> = mine.clone().zip(pieces.iter()).collect();
        if let Some(db) = &ctx.db {
            let e = write_shard(db, t, me, &lay, &parts)?;
            io.entries.send((0, entry_words(&e)));
        }
        gather(&mut io, &parts, &lay, t, me, pp, processes, &mut traffic);
        drop(parts);
        for (b, piece) in mine.zip(pieces) {
            ctx.shared.put_block(t, &lay, b, piece);
        }
        io.barrier(worker)?;
        traffic.tiers += 1;
        // Every worker has seeded tier k and let go of its children.
        if me.is_multiple_of(pp) {
            kids.clear();
            space.child_tiers(t, &mut kids);
            for &c in &kids {
                if last_use.get(&c) == Some(&k) {
                    ctx.shared.retire(c, space.size(c))?;
                }
            }
        }
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

/// Sends the blocks `parts` (block number and cells) of tier `t` to one
/// worker of every other process (the worker of the same rank), in
/// messages that never span blocks.
#[allow(clippy::too_many_arguments)]
fn gather(
    io: &mut Io,
    parts: &[(usize, &Piece)],
    lay: &Layout,
    t: Tier,
    me: usize,
    pp: usize,
    processes: usize,
    traffic: &mut Traffic,
) {
    let mine = me / pp;
    for q in (0..processes).filter(|&q| q != mine) {
        let target = (q * pp + me % pp) as u64;
        for &(b, piece) in parts {
            let lo = lay.block_range(b).0;
            for at in (0..piece.len()).step_by(GATHER) {
                let mut cells = Vec::with_capacity(GATHER.min(piece.len() - at));
                piece.wide_into(at, GATHER, &mut cells);
                traffic.gather_cells_remote += cells.len() as u64;
                io.gather
                    .send((target, t, lo + at as u64, piece.is_narrow(), cells));
            }
        }
    }
}

/// Writes worker `me`'s shard of tier `t` (its blocks `parts`, in order)
/// as shard `me` of the tier in `db`.
fn write_shard(
    db: &Database,
    t: Tier,
    me: usize,
    lay: &Layout,
    parts: &[(usize, &Piece)],
) -> Result<ShardEntry, Error> {
    let shard =
        u32::try_from(me).map_err(|_| Error::Db(format!("worker {me}: too many shards")))?;
    let mut w = db.shard_writer(t, shard, lay.shard_range(me).0)?;
    let mut buf = Vec::with_capacity(GATHER);
    let mut cells = Vec::with_capacity(GATHER);
    for &(_, piece) in parts {
        for at in (0..piece.len()).step_by(GATHER) {
            cells.clear();
            piece.wide_into(at, GATHER, &mut cells);
            buf.clear();
            buf.extend(cells.iter().map(|&c| c.value()));
            w.write(&buf)?;
        }
    }
    Ok(w.finish()?)
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
    /// when 2-byte cells turned out too narrow (every worker returns it
    /// after the same barrier).
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
            if self.narrow && next > u16::MAX_REMOTENESS {
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
                    if run.end > size {
                        return Err(self.past(run.end - 1));
                    }
                    self.route(run.start, run.end, lost, phase, next, io, traffic)?;
                }
                Ok(())
            });
        self.buf = buf;
        r
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
            // A count past a 2-byte cell: the tier starts again in wide
            // cells after this level; the cell stays as it is.
            Err(solver_retro::Error::TooManyChildren { .. }) if self.narrow => {
                self.overflow = true;
            }
            Err(e) => return Err(e.into()),
        }
        Ok(())
    }
}
