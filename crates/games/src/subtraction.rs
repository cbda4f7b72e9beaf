//! Subtraction games: one pile, a move removes a number of stones from a
//! fixed set (finite, or the perfect squares).

use game_core::period::{Period, PeriodFinder};
use game_core::{Budget, Game, Impartial, Indexed, Outcome};

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

impl Subtraction {
    /// The game with a finite subtraction set (any order, repeats ignored).
    /// The elements are read one by one, their memory checked against the
    /// memory really available as it grows; [`Subtraction::finite_with`]
    /// sets a budget.
    ///
    /// # Errors
    /// [`Error::EmptySet`] for an empty set, [`Error::ZeroInSet`] if it holds 0,
    /// [`Error::TooLarge`] if its distinct elements do not fit.
    pub fn finite(set: impl IntoIterator<Item = u64>) -> Result<Self, Error> {
        Self::finite_with(set, &Budget::available())
    }

    /// [`Subtraction::finite`] within `budget`'s memory. Repeats are
    /// dropped as the elements are read (whenever the buffer fills), so
    /// only distinct elements count; the buffer doubles only when they
    /// fill half of it, and each doubling is checked against the budget
    /// first (both copies live while it moves) and taken fallibly.
    ///
    /// # Errors
    /// As [`Subtraction::finite`]; [`Error::ZeroInSet`] comes before
    /// [`Error::TooLarge`] when a 0 was read before the refusal.
    ///
    /// ```
    /// use game_core::Budget;
    /// use games::{Error, Subtraction};
    /// let budget = Budget::unlimited().with_memory(1 << 20);
    /// let err = Subtraction::finite_with(1..u64::MAX, &budget).unwrap_err();
    /// assert!(matches!(err, Error::TooLarge(_)), "{err}");
    /// // A million repeats of two elements hold two.
    /// let g = Subtraction::finite_with(std::iter::repeat(3).take(1 << 20).chain([1]), &budget)?;
    /// assert_eq!(g.max_take(), Some(3));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn finite_with(set: impl IntoIterator<Item = u64>, budget: &Budget) -> Result<Self, Error> {
        let mut elements: Vec<u64> = Vec::new();
        let mut zero = false;
        for s in set {
            if s == 0 {
                zero = true;
                continue;
            }
            if elements.len() == elements.capacity() {
                elements.sort_unstable();
                elements.dedup();
                let (len, cap) = (elements.len(), elements.capacity());
                if cap - len < cap / 2 || cap == 0 {
                    let target = (cap as u64).saturating_mul(2).max(16);
                    let bytes = target.saturating_add(cap as u64).saturating_mul(8);
                    let refuse = || {
                        if zero {
                            return Error::ZeroInSet;
                        }
                        budget
                            .memory_error(
                                format!("a subtraction set of more than {len} distinct elements"),
                                bytes,
                            )
                            .into()
                    };
                    if bytes > budget.memory() {
                        return Err(refuse());
                    }
                    let more = usize::try_from(target).unwrap_or(usize::MAX) - len;
                    if elements.try_reserve_exact(more).is_err() {
                        return Err(refuse());
                    }
                }
            }
            elements.push(s);
        }
        if zero {
            return Err(Error::ZeroInSet);
        }
        if elements.is_empty() {
            return Err(Error::EmptySet);
        }
        elements.sort_unstable();
        elements.dedup();
        elements.shrink_to_fit();
        Ok(Subtraction {
            set: SubtractionSet::Finite(elements),
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

    /// Steps of work [`Subtraction::outcomes`] takes for `upto`: one a
    /// take a pile (|S| for a finite set, about √n for the squares).
    #[must_use]
    pub fn outcomes_work(&self, upto: u64) -> u64 {
        let n = upto.saturating_add(1);
        match &self.set {
            SubtractionSet::Finite(s) => n.saturating_mul(s.len() as u64 + 1),
            SubtractionSet::Squares => {
                let steps = 2.0 / 3.0 * (n as f64).powf(1.5) + n as f64;
                if steps >= u64::MAX as f64 {
                    u64::MAX
                } else {
                    steps as u64
                }
            }
        }
    }

    /// Win (`true`) or loss for the player to move at each pile `0..=upto`,
    /// normal or misère play, computed bottom-up (O(`upto` · |set|)). The
    /// table (a byte a pile) is checked against the memory really available
    /// before it is taken; [`Subtraction::outcomes_with`] sets a budget.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if the table does not fit.
    pub fn outcomes(&self, upto: u64, misere: bool) -> Result<Vec<bool>, Error> {
        self.outcomes_with(upto, misere, &Budget::available())
    }

    /// [`Subtraction::outcomes`] within `budget`: its memory and
    /// [`Subtraction::outcomes_work`] are checked before starting.
    ///
    /// # Errors
    /// [`Error::TooLarge`] over either limit.
    pub fn outcomes_with(
        &self,
        upto: u64,
        misere: bool,
        budget: &Budget,
    ) -> Result<Vec<bool>, Error> {
        let what = format!("the outcomes of piles 0..={}", game_core::grouped(upto));
        budget.check_work(&what, self.outcomes_work(upto))?;
        let mut win = budget.vec(&what, upto.saturating_add(1), false)?;
        for n in 0..win.len() {
            let mut any_move = false;
            let mut w = false;
            self.for_each_take(n as u64, |t| {
                any_move = true;
                w |= !win[n - t as usize];
            });
            // No move: lost in normal play, won in misère play.
            win[n] = if any_move { w } else { misere };
        }
        Ok(win)
    }

    /// [`Subtraction::outcomes`] as a string of `W` and `L`, one a pile.
    ///
    /// # Errors
    /// As [`Subtraction::outcomes`], counting the string too.
    pub fn outcome_string(&self, upto: u64, misere: bool) -> Result<String, Error> {
        let budget = Budget::available();
        budget.check_memory(
            &format!(
                "the outcomes of piles 0..={} and their text",
                game_core::grouped(upto)
            ),
            upto.saturating_add(1).saturating_mul(2),
        )?;
        Ok(self
            .outcomes_with(upto, misere, &budget)?
            .into_iter()
            .map(|w| if w { 'W' } else { 'L' })
            .collect())
    }

    /// The proven minimal preperiod and period of the win/loss table (normal
    /// or misère), for a finite set: rows depend on the `max(S)` rows below.
    /// `None` for subtract-a-square, whose table has no such window. The
    /// search's memory is checked as it grows against the memory really
    /// available; [`Subtraction::outcome_period_with`] sets a budget.
    ///
    /// # Errors
    /// [`Error::TooLarge`] if the search would outgrow the memory (a huge
    /// element needs a window of that many rows).
    ///
    /// ```
    /// use games::Subtraction;
    /// let p = Subtraction::finite([1, 3, 4])?.outcome_period(false)?.unwrap();
    /// assert_eq!((p.preperiod, p.period), (0, 7));
    /// assert!(Subtraction::finite([1 << 50])?.outcome_period(false).is_err());
    /// # Ok::<(), games::Error>(())
    /// ```
    pub fn outcome_period(&self, misere: bool) -> Result<Option<Period>, Error> {
        self.outcome_period_with(misere, &Budget::available())
    }

    /// [`Subtraction::outcome_period`] within `budget`: refused at once if
    /// the first window cannot fit, and when the work (one step a take a
    /// row) runs out before a period is proven.
    ///
    /// # Errors
    /// [`Error::TooLarge`] over either limit.
    pub fn outcome_period_with(
        &self,
        misere: bool,
        budget: &Budget,
    ) -> Result<Option<Period>, Error> {
        let Some(k) = self.max_take() else {
            return Ok(None);
        };
        let what = || format!("a period search for a subtraction set with max(S) = {k}");
        budget.check_memory(
            &what(),
            PeriodFinder::<bool>::bytes_for(k.saturating_add(1)),
        )?;
        let window = usize::try_from(k).map_err(|_| budget.memory_error(what(), u64::MAX))?;
        let mut finder = PeriodFinder::<bool>::new(window);
        let mut meter = budget.meter();
        // A take a set element, and a probe into the finder's hash table.
        let per_row = match &self.set {
            SubtractionSet::Finite(s) => s.len() as u64 + 50,
            SubtractionSet::Squares => 50,
        };
        let mut n = 0u64;
        loop {
            if !meter.spend(per_row) {
                return Err(budget
                    .spent_error(format!("{} (no period up to row {n})", what()))
                    .into());
            }
            let mut any_move = false;
            let mut w = false;
            let rows = finder.rows();
            self.for_each_take(n, |t| {
                any_move = true;
                w |= !rows[(n - t) as usize];
            });
            if let Some(p) = finder.push_within(if any_move { w } else { misere }, budget)? {
                return Ok(Some(p));
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
        (i < self.size()).then_some(i)
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
