//! The database, shard by shard: what a run resumes from (the tiers
//! finished, read back), each worker's shard file of a solved tier, and
//! the listing of a tier once every shard is in.

use game_core::Tier;
use game_db::{Database, ShardEntry};
use rustc_hash::FxHashMap;

use super::gather::gather;
use super::io::{take, Io};
use super::{Ctx, DONE, HAS_DB};
use crate::cell::{self, Cell, Piece, View, Width};
use crate::layout::Layout;
use crate::space::Space;
use crate::{Error, Traffic};
use timely::worker::Worker;

/// The first two rounds of a run: which tiers the database holds
/// finished (worker 0 reads its manifest and tells everyone; `true` at
/// their places in `order`), whether every worker has the database, and
/// the finished tiers an unfinished one needs, read back to every
/// process.
pub(super) fn resume<S: Space>(
    worker: &mut Worker,
    io: &mut Io,
    ctx: &Ctx<S>,
    order: &[Tier],
    traffic: &mut Traffic,
) -> Result<Vec<bool>, Error> {
    let me = worker.index();
    let peers = worker.peers();
    let lead = me == 0;
    let space = &*ctx.space;
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
            read_back(io, ctx, db, c, me, peers, traffic)?;
        }
    }
    io.barrier(worker)?;
    Ok(done)
}

/// Reads tier `c`, finished in the database `db`, back for the tiers
/// still to solve: worker `me` reads its own range of it (from whichever
/// shards hold it) and sends it on as after a solve.
#[allow(clippy::too_many_arguments)]
fn read_back<S: Space>(
    io: &mut Io,
    ctx: &Ctx<S>,
    db: &Database,
    c: Tier,
    me: usize,
    peers: usize,
    traffic: &mut Traffic,
) -> Result<(), Error> {
    let space = &*ctx.space;
    let pp = ctx.per_process.max(1);
    let processes = peers / pp;
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
        pieces.push(Piece::invalid((hi - lo) as usize, Width::Wide)?);
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
            if let Some(View::Wide(piece)) = pieces.get_mut(b - mine.start).map(Piece::view) {
                let off = (at - blo) as usize;
                for (k, (dst, v)) in piece[off..off + n].iter_mut().zip(&values[..n]).enumerate() {
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
    gather(io, &parts, &lay, c, me, pp, processes, traffic);
    for (b, piece) in mine.zip(pieces) {
        ctx.shared.put_block(c, &lay, b, piece);
    }
    Ok(())
}

/// A written shard's manifest entry, to worker 0: the target worker, then
/// tier, shard, first index, records, bytes, and the header's and file's
/// CRC-32 as one word.
pub(super) type EntryMsg = (u64, [u64; 6]);

pub(super) fn entry_words(e: &ShardEntry) -> [u64; 6] {
    [
        e.tier,
        u64::from(e.shard.unwrap_or(u32::MAX)),
        e.first,
        e.records,
        e.bytes,
        u64::from(e.header_crc32) << 32 | u64::from(e.file_crc32),
    ]
}

pub(super) fn entry_of(w: &[u64; 6]) -> ShardEntry {
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

/// Writes worker `me`'s shard of tier `t` (its blocks `parts`, in order)
/// as shard `me` of the tier in `db`.
pub(super) fn write_shard(
    db: &Database,
    t: Tier,
    me: usize,
    lay: &Layout,
    parts: &[(usize, &Piece)],
) -> Result<ShardEntry, Error> {
    let shard =
        u32::try_from(me).map_err(|_| Error::Db(format!("worker {me}: too many shards")))?;
    let mut w = db.shard_writer(t, shard, lay.shard_range(me).0)?;
    let mut buf = Vec::with_capacity(super::gather::GATHER);
    let mut cells = Vec::with_capacity(super::gather::GATHER);
    for &(_, piece) in parts {
        for at in (0..piece.len()).step_by(super::gather::GATHER) {
            cells.clear();
            piece.wide_into(at, super::gather::GATHER, &mut cells);
            buf.clear();
            buf.extend(cells.iter().map(|&c| c.value()));
            w.write(&buf)?;
        }
    }
    Ok(w.finish()?)
}
