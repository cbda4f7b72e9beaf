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
//!
//! Each room a task reserves is a list of its own, allocated with exactly
//! the room's capacity and never grown, so that a level's lists take no
//! more than the cap whatever the tasks found. (A task's one list, grown
//! by doubling, took up to twice what it held: the walk held more than
//! the half byte an index it had checked.) The most held at once is what
//! [`bytes`] counts.
//!
//! The whole-index walk starts from one position ([`Walk::new`]); the
//! walk inside a tier of a tiered game from every position reached from
//! its parent tiers, a bitmap ([`Walk::from_seen`]), and goes through a
//! task's share of a bitmap level at once ([`Walk::step_by`]) with the
//! game's own walk of the tier's indices.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::Error;

/// Ids a task reserves at a time in a level's list.
const RESERVE: u64 = 1 << 12;

/// Positions a task of a level takes (listed ids, or words of a bitmap).
const CHUNK: usize = 1 << 10;

/// The bytes of bookkeeping [`bytes`] allows for each [`CHUNK`] of the
/// larger of the bitmap and the cap: a task's result ([`Part`], at most
/// [`PART_BYTES`]) is one a chunk, and a room ([`RESERVE`] ids, so at most
/// one a chunk) has a list header of 24 bytes in the level's vector of
/// lists and at most 96 in its task's (a vector of at least 4 grown by
/// doubling).
const BOOKKEEPING: u64 = PART_BYTES + 24 + 96;

/// The most bytes a [`Part`] may take for [`BOOKKEEPING`] to hold (80 on
/// 64-bit targets with a sum of a `u64`; checked as [`Walk::step_by`] is
/// built for each sum).
pub(super) const PART_BYTES: u64 = 128;

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
/// at most `cap` ids, held at once: the bitmap of positions seen and the
/// spare bitmap; the level being expanded (a list or a bitmap) and the
/// next level's lists, at most `cap` ids (or, once the level is expanded,
/// those lists and the list they are joined into); and the tasks'
/// bookkeeping, [`BOOKKEEPING`] bytes a chunk.
pub(super) fn bytes(words: u64, cap: u64) -> u64 {
    let bitmap = words.saturating_mul(8);
    let list = cap.saturating_mul(8);
    let chunks = words.max(cap).div_ceil(CHUNK as u64);
    bitmap
        .saturating_mul(2)
        .saturating_add(bitmap.max(list))
        .saturating_add(list)
        .saturating_add(chunks.saturating_mul(BOOKKEEPING))
}

/// [`bytes`] for a walk whose bitmap levels are expanded `task` words a
/// task ([`Walk::step_by`]) rather than a [`CHUNK`]: a task's result
/// more for each `task` words, on top.
pub(super) fn bytes_by(words: u64, cap: u64, task: usize) -> u64 {
    let tasks = words.div_ceil(task.max(1) as u64);
    bytes(words, cap).saturating_add(tasks.saturating_mul(PART_BYTES))
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
            "a bitmap of reachable positions",
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

/// A task's share of a level ([`Walk::step_by`]).
pub(super) enum Ids<'a> {
    /// Listed ids, in increasing order.
    List(&'a [u64]),
    /// The words of a bitmap, read (and cleared in the level) at once: bit
    /// `j` of word `w` is id `first + 64 * w + j`.
    Bits {
        /// The id of the first word's lowest bit.
        first: u64,
        /// The words.
        words: &'a [u64],
    },
}

impl Ids<'_> {
    /// The ids in increasing order.
    pub(super) fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        let (list, words, first) = match *self {
            Ids::List(ids) => (ids, &[][..], 0),
            Ids::Bits { first, words } => (&[][..], words, first),
        };
        list.iter().copied().chain(
            words
                .iter()
                .enumerate()
                .flat_map(move |(w, &b)| bits_of(first + 64 * w as u64, b)),
        )
    }
}

/// The ids of the set bits of `b`, a word of a bitmap from id `first`.
fn bits_of(first: u64, mut b: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        (b != 0).then(|| {
            let i = first + u64::from(b.trailing_zeros());
            b &= b - 1;
            i
        })
    })
}

/// Where a task puts the next level's positions it finds: its own lists
/// while the level has room, else the next level's bitmap.
pub(super) struct Next<'a> {
    /// The ids put in the room reserved last: allocated with the room's
    /// capacity, never grown.
    list: Vec<u64>,
    /// The lists of the rooms reserved before, full.
    lists: Vec<Vec<u64>>,
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
            self.reserve();
        }
        if self.left > 0 {
            self.left -= 1;
            self.list.push(k);
        } else {
            set(self.bits, k);
        }
    }

    /// Reserves the next room in the level's list, a list of exactly its
    /// capacity; or, when the level has no room left, says so.
    #[cold]
    fn reserve(&mut self) {
        let got = self.reserved.fetch_add(RESERVE, Ordering::Relaxed);
        self.left = self.cap.saturating_sub(got).min(RESERVE);
        if self.left == 0 {
            self.full = true;
            self.spilled.store(true, Ordering::Relaxed);
            return;
        }
        let room = Vec::with_capacity(self.left as usize);
        let done = std::mem::replace(&mut self.list, room);
        if !done.is_empty() {
            self.lists.push(done);
        }
    }

    /// The lists this task filled.
    fn into_lists(self) -> Vec<Vec<u64>> {
        let mut lists = self.lists;
        if !self.list.is_empty() {
            lists.push(self.list);
        }
        lists
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
    /// The error a step stopped at, once one has: the walk is refused
    /// from then on ([`Walk::step_by`]).
    failed: Option<Error>,
    /// Under test, whether the system is to refuse the next level's
    /// bitmap (a failure a test cannot bring about otherwise).
    #[cfg(test)]
    refuse_bitmap: bool,
    /// Under test, the most bytes the walk's buffers held at once (their
    /// capacities), read at the moments they hold the most.
    #[cfg(test)]
    peak: u64,
}

/// What a task of a level returns: the positions it found, the sum of
/// what it expanded and its lists.
type Part<T> = Result<(u64, T, Vec<Vec<u64>>), Error>;

/// The bytes a vector holds (its capacity).
#[cfg(test)]
fn held<T>(v: &Vec<T>) -> u64 {
    (v.capacity() * std::mem::size_of::<T>()) as u64
}

/// The bytes lists hold, their headers and ids.
#[cfg(test)]
fn held_lists(lists: &Vec<Vec<u64>>) -> u64 {
    held(lists) + lists.iter().map(held).sum::<u64>()
}

impl Walk {
    /// A walk over `words` words of index from `first`, listing at most
    /// `cap` ids a level (`limit`: the memory limit, for errors).
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the system refuses the spare bitmap.
    pub(super) fn new(first: u64, words: u64, cap: u64, limit: u64) -> Result<Self, Error> {
        Walk::at(Level::List(vec![first]), words, cap, limit)
    }

    /// A walk whose first level is `level`, with its spare bitmap.
    fn at(level: Level, words: u64, cap: u64, limit: u64) -> Result<Self, Error> {
        Ok(Walk {
            level,
            spare: bitmap(words, limit)?,
            words,
            cap,
            limit,
            failed: None,
            #[cfg(test)]
            refuse_bitmap: false,
            #[cfg(test)]
            peak: 0,
        })
    }

    /// Under test, notes `bytes` held now (beside the level and the spare
    /// bitmap) towards the peak.
    #[cfg(test)]
    fn note(&mut self, bytes: impl FnOnce() -> u64) {
        let level = match &self.level {
            Level::List(ids) => held(ids),
            Level::Bits(bits) => held(bits),
        };
        self.peak = self.peak.max(level + held(&self.spare) + bytes());
    }

    /// A walk over the bitmap `seen` of positions seen so far whose first
    /// level is all of them: a copy of `seen` as it stands, taken, as the
    /// spare bitmap is, fallibly (`cap` and `limit` as in [`Walk::new`]).
    /// A tiered walk starts so inside a tier, from the positions reached
    /// from its parent tiers.
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the system refuses a bitmap.
    pub(super) fn from_seen(seen: &[AtomicU64], cap: u64, limit: u64) -> Result<Self, Error> {
        let words = seen.len() as u64;
        let level = bitmap(words, limit)?;
        for (l, s) in level.iter().zip(seen) {
            l.store(s.load(Ordering::Relaxed), Ordering::Relaxed);
        }
        Walk::at(Level::Bits(level), words, cap, limit)
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
        self.step_by(
            CHUNK,
            |ids, next| {
                let (mut scratch, mut sum) = (S::default(), 0);
                for i in ids.iter() {
                    sum += expand(i, next, &mut scratch)?;
                }
                Ok(sum)
            },
            |sum, part| {
                *sum += part;
                Ok(())
            },
        )
    }

    /// [`Walk::step`] a task at a time: `expand(ids, next)` for each
    /// task's share of the current level — [`CHUNK`] listed ids, or
    /// `words` words of a bitmap level — returns the task's sum, and
    /// `add(sum, part)` adds the tasks' sums in order. For a caller with
    /// a cheaper way through a run of ids than one at a time (a tiered
    /// game's own walk of a tier's indices) or a sum of more than a
    /// number.
    ///
    /// A step that fails leaves the walk refused: every later step gives
    /// the same error. A failed step cannot be undone — tasks that
    /// finished cleared their words of a bitmap level and marked the next
    /// level, and `expand` marked its positions seen — so a walk that went
    /// on would miss positions or end early, as it did (the level a
    /// refused bitmap was for, taken, looked like the walk's end: `None`).
    /// The walk's bitmaps are freed at once.
    ///
    /// # Errors
    /// As [`Walk::step`], and the first error `add` returns; after a step
    /// failed, that step's error.
    pub(super) fn step_by<T: Default + Send>(
        &mut self,
        words: usize,
        expand: impl Fn(Ids<'_>, &mut Next<'_>) -> Result<T, Error> + Sync,
        add: impl FnMut(&mut T, T) -> Result<(), Error>,
    ) -> Result<Option<(u64, T)>, Error> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let stepped = self.advance(words, expand, add);
        if let Err(e) = &stepped {
            self.failed = Some(e.clone());
            self.level = Level::List(Vec::new());
            self.spare = Vec::new();
        }
        stepped
    }

    /// [`Walk::step_by`] on a walk that has not failed.
    fn advance<T: Default + Send>(
        &mut self,
        words: usize,
        expand: impl Fn(Ids<'_>, &mut Next<'_>) -> Result<T, Error> + Sync,
        mut add: impl FnMut(&mut T, T) -> Result<(), Error>,
    ) -> Result<Option<(u64, T)>, Error> {
        // What [`bytes`] allows a task's result, whatever the sum.
        const { assert!(std::mem::size_of::<Part<T>>() as u64 <= PART_BYTES) };
        if matches!(&self.level, Level::List(ids) if ids.is_empty()) {
            return Ok(None);
        }
        let reserved = AtomicU64::new(0);
        let spilled = AtomicBool::new(false);
        let sink = || Next {
            list: Vec::new(),
            lists: Vec::new(),
            left: 0,
            full: false,
            reserved: &reserved,
            spilled: &spilled,
            bits: &self.spare,
            cap: self.cap,
            made: 0,
        };
        let parts: Vec<Part<T>> = match &self.level {
            Level::List(ids) => ids
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut next = sink();
                    let sum = expand(Ids::List(chunk), &mut next)?;
                    Ok((next.made, sum, next.into_lists()))
                })
                .collect(),
            Level::Bits(bits) => bits
                .par_chunks(words.max(1))
                .enumerate()
                .map(|(c, chunk)| {
                    let mut next = sink();
                    // Cleared as read: the bitmap serves again.
                    let read: Vec<u64> =
                        chunk.iter().map(|w| w.swap(0, Ordering::Relaxed)).collect();
                    let first = (c * words.max(1) * 64) as u64;
                    let sum = expand(
                        Ids::Bits {
                            first,
                            words: &read,
                        },
                        &mut next,
                    )?;
                    Ok((next.made, sum, next.into_lists()))
                })
                .collect(),
        };
        #[cfg(test)]
        let parts_bytes = (parts.capacity() * std::mem::size_of::<Part<T>>()) as u64;
        #[cfg(test)]
        self.note(|| {
            let tasks = parts.iter().flatten().map(|(_, _, l)| held_lists(l));
            parts_bytes + tasks.sum::<u64>()
        });
        let rooms = parts.iter().flatten().map(|(_, _, l)| l.len()).sum();
        let (mut lists, mut made, mut sum) = (Vec::with_capacity(rooms), 0, T::default());
        for part in parts {
            let (m, s, task) = part?;
            made += m;
            add(&mut sum, s)?;
            lists.extend(task);
        }
        #[cfg(test)]
        self.note(|| parts_bytes + held_lists(&lists));
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
                    #[cfg(test)]
                    if self.refuse_bitmap {
                        return Err(crate::error::too_large(
                            "a bitmap of reachable positions",
                            self.words * 8,
                            self.limit,
                            "",
                        ));
                    }
                    bitmap(self.words, self.limit)?
                }
            };
            #[cfg(test)]
            self.note(|| held(&clear));
            self.level = Level::Bits(std::mem::replace(&mut self.spare, clear));
        } else {
            drop(old);
            let mut next = lists.concat();
            #[cfg(test)]
            self.note(|| held_lists(&lists) + held(&next));
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

    /// What a walk holds at once — its buffers' capacities, read at the
    /// moments they hold the most — is within [`bytes`], with lists of a
    /// bitmap's worth of ids (the cap outside tests) and a level that
    /// reserves every room: one task fills two rooms and puts one id in a
    /// third, another fills a fourth. A task's one list, grown by doubling,
    /// held 16,384 ids for those 8,193, and the walk a quarter of a bitmap
    /// more than it counted.
    #[test]
    fn a_walk_holds_no_more_than_it_counts() {
        const WORDS: u64 = 1 << 14;
        let children = |i: u64| match i {
            // A level of exactly the cap: all rooms, no spill.
            0 => 1..WORDS + 1,
            // The first two tasks of that level (1,024 ids each).
            1 => 20_000..28_193,
            1025 => 30_000..34_096,
            _ => 0..0,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        pool.install(|| {
            let seen = bitmap(WORDS, u64::MAX).unwrap();
            set(&seen, 0);
            let mut walk = Walk::new(0, WORDS, WORDS, u64::MAX).unwrap();
            let mut levels = Vec::new();
            while let Some((made, _)) = walk
                .step(|i, next, (): &mut ()| {
                    for k in children(i) {
                        if set(&seen, k) {
                            next.push(k);
                        }
                    }
                    Ok(0)
                })
                .unwrap()
            {
                levels.push(made);
            }
            assert_eq!(levels, [WORDS, 8_193 + 4_096, 0]);
            let peak = held(&seen) + walk.peak;
            let counted = bytes(WORDS, WORDS);
            assert!(peak <= counted, "held {peak} bytes, counted {counted}");
            // The walk reached the bound but for the bookkeeping: four
            // bitmaps' worth (seen, spare, level, lists).
            assert!(peak >= 4 * WORDS * 8, "held {peak} bytes");
        });
    }

    /// A walk from a bitmap of positions seen ([`Walk::from_seen`]) goes
    /// from all of them at once, as a plain search from all of them does,
    /// a task a few words or a chunk ([`Walk::step_by`]); and it holds no
    /// more than [`bytes_by`] counts for tasks that size.
    #[test]
    fn a_walk_from_the_positions_seen_goes_from_all_of_them() {
        let (n, a, b) = (77_777u64, 5, 3);
        let step = |i: u64| [(i * a + b) % n, (i + 1) % n];
        let starts = [0, 17, 5_000, 77_776];
        let mut plain_seen = vec![false; n as usize];
        let mut level: Vec<u64> = starts.to_vec();
        for &s in &starts {
            plain_seen[s as usize] = true;
        }
        let mut want = Vec::new();
        while !level.is_empty() {
            let mut next = Vec::new();
            for &i in &level {
                for k in step(i) {
                    if !std::mem::replace(&mut plain_seen[k as usize], true) {
                        next.push(k);
                    }
                }
            }
            want.push(next.len() as u64);
            level = next;
        }
        let words = n.div_ceil(64);
        for (cap, task) in [(3, 1), (3, 4), (words, 4), (words, CHUNK), (u64::MAX, 7)] {
            let seen = bitmap(words, u64::MAX).unwrap();
            for &s in &starts {
                set(&seen, s);
            }
            let mut walk = Walk::from_seen(&seen, cap, u64::MAX).unwrap();
            let (mut sizes, mut expanded) = (Vec::new(), 0);
            while let Some((made, sum)) = walk
                .step_by(
                    task,
                    |ids, next| {
                        let mut sum = 0;
                        for i in ids.iter() {
                            sum += 1;
                            for k in step(i) {
                                if set(&seen, k) {
                                    next.push(k);
                                }
                            }
                        }
                        Ok(sum)
                    },
                    |s, p| {
                        *s += p;
                        Ok(())
                    },
                )
                .unwrap()
            {
                sizes.push(made);
                expanded += sum;
            }
            assert_eq!(sizes, want, "cap {cap} task {task}");
            assert_eq!(expanded, plain_seen.iter().filter(|&&s| s).count() as u64);
            if cap <= words {
                let peak = held(&seen) + walk.peak;
                let counted = bytes_by(words, cap, task);
                assert!(peak <= counted, "held {peak} bytes, counted {counted}");
            }
        }
    }

    /// A walk whose step failed — an error of `expand` partway through a
    /// bitmap level, an error of `add`, a level's bitmap the system
    /// refused — refuses every later step with that step's error. Before,
    /// it went on from what the failed step left: a bitmap level its
    /// tasks had cleared (`Some((0, 0))`, then the end), the level again
    /// from the start, or, the level taken for a refused bitmap, the end
    /// (`None`) as though every position had been walked.
    #[test]
    fn a_walk_that_failed_refuses_to_go_on() {
        let bad = Error::BadIndex {
            index: 300,
            size: 7,
        };
        let words = 1_000u64.div_ceil(64);
        let add = |s: &mut u64, p: u64| -> Result<(), Error> {
            *s += p;
            Ok(())
        };

        // `expand` fails on one task of a bitmap level.
        let seen = bitmap(words, u64::MAX).unwrap();
        (0..500).for_each(|k| {
            set(&seen, k);
        });
        let mut walk = Walk::from_seen(&seen, 3, u64::MAX).unwrap();
        let expand = |ids: Ids<'_>, _: &mut Next<'_>| {
            if ids.iter().any(|i| i == 300) {
                return Err(bad.clone());
            }
            Ok(ids.iter().count() as u64)
        };
        for _ in 0..2 {
            assert_eq!(walk.step_by(1, expand, add).unwrap_err(), bad);
        }

        // `add` fails.
        let overflow = Error::CountOverflow { what: "sums" };
        let mut walk = Walk::new(0, words, 3, u64::MAX).unwrap();
        let refuse = |_: &mut u64, _: u64| Err(overflow.clone());
        assert_eq!(
            walk.step_by(CHUNK, |_, _| Ok(1), refuse).unwrap_err(),
            overflow
        );
        assert_eq!(
            walk.step_by(CHUNK, |_, _| Ok(1), add).unwrap_err(),
            overflow
        );

        // The system refuses the next level's bitmap (a list of one id,
        // 0, whose ten children spill past the cap of 3).
        let mut walk = Walk::new(0, words, 3, 1000).unwrap();
        walk.refuse_bitmap = true;
        let spill = |_: Ids<'_>, next: &mut Next<'_>| {
            (1..=10).for_each(|k| next.push(k));
            Ok(0)
        };
        let Err(refused @ Error::TooLarge(_)) = walk.step_by(CHUNK, spill, add) else {
            panic!("the bitmap was not refused");
        };
        walk.refuse_bitmap = false;
        assert_eq!(walk.step_by(CHUNK, spill, add).unwrap_err(), refused);
        assert_eq!((walk.spare.len(), walk.failed.is_some()), (0, true));
    }

    /// A task's result is within the bookkeeping [`bytes`] allows it.
    #[test]
    fn a_part_is_within_its_bookkeeping() {
        let size = std::mem::size_of::<Part<u64>>() as u64;
        assert!(size <= PART_BYTES, "a Part of {size} bytes");
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
            lists: Vec::new(),
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
        let lists = next.into_lists();
        assert_eq!(lists, vec![vec![0, 1, 2, 3, 4]]);
        // The room's list was made as large as the room, no larger.
        assert_eq!(lists[0].capacity(), 5);
        assert!(spilled.load(Ordering::Relaxed));
        let marked: u32 = bits
            .iter()
            .map(|w| w.load(Ordering::Relaxed).count_ones())
            .sum();
        assert_eq!(marked, 195);
    }
}
