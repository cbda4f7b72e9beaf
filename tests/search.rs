//! The exact search (solver-search) against the table solvers, on every
//! position of tic-tac-toe and on sampled positions of Connect Four boards
//! solved whole by solver-retro: the value, the remoteness and every
//! move's value agree.

#[allow(dead_code)]
#[path = "../examples/new_game.rs"]
mod new_game;

use game_core::{Canonical, Game, SearchHints, SearchKey, Symmetric, Value};
use games::{ConnectFour, ConnectFourPosition};
use new_game::{Board, TicTacToe};
use solver_retro::Solved;
use solver_search::{Config, Searcher};

/// A base-3 number of the board: every cell's mark.
impl SearchKey for TicTacToe {
    fn search_key(&self, b: &Board) -> u64 {
        b.0.iter().fold(0, |k, &c| k * 3 + u64::from(c))
    }
}
/// No hints: ties are found by the search's own tie search.
impl SearchHints for TicTacToe {}

#[test]
fn every_tic_tac_toe_position_agrees_with_dp() {
    let start = Board::default();
    let sol = solver_dp::solve(&TicTacToe, start.clone()).unwrap();
    let search = Searcher::new(&TicTacToe, Config::new().with_table_bytes(1 << 16)).unwrap();
    assert_eq!(search.value(&start).unwrap().value, Value::tie(9));
    let mut moves = Vec::new();
    for (pos, want) in sol.iter() {
        let a = search.analyze(pos).unwrap();
        assert_eq!(a.value, want, "{pos:?}");
        moves.clear();
        if TicTacToe.outcome(pos).is_none() {
            TicTacToe.moves(pos, &mut moves);
        }
        let kids: Vec<_> = moves
            .iter()
            .map(|m| (*m, sol.value(&TicTacToe.play(pos, m)).unwrap().parent()))
            .collect();
        assert_eq!(a.moves, kids, "{pos:?}");
    }
}

/// splitmix64.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (((z ^ (z >> 31)) as u128 * u128::from(n)) >> 64) as u64
    }
}

/// `n` positions reached by random play from the empty board, stopped at
/// a random ply (over or not), seeded.
fn sample(g: &ConnectFour, n: usize, seed: u64) -> Vec<ConnectFourPosition> {
    let mut rng = Rng(seed);
    let mut moves = Vec::new();
    (0..n)
        .map(|_| {
            let mut pos = g.start();
            for _ in 0..rng.below(u64::from(g.cells()) + 1) {
                if g.outcome(&pos).is_some() {
                    break;
                }
                moves.clear();
                g.moves(&pos, &mut moves);
                pos = g.play(&pos, &moves[rng.below(moves.len() as u64) as usize]);
            }
            pos
        })
        .collect()
}

/// Sampled positions of a Connect Four board solved whole: the search's
/// value and every move's value against the table, on `threads`.
fn connect4_agrees(width: u32, height: u32, samples: usize, threads: usize) {
    let g = ConnectFour::new(width, height).unwrap();
    let canonical = Canonical(g.clone());
    let sol = solver_retro::solve_tiers(&canonical).unwrap();
    let table = |p: &ConnectFourPosition| sol.value(&g.canonical(p)).unwrap();
    // A table that grows with the board (6×5's searches near the start
    // are long): 4 MiB, to 256 MiB for 30 cells.
    let config = Config::new()
        .with_threads(threads)
        .with_table_bytes((1u64 << 22).max(1 << (g.cells().min(30) - 2)));
    let search = Searcher::new(&g, config).unwrap();
    let mut moves = Vec::new();
    for pos in sample(&g, samples, u64::from(width * 10 + height)) {
        let a = search.analyze(&pos).unwrap();
        assert_eq!(
            a.value,
            table(&pos),
            "{width}x{height}\n{}",
            g.picture(&pos)
        );
        moves.clear();
        if g.outcome(&pos).is_none() {
            g.moves(&pos, &mut moves);
        }
        let kids: Vec<_> = moves
            .iter()
            .map(|m| (*m, table(&g.play(&pos, m)).parent()))
            .collect();
        assert_eq!(a.moves, kids, "{}", g.picture(&pos));
        assert_eq!(search.value(&pos).unwrap().value, a.value);
    }
}

#[test]
fn connect4_4x4_agrees_with_the_retrograde_table() {
    connect4_agrees(4, 4, 300, 1);
}

#[test]
fn connect4_5x4_agrees_with_the_retrograde_table_on_two_threads() {
    connect4_agrees(5, 4, 300, 2);
}

/// Slow (the whole 5×5 and 6×4 solved in memory first): run with
/// `cargo test --release --test search -- --ignored`.
#[test]
#[ignore]
fn connect4_5x5_and_6x4_agree_with_the_retrograde_table() {
    connect4_agrees(5, 5, 300, 2);
    connect4_agrees(6, 4, 300, 2);
}

/// A sample of 6×5 (the largest board solved whole here: some 10 GB of
/// tables in memory, a few minutes): run with `cargo test --release
/// --test search -- --ignored six_by_five`.
#[test]
#[ignore]
fn connect4_six_by_five_sample_agrees_with_the_retrograde_table() {
    connect4_agrees(6, 5, 100, 2);
}

/// Endgame tables: on 5×4, the search reading the solved tiers of 12
/// pieces and more answers every sampled position of the first 8 plies as
/// the plain search does, in fewer nodes.
#[test]
fn endgame_tables_cut_nodes_and_keep_the_answer() {
    let g = ConnectFour::new(5, 4).unwrap();
    let canonical = Canonical(g.clone());
    let sol = solver_retro::solve_tiers(&canonical).unwrap();
    let config = Config::new().with_table_bytes(1 << 20);
    let tables = gamesolve::answer::SolvedTiers::new(&sol).from_tier(12);
    let (mut with, mut without) = (0, 0);
    for pos in sample(&g, 300, 5).into_iter().filter(|p| p.pieces() <= 8) {
        // Fresh searches each time: neither is helped by what an earlier
        // one left in its transposition table.
        let plain = Searcher::new(&g, config.clone())
            .unwrap()
            .value(&pos)
            .unwrap();
        let h = Searcher::with_tables(&g, tables, config.clone())
            .unwrap()
            .value(&pos)
            .unwrap();
        assert_eq!(h.value, plain.value, "{}", g.picture(&pos));
        assert_eq!(h.value, sol.value(&g.canonical(&pos)).unwrap());
        with += h.nodes;
        without += plain.nodes;
    }
    println!("{with} nodes with tables, {without} without");
    assert!(
        with * 2 < without,
        "{with} nodes with tables, {without} without"
    );
}

/// Pascal Pons' test set `Test_L1_R1` ("begin easy": 1,000 positions of
/// 7×6 Connect Four near the start, chosen and scored by his solver, not
/// by this project): lines of "moves score", the moves as columns from 1,
/// the score for the player to move in his convention — a win scores 22
/// minus the stones the winner has played when the game ends, a loss the
/// negation of the winner's, a tie 0.
const PONS_L1_R1: &str = include_str!("data/Test_L1_R1");

/// The value Pons' score of a position of `pieces` pieces means, on 7×6:
/// a win (loss) in the plies that bring the winner to its `22 − |score|`
/// stones, a tie on the full board.
fn pons_value(pieces: u32, score: i32) -> Value {
    let g = ConnectFour::new(7, 6).unwrap();
    g.value_of_score(pieces, score)
        .unwrap_or_else(|| panic!("score {score} at {pieces} pieces"))
}

/// Pons' lines, parsed: the position and the value its score means.
fn pons_set(set: &str, g: &ConnectFour) -> Vec<(String, ConnectFourPosition, Value)> {
    set.lines()
        .map(|line| {
            let (moves, score) = line.trim().split_once(' ').expect("moves and score");
            let pos = g.position_from_moves(moves).expect("a legal position");
            let score: i32 = score.parse().expect("a score");
            (moves.to_string(), pos, pons_value(pos.pieces(), score))
        })
        .collect()
}

/// The search's value of every position in `lines` against Pons' score,
/// one search keeping its table from position to position (what it holds
/// are true bounds); the mean time a position printed.
fn pons_agrees(lines: &[(String, ConnectFourPosition, Value)], threads: usize) {
    let g = ConnectFour::new(7, 6).unwrap();
    let config = Config::new()
        .with_threads(threads)
        .with_table_bytes(1 << 26);
    let search = Searcher::new(&g, config).unwrap();
    let started = std::time::Instant::now();
    let mut nodes = 0;
    for (moves, pos, want) in lines {
        let found = search.value(pos).unwrap();
        assert_eq!(found.value, *want, "{moves}\n{}", g.picture(pos));
        nodes += found.nodes;
    }
    let took = started.elapsed();
    println!(
        "{} positions agree; {:.1} µs a position, {nodes} nodes",
        lines.len(),
        took.as_secs_f64() * 1e6 / lines.len() as f64
    );
}

#[test]
fn pons_values_mean_what_his_blog_says() {
    // The library's conversion against the stones' count, derived apart:
    // the player to move has pieces / 2 stones, its last is the win; the
    // opponent has the rest and moves second from here.
    let g = ConnectFour::new(7, 6).unwrap();
    for pieces in 0..42u32 {
        for score in -21..=21i32 {
            let stones = 22 - score.unsigned_abs();
            let by_stones = match score {
                0 => Some(Value::tie(42 - pieces)),
                s if s > 0 => (2 * stones).checked_sub(pieces / 2 * 2 + 1).map(Value::win),
                _ => (2 * stones)
                    .checked_sub(2 * pieces.div_ceil(2))
                    .map(Value::lose),
            }
            .filter(|v| pieces + v.remoteness().unwrap() <= 42);
            assert_eq!(
                g.value_of_score(pieces, score),
                by_stones,
                "{pieces} {score}"
            );
            if let Some(v) = by_stones {
                assert_eq!(g.score(pieces, v), Some(score), "{pieces} {v:?}");
            }
        }
    }
    // "4455": the player to move wins with its 4th stone (score 18), and
    // "44455554221": the opponent wins next move with its 7th (-15).
    assert_eq!(pons_value(4, 18), Value::win(3));
    assert_eq!(pons_value(11, -15), Value::lose(2));
    // The empty board: the first player wins with its last stone.
    assert_eq!(pons_value(0, 1), Value::win(41));
}

/// The first 40 positions of Pons' `Test_L1_R1`, and every one on two
/// threads in an ignored run (`cargo test --release --test search --
/// --ignored pons`).
#[test]
fn connect4_7x6_agrees_with_pons_begin_easy_sample() {
    let g = ConnectFour::new(7, 6).unwrap();
    let set = pons_set(PONS_L1_R1, &g);
    assert_eq!(set.len(), 1000);
    pons_agrees(&set[..40], 1);
}

#[test]
#[ignore]
fn connect4_7x6_agrees_with_pons_begin_easy_whole() {
    let g = ConnectFour::new(7, 6).unwrap();
    let set = pons_set(PONS_L1_R1, &g);
    pons_agrees(&set, 1);
}

/// 7×6 from the empty board: the first player wins, the game ending on
/// ply 41 (Allis and Allen's result; Pons' solver gives the empty board
/// the score 1). Slow: `cargo test --release --test search -- --ignored
/// empty_board --nocapture`.
#[test]
#[ignore]
fn connect4_7x6_empty_board_is_a_first_player_win_on_ply_41() {
    let g = ConnectFour::new(7, 6).unwrap();
    let config = Config::new().with_table_bytes(1 << 30);
    let search = Searcher::new(&g, config).unwrap();
    let started = std::time::Instant::now();
    let found = search.value(&g.start()).unwrap();
    let took = started.elapsed().as_secs_f64();
    println!(
        "empty board: {:?} in {took:.1} s, {} nodes, {:.2}M nodes a second",
        found.value,
        found.nodes,
        found.nodes as f64 / took / 1e6
    );
    assert_eq!(found.value, pons_value(0, 1));
    assert_eq!(found.value, Value::win(41));
}
