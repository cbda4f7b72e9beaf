//! The error type of `games`.

/// Bad rules or positions for one of the games in this crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A maximum take of zero: no move would ever be possible.
    #[error("max take must be at least 1")]
    ZeroMaxTake,
    /// A pile of zero stones where the game needs stones to take.
    #[error("the pile is empty: there is nothing to take")]
    EmptyPile,
    /// Stones needs an odd number of stones in all.
    #[error("mine + his + pile = {} is even: Stones needs an odd number of stones in all", game_core::grouped_wide(*.total))]
    EvenTotal {
        /// The total number of stones (may exceed `u64`).
        total: u128,
    },
    /// A subtraction set with no elements.
    #[error("the subtraction set is empty")]
    EmptySet,
    /// A subtraction set containing 0 (a move that changes nothing).
    #[error("the subtraction set contains 0, a move that would change nothing")]
    ZeroInSet,
    /// Text that does not spell a position or a move of the game.
    // The input is cut (`game_core::echo`): a 100 KB argument was repeated
    // whole.
    #[error("cannot read {what} from {:?}: {reason}", game_core::echo(.input))]
    Parse {
        /// What was being read ("Teeko position", "Dobutsu move", …).
        what: &'static str,
        /// The text given.
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A request needing more memory or work than the budget allows (see
    /// [`game_core::budget`]).
    #[error(transparent)]
    TooLarge(#[from] game_core::TooLarge),
    /// An error from the shared vocabulary (invalid rules or positions).
    #[error(transparent)]
    Core(#[from] game_core::Error),
    /// An error from the Sprague–Grundy crate.
    #[error(transparent)]
    Grundy(#[from] sprague_grundy::Error),
    /// An error from the dynamic-programming solver.
    #[error(transparent)]
    Solver(#[from] solver_dp::Error),
}
