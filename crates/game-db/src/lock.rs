//! The lock a writer takes on a database's directory, before it touches
//! it, held until it is done: [`DirLock`].
//!
//! Two solves into one directory at once each found the other's
//! half-written tier files: one failed, or both "succeeded" into a
//! database neither finished, or shard files were left beside another
//! solve's manifest. So every writer locks the directory (`flock`, which
//! the system releases when the process ends, however it ends):
//!
//! * a plain solve (or its resume) takes it **exclusively**
//!   ([`DirLock::exclusive`]);
//! * each process of a cluster solve takes it **shared**
//!   ([`DirLock::cluster`]): the processes of one solve write their shard
//!   files into one directory together. Shared holders must all belong to
//!   the same solve, named by a key every process of it computes alike
//!   (from its flags): the key is kept in [`LOCK_FILE`], itself locked
//!   shared by every live process, and a process whose key differs from a
//!   live one is refused.
//!
//! Where the system or file system has no locks (some network file
//! systems), writers run unlocked, as before: `Ok(None)`.

use std::fs::{File, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::{Error, Result};

/// The file in a database's directory that names the cluster solve
/// writing it (and that its processes lock). It is no part of the
/// database: a directory holding only it is empty to [`crate::Database::create`].
pub const LOCK_FILE: &str = "cluster.lock";

/// How long a cluster process waits for another to finish writing the
/// key of a solve (a few writes and a sync).
const KEY_WAIT: Duration = Duration::from_secs(10);

/// A lock held on a database's directory: released when dropped (or when
/// the process ends).
#[derive(Debug)]
pub struct DirLock {
    /// The directory, opened and locked.
    _dir: File,
    /// [`LOCK_FILE`], locked shared, for a cluster process.
    _key: Option<File>,
}

impl DirLock {
    /// The exclusive lock of a plain solve on the existing directory
    /// `dir`: `None` where this system cannot lock it.
    ///
    /// # Errors
    /// [`Error::Busy`] when another solve (plain or cluster) holds it, or
    /// the directory was replaced while it was being locked.
    pub fn exclusive(dir: &Path) -> Result<Option<DirLock>> {
        let Some(file) = open_dir(dir) else {
            return Ok(None);
        };
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(busy(dir, "another solve")),
            Err(TryLockError::Error(_)) => return Ok(None),
        }
        same_dir(dir, &file)?;
        Ok(Some(DirLock {
            _dir: file,
            _key: None,
        }))
    }

    /// The shared lock of one process of the cluster solve named `key` on
    /// the existing directory `dir`: every process of one solve holds it
    /// at once; a plain solve, or a process of a solve with another key,
    /// is refused. `None` where this system cannot lock it.
    ///
    /// # Errors
    /// [`Error::Busy`] when a plain solve holds the directory or a live
    /// process of another cluster solve holds [`LOCK_FILE`];
    /// [`Error::Io`] when the lock file cannot be written.
    pub fn cluster(dir: &Path, key: &str) -> Result<Option<DirLock>> {
        let Some(file) = open_dir(dir) else {
            return Ok(None);
        };
        match file.try_lock_shared() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Err(busy(dir, "a plain solve")),
            Err(TryLockError::Error(_)) => return Ok(None),
        }
        same_dir(dir, &file)?;
        let path = dir.join(LOCK_FILE);
        let io = |e| Error::io(&path, e);
        let mut lock = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        let t = Instant::now();
        loop {
            // Alone (no live process holds the file): this solve's key
            // is written, then the lock is taken shared like the others.
            match lock.try_lock() {
                Ok(()) => {
                    write_key(&mut lock, key).map_err(io)?;
                    lock.unlock().map_err(io)?;
                }
                Err(TryLockError::WouldBlock) => {}
                Err(TryLockError::Error(_)) => return Ok(None),
            }
            match lock.try_lock_shared() {
                Ok(()) => {
                    // The key of the live solve, stable while it is held
                    // shared: this one's, or another's (which also won
                    // the race of two solves writing their keys).
                    if read_key(&mut lock).map_err(io)? == key {
                        return Ok(Some(DirLock {
                            _dir: file,
                            _key: Some(lock),
                        }));
                    }
                    return Err(busy(dir, "another cluster solve"));
                }
                // A process is writing its key: wait for it.
                Err(TryLockError::WouldBlock) if t.elapsed() < KEY_WAIT => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                Err(TryLockError::WouldBlock) => return Err(busy(dir, "another cluster solve")),
                Err(TryLockError::Error(_)) => return Ok(None),
            }
        }
    }
}

/// `dir` opened to be locked, `None` where a directory cannot be opened
/// as a file.
fn open_dir(dir: &Path) -> Option<File> {
    File::open(dir).ok()
}

/// The refusal of a directory `who` is writing.
fn busy(dir: &Path, who: &'static str) -> Error {
    Error::Busy {
        path: dir.to_path_buf(),
        by: who,
    }
}

/// Checks that the directory locked is still the one at `dir` (one
/// removed by a failed solve and made again would be another, unlocked).
#[cfg(unix)]
fn same_dir(dir: &Path, file: &File) -> Result<()> {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(dir)) {
        (Ok(a), Ok(b)) if (a.dev(), a.ino()) == (b.dev(), b.ino()) => Ok(()),
        _ => Err(busy(dir, "another solve")),
    }
}

/// No inodes to compare here: the directory is taken as locked.
#[cfg(not(unix))]
#[allow(clippy::unnecessary_wraps)]
fn same_dir(_dir: &Path, _file: &File) -> Result<()> {
    Ok(())
}

/// Replaces the lock file's text by `key`, synced.
fn write_key(f: &mut File, key: &str) -> std::io::Result<()> {
    f.set_len(0)?;
    f.rewind()?;
    f.write_all(key.as_bytes())?;
    f.sync_all()
}

/// The lock file's text.
fn read_key(f: &mut File) -> std::io::Result<String> {
    let mut s = String::new();
    f.rewind()?;
    f.take(1 << 16).read_to_string(&mut s)?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("game-db-lock-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// One exclusive holder at a time; shared holders of one key
    /// together; another key, or an exclusive writer, refused while they
    /// live, and welcome after.
    #[test]
    fn writers_exclude_each_other() {
        let d = scratch("matrix");
        let plain = DirLock::exclusive(&d).unwrap().expect("locks here");
        assert!(matches!(DirLock::exclusive(&d), Err(Error::Busy { .. })));
        assert!(matches!(DirLock::cluster(&d, "a"), Err(Error::Busy { .. })));
        drop(plain);
        let a0 = DirLock::cluster(&d, "a").unwrap().expect("locks here");
        let a1 = DirLock::cluster(&d, "a").unwrap().expect("same solve");
        assert!(matches!(DirLock::cluster(&d, "b"), Err(Error::Busy { .. })));
        assert!(matches!(DirLock::exclusive(&d), Err(Error::Busy { .. })));
        drop((a0, a1));
        // The key left behind names no live solve.
        let b = DirLock::cluster(&d, "b").unwrap().expect("free again");
        assert!(matches!(DirLock::cluster(&d, "a"), Err(Error::Busy { .. })));
        drop(b);
        assert!(DirLock::exclusive(&d).unwrap().is_some());
        std::fs::remove_dir_all(&d).unwrap();
    }
}
