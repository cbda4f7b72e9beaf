//! mex and nim-sum.

/// The minimum excludant: the smallest non-negative integer not among
/// `values`.
///
/// ```
/// assert_eq!(sprague_grundy::mex([0, 1, 3]), 2);
/// assert_eq!(sprague_grundy::mex([]), 0);
/// assert_eq!(sprague_grundy::mex([5, 0, 1, 2, 3, 4]), 6);
/// ```
pub fn mex(values: impl IntoIterator<Item = u64>) -> u64 {
    let mut set = MexSet::new();
    for v in values {
        set.insert(v);
    }
    set.mex()
}

/// The nim-sum (XOR) of Grundy values: a sum of games is lost for the
/// player to move exactly when it is 0.
///
/// ```
/// assert_eq!(sprague_grundy::nim_sum([1, 2, 3]), 0);
/// assert_eq!(sprague_grundy::nim_sum([7, 4, 1]), 2);
/// ```
pub fn nim_sum(values: impl IntoIterator<Item = u64>) -> u64 {
    values.into_iter().fold(0, |a, b| a ^ b)
}

/// A set of integers for computing a mex: a bitset of 64-bit words that
/// grows with the values inserted, plus a fast path for values below 64.
///
/// The bitset never grows past about twice the number of values inserted
/// (a mex is at most that number), so any `u64` can be inserted: values
/// beyond the bitset are kept in a side list, which the mex consults only
/// when the bitset is full.
///
/// ```
/// use sprague_grundy::MexSet;
/// let mut s = MexSet::new();
/// s.insert(0);
/// s.insert(1);
/// s.insert(200);
/// s.insert(u64::MAX);
/// assert_eq!(s.mex(), 2);
/// assert!(s.contains(u64::MAX));
/// s.clear();
/// assert_eq!(s.mex(), 0);
/// ```
#[derive(Debug, Clone, Default)]
pub struct MexSet {
    words: Vec<u64>,
    /// Values inserted since the last clear (bounds the bitset).
    count: u64,
    /// Values too far beyond the bitset to grow it for.
    large: Vec<u64>,
}

impl MexSet {
    /// An empty set.
    #[must_use]
    pub fn new() -> Self {
        MexSet {
            words: vec![0],
            count: 0,
            large: Vec::new(),
        }
    }

    /// Adds `v`.
    #[inline]
    pub fn insert(&mut self, v: u64) {
        self.count += 1;
        let w = v / 64;
        if w < self.words.len() as u64 {
            self.words[w as usize] |= 1 << (v % 64);
        } else if w <= 2 * (self.count / 64) + 2 {
            self.words.resize(w as usize + 1, 0);
            self.words[w as usize] |= 1 << (v % 64);
        } else {
            self.large.push(v);
        }
    }

    fn in_bits(&self, v: u64) -> bool {
        self.words
            .get(usize::try_from(v / 64).unwrap_or(usize::MAX))
            .is_some_and(|w| w >> (v % 64) & 1 == 1)
    }

    /// Whether `v` is in the set.
    #[must_use]
    pub fn contains(&self, v: u64) -> bool {
        self.in_bits(v) || self.large.contains(&v)
    }

    /// Empties the set, keeping its memory.
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
        self.count = 0;
        self.large.clear();
    }

    /// The smallest value not in the set.
    #[must_use]
    pub fn mex(&self) -> u64 {
        let mut m = self.words.len() as u64 * 64;
        for (i, &w) in self.words.iter().enumerate() {
            if w != u64::MAX {
                m = i as u64 * 64 + u64::from((!w).trailing_zeros());
                break;
            }
        }
        if self.large.is_empty() {
            return m;
        }
        // Slow path, only with values far beyond the bitset: walk up from
        // the first gap of the bitset past the values present.
        let mut large = self.large.clone();
        large.sort_unstable();
        while self.in_bits(m) || large.binary_search(&m).is_ok() {
            m += 1;
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn mex_is_the_smallest_missing(values in prop::collection::vec(0u64..200, 0..60)) {
            let m = mex(values.iter().copied());
            prop_assert!(!values.contains(&m));
            for v in 0..m {
                prop_assert!(values.contains(&v));
            }
        }

        /// Any values, huge ones included, in any order: the same mex as the
        /// definition, and membership kept, with a bitset no larger than the
        /// values inserted call for.
        #[test]
        fn huge_values_neither_abort_nor_change_the_mex(
            small in prop::collection::vec(0u64..300, 0..200),
            huge in prop::collection::vec(prop_oneof![Just(u64::MAX), 1u64 << 40..u64::MAX, 64u64..100_000], 0..20),
        ) {
            let mut all = small.clone();
            all.extend(&huge);
            all.sort_unstable();
            let want = (0u64..).find(|v| all.binary_search(v).is_err()).unwrap();
            // Small values first, then huge ones; and largest first.
            let orders = [
                small.iter().chain(&huge).copied().collect::<Vec<_>>(),
                all.iter().rev().copied().collect(),
            ];
            for order in orders {
                let mut s = MexSet::new();
                for &v in &order {
                    s.insert(v);
                }
                prop_assert_eq!(s.mex(), want);
                for &v in &all {
                    prop_assert!(s.contains(v));
                }
                prop_assert!(s.words.len() as u64 <= 2 * (all.len() as u64 / 64) + 3);
            }
        }
    }
}
