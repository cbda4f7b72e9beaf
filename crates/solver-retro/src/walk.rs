//! The positions reachable from a start, found breadth-first level by
//! level on all threads: one bit a position of a dense index, and the
//! levels in bounded memory (module `frontier`).

use std::sync::atomic::{AtomicU64, Ordering};

use game_core::{ChildIndices, Game, Indexed, IndexedChildren, Tier, Tiered};
use rayon::prelude::*;

use crate::solution::{checked_counts, checked_sum, Counts, IndexedSolution};
use crate::{Config, Error};

mod frontier;
mod runs;

use frontier::Ids;

/// A task's scratch in [`reachable`]: the children of a position, the
/// moves they are found by, and the runs of children marked last.
type Scratch<M> = (ChildIndices, Vec<M>, runs::Marked);

/// The positions reachable from a start of an [`Indexed`] game: a bit per
/// index, with the number of positions, of distinct moves between them and
/// of levels (plies from the start to the farthest new position, plus one).
#[derive(Debug)]
pub struct Reachable {
    bits: Vec<u64>,
    count: u64,
    moves: u64,
    levels: u64,
}

impl Reachable {
    /// The number of positions reachable (the start included).
    #[must_use]
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The number of distinct moves (position → distinct child) out of the
    /// reachable positions that are not over.
    #[must_use]
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The number of breadth-first levels: 1 + the most plies any reachable
    /// position needs from the start.
    #[must_use]
    pub fn levels(&self) -> u64 {
        self.levels
    }

    /// Whether the position at `index` is reachable.
    #[must_use]
    pub fn contains(&self, index: u64) -> bool {
        let w = (index / 64) as usize;
        self.bits.get(w).is_some_and(|b| b >> (index % 64) & 1 == 1)
    }

    /// The reachable indices in increasing order.
    pub fn indices(&self) -> impl Iterator<Item = u64> + '_ {
        self.bits.iter().enumerate().flat_map(|(w, &b)| {
            let mut b = b;
            std::iter::from_fn(move || {
                (b != 0).then(|| {
                    let i = b.trailing_zeros();
                    b &= b - 1;
                    w as u64 * 64 + u64::from(i)
                })
            })
        })
    }

    /// The reachable positions by outcome in `solution`, counted on all
    /// threads (a reachable index the solution does not cover is a draw).
    #[must_use]
    pub fn counts<G: Indexed + Sync>(&self, solution: &IndexedSolution<'_, G>) -> Counts {
        self.bits
            .par_chunks(1024)
            .enumerate()
            .map(|(k, words)| {
                let mut c = Counts::default();
                for (j, &b) in words.iter().enumerate() {
                    let mut b = b;
                    while b != 0 {
                        let i = ((k * 1024 + j) * 64) as u64 + u64::from(b.trailing_zeros());
                        b &= b - 1;
                        c.add(
                            solution
                                .value_at(i)
                                .map_or(game_core::Outcome::Draw, |v| v.outcome()),
                        );
                    }
                }
                c
            })
            .reduce(Counts::default, |mut a, b| {
                a += b;
                a
            })
    }
}

impl Reachable {
    /// The positions reached, counted as the tier walk counts them
    /// ([`TierReach`]) for a game of one tier, `tier`, whose tier index is
    /// the index walked: each position weighs `weight(pos)`, its outcome
    /// read from `table`; on all threads of `config`, the same counts for
    /// any number of them.
    ///
    /// # Errors
    /// [`Error::Broken`] for a reached index that is no position of the
    /// tier; [`Error::Unsolved`] for one the table holds no value for;
    /// [`Error::CountOverflow`] when the weighted counts pass `u64::MAX`.
    pub(crate) fn tier_reach<G: Tiered + Sync>(
        &self,
        game: &G,
        tier: Tier,
        table: &crate::Table,
        weight: &(dyn Fn(&G::Position) -> u64 + Sync),
        config: &Config,
    ) -> Result<TierReach, Error> {
        // Words of the bitmap a task counts.
        const WORDS: usize = 1024;
        let chunk = |(k, words): (usize, &[u64])| -> Result<Tally, Error> {
            let mut tally = Tally::default();
            for (j, &b) in words.iter().enumerate() {
                let mut b = b;
                while b != 0 {
                    let i = ((k * WORDS + j) * 64) as u64 + u64::from(b.trailing_zeros());
                    b &= b - 1;
                    let pos = game.tier_position(tier, i).ok_or_else(|| {
                        Error::Broken(format!(
                            "index {i} of tier {} was reached but is no position",
                            game.tier_name(tier)
                        ))
                    })?;
                    let o = table
                        .value(i)
                        .ok_or_else(|| Error::Unsolved {
                            tier: game.tier_name(tier),
                            index: i,
                        })?
                        .outcome();
                    let w = weight(&pos);
                    tally.weighted = checked_sum(tally.weighted, w)?;
                    tally.positions += 1;
                    tally.counts.add_many(o, w);
                }
            }
            Ok(tally)
        };
        let parts: Vec<Result<Tally, Error>> = if config.thread_count() == 1 {
            self.bits.chunks(WORDS).enumerate().map(chunk).collect()
        } else {
            config.install(|| self.bits.par_chunks(WORDS).enumerate().map(chunk).collect())
        };
        let mut total = Tally::default();
        for part in parts {
            total.add(part?)?;
        }
        Ok(TierReach {
            tiers: vec![(tier, total.weighted, total.counts)],
            count: total.weighted,
            canonical: total.positions,
            counts: total.counts,
        })
    }
}

/// The most memory [`reachable`] takes for a game of `size` indices: half a
/// byte an index — four bitmaps' worth: the positions seen, a spare level
/// bitmap, the level being expanded and the next level's lists, which
/// are cut off at a bitmap's worth of ids — and the tasks' bookkeeping,
/// 248 bytes for each 65,536 indices (8 KiB of bitmap); no less than
/// 16 KiB (lists of up to 1,024 ids however small the game). What it
/// checks against the memory limit, for a caller that holds other memory
/// meanwhile to plan for before it starts. Not counted: each thread's
/// scratch while it expands a position (2 KiB, and the game's children of
/// the position).
///
/// ```
/// // A bitmap of 8 MiB, four times, and 248 bytes for each 8 KiB.
/// assert_eq!(solver_retro::reachable_bytes(64 << 20), (32 << 20) + 248 * 1024);
/// assert_eq!(solver_retro::reachable_bytes(11), 2 * 8 + 2 * 8 * 1024 + 248);
/// ```
#[must_use]
pub fn reachable_bytes(size: u64) -> u64 {
    let words = size.div_ceil(64);
    frontier::bytes(words, frontier::list_cap(words))
}

/// Finds every position reachable from `start` (positions that are over
/// are counted and not continued), breadth-first, each level spread over
/// [`Config::threads`] threads.
///
/// Memory: a bit an index for the positions seen, and two levels at once
/// (the one being expanded and the next), each a list of ids while it is
/// small and a bitmap once it passes an id for every 64 indices. In all
/// half a byte an index and a little bookkeeping ([`reachable_bytes`]),
/// checked against the memory limit before anything is taken, however
/// wide a level grows.
///
/// # Errors
/// [`Error::TooLarge`] when the bitmaps pass the memory limit;
/// [`Error::BadIndex`] when the game indexes a position out of range.
///
/// ```
/// use game_core::{ChildIndices, Game, Indexed, IndexedChildren, Tier, Tiered};
/// struct Take12; // take 1 or 2 from a pile of at most 10
/// impl Game for Take12 {
///     type Position = u64;
///     type Move = u64;
///     fn moves(&self, n: &u64, out: &mut Vec<u64>) { out.extend((1..=2).filter(|t| t <= n)) }
///     fn play(&self, n: &u64, t: &u64) -> u64 { n - t }
/// }
/// impl Indexed for Take12 {
///     fn size(&self) -> u64 { 11 }
///     fn index(&self, n: &u64) -> u64 { *n }
///     fn position(&self, i: u64) -> Option<u64> { Some(i) }
/// }
/// impl IndexedChildren for Take12 {}
/// let r = solver_retro::reachable(&Take12, &7, &solver_retro::Config::default())?;
/// assert_eq!(r.count(), 8);        // 7 down to 0
/// assert_eq!(r.moves(), 13);       // two moves from 7..=2, one from 1
/// assert!(r.contains(0) && !r.contains(8));
/// # Ok::<(), solver_retro::Error>(())
/// ```
pub fn reachable<G>(game: &G, start: &G::Position, config: &Config) -> Result<Reachable, Error>
where
    G: IndexedChildren + Sync,
    G::Move: Send,
{
    let size = game.size();
    let words = size.div_ceil(64);
    let cap = frontier::list_cap(words);
    let needed = reachable_bytes(size);
    if needed > config.limit() || usize::try_from(words).is_err() {
        return Err(crate::error::too_large(
            "the bitmaps and levels of the reachable positions",
            needed,
            config.limit(),
            "",
        ));
    }
    let first = game.index(start);
    if first >= size {
        return Err(Error::BadIndex { index: first, size });
    }
    let seen = frontier::bitmap(words, config.limit())?;
    frontier::set(&seen, first);
    let (mut count, mut moves, mut levels) = (1u64, 0u64, 0u64);
    config.install(|| -> Result<(), Error> {
        let mut walk = frontier::Walk::new(first, words, cap, config.limit())?;
        loop {
            let expanded = walk.step(|i, out, (kids, mv, marked): &mut Scratch<G::Move>| {
                kids.clear();
                game.child_indices(i, kids, mv);
                let mut mark = |k: u64| -> Result<(), Error> {
                    if k >= size {
                        return Err(Error::BadIndex { index: k, size });
                    }
                    if frontier::set(&seen, k) {
                        out.push(k);
                    }
                    Ok(())
                };
                for &k in &kids.singles {
                    mark(k)?;
                }
                if let Some(run) = kids.runs.iter().find(|run| !run.within(size)) {
                    return Err(bad_run(i, run, size));
                }
                marked.mark_runs(&kids.runs, &mut mark)?;
                Ok(kids.len())
            })?;
            let Some((made, edges)) = expanded else {
                break;
            };
            levels += 1;
            moves += edges;
            count += made;
        }
        Ok(())
    })?;
    let bits = seen.into_iter().map(AtomicU64::into_inner).collect();
    Ok(Reachable {
        bits,
        count,
        moves,
        levels,
    })
}

/// The positions of a game without an index reachable from `start`,
/// breadth-first, numbered in the order found (the start is 0), with the
/// distinct children of each (`None` for a position that is over). Stops
/// with `Err(needed)` as soon as `budget(positions, moves)` says so.
pub(crate) fn explore<G: Game>(
    game: &G,
    start: G::Position,
    mut over_budget: impl FnMut(u64, u64) -> Option<u64>,
) -> Result<Explored<G::Position>, u64> {
    use rustc_hash::FxHashMap;
    let mut ids: FxHashMap<G::Position, u32> = FxHashMap::default();
    ids.insert(start.clone(), 0);
    let mut positions = vec![start];
    let mut counts: Vec<u32> = Vec::new();
    let mut over: Vec<bool> = Vec::new();
    let mut forward: Vec<u32> = Vec::new();
    let (mut moves, mut kids) = (Vec::new(), Vec::<u32>::new());
    let mut id = 0;
    while id < positions.len() {
        let pos = positions[id].clone();
        kids.clear();
        let ended = game.outcome(&pos).is_some();
        if !ended {
            moves.clear();
            game.moves(&pos, &mut moves);
            for m in &moves {
                let child = game.play(&pos, m);
                let next = positions.len();
                let cid = match ids.get(&child) {
                    Some(&c) => c,
                    None => {
                        let Ok(c) = u32::try_from(next) else {
                            return Err(u64::MAX);
                        };
                        ids.insert(child.clone(), c);
                        positions.push(child);
                        // Checked as positions come, not only once a
                        // position's children are all in: one start with
                        // 20 million children took 1.2 GB against a 1 MB
                        // limit before it was refused.
                        let edges = (forward.len() + kids.len()) as u64 + 1;
                        if let Some(needed) = over_budget(positions.len() as u64, edges) {
                            return Err(needed);
                        }
                        c
                    }
                };
                kids.push(cid);
            }
            kids.sort_unstable();
            kids.dedup();
        }
        over.push(ended);
        counts.push(kids.len() as u32);
        forward.extend_from_slice(&kids);
        if let Some(needed) = over_budget(positions.len() as u64, forward.len() as u64) {
            return Err(needed);
        }
        id += 1;
    }
    Ok(Explored {
        ids,
        positions,
        counts,
        over,
        forward,
    })
}

/// What [`explore`] found.
pub(crate) struct Explored<P> {
    /// Position → id.
    pub ids: rustc_hash::FxHashMap<P, u32>,
    /// Id → position, in the order found.
    pub positions: Vec<P>,
    /// The number of distinct children of each id.
    pub counts: Vec<u32>,
    /// Whether the game is over at each id ([`Game::outcome`] is `Some`).
    pub over: Vec<bool>,
    /// The children of every id in turn.
    pub forward: Vec<u32>,
}

/// The positions of a tiered game reachable from a start, counted tier by
/// tier ([`reachable_tiers`]).
#[derive(Debug, Clone, Default)]
pub struct TierReach {
    /// For each tier reached (parents first): the tier, the positions
    /// reached in it (weighted) and their outcomes (weighted).
    pub tiers: Vec<(Tier, u64, Counts)>,
    /// Positions reached in all (weighted).
    pub count: u64,
    /// Canonical positions reached (unweighted).
    pub canonical: u64,
    /// Outcomes of all positions reached (weighted).
    pub counts: Counts,
}

/// Walks a tiered game forward from `start`, parents first (the reverse of
/// [`Tiered::tiers`]), with one bitmap for each tier still to be visited
/// (a tier's bitmap is freed once the tier is done). Each position reached
/// counts `weight(pos)` — 1, or the size of its class when walking a
/// [`game_core::Canonical`] game — and its value is read from the table
/// `tables(tier, room)` gives for its tier (a draw where it gives no
/// table; a position its table holds no value for is an error): a
/// [`Held::Borrowed`] table of a solution in memory, or a
/// [`Held::Owned`] one loaded from a store, which counts against the
/// memory limit while the tier is walked: `room` is the bytes the walk
/// leaves it, to load it within. Positions that are over are
/// counted and not continued. Blocks of each tier run on all threads.
///
/// Memory: the bitmaps of the tiers still to visit, and for the tier
/// being walked a few bitmaps more where moves stay inside it (its levels
/// are lists while small and bitmaps past that, as in [`reachable`]),
/// all checked against the memory limit before they are taken.
///
/// # Errors
/// [`Error::TooLarge`] when the bitmaps, with an owned table, pass the
/// memory limit (a loader's refusal of a table within `room` is said so:
/// the walk's bytes in all against the limit, with the loader's advice);
/// [`Error::BadIndex`], [`Error::Broken`] when a child lies outside the
/// declared tiers; [`Error::Unsolved`] for a position reached that its
/// tier's table holds no value for; [`Error::CountOverflow`] when the
/// weighted counts pass `u64::MAX`.
pub fn reachable_tiers<'s, G>(
    game: &G,
    start: &G::Position,
    tables: &mut dyn FnMut(Tier, u64) -> Result<Option<Held<'s>>, Error>,
    weight: &(dyn Fn(&G::Position) -> u64 + Sync),
    config: &Config,
) -> Result<TierReach, Error>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    walk_tiers(game, start, tables, weight, config, None)
}

/// The bitmaps of the positions reachable from a start, one a tier (a bit
/// an index), kept by [`walk_tiers`] for a solve that skips the others.
pub(crate) type TierBits = rustc_hash::FxHashMap<Tier, Vec<u64>>;

/// [`reachable_tiers`], keeping every tier's bitmap in `keep` when given
/// (their bytes count against the memory limit with the bitmaps still
/// being filled).
pub(crate) fn walk_tiers<'s, G>(
    game: &G,
    start: &G::Position,
    tables: &mut dyn FnMut(Tier, u64) -> Result<Option<Held<'s>>, Error>,
    weight: &(dyn Fn(&G::Position) -> u64 + Sync),
    config: &Config,
    mut keep: Option<&mut TierBits>,
) -> Result<TierReach, Error>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    let mut kept_bytes = 0u64;
    let mut order = game.tiers();
    order.reverse();
    let mut bits: rustc_hash::FxHashMap<Tier, Vec<AtomicU64>> = Default::default();
    // The bytes of the bitmaps kept, those of the tiers still to walk and
    // `extra` bytes beside them.
    let holding =
        |bits: &rustc_hash::FxHashMap<Tier, Vec<AtomicU64>>, kept_bytes: u64, extra: u64| {
            bits.values()
                .map(|b| b.len() as u64 * 8)
                .fold(kept_bytes.saturating_add(extra), u64::saturating_add)
        };
    // `Ok` when those fit in the memory limit.
    let fits = |bits: &rustc_hash::FxHashMap<Tier, Vec<AtomicU64>>,
                kept_bytes: u64,
                extra: u64|
     -> Result<(), Error> {
        let held = holding(bits, kept_bytes, extra);
        if held > config.limit() {
            return Err(crate::error::too_large(
                "the bitmaps of reachable positions",
                held,
                config.limit(),
                "",
            ));
        }
        Ok(())
    };
    // A bitmap for tier `t`, beside `walking`, the bytes of the tier
    // being walked ([`tier_walk_bytes`]).
    let want = |t: Tier,
                bits: &mut rustc_hash::FxHashMap<Tier, Vec<AtomicU64>>,
                kept_bytes: u64,
                walking: u64|
     -> Result<(), Error> {
        if bits.contains_key(&t) {
            return Ok(());
        }
        let words = game.tier_size(t).div_ceil(64);
        fits(
            bits,
            kept_bytes,
            words.saturating_mul(8).saturating_add(walking),
        )?;
        bits.insert(t, frontier::bitmap(words, config.limit())?);
        Ok(())
    };
    let t0 = game.tier(start);
    want(t0, &mut bits, kept_bytes, 0)?;
    let i0 = game.tier_index(start);
    let size0 = game.tier_size(t0);
    if i0 >= size0 {
        return Err(Error::BadIndex {
            index: i0,
            size: size0,
        });
    }
    bits[&t0][(i0 / 64) as usize].fetch_or(1 << (i0 % 64), Ordering::Relaxed);
    let mut reach = TierReach::default();
    let mut kids = Vec::new();
    for &t in &order {
        let Some(mine) = bits.remove(&t) else {
            continue;
        };
        // A declared child tier that no move reached: nothing to walk, so
        // no table to load and no bitmaps for its own child tiers (its
        // table was loaded and its child tiers' bitmaps taken for a walk
        // that found nothing).
        if mine.iter().all(|w| w.load(Ordering::Relaxed) == 0) {
            continue;
        }
        let leaves = game.leaves_tier(t);
        // This tier's bitmap, no longer in `bits`, is held to the end of
        // its walk, with what walking it takes.
        let words = mine.len() as u64;
        let walking = tier_walk_bytes(words, leaves);
        fits(&bits, kept_bytes, walking)?;
        kids.clear();
        game.child_tiers(t, &mut kids);
        for &c in &kids {
            want(c, &mut bits, kept_bytes, walking)?;
        }
        // A table loaded for the tier (owned) is held beside all that to
        // the end of the tier: the loader is told the room left, and a
        // table past it is refused. (It was not counted: a walk from a
        // store held every bitmap and a tier's table over the limit.)
        let beside = holding(&bits, kept_bytes, walking);
        let room = config.limit().saturating_sub(beside);
        // A loader's refusal within the room names the room, a figure of
        // the walk's own that the caller never gave: it is said again as
        // what the walk needs in all, against the memory limit, with the
        // loader's advice. (It said "more than the 68639 bytes available"
        // under a limit of 68640.)
        let held = tables(t, room).map_err(|e| match e {
            Error::TooLarge(e)
                if e.resource == game_core::budget::Resource::Memory
                    && e.available == room
                    && e.needed > room =>
            {
                crate::error::too_large(
                    format!(
                        "the walk of the reachable positions (its bitmaps, {}, and {}, {})",
                        game_core::budget::human_bytes(beside),
                        e.what,
                        game_core::budget::human_bytes(e.needed)
                    ),
                    beside.saturating_add(e.needed),
                    config.limit(),
                    e.raise,
                )
            }
            e => e,
        })?;
        if let Some(Held::Owned(table)) = &held {
            let needed = holding(&bits, kept_bytes, walking.saturating_add(table.bytes()));
            if needed > config.limit() {
                return Err(crate::error::too_large(
                    format!(
                        "the bitmaps of reachable positions and the table of tier {}",
                        game.tier_name(t)
                    ),
                    needed,
                    config.limit(),
                    "",
                ));
            }
        }
        let table = held.as_deref();
        let bits = &bits;
        let kids = &kids;
        // A tier every move leaves has no moves inside: its bits are
        // taken as they are (in place, no copy) and a move inside is an
        // error. In a tier with moves inside, `mine` holds the positions
        // seen, and the walk (module `frontier`) goes on from those
        // reached from parent tiers level by level.
        let (snapshot, mine): (Vec<u64>, Vec<AtomicU64>) = if leaves {
            (
                mine.into_iter().map(AtomicU64::into_inner).collect(),
                Vec::new(),
            )
        } else {
            (Vec::new(), mine)
        };
        // The bitmaps a move may mark, with their tiers' sizes: this
        // tier's and its declared child tiers', found once here, not in
        // the map for every move.
        let maps: Vec<(Tier, &[AtomicU64], u64)> =
            std::iter::once((t, &mine[..], game.tier_size(t)))
                .chain(
                    kids.iter()
                        .filter_map(|&c| Some((c, bits.get(&c)?.as_slice(), game.tier_size(c)))),
                )
                .collect();
        let step = Step {
            game,
            tier: t,
            leaves,
            maps: &maps,
            table,
            weight,
        };
        let mut total = Tally::default();
        if leaves {
            let blocks: Vec<Result<Tally, Error>> = snapshot
                .par_chunks(BLOCK)
                .enumerate()
                .map(|(b, words)| step.block((b * BLOCK * 64) as u64, words, &mut |_| {}))
                .collect();
            for b in blocks {
                total.add(b?)?;
            }
        } else {
            // Each level is a list while small and a bitmap past a list's
            // cap, within [`tier_walk_bytes`]. (It was a list whatever its
            // size, uncounted: up to 8 bytes a position of the tier.) The
            // first level, every position reached from parent tiers, is a
            // bitmap gone through by the game's own walk of the tier;
            // later ones are decoded id by id.
            let cap = frontier::list_cap(words);
            let mut walk = frontier::Walk::from_seen(&mine, cap, config.limit())?;
            let mut first = true;
            while let Some((_, tally)) = walk.step_by(
                BLOCK,
                |ids, next| match ids {
                    Ids::Bits { first: from, words } if first => {
                        step.block(from, words, &mut |k| next.push(k))
                    }
                    ids => step.each(ids.iter(), &mut |k| next.push(k)),
                },
                Tally::add,
            )? {
                first = false;
                total.add(tally)?;
            }
        }
        if let Some(keep) = keep.as_deref_mut() {
            let reached: Vec<u64> = if leaves {
                snapshot
            } else {
                mine.into_iter().map(AtomicU64::into_inner).collect()
            };
            kept_bytes += reached.len() as u64 * 8;
            keep.insert(t, reached);
        }
        let (tier_n, tier_counts) = (total.weighted, total.counts);
        reach.canonical += total.positions;
        reach.count = checked_sum(reach.count, tier_n)?;
        reach.counts = checked_counts(reach.counts, tier_counts)?;
        reach.tiers.push((t, tier_n, tier_counts));
    }
    // A tier reached but never walked: `tiers` left it out, or listed it
    // before a tier with moves into it. Its positions would go uncounted.
    if let Some((&t, _)) = bits
        .iter()
        .find(|(_, b)| b.iter().any(|w| w.load(Ordering::Relaxed) != 0))
    {
        return Err(Error::Broken(format!(
            "tier {} was reached after it was walked, or was never walked: `tiers` must list \
             every tier, each after the tiers with moves into it",
            game.tier_name(t)
        )));
    }
    Ok(reach)
}

/// Words of a tier's bitmap a task of [`walk_tiers`] takes.
const BLOCK: usize = 256;

/// The bytes [`walk_tiers`] holds for a tier of `words` words of bitmap
/// while it walks it, that [`walk_tiers`] checks beside the bitmaps of
/// the tiers still to walk and those kept. For a tier every move leaves
/// (`leaves`): its bitmap and a result of a few dozen bytes for each
/// block. For a tier with moves inside: the walk of its levels
/// ([`frontier::bytes_by`]) — its bitmap of positions seen, a spare, the
/// level being expanded (the first, a copy of the positions reached from
/// parent tiers) and the next level's lists, each at most a bitmap's
/// worth, and the tasks' results. (The levels were lists whatever their
/// size, not counted: up to 8 bytes a position of the tier.)
fn tier_walk_bytes(words: u64, leaves: bool) -> u64 {
    if leaves {
        let blocks = words.div_ceil(BLOCK as u64);
        let result = std::mem::size_of::<Result<Tally, Error>>() as u64;
        words
            .saturating_mul(8)
            .saturating_add(blocks.saturating_mul(result))
    } else {
        frontier::bytes_by(words, frontier::list_cap(words), BLOCK)
    }
}

/// What part of a tier's walk found.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    /// Positions reached, weighted.
    weighted: u64,
    /// Positions reached.
    positions: u64,
    /// Their outcomes, weighted.
    counts: Counts,
}

impl Tally {
    /// Adds what another part found.
    ///
    /// # Errors
    /// [`Error::CountOverflow`] when the weighted counts pass `u64::MAX`.
    fn add(&mut self, o: Tally) -> Result<(), Error> {
        self.weighted = checked_sum(self.weighted, o.weighted)?;
        self.positions += o.positions;
        self.counts = checked_counts(self.counts, o.counts)?;
        Ok(())
    }
}

/// A task's scratch in a tier's walk: the children of a position and the
/// moves they are found by.
struct Buffers<M> {
    out: Vec<(Tier, u64)>,
    moves: Vec<M>,
}

impl<M> Default for Buffers<M> {
    fn default() -> Self {
        Buffers {
            out: Vec::new(),
            moves: Vec::new(),
        }
    }
}

/// The shared view of one tier's walk.
struct Step<'a, G: Tiered> {
    game: &'a G,
    tier: Tier,
    /// Whether every move leaves the tier (then its own bitmap is empty).
    leaves: bool,
    /// The bitmaps of this tier (first) and of its declared child tiers,
    /// with each tier's size.
    maps: &'a [(Tier, &'a [AtomicU64], u64)],
    table: Option<&'a crate::Table>,
    weight: &'a (dyn Fn(&G::Position) -> u64 + Sync),
}

impl<G: Tiered> Step<'_, G> {
    /// Visits the positions of a block of the tier's bitmap, `words` from
    /// index `first`, in index order through the game's own walk, which is
    /// much cheaper than decoding each index. `inside` takes each index of
    /// the tier first reached by a move inside it.
    ///
    /// # Errors
    /// As [`Step::visit`]; [`Error::Broken`] when `visit_tier` gives an
    /// index outside the block, out of order, or no position at an index
    /// reached.
    fn block(
        &self,
        first: u64,
        words: &[u64],
        inside: &mut impl FnMut(u64),
    ) -> Result<Tally, Error> {
        let (game, t) = (self.game, self.tier);
        let mut tally = Tally::default();
        if words.iter().all(|&w| w == 0) {
            return Ok(tally);
        }
        let mut buffers = Buffers::default();
        let mut fault = None;
        let mut seen = 0u64;
        // The index visited last: each comes once, in order, so that a
        // position is never counted twice.
        let mut last = None;
        let len = words.len() * 64;
        game.visit_tier(t, first..first + len as u64, &mut |i, pos| {
            if fault.is_some() {
                return;
            }
            let Some(j) = crate::cell::offset_in(i, first, len) else {
                fault = Some(crate::seed::visited_outside(
                    game,
                    t,
                    i,
                    first..first + len as u64,
                ));
                return;
            };
            if let Some(before) = last.filter(|&before| i <= before) {
                fault = Some(Error::Broken(format!(
                    "visit_tier of tier {} gave index {i} after index {before}: it \
                     must give each position once, in index order",
                    game.tier_name(t)
                )));
                return;
            }
            last = Some(i);
            if words[j / 64] >> (j % 64) & 1 == 0 {
                return;
            }
            seen += 1;
            if let Err(e) = self.visit(i, &pos, &mut tally, &mut buffers, inside) {
                fault = Some(e);
            }
        });
        let reached: u64 = words.iter().map(|w| u64::from(w.count_ones())).sum();
        // Each index came once, and only reached ones were seen: `seen` is
        // at most `reached`.
        if fault.is_none() && reached != seen {
            fault = Some(Error::Broken(format!(
                "{} indices of tier {} were reached but visit_tier gave no position there",
                reached - seen,
                game.tier_name(t)
            )));
        }
        match fault {
            Some(e) => Err(e),
            None => Ok(tally),
        }
    }

    /// Visits the positions at `ids`, each decoded from its index.
    ///
    /// # Errors
    /// As [`Step::visit`]; [`Error::Broken`] for an index that is no
    /// position.
    fn each(
        &self,
        ids: impl Iterator<Item = u64>,
        inside: &mut impl FnMut(u64),
    ) -> Result<Tally, Error> {
        let mut tally = Tally::default();
        let mut buffers = Buffers::default();
        for i in ids {
            let pos = self.game.tier_position(self.tier, i).ok_or_else(|| {
                Error::Broken(format!(
                    "index {i} of tier {} was reached but is no position",
                    self.game.tier_name(self.tier)
                ))
            })?;
            self.visit(i, &pos, &mut tally, &mut buffers, inside)?;
        }
        Ok(tally)
    }

    /// Counts a reached position and marks its children; `inside` takes
    /// each child in this tier marked for the first time.
    fn visit(
        &self,
        i: u64,
        pos: &G::Position,
        tally: &mut Tally,
        buffers: &mut Buffers<G::Move>,
        inside: &mut impl FnMut(u64),
    ) -> Result<(), Error> {
        let game = self.game;
        let k = (self.weight)(pos);
        tally.weighted = checked_sum(tally.weighted, k)?;
        tally.positions += 1;
        // A tier given no table counts as drawn; a table that holds no
        // value for a position reached is refused, not read as a draw.
        let o = match self.table {
            None => game_core::Outcome::Draw,
            Some(tb) => tb
                .value(i)
                .ok_or_else(|| Error::Unsolved {
                    tier: game.tier_name(self.tier),
                    index: i,
                })?
                .outcome(),
        };
        // Within the weighted total just checked: no outcome's count
        // can pass it.
        tally.counts.add_many(o, k);
        if game.outcome(pos).is_some() {
            return Ok(());
        }
        let out = &mut buffers.out;
        out.clear();
        game.child_tier_indices(pos, out, &mut buffers.moves);
        for &(ct, ci) in out.iter() {
            if self.leaves && ct == self.tier {
                return Err(Error::Broken(format!(
                    "a move stays inside tier {}, which the game says every move leaves",
                    game.tier_name(ct)
                )));
            }
            let Some(&(_, map, size)) = self.maps.iter().find(|m| m.0 == ct) else {
                return Err(Error::Broken(format!(
                    "a move from tier {} reaches tier {}, which is not among its declared child tiers",
                    game.tier_name(self.tier),
                    game.tier_name(ct)
                )));
            };
            // Checked against the size, not the bitmap: an index past the
            // size but inside the last word would be marked, decoded and
            // counted.
            let word = map.get((ci / 64) as usize).filter(|_| ci < size);
            let Some(word) = word else {
                return Err(Error::BadIndex { index: ci, size });
            };
            let bit = 1u64 << (ci % 64);
            if word.load(Ordering::Relaxed) & bit == 0
                && word.fetch_or(bit, Ordering::Relaxed) & bit == 0
                && ct == self.tier
            {
                inside(ci);
            }
        }
        Ok(())
    }
}

/// A table borrowed from a solution or owned (loaded from a store).
pub enum Held<'a> {
    /// Borrowed: memory the caller holds anyway, not counted by the walk.
    Borrowed(&'a crate::Table),
    /// Owned: counted against the walk's memory limit while it is held.
    Owned(crate::Table),
}

impl std::ops::Deref for Held<'_> {
    type Target = crate::Table;
    fn deref(&self) -> &crate::Table {
        match self {
            Held::Borrowed(t) => t,
            Held::Owned(t) => t,
        }
    }
}

/// The error for a run of children that breaks its promises
/// ([`Run::within`](game_core::Run::within)): a child past the
/// size, or one child repeated.
fn bad_run(parent: u64, run: &game_core::Run, size: u64) -> Error {
    Error::Broken(format!(
        "child_indices of index {parent} gave the run {run:?}, which repeats a child or \
         passes the size {size}"
    ))
}

#[cfg(test)]
mod tests;
