//! Reachable-first: a game whose every tier is left by every move is
//! solved only at the positions reachable from a start, counted as they are
//! solved, in as little memory as the caller allows.
//!
//! The walk ([`crate::walk`]) marks the reachable positions of every tier
//! (a bit an index, kept); the tier pass ([`crate::tiers`]) then seeds only
//! marked positions — a reachable position's children are reachable, so
//! each finds its children solved — and tallies their outcomes. With
//! [`Keep::Start`] a table that no tier still to solve needs is dropped
//! and its memory map serves a later tier: on a fresh map every
//! page costs the kernel a clearing pass (a fifth of Connect Four 5×5's
//! time in the kernel before), a reused one costs nothing.

use game_core::Tiered;

use crate::solution::{checked_counts, checked_sum, Counts};
use crate::tier_solution::TieredSolution;
use crate::tiers::{run_tiers, Keep, NoStore, Only};
use crate::walk::{walk_tiers, TierBits, TierReach};
use crate::{Config, Error};

/// Solves the positions of `game` reachable from `start`, and counts them
/// by outcome, each weighing `weight(pos)`, for a game whose every tier is
/// left by every move (the caller, [`crate::TierSolver`], has checked):
/// the walk marks them, the tier pass solves and tallies only them.
///
/// # Errors
/// The walk's and the tier pass's; [`Error::Broken`] when a tier's solved
/// positions are not the ones reached.
pub(crate) fn solve_reachable<'g, G>(
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
    let (sol, counts) = run_tiers(game, config, &mut NoStore, None, Some(&only))?;
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
