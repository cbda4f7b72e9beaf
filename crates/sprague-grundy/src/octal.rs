//! Octal games: heap games given by a code such as `0.77` (Kayles).
//!
//! Digit `d_t` of the code says what a move that removes `t` tokens from one
//! heap may leave: bit 1 — nothing (the heap had exactly `t`), bit 2 — one
//! heap, bit 4 — two non-empty heaps. The digit before the point is `t = 0`:
//! `4` there lets a move split a heap in two without removing anything
//! (`4.777`). Grundy value: g(n) = mex of 0 (bit 1, n = t), g(n − t)
//! (bit 2, n > t) and g(a) ⊕ g(n − t − a) (bit 4, a, n − t − a ≥ 1).

use std::fmt;
use std::str::FromStr;

use game_core::budget::{Budget, Meter};

use crate::{Error, PeriodProof};

/// An octal game's code.
///
/// ```
/// use sprague_grundy::OctalCode;
/// let kayles: OctalCode = "0.77".parse()?;
/// assert_eq!(kayles.values(11)?, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
/// let p = kayles.period(10_000)?;
/// assert_eq!((p.preperiod, p.period), (71, 12));
/// # Ok::<(), sprague_grundy::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OctalCode {
    /// `digits[t]`, t = 0 for the digit before the point; no trailing zeros.
    digits: Vec<u8>,
}

impl FromStr for OctalCode {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        let bad = |why| Error::BadCode {
            code: s.to_string(),
            why,
        };
        let (before, after) = s
            .trim()
            .split_once('.')
            .ok_or_else(|| bad("it needs a point, as in 0.77"))?;
        let d0 = match before {
            "" | "0" => 0,
            "4" => 4,
            _ => return Err(bad("the digit before the point must be 0 or 4")),
        };
        let mut digits = vec![d0];
        for c in after.chars() {
            let d = c
                .to_digit(8)
                .ok_or_else(|| bad("digits after the point must be 0 to 7"))?;
            digits.push(d as u8);
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        // 4.0 is a game: a heap splits in two, nothing taken.
        if digits == [0] {
            return Err(bad("no move is allowed: some digit must be non-zero"));
        }
        Ok(OctalCode { digits })
    }
}

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.", self.digits[0])?;
        for d in &self.digits[1..] {
            write!(f, "{d}")?;
        }
        if self.digits.len() == 1 {
            // 4.0: splits only.
            f.write_str("0")?;
        }
        Ok(())
    }
}

impl OctalCode {
    /// The digit for removing `t` tokens (0 past the end of the code).
    #[must_use]
    pub fn digit(&self, t: usize) -> u8 {
        self.digits.get(t).copied().unwrap_or(0)
    }

    /// The largest number of tokens a move removes (the last non-zero
    /// digit's place), the `t` of the periodicity theorem.
    #[must_use]
    pub fn max_take(&self) -> usize {
        self.digits.len() - 1
    }

    /// g(0..=upto) by the plain method: every split of every heap, O(n²).
    /// Checked like [`OctalCode::values`].
    ///
    /// # Errors
    /// As [`OctalCode::values`].
    pub fn values_plain(&self, upto: usize) -> Result<Vec<u32>, Error> {
        let budget = Budget::available();
        let len = table_len(upto, &budget)?;
        let mut c = Computer::new(self);
        let mut meter = budget.meter();
        c.extend_within(len, &mut meter, &budget)?;
        Ok(c.g)
    }

    /// Whether a move may split a heap in two (a digit with bit 4): then
    /// a heap has about n/2 splits and plain computation is quadratic.
    #[must_use]
    pub fn splits(&self) -> bool {
        self.digits.iter().any(|d| d & 4 != 0)
    }

    /// Steps of work g(0..=upto) takes by the plain method: every take of
    /// every heap, and every split (n/2 for each splitting digit).
    #[must_use]
    pub fn plain_work(&self, upto: u64) -> u64 {
        let n = upto.saturating_add(1);
        let digits = self.digits.len() as u64;
        let splits = self.digits.iter().filter(|d| *d & 4 != 0).count() as u64;
        // Σ_{h < n} h/2 = n²/4 for each splitting digit.
        n.saturating_mul(digits)
            .saturating_add(splits.saturating_mul(n.saturating_mul(n) / 4))
    }

    /// g(0..=upto) by the rare/common method where the game has a sparse
    /// split (see [`Computer`]), else the plain one; values past a period
    /// proven on the way are read off the period. Same values. Checked
    /// against the memory really available (4 bytes a heap) before the
    /// table is taken; [`OctalCode::values_with`] sets a budget.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if the table does not fit.
    pub fn values(&self, upto: usize) -> Result<Vec<u32>, Error> {
        self.values_with(upto, &Budget::available())
    }

    /// [`OctalCode::values`] within `budget`. The table's memory is checked
    /// first, and so is the least work it can take (every take of every
    /// heap); the splits, whose cost the rare/common method makes hard to
    /// foresee, are metered as they go, and the computation stops with
    /// [`Error::TooLarge`] when the work budget is spent.
    ///
    /// # Errors
    /// [`Error::TooLarge`] for memory or work.
    ///
    /// ```
    /// use game_core::budget::Budget;
    /// use sprague_grundy::OctalCode;
    /// let kayles: OctalCode = "0.77".parse()?;
    /// // Past its proven period (preperiod 71, period 12) values cost nothing.
    /// let g = kayles.values_with(1_000_000, &Budget::available().with_work(10_000_000))?;
    /// assert_eq!(g[1_000_000], g[1_000_000 - 12]);
    /// // Officers (0.6) has no known period: a million heaps are quadratic work.
    /// let officers: OctalCode = "0.6".parse()?;
    /// assert!(officers.values_with(1_000_000, &Budget::available().with_work(10_000_000)).is_err());
    /// # Ok::<(), sprague_grundy::Error>(())
    /// ```
    pub fn values_with(&self, upto: usize, budget: &Budget) -> Result<Vec<u32>, Error> {
        let len = table_len(upto, budget)?;
        let what = || {
            format!(
                "g(0..={}) of the octal game {self}",
                game_core::grouped(upto as u64)
            )
        };
        let least = (len as u64).saturating_mul(self.digits.len() as u64);
        budget.check_work(&what(), least)?;
        let t = self.max_take();
        let mut c = Computer::new(self);
        let mut meter = budget.meter();
        let spent = |c: &Computer<'_>, meter: &Meter| -> Error {
            // Extrapolate from the cost so far: quadratic with splits.
            let done = c.g.len().max(1) as f64;
            let ratio = len as f64 / done;
            let factor = if self.splits() { ratio * ratio } else { ratio };
            let needed = (meter.used() as f64 * factor).max(meter.limit() as f64 + 1.0);
            budget
                .work_error(
                    format!("{} (computed up to heap {})", what(), c.g.len()),
                    needed.min(u64::MAX as f64) as u64,
                )
                .into()
        };
        if !c.extend_within(len.min(WARM_UP), &mut meter, budget)? {
            return Err(spent(&c, &meter));
        }
        c.choose_mask();
        let mut target = len.min(WARM_UP);
        while c.g.len() < len {
            if self.splits() {
                if let Some(Check::Proven(l, p)) = find_period(&c.g, t, &mut meter) {
                    // Proven periodic from l: fill the rest from the period.
                    let start = c.g.len();
                    c.reserve_within(len - start, budget)?;
                    for n in start..len {
                        let v = c.g[n - p];
                        c.g.push(v);
                    }
                    debug_assert!(l + p <= start);
                    break;
                }
            }
            target = target.saturating_mul(2).min(len);
            if !c.extend_within(target, &mut meter, budget)? {
                return Err(spent(&c, &meter));
            }
        }
        c.g.truncate(len);
        Ok(c.g)
    }

    /// The minimal preperiod and period of the Grundy sequence, **proven**
    /// by the periodicity theorem for octal games: if
    /// `g(n + p) = g(n)` for all `L ≤ n < 2L + 2p + t` (t = [`OctalCode::max_take`]),
    /// then for all `n ≥ L`. Values are computed (by the rare/common
    /// method where it helps) until some period meets that test, up to
    /// `max_heaps`; the smallest period dividing the proven one, and the
    /// smallest preperiod for it, are then read off the values. The memory
    /// is checked as the values grow; [`OctalCode::period_with`] sets a
    /// work budget too.
    ///
    /// # Errors
    /// [`Error::NotProven`] if no period is proven within `max_heaps` heaps
    /// — never an unproven period; [`Error::TooLarge`] if the values would
    /// outgrow the memory.
    pub fn period(&self, max_heaps: u64) -> Result<PeriodProof, Error> {
        self.period_with(max_heaps, &Budget::available())
    }

    /// [`OctalCode::period`] within `budget`: the search stops with
    /// [`Error::WorkSpent`] when the work budget is spent.
    ///
    /// # Errors
    /// [`Error::NotProven`], [`Error::WorkSpent`], [`Error::TooLarge`].
    ///
    /// ```
    /// use game_core::budget::Budget;
    /// use sprague_grundy::{Error, OctalCode};
    /// let officers: OctalCode = "0.6".parse()?;
    /// let small = Budget::available().with_work(1_000_000);
    /// let err = officers.period_with(u64::MAX, &small).unwrap_err();
    /// assert!(matches!(err, Error::WorkSpent { .. }), "{err}");
    /// # Ok::<(), sprague_grundy::Error>(())
    /// ```
    pub fn period_with(&self, max_heaps: u64, budget: &Budget) -> Result<PeriodProof, Error> {
        let t = self.max_take();
        let max = usize::try_from(max_heaps)
            .unwrap_or(usize::MAX)
            .min(1 << 32);
        let mut c = Computer::new(self);
        let mut meter = budget.meter();
        let spent = |c: &Computer<'_>, meter: &Meter| Error::WorkSpent {
            heaps: c.g.len() as u64,
            steps: meter.limit(),
            // How far the search would go is unknown: ten times the
            // budget spent is the advice.
            raise: budget
                .work_advice_for(meter.limit().saturating_mul(10))
                .into_owned(),
        };
        let mut target = max.min(WARM_UP);
        if !c.extend_within(target, &mut meter, budget)? {
            return Err(spent(&c, &meter));
        }
        c.choose_mask();
        loop {
            let Some(check) = find_period(&c.g, t, &mut meter) else {
                return Err(spent(&c, &meter));
            };
            match check {
                Check::Proven(l, p) => {
                    let (preperiod, period) = minimise(&c.g, l, p);
                    return Ok(PeriodProof {
                        preperiod: preperiod as u64,
                        period: period as u64,
                        heaps: c.g.len() as u64,
                    });
                }
                _ if target >= max => return Err(Error::NotProven { max: max as u64 }),
                Check::Needs(n) => target = n.max(target + target / 4).min(max),
                Check::Nothing => target = target.saturating_mul(2).min(max),
            }
            if !c.extend_within(target, &mut meter, budget)? {
                return Err(spent(&c, &meter));
            }
        }
    }
}

/// `upto + 1` values, if their table (4 bytes a value, and as much again
/// for the rare/common method's list) fits in the budget's memory.
fn table_len(upto: usize, budget: &Budget) -> Result<usize, Error> {
    let len = (upto as u64).saturating_add(1);
    budget.check_memory(
        &format!(
            "a table of g(0..={}) (4 to 8 bytes a heap)",
            game_core::grouped(upto as u64)
        ),
        len.saturating_mul(8),
    )?;
    // Heaps are numbered in 32 bits (the rare list, the marks).
    if len > u64::from(u32::MAX - 1) {
        return Err(budget
            .memory_error(
                format!(
                    "a table of g(0..={}): at most 2^32 - 2 heaps are supported",
                    game_core::grouped(upto as u64)
                ),
                len.saturating_mul(8),
            )
            .into());
    }
    Ok(len as usize)
}

const WARM_UP: usize = 2048;

enum Check {
    Proven(usize, usize),
    /// A candidate period that would be proven with this many values.
    Needs(usize),
    Nothing,
}

/// Looks for the smallest period provable from the values `g` (test of
/// the theorem: 2L + 3p + t values). Multiples of a period already seen
/// to hold over a long stretch are skipped: they cannot be proven before it.
/// The comparisons are paid from `meter`; `None` when it runs out.
fn find_period(g: &[u32], t: usize, meter: &mut Meter) -> Option<Check> {
    let n = g.len();
    let mut ops = 0u64;
    let mut long: Vec<usize> = Vec::new();
    let mut best_need: Option<usize> = None;
    let mut p = 1;
    while 3 * p + t <= n {
        ops += long.len() as u64 + 1;
        if long.iter().any(|q| p % q == 0) {
            p += 1;
            continue;
        }
        // Smallest L with g[i] == g[i + p] for all L <= i < n - p.
        let mut l = n - p;
        while l > 0 && g[l - 1] == g[l - 1 + p] {
            l -= 1;
        }
        ops += (n - p - l) as u64;
        if ops >= 1 << 16 {
            if !meter.spend(ops) {
                return None;
            }
            ops = 0;
        }
        if 2 * l + 3 * p + t <= n {
            return meter.spend(ops).then_some(Check::Proven(l, p));
        }
        if n - p - l >= 2 * p {
            long.push(p);
            let need = 2 * l + 3 * p + t;
            best_need = Some(best_need.map_or(need, |b: usize| b.min(need)));
        }
        p += 1;
    }
    meter
        .spend(ops)
        .then(|| best_need.map_or(Check::Nothing, Check::Needs))
}

/// From a proven (l, p): the smallest period d dividing p (the tail from
/// l is purely p-periodic, so one period of values decides) and the
/// smallest preperiod for d.
fn minimise(g: &[u32], l: usize, p: usize) -> (usize, usize) {
    let d = (1..=p)
        .filter(|d| p.is_multiple_of(*d))
        .find(|&d| (l..l + p).all(|i| g[i] == g[i + d]))
        .unwrap_or(p);
    let mut l = l;
    while l > 0 && g[l - 1] == g[l - 1 + d] {
        l -= 1;
    }
    (l, d)
}

/// Computes Grundy values of an octal game heap by heap.
///
/// **Plain method:** mark the value of every option — O(n) splits a heap.
///
/// **Rare/common method** (Flammenkamp's sparse space): for a bit mask
/// `m`, call a value *rare* when `popcount(v & m)` is even, *common*
/// otherwise. The XOR of two values is common only if exactly one of them
/// is rare, so every common option value of a split comes from a split with
/// a rare part: enumerating the (few) heaps with rare values finds them
/// all. That gives `c`, the smallest common value not an option. The mex
/// is `c` unless some rare value below `c` is missing; so the splits are
/// scanned in full only until every rare value below `c` has been seen —
/// which, when the answer is common (nearly always), happens early. The
/// method is exact for any mask; the mask only decides the speed, and is
/// chosen from the first values as the one that makes rare values rarest.
pub struct Computer<'c> {
    code: &'c OctalCode,
    /// The values so far: `g[n]` for heaps `0..len`. Private: the marks
    /// and the rare list are sized and kept from the values this computer
    /// made, so values set from outside (even right ones, as 0.33…3's
    /// saved values, up to 100) sent `extend_to` past its marks.
    g: Vec<u32>,
    stamp: Vec<u32>,
    rare: Vec<u32>,
    mask: Option<u32>,
    take_all: Vec<usize>,
    single: Vec<usize>,
    split: Vec<usize>,
    ops: u64,
}

impl<'c> Computer<'c> {
    /// A computer with no values yet, plain method.
    #[must_use]
    pub fn new(code: &'c OctalCode) -> Self {
        let ts = |bit: u8, from: usize| -> Vec<usize> {
            (from..code.digits.len())
                .filter(|&t| code.digits[t] & bit != 0)
                .collect()
        };
        Computer {
            code,
            g: Vec::new(),
            stamp: vec![0; 64],
            rare: Vec::new(),
            mask: None,
            take_all: ts(1, 1),
            single: ts(2, 1),
            split: ts(4, 0),
            ops: 0,
        }
    }

    /// The code.
    #[must_use]
    pub fn code(&self) -> &OctalCode {
        self.code
    }

    /// The values so far: g(n) for heaps `0..len`.
    ///
    /// ```
    /// use sprague_grundy::{Computer, OctalCode};
    /// let kayles: OctalCode = "0.77".parse()?;
    /// let mut c = Computer::new(&kayles);
    /// c.extend_to(6);
    /// assert_eq!(c.values(), [0, 1, 2, 3, 1, 4]);
    /// # Ok::<(), sprague_grundy::Error>(())
    /// ```
    ///
    /// They are read, never set from outside (the computer's marks are
    /// sized by the values it made):
    ///
    /// ```compile_fail,E0616
    /// use sprague_grundy::{Computer, OctalCode};
    /// let code: OctalCode = "0.33".parse().unwrap();
    /// let mut c = Computer::new(&code);
    /// c.g = vec![0, 100];
    /// ```
    #[must_use]
    pub fn values(&self) -> &[u32] {
        &self.g
    }

    /// The rare/common mask in use, if the sparse method is on.
    #[must_use]
    pub fn mask(&self) -> Option<u32> {
        self.mask
    }

    /// Switches to the rare/common method with `mask` (any mask is
    /// correct; a good one is fast).
    pub fn use_mask(&mut self, mask: u32) {
        self.mask = Some(mask);
        // Heap 0 is no part of a split: only heaps from 1 are listed.
        self.rare = (1..self.g.len() as u32)
            .filter(|&n| (self.g[n as usize] & mask).count_ones().is_multiple_of(2))
            .collect();
    }

    /// Picks the mask that leaves the fewest rare values among the second
    /// half of the values so far, and switches to the sparse method if
    /// they are at most a quarter of them.
    pub fn choose_mask(&mut self) {
        let n = self.g.len();
        if n < 64 || self.split.is_empty() {
            return;
        }
        let top = self.g.iter().copied().max().unwrap_or(0);
        let bits = (32 - top.leading_zeros()).min(10);
        let tail = &self.g[n / 2..];
        let best = (1u32..1 << bits)
            .map(|m| {
                (
                    tail.iter()
                        .filter(|&&v| (v & m).count_ones() % 2 == 0)
                        .count(),
                    m,
                )
            })
            .min();
        if let Some((rare, m)) = best {
            if rare * 4 <= tail.len() {
                self.use_mask(m);
            }
        }
    }

    /// Computes values until there are `len` of them.
    ///
    /// # Panics
    /// Past 2³² − 2 values, or if memory runs out; see
    /// [`Computer::extend_within`] for the checked form.
    pub fn extend_to(&mut self, len: usize) {
        assert!(len < u32::MAX as usize, "at most 2^32 - 2 heaps");
        while self.g.len() < len {
            self.push_next();
        }
    }

    /// Steps of work done so far (one a take, a split or a rare heap
    /// looked at).
    #[must_use]
    pub fn work(&self) -> u64 {
        self.ops
    }

    /// Makes room for `more` values (and as many rare heaps), checking the
    /// memory first.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if it does not fit in `budget`.
    pub fn reserve_within(&mut self, more: usize, budget: &Budget) -> Result<(), Error> {
        let len = self.g.len().saturating_add(more);
        let bytes = (len as u64)
            .saturating_mul(8)
            .saturating_add(self.stamp.len() as u64 * 4);
        let refuse = || {
            Error::from(budget.memory_error(
                format!("g(0..{len}) of the octal game {}", self.code),
                bytes,
            ))
        };
        if bytes > budget.memory() || len >= u32::MAX as usize {
            return Err(refuse());
        }
        if self.g.try_reserve(more).is_err() {
            return Err(refuse());
        }
        Ok(())
    }

    /// Computes values until there are `len` of them, paying each heap's
    /// work from `meter`: `Ok(false)` when it runs out first (the values
    /// computed so far are kept). The memory is checked against `budget`
    /// as the table grows, before it is taken.
    ///
    /// # Errors
    /// [`Error::TooLarge`] for memory.
    pub fn extend_within(
        &mut self,
        len: usize,
        meter: &mut Meter,
        budget: &Budget,
    ) -> Result<bool, Error> {
        let mut paid = self.ops;
        while self.g.len() < len {
            if self.g.len() == self.g.capacity() {
                let more = self.g.len().max(64).min(len - self.g.len());
                self.reserve_within(more, budget)?;
            }
            self.push_next();
            if self.ops - paid >= 4096 || self.g.len() == len {
                if !meter.spend(self.ops - paid) {
                    return Ok(false);
                }
                paid = self.ops;
            }
        }
        Ok(meter.spend(self.ops - paid))
    }

    fn push_next(&mut self) {
        {
            let v = self.next_value();
            if let Some(m) = self.mask {
                if !self.g.is_empty() && (v & m).count_ones().is_multiple_of(2) {
                    self.rare.push(self.g.len() as u32);
                }
            }
            self.g.push(v);
            let need = (v as usize + 1).next_power_of_two() * 2;
            if need > self.stamp.len() {
                self.stamp.resize(need, 0);
            }
        }
    }

    fn next_value(&mut self) -> u32 {
        let n = self.g.len();
        let cur = n as u32 + 1;
        let (g, stamp) = (&self.g, &mut self.stamp);
        let mut ops = (self.take_all.len() + self.single.len() + 1) as u64;
        for &t in &self.take_all {
            if n == t {
                stamp[0] = cur;
            }
        }
        for &t in &self.single {
            if n > t {
                stamp[g[n - t] as usize] = cur;
            }
        }
        let Some(m) = self.mask else {
            for &t in &self.split {
                if n >= t + 2 {
                    let r = n - t;
                    ops += (r / 2) as u64;
                    for a in 1..=r / 2 {
                        stamp[(g[a] ^ g[r - a]) as usize] = cur;
                    }
                }
            }
            self.ops += ops;
            return first_unmarked(stamp, cur, |_| true);
        };
        let rare = |v: u32| (v & m).count_ones().is_multiple_of(2);
        for &t in &self.split {
            if n >= t + 2 {
                let r = n - t;
                let below = self.rare.partition_point(|&a| (a as usize) < r);
                ops += below as u64;
                for &a in &self.rare[..below] {
                    let a = a as usize;
                    stamp[(g[a] ^ g[r - a]) as usize] = cur;
                }
            }
        }
        let c = first_unmarked(stamp, cur, |v| !rare(v));
        ops += u64::from(c);
        let mut missing = (0..c)
            .filter(|&v| rare(v) && stamp[v as usize] != cur)
            .count();
        if missing > 0 {
            'scan: for &t in &self.split {
                if n >= t + 2 {
                    let r = n - t;
                    for a in 1..=r / 2 {
                        ops += 1;
                        let v = g[a] ^ g[r - a];
                        if stamp[v as usize] != cur {
                            stamp[v as usize] = cur;
                            if v < c && rare(v) {
                                missing -= 1;
                                if missing == 0 {
                                    break 'scan;
                                }
                            }
                        }
                    }
                }
            }
        }
        self.ops += ops;
        first_unmarked(stamp, cur, |_| true)
    }
}

/// The smallest value `v` below the stamps' length with `keep(v)` not
/// marked with `cur`, else that length: no value past the stamps is ever
/// marked, so the length bounds the answer. (A mask that makes no value
/// common — 0 — or none below the length — a high bit — searched for
/// ever, or read past the stamps.)
fn first_unmarked(stamp: &[u32], cur: u32, keep: impl Fn(u32) -> bool) -> u32 {
    let len = u32::try_from(stamp.len()).unwrap_or(u32::MAX);
    (0..len)
        .find(|&v| keep(v) && stamp[v as usize] != cur)
        .unwrap_or(len)
}
