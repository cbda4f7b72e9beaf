//! The "add your own game" example solves tic-tac-toe: its published facts
//! (5,478 positions reachable from the empty board; a tie under perfect
//! play) check the example and the memoised solver together.

#[allow(dead_code)]
#[path = "../examples/new_game.rs"]
mod new_game;

use game_core::{Outcome, Value};
use new_game::{Board, TicTacToe};

#[test]
fn tic_tac_toe_is_a_tie_with_5478_positions() {
    let start = Board::default();
    let sol = solver_dp::solve(&TicTacToe, start.clone()).unwrap();
    assert_eq!(sol.len(), 5478);
    // Nine plies to fill the board.
    assert_eq!(sol.value(&start), Some(Value::tie(9)));
    // A won line ends the game: X on the top row, O to move, has lost.
    let b = Board([1, 1, 1, 2, 2, 0, 0, 0, 0]);
    assert_eq!(sol.value(&b).map(|v| v.outcome()), Some(Outcome::Lose));
    // Every first move keeps the tie; none wins.
    let (_, v) = sol.best_move(&start).unwrap();
    assert_eq!(v, Value::tie(9));
}
