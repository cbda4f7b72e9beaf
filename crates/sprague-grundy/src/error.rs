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
    /// An octal code that cannot be read.
    #[error("invalid octal code '{code}': {why}")]
    BadCode {
        /// The code given.
        code: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// Periodicity was not proven within the heaps allowed.
    #[error("no period proven within {max} heaps (the sequence may have a longer preperiod or period, or none)")]
    NotProven {
        /// The most heaps computed.
        max: u64,
    },
    /// A request too large for memory.
    #[error("{what} is too large: {size} exceeds the limit of {limit}")]
    TooLarge {
        /// What was too large.
        what: &'static str,
        /// The size asked for.
        size: u64,
        /// The limit.
        limit: u64,
    },
}
