//! The error type of `game-core`.

/// Errors about games and positions that any crate of gamesolve can report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The rules given to a game's constructor are not allowed.
    #[error("invalid rules: {0}")]
    InvalidRules(String),
    /// A position that cannot occur in the game.
    #[error("invalid position: {0}")]
    InvalidPosition(String),
    /// A move that is not legal at the position it was played from.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// A request needing more memory or work than is available.
    #[error(transparent)]
    TooLarge(#[from] crate::TooLarge),
}
