//! Dōbutsu shōgi: every rule on hand-written positions, published facts,
//! and sampled checks that moves, unmoves, indices, tiers and symmetries
//! agree.

use game_core::{Game, Indexed, Outcome, Symmetric, Tiered, Unmoves, Value};

use super::index::{OVER, PLAY};
use super::*;
use crate::testing::{check_parents_and_children, Rng};

fn game() -> Dobutsu {
    Dobutsu::new()
}

fn at(text: &str) -> (DobutsuPosition, DobutsuSide) {
    DobutsuPosition::parse_with_side(text).unwrap()
}

/// The moves at a position, in the notation of `side`, sorted.
fn moves_of(g: &Dobutsu, pos: &DobutsuPosition, side: DobutsuSide) -> Vec<String> {
    let mut out = Vec::new();
    g.moves(pos, &mut out);
    let mut v: Vec<String> = out.iter().map(|m| m.notation(side)).collect();
    v.sort();
    v
}

/// The steps of the piece on `from`, as destination squares, sorted.
fn steps_from(text: &str, from: &str) -> Vec<String> {
    let g = game();
    let (pos, side) = at(text);
    moves_of(&g, &pos, side)
        .into_iter()
        .filter_map(|m| m.strip_prefix(from).map(str::to_string))
        .collect()
}

#[test]
fn the_start_has_the_four_published_first_moves() {
    // Tanaka's analysis (as summarised at
    // xawa99.blogspot.com/2013/04/DoubutsuShougi-Kaiseki-B2Hiyoko.html)
    // lists the first player's four first moves: chick b2, giraffe c3,
    // lion c3 or a3.
    let g = game();
    let start = DobutsuPosition::START;
    assert_eq!(start.to_string(), "gle/.c./.C./ELG - b");
    assert_eq!(at("gle/.c./.C./ELG - b").0, start);
    assert_eq!(
        moves_of(&g, &start, DobutsuSide::First),
        ["b3b2", "b4a3", "b4c3", "c4c3"]
    );
    assert_eq!(g.outcome(&start), None);
    // The start is its own mirror image and its own turned board.
    assert_eq!(g.canonical(&start), start);
    assert_eq!(start.flipped(), start);
}

#[test]
fn each_piece_steps_as_the_rules_say() {
    // Lone pieces of the first player on b3; everything else in the second
    // player's hand, the lions out of the way.
    assert_eq!(
        steps_from("l../.../.L./... ggeecc b", "b3"),
        ["a2", "a3", "a4", "b2", "b4", "c2", "c3", "c4"]
    );
    assert_eq!(
        steps_from("l../.../.G./..L geecc b", "b3"),
        ["a3", "b2", "b4", "c3"]
    );
    assert_eq!(
        steps_from("l../.../.E./.L. ggecc b", "b3"),
        ["a2", "a4", "c2", "c4"]
    );
    assert_eq!(steps_from("l../.../.C./..L ggeec b", "b3"), ["b2"]);
    // The hen: not diagonally backwards (a3, and c3 though a lion to take
    // stands there).
    assert_eq!(
        steps_from(".../.H./..l/..L ggeec b", "b2"),
        ["a1", "a2", "b1", "b3", "c1", "c2"]
    );
    // A piece does not step onto its own side's pieces, and does capture.
    assert_eq!(
        steps_from("l../.e./.G./.EL gcc b", "b3"),
        ["a3", "b2", "c3"]
    );
    // The second player's pieces go the other way: its chick goes towards
    // rank 4, its hen not diagonally towards rank 1 (a1).
    assert_eq!(steps_from("..l/.c./.../..L ggeec w", "b2"), ["b3"]);
    assert_eq!(
        steps_from("..l/.h./.../..L ggeec w", "b2"),
        ["a2", "a3", "b1", "b3", "c2", "c3"]
    );
    let g = game();
    let (pos, side) = g.play_line("c4c3").unwrap();
    assert!(g.legal_move(&pos, side, "b2b3").is_ok());
    assert!(matches!(
        g.legal_move(&pos, side, "b2b1"),
        Err(Error::Core(game_core::Error::IllegalMove(_)))
    ));
    // The player in words (it was the Debug `Second`).
    let err = g.legal_move(&pos, side, "b2b1").unwrap_err().to_string();
    assert!(err.contains("by the second player"), "{err}");
}

#[test]
fn a_chick_reaching_the_far_rank_becomes_a_hen_and_a_captured_hen_a_chick() {
    let g = game();
    let (pos, side) = at("..l/C../.../..L ggeec b");
    let mv = g.legal_move(&pos, side, "a2a1").unwrap();
    let next = g.play(&pos, &mv);
    assert_eq!(
        next.board_string(DobutsuSide::Second),
        "H.l/.../.../..L ggeec w"
    );
    // The second player's lion takes the hen: a chick in its hand.
    let (pos, side) = at("Hl./.../.../..L ggeec w");
    let next = g.play(&pos, &g.legal_move(&pos, side, "b1a1").unwrap());
    assert_eq!(
        next.board_string(DobutsuSide::First),
        "l../.../.../..L ggeecc b"
    );
    assert_eq!(next.hand(false), [2, 2, 2]);
    assert_eq!(next.hand(true), [0, 0, 0]);
    // A promotion of the second player's chick, on rank 4.
    let (pos, side) = at("..l/.../c.L/... ggeec w");
    let next = g.play(&pos, &g.legal_move(&pos, side, "a3a4").unwrap());
    assert_eq!(
        next.board_string(DobutsuSide::First),
        "..l/.../..L/h.. ggeec b"
    );
}

#[test]
fn drops_go_on_any_empty_square_and_a_chick_on_the_far_rank_stays_a_chick() {
    let g = game();
    let (pos, side) = at("..l/.../.../..L Cggeec b");
    let m = moves_of(&g, &pos, side);
    let drops: Vec<&String> = m.iter().filter(|s| s.starts_with("C*")).collect();
    assert_eq!(drops.len(), 10, "{m:?}");
    assert!(matches!(
        g.legal_move(&pos, side, "C*c1"),
        Err(Error::Core(game_core::Error::IllegalMove(_)))
    ));
    let next = g.play(&pos, &g.legal_move(&pos, side, "C*a1").unwrap());
    assert_eq!(
        next.board_string(DobutsuSide::Second),
        "C.l/.../.../..L ggeec w"
    );
    // That chick can never move.
    assert!(steps_from("C.l/.../.../..L ggeec b", "a1").is_empty());
    // Only pieces in hand can be dropped; lions and hens never are.
    assert!(g.legal_move(&pos, side, "G*a1").is_err());
    for bad in ["L*a1", "H*a1", "X*a1"] {
        assert!(
            matches!(bad.parse::<DobutsuMove>(), Err(Error::Parse { .. })),
            "{bad}"
        );
    }
}

#[test]
fn capturing_the_lion_ends_the_game() {
    let g = game();
    let (pos, side) = at("l../G../.../..L geecc b");
    assert_eq!(g.outcome(&pos), None);
    let next = g.play(&pos, &g.legal_move(&pos, side, "a2a1").unwrap());
    assert_eq!(g.outcome(&next), Some(Outcome::Lose));
    assert_eq!(next.my_lion(), None);
    assert_eq!(g.tier(&next), OVER);
    // The lion does not go to the hand.
    assert_eq!(next.hand(false), [0, 0, 0]);
    assert_eq!(next.hand(true), [1, 2, 2]);
}

#[test]
fn the_try_wins_unless_the_lion_can_be_taken() {
    let g = game();
    // The first player's lion a2 goes to rank 1 at a1 (safe) or b1 (the
    // giraffe c1 takes it).
    let (pos, side) = at("..g/L../..l/... geecc b");
    assert_eq!(g.outcome(&pos), None);
    let safe = g.play(&pos, &g.legal_move(&pos, side, "a2a1").unwrap());
    assert_eq!(g.outcome(&safe), Some(Outcome::Lose));
    let unsafe_try = g.play(&pos, &g.legal_move(&pos, side, "a2b1").unwrap());
    assert_eq!(g.outcome(&unsafe_try), Some(Outcome::Win));
    assert_eq!(g.tier(&safe), OVER);
    assert_eq!(g.tier(&pos), PLAY);
    // A lion on the mover's own far rank (won by a try the move before)
    // is no position of the game.
    assert!(matches!(
        DobutsuPosition::parse_with_side("L../.../..l/... ggeecc b"),
        Err(Error::Core(game_core::Error::InvalidPosition(_)))
    ));
}

#[test]
fn lines_and_text_forms() {
    let g = game();
    let (pos, side) = g.play_line("b3b2 c1b2 C*b3").unwrap();
    assert_eq!(side, DobutsuSide::Second);
    assert_eq!(pos.board_string(side), "gl./.e./.C./ELG c w");
    assert_eq!(at(&pos.board_string(side)), (pos, side));
    assert_eq!(at(&pos.to_string()), (pos, DobutsuSide::First));
    // The second player's view: its pieces are the mover's.
    assert_eq!(pos.piece_at(11 - 4), Some((DobutsuPiece::Elephant, true)));
    assert_eq!(pos.hand(true), [0, 0, 1]);
    let mut mv = Vec::new();
    g.moves(&pos, &mut mv);
    for m in &mv {
        assert_eq!(super::notation::parse_move(&m.notation(side), side), Ok(*m));
    }
    assert!(matches!(
        g.play_line("b3b2 b3b2"),
        Err(Error::Core(game_core::Error::IllegalMove(_)))
    ));
}

#[test]
fn parse_errors_are_typed() {
    for bad in [
        "",
        "gle/.c./.C./ELG -",
        "gle/.c./.C./ELG - x",
        "gle/.c./.C./EL - b",
        "gle/.c./.C./ELGG - b",
        "gle/.x./.C./ELG - b",
        "gle/.c./.C./ELG L b",
        "gle/.c./.C./ELG H b",
    ] {
        assert!(
            matches!(
                DobutsuPosition::parse_with_side(bad),
                Err(Error::Parse { .. })
            ),
            "{bad}"
        );
    }
    for bad in [
        "gle/.c./.C./ELE - b", // three elephants, one giraffe
        "gle/.c./.C./ELG c b", // three chicks
        "gge/.c./.C./ELG - b", // no second lion
        "gle/.c./.C./LLG - b", // two first lions
    ] {
        assert!(
            matches!(
                DobutsuPosition::parse_with_side(bad),
                Err(Error::Core(game_core::Error::InvalidPosition(_)))
            ),
            "{bad}"
        );
    }
    for bad in ["", "b3", "b3b3", "d1a1", "a5a4", "b3-b2", "C*d1", "Q*a1"] {
        assert!(
            matches!(bad.parse::<DobutsuMove>(), Err(Error::Parse { .. })),
            "{bad}"
        );
    }
}

#[test]
fn tier_sizes_and_index_space() {
    let g = game();
    assert_eq!(g.tiers(), [OVER, PLAY]);
    assert_eq!(g.tier_size(PLAY), 75 * 11_878_227);
    assert_eq!(g.tier_size(OVER), 24 * 11_878_227 + 12 * 22_897_011);
    assert_eq!(g.size(), 1_450_708_605);
    assert_eq!(g.tier_name(OVER), "over");
    assert_eq!(g.position(g.size()), None);
    let mut kids = Vec::new();
    g.child_tiers(PLAY, &mut kids);
    assert_eq!(kids, [OVER]);
}

/// A random position with the pieces placed independently of the index:
/// lions on random squares, each other piece on a random empty square
/// (random owner, chicks maybe promoted) or in a random hand.
fn random_position(rng: &mut Rng) -> DobutsuPosition {
    loop {
        let mut board: [Option<(DobutsuPiece, bool)>; 12] = [None; 12];
        let mut hands = [[0u8; 3]; 2];
        let o = rng.below(12) as usize;
        board[o] = Some((DobutsuPiece::Lion, false));
        if rng.below(8) != 0 {
            let m = rng.below(12) as usize;
            if m == o {
                continue;
            }
            board[m] = Some((DobutsuPiece::Lion, true));
        }
        for slot in [0, 0, 1, 1, 2, 2] {
            let r = rng.below(4);
            if r < 2 {
                hands[r as usize][slot] += 1;
                continue;
            }
            let empties: Vec<usize> = (0..12).filter(|&s| board[s].is_none()).collect();
            let s = empties[rng.below(empties.len() as u64) as usize];
            let mut piece = DobutsuPiece::IN_HAND[slot];
            if slot == 2 && rng.below(2) == 0 {
                piece = DobutsuPiece::Hen;
            }
            board[s] = Some((piece, rng.below(2) == 0));
        }
        if let Ok(p) = DobutsuPosition::new(board, hands[0], hands[1]) {
            return p;
        }
    }
}

/// Every check tying moves, unmoves, indices, tiers and symmetries
/// together, at one position.
fn check_position(g: &Dobutsu, p: &DobutsuPosition) {
    let t = g.tier(p);
    let i = g.tier_index(p);
    assert!(i < g.tier_size(t));
    assert_eq!(g.tier_position(t, i), Some(*p), "{p}");
    assert_eq!(g.position(g.index(p)), Some(*p));
    assert_eq!(t == OVER, g.outcome(p).is_some(), "{p}");
    assert_eq!(p.check(), Ok(()));
    // Symmetry: the mirror keeps the tier, the outcome and the canonical
    // form.
    let m = p.mirrored();
    assert_eq!(g.canonical(&m), g.canonical(p));
    assert!([*p, m].contains(&g.canonical(p)));
    assert_eq!(g.tier(&m), t);
    assert_eq!(g.outcome(&m), g.outcome(p));
    assert_eq!(
        g.orbit_size(p),
        game_core::orbit_size(g, p, &mut Vec::new()),
        "{p}"
    );
    // Parents and children tied together, every position valid.
    let valid = |q: &DobutsuPosition| assert_eq!(q.check(), Ok(()), "{q}");
    let kids = check_parents_and_children(g, p, valid);
    if g.outcome(p).is_none() {
        let mut mv = Vec::new();
        g.moves(p, &mut mv);
        assert_eq!(kids.len(), mv.len(), "two moves with one child at {p}");
    }
}

#[test]
fn random_positions_check_out() {
    let g = game();
    let mut rng = Rng(3);
    for _ in 0..6000 {
        check_position(&g, &random_position(&mut rng));
    }
}

#[test]
fn random_indices_check_out() {
    let g = game();
    let mut rng = Rng(5);
    for _ in 0..3000 {
        let i = rng.below(g.size());
        let p = g.position(i).expect("every index stands for a position");
        assert_eq!(g.index(&p), i);
        check_position(&g, &p);
    }
    // Runs of consecutive indices across signature and class boundaries.
    for tier in [OVER, PLAY] {
        for start in [
            0,
            11_878_227 - 50,
            2 * 11_878_227 - 50,
            g.tier_size(tier) - 100,
        ] {
            for i in start..start + 100 {
                let p = g.tier_position(tier, i).unwrap();
                assert_eq!(g.tier_index(&p), i);
                assert_eq!(g.tier(&p), tier);
            }
        }
    }
}

#[test]
fn played_games_check_out() {
    let g = game();
    let mut rng = Rng(9);
    let mut mv = Vec::new();
    for _ in 0..150 {
        let mut p = DobutsuPosition::START;
        for _ in 0..60 {
            check_position(&g, &p);
            if g.outcome(&p).is_some() {
                break;
            }
            mv.clear();
            g.moves(&p, &mut mv);
            if mv.is_empty() {
                break;
            }
            p = g.play(&p, &mv[rng.below(mv.len() as u64) as usize]);
        }
    }
}

/// The whole index in release: every index round-trips; the largest
/// number of children (40). About 6 minutes on one core:
/// `cargo test -p games --release -- --ignored dobutsu_whole_index --nocapture`.
#[test]
#[ignore = "scans all 1.45 billion indices"]
fn dobutsu_whole_index() {
    let g = game();
    let mut most = 0;
    for tier in g.tiers() {
        for i in 0..g.tier_size(tier) {
            let p = g.tier_position(tier, i).unwrap();
            assert_eq!(g.tier_index(&p), i);
            if tier == PLAY {
                most = most.max(g.child_count(&p, &mut Vec::new(), &mut Vec::new()));
            }
        }
    }
    println!("most children of a position in play: {most}");
}

/// Positions reachable from the start, breadth first over a bitset of the
/// index. With `tanaka`, a position is not played on when the lion can be
/// taken or a try is in force (Tanaka 2009); otherwise when it is over.
fn reachable(g: &Dobutsu, tanaka: bool) -> Vec<u64> {
    let n = g.size() as usize;
    let mut seen = vec![0u64; n.div_ceil(64)];
    let start = g.index(&DobutsuPosition::START);
    seen[start as usize / 64] |= 1 << (start % 64);
    let mut frontier = vec![start];
    let mut mv = Vec::new();
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &i in &frontier {
            let p = g.position(i).unwrap();
            if g.outcome(&p).is_some() || (tanaka && Dobutsu::attacks(&p, p.their_lion())) {
                continue;
            }
            mv.clear();
            g.moves(&p, &mut mv);
            for m in &mv {
                let c = g.index(&g.play(&p, m)) as usize;
                if seen[c / 64] & (1 << (c % 64)) == 0 {
                    seen[c / 64] |= 1 << (c % 64);
                    next.push(c as u64);
                }
            }
        }
        frontier = next;
    }
    seen
}

/// The number of positions reachable, and of those up to the mirror.
fn count_reachable(g: &Dobutsu, tanaka: bool) -> (u64, u64) {
    let seen = reachable(g, tanaka);
    let count: u64 = seen.iter().map(|w| u64::from(w.count_ones())).sum();
    let mut canonical = 0u64;
    for (w, &word) in seen.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let i = w as u64 * 64 + u64::from(bits.trailing_zeros());
            let p = g.position(i).unwrap();
            canonical += u64::from(g.canonical(&p) == p);
            bits &= bits - 1;
        }
    }
    (count, canonical)
}

/// Tanaka (2009) reports 246,803,167 positions reachable from the start,
/// positions seen by the player to move and mirror images counted once
/// (493,573,042 without the mirror). About 15 minutes in release:
/// `cargo test -p games --release -- --ignored tanaka_reachable_count --nocapture`.
#[test]
#[ignore = "a breadth-first search over 1.45 billion indices"]
fn tanaka_reachable_count() {
    let (count, canonical) = count_reachable(&game(), true);
    println!("Tanaka's rules: {count} reachable, {canonical} up to the mirror");
    assert_eq!(canonical, 246_803_167);
}

/// The same count under this crate's (GamesmanOne's) rules, where a
/// position with the lion to take is played on. Printed only (no published
/// number): 1,352,054,883, 676,131,388 up to the mirror. About an hour
/// in release.
#[test]
#[ignore = "a breadth-first search over 1.45 billion indices"]
fn reachable_count_under_these_rules() {
    let (count, canonical) = count_reachable(&game(), false);
    println!("these rules: {count} reachable, {canonical} up to the mirror");
}

/// Dōbutsu shōgi with a ply budget: out of plies, a position in play is a
/// tie. Acyclic, so `solver_dp` solves it: a smoke test through a solver.
struct Budget(Dobutsu);

impl Game for Budget {
    type Position = (DobutsuPosition, u8);
    type Move = DobutsuMove;
    fn moves(&self, (p, left): &Self::Position, out: &mut Vec<DobutsuMove>) {
        if *left > 0 {
            self.0.moves(p, out);
        }
    }
    fn play(&self, (p, left): &Self::Position, m: &DobutsuMove) -> Self::Position {
        (self.0.play(p, m), left - 1)
    }
    fn outcome(&self, (p, left): &Self::Position) -> Option<Outcome> {
        self.0.outcome(p).or((*left == 0).then_some(Outcome::Tie))
    }
}

#[test]
fn a_few_plies_solved_by_solver_dp() {
    let b = Budget(game());
    // Taking the lion, or a safe try, wins in one.
    for text in ["l../G../.../..L geecc b", "..g/L../..l/... geecc b"] {
        let (p, _) = at(text);
        let sol = solver_dp::solve(&b, (p, 3)).unwrap();
        assert_eq!(sol.value(&(p, 3)), Some(Value::win(1)), "{text}");
    }
    // The second player's lion a1 is attacked by the first player's hen
    // b2, which also covers a2 and b1 and is guarded by the giraffe b3:
    // every move loses the lion. Lost in 2.
    let (p, side) = at("l../.H./.G./..L geec w");
    assert_eq!(side, DobutsuSide::Second);
    assert_eq!(b.0.outcome(&p), None);
    let sol = solver_dp::solve(&b, (p, 4)).unwrap();
    assert_eq!(sol.value(&(p, 4)), Some(Value::lose(2)));
}
