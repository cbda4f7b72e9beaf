//! Dynamic programming for acyclic games: every position's value with
//! remoteness (win fast, lose slow), best moves, misère play through
//! [`game_core::Misere`], and proven periods of row-structured tables.
//!
//! This crate re-exports what of `game-core` its API needs ([`Game`],
//! [`Indexed`], [`Outcome`], [`Value`], [`Misere`], [`Budget`], …, and the
//! whole crate as [`game_core`]), so depending on `solver-dp` alone is
//! enough to write and solve a game:
//!
//! ```
//! use solver_dp::{Game, Misere, Outcome, Value};
//!
//! /// Take 1, 3 or 4 coins; whoever cannot move loses.
//! struct OneThreeFour;
//! impl Game for OneThreeFour {
//!     type Position = u32;
//!     type Move = u32;
//!     fn moves(&self, n: &u32, out: &mut Vec<u32>) {
//!         out.extend([1, 3, 4].into_iter().filter(|t| t <= n));
//!     }
//!     fn play(&self, n: &u32, t: &u32) -> u32 { n - t }
//! }
//!
//! let normal = solver_dp::solve(&OneThreeFour, 11)?;
//! let table: String = (0..=11)
//!     .map(|n| if normal.value(&n).unwrap().outcome() == Outcome::Win { 'W' } else { 'L' })
//!     .collect();
//! assert_eq!(table, "LWLWWWWLWLWW");
//!
//! let misere = Misere(OneThreeFour);
//! let sol = solver_dp::solve(&misere, 11)?;
//! assert_eq!(sol.value(&0), Some(Value::win(0)));
//! # Ok::<(), solver_dp::Error>(())
//! ```
//!
//! # Solvers and their cost
//!
//! | function | needs | memory | time |
//! |---|---|---|---|
//! | [`solve`] | [`Game`] | hash map + 4 B a position | O(positions + moves) |
//! | [`solve_indexed`] | [`Indexed`] | 4 B an index, flat | O(size + moves) |
//! | [`PeriodFinder`] | rows that depend on the `k` rows below | the rows + 16 B a row | O(1) a row |
//!
//! Both solvers are iterative (an explicit stack and one shared move buffer),
//! so depth is bounded by memory, not the call stack, and nothing is
//! allocated per position. A cycle in the game graph is reported as
//! [`Error::Cycle`]; cyclic games belong to `solver-retro`.
//!
//! Tables are checked against a memory [`Budget`] before they are taken
//! (by default the memory really available: the least of the machine's
//! available memory, the cgroup limit and `ulimit -v`), and a table that
//! would not fit is refused with [`Error::TooLarge`] instead of exhausting
//! the machine; [`solve_with`] and [`solve_indexed_with`] take a budget.
//! The search's path (its frames and the moves listed at each) grows with
//! depth times moves, which no table size foretells: it is checked beside
//! the table each time one of its buffers grows.
//!
//! Best moves are chosen by [`game_core::best_move`]: fastest win, else
//! fastest tie, else slowest loss; the first such move in generation order.
//!
//! # Periods
//!
//! Games whose positions form rows `0, 1, 2, …` where row `n` depends only
//! on the `k` rows below it (Stones, subtraction games) have eventually
//! periodic tables. [`PeriodFinder`] proves the minimal preperiod and period
//! by the criterion *`k` consecutive rows repeat ⇒ periodic from there*;
//! see [`game_core::period`] for the argument. After that, any row up to
//! `u64::MAX` is answered in O(1) with [`Period::reduce`].

mod engine;
mod error;
mod fold;
mod indexed;
mod memo;

pub use error::Error;
pub use game_core;
pub use game_core::period::{Period, PeriodFinder};
pub use game_core::{best_move, Budget, Game, Indexed, Misere, Outcome, TooLarge, Value};
pub use indexed::{
    solve_indexed, solve_indexed_with, solve_indexed_with_limit, IndexedSolution,
    DEFAULT_MEMORY_LIMIT,
};
pub use memo::{solve, solve_with, Solution};

#[cfg(test)]
mod tests;
