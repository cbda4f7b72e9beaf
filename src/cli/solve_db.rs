//! The database a `solve --db DIR` writes, opened by the library
//! ([`game_db::SolveDir`]: the directory's lock, and what a refused or
//! failed solve takes back), with its refusals said in one line.

use std::path::Path;

use game_db::{Database, SolveDir};

use super::analyze::{db_error, open_error, Rules};
use super::Error;

/// A database opened (or created) for a plain solve, under the
/// directory's exclusive lock ([`SolveDir::open`]).
pub struct SolveDb(SolveDir);

impl SolveDb {
    /// Opens the database of `game` played by `rules` in `dir`, creating
    /// it (and `dir`) when there is none.
    ///
    /// # Errors
    /// As [`super::analyze::open_db`]; [`Error::Usage`] when another solve
    /// holds the directory.
    pub fn open(dir: &Path, game: &str, rules: &Rules) -> Result<SolveDb, Error> {
        SolveDir::open(dir, game, &rules.key)
            .map(SolveDb)
            .map_err(|e| match e {
                e @ game_db::Error::Busy { .. } => db_error(e),
                e => open_error(dir, rules, e),
            })
    }

    /// Runs `solve` on the database; when it fails, what
    /// [`SolveDb::open`] created is removed again ([`SolveDir::run`]).
    ///
    /// # Errors
    /// `solve`'s.
    pub fn run<T>(self, solve: impl FnOnce(&Database) -> Result<T, Error>) -> Result<T, Error> {
        self.0.run(solve)
    }
}
