//! One timely worker: its run, tier by tier, children first. The parts
//! of a run are one file each: the shared tier store of a process
//! (`store.rs`), the worker's timely I/O and barriers (`io.rs`), the
//! database shard by shard and the resume (`db.rs`), the seeding of a
//! tier's blocks (`seeding.rs`), the levels (`levels.rs`) and the gather
//! of a solved tier to every process (`gather.rs`).

mod db;
mod gather;
mod io;
mod levels;
mod seeding;
mod store;

use std::sync::Arc;

use game_core::Tier;
use game_db::{Database, ShardEntry};
use rustc_hash::FxHashMap;
use solver_retro::Progress;
use timely::worker::Worker;

use crate::cell::{Piece, TierCells, Width};
use crate::layout::Layout;
use crate::local::{self, Blocks};
use crate::space::{After, Space};
use crate::{Error, Traffic};
use gather::gather;
pub(crate) use io::{at_round, finish, stop};
use io::{take, Io};
use levels::list_cap;
pub(crate) use store::Shared;

/// A summary that names a finished tier (by its place in the order).
const DONE: u64 = u64::MAX;
/// A summary that says whether its worker has a database (1) or not (0).
const HAS_DB: u64 = u64::MAX - 1;
/// A summary that says whether a cell of its worker's process's seeding
/// was too narrow (1) or not (0).
const SEEDED: u64 = u64::MAX - 2;

/// Whether `e` says a cell of 1 or 2 bytes was too narrow (the tier is
/// solved again in cells of the next width, as solver-retro does).
fn too_narrow(e: &Error) -> bool {
    matches!(
        e,
        Error::Retro(
            solver_retro::Error::TooManyChildren { .. } | solver_retro::Error::TooDeep { .. }
        )
    )
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

/// Runs worker `worker` to the end of the solve.
pub(crate) fn work<S: Space>(worker: &mut Worker, ctx: &Ctx<S>) -> Result<Traffic, Error> {
    let me = worker.index();
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
    let done = db::resume(worker, &mut io, ctx, &order, &mut traffic)?;
    let total = order.len() as u64;
    // The last tier to solve that reads each tier: past it the tier is
    // made a table and its blocks serve the tiers to come.
    let mut kids = Vec::new();
    let mut last_use: FxHashMap<Tier, usize> = FxHashMap::default();
    // What is known of each tier's remoteness, as solver-retro knows it:
    // a tier starts in the cells it would start it in.
    let mut depths = solver_retro::Depths::default();
    for (k, &t) in order.iter().enumerate() {
        kids.clear();
        space.child_tiers(t, &mut kids);
        depths.add(t, space.size(t), space.leaves(t), &kids);
        if done[k] {
            continue;
        }
        for &c in &kids {
            last_use.insert(c, k);
        }
    }
    let mut scratch = S::Scratch::default();
    for (k, &t) in order.iter().enumerate() {
        if done[k] {
            continue;
        }
        let size = space.size(t);
        let lay = Layout::new(size, worker.peers());
        let start = if depths.fits::<u8>(t) {
            Width::Byte
        } else {
            Width::Narrow
        };
        let (blocks, width) = solve_tier(
            worker,
            &mut io,
            ctx,
            (t, start),
            lay,
            &mut scratch,
            &mut traffic,
            &report,
        )?;
        finish_tier(
            worker,
            &mut io,
            ctx,
            (k, t),
            &lay,
            blocks,
            width,
            &last_use,
            &mut traffic,
        )?;
        report(Progress::Tier {
            done: k as u64 + 1,
            total,
            positions: size,
        });
    }
    traffic.rounds = io.round;
    Ok(traffic)
}

/// Seeds tier `t` and runs its levels, in cells of `start` and again in
/// wider ones while those are too narrow: the process's blocks, and their
/// width.
#[allow(clippy::too_many_arguments)]
fn solve_tier<S: Space>(
    worker: &mut Worker,
    io: &mut Io,
    ctx: &Ctx<S>,
    (t, start): (Tier, Width),
    lay: Layout,
    scratch: &mut S::Scratch,
    traffic: &mut Traffic,
    report: &dyn Fn(Progress),
) -> Result<(Blocks, Width), Error> {
    let me = worker.index();
    let peers = worker.peers();
    let pp = ctx.per_process.max(1);
    let processes = peers / pp;
    let space = &*ctx.space;
    let local = &ctx.shared.local;
    let first_local = me / pp * pp;
    let first = lay.blocks_of(first_local).start;
    let end = lay.blocks_of(first_local + pp - 1).end;
    let mut kids = Vec::new();
    let mut got = Vec::new();
    // In `start`'s cells first, as solver-retro solves a tier; again in
    // wider cells if a count or a remoteness does not fit (every worker
    // learns it at the same barrier).
    let mut width = start;
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
        let cap = list_cap(ctx, &lay, me);
        let seeds = seeding::seed_blocks(
            ctx, t, &lay, first, &blocks, width, cap, &tables, scratch, seed_round,
        )?;
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
                let run = levels::TierRun {
                    ctx,
                    tier: t,
                    lay,
                    first,
                    end,
                    blocks: &blocks,
                    lazy,
                    width,
                    cap,
                };
                overflow =
                    levels::run_tier(worker, io, &run, seeds, unlisted, scratch, traffic, report)?;
            }
        }
        if !overflow {
            break blocks;
        }
        // Every worker of the cluster is here: the blocks go back to
        // the free ones (each worker its own shard's), and the tier
        // starts again in wider cells.
        for b in lay.blocks_of(me) {
            if let Some(p) = local::lock(&blocks[b - first]).take() {
                ctx.shared.free(p);
            }
        }
        width = width.wider().unwrap_or(Width::Wide);
    };
    Ok((blocks, width))
}

/// Ends tier `t` (at `k` in the order) on this worker once every worker
/// is past its levels: its shard to the database (worker 0 lists the
/// tier once every shard is written), its blocks to every process (moved
/// into this process's table, sent to one worker of each other
/// process), and the child tiers no tier left reads made tables.
#[allow(clippy::too_many_arguments)]
fn finish_tier<S: Space>(
    worker: &mut Worker,
    io: &mut Io,
    ctx: &Ctx<S>,
    (k, t): (usize, Tier),
    lay: &Layout,
    blocks: Blocks,
    width: Width,
    last_use: &FxHashMap<Tier, usize>,
    traffic: &mut Traffic,
) -> Result<(), Error> {
    let me = worker.index();
    let peers = worker.peers();
    let pp = ctx.per_process.max(1);
    let processes = peers / pp;
    let lead = me == 0;
    let space = &*ctx.space;
    let first = lay.blocks_of(me / pp * pp).start;
    let mut kids = Vec::new();
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
            None => Piece::invalid((hi - lo) as usize, width)?,
        });
    }
    drop(blocks);
    let parts: Vec<(usize, &Piece)> = mine.clone().zip(pieces.iter()).collect();
    if let Some(db) = &ctx.db {
        let e = db::write_shard(db, t, me, lay, &parts)?;
        io.entries.send((0, db::entry_words(&e)));
    }
    gather(io, &parts, lay, t, me, pp, processes, traffic);
    drop(parts);
    for (b, piece) in mine.zip(pieces) {
        ctx.shared.put_block(t, lay, b, piece);
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
        let shards: Vec<ShardEntry> = entries.iter().map(|(_, w)| db::entry_of(w)).collect();
        if shards.len() != peers {
            return Err(Error::Db(format!(
                "{} of {peers} shards of tier {} were written",
                shards.len(),
                space.name(t)
            )));
        }
        db.finish_sharded(t, lay.size, &shards)?;
    }
    Ok(())
}
