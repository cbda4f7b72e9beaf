//! Teeko: the rules on hand-written positions, GamesmanOne's tier sizes,
//! and sampled checks that moves, unmoves, indices, tiers and symmetries
//! agree.

use game_core::{orbit_size, Game, Indexed, Outcome, Symmetric, Tier, Tiered, Value};

use super::board::{has_pattern, PATTERNS, SYMMETRY};
use super::*;
use crate::testing::{check_parents_and_children, Rng};

fn pos(text: &str) -> TeekoPosition {
    text.parse().unwrap()
}

fn moves(p: &TeekoPosition) -> Vec<String> {
    let mut out = Vec::new();
    Teeko.moves(p, &mut out);
    let mut v: Vec<String> = out.iter().map(ToString::to_string).collect();
    v.sort();
    v
}

fn choose(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[test]
fn tier_sizes_are_gamesman_ones() {
    // Placement tier k: C(25, ⌈k/2⌉)·C(25−⌈k/2⌉, ⌊k/2⌋); moving phase:
    // C(25,4)·C(21,4)·2 = 151,420,500; in all 172,401,726 (GamesmanOne).
    let g = Teeko;
    for k in 0..8u64 {
        let b = k.div_ceil(2);
        assert_eq!(
            g.tier_size(k),
            choose(25, b) * choose(25 - b, k / 2),
            "tier {k}"
        );
    }
    assert_eq!(g.tier_size(8), 151_420_500);
    let total: u64 = g.tiers().iter().map(|&t| g.tier_size(t)).sum();
    assert_eq!(total, 172_401_726);
    assert_eq!(g.size(), 172_401_726);
    assert_eq!(g.tiers(), [8, 7, 6, 5, 4, 3, 2, 1, 0]);
    assert_eq!(g.tier_name(8), "moving");
}

#[test]
fn placement_alternates_and_fills_empty_squares() {
    let g = Teeko;
    let start = TeekoPosition::START;
    assert_eq!(moves(&start).len(), 25);
    let p = g.play_line("c3 b2 a1").unwrap();
    assert_eq!(p, pos("b..../.r.../..b../...../..... r"));
    assert_eq!(p.to_move(), TeekoColor::Red);
    assert_eq!(moves(&p).len(), 22);
    assert!(!moves(&p).contains(&"c3".to_string()));
    // Placing on a man is illegal; so is a slide before all eight are down.
    assert!(matches!(
        g.legal_move(&p, "b2"),
        Err(Error::Core(game_core::Error::IllegalMove(_)))
    ));
    assert!(g.legal_move(&p, "a1b1").is_err());
    // After eight placements black slides.
    let p = g.play_line("a1 e5 c1 e3 a3 e1 c5 b5").unwrap();
    assert_eq!(p.men(), 8);
    assert_eq!(p.to_move(), TeekoColor::Black);
    assert_eq!(g.tier(&p), 8);
    assert_eq!(
        moves(&p),
        [
            "a1a2", "a1b1", "a1b2", "a3a2", "a3a4", "a3b2", "a3b3", "a3b4", "c1b1", "c1b2", "c1c2",
            "c1d1", "c1d2", "c5b4", "c5c4", "c5d4", "c5d5"
        ]
    );
}

#[test]
fn slides_go_to_empty_neighbours_only() {
    let g = Teeko;
    // Black: a1, a2, b1, e5; red: b2, c3, d4, c1 — black to move.
    let p = pos("bbr../br.../..r../...r./....b b");
    let m = moves(&p);
    // a1 is boxed in; a2 to a3, b3; b1 to c2 (c1, b2 are red); e5 to d5, e4.
    assert_eq!(m, ["a2a3", "a2b3", "b1c2", "e5d5", "e5e4"]);
    let q = g.play(&p, &"e5e4".parse().unwrap());
    assert_eq!(q, pos("bbr../br.../..r../...rb/..... r"));
    assert_eq!(q.to_string(), "bbr..br.....r.....rb..... r");
    assert_eq!(q.to_move(), TeekoColor::Red);
    // Slides are king steps: a jump is not a move.
    assert!(matches!(
        "a2a4".parse::<TeekoMove>(),
        Err(Error::Parse { .. })
    ));
}

#[test]
fn four_in_a_row_column_diagonal_or_square_wins() {
    let g = Teeko;
    // Each line ends with black's fourth man completing a pattern; red is
    // then to move and has lost.
    for line in [
        "a1 e5 b1 e4 c1 e2 d1", // row of four on rank 1
        "b2 e5 b3 e4 b4 d1 b5", // column b, ranks 2-5
        "a1 e1 b2 e2 c3 a5 d4", // diagonal a1-d4
        "e2 a1 d3 a2 c4 a4 b5", // anti-diagonal e2-b5
        "c3 a1 d3 a5 c4 e1 d4", // 2 × 2 square c3 d3 c4 d4
    ] {
        let p = g.play_line(line).unwrap();
        assert_eq!(g.outcome(&p), Some(Outcome::Lose), "{line}");
        assert_eq!(p.to_move(), TeekoColor::Red);
    }
    // Four men in other shapes do not win: an L, a broken row, the corners
    // of a 3 × 3 square (GamesmanOne's advanced variant only).
    for line in [
        "a1 e5 b1 e4 c1 e2 c2",
        "a1 e5 b1 e4 c1 e2 e1",
        "a1 e5 c1 e4 a3 d1 c3",
    ] {
        let p = g.play_line(line).unwrap();
        assert_eq!(g.outcome(&p), None, "{line}");
    }
    // Winning by a slide in the moving phase: black b2 to c2 completes the
    // 2 × 2 square c1 d1 c2 d2.
    let p = pos("..bb./.b.b./..r../rr.r./..... b");
    assert_eq!(g.outcome(&p), None);
    let q = g.play(&p, &g.legal_move(&p, "b2c2").unwrap());
    assert_eq!(g.outcome(&q), Some(Outcome::Lose));
}

#[test]
fn the_patterns_are_the_44_lines_and_squares() {
    // Independent geometry: four squares win iff they are four consecutive
    // cells along a row, column or diagonal, or a 2 × 2 block.
    let rc = |s: u32| ((s / 5) as i32, (s % 5) as i32);
    let mut count = 0;
    for m in 0u32..1 << 25 {
        if m.count_ones() != 4 {
            continue;
        }
        let cells: Vec<(i32, i32)> = (0..25).filter(|s| m & (1 << s) != 0).map(rc).collect();
        let (r0, c0) = cells[0];
        let line = [(0, 1), (1, 0), (1, 1), (1, -1)]
            .iter()
            .any(|&(dr, dc)| (0..4).all(|k| cells.contains(&(r0 + k * dr, c0 + k * dc))));
        let square = [(0, 0), (0, 1), (1, 0), (1, 1)]
            .iter()
            .all(|&(dr, dc)| cells.contains(&(r0 + dr, c0 + dc)));
        assert_eq!(has_pattern(m), line || square, "{m:025b}");
        count += usize::from(line || square);
    }
    assert_eq!(count, 44);
    assert_eq!(PATTERNS.len(), 44);
}

#[test]
fn parse_errors_are_typed() {
    for bad in [
        "",
        "bbbb b",                       // too few squares
        ".........................x b", // bad square
        "......................... x",  // bad side
        "b........................ b",  // black to move with one more man
        "bbbbb.................... r",  // five black men
        "bbbb.rrr.r............... b",  // black to move with four in a row
    ] {
        let e = bad.parse::<TeekoPosition>().unwrap_err();
        assert!(
            matches!(
                e,
                Error::Parse { .. } | Error::Core(game_core::Error::InvalidPosition(_))
            ),
            "{bad}: {e}"
        );
    }
    assert!(matches!(
        "b........................ b".parse::<TeekoPosition>(),
        Err(Error::Core(game_core::Error::InvalidPosition(_)))
    ));
    for bad in ["", "z9", "c3d", "f1", "a0", "c3e5", "a1a1"] {
        assert!(
            matches!(bad.parse::<TeekoMove>(), Err(Error::Parse { .. })),
            "{bad}"
        );
    }
    // Text forms round-trip.
    let p = pos("bbr../br.../..r../...r./....b b");
    assert_eq!(pos(&p.to_string()), p);
    for m in ["c3", "a1b2", "e5d4"] {
        assert_eq!(m.parse::<TeekoMove>().unwrap().to_string(), m);
    }
}

/// A random position of `tier` (a random index that stands for one).
fn random_position(rng: &mut Rng, tier: Tier) -> TeekoPosition {
    loop {
        let i = rng.below(Teeko.tier_size(tier));
        if let Some(p) = Teeko.tier_position(tier, i) {
            return p;
        }
    }
}

/// Every check that ties moves, unmoves, indices, tiers and symmetries
/// together, at one position.
fn check_position(p: &TeekoPosition) {
    let g = Teeko;
    let t = g.tier(p);
    assert_eq!(g.tier_position(t, g.tier_index(p)), Some(*p));
    assert_eq!(g.position(g.index(p)), Some(*p));
    assert!(g.tier_index(p) < g.tier_size(t));
    assert_eq!(TeekoPosition::new(p.black(), p.red(), p.to_move()), Ok(*p));
    // Symmetries: the canonical form is shared by the whole class.
    let mut class = Vec::new();
    g.symmetric(p, &mut class);
    let c = g.canonical(p);
    assert!(class.contains(&c));
    for q in &class {
        assert_eq!(g.canonical(q), c);
        assert_eq!(g.tier(q), t);
        assert_eq!(g.outcome(q), g.outcome(p));
    }
    // Parents and children tied together, every position valid.
    let valid = |q: &TeekoPosition| {
        assert_eq!(TeekoPosition::new(q.black(), q.red(), q.to_move()), Ok(*q));
    };
    check_parents_and_children(&g, p, valid);
}

/// The whole index: every index round-trips or stands for no position, and
/// the count of positions per tier. About a minute in release:
/// `cargo test -p games --release -- --ignored teeko_whole_index --nocapture`.
#[test]
#[ignore = "scans all 172 million indices"]
fn teeko_whole_index() {
    let g = Teeko;
    let mut total = 0u64;
    for t in g.tiers() {
        let mut live = 0u64;
        for i in 0..g.tier_size(t) {
            if let Some(p) = g.tier_position(t, i) {
                assert_eq!(g.tier_index(&p), i);
                live += 1;
            }
        }
        println!("tier {t}: {} indices, {live} positions", g.tier_size(t));
        total += live;
    }
    println!("all: {} indices, {total} positions", g.size());
}

#[test]
fn small_tiers_exhaustively() {
    let g = Teeko;
    for t in 0..=3 {
        let mut n = 0;
        for i in 0..g.tier_size(t) {
            let p = g.tier_position(t, i).expect("no pattern below tier 7");
            assert_eq!(g.tier_index(&p), i);
            check_position(&p);
            n += 1;
        }
        assert_eq!(n, g.tier_size(t));
    }
}

#[test]
fn sampled_positions_of_every_tier() {
    let mut rng = Rng(7);
    for t in 4..=8 {
        for _ in 0..if t == 8 { 4000 } else { 1000 } {
            check_position(&random_position(&mut rng, t));
        }
    }
    // Random indices of the whole game round-trip (or stand for nothing).
    for _ in 0..20_000 {
        let i = rng.below(Teeko.size());
        if let Some(p) = Teeko.position(i) {
            assert_eq!(Teeko.index(&p), i);
        }
    }
    assert_eq!(Teeko.position(Teeko.size()), None);
}

#[test]
fn positions_reached_in_play_check_out() {
    // Random games from the start: every position met passes the checks,
    // including those near a win and the terminal ones.
    let mut rng = Rng(11);
    let mut mv = Vec::new();
    for _ in 0..200 {
        let mut p = TeekoPosition::START;
        for _ in 0..40 {
            check_position(&p);
            if Teeko.outcome(&p).is_some() {
                break;
            }
            mv.clear();
            Teeko.moves(&p, &mut mv);
            if mv.is_empty() {
                break;
            }
            p = Teeko.play(&p, &mv[rng.below(mv.len() as u64) as usize]);
        }
    }
}

#[test]
fn symmetries_keep_the_rules() {
    // Every symmetry maps patterns to patterns and neighbours to neighbours.
    for (t, map) in SYMMETRY.iter().enumerate() {
        for &p in &PATTERNS {
            assert!(has_pattern(board::transform(t, p)));
        }
        for (s, &n) in board::NEIGHBOURS.iter().enumerate() {
            let img = board::transform(t, n);
            let expected: u32 = (0..25)
                .filter(|&u| n & (1 << u) != 0)
                .map(|u| 1u32 << map[u])
                .sum();
            assert_eq!(img, expected);
            assert_eq!(board::NEIGHBOURS[usize::from(map[s])], img);
        }
    }
    // The eight maps are distinct.
    let mut maps: Vec<[u8; 25]> = SYMMETRY.to_vec();
    maps.sort();
    maps.dedup();
    assert_eq!(maps.len(), 8);
    // A man in the centre is alone in its class; one on c1 has 4 images,
    // one on b1 eight.
    let g = Teeko;
    let mut scratch = Vec::new();
    assert_eq!(orbit_size(&g, &g.play_line("c3").unwrap(), &mut scratch), 1);
    assert_eq!(orbit_size(&g, &g.play_line("c1").unwrap(), &mut scratch), 4);
    assert_eq!(orbit_size(&g, &g.play_line("b1").unwrap(), &mut scratch), 8);
}

/// Teeko with a ply budget: out of plies, a position in play is a tie.
/// Acyclic, so `solver_dp` solves it — a smoke test of the game through a
/// solver, checked against a direct search.
struct Budget;

impl Game for Budget {
    type Position = (TeekoPosition, u8);
    type Move = TeekoMove;
    fn moves(&self, (p, left): &Self::Position, out: &mut Vec<TeekoMove>) {
        if *left > 0 {
            Teeko.moves(p, out);
        }
    }
    fn play(&self, (p, left): &Self::Position, m: &TeekoMove) -> Self::Position {
        (Teeko.play(p, m), left - 1)
    }
    fn outcome(&self, (p, left): &Self::Position) -> Option<Outcome> {
        Teeko.outcome(p).or((*left == 0).then_some(Outcome::Tie))
    }
}

#[test]
fn a_few_plies_solved_by_solver_dp() {
    // Black (to move) has b1 c1 d1 and a man on e2 that slides to e1:
    // a win in 1. Red cannot stop it in any way.
    let p = pos(".bbb./....b/rr.../..r../....r b");
    let sol = solver_dp::solve(&Budget, (p, 3)).unwrap();
    assert_eq!(sol.value(&(p, 3)), Some(Value::win(1)));
    // Red to move cannot stop e2-e1 (no red man next to e1, and no red
    // win in one): lost in 2.
    let p = pos(".bbb./....b/r.r../...../r...r r");
    assert_eq!(Teeko.outcome(&p), None);
    let sol = solver_dp::solve(&Budget, (p, 4)).unwrap();
    assert_eq!(sol.value(&(p, 4)), Some(Value::lose(2)));
}

// ---- The fast paths against the plain ones ----

/// The image of `mask` under symmetry `t`, square by square.
fn slow_transform(t: usize, mask: u32) -> u32 {
    (0..25)
        .filter(|&s| mask & (1 << s) != 0)
        .map(|s| 1u32 << SYMMETRY[t][s])
        .sum()
}

/// The smallest of the 8 images built square by square, and the number of
/// distinct images.
fn slow_canonical(p: &TeekoPosition) -> (TeekoPosition, u64) {
    let mut imgs: Vec<TeekoPosition> = (0..8)
        .map(|t| TeekoPosition {
            black: slow_transform(t, p.black()),
            red: slow_transform(t, p.red()),
            to_move: p.to_move(),
        })
        .collect();
    imgs.sort();
    let first = imgs[0];
    imgs.dedup();
    (first, imgs.len() as u64)
}

/// The positions of `range` in `tier`, each index decoded on its own.
fn decoded(tier: Tier, range: std::ops::Range<u64>) -> Vec<(u64, TeekoPosition)> {
    range
        .filter_map(|i| Some((i, Teeko.tier_position(tier, i)?)))
        .collect()
}

fn visited(tier: Tier, range: std::ops::Range<u64>, canonical: bool) -> Vec<(u64, TeekoPosition)> {
    let mut out = Vec::new();
    let mut f = |i, p| out.push((i, p));
    if canonical {
        Teeko.visit_canonical_tier(tier, range, &mut f);
    } else {
        Teeko.visit_tier(tier, range, &mut f);
    }
    out
}

/// Ranges of `tier` to compare: the whole of a small tier, else windows
/// at the start, the end, across the moving tier's two halves and at
/// random.
fn windows(rng: &mut Rng, tier: Tier) -> Vec<std::ops::Range<u64>> {
    let n = Teeko.tier_size(tier);
    if n <= 200_000 {
        return vec![0..n, 1..n - 1, n / 3..n / 2 + 7, 0..n + 10];
    }
    let half = n / 2;
    let mut w = vec![0..6000, n - 6000..n + 5, half - 3000..half + 3000];
    for _ in 0..12 {
        let a = rng.below(n);
        w.push(a..a + rng.below(9000));
    }
    w
}

#[test]
fn visit_tier_walks_what_tier_position_decodes() {
    let mut rng = Rng(21);
    for t in 0..=8 {
        if (5..=7).contains(&t) {
            continue; // large like the moving tier, which is sampled
        }
        for r in windows(&mut rng, t) {
            let want = decoded(t, r.clone());
            assert_eq!(visited(t, r.clone(), false), want, "tier {t} {r:?}");
            // The canonical walk: the decoded positions that are the
            // smallest of their 8 images, built square by square.
            let canon: Vec<_> = want
                .into_iter()
                .filter(|(_, p)| slow_canonical(p).0 == *p)
                .collect();
            assert_eq!(visited(t, r.clone(), true), canon, "tier {t} {r:?}");
        }
    }
    assert!(visited(9, 0..10, false).is_empty());
    assert!(visited(8, 5..5, true).is_empty());
}

#[test]
fn visit_canonical_tier_matches_the_canonical_wrapper() {
    let g = game_core::Canonical(Teeko);
    let mut rng = Rng(22);
    for t in [4, 8] {
        for r in windows(&mut rng, t) {
            let mut want = Vec::new();
            g.visit_tier(t, r.clone(), &mut |i, p| want.push((i, p)));
            assert_eq!(visited(t, r, true), want);
        }
    }
}

/// Canonical forms, orbits, the canonical test and the symmetric list at
/// `p`, against square-by-square images.
fn check_symmetry(p: &TeekoPosition) {
    let (c, orbit) = slow_canonical(p);
    assert_eq!(Teeko.canonical(p), c, "{p}");
    assert_eq!(Teeko.is_canonical(p), c == *p, "{p}");
    assert_eq!(Teeko.orbit_size(p), orbit, "{p}");
    assert_eq!(orbit_size(&Teeko, p, &mut Vec::new()), orbit, "{p}");
}

/// The children by play + tier_index (the trait's default) at `p`.
fn default_children(p: &TeekoPosition, canonical: bool) -> Vec<(Tier, u64)> {
    let mut mv = Vec::new();
    Teeko.moves(p, &mut mv);
    mv.iter()
        .map(|m| {
            let mut c = Teeko.play(p, m);
            if canonical {
                c = slow_canonical(&c).0;
            }
            (Teeko.tier(&c), Teeko.tier_index(&c))
        })
        .collect()
}

fn check_children(p: &TeekoPosition) {
    if Teeko.outcome(p).is_some() {
        return;
    }
    let mut out = Vec::new();
    Teeko.child_tier_indices(p, &mut out, &mut Vec::new());
    assert_eq!(out, default_children(p, false), "{p}");
    out.clear();
    Teeko.canonical_child_tier_indices(p, &mut out);
    assert_eq!(out, default_children(p, true), "{p}");
}

#[test]
fn fast_symmetries_and_children_on_small_tiers() {
    for t in 0..=3 {
        Teeko.visit_tier(t, 0..u64::MAX, &mut |_, p| {
            check_symmetry(&p);
            check_children(&p);
        });
    }
}

#[test]
fn fast_symmetries_and_children_on_sampled_positions() {
    let mut rng = Rng(23);
    for t in 4..=8 {
        for _ in 0..if t == 8 { 20_000 } else { 3000 } {
            let p = random_position(&mut rng, t);
            check_symmetry(&p);
            check_children(&p);
            // Symmetric positions: canonical and orbit agree, and so do
            // positions that some symmetry fixes.
            let fixed = Teeko.canonical(&p);
            let sym = TeekoPosition {
                black: fixed.black() | slow_transform(4, fixed.black()),
                red: 0,
                to_move: p.to_move(),
            };
            check_symmetry(&sym);
        }
    }
}

#[test]
fn table_images_and_index_helpers_match_plain_ones() {
    let mut rng = Rng(24);
    for _ in 0..20_000 {
        let m = rng.below(1 << 25) as u32;
        let imgs = board::images(m);
        for (t, &img) in imgs.iter().enumerate() {
            assert_eq!(img, slow_transform(t, m));
            assert_eq!(board::transform(t, m), img);
        }
        // has_pattern against the 44 masks, for any number of men.
        assert_eq!(
            has_pattern(m),
            PATTERNS.iter().any(|&p| p & !m == 0),
            "{m:025b}"
        );
    }
}
