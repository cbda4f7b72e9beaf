//! Walking a tier in index order: every position, or only the canonical
//! ones (mirror symmetry), several times faster than decoding each index.

use std::ops::Range;

use game_core::{Tier, Tiered};

use super::combinatorics::{binomial, first_player_choices, first_player_pieces};
use super::index::colex_unrank;
use super::{ConnectFour, ConnectFourPosition, MAX_WIDTH};

/// The next larger number with as many set bits (Gosper's hack): the next
/// set of places in colex order.
#[inline]
fn next_set(packed: u64) -> u64 {
    let low = packed & packed.wrapping_neg();
    let ripple = packed + low;
    (((ripple ^ packed) >> 2) >> low.trailing_zeros()) | ripple
}

impl ConnectFour {
    /// Calls `f(index, position)` for every index of `tier` in `range`
    /// that stands for a position, in increasing order: the same pairs as
    /// [`Tiered::tier_position`] on each index gives, several times faster.
    /// Indices past the tier are ignored.
    ///
    /// Consecutive indices share their column heights, and the next set of
    /// first-player pieces in colex order is the next larger bit pattern
    /// with as many bits. A run of indices that keeps a four making every
    /// board of it implausible (a four of the player to move, or of the
    /// other player without a top piece) is skipped in one step.
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
        self.walk::<false>(tier, range, &mut f);
    }

    /// [`ConnectFour::for_each_in_tier`] restricted to canonical positions
    /// (those equal to their [`game_core::Symmetric::canonical`] form): what
    /// [`Tiered::visit_tier`] of [`game_core::Canonical`]`(ConnectFour)`
    /// gives. A run of indices whose column heights mirror to a smaller
    /// board is skipped whole, so about half the tier is never looked at.
    ///
    /// ```
    /// use game_core::{Canonical, Tiered};
    /// let game = games::ConnectFour::new(4, 4)?;
    /// let mut fast = Vec::new();
    /// game.for_each_canonical_in_tier(6, 0..u64::MAX, |i, p| fast.push((i, p)));
    /// let mut plain = Vec::new();
    /// Canonical(game.clone()).visit_tier(6, 0..u64::MAX, &mut |i, p| plain.push((i, p)));
    /// assert_eq!(fast, plain);
    /// # Ok::<(), games::Error>(())
    /// ```
    pub fn for_each_canonical_in_tier(
        &self,
        tier: Tier,
        range: Range<u64>,
        mut f: impl FnMut(u64, ConnectFourPosition),
    ) {
        self.walk::<true>(tier, range, &mut f);
    }

    /// The walk of both: every plausible position, or (`CANONICAL`) only
    /// the canonical ones.
    #[inline]
    fn walk<const CANONICAL: bool>(
        &self,
        tier: Tier,
        range: Range<u64>,
        f: &mut impl FnMut(u64, ConnectFourPosition),
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
        let odd = n % 2 == 1;
        let (mut hr, mut cr) = (index / choices, index % choices);
        let mut heights = [0u32; MAX_WIDTH];
        loop {
            // A new run of column heights, entered at colex rank `cr`.
            self.heights.unrank(n, hr, &mut heights);
            let occupied = self.occupied_of(&heights);
            let mut symmetric = false;
            if CANONICAL {
                let mirror = self.mirror_bits(occupied);
                if mirror < occupied {
                    // Every board of the run mirrors to a smaller one.
                    index += choices - cr;
                    if index >= end {
                        return;
                    }
                    hr += 1;
                    cr = 0;
                    continue;
                }
                symmetric = mirror == occupied;
            }
            // Per direction: the shift, the mask, and the cells where a
            // four starting there holds no top piece.
            let tops = occupied & !(occupied >> 1);
            let lines = self.directions.map(|(s, mask)| {
                (
                    s,
                    mask,
                    !(tops | tops >> s | tops >> (2 * s) | tops >> (3 * s)),
                )
            });
            // bottom[r]: the r lowest cells of the board.
            let mut bottom = [0u64; 64];
            let mut rest = occupied;
            for r in 1..=n as usize {
                bottom[r] = bottom[r - 1] | (rest & rest.wrapping_neg());
                rest &= rest - 1;
            }
            let mut packed = colex_unrank(n, k, cr);
            let mut first = self.spread(&heights, packed);
            loop {
                let mover = if odd { occupied ^ first } else { first };
                // The fours that no change below them mends: the player
                // to move's, and the other player's without a top piece.
                let mut lasting = self.four_starts(mover);
                let mut other_four = 0;
                if lasting == 0 {
                    let opp = occupied ^ mover;
                    for (s, mask, free) in lines {
                        let pairs = opp & (opp >> s) & mask;
                        let starts = pairs & (pairs >> (2 * s));
                        other_four |= starts;
                        lasting |= starts & free;
                    }
                }
                // A four that no change below it mends: skip every set of
                // places that agrees from its lowest place up, unless it
                // starts in the first column (then so few places lie below
                // it that stepping is cheaper).
                let lowest = 63 - (lasting | 1).leading_zeros();
                if lasting != 0 && lowest >= self.stride {
                    let t = (occupied & ((1u64 << lowest) - 1)).count_ones();
                    let below = packed & ((1u64 << t) - 1);
                    let c = below.count_ones();
                    let skip = binomial(t, c) - Self::colex_rank(below);
                    index += skip;
                    if index >= end {
                        return;
                    }
                    cr += skip;
                    if cr == choices {
                        break;
                    }
                    let run_end = (packed ^ below) | (((1u64 << c) - 1) << (t - c));
                    packed = next_set(run_end);
                    first = self.spread(&heights, packed);
                    continue;
                }
                if lasting == 0
                    && (other_four == 0
                        || self.one_top_piece_breaks_fours(occupied, occupied ^ mover))
                    && (!symmetric || mover <= self.mirror_bits(mover))
                {
                    f(index, ConnectFourPosition { occupied, mover });
                }
                index += 1;
                if index == end {
                    return;
                }
                cr += 1;
                if cr == choices {
                    break;
                }
                // The next set, on the packed places and on the board at
                // once: the lowest run of pieces moves its top piece one
                // cell up (an addition that carries across the cells
                // outside the board) and the rest of the run drops to the
                // lowest cells.
                let low = packed & packed.wrapping_neg();
                let ripple = packed + low;
                let ones = ((ripple ^ packed) >> 2) >> low.trailing_zeros();
                packed = ripple | ones;
                let low = first & first.wrapping_neg();
                first = ((first | !occupied).wrapping_add(low) & occupied)
                    | bottom[ones.trailing_ones() as usize];
            }
            hr += 1;
            cr = 0;
        }
    }
}
