//! The crate's one error type.

use std::path::PathBuf;

use game_core::Tier;

/// What goes wrong when writing or reading a database.
///
/// Every fault found in a file names the file. A lookup never returns a
/// value from a block that failed its checks: it returns one of these.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The operating system refused a read, write, rename or sync.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory concerned.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The directory holds no manifest: no database was created there.
    #[error("{}: no database here (no manifest)", path.display())]
    NoDatabase {
        /// The manifest looked for.
        path: PathBuf,
    },
    /// The database's directory, or a directory on the way to it, is a
    /// file (or another thing that is not a directory): `path` is what is
    /// there. Creating the directory said "File exists", and looking for
    /// the manifest inside it "Not a directory".
    #[error("{}: a file, not a directory (a database is a directory)", path.display())]
    NotADirectory {
        /// The file found where a directory should be.
        path: PathBuf,
    },
    /// A database was to be created in a directory that holds no manifest
    /// but other files: a database that lost its manifest, or anything
    /// else. Nothing there is overwritten (tier files of the same names
    /// were, silently).
    #[error("{}: holds no database (no manifest) but {found}: a new database needs an empty or new directory", path.display())]
    NotEmpty {
        /// The directory.
        path: PathBuf,
        /// What it holds: the number of entries and the first few names.
        found: String,
    },
    /// Another solve is writing the database's directory (it holds the
    /// directory's lock, [`crate::DirLock`]).
    #[error("the database in {} is being written by {by} (solve --db); wait for it to finish", path.display())]
    Busy {
        /// The directory.
        path: PathBuf,
        /// Who holds it: "another solve", "a plain solve", "another
        /// cluster solve".
        by: &'static str,
    },
    /// The file does not start like a database file or manifest.
    #[error("{}: not a gamesolve database file (bad magic)", path.display())]
    BadMagic {
        /// The file.
        path: PathBuf,
    },
    /// The file was written in a format version this library does not read.
    #[error("{}: format version {found}, this library reads version {supported}", path.display())]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// The version this library reads and writes.
        supported: u32,
    },
    /// The file belongs to another game.
    #[error("{}: holds the game {found:?}, not {expected:?}", path.display())]
    WrongGame {
        /// The file.
        path: PathBuf,
        /// The game named in the file.
        found: String,
        /// The game asked for.
        expected: String,
    },
    /// The file was written for other rules of the game.
    #[error("{}: written for rules with hash {found:016x}, not {expected:016x}", path.display())]
    WrongRules {
        /// The file.
        path: PathBuf,
        /// The rules hash in the file.
        found: u64,
        /// The hash of the rules asked for.
        expected: u64,
    },
    /// The file is shorter than its manifest entry or header says.
    #[error("{}: truncated: {found} bytes, expected {expected}", path.display())]
    Truncated {
        /// The file.
        path: PathBuf,
        /// The length the file should have.
        expected: u64,
        /// The length it has.
        found: u64,
    },
    /// The header's checksum does not match its bytes.
    #[error("{}: header checksum mismatch", path.display())]
    HeaderChecksum {
        /// The file.
        path: PathBuf,
    },
    /// The block index's checksum does not match its bytes.
    #[error("{}: block index checksum mismatch", path.display())]
    IndexChecksum {
        /// The file.
        path: PathBuf,
    },
    /// A block's compressed bytes do not match their checksum.
    #[error("{}: block {block} checksum mismatch", path.display())]
    BlockChecksum {
        /// The file.
        path: PathBuf,
        /// The block's number in the file.
        block: u64,
    },
    /// The whole file's bytes do not match the CRC-32 recorded for it when
    /// it was written (in the manifest, or in the [`crate::ShardEntry`]
    /// handed to [`crate::Database::finish_sharded`]): the file was
    /// altered since.
    #[error("{}: the file's checksum differs from the one recorded when it was written", path.display())]
    FileChecksum {
        /// The file.
        path: PathBuf,
    },
    /// Any other inconsistency in a file: fields that contradict each
    /// other, a block that does not decompress to its size, a record with
    /// impossible bits, a length that differs from the manifest's.
    #[error("{}: corrupt: {fault}", path.display())]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        fault: String,
    },
    /// The tier was asked for but is not finished: the manifest does not
    /// list it (its file may be missing, left over from a crash, or being
    /// written).
    #[error("{}: tier {tier} is not finished", path.display())]
    TierNotFinished {
        /// The tier's file.
        path: PathBuf,
        /// The tier.
        tier: Tier,
    },
    /// The manifest lists the tier but its file is gone.
    #[error("{}: tier {tier} is listed in the manifest but its file is missing", path.display())]
    TierFileMissing {
        /// The tier's file.
        path: PathBuf,
        /// The tier.
        tier: Tier,
    },
    /// A finished tier's file, opened again (it was closed to keep within
    /// [`crate::Options::open_files`], or is read whole by a scan), is no
    /// longer the file this handle checked when it opened it: another
    /// handle or process rewrote the tier (or the file was damaged) since.
    /// Its blocks are not where this handle looks for them; open the
    /// database again to read the tier as it is now.
    #[error("{}: tier {tier}'s file changed since this database handle opened it (rewritten by another writer?); open the database again", path.display())]
    FileChanged {
        /// The tier's file.
        path: PathBuf,
        /// The tier.
        tier: Tier,
    },
    /// An index past the end of its tier.
    #[error("{}: index {index} is out of range (tier {tier} has {records} records)", path.display())]
    IndexOutOfRange {
        /// The tier's file.
        path: PathBuf,
        /// The tier.
        tier: Tier,
        /// The index asked for.
        index: u64,
        /// The number of records of the tier.
        records: u64,
    },
    /// A remoteness too large for the record width the writer was told
    /// to use.
    #[error("remoteness {remoteness} does not fit a {bits}-bit record (at most {max})")]
    RemotenessTooLarge {
        /// The remoteness.
        remoteness: u32,
        /// The record width in bits.
        bits: u32,
        /// The largest remoteness that fits.
        max: u32,
    },
    /// Bits that no record encodes.
    #[error("{value:#x} is no valid {bits}-bit record")]
    InvalidRecord {
        /// The bits.
        value: u32,
        /// The record width in bits.
        bits: u32,
    },
    /// A game name that cannot be stored.
    #[error("invalid game name {name:?}: {why}")]
    InvalidName {
        /// The name.
        name: String,
        /// Why it is refused.
        why: &'static str,
    },
    /// Options out of range.
    #[error("invalid options: {0}")]
    InvalidOptions(String),
    /// A shard of a finished tier was to be written (a listed file is
    /// never overwritten; rewrite the tier with [`crate::Database::writer`]).
    #[error("{}: tier {tier} is finished; its shards cannot be rewritten", path.display())]
    TierFinished {
        /// The tier's file.
        path: PathBuf,
        /// The tier.
        tier: Tier,
    },
    /// Shards given to [`crate::Database::finish_sharded`] that do not
    /// tile the tier: not shards `0..k` of it, or not contiguous from
    /// index 0.
    #[error("tier {tier}: the shards do not cover it: {why}")]
    InvalidShards {
        /// The tier.
        tier: Tier,
        /// What is wrong.
        why: String,
    },
    /// A writer was called again after one of its calls failed (a write
    /// the disk refused, a record it could not take): what it holds is no
    /// longer the records it was given, in order, so it takes no more
    /// records and never finishes (its temporary file is removed when it
    /// is dropped). Write the tier or shard again with a new writer.
    #[error("{}: tier {tier}: the writer failed earlier ({cause}); it takes no more records and cannot finish: write the tier again", path.display())]
    WriterFailed {
        /// The file the writer was to finish (the tier's or the shard's).
        path: PathBuf,
        /// The tier.
        tier: Tier,
        /// The first failure, as it was reported then.
        cause: String,
    },
    /// Another writer of this database is writing the tier.
    #[error("{}: tier {tier} is already being written", path.display())]
    TierBusy {
        /// The tier's file.
        path: PathBuf,
        /// The tier.
        tier: Tier,
    },
}

impl Error {
    /// The file, if this is damage to a file of a database: a wrong magic,
    /// a file cut short, a checksum that does not match, a corrupt record
    /// or manifest, or a tier's file gone that the manifest lists. Such a
    /// database cannot be trusted; it is to be written again.
    #[must_use]
    pub fn damaged_file(&self) -> Option<&std::path::Path> {
        match self {
            Error::BadMagic { path }
            | Error::Truncated { path, .. }
            | Error::HeaderChecksum { path }
            | Error::IndexChecksum { path }
            | Error::BlockChecksum { path, .. }
            | Error::FileChecksum { path, .. }
            | Error::Corrupt { path, .. }
            | Error::TierFileMissing { path, .. } => Some(path),
            _ => None,
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Error {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    pub(crate) fn corrupt(path: impl Into<PathBuf>, fault: impl Into<String>) -> Error {
        Error::Corrupt {
            path: path.into(),
            fault: fault.into(),
        }
    }
}

/// A `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;
