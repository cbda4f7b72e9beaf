//! Retrograde analysis for games whose positions can repeat: every
//! position's value — win, lose, tie, or draw (play goes on forever) — with
//! remoteness, a perfect strategy, an independent certificate checker, and
//! Graphviz export.
//!
//! ```
//! use game_core::{Game, Outcome, Value};
//! use solver_retro::{certify, Solved};
//!
//! /// A token on a cycle of 5 squares; a move steps it 1 or 2 squares on.
//! /// Square 0 is a trap: whoever must move from it has lost.
//! struct Ring;
//! impl Game for Ring {
//!     type Position = u8;
//!     type Move = u8;
//!     fn moves(&self, s: &u8, out: &mut Vec<u8>) {
//!         if *s != 0 { out.extend([1, 2]) }
//!     }
//!     fn play(&self, s: &u8, step: &u8) -> u8 { (s + step) % 5 }
//! }
//!
//! let sol = solver_retro::solve(&Ring, 1)?;
//! assert_eq!(sol.value(&0), Some(Value::lose(0)));
//! assert_eq!(sol.value(&4), Some(Value::win(1)));   // step 1 onto the trap
//! assert_eq!(sol.value(&3), Some(Value::win(1)));   // step 2 onto the trap
//! assert_eq!(sol.value(&2), Some(Value::lose(2)));  // both steps give a win away
//! assert_eq!(sol.best_move(&1), Some((1, Value::win(3))));
//! let cert = certify(&sol).expect("the solution is consistent");
//! assert_eq!(cert.positions, 5);
//! # Ok::<(), solver_retro::Error>(())
//! ```
//!
//! # Solvers
//!
//! | function | needs | memory | notes |
//! |---|---|---|---|
//! | [`solve`] / [`solve_with`] | [`Game`](game_core::Game) | 8 B a move + the positions in a hash map | positions reachable from a start |
//! | [`solve_indexed`] / [`solve_indexed_with`] | [`Indexed`](game_core::Indexed) | 4 B a move + 12 B an index | every index; two passes over the moves |
//! | [`solve_unmoves`] / [`solve_unmoves_with`] | [`Indexed`](game_core::Indexed) + [`Unmoves`](game_core::Unmoves) | 2 B an index (4 if needed) | no graph stored |
//!
//! All three count, for each position, its distinct children not yet
//! resolved, seed a FIFO queue with the terminal positions, and process it
//! in remoteness order: a lost position makes every parent a win (the first
//! found is the fastest), a won position lowers its parents' counters and a
//! counter that reaches zero makes the parent a loss (the slowest). The
//! queue is drained to the end; ties then spread from tied terminals; what
//! is never resolved is a draw. Time O(positions + moves).
//!
//! A [`Config`] sets the memory limit (by default the memory available);
//! a game that does not fit is refused with [`Error::TooLarge`] before the
//! memory is taken.
//!
//! # Proofs and pictures
//!
//! * [`certify`] checks a solution position by position with forward moves
//!   only, sharing no code with the solvers; see [`check`] for why a
//!   solution that passes is correct.
//! * [`to_dot`] draws the solved graph with petgraph, coloured by value.
//! * [`Solved::best_move`] is the strategy: the fastest win, else the
//!   fastest tie, else a move that keeps the draw, else the slowest loss.

mod cell;
pub mod check;
pub mod check_game;
mod config;
mod dot;
mod engine;
mod error;
mod fast;
mod seed;
mod solution;
mod stored;
mod tiers;
mod walk;

pub use cell::Table;
pub use check::{certify, certify_indexed, Certificate, Flaw, Rejection};
pub use check_game::{BrokenPromise, GameCheck};
pub use config::{Config, Progress};
pub use dot::{colour, graph, to_dot};
pub use error::Error;
pub use fast::{solve_unmoves, solve_unmoves_with};
pub use solution::{Counts, IndexedSolution, Solution, Solved};
pub use stored::{solve, solve_indexed, solve_indexed_with, solve_with, BYTES_PER_MOVE};
pub use tiers::{
    solve_tiers, solve_tiers_unmoves, solve_tiers_with, NoStore, TierStore, TieredSolution,
};
pub use walk::{reachable, reachable_tiers, Held, Reachable, TierReach};

#[cfg(test)]
mod tests;
