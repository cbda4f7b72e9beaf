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

    /// Whether the stones `bits` hold four in a row.
    #[inline]
    pub fn has_four(&self, bits: u64) -> bool {
        let mut found = 0;
        for (s, mask) in self.directions {
            let pairs = bits & (bits >> s) & mask;
            found |= pairs & (pairs >> (2 * s));
        }
        found != 0
    }

    /// Whether every cell is occupied.
    #[inline]
    pub(super) fn is_full(&self, pos: &ConnectFourPosition) -> bool {
        pos.occupied == self.board
    }

    /// The cells of `bits` mirrored left–right (column `c` ↔ `W−1−c`).
    pub(super) fn mirror_bits(&self, bits: u64) -> u64 {
        let mut out = 0;
        for c in 0..self.width {
            out |= self.column_of(bits, c) << ((self.width - 1 - c) * self.stride);
        }
        out
    }

    /// The position mirrored left–right.
    #[must_use]
    pub fn mirror(&self, pos: &ConnectFourPosition) -> ConnectFourPosition {
        ConnectFourPosition {
            occupied: self.mirror_bits(pos.occupied),
            mover: self.mirror_bits(pos.mover),
        }
    }

    /// The height of column `c` (its number of pieces).
    #[must_use]
    pub fn column_height(&self, pos: &ConnectFourPosition, c: u32) -> u32 {
        self.column_of(pos.occupied, c).count_ones()
    }

    /// Whether a board that obeys gravity and has the right number of
    /// pieces of each colour (as every decoded index does) could be the
    /// position of a game in progress or just ended, as far as cheap checks
    /// tell: the player to move has no four, and if the player who just
    /// moved has four, removing one of that player's top pieces breaks
    /// every four (the last move made it).
    pub(super) fn is_plausible(&self, pos: &ConnectFourPosition) -> bool {
        if self.has_four(pos.mover) {
            return false;
        }
        let opp = pos.opponent();
        if !self.has_four(opp) {
            return true;
        }
        (0..self.width).any(|c| {
            let col = self.column_of(pos.occupied, c);
            if col == 0 {
                return false;
            }
            let top = (col + 1) >> 1 << (c * self.stride);
            opp & top != 0 && !self.has_four(opp & !top)
        })
    }
}
