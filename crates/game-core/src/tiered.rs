//! [`Tiered`]: positions split into tiers that moves only leave towards
//! tiers solved earlier, each tier with a dense index of its own.

use crate::{Game, Outcome};

/// A tier's number. Tiers are named by the game (Connect Four: the number of
/// pieces on the board); the number is also how a database names a tier's
/// file.
pub type Tier = u64;

capability! {
    macro tiered_methods;
    /// Positions split into *tiers* such that a move from a position of tier `t`
    /// leads to `t` itself or to one of `t`'s child tiers, and the tier graph
    /// (tier → child tiers) has no cycle. Each tier has a dense index of its
    /// own, `0..tier_size(t)`.
    ///
    /// A tiered solver solves the tiers children first: only the tier being
    /// solved and its child tiers need to be in memory at once, and a game far
    /// larger than memory can be solved tier by tier. A tier whose moves all
    /// leave it ([`Tiered::leaves_tier`]) is solved by one pass over its
    /// positions; any other tier by retrograde analysis inside the tier, seeded
    /// by what the child tiers decided.
    ///
    /// The promises (checked by `solver_retro::check_game`):
    /// * `tier_position(tier(p), tier_index(p)) == Some(p)` for every position;
    /// * `tier_index(p) < tier_size(tier(p))`;
    /// * every child of `p` lies in `tier(p)` or in `child_tiers(tier(p))`, and
    ///   never in `tier(p)` when `leaves_tier(tier(p))`;
    /// * [`Tiered::tiers`] lists every tier after all of its child tiers.
    ///
    /// ```
    /// use game_core::{Game, Tier, Tiered};
    ///
    /// /// Take 1 or 2 from a pile of at most 5: the tier is the pile, and every
    /// /// move leaves its tier.
    /// struct Take12;
    /// impl Game for Take12 {
    ///     type Position = u64;
    ///     type Move = u64;
    ///     fn moves(&self, n: &u64, out: &mut Vec<u64>) { out.extend((1..=2).filter(|t| t <= n)) }
    ///     fn play(&self, n: &u64, t: &u64) -> u64 { n - t }
    /// }
    /// impl Tiered for Take12 {
    ///     fn tiers(&self) -> Vec<Tier> { (0..=5).collect() }
    ///     fn tier(&self, n: &u64) -> Tier { *n }
    ///     fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>) { out.extend((1..=2).filter(|k| *k <= t).map(|k| t - k)) }
    ///     fn tier_size(&self, _: Tier) -> u64 { 1 }
    ///     fn tier_index(&self, _: &u64) -> u64 { 0 }
    ///     fn tier_position(&self, t: Tier, i: u64) -> Option<u64> { (i == 0 && t <= 5).then_some(t) }
    ///     fn leaves_tier(&self, _: Tier) -> bool { true }
    /// }
    /// let mut kids = Vec::new();
    /// Take12.child_tiers(4, &mut kids);
    /// assert_eq!(kids, [3, 2]);
    /// ```
    pub trait Tiered: Game {
        /// Every tier, each listed after all of its child tiers.
        fn tiers(&self) -> Vec<Tier>;

        /// The tier of `pos`.
        fn tier(&self, pos: &Self::Position) -> Tier;

        /// Appends to `out` the tiers other than `tier` that a move from a
        /// position of `tier` may reach (each once).
        fn child_tiers(&self, tier: Tier, out: &mut Vec<Tier>);

        /// The number of indices of `tier`; every position of the tier has a
        /// [`Tiered::tier_index`] below it.
        fn tier_size(&self, tier: Tier) -> u64;

        /// The index of `pos` inside its tier.
        fn tier_index(&self, pos: &Self::Position) -> u64;

        /// The position of `tier` at `index`, or `None` if that index stands
        /// for no position.
        fn tier_position(&self, tier: Tier, index: u64) -> Option<Self::Position>;

        /// Whether every move from a position of `tier` leaves the tier (no
        /// move stays inside it). Such a tier is solved by one pass instead of
        /// retrograde analysis. The default, `false`, is never wrong.
        fn leaves_tier(&self, _tier: Tier) -> bool {
            false
        }

        /// A short name of the tier for messages and file names. The default
        /// is its number.
        fn tier_name(&self, tier: Tier) -> String {
            tier.to_string()
        }

        /// Calls `f` with the index and position of every position of `tier`
        /// whose index lies in `range`, in index order. The default decodes
        /// each index with [`Tiered::tier_position`]; a game that can step from
        /// one position to the next faster overrides it.
        fn visit_tier(
            &self,
            tier: Tier,
            range: std::ops::Range<u64>,
            f: &mut dyn FnMut(u64, Self::Position),
        ) {
            for i in range.start..range.end.min(self.tier_size(tier)) {
                if let Some(p) = self.tier_position(tier, i) {
                    f(i, p);
                }
            }
        }

        /// Appends to `out` the tier and index inside it of the child reached
        /// by each move at `pos` (repeats allowed; `pos` is not over). `moves`
        /// is scratch. The default plays each move and indexes the result.
        fn child_tier_indices(
            &self,
            pos: &Self::Position,
            out: &mut Vec<(Tier, u64)>,
            moves: &mut Vec<Self::Move>,
        ) {
            moves.clear();
            self.moves(pos, moves);
            for m in moves.iter() {
                let c = self.play(pos, m);
                out.push((self.tier(&c), self.tier_index(&c)));
            }
        }
    }
}

/// An [`Indexed`](crate::Indexed) game seen as a [`Tiered`] one with a
/// single tier, 0, whose index is the game's: code written for tiers (a
/// database, an analysis) serves untiered games too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct OneTier<G>(pub G);

// The game's moves, ending and indices are the one tier's (every other
// capability it keeps: `forward.rs`).
forward!(game_methods impl[G: crate::Indexed] for OneTier<G> => G, |s| s.0);

impl<G: crate::Indexed> Tiered for OneTier<G> {
    fn tiers(&self) -> Vec<Tier> {
        vec![0]
    }
    fn tier(&self, _pos: &Self::Position) -> Tier {
        0
    }
    fn child_tiers(&self, _tier: Tier, _out: &mut Vec<Tier>) {}
    fn tier_size(&self, tier: Tier) -> u64 {
        if tier == 0 {
            self.0.size()
        } else {
            0
        }
    }
    fn tier_index(&self, pos: &Self::Position) -> u64 {
        self.0.index(pos)
    }
    fn tier_position(&self, tier: Tier, index: u64) -> Option<Self::Position> {
        if tier == 0 {
            self.0.position(index)
        } else {
            None
        }
    }
}
