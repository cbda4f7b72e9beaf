//! The transposition table: buckets of two entries shared by every
//! thread, each entry one `u64` holding the rest of a key and true bounds
//! on its score.
//!
//! A key is mixed by a bijection of `u64`; the top bits of the mix pick a
//! bucket and the entry keeps all the other bits, so an entry names its
//! key exactly (no two keys share a bucket and the bits kept). The bounds
//! take the bits the bucket's number leaves free: `w` bits each (at most
//! 12), a code for a score that names losses and wins of the fewest
//! plies exactly and rounds any other bound *outwards* (a lower bound
//! down, an upper bound up), so every bound read is still true, only
//! weaker. An entry is written and read as one atomic word: a read never
//! mixes two writes, no lock is taken, and a store may be lost to a race
//! (what is kept is always proved), so the answer does not depend on what
//! the table kept, on how many threads shared it, or on which store won.
//!
//! A bucket fills one 16-byte line of two entries: the newest key first;
//! a new key moves the first entry to the second place and drops the
//! second.

use std::sync::atomic::{fence, AtomicU64, Ordering};

use game_core::{Budget, TooLarge};

use crate::score::BIG;

/// Bytes a compact entry takes.
const SLOT_BYTES: u64 = 8;

/// The fewest buckets of a compact table: 2^16 (1 MiB), so that the
/// bounds have 8 bits each at least (wins and losses of up to 122 plies
/// named exactly); a smaller table is [`Locked`].
const MIN_BUCKETS: u64 = 1 << 16;

/// The most bits of a bound's code.
const MAX_CODE_BITS: u32 = 12;

/// A table of buckets of two one-word entries.
pub(crate) struct Compact {
    buckets: Vec<[AtomicU64; 2]>,
    /// Bits of the bucket's number.
    bits: u32,
    /// Bits of each bound's code.
    w: u32,
    /// Codes of losses (and of wins) named exactly: remoteness `0..side`.
    side: i64,
}

/// The shared table: compact from 1 MiB, else a slot a key.
pub(crate) enum Table {
    /// Buckets of two one-word entries.
    Compact(Compact),
    /// A small table, whole keys and bounds behind a sequence lock.
    Locked(Locked),
}

impl Table {
    /// A table of at most `bytes` (at least 4 KiB, or one slot when
    /// smaller), refused when `bytes` is over the budget's memory.
    pub(crate) fn new(bytes: u64, budget: &Budget) -> Result<Table, TooLarge> {
        if bytes >= MIN_BUCKETS * 2 * SLOT_BYTES {
            Compact::new(bytes, budget).map(Table::Compact)
        } else {
            Locked::new(bytes, budget).map(Table::Locked)
        }
    }

    /// The bytes the table takes.
    pub(crate) fn bytes(&self) -> u64 {
        match self {
            Table::Compact(t) => t.bytes(),
            Table::Locked(t) => t.bytes(),
        }
    }

    /// The bounds known for `key`: `(lo, hi)` with `lo ≤ score ≤ hi`, or
    /// the widest when the table holds nothing for it.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> (i64, i64) {
        match self {
            Table::Compact(t) => t.probe(key),
            Table::Locked(t) => t.probe(key),
        }
    }

    /// Records the bounds `lo ≤ score ≤ hi` for `key`, merged with what
    /// the table holds for it (a store may be dropped).
    #[inline]
    pub(crate) fn store(&self, key: u64, lo: i64, hi: i64) {
        match self {
            Table::Compact(t) => t.store(key, lo, hi),
            Table::Locked(t) => t.store(key, lo, hi),
        }
    }
}

/// The key mixed: a bijection of `u64` (a xor-shift, a multiplication by
/// an odd number, a xor-shift), whose top bits spread well even when the
/// key's low bits do not (a bitboard's).
#[inline]
fn mix(key: u64) -> u64 {
    let x = (key ^ (key >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^ (x >> 32)
}

impl Compact {
    /// A table of the most buckets (a power of two, at least
    /// [`MIN_BUCKETS`]) that fit in `bytes`, refused when its size is over
    /// the budget's memory.
    fn new(bytes: u64, budget: &Budget) -> Result<Compact, TooLarge> {
        let what = "the search's transposition table";
        budget.check_memory(what, bytes)?;
        let n = (bytes / (2 * SLOT_BYTES)).max(MIN_BUCKETS);
        let n = 1u64 << (63 - n.leading_zeros());
        let size = n * 2 * SLOT_BYTES;
        budget.check_memory(what, size)?;
        let len = usize::try_from(n).map_err(|_| budget.memory_error(what, size))?;
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(len)
            .map_err(|_| budget.memory_error(what, size))?;
        buckets.resize_with(len, Default::default);
        let bits = n.trailing_zeros();
        let w = (bits / 2).min(MAX_CODE_BITS);
        Ok(Compact {
            buckets,
            bits,
            w,
            side: ((1i64 << w) - 9) / 2,
        })
    }

    fn bytes(&self) -> u64 {
        self.buckets.len() as u64 * 2 * SLOT_BYTES
    }

    /// The bucket of `key` and the bits its entry keeps (shifted above the
    /// bounds' codes).
    #[inline]
    fn place(&self, key: u64) -> (&[AtomicU64; 2], u64) {
        let m = mix(key);
        let i = m >> (64 - self.bits);
        let rest = m & (u64::MAX >> self.bits);
        (&self.buckets[i as usize], rest << (2 * self.w))
    }

    /// The code of a lower bound `s`: of the greatest score named that is
    /// at most `s`.
    #[inline]
    fn code_lo(&self, s: i64) -> u64 {
        let side = self.side;
        let c = if s >= 5 {
            let r = BIG - s;
            if r < side {
                2 * side + 8 - r
            } else {
                side + 8
            }
        } else if s >= -4 {
            side + 4 + s
        } else {
            (BIG + s).min(side - 1)
        };
        c as u64
    }

    /// The code of an upper bound `s`: of the least score named that is at
    /// least `s`.
    #[inline]
    fn code_hi(&self, s: i64) -> u64 {
        let side = self.side;
        let c = if s >= 5 {
            (2 * side + 8 - (BIG - s)).max(side + 9)
        } else if s >= -4 {
            side + 4 + s
        } else {
            let r = BIG + s;
            if r < side {
                r
            } else {
                side
            }
        };
        c as u64
    }

    /// The score a code names.
    #[inline]
    fn decode(&self, c: u64) -> i64 {
        let (c, side) = (c as i64, self.side);
        if c < side {
            c - BIG
        } else if c < side + 9 {
            c - side - 4
        } else {
            BIG - (2 * side + 8 - c)
        }
    }

    /// The bounds an entry holds for the key whose kept bits are `rest`.
    #[inline]
    fn read(&self, e: u64, rest: u64) -> Option<(i64, i64)> {
        let mask = (1u64 << self.w) - 1;
        (e != 0 && e & !((1u64 << (2 * self.w)) - 1) == rest)
            .then(|| (self.decode((e >> self.w) & mask), self.decode(e & mask)))
    }

    /// The bounds known for `key`: `(lo, hi)` with `lo ≤ score ≤ hi`, or
    /// the widest when the table holds nothing for it.
    #[inline]
    fn probe(&self, key: u64) -> (i64, i64) {
        let (b, rest) = self.place(key);
        let (e0, e1) = (b[0].load(Ordering::Relaxed), b[1].load(Ordering::Relaxed));
        self.read(e0, rest)
            .or_else(|| self.read(e1, rest))
            .unwrap_or((-BIG, BIG))
    }

    /// Records the bounds `lo ≤ score ≤ hi` for `key` (merged with what the
    /// bucket holds for the same key).
    #[inline]
    fn store(&self, key: u64, lo: i64, hi: i64) {
        let (b, rest) = self.place(key);
        let (e0, e1) = (b[0].load(Ordering::Relaxed), b[1].load(Ordering::Relaxed));
        let (mut lo, mut hi) = (lo, hi);
        let at = if let Some((l, h)) = self.read(e0, rest) {
            lo = lo.max(l);
            hi = hi.min(h);
            0
        } else if let Some((l, h)) = self.read(e1, rest) {
            lo = lo.max(l);
            hi = hi.min(h);
            1
        } else {
            2
        };
        let e = rest | (self.code_lo(lo) << self.w) | self.code_hi(hi);
        if e == 0 {
            // The empty entry's word: nothing is kept.
            return;
        }
        match at {
            0 => b[0].store(e, Ordering::Relaxed),
            1 => {
                // The key found again moves first.
                b[1].store(e0, Ordering::Relaxed);
                b[0].store(e, Ordering::Relaxed);
            }
            _ => {
                b[1].store(e0, Ordering::Relaxed);
                b[0].store(e, Ordering::Relaxed);
            }
        }
    }
}

/// One slot: 24 bytes.
#[derive(Default)]
struct Slot {
    seq: AtomicU64,
    key: AtomicU64,
    bounds: AtomicU64,
}

/// Bytes a slot takes.
const LOCKED_SLOT_BYTES: u64 = std::mem::size_of::<Slot>() as u64;

/// A small table: a slot a key, the whole key and both bounds kept,
/// behind a sequence lock.
pub(crate) struct Locked {
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
fn mix_locked(key: u64) -> u64 {
    (key ^ (key >> 29)).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

impl Locked {
    /// A table of the most slots (a power of two, at least one) that fit
    /// in `bytes`, refused when `bytes` is over the budget's memory.
    fn new(bytes: u64, budget: &Budget) -> Result<Locked, TooLarge> {
        let what = "the search's transposition table";
        budget.check_memory(what, bytes)?;
        let n = (bytes / LOCKED_SLOT_BYTES).max(1);
        let n = 1u64 << (63 - n.leading_zeros());
        let len = usize::try_from(n).map_err(|_| budget.memory_error(what, bytes))?;
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(len)
            .map_err(|_| budget.memory_error(what, n * LOCKED_SLOT_BYTES))?;
        slots.resize_with(len, Slot::default);
        Ok(Locked { slots, mask: n - 1 })
    }

    /// The number of slots.
    fn bytes(&self) -> u64 {
        self.slots.len() as u64 * LOCKED_SLOT_BYTES
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        // The top bits of the mixed key: the low bits of a bitboard are
        // poorly spread.
        let i = mix_locked(key) >> (64 - self.mask.count_ones().max(1));
        &self.slots[(i & self.mask) as usize]
    }

    /// The bounds known for `key`: `(lo, hi)` with `lo ≤ score ≤ hi`, or
    /// the widest when the table holds nothing for it.
    #[inline]
    fn probe(&self, key: u64) -> (i64, i64) {
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
    fn store(&self, key: u64, lo: i64, hi: i64) {
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
        for bytes in [1 << 12, 1 << 20] {
            bounds_merge(&Table::new(bytes, &Budget::unlimited()).unwrap());
        }
        assert!(matches!(
            Table::new(1 << 12, &Budget::unlimited()),
            Ok(Table::Locked(_))
        ));
        let t = Table::new(1 << 20, &Budget::unlimited()).unwrap();
        assert!(matches!(t, Table::Compact(_)));
        assert_eq!(t.bytes(), 1 << 20);
    }

    fn bounds_merge(t: &Table) {
        assert_eq!(t.probe(7), (-BIG, BIG));
        t.store(7, -3, BIG);
        t.store(7, -BIG, 2);
        assert_eq!(t.probe(7), (-3, 2));
        t.store(7, 0, 0);
        assert_eq!(t.probe(7), (0, 0));
        // A key never stored misses, whatever shares its bucket.
        assert_eq!(t.probe(8 + (1 << 40)), (-BIG, BIG));
    }

    #[test]
    fn two_keys_of_one_bucket_are_both_kept() {
        let t = Compact::new(1 << 20, &Budget::unlimited()).unwrap();
        // Keys of one bucket, found by their mix.
        let b = |k: u64| mix(k) >> (64 - t.bits);
        let k0 = 12345u64;
        let k1 = (k0 + 1..).find(|&k| b(k) == b(k0)).unwrap();
        let k2 = (k1 + 1..).find(|&k| b(k) == b(k0)).unwrap();
        t.store(k0, 0, 0);
        t.store(k1, -BIG, -2 - BIG / 2);
        assert_eq!(t.probe(k0), (0, 0));
        assert_eq!(t.probe(k1).0, -BIG);
        // A third key drops the oldest.
        t.store(k2, 0, BIG);
        assert_eq!(t.probe(k0), (-BIG, BIG));
        assert_eq!(t.probe(k2), (0, BIG));
    }

    /// Every bound is rounded outwards, exactly kept where the code names
    /// it, and decodes to a score of the same order.
    #[test]
    fn codes_round_outwards() {
        for bytes in [1u64, 1 << 20, 1 << 22, 1 << 26, 1 << 30] {
            let t = Compact::new(bytes, &Budget::unlimited()).unwrap();
            let scores = (-BIG..-BIG + 300).chain(-300..300).chain(BIG - 300..=BIG);
            for s in scores {
                let (lo, hi) = (t.decode(t.code_lo(s)), t.decode(t.code_hi(s)));
                assert!(lo <= s && s <= hi, "{bytes} {s}: {lo} {hi}");
                let r = BIG - s.abs();
                if s.abs() <= 4 || r < t.side {
                    assert_eq!((lo, hi), (s, s), "{bytes} {s}");
                }
                assert!(t.code_lo(s) < 1 << t.w && t.code_hi(s) < 1 << t.w);
            }
        }
    }

    /// Every key is told apart from every other of its bucket: the kept bits
    /// and the bucket's number give the mix back, which is a bijection.
    #[test]
    fn keys_are_kept_whole() {
        let t = Compact::new(1 << 20, &Budget::unlimited()).unwrap();
        let mut seen = std::collections::HashSet::new();
        for k in (0..200_000u64).chain((1..200_000).map(|k| k << 20)) {
            let (b, rest) = t.place(k);
            let i = (b as *const [AtomicU64; 2] as usize - t.buckets.as_ptr() as usize) / 16;
            assert!(seen.insert((i, rest)), "{k}");
        }
    }

    #[test]
    fn over_budget_is_refused() {
        let err = Table::new(1 << 20, &Budget::unlimited().with_memory(1 << 10))
            .err()
            .unwrap();
        assert_eq!(err.needed, 1 << 20);
        // The smallest compact table is 1 MiB: a budget below it is refused.
        assert!(Compact::new(1, &Budget::unlimited().with_memory(1 << 19)).is_err());
    }
}
