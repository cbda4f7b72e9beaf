//! Subtraction games: one pile, a move removes a number of stones from a
//! fixed set (finite, or the perfect squares).

use game_core::period::{Period, PeriodFinder};
use game_core::{Game, Impartial, Indexed, Outcome};

use crate::Error;

/// Which amounts a move may subtract.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SubtractionSet {
    /// A finite set, sorted ascending, without 0 or repeats.
    Finite(Vec<u64>),
    /// The positive squares 1, 4, 9, … (subtract-a-square).
    Squares,
}

/// A subtraction game: a pile of `n` stones, a move removes `s` stones for
/// some `s` in the set with `s <= n`; whoever cannot move loses (wrap it in
/// [`game_core::Misere`] for misère play).
///
/// It is [`Indexed`] by the pile, for piles up to a limit (by default
/// 2²⁰; see [`Subtraction::with_limit`]).
///
/// ```
/// use games::Subtraction;
/// let g = Subtraction::finite([1, 3, 4])?;
/// assert_eq!(g.outcome_string(11, false)?, "LWLWWWWLWLWW");
/// assert_eq!(g.outcome_string(11, true)?, "WLWLWWWWLWLW");
/// # Ok::<(), games::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Subtraction {
    set: SubtractionSet,
    limit: u64,
}

/// The largest `upto` that [`Subtraction::outcomes`] accepts.
pub const MAX_OUTCOMES: u64 = 1 << 32;

impl Subtraction {
    /// The game with a finite subtraction set (any order, repeats ignored).
    ///
    /// # Errors
    /// [`Error::EmptySet`] for an empty set, [`Error::ZeroInSet`] if it holds 0.
    pub fn finite(set: impl IntoIterator<Item = u64>) -> Result<Self, Error> {
        let mut set: Vec<u64> = set.into_iter().collect();
        if set.is_empty() {
            return Err(Error::EmptySet);
        }
        if set.contains(&0) {
            return Err(Error::ZeroInSet);
        }
        set.sort_unstable();
        set.dedup();
        Ok(Subtraction {
            set: SubtractionSet::Finite(set),
            limit: 1 << 20,
        })
    }

    /// Subtract-a-square: a move removes a positive perfect square.
    #[must_use]
    pub fn squares() -> Self {
        Subtraction {
            set: SubtractionSet::Squares,
            limit: 1 << 20,
        }
    }

    /// The same game, [`Indexed`] for piles `0..=limit`.
    #[must_use]
    pub fn with_limit(mut self, limit: u64) -> Self {
        self.limit = limit;
        self
    }

    /// The subtraction set.
    #[must_use]
    pub fn set(&self) -> &SubtractionSet {
        &self.set
    }

    /// The largest amount a move can take, if the set is finite.
    #[must_use]
    pub fn max_take(&self) -> Option<u64> {
        match &self.set {
            SubtractionSet::Finite(s) => s.last().copied(),
            SubtractionSet::Squares => None,
        }
    }

    /// Calls `f` with each amount that can be taken from a pile of `n`.
    #[inline]
    pub fn for_each_take(&self, n: u64, mut f: impl FnMut(u64)) {
        match &self.set {
            SubtractionSet::Finite(s) => s.iter().take_while(|&&t| t <= n).for_each(|&t| f(t)),
            SubtractionSet::Squares => {
                let mut k = 1u64;
                while let Some(sq) = k.checked_mul(k).filter(|&sq| sq <= n) {
                    f(sq);
                    k += 1;
                }
            }
        }
    }

    /// Win (`true`) or loss for the player to move at each pile `0..=upto`,
    /// normal or misère play, computed bottom-up (O(`upto` · |set|)).
    ///
    /// # Errors
    /// [`Error::TooLarge`] if `upto` exceeds [`MAX_OUTCOMES`].
    pub fn outcomes(&self, upto: u64, misere: bool) -> Result<Vec<bool>, Error> {
        if upto > MAX_OUTCOMES {
            return Err(Error::TooLarge {
                what: "the table",
                size: upto,
                limit: MAX_OUTCOMES,
            });
        }
        let mut win: Vec<bool> = Vec::with_capacity(upto as usize + 1);
        for n in 0..=upto {
            let mut any_move = false;
            let mut w = false;
            self.for_each_take(n, |t| {
                any_move = true;
                w |= !win[(n - t) as usize];
            });
            // No move: lost in normal play, won in misère play.
            win.push(if any_move { w } else { misere });
        }
        Ok(win)
    }

    /// [`Subtraction::outcomes`] as a string of `W` and `L`, one a pile.
    ///
    /// # Errors
    /// As [`Subtraction::outcomes`].
    pub fn outcome_string(&self, upto: u64, misere: bool) -> Result<String, Error> {
        Ok(self
            .outcomes(upto, misere)?
            .into_iter()
            .map(|w| if w { 'W' } else { 'L' })
            .collect())
    }

    /// The proven minimal preperiod and period of the win/loss table (normal
    /// or misère), for a finite set: rows depend on the `max(S)` rows below.
    /// `None` for subtract-a-square, whose table has no such window.
    ///
    /// ```
    /// use games::Subtraction;
    /// let p = Subtraction::finite([1, 3, 4])?.outcome_period(false).unwrap();
    /// assert_eq!((p.preperiod, p.period), (0, 7));
    /// # Ok::<(), games::Error>(())
    /// ```
    #[must_use]
    pub fn outcome_period(&self, misere: bool) -> Option<Period> {
        let k = self.max_take()? as usize;
        let mut finder = PeriodFinder::<bool>::new(k);
        let mut n = 0u64;
        loop {
            let mut any_move = false;
            let mut w = false;
            let rows = finder.rows();
            self.for_each_take(n, |t| {
                any_move = true;
                w |= !rows[(n - t) as usize];
            });
            if let Some(p) = finder.push(if any_move { w } else { misere }) {
                return Some(p);
            }
            n += 1;
        }
    }
}

impl Game for Subtraction {
    type Position = u64;
    type Move = u64;

    fn moves(&self, n: &u64, out: &mut Vec<u64>) {
        self.for_each_take(*n, |t| out.push(t));
    }

    fn play(&self, n: &u64, t: &u64) -> u64 {
        n - t
    }
}

impl Impartial for Subtraction {}

impl Indexed for Subtraction {
    fn size(&self) -> u64 {
        self.limit.saturating_add(1)
    }
    fn index(&self, n: &u64) -> u64 {
        *n
    }
    fn position(&self, i: u64) -> Option<u64> {
        Some(i)
    }
}

/// Outcome letter for a table cell: `W` or `L` for the player to move.
#[must_use]
pub fn letter(o: Outcome) -> char {
    match o {
        Outcome::Win => 'W',
        Outcome::Lose => 'L',
        Outcome::Tie => 'T',
        Outcome::Draw => 'D',
    }
}
