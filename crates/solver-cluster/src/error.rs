//! The error type of `solver-cluster`.

/// What can go wrong in a cluster solve.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The cluster flags (`-w -n -p -h`) could not be read.
    #[error("bad cluster flags: {0} (expected -w THREADS -n PROCESSES -p ID -h HOSTFILE)")]
    Args(String),
    /// The processes could not connect to each other, or a process could
    /// not start the threads of its run.
    #[error("the cluster could not start: {0}")]
    Start(String),
    /// A worker or a peer process failed (died, was killed, lost its
    /// connection, or hit an error): every process stops with this.
    #[error(
        "the cluster run failed: {0}; every process stops (rerun with --db to resume at the \
         first tier not finished)"
    )]
    Failed(String),
    /// A tier whose moves may stay inside it, for a game solved without
    /// unmoves: the cluster finds parents inside a tier only by unmoves.
    #[error(
        "tier {tier} has moves that stay inside it, and the cluster needs the game's unmoves \
         to solve such a tier"
    )]
    NeedsUnmoves {
        /// The tier's name.
        tier: String,
    },
    /// The game broke a promise, or a limit of the engine was passed
    /// (solver-retro's errors, which the cluster shares).
    #[error(transparent)]
    Retro(#[from] solver_retro::Error),
    /// The database could not be read or written.
    #[error("the database failed: {0}")]
    Db(String),
}

impl From<game_db::Error> for Error {
    fn from(e: game_db::Error) -> Self {
        Error::Db(e.to_string())
    }
}
