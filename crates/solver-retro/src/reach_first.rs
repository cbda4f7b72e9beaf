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

/// Tests of the reachable-first tier solve.
#[cfg(test)]
mod tests {
    use crate::fixtures::testing::{reached_from, reference, tiered_graph, Skip};
    use crate::Solved;
    use crate::{Config, Error};
    use game_core::{Game, Value};
    use proptest::prelude::*;

    proptest! {
        /// Reachable-first (every tier loop-free) and the fallback (a loopy
        /// tier: solved whole, walked after) equal the reference on every
        /// position reachable from the start; the counts equal the
        /// reference's outcomes of the nodes a plain search reaches; with
        /// every tier loop-free the others are left unsolved, and
        /// [`crate::Keep::Start`] keeps the start's value.
        #[test]
        fn reachable_first_equals_the_whole_graph(g in tiered_graph(), pick in any::<usize>(), all_leave in any::<bool>()) {
            let mut g = g;
            if all_leave {
                // Keep only the moves that leave a tier, and declare it.
                for p in 0..g.graph.edges.len() {
                    let t = g.tier[p];
                    g.graph.edges[p].retain(|&c| g.tier[c] < t);
                }
                g.leaves.iter_mut().for_each(|l| *l = true);
            }
            let loop_free = g.leaves.iter().all(|&l| l);
            let want = reference(&g.graph);
            let start = pick % g.graph.edges.len();
            let seen = reached_from(&g.graph, start);
            let mut counts = crate::Counts::default();
            for (p, &w) in want.iter().enumerate() {
                if seen[p] {
                    counts.add(w.outcome());
                }
            }
            for threads in [1, 3] {
                let config = Config::default().threads(threads);
                for keep in [crate::Keep::All, crate::Keep::Start] {
                    let (sol, reach) =
                        crate::solve_tiers_reachable(&g, &start, &|_| 1, &config, keep).unwrap();
                    prop_assert_eq!(reach.counts, counts, "{} threads", threads);
                    prop_assert_eq!(reach.count, seen.iter().filter(|&&s| s).count() as u64);
                    prop_assert_eq!(sol.value(&start), Some(want[start]));
                    if keep == crate::Keep::Start && loop_free {
                        continue;
                    }
                    for (p, &w) in want.iter().enumerate() {
                        let expect = (seen[p] || !loop_free).then_some(w);
                        prop_assert_eq!(sol.value(&p), expect, "{} threads, at {}", threads, p);
                    }
                    prop_assert!(crate::certify_tiers(&sol).is_ok());
                }
            }
        }
    }

    /// The reachable-first solve with [`crate::Keep::All`] holds every table
    /// too (it dropped them past half the limit like a solve with a store):
    /// from tier 4's position every reached position answers.
    #[test]
    fn the_reachable_solve_keeping_all_holds_every_table() {
        let n = Skip::N;
        let config = Config::default().threads(1).memory_limit(8 * n);
        let (sol, reach) =
            crate::solve_tiers_reachable(&Skip, &(4, 0), &|_| 1, &config, crate::Keep::All)
                .unwrap();
        // (4, 0) moves to (2, 0), which moves to (0, 0).
        assert_eq!(reach.count, 3);
        assert_eq!(sol.value(&(4, 0)), Some(Value::lose(2)));
        assert_eq!(sol.value(&(2, 0)), Some(Value::win(1)));
        assert_eq!(sol.value(&(0, 0)), Some(Value::lose(0)));
        assert_eq!(sol.value(&(2, 1)), None); // not reached: not solved
        assert!(crate::certify_tiers(&sol).is_ok());
    }

    /// Tier 1 holds the start, which moves to either position of tier 0
    /// (both lost), or, `one_child`, to the first only.
    struct Fork {
        one_child: bool,
    }

    impl Game for Fork {
        type Position = (u64, u64);
        type Move = u64;
        fn moves(&self, &(t, _): &(u64, u64), out: &mut Vec<u64>) {
            if t == 1 {
                out.push(0);
                if !self.one_child {
                    out.push(1);
                }
            }
        }
        fn play(&self, _: &(u64, u64), &i: &u64) -> (u64, u64) {
            (0, i)
        }
    }

    impl game_core::Tiered for Fork {
        fn tiers(&self) -> Vec<u64> {
            vec![0, 1]
        }
        fn tier(&self, p: &(u64, u64)) -> u64 {
            p.0
        }
        fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
            if t == 1 {
                out.push(0);
            }
        }
        fn tier_size(&self, t: u64) -> u64 {
            2 - t
        }
        fn tier_index(&self, p: &(u64, u64)) -> u64 {
            p.1
        }
        fn tier_position(&self, t: u64, i: u64) -> Option<(u64, u64)> {
            (t < 2 && i < 2 - t).then_some((t, i))
        }
        fn leaves_tier(&self, _: u64) -> bool {
            true
        }
    }

    /// The reachable-first solve counts its weighted positions in checked
    /// sums: weights of 2⁶³ pass 2⁶⁴ − 1 inside a tier (the two positions of
    /// tier 0) or across tiers (the start and one child), and the solve is
    /// `Error::CountOverflow` (it panicked in debug builds and wrapped in
    /// release). Weights that sum to `u64::MAX - 1` are counted exactly.
    #[test]
    fn the_reachable_solve_refuses_weighted_counts_past_u64() {
        let config = Config::default().threads(1);
        let big = |_: &(u64, u64)| 1u64 << 63;
        for one_child in [false, true] {
            let game = Fork { one_child };
            let r = crate::solve_tiers_reachable(&game, &(1, 0), &big, &config, crate::Keep::All);
            assert!(
                matches!(r, Err(Error::CountOverflow { .. })),
                "one child: {one_child}: {:?}",
                r.map(|(_, reach)| reach.count)
            );
        }
        let fits = |p: &(u64, u64)| if p.0 == 1 { 1u64 << 63 } else { (1 << 62) - 1 };
        let fork = Fork { one_child: false };
        let (_, reach) =
            crate::solve_tiers_reachable(&fork, &(1, 0), &fits, &config, crate::Keep::All).unwrap();
        assert_eq!(reach.count, u64::MAX - 1);
        assert_eq!(reach.counts.win, 1 << 63);
        assert_eq!(reach.counts.lose, (1 << 63) - 2);
    }
}
