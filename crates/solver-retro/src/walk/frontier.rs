//! The levels of a breadth-first walk over a dense index, in bounded
//! memory: a level is a sorted list of ids while it is small and a bitmap
//! once it passes [`list_cap`] ids, where a list would take more memory
//! than the bitmap it stands for.
//!
//! Design note: a level's positions are found by parallel tasks, none of
//! which knows how large the level will grow. Each task reserves room in
//! the level's list from one shared counter, [`RESERVE`] ids at a time,
//! and the reservations never add up to more than the cap; a task that
//! gets no more room marks its positions in the next level's bitmap
//! instead. When any task had to, the listed positions join the bitmap and
//! the lists are dropped. A bitmap level clears its words as it is
//! expanded, so that it serves as the bitmap of the level after next: two
//! level bitmaps at most, whatever the depth.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::Error;

/// Ids a task reserves at a time in a level's list.
const RESERVE: u64 = 1 << 12;

/// Positions a task of a level takes (listed ids, or words of a bitmap).
const CHUNK: usize = 1 << 10;

/// The most ids a level may list before it is kept as a bitmap: one for
/// each word of the bitmap (then the list takes as many bytes as the
/// bitmap), and no fewer than 1,024. Under test, three, so that the tests'
/// small games walk bitmap levels too.
pub(super) fn list_cap(words: u64) -> u64 {
    if cfg!(test) {
        3
    } else {
        words.max(1 << 10)
    }
}

/// The most bytes a walk over `words` words of index takes with lists of
/// at most `cap` ids: the bitmap of positions seen and the next level's
/// bitmap; the level being expanded (a list or a bitmap); and the next
/// level's lists.
pub(super) fn bytes(words: u64, cap: u64) -> u64 {
    let bitmap = words.saturating_mul(8);
    let list = cap.saturating_mul(8);
    bitmap
        .saturating_mul(2)
        .saturating_add(bitmap.max(list))
        .saturating_add(list)
}

/// A bitmap of `words` words, all clear. Taken fallibly: a bitmap the
/// system refuses (with no memory limit, say, `limit` being `u64::MAX`)
/// is [`Error::TooLarge`], not an abort.
///
/// # Errors
/// [`Error::TooLarge`] when the system refuses the memory.
pub(super) fn bitmap(words: u64, limit: u64) -> Result<Vec<AtomicU64>, Error> {
    let refused = || {
        crate::error::too_large(
            "a bitmap of reachable positions (the system refused the memory)",
            words.saturating_mul(8),
            limit,
            "",
        )
    };
    let len = usize::try_from(words).map_err(|_| refused())?;
    let mut bits = Vec::new();
    bits.try_reserve_exact(len).map_err(|_| refused())?;
    bits.resize_with(len, || AtomicU64::new(0));
    Ok(bits)
}

/// The words of `bits` as they stand, taken fallibly as [`bitmap`] is.
///
/// # Errors
/// [`Error::TooLarge`] when the system refuses the memory.
pub(super) fn copy(bits: &[AtomicU64], limit: u64) -> Result<Vec<u64>, Error> {
    let mut words = Vec::new();
    words.try_reserve_exact(bits.len()).map_err(|_| {
        crate::error::too_large(
            "a copy of a bitmap of reachable positions (the system refused the memory)",
            (bits.len() as u64).saturating_mul(8),
            limit,
            "",
        )
    })?;
    words.extend(bits.iter().map(|w| w.load(Ordering::Relaxed)));
    Ok(words)
}

/// Sets bit `k` of `bits`; true when it was clear. Most children are seen
/// already: a plain load first spares the locked read-modify-write.
#[inline]
pub(super) fn set(bits: &[AtomicU64], k: u64) -> bool {
    let (word, bit) = (&bits[(k / 64) as usize], 1u64 << (k % 64));
    word.load(Ordering::Relaxed) & bit == 0 && word.fetch_or(bit, Ordering::Relaxed) & bit == 0
}

/// A level of the walk.
enum Level {
    /// Ids in increasing order.
    List(Vec<u64>),
    /// A bit for each id.
    Bits(Vec<AtomicU64>),
}

/// Where a task puts the next level's positions it finds: its own list
/// while the level has room, else the next level's bitmap.
pub(super) struct Next<'a> {
    list: Vec<u64>,
    /// Room reserved in the level's list and not used yet.
    left: u64,
    /// The level's list has no more room.
    full: bool,
    /// Ids reserved by every task so far.
    reserved: &'a AtomicU64,
    /// Some task marked positions in `bits`.
    spilled: &'a AtomicBool,
    bits: &'a [AtomicU64],
    cap: u64,
    /// Positions this task put in the next level.
    made: u64,
}

impl Next<'_> {
    /// Puts `k` (seen for the first time) in the next level.
    #[inline]
    pub(super) fn push(&mut self, k: u64) {
        self.made += 1;
        if self.left == 0 && !self.full {
            let got = self.reserved.fetch_add(RESERVE, Ordering::Relaxed);
            self.left = self.cap.saturating_sub(got).min(RESERVE);
            if self.left == 0 {
                self.full = true;
                self.spilled.store(true, Ordering::Relaxed);
            }
        }
        if self.left > 0 {
            self.left -= 1;
            self.list.push(k);
        } else {
            set(self.bits, k);
        }
    }
}

/// A breadth-first walk's levels ([`Walk::step`]).
pub(super) struct Walk {
    level: Level,
    /// A clear bitmap for the next level, should it outgrow a list.
    spare: Vec<AtomicU64>,
    words: u64,
    cap: u64,
    /// The memory limit, named when the system refuses a bitmap.
    limit: u64,
}

/// What a task of a level returns: its list, the positions it found and
/// the sum of what it expanded.
type Part = Result<(Vec<u64>, u64, u64), Error>;

impl Walk {
    /// A walk over `words` words of index from `first`, listing at most
    /// `cap` ids a level (`limit`: the memory limit, for errors).
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the system refuses the spare bitmap.
    pub(super) fn new(first: u64, words: u64, cap: u64, limit: u64) -> Result<Self, Error> {
        Ok(Walk {
            level: Level::List(vec![first]),
            spare: bitmap(words, limit)?,
            words,
            cap,
            limit,
        })
    }

    /// Expands the current level on all threads of the current pool:
    /// `expand(id, next, scratch)` for each of its ids, with a `scratch` a
    /// task; it puts in `next` the ids it finds for the first time and
    /// returns a number (summed). The level found becomes the current one.
    /// `None` when the current level is empty (the walk is over), else the
    /// positions found and the sum.
    ///
    /// # Errors
    /// The first error `expand` returns; [`Error::TooLarge`] when the
    /// system refuses a level's bitmap.
    pub(super) fn step<S: Default>(
        &mut self,
        expand: impl Fn(u64, &mut Next<'_>, &mut S) -> Result<u64, Error> + Sync,
    ) -> Result<Option<(u64, u64)>, Error> {
        if matches!(&self.level, Level::List(ids) if ids.is_empty()) {
            return Ok(None);
        }
        let reserved = AtomicU64::new(0);
        let spilled = AtomicBool::new(false);
        let sink = || Next {
            list: Vec::new(),
            left: 0,
            full: false,
            reserved: &reserved,
            spilled: &spilled,
            bits: &self.spare,
            cap: self.cap,
            made: 0,
        };
        let parts: Vec<Part> = match &self.level {
            Level::List(ids) => ids
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let (mut next, mut scratch, mut sum) = (sink(), S::default(), 0);
                    for &i in chunk {
                        sum += expand(i, &mut next, &mut scratch)?;
                    }
                    Ok((next.list, next.made, sum))
                })
                .collect(),
            Level::Bits(bits) => bits
                .par_chunks(CHUNK)
                .enumerate()
                .map(|(c, chunk)| {
                    let (mut next, mut scratch, mut sum) = (sink(), S::default(), 0);
                    for (j, word) in chunk.iter().enumerate() {
                        // Cleared as read: the bitmap serves again.
                        let mut b = word.swap(0, Ordering::Relaxed);
                        while b != 0 {
                            let i = ((c * CHUNK + j) * 64) as u64 + u64::from(b.trailing_zeros());
                            b &= b - 1;
                            sum += expand(i, &mut next, &mut scratch)?;
                        }
                    }
                    Ok((next.list, next.made, sum))
                })
                .collect(),
        };
        let (mut lists, mut made, mut sum) = (Vec::with_capacity(parts.len()), 0, 0);
        for part in parts {
            let (list, m, s) = part?;
            made += m;
            sum += s;
            lists.push(list);
        }
        // The level just expanded: a list no longer needed, or a bitmap
        // cleared as it was read.
        let old = std::mem::replace(&mut self.level, Level::List(Vec::new()));
        if spilled.load(Ordering::Relaxed) {
            lists.par_iter().for_each(|list| {
                for &k in list {
                    set(&self.spare, k);
                }
            });
            drop(lists);
            let clear = match old {
                Level::Bits(bits) => bits,
                Level::List(ids) => {
                    drop(ids);
                    bitmap(self.words, self.limit)?
                }
            };
            self.level = Level::Bits(std::mem::replace(&mut self.spare, clear));
        } else {
            drop(old);
            let mut next = lists.concat();
            drop(lists);
            // In index order the next level's children lie close together
            // in memory, for games whose index keeps relatives near.
            next.par_sort_unstable();
            self.level = Level::List(next);
        }
        Ok(Some((made, sum)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks the graph `i → (i * a + b) % n` and `i → (i + 1) % n` from 0
    /// with `cap` ids a list, returning the levels' sizes.
    fn sizes(n: u64, a: u64, b: u64, cap: u64) -> Vec<u64> {
        let words = n.div_ceil(64);
        let seen = bitmap(words, u64::MAX).unwrap();
        set(&seen, 0);
        let mut walk = Walk::new(0, words, cap, u64::MAX).unwrap();
        let mut sizes = vec![1];
        while let Some((made, _)) = walk
            .step(|i, next, (): &mut ()| {
                for k in [(i * a + b) % n, (i + 1) % n] {
                    if set(&seen, k) {
                        next.push(k);
                    }
                }
                Ok(2)
            })
            .unwrap()
        {
            if made > 0 {
                sizes.push(made);
            }
        }
        sizes
    }

    /// The same levels by a plain breadth-first search.
    fn plain(n: u64, a: u64, b: u64) -> Vec<u64> {
        let mut seen = vec![false; n as usize];
        seen[0] = true;
        let (mut level, mut sizes) = (vec![0u64], vec![1]);
        while !level.is_empty() {
            let mut next = Vec::new();
            for i in level {
                for k in [(i * a + b) % n, (i + 1) % n] {
                    if !std::mem::replace(&mut seen[k as usize], true) {
                        next.push(k);
                    }
                }
            }
            if !next.is_empty() {
                sizes.push(next.len() as u64);
            }
            level = next;
        }
        sizes
    }

    #[test]
    fn levels_are_the_same_listed_or_as_bitmaps() {
        for (n, a, b) in [
            (1_000, 3, 1),
            (5_000, 7, 11),
            (100_000, 2, 0),
            (77_777, 5, 3),
        ] {
            let want = plain(n, a, b);
            for cap in [0, 1, 3, 100, 10_000, u64::MAX] {
                assert_eq!(sizes(n, a, b, cap), want, "n {n} a {a} b {b} cap {cap}");
            }
        }
    }

    #[test]
    fn a_reservation_never_lists_past_the_cap() {
        let (reserved, spilled, bits) = (
            AtomicU64::new(0),
            AtomicBool::new(false),
            bitmap(4, 0).unwrap(),
        );
        let mut next = Next {
            list: Vec::new(),
            left: 0,
            full: false,
            reserved: &reserved,
            spilled: &spilled,
            bits: &bits,
            cap: 5,
            made: 0,
        };
        for k in 0..200 {
            next.push(k);
        }
        assert_eq!(next.list, vec![0, 1, 2, 3, 4]);
        assert!(spilled.load(Ordering::Relaxed));
        let marked: u32 = bits
            .iter()
            .map(|w| w.load(Ordering::Relaxed).count_ones())
            .sum();
        assert_eq!(marked, 195);
    }
}
