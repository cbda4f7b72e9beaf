//! The shared vocabulary of gamesolve: the [`Game`] trait, outcomes and
//! remoteness, optional capabilities, and misère play.
//!
//! A game is a value implementing [`Game`]: positions, moves from a caller's
//! buffer, the position a move leads to, and (optionally) how the game ends.
//! Solvers in other crates (`solver-dp`, `solver-retro`, `sprague-grundy`)
//! are generic functions bounded by exactly the traits they use.
//!
//! ```
//! use game_core::{Game, Outcome, Value, Misere};
//!
//! /// Subtraction game: take 1, 3 or 4 coins; whoever cannot move loses.
//! struct OneThreeFour;
//!
//! impl Game for OneThreeFour {
//!     type Position = u32;
//!     type Move = u32;
//!     fn moves(&self, n: &u32, out: &mut Vec<u32>) {
//!         out.extend([1, 3, 4].into_iter().filter(|t| t <= n));
//!     }
//!     fn play(&self, n: &u32, t: &u32) -> u32 {
//!         n - t
//!     }
//! }
//!
//! // Solve by hand with the recurrence every solver uses: a position's value
//! // is the best, for the mover, of its children's values seen from above.
//! fn value<G: Game<Position = u32>>(g: &G, n: u32) -> Value {
//!     if let Some(o) = g.outcome(&n) {
//!         return Value::new(o, 0);
//!     }
//!     let mut moves = Vec::new();
//!     g.moves(&n, &mut moves);
//!     moves.iter().map(|m| value(g, g.play(&n, m)).parent()).max()
//!         .unwrap_or(Value::new(g.stalemate(&n), 0))
//! }
//!
//! assert_eq!(value(&OneThreeFour, 7).outcome(), Outcome::Lose);
//! assert_eq!(value(&OneThreeFour, 6), Value::win(3));
//! assert_eq!(value(&Misere(OneThreeFour), 0).outcome(), Outcome::Win);
//! ```
//!
//! # Layout
//!
//! * [`Game`] — the required core.
//! * [`Outcome`], [`Value`] — results for the player to move, with remoteness.
//! * [`Indexed`] — positions numbered `0..size`, for flat tables;
//!   [`IndexedChildren`] — children by index, for checkers and walks.
//! * [`Unmoves`] — predecessors, for retrograde analysis without a stored graph;
//!   [`IndexedUnmoves`] — the same by index, with optional fast paths.
//! * [`Tiered`] — positions split into tiers solved children first, each
//!   with a dense index of its own.
//! * [`Symmetric`] — classes of symmetric positions and their canonical one;
//!   [`TieredSymmetric`] — the fast paths of a game with both.
//! * [`Impartial`] — both players have the same moves (Sprague–Grundy).
//! * [`SearchKey`], [`SearchHints`], [`EndgameTable`] — what an exact
//!   search (`solver-search`) uses: a compact key, optional hints, and
//!   solved tables beneath it.
//! * [`Misere`] — misère play for any game. It, `&G`, [`OneTier`] and
//!   [`Canonical`] pass every capability they keep on, fast paths
//!   included, through impls generated from each capability's declaration
//!   (`capability.rs`), naming only the methods they change, so none is
//!   lost.
//! * [`best_move`] — the deterministic choice of a best move from a table.
//! * [`period`] — proven periodicity of row-structured tables.
//! * [`budget`] — memory and work budgets, the memory really available,
//!   and [`TooLarge`], the one refusal shape of every crate.
//! * [`Error`] — what goes wrong with rules and positions; [`echo()`], the
//!   input a message repeats, cut to a readable length; [`plural()`], a
//!   count and its noun; [`grouped()`], a count with separators.
//! * `fixtures` (feature `fixtures`) — a game given by its graph, for the
//!   tests of solvers.

// The capability traits are declared through `capability!`, which also
// defines a macro named after each trait; `forward` uses those macros, so
// the order of these groups matters (macros are seen in textual order).
#[macro_use]
mod capability;
#[macro_use]
mod game;
#[macro_use]
mod indexed;
#[macro_use]
mod tiered;
#[macro_use]
mod symmetric;
#[macro_use]
mod unmoves;
#[macro_use]
mod search;

mod forward;

pub mod budget;
mod echo;
mod error;
#[cfg(feature = "fixtures")]
pub mod fixtures;
mod impartial;
mod misere;
mod outcome;
pub mod period;
mod plural;
mod strategy;

pub use budget::{Budget, TooLarge};
pub use echo::{echo, echo_tail, escape_controls, ECHO_CHARS};
pub use error::Error;
pub use game::Game;
pub use impartial::Impartial;
pub use indexed::{
    child_indices_by_moves, sort_dedup_tail, ChildIndices, Indexed, IndexedChildren, Indices, Run,
};
pub use misere::Misere;
pub use outcome::{Outcome, Value, MAX_REMOTENESS};
pub use plural::{grouped, grouped_wide, plural};
pub use search::{EndgameTable, NoTable, SearchHints, SearchKey};
pub use strategy::{best_move, principal_variation, Line, LineEnd, Ply};
pub use symmetric::{orbit_size, Canonical, Symmetric, TieredSymmetric};
pub use tiered::{OneTier, Tier, Tiered};
pub use unmoves::{ChildCount, IndexedUnmoves, ParentIndices, ParentVisitor, Unmoves};
