//! The gather: a solved tier's blocks sent to every other process, so
//! that every process holds every solved tier whole (see the crate docs,
//! *Child tiers: gathered, not requested*).

use game_core::Tier;

use super::io::Io;
use crate::cell::Piece;
use crate::layout::Layout;
use crate::Traffic;

/// Cells per message of a gathered tier.
pub(super) const GATHER: usize = 1 << 16;

/// Cells of a solved tier to another process: the target worker, the
/// tier, the first index, the bytes of the tier's cells (1, 2 or 4), and
/// the cells in the wide layout.
pub(super) type GatherMsg = (u64, Tier, u64, u8, Vec<u32>);

/// Sends the blocks `parts` (block number and cells) of tier `t` to one
/// worker of every other process (the worker of the same rank), in
/// messages that never span blocks.
#[allow(clippy::too_many_arguments)]
pub(super) fn gather(
    io: &mut Io,
    parts: &[(usize, &Piece)],
    lay: &Layout,
    t: Tier,
    me: usize,
    pp: usize,
    processes: usize,
    traffic: &mut Traffic,
) {
    let mine = me / pp;
    for q in (0..processes).filter(|&q| q != mine) {
        let target = (q * pp + me % pp) as u64;
        for &(b, piece) in parts {
            let lo = lay.block_range(b).0;
            for at in (0..piece.len()).step_by(GATHER) {
                let mut cells = Vec::with_capacity(GATHER.min(piece.len() - at));
                piece.wide_into(at, GATHER, &mut cells);
                traffic.gather_cells_remote += cells.len() as u64;
                io.gather.send((
                    target,
                    t,
                    lo + at as u64,
                    piece.width().bytes() as u8,
                    cells,
                ));
            }
        }
    }
}
