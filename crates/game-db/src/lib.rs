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
//! | … | the blocks, each an independent zstd frame of the block's layout (below), back to back from h |
//! | 8 per block | the block index: compressed length, CRC-32 of the compressed bytes |
//!
//! A block of n records is laid out before it is compressed. Its first
//! byte says how. **0, dense** (format 3, whenever every remoteness of
//! the block is below 64): then n values of one byte, `class << 6 | r`
//! (a draw is `1`, no position `0`). **The record width w** (2 or 4):
//! a presence bitmap of ⌈n/8⌉ bytes (bit `i % 8` of byte `i / 8` set iff
//! record `i` stands for a position), then the records whose bit is set,
//! w bytes each, in index order. **1** (written by format 2 only, still
//! read): the bitmap, then a one-byte value a set bit. A game's dense
//! index is mostly illegal, unreachable or non-canonical indices; in a
//! dense block they are runs of zeros and repeated patterns that zstd's
//! matches take together with the values beside them, which compresses
//! better than a bitmap beside the values (measured below). A block that
//! decompresses to anything else (a wrong length, bits past its end, a
//! present record holding no position) is refused as damaged. Files of
//! format 1 (records compressed as they are) are refused with
//! [`Error::UnsupportedVersion`], which names the version found.
//!
//! The manifest is text: a version line, the game, the rules hash, one line
//! per finished tier (`tier N records R bytes B header-crc32 H file-crc32
//! F`) and a last line with the CRC-32 of all the lines before it.
//!
//! # Sharded tiers
//!
//! A tier may instead be stored as shards, `tier-<N>.shard-<K>.gsdb` for
//! `K = 0..k`, each a tier file as above holding a contiguous range of the
//! tier's indices (shard 0 from index 0, each next one from where the last
//! ended; a shard may be empty): what a cluster writes, each worker its own
//! range, into one directory its processes share
//! ([`Database::shard_writer`]), after which one of them lists the tier
//! ([`Database::finish_sharded`]). The manifest lists such a tier as one
//! line a shard, `tier N shard K first F records R bytes …`, and is then
//! of version 2 ([`MANIFEST_VERSION`]); a manifest without sharded tiers is
//! still written as version 1. Readers see no difference: a lookup finds
//! the shard that holds the index, [`Database::for_each_block`] walks the
//! shards in order, [`Database::verify`] checks them all. The shard lines
//! are checked at open (numbered `0..k`, contiguous from index 0) and each
//! shard's file against its line, as for a whole tier.
//!
//! # Design
//!
//! * **Blocks.** A tier is cut into blocks of [`Options::block_bytes`]
//!   uncompressed bytes (2 MiB by default), each compressed on its own, so
//!   a lookup reads and decompresses one block, never the whole tier. A
//!   tier that compressed past [`SPLIT_RATIO`] to one is written again,
//!   when finished, in blocks of [`SMALL_BLOCK_BYTES`] (64 KiB): larger
//!   blocks would save it almost no bytes and cost every lookup the
//!   decompression of 2 MiB (Magic Fingers F = 128: 153 µs a random
//!   lookup, 6.5 µs in 64 KiB blocks). The
//!   block index (12 bytes a block in memory) is read at open. Recently
//!   used blocks are kept decompressed in a shared LRU cache
//!   ([`Options::cache_bytes`], 4 MiB by default), and at most
//!   [`Options::open_files`] tier files (128) stay open, so a game of
//!   thousands of tiers does not run out of file descriptors. A file
//!   opened again is first checked to be the one opened before (length
//!   and header): a tier another writer replaced meanwhile is
//!   [`Error::FileChanged`], not a damaged block.
//! * **Checksums.** The header, the block index and every block carry a
//!   CRC-32, which catches every error of one byte (and of any burst up to
//!   32 bits). A lookup in a damaged block returns an error, never a
//!   value; an open with a damaged header or index fails. The manifest
//!   records each tier file's length and header checksum (compared at
//!   open, cheaply) and the CRC-32 of the whole file ([`Database::verify`];
//!   [`Database::finish_sharded`] reads every shard whole against it
//!   before listing it).
//! * **Crash safety.** A [`TierWriter`] streams blocks into
//!   `tier-<N>.gsdb.tmp`; [`TierWriter::finish`] writes the index and the
//!   header, syncs the file, renames it into place, syncs the directory,
//!   then writes the manifest the same way (temporary file, sync, rename,
//!   sync). A tier is finished only once the manifest lists it, so a crash
//!   at any point leaves either a finished tier or an unfinished one (a
//!   left-over temporary file, or a renamed file the manifest does not
//!   list), which the next writer of the tier simply replaces (whatever is
//!   at a temporary file's path is removed, never opened: not a link
//!   followed nor a FIFO waited on). Rewriting a finished tier first
//!   removes it from the manifest.
//! * **Determinism.** Files hold no timestamps and blocks are compressed
//!   with fixed parameters: the same records give byte-identical files
//!   (with the same zstd library version and options).
//! * **Threads.** Every reading method takes `&self` and [`Database`] is
//!   `Sync`; lookups read with positioned reads, so threads never share a
//!   file cursor.
//!
//! # Measurements
//!
//! **Format 2** (a bitmap in every block; its defaults were 512 KiB blocks at
//! zstd level 9), on databases written by `gamesolve … solve --db`; the
//! layouts were compared first with `examples/codecs.rs` on the format-1
//! databases (whole tiers, records a block, level; "rows" = format 1):
//!
//! | table | rows, 8 Ki, 3 (format 1) | rows, 64 Ki, 19 | bitmap, 64 Ki, 3 | bitmap, 64 Ki, 9 | bitmap, 256 Ki, 9 |
//! | --- | ---: | ---: | ---: | ---: | ---: |
//! | Teeko (172,401,726 indices, 21.5 M positions) | 7,888,754 | 4,938,292 | 5,230,471 | 4,813,420 | — |
//! | Connect Four 5×5 (171,976,899 indices, 35.6 M positions) | 19,906,344 | 9,549,786 | 12,589,798 | 11,365,008 | 10,233,002 |
//!
//! (level 19 took 190 s for Connect Four's table, level 9 on the layout
//! about 10 s: level 19 is not worth its writing time.)
//!
//! **Format 1** (16-bit records compressed as they are, 16 KiB blocks,
//! level 3 then): bars set for this crate, on the table of Magic Fingers with F = 128
//! (68,161,536 indices, 97.9 % draws; raw 2-byte table 136,323,072 bytes),
//! solved by `solver_retro::solve_unmoves`: (a) the database at most 25 %
//! of the raw table, (b) random lookups under 20 µs on average, (c) opening
//! and 50 lookups from a fresh process well under 50 ms. Measured on the
//! 2-core development machine while other jobs kept its load average near
//! 5, so the times are upper bounds.
//!
//! `cargo test --release -p game-db --test fingers -- --ignored --nocapture`
//! (with `GAME_DB_SWEEP=1` for the other block sizes; a cold cache of
//! 4 MiB; 10⁵ random lookups; "open + 50" in the same process):
//!
//! | block, zstd level | file bytes | % of raw | random lookup | open + 50 lookups | write |
//! | --- | ---: | ---: | ---: | ---: | ---: |
//! | 4 KiB, 3 | 1,165,529 | 0.85 % | 3.0 µs | 0.9 ms | 1.1 s |
//! | **16 KiB, 3 (format 1 default)** | **489,582** | **0.36 %** | **6.9 µs** | **1.2 ms** | 0.75 s |
//! | 16 KiB, 1 | 480,618 | 0.35 % | 5.0 µs | 0.3 ms | 0.44 s |
//! | 16 KiB, 9 | 472,692 | 0.35 % | 4.5 µs | 0.3 ms | 0.80 s |
//! | 32 KiB, 3 | 342,715 | 0.25 % | 7.6 µs | 0.5 ms | 0.65 s |
//! | 64 KiB, 3 | 257,808 | 0.19 % | 16.3 µs | 6.1 ms | 0.77 s |
//! | 256 KiB, 3 | 193,990 | 0.14 % | 65.5 µs | 7.1 ms | 1.1 s |
//! | 1 MiB, 3 | 151,966 | 0.11 % | 211 µs | 14.5 ms | 1.1 s |
//!
//! `cargo bench -p game-db --features bench --bench fingers` (criterion, default options;
//! two runs, load average 5 and 7): a random lookup 3.7–5.6 µs with the
//! 4 MiB cache and 3.6–4.6 µs without (almost every random lookup misses a
//! cache of 256 of the 8,320 blocks); opening plus 50 lookups 0.30–0.39 ms. From a fresh process (`examples/probe.rs` on the
//! database the test keeps with `GAME_DB_KEEP=<dir>`): open plus 50 lookups
//! 0.8–0.9 ms inside the process, 8–14 ms wall-clock including starting the
//! process.
//!
//! A table that compresses badly (`high_entropy_table` in the same test
//! file: 2²⁵ pseudo-random records of about 8 bits of entropy) shows the
//! other side of the trade: 4 KiB blocks 61.0 % of raw and 21 µs a lookup,
//! 16 KiB 59.1 % and 46 µs, 64 KiB 57.8 % and 145 µs. Blocks barely shrink
//! when larger, so a game whose tables look like that should be written
//! with 4 KiB blocks ([`Options::with_block_bytes`]).
//!
//! **Codec.** zstd against `lz4_flex` (pure Rust) was measured once with a
//! throwaway program on the same Fingers table, whole blocks compressed
//! and decompressed in memory: at 16 KiB, zstd level 1 made 0.40 % of raw
//! and decoded a random block in 4.0 µs, `lz4_flex` 0.83 % in 28 µs; at
//! 64 KiB, 0.20 % in 6.4 µs against 0.66 % in 40 µs. zstd is smaller and
//! faster to decode on these tables, so it is the codec; its cost is a C
//! library built with the system's C compiler. Splitting records into
//! byte planes before compressing made zstd's output 10 % larger (and
//! 18 % larger on Teeko's table), which is why format 2 lays a block out
//! as presence and values instead.
//!
//! **Format 3** (dense blocks, the defaults: 2 MiB blocks at level 12),
//! recoded from the same databases with `examples/codecs.rs` (`recode`):
//! Connect Four 5×5 10,273,171 bytes (format 2) → 8,400,112 (0.96 bits a
//! reachable position), Teeko 4,713,606 → 4,578,326; a random lookup from
//! a fresh handle 317 µs and 150 µs (a 2 MiB block decompressed). Level 15
//! would make Connect Four 7.7 MB but writes twice as slowly; smaller
//! blocks lose the matches across them (512 KiB at level 12: 8.9 MB).
//!
//! **Choice.** 2 MiB blocks at level 12 (format 3): the databases of
//! dense game indices shrink most with the dense layout and a larger
//! block; a solver reads a tier whole, block after block, and a lookup
//! from a fresh process decompresses a block in well under a millisecond.
//! A tier that compresses past 128 to 1 gains nothing from them and is
//! written in 64 KiB blocks instead: Magic Fingers F = 128 (one tier, 98 %
//! draws) 122,210 → 261,907 bytes (0.19 % of the raw table), a random
//! lookup 153 → 6.5 µs; Connect Four 5×5 and Teeko keep their sizes
//! (8.40 and 4.58 MB). A game whose lookups are random and many (a server
//! of one small table) may prefer smaller blocks still
//! ([`Options::with_block_bytes`]).

mod cache;
mod db;
mod error;
mod format;
mod fsio;
mod layout;
mod lock;
mod record;
mod solve_dir;
#[cfg(feature = "retro")]
pub mod store;
mod tierfile;
mod writer;

pub use db::{
    Database, Options, ShardEntry, TierInfo, DEFAULT_BLOCK_BYTES, DEFAULT_CACHE_BYTES,
    DEFAULT_LEVEL, DEFAULT_OPEN_FILES, MANIFEST_FILE,
};
pub use error::{Error, Result};
pub use format::{rules_hash, FORMAT_VERSION, MANIFEST_VERSION, MAX_NAME_BYTES};
pub use lock::{DirLock, LOCK_FILE};
pub use record::{decode16, decode32, encode16, encode32, RecordWidth, MAX_NARROW_REMOTENESS};
pub use solve_dir::SolveDir;
pub use writer::{ShardWriter, TierWriter, SMALL_BLOCK_BYTES, SPLIT_RATIO};
