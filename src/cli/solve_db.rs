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
//!
//! Two solves into one directory at once would each find the other's
//! half-written tier files and both fail, leaving an unfinished
//! database: a solve holds an exclusive lock on the directory
//! ([`game_db::DirLock`], `flock`, released by the system when the
//! process ends, however it ends) from before it looks at the database
//! until it is done, and a second solve, plain or cluster, is refused at
//! once (each process of a cluster solve holds it shared:
//! [`super::analyze::open_cluster_db`]). Readers (`value`, `analyze`,
//! `play`) take no lock: they read finished tiers only.

use std::path::{Path, PathBuf};

use game_db::{Database, DirLock, MANIFEST_FILE};

use super::analyze::{open_db, Rules};
use super::Error;

/// A database opened (or created) for a solve.
pub struct SolveDb {
    /// The database.
    pub db: Database,
    /// What opening it created, if it was new.
    made: Option<Made>,
    /// The lock on the directory, held while this value lives (none
    /// where the system has no locks).
    _lock: Option<DirLock>,
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
    /// As [`open_db`]; [`Error::Usage`] when another solve holds the
    /// directory.
    pub fn open(dir: &Path, game: &str, rules: &Rules) -> Result<SolveDb, Error> {
        // Creating the database creates every missing parent too.
        let dirs: Vec<PathBuf> = dir
            .ancestors()
            .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
            .map(Path::to_path_buf)
            .collect();
        // The directory first, to lock it (a directory that cannot be
        // made is left for `open_db` to report).
        let lock = match std::fs::create_dir_all(dir) {
            Ok(()) => lock_dir(dir)?,
            Err(_) => None,
        };
        // Looked at under the lock: a solve that finished meanwhile made
        // the manifest, and it is not this solve's to take back.
        let new = !dir.join(MANIFEST_FILE).exists();
        let made = new.then(|| Made {
            dir: dir.to_path_buf(),
            dirs,
        });
        let db = match open_db(dir, game, rules, true) {
            Ok(db) => db,
            Err(e) => {
                // What this open made is taken back (the directories).
                if let Some(made) = made {
                    made.remove_dirs();
                }
                return Err(e);
            }
        };
        Ok(SolveDb {
            db,
            made,
            _lock: lock,
        })
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
        // Still under the lock (dropped last): no other solve has begun.
        if std::fs::remove_file(made.dir.join(MANIFEST_FILE)).is_ok() {
            made.remove_dirs();
        }
    }
}

impl Made {
    /// Removes the directories opening made, deepest first, while each
    /// is empty.
    fn remove_dirs(&self) {
        for d in &self.dirs {
            if std::fs::remove_dir(d).is_err() {
                break;
            }
        }
    }
}

/// Takes the exclusive lock on the directory `dir` for a solve
/// ([`game_db::DirLock::exclusive`]): `None` where this system or file
/// system has no such locks.
///
/// # Errors
/// [`Error::Usage`] when another solve, plain or cluster, holds it.
fn lock_dir(dir: &Path) -> Result<Option<DirLock>, Error> {
    DirLock::exclusive(dir).map_err(super::analyze::db_error)
}
