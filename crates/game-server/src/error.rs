//! What serving can fail with, and the HTTP status each failure answers.

/// A failure of the server or of one request.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A position that does not parse, or that no game reaches (400).
    #[error("{0}")]
    BadPosition(String),
    /// A game id that no served game has (404).
    #[error("no game '{0}' is served here; GET /api/games lists them")]
    UnknownGame(String),
    /// A query string or path that is not of the API's form (400).
    #[error("{0}")]
    BadRequest(String),
    /// A database that the server cannot serve: of an unknown game, of
    /// rules it cannot rebuild, or with a tier of the wrong length.
    #[error("database {dir}: {why}")]
    Unservable {
        /// The database's directory.
        dir: std::path::PathBuf,
        /// What is wrong, in words.
        why: String,
    },
    /// A database's answer that its children's records contradict (500:
    /// the database is damaged, not the request).
    #[error("the database contradicts itself at position '{position}': {flaw}")]
    Contradicted {
        /// The position asked.
        position: String,
        /// The rule the records break.
        flaw: solver_retro::Flaw,
    },
    /// A query that ended without an answer (its thread panicked): a
    /// fault of the server's, 500.
    #[error("the query stopped without an answer: {0}")]
    Stopped(String),
    /// A database that cannot be read.
    #[error(transparent)]
    Db(#[from] game_db::Error),
    /// A solve at start-up failed.
    #[error(transparent)]
    Solve(#[from] solver_retro::Error),
    /// A game that cannot be built with the rules asked.
    #[error(transparent)]
    Games(#[from] games::Error),
    /// The address cannot be bound, or the server stopped on a socket
    /// error.
    #[error("cannot serve on {addr}: {source}")]
    Io {
        /// The address.
        addr: String,
        /// The system's error.
        source: std::io::Error,
    },
}

impl Error {
    /// The HTTP status this failure answers with: 4xx for what the request
    /// got wrong, 500 only for a damaged database.
    #[must_use]
    pub fn status(&self) -> u16 {
        match self {
            Error::BadPosition(_) | Error::BadRequest(_) => 400,
            Error::UnknownGame(_) => 404,
            _ => 500,
        }
    }
}
