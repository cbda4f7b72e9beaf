//! Connect Four on a board of W columns × H rows.
//!
//! Players alternate dropping a piece into a column that is not full; the
//! piece falls to the lowest free cell. Four of one's own pieces in a row
//! (horizontally, vertically or diagonally) win at once and end the game; a
//! full board without four is a tie. The first player's pieces are drawn
//! `X`, the second player's `O`.
//!
//! Any W, H ≥ 1 with W·(H+1) ≤ 64 is allowed: the board is a 64-bit
//! bitboard with a sentinel row on top of every column (bit `c·(H+1) + r`
//! is the cell of column `c`, row `r` from the bottom), as in Pascal Pons'
//! solver. Boards too small for any four (3×3, 7×3, …) are legal and always
//! end in a tie.
//!
//! Besides [`game_core::Game`], [`ConnectFour`] implements
//! * [`game_core::Tiered`]: the tier of a position is its number of pieces,
//!   every move goes to the next tier, and the index inside a tier is the
//!   rank of the column heights times the rank of which pieces are the first
//!   player's — a dense numbering of every board that obeys gravity and has
//!   the right number of pieces of each colour (Allis' upper bound,
//!   OEIS A090224 on 7×6). Fast paths: [`ConnectFour::for_each_in_tier`]
//!   walks a run of indices in order (stepping from one set of pieces to
//!   the next, and skipping runs of boards that keep a four that makes
//!   them impossible), [`ConnectFour::child_tier_indices`] computes the
//!   indices of all children at once, without allocating.
//! * [`game_core::Indexed`]: the tiers one after another.
//! * [`game_core::Symmetric`]: the left–right mirror, with fast paths for
//!   the game seen through canonical positions ([`game_core::Canonical`]):
//!   [`ConnectFour::for_each_canonical_in_tier`] walks only canonical
//!   positions (skipping runs whose column heights mirror to a smaller
//!   board), and [`ConnectFour::canonical_child_tier_indices`] gives the
//!   indices of the children's canonical forms without building them.
//!
//! * [`game_core::SearchKey`] and [`game_core::SearchHints`]: a bitboard
//!   key (one for a board and its mirror), threats first and centre first,
//!   "wins now" and "can only lose", for an exact search.
//!
//! Child indices keep, per thread, the terms that depend only on the
//! column heights of the last board seen and of its mirror image:
//! positions visited in index order share their heights for thousands of
//! indices in a row. The results never depend on what is kept.
//!
//! ```
//! use game_core::{Game, Outcome, Tiered};
//! use games::ConnectFour;
//!
//! let game = ConnectFour::new(7, 6)?;
//! // X plays column 1 four times, O column 2 three times.
//! let pos = game.position_from_moves("1212121")?;
//! assert_eq!(game.outcome(&pos), Some(Outcome::Lose)); // O to move has lost
//! assert_eq!(game.tier(&pos), 7);
//! assert!(game.position_from_moves("12121212").is_err()); // the game is over
//! print!("{}", game.picture(&pos));
//! # Ok::<(), games::Error>(())
//! ```

mod board;
mod children;
mod combinatorics;
mod index;
mod notation;
mod position;
mod rules;
mod search;
mod symmetry;
#[cfg(test)]
mod tests;
mod walk;

pub use position::ConnectFourPosition;

use crate::Error;
use combinatorics::{ColumnSums, HeightTable};

/// The most columns a board can have (W·(H+1) ≤ 64 with H ≥ 1).
const MAX_WIDTH: usize = 32;

/// Connect Four on a `width` × `height` board: the game value, holding the
/// board's geometry and the tables of its dense index.
///
/// Moves ([`game_core::Game::Move`]) are column indices from 0; positions
/// are [`ConnectFourPosition`]s.
#[derive(Clone)]
pub struct ConnectFour {
    width: u32,
    height: u32,
    /// Bits per column: the height plus the sentinel.
    stride: u32,
    /// Every cell of the board.
    board: u64,
    /// The bottom cell of every column.
    bottom: u64,
    /// The four directions as (bit shift, mask): shifts 1 (vertical),
    /// H+1 (horizontal), H and H+2 (the diagonals); a direction in which
    /// four cannot fit on this board has shift 1 and mask 0.
    directions: [(u32, u64); 4],
    /// The mirror as column swaps: for each column `c < W/2`, its cells
    /// and the shift `(W−1−2c)·(H+1)` that carries it onto column `W−1−c`
    /// (unused entries are zero).
    mirror_pairs: [(u64, u32); MAX_WIDTH / 2],
    /// The cells of the middle column when `W` is odd (it mirrors onto
    /// itself), else 0.
    mirror_middle: u64,
    /// Ranks of column-height vectors.
    heights: HeightTable,
    /// Colex terms of whole columns, on boards short enough.
    column_sums: Option<ColumnSums>,
    /// The first index of every tier in the whole-game index, and the
    /// total after the last tier.
    offsets: Vec<u64>,
}

impl std::fmt::Debug for ConnectFour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ConnectFour")
            .field("width", &self.width)
            .field("height", &self.height)
            .finish_non_exhaustive()
    }
}

impl PartialEq for ConnectFour {
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height) == (other.width, other.height)
    }
}

impl Eq for ConnectFour {}

impl ConnectFour {
    /// Connect Four with `width` columns of `height` rows.
    ///
    /// # Errors
    /// [`game_core::Error::InvalidRules`] (inside [`Error::Core`]) unless
    /// `width ≥ 1`, `height ≥ 1` and `width · (height + 1) ≤ 64`.
    pub fn new(width: u32, height: u32) -> Result<Self, Error> {
        if width == 0 || height == 0 || u64::from(width) * (u64::from(height) + 1) > 64 {
            return Err(game_core::Error::InvalidRules(format!(
                "a {width}×{height} Connect Four board: the width and height must be at least 1 \
                 and width × (height + 1) at most 64"
            ))
            .into());
        }
        let stride = height + 1;
        let bottom = (0..width).fold(0u64, |b, c| b | 1 << (c * stride));
        let board = bottom * ((1u64 << height) - 1);
        let fits = |yes: bool, shift: u32| if yes { (shift, u64::MAX) } else { (1, 0) };
        let directions = [
            fits(height >= 4, 1),
            fits(width >= 4, stride),
            fits(width >= 4 && height >= 4, height),
            fits(width >= 4 && height >= 4, height + 2),
        ];
        let column = (1u64 << height) - 1;
        let mut mirror_pairs = [(0u64, 0u32); MAX_WIDTH / 2];
        for c in 0..width / 2 {
            mirror_pairs[c as usize] = (column << (c * stride), (width - 1 - 2 * c) * stride);
        }
        let mirror_middle = if width % 2 == 1 {
            column << (width / 2 * stride)
        } else {
            0
        };
        let heights = HeightTable::new(width, height);
        let column_sums = ColumnSums::new(width, height);
        let cells = width * height;
        let mut offsets = Vec::with_capacity(cells as usize + 2);
        let mut total = 0u64;
        offsets.push(0);
        for n in 0..=cells {
            // Cannot overflow: the largest total, on 8×7, is about 2.04e18
            // (checked by a test over every allowed board).
            total += heights.count(n) * combinatorics::first_player_choices(n);
            offsets.push(total);
        }
        Ok(ConnectFour {
            width,
            height,
            stride,
            board,
            bottom,
            directions,
            mirror_pairs,
            mirror_middle,
            heights,
            column_sums,
            offsets,
        })
    }

    /// The number of columns.
    #[must_use]
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The number of rows.
    #[must_use]
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The number of cells, W·H: the number of the last tier.
    #[must_use]
    pub fn cells(&self) -> u32 {
        self.width * self.height
    }

    /// The empty board, first player to move.
    #[must_use]
    pub fn start(&self) -> ConnectFourPosition {
        ConnectFourPosition::EMPTY
    }
}
