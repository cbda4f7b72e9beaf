//! Storage of solved game tables: one compressed, checksummed file per
//! tier, written crash-safely, read one small block per lookup.
//!
//! A solver produces, for every tier of a game (an untiered game is one
//! tier, number 0), one record per index of the tier: `Option<Value>`,
//! where `None` means the index stands for no position. A [`Database`]
//! stores those records and answers lookups without solving again.
//!
//! ```
//! # fn main() -> Result<(), game_db::Error> {
//! use game_core::Value;
//! use game_db::Database;
//!
//! let dir = tempfile::tempdir().expect("a temporary directory");
//! let rules = "take 1 or 2, normal play"; // anything that tells rules apart
//! {
//!     let db = Database::create(dir.path(), "Take 1-2", rules)?;
//!     // Stream the records of tier 0 in index order, in chunks of any size.
//!     let mut w = db.writer(0)?;
//!     w.write(&[Some(Value::lose(0)), Some(Value::win(1)), None])?;
//!     for i in 3..100_000u32 {
//!         w.push(Some(if i % 3 == 0 { Value::lose(i / 3 * 2) } else { Value::win(i / 3 * 2 + 1) }))?;
//!     }
//!     let info = w.finish()?; // renamed into place, listed in the manifest
//!     assert_eq!(info.records, 100_000);
//! }
//! let db = Database::open(dir.path(), "Take 1-2", rules)?;
//! assert_eq!(db.finished_tiers(), [0]);
//! assert_eq!(db.lookup(0, 1)?, Some(Value::win(1)));
//! assert_eq!(db.lookup(0, 2)?, None);
//! assert_eq!(db.lookup(0, 99_999)?, Some(Value::lose(66_666)));
//! assert!(db.lookup(1, 0).is_err()); // tier 1 was never finished
//! assert!(Database::open(dir.path(), "Take 1-2", "other rules").is_err());
//! # Ok(()) }
//! ```
//!
//! # Records
//!
//! A record is 16 bits: the top two bits are the class, the other 14 the
//! remoteness (`0` no position, `1` draw, `01`+r lose in r, `10`+r tie in r,
//! `11`+r win in r; see [`encode16`]). A tier with a remoteness above
//! 16,383 is stored with 32-bit records of the same layout ([`encode32`]);
//! a writer chooses by itself (it starts narrow and rewrites what it wrote
//! so far once, if a larger remoteness arrives) unless
//! [`Options::width`] fixes the width. The header says which width a file
//! uses. Decoding a pattern no record encodes is an error.
//!
//! # Files
//!
//! A database is a directory with a manifest, `manifest.gsdb`, and one file
//! per finished tier, `tier-<N>.gsdb`. A tier file is, all integers little
//! endian:
//!
//! | bytes | field |
//! | --- | --- |
//! | 8 | magic `GSDB\r\n\x1a\n` |
//! | 4 | format version ([`FORMAT_VERSION`]) |
//! | 4 | header length h |
//! | 8 | [`rules_hash`] of the rules (64-bit FNV-1a) |
//! | 8 | tier |
//! | 8 | number of records |
//! | 8 | number of blocks |
//! | 8 | offset of the block index |
//! | 4 | CRC-32 of the block index |
//! | 4 | records per block |
//! | 1 | record width in bytes (2 or 4) |
//! | 1 | codec (1 = zstd) |
//! | 2 | length n of the game's name |
//! | n | the game's name, UTF-8 |
//! | 4 | CRC-32 of the header's bytes before it |
//! | … | the blocks, each an independent zstd frame, back to back from h |
//! | 8 per block | the block index: compressed length, CRC-32 of the compressed bytes |
//!
//! The manifest is text: a version line, the game, the rules hash, one line
//! per finished tier (`tier N records R bytes B header-crc32 H file-crc32
//! F`) and a last line with the CRC-32 of all the lines before it.
//!
//! # Design
//!
//! * **Blocks.** A tier is cut into blocks of [`Options::block_bytes`]
//!   uncompressed bytes (16 KiB by default), each compressed on its own, so
//!   a lookup reads and decompresses one block, never the whole tier. The
//!   block index (12 bytes a block in memory) is read at open. Recently
//!   used blocks are kept decompressed in a shared LRU cache
//!   ([`Options::cache_bytes`], 4 MiB by default).
//! * **Checksums.** The header, the block index and every block carry a
//!   CRC-32, which catches every error of one byte (and of any burst up to
//!   32 bits). A lookup in a damaged block returns an error, never a
//!   value; an open with a damaged header or index fails. The manifest
//!   records each tier file's length and header checksum (compared at
//!   open, cheaply) and the CRC-32 of the whole file ([`Database::verify`]).
//! * **Crash safety.** A [`TierWriter`] streams blocks into
//!   `tier-<N>.gsdb.tmp`; [`TierWriter::finish`] writes the index and the
//!   header, syncs the file, renames it into place, syncs the directory,
//!   then writes the manifest the same way (temporary file, sync, rename,
//!   sync). A tier is finished only once the manifest lists it, so a crash
//!   at any point leaves either a finished tier or an unfinished one (a
//!   left-over temporary file, or a renamed file the manifest does not
//!   list), which the next writer of the tier simply overwrites. Rewriting
//!   a finished tier first removes it from the manifest.
//! * **Determinism.** Files hold no timestamps and blocks are compressed
//!   with fixed parameters: the same records give byte-identical files
//!   (with the same zstd library version and options).
//! * **Threads.** Every reading method takes `&self` and [`Database`] is
//!   `Sync`; lookups read with positioned reads, so threads never share a
//!   file cursor.
//!
//! # Measurements
//!
//! MEASUREMENTS

mod cache;
mod db;
mod error;
mod format;
mod fsio;
mod record;
mod tierfile;
mod writer;

pub use db::{
    Database, Options, TierInfo, DEFAULT_BLOCK_BYTES, DEFAULT_CACHE_BYTES, DEFAULT_LEVEL,
    MANIFEST_FILE,
};
pub use error::{Error, Result};
pub use format::{rules_hash, FORMAT_VERSION, MAX_NAME_BYTES};
pub use record::{decode16, decode32, encode16, encode32, RecordWidth, MAX_NARROW_REMOTENESS};
pub use writer::TierWriter;
