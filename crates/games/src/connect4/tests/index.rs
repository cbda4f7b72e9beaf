//! The tiered index: sizes against published and brute-force counts, the
//! promises of `Tiered`, `Indexed` and `Symmetric` on every reachable
//! position of small boards and on random positions of big ones, and a
//! brute-force check of the whole 4×4 index.

use game_core::{orbit_size, Game, Indexed, Symmetric, Tiered};

use super::{for_each_ply, from_grid, game, naive_four, Grid, Rng};
use crate::connect4::{ConnectFour, ConnectFourPosition};

/// C(n, k) by the multiplicative formula, in u128.
fn choose(n: u128, k: u128) -> u128 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The number of ways to split `n` pieces among `w` columns of at most `h`
/// (by polynomial multiplication).
fn height_vectors(w: u32, h: u32) -> Vec<u128> {
    let cells = (w * h) as usize;
    let mut ways = vec![0u128; cells + 1];
    ways[0] = 1;
    for _ in 0..w {
        let mut next = vec![0u128; cells + 1];
        for (s, &x) in ways.iter().enumerate() {
            for v in 0..=h as usize {
                if s + v <= cells {
                    next[s + v] += x;
                }
            }
        }
        ways = next;
    }
    ways
}

/// Allis' count of boards with `n` discs on 7×6 (gravity and the right
/// colours; OEIS A090224, terms 0 to 26).
const A090224: [u64; 27] = [
    1,
    7,
    56,
    252,
    1260,
    4620,
    18480,
    59815,
    206780,
    605934,
    1869840,
    5038572,
    14164920,
    35459424,
    91871208,
    214864650,
    516936420,
    1134183050,
    2546423880,
    5252058812,
    11031780760,
    21406686756,
    42121344720,
    76871042612,
    141627466344,
    242619996500,
    417750499600,
];

#[test]
fn tier_sizes_on_7x6_are_allis_counts() {
    let g = game(7, 6);
    for (n, &want) in A090224.iter().enumerate() {
        assert_eq!(g.tier_size(n as u64), want, "tier {n}");
    }
}

/// Every allowed board builds, and its tier sizes and whole-game size are
/// the counts of height vectors times C(n, ⌈n/2⌉), summed in u128 (so a
/// wrapped u64 would show).
#[test]
fn tier_sizes_on_every_board_match_an_independent_count() {
    for w in 1..=32u32 {
        for h in 1..=63u32 {
            if w * (h + 1) > 64 {
                continue;
            }
            let g = game(w, h);
            let vectors = height_vectors(w, h);
            let mut total = 0u128;
            for n in 0..=w * h {
                let size = vectors[n as usize] * choose(n.into(), n.div_ceil(2).into());
                assert_eq!(u128::from(g.tier_size(n.into())), size, "{w}×{h} tier {n}");
                total += size;
            }
            assert_eq!(u128::from(g.size()), total, "{w}×{h}");
            assert_eq!(g.tier_size(u64::from(w * h) + 1), 0);
            let tiers = g.tiers();
            assert_eq!(tiers.len() as u32, w * h + 1);
            assert!(tiers.windows(2).all(|t| t[0] == t[1] + 1) && tiers[0] == u64::from(w * h));
        }
    }
}

/// What every position must satisfy: index round trips in its tier and in
/// the whole game, children in the next tier with the indices that
/// `child_tier_indices` gives, the mirror a canonical-stable symmetry.
struct Checker {
    moves: Vec<u8>,
    kids: Vec<(u8, u64)>,
    tiers: Vec<u64>,
    sym: Vec<ConnectFourPosition>,
}

impl Checker {
    fn new() -> Self {
        Checker {
            moves: Vec::new(),
            kids: Vec::new(),
            tiers: Vec::new(),
            sym: Vec::new(),
        }
    }

    fn check(&mut self, g: &ConnectFour, p: &ConnectFourPosition) {
        let t = g.tier(p);
        assert_eq!(t, u64::from(p.pieces()));
        let i = g.tier_index(p);
        assert!(i < g.tier_size(t), "index {i} of tier {t}");
        assert_eq!(
            g.tier_position(t, i),
            Some(*p),
            "tier {t} index {i}\n{}",
            g.picture(p)
        );
        let whole = g.index(p);
        assert!(whole < g.size());
        assert_eq!(g.position(whole), Some(*p));

        let m = g.mirror(p);
        assert_eq!(g.mirror(&m), *p);
        let c = g.canonical(p);
        assert!(c == *p || c == m);
        assert_eq!(g.canonical(&m), c);
        assert_eq!(g.tier(&c), t);
        assert_eq!(g.outcome(&m), g.outcome(p));
        let orbit = orbit_size(g, p, &mut self.sym);
        assert_eq!(orbit, if m == *p { 1 } else { 2 });

        if g.outcome(p).is_some() {
            return;
        }
        self.moves.clear();
        g.moves(p, &mut self.moves);
        self.tiers.clear();
        g.child_tiers(t, &mut self.tiers);
        assert_eq!(self.tiers, [t + 1]);
        assert!(g.leaves_tier(t));
        self.kids.clear();
        g.child_tier_indices(p, &mut self.kids);
        assert_eq!(self.kids.len(), self.moves.len());
        for (&mv, &(kid_mv, kid_index)) in self.moves.iter().zip(&self.kids) {
            let child = g.play(p, &mv);
            assert_eq!(g.tier(&child), t + 1);
            assert_eq!((kid_mv, kid_index), (mv, g.tier_index(&child)), "move {mv}");
        }
    }
}

#[test]
fn every_reachable_position_of_small_boards_keeps_the_promises() {
    let mut checker = Checker::new();
    for (w, h) in [(4, 4), (3, 3), (5, 3), (2, 5), (1, 6), (6, 1)] {
        let g = game(w, h);
        for_each_ply(&g, w * h, |_, ply| {
            for p in ply {
                checker.check(&g, p);
                // The mirror of a reachable position is reachable.
                assert!(ply.binary_search(&g.mirror(p)).is_ok());
            }
        });
    }
}

#[test]
fn random_positions_of_big_boards_keep_the_promises() {
    let mut checker = Checker::new();
    let mut rng = Rng(0xc0ffee);
    let mut moves = Vec::new();
    for (w, h) in [
        (7, 6),
        (8, 7),
        (6, 5),
        (9, 5),
        (4, 15),
        (21, 2),
        (32, 1),
        (1, 63),
    ] {
        let g = game(w, h);
        for _ in 0..40 {
            let mut pos = g.start();
            loop {
                checker.check(&g, &pos);
                if g.outcome(&pos).is_some() {
                    break;
                }
                moves.clear();
                g.moves(&pos, &mut moves);
                pos = g.play(&pos, &moves[rng.below(moves.len() as u64) as usize]);
            }
        }
    }
}

/// The grid of a position, read cell by cell through the documented bit
/// layout.
fn to_grid(g: &ConnectFour, p: &ConnectFourPosition) -> Grid {
    let stride = g.height() + 1;
    let x = p.first_player();
    (0..g.width())
        .map(|c| {
            (0..g.height())
                .map(|r| 1u64 << (c * stride + r))
                .take_while(|&bit| p.occupied() & bit != 0)
                .map(|bit| if x & bit != 0 { 1 } else { 2 })
                .collect()
        })
        .collect()
}

/// Whether a board (gravity and colour counts given) could be a position
/// of a game in progress or just ended, by the rule the index documents:
/// the player to move has no four, and if the other player has four, one
/// of that player's top pieces made all of them.
fn plausible(grid: &Grid, height: usize) -> bool {
    let n: usize = grid.iter().map(Vec::len).sum();
    let (mover, other) = if n.is_multiple_of(2) { (1, 2) } else { (2, 1) };
    if naive_four(grid, height, mover) {
        return false;
    }
    if !naive_four(grid, height, other) {
        return true;
    }
    (0..grid.len()).any(|c| {
        grid[c].last() == Some(&other) && {
            let mut less = grid.clone();
            less[c].pop();
            !naive_four(&less, height, other)
        }
    })
}

/// Random indices of big tiers decode to positions that index back and
/// pass the naive plausibility check; `None` only for implausible boards.
#[test]
fn random_indices_of_big_boards_decode_consistently() {
    let mut rng = Rng(0xdecade);
    for (w, h) in [(7, 6), (8, 7), (6, 6), (4, 15)] {
        let g = game(w, h);
        let (mut some, mut none) = (0, 0);
        for _ in 0..3000 {
            let t = rng.below(u64::from(w * h) + 1);
            let i = rng.below(g.tier_size(t));
            match g.tier_position(t, i) {
                Some(p) => {
                    some += 1;
                    assert_eq!((g.tier(&p), g.tier_index(&p)), (t, i));
                    assert!(plausible(&to_grid(&g, &p), h as usize));
                    assert_eq!(g.position(g.index(&p)), Some(p));
                }
                None => none += 1,
            }
        }
        assert!(some > 0 && none > 0, "{w}×{h}: {some} decoded, {none} not");
    }
}

/// Every board of 4×4 that obeys gravity and has the right colours, made
/// column by column: each has its own index in its tier, they use up
/// every index, and an index decodes exactly when the board is plausible.
#[test]
fn the_whole_4x4_index_against_brute_force() {
    let (w, h) = (4usize, 4usize);
    let g = game(w as u32, h as u32);
    // The 31 possible columns: a height and the colours from the bottom.
    let columns: Vec<Vec<u8>> = (0..=h)
        .flat_map(|len| {
            (0..1u32 << len).map(move |bits| (0..len).map(|r| 1 + (bits >> r & 1) as u8).collect())
        })
        .collect();
    assert_eq!(columns.len(), 31);
    let mut seen: Vec<Vec<bool>> = (0..=w * h)
        .map(|n| vec![false; g.tier_size(n as u64) as usize])
        .collect();
    let mut boards = vec![0u64; w * h + 1];
    let mut plausible_boards = 0u64;
    let mut pick = [0usize; 4];
    loop {
        let grid: Grid = pick.iter().map(|&k| columns[k].clone()).collect();
        let x = grid.iter().flatten().filter(|&&c| c == 1).count();
        let o = grid.iter().flatten().filter(|&&c| c == 2).count();
        if x == o || x == o + 1 {
            let n = x + o;
            let p = from_grid(&g, &grid);
            let i = g.tier_index(&p);
            assert!(i < g.tier_size(n as u64));
            assert!(
                !seen[n][i as usize],
                "two boards share index {i} of tier {n}"
            );
            seen[n][i as usize] = true;
            boards[n] += 1;
            if plausible(&grid, h) {
                plausible_boards += 1;
                assert_eq!(g.tier_position(n as u64, i), Some(p));
            } else {
                assert_eq!(g.tier_position(n as u64, i), None, "{grid:?}");
            }
        }
        // Next board (odometer over the four columns).
        let mut k = 0;
        while k < 4 {
            pick[k] += 1;
            if pick[k] < columns.len() {
                break;
            }
            pick[k] = 0;
            k += 1;
        }
        if k == 4 {
            break;
        }
    }
    for (n, &count) in boards.iter().enumerate() {
        assert_eq!(count, g.tier_size(n as u64), "tier {n}");
    }
    let decoded = (0..g.size()).filter(|&i| g.position(i).is_some()).count() as u64;
    assert_eq!(decoded, plausible_boards);
}

/// Indices with the positions they stand for.
type Decoded = Vec<(u64, ConnectFourPosition)>;

/// The pairs `for_each_in_tier` gives for `range`, and those of
/// `tier_position` on each index of the range.
fn both_ways(g: &ConnectFour, tier: u64, range: std::ops::Range<u64>) -> (Decoded, Decoded) {
    let mut fast = Vec::new();
    g.for_each_in_tier(tier, range.clone(), |i, p| fast.push((i, p)));
    let end = range.end.min(g.tier_size(tier));
    let slow = (range.start..end)
        .filter_map(|i| g.tier_position(tier, i).map(|p| (i, p)))
        .collect();
    (fast, slow)
}

/// Walking a tier in order gives what decoding each index gives: whole
/// tiers of small boards, and runs across changes of column heights on
/// big ones.
#[test]
fn walking_a_tier_agrees_with_decoding_each_index() {
    for (w, h) in [(4, 4), (3, 3), (5, 2), (1, 5)] {
        let g = game(w, h);
        for t in 0..=u64::from(w * h) + 1 {
            let (fast, slow) = both_ways(&g, t, 0..u64::MAX);
            assert_eq!(fast, slow, "{w}×{h} tier {t}");
        }
    }
    let mut rng = Rng(0x7a1c);
    for (w, h) in [(7, 6), (8, 7), (6, 5)] {
        let g = game(w, h);
        for _ in 0..60 {
            let t = rng.below(u64::from(w * h) + 1);
            let size = g.tier_size(t);
            // Start a little before a multiple of C(n, ⌈n/2⌉), where the
            // column heights change, or anywhere.
            let per_heights = choices_of(t);
            let start = if rng.below(2) == 0 {
                let k = rng.below(size / per_heights + 1);
                (k * per_heights).saturating_sub(rng.below(50))
            } else {
                rng.below(size)
            };
            let (fast, slow) = both_ways(&g, t, start..start + 1 + rng.below(400));
            assert_eq!(fast, slow, "{w}×{h} tier {t} from {start}");
        }
    }
    // Empty and out-of-tier ranges call nothing.
    let g = game(7, 6);
    let (fast, _) = both_ways(&g, 10, 5..5);
    assert!(fast.is_empty());
    let (fast, _) = both_ways(&g, 43, 0..10);
    assert!(fast.is_empty());
}

/// C(n, ⌈n/2⌉), the run of indices sharing one height vector.
fn choices_of(n: u64) -> u64 {
    choose(n.into(), n.div_ceil(2).into()) as u64
}
