//! Values by the acyclic solvers of `solver-dp`, against Tromp's table.

use game_core::{Game, Value};

use super::{game, ConnectFour};

fn value_from_start(g: &ConnectFour) -> (Value, usize) {
    let sol = solver_dp::solve(g, g.start()).unwrap();
    (sol.value(&g.start()).unwrap(), sol.len())
}

/// 4×4 is a tie with all 16 cells filled; the memo solver visits the
/// 161,029 reachable positions.
#[test]
fn four_by_four_is_a_tie_in_16() {
    assert_eq!(value_from_start(&game(4, 4)), (Value::tie(16), 161_029));
}

/// The flat-table solver over the whole-game index agrees with the memo
/// solver on every reachable position of 4×4.
#[test]
fn the_indexed_solver_agrees_on_4x4() {
    let g = game(4, 4);
    let memo = solver_dp::solve(&g, g.start()).unwrap();
    let flat = solver_dp::solve_indexed(&g).unwrap();
    assert_eq!(flat.value(&g.start()), Some(Value::tie(16)));
    for (pos, value) in memo.iter() {
        assert_eq!(flat.value(pos), Some(value));
    }
}

/// Hand-checked: X to move with three in column 1 wins at once; after O
/// blocks, the position is a plain solve of a small board.
#[test]
fn an_immediate_win_is_a_win_in_one() {
    let g = game(4, 4);
    let pos = g.position_from_moves("121212").unwrap();
    let sol = solver_dp::solve(&g, pos).unwrap();
    assert_eq!(sol.value(&pos), Some(Value::win(1)));
    assert_eq!(sol.best_move(&pos), Some((0, Value::win(1))));
    assert_eq!(g.outcome(&g.play(&pos, &0)), Some(game_core::Outcome::Lose));
}

#[test]
#[ignore = "5 s and 320 MB in the test profile"]
fn five_by_four_is_a_tie_in_20() {
    assert_eq!(value_from_start(&game(5, 4)), (Value::tie(20), 3_945_711));
}

/// About 2.5 s in the test profile.
#[test]
fn four_by_five_is_a_tie_in_20() {
    assert_eq!(value_from_start(&game(4, 5)), (Value::tie(20), 1_706_255));
}
