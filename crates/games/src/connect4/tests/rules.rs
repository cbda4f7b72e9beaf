//! The rules on hand-written positions.

use game_core::{Game, Outcome};

use super::{from_picture, game, naive_four};
use crate::connect4::ConnectFour;
use crate::Error;

/// Plays `line` (all but its last move must leave the game going) and
/// checks the outcome before and after the last move.
fn check_line(g: &ConnectFour, line: &str, picture: &str, last: Option<Outcome>) {
    let before = g.position_from_moves(&line[..line.len() - 1]).unwrap();
    assert_eq!(g.outcome(&before), None, "{line} before its last move");
    let pos = g.position_from_moves(line).unwrap();
    assert_eq!(pos, from_picture(g, picture), "{line}");
    assert_eq!(g.picture(&pos), picture, "{line}");
    assert_eq!(g.outcome(&pos), last, "{line}");
}

#[test]
fn sizes_outside_the_bitboard_are_refused() {
    for (w, h) in [
        (0, 4),
        (4, 0),
        (0, 0),
        (8, 8),
        (7, 9),
        (32, 2),
        (1, 64),
        (33, 1),
        (64, 0),
    ] {
        assert!(
            matches!(
                ConnectFour::new(w, h),
                Err(Error::Core(game_core::Error::InvalidRules(_)))
            ),
            "{w}×{h}"
        );
    }
    for (w, h) in [
        (1, 1),
        (3, 3),
        (7, 6),
        (7, 8),
        (8, 7),
        (21, 2),
        (32, 1),
        (1, 63),
        (4, 15),
    ] {
        let g = ConnectFour::new(w, h).unwrap();
        assert_eq!((g.width(), g.height(), g.cells()), (w, h, w * h));
    }
}

#[test]
fn vertical_four() {
    let picture = "\
. . . . . . .
. . . . . . .
X . . . . . .
X O . . . . .
X O . . . . .
X O . . . . .
1 2 3 4 5 6 7
";
    check_line(&game(7, 6), "1212121", picture, Some(Outcome::Lose));
}

#[test]
fn horizontal_four() {
    let picture = "\
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
O O O . . . .
X X X X . . .
1 2 3 4 5 6 7
";
    check_line(&game(7, 6), "1122334", picture, Some(Outcome::Lose));
}

#[test]
fn rising_diagonal_four() {
    let picture = "\
. . . . . . .
. . . . . . .
. . . . . X .
. . . . X O .
. . . X O X .
O . X O O X .
1 2 3 4 5 6 7
";
    check_line(&game(7, 6), "64356146655", picture, Some(Outcome::Lose));
}

#[test]
fn falling_diagonal_four() {
    // O makes it: X, to move, has lost.
    let picture = "\
. . . . . . .
. . . . . . .
. . . O . . .
. . . X O . .
. . . O X O .
. . . X X X O
1 2 3 4 5 6 7
";
    check_line(&game(7, 6), "4457445566", picture, Some(Outcome::Lose));
}

#[test]
fn four_on_the_last_square_is_a_loss_not_a_tie() {
    let four = "\
O O O O
X X X O
O O X X
X X O X
1 2 3 4
";
    check_line(&game(4, 4), "4344342222331111", four, Some(Outcome::Lose));
    let tie = "\
O O X X
O X O X
O X O O
X X X O
1 2 3 4
";
    check_line(&game(4, 4), "3414212341233142", tie, Some(Outcome::Tie));
    let mut moves = Vec::new();
    let g = game(4, 4);
    g.moves(
        &g.position_from_moves("3414212341233142").unwrap(),
        &mut moves,
    );
    assert!(moves.is_empty());
}

#[test]
fn fours_at_the_edges_of_the_bitboard() {
    // One row: only horizontal fours (shift H + 1 = 2).
    let g = game(7, 1);
    check_line(
        &g,
        "1526374",
        "X X X X O O O\n1 2 3 4 5 6 7\n",
        Some(Outcome::Lose),
    );
    check_line(
        &g,
        "1234567",
        "X O X O X O X\n1 2 3 4 5 6 7\n",
        Some(Outcome::Tie),
    );
    // 8×7 fills all 64 bits: a four in the last column, whose sentinel is
    // bit 63.
    let g = game(8, 7);
    let pos = g.position_from_moves("8787878").unwrap();
    assert_eq!(g.outcome(&pos), Some(Outcome::Lose));
    let pos = g.position_from_moves("878787").unwrap();
    assert_eq!(g.outcome(&pos), None);
    // A column of 63 never holds four of one colour.
    let g = game(1, 63);
    let pos = g.position_from_moves(&"1".repeat(63)).unwrap();
    assert_eq!(g.outcome(&pos), Some(Outcome::Tie));
}

#[test]
fn full_columns_have_no_moves() {
    let g = game(7, 6);
    let pos = g.position_from_moves("111111").unwrap();
    let mut moves = Vec::new();
    g.moves(&pos, &mut moves);
    assert_eq!(moves, [1, 2, 3, 4, 5, 6]);
}

/// Every game on 3×3 (too small for four) ends in a tie on a full board;
/// every game on 4×3 reaches its end with the same verdict as a naive
/// scan of the grid.
#[test]
fn small_boards_agree_with_a_naive_scan() {
    for (w, h) in [(3, 3), (4, 3), (3, 4)] {
        let g = game(w, h);
        // Depth-first over move sequences, with the grid alongside.
        let mut stack = vec![(g.start(), vec![Vec::<u8>::new(); w as usize], 0u32)];
        let mut moves = Vec::new();
        let mut ends = 0;
        while let Some((pos, grid, n)) = stack.pop() {
            let mover = if n % 2 == 0 { 1 } else { 2 };
            let just_moved = 3 - mover;
            let want = if naive_four(&grid, h as usize, just_moved) {
                Some(Outcome::Lose)
            } else if n == w * h {
                Some(Outcome::Tie)
            } else {
                None
            };
            assert_eq!(g.outcome(&pos), want, "{w}×{h}:\n{}", g.picture(&pos));
            if want.is_some() {
                ends += 1;
                if w * h == 9 {
                    assert_eq!(want, Some(Outcome::Tie));
                }
                continue;
            }
            moves.clear();
            g.moves(&pos, &mut moves);
            let open: Vec<u8> = (0..w as u8)
                .filter(|&c| grid[c as usize].len() < h as usize)
                .collect();
            assert_eq!(moves, open);
            for &m in &moves {
                let mut next = grid.clone();
                next[m as usize].push(mover);
                stack.push((g.play(&pos, &m), next, n + 1));
            }
        }
        assert!(ends > 0);
    }
}
