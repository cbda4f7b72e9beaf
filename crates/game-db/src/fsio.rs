//! File system helpers: positioned reads, durable renames.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::{Error, Result};

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
pub(crate) fn sync_dir(dir: &Path) -> Result<()> {
    #[cfg(unix)]
    {
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
    let mut f = File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| Error::io(&tmp, e))?;
    drop(f);
    rename_durably(&tmp, path)
}
