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
    #[inline]
    fn canonical(&self, pos: &ConnectFourPosition) -> ConnectFourPosition {
        let occupied = self.mirror_bits(pos.occupied);
        if occupied > pos.occupied {
            return *pos;
        }
        let mirror = ConnectFourPosition {
            occupied,
            mover: self.mirror_bits(pos.mover),
        };
        (*pos).min(mirror)
    }
}
