//! Teeko's tiers and dense indices: in tier `k` black's men are ranked among
//! the 25 squares and red's among the squares black leaves free, both in
//! the combinatorial number system (colex order); tier 8 adds the side to
//! move. The whole game's index puts the tiers one after the other.

use game_core::{Indexed, Tier, Tiered};

use game_core::Symmetric;

use super::board::{has_pattern, images, transform, NEIGHBOURS};
use super::{for_bits, Teeko, TeekoColor, TeekoMove, TeekoPosition};

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

/// The `k`-subsets of `0..25` (`k ≤ 4`) in colex order, which for masks
/// of `k` bits is increasing order: `N` of them from the smallest, each the
/// next by Gosper's hack.
const fn combinations<const N: usize>(k: u32) -> [u32; N] {
    let mut out = [0u32; N];
    let mut m: u32 = (1 << k) - 1;
    let mut i = 0;
    while i < N {
        out[i] = m;
        if m == 0 {
            break;
        }
        let low = m & m.wrapping_neg();
        let up = m + low;
        m = (((up ^ m) >> 2) / low) | up;
        i += 1;
    }
    out
}

static COMBO0: [u32; 1] = combinations(0);
static COMBO1: [u32; 25] = combinations(1);
static COMBO2: [u32; 300] = combinations(2);
static COMBO3: [u32; 2300] = combinations(3);
static COMBO4: [u32; 12650] = combinations(4);

/// The `k`-subsets of `0..25` by colex rank: `combos(k)[r]` is the subset
/// of rank `r`, and its first `C(n, k)` entries are the `k`-subsets of
/// `0..n` (colex ranks do not depend on `n`).
#[inline]
fn combos(k: usize) -> &'static [u32] {
    match k {
        0 => &COMBO0,
        1 => &COMBO1,
        2 => &COMBO2,
        3 => &COMBO3,
        _ => &COMBO4,
    }
}

/// The `k`-subset of `0..n` with colex rank `r` (`r < C(n, k)`), as a mask.
#[cfg(test)]
fn unrank(r: u64, k: usize, _n: usize) -> u32 {
    combos(k)[r as usize]
}

/// `mask`'s squares numbered among the squares outside `taken` (`mask`
/// and `taken` disjoint): each square of `taken`, highest first, is cut
/// out and the squares above it move down one.
#[inline]
fn compress(mut mask: u32, mut taken: u32) -> u32 {
    while taken != 0 {
        let s = 31 - taken.leading_zeros();
        let low = (1u32 << s) - 1;
        mask = (mask & low) | ((mask >> 1) & !low);
        taken &= low;
    }
    mask
}

/// The inverse of [`compress`]: the squares outside `taken` numbered
/// `mask`. Each square of `taken`, lowest first, is opened and the squares
/// from it up move up one.
#[inline]
fn expand(mut mask: u32, mut taken: u32) -> u32 {
    while taken != 0 {
        let low = (taken & taken.wrapping_neg()) - 1;
        mask = (mask & low) | ((mask & !low) << 1);
        taken &= taken - 1;
    }
    mask
}

/// The side to move at the first index of each half of tier `tier`
/// (`half` its size): the moving tier's second half is red's.
#[inline]
fn side_at(tier: Tier, index: u64, half: u64) -> (u64, TeekoColor) {
    let (b, r) = men(tier);
    if tier == 8 {
        if index >= half {
            (half, TeekoColor::Red)
        } else {
            (0, TeekoColor::Black)
        }
    } else if b == r {
        (0, TeekoColor::Black)
    } else {
        (0, TeekoColor::Red)
    }
}

impl Teeko {
    /// Walks the indices `range` of `tier` in order, block by block of
    /// equal black men: `block(black)` says whether to visit the block,
    /// then `each(index, position)` is called for each red subset of the
    /// block in the range. Positions where the player to move has a
    /// pattern are skipped as [`Tiered::tier_position`] skips them.
    #[inline]
    fn walk_tier(
        &self,
        tier: Tier,
        range: std::ops::Range<u64>,
        mut block: impl FnMut(u32) -> bool,
        mut each: impl FnMut(u64, TeekoPosition),
    ) {
        if tier > 8 {
            return;
        }
        let end = range.end.min(tier_len(tier));
        let (b, r) = men(tier);
        let half = per_side(tier);
        let reds = BINOM[25 - b][r];
        let (blacks, red_sets) = (combos(b), combos(r));
        let mut i = range.start;
        while i < end {
            let (base, to_move) = side_at(tier, i, half);
            let ib = (i - base) / reds;
            let first = base + ib * reds;
            let stop = (end - first).min(reds);
            let black = blacks[ib as usize];
            let black_moves = to_move == TeekoColor::Black;
            if !(black_moves && has_pattern(black)) && block(black) {
                for ir in (i - first)..stop {
                    let red = expand(red_sets[ir as usize], black);
                    if black_moves || !has_pattern(red) {
                        each(
                            first + ir,
                            TeekoPosition {
                                black,
                                red,
                                to_move,
                            },
                        );
                    }
                }
            }
            i = first + stop;
        }
    }

    /// [`Tiered::visit_tier`] of [`game_core::Canonical`]`(Teeko)`: calls
    /// `f` with the index and position of every *canonical* position of
    /// `tier` whose index lies in `range`, in index order. A block of
    /// indices whose black men are not the smallest of their 8 images
    /// holds no canonical position and is skipped whole; in the others
    /// only the symmetries fixing black's men are tried on red's. It
    /// visits exactly what `Canonical(Teeko).visit_tier` visits, about 8
    /// times fewer positions than the whole tier, at a fraction of the
    /// cost.
    pub fn visit_canonical_tier(
        &self,
        tier: Tier,
        range: std::ops::Range<u64>,
        f: &mut dyn FnMut(u64, TeekoPosition),
    ) {
        // The symmetries other than the identity fixing the current block's
        // black men, as a bit set.
        let fixing = std::cell::Cell::new(0u8);
        self.walk_tier(
            tier,
            range,
            |black| {
                let img = images(black);
                if img.iter().any(|&m| m < black) {
                    return false;
                }
                let mut ts = 0u8;
                for (t, &m) in img.iter().enumerate().skip(1) {
                    if m == black {
                        ts |= 1 << t;
                    }
                }
                fixing.set(ts);
                true
            },
            |i, pos| {
                let mut ts = fixing.get();
                while ts != 0 {
                    let t = ts.trailing_zeros() as usize;
                    if transform(t, pos.red) < pos.red {
                        return;
                    }
                    ts &= ts - 1;
                }
                f(i, pos);
            },
        );
    }

    /// [`Tiered::child_tier_indices`] of [`game_core::Canonical`]`(Teeko)`:
    /// appends the tier and index of the canonical form of each child of
    /// `pos`, computed from the masks without building a move (one
    /// canonical form a child instead of two).
    pub fn canonical_child_tier_indices(&self, pos: &TeekoPosition, out: &mut Vec<(Tier, u64)>) {
        self.for_each_child(pos, |c| {
            let c = self.canonical(&c);
            out.push((Tier::from(c.men()), self.tier_index(&c)));
        });
    }

    /// Calls `f` with each child of `pos` (which is not over), in the
    /// order of [`Game::moves`](game_core::Game::moves).
    #[inline]
    fn for_each_child(&self, pos: &TeekoPosition, mut f: impl FnMut(TeekoPosition)) {
        let empty = pos.empty();
        let (mine, theirs, next) = (pos.mover_men(), pos.opponent_men(), pos.to_move.other());
        if pos.men() < 8 {
            for_bits(empty, |s| {
                f(TeekoPosition::from_sides(theirs, mine | 1 << s, next));
            });
        } else {
            for_bits(mine, |from| {
                for_bits(NEIGHBOURS[usize::from(from)] & empty, |to| {
                    let moved = mine ^ (1 << from) ^ (1 << to);
                    f(TeekoPosition::from_sides(theirs, moved, next));
                });
            });
        }
    }
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
        let (base, to_move) = side_at(tier, index, per_side(tier));
        let index = index - base;
        let reds = BINOM[25 - b][r];
        let black = combos(b)[(index / reds) as usize];
        let red = expand(combos(r)[(index % reds) as usize], black);
        let pos = TeekoPosition {
            black,
            red,
            to_move,
        };
        (!has_pattern(pos.mover_men())).then_some(pos)
    }

    /// In index order, block by block of equal black men, each red subset
    /// found by a table and spread over the squares black leaves free.
    fn visit_tier(
        &self,
        tier: Tier,
        range: std::ops::Range<u64>,
        f: &mut dyn FnMut(u64, TeekoPosition),
    ) {
        self.walk_tier(tier, range, |_| true, f);
    }

    /// Children built from the masks, without moves.
    fn child_tier_indices(
        &self,
        pos: &TeekoPosition,
        out: &mut Vec<(Tier, u64)>,
        _moves: &mut Vec<TeekoMove>,
    ) {
        self.for_each_child(pos, |c| {
            out.push((Tier::from(c.men()), self.tier_index(&c)));
        });
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

    /// `mask`'s squares numbered among the squares outside `taken`, one
    /// square at a time by counting (the plain way).
    fn slow_compress(mut mask: u32, taken: u32) -> u32 {
        let mut out = 0;
        while mask != 0 {
            let s = mask.trailing_zeros();
            out |= 1 << (s - (taken & ((1 << s) - 1)).count_ones());
            mask &= mask - 1;
        }
        out
    }

    #[test]
    fn rank_and_unrank_are_inverse_on_every_subset() {
        for (k, row) in BINOM[25].iter().enumerate() {
            let mut last = None;
            for r in 0..*row {
                let m = unrank(r, k, 25);
                assert_eq!(m.count_ones() as usize, k);
                assert!(m < 1 << 25);
                assert_eq!(rank(m), r);
                // Increasing, so all C(25, k) subsets are distinct.
                assert!(last < Some(m));
                last = Some(m);
            }
        }
        let taken = 0b1010_0110_0001;
        for m in 0..1u32 << 8 {
            assert_eq!(compress(expand(m, taken), taken), m);
            assert_eq!(expand(m, taken) & taken, 0);
        }
    }

    #[test]
    fn compress_and_expand_match_counting() {
        // A spread of black sets of each size, and of red sets of four
        // among the squares each leaves free.
        for k in 0..=4usize {
            for (j, &taken) in combos(k).iter().enumerate().step_by(k * 37 + 1) {
                for r in (j as u64 % 7..BINOM[25 - k][4]).step_by(97) {
                    let small = unrank(r, 4, 25 - k);
                    let red = expand(small, taken);
                    assert_eq!(red & taken, 0);
                    assert_eq!(red.count_ones(), 4);
                    assert!(red < 1 << 25);
                    assert_eq!(slow_compress(red, taken), small);
                    assert_eq!(compress(red, taken), small);
                }
            }
        }
    }
}
