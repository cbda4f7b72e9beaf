//! [`ConnectFourPosition`]: two bitboards.

/// A Connect Four position: the pieces of the player to move and all the
/// pieces, as bitboards (bit `c·(H+1) + r` is column `c`, row `r` from the
/// bottom; the sentinel bit on top of each column is never set).
///
/// The player to move is the first player (`X`) when the number of pieces
/// is even. A position only makes sense with the [`super::ConnectFour`]
/// board it was made for (on a board of another size its index and tier
/// index are outside the game, unless it is a board of that game too);
/// build one with
/// [`super::ConnectFour::position_from_moves`], by playing moves from
/// [`super::ConnectFour::start`], or from an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct ConnectFourPosition {
    pub(super) occupied: u64,
    pub(super) mover: u64,
}

impl ConnectFourPosition {
    /// The empty board (on any board size).
    pub const EMPTY: ConnectFourPosition = ConnectFourPosition {
        occupied: 0,
        mover: 0,
    };

    /// The number of pieces on the board (the number of plies played).
    #[must_use]
    pub const fn pieces(&self) -> u32 {
        self.occupied.count_ones()
    }

    /// Every occupied cell.
    #[must_use]
    pub const fn occupied(&self) -> u64 {
        self.occupied
    }

    /// The pieces of the player to move.
    #[must_use]
    pub const fn mover(&self) -> u64 {
        self.mover
    }

    /// The pieces of the player who just moved.
    #[must_use]
    pub const fn opponent(&self) -> u64 {
        self.occupied ^ self.mover
    }

    /// Whether the first player (`X`) is to move.
    #[must_use]
    pub const fn first_to_move(&self) -> bool {
        self.pieces().is_multiple_of(2)
    }

    /// The first player's (`X`'s) pieces.
    #[must_use]
    pub const fn first_player(&self) -> u64 {
        if self.first_to_move() {
            self.mover
        } else {
            self.opponent()
        }
    }
}
