//! PowerGame (TopCoder SRM 384): two piles, each turn removes a positive
//! square from *each* pile; whoever cannot move loses. The winner hurries,
//! the loser stalls.

use std::fmt;

use game_core::{Game, Indexed, Outcome};

use crate::Error;

/// PowerGame as a two-pile [`Game`]: a position is `(pile0, pile1)`, a move
/// `(i², j²)` removes `i²` from the first pile and `j²` from the second.
///
/// It is [`Indexed`] for piles up to `max_pile` each, so
/// [`solver_dp::solve_indexed`] solves every pair at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PowerGame {
    max_pile: u64,
}

impl PowerGame {
    /// PowerGame with piles of at most `max_pile` sticks (for the index).
    #[must_use]
    pub fn new(max_pile: u64) -> Self {
        PowerGame { max_pile }
    }
}

fn squares_upto(n: u64) -> impl Iterator<Item = u64> {
    (1u64..)
        .map(|k| k.saturating_mul(k))
        .take_while(move |&s| s <= n)
}

impl Game for PowerGame {
    type Position = (u64, u64);
    type Move = (u64, u64);

    fn moves(&self, &(a, b): &(u64, u64), out: &mut Vec<(u64, u64)>) {
        for i in squares_upto(a) {
            out.extend(squares_upto(b).map(|j| (i, j)));
        }
    }

    fn play(&self, &(a, b): &(u64, u64), &(i, j): &(u64, u64)) -> (u64, u64) {
        (a - i, b - j)
    }
}

impl Indexed for PowerGame {
    fn size(&self) -> u64 {
        (self.max_pile + 1).saturating_mul(self.max_pile + 1)
    }
    fn index(&self, &(a, b): &(u64, u64)) -> u64 {
        a * (self.max_pile + 1) + b
    }
    fn position(&self, i: u64) -> Option<(u64, u64)> {
        Some((i / (self.max_pile + 1), i % (self.max_pile + 1)))
    }
}

/// The result of PowerGame: who wins and after how many moves in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// `true` if Alan (who moves first) wins.
    pub alan_wins: bool,
    /// The total number of turns taken by both players.
    pub moves: u64,
}

impl Verdict {
    /// `"Alan"` or `"Bob"`.
    #[must_use]
    pub fn winner(&self) -> &'static str {
        if self.alan_wins {
            "Alan"
        } else {
            "Bob"
        }
    }
}

impl fmt::Display for Verdict {
    /// The problem's sentence: `Alan will win after 1 moves`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} will win after {} moves", self.winner(), self.moves)
    }
}

/// The largest pile [`lengths`] and [`winner`] accept.
pub const MAX_PILE: u64 = 1 << 27;

/// The length of single-pile subtract-a-square under "win fast, lose slow"
/// for every pile `0..=n`: the remoteness of each pile.
///
/// A pile's length is even exactly when the player to move loses. Time
/// O(n·√n), memory 4 bytes a pile.
///
/// # Errors
/// [`Error::TooLarge`] if `n` exceeds [`MAX_PILE`].
pub fn lengths(n: u64) -> Result<Vec<u32>, Error> {
    if n > MAX_PILE {
        return Err(Error::TooLarge {
            what: "pile",
            size: n,
            limit: MAX_PILE,
        });
    }
    let mut len: Vec<u32> = Vec::with_capacity(n as usize + 1);
    len.push(0);
    for x in 1..=n as usize {
        let mut smallest_even = u32::MAX;
        let mut largest_odd = 0u32;
        let mut k = 1usize;
        while k * k <= x {
            let l = len[x - k * k];
            if l & 1 == 0 {
                smallest_even = smallest_even.min(l);
            } else {
                largest_odd = largest_odd.max(l);
            }
            k += 1;
        }
        len.push(if smallest_even != u32::MAX {
            smallest_even + 1
        } else {
            largest_odd + 1
        });
    }
    Ok(len)
}

/// Who wins PowerGame from `(size0, size1)` and after how many moves, by the
/// per-pile method: PowerGame is the *conjunctive compound* of two
/// subtract-a-square games, and the component that ends first — the one of
/// smaller remoteness — decides (Smith's theorem).
///
/// # Errors
/// [`Error::TooLarge`] if a pile exceeds [`MAX_PILE`].
///
/// ```
/// let v = games::power_game::winner(7, 13)?;
/// assert_eq!(v.to_string(), "Bob will win after 4 moves");
/// # Ok::<(), games::Error>(())
/// ```
pub fn winner(size0: u64, size1: u64) -> Result<Verdict, Error> {
    let len = lengths(size0.max(size1))?;
    let moves = u64::from(len[size0 as usize].min(len[size1 as usize]));
    Ok(Verdict {
        alan_wins: moves % 2 == 1,
        moves,
    })
}

/// The verdict for Alan from a solved two-pile value.
#[must_use]
pub fn verdict_of(value: game_core::Value) -> Verdict {
    Verdict {
        alan_wins: value.outcome() == Outcome::Win,
        moves: u64::from(value.remoteness().unwrap_or(0)),
    }
}
