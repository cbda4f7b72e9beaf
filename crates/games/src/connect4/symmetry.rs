//! The left–right mirror: [`Symmetric`] for [`ConnectFour`].

use game_core::{Symmetric, TieredSymmetric};

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

impl TieredSymmetric for ConnectFour {
    /// The canonical positions of a tier in index order, skipping runs
    /// whose column heights mirror to a smaller run.
    fn visit_canonical_tier(
        &self,
        tier: game_core::Tier,
        range: std::ops::Range<u64>,
        f: &mut dyn FnMut(u64, ConnectFourPosition),
    ) {
        ConnectFour::for_each_canonical_in_tier(self, tier, range, f);
    }

    /// Every child's canonical form's tier index, computed together.
    fn canonical_child_tier_indices(
        &self,
        pos: &ConnectFourPosition,
        out: &mut Vec<(game_core::Tier, u64)>,
        _moves: &mut Vec<u8>,
    ) {
        ConnectFour::canonical_child_tier_indices(self, pos, out);
    }
}
