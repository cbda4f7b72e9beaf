//! The knights game of the seed article: knights on an N × N board that
//! only move towards the corner (1, 1).

use game_core::{Game, Impartial};

use crate::Error;

/// The largest board side accepted (the table takes N² bytes).
pub const MAX_SIZE: usize = 1 << 14;

/// Knights on an N × N board (coordinates 1-based). A move takes one knight
/// from (x, y) to (x−2, y+1), (x−2, y−1), (x+1, y−2) or (x−1, y−2), staying
/// on the board; several knights may share a square; whoever cannot move
/// loses. A position with several knights is the sum of one-knight games,
/// so it is decided by the XOR of their Grundy values.
///
/// The [`Game`] here is one knight; use [`sprague_grundy::Sum`] for several.
///
/// ```
/// let k = games::Knights::new(8)?;
/// let table = k.grundy_table();
/// assert_eq!(table[0][0], 0); // (1,1): no move
/// assert!(!k.first_player_wins(&[(1, 1), (3, 3), (3, 3)])?); // 0 ^ g ^ g = 0
/// # Ok::<(), games::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Knights {
    n: usize,
}

const STEPS: [(i64, i64); 4] = [(-2, 1), (-2, -1), (1, -2), (-1, -2)];

impl Knights {
    /// An `n` × `n` board.
    ///
    /// # Errors
    /// An invalid-rules error for `n = 0`; [`Error::TooLarge`] above
    /// [`MAX_SIZE`].
    pub fn new(n: usize) -> Result<Self, Error> {
        if n == 0 {
            return Err(game_core::Error::InvalidRules(
                "the board needs at least one square".into(),
            )
            .into());
        }
        if n > MAX_SIZE {
            return Err(Error::TooLarge {
                what: "board size",
                size: n as u64,
                limit: MAX_SIZE as u64,
            });
        }
        Ok(Knights { n })
    }

    /// The side of the board.
    #[must_use]
    pub fn size(&self) -> usize {
        self.n
    }

    /// Checks a square.
    ///
    /// # Errors
    /// An invalid-position error for a square off the board.
    pub fn square(&self, x: usize, y: usize) -> Result<(usize, usize), Error> {
        if (1..=self.n).contains(&x) && (1..=self.n).contains(&y) {
            Ok((x, y))
        } else {
            Err(game_core::Error::InvalidPosition(format!(
                "({x}, {y}) is off the {0} × {0} board (squares are 1..={0})",
                self.n
            ))
            .into())
        }
    }

    /// The Grundy value of every square, `table[x - 1][y - 1]`, in O(N²):
    /// every move lowers x + y by 1 or 3, so squares are filled in order of
    /// x + y.
    #[must_use]
    pub fn grundy_table(&self) -> Vec<Vec<u8>> {
        let n = self.n;
        let mut g = vec![vec![0u8; n]; n];
        for s in 0..2 * n - 1 {
            for x in s.saturating_sub(n - 1)..=s.min(n - 1) {
                let y = s - x;
                let mut seen = 0u32;
                for (dx, dy) in STEPS {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    if nx >= 0 && ny >= 0 && (nx as usize) < n && (ny as usize) < n {
                        seen |= 1 << g[nx as usize][ny as usize];
                    }
                }
                g[x][y] = (!seen).trailing_zeros() as u8;
            }
        }
        g
    }

    /// Whether the player to move wins with knights on `squares`.
    ///
    /// # Errors
    /// An invalid-position error for a square off the board.
    pub fn first_player_wins(&self, squares: &[(usize, usize)]) -> Result<bool, Error> {
        let table = self.grundy_table();
        let mut x = 0u8;
        for &(a, b) in squares {
            self.square(a, b)?;
            x ^= table[a - 1][b - 1];
        }
        Ok(x != 0)
    }
}

impl Game for Knights {
    type Position = (usize, usize);
    type Move = (i64, i64);

    fn moves(&self, &(x, y): &(usize, usize), out: &mut Vec<(i64, i64)>) {
        for (dx, dy) in STEPS {
            let (nx, ny) = (x as i64 + dx, y as i64 + dy);
            if nx >= 1 && ny >= 1 && nx as usize <= self.n && ny as usize <= self.n {
                out.push((dx, dy));
            }
        }
    }

    fn play(&self, &(x, y): &(usize, usize), &(dx, dy): &(i64, i64)) -> (usize, usize) {
        ((x as i64 + dx) as usize, (y as i64 + dy) as usize)
    }
}

impl Impartial for Knights {}
