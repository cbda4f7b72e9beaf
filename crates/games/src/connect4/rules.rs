//! The rules: [`Game`] for [`ConnectFour`].

use game_core::{Game, Outcome};

use super::{ConnectFour, ConnectFourPosition};

impl Game for ConnectFour {
    type Position = ConnectFourPosition;
    /// The column played, from 0.
    type Move = u8;

    /// The columns that are not full, left to right.
    fn moves(&self, pos: &ConnectFourPosition, out: &mut Vec<u8>) {
        for c in 0..self.width {
            if pos.occupied & self.column_top(c) == 0 {
                out.push(c as u8);
            }
        }
    }

    /// Drops a piece of the player to move into column `mv`, which must not
    /// be full.
    fn play(&self, pos: &ConnectFourPosition, mv: &u8) -> ConnectFourPosition {
        ConnectFourPosition {
            occupied: pos.occupied | (pos.occupied + self.column_bottom(u32::from(*mv))),
            mover: pos.mover ^ pos.occupied,
        }
    }

    /// [`Outcome::Lose`] when the player who just moved has four in a row,
    /// else [`Outcome::Tie`] on a full board, else `None`.
    fn outcome(&self, pos: &ConnectFourPosition) -> Option<Outcome> {
        if self.has_four(pos.opponent()) {
            Some(Outcome::Lose)
        } else if self.is_full(pos) {
            Some(Outcome::Tie)
        } else {
            None
        }
    }
}
