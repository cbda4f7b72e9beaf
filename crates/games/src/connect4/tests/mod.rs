//! Tests of Connect Four: rules on hand-written positions, notation, the
//! tiered index against brute force, reachable counts against John Tromp's
//! table and OEIS, and solved values.

mod counts;
mod fast;
mod index;
mod notation;
mod rules;
mod solve;

use game_core::Game;

use super::{ConnectFour, ConnectFourPosition};
use crate::testing::Rng;

fn game(width: u32, height: u32) -> ConnectFour {
    ConnectFour::new(width, height).unwrap()
}

/// A board as columns of cells from the bottom: 1 for `X`, 2 for `O`.
type Grid = Vec<Vec<u8>>;

/// A position from a picture (rows top first, `X`, `O`, `.`, whitespace
/// between cells ignored, a line of column names below ignored), built
/// cell by cell without playing moves.
fn from_picture(game: &ConnectFour, picture: &str) -> ConnectFourPosition {
    let rows: Vec<Vec<char>> = picture
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty() && r.iter().all(|c| "XO.".contains(*c)))
        .collect();
    assert_eq!(rows.len(), game.height() as usize, "rows of {picture}");
    let mut grid: Grid = vec![Vec::new(); game.width() as usize];
    for row in rows.iter().rev() {
        assert_eq!(row.len(), game.width() as usize, "a row of {picture}");
        for (c, &ch) in row.iter().enumerate() {
            match ch {
                'X' => grid[c].push(1),
                'O' => grid[c].push(2),
                '.' => {}
                _ => panic!("bad cell {ch:?}"),
            }
        }
    }
    from_grid(game, &grid)
}

/// The position of a grid (the player to move by parity), built from the
/// documented bit layout: bit `c·(H+1) + r`.
fn from_grid(game: &ConnectFour, grid: &Grid) -> ConnectFourPosition {
    let stride = game.height() + 1;
    let (mut occupied, mut x, mut n) = (0u64, 0u64, 0);
    for (c, col) in grid.iter().enumerate() {
        for (r, &p) in col.iter().enumerate() {
            let bit = 1u64 << (c as u32 * stride + r as u32);
            occupied |= bit;
            if p == 1 {
                x |= bit;
            }
            n += 1;
        }
    }
    let mover = if n % 2 == 0 { x } else { occupied ^ x };
    ConnectFourPosition { occupied, mover }
}

/// Whether `player` has four in a row on the grid, by looking at every
/// cell and direction.
fn naive_four(grid: &Grid, height: usize, player: u8) -> bool {
    let at = |c: isize, r: isize| -> u8 {
        if c < 0 || r < 0 || r >= height as isize {
            return 0;
        }
        grid.get(c as usize)
            .and_then(|col| col.get(r as usize))
            .copied()
            .unwrap_or(0)
    };
    for c in 0..grid.len() as isize {
        for r in 0..height as isize {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                if (0..4).all(|i| at(c + i * dc, r + i * dr) == player) {
                    return true;
                }
            }
        }
    }
    false
}

/// Every position reachable from the empty board, ply by ply (a position
/// with four in a row or a full board is listed but not continued), up to
/// `max_ply`: `f(ply, positions)`, positions sorted and distinct.
fn for_each_ply(game: &ConnectFour, max_ply: u32, mut f: impl FnMut(u32, &[ConnectFourPosition])) {
    let mut ply = vec![game.start()];
    let mut next = Vec::new();
    let mut moves = Vec::new();
    for n in 0..=max_ply {
        f(n, &ply);
        next.clear();
        for p in &ply {
            if game.outcome(p).is_some() {
                continue;
            }
            moves.clear();
            game.moves(p, &mut moves);
            next.extend(moves.iter().map(|m| game.play(p, m)));
        }
        next.sort_unstable();
        next.dedup();
        std::mem::swap(&mut ply, &mut next);
        if ply.is_empty() {
            break;
        }
    }
}

/// The number of reachable positions over all plies.
fn count_reachable(game: &ConnectFour) -> u64 {
    let mut total = 0;
    for_each_ply(game, game.cells(), |_, ps| total += ps.len() as u64);
    total
}
