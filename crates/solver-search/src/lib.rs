//! Exact search for acyclic games: the value the retrograde solver would
//! give — outcome *and* remoteness (a win as fast as possible, a loss as
//! slow as possible, ties apart) — for one position at a time, without a
//! table of the whole game.
//!
//! ```
//! use game_core::{Game, SearchHints, SearchKey, Value};
//! use solver_search::{Config, Searcher};
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
//! impl SearchKey for OneThreeFour {
//!     fn search_key(&self, n: &u32) -> u64 { u64::from(*n) }
//! }
//! // No hints: the defaults are correct, only slower.
//! impl SearchHints for OneThreeFour {}
//!
//! let search = Searcher::new(&OneThreeFour, Config::new().with_table_bytes(1 << 16))?;
//! assert_eq!(search.value(&7)?.value, Value::lose(4));
//! let a = search.analyze(&6)?;
//! assert_eq!(a.value, Value::win(3));
//! // From 6: taking 4 leaves a lost pile (2); taking 3 leaves 3, won at once.
//! let values: Vec<_> = a.moves.iter().map(|(m, v)| (*m, *v)).collect();
//! assert_eq!(values, [(1, Value::lose(4)), (3, Value::lose(2)), (4, Value::win(3))]);
//! # Ok::<(), solver_search::Error>(())
//! ```
//!
//! # How
//!
//! * **Scores.** A win in `r` plies scores `BIG − r`, a loss `r − BIG`, a
//!   tie 0; a move's score for the parent is the child's negated, one ply
//!   further. Alpha-beta on these finds the outcome and the remoteness of
//!   wins and losses; a tie's remoteness (the fastest tie is best for both
//!   players, which no negation orders) is found after, by a search over
//!   the tied children only (or from [`game_core::SearchHints::tie_remoteness`]).
//! * **Null windows and deepening.** The value is narrowed by null-window
//!   tests: first of fast ends, "does it win within 3 plies?", "does it
//!   lose within 4?", then 7 and 8, 15 and 16, … up to half the plies
//!   left (shallow trees; a position won quickly is so found without a
//!   proof that may follow a slow win), bisecting between the bounds once
//!   one holds; else "does it win?", "does it lose?", then the remoteness, from
//!   the bound the outcome's test proved (a win's slowest, a loss's
//!   fastest, where the answer near the start of a long game lies):
//!   "does it win within `d` plies?" for `d` galloping away from it
//!   (1, 2, 4, … plies further), then halving. A fail-soft result moves
//!   a bound as far as it proves.
//! * **Transposition table.** Fixed size, from a memory budget
//!   ([`Config::with_table_bytes`], refused beyond
//!   [`game_core::Budget`]), shared by every thread without locks: from
//!   1 MiB, buckets of two one-word entries, each the rest of a mixed key
//!   ([`game_core::SearchKey`]) and true bounds on its score (rounded
//!   outwards where their code is short), and from 32 MiB the bit length
//!   of the nodes its search took: a bucket keeps the entry of most work
//!   first and the newest second. Smaller, a slot a key behind a
//!   sequence lock. With a complete quick value, bounds are narrowed to
//!   the parity of wins (odd plies) and losses (even). A node reads its
//!   children's entries before searching the first (their loads overlap,
//!   and one already below the child's threshold ends the node).
//! * **Explicit stack.** The search is a loop over a stack of frames on
//!   the heap, checked against the memory budget as it grows: a long game
//!   cannot overflow the call stack.
//! * **Work budget.** Every node costs [`STEPS_A_NODE`] steps of the
//!   budget's work; when it is spent the search stops with
//!   [`Error::TooLarge`].
//! * **Hints and tables.** [`game_core::SearchHints`]: a move order and
//!   the moves worth searching (Connect Four: the non-losing moves only), a
//!   quick exact value ("wins now", "can only lose") and whether it is
//!   complete (then a node without one is bounded between a loss in 4 and
//!   a win in 3), a progress that proves no repetition, a bound on the
//!   plies left, what a kept move's child needs tested
//!   ([`game_core::SearchHints::kept_child_value`]). [`game_core::EndgameTable`]:
//!   exact values of solved positions, read instead of searching below.
//! * **Threads.** [`Searcher::value`] is one search of the position; on
//!   several threads, helpers search the same position with the moves of
//!   its first plies rotated (other first moves), filling the shared table
//!   for the main search, and stop when it is done. Only the main search's
//!   value is given, and it is exact whatever the table holds, so the
//!   answer is the same for any number of threads. [`Searcher::analyze`]
//!   finds the position's value so, then every move's with the table warm
//!   (the moves in parallel), and checks that the best is the position's.
//! * **Loopy games** are refused ([`Error::Loopy`]): without a progress
//!   hint, every node's key is looked for on the path above it.

mod engine;
mod error;
mod score;
mod searcher;
mod table;

pub use engine::STEPS_A_NODE;
pub use error::Error;
pub use searcher::{Analysis, Config, Found, Searcher, DEFAULT_TABLE_BYTES};

#[cfg(test)]
mod tests;
