//! The left–right mirror: [`Symmetric`] for [`ConnectFour`].

use game_core::Symmetric;

use super::{ConnectFour, ConnectFourPosition};

impl Symmetric for ConnectFour {
    /// The position and its mirror image.
    fn symmetric(&self, pos: &ConnectFourPosition, out: &mut Vec<ConnectFourPosition>) {
        out.push(*pos);
        out.push(self.mirror(pos));
    }

    /// The smaller of the position and its mirror image, compared by
    /// occupied cells, then by the mover's pieces (as bit patterns).
    fn canonical(&self, pos: &ConnectFourPosition) -> ConnectFourPosition {
        (*pos).min(self.mirror(pos))
    }
}
