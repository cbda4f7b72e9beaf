//! [`DobutsuPosition`]: the board and both hands, seen by the player to move.

use super::piece::{
    DobutsuPiece, CHICK, ELEPHANT, EMPTY, FAR, GIRAFFE, HEN, KIND, LION, SQUARES, THEIRS,
};
use crate::Error;

/// A Dōbutsu shōgi position, always seen by the player to move: their home
/// is rank 4 and their pieces go towards rank 1, whichever player they are
/// in the game (the board is turned 180° after every move). So a position
/// does not say whether the first or the second player is to move; the
/// text forms and [`super::Dobutsu::play_line`] keep track of that.
///
/// Only positions with the right pieces are built: one lion for the
/// opponent, one or none (just captured) for the player to move, two
/// giraffes, two elephants and two chicks or hens between the board and
/// the hands, lions never in hand, and the player to move's lion not on
/// rank 1 (a lion there has already won by the try).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DobutsuPosition {
    /// Cell codes, square `3 · row + column`.
    pub(crate) board: [u8; SQUARES],
    /// Pieces in hand: `[mover, opponent]`, each `[giraffes, elephants,
    /// chicks]`.
    pub(crate) hands: [[u8; 3]; 2],
}

const fn theirs(code: u8) -> u8 {
    code | THEIRS
}

impl DobutsuPosition {
    /// The starting position, first player to move: elephant a4, lion b4,
    /// giraffe c4, chick b3; the second player's giraffe a1, lion b1,
    /// elephant c1, chick b2.
    pub const START: DobutsuPosition = DobutsuPosition {
        board: [
            theirs(GIRAFFE),
            theirs(LION),
            theirs(ELEPHANT),
            EMPTY,
            theirs(CHICK),
            EMPTY,
            EMPTY,
            CHICK,
            EMPTY,
            ELEPHANT,
            LION,
            GIRAFFE,
        ],
        hands: [[0; 3]; 2],
    };

    /// The position with `board[s]` on square `s` (`3 · row + column`, row
    /// 0 = rank 1; `Some((piece, true))` for a piece of the player to move,
    /// `false` for the opponent's) and the hands `[giraffes, elephants,
    /// chicks]` of the player to move and of the opponent.
    ///
    /// # Errors
    /// [`Error::Core`] with an invalid position unless the pieces are those
    /// described in [`DobutsuPosition`].
    pub fn new(
        board: [Option<(DobutsuPiece, bool)>; SQUARES],
        my_hand: [u8; 3],
        their_hand: [u8; 3],
    ) -> Result<Self, Error> {
        let mut cells = [EMPTY; SQUARES];
        for (c, b) in cells.iter_mut().zip(board) {
            if let Some((piece, mine)) = b {
                *c = piece.code() | if mine { 0 } else { THEIRS };
            }
        }
        let pos = DobutsuPosition {
            board: cells,
            hands: [my_hand, their_hand],
        };
        pos.check()?;
        Ok(pos)
    }

    pub(crate) fn check(&self) -> Result<(), Error> {
        let invalid = |why: String| Err(game_core::Error::InvalidPosition(why).into());
        let count = |code: u8| self.board.iter().filter(|&&c| c == code).count();
        let (my_lions, their_lions) = (count(LION), count(theirs(LION)));
        if their_lions != 1 || my_lions > 1 {
            return invalid(format!(
                "the opponent needs one lion and the player to move one or none, not {their_lions} and {my_lions}"
            ));
        }
        let kinds = |code: u8| self.board.iter().filter(|&&c| c & KIND == code).count();
        for (slot, (name, on_board)) in [
            ("giraffes", kinds(GIRAFFE)),
            ("elephants", kinds(ELEPHANT)),
            ("chicks and hens", kinds(CHICK) + kinds(HEN)),
        ]
        .into_iter()
        .enumerate()
        {
            let total =
                on_board + usize::from(self.hands[0][slot]) + usize::from(self.hands[1][slot]);
            if total != 2 {
                return invalid(format!(
                    "{total} {name} on the board and in hand: the game has two"
                ));
            }
        }
        if let Some(m) = self.my_lion() {
            if FAR & (1 << m) != 0 {
                return invalid(
                    "the player to move's lion stands on rank 1: its try won the game before this move"
                        .into(),
                );
            }
        }
        Ok(())
    }

    /// The piece on `square` (`3 · row + column`) and whether it belongs to
    /// the player to move.
    #[must_use]
    pub fn piece_at(&self, square: usize) -> Option<(DobutsuPiece, bool)> {
        let c = *self.board.get(square)?;
        (c != EMPTY).then(|| (DobutsuPiece::of_code(c), c & THEIRS == 0))
    }

    /// The hand `[giraffes, elephants, chicks]` of the player to move
    /// (`mine`) or of the opponent.
    #[must_use]
    pub fn hand(&self, mine: bool) -> [u8; 3] {
        self.hands[usize::from(!mine)]
    }

    /// The square of the player to move's lion (`None` once captured).
    #[must_use]
    pub fn my_lion(&self) -> Option<usize> {
        self.board.iter().position(|&c| c == LION)
    }

    /// The square of the opponent's lion.
    #[must_use]
    pub fn their_lion(&self) -> usize {
        self.board
            .iter()
            .position(|&c| c == theirs(LION))
            .unwrap_or(0)
    }

    /// The same position seen by the other player: the board turned 180°,
    /// owners and hands swapped.
    #[must_use]
    pub(crate) fn flipped(&self) -> Self {
        let mut board = [EMPTY; SQUARES];
        for (s, b) in board.iter_mut().enumerate() {
            let c = self.board[SQUARES - 1 - s];
            *b = if c == EMPTY { EMPTY } else { c ^ THEIRS };
        }
        DobutsuPosition {
            board,
            hands: [self.hands[1], self.hands[0]],
        }
    }

    /// The left–right mirror image (file a ↔ file c).
    #[must_use]
    pub(crate) fn mirrored(&self) -> Self {
        let mut board = self.board;
        for row in board.chunks_exact_mut(3) {
            row.swap(0, 2);
        }
        DobutsuPosition {
            board,
            hands: self.hands,
        }
    }

    /// Squares holding the player to move's pieces, and the opponent's.
    #[inline]
    pub(crate) fn occupancy(&self) -> (u16, u16) {
        let (mut mine, mut theirs) = (0u16, 0u16);
        for (s, &c) in self.board.iter().enumerate() {
            if c != EMPTY {
                if c & THEIRS == 0 {
                    mine |= 1 << s;
                } else {
                    theirs |= 1 << s;
                }
            }
        }
        (mine, theirs)
    }
}
