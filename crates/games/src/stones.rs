//! Stones: the parity game of *The Perl Journal* #7 (1997).
//!
//! Two players sit opposite an odd number of stones and take turns taking
//! between 1 and `max_take` of them. When the pile is gone, whoever holds an
//! odd number of stones wins. Only parities matter, so a position is the
//! pile, whose turn it is, and the parity of *my* stones (the other player's
//! parity follows, the total being odd).

use game_core::period::{Period, PeriodFinder};
use game_core::{Budget, Game, Outcome};

use crate::Error;

/// Whose turn it is in [`Stones`]: the program's (`Me`) or the opponent's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The player we solve for ("me" in the seed module).
    Me,
    /// The opponent ("him").
    Him,
}

impl Player {
    /// The other player.
    #[must_use]
    pub const fn other(self) -> Player {
        match self {
            Player::Me => Player::Him,
            Player::Him => Player::Me,
        }
    }
}

/// A position of [`Stones`]: `(pile, turn, parity of my stones)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StonesPosition {
    /// Stones left in the pile.
    pub pile: u64,
    /// Whose turn it is.
    pub turn: Player,
    /// Whether I hold an odd number of stones.
    pub mine_odd: bool,
}

/// The Stones game with a maximum take.
///
/// ```
/// use games::{Stones, StonesPosition, Player};
/// use game_core::Outcome;
/// let g = Stones::new(3)?;
/// let start = StonesPosition { pile: 7, turn: Player::Me, mine_odd: false };
/// let sol = solver_dp::solve(&g, start)?;
/// // With 7 stones and takes of 1..=3, the first player wins.
/// assert_eq!(sol.value(&start).unwrap().outcome(), Outcome::Win);
/// # Ok::<(), games::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Stones {
    max_take: u64,
}

impl Stones {
    /// Stones where each turn takes `1..=max_take` stones.
    ///
    /// # Errors
    /// [`Error::ZeroMaxTake`] if `max_take == 0`.
    pub fn new(max_take: u64) -> Result<Self, Error> {
        if max_take == 0 {
            return Err(Error::ZeroMaxTake);
        }
        Ok(Stones { max_take })
    }

    /// The largest number of stones one turn may take.
    #[must_use]
    pub fn max_take(&self) -> u64 {
        self.max_take
    }
}

impl Game for Stones {
    type Position = StonesPosition;
    type Move = u64;

    fn moves(&self, pos: &StonesPosition, out: &mut Vec<u64>) {
        out.extend(1..=self.max_take.min(pos.pile));
    }

    fn play(&self, pos: &StonesPosition, take: &u64) -> StonesPosition {
        StonesPosition {
            pile: pos.pile - take,
            turn: pos.turn.other(),
            mine_odd: pos.mine_odd ^ (pos.turn == Player::Me && take & 1 == 1),
        }
    }

    fn outcome(&self, pos: &StonesPosition) -> Option<Outcome> {
        if pos.pile > 0 {
            return None;
        }
        // The total is odd, so exactly one player holds an odd number.
        let mover_odd = match pos.turn {
            Player::Me => pos.mine_odd,
            Player::Him => !pos.mine_odd,
        };
        Some(if mover_odd {
            Outcome::Win
        } else {
            Outcome::Lose
        })
    }
}

/// Steps of work a row of the [`StonesTable`] proof costs, about (a probe
/// into a hash table that outgrows the caches).
const STEPS_PER_ROW: u64 = 200;

/// Bit of a table row: whether *I* win at `(pile, turn, mine_odd)`.
const fn bit(turn: Player, mine_odd: bool) -> u8 {
    1 << ((turn as u8) * 2 + mine_odd as u8)
}

/// The table of winners of [`Stones`], row by row, with its proven period.
///
/// Row `p` holds four bits: whether I win at `(p, turn, mine_odd)` for the
/// two turns and two parities. Row `p >= max_take` depends only on the
/// `max_take` rows below it, so the table is eventually periodic; rows are
/// computed in O(1) each with sliding-window counts, and the period is
/// proven by [`PeriodFinder`] (a window of `max_take` rows repeats). Any
/// pile up to `u64::MAX` is then answered through the period.
///
/// ```
/// use games::StonesTable;
/// let t = StonesTable::new(3)?;
/// assert_eq!((t.period().preperiod, t.period().period), (0, 8));
/// // The seed module's answer: the largest winning take, else 1.
/// assert_eq!(t.take(false, 7), 2);
/// assert_eq!(t.take(false, 1_000_000_000_000_007), t.take(false, 7));
/// # Ok::<(), games::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct StonesTable {
    max_take: u64,
    rows: Vec<u8>,
    period: Period,
}

/// Rows a [`StonesTable`] proof is expected to see: the tables seen so far
/// need about 2·`max_take` rows (the proof keeps one byte and one hash-table
/// entry, about 20 bytes, for each row until the period shows).
#[must_use]
pub fn expected_rows(max_take: u64) -> u64 {
    max_take.saturating_mul(2).saturating_add(2)
}

impl StonesTable {
    /// Builds the table for `max_take` until its period is proven.
    ///
    /// Time and memory O(preperiod + period + `max_take`); the memory is
    /// checked against the memory really available before the search
    /// starts ([`expected_rows`]) and as it grows. [`StonesTable::new_with`]
    /// sets a budget.
    ///
    /// # Errors
    /// [`Error::ZeroMaxTake`] if `max_take == 0`; [`Error::TooLarge`] if the
    /// proof would not fit.
    pub fn new(max_take: u64) -> Result<Self, Error> {
        Self::new_with(max_take, &Budget::available())
    }

    /// [`StonesTable::new`] within `budget`: the expected rows' memory and
    /// work (a few steps a row) are checked before starting, the memory
    /// again as the search grows, and the work as it goes.
    ///
    /// # Errors
    /// As [`StonesTable::new`], for `budget`'s limits.
    pub fn new_with(max_take: u64, budget: &Budget) -> Result<Self, Error> {
        if max_take == 0 {
            return Err(Error::ZeroMaxTake);
        }
        let rows = expected_rows(max_take);
        let what = || format!("the table of winners for max take {max_take}");
        budget.check_memory(&what(), PeriodFinder::<u8>::bytes_for(rows))?;
        budget.check_work(&what(), rows.saturating_mul(STEPS_PER_ROW))?;
        let m = usize::try_from(max_take).map_err(|_| budget.memory_error(what(), u64::MAX))?;
        let mut meter = budget.meter();
        let mut finder = PeriodFinder::<u8>::new(m);
        // a[q][j&1]: rows j in the window where I win (j, Him, q).
        // b[q]: rows j in the window where I lose (j, Me, q).
        let mut a = [[0usize; 2]; 2];
        let mut b = [0usize; 2];
        let count = |row: u8, j: usize, a: &mut [[usize; 2]; 2], b: &mut [usize; 2], add: bool| {
            let d = |c: &mut usize| if add { *c += 1 } else { *c -= 1 };
            for q in [false, true] {
                if row & bit(Player::Him, q) != 0 {
                    d(&mut a[q as usize][j & 1]);
                }
                if row & bit(Player::Me, q) == 0 {
                    d(&mut b[q as usize]);
                }
            }
        };
        let mut p = 0usize;
        let period = loop {
            let row = if p == 0 {
                // Pile empty: I win iff I hold an odd number, whoever's turn.
                bit(Player::Me, true) | bit(Player::Him, true)
            } else {
                let mut row = 0;
                for q in [false, true] {
                    // My take t = p - j reaches (j, Him, q ^ (t odd)).
                    let me_wins = (0..2).any(|jp| a[(q as usize) ^ (p & 1) ^ jp][jp] > 0);
                    if me_wins {
                        row |= bit(Player::Me, q);
                    }
                    // His every take reaches (j, Me, q): I win iff all are mine.
                    if b[q as usize] == 0 {
                        row |= bit(Player::Him, q);
                    }
                }
                row
            };
            if !meter.spend(STEPS_PER_ROW) {
                return Err(budget
                    .spent_error(format!("{} (no period after {p} rows)", what()))
                    .into());
            }
            if let Some(period) = finder.push_within(row, budget)? {
                break period;
            }
            count(row, p, &mut a, &mut b, true);
            if p >= m {
                let old = finder.rows()[p - m];
                count(old, p - m, &mut a, &mut b, false);
            }
            p += 1;
        };
        let mut rows = finder.rows().to_vec();
        // Keep exactly the rows `take` may look at: 0 .. preperiod + period.
        rows.truncate((period.preperiod + period.period) as usize);
        rows.shrink_to_fit();
        Ok(StonesTable {
            max_take,
            rows,
            period,
        })
    }

    /// The maximum take this table is for.
    #[must_use]
    pub fn max_take(&self) -> u64 {
        self.max_take
    }

    /// The minimal preperiod and period of the table of winners.
    #[must_use]
    pub fn period(&self) -> Period {
        self.period
    }

    fn row(&self, pile: u64) -> u8 {
        self.rows[self.period.reduce(pile) as usize]
    }

    /// Whether I win at `(pile, turn, mine_odd)` with perfect play.
    #[must_use]
    pub fn i_win(&self, pile: u64, turn: Player, mine_odd: bool) -> bool {
        self.row(pile) & bit(turn, mine_odd) != 0
    }

    /// What the seed's `Take` returns when it is my turn with `pile` stones
    /// left and my stones' parity `mine_odd`: the largest winning take, or 1
    /// if no take wins. O(`max_take`).
    ///
    /// At `pile == 0` there is nothing to take and the answer is 0.
    #[must_use]
    pub fn take(&self, mine_odd: bool, pile: u64) -> u64 {
        if pile == 0 {
            return 0;
        }
        (1..=self.max_take.min(pile))
            .rev()
            .find(|&t| self.i_win(pile - t, Player::Him, mine_odd ^ (t & 1 == 1)))
            .unwrap_or(1)
    }
}

/// The seed module's `Take(mine, his, pile, max_take)`: how many stones to
/// take when it is my turn, I hold `mine` stones, the opponent `his`, and
/// `pile` are left — the largest take that wins, or 1 if none does.
///
/// Builds the table for `max_take` (see [`StonesTable`]); for many calls
/// with one `max_take`, build the table once and call [`StonesTable::take`].
///
/// # Errors
/// [`Error::ZeroMaxTake`], [`Error::EmptyPile`], [`Error::EvenTotal`] (the
/// game needs an odd number of stones), [`Error::TooLarge`].
///
/// ```
/// assert_eq!(games::stones::take(0, 0, 7, 3)?, 2);
/// assert!(games::stones::take(0, 0, 8, 3).is_err()); // even total
/// # Ok::<(), games::Error>(())
/// ```
pub fn take(mine: u64, his: u64, pile: u64, max_take: u64) -> Result<u64, Error> {
    take_with(mine, his, pile, max_take, &Budget::available())
}

/// [`take`] within `budget` (see [`StonesTable::new_with`]).
///
/// # Errors
/// As [`take`].
pub fn take_with(
    mine: u64,
    his: u64,
    pile: u64,
    max_take: u64,
    budget: &Budget,
) -> Result<u64, Error> {
    if max_take == 0 {
        return Err(Error::ZeroMaxTake);
    }
    if pile == 0 {
        return Err(Error::EmptyPile);
    }
    let total = u128::from(mine) + u128::from(his) + u128::from(pile);
    if total % 2 == 0 {
        return Err(Error::EvenTotal { total });
    }
    Ok(StonesTable::new_with(max_take, budget)?.take(mine & 1 == 1, pile))
}
