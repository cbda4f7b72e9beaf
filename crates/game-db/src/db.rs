//! The database: a directory of tier files and a manifest.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, RwLock};

use game_core::{Tier, Value};

use crate::cache::Lru;
use crate::format::{check_name, rules_hash, Entry, Manifest};
use crate::fsio::{file_in_the_way, other_entries, sync_dir, write_manifest};
use crate::layout::Block;
use crate::tierfile::{decode_at, TierFile};
use crate::{Error, RecordWidth, Result, ShardWriter, TierWriter};

/// The manifest's file name inside a database directory.
pub const MANIFEST_FILE: &str = "manifest.gsdb";

/// The default uncompressed size of a block (see the crate docs for the
/// measurements behind it).
pub const DEFAULT_BLOCK_BYTES: usize = 2 << 20;

/// The default size of the cache of decompressed blocks.
pub const DEFAULT_CACHE_BYTES: usize = 4 << 20;

/// The default zstd compression level.
pub const DEFAULT_LEVEL: i32 = 12;

/// The default number of tier files kept open for lookups.
pub const DEFAULT_OPEN_FILES: usize = 128;

/// How a [`Database`] writes and caches. The defaults suit most tables;
/// the measurements behind them are in the crate docs.
///
/// ```
/// let o = game_db::Options::default().with_block_bytes(64 << 10).with_cache_bytes(0);
/// assert_eq!(o.block_bytes, 65536);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Options {
    /// Uncompressed bytes of a block (a multiple of 4, 64 bytes to
    /// 64 MiB): smaller blocks make a lookup faster, larger ones compress
    /// better. Used when writing; a file keeps the size it was written
    /// with.
    pub block_bytes: usize,
    /// Bytes of decompressed blocks kept for later lookups (0: none).
    pub cache_bytes: usize,
    /// The zstd level blocks are compressed at (1 to 22).
    pub level: i32,
    /// The record width to write, or `None` to choose per tier: 16 bits
    /// unless some remoteness needs 32.
    pub width: Option<RecordWidth>,
    /// Tier files kept open for lookups (at least 1), the least recently
    /// used closed first: a game of thousands of tiers stays within the
    /// process's limit of open files.
    pub open_files: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            block_bytes: DEFAULT_BLOCK_BYTES,
            cache_bytes: DEFAULT_CACHE_BYTES,
            level: DEFAULT_LEVEL,
            width: None,
            open_files: DEFAULT_OPEN_FILES,
        }
    }
}

impl Options {
    /// Sets [`Options::block_bytes`].
    #[must_use]
    pub fn with_block_bytes(mut self, bytes: usize) -> Self {
        self.block_bytes = bytes;
        self
    }

    /// Sets [`Options::cache_bytes`].
    #[must_use]
    pub fn with_cache_bytes(mut self, bytes: usize) -> Self {
        self.cache_bytes = bytes;
        self
    }

    /// Sets [`Options::level`].
    #[must_use]
    pub fn with_level(mut self, level: i32) -> Self {
        self.level = level;
        self
    }

    /// Sets [`Options::width`].
    #[must_use]
    pub fn with_width(mut self, width: Option<RecordWidth>) -> Self {
        self.width = width;
        self
    }

    /// Sets [`Options::open_files`].
    #[must_use]
    pub fn with_open_files(mut self, files: usize) -> Self {
        self.open_files = files;
        self
    }

    fn check(&self) -> Result<()> {
        let b = self.block_bytes;
        if !(64..=crate::format::MAX_BLOCK_BYTES).contains(&b) || !b.is_multiple_of(4) {
            return Err(Error::InvalidOptions(format!(
                "block_bytes {b}: must be a multiple of 4 from 64 to 64 MiB"
            )));
        }
        if !(1..=22).contains(&self.level) {
            return Err(Error::InvalidOptions(format!(
                "level {}: must be 1 to 22",
                self.level
            )));
        }
        if self.open_files == 0 {
            return Err(Error::InvalidOptions(
                "open_files must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// What a finished tier's files hold. A whole tier is one file; a sharded
/// tier is several ([`TierInfo::shards`]), and then `path`, `width`,
/// `block_records` and `file_crc32` are those of its first shard while
/// `file_bytes` and `blocks` are summed over its shards.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TierInfo {
    /// The tier.
    pub tier: Tier,
    /// Its file (the first shard's for a sharded tier).
    pub path: PathBuf,
    /// Records (indices) of the tier.
    pub records: u64,
    /// Bytes of the file (of all shards).
    pub file_bytes: u64,
    /// The record width (the first shard's; shards choose their own).
    pub width: RecordWidth,
    /// Records a block (the last block may hold fewer).
    pub block_records: u32,
    /// Blocks of the file (of all shards).
    pub blocks: u64,
    /// CRC-32 of the whole file, as the manifest records it (the first
    /// shard's).
    pub file_crc32: u32,
    /// Every file of the tier in index order: one for a whole tier.
    pub shards: Vec<ShardEntry>,
}

impl TierInfo {
    fn of(s: &Stored) -> TierInfo {
        let f = &s.files[0];
        TierInfo {
            tier: f.entry.tier,
            path: f.path.clone(),
            records: s.records,
            file_bytes: s.files.iter().map(|f| f.entry.bytes).sum(),
            width: f.header.width,
            block_records: f.header.block_records,
            blocks: s.files.iter().map(|f| f.header.blocks).sum(),
            file_crc32: f.entry.file_crc,
            shards: s.files.iter().map(|f| ShardEntry::of(&f.entry)).collect(),
        }
    }
}

/// One file of a finished tier as the manifest records it: a shard of a
/// sharded tier (written by [`Database::shard_writer`], listed by
/// [`Database::finish_sharded`]), or a whole tier (`shard` is `None`).
/// Plain data, so that whoever wrote a shard can hand it to whoever lists
/// the tier (another thread, process or host);
/// [`Database::finish_sharded`] checks every field against the file, and
/// reads the whole file for `file_crc32`: a file altered since its writer
/// finished it is refused, never listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShardEntry {
    /// The tier.
    pub tier: Tier,
    /// The shard's number (its file is `tier-<N>.shard-<K>.gsdb`), or
    /// `None` for a whole tier (`tier-<N>.gsdb`).
    pub shard: Option<u32>,
    /// The tier index of the file's first record.
    pub first: u64,
    /// Records of the file.
    pub records: u64,
    /// Bytes of the file.
    pub bytes: u64,
    /// CRC-32 of the file's header.
    pub header_crc32: u32,
    /// CRC-32 of the whole file.
    pub file_crc32: u32,
}

impl ShardEntry {
    pub(crate) fn of(e: &Entry) -> ShardEntry {
        ShardEntry {
            tier: e.tier,
            shard: e.shard,
            first: e.first,
            records: e.records,
            bytes: e.bytes,
            header_crc32: e.header_crc,
            file_crc32: e.file_crc,
        }
    }

    fn entry(&self) -> Entry {
        Entry {
            tier: self.tier,
            shard: self.shard,
            first: self.first,
            records: self.records,
            bytes: self.bytes,
            header_crc: self.header_crc32,
            file_crc: self.file_crc32,
        }
    }
}

/// A finished tier's files, checked, in index order.
#[derive(Debug)]
struct Stored {
    files: Vec<Arc<TierFile>>,
    records: u64,
}

impl Stored {
    fn new(files: Vec<Arc<TierFile>>) -> Stored {
        let records = files.iter().map(|f| f.header.records).sum();
        Stored { files, records }
    }

    /// The file holding `index` (< records) and the index inside it: the
    /// last file starting at or before it (empty shards start where the
    /// next one does, so they are never chosen).
    fn find(&self, index: u64) -> (&Arc<TierFile>, u64) {
        let k = self
            .files
            .partition_point(|f| f.entry.first <= index)
            .saturating_sub(1);
        let f = &self.files[k];
        (f, index - f.entry.first)
    }
}

#[derive(Debug)]
struct State {
    manifest: Manifest,
    files: BTreeMap<Tier, Arc<Stored>>,
}

/// A solved-game database: one directory holding a manifest and one
/// compressed file per finished tier.
///
/// Lookups take `&self` and the type is `Sync`: share it between threads
/// (e.g. in an `Arc`) and look up from all of them; blocks decompressed by
/// any thread are cached for all. Tiers can be written by several threads
/// at once as well (one writer per tier or shard). One process at a time
/// should write whole tiers and the manifest; the shards of a sharded tier
/// may be written by many processes sharing the directory
/// ([`Database::shard_writer`]), and then listed by one
/// ([`Database::finish_sharded`]).
#[derive(Debug)]
pub struct Database {
    dir: PathBuf,
    game: String,
    rules_hash: u64,
    /// The rules key as the manifest records it (see [`Database::rules_key`]).
    rules_key: Option<Vec<u8>>,
    options: Options,
    state: RwLock<State>,
    /// Held while the manifest is rewritten, so updates never get lost.
    manifest_lock: Mutex<()>,
    /// Tiers (`None`) and shards (`Some(k)`) being written.
    writing: Mutex<BTreeSet<(Tier, Option<u32>)>>,
    cache: Mutex<Lru<Block>>,
    open_files: Mutex<Lru<File>>,
    serials: AtomicU64,
}

/// Per-thread decompression state for lookups.
struct Scratch {
    dctx: Option<zstd::bulk::Decompressor<'static>>,
    compressed: Vec<u8>,
    block: Block,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            dctx: None,
            compressed: Vec::new(),
            block: Block::EMPTY,
        })
    };
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Database {
    /// Creates a database for `game` played by `rules` in `dir` (created if
    /// needed) with the default [`Options`]. If `dir` already holds a
    /// database of the same game and rules, it is opened as it is (finished
    /// tiers stay finished), so a crashed solve can resume. A directory
    /// that holds no database but something else is refused, so that
    /// nothing there is overwritten.
    ///
    /// `rules` is any byte string that tells the rules apart (for example
    /// the `Debug` form of the game's rule struct, or a key a program can
    /// rebuild the rules from); the manifest stores it and its
    /// [`rules_hash`], and [`Database::rules_key`] gives it back.
    ///
    /// # Errors
    /// [`Error::InvalidName`] for a name that cannot be stored;
    /// [`Error::NotADirectory`] when `dir` or a parent is a file;
    /// [`Error::NotEmpty`] when `dir` holds no manifest but other entries;
    /// the errors of [`Database::open`] for an existing database;
    /// [`Error::Io`].
    pub fn create(dir: impl AsRef<Path>, game: &str, rules: impl AsRef<[u8]>) -> Result<Database> {
        Database::create_with(dir, game, rules, Options::default())
    }

    /// [`Database::create`] with options.
    ///
    /// # Errors
    /// As [`Database::create`], and [`Error::InvalidOptions`].
    pub fn create_with(
        dir: impl AsRef<Path>,
        game: &str,
        rules: impl AsRef<[u8]>,
        options: Options,
    ) -> Result<Database> {
        let dir = dir.as_ref();
        check_name(game)?;
        options.check()?;
        let manifest_path = dir.join(MANIFEST_FILE);
        if manifest_path.exists() {
            return Database::open_with(dir, game, rules, options);
        }
        // A file at the path (or at a parent's) was reported as
        // "File exists" or "Not a directory", naming `dir`.
        if let Some(path) = file_in_the_way(dir) {
            return Err(Error::NotADirectory { path });
        }
        // Tier files of a database whose manifest is lost (or anyone's
        // files of those names) were overwritten as they were solved.
        if let Some(found) = other_entries(dir, &manifest_path).map_err(|e| Error::io(dir, e))? {
            return Err(Error::NotEmpty {
                path: dir.to_path_buf(),
                found,
            });
        }
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let manifest = Manifest {
            game: game.to_owned(),
            rules_hash: rules_hash(rules.as_ref()),
            rules_key: Some(rules.as_ref().to_vec()),
            tiers: BTreeMap::new(),
        };
        write_manifest(&manifest_path, &manifest.to_text())?;
        if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
            sync_dir(parent)?;
        }
        Ok(Database::from_parts(
            dir,
            manifest,
            BTreeMap::new(),
            options,
        ))
    }

    /// Opens the database of `game` played by `rules` in `dir` with the
    /// default [`Options`], checking the manifest and the header and block
    /// index of every finished tier (not the blocks themselves: each block
    /// is checked when read, and [`Database::verify`] checks them all).
    ///
    /// # Errors
    /// [`Error::NoDatabase`] without a manifest; [`Error::NotADirectory`]
    /// when `dir` or a parent is a file; [`Error::WrongGame`],
    /// [`Error::WrongRules`] for another game's or other rules' database;
    /// [`Error::UnsupportedVersion`]; for a finished tier,
    /// [`Error::TierFileMissing`], [`Error::Truncated`],
    /// [`Error::HeaderChecksum`], [`Error::IndexChecksum`],
    /// [`Error::Corrupt`]; [`Error::Io`]. Each names the file.
    pub fn open(dir: impl AsRef<Path>, game: &str, rules: impl AsRef<[u8]>) -> Result<Database> {
        Database::open_with(dir, game, rules, Options::default())
    }

    /// [`Database::open`] with options (the cache size and the open files
    /// at once; the rest apply to tiers written from now on).
    ///
    /// # Errors
    /// As [`Database::open`], and [`Error::InvalidOptions`].
    pub fn open_with(
        dir: impl AsRef<Path>,
        game: &str,
        rules: impl AsRef<[u8]>,
        options: Options,
    ) -> Result<Database> {
        Database::open_checked(dir.as_ref(), Some((game, rules.as_ref())), options)
    }

    /// Opens whatever database `dir` holds, of the game and rules its
    /// manifest names (with the default [`Options`]): for tools that
    /// inspect or compare databases without knowing their rules.
    ///
    /// # Errors
    /// As [`Database::open`], except [`Error::WrongGame`] and
    /// [`Error::WrongRules`] against the manifest.
    pub fn open_any(dir: impl AsRef<Path>) -> Result<Database> {
        Database::open_checked(dir.as_ref(), None, Options::default())
    }

    fn open_checked(
        dir: &Path,
        expect: Option<(&str, &[u8])>,
        options: Options,
    ) -> Result<Database> {
        options.check()?;
        let path = dir.join(MANIFEST_FILE);
        let bytes = match crate::fsio::read_manifest(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::NoDatabase { path })
            }
            Err(e) => {
                return Err(match file_in_the_way(dir) {
                    Some(file) => Error::NotADirectory { path: file },
                    None => Error::io(path, e),
                })
            }
        };
        let mut manifest = Manifest::parse(&path, &bytes)?;
        if let Some((game, rules)) = expect {
            if manifest.game != game {
                return Err(Error::WrongGame {
                    path,
                    found: manifest.game,
                    expected: game.to_owned(),
                });
            }
            let hash = rules_hash(rules);
            if manifest.rules_hash != hash {
                return Err(Error::WrongRules {
                    path,
                    found: manifest.rules_hash,
                    expected: hash,
                });
            }
            // A database written before manifests held the key: the key
            // asked for is its (same hash), and the next manifest written
            // records it.
            manifest.rules_key.get_or_insert_with(|| rules.to_vec());
        }
        let mut db = Database::from_parts(dir, manifest, BTreeMap::new(), options);
        let tiers: Vec<(Tier, Vec<Entry>)> = db
            .state()
            .manifest
            .tiers
            .iter()
            .map(|(t, v)| (*t, v.clone()))
            .collect();
        let mut files = BTreeMap::new();
        for (t, entries) in tiers {
            files.insert(t, Arc::new(db.open_stored(&entries)?));
        }
        db.state
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .files = files;
        Ok(db)
    }

    fn from_parts(
        dir: &Path,
        manifest: Manifest,
        files: BTreeMap<Tier, Arc<Stored>>,
        options: Options,
    ) -> Database {
        Database {
            dir: dir.to_owned(),
            game: manifest.game.clone(),
            rules_hash: manifest.rules_hash,
            rules_key: manifest.rules_key.clone(),
            cache: Mutex::new(Lru::new(options.cache_bytes)),
            open_files: Mutex::new(Lru::new(options.open_files)),
            options,
            state: RwLock::new(State { manifest, files }),
            manifest_lock: Mutex::new(()),
            writing: Mutex::new(BTreeSet::new()),
            serials: AtomicU64::new(0),
        }
    }

    fn state(&self) -> std::sync::RwLockReadGuard<'_, State> {
        self.state.read().unwrap_or_else(PoisonError::into_inner)
    }

    fn state_mut(&self) -> std::sync::RwLockWriteGuard<'_, State> {
        self.state.write().unwrap_or_else(PoisonError::into_inner)
    }

    /// Opens and checks a finished tier's files.
    fn open_stored(&self, entries: &[Entry]) -> Result<Stored> {
        let mut files = Vec::with_capacity(entries.len());
        for &e in entries {
            files.push(Arc::new(self.open_tier_file(e)?));
        }
        Ok(Stored::new(files))
    }

    /// Opens and checks a finished tier's file; keeps it open if there is
    /// room.
    fn open_tier_file(&self, e: Entry) -> Result<TierFile> {
        let (tf, file) = TierFile::open(
            self.file_path(e.tier, e.shard),
            e,
            &self.game,
            self.rules_hash,
            self.serials.fetch_add(1, Ordering::Relaxed),
        )?;
        lock(&self.open_files).insert((tf.serial, 0), Arc::new(file));
        Ok(tf)
    }

    /// The tier's file, open (reopened if it was closed for room).
    fn handle(&self, f: &TierFile) -> Result<Arc<File>> {
        if let Some(file) = lock(&self.open_files).get((f.serial, 0)) {
            return Ok(file);
        }
        let file = Arc::new(f.reopen()?);
        lock(&self.open_files).insert((f.serial, 0), Arc::clone(&file));
        Ok(file)
    }

    /// The database's directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The game's name.
    #[must_use]
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The hash of the rules ([`rules_hash`]).
    #[must_use]
    pub fn rules_hash(&self) -> u64 {
        self.rules_hash
    }

    /// The rules key the database was created with (the `rules` given to
    /// [`Database::create`]), as the manifest records it: `None` when it is
    /// not UTF-8, or for a database written before manifests recorded the
    /// key and opened by [`Database::open_any`] (opened with its key, such a
    /// database learns it, and records it with the next finished tier).
    #[must_use]
    pub fn rules_key(&self) -> Option<&str> {
        self.rules_key
            .as_deref()
            .and_then(|k| std::str::from_utf8(k).ok())
    }

    /// The options in use.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Where tier `tier`'s file is (whether or not it exists).
    #[must_use]
    pub fn tier_path(&self, tier: Tier) -> PathBuf {
        self.dir.join(format!("tier-{tier}.gsdb"))
    }

    /// Where shard `shard` of tier `tier` is (whether or not it exists).
    #[must_use]
    pub fn shard_path(&self, tier: Tier, shard: u32) -> PathBuf {
        self.dir.join(format!("tier-{tier}.shard-{shard}.gsdb"))
    }

    pub(crate) fn file_path(&self, tier: Tier, shard: Option<u32>) -> PathBuf {
        match shard {
            None => self.tier_path(tier),
            Some(k) => self.shard_path(tier, k),
        }
    }

    /// The finished tiers, in increasing order.
    #[must_use]
    pub fn finished_tiers(&self) -> Vec<Tier> {
        self.state().files.keys().copied().collect()
    }

    /// Whether tier `tier` is finished (listed in the manifest, its file
    /// checked at open or when written).
    #[must_use]
    pub fn is_finished(&self, tier: Tier) -> bool {
        self.state().files.contains_key(&tier)
    }

    fn tier_file(&self, tier: Tier) -> Result<Arc<Stored>> {
        self.state()
            .files
            .get(&tier)
            .cloned()
            .ok_or_else(|| Error::TierNotFinished {
                path: self.tier_path(tier),
                tier,
            })
    }

    /// What tier `tier`'s file holds: records, bytes, width, blocks.
    ///
    /// # Errors
    /// [`Error::TierNotFinished`].
    pub fn tier_info(&self, tier: Tier) -> Result<TierInfo> {
        Ok(TierInfo::of(&*self.tier_file(tier)?))
    }

    /// The number of records (indices) of tier `tier`.
    ///
    /// # Errors
    /// [`Error::TierNotFinished`].
    pub fn records(&self, tier: Tier) -> Result<u64> {
        Ok(self.tier_file(tier)?.records)
    }

    /// Bytes of tier `tier`'s file (of all its shards).
    ///
    /// # Errors
    /// [`Error::TierNotFinished`].
    pub fn file_bytes(&self, tier: Tier) -> Result<u64> {
        Ok(self
            .tier_file(tier)?
            .files
            .iter()
            .map(|f| f.entry.bytes)
            .sum())
    }

    /// Bytes of all finished tiers' files together.
    #[must_use]
    pub fn total_bytes(&self) -> u64 {
        self.state()
            .files
            .values()
            .flat_map(|s| s.files.iter())
            .map(|f| f.entry.bytes)
            .sum()
    }

    /// The record at `index` of tier `tier`: `None` for an index that
    /// stands for no position. Reads and decompresses at most one block
    /// (none if it is cached).
    ///
    /// # Errors
    /// [`Error::TierNotFinished`], [`Error::IndexOutOfRange`];
    /// [`Error::BlockChecksum`] or [`Error::Corrupt`] if the block is
    /// damaged (never a wrong value); [`Error::FileChanged`] if the tier's
    /// file had to be opened again and another writer has replaced it
    /// since this handle opened it; [`Error::Io`].
    pub fn lookup(&self, tier: Tier, global: u64) -> Result<Option<Value>> {
        let stored = self.tier_file(tier)?;
        if global >= stored.records {
            return Err(Error::IndexOutOfRange {
                path: stored.files[0].path.clone(),
                tier,
                index: global,
                records: stored.records,
            });
        }
        let (f, index) = stored.find(global);
        let h = &f.header;
        let block = index / u64::from(h.block_records);
        let within = (index % u64::from(h.block_records)) as usize;
        let key = (f.serial, block);
        if let Some(b) = lock(&self.cache).get(key) {
            return f.record_in(&b, within);
        }
        let handle = self.handle(f)?;
        SCRATCH.with(|s| -> Result<Option<Value>> {
            let s = &mut *s.borrow_mut();
            let dctx = match &mut s.dctx {
                Some(d) => d,
                None => s
                    .dctx
                    .insert(zstd::bulk::Decompressor::new().map_err(|e| Error::io(&f.path, e))?),
            };
            f.read_indexed(&handle, block, dctx, &mut s.compressed, &mut s.block)?;
            let value = f.record_in(&s.block, within)?;
            if self.options.cache_bytes > 0 {
                // The block moves into the cache; an evicted block's
                // buffers (if no lookup still holds them), or the block's
                // own if the cache cannot keep it, are reused next time. A
                // block much smaller than the buffers it was read into (a
                // file's last block, or one of a tier written with smaller
                // blocks) is copied out instead, and the buffers kept: the
                // cache weighs a block by its buffers, and would otherwise
                // keep fewer blocks (or, weighing records, hold far more
                // memory than it counts).
                let copied = s.block.allocated() > 2 * s.block.len();
                let data = if copied {
                    Arc::new(s.block.clone())
                } else {
                    Arc::new(std::mem::take(&mut s.block))
                };
                let spare = lock(&self.cache).insert(key, data);
                if let (false, Some(spare)) = (copied, spare) {
                    s.block = spare;
                }
            }
            Ok(value)
        })
    }

    /// Calls `f` with every block of tier `tier` in index order: the index
    /// of the block's first record and its records. Bypasses the cache and
    /// keeps one block in memory.
    ///
    /// ```
    /// # fn main() -> Result<(), game_db::Error> {
    /// # let dir = tempfile::tempdir().unwrap();
    /// use game_core::{Outcome, Value};
    /// let db = game_db::Database::create(dir.path(), "example", "v1")?;
    /// db.write_tier(0, (0..1000u32).map(|i| Some(Value::lose(i % 7))))?;
    /// let mut losses = 0;
    /// db.for_each_block(0, |_first, records| {
    ///     losses += records.iter().flatten().filter(|v| v.outcome() == Outcome::Lose).count();
    /// })?;
    /// assert_eq!(losses, 1000);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::TierNotFinished`]; the first damaged block's error;
    /// [`Error::FileChanged`] as for [`Database::lookup`].
    pub fn for_each_block(&self, tier: Tier, f: impl FnMut(u64, &[Option<Value>])) -> Result<()> {
        let records = self.records(tier)?;
        self.for_each_block_in(tier, 0..records, f)
    }

    /// Calls `f` with the records of tier `tier` at the indices `range`, in
    /// index order, a block (or the part of a block inside `range`) at a
    /// time: the index of the first record passed and the records. Reads
    /// only the blocks `range` overlaps, in whichever shards hold them.
    ///
    /// # Errors
    /// [`Error::TierNotFinished`], [`Error::IndexOutOfRange`] for a range
    /// past the tier's end; the first damaged block's error;
    /// [`Error::FileChanged`] as for [`Database::lookup`].
    pub fn for_each_block_in(
        &self,
        tier: Tier,
        range: std::ops::Range<u64>,
        mut f: impl FnMut(u64, &[Option<Value>]),
    ) -> Result<()> {
        let stored = self.tier_file(tier)?;
        if range.end > stored.records {
            return Err(Error::IndexOutOfRange {
                path: stored.files[0].path.clone(),
                tier,
                index: range.end - 1,
                records: stored.records,
            });
        }
        let mut dctx = None;
        let mut compressed = Vec::new();
        let mut packed = Vec::new();
        let mut raw = Vec::new();
        let mut records = Vec::new();
        for file in &stored.files {
            let (lo, hi) = (file.entry.first, file.entry.first + file.header.records);
            let (from, to) = (range.start.max(lo), range.end.min(hi));
            if from >= to {
                continue;
            }
            let handle = self.handle(file)?;
            let h = &file.header;
            let dctx = match &mut dctx {
                Some(d) => d,
                None => dctx
                    .insert(zstd::bulk::Decompressor::new().map_err(|e| Error::io(&file.path, e))?),
            };
            let per = u64::from(h.block_records);
            for block in (from - lo) / per..(to - lo).div_ceil(per) {
                file.read_block(&handle, block, dctx, &mut compressed, &mut packed, &mut raw)?;
                let start = lo + block * per;
                let a = from.max(start) - start;
                let b = to.min(start + h.records_in(block) as u64) - start;
                records.clear();
                for i in a..b {
                    records.push(decode_at(&file.path, h.width, &raw, i as usize)?);
                }
                f(start + a, &records);
            }
        }
        Ok(())
    }

    /// Checks tier `tier`'s whole file against the CRC-32 the manifest
    /// recorded for it, and every block against its own checksum.
    ///
    /// # Errors
    /// [`Error::TierNotFinished`]; [`Error::FileChecksum`], or the block's
    /// error, for a damaged file; [`Error::FileChanged`] as for
    /// [`Database::lookup`].
    pub fn verify(&self, tier: Tier) -> Result<()> {
        // The blocks first: each is read (and refused) on its own, so that
        // a file whose blocks are a hole (a sparse file terabytes long) is
        // refused at its first block, not after reading all of it for the
        // file's checksum.
        self.for_each_block(tier, |_, _| {})?;
        // Then each file whole against its CRC-32, as a join of shards
        // checks it (the header, the blocks back to back and the index:
        // every byte of the file, as opening it checked).
        let stored = self.tier_file(tier)?;
        for f in &stored.files {
            f.check_whole(&*self.handle(f)?)?;
        }
        Ok(())
    }

    /// Starts writing tier `tier` with the database's [`Options`]. If the
    /// tier was finished, it stops being finished now (so that a crash
    /// during the rewrite cannot leave a mix); the old file stays until the
    /// new one replaces it.
    ///
    /// # Errors
    /// [`Error::TierBusy`] if another writer has the tier; [`Error::Io`].
    pub fn writer(&self, tier: Tier) -> Result<TierWriter<'_>> {
        if !lock(&self.writing).insert((tier, None)) {
            return Err(Error::TierBusy {
                path: self.tier_path(tier),
                tier,
            });
        }
        let start = || -> Result<TierWriter<'_>> {
            self.unfinish(tier)?;
            let o = &self.options;
            TierWriter::new(self, tier, None, o.width, o.block_bytes, o.level)
        };
        // On failure the writer never existed: release the tier here.
        start().inspect_err(|_| self.release_writer(tier, None))
    }

    /// Starts writing shard `shard` of tier `tier`, the records from index
    /// `first` on, into `tier-<N>.shard-<K>.gsdb` (crash-safe as a whole
    /// tier: a temporary file renamed into place). Unlike
    /// [`Database::writer`] it leaves the manifest alone, so that shards can
    /// be written by several processes sharing the directory at once;
    /// [`ShardWriter::finish`] returns what the manifest will record, and
    /// [`Database::finish_sharded`] lists the tier once every shard is
    /// written.
    ///
    /// ```
    /// # fn main() -> Result<(), game_db::Error> {
    /// # let dir = tempfile::tempdir().unwrap();
    /// use game_core::Value;
    /// let db = game_db::Database::create(dir.path(), "example", "v1")?;
    /// // Two writers (threads, processes or hosts sharing the directory),
    /// // indices 0..600 and 600..1000.
    /// let mut shards = Vec::new();
    /// for (k, range) in [(0, 0..600u32), (1, 600..1000)] {
    ///     let mut w = db.shard_writer(7, k, u64::from(range.start))?;
    ///     for i in range {
    ///         w.push(Some(Value::win(i % 5)))?;
    ///     }
    ///     shards.push(w.finish()?);
    /// }
    /// let info = db.finish_sharded(7, 1000, &shards)?;
    /// assert_eq!((info.records, info.shards.len()), (1000, 2));
    /// assert_eq!(db.lookup(7, 613)?, Some(Value::win(3)));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::TierFinished`] if the tier is finished (as this handle
    /// sees it: a listed shard is never overwritten);
    /// [`Error::TierBusy`] if another writer of this handle has the shard;
    /// [`Error::Io`].
    pub fn shard_writer(&self, tier: Tier, shard: u32, first: u64) -> Result<ShardWriter<'_>> {
        if self.is_finished(tier) {
            return Err(Error::TierFinished {
                path: self.tier_path(tier),
                tier,
            });
        }
        if !lock(&self.writing).insert((tier, Some(shard))) {
            return Err(Error::TierBusy {
                path: self.shard_path(tier, shard),
                tier,
            });
        }
        let o = &self.options;
        TierWriter::new(
            self,
            tier,
            Some((shard, first)),
            o.width,
            o.block_bytes,
            o.level,
        )
        .map(ShardWriter::new)
        .inspect_err(|_| self.release_writer(tier, Some(shard)))
    }

    /// Lists tier `tier` of `records` records as finished, stored as the
    /// shards `shards` (what each [`ShardWriter::finish`] returned, in any
    /// order): they must be shards `0..k` of this tier, each starting where
    /// the one before ends, the first at index 0, the last ending at
    /// `records`. Each file is checked against its entry (length,
    /// header and its checksum, block index) and read whole, every block
    /// checked and the whole file's bytes against the entry's
    /// `file_crc32` (as [`TierWriter::finish`] knows its file's from the
    /// bytes it has just written, while a shard's file may have been
    /// altered since its writer finished it), before the manifest is
    /// rewritten, crash-safely, to list them; a tier that was finished is
    /// replaced.
    ///
    /// # Errors
    /// [`Error::InvalidShards`] for shards that do not tile the tier;
    /// the errors of [`Database::open`] for a file that does not match its
    /// entry; [`Error::FileChecksum`], [`Error::BlockChecksum`] or
    /// [`Error::Corrupt`] for a file altered since it was written;
    /// [`Error::Io`].
    pub fn finish_sharded(
        &self,
        tier: Tier,
        records: u64,
        shards: &[ShardEntry],
    ) -> Result<TierInfo> {
        let mut entries: Vec<Entry> = shards.iter().map(ShardEntry::entry).collect();
        entries.sort_by_key(|e| e.shard);
        let bad = |why: String| Error::InvalidShards { tier, why };
        if let Some(e) = entries.iter().find(|e| e.tier != tier) {
            return Err(bad(format!("an entry of tier {}", e.tier)));
        }
        if entries.iter().any(|e| e.shard.is_none()) {
            return Err(bad("an entry of a whole tier".into()));
        }
        crate::format::check_files(&entries).map_err(bad)?;
        let covered: u64 = entries.iter().map(|e| e.records).sum();
        if covered != records {
            return Err(bad(format!(
                "they hold {covered} records, the tier {records}"
            )));
        }
        self.record_files(tier, entries, true)
    }

    /// Writes tier `tier` from an iterator of records in index order.
    ///
    /// # Errors
    /// As [`Database::writer`], [`TierWriter::push`] and
    /// [`TierWriter::finish`].
    pub fn write_tier(
        &self,
        tier: Tier,
        records: impl IntoIterator<Item = Option<Value>>,
    ) -> Result<TierInfo> {
        let mut w = self.writer(tier)?;
        for r in records {
            w.push(r)?;
        }
        w.finish()
    }

    /// Removes `tier` from the manifest (durably) if it is there.
    fn unfinish(&self, tier: Tier) -> Result<()> {
        let _guard = lock(&self.manifest_lock);
        let mut manifest = self.state().manifest.clone();
        if manifest.tiers.remove(&tier).is_none() {
            return Ok(());
        }
        write_manifest(&self.dir.join(MANIFEST_FILE), &manifest.to_text())?;
        let old = {
            let mut s = self.state_mut();
            s.manifest = manifest;
            s.files.remove(&tier)
        };
        if let Some(old) = old {
            self.forget(&old);
        }
        Ok(())
    }

    /// Drops a replaced tier's blocks and open files.
    fn forget(&self, old: &Stored) {
        for f in &old.files {
            lock(&self.cache).forget_file(f.serial);
            lock(&self.open_files).forget_file(f.serial);
        }
    }

    /// Lists a tier whose file was just renamed into place.
    pub(crate) fn record_finished(&self, entry: Entry) -> Result<TierInfo> {
        self.record_files(entry.tier, vec![entry], false)
    }

    /// Lists a tier as the files `entries` (checked by
    /// [`crate::format::check_files`]), each opened and checked first, and
    /// with `whole` also read whole ([`TierFile::check_whole`]).
    fn record_files(&self, tier: Tier, entries: Vec<Entry>, whole: bool) -> Result<TierInfo> {
        let stored = Arc::new(self.open_stored(&entries)?);
        if whole {
            for f in &stored.files {
                f.check_whole(&*self.handle(f)?)?;
            }
        }
        let _guard = lock(&self.manifest_lock);
        let mut manifest = self.state().manifest.clone();
        manifest.tiers.insert(tier, entries);
        write_manifest(&self.dir.join(MANIFEST_FILE), &manifest.to_text())?;
        let info = TierInfo::of(&stored);
        let old = {
            let mut s = self.state_mut();
            s.manifest = manifest;
            s.files.insert(tier, stored)
        };
        if let Some(old) = old {
            self.forget(&old);
        }
        Ok(info)
    }

    pub(crate) fn release_writer(&self, tier: Tier, shard: Option<u32>) {
        lock(&self.writing).remove(&(tier, shard));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cache weighed a block by its records, not by the buffer holding
    /// them. A lookup reads into one buffer per thread, which a full block
    /// too large for the cache leaves large; a file's last block (one
    /// record here) read into it next went into the cache with that buffer,
    /// 64 KiB counted as 2 bytes. Alternating the two parked a block
    /// buffer in the cache per tier: 20 tiers held 1.25 MiB in a cache of
    /// 32 KiB, and a database of many tiers with large blocks could hold
    /// any amount. Now a block weighs its buffer, and a small block is
    /// copied out of a large one (so it is still cached).
    #[test]
    fn the_cache_holds_no_more_than_its_capacity() {
        let dir = tempfile::tempdir().unwrap();
        let opts = Options::default()
            .with_block_bytes(64 << 10)
            .with_cache_bytes(32 << 10);
        let db = Database::create_with(dir.path(), "g", "r", opts).unwrap();
        let per = (64 << 10) / 2;
        let tiers = 20;
        for t in 0..tiers {
            db.write_tier(t, (0..=per).map(|i| Some(Value::lose(i % 7))))
                .unwrap();
        }
        for t in 0..tiers {
            assert_eq!(db.lookup(t, 0).unwrap(), Some(Value::lose(0)));
            let last = u64::from(per);
            assert_eq!(db.lookup(t, last).unwrap(), Some(Value::lose(per % 7)));
        }
        let cache = lock(&db.cache);
        assert!(
            cache.allocated() <= 32 << 10,
            "{} bytes held by a cache of 32 KiB",
            cache.allocated()
        );
        assert_eq!(cache.len(), tiers as usize, "the last blocks are cached");
    }

    /// The key given to `create` comes back from every way of opening.
    #[test]
    fn a_database_records_its_rules_key() {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::create(dir.path(), "connect4", "5x5").unwrap();
        assert_eq!(db.rules_key(), Some("5x5"));
        db.write_tier(0, [Some(Value::DRAW)]).unwrap();
        drop(db);
        let text = std::fs::read_to_string(dir.path().join(MANIFEST_FILE)).unwrap();
        assert!(text.contains("\nrules-key 5x5\n"), "{text}");
        let any = Database::open_any(dir.path()).unwrap();
        assert_eq!(any.rules_key(), Some("5x5"));
        assert_eq!(any.rules_hash(), rules_hash(b"5x5"));
        drop(any);
        let again = Database::create(dir.path(), "connect4", "5x5").unwrap();
        assert_eq!(again.rules_key(), Some("5x5"));
        assert_eq!(again.lookup(0, 0).unwrap(), Some(Value::DRAW));
        // A key that is not UTF-8 is kept (its hash checked) but not given
        // out as text.
        let other = tempfile::tempdir().unwrap();
        let db = Database::create(other.path(), "g", b"\xff5x5").unwrap();
        assert_eq!(db.rules_key(), None);
        drop(db);
        assert_eq!(Database::open_any(other.path()).unwrap().rules_key(), None);
        assert!(Database::open(other.path(), "g", b"\xff5x5").is_ok());
    }

    /// A manifest as this library wrote it before it kept the key: it
    /// opens, keyless to `open_any`; opened with its key it learns it and
    /// records it with the next finished tier.
    #[test]
    fn a_database_written_before_keys_still_opens_and_learns_its_key() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = format!(
            "gamesolve-db manifest 1\ngame g\nrules {:016x}\n",
            rules_hash(b"r")
        );
        text += &format!("crc32 {:08x}\n", crc32fast::hash(text.as_bytes()));
        std::fs::write(dir.path().join(MANIFEST_FILE), &text).unwrap();
        assert_eq!(Database::open_any(dir.path()).unwrap().rules_key(), None);
        assert!(matches!(
            Database::open(dir.path(), "g", "s"),
            Err(Error::WrongRules { .. })
        ));
        let db = Database::open(dir.path(), "g", "r").unwrap();
        assert_eq!(db.rules_key(), Some("r"));
        db.write_tier(3, [Some(Value::win(1))]).unwrap();
        drop(db);
        let any = Database::open_any(dir.path()).unwrap();
        assert_eq!(any.rules_key(), Some("r"));
        assert_eq!(any.lookup(3, 0).unwrap(), Some(Value::win(1)));
    }

    /// A manifest whose key text is not the rules its hash names (the
    /// checksum made right) is refused as damaged, by every opener.
    #[test]
    fn a_manifest_whose_key_contradicts_its_hash_is_damaged() {
        let dir = tempfile::tempdir().unwrap();
        drop(Database::create(dir.path(), "connect4", "5x5").unwrap());
        let path = dir.path().join(MANIFEST_FILE);
        let text = std::fs::read_to_string(&path).unwrap();
        let body = text.replace("rules-key 5x5", "rules-key 4x4");
        let body = &body[..body.trim_end().rfind('\n').unwrap() + 1];
        let forged = format!("{body}crc32 {:08x}\n", crc32fast::hash(body.as_bytes()));
        std::fs::write(&path, forged).unwrap();
        for e in [
            Database::open_any(dir.path()).unwrap_err(),
            Database::open(dir.path(), "connect4", "5x5").unwrap_err(),
            Database::open(dir.path(), "connect4", "4x4").unwrap_err(),
            Database::create(dir.path(), "connect4", "5x5").unwrap_err(),
        ] {
            assert!(
                matches!(&e, Error::Corrupt { fault, .. } if fault.contains("rules key")),
                "{e}"
            );
        }
    }
}
