//! The database a `solve --db DIR` writes, and what a failed solve
//! leaves of it.
//!
//! A solve opens its database before the checks that can still refuse it
//! (the work budget, the memory of each tier group inside the engine): a
//! database already there may be solved, and then nothing is checked. A
//! refused or failed solve must not leave behind a database it created
//! and never wrote to — a new user's `--memory 1` would otherwise find a
//! stray directory with a manifest and nothing in it. [`SolveDb::discard`]
//! takes back exactly what [`SolveDb::open`] made.

use std::path::{Path, PathBuf};

use game_db::{Database, MANIFEST_FILE};

use super::analyze::open_db;
use super::Error;

/// A database opened (or created) for a solve.
pub struct SolveDb {
    /// The database.
    pub db: Database,
    /// What opening it created, if it was new.
    made: Option<Made>,
}

/// What [`SolveDb::open`] created for a new database.
struct Made {
    /// The database's directory.
    dir: PathBuf,
    /// The directories opening created (the database's, then each new
    /// parent up to the first that was there), removed in that order.
    dirs: Vec<PathBuf>,
}

impl SolveDb {
    /// Opens the database of `game` played by `rules` in `dir`, creating
    /// it (and `dir`) when there is none.
    ///
    /// # Errors
    /// As [`open_db`].
    pub fn open(dir: &Path, game: &str, rules: &str) -> Result<SolveDb, Error> {
        let new = !dir.join(MANIFEST_FILE).exists();
        // Creating the database creates every missing parent too.
        let dirs: Vec<PathBuf> = dir
            .ancestors()
            .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
            .map(Path::to_path_buf)
            .collect();
        let db = open_db(dir, game, rules, true)?;
        let made = new.then(|| Made {
            dir: dir.to_path_buf(),
            dirs,
        });
        Ok(SolveDb { db, made })
    }

    /// Runs `solve` on the database; when it fails and the database is one
    /// this command created with no finished tier, removes it again (its
    /// manifest, and its directory and the parents it made when they were
    /// new and are left empty).
    /// The error is returned either way.
    ///
    /// # Errors
    /// `solve`'s.
    pub fn run<T>(self, solve: impl FnOnce(&Database) -> Result<T, Error>) -> Result<T, Error> {
        let result = solve(&self.db);
        if result.is_err() {
            self.discard();
        }
        result
    }

    /// Removes what [`SolveDb::open`] created, if nothing was finished in
    /// it. Best effort: a file the solve left (a tier it was writing) keeps
    /// the directory, and an error removing is not the command's error.
    fn discard(self) {
        let Some(made) = self.made else {
            return;
        };
        if !self.db.finished_tiers().is_empty() {
            return;
        }
        drop(self.db);
        if std::fs::remove_file(made.dir.join(MANIFEST_FILE)).is_ok() {
            for d in &made.dirs {
                if std::fs::remove_dir(d).is_err() {
                    break;
                }
            }
        }
    }
}
