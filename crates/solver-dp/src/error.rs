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
    /// The table would not fit in the memory budget (by default the memory
    /// really available: see [`game_core::budget`]).
    #[error(transparent)]
    TooLarge(#[from] game_core::TooLarge),
    /// The game declares a draw as the outcome of a finished position. A
    /// draw is play that never ends, so a finished game cannot be one; a game
    /// that ends with nobody winning is a [`game_core::Outcome::Tie`].
    #[error(
        "the game declares a draw as the result of a finished position; a game that ends \
         with nobody winning is a tie (a draw is play that never ends)"
    )]
    TerminalDraw,
    /// A position the game reports as invalid.
    #[error(transparent)]
    Game(#[from] game_core::Error),
}
