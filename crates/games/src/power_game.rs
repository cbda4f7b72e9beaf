//! PowerGame (TopCoder SRM 384): two piles, each turn removes a positive
//! square from *each* pile; whoever cannot move loses. The winner hurries,
//! the loser stalls.

use std::fmt;

use game_core::{Budget, Game, Indexed, Outcome};

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
        let side = self.max_pile.saturating_add(1);
        side.saturating_mul(side)
    }
    fn index(&self, &(a, b): &(u64, u64)) -> u64 {
        // Piles past `max_pile`, and any position of a game too large to
        // number in 64 bits, map outside 0..size (solvers report them).
        let side = self.max_pile.saturating_add(1);
        if a >= side || b >= side {
            return u64::MAX;
        }
        a.checked_mul(side)
            .and_then(|i| i.checked_add(b))
            .unwrap_or(u64::MAX)
    }
    fn position(&self, i: u64) -> Option<(u64, u64)> {
        let side = self.max_pile.saturating_add(1);
        (i < self.size()).then(|| (i / side, i % side))
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

/// Steps of work [`lengths`] takes for piles `0..=n`: two a square below
/// each pile (a read far back in the table), about (4/3)·n^1.5.
#[must_use]
pub fn lengths_work(n: u64) -> u64 {
    let n = n as f64;
    let steps = 4.0 / 3.0 * n * n.sqrt() + n + 1.0;
    if steps >= u64::MAX as f64 {
        u64::MAX
    } else {
        steps as u64
    }
}

/// The length of single-pile subtract-a-square under "win fast, lose slow"
/// for every pile `0..=n`: the remoteness of each pile.
///
/// A pile's length is even exactly when the player to move loses. Time
/// O(n·√n), memory 4 bytes a pile, checked against the memory really
/// available before it is taken; [`lengths_with`] sets a budget.
///
/// # Errors
/// [`Error::TooLarge`] if the table does not fit.
pub fn lengths(n: u64) -> Result<Vec<u32>, Error> {
    lengths_with(n, &Budget::available())
}

/// [`lengths`] within `budget`: its memory and [`lengths_work`] are checked
/// before starting.
///
/// # Errors
/// [`Error::TooLarge`] over either limit.
pub fn lengths_with(n: u64, budget: &Budget) -> Result<Vec<u32>, Error> {
    let what = format!(
        "the subtract-a-square lengths of piles 0..={}",
        game_core::grouped(n)
    );
    budget.check_work(&what, lengths_work(n))?;
    let mut len = budget.vec(&what, n.saturating_add(1), 0u32)?;
    for x in 1..len.len() {
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
        len[x] = if smallest_even != u32::MAX {
            smallest_even + 1
        } else {
            largest_odd + 1
        };
    }
    Ok(len)
}

/// Who wins PowerGame from `(size0, size1)` and after how many moves, by the
/// per-pile method: PowerGame is the *conjunctive compound* of two
/// subtract-a-square games, and the component that ends first — the one of
/// smaller remoteness — decides (Smith's theorem).
///
/// # Errors
/// [`Error::TooLarge`] if the table for the larger pile does not fit in
/// the memory really available; [`winner_with`] sets a budget.
///
/// ```
/// let v = games::power_game::winner(7, 13)?;
/// assert_eq!(v.to_string(), "Bob will win after 4 moves");
/// # Ok::<(), games::Error>(())
/// ```
pub fn winner(size0: u64, size1: u64) -> Result<Verdict, Error> {
    winner_with(size0, size1, &Budget::available())
}

/// [`winner`] within `budget` (see [`lengths_with`]).
///
/// # Errors
/// [`Error::TooLarge`] over either limit.
pub fn winner_with(size0: u64, size1: u64, budget: &Budget) -> Result<Verdict, Error> {
    let len = lengths_with(size0.max(size1), budget)?;
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
