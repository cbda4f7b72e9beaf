//! The database a solve writes, and what a failed solve leaves of it:
//! [`SolveDir`].
//!
//! A solve opens its database before the checks that can still refuse it
//! (a work budget, the memory of each tier group inside the engine): a
//! database already there may be solved, and then nothing is checked. A
//! refused or failed solve must not leave behind a database it created
//! and never wrote to — a new user's `--memory 1` would otherwise find a
//! stray directory with a manifest and nothing in it.
//! [`SolveDir::run`] takes back exactly what [`SolveDir::open`] made.
//!
//! Two solves into one directory at once would each find the other's
//! half-written tier files and both fail, leaving an unfinished
//! database: a solve holds an exclusive lock on the directory
//! ([`DirLock`], `flock`, released by the system when the process ends,
//! however it ends) from before it looks at the database until it is
//! done, and a second solve, plain or cluster, is refused at once (each
//! process of a cluster solve holds it shared: [`SolveDir::cluster`]).
//! Readers take no lock: they read finished tiers only.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::{Database, DirLock, Error, Result, MANIFEST_FILE};

/// A database opened (or created) for a solve, with the directory's lock
/// held while this value lives.
#[derive(Debug)]
pub struct SolveDir {
    /// The database.
    db: Database,
    /// What opening it created, if it was new.
    made: Option<Made>,
    /// The lock on the directory (none where the system has no locks).
    lock: Option<DirLock>,
}

/// What [`SolveDir::open`] created for a new database.
#[derive(Debug)]
struct Made {
    /// The database's directory.
    dir: PathBuf,
    /// The directories opening created (the database's, then each new
    /// parent up to the first that was there), removed in that order.
    dirs: Vec<PathBuf>,
}

impl SolveDir {
    /// Opens the database of `game` played by `rules` in `dir` for a plain
    /// solve, creating it (and `dir` and its missing parents) when there
    /// is none, under the exclusive lock on `dir`
    /// ([`DirLock::exclusive`]), taken before the database is looked at.
    /// When the open fails, the directories it made are removed again.
    ///
    /// # Errors
    /// [`Error::Busy`] when another solve, plain or cluster, holds the
    /// directory; otherwise [`Database::create`]'s.
    pub fn open(dir: &Path, game: &str, rules: impl AsRef<[u8]>) -> Result<SolveDir> {
        // Creating the database creates every missing parent too.
        let dirs: Vec<PathBuf> = dir
            .ancestors()
            .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
            .map(Path::to_path_buf)
            .collect();
        // The directory first, to lock it (a directory that cannot be
        // made is left for `Database::create` to report).
        let lock = match std::fs::create_dir_all(dir) {
            Ok(()) => DirLock::exclusive(dir)?,
            Err(_) => None,
        };
        // Looked at under the lock: a solve that finished meanwhile made
        // the manifest, and it is not this solve's to take back.
        let new = !dir.join(MANIFEST_FILE).exists();
        let made = new.then(|| Made {
            dir: dir.to_path_buf(),
            dirs,
        });
        match Database::create(dir, game, rules) {
            Ok(db) => Ok(SolveDir { db, made, lock }),
            Err(e) => {
                // What this open made is taken back (the directories).
                if let Some(made) = made {
                    made.remove_dirs();
                }
                Err(e)
            }
        }
    }

    /// The database of one process of the cluster solve named `key`
    /// (every process of it computes the key alike), with its share of the
    /// directory's lock ([`DirLock::cluster`], taken before anything else
    /// is done in the directory). The `leader` (process 0) creates (or
    /// opens) the database; the others wait up to `wait` for it to make
    /// the directory and then the database (the directory is shared by
    /// every process). Nothing is taken back when a cluster solve fails
    /// (other processes may have written their shards); only a directory
    /// the leader made is removed when the lock is refused.
    ///
    /// # Errors
    /// [`Error::Busy`] when a plain solve, or a process of another cluster
    /// solve, holds the directory; otherwise [`Database::create`]'s (the
    /// leader) or [`Database::open`]'s (the others: [`Error::NoDatabase`]
    /// once `wait` is over).
    pub fn cluster(
        dir: &Path,
        game: &str,
        rules: impl AsRef<[u8]>,
        leader: bool,
        key: &str,
        wait: Duration,
    ) -> Result<SolveDir> {
        let t = Instant::now();
        let made = leader && !dir.exists() && std::fs::create_dir_all(dir).is_ok();
        // The others wait for process 0 to make the directory.
        while !leader && !dir.exists() && t.elapsed() < wait {
            std::thread::sleep(Duration::from_millis(50));
        }
        let lock = match DirLock::cluster(dir, key) {
            Ok(lock) => lock,
            // A directory that is not there (or no directory) is left for
            // the database to report.
            Err(Error::Io { .. }) => None,
            Err(e) => {
                if made {
                    let _ = std::fs::remove_dir(dir);
                }
                return Err(e);
            }
        };
        let db = if leader {
            Database::create(dir, game, rules)?
        } else {
            loop {
                match Database::open(dir, game, rules.as_ref()) {
                    Err(Error::NoDatabase { .. }) if t.elapsed() < wait => {
                        std::thread::sleep(Duration::from_millis(50));
                    }
                    r => break r?,
                }
            }
        };
        Ok(SolveDir {
            db,
            made: None,
            lock,
        })
    }

    /// The database.
    #[must_use]
    pub fn db(&self) -> &Database {
        &self.db
    }

    /// The database and the directory's lock (none where the system has
    /// no locks), for a solve that shares the database: the lock is held
    /// until the returned value is dropped, and nothing is taken back on
    /// a failure.
    #[must_use]
    pub fn into_parts(self) -> (Database, Option<DirLock>) {
        (self.db, self.lock)
    }

    /// Runs `solve` on the database; when it fails and the database is one
    /// [`SolveDir::open`] created with no finished tier, removes it again
    /// (its manifest, and its directory and the parents it made when they
    /// are left empty). The error is returned either way.
    ///
    /// # Errors
    /// `solve`'s.
    pub fn run<T, E>(
        self,
        solve: impl FnOnce(&Database) -> std::result::Result<T, E>,
    ) -> std::result::Result<T, E> {
        let result = solve(&self.db);
        if result.is_err() {
            self.discard();
        }
        result
    }

    /// Removes what [`SolveDir::open`] created, if nothing was finished in
    /// it. Best effort: a file the solve left (a tier it was writing) keeps
    /// the directory, and an error removing is not the solve's error.
    fn discard(self) {
        let SolveDir { db, made, lock } = self;
        let Some(made) = made else {
            return;
        };
        if !db.finished_tiers().is_empty() {
            return;
        }
        drop(db);
        // Still under the lock (dropped last): no other solve has begun.
        if std::fs::remove_file(made.dir.join(MANIFEST_FILE)).is_ok() {
            made.remove_dirs();
        }
        drop(lock);
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

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::Value;

    const GAME: &str = "Take 1-2";
    const RULES: &str = "take 1 or 2";

    /// A failure of the solve run in the database.
    #[derive(Debug, PartialEq)]
    struct Failed;

    /// A second plain solve, or a cluster process, is refused while a
    /// plain solve holds the directory, and welcome once it is done.
    #[test]
    fn a_second_solve_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("db");
        let first = SolveDir::open(&dir, GAME, RULES).unwrap();
        assert!(first.lock.is_some(), "this system locks directories");
        assert!(matches!(
            SolveDir::open(&dir, GAME, RULES),
            Err(Error::Busy {
                by: "another solve",
                ..
            })
        ));
        assert!(matches!(
            SolveDir::cluster(&dir, GAME, RULES, true, "k", Duration::ZERO),
            Err(Error::Busy { .. })
        ));
        // The refusals took nothing back: the first solve's database is there.
        assert!(dir.join(MANIFEST_FILE).exists());
        drop(first);
        let again = SolveDir::open(&dir, GAME, RULES).unwrap();
        // Cluster processes of one key share it; a plain solve is refused.
        drop(again);
        let a = SolveDir::cluster(&dir, GAME, RULES, true, "k", Duration::ZERO).unwrap();
        let b = SolveDir::cluster(&dir, GAME, RULES, false, "k", Duration::ZERO).unwrap();
        assert!(matches!(
            SolveDir::cluster(&dir, GAME, RULES, false, "other", Duration::ZERO),
            Err(Error::Busy { .. })
        ));
        assert!(matches!(
            SolveDir::open(&dir, GAME, RULES),
            Err(Error::Busy { .. })
        ));
        drop((a, b));
    }

    /// A failed solve into a new directory under new parents removes the
    /// manifest and exactly the directories the open made: the first
    /// parent that was there, and a file beside it, stay.
    #[test]
    fn a_failed_solve_takes_back_what_open_made() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join("keep"), b"x").unwrap();
        let dir = root.path().join("a").join("b").join("db");
        let r = SolveDir::open(&dir, GAME, RULES).unwrap().run(|db| {
            assert!(db.dir().join(MANIFEST_FILE).exists());
            Err::<(), _>(Failed)
        });
        assert_eq!(r, Err(Failed));
        assert!(!root.path().join("a").exists());
        assert!(root.path().join("keep").exists());
        let mut left: Vec<_> = std::fs::read_dir(root.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        left.sort();
        assert_eq!(left, ["keep"]);
        // A solve that succeeds keeps its database.
        let r = SolveDir::open(&dir, GAME, RULES)
            .unwrap()
            .run(|_| Ok::<_, Failed>(7));
        assert_eq!(r, Ok(7));
        assert!(Database::open(&dir, GAME, RULES).is_ok());
    }

    /// A database that was there before is left whole by a failed solve,
    /// and so is a new one in which a tier was finished; an open that
    /// fails (other rules) takes back no directory it did not make.
    #[test]
    fn an_existing_database_is_untouched() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("db");
        {
            let db = Database::create(&dir, GAME, RULES).unwrap();
            let mut w = db.writer(0).unwrap();
            w.write(&[Some(Value::lose(0)), Some(Value::win(1))])
                .unwrap();
            w.finish().unwrap();
        }
        let before = std::fs::read(dir.join(MANIFEST_FILE)).unwrap();
        let r = SolveDir::open(&dir, GAME, RULES)
            .unwrap()
            .run(|_| Err::<(), _>(Failed));
        assert_eq!(r, Err(Failed));
        assert_eq!(std::fs::read(dir.join(MANIFEST_FILE)).unwrap(), before);
        let db = Database::open(&dir, GAME, RULES).unwrap();
        assert_eq!(db.lookup(0, 1).unwrap(), Some(Value::win(1)));
        drop(db);
        assert!(matches!(
            SolveDir::open(&dir, GAME, "other rules"),
            Err(Error::WrongRules { .. })
        ));
        assert_eq!(std::fs::read(dir.join(MANIFEST_FILE)).unwrap(), before);

        // New, but a tier was finished before the failure: kept.
        let fresh = root.path().join("fresh");
        let r = SolveDir::open(&fresh, GAME, RULES).unwrap().run(|db| {
            let mut w = db.writer(0).unwrap();
            w.write(&[Some(Value::lose(0))]).unwrap();
            w.finish().unwrap();
            Err::<(), _>(Failed)
        });
        assert_eq!(r, Err(Failed));
        let db = Database::open(&fresh, GAME, RULES).unwrap();
        assert_eq!(db.finished_tiers(), [0]);
    }

    /// A directory the database cannot be made in (a file in the way)
    /// is reported by the database, and the file is left alone.
    #[test]
    fn a_file_in_the_way_is_reported() {
        let root = tempfile::tempdir().unwrap();
        let file = root.path().join("f");
        std::fs::write(&file, b"data").unwrap();
        assert!(matches!(
            SolveDir::open(&file.join("db"), GAME, RULES),
            Err(Error::NotADirectory { .. })
        ));
        assert_eq!(std::fs::read(&file).unwrap(), b"data");
    }

    /// A cluster process other than the leader finds no database once
    /// its wait is over, when the leader never made one.
    #[test]
    fn a_cluster_process_waits_for_the_leader() {
        let root = tempfile::tempdir().unwrap();
        let dir = root.path().join("db");
        std::fs::create_dir(&dir).unwrap();
        assert!(matches!(
            SolveDir::cluster(&dir, GAME, RULES, false, "k", Duration::from_millis(120)),
            Err(Error::NoDatabase { .. })
        ));
        let leader = SolveDir::cluster(&dir, GAME, RULES, true, "k", Duration::ZERO).unwrap();
        let other = SolveDir::cluster(&dir, GAME, RULES, false, "k", Duration::ZERO).unwrap();
        assert_eq!(other.db().finished_tiers(), leader.db().finished_tiers());
    }
}
