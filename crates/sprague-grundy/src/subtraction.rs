//! Grundy sequences of subtraction games, fast, with proven periods.

use game_core::period::PeriodFinder;
use game_core::Budget;

use crate::{Error, PeriodProof};

/// A subtraction set: the amounts a move may take from a heap.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SubtractionSet {
    set: Vec<u64>,
}

/// The largest subtraction set accepted (values then fit in a byte).
pub const MAX_SET_LEN: usize = 255;

impl SubtractionSet {
    /// A set from its elements (any order; repeats ignored). At most
    /// [`MAX_SET_LEN`] distinct elements are held while reading them: a
    /// huge iterator is refused at its 256th distinct element, never
    /// collected.
    ///
    /// # Errors
    /// [`Error::EmptySet`], [`Error::ZeroInSet`], or [`Error::BadSet`] for
    /// more than [`MAX_SET_LEN`] elements.
    ///
    /// ```
    /// use sprague_grundy::{Error, SubtractionSet};
    /// assert_eq!(SubtractionSet::new([4, 1, 4])?.elements(), [1, 4]);
    /// let err = SubtractionSet::new(1..u64::MAX).unwrap_err();
    /// assert!(matches!(err, Error::BadSet { .. }), "{err}");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn new(set: impl IntoIterator<Item = u64>) -> Result<Self, Error> {
        // Sorted and distinct as it is read.
        let mut elements: Vec<u64> = Vec::new();
        for s in set {
            let Err(at) = elements.binary_search(&s) else {
                continue;
            };
            if elements.len() == MAX_SET_LEN {
                // 0, the least, would be first: the same error as a set
                // read whole.
                if elements[0] == 0 || s == 0 {
                    return Err(Error::ZeroInSet);
                }
                return Err(Error::BadSet {
                    why: format!("it has more than {MAX_SET_LEN} elements, the most supported"),
                });
            }
            elements.insert(at, s);
        }
        match elements.first() {
            None => Err(Error::EmptySet),
            Some(0) => Err(Error::ZeroInSet),
            Some(_) => Ok(SubtractionSet { set: elements }),
        }
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

    /// Steps of work [`SubtractionSet::values`] takes for `upto`: one a
    /// set element a heap.
    #[must_use]
    pub fn values_work(&self, upto: u64) -> u64 {
        upto.saturating_add(1)
            .saturating_mul(self.set.len() as u64 + 1)
    }

    /// g(0..=upto). Values are at most |S|, so a byte each; the mex of the
    /// values `g(n − s)` is taken over a 64-bit mask when |S| < 64 (one OR
    /// a set element, one count of trailing ones a heap), a 256-bit one
    /// otherwise. The table (a byte a heap) is checked against the memory
    /// really available before it is taken; [`SubtractionSet::values_with`]
    /// sets a budget for memory and work.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if the table does not fit in memory.
    ///
    /// ```
    /// let s = sprague_grundy::SubtractionSet::new([1, 3, 4])?;
    /// assert_eq!(s.values(13)?, [0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
    /// assert!(s.values(u64::MAX).is_err());
    /// # Ok::<(), sprague_grundy::Error>(())
    /// ```
    pub fn values(&self, upto: u64) -> Result<Vec<u8>, Error> {
        self.values_with(upto, &Budget::available())
    }

    /// [`SubtractionSet::values`] within `budget`: the table's memory and
    /// the [`SubtractionSet::values_work`] are checked before starting.
    ///
    /// # Errors
    /// [`Error::TooLarge`] over either limit.
    pub fn values_with(&self, upto: u64, budget: &Budget) -> Result<Vec<u8>, Error> {
        budget.check_work(
            &format!("g(0..={}) of a subtraction game", game_core::grouped(upto)),
            self.values_work(upto),
        )?;
        let mut g = budget.vec(
            &format!(
                "a table of g(0..={}) (a byte a heap)",
                game_core::grouped(upto)
            ),
            upto.saturating_add(1),
            0u8,
        )?;
        let n = g.len();
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
    /// set are always eventually periodic; `heaps` in the result says how
    /// many values it took. The search's memory is checked against the
    /// memory really available as it grows; [`SubtractionSet::period_with`]
    /// sets a budget for memory and work.
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the search would outgrow the memory (a set
    /// with a huge element needs a window of that many values).
    ///
    /// ```
    /// use sprague_grundy::SubtractionSet;
    /// let p = SubtractionSet::new([2, 3, 7])?.period()?;
    /// assert_eq!(p.period, 5);
    /// // A window of 10^12 values cannot be held: refused before starting.
    /// assert!(SubtractionSet::new([1_000_000_000_000])?.period().is_err());
    /// # Ok::<(), sprague_grundy::Error>(())
    /// ```
    pub fn period(&self) -> Result<PeriodProof, Error> {
        self.period_with(&Budget::available())
    }

    /// [`SubtractionSet::period`] within `budget`: refused at once if the
    /// first window (`max(S) + 1` values) cannot fit, stopped with
    /// [`Error::WorkSpent`] when the work budget (a step a set element and
    /// 50 for the hash table, a heap) is spent before a period is proven.
    ///
    /// # Errors
    /// [`Error::TooLarge`], [`Error::WorkSpent`].
    pub fn period_with(&self, budget: &Budget) -> Result<PeriodProof, Error> {
        let first = self.max().saturating_add(1);
        budget.check_memory(
            &format!(
                "a period search for a subtraction set with max(S) = {} (a window of max(S) values \
                 must repeat)",
                self.max()
            ),
            PeriodFinder::<u8>::bytes_for(first),
        )?;
        let k = usize::try_from(self.max()).map_err(|_| {
            budget.memory_error(
                "a period search with a window past the address space",
                u64::MAX,
            )
        })?;
        let mut finder = PeriodFinder::<u8>::new(k);
        let mut meter = budget.meter();
        // A take a set element, and a probe into the finder's hash table
        // (which outgrows the caches on long searches).
        let per_heap = self.set.len() as u64 + 50;
        let mut h = 0usize;
        loop {
            if !meter.spend(per_heap) {
                return Err(Error::WorkSpent {
                    heaps: h as u64,
                    steps: meter.limit(),
                    // How far the search would go is unknown: ten times
                    // the budget spent is the advice.
                    raise: budget
                        .work_advice_for(meter.limit().saturating_mul(10))
                        .into_owned(),
                });
            }
            let rows = finder.rows();
            let mut mask = [0u64; 4];
            for &s in self.set.iter().take_while(|&&s| s as usize <= h) {
                let v = rows[h - s as usize];
                mask[usize::from(v / 64)] |= 1 << (v % 64);
            }
            if let Some(p) = finder.push_within(mex256(&mask), budget)? {
                return Ok(PeriodProof {
                    preperiod: p.preperiod,
                    period: p.period,
                    heaps: h as u64 + 1,
                });
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
