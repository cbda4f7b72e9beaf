//! Dōbutsu shōgi ("Let's catch the lion!", Kitao Madoka and Fujita Maiko,
//! 2008), with GamesmanOne's conventions.
//!
//! A 3 × 4 board, files a–c and ranks 1–4. The first player starts with
//! elephant a4, lion b4, giraffe c4 and chick b3; the second player with
//! the same turned 180° (giraffe a1, lion b1, elephant c1, chick b2). The
//! lion steps one square in any direction, the giraffe orthogonally, the
//! elephant diagonally, the chick forward; a chick stepping onto the far
//! rank becomes a hen, which steps in any direction but diagonally
//! backwards. Stepping onto an opponent's piece captures it into your hand
//! (a hen turns back into a chick); instead of stepping you may drop a
//! piece from your hand on any empty square (a chick dropped on the far
//! rank stays a chick, stuck there).
//!
//! The game ends
//! * when a lion is captured: the position after the capture is lost for
//!   the player to move;
//! * by the *try*: when the player to move finds the opponent's lion on
//!   their own home rank, the game is over at once — won if some piece of
//!   theirs can capture that lion, lost otherwise.
//!
//! A game that repeats forever is a draw. Tanaka (2009, "An Analysis of a
//! Board Game 'Doubutsu Shogi'", IPSJ SIG-GI 22) solved the game: the
//! second player wins, in 78 plies from the start, and 246,803,167
//! positions up to the mirror are reachable from the start when a position
//! where the lion can be taken, or where a try is in force, is not played
//! on. The ignored test `tanaka_reachable_count` finds exactly that number
//! with these moves (493,573,042 positions before folding the mirror).
//!
//! A [`DobutsuPosition`] is always seen by the player to move (the board is
//! turned 180° after every move), so positions where the first or the
//! second player is to move share one index. [`Dobutsu`] is
//! [`Indexed`](game_core::Indexed) with 1,450,708,605 indices (2.7 GiB at
//! 2 bytes an index) and [`Tiered`](game_core::Tiered) with two tiers:
//! *over* (the mover's lion captured, or the opponent's lion on the mover's
//! home rank: every position is over) and *play* (everything else), the
//! tiers decided by where the lions stand. No finer split is monotone: a
//! capture and a drop undo each other's change to the pieces in hand and
//! on the board, and a captured hen becomes a chick again.
//!
//! ```
//! use game_core::Game;
//! use games::{Dobutsu, DobutsuPosition, DobutsuSide};
//! let g = Dobutsu::new();
//! let mut moves = Vec::new();
//! g.moves(&DobutsuPosition::START, &mut moves);
//! // Chick b3-b2, giraffe c4-c3, lion b4-a3 or b4-c3.
//! assert_eq!(moves.len(), 4);
//! let (pos, side) = g.play_line("b3b2 c1b2 C*b3")?;
//! assert_eq!(side, DobutsuSide::Second);
//! assert_eq!(pos.hand(false), [0, 0, 0]);
//! # Ok::<(), games::Error>(())
//! ```

mod index;
mod notation;
mod piece;
mod position;
mod unmoves;

#[cfg(test)]
mod tests;

use game_core::{Game, Outcome, Symmetric, TieredSymmetric};

use crate::Error;
pub use piece::DobutsuPiece;
use piece::{for_bits, CHICK, EMPTY, FAR, HAND_CODES, HEN, KIND, LION, MY_HOME, STEPS, THEIRS};
pub use position::DobutsuPosition;

/// A player, for the text forms: positions themselves are always seen by
/// the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DobutsuSide {
    /// The player who moves first (home rank 4).
    First,
    /// The player who moves second (home rank 1).
    Second,
}

impl DobutsuSide {
    /// The other player.
    #[must_use]
    pub fn other(self) -> Self {
        match self {
            DobutsuSide::First => DobutsuSide::Second,
            DobutsuSide::Second => DobutsuSide::First,
        }
    }

    /// The player's name in messages: `first`, `second` (they showed the
    /// Debug form, `First`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            DobutsuSide::First => "first",
            DobutsuSide::Second => "second",
        }
    }

    /// The board square `s` of this player's view, in the first player's
    /// (fixed) numbering, and back.
    #[must_use]
    pub fn absolute(self, s: usize) -> usize {
        match self {
            DobutsuSide::First => s,
            DobutsuSide::Second => 11 - s,
        }
    }
}

/// A move, in the squares of the player making it (home rank 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DobutsuMove {
    /// A piece steps from one square to another, capturing what stands
    /// there; a chick reaching rank 1 becomes a hen. Written `b3b2`.
    Step {
        /// The square it leaves.
        from: u8,
        /// The square it goes to.
        to: u8,
    },
    /// A piece from hand is put on an empty square. Written `C*b2`.
    Drop {
        /// The piece (giraffe, elephant or chick).
        piece: DobutsuPiece,
        /// The square.
        to: u8,
    },
}

/// Dōbutsu shōgi: see the [module documentation](self).
#[derive(Debug, Clone)]
pub struct Dobutsu {
    index: index::Tables,
}

impl Default for Dobutsu {
    fn default() -> Self {
        Self::new()
    }
}

impl Dobutsu {
    /// The number of distinct positions symmetric to `pos` (itself
    /// included; 1 or 2, the board and its mirror image):
    /// [`game_core::orbit_size`] without a buffer.
    ///
    /// ```
    /// let game = games::Dobutsu::new();
    /// assert_eq!(game.orbit_size(&games::DobutsuPosition::START), 2); // the elephant and giraffe swap sides
    /// ```
    #[must_use]
    pub fn orbit_size(&self, pos: &DobutsuPosition) -> u64 {
        1 + u64::from(pos.mirrored() != *pos)
    }

    /// The game (builds its index tables, a few kilobytes).
    #[must_use]
    pub fn new() -> Self {
        Dobutsu {
            index: index::Tables::new(),
        }
    }

    /// Whether a piece of the player to move attacks `target`.
    fn attacks(pos: &DobutsuPosition, target: usize) -> bool {
        pos.board.iter().enumerate().any(|(s, &c)| {
            c != EMPTY && c & THEIRS == 0 && STEPS[usize::from(c)][s] & (1 << target) != 0
        })
    }

    /// The legal move written `text` by `side` (in `side`'s view of the
    /// fixed board: the first player's home is rank 4) at `pos`, where
    /// `side` is to move.
    ///
    /// # Errors
    /// [`Error::Parse`] if `text` is not a move's notation,
    /// [`Error::Core`] with an illegal move if it is not legal at `pos`.
    pub fn legal_move(
        &self,
        pos: &DobutsuPosition,
        side: DobutsuSide,
        text: &str,
    ) -> Result<DobutsuMove, Error> {
        let mv = notation::parse_move(text, side)?;
        crate::line::legal(self, pos, mv, || {
            format!(
                "{text} by the {} player at {}",
                side.name(),
                pos.board_string(side)
            )
        })
    }

    /// The position reached from the start by the moves in `line`
    /// (separated by white space, each in the notation of the fixed board:
    /// `b3b2 c1b2 C*b3`), and the player to move there.
    ///
    /// # Errors
    /// As [`Dobutsu::legal_move`], for the first move that fails; an
    /// illegal move is named by the moves before it, with the legal ones.
    pub fn play_line(&self, line: &str) -> Result<(DobutsuPosition, DobutsuSide), Error> {
        let mut pos = DobutsuPosition::START;
        let mut side = DobutsuSide::First;
        for (k, word) in line.split_whitespace().enumerate() {
            let mv = self.legal_move(&pos, side, word).map_err(|e| {
                crate::line::in_line(e, self, &pos, line, word, k + 1, |m| m.notation(side))
            })?;
            pos = self.play(&pos, &mv);
            side = side.other();
        }
        Ok((pos, side))
    }

    /// A position as people write it, and the player to move there: a
    /// board with its ranks between slashes ([`DobutsuPosition::parse_with_side`],
    /// `gle/.c./.C./ELG - b`) or else a line of moves from the start
    /// ([`Dobutsu::play_line`]). The one reading of the command line and
    /// the server alike, so that both name a position's moves by the same
    /// player.
    ///
    /// ```
    /// use games::{Dobutsu, DobutsuSide};
    /// let game = Dobutsu::new();
    /// let (after, side) = game.read("b3b2").unwrap();
    /// assert_eq!(side, DobutsuSide::Second);
    /// let (board, again) = game.read(&after.board_string(side)).unwrap();
    /// assert_eq!((board, again), (after, side));
    /// ```
    ///
    /// # Errors
    /// As the reading the text's form chose: a board's fault is named as
    /// the board's (moves never hold a slash).
    pub fn read(&self, text: &str) -> Result<(DobutsuPosition, DobutsuSide), Error> {
        let text = text.trim();
        if text.contains('/') {
            DobutsuPosition::parse_with_side(text)
        } else {
            self.play_line(text)
        }
    }
}

impl Game for Dobutsu {
    type Position = DobutsuPosition;
    type Move = DobutsuMove;

    fn moves(&self, pos: &DobutsuPosition, out: &mut Vec<DobutsuMove>) {
        let (mine, _) = pos.occupancy();
        for (from, &c) in pos.board.iter().enumerate() {
            if c != EMPTY && c & THEIRS == 0 {
                for_bits(STEPS[usize::from(c)][from] & !mine, |to| {
                    out.push(DobutsuMove::Step {
                        from: from as u8,
                        to: to as u8,
                    });
                });
            }
        }
        for (slot, &n) in pos.hands[0].iter().enumerate() {
            if n > 0 {
                let piece = DobutsuPiece::IN_HAND[slot];
                for (to, &c) in pos.board.iter().enumerate() {
                    if c == EMPTY {
                        out.push(DobutsuMove::Drop {
                            piece,
                            to: to as u8,
                        });
                    }
                }
            }
        }
    }

    fn play(&self, pos: &DobutsuPosition, mv: &DobutsuMove) -> DobutsuPosition {
        let mut next = *pos;
        match *mv {
            DobutsuMove::Step { from, to } => {
                let (from, to) = (usize::from(from), usize::from(to));
                let captured = next.board[to];
                if captured != EMPTY {
                    if let Some(slot) = DobutsuPiece::of_code(captured).hand_slot() {
                        next.hands[0][slot] += 1;
                    }
                }
                let mut piece = next.board[from];
                if piece == CHICK && FAR & (1 << to) != 0 {
                    piece = HEN;
                }
                next.board[to] = piece;
                next.board[from] = EMPTY;
            }
            DobutsuMove::Drop { piece, to } => {
                let slot = piece.hand_slot().unwrap_or(2);
                next.hands[0][slot] -= 1;
                next.board[usize::from(to)] = HAND_CODES[slot];
            }
        }
        next.flipped()
    }

    /// Lost when the mover's lion has been captured; when the opponent's
    /// lion stands on the mover's home rank (the try), won if a piece of
    /// the mover attacks it and lost otherwise.
    ///
    /// These are GamesmanOne's rules. Tanaka (2009) also ends the game at
    /// a position where the opponent's lion can be taken (won there, one
    /// ply before the capture): the win/loss/draw values are the same,
    /// remoteness may differ.
    fn outcome(&self, pos: &DobutsuPosition) -> Option<Outcome> {
        let mut mine = None;
        let mut theirs = 0;
        for (s, &c) in pos.board.iter().enumerate() {
            if c & KIND == LION {
                if c & THEIRS == 0 {
                    mine = Some(s);
                } else {
                    theirs = s;
                }
            }
        }
        let Some(mine) = mine else {
            return Some(Outcome::Lose);
        };
        if MY_HOME & (1 << theirs) != 0 {
            return Some(if Self::attacks(pos, theirs) {
                Outcome::Win
            } else {
                Outcome::Lose
            });
        }
        // The mover's own lion on rank 1: its try has already won. No game
        // reaches this (the game ended the move before) and no position of
        // the index is one; it only follows a move played at a position
        // that is over.
        (FAR & (1 << mine) != 0).then_some(Outcome::Win)
    }
}

impl Symmetric for Dobutsu {
    fn symmetric(&self, pos: &DobutsuPosition, out: &mut Vec<DobutsuPosition>) {
        out.push(*pos);
        out.push(pos.mirrored());
    }

    /// The smaller of the position and its mirror image.
    fn canonical(&self, pos: &DobutsuPosition) -> DobutsuPosition {
        (*pos).min(pos.mirrored())
    }
}

impl TieredSymmetric for Dobutsu {
    /// Each child's tier and index from one pass over its board.
    fn canonical_child_tier_indices(
        &self,
        pos: &DobutsuPosition,
        out: &mut Vec<(game_core::Tier, u64)>,
        moves: &mut Vec<DobutsuMove>,
    ) {
        moves.clear();
        self.moves(pos, moves);
        for m in moves.iter() {
            out.push(self.locate(&self.canonical(&self.play(pos, m))));
        }
    }
}
