//! File system helpers: positioned reads, durable renames.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

/// Opens `path` for reading, if it is a regular file: opening a FIFO
/// waits for a writer that may never come, and reading a device such as
/// `/dev/zero` never ends. The type is checked before the open and again
/// on the open file.
pub(crate) fn open_regular(path: &Path) -> std::io::Result<File> {
    let not_regular = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a database's files are plain files)",
        )
    };
    if !std::fs::metadata(path)?.is_file() {
        return Err(not_regular());
    }
    let file = File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(file)
}

/// What stands where `dir` or one of its parents should be a directory:
/// the nearest of them (`dir` first) that exists, if it is not a
/// directory. `None` when that one is a directory (or none exists), so
/// that whatever else fails is the operating system's to say.
pub(crate) fn file_in_the_way(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .filter(|a| !a.as_os_str().is_empty())
        .find_map(|a| std::fs::metadata(a).ok().map(|m| (a, m)))
        .and_then(|(a, m)| (!m.is_dir()).then(|| a.to_path_buf()))
}

/// What the directory `dir` holds besides a manifest's temporary file
/// (what a crash while creating a database leaves), described as the
/// number of entries and the first few names in order; `None` when it
/// holds nothing else or does not exist. Reads the names one at a time,
/// so a directory of any size takes no more memory.
pub(crate) fn other_entries(dir: &Path, manifest: &Path) -> std::io::Result<Option<String>> {
    const SHOWN: usize = 3;
    let listed = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let entries = match std::fs::read_dir(listed) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let temp = temp_path(manifest);
    let temp = temp.file_name().unwrap_or_default();
    let (mut count, mut first) = (0u64, Vec::with_capacity(SHOWN + 1));
    for entry in entries {
        let name = entry?.file_name();
        // A cluster solve's lock file is no part of a database.
        if name == temp || name == crate::LOCK_FILE {
            continue;
        }
        count += 1;
        first.push(name);
        first.sort();
        first.truncate(SHOWN);
    }
    if count == 0 {
        return Ok(None);
    }
    let mut names: Vec<String> = first.iter().map(|n| format!("{n:?}")).collect();
    if count > SHOWN as u64 {
        names.push("…".into());
    }
    let s = if count == 1 { "y" } else { "ies" };
    Ok(Some(format!("{count} entr{s} ({})", names.join(", "))))
}

/// The longest manifest read: far past any real one (a line a tier or
/// shard, some 100 bytes), so that a damaged or hostile manifest cannot
/// take unbounded memory.
pub(crate) const MAX_MANIFEST_BYTES: u64 = 64 << 20;

/// Reads the manifest at `path` whole, refusing one past
/// [`MAX_MANIFEST_BYTES`] before reading it.
pub(crate) fn read_manifest(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = open_regular(path)?;
    let len = file.metadata()?.len();
    let too_long = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("a manifest of more than {MAX_MANIFEST_BYTES} bytes"),
        )
    };
    if len > MAX_MANIFEST_BYTES {
        return Err(too_long());
    }
    let mut bytes = Vec::with_capacity(len as usize);
    // The file may grow meanwhile: never past the cap.
    file.take(MAX_MANIFEST_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_MANIFEST_BYTES {
        return Err(too_long());
    }
    Ok(bytes)
}

/// Writes the manifest `text` at `path` ([`write_atomically`]), refusing
/// one that [`read_manifest`] would refuse to read back.
pub(crate) fn write_manifest(path: &Path, text: &str) -> Result<()> {
    if text.len() as u64 > MAX_MANIFEST_BYTES {
        return Err(Error::io(
            path,
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!(
                    "a manifest of more than {MAX_MANIFEST_BYTES} bytes: too many tiers or shards"
                ),
            ),
        ));
    }
    write_atomically(path, text.as_bytes())
}

/// Reads exactly `buf.len()` bytes at `offset` without moving a shared
/// cursor, so several threads can read one `File` at once.
pub(crate) fn read_at(file: &File, path: &Path, buf: &mut [u8], offset: u64) -> Result<()> {
    read_exact_at(file, buf, offset).map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            Error::corrupt(
                path,
                format!(
                    "the file ended inside {} bytes at offset {offset}",
                    buf.len()
                ),
            )
        } else {
            Error::io(path, e)
        }
    })
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Makes a rename or file creation in `dir` durable. On systems where a
/// directory cannot be opened (Windows) the rename itself is relied on.
/// The empty path (the parent `Path::parent` gives a bare file name) is
/// the current directory.
pub(crate) fn sync_dir(dir: &Path) -> Result<()> {
    #[cfg(unix)]
    {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        File::open(dir)
            .and_then(|d| d.sync_all())
            .map_err(|e| Error::io(dir, e))?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// The name of the temporary file `path` is written to before the rename.
pub(crate) fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

/// Creates the temporary file `tmp` afresh, for writing: whatever is at
/// the path (a crash's leftover, or anything else) is removed first, and
/// the file is created only if the path is then free. `File::create`
/// opened what it found: a FIFO left there waited for a reader for ever,
/// and a symbolic link had the file it points to (anywhere) truncated and
/// overwritten.
pub(crate) fn create_temp(tmp: &Path) -> Result<File> {
    let _ = std::fs::remove_file(tmp);
    std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(tmp)
        .map_err(|e| Error::io(tmp, e))
}

/// Renames `from` over `to` and syncs their directory.
pub(crate) fn rename_durably(from: &Path, to: &Path) -> Result<()> {
    std::fs::rename(from, to).map_err(|e| Error::io(to, e))?;
    sync_dir(to.parent().unwrap_or(Path::new(".")))
}

/// Writes `bytes` to `path` crash-safely: a temporary file, synced, renamed
/// into place, the directory synced. A crash leaves either the old file or
/// the new one, never a mix.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let tmp = temp_path(path);
    let mut f = create_temp(&tmp)?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| Error::io(&tmp, e))?;
    drop(f);
    rename_durably(&tmp, path)
}
