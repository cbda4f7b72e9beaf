//! Teeko's tiers and dense indices: in tier `k` black's men are ranked among
//! the 25 squares and red's among the squares black leaves free, both in
//! the combinatorial number system (colex order); tier 8 adds the side to
//! move. The whole game's index puts the tiers one after the other.

use game_core::{Indexed, Tier, Tiered};

use super::board::{has_pattern, SQUARES};
use super::{Teeko, TeekoColor, TeekoPosition};

/// `BINOM[n][k]` = C(n, k) for n ≤ 25, k ≤ 4.
const BINOM: [[u64; 5]; 26] = binomials();

const fn binomials() -> [[u64; 5]; 26] {
    let mut t = [[0u64; 5]; 26];
    let mut n = 0;
    while n <= 25 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 4 && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// Men of each side in placement tier `k` (black first).
const fn men(k: Tier) -> (usize, usize) {
    (k.div_ceil(2) as usize, (k / 2) as usize)
}

/// Positions of one side to move in tier `k`: C(25, b) · C(25 − b, r).
const fn per_side(k: Tier) -> u64 {
    let (b, r) = men(k);
    BINOM[25][b] * BINOM[25 - b][r]
}

/// The size of tier `k` (0..=8).
const fn tier_len(k: Tier) -> u64 {
    if k == 8 {
        2 * per_side(8)
    } else {
        per_side(k)
    }
}

/// `OFFSET[k]`: the whole-game index of tier `k`'s first position; `OFFSET[9]`
/// is the size of the whole game.
const OFFSET: [u64; 10] = offsets();

const fn offsets() -> [u64; 10] {
    let mut o = [0u64; 10];
    let mut k = 0;
    while k < 9 {
        o[k + 1] = o[k] + tier_len(k as Tier);
        k += 1;
    }
    o
}

/// The colex rank of the set bits of `mask` (coordinates below 26).
#[inline]
fn rank(mut mask: u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while mask != 0 {
        r += BINOM[mask.trailing_zeros() as usize][i];
        mask &= mask - 1;
        i += 1;
    }
    r
}

/// The `k`-subset of `0..n` with colex rank `r` (`r < C(n, k)`), as a mask.
#[inline]
fn unrank(mut r: u64, k: usize, n: usize) -> u32 {
    let mut mask = 0;
    let mut c = n;
    for i in (1..=k).rev() {
        c -= 1;
        while BINOM[c][i] > r {
            c -= 1;
        }
        r -= BINOM[c][i];
        mask |= 1 << c;
    }
    mask
}

/// `mask`'s squares numbered among the squares outside `taken`.
#[inline]
fn compress(mut mask: u32, taken: u32) -> u32 {
    let mut out = 0;
    while mask != 0 {
        let s = mask.trailing_zeros();
        out |= 1 << (s - (taken & ((1 << s) - 1)).count_ones());
        mask &= mask - 1;
    }
    out
}

/// The inverse of [`compress`]: the squares outside `taken` numbered `mask`.
#[inline]
fn expand(mut mask: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut free = !taken & ((1 << SQUARES) - 1);
    while mask != 0 {
        if mask & 1 != 0 {
            out |= 1 << free.trailing_zeros();
        }
        mask >>= 1;
        free &= free - 1;
    }
    out
}

impl Tiered for Teeko {
    /// Tier 8 (the moving phase) first, then 7 down to 0.
    fn tiers(&self) -> Vec<Tier> {
        (0..=8).rev().collect()
    }

    fn tier(&self, pos: &TeekoPosition) -> Tier {
        Tier::from(pos.men())
    }

    fn child_tiers(&self, tier: Tier, out: &mut Vec<Tier>) {
        if tier < 8 {
            out.push(tier + 1);
        }
    }

    fn tier_size(&self, tier: Tier) -> u64 {
        if tier <= 8 {
            tier_len(tier)
        } else {
            0
        }
    }

    fn tier_index(&self, pos: &TeekoPosition) -> u64 {
        let k = self.tier(pos);
        let (b, r) = men(k);
        let i = rank(pos.black) * BINOM[25 - b][r] + rank(compress(pos.red, pos.black));
        if k == 8 && pos.to_move == TeekoColor::Red {
            i + per_side(8)
        } else {
            i
        }
    }

    /// `None` past the tier's end and for positions where the player to
    /// move already has four in a pattern (no game reaches them).
    fn tier_position(&self, tier: Tier, index: u64) -> Option<TeekoPosition> {
        if tier > 8 || index >= tier_len(tier) {
            return None;
        }
        let (b, r) = men(tier);
        let (index, to_move) = if tier == 8 {
            let half = per_side(8);
            if index >= half {
                (index - half, TeekoColor::Red)
            } else {
                (index, TeekoColor::Black)
            }
        } else if b == r {
            (index, TeekoColor::Black)
        } else {
            (index, TeekoColor::Red)
        };
        let reds = BINOM[25 - b][r];
        let black = unrank(index / reds, b, 25);
        let red = expand(unrank(index % reds, r, 25 - b), black);
        let pos = TeekoPosition {
            black,
            red,
            to_move,
        };
        (!has_pattern(pos.mover_men())).then_some(pos)
    }

    /// Placement tiers: every move places a man.
    fn leaves_tier(&self, tier: Tier) -> bool {
        tier < 8
    }

    /// `placed-0` … `placed-7`, then `moving`.
    fn tier_name(&self, tier: Tier) -> String {
        if tier < 8 {
            format!("placed-{tier}")
        } else {
            "moving".into()
        }
    }
}

impl Indexed for Teeko {
    /// 172,401,726: the nine tiers together.
    fn size(&self) -> u64 {
        OFFSET[9]
    }

    fn index(&self, pos: &TeekoPosition) -> u64 {
        OFFSET[pos.men() as usize] + self.tier_index(pos)
    }

    fn position(&self, index: u64) -> Option<TeekoPosition> {
        let k = OFFSET.iter().rposition(|&o| o <= index)?;
        if k >= 9 {
            return None;
        }
        self.tier_position(k as Tier, index - OFFSET[k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials_match_the_factorial_formula() {
        let fact = |n: u64| (1..=n).product::<u64>().max(1);
        for n in 0..=25u64 {
            for k in 0..=4.min(n) {
                // C(n, k) = n! / (k! (n−k)!) computed as a falling product.
                let falling: u64 = (n - k + 1..=n).product::<u64>().max(1);
                assert_eq!(BINOM[n as usize][k as usize], falling / fact(k));
            }
        }
    }

    #[test]
    fn rank_and_unrank_are_inverse_on_small_subsets() {
        for (k, &count) in BINOM[12].iter().enumerate() {
            for r in 0..count {
                let m = unrank(r, k, 12);
                assert_eq!(m.count_ones() as usize, k);
                assert!(m < 1 << 12);
                assert_eq!(rank(m), r);
            }
        }
        let taken = 0b1010_0110_0001;
        for m in 0..1u32 << 8 {
            assert_eq!(compress(expand(m, taken), taken), m);
            assert_eq!(expand(m, taken) & taken, 0);
        }
    }
}
