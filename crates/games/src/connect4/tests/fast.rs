//! The fast paths against plain re-derivations: canonical children's
//! indices against playing each move and mirroring the child through the
//! documented bit layout, the canonical walk against filtering the plain
//! one, the trait's child indices against indexing each child, and the
//! colex decoding against ranking.

use game_core::{Game, Tiered};

use super::{for_each_ply, from_grid, game, Grid, Rng};
use crate::connect4::index::colex_unrank;
use crate::connect4::{ConnectFour, ConnectFourPosition};

/// The position mirrored left–right, cell by cell through the documented
/// bit layout (bit `c·(H+1) + r`).
fn mirrored(g: &ConnectFour, p: &ConnectFourPosition) -> ConnectFourPosition {
    let stride = g.height() + 1;
    let x = p.first_player();
    let grid: Grid = (0..g.width())
        .rev()
        .map(|c| {
            (0..g.height())
                .map(|r| 1u64 << (c * stride + r))
                .take_while(|&bit| p.occupied() & bit != 0)
                .map(|bit| if x & bit != 0 { 1 } else { 2 })
                .collect()
        })
        .collect();
    from_grid(g, &grid)
}

/// The canonical form as documented: the smaller of the position and its
/// mirror image, by occupied cells, then by the mover's pieces.
fn canonical(g: &ConnectFour, p: &ConnectFourPosition) -> ConnectFourPosition {
    let m = mirrored(g, p);
    if (m.occupied(), m.mover()) < (p.occupied(), p.mover()) {
        m
    } else {
        *p
    }
}

/// The canonical children's (tier, index), sorted, by playing each move.
fn canonical_children_by_play(g: &ConnectFour, p: &ConnectFourPosition) -> Vec<(u64, u64)> {
    let mut moves = Vec::new();
    g.moves(p, &mut moves);
    let mut kids: Vec<(u64, u64)> = moves
        .iter()
        .map(|m| {
            let c = canonical(g, &g.play(p, m));
            (g.tier(&c), g.tier_index(&c))
        })
        .collect();
    kids.sort_unstable();
    kids
}

/// Checks both fast child paths at `p` against playing each move.
fn check_children(g: &ConnectFour, p: &ConnectFourPosition, out: &mut Vec<(u64, u64)>) {
    if g.outcome(p).is_some() {
        return;
    }
    out.clear();
    g.canonical_child_tier_indices(p, out);
    out.sort_unstable();
    assert_eq!(*out, canonical_children_by_play(g, p), "\n{}", g.picture(p));
    out.clear();
    Tiered::child_tier_indices(g, p, out, &mut Vec::new());
    let mut moves = Vec::new();
    g.moves(p, &mut moves);
    let plain: Vec<(u64, u64)> = moves
        .iter()
        .map(|m| {
            let c = g.play(p, m);
            (g.tier(&c), g.tier_index(&c))
        })
        .collect();
    assert_eq!(*out, plain, "\n{}", g.picture(p));
}

/// Every reachable position of small boards (short ones use the table of
/// column terms, tall ones the piece-by-piece sums).
#[test]
fn canonical_children_of_small_boards_match_playing_each_move() {
    let mut out = Vec::new();
    for (w, h) in [(4, 4), (5, 3), (3, 5), (2, 7), (6, 2), (1, 8)] {
        let g = game(w, h);
        for_each_ply(&g, w * h, |_, ply| {
            for p in ply {
                check_children(&g, p, &mut out);
            }
        });
    }
}

/// Random games on big boards, two boards played in turns so that each
/// call finds the other board's terms kept from the call before.
#[test]
fn canonical_children_of_big_boards_match_playing_each_move() {
    let mut rng = Rng(0xb0a7d);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for ((w1, h1), (w2, h2)) in [((7, 6), (6, 7)), ((8, 7), (5, 5)), ((9, 5), (4, 15))] {
        let games = [game(w1, h1), game(w2, h2)];
        for _ in 0..30 {
            let mut pos = [games[0].start(), games[1].start()];
            let mut live = [true, true];
            while live.iter().any(|&l| l) {
                for k in 0..2 {
                    if !live[k] {
                        continue;
                    }
                    let g = &games[k];
                    check_children(g, &pos[k], &mut out);
                    if g.outcome(&pos[k]).is_some() {
                        live[k] = false;
                        continue;
                    }
                    moves.clear();
                    g.moves(&pos[k], &mut moves);
                    pos[k] = g.play(&pos[k], &moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
    }
}

/// The pairs `for_each_canonical_in_tier` gives for `range`, and those of
/// `for_each_in_tier` whose position is its own canonical form.
type Pairs = Vec<(u64, ConnectFourPosition)>;
fn canonical_both_ways(g: &ConnectFour, tier: u64, range: std::ops::Range<u64>) -> (Pairs, Pairs) {
    let mut fast = Vec::new();
    g.for_each_canonical_in_tier(tier, range.clone(), |i, p| fast.push((i, p)));
    let mut slow = Vec::new();
    g.for_each_in_tier(tier, range, |i, p| {
        if canonical(g, &p) == p {
            slow.push((i, p));
        }
    });
    (fast, slow)
}

#[test]
fn the_canonical_walk_is_the_plain_walk_filtered() {
    for (w, h) in [(4, 4), (5, 3), (3, 4), (2, 6)] {
        let g = game(w, h);
        for t in 0..=u64::from(w * h) {
            let (fast, slow) = canonical_both_ways(&g, t, 0..u64::MAX);
            assert_eq!(fast, slow, "{w}×{h} tier {t}");
        }
    }
    let mut rng = Rng(0x5eed);
    for (w, h) in [(7, 6), (6, 5), (8, 7), (5, 5)] {
        let g = game(w, h);
        for _ in 0..40 {
            let t = rng.below(u64::from(w * h) + 1);
            let start = rng.below(g.tier_size(t));
            let (fast, slow) = canonical_both_ways(&g, t, start..start + 1 + rng.below(3000));
            assert_eq!(fast, slow, "{w}×{h} tier {t} from {start}");
        }
    }
}

/// Long runs of big tiers, where whole runs of indices are skipped:
/// walking gives what decoding each index gives.
#[test]
fn long_walks_of_big_tiers_agree_with_decoding() {
    let mut rng = Rng(0x10c5);
    for (w, h) in [(7, 6), (6, 5), (5, 5)] {
        let g = game(w, h);
        for _ in 0..6 {
            let t = u64::from(w * h) / 2 + rng.below(u64::from(w * h) / 2);
            let start = rng.below(g.tier_size(t));
            let range = start..start + 20_000;
            let mut fast = Vec::new();
            g.for_each_in_tier(t, range.clone(), |i, p| fast.push((i, p)));
            let slow: Pairs = range
                .filter_map(|i| g.tier_position(t, i).map(|p| (i, p)))
                .collect();
            assert_eq!(fast, slow, "{w}×{h} tier {t} from {start}");
        }
    }
}

/// Decoding a colex rank gives the set of that rank: every set of up to
/// 16 places, and random sets of up to 63.
#[test]
fn colex_decoding_inverts_ranking() {
    let rank = |set: u64| -> u64 {
        // Σ C(pⱼ, j) by the multiplicative formula, independent of tables.
        let choose = |n: u64, k: u64| -> u64 {
            if k > n {
                return 0;
            }
            (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1)) as u64
        };
        (0..64)
            .filter(|&b| set >> b & 1 == 1)
            .enumerate()
            .map(|(j, b)| choose(b, j as u64 + 1))
            .sum()
    };
    for n in 0..=16u32 {
        for set in 0..1u64 << n {
            let k = set.count_ones();
            assert_eq!(colex_unrank(n, k, rank(set)), set, "n {n} set {set:b}");
        }
    }
    let mut rng = Rng(0xc01e);
    for _ in 0..20_000 {
        let n = 17 + rng.below(47) as u32;
        let set = rng.next() & ((1u64 << n) - 1);
        assert_eq!(colex_unrank(n, set.count_ones(), rank(set)), set, "n {n}");
    }
}
