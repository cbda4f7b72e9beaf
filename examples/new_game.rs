//! Add your own game: tic-tac-toe in one file of some 85 lines, then solved.
//!
//! Run with `cargo run --example new_game`.

use gamesolve::{Game, Outcome};

/// A board: 9 cells, 0 = empty, 1 = X, 2 = O. X moves first, so whose turn
/// it is follows from the board itself.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board(pub [u8; 9]);

/// Tic-tac-toe.
pub struct TicTacToe;

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

impl Board {
    fn to_move(&self) -> u8 {
        let filled = self.0.iter().filter(|&&c| c != 0).count();
        if filled % 2 == 0 {
            1
        } else {
            2
        }
    }
}

impl Game for TicTacToe {
    type Position = Board;
    type Move = usize; // the cell to mark

    fn moves(&self, b: &Board, out: &mut Vec<usize>) {
        out.extend((0..9).filter(|&i| b.0[i] == 0));
    }

    fn play(&self, b: &Board, &cell: &usize) -> Board {
        let mut next = b.clone();
        next.0[cell] = b.to_move();
        next
    }

    fn outcome(&self, b: &Board) -> Option<Outcome> {
        // The player who just moved may have completed a line: then the
        // player to move has lost. A full board otherwise is a tie.
        let line = LINES
            .iter()
            .any(|l| l.iter().all(|&i| b.0[i] != 0 && b.0[i] == b.0[l[0]]));
        if line {
            Some(Outcome::Lose)
        } else if b.0.iter().all(|&c| c != 0) {
            Some(Outcome::Tie)
        } else {
            None
        }
    }
}

fn main() -> Result<(), gamesolve::dp::Error> {
    let start = Board::default();
    let solution = gamesolve::dp::solve(&TicTacToe, start.clone())?;
    let value = solution.value(&start).expect("the start is solved");
    println!("tic-tac-toe from the empty board: {value} for the first player");
    println!(
        "positions reachable from the empty board: {}",
        solution.len()
    );
    let (cell, v) = solution
        .best_move(&start)
        .expect("the empty board has moves");
    println!(
        "a best first move: cell {cell} (row {}, column {}), reaching {v}",
        cell / 3 + 1,
        cell % 3 + 1
    );
    Ok(())
}
