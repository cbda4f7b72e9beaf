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

use super::combinatorics::{binomial, first_player_choices, first_player_pieces};
use super::{ConnectFour, ConnectFourPosition};

/// The most columns a board can have (W·(H+1) ≤ 64 with H ≥ 1).
const MAX_WIDTH: usize = 32;

impl ConnectFour {
    /// The colex rank of a set of places: `Σ C(pⱼ, j)` over its places
    /// `p₁ < p₂ < …`.
    #[inline]
    fn colex_rank(mut places: u64) -> u64 {
        let mut rank = 0;
        let mut j = 1;
        while places != 0 {
            rank += binomial(places.trailing_zeros(), j);
            j += 1;
            places &= places - 1;
        }
        rank
    }

    /// Appends to `out`, for every move of [`game_core::Game::moves`] at
    /// `pos` (in the same order), the move and the index of the child
    /// position inside its tier (`pos.pieces() + 1`).
    ///
    /// The same numbers as [`Tiered::tier_index`] of each child, computed
    /// together in O(W + pieces) time rather than that much for each child.
    pub fn child_tier_indices(&self, pos: &ConnectFourPosition, out: &mut Vec<(u8, u64)>) {
        let n = pos.pieces();
        if n >= self.cells() {
            return;
        }
        let w = self.width as usize;
        // The new piece is the first player's when the first player moves.
        let delta = u32::from(pos.first_to_move());
        let first = pos.first_player();
        // Per column: height, places before it, rank terms of the parent
        // (with the remaining sum of tier n) and of a child that does not
        // play in this column (remaining sum of tier n + 1).
        let mut heights = [0u32; MAX_WIDTH];
        let mut before = [0u32; MAX_WIDTH];
        let mut term_child = [0u64; MAX_WIDTH];
        let mut term_parent = [0u64; MAX_WIDTH];
        // Colex sums of the first player's pieces up to the end of each
        // column: unshifted (`low`), and with places and ordinals shifted
        // as after an insertion below them (`high`); ordinals so far.
        let mut low = [0u64; MAX_WIDTH];
        let mut high = [0u64; MAX_WIDTH];
        let mut ordinals = [0u32; MAX_WIDTH];
        let (mut sum_low, mut sum_high, mut j, mut place) = (0u64, 0u64, 0u32, 0u32);
        for c in 0..self.width {
            let ci = c as usize;
            let h = self.column_of(pos.occupied, c).count_ones();
            heights[ci] = h;
            before[ci] = place;
            term_parent[ci] = self.heights.below(c, n - place, h);
            term_child[ci] = self.heights.below(c, n + 1 - place, h);
            let mut col = self.column_of(first, c);
            while col != 0 {
                let q = place + col.trailing_zeros();
                j += 1;
                sum_low += binomial(q, j);
                sum_high += binomial(q + 1, j + delta);
                col &= col - 1;
            }
            place += h;
            low[ci] = sum_low;
            high[ci] = sum_high;
            ordinals[ci] = j;
        }
        let choices = first_player_choices(n + 1);
        // Σ of term_child over columns before c, of term_parent after c.
        let mut child_before = 0u64;
        let mut parent_after: u64 = term_parent[..w].iter().sum();
        for c in 0..self.width {
            let ci = c as usize;
            let h = heights[ci];
            parent_after -= term_parent[ci];
            if h < self.height {
                let hr =
                    child_before + self.heights.below(c, n + 1 - before[ci], h + 1) + parent_after;
                let p = before[ci] + h;
                let mut cr = low[ci] + (sum_high - high[ci]);
                if delta == 1 {
                    cr += binomial(p, ordinals[ci] + 1);
                }
                out.push((c as u8, hr * choices + cr));
            }
            child_before += term_child[ci];
        }
    }

    /// The number of pieces of `tier`, if it is a tier of this board.
    fn tier_pieces(&self, tier: Tier) -> Option<u32> {
        u32::try_from(tier).ok().filter(|&n| n <= self.cells())
    }

    /// The position with `n` pieces, the column heights `heights` and the
    /// first player's pieces at the places set in `packed` (places
    /// counted column by column, bottom to top).
    #[inline]
    fn assemble(&self, n: u32, heights: &[u32; MAX_WIDTH], packed: u64) -> ConnectFourPosition {
        let (mut occupied, mut first, mut at) = (0u64, 0u64, 0u32);
        for (c, &h) in (0..self.width).zip(heights) {
            let cells = (1u64 << h) - 1;
            occupied |= cells << (c * self.stride);
            first |= ((packed >> at) & cells) << (c * self.stride);
            at += h;
        }
        let mover = if n % 2 == 0 { first } else { occupied ^ first };
        ConnectFourPosition { occupied, mover }
    }

    /// Calls `f(index, position)` for every index of `tier` in `range`
    /// that stands for a position, in increasing order: the same pairs as
    /// [`Tiered::tier_position`] on each index gives, several times faster
    /// (consecutive indices share their column heights, and the next set of
    /// first-player pieces in colex order is the next larger bit pattern
    /// with as many bits). Indices past the tier are ignored.
    ///
    /// ```
    /// use game_core::Tiered;
    /// let game = games::ConnectFour::new(4, 4)?;
    /// let mut seen = Vec::new();
    /// game.for_each_in_tier(2, 0..u64::MAX, |i, p| seen.push((i, p)));
    /// assert_eq!(seen.len() as u64, game.tier_size(2)); // no four yet
    /// assert!(seen.iter().all(|&(i, p)| game.tier_position(2, i) == Some(p)));
    /// # Ok::<(), games::Error>(())
    /// ```
    pub fn for_each_in_tier(
        &self,
        tier: Tier,
        range: Range<u64>,
        mut f: impl FnMut(u64, ConnectFourPosition),
    ) {
        let Some(n) = self.tier_pieces(tier) else {
            return;
        };
        let end = range.end.min(self.tier_size(tier));
        let mut index = range.start;
        if index >= end {
            return;
        }
        let k = first_player_pieces(n);
        let choices = first_player_choices(n);
        let (mut hr, mut cr) = (index / choices, index % choices);
        let mut heights = [0u32; MAX_WIDTH];
        self.heights.unrank(n, hr, &mut heights);
        let mut packed = colex_unrank(n, k, cr);
        loop {
            let pos = self.assemble(n, &heights, packed);
            if self.is_plausible(&pos) {
                f(index, pos);
            }
            index += 1;
            if index == end {
                return;
            }
            cr += 1;
            if cr == choices {
                cr = 0;
                hr += 1;
                self.heights.unrank(n, hr, &mut heights);
                packed = (1u64 << k) - 1;
            } else {
                // Gosper's hack: the next larger number with as many bits.
                let low = packed & packed.wrapping_neg();
                let ripple = packed + low;
                packed = (((ripple ^ packed) >> 2) >> low.trailing_zeros()) | ripple;
            }
        }
    }
}

/// The set of `k` places among `n` of colex rank `rank` (`< C(n, k)`), as
/// bits: the place of the j-th element, from the last, is the largest `p`
/// with C(p, j) ≤ what is left of the rank.
#[inline]
fn colex_unrank(n: u32, k: u32, mut rank: u64) -> u64 {
    let mut packed = 0u64;
    let mut p = n;
    for j in (1..=k).rev() {
        p -= 1;
        while binomial(p, j) > rank {
            p -= 1;
        }
        rank -= binomial(p, j);
        packed |= 1 << p;
    }
    packed
}

impl Tiered for ConnectFour {
    /// `W·H` down to 0: a tier's only child tier has one piece more.
    fn tiers(&self) -> Vec<Tier> {
        (0..=Tier::from(self.cells())).rev().collect()
    }

    fn tier(&self, pos: &ConnectFourPosition) -> Tier {
        Tier::from(pos.pieces())
    }

    fn child_tiers(&self, tier: Tier, out: &mut Vec<Tier>) {
        if tier < Tier::from(self.cells()) {
            out.push(tier + 1);
        }
    }

    /// The number of height vectors summing to `tier` times C(tier, ⌈tier/2⌉).
    fn tier_size(&self, tier: Tier) -> u64 {
        match u32::try_from(tier) {
            Ok(n) if n <= self.cells() => self.offsets[n as usize + 1] - self.offsets[n as usize],
            _ => 0,
        }
    }

    fn tier_index(&self, pos: &ConnectFourPosition) -> u64 {
        let n = pos.pieces();
        let first = pos.first_player();
        // One pass over the columns: the height rank, and the first
        // player's pieces packed column by column, bottom to top.
        let (mut height_rank, mut left, mut packed, mut place) = (0u64, n, 0u64, 0u32);
        for c in 0..self.width {
            let h = self.column_of(pos.occupied, c).count_ones();
            height_rank += self.heights.below(c, left, h);
            left -= h;
            packed |= self.column_of(first, c) << place;
            place += h;
        }
        height_rank * first_player_choices(n) + Self::colex_rank(packed)
    }

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

    /// Steps through the tier in index order (about 5× faster than
    /// decoding each index).
    fn visit_tier(
        &self,
        tier: Tier,
        range: Range<u64>,
        f: &mut dyn FnMut(u64, ConnectFourPosition),
    ) {
        ConnectFour::for_each_in_tier(self, tier, range, f);
    }

    /// Every child's index at once ([`ConnectFour::child_tier_indices`]).
    fn child_tier_indices(
        &self,
        pos: &ConnectFourPosition,
        out: &mut Vec<(Tier, u64)>,
        _moves: &mut Vec<u8>,
    ) {
        let tier = Tier::from(pos.pieces()) + 1;
        let mut kids = Vec::with_capacity(MAX_WIDTH);
        ConnectFour::child_tier_indices(self, pos, &mut kids);
        out.extend(kids.into_iter().map(|(_, i)| (tier, i)));
    }
}

impl Indexed for ConnectFour {
    /// The sum of all tier sizes.
    fn size(&self) -> u64 {
        self.offsets[self.offsets.len() - 1]
    }

    /// The tier's offset plus the index inside the tier.
    fn index(&self, pos: &ConnectFourPosition) -> u64 {
        self.offsets[pos.pieces() as usize] + self.tier_index(pos)
    }

    fn position(&self, index: u64) -> Option<ConnectFourPosition> {
        if index >= self.size() {
            return None;
        }
        let tier = self.offsets.partition_point(|&o| o <= index) - 1;
        self.tier_position(tier as Tier, index - self.offsets[tier])
    }
}
