//! The dense index: tiers by number of pieces, and inside a tier the rank of
//! the column heights times the rank of the first player's pieces.
//!
//! Inside tier `n`, a position's index is `hr · C(n, ⌈n/2⌉) + cr` where
//! * `hr` is the rank of its column heights among the vectors of W heights
//!   in `0..=H` summing to `n` (lexicographic, column 0 most significant);
//! * `cr` is the colex rank of the set of the first player's pieces among
//!   the `n` pieces taken column by column, bottom to top: for the first
//!   player's pieces at places `p₁ < p₂ < …` it is `Σ C(pⱼ, j)`.
//!
//! Every index of a tier stands for a board that obeys gravity and has
//! ⌈n/2⌉ pieces of the first player (Allis' count, OEIS A090224 on 7×6).
//! [`Tiered::tier_position`] returns `None` for the boards that cheap checks
//! show unreachable — the player to move has four, or the other player's
//! fours were not all made by one last move — and `Some` for the others;
//! a few of those are still unreachable (no order of moves builds them): on
//! 4×4, 169,645 indices decode against 161,029 reachable positions.

use std::ops::Range;

use game_core::{Indexed, Tier, Tiered};

use super::combinatorics::{
    binomial, first_player_choices, first_player_pieces, low_set, LOW_PLACES,
};
use super::{ConnectFour, ConnectFourPosition, MAX_WIDTH};

impl ConnectFour {
    /// The colex rank of a set of places: `Σ C(pⱼ, j)` over its places
    /// `p₁ < p₂ < …`.
    #[inline]
    pub(super) fn colex_rank(mut places: u64) -> u64 {
        let mut rank = 0;
        let mut j = 1;
        while places != 0 {
            rank += binomial(places.trailing_zeros(), j);
            j += 1;
            places &= places - 1;
        }
        rank
    }

    /// The number of pieces of `tier`, if it is a tier of this board.
    #[inline]
    pub(super) fn tier_pieces(&self, tier: Tier) -> Option<u32> {
        u32::try_from(tier).ok().filter(|&n| n <= self.cells())
    }

    /// The cells of a board whose columns hold `heights` pieces.
    #[inline]
    pub(super) fn occupied_of(&self, heights: &[u32; MAX_WIDTH]) -> u64 {
        let mut occupied = 0u64;
        for (c, &h) in (0..self.width).zip(heights) {
            occupied |= ((1u64 << h) - 1) << (c * self.stride);
        }
        occupied
    }

    /// The first player's pieces on a board whose columns hold `heights`
    /// pieces, from the places set in `packed` (places counted column by
    /// column, bottom to top).
    #[inline]
    pub(super) fn spread(&self, heights: &[u32; MAX_WIDTH], packed: u64) -> u64 {
        let (mut first, mut at) = (0u64, 0u32);
        for (c, &h) in (0..self.width).zip(heights) {
            first |= ((packed >> at) & ((1u64 << h) - 1)) << (c * self.stride);
            at += h;
        }
        first
    }

    /// The position with `n` pieces, the column heights `heights` and the
    /// first player's pieces at the places set in `packed`.
    #[inline]
    fn assemble(&self, n: u32, heights: &[u32; MAX_WIDTH], packed: u64) -> ConnectFourPosition {
        let occupied = self.occupied_of(heights);
        let first = self.spread(heights, packed);
        let mover = if n.is_multiple_of(2) {
            first
        } else {
            occupied ^ first
        };
        ConnectFourPosition { occupied, mover }
    }
}

/// The set of `k` places among `n` of colex rank `rank` (`< C(n, k)`), as
/// bits: going down from the top place `p`, `p` is in the set when
/// C(p, j) ≤ what is left of the rank, `j` being the number of places
/// still to choose.
///
/// Two places a step: for places `p > p − 1` the four choices (neither,
/// only `p − 1`, only `p`, both) start at the ranks 0 ≤ C(p − 1, j) ≤
/// C(p, j) ≤ C(p, j) + C(p − 1, j − 1), so the number of those thresholds
/// at or below the rank is the choice, written in binary. The three are
/// read at once, without a branch, which halves the chain of dependent
/// reads of a place-by-place walk. The last [`LOW_PLACES`] places are
/// decoded by one read of a table of every small set.
#[inline]
pub(super) fn colex_unrank(n: u32, k: u32, mut rank: u64) -> u64 {
    let mut packed = 0u64;
    let mut j = k;
    // Places below `p` are still open.
    let mut p = n;
    while j > 0 {
        if p <= LOW_PLACES {
            return packed | low_set(p, j, rank);
        }
        let (hi, lo) = (p - 1, p - 2);
        let only_lo = binomial(lo, j);
        let only_hi = binomial(hi, j);
        let both = only_hi + binomial(lo, j - 1);
        // Passed thresholds: none, `a`, `a` and `b`, or all three.
        let (a, b, c) = (only_lo <= rank, only_hi <= rank, both <= rank);
        let mask = |yes: bool, x: u64| x & u64::from(yes).wrapping_neg();
        rank -= mask(a, only_lo).max(mask(b, only_hi)).max(mask(c, both));
        // `p − 1` is taken when `b` passed, `p − 2` when one or three did.
        packed |= (u64::from(b) << hi) | (u64::from(a ^ b ^ c) << lo);
        j -= u32::from(a) + u32::from(c);
        p = lo;
    }
    packed
}

impl ConnectFour {
    /// [`Tiered::tier_index`]: one pass over the columns
    /// from the last (the sum of the columns from `c` on is known by then)
    /// for the height rank and the player to move's pieces packed column
    /// by column, bottom to top, then the colex rank of the first
    /// player's.
    #[inline]
    fn tier_index_by_pieces(&self, pos: &ConnectFourPosition) -> u64 {
        let (mut height_rank, mut n, mut packed) = (0u64, 0u32, 0u64);
        for c in (0..self.width).rev() {
            let h = self.column_of(pos.occupied, c).trailing_ones();
            n += h;
            height_rank += self.heights.below(c, n, h);
            packed = (packed << h) | self.column_of(pos.mover, c);
        }
        if n % 2 == 1 {
            // The first player just moved: its pieces are the others.
            packed ^= (1u64 << n) - 1;
        }
        height_rank * first_player_choices(n) + Self::colex_rank(packed)
    }
}

impl Tiered for ConnectFour {
    /// `W·H` down to 0: a tier's only child tier has one piece more.
    fn tiers(&self) -> Vec<Tier> {
        (0..=Tier::from(self.cells())).rev().collect()
    }

    #[inline]
    fn tier(&self, pos: &ConnectFourPosition) -> Tier {
        Tier::from(pos.pieces())
    }

    fn child_tiers(&self, tier: Tier, out: &mut Vec<Tier>) {
        if tier < Tier::from(self.cells()) {
            out.push(tier + 1);
        }
    }

    /// The number of height vectors summing to `tier` times C(tier, ⌈tier/2⌉).
    #[inline]
    fn tier_size(&self, tier: Tier) -> u64 {
        match u32::try_from(tier) {
            Ok(n) if n <= self.cells() => self.offsets[n as usize + 1] - self.offsets[n as usize],
            _ => 0,
        }
    }

    /// `u64::MAX`, outside every tier, for a position that is no board
    /// of this game (one made on another board).
    #[inline]
    fn tier_index(&self, pos: &ConnectFourPosition) -> u64 {
        if !self.holds(pos) {
            return u64::MAX;
        }
        self.tier_index_by_pieces(pos)
    }

    #[inline]
    fn tier_position(&self, tier: Tier, index: u64) -> Option<ConnectFourPosition> {
        let n = self.tier_pieces(tier)?;
        let choices = first_player_choices(n);
        let (hr, cr) = (index / choices, index % choices);
        if hr >= self.heights.count(n) {
            return None;
        }
        let mut heights = [0u32; MAX_WIDTH];
        self.heights.unrank(n, hr, &mut heights);
        let packed = colex_unrank(n, first_player_pieces(n), cr);
        let pos = self.assemble(n, &heights, packed);
        self.is_plausible(&pos).then_some(pos)
    }

    fn leaves_tier(&self, _tier: Tier) -> bool {
        true
    }

    /// Steps through the tier in index order
    /// ([`ConnectFour::for_each_in_tier`]).
    fn visit_tier(
        &self,
        tier: Tier,
        range: Range<u64>,
        f: &mut dyn FnMut(u64, ConnectFourPosition),
    ) {
        ConnectFour::for_each_in_tier(self, tier, range, f);
    }

    /// Every child's index at once ([`ConnectFour::child_tier_indices`]),
    /// without allocating.
    #[inline]
    fn child_tier_indices(
        &self,
        pos: &ConnectFourPosition,
        out: &mut Vec<(Tier, u64)>,
        _moves: &mut Vec<u8>,
    ) {
        self.push_tier_child_indices(pos, out);
    }
}

impl Indexed for ConnectFour {
    /// The sum of all tier sizes.
    fn size(&self) -> u64 {
        self.offsets[self.offsets.len() - 1]
    }

    /// The tier's offset plus the index inside the tier; `u64::MAX`,
    /// outside the game, for a position that is no board of this game
    /// (one made on another board read past the offsets, or aliased
    /// another position's index).
    fn index(&self, pos: &ConnectFourPosition) -> u64 {
        if !self.holds(pos) {
            return u64::MAX;
        }
        self.offsets[pos.pieces() as usize] + self.tier_index_by_pieces(pos)
    }

    fn position(&self, index: u64) -> Option<ConnectFourPosition> {
        if index >= self.size() {
            return None;
        }
        let tier = self.offsets.partition_point(|&o| o <= index) - 1;
        self.tier_position(tier as Tier, index - self.offsets[tier])
    }
}
