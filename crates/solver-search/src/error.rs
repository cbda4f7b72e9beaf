//! The error type of `solver-search`.

/// What can go wrong in an exact search.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A position repeated on the search's path: the game has cycles, which
    /// a depth-first search cannot decide.
    #[error(
        "the game repeats a position ({depth} plies after itself): a search answers acyclic \
         games only; solve it with solver-retro's retrograde analysis instead"
    )]
    Loopy {
        /// Plies between the position and its repetition.
        depth: u64,
    },
    /// The transposition table would not fit in the memory budget, or the
    /// search spent its work budget (nodes) before it finished.
    #[error(transparent)]
    TooLarge(#[from] game_core::TooLarge),
    /// A remoteness would not fit in a [`game_core::Value`].
    #[error("the game is deeper than {max} plies", max = game_core::MAX_REMOTENESS)]
    TooDeep,
    /// The game declares a draw as the outcome of a finished position (or a
    /// table or quick value gives a draw, which no acyclic game has).
    #[error(
        "the game declares a draw as the result of a position; in an acyclic game a draw \
         cannot happen (a game that ends with nobody winning is a tie)"
    )]
    TerminalDraw,
    /// The game broke a promise of its [`game_core::SearchHints`]: a
    /// progress that did not grow with a move.
    #[error("the game broke a promise of its search hints: {0}")]
    Broken(&'static str),
    /// The searches of a position and of its moves disagree: the best
    /// move's value is not the position's (a game whose moves, key or
    /// hints are not what they promise).
    #[error(
        "the search found the position's value {value} but its best move's {best}: the game's \
         key or hints broke a promise"
    )]
    Disagree {
        /// The position's value, from its own search.
        value: game_core::Value,
        /// The best of its moves' values, each searched alone.
        best: game_core::Value,
    },
}
