//! Teeko (John Scarne, 1937): four men each on a 5 × 5 board.
//!
//! Black moves first. First the eight men are placed one at a time on empty
//! squares (black, red, black, …); then a move slides one of your men to an
//! adjacent empty square (8 directions). Four of your men in a straight line
//! (row, column or diagonal) or on the corners of a 2 × 2 square win at
//! once: in [`Game`] terms the position after such a move is over, lost for
//! the player to move. A game that repeats forever is a draw, so Teeko is
//! cyclic: solve it by retrograde analysis.
//!
//! [`Teeko`] is [`Tiered`](game_core::Tiered) as in GamesmanOne: tier `k`
//! (0..=7) holds the positions with `k` men placed, whose moves all lead
//! to tier `k + 1`; tier 8 is the moving phase (all eight men down, either
//! side to move), whose moves stay in it. It is also [`Indexed`](game_core::Indexed)
//! over the whole game (the tiers one after the other), [`Unmoves`](game_core::Unmoves)
//! and [`Symmetric`] under the 8 symmetries of the
//! square.
//!
//! Squares are named by file `a`–`e` and rank `1`–`5`; a position is
//! written as its 25 squares rank 1 first, each row from file a to e (`b`
//! black, `r` red, `.` empty), a space and the side to move (`b` or `r`);
//! a move as `c3` (a placement) or `c3d4` (a slide).
//!
//! ```
//! use game_core::{Game, Indexed};
//! use games::{Teeko, TeekoPosition};
//! let teeko = Teeko::new();
//! let start = TeekoPosition::START;
//! let pos = teeko.play(&start, &"c3".parse()?);
//! assert_eq!(pos.to_string(), "............b............ r");
//! // GamesmanOne's count of the nine tiers together.
//! assert_eq!(teeko.size(), 172_401_726);
//! # Ok::<(), games::Error>(())
//! ```

mod board;
mod index;
mod notation;
mod unmoves;

#[cfg(test)]
mod tests;

use std::fmt;

use game_core::{Game, Outcome, Symmetric, TieredSymmetric};

use crate::Error;
use board::{has_pattern, images, transform, FULL, NEIGHBOURS};

/// A side in Teeko.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TeekoColor {
    /// The first player.
    Black,
    /// The second player.
    Red,
}

impl TeekoColor {
    /// The other side.
    #[must_use]
    pub fn other(self) -> Self {
        match self {
            TeekoColor::Black => TeekoColor::Red,
            TeekoColor::Red => TeekoColor::Black,
        }
    }

    /// The side's name in messages: `black`, `red` (they showed the
    /// Debug form, `Black`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            TeekoColor::Black => "black",
            TeekoColor::Red => "red",
        }
    }
}

/// A Teeko position: where each side's men stand and who is to move.
///
/// Only positions some game can reach in the placement counts are built:
/// each side has at most four men, black has as many as red (black to
/// move) or one more (red to move) until all eight are down, and the player
/// to move does not already have four in a pattern (that game ended the
/// move before). Build one with [`TeekoPosition::new`] or by parsing its
/// text form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TeekoPosition {
    black: u32,
    red: u32,
    to_move: TeekoColor,
}

impl TeekoPosition {
    /// The empty board, black to place.
    pub const START: TeekoPosition = TeekoPosition {
        black: 0,
        red: 0,
        to_move: TeekoColor::Black,
    };

    /// The position with black men on the squares of the bit mask `black`
    /// (bit `5 · row + column`, row 0 = rank 1), red men on `red`, and
    /// `to_move` to play.
    ///
    /// # Errors
    /// [`Error::Core`] with an invalid position if a mask has bits past
    /// square 24, the masks overlap, a side has more than four men, the
    /// counts do not fit the side to move, or the side to move already has
    /// four in a pattern.
    pub fn new(black: u32, red: u32, to_move: TeekoColor) -> Result<Self, Error> {
        let invalid = |why: String| Err(game_core::Error::InvalidPosition(why).into());
        if (black | red) & !FULL != 0 {
            return invalid("a man stands off the 25 squares".into());
        }
        if black & red != 0 {
            return invalid("a square holds two men".into());
        }
        let (b, r) = (black.count_ones(), red.count_ones());
        if b > 4 || r > 4 {
            return invalid(format!(
                "{b} black and {r} red men: each side has only four"
            ));
        }
        let fits = match to_move {
            _ if b == 4 && r == 4 => true,
            TeekoColor::Black => b == r,
            TeekoColor::Red => b == r + 1,
        };
        if !fits {
            return invalid(format!(
                "{b} black and {r} red men with {} to place: black places first, the sides alternate",
                to_move.name()
            ));
        }
        let mover = if to_move == TeekoColor::Black {
            black
        } else {
            red
        };
        if has_pattern(mover) {
            return invalid(format!(
                "{} is to move but already has four in a pattern: the game ended the move before",
                to_move.name()
            ));
        }
        Ok(TeekoPosition {
            black,
            red,
            to_move,
        })
    }

    /// Black's men, a bit per square.
    #[must_use]
    pub fn black(&self) -> u32 {
        self.black
    }

    /// Red's men, a bit per square.
    #[must_use]
    pub fn red(&self) -> u32 {
        self.red
    }

    /// The side to move.
    #[must_use]
    pub fn to_move(&self) -> TeekoColor {
        self.to_move
    }

    /// The number of men on the board (the placement tier, 8 in the moving
    /// phase).
    #[must_use]
    pub fn men(&self) -> u32 {
        (self.black | self.red).count_ones()
    }

    /// The empty squares.
    #[must_use]
    pub fn empty(&self) -> u32 {
        FULL & !(self.black | self.red)
    }

    /// The men of the side to move.
    #[must_use]
    pub fn mover_men(&self) -> u32 {
        match self.to_move {
            TeekoColor::Black => self.black,
            TeekoColor::Red => self.red,
        }
    }

    /// The men of the side that moved last.
    #[must_use]
    pub fn opponent_men(&self) -> u32 {
        match self.to_move {
            TeekoColor::Black => self.red,
            TeekoColor::Red => self.black,
        }
    }

    /// The position with the men of the side to move set to `mover` and
    /// the other side's to `opponent`, `to_move` to play. No checks.
    pub(crate) fn from_sides(mover: u32, opponent: u32, to_move: TeekoColor) -> Self {
        let (black, red) = match to_move {
            TeekoColor::Black => (mover, opponent),
            TeekoColor::Red => (opponent, mover),
        };
        TeekoPosition {
            black,
            red,
            to_move,
        }
    }

    /// Whether some side has four in a pattern.
    fn has_pattern(&self) -> bool {
        has_pattern(self.black) || has_pattern(self.red)
    }
}

/// A Teeko move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TeekoMove {
    /// Place a man on the square (`5 · row + column`): written `c3`.
    Place(u8),
    /// Slide a man to an adjacent empty square: written `c3d4`.
    Slide {
        /// The square it leaves.
        from: u8,
        /// The square it goes to.
        to: u8,
    },
}

/// Teeko: see the [module documentation](self).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Teeko;

impl Teeko {
    /// The game.
    #[must_use]
    pub fn new() -> Self {
        Teeko
    }

    /// The legal move written `text` at `pos`.
    ///
    /// # Errors
    /// [`Error::Parse`] if `text` is not a move's notation,
    /// [`Error::Core`] with an illegal move if it is not legal at `pos`.
    pub fn legal_move(&self, pos: &TeekoPosition, text: &str) -> Result<TeekoMove, Error> {
        let mv: TeekoMove = text.parse()?;
        crate::line::legal(self, pos, mv, || format!("{mv} at {pos}"))
    }

    /// The position reached from the start by the moves in `line`,
    /// separated by white space (`c3 b2 d4 …`).
    ///
    /// # Errors
    /// As [`Teeko::legal_move`], for the first move that fails; an
    /// illegal move is named by the moves before it, with the legal ones.
    pub fn play_line(&self, line: &str) -> Result<TeekoPosition, Error> {
        let mut pos = TeekoPosition::START;
        for (k, word) in line.split_whitespace().enumerate() {
            let mv = self.legal_move(&pos, word).map_err(|e| {
                crate::line::in_line(e, self, &pos, line, word, k + 1, ToString::to_string)
            })?;
            pos = self.play(&pos, &mv);
        }
        Ok(pos)
    }
}

/// Calls `f` with each set bit of `mask`, lowest first.
#[inline]
fn for_bits(mut mask: u32, mut f: impl FnMut(u8)) {
    while mask != 0 {
        f(mask.trailing_zeros() as u8);
        mask &= mask - 1;
    }
}

impl Game for Teeko {
    type Position = TeekoPosition;
    type Move = TeekoMove;

    fn moves(&self, pos: &TeekoPosition, out: &mut Vec<TeekoMove>) {
        let empty = pos.empty();
        if pos.men() < 8 {
            for_bits(empty, |s| out.push(TeekoMove::Place(s)));
        } else {
            for_bits(pos.mover_men(), |from| {
                for_bits(NEIGHBOURS[usize::from(from)] & empty, |to| {
                    out.push(TeekoMove::Slide { from, to });
                });
            });
        }
    }

    fn play(&self, pos: &TeekoPosition, mv: &TeekoMove) -> TeekoPosition {
        let change = match *mv {
            TeekoMove::Place(s) => 1u32 << s,
            TeekoMove::Slide { from, to } => (1u32 << from) | (1u32 << to),
        };
        TeekoPosition::from_sides(
            pos.opponent_men(),
            pos.mover_men() ^ change,
            pos.to_move.other(),
        )
    }

    /// Lost for the player to move when four men of a side stand in a
    /// pattern. In play only the side that just moved can have one; a
    /// position where the player to move has one cannot be built, and is
    /// scored lost as GamesmanOne does.
    fn outcome(&self, pos: &TeekoPosition) -> Option<Outcome> {
        pos.has_pattern().then_some(Outcome::Lose)
    }
}

impl Symmetric for Teeko {
    fn symmetric(&self, pos: &TeekoPosition, out: &mut Vec<TeekoPosition>) {
        let (b, r) = (images(pos.black), images(pos.red));
        out.extend((0..8).map(|t| TeekoPosition {
            black: b[t],
            red: r[t],
            to_move: pos.to_move,
        }));
    }

    /// The image with the smallest (black, red) masks: the 8 images of
    /// black's men first, red's only under the symmetries that give the
    /// smallest black image.
    #[inline]
    fn canonical(&self, pos: &TeekoPosition) -> TeekoPosition {
        let b = images(pos.black);
        let black = b.iter().copied().min().unwrap_or(pos.black);
        let mut red = u32::MAX;
        for (t, &img) in b.iter().enumerate() {
            if img == black {
                red = red.min(transform(t, pos.red));
            }
        }
        TeekoPosition {
            black,
            red,
            to_move: pos.to_move,
        }
    }
}

impl TieredSymmetric for Teeko {
    fn visit_canonical_tier(
        &self,
        tier: game_core::Tier,
        range: std::ops::Range<u64>,
        f: &mut dyn FnMut(u64, TeekoPosition),
    ) {
        Teeko::visit_canonical_tier(self, tier, range, f);
    }

    fn canonical_child_tier_indices(
        &self,
        pos: &TeekoPosition,
        out: &mut Vec<(game_core::Tier, u64)>,
        _moves: &mut Vec<TeekoMove>,
    ) {
        Teeko::canonical_child_tier_indices(self, pos, out);
    }
}

impl Teeko {
    /// Whether `pos` is its own [`Symmetric::canonical`] form, without
    /// building it: no image of black's men is smaller, and under the
    /// symmetries that fix them no image of red's men is smaller.
    #[must_use]
    #[inline]
    pub fn is_canonical(&self, pos: &TeekoPosition) -> bool {
        let b = images(pos.black);
        if b.iter().any(|&img| img < pos.black) {
            return false;
        }
        (1..8).all(|t| b[t] != pos.black || transform(t, pos.red) >= pos.red)
    }

    /// The number of distinct positions symmetric to `pos` (itself
    /// included): [`game_core::orbit_size`] without a buffer.
    #[must_use]
    pub fn orbit_size(&self, pos: &TeekoPosition) -> u64 {
        let (b, r) = (images(pos.black), images(pos.red));
        // The orbit's size is 8 over the size of the stabiliser.
        let fixed = (0..8)
            .filter(|&t| b[t] == pos.black && r[t] == pos.red)
            .count();
        (8 / fixed) as u64
    }
}

impl fmt::Display for TeekoColor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TeekoColor::Black => "b",
            TeekoColor::Red => "r",
        })
    }
}
