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
//! a few of those are still unreachable (no order of moves builds them).

use game_core::{Indexed, Tier, Tiered};

use super::combinatorics::{binomial, first_player_choices, first_player_pieces};
use super::{ConnectFour, ConnectFourPosition};

/// The most columns a board can have (W·(H+1) ≤ 64 with H ≥ 1).
const MAX_WIDTH: usize = 32;

impl ConnectFour {
    /// The colex rank of the set of places of the first player's pieces
    /// among all pieces, taken column by column, bottom to top.
    #[inline]
    fn colour_rank(&self, pos: &ConnectFourPosition) -> u64 {
        // The first player's pieces, packed column by column.
        let first = pos.first_player();
        let mut packed = 0u64;
        let mut at = 0;
        for c in 0..self.width {
            let col = self.column_of(pos.occupied, c);
            packed |= self.column_of(first, c) << at;
            at += col.count_ones();
        }
        let mut rank = 0;
        let mut j = 1;
        while packed != 0 {
            rank += binomial(packed.trailing_zeros(), j);
            j += 1;
            packed &= packed - 1;
        }
        rank
    }

    /// The rank of the column heights of `pos` among the vectors with the
    /// same sum.
    #[inline]
    fn height_rank(&self, pos: &ConnectFourPosition) -> u64 {
        let mut s = pos.pieces();
        let mut rank = 0;
        for c in 0..self.width {
            let h = self.column_of(pos.occupied, c).count_ones();
            rank += self.heights.below(c, s, h);
            s -= h;
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
        self.height_rank(pos) * first_player_choices(pos.pieces()) + self.colour_rank(pos)
    }

    fn tier_position(&self, tier: Tier, index: u64) -> Option<ConnectFourPosition> {
        let n = u32::try_from(tier).ok().filter(|&n| n <= self.cells())?;
        let choices = first_player_choices(n);
        let (hr, mut cr) = (index / choices, index % choices);
        if hr >= self.heights.count(n) {
            return None;
        }
        let mut heights = [0u32; MAX_WIDTH];
        self.heights.unrank(n, hr, &mut heights);
        // Colex unranking: the place of the j-th first-player piece is the
        // largest p with C(p, j) ≤ what is left of the rank.
        let mut packed = 0u64;
        let mut p = n;
        for j in (1..=first_player_pieces(n)).rev() {
            p -= 1;
            while binomial(p, j) > cr {
                p -= 1;
            }
            cr -= binomial(p, j);
            packed |= 1 << p;
        }
        let (mut occupied, mut first, mut at) = (0u64, 0u64, 0u32);
        for c in 0..self.width {
            let h = heights[c as usize];
            let cells = (1u64 << h) - 1;
            occupied |= cells << (c * self.stride);
            first |= ((packed >> at) & cells) << (c * self.stride);
            at += h;
        }
        let mover = if n % 2 == 0 { first } else { occupied ^ first };
        let pos = ConnectFourPosition { occupied, mover };
        self.is_plausible(&pos).then_some(pos)
    }

    fn leaves_tier(&self, _tier: Tier) -> bool {
        true
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
