//! The transposition table: buckets of two entries shared by every
//! thread, each entry one `u64` holding the rest of a key and true bounds
//! on its score.
//!
//! A key is mixed by a bijection of `u64`; the top bits of the mix pick a
//! bucket and the entry keeps all the other bits, so an entry names its
//! key exactly (no two keys share a bucket and the bits kept). The bounds
//! take the bits the bucket's number leaves free: `w` bits each (at most
//! 8), a code for a score that names losses and wins of the fewest
//! plies exactly and rounds any other bound *outwards* (a lower bound
//! down, an upper bound up), so every bound read is still true, only
//! weaker. An entry is written and read as one atomic word: a read never
//! mixes two writes, no lock is taken, and a store may be lost to a race
//! (what is kept is always proved), so the answer does not depend on what
//! the table kept, on how many threads shared it, or on which store won.
//!
//! A bucket fills one 16-byte line of two entries. Where the bucket's
//! number leaves bits (tables from 32 MiB), an entry also keeps its work,
//! the bit length of the nodes its search took: the first entry is the
//! one of more work, the second the newest (a new key goes first when its
//! work is at least the first's, which moves second; else it replaces the
//! second), so the results of long searches near the root outlive the
//! many short ones below them. Without room, the newest key goes first.

use std::sync::atomic::{fence, AtomicU64, Ordering};

use game_core::{Budget, TooLarge};

use crate::score::BIG;

/// Bytes a compact entry takes.
const SLOT_BYTES: u64 = 8;

/// The fewest buckets of a compact table: 2^16 (1 MiB), so that the
/// bounds have 8 bits each at least (wins and losses of up to 122 plies
/// named exactly); a smaller table is [`Locked`].
const MIN_BUCKETS: u64 = 1 << 16;

/// The most bits of a bound's code: wins and losses of up to 123 plies
/// named exactly, longer ones rounded outwards.
const MAX_CODE_BITS: u32 = 8;

/// The most bits of an entry's work (the log2 of the nodes its search
/// took), kept where the bucket's number leaves room.
const MAX_WORK_BITS: u32 = 5;

/// A table of buckets of two one-word entries.
pub(crate) struct Compact {
    buckets: Vec<[AtomicU64; 2]>,
    /// Bits of the bucket's number.
    bits: u32,
    /// Bits of each bound's code.
    w: u32,
    /// Bits of an entry's work, above the codes.
    work_bits: u32,
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

    /// Records the bounds `lo ≤ score ≤ hi` for `key`, proved by a search
    /// of `nodes` nodes, merged with what the table holds for it (a store
    /// may be dropped; what took more nodes is kept longer).
    #[inline]
    pub(crate) fn store(&self, key: u64, lo: i64, hi: i64, nodes: u64) {
        match self {
            Table::Compact(t) => t.store(key, lo, hi, nodes),
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
        let work_bits = (bits - 2 * w).min(MAX_WORK_BITS);
        Ok(Compact {
            buckets,
            bits,
            w,
            work_bits,
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
        (&self.buckets[i as usize], rest << self.shift())
    }

    /// Where the kept bits of the key start in an entry: above the codes
    /// and the work.
    #[inline]
    fn shift(&self) -> u32 {
        2 * self.w + self.work_bits
    }

    /// The work an entry holds.
    #[inline]
    fn work(&self, e: u64) -> u64 {
        (e >> (2 * self.w)) & ((1u64 << self.work_bits) - 1)
    }

    /// The work of a search of `nodes` nodes: its bit length, at most what
    /// the entry holds.
    #[inline]
    fn work_of(&self, nodes: u64) -> u64 {
        u64::from(64 - nodes.leading_zeros()).min((1u64 << self.work_bits) - 1)
    }

    /// An entry: the kept bits `rest`, the bounds, the work.
    #[inline]
    fn entry(&self, rest: u64, lo: i64, hi: i64, work: u64) -> u64 {
        rest | (work << (2 * self.w)) | (self.code_lo(lo) << self.w) | self.code_hi(hi)
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
        (e != 0 && e & !((1u64 << self.shift()) - 1) == rest)
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

    /// Records the bounds `lo ≤ score ≤ hi` for `key`, proved by a search
    /// of `nodes` nodes (merged with what the bucket holds for the same
    /// key). The first entry of a bucket keeps the one of more work, the
    /// second the newest: a new key goes first when its work is at least
    /// the first's (which moves second), else second.
    #[inline]
    fn store(&self, key: u64, lo: i64, hi: i64, nodes: u64) {
        let (b, rest) = self.place(key);
        let (e0, e1) = (b[0].load(Ordering::Relaxed), b[1].load(Ordering::Relaxed));
        let (mut lo, mut hi) = (lo, hi);
        let mut work = self.work_of(nodes);
        let at = if let Some((l, h)) = self.read(e0, rest) {
            lo = lo.max(l);
            hi = hi.min(h);
            work = work.max(self.work(e0));
            0
        } else if let Some((l, h)) = self.read(e1, rest) {
            lo = lo.max(l);
            hi = hi.min(h);
            work = work.max(self.work(e1));
            1
        } else {
            2
        };
        let e = self.entry(rest, lo, hi, work);
        if e == 0 {
            // The empty entry's word: nothing is kept.
            return;
        }
        match at {
            0 => b[0].store(e, Ordering::Relaxed),
            _ if e0 == 0 || work >= self.work(e0) => {
                // The key found again, or a new one, of work enough to go
                // first.
                b[1].store(e0, Ordering::Relaxed);
                b[0].store(e, Ordering::Relaxed);
            }
            _ => b[1].store(e, Ordering::Relaxed),
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
        t.store(7, -3, BIG, 1);
        t.store(7, -BIG, 2, 1);
        assert_eq!(t.probe(7), (-3, 2));
        t.store(7, 0, 0, 1);
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
        t.store(k0, 0, 0, 1);
        t.store(k1, -BIG, -2 - BIG / 2, 1);
        assert_eq!(t.probe(k0), (0, 0));
        assert_eq!(t.probe(k1).0, -BIG);
        // A third key drops the oldest.
        t.store(k2, 0, BIG, 1);
        assert_eq!(t.probe(k0), (-BIG, BIG));
        assert_eq!(t.probe(k2), (0, BIG));
    }

    /// With room for the work, the first entry keeps the key of most work
    /// while new keys of less take the second place in turn.
    #[test]
    fn the_entry_of_most_work_is_kept() {
        let t = Compact::new(1 << 25, &Budget::unlimited()).unwrap();
        assert!(t.work_bits >= 4, "{}", t.work_bits);
        let b = |k: u64| mix(k) >> (64 - t.bits);
        let mut same = (1u64..).filter(|&k| b(k) == b(0));
        let (k0, k1, k2, k3) = (
            0,
            same.next().unwrap(),
            same.next().unwrap(),
            same.next().unwrap(),
        );
        t.store(k0, 0, BIG, 1 << 10);
        t.store(k1, 0, BIG, 3);
        t.store(k2, -BIG, 0, 5);
        // k0 (work 11) stays; k2 replaced k1 in the second place.
        assert_eq!(t.probe(k0), (0, BIG));
        assert_eq!(t.probe(k1), (-BIG, BIG));
        assert_eq!(t.probe(k2), (-BIG, 0));
        // More work than k0's goes first, k0 second.
        t.store(k3, 0, 0, 1 << 20);
        assert_eq!(t.probe(k3), (0, 0));
        assert_eq!(t.probe(k0), (0, BIG));
        assert_eq!(t.probe(k2), (-BIG, BIG));
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
