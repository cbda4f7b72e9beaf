//! Bitboard geometry: columns, four in a row, the mirror.

use super::{ConnectFour, ConnectFourPosition};

impl ConnectFour {
    /// The bottom cell of column `c`.
    #[inline]
    pub(super) fn column_bottom(&self, c: u32) -> u64 {
        1 << (c * self.stride)
    }

    /// The top cell of column `c`.
    #[inline]
    pub(super) fn column_top(&self, c: u32) -> u64 {
        self.column_bottom(c) << (self.height - 1)
    }

    /// The cells of column 0 (shift left by `c·(H+1)` for column `c`).
    #[inline]
    pub(super) fn column_cells(&self) -> u64 {
        (1u64 << self.height) - 1
    }

    /// The stones of column `c` of `bits`, shifted down to bits `0..H`.
    #[inline]
    pub(super) fn column_of(&self, bits: u64, c: u32) -> u64 {
        (bits >> (c * self.stride)) & self.column_cells()
    }

    /// The cells where a four of `bits` starts: bit `i` is set when `i`
    /// and the next three cells in some direction (each one shift
    /// further: up, right, up-right or down-right) all hold stones of
    /// `bits`, so `i` is the lowest bit of that four.
    #[inline]
    pub(super) fn four_starts(&self, bits: u64) -> u64 {
        let mut found = 0;
        for (s, mask) in self.directions {
            let pairs = bits & (bits >> s) & mask;
            found |= pairs & (pairs >> (2 * s));
        }
        found
    }

    /// Whether the stones `bits` hold four in a row.
    #[inline]
    pub fn has_four(&self, bits: u64) -> bool {
        self.four_starts(bits) != 0
    }

    /// Whether `pos` is a board of this game: its pieces on the board's
    /// cells, each column filled from the bottom with no gap (`x + 1` of
    /// a column `x = 2^h − 1` shares no bit with it; no carry leaves a
    /// column, the sentinel above stops it), and the player to move
    /// holding ⌊n/2⌋ of the n pieces. A position made on a board of
    /// another size (or by a move into a full column) is not.
    #[inline]
    pub(super) fn holds(&self, pos: &ConnectFourPosition) -> bool {
        let o = pos.occupied;
        o & !self.board == 0
            && (o + self.bottom) & o == 0
            && pos.mover & !o == 0
            && pos.mover.count_ones() == o.count_ones() / 2
    }

    /// Whether every cell is occupied.
    #[inline]
    pub(super) fn is_full(&self, pos: &ConnectFourPosition) -> bool {
        pos.occupied == self.board
    }

    /// The cells of `bits` mirrored left–right (column `c` ↔ `W−1−c`):
    /// one swap of two columns for each pair.
    #[inline]
    pub(super) fn mirror_bits(&self, bits: u64) -> u64 {
        let mut out = bits & self.mirror_middle;
        for &(cells, shift) in &self.mirror_pairs[..self.width as usize / 2] {
            out |= ((bits & cells) << shift) | ((bits >> shift) & cells);
        }
        out
    }

    /// The position mirrored left–right.
    #[must_use]
    #[inline]
    pub fn mirror(&self, pos: &ConnectFourPosition) -> ConnectFourPosition {
        ConnectFourPosition {
            occupied: self.mirror_bits(pos.occupied),
            mover: self.mirror_bits(pos.mover),
        }
    }

    /// The height of column `c` (its number of pieces, from 0); 0 for a
    /// column past the board, which holds none.
    ///
    /// ```
    /// let game = games::ConnectFour::new(7, 6)?;
    /// let pos = game.position_from_moves("4454")?;
    /// assert_eq!((game.column_height(&pos, 3), game.column_height(&pos, 4)), (3, 1));
    /// assert_eq!(game.column_height(&pos, 7), 0);
    /// # Ok::<(), games::Error>(())
    /// ```
    #[must_use]
    pub fn column_height(&self, pos: &ConnectFourPosition, c: u32) -> u32 {
        if c >= self.width {
            return 0;
        }
        self.column_of(pos.occupied, c).trailing_ones()
    }

    /// Whether a board that obeys gravity and has the right number of
    /// pieces of each colour (as every decoded index does) could be the
    /// position of a game in progress or just ended, as far as cheap checks
    /// tell: the player to move has no four, and if the player who just
    /// moved has four, removing one of that player's top pieces breaks
    /// every four (the last move made it).
    #[inline]
    pub(super) fn is_plausible(&self, pos: &ConnectFourPosition) -> bool {
        !self.has_four(pos.mover) && self.last_move_made_fours(pos)
    }

    /// The second half of [`ConnectFour::is_plausible`]: the player who
    /// just moved has no four, or one of that player's top pieces is in
    /// every four.
    #[inline]
    pub(super) fn last_move_made_fours(&self, pos: &ConnectFourPosition) -> bool {
        let opp = pos.opponent();
        if !self.has_four(opp) {
            return true;
        }
        self.one_top_piece_breaks_fours(pos.occupied, opp)
    }

    /// Whether removing one of the top pieces of `opp` (a player with
    /// four, on the board `occupied`) leaves that player without four:
    /// whether one of them lies in every four.
    #[inline]
    pub(super) fn one_top_piece_breaks_fours(&self, occupied: u64, opp: u64) -> bool {
        // The top piece of each column: occupied, the cell above not.
        let mut candidates = opp & !(occupied >> 1);
        for (s, mask) in self.directions {
            let pairs = opp & (opp >> s) & mask;
            let mut starts = pairs & (pairs >> (2 * s));
            let cells = 1 | 1 << s | 1 << (2 * s) | 1 << (3 * s);
            while starts != 0 {
                candidates &= cells << starts.trailing_zeros();
                starts &= starts - 1;
            }
        }
        candidates != 0
    }
}
