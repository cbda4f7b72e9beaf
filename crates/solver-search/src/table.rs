//! The transposition table: a fixed number of slots shared by every
//! thread, each holding a key and true bounds on its score.
//!
//! A slot is a tiny sequence lock: a writer makes the sequence odd (or
//! gives up, when another writer holds it: a store may always be dropped),
//! writes the key and the bounds, and makes it even again; a reader keeps
//! what it read only when the sequence was even and unchanged around its
//! reads. So a read never mixes two writes, and every bound read is one a
//! search proved: the answer does not depend on what the table kept, on
//! how many threads shared it, or on which store lost a race.

use std::sync::atomic::{fence, AtomicU64, Ordering};

use game_core::{Budget, TooLarge};

use crate::score::BIG;

/// One slot: 24 bytes.
#[derive(Default)]
struct Slot {
    seq: AtomicU64,
    key: AtomicU64,
    bounds: AtomicU64,
}

/// Bytes a slot takes.
pub(crate) const SLOT_BYTES: u64 = std::mem::size_of::<Slot>() as u64;

/// The shared table.
pub(crate) struct Table {
    slots: Vec<Slot>,
    mask: u64,
}

/// Bounds as stored: each score shifted by `BIG` into 32 bits.
#[inline]
fn pack(lo: i64, hi: i64) -> u64 {
    (((lo + BIG) as u64) << 32) | (hi + BIG) as u64
}

#[inline]
fn unpack(b: u64) -> (i64, i64) {
    ((b >> 32) as i64 - BIG, (b & 0xffff_ffff) as i64 - BIG)
}

/// A key's slot: the key mixed (a multiplicative hash), its top bits.
#[inline]
fn mix(key: u64) -> u64 {
    (key ^ (key >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl Table {
    /// A table of the most slots (a power of two, at least one) that fit
    /// in `bytes`, refused when `bytes` is over the budget's memory.
    pub(crate) fn new(bytes: u64, budget: &Budget) -> Result<Table, TooLarge> {
        let what = "the search's transposition table";
        budget.check_memory(what, bytes)?;
        let n = (bytes / SLOT_BYTES).max(1);
        let n = 1u64 << (63 - n.leading_zeros());
        let len = usize::try_from(n).map_err(|_| budget.memory_error(what, bytes))?;
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(len)
            .map_err(|_| budget.memory_error(what, n * SLOT_BYTES))?;
        slots.resize_with(len, Slot::default);
        Ok(Table { slots, mask: n - 1 })
    }

    /// The number of slots.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        // The top bits of the mixed key: the low bits of a bitboard are
        // poorly spread.
        let i = mix(key) >> (64 - self.mask.count_ones().max(1));
        &self.slots[(i & self.mask) as usize]
    }

    /// The bounds known for `key`: `(lo, hi)` with `lo ≤ score ≤ hi`, or
    /// the widest when the table holds nothing for it.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> (i64, i64) {
        let slot = self.slot(key);
        let s1 = slot.seq.load(Ordering::Acquire);
        if s1 & 1 == 0 {
            let k = slot.key.load(Ordering::Relaxed);
            let b = slot.bounds.load(Ordering::Relaxed);
            fence(Ordering::Acquire);
            if slot.seq.load(Ordering::Relaxed) == s1 && k == key && b != 0 {
                return unpack(b);
            }
        }
        (-BIG, BIG)
    }

    /// Records the bounds `lo ≤ score ≤ hi` for `key` (merged with what the
    /// slot holds for the same key), unless another thread is writing the
    /// slot.
    #[inline]
    pub(crate) fn store(&self, key: u64, lo: i64, hi: i64) {
        let slot = self.slot(key);
        let s = slot.seq.load(Ordering::Relaxed);
        if s & 1 == 1
            || slot
                .seq
                .compare_exchange(s, s + 1, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        let (mut lo, mut hi) = (lo, hi);
        if slot.key.load(Ordering::Relaxed) == key {
            let b = slot.bounds.load(Ordering::Relaxed);
            if b != 0 {
                let (l, h) = unpack(b);
                lo = lo.max(l);
                hi = hi.min(h);
            }
        }
        slot.key.store(key, Ordering::Relaxed);
        slot.bounds.store(pack(lo, hi), Ordering::Relaxed);
        slot.seq.store(s + 2, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_merge_and_other_keys_miss() {
        let t = Table::new(1 << 12, &Budget::unlimited()).unwrap();
        assert_eq!(t.len(), 128);
        assert_eq!(t.probe(7), (-BIG, BIG));
        t.store(7, -3, BIG);
        t.store(7, -BIG, 10);
        assert_eq!(t.probe(7), (-3, 10));
        t.store(7, 0, 0);
        assert_eq!(t.probe(7), (0, 0));
        // A key never stored misses, whatever shares its slot.
        assert_eq!(t.probe(8 + (1 << 40)), (-BIG, BIG));
    }

    #[test]
    fn over_budget_is_refused() {
        let err = Table::new(1 << 20, &Budget::unlimited().with_memory(1 << 10))
            .err()
            .unwrap();
        assert_eq!(err.needed, 1 << 20);
    }
}
