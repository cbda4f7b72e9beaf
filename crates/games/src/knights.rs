//! The knights game of the seed article: knights on an N × N board that
//! only move towards the corner (1, 1).

use game_core::{Budget, Game, Impartial};

use crate::Error;

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
/// let table = k.grundy_table()?;
/// assert_eq!(table[0][0], 0); // (1,1): no move
/// assert!(!k.first_player_wins(&[(1, 1), (3, 3), (3, 3)])?); // 0 ^ g ^ g = 0
/// # Ok::<(), games::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Knights {
    n: usize,
}

/// A knight's move in a position of several: which knight (its place in
/// the list of squares) and the square it goes to.
pub type KnightMove = (usize, (usize, usize));

const STEPS: [(i64, i64); 4] = [(-2, 1), (-2, -1), (1, -2), (-1, -2)];

impl Knights {
    /// An `n` × `n` board.
    ///
    /// Any size is a board; the tables that grow with it are checked
    /// against the memory when they are asked for.
    ///
    /// # Errors
    /// An invalid-rules error for `n = 0`.
    pub fn new(n: usize) -> Result<Self, Error> {
        if n == 0 {
            return Err(game_core::Error::InvalidRules(
                "the board needs at least one square".into(),
            )
            .into());
        }
        Ok(Knights { n })
    }

    /// Steps of work for the Grundy table of an `m` × `m` corner: four
    /// moves a square.
    #[must_use]
    pub fn table_work(m: usize) -> u64 {
        (m as u64).saturating_mul(m as u64).saturating_mul(4)
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
    /// x + y. The N² bytes are checked against the memory really available
    /// before they are taken.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if the table does not fit.
    pub fn grundy_table(&self) -> Result<Vec<Vec<u8>>, Error> {
        self.grundy_table_with(&Budget::available())
    }

    /// [`Knights::grundy_table`] within `budget`'s memory and work
    /// ([`Knights::table_work`]).
    ///
    /// # Errors
    /// [`Error::TooLarge`] over either.
    pub fn grundy_table_with(&self, budget: &Budget) -> Result<Vec<Vec<u8>>, Error> {
        // The flat table and its copy in rows (with their headers).
        let n = self.n as u64;
        budget.check_memory(
            &format!("the Grundy table of the {0} × {0} board", self.n),
            n.saturating_mul(n)
                .saturating_mul(2)
                .saturating_add(n.saturating_mul(24)),
        )?;
        let flat = self.corner(self.n, budget)?;
        Ok(flat.chunks(self.n).map(<[u8]>::to_vec).collect())
    }

    /// Grundy values of the `m` × `m` corner nearest (1, 1), flat by rows:
    /// `g[(x - 1) * m + y - 1]`. Every move stays on the board and lowers
    /// x + y, so a square's value depends only on the corner below it.
    fn corner(&self, m: usize, budget: &Budget) -> Result<Vec<u8>, Error> {
        let what = format!("the Grundy values of the {m} × {m} corner of the board");
        budget.check_work(&what, Self::table_work(m))?;
        let cells = (m as u64).saturating_mul(m as u64);
        let mut g = budget.vec(&what, cells, 0u8)?;
        for s in 0..(2 * m).saturating_sub(1) {
            for x in s.saturating_sub(m - 1)..=s.min(m - 1) {
                let y = s - x;
                let mut seen = 0u32;
                for (dx, dy) in STEPS {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    if nx >= 0 && ny >= 0 && (nx as usize) < m && (ny as usize) < m {
                        seen |= 1 << g[nx as usize * m + ny as usize];
                    }
                }
                g[x * m + y] = (!seen).trailing_zeros() as u8;
            }
        }
        Ok(g)
    }

    /// Whether the player to move wins with knights on `squares`.
    ///
    /// Only the corner of side max(x + y) is computed (no square reachable
    /// from a knight lies outside it), checked against the memory really
    /// available.
    ///
    /// # Errors
    /// An invalid-position error for a square off the board;
    /// [`Error::TooLarge`] if the corner does not fit.
    pub fn first_player_wins(&self, squares: &[(usize, usize)]) -> Result<bool, Error> {
        self.first_player_wins_with(squares, &Budget::available())
    }

    /// [`Knights::first_player_wins`] within `budget`.
    ///
    /// # Errors
    /// As [`Knights::first_player_wins`], for `budget`'s memory and work.
    pub fn first_player_wins_with(
        &self,
        squares: &[(usize, usize)],
        budget: &Budget,
    ) -> Result<bool, Error> {
        let mut m = 1;
        for &(a, b) in squares {
            self.square(a, b)?;
            m = m.max(a.saturating_add(b).min(self.n));
        }
        let g = self.corner(m, budget)?;
        let x = squares
            .iter()
            .fold(0u8, |acc, &(a, b)| acc ^ g[(a - 1) * m + (b - 1)]);
        Ok(x != 0)
    }

    /// A winning move with knights on `squares`: which knight (its place
    /// in `squares`) goes to which square, or `None` when the player to
    /// move loses. The knight is the first whose Grundy value `g` has
    /// `g ^ x < g` for the position's XOR `x`, and its square the first
    /// of its moves (in the order of [`Game::moves`]) to a square of value
    /// `g ^ x`: the sum's value is then 0, a loss for the opponent.
    ///
    /// ```
    /// let k = games::Knights::new(8)?;
    /// // (1,1) has no move; (3,3) has value 1 and a move to a square of value 0.
    /// let (i, to) = k.winning_move_with(&[(1, 1), (3, 3)], &game_core::Budget::unlimited())?.unwrap();
    /// assert_eq!(i, 1);
    /// assert!(!k.first_player_wins(&[(1, 1), to])?);
    /// # Ok::<(), games::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Knights::first_player_wins`], for `budget`'s memory and work.
    pub fn winning_move_with(
        &self,
        squares: &[(usize, usize)],
        budget: &Budget,
    ) -> Result<Option<KnightMove>, Error> {
        let mut m = 1;
        for &(a, b) in squares {
            self.square(a, b)?;
            m = m.max(a.saturating_add(b).min(self.n));
        }
        let g = self.corner(m, budget)?;
        let value = |(a, b): (usize, usize)| g[(a - 1) * m + (b - 1)];
        let x = squares.iter().fold(0u8, |acc, &s| acc ^ value(s));
        if x == 0 {
            return Ok(None);
        }
        let mut moves = Vec::new();
        for (i, &s) in squares.iter().enumerate() {
            let want = value(s) ^ x;
            if want >= value(s) {
                continue;
            }
            moves.clear();
            self.moves(&s, &mut moves);
            // Every move stays in the corner (it lowers x + y), and a
            // square of value g has a move to each smaller value.
            if let Some(to) = moves
                .iter()
                .map(|mv| self.play(&s, mv))
                .find(|&t| value(t) == want)
            {
                return Ok(Some((i, to)));
            }
        }
        Ok(None)
    }
}

impl Game for Knights {
    type Position = (usize, usize);
    type Move = (i64, i64);

    /// The steps that stay on the board, computed in unsigned arithmetic:
    /// a coordinate past `i64::MAX` (a board of `usize::MAX` squares a
    /// side) is a square like any other.
    fn moves(&self, &(x, y): &(usize, usize), out: &mut Vec<(i64, i64)>) {
        let on = |v: usize, d: i64| {
            v.checked_add_signed(d as isize)
                .is_some_and(|w| (1..=self.n).contains(&w))
        };
        for (dx, dy) in STEPS {
            if on(x, dx) && on(y, dy) {
                out.push((dx, dy));
            }
        }
    }

    fn play(&self, &(x, y): &(usize, usize), &(dx, dy): &(i64, i64)) -> (usize, usize) {
        (
            x.wrapping_add_signed(dx as isize),
            y.wrapping_add_signed(dy as isize),
        )
    }
}

impl Impartial for Knights {}

#[cfg(test)]
mod tests {
    use super::*;

    /// Squares past `i64::MAX` on a board of `usize::MAX` squares a side:
    /// their coordinates turned negative as `i64`, so (usize::MAX,
    /// usize::MAX) had no move (a Grundy value of 0, silently) and
    /// (2⁶³ + 5, 3) lost its steps back.
    #[test]
    fn squares_past_i64_max_keep_their_moves() {
        let k = Knights::new(usize::MAX).unwrap();
        let mut out = Vec::new();
        let far = (usize::MAX, usize::MAX);
        k.moves(&far, &mut out);
        assert_eq!(out, [(-2, -1), (-1, -2)]);
        let to: Vec<_> = out.iter().map(|m| k.play(&far, m)).collect();
        assert_eq!(
            to,
            [
                (usize::MAX - 2, usize::MAX - 1),
                (usize::MAX - 1, usize::MAX - 2)
            ]
        );
        out.clear();
        let x = (1usize << 63) + 5;
        k.moves(&(x, 3), &mut out);
        assert_eq!(out, STEPS);
        assert_eq!(k.play(&(x, 3), &(-1, -2)), (x - 1, 1));
        // On a small board the edges still stop the knight.
        let small = Knights::new(3).unwrap();
        out.clear();
        small.moves(&(3, 3), &mut out);
        assert_eq!(out, [(-2, -1), (-1, -2)]);
        out.clear();
        small.moves(&(1, 1), &mut out);
        assert!(out.is_empty());
    }
}
