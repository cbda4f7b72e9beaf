//! How a tier's ids are cut: into blocks of a power-of-two size, about
//! [`BLOCKS_PER_WORKER`] a worker, each worker owning a run of whole
//! blocks (its shard). A block is the unit of memory (its own memory map),
//! of seeding (any worker of the owner's process seeds any block) and of
//! locking during the levels (any worker of the process updates any of the
//! process's blocks, holding its lock): the work of a level spreads over
//! the workers of a process however its updates fall.

use std::ops::Range;

/// Blocks a worker owns, about (up to twice as many: the block size is
/// rounded down to a power of two; fewer, down to two, where that makes
/// blocks of [`HUGE_BLOCK`] ids; never under 64 ids).
pub(crate) const BLOCKS_PER_WORKER: u64 = 16;
/// The smallest block.
const MIN_BLOCK: u64 = 64;
/// Blocks of this many ids or more fill whole huge pages (2 MiB of 2-byte
/// cells): blocks grow to it as long as a worker keeps two blocks. (Each
/// block is a memory map of its own: one smaller than a huge page faults
/// in page by page, 512 times as often.)
const HUGE_BLOCK: u64 = 1 << 20;

/// The blocks of a tier of `size` ids among `peers` workers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Ids in the tier.
    pub size: u64,
    /// A block holds `1 << shift` ids (the last one fewer).
    pub shift: u32,
    /// Workers in the cluster.
    pub peers: usize,
    /// Blocks in the tier.
    pub blocks: usize,
}

impl Layout {
    /// The layout of a tier of `size` ids (below 2⁶²) among `peers`
    /// workers.
    pub(crate) fn new(size: u64, peers: usize) -> Layout {
        let peers = peers.max(1);
        let mut want = size.div_ceil(peers as u64 * BLOCKS_PER_WORKER);
        if want < HUGE_BLOCK {
            // A block in pages of 4 KiB faults in 512 times as often, and
            // gathers more misses of the translation cache.
            want = want.max(size / (peers as u64 * 2)).min(HUGE_BLOCK);
        }
        let want = want.max(MIN_BLOCK);
        let block = 1u64 << (63 - want.leading_zeros());
        Layout {
            size,
            shift: block.trailing_zeros(),
            peers,
            blocks: size.div_ceil(block) as usize,
        }
    }

    /// The block holding id `id`.
    #[inline]
    pub(crate) fn block_of(&self, id: u64) -> usize {
        (id >> self.shift) as usize
    }

    /// The ids of block `b`.
    #[inline]
    pub(crate) fn block_range(&self, b: usize) -> (u64, u64) {
        let lo = ((b as u64) << self.shift).min(self.size);
        (lo, (lo + (1 << self.shift)).min(self.size))
    }

    /// The blocks worker `w` owns.
    pub(crate) fn blocks_of(&self, w: usize) -> Range<usize> {
        w * self.blocks / self.peers..(w + 1) * self.blocks / self.peers
    }

    /// The ids worker `w` owns (its shard).
    pub(crate) fn shard_range(&self, w: usize) -> (u64, u64) {
        let r = self.blocks_of(w);
        let at = |b: usize| ((b as u64) << self.shift).min(self.size);
        (at(r.start), at(r.end))
    }

    /// The worker owning block `b` (by arithmetic; the levels use
    /// [`Layout::owners`]).
    pub(crate) fn owner(&self, b: usize) -> usize {
        ((b + 1) * self.peers - 1) / self.blocks.max(1)
    }

    /// The owner of every block, by block.
    pub(crate) fn owners(&self) -> Vec<u32> {
        (0..self.blocks).map(|b| self.owner(b) as u32).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_whole_blocks_and_cover_the_tier() {
        for size in [
            0u64,
            1,
            63,
            64,
            65,
            1000,
            4096,
            100_003,
            1 << 20,
            68_161_536,
            1 << 40,
        ] {
            for peers in 1..=7 {
                let l = Layout::new(size, peers);
                let mut next = 0;
                for w in 0..peers {
                    let (lo, hi) = l.shard_range(w);
                    assert_eq!(lo, next, "size {size}, peers {peers}, worker {w}");
                    assert!(hi >= lo);
                    next = hi;
                    for b in l.blocks_of(w) {
                        assert_eq!(l.owner(b), w, "size {size}, peers {peers}, block {b}");
                        let (a, e) = l.block_range(b);
                        assert!(lo <= a && a < e && e <= hi);
                        assert_eq!(l.block_of(a), b);
                        assert_eq!(l.block_of(e - 1), b);
                    }
                }
                assert_eq!(next, size);
                assert_eq!(l.owners().len(), l.blocks);
                if size >= 1 << 16 {
                    assert!(l.blocks >= peers * 2, "size {size}, peers {peers}");
                }
                if size >= HUGE_BLOCK * peers as u64 * BLOCKS_PER_WORKER {
                    assert!(l.blocks >= peers * BLOCKS_PER_WORKER as usize);
                }
            }
        }
    }
}
