//! Grundy sequences of subtraction games, fast, with proven periods.

use game_core::period::PeriodFinder;

use crate::{Error, PeriodProof};

/// A subtraction set: the amounts a move may take from a heap.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SubtractionSet {
    set: Vec<u64>,
}

/// The largest subtraction set accepted (values then fit in a byte).
pub const MAX_SET_LEN: usize = 255;

/// The most heaps [`SubtractionSet::values`] computes at once.
pub const MAX_HEAPS: u64 = 1 << 34;

impl SubtractionSet {
    /// A set from its elements (any order; repeats ignored).
    ///
    /// # Errors
    /// [`Error::EmptySet`], [`Error::ZeroInSet`], or [`Error::TooLarge`]
    /// for more than [`MAX_SET_LEN`] elements.
    pub fn new(set: impl IntoIterator<Item = u64>) -> Result<Self, Error> {
        let mut set: Vec<u64> = set.into_iter().collect();
        set.sort_unstable();
        set.dedup();
        if set.is_empty() {
            return Err(Error::EmptySet);
        }
        if set[0] == 0 {
            return Err(Error::ZeroInSet);
        }
        if set.len() > MAX_SET_LEN {
            return Err(Error::TooLarge {
                what: "the subtraction set",
                size: set.len() as u64,
                limit: MAX_SET_LEN as u64,
            });
        }
        Ok(SubtractionSet { set })
    }

    /// The elements, ascending.
    #[must_use]
    pub fn elements(&self) -> &[u64] {
        &self.set
    }

    /// The largest element: each value depends on the `max` values before it.
    #[must_use]
    pub fn max(&self) -> u64 {
        *self.set.last().expect("never empty")
    }

    /// g(0..=upto). Values are at most |S|, so a byte each; the mex of the
    /// values `g(n − s)` is taken over a 64-bit mask when |S| < 64 (one OR
    /// a set element, one count of trailing ones a heap), a 256-bit one
    /// otherwise.
    ///
    /// # Errors
    /// [`Error::TooLarge`] above [`MAX_HEAPS`].
    ///
    /// ```
    /// let s = sprague_grundy::SubtractionSet::new([1, 3, 4])?;
    /// assert_eq!(s.values(13)?, [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
    /// # Ok::<(), sprague_grundy::Error>(())
    /// ```
    pub fn values(&self, upto: u64) -> Result<Vec<u8>, Error> {
        if upto >= MAX_HEAPS {
            return Err(Error::TooLarge {
                what: "the number of heaps",
                size: upto,
                limit: MAX_HEAPS,
            });
        }
        let n = upto as usize + 1;
        let mut g = vec![0u8; n];
        let k = self.max() as usize;
        // Heaps below max(S): only the elements that fit.
        for h in 0..n.min(k) {
            let mut mask = [0u64; 4];
            for &s in self.set.iter().take_while(|&&s| s as usize <= h) {
                let v = g[h - s as usize];
                mask[usize::from(v / 64)] |= 1 << (v % 64);
            }
            g[h] = mex256(&mask);
        }
        // Offsets into the window g[h-k .. h] of g(h - s).
        let offs: Vec<usize> = self.set.iter().map(|&s| k - s as usize).collect();
        if self.set.len() < 64 {
            for h in k..n {
                let w = &g[h - k..h];
                let mut m = 0u64;
                for &o in &offs {
                    m |= 1 << w[o];
                }
                g[h] = (!m).trailing_zeros() as u8;
            }
        } else {
            for h in k..n {
                let w = &g[h - k..h];
                let mut mask = [0u64; 4];
                for &o in &offs {
                    let v = w[o];
                    mask[usize::from(v / 64)] |= 1 << (v % 64);
                }
                g[h] = mex256(&mask);
            }
        }
        Ok(g)
    }

    /// The minimal preperiod and period of the Grundy sequence, proven:
    /// each value depends only on the `max(S)` before it, so once a window
    /// of `max(S)` consecutive values repeats, the sequence repeats from
    /// there (see [`game_core::period`]). Subtraction games with a finite
    /// set are always eventually periodic, so this always ends; `heaps` in
    /// the result says how many values it took.
    ///
    /// ```
    /// let p = sprague_grundy::SubtractionSet::new([2, 3, 7])?.period();
    /// assert_eq!(p.period, 5);
    /// # Ok::<(), sprague_grundy::Error>(())
    /// ```
    #[must_use]
    pub fn period(&self) -> PeriodProof {
        let k = self.max() as usize;
        let mut finder = PeriodFinder::<u8>::new(k);
        let mut h = 0usize;
        loop {
            let rows = finder.rows();
            let mut mask = [0u64; 4];
            for &s in self.set.iter().take_while(|&&s| s as usize <= h) {
                let v = rows[h - s as usize];
                mask[usize::from(v / 64)] |= 1 << (v % 64);
            }
            if let Some(p) = finder.push(mex256(&mask)) {
                return PeriodProof {
                    preperiod: p.preperiod,
                    period: p.period,
                    heaps: h as u64 + 1,
                };
            }
            h += 1;
        }
    }
}

fn mex256(mask: &[u64; 4]) -> u8 {
    for (i, &w) in mask.iter().enumerate() {
        if w != u64::MAX {
            return (i as u32 * 64 + (!w).trailing_zeros()) as u8;
        }
    }
    255
}
