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
use crate::fsio::{read_at, sync_dir, write_atomically};
use crate::tierfile::{decode_at, open_file, TierFile};
use crate::{Error, RecordWidth, Result, TierWriter};

/// The manifest's file name inside a database directory.
pub const MANIFEST_FILE: &str = "manifest.gsdb";

/// The default uncompressed size of a block (see the crate docs for the
/// measurements behind it).
pub const DEFAULT_BLOCK_BYTES: usize = 16 << 10;

/// The default size of the cache of decompressed blocks.
pub const DEFAULT_CACHE_BYTES: usize = 4 << 20;

/// The default zstd compression level.
pub const DEFAULT_LEVEL: i32 = 3;

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
        if !(64..=crate::format::MAX_BLOCK_BYTES).contains(&b) || b % 4 != 0 {
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

/// What a finished tier's file holds.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct TierInfo {
    /// The tier.
    pub tier: Tier,
    /// Its file.
    pub path: PathBuf,
    /// Records (indices) of the tier.
    pub records: u64,
    /// Bytes of the file.
    pub file_bytes: u64,
    /// The record width.
    pub width: RecordWidth,
    /// Records a block (the last block may hold fewer).
    pub block_records: u32,
    /// Blocks of the file.
    pub blocks: u64,
    /// CRC-32 of the whole file, as the manifest records it.
    pub file_crc32: u32,
}

impl TierInfo {
    fn of(f: &TierFile) -> TierInfo {
        TierInfo {
            tier: f.entry.tier,
            path: f.path.clone(),
            records: f.header.records,
            file_bytes: f.entry.bytes,
            width: f.header.width,
            block_records: f.header.block_records,
            blocks: f.header.blocks,
            file_crc32: f.entry.file_crc,
        }
    }
}

#[derive(Debug)]
struct State {
    manifest: Manifest,
    files: BTreeMap<Tier, Arc<TierFile>>,
}

/// A solved-game database: one directory holding a manifest and one
/// compressed file per finished tier.
///
/// Lookups take `&self` and the type is `Sync`: share it between threads
/// (e.g. in an `Arc`) and look up from all of them; blocks decompressed by
/// any thread are cached for all. Tiers can be written by several threads
/// at once as well (one writer per tier). One process at a time should
/// write a database.
#[derive(Debug)]
pub struct Database {
    dir: PathBuf,
    game: String,
    rules_hash: u64,
    options: Options,
    state: RwLock<State>,
    /// Held while the manifest is rewritten, so updates never get lost.
    manifest_lock: Mutex<()>,
    writing: Mutex<BTreeSet<Tier>>,
    cache: Mutex<Lru<Vec<u8>>>,
    open_files: Mutex<Lru<File>>,
    serials: AtomicU64,
}

/// Per-thread decompression state for lookups.
struct Scratch {
    dctx: Option<zstd::bulk::Decompressor<'static>>,
    compressed: Vec<u8>,
    raw: Vec<u8>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch { dctx: None, compressed: Vec::new(), raw: Vec::new() })
    };
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Database {
    /// Creates a database for `game` played by `rules` in `dir` (created if
    /// needed) with the default [`Options`]. If `dir` already holds a
    /// database of the same game and rules, it is opened as it is (finished
    /// tiers stay finished), so a crashed solve can resume.
    ///
    /// `rules` is any byte string that tells the rules apart (for example
    /// the `Debug` form of the game's rule struct); only its
    /// [`rules_hash`] is stored.
    ///
    /// # Errors
    /// [`Error::InvalidName`] for a name that cannot be stored; the errors
    /// of [`Database::open`] for an existing database; [`Error::Io`].
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
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        let manifest = Manifest {
            game: game.to_owned(),
            rules_hash: rules_hash(rules.as_ref()),
            tiers: BTreeMap::new(),
        };
        write_atomically(&manifest_path, manifest.to_text().as_bytes())?;
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
    /// [`Error::NoDatabase`] without a manifest; [`Error::WrongGame`],
    /// [`Error::WrongRules`] for another game's or other rules' database;
    /// [`Error::UnsupportedVersion`]; for a finished tier,
    /// [`Error::TierFileMissing`], [`Error::Truncated`],
    /// [`Error::HeaderChecksum`], [`Error::IndexChecksum`],
    /// [`Error::Corrupt`]; [`Error::Io`]. Each names the file.
    pub fn open(dir: impl AsRef<Path>, game: &str, rules: impl AsRef<[u8]>) -> Result<Database> {
        Database::open_with(dir, game, rules, Options::default())
    }

    /// [`Database::open`] with options (the cache size; the rest apply to
    /// tiers written from now on).
    ///
    /// # Errors
    /// As [`Database::open`], and [`Error::InvalidOptions`].
    pub fn open_with(
        dir: impl AsRef<Path>,
        game: &str,
        rules: impl AsRef<[u8]>,
        options: Options,
    ) -> Result<Database> {
        let dir = dir.as_ref();
        options.check()?;
        let path = dir.join(MANIFEST_FILE);
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(Error::NoDatabase { path })
            }
            Err(e) => return Err(Error::io(path, e)),
        };
        let manifest = Manifest::parse(&path, &bytes)?;
        if manifest.game != game {
            return Err(Error::WrongGame {
                path,
                found: manifest.game,
                expected: game.to_owned(),
            });
        }
        let hash = rules_hash(rules.as_ref());
        if manifest.rules_hash != hash {
            return Err(Error::WrongRules {
                path,
                found: manifest.rules_hash,
                expected: hash,
            });
        }
        let mut db = Database::from_parts(dir, manifest, BTreeMap::new(), options);
        let entries: Vec<Entry> = db.state().manifest.tiers.values().copied().collect();
        let mut files = BTreeMap::new();
        for e in entries {
            files.insert(e.tier, Arc::new(db.open_tier_file(e)?));
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
        files: BTreeMap<Tier, Arc<TierFile>>,
        options: Options,
    ) -> Database {
        Database {
            dir: dir.to_owned(),
            game: manifest.game.clone(),
            rules_hash: manifest.rules_hash,
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

    /// Opens and checks a finished tier's file; keeps it open if there is
    /// room.
    fn open_tier_file(&self, e: Entry) -> Result<TierFile> {
        let (tf, file) = TierFile::open(
            self.tier_path(e.tier),
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
        let file = Arc::new(open_file(&f.path, f.entry.tier)?);
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

    fn tier_file(&self, tier: Tier) -> Result<Arc<TierFile>> {
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
        Ok(self.tier_file(tier)?.header.records)
    }

    /// Bytes of tier `tier`'s file.
    ///
    /// # Errors
    /// [`Error::TierNotFinished`].
    pub fn file_bytes(&self, tier: Tier) -> Result<u64> {
        Ok(self.tier_file(tier)?.entry.bytes)
    }

    /// Bytes of all finished tiers' files together.
    #[must_use]
    pub fn total_bytes(&self) -> u64 {
        self.state().files.values().map(|f| f.entry.bytes).sum()
    }

    /// The record at `index` of tier `tier`: `None` for an index that
    /// stands for no position. Reads and decompresses at most one block
    /// (none if it is cached).
    ///
    /// # Errors
    /// [`Error::TierNotFinished`], [`Error::IndexOutOfRange`];
    /// [`Error::BlockChecksum`] or [`Error::Corrupt`] if the block is
    /// damaged (never a wrong value); [`Error::Io`].
    pub fn lookup(&self, tier: Tier, index: u64) -> Result<Option<Value>> {
        let f = self.tier_file(tier)?;
        let h = &f.header;
        if index >= h.records {
            return Err(Error::IndexOutOfRange {
                path: f.path.clone(),
                tier,
                index,
                records: h.records,
            });
        }
        let block = index / u64::from(h.block_records);
        let within = (index % u64::from(h.block_records)) as usize;
        let key = (f.serial, block);
        if let Some(raw) = lock(&self.cache).get(key) {
            return f.decode_at(&raw, within);
        }
        let handle = self.handle(&f)?;
        SCRATCH.with(|s| -> Result<Option<Value>> {
            let s = &mut *s.borrow_mut();
            let dctx = match &mut s.dctx {
                Some(d) => d,
                None => s
                    .dctx
                    .insert(zstd::bulk::Decompressor::new().map_err(|e| Error::io(&f.path, e))?),
            };
            f.read_block(&handle, block, dctx, &mut s.compressed, &mut s.raw)?;
            let value = f.decode_at(&s.raw, within)?;
            if self.options.cache_bytes > 0 {
                // The block moves into the cache; an evicted block's
                // buffer (if no lookup still holds it) is reused next time.
                let data = Arc::new(std::mem::take(&mut s.raw));
                if let Some(spare) = lock(&self.cache).insert(key, data) {
                    s.raw = spare;
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
    /// [`Error::TierNotFinished`]; the first damaged block's error.
    pub fn for_each_block(
        &self,
        tier: Tier,
        mut f: impl FnMut(u64, &[Option<Value>]),
    ) -> Result<()> {
        let file = self.tier_file(tier)?;
        let handle = open_file(&file.path, tier)?;
        let h = &file.header;
        let mut dctx = zstd::bulk::Decompressor::new().map_err(|e| Error::io(&file.path, e))?;
        let mut compressed = Vec::new();
        let mut raw = Vec::with_capacity(h.block_bytes());
        let mut records = Vec::with_capacity(h.block_records as usize);
        for block in 0..h.blocks {
            file.read_block(&handle, block, &mut dctx, &mut compressed, &mut raw)?;
            records.clear();
            for i in 0..h.records_in(block) {
                records.push(decode_at(&file.path, h.width, &raw, i)?);
            }
            f(block * u64::from(h.block_records), &records);
        }
        Ok(())
    }

    /// Checks tier `tier`'s whole file against the CRC-32 the manifest
    /// recorded for it, and every block against its own checksum.
    ///
    /// # Errors
    /// [`Error::TierNotFinished`]; [`Error::Corrupt`] or the block's error
    /// for a damaged file.
    pub fn verify(&self, tier: Tier) -> Result<()> {
        let f = self.tier_file(tier)?;
        let file = open_file(&f.path, tier)?;
        let mut crc = crc32fast::Hasher::new();
        let mut buf = vec![0u8; 1 << 20];
        let mut at = 0;
        while at < f.entry.bytes {
            let n = (f.entry.bytes - at).min(buf.len() as u64) as usize;
            read_at(&file, &f.path, &mut buf[..n], at)?;
            crc.update(&buf[..n]);
            at += n as u64;
        }
        if crc.finalize() != f.entry.file_crc {
            return Err(Error::corrupt(
                &f.path,
                "the file's checksum differs from the manifest's",
            ));
        }
        self.for_each_block(tier, |_, _| {})
    }

    /// Starts writing tier `tier` with the database's [`Options`]. If the
    /// tier was finished, it stops being finished now (so that a crash
    /// during the rewrite cannot leave a mix); the old file stays until the
    /// new one replaces it.
    ///
    /// # Errors
    /// [`Error::TierBusy`] if another writer has the tier; [`Error::Io`].
    pub fn writer(&self, tier: Tier) -> Result<TierWriter<'_>> {
        if !lock(&self.writing).insert(tier) {
            return Err(Error::TierBusy {
                path: self.tier_path(tier),
                tier,
            });
        }
        let start = || -> Result<TierWriter<'_>> {
            self.unfinish(tier)?;
            let o = &self.options;
            TierWriter::new(self, tier, o.width, o.block_bytes, o.level)
        };
        // On failure the writer never existed: release the tier here.
        start().inspect_err(|_| self.release_writer(tier))
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
        write_atomically(&self.dir.join(MANIFEST_FILE), manifest.to_text().as_bytes())?;
        let old = {
            let mut s = self.state_mut();
            s.manifest = manifest;
            s.files.remove(&tier)
        };
        if let Some(old) = old {
            lock(&self.cache).forget_file(old.serial);
            lock(&self.open_files).forget_file(old.serial);
        }
        Ok(())
    }

    /// Lists a tier whose file was just renamed into place.
    pub(crate) fn record_finished(&self, entry: Entry) -> Result<TierInfo> {
        let file = Arc::new(self.open_tier_file(entry)?);
        let _guard = lock(&self.manifest_lock);
        let mut manifest = self.state().manifest.clone();
        manifest.tiers.insert(entry.tier, entry);
        write_atomically(&self.dir.join(MANIFEST_FILE), manifest.to_text().as_bytes())?;
        let info = TierInfo::of(&file);
        let mut s = self.state_mut();
        s.manifest = manifest;
        s.files.insert(entry.tier, file);
        Ok(info)
    }

    pub(crate) fn release_writer(&self, tier: Tier) {
        lock(&self.writing).remove(&tier);
    }
}
