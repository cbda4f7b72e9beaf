//! Proven periodicity of sequences whose next term depends on a window of
//! the previous ones.
//!
//! Many games have positions that form rows `0, 1, 2, …` where row `n`
//! (for `n >= k`) is a function of rows `n-k .. n` alone, taken in order:
//! subtraction games with largest take `k`, Stones with `max_take = k`,
//! Grundy values of subtraction games. Such a sequence is eventually
//! periodic, and the proof criterion is simple:
//!
//! > if the `k` rows starting at `j` equal the `k` rows starting at `i > j`,
//! > then `row(n + (i - j)) = row(n)` for every `n >= j`,
//!
//! because the window determines every later row. [`PeriodFinder`] hashes
//! each window as rows arrive (a rolling hash, O(1) a row, confirmed by a
//! direct comparison) and stops at the *first* window that repeats an
//! earlier one. That first repeat gives the minimal preperiod and the
//! minimal period: if the sequence is periodic from `L` with minimal period
//! `P`, the window at `L + P` repeats the one at `L`, and no earlier window
//! can repeat (a repeat at `j < L` would make the sequence periodic from
//! `j`; a repeat at `i < L + P` would give a period smaller than `P`).

use rustc_hash::FxHashMap;

use crate::budget::{Budget, TooLarge};

/// Where a sequence becomes periodic, and its period.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Period {
    /// The first index from which the sequence is periodic (0 for a purely
    /// periodic sequence).
    pub preperiod: u64,
    /// The smallest `p > 0` with `row(n + p) = row(n)` for all `n >= preperiod`.
    pub period: u64,
}

impl Period {
    /// The index in `0 .. preperiod + period` whose row equals row `n`.
    ///
    /// # Panics
    /// Panics if `period` is 0 for an `n >= preperiod` (no
    /// [`PeriodFinder`] makes such a `Period`; one built by hand has no
    /// index to reduce to).
    #[must_use]
    pub const fn reduce(&self, n: u64) -> u64 {
        if n < self.preperiod {
            n
        } else {
            self.preperiod + (n - self.preperiod) % self.period
        }
    }
}

const BASE: u64 = 0x0000_0100_0000_01B3;

/// Finds the minimal preperiod and period of a sequence of rows in which each
/// row from `k` on is determined by the `k` rows before it.
///
/// Feed rows in order with [`PeriodFinder::push`]; it answers `Some(period)`
/// as soon as periodicity is *proven*. Each push costs O(1) expected time
/// (rolling hash plus one hash-table probe; a hash match is confirmed by
/// comparing the two windows, so a collision never gives a wrong answer).
/// Memory: the rows seen so far plus a hash-table entry a window (16
/// bytes and a control byte, in a table of a power of two buckets: 20 to
/// 39 bytes a window; [`PeriodFinder::bytes_for`]).
///
/// ```
/// use game_core::period::{Period, PeriodFinder};
/// // Fibonacci numbers mod 3: each term depends on the two before it.
/// let mut finder = PeriodFinder::new(2);
/// let (mut a, mut b) = (0u8, 1u8);
/// let period = loop {
///     if let Some(p) = finder.push(a) {
///         break p;
///     }
///     (a, b) = (b, (a + b) % 3);
/// };
/// assert_eq!(period, Period { preperiod: 0, period: 8 });
/// ```
#[derive(Debug, Clone)]
pub struct PeriodFinder<R> {
    k: usize,
    rows: Vec<R>,
    hash: u64,
    base_pow: u64,
    // window hash -> start of the first window with that hash
    first: FxHashMap<u64, u64>,
    // windows whose hash collided with a different earlier window
    collided: Vec<(u64, u64)>,
    found: Option<Period>,
}

impl<R: Copy + Eq + Into<u64>> PeriodFinder<R> {
    /// A finder for rows that depend on the `k` rows before them.
    ///
    /// `k = 0` (rows that depend on none before them) is taken as `k = 1`:
    /// such rows also depend, trivially, on the one before, so every
    /// period proven with a window of one row holds for them (and a
    /// constant sequence is proven periodic at its second row, as it would
    /// be with no window at all).
    ///
    /// ```
    /// use game_core::period::{Period, PeriodFinder};
    /// let mut finder = PeriodFinder::new(0);
    /// assert_eq!(finder.window(), 1);
    /// assert_eq!(finder.push(7u8), None);
    /// assert_eq!(finder.push(7u8), Some(Period { preperiod: 0, period: 1 }));
    /// ```
    #[must_use]
    pub fn new(k: usize) -> Self {
        let k = k.max(1);
        // BASE^(k − 1) by squaring: a window of 2⁶² rows (a subtraction
        // set holding 2⁶²) took 2⁶² multiplies before the caller's first
        // work check.
        let (mut base_pow, mut factor, mut exp) = (1u64, BASE, k as u64 - 1);
        while exp > 0 {
            if exp & 1 == 1 {
                base_pow = base_pow.wrapping_mul(factor);
            }
            factor = factor.wrapping_mul(factor);
            exp >>= 1;
        }
        PeriodFinder {
            k,
            rows: Vec::new(),
            hash: 0,
            base_pow,
            first: FxHashMap::default(),
            collided: Vec::new(),
            found: None,
        }
    }

    /// The window length `k`.
    #[must_use]
    pub fn window(&self) -> usize {
        self.k
    }

    /// The rows pushed so far.
    #[must_use]
    pub fn rows(&self) -> &[R] {
        &self.rows
    }

    /// The proven period, once found.
    #[must_use]
    pub fn period(&self) -> Option<Period> {
        self.found
    }

    /// Bytes a finder holding `rows` rows takes, about: the rows themselves
    /// and a hash table made for one entry (16 bytes) per window, its
    /// buckets a power of two at most 7/8 full with a control byte each
    /// (as [`memo_bytes`](crate::budget::memo_bytes) counts). A search that
    /// must see `n` rows needs at least this much.
    #[must_use]
    pub fn bytes_for(rows: u64) -> u64 {
        rows.saturating_mul(std::mem::size_of::<R>() as u64)
            .saturating_add(crate::budget::hash_table_bytes(rows, 16))
    }

    /// [`PeriodFinder::push`], checking first that the memory the finder
    /// is about to grow to fits in `budget` (the row vector and the hash
    /// table double when full; both copies live while they move). The
    /// memory is taken with fallible allocations, so a refusal by the
    /// system is an error too, never an abort.
    ///
    /// # Errors
    /// A [`TooLarge`] for memory, the row not pushed.
    ///
    /// ```
    /// use game_core::budget::Budget;
    /// use game_core::period::PeriodFinder;
    /// // A sequence with no period: 0, 1, 2, ... mod 2^32, in 1 MiB.
    /// let budget = Budget::unlimited().with_memory(1 << 20);
    /// let mut finder = PeriodFinder::<u32>::new(1);
    /// let err = (0u32..).find_map(|n| finder.push_within(n, &budget).err()).unwrap();
    /// assert!(err.needed > 1 << 20);
    /// assert!(finder.rows().len() < 1 << 17);
    /// ```
    pub fn push_within(&mut self, row: R, budget: &Budget) -> Result<Option<Period>, TooLarge> {
        let n = self.rows.len();
        if n == self.rows.capacity()
            || (self.found.is_none() && self.first.len() == self.first.capacity())
        {
            let target = (n as u64).saturating_mul(2).max(64);
            let bytes = Self::bytes_for(target).saturating_add(Self::bytes_for(n as u64));
            let refuse = || {
                budget.memory_error(
                    format!(
                        "a period search past {n} rows (a period is proven once a window of {} rows repeats)",
                        self.k
                    ),
                    bytes,
                )
            };
            if bytes > budget.memory() {
                return Err(refuse());
            }
            let more = usize::try_from(target).unwrap_or(usize::MAX) - n;
            if self.rows.try_reserve_exact(more).is_err()
                || (self.found.is_none() && self.first.try_reserve(more).is_err())
            {
                return Err(refuse());
            }
        }
        Ok(self.push(row))
    }

    /// Appends the next row. Returns the period once it is proven (and keeps
    /// returning it; rows pushed after that are stored but change nothing).
    pub fn push(&mut self, row: R) -> Option<Period> {
        let n = self.rows.len();
        self.rows.push(row);
        if self.found.is_some() {
            return self.found;
        }
        if n >= self.k {
            let old: u64 = self.rows[n - self.k].into();
            self.hash = self
                .hash
                .wrapping_sub(old.wrapping_add(1).wrapping_mul(self.base_pow));
        }
        let v: u64 = row.into();
        self.hash = self.hash.wrapping_mul(BASE).wrapping_add(v.wrapping_add(1));
        if n + 1 < self.k {
            return None;
        }
        let start = (n + 1 - self.k) as u64;
        let h = self.hash;
        match self.first.get(&h) {
            None => {
                self.first.insert(h, start);
            }
            Some(&j) => {
                if self.same(j, start) {
                    return self.finish(j, start);
                }
                let hit = self
                    .collided
                    .iter()
                    .find(|&&(ch, cj)| ch == h && self.same(cj, start))
                    .map(|&(_, cj)| cj);
                if let Some(cj) = hit {
                    return self.finish(cj, start);
                }
                self.collided.push((h, start));
            }
        }
        None
    }

    fn same(&self, a: u64, b: u64) -> bool {
        let (a, b) = (a as usize, b as usize);
        self.rows[a..a + self.k] == self.rows[b..b + self.k]
    }

    fn finish(&mut self, j: u64, i: u64) -> Option<Period> {
        self.found = Some(Period {
            preperiod: j,
            period: i - j,
        });
        self.first = FxHashMap::default();
        self.collided = Vec::new();
        self.found
    }
}

/// Brute-force reference for tests: the first window of `k` rows that
/// repeats an earlier one, found by comparing every pair.
#[cfg(test)]
pub(crate) fn brute_period<R: Eq>(rows: &[R], k: usize) -> Option<Period> {
    // First i with a j < i and rows[j..j+k] == rows[i..i+k].
    for i in 0..rows.len().saturating_sub(k - 1) {
        for j in 0..i {
            if rows[j..j + k] == rows[i..i + k] {
                return Some(Period {
                    preperiod: j as u64,
                    period: (i - j) as u64,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The window's power of the base is the plain product for small
    /// windows, and a window of 2⁶² rows is made at once (it took 2⁶²
    /// multiplies).
    #[test]
    fn the_base_power_is_made_by_squaring() {
        let mut plain = 1u64;
        for k in 1..200 {
            assert_eq!(PeriodFinder::<u8>::new(k).base_pow, plain, "k = {k}");
            plain = plain.wrapping_mul(BASE);
        }
        let _ = PeriodFinder::<u8>::new(usize::MAX / 2);
    }

    fn run(k: usize, rows: &[u8]) -> Option<Period> {
        let mut f = PeriodFinder::new(k);
        rows.iter().find_map(|&r| f.push(r))
    }

    #[test]
    fn pure_and_preperiodic() {
        let p = |preperiod, period| Some(Period { preperiod, period });
        assert_eq!(run(1, &[5, 1, 2, 1, 2]), p(1, 2));
        assert_eq!(
            run(2, &[0, 1, 1, 0, 1, 1, 0]),
            Some(Period {
                preperiod: 0,
                period: 3
            })
        );
    }

    #[test]
    fn push_within_proves_the_same_period_or_refuses() {
        let rows = [5u8, 1, 2, 1, 2];
        let mut f = PeriodFinder::new(1);
        let roomy = Budget::unlimited();
        let got = rows.iter().find_map(|&r| f.push_within(r, &roomy).unwrap());
        assert_eq!(got, run(1, &rows));
        let mut f = PeriodFinder::<u8>::new(1);
        let err = f
            .push_within(0, &Budget::unlimited().with_memory(100))
            .unwrap_err();
        assert_eq!(err.available, 100);
        assert!(f.rows().is_empty());
    }

    /// The memory a finder really holds: its rows and its hash table
    /// (hashbrown: a power of two of buckets, a 16-byte entry and a
    /// control byte each, at most 7/8 full).
    fn held<R>(f: &PeriodFinder<R>) -> u64 {
        let cap = f.first.capacity() as u64;
        let buckets = if cap == 0 {
            0
        } else {
            (cap * 8 / 7).next_power_of_two()
        };
        f.rows.capacity() as u64 * std::mem::size_of::<R>() as u64 + buckets * 17
    }

    /// `push_within` never lets the finder grow past its budget, both
    /// copies counted while they move: the hash table's buckets are a
    /// power of two, which `bytes_for` once left out (a third too few).
    #[test]
    fn push_within_stays_within_the_budget() {
        for memory in [1u64 << 14, 3 << 14, 1 << 16, 5 << 15, 1 << 20, 3 << 19] {
            let budget = Budget::unlimited().with_memory(memory);
            let mut f = PeriodFinder::<u32>::new(1);
            for n in 0u32.. {
                let before = held(&f);
                if f.push_within(n, &budget).is_err() {
                    break;
                }
                let after = held(&f);
                let peak = if after == before {
                    after
                } else {
                    before + after
                };
                assert!(peak <= memory, "{peak} bytes held in a budget of {memory}");
            }
        }
    }

    #[test]
    fn reduce_maps_into_first_cycle() {
        let p = Period {
            preperiod: 3,
            period: 4,
        };
        assert_eq!(p.reduce(2), 2);
        assert_eq!(p.reduce(3), 3);
        assert_eq!(p.reduce(7), 3);
        // u64::MAX - 3 is a multiple of 4.
        assert_eq!(p.reduce(u64::MAX), 3);
        assert_eq!(p.reduce(u64::MAX - 1), 6);
    }

    /// A hand-made period of 0 panics as documented, and only past the
    /// preperiod.
    #[test]
    #[should_panic(expected = "remainder with a divisor of zero")]
    fn reduce_by_a_period_of_zero_panics() {
        let p = Period {
            preperiod: 2,
            period: 0,
        };
        assert_eq!(p.reduce(1), 1);
        let _ = p.reduce(2);
    }

    proptest! {
        // A random linear recurrence mod 4 of order k: the finder must find
        // exactly the first window repeat, and that must be a true period of
        // the long sequence (checked far beyond the detection point).
        #[test]
        fn matches_brute_force(k in 1usize..5, coef in prop::collection::vec(0u8..4, 5), seed in prop::collection::vec(0u8..4, 5)) {
            let mut rows: Vec<u8> = seed[..k].to_vec();
            while rows.len() < 2000 {
                let n = rows.len();
                let next = (0..k).map(|i| coef[i] as u32 * rows[n - k + i] as u32).sum::<u32>() + 1;
                rows.push((next % 4) as u8);
            }
            let got = run(k, &rows);
            let want = brute_period(&rows, k);
            prop_assert_eq!(got, want);
            let p = got.unwrap();
            for n in p.preperiod as usize..rows.len() - p.period as usize {
                prop_assert_eq!(rows[n], rows[n + p.period as usize]);
            }
            if p.preperiod > 0 {
                let l = p.preperiod as usize;
                prop_assert_ne!(rows[l - 1], rows[l - 1 + p.period as usize]);
            }
        }
    }
}
