//! What a solved tier holds ([`TierStats`]): its positions by outcome,
//! stored and weighed by their classes, by outcome and remoteness, the
//! longest win and loss, the most moves at one position — what `analyze`
//! reports of a database, computed here beside the table it measures.

use std::collections::BTreeMap;

use game_core::{Outcome, Tier, Tiered};
use rayon::prelude::*;

use crate::cell::Table;
use crate::solution::Counts;

/// A measure taken at one position: its size (a remoteness, a number of
/// moves), the tier and the index where it was found.
pub type Example<T> = (T, Tier, u64);

/// Statistics of the positions of one tier's table, or of several merged
/// ([`TierStats::merge`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct TierStats {
    /// Positions stored (canonical ones, for a [`game_core::Canonical`]
    /// game) by outcome.
    pub canonical: Counts,
    /// Positions by outcome, each stored one weighing its class.
    pub all: Counts,
    /// (outcome, remoteness) → positions stored; draws have none.
    pub by_remoteness: BTreeMap<(Outcome, u32), u64>,
    /// The longest win: its remoteness, where it is. On a tie the first
    /// found (the lowest tier, then index).
    pub longest_win: Option<Example<u32>>,
    /// The longest loss, likewise.
    pub longest_loss: Option<Example<u32>>,
    /// The most moves at one position not over, likewise.
    pub most_moves: Option<Example<usize>>,
    /// The first index the game gives a position at that the table holds
    /// no value for: every position of a solved tier has one, so this is
    /// damage (records whose checksums hold but that are wrong).
    pub unrecorded: Option<u64>,
}

/// The larger of two examples; on a tie the one found first (the lowest
/// tier, then index).
fn larger<T: Ord + Copy>(a: Option<Example<T>>, b: Option<Example<T>>) -> Option<Example<T>> {
    match (a, b) {
        (Some(x), Some(y)) => Some(
            if (y.0, std::cmp::Reverse((y.1, y.2))) > (x.0, std::cmp::Reverse((x.1, x.2))) {
                y
            } else {
                x
            },
        ),
        (x, None) => x,
        (None, y) => y,
    }
}

impl TierStats {
    /// The statistics of tier `tier` of `game` from its solved `table`,
    /// each position weighing `weight(pos)` in [`all`](Self::all) (1, or
    /// the size of its class), on the current rayon pool, in blocks of
    /// 2¹⁴ indices (the figures do not depend on the threads).
    pub fn of_tier<G>(
        game: &G,
        tier: Tier,
        table: &Table,
        weight: &(dyn Fn(&G::Position) -> u64 + Sync),
    ) -> TierStats
    where
        G: Tiered + Sync,
        G::Position: Send,
        G::Move: Send,
    {
        const BLOCK: u64 = 1 << 14;
        let size = game.tier_size(tier);
        (0..size.div_ceil(BLOCK))
            .into_par_iter()
            .map(|b| {
                let mut s = TierStats::default();
                let mut moves = Vec::new();
                game.visit_tier(tier, b * BLOCK..size.min((b + 1) * BLOCK), &mut |i, pos| {
                    s.add(game, tier, i, &pos, table, weight, &mut moves);
                });
                s
            })
            .reduce(TierStats::default, TierStats::merge)
    }

    /// Counts position `pos`, index `i` of `tier`.
    #[allow(clippy::too_many_arguments)]
    fn add<G: Tiered>(
        &mut self,
        game: &G,
        tier: Tier,
        i: u64,
        pos: &G::Position,
        table: &Table,
        weight: &(dyn Fn(&G::Position) -> u64 + Sync),
        moves: &mut Vec<G::Move>,
    ) {
        let Some(v) = table.value(i) else {
            self.unrecorded = Some(self.unrecorded.map_or(i, |u| u.min(i)));
            return;
        };
        let w = weight(pos);
        self.canonical.add(v.outcome());
        for _ in 0..w {
            self.all.add(v.outcome());
        }
        if let Some(r) = v.remoteness() {
            *self.by_remoteness.entry((v.outcome(), r)).or_default() += 1;
        }
        match (v.outcome(), v.remoteness()) {
            (Outcome::Win, Some(r)) => {
                self.longest_win = larger(self.longest_win, Some((r, tier, i)))
            }
            (Outcome::Lose, Some(r)) => {
                self.longest_loss = larger(self.longest_loss, Some((r, tier, i)));
            }
            _ => {}
        }
        if game.outcome(pos).is_none() {
            moves.clear();
            game.moves(pos, moves);
            self.most_moves = larger(self.most_moves, Some((moves.len(), tier, i)));
        }
    }

    /// Both statistics together (of two blocks, or two tiers).
    #[must_use]
    pub fn merge(mut self, o: TierStats) -> TierStats {
        self.canonical += o.canonical;
        self.all += o.all;
        for (k, v) in o.by_remoteness {
            *self.by_remoteness.entry(k).or_default() += v;
        }
        self.longest_win = larger(self.longest_win, o.longest_win);
        self.longest_loss = larger(self.longest_loss, o.longest_loss);
        self.most_moves = larger(self.most_moves, o.most_moves);
        self.unrecorded = match (self.unrecorded, o.unrecorded) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self
    }
}

/// The statistics against an independent count: the reference solver's
/// values of random tiered graphs, tallied position by position here.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::testing::{reference, tiered_graph};
    use game_core::Game;
    use proptest::prelude::*;

    proptest! {
        /// Every tier's statistics, merged, equal a direct tally of the
        /// reference's values (outcomes, weighed by 1 and by 2, the
        /// remoteness histogram, the longest win and loss, the most moves,
        /// each first in tier then index order); none unrecorded; 1 and 3
        /// threads alike.
        #[test]
        fn the_statistics_of_every_tier_equal_a_direct_tally(g in tiered_graph()) {
            let want = reference(&g.graph);
            let sol = crate::solve_tiers(&g).unwrap();
            let mut expect = TierStats::default();
            let mut order: Vec<(u64, u64, usize)> = (0..want.len())
                .map(|p| (g.tier[p], g.members[g.tier[p] as usize].iter().position(|&q| q == p).unwrap() as u64, p))
                .collect();
            order.sort_unstable();
            for &(t, i, p) in &order {
                let v = want[p];
                expect.canonical.add(v.outcome());
                expect.all.add(v.outcome());
                expect.all.add(v.outcome());
                if let Some(r) = v.remoteness() {
                    *expect.by_remoteness.entry((v.outcome(), r)).or_default() += 1;
                }
                let better = |e: Option<(u32, u64, u64)>, r: u32| e.is_none_or(|(b, _, _)| r > b);
                match (v.outcome(), v.remoteness()) {
                    (Outcome::Win, Some(r)) if better(expect.longest_win, r) => expect.longest_win = Some((r, t, i)),
                    (Outcome::Lose, Some(r)) if better(expect.longest_loss, r) => expect.longest_loss = Some((r, t, i)),
                    _ => {}
                }
                if g.outcome(&p).is_none() {
                    let mut m = Vec::new();
                    g.moves(&p, &mut m);
                    if expect.most_moves.is_none_or(|(b, _, _)| m.len() > b) {
                        expect.most_moves = Some((m.len(), t, i));
                    }
                }
            }
            for threads in [1, 3] {
                let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
                let got = pool.install(|| {
                    g.tiers().into_iter().fold(TierStats::default(), |s, t| {
                        s.merge(TierStats::of_tier(&g, t, sol.table(t).unwrap(), &|_| 2))
                    })
                });
                prop_assert_eq!(&got, &expect, "{} threads", threads);
            }
        }
    }

    /// A table that lacks a position's value (a damaged record) is said:
    /// the first such index.
    #[test]
    fn a_position_without_a_value_is_reported_unrecorded() {
        let game = crate::fixtures::testing::Skip;
        let sol = crate::solve_tiers(&game).unwrap();
        let short = Table::new(3, false).unwrap();
        let s = TierStats::of_tier(&game, 2, &short, &|_| 1);
        assert_eq!(s.unrecorded, Some(0));
        let whole = TierStats::of_tier(&game, 2, sol.table(2).unwrap(), &|_| 1);
        assert_eq!(whole.unrecorded, None);
        assert_eq!(whole.canonical.total(), game.tier_size(2));
    }
}
