//! The error type of `solver-retro`.

/// What can go wrong in retrograde analysis.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The solve would need more memory than the configured limit (the
    /// shape every gamesolve crate shares: what, bytes needed, bytes
    /// available, how to raise the limit).
    #[error("the game does not fit: {0}")]
    TooLarge(#[from] game_core::TooLarge),
    /// A remoteness too large for the table.
    #[error("a remoteness exceeds {max} plies")]
    TooDeep {
        /// The largest remoteness the table can hold.
        max: u64,
    },
    /// A position with more children than the table can count.
    #[error("a position has more than {max} distinct children")]
    TooManyChildren {
        /// The most children a table cell can count.
        max: u64,
    },
    /// The game maps a position to an index outside `0..size`.
    #[error("the game's index of a position is {index}, outside 0..{size}")]
    BadIndex {
        /// The index returned.
        index: u64,
        /// The game's size.
        size: u64,
    },
    /// A terminal outcome of draw (a draw is found, never declared).
    #[error("the game declares a draw as a terminal outcome; only win, lose or tie may be")]
    TerminalDraw,
    /// The game broke a promise the engine relies on (a parent that is no
    /// position, more parents' updates than children, ...): the table would
    /// be wrong, so the solve stops. `check_game` finds such faults with the
    /// position that shows them.
    #[error("the game broke the solver's contract: {0}")]
    Broken(String),
    /// A tier store (a database) failed to load or save a tier.
    #[error("the tier store failed: {0}")]
    Store(String),
    /// A walk reached a position whose tier's table holds no value for
    /// it: a table read from a damaged store, or one the game's index
    /// does not match.
    #[error("position {index} of tier {tier} was reached, but its table holds no value for it")]
    Unsolved {
        /// The tier's name.
        tier: String,
        /// The position's index in its tier.
        index: u64,
    },
    /// A table given for a game holds another number of cells than the
    /// game has indices ([`IndexedSolution::from_table`](crate::IndexedSolution::from_table)).
    #[error("a table of {cells} cells cannot hold a game of {size} indices")]
    TableSize {
        /// The table's cells.
        cells: u64,
        /// The game's indices.
        size: u64,
    },
    /// A count of positions weighted by a game's weights (the sizes of
    /// its symmetry classes, say) passes 2⁶⁴ − 1, the most a count holds.
    #[error("the weighted count of {what} passes 2^64 - 1")]
    CountOverflow {
        /// What was being counted.
        what: &'static str,
    },
    /// An error about the game itself.
    #[error(transparent)]
    Game(#[from] game_core::Error),
}

impl Error {
    /// The [`Error::Broken`] for an update that the cell of position id
    /// `id` refuses ([`Cell::refuses_updates`](crate::Cell::refuses_updates)):
    /// `no_position`, the game gave as a parent an index that is no
    /// position; else the position had more updates from its children
    /// than it has children (its count went below zero). Public for
    /// engines over the same cells (`solver-cluster`).
    ///
    /// ```
    /// let e = solver_retro::Error::refused_update(7, true);
    /// assert!(e.to_string().contains("parent id 7, which is no position"));
    /// ```
    #[cold]
    #[must_use]
    pub fn refused_update(id: u64, no_position: bool) -> Error {
        Error::Broken(if no_position {
            format!("the game gave parent id {id}, which is no position (its unmoves or its index are wrong)")
        } else {
            format!(
                "position id {id} has more parents' updates than children \
                 (its child count or its unmoves are wrong)"
            )
        })
    }
}

/// A [`Error::TooLarge`] for memory: `what` needs `needed` bytes over the
/// `limit`; `raise` says how to raise it (empty: the general advice).
pub(crate) fn too_large(
    what: impl Into<std::borrow::Cow<'static, str>>,
    needed: u64,
    limit: u64,
    raise: impl Into<std::borrow::Cow<'static, str>>,
) -> Error {
    let raise = raise.into();
    let raise = if raise.is_empty() {
        "raise the memory limit (Config::memory_limit, --memory)".into()
    } else {
        raise
    };
    let budget = game_core::Budget::unlimited()
        .with_memory(limit)
        .with_advice(raise, "");
    Error::TooLarge(budget.memory_error(what, needed))
}
