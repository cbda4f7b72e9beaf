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

use crate::{Error, PeriodProof};

/// An octal game's code.
///
/// ```
/// use sprague_grundy::OctalCode;
/// let kayles: OctalCode = "0.77".parse()?;
/// assert_eq!(kayles.values(11), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
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
            .ok_or(bad("it needs a point, as in 0.77"))?;
        let d0 = match before {
            "" | "0" => 0,
            "4" => 4,
            _ => return Err(bad("the digit before the point must be 0 or 4")),
        };
        let mut digits = vec![d0];
        for c in after.chars() {
            let d = c
                .to_digit(8)
                .ok_or(bad("digits after the point must be 0 to 7"))?;
            digits.push(d as u8);
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        if digits.len() == 1 {
            return Err(bad(
                "no move is allowed: some digit after the point must be non-zero",
            ));
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
    #[must_use]
    pub fn values_plain(&self, upto: usize) -> Vec<u32> {
        let mut c = Computer::new(self);
        c.extend_to(upto + 1);
        c.g
    }

    /// g(0..=upto) by the rare/common method where the game has a sparse
    /// split (see [`Computer`]), else the plain one. Same values.
    #[must_use]
    pub fn values(&self, upto: usize) -> Vec<u32> {
        let mut c = Computer::new(self);
        c.extend_to((upto + 1).min(WARM_UP));
        c.choose_mask();
        c.extend_to(upto + 1);
        c.g
    }

    /// The minimal preperiod and period of the Grundy sequence, **proven**
    /// by the periodicity theorem for octal games: if
    /// `g(n + p) = g(n)` for all `L ≤ n < 2L + 2p + t` (t = [`OctalCode::max_take`]),
    /// then for all `n ≥ L`. Values are computed (by the rare/common
    /// method where it helps) until some period meets that test, up to
    /// `max_heaps`; the smallest period dividing the proven one, and the
    /// smallest preperiod for it, are then read off the values.
    ///
    /// # Errors
    /// [`Error::NotProven`] if no period is proven within `max_heaps` heaps
    /// — never an unproven period.
    pub fn period(&self, max_heaps: u64) -> Result<PeriodProof, Error> {
        let t = self.max_take();
        let max = usize::try_from(max_heaps)
            .unwrap_or(usize::MAX)
            .min(1 << 32);
        let mut c = Computer::new(self);
        let mut target = max.min(WARM_UP);
        c.extend_to(target);
        c.choose_mask();
        loop {
            match find_period(&c.g, t) {
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
            c.extend_to(target);
        }
    }
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
fn find_period(g: &[u32], t: usize) -> Check {
    let n = g.len();
    let mut long: Vec<usize> = Vec::new();
    let mut best_need: Option<usize> = None;
    let mut p = 1;
    while 3 * p + t <= n {
        if long.iter().any(|q| p % q == 0) {
            p += 1;
            continue;
        }
        // Smallest L with g[i] == g[i + p] for all L <= i < n - p.
        let mut l = n - p;
        while l > 0 && g[l - 1] == g[l - 1 + p] {
            l -= 1;
        }
        if 2 * l + 3 * p + t <= n {
            return Check::Proven(l, p);
        }
        if n - p - l >= 2 * p {
            long.push(p);
            let need = 2 * l + 3 * p + t;
            best_need = Some(best_need.map_or(need, |b: usize| b.min(need)));
        }
        p += 1;
    }
    best_need.map_or(Check::Nothing, Check::Needs)
}

/// From a proven (l, p): the smallest period d dividing p (the tail from
/// l is purely p-periodic, so one period of values decides) and the
/// smallest preperiod for d.
fn minimise(g: &[u32], l: usize, p: usize) -> (usize, usize) {
    let d = (1..=p)
        .filter(|d| p % d == 0)
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
    /// The values so far: `g[n]` for heaps `0..len`.
    pub g: Vec<u32>,
    stamp: Vec<u32>,
    rare: Vec<u32>,
    mask: Option<u32>,
    take_all: Vec<usize>,
    single: Vec<usize>,
    split: Vec<usize>,
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
        }
    }

    /// The code.
    #[must_use]
    pub fn code(&self) -> &OctalCode {
        self.code
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
            .filter(|&n| (self.g[n as usize] & mask).count_ones() % 2 == 0)
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
    pub fn extend_to(&mut self, len: usize) {
        while self.g.len() < len {
            let v = self.next_value();
            if let Some(m) = self.mask {
                if !self.g.is_empty() && (v & m).count_ones() % 2 == 0 {
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
                    for a in 1..=r / 2 {
                        stamp[(g[a] ^ g[r - a]) as usize] = cur;
                    }
                }
            }
            return first_unmarked(stamp, cur, |_| true);
        };
        let rare = |v: u32| (v & m).count_ones() % 2 == 0;
        for &t in &self.split {
            if n >= t + 2 {
                let r = n - t;
                for &a in &self.rare {
                    let a = a as usize;
                    if a >= r {
                        break;
                    }
                    stamp[(g[a] ^ g[r - a]) as usize] = cur;
                }
            }
        }
        let c = first_unmarked(stamp, cur, |v| !rare(v));
        let mut missing = (0..c)
            .filter(|&v| rare(v) && stamp[v as usize] != cur)
            .count();
        if missing > 0 {
            'scan: for &t in &self.split {
                if n >= t + 2 {
                    let r = n - t;
                    for a in 1..=r / 2 {
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
        first_unmarked(stamp, cur, |_| true)
    }
}

/// The smallest value `v` with `keep(v)` not marked with `cur`.
fn first_unmarked(stamp: &[u32], cur: u32, keep: impl Fn(u32) -> bool) -> u32 {
    (0u32..)
        .find(|&v| keep(v) && stamp.get(v as usize).is_none_or(|&s| s != cur))
        .expect("some value is unmarked")
}
