//! Pieces, the one-byte cells of the board, and how each piece steps.
//!
//! Squares are numbered `3 · row + column`: row 0 is rank 1, column 0 is
//! file a. Positions are always seen by the player to move, whose home is
//! rank 4 (row 3) and whose pieces go forward towards rank 1 (row 0); the
//! opponent's pieces go the other way.

/// A kind of piece.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DobutsuPiece {
    /// The lion (king): one step in any of the 8 directions.
    Lion,
    /// The giraffe: one step orthogonally.
    Giraffe,
    /// The elephant: one step diagonally.
    Elephant,
    /// The chick: one step forward; it becomes a hen on the far rank.
    Chick,
    /// The hen: one step in any direction but diagonally backwards.
    Hen,
}

impl DobutsuPiece {
    /// The pieces that can be in hand, in hand order.
    pub const IN_HAND: [DobutsuPiece; 3] = [
        DobutsuPiece::Giraffe,
        DobutsuPiece::Elephant,
        DobutsuPiece::Chick,
    ];

    /// The piece's letter: `L`, `G`, `E`, `C` or `H`.
    #[must_use]
    pub fn letter(self) -> char {
        match self {
            DobutsuPiece::Lion => 'L',
            DobutsuPiece::Giraffe => 'G',
            DobutsuPiece::Elephant => 'E',
            DobutsuPiece::Chick => 'C',
            DobutsuPiece::Hen => 'H',
        }
    }

    /// The piece with letter `c` (either case).
    #[must_use]
    pub fn from_letter(c: char) -> Option<Self> {
        Some(match c.to_ascii_uppercase() {
            'L' => DobutsuPiece::Lion,
            'G' => DobutsuPiece::Giraffe,
            'E' => DobutsuPiece::Elephant,
            'C' => DobutsuPiece::Chick,
            'H' => DobutsuPiece::Hen,
            _ => return None,
        })
    }

    /// The cell code of this piece for the player to move.
    pub(crate) const fn code(self) -> u8 {
        match self {
            DobutsuPiece::Lion => LION,
            DobutsuPiece::Giraffe => GIRAFFE,
            DobutsuPiece::Elephant => ELEPHANT,
            DobutsuPiece::Chick => CHICK,
            DobutsuPiece::Hen => HEN,
        }
    }

    /// The piece of a (non-empty) cell code.
    pub(crate) fn of_code(code: u8) -> Self {
        match code & KIND {
            LION => DobutsuPiece::Lion,
            GIRAFFE => DobutsuPiece::Giraffe,
            ELEPHANT => DobutsuPiece::Elephant,
            CHICK => DobutsuPiece::Chick,
            _ => DobutsuPiece::Hen,
        }
    }

    /// The slot in a hand (0 giraffes, 1 elephants, 2 chicks) of the piece
    /// this one becomes when captured; `None` for the lion.
    pub(crate) fn hand_slot(self) -> Option<usize> {
        match self {
            DobutsuPiece::Lion => None,
            DobutsuPiece::Giraffe => Some(0),
            DobutsuPiece::Elephant => Some(1),
            DobutsuPiece::Chick | DobutsuPiece::Hen => Some(2),
        }
    }
}

/// Squares on the board.
pub(crate) const SQUARES: usize = 12;
/// An empty cell.
pub(crate) const EMPTY: u8 = 0;
/// Cell codes of the mover's pieces; the opponent's add [`THEIRS`].
pub(crate) const LION: u8 = 1;
pub(crate) const GIRAFFE: u8 = 2;
pub(crate) const ELEPHANT: u8 = 3;
pub(crate) const CHICK: u8 = 4;
pub(crate) const HEN: u8 = 5;
/// The bit that marks the opponent's pieces.
pub(crate) const THEIRS: u8 = 8;
/// The bits of the kind.
pub(crate) const KIND: u8 = 7;
/// The cell codes that can be dropped, by hand slot.
pub(crate) const HAND_CODES: [u8; 3] = [GIRAFFE, ELEPHANT, CHICK];

/// The home rank of the player to move (rank 4).
pub(crate) const MY_HOME: u16 = 0b1110_0000_0000;
/// The far rank of the player to move (rank 1), the opponent's home.
pub(crate) const FAR: u16 = 0b111;

/// `STEPS[code][s]`: the squares the mover's piece `code` on `s` steps to
/// (whatever stands there).
pub(crate) const STEPS: [[u16; 12]; 6] = steps(false);
/// `THEIR_STEPS[code][s]`: the same for the opponent's piece of kind `code`
/// (forward is towards rank 4 for them).
pub(crate) const THEIR_STEPS: [[u16; 12]; 6] = steps(true);
/// `THEIR_SOURCES[code][s]`: the squares from which the opponent's piece of
/// kind `code` steps to `s`.
pub(crate) const THEIR_SOURCES: [[u16; 12]; 6] = sources(THEIR_STEPS);

/// Directions (row, column) of the mover's pieces; row −1 is forward.
const fn directions(code: u8) -> &'static [(i32, i32)] {
    match code {
        LION => &[
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ],
        GIRAFFE => &[(-1, 0), (0, -1), (0, 1), (1, 0)],
        ELEPHANT => &[(-1, -1), (-1, 1), (1, -1), (1, 1)],
        CHICK => &[(-1, 0)],
        HEN => &[(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)],
        _ => &[],
    }
}

const fn steps(theirs: bool) -> [[u16; 12]; 6] {
    let mut out = [[0u16; 12]; 6];
    let mut code = 1;
    while code <= 5 {
        let dirs = directions(code as u8);
        let mut s = 0;
        while s < 12 {
            let (r, c) = ((s / 3) as i32, (s % 3) as i32);
            let mut i = 0;
            while i < dirs.len() {
                let (dr, dc) = dirs[i];
                let (dr, dc) = if theirs { (-dr, -dc) } else { (dr, dc) };
                let (nr, nc) = (r + dr, c + dc);
                if nr >= 0 && nr < 4 && nc >= 0 && nc < 3 {
                    out[code][s] |= 1 << (nr * 3 + nc);
                }
                i += 1;
            }
            s += 1;
        }
        code += 1;
    }
    out
}

const fn sources(steps: [[u16; 12]; 6]) -> [[u16; 12]; 6] {
    let mut out = [[0u16; 12]; 6];
    let mut code = 1;
    while code <= 5 {
        let mut t = 0;
        while t < 12 {
            let mut s = 0;
            while s < 12 {
                if steps[code][t] & (1 << s) != 0 {
                    out[code][s] |= 1 << t;
                }
                s += 1;
            }
            t += 1;
        }
        code += 1;
    }
    out
}

/// Calls `f` with each set bit of `mask`, lowest first.
#[inline]
pub(crate) fn for_bits(mut mask: u16, mut f: impl FnMut(usize)) {
    while mask != 0 {
        f(mask.trailing_zeros() as usize);
        mask &= mask - 1;
    }
}

/// The name of square `s` (`b3`).
pub(crate) fn square_name(s: usize) -> String {
    format!("{}{}", char::from(b'a' + (s % 3) as u8), s / 3 + 1)
}

/// The square named by two bytes (`b3`), if any.
pub(crate) fn parse_square(file: u8, rank: u8) -> Option<usize> {
    let f = file.to_ascii_lowercase().checked_sub(b'a')?;
    let r = rank.checked_sub(b'1')?;
    (f < 3 && r < 4).then_some(usize::from(r) * 3 + usize::from(f))
}
