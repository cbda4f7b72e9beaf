//! Sprague–Grundy theory for impartial games: mex and nim-sums, the Grundy
//! value of any position, sums of games (a sum is itself a
//! [`Game`]), winning moves in sums, and heap games —
//! subtraction games and octal games — with fast Grundy sequences and
//! **proven** periods.
//!
//! ```
//! use sprague_grundy::{nim_sum, OctalCode, SubtractionSet};
//!
//! // Heaps 3, 4, 5 where a move takes 1..=3: values 3, 0, 1.
//! let take3 = SubtractionSet::new([1, 2, 3])?;
//! let g = take3.values(5)?;
//! assert_eq!((g[3], g[4], g[5]), (3, 0, 1));
//! assert_ne!(nim_sum([3, 0, 1]), 0); // the first player wins
//!
//! // Kayles: preperiod 71, period 12, proven.
//! let p = "0.77".parse::<OctalCode>()?.period(1_000)?;
//! assert_eq!((p.preperiod, p.period), (71, 12));
//! # Ok::<(), sprague_grundy::Error>(())
//! ```
//!
//! The crate re-exports what of `game-core` its API needs ([`Game`],
//! [`Impartial`], [`Budget`], [`TooLarge`], and the whole crate as
//! [`game_core`]), so depending on `sprague-grundy` alone is enough to
//! write an impartial game and compute its values (see [`GrundyTable`]).
//!
//! Tables that grow with the input — the memo of a [`GrundyTable`], the
//! values of a heap game, a period search — are checked against a memory
//! [`Budget`] (by default the memory really available) before they grow,
//! and the `_with` functions also take a work budget; a request over either
//! is refused with [`Error::TooLarge`], a search that spends its work
//! budget ends with [`Error::WorkSpent`].
//!
//! # Layout and cost
//!
//! | item | what | cost |
//! |---|---|---|
//! | [`mex()`], [`MexSet`], [`nim_sum`] | the basic operations | bitset, O(values) |
//! | [`GrundyTable`], [`grundy()`] | any [`Impartial`] game, memoised, iterative; a cycle is an error | O(positions + moves) |
//! | [`Sum`], [`sum_grundy`], [`winning_move`] | disjunctive sums | one value per component |
//! | [`SubtractionSet`] | g(0..n) with a bitmask mex; proven period (a window of max(S) values repeats) | O(n·\|S\|) |
//! | [`OctalCode`] | g(0..n) plain (O(n²)) or by rare/common values (≈ O(n·#rare)); period proven by the octal periodicity theorem | see [`Computer`] |

mod error;
mod grundy;
mod mex;
mod octal;
mod subtraction;
mod sum;

pub use error::Error;
pub use game_core;
pub use game_core::{Budget, Game, Impartial, TooLarge};
pub use grundy::{grundy, GrundyTable};
pub use mex::{mex, nim_sum, MexSet};
pub use octal::{Computer, OctalCode};
pub use subtraction::{SubtractionSet, MAX_SET_LEN};
pub use sum::{sum_grundy, winning_move, Sum};

/// A proven period of a Grundy sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PeriodProof {
    /// The first heap from which the sequence is periodic.
    pub preperiod: u64,
    /// The smallest period.
    pub period: u64,
    /// How many values (heaps 0..heaps) were computed for the proof.
    pub heaps: u64,
}

#[cfg(test)]
mod tests;
