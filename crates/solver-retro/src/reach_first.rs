//! Reachable-first: a game whose every tier is left by every move is
//! solved only at the positions reachable from a start, counted as they are
//! solved, in as little memory as the caller allows.
//!
//! The walk ([`crate::walk`]) marks the reachable positions of every tier
//! (a bit an index, kept); the tier pass ([`crate::tiers`]) then seeds only
//! marked positions — a reachable position's children are reachable, so
//! each finds its children solved — and tallies their outcomes. With
//! [`Keep::Start`] a table that no tier still to solve needs is dropped
//! and its memory map serves a later tier ([`Spare`]): on a fresh map every
//! page costs the kernel a clearing pass (a fifth of Connect Four 5×5's
//! time in the kernel before), a reused one costs nothing.

use game_core::{Tier, Tiered};

use crate::cell::{Cell, Cells, Table};
use crate::solution::Counts;
use crate::tier_solution::TieredSolution;
use crate::tiers::{run_stored, NoStore};
use crate::walk::{checked_counts, checked_sum, walk_tiers, TierBits, TierReach};
use crate::{Config, Error};

/// Solves the positions of `game` reachable from `start` and counts them
/// by outcome, each position weighing `weight(pos)` (1, or the size of its
/// class for a [`game_core::Canonical`] game): what [`solve_tiers_with`](crate::solve_tiers_with)
/// followed by [`reachable_tiers`](crate::reachable_tiers) gives, and with
/// [`Keep::Start`] in a fraction of the memory.
///
/// **Strategy.** When every tier is left by every move
/// ([`Tiered::leaves_tier`], e.g. Connect Four by pieces on the board),
/// the positions reachable from the start are found first (a bit an index
/// of every tier, held through the solve), and the backward pass then
/// solves only those and counts them as it goes: the children of a
/// reachable position are reachable, so nothing it needs is left out.
/// Every other index is left unsolved — no position in the tables, so
/// [`crate::Solved::value`] is `None` there and [`crate::certify_tiers`]
/// checks the reachable positions. With [`Keep::Start`] a table is
/// dropped once no tier still to solve needs it and its memory serves the
/// next tiers. A game with a loopy tier is solved whole by
/// [`solve_tiers_with`](crate::solve_tiers_with) and walked after (all its tables kept).
///
/// ```
/// use game_core::{Game, Tier, Tiered, Value};
/// use solver_retro::{Keep, Solved};
///
/// /// Take 1 or 2 from a pile; the tier is the pile, and every move leaves it.
/// struct Take12;
/// impl Game for Take12 {
///     type Position = u64;
///     type Move = u64;
///     fn moves(&self, &n: &u64, out: &mut Vec<u64>) { out.extend((1..=2).filter(|t| *t <= n)) }
///     fn play(&self, &n: &u64, &t: &u64) -> u64 { n - t }
/// }
/// impl Tiered for Take12 {
///     fn tiers(&self) -> Vec<Tier> { (0..=12).collect() }
///     fn tier(&self, &n: &u64) -> Tier { n }
///     fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>) {
///         out.extend((1..=2).filter(|k| *k <= t).map(|k| t - k))
///     }
///     fn tier_size(&self, _: Tier) -> u64 { 1 }
///     fn tier_index(&self, _: &u64) -> u64 { 0 }
///     fn tier_position(&self, t: Tier, _: u64) -> Option<u64> { Some(t) }
///     fn leaves_tier(&self, _: Tier) -> bool { true }
/// }
/// let config = solver_retro::Config::default();
/// let (sol, reach) = solver_retro::solve_tiers_reachable(&Take12, &9, &|_| 1, &config, Keep::Start)?;
/// assert_eq!(reach.count, 10); // piles 9 down to 0; 10 to 12 are not reached
/// assert_eq!(reach.counts.lose, 4); // 9, 6, 3 and 0
/// assert_eq!(sol.value(&9), Some(Value::lose(6)));
/// assert_eq!(sol.value(&12), None); // not reachable from 9: not solved
/// # Ok::<(), solver_retro::Error>(())
/// ```
///
/// # Errors
/// As [`solve_tiers_with`](crate::solve_tiers_with) and [`reachable_tiers`](crate::reachable_tiers);
/// [`Error::TooLarge`] also when the bitmaps and a tier's group do not fit
/// together; [`Error::Broken`] when a tier's solved positions are not the
/// ones reached.
pub fn solve_tiers_reachable<'g, G>(
    game: &'g G,
    start: &G::Position,
    weight: &(dyn Fn(&G::Position) -> u64 + Sync),
    config: &Config,
    keep: Keep,
) -> Result<(TieredSolution<'g, G>, TierReach), Error>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    if !game.tiers().iter().all(|&t| game.leaves_tier(t)) {
        let (sol, _) = run_stored(game, config, &mut NoStore, None)?;
        // The walk's bitmaps come on top of every table, held to the end.
        let held: u64 = sol
            .tables
            .tiers()
            .iter()
            .filter_map(|&t| sol.table(t))
            .map(Table::bytes)
            .sum();
        let walk = config
            .clone()
            .memory_limit(config.limit().saturating_sub(held));
        let reach = walk_tiers(
            game,
            start,
            &mut |t, _| Ok(sol.table(t).map(crate::Held::Borrowed)),
            weight,
            &walk,
            None,
        )?;
        return Ok((sol, reach));
    }
    // Walked unweighed: the solve weighs each position as it counts it.
    let mut bits = TierBits::default();
    let mut reach = walk_tiers(
        game,
        start,
        &mut |_, _| Ok(None),
        &|_| 1,
        config,
        Some(&mut bits),
    )?;
    let only = Only {
        bits: &bits,
        weight,
        keep,
        start: game.tier(start),
    };
    let (sol, counts) = run_stored(game, config, &mut NoStore, Some(&only))?;
    reach.counts = Counts::default();
    reach.count = 0;
    for (t, n, c) in &mut reach.tiers {
        let tally = counts.get(t).copied().unwrap_or_default();
        if tally.positions != *n {
            return Err(Error::Broken(format!(
                "tier {}: {n} positions reached but {} solved",
                game.tier_name(*t),
                tally.positions
            )));
        }
        let k = tally.counts;
        let total = [k.lose, k.tie, k.draw]
            .into_iter()
            .try_fold(k.win, checked_sum)?;
        (*n, *c) = (total, tally.counts);
        reach.count = checked_sum(reach.count, *n)?;
        reach.counts = checked_counts(reach.counts, *c)?;
    }
    Ok((sol, reach))
}

/// Only the positions reachable from a start, weighed for counting: a
/// solve given this leaves every other index unsolved (no position) and
/// counts the outcomes of the reachable ones as it finds them. For games
/// whose every tier is left by every move (a position's children are then
/// all in solved child tiers, and reachable when it is).
pub(crate) struct Only<'a, P> {
    /// A bit an index of every tier: reached from the start.
    pub(crate) bits: &'a TierBits,
    /// What each position counts for.
    pub(crate) weight: Weight<'a, P>,
    /// Which tables to hold at the end.
    pub(crate) keep: Keep,
    /// The start's tier, kept with [`Keep::Start`].
    pub(crate) start: Tier,
}

/// What a position counts for ([`solve_tiers_reachable`]).
pub(crate) type Weight<'a, P> = &'a (dyn Fn(&P) -> u64 + Sync);

/// Which tables [`solve_tiers_reachable`] holds when it returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Every tier's (a certificate, or value queries, can follow): no
    /// table is dropped, and a game whose tables cannot all be held
    /// beside the tier being solved (and the bitmaps) is refused before
    /// any tier is solved.
    All,
    /// Only the start's tier: every other table is dropped as soon as no
    /// tier still to solve needs it, and its memory is reused for the
    /// next tiers (no fresh pages for the kernel to clear) — the counts
    /// and the start's value at the least memory.
    Start,
}

/// Tables no longer needed, kept as memory maps to solve later tiers in
/// (at most [`Spare::MAX`], the largest), and the bytes a new table's map
/// reserves (`room`: the largest tier's, with [`Keep::Start`]) so that it
/// can serve any later tier — a map's pages are faulted in only as they
/// are written.
#[derive(Default)]
pub(crate) struct Spare {
    maps: Vec<memmap2::MmapMut>,
    /// The bytes a new map reserves.
    pub(crate) room: usize,
}

impl Spare {
    const MAX: usize = 2;

    /// Keeps `map` (the two largest maps kept) unless the pages it held,
    /// `written` bytes, pass `limit`: those stay resident while it waits.
    pub(crate) fn put(&mut self, map: memmap2::MmapMut, written: u64, limit: u64) {
        if written > limit {
            return;
        }
        self.maps.push(map);
        self.maps.sort_by_key(|m| std::cmp::Reverse(m.len()));
        self.maps.truncate(Self::MAX);
    }

    /// `len` cells for a tier (zero bits, or an old table's, until the
    /// caller writes every one): in the smallest spare map they fit, else
    /// in a fresh map of `room` bytes when that is more, else in a map of
    /// their own.
    pub(crate) fn cells<C: Cell>(&mut self, len: usize, limit: u64) -> Result<Cells<C>, Error> {
        let bytes = len.saturating_mul(C::BYTES as usize);
        if let Some(k) = self.maps.iter().rposition(|m| m.len() >= bytes) {
            if let Some(cells) = Cells::reuse(self.maps.remove(k), len) {
                return Ok(cells);
            }
        }
        if self.room > bytes {
            Cells::with_room(len, self.room)
        } else {
            Cells::new(len, None, limit)
        }
    }
}

/// The reachable positions a tier's solve found: their weighed outcomes,
/// and how many there are (unweighed).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Tally {
    /// The weighed outcomes.
    pub(crate) counts: Counts,
    /// The positions (unweighed).
    pub(crate) positions: u64,
}
