//! Dōbutsu shōgi's predecessors.
//!
//! At a position, the opponent (the player who just moved) made the last
//! move, with one of the pieces now theirs on the board:
//! * a drop (a giraffe, elephant or chick: never a lion or a hen) — it goes
//!   back to their hand;
//! * a step from an empty square it can step from — with nothing captured,
//!   or having captured a piece of the player to move, which is then in the
//!   opponent's hand (a giraffe, an elephant, or a chick that was a chick
//!   or a hen on the board); a hen on the opponent's far rank may have been
//!   a chick before the step (promotion), a chick there must have been
//!   dropped;
//! * if the player to move has no lion, it was the capture of that lion,
//!   by a step (nothing else can have happened).
//!
//! A parent must not be over (a try in force, or the mover's own lion on
//! rank 1). Different undone moves give different parents, so no
//! de-duplication is needed.

use game_core::{Game, IndexedChildren, IndexedUnmoves, Unmoves};

use super::piece::{
    for_bits, CHICK, ELEPHANT, EMPTY, GIRAFFE, HAND_CODES, HEN, KIND, LION, MY_HOME, STEPS, THEIRS,
    THEIR_SOURCES,
};
use super::{Dobutsu, DobutsuMove, DobutsuPosition};

impl Dobutsu {
    /// Appends `before` (seen by the player to move at the child) as a
    /// parent, turned to its mover's view, unless it is over.
    #[inline]
    fn push_parent(&self, before: &DobutsuPosition, out: &mut Vec<DobutsuPosition>) {
        let parent = before.flipped();
        if self.outcome(&parent).is_none() {
            out.push(parent);
        }
    }
}

impl Unmoves for Dobutsu {
    fn unmoves(&self, pos: &DobutsuPosition, out: &mut Vec<DobutsuPosition>) {
        let (mine, theirs) = pos.occupancy();
        let empty = !(mine | theirs) & 0xfff;
        let lion_taken = pos.board.iter().all(|&c| c != LION);
        for_bits(theirs, |s| {
            let code = pos.board[s] & KIND;
            // A drop.
            if !lion_taken && matches!(code, GIRAFFE | ELEPHANT | CHICK) {
                let mut q = *pos;
                q.board[s] = EMPTY;
                q.hands[1][usize::from(code - GIRAFFE)] += 1;
                self.push_parent(&q, out);
            }
            // A step of the piece as it was before: (code, squares from).
            let on_far = MY_HOME & (1 << s) != 0;
            let before: [(u8, u16); 2] = match code {
                HEN => [
                    (HEN, THEIR_SOURCES[usize::from(HEN)][s]),
                    (
                        CHICK,
                        if on_far {
                            THEIR_SOURCES[usize::from(CHICK)][s]
                        } else {
                            0
                        },
                    ),
                ],
                CHICK if on_far => [(CHICK, 0), (CHICK, 0)],
                c => [(c, THEIR_SOURCES[usize::from(c)][s]), (c, 0)],
            };
            for (was, sources) in before {
                for_bits(sources & empty, |t| {
                    let mut q = *pos;
                    q.board[t] = was | THEIRS;
                    if lion_taken {
                        q.board[s] = LION;
                        self.push_parent(&q, out);
                        return;
                    }
                    q.board[s] = EMPTY;
                    self.push_parent(&q, out);
                    for (slot, &code) in HAND_CODES.iter().enumerate() {
                        if q.hands[1][slot] > 0 {
                            let mut r = q;
                            r.hands[1][slot] -= 1;
                            r.board[s] = code;
                            self.push_parent(&r, out);
                            if code == CHICK {
                                r.board[s] = HEN;
                                self.push_parent(&r, out);
                            }
                        }
                    }
                });
            }
        });
    }

    /// Every move gives a different child: steps to squares not holding
    /// the mover's pieces, plus each kind in hand on each empty square.
    #[inline]
    fn child_count(
        &self,
        pos: &DobutsuPosition,
        _moves: &mut Vec<DobutsuMove>,
        _children: &mut Vec<DobutsuPosition>,
    ) -> usize {
        let (mine, theirs) = pos.occupancy();
        let mut n = 0;
        for_bits(mine, |s| {
            n += (STEPS[usize::from(pos.board[s])][s] & !mine).count_ones() as usize;
        });
        let kinds = pos.hands[0].iter().filter(|&&h| h > 0).count();
        n + kinds * (12 - (mine | theirs).count_ones() as usize)
    }
}

impl IndexedUnmoves for Dobutsu {}

/// Children by index the plain way (moves played and indexed): what a
/// registration with unmoves declares beside them.
impl IndexedChildren for Dobutsu {}
