//! The error type of `solver-dp`.

/// What can go wrong when solving with dynamic programming.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The game graph has a cycle, so backward induction does not apply.
    #[error(
        "the game has a cycle (a position can repeat {depth} plies after itself): \
         solve it with solver-retro's retrograde analysis instead"
    )]
    Cycle {
        /// The length of the cycle found, in plies.
        depth: u64,
    },
    /// A remoteness would not fit in a [`game_core::Value`].
    #[error("the game is deeper than {max} plies", max = game_core::MAX_REMOTENESS)]
    TooDeep,
    /// The table would not fit in memory (or in the address space).
    #[error("the game has {positions} positions: its table needs {bytes} bytes, more than the limit of {limit}")]
    TooLarge {
        /// Positions to store.
        positions: u64,
        /// Bytes the table would take.
        bytes: u64,
        /// The limit that was exceeded.
        limit: u64,
    },
    /// A position the game reports as invalid.
    #[error(transparent)]
    Game(#[from] game_core::Error),
}
