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
    let config = Config::new()
        .with_threads(threads)
        .with_table_bytes(1 << 22);
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
