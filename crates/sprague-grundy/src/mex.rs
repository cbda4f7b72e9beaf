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

/// A set of small integers for computing a mex: a bitset of 64-bit words
/// that grows as needed, plus a fast path for values below 64.
///
/// ```
/// use sprague_grundy::MexSet;
/// let mut s = MexSet::new();
/// s.insert(0);
/// s.insert(1);
/// s.insert(200);
/// assert_eq!(s.mex(), 2);
/// s.clear();
/// assert_eq!(s.mex(), 0);
/// ```
#[derive(Debug, Clone, Default)]
pub struct MexSet {
    words: Vec<u64>,
}

impl MexSet {
    /// An empty set.
    #[must_use]
    pub fn new() -> Self {
        MexSet { words: vec![0] }
    }

    /// Adds `v`. Values far beyond the set's size cannot change a mex
    /// smaller than the number of values inserted, but are stored anyway.
    #[inline]
    pub fn insert(&mut self, v: u64) {
        let w = (v / 64) as usize;
        if w >= self.words.len() {
            self.words.resize(w + 1, 0);
        }
        self.words[w] |= 1 << (v % 64);
    }

    /// Whether `v` is in the set.
    #[must_use]
    pub fn contains(&self, v: u64) -> bool {
        self.words
            .get((v / 64) as usize)
            .is_some_and(|w| w >> (v % 64) & 1 == 1)
    }

    /// Empties the set, keeping its memory.
    pub fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }

    /// The smallest value not in the set.
    #[must_use]
    pub fn mex(&self) -> u64 {
        for (i, &w) in self.words.iter().enumerate() {
            if w != u64::MAX {
                return i as u64 * 64 + u64::from((!w).trailing_zeros());
            }
        }
        self.words.len() as u64 * 64
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
    }
}
