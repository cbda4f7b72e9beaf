//! Text forms of Teeko positions and moves.

use std::fmt;
use std::str::FromStr;

use super::board::{parse_square, square_name, SQUARES};
use super::{TeekoColor, TeekoMove, TeekoPosition};
use crate::Error;

impl fmt::Display for TeekoPosition {
    /// The 25 squares, rank 1 first and each rank from file a to e (`b`,
    /// `r` or `.`), a space, and the side to move (`b` or `r`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(27);
        for sq in 0..SQUARES {
            s.push(if self.black & (1 << sq) != 0 {
                'b'
            } else if self.red & (1 << sq) != 0 {
                'r'
            } else {
                '.'
            });
        }
        write!(f, "{s} {}", self.to_move)
    }
}

impl FromStr for TeekoPosition {
    type Err = Error;

    /// Reads the form [`Display`](fmt::Display) writes; `/` between ranks
    /// is allowed and ignored.
    fn from_str(text: &str) -> Result<Self, Error> {
        let fail = |reason: String| Error::Parse {
            what: "Teeko position",
            input: text.to_string(),
            reason,
        };
        let mut words = text.split_whitespace();
        let (Some(board), Some(side), None) = (words.next(), words.next(), words.next()) else {
            return Err(fail(
                "expected the 25 squares, a space and the side to move (b or r)".into(),
            ));
        };
        let to_move = match side {
            "b" | "B" => TeekoColor::Black,
            "r" | "R" => TeekoColor::Red,
            other => {
                return Err(fail(format!(
                    "the side to move is b or r, not {:?}",
                    game_core::echo(other)
                )))
            }
        };
        let (mut black, mut red, mut n) = (0u32, 0u32, 0u32);
        for c in board.chars().filter(|&c| c != '/') {
            if n == SQUARES {
                return Err(fail("more than 25 squares".into()));
            }
            match c {
                'b' | 'B' => black |= 1 << n,
                'r' | 'R' => red |= 1 << n,
                '.' | '-' => {}
                other => return Err(fail(format!("a square is b, r or '.', not {other:?}"))),
            }
            n += 1;
        }
        if n != SQUARES {
            return Err(fail(format!("{n} squares instead of 25")));
        }
        TeekoPosition::new(black, red, to_move)
    }
}

impl fmt::Display for TeekoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TeekoMove::Place(s) => f.write_str(&square_name(s)),
            TeekoMove::Slide { from, to } => {
                write!(f, "{}{}", square_name(from), square_name(to))
            }
        }
    }
}

impl FromStr for TeekoMove {
    type Err = Error;

    /// `c3` (a placement) or `c3d4` (a slide between adjacent squares).
    fn from_str(text: &str) -> Result<Self, Error> {
        let fail = |reason: &str| Error::Parse {
            what: "Teeko move",
            input: text.to_string(),
            reason: reason.to_string(),
        };
        let b = text.trim().as_bytes();
        let square = |i: usize| {
            parse_square(b[i], b[i + 1])
                .ok_or_else(|| fail("a square is a file a-e and a rank 1-5"))
        };
        match b.len() {
            2 => Ok(TeekoMove::Place(square(0)?)),
            4 => {
                let (from, to) = (square(0)?, square(2)?);
                if super::board::NEIGHBOURS[usize::from(from)] & (1 << to) == 0 {
                    return Err(fail("a slide goes to an adjacent square"));
                }
                Ok(TeekoMove::Slide { from, to })
            }
            _ => Err(fail(
                "expected a square (c3) to place or two adjacent squares (c3d4) to slide",
            )),
        }
    }
}
