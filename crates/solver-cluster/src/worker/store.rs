//! The shared tier store of a process: the blocks of the tier being
//! solved, solved tiers whole (as cells while tiers still to solve read
//! them, then as tables), and the free blocks kept for tiers to come.

use std::sync::{Arc, Mutex, PoisonError};

use game_core::Tier;
use rustc_hash::FxHashMap;
use solver_retro::Table;

use crate::cell::{Piece, TierCells, Width};
use crate::layout::Layout;
use crate::local::{self, Local};
use crate::Error;

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
    pub(super) fn trim_free(&self, free: &mut Vec<Piece>) {
        let mut kept: usize = free.iter().map(Piece::capacity).sum();
        while kept > self.free_cap {
            let Some(k) = (0..free.len()).max_by_key(|&k| free[k].capacity()) else {
                break;
            };
            kept -= free.swap_remove(k).capacity();
        }
    }

    /// Files `piece` as block `b` of `tier`, laid out as `lay`.
    pub(super) fn put_block(&self, tier: Tier, lay: &Layout, b: usize, piece: Piece) {
        let mut all = self.building.lock().unwrap_or_else(PoisonError::into_inner);
        let v = all
            .entry(tier)
            .or_insert_with(|| (0..lay.blocks).map(|_| None).collect());
        if let Some(slot) = v.get_mut(b) {
            *slot = Some(piece);
        }
    }

    /// Copies `cells` (wide) to `first..` of `tier` (of `size` indices),
    /// into the block that holds them, of cells of `width` (a block of
    /// another process, gathered; a message never spans blocks).
    pub(super) fn put_cells(
        &self,
        tier: Tier,
        size: u64,
        first: u64,
        width: Width,
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
            *slot = Some(Piece::invalid((hi - lo) as usize, width)?);
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

    /// `len` cells of `width` to be written whole: the smallest free
    /// block that holds them, if any holds them with less than half to
    /// spare, else fresh memory.
    pub(super) fn block_for(&self, len: usize, width: Width) -> Result<Piece, Error> {
        let bytes = len * width.bytes();
        let mut free = local::lock(&self.free);
        let best = free
            .iter()
            .enumerate()
            .filter(|(_, p)| p.capacity() >= bytes && p.capacity() / 2 <= bytes)
            .min_by_key(|(_, p)| p.capacity())
            .map(|(k, _)| k);
        match best {
            Some(k) => Ok(free.swap_remove(k).reuse(len, width)),
            None => {
                drop(free);
                Piece::zeroed(len, width)
            }
        }
    }

    /// Keeps `piece` for the blocks of tiers to come (within
    /// [`Shared::free_cap`]).
    pub(super) fn free(&self, piece: Piece) {
        let mut free = local::lock(&self.free);
        free.push(piece);
        self.trim_free(&mut free);
    }

    /// Makes `tier` (no tier left to solve reads it; no worker holds it)
    /// a table, and its blocks free for tiers to come.
    pub(super) fn retire(&self, tier: Tier, size: u64) -> Result<(), Error> {
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
    pub(super) fn take_all(
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

/// A tier from its blocks (a block never filed: no positions, in the
/// width of the others, the widest if they differ; 2 bytes with none).
fn assemble(pieces: Vec<Option<Piece>>, size: u64, peers: usize) -> Result<TierCells, Error> {
    let lay = Layout::new(size, peers);
    let width = pieces
        .iter()
        .flatten()
        .map(Piece::width)
        .max()
        .unwrap_or(Width::Narrow);
    let mut pieces = pieces.into_iter();
    let mut out = Vec::with_capacity(lay.blocks);
    for b in 0..lay.blocks {
        let (lo, hi) = lay.block_range(b);
        out.push(Arc::new(match pieces.next().flatten() {
            Some(p) if p.len() as u64 == hi - lo => p,
            _ => Piece::invalid((hi - lo) as usize, width)?,
        }));
    }
    Ok(TierCells::new(1 << lay.shift, size, out))
}
