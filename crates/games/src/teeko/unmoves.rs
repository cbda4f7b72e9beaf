//! Teeko's predecessors: undo a placement (lift one of the last mover's
//! men) or a slide (move one of them back to an adjacent empty square).

use game_core::{Game, IndexedChildren, IndexedUnmoves, Unmoves};

use super::board::NEIGHBOURS;
use super::{for_bits, Teeko, TeekoColor, TeekoMove, TeekoPosition};

impl Unmoves for Teeko {
    fn unmoves(&self, pos: &TeekoPosition, out: &mut Vec<TeekoPosition>) {
        let men = pos.men();
        let last = pos.to_move.other();
        let (theirs, mine) = (pos.opponent_men(), pos.mover_men());
        // A placement led here unless all eight men are down with red to
        // move (black placed the 7th man; red places the 8th).
        let placed = men >= 1 && (men < 8 || pos.to_move == TeekoColor::Black);
        if placed {
            for_bits(theirs, |s| {
                push_if_live(
                    out,
                    TeekoPosition::from_sides(theirs ^ (1 << s), mine, last),
                );
            });
        }
        if men == 8 {
            let empty = pos.empty();
            for_bits(theirs, |s| {
                for_bits(NEIGHBOURS[usize::from(s)] & empty, |t| {
                    let before = theirs ^ (1 << s) ^ (1 << t);
                    push_if_live(out, TeekoPosition::from_sides(before, mine, last));
                });
            });
        }
    }

    /// Placements: one per empty square; slides: one per man and empty
    /// neighbour. All children differ, so no moves are generated.
    #[inline]
    fn child_count(
        &self,
        pos: &TeekoPosition,
        _moves: &mut Vec<TeekoMove>,
        _children: &mut Vec<TeekoPosition>,
    ) -> usize {
        let empty = pos.empty();
        if pos.men() < 8 {
            return empty.count_ones() as usize;
        }
        let mut n = 0;
        for_bits(pos.mover_men(), |s| {
            n += (NEIGHBOURS[usize::from(s)] & empty).count_ones() as usize;
        });
        n
    }
}

/// A parent is a position in play: neither side has four in a pattern.
#[inline]
fn push_if_live(out: &mut Vec<TeekoPosition>, parent: TeekoPosition) {
    if Teeko.outcome(&parent).is_none() {
        out.push(parent);
    }
}

impl IndexedUnmoves for Teeko {}

/// Children by index the plain way (moves played and indexed): what a
/// registration with unmoves declares beside them.
impl IndexedChildren for Teeko {}
