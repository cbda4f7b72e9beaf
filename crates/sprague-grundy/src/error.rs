//! The error type of `sprague-grundy`.

/// What can go wrong computing Grundy values.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The game graph has a cycle: Grundy values need a game that ends.
    #[error("the game has a cycle, so Grundy values are not defined (a position repeats {depth} plies after itself)")]
    Cycle {
        /// Plies around the cycle found.
        depth: u64,
    },
    /// An empty subtraction set.
    #[error("the subtraction set is empty")]
    EmptySet,
    /// A subtraction set holding 0.
    #[error("the subtraction set contains 0, a move that would change nothing")]
    ZeroInSet,
    /// A subtraction set this crate cannot use.
    #[error("unsupported subtraction set: {why}")]
    BadSet {
        /// What is wrong with it.
        why: String,
    },
    /// An octal code that cannot be read.
    #[error("invalid octal code '{code}': {why}")]
    BadCode {
        /// The code given.
        code: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// Periodicity was not proven within the heaps allowed.
    #[error("no period proven within {} (the sequence may have a longer preperiod or period, or none)", game_core::plural(*.max, "heap"))]
    NotProven {
        /// The most heaps computed.
        max: u64,
    },
    /// A request needing more memory or work than the budget allows
    /// (see [`game_core::budget`]).
    #[error(transparent)]
    TooLarge(#[from] game_core::TooLarge),
    /// A period search spent its work budget before proving a period.
    #[error("no period proven up to {} (the work budget of {budget} steps is spent); {raise}", game_core::plural(*.heaps, "heap"), budget = game_core::budget::human_count(*.steps))]
    WorkSpent {
        /// Heaps computed when the budget ran out.
        heaps: u64,
        /// The work budget, in steps.
        steps: u64,
        /// How to raise the budget.
        raise: String,
    },
    /// A Grundy value too large for the table (more than 2³² − 2).
    #[error("a Grundy value of {value} is too large for the table (at most 2^32 - 2)")]
    ValueTooLarge {
        /// The value.
        value: u64,
    },
    /// The game answered the same question two ways: its moves changed
    /// between calls.
    #[error("the game is not consistent: {what}")]
    Inconsistent {
        /// What disagreed.
        what: &'static str,
    },
    /// A game marked [`Impartial`](game_core::Impartial) that does not end
    /// by normal play alone: its [`outcome`](game_core::Game::outcome)
    /// ends it at a position, or its
    /// [`stalemate`](game_core::Game::stalemate) does not lose. Grundy
    /// values would answer another game.
    #[error("the game is marked impartial but {what}, so it is not normal play and has no Grundy values (solve it with solver-dp or solver-retro)")]
    NotNormalPlay {
        /// What the game did.
        what: &'static str,
    },
}
