//! gamesolve: solve two-player games of perfect information — who wins from
//! every position, in how many moves, how to play perfectly, and a proof.
//!
//! This crate is a thin facade over the workspace's crates, which can also
//! be used on their own:
//!
//! | module | crate | what it holds |
//! |---|---|---|
//! | [`core`] | `game-core` | the [`Game`] trait, [`Outcome`], [`Value`], capabilities, [`Misere`] |
//! | [`dp`] | `solver-dp` | backward induction for acyclic games; periods |
//! | [`retro`] | `solver-retro` | retrograde analysis for cyclic games; certificates; DOT |
//! | [`search`] | `solver-search` | exact search of one position (acyclic games), endgame tables beneath |
//! | [`grundy`] | `sprague-grundy` | mex, nim-sums, sums of impartial games, heap games with proven periods |
//! | [`games`] | `games` | Stones, subtraction games, PowerGame, Magic Fingers, Nim, knights, octal games, Connect Four, Teeko, Dobutsu shogi |
//! | [`store`] | `game-db` (`game_db::store`) | solved tables kept in a compressed, crash-safe database: the tier solver's store |
//! | [`cli`] | (this crate) | the command line: `gamesolve`'s commands, and every command of a game declared once ([`cli::CliGame`]) for a user's own binary |
//!
//! [`answer`] answers one position by the engine that fits: a table of the
//! whole game when it fits the budget, an exact search otherwise.
//!
//! ```
//! use gamesolve::{Game, Outcome};
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
//! let sol = gamesolve::dp::solve(&OneThreeFour, 7)?;
//! assert_eq!(sol.value(&7).unwrap().outcome(), Outcome::Lose);
//! # Ok::<(), gamesolve::dp::Error>(())
//! ```

#![forbid(unsafe_code)]

pub use game_core as core;
pub use game_core::{Budget, Game, Impartial, Indexed, Misere, Outcome, TooLarge, Unmoves, Value};
pub use games;
pub use solver_dp as dp;
pub use solver_retro as retro;
pub use solver_search as search;
pub use sprague_grundy as grundy;

pub mod answer;
/// Solved tables kept in a database: the tier solver's store and tables
/// saved and loaded (`game_db::store`).
pub use game_db::store;

// The command line's code names the facade's modules as a user's would.
extern crate self as gamesolve;

pub mod cli;

/// The README's examples, run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
