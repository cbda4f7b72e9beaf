//! Streaming, crash-safe writing of one tier.

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use game_core::{Tier, Value};

use crate::db::{Database, ShardEntry};
use crate::format::{Entry, Header, INDEX_ENTRY};
use crate::fsio::{read_at, rename_durably};
use crate::tierfile::compress_bound;
use crate::{Error, RecordWidth, Result, TierInfo};

/// Writes one tier: takes its records in index order, in chunks of any
/// size, and compresses them block by block into a temporary file; only
/// [`TierWriter::finish`] makes the tier visible (renamed into place and
/// listed in the manifest). Memory stays at about one block, plus the
/// block index (8 bytes a block) until the file is finished.
///
/// Dropping a writer without finishing it removes its temporary file; a
/// crash leaves the temporary file behind, which is never taken for a
/// finished tier and is replaced by the next writer of the tier.
///
/// A writer remembers its first failure (a write the disk refused, a
/// record it could not take): records are placed by their order, so it
/// could no longer finish the tier it was given. Every later call returns
/// [`Error::WriterFailed`] with that cause, and it never finishes.
///
/// Obtained from [`Database::writer`].
#[derive(Debug)]
pub struct TierWriter<'db> {
    db: &'db Database,
    tier: Tier,
    /// The shard's number and first index, for a shard.
    shard: Option<(u32, u64)>,
    path: PathBuf,
    auto: bool,
    level: i32,
    block_bytes: usize,
    sink: Sink,
    finished: bool,
    /// The first error a call returned: once set, every call fails.
    failed: Option<String>,
}

/// The block size of a tier that compresses past [`SPLIT_RATIO`] to one.
///
/// A lookup decompresses a whole block, so its time follows the block's
/// raw size; a larger block saves bytes on disk. Past some 128 to 1 the
/// saving is next to nothing in absolute terms (a 2 MiB block is then
/// under 16 KiB on disk; as 32 blocks of 64 KiB it costs a frame header and
/// an index entry more for each), while a lookup decompresses 64 KiB
/// instead of 2 MiB: Magic Fingers F = 128 (98 % draws, some 1,100 to 1 in
/// 2 MiB blocks) looked up at random in 153 µs with 2 MiB blocks, 6.5 µs
/// with 64 KiB ones.
pub const SMALL_BLOCK_BYTES: usize = 64 << 10;

/// The compression ratio (raw records to the bytes of their blocks) past
/// which a finished tier is written again in blocks of
/// [`SMALL_BLOCK_BYTES`], when its configured blocks are larger.
pub const SPLIT_RATIO: usize = 128;

/// The temporary file being filled and the block being gathered.
struct Sink {
    tmp: PathBuf,
    file: BufWriter<Target>,
    width: RecordWidth,
    block_records: usize,
    header_len: usize,
    /// Raw records of the block being gathered.
    pending: Vec<u8>,
    pending_records: usize,
    /// The block being compressed, laid out ([`crate::layout`]).
    packed: Vec<u8>,
    /// Compressed bytes of the last block.
    out: Vec<u8>,
    cctx: zstd::bulk::Compressor<'static>,
    /// Length and checksum of every block written.
    index: Vec<u8>,
    blocks: u64,
    records: u64,
    /// Where the next block goes.
    offset: u64,
    /// Checksum of everything after the header.
    body_crc: crc32fast::Hasher,
}

impl std::fmt::Debug for Sink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sink")
            .field("tmp", &self.tmp)
            .field("width", &self.width)
            .field("records", &self.records)
            .finish_non_exhaustive()
    }
}

/// The temporary file a [`Sink`] fills. Unit tests can give it a number of
/// bytes past which its writes fail, as a full disk's do.
struct Target {
    file: File,
    /// Bytes still to be written before writes fail ("no space left").
    #[cfg(test)]
    room: Option<u64>,
}

impl Write for Target {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        #[cfg(test)]
        if let Some(room) = &mut self.room {
            if *room == 0 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::StorageFull,
                    "no space left on device (a test's full disk)",
                ));
            }
            let n = buf.len().min(usize::try_from(*room).unwrap_or(usize::MAX));
            let n = self.file.write(&buf[..n])?;
            *room -= n as u64;
            return Ok(n);
        }
        self.file.write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

impl Seek for Target {
    fn seek(&mut self, pos: SeekFrom) -> std::io::Result<u64> {
        self.file.seek(pos)
    }
}

impl Sink {
    fn create(
        tmp: PathBuf,
        width: RecordWidth,
        block_bytes: usize,
        level: i32,
        header_len: usize,
    ) -> Result<Sink> {
        let file = crate::fsio::create_temp(&tmp)?;
        let target = Target {
            file,
            #[cfg(test)]
            room: None,
        };
        let mut file = BufWriter::with_capacity(1 << 16, target);
        // Room for the header, written last.
        file.write_all(&vec![0u8; header_len])
            .map_err(|e| Error::io(&tmp, e))?;
        let cctx = zstd::bulk::Compressor::new(level).map_err(|e| Error::io(&tmp, e))?;
        let block_records = block_bytes / width.bytes();
        Ok(Sink {
            file,
            width,
            block_records,
            header_len,
            pending: Vec::with_capacity(block_bytes),
            pending_records: 0,
            packed: Vec::with_capacity(crate::layout::max_len(block_records, width)),
            out: Vec::with_capacity(compress_bound(crate::layout::max_len(block_records, width))),
            cctx,
            index: Vec::new(),
            blocks: 0,
            records: 0,
            offset: header_len as u64,
            body_crc: crc32fast::Hasher::new(),
            tmp,
        })
    }

    fn push(&mut self, bits: u32) -> Result<()> {
        match self.width {
            RecordWidth::Narrow => self.pending.extend_from_slice(&(bits as u16).to_le_bytes()),
            RecordWidth::Wide => self.pending.extend_from_slice(&bits.to_le_bytes()),
        }
        self.pending_records += 1;
        self.records += 1;
        if self.pending_records == self.block_records {
            self.flush_block()?;
        }
        Ok(())
    }

    fn flush_block(&mut self) -> Result<()> {
        if self.pending_records == 0 {
            return Ok(());
        }
        self.out.clear();
        crate::layout::pack(self.width, &self.pending, &mut self.packed);
        let n = self
            .cctx
            .compress_to_buffer(self.packed.as_slice(), &mut self.out)
            .map_err(|e| Error::io(&self.tmp, e))?;
        let block = &self.out[..n];
        self.file
            .write_all(block)
            .map_err(|e| Error::io(&self.tmp, e))?;
        self.body_crc.update(block);
        self.index.extend_from_slice(&(n as u32).to_le_bytes());
        self.index
            .extend_from_slice(&crc32fast::hash(block).to_le_bytes());
        self.offset += n as u64;
        self.blocks += 1;
        self.pending.clear();
        self.pending_records = 0;
        Ok(())
    }

    /// Whether the tier, all its blocks written, is one to write again in
    /// blocks of [`SMALL_BLOCK_BYTES`]: its blocks are larger and it
    /// compressed past [`SPLIT_RATIO`] to one.
    fn compressed_past_ratio(&self) -> bool {
        let small = SMALL_BLOCK_BYTES / self.width.bytes();
        let raw = self.records.saturating_mul(self.width.bytes() as u64);
        let body = self.offset - self.header_len as u64;
        self.block_records > small && body.saturating_mul(SPLIT_RATIO as u64) < raw
    }
}

impl<'db> TierWriter<'db> {
    pub(crate) fn new(
        db: &'db Database,
        tier: Tier,
        shard: Option<(u32, u64)>,
        width: Option<RecordWidth>,
        block_bytes: usize,
        level: i32,
    ) -> Result<TierWriter<'db>> {
        let path = db.file_path(tier, shard.map(|s| s.0));
        let tmp = crate::fsio::temp_path(&path);
        let header_len = header_for(db, tier, RecordWidth::Narrow).len();
        // A wide temporary file left by a crash during widening.
        let _ = std::fs::remove_file(wide_temp(&tmp));
        let sink = Sink::create(
            tmp,
            width.unwrap_or(RecordWidth::Narrow),
            block_bytes,
            level,
            header_len,
        )?;
        Ok(TierWriter {
            db,
            tier,
            shard,
            path,
            auto: width.is_none(),
            level,
            block_bytes,
            sink,
            finished: false,
            failed: None,
        })
    }

    /// The tier being written.
    #[must_use]
    pub fn tier(&self) -> Tier {
        self.tier
    }

    /// Records taken so far.
    #[must_use]
    pub fn records(&self) -> u64 {
        self.sink.records
    }

    /// The record width in use so far (an automatic width starts narrow and
    /// turns wide at the first remoteness above
    /// [`crate::MAX_NARROW_REMOTENESS`]).
    #[must_use]
    pub fn width(&self) -> RecordWidth {
        self.sink.width
    }

    /// Appends one record (the next index).
    ///
    /// # Errors
    /// [`Error::RemotenessTooLarge`] if a fixed narrow width was asked for
    /// and the remoteness does not fit; [`Error::Io`] from the file system;
    /// [`Error::WriterFailed`] once any call has failed.
    pub fn push(&mut self, record: Option<Value>) -> Result<()> {
        self.check_not_failed()?;
        let pushed = self.push_record(record);
        self.note(pushed)
    }

    /// [`Error::WriterFailed`] if a call failed before.
    fn check_not_failed(&self) -> Result<()> {
        match &self.failed {
            None => Ok(()),
            Some(cause) => Err(Error::WriterFailed {
                path: self.path.clone(),
                tier: self.tier,
                cause: cause.clone(),
            }),
        }
    }

    /// Remembers `result`'s error if it is the writer's first.
    fn note<T>(&mut self, result: Result<T>) -> Result<T> {
        if let Err(e) = &result {
            self.failed.get_or_insert_with(|| e.to_string());
        }
        result
    }

    /// Appends one record, failed or not.
    fn push_record(&mut self, record: Option<Value>) -> Result<()> {
        let bits = match self.sink.width.encode(record) {
            Ok(bits) => bits,
            Err(e) if !self.auto => return Err(e),
            Err(_) => {
                self.widen()?;
                self.sink.width.encode(record)?
            }
        };
        self.sink.push(bits)
    }

    /// Appends a chunk of records (the next indices, in order).
    ///
    /// # Errors
    /// As [`TierWriter::push`].
    pub fn write(&mut self, records: &[Option<Value>]) -> Result<()> {
        for &r in records {
            self.push(r)?;
        }
        Ok(())
    }

    /// Rewrites what was written so far with 32-bit records, block by
    /// block through a second temporary file. On failure the second file
    /// is removed; the failure then stops the writer (every later call is
    /// [`Error::WriterFailed`]), its narrow file removed when it drops.
    fn widen(&mut self) -> Result<()> {
        self.rewrite(RecordWidth::Wide, self.block_bytes)
    }

    /// Rewrites what was written so far with records of `width` in blocks
    /// of `block_bytes`, through a second temporary file that then takes
    /// the first one's name (failures as [`TierWriter::widen`]).
    fn rewrite(&mut self, width: RecordWidth, block_bytes: usize) -> Result<()> {
        let old_tmp = self.sink.tmp.clone();
        let new_tmp = wide_temp(&old_tmp);
        match self.rewrite_into(&old_tmp, &new_tmp, width, block_bytes) {
            Ok(mut sink) => {
                // The second file takes the first one's name (its open
                // handle writes on).
                std::fs::rename(&new_tmp, &old_tmp).map_err(|e| Error::io(&old_tmp, e))?;
                sink.tmp = old_tmp;
                self.sink = sink;
                Ok(())
            }
            Err(e) => {
                // The half-written second sink is closed by now.
                let _ = std::fs::remove_file(&new_tmp);
                Err(e)
            }
        }
    }

    /// The records written so far, read back from `old_tmp` (each block
    /// checked against the checksum and size it was written with) and
    /// written with records of `width`, in blocks of `block_bytes`, into a
    /// new sink at `new_tmp`.
    fn rewrite_into(
        &mut self,
        old_tmp: &Path,
        new_tmp: &Path,
        width: RecordWidth,
        block_bytes: usize,
    ) -> Result<Sink> {
        self.sink.file.flush().map_err(|e| Error::io(old_tmp, e))?;
        let mut new = Sink::create(
            new_tmp.to_owned(),
            width,
            block_bytes,
            self.level,
            self.sink.header_len,
        )?;
        // Opened again by its path: whatever is there now must be a plain
        // file (a FIFO put in its place would wait for a writer for ever).
        let old = crate::fsio::open_regular(old_tmp).map_err(|e| Error::io(old_tmp, e))?;
        let mut dctx = zstd::bulk::Decompressor::new().map_err(|e| Error::io(old_tmp, e))?;
        let mut compressed = Vec::new();
        let mut packed = Vec::new();
        let from = self.sink.width;
        let mut raw = Vec::with_capacity(self.sink.block_records * from.bytes());
        let mut at = self.sink.header_len as u64;
        // Blocks are written when full; only a finished tier's last block
        // (written before it is blocked again) may hold fewer.
        let per = self.sink.block_records;
        let in_blocks = self.sink.records - self.sink.pending_records as u64;
        let push = |new: &mut Sink, r: &[u8]| -> Result<()> {
            let bits = match (from, width) {
                (RecordWidth::Narrow, RecordWidth::Wide) => widen_bits(old_tmp, [r[0], r[1]])?,
                (RecordWidth::Narrow, _) => u32::from(u16::from_le_bytes([r[0], r[1]])),
                _ => u32::from_le_bytes([r[0], r[1], r[2], r[3]]),
            };
            new.push(bits)
        };
        for (block, entry) in self.sink.index.chunks_exact(INDEX_ENTRY).enumerate() {
            let n = u32::from_le_bytes(entry[..4].try_into().expect("4 bytes")) as usize;
            let crc = u32::from_le_bytes(entry[4..].try_into().expect("4 bytes"));
            compressed.resize(n, 0);
            read_at(&old, old_tmp, &mut compressed, at)?;
            at += n as u64;
            if crc32fast::hash(&compressed) != crc {
                return Err(Error::BlockChecksum {
                    path: old_tmp.to_owned(),
                    block: block as u64,
                });
            }
            let records = (in_blocks - block as u64 * per as u64).min(per as u64) as usize;
            packed.clear();
            packed.reserve(crate::layout::max_len(records, from));
            dctx.decompress_to_buffer(compressed.as_slice(), &mut packed)
                .map_err(|e| Error::io(old_tmp, e))?;
            crate::layout::unpack(from, &packed, records, &mut raw)
                .map_err(|e| Error::corrupt(old_tmp, format!("block {block}: {e}")))?;
            debug_assert_eq!(raw.len(), records * from.bytes());
            for r in raw.chunks_exact(from.bytes()) {
                push(&mut new, r)?;
            }
        }
        for r in self.sink.pending.chunks_exact(from.bytes()) {
            push(&mut new, r)?;
        }
        Ok(new)
    }

    /// Finishes the tier: writes the block index and the header, syncs the
    /// file, renames it into place, syncs the directory, then records the
    /// tier in the manifest the same way. Only then is the tier finished.
    ///
    /// # Errors
    /// [`Error::Io`] from the file system; [`Error::WriterFailed`] if a
    /// call failed before. The tier is then not finished.
    pub fn finish(mut self) -> Result<TierInfo> {
        let entry = self.finish_file()?;
        self.db.record_finished(entry)
    }

    /// Writes the index and header, syncs, renames into place; what the
    /// manifest is to record. Never for a writer that failed.
    fn finish_file(&mut self) -> Result<Entry> {
        self.check_not_failed()?;
        let done = self.write_out();
        self.note(done)
    }

    /// [`TierWriter::finish_file`]'s work.
    fn write_out(&mut self) -> Result<Entry> {
        self.sink.flush_block()?;
        if self.sink.compressed_past_ratio() {
            self.rewrite(self.sink.width, SMALL_BLOCK_BYTES)?;
            self.sink.flush_block()?;
        }
        let s = &mut self.sink;
        let tmp = s.tmp.clone();
        let io = |e| Error::io(&tmp, e);
        s.file.write_all(&s.index).map_err(io)?;
        s.body_crc.update(&s.index);
        let mut header = header_for(self.db, self.tier, s.width);
        header.records = s.records;
        header.blocks = s.blocks;
        header.index_offset = s.offset;
        header.index_crc = crc32fast::hash(&s.index);
        header.block_records = s.block_records as u32;
        let bytes = header.to_bytes();
        debug_assert_eq!(bytes.len(), s.header_len);
        s.file.seek(SeekFrom::Start(0)).map_err(io)?;
        s.file.write_all(&bytes).map_err(io)?;
        s.file.flush().map_err(io)?;
        s.file.get_ref().file.sync_all().map_err(io)?;
        let mut file_crc = crc32fast::Hasher::new();
        file_crc.update(&bytes);
        file_crc.combine(&s.body_crc);
        let entry = Entry {
            tier: self.tier,
            shard: self.shard.map(|s| s.0),
            first: self.shard.map_or(0, |s| s.1),
            records: s.records,
            bytes: header.file_len(),
            header_crc: u32::from_le_bytes(bytes[bytes.len() - 4..].try_into().expect("4 bytes")),
            file_crc: file_crc.finalize(),
        };
        rename_durably(&tmp, &self.path)?;
        self.finished = true;
        Ok(entry)
    }
}

/// Writes one shard of a tier (from [`Database::shard_writer`]): records in
/// index order from the shard's first index, as a [`TierWriter`], into the
/// shard's own file; [`ShardWriter::finish`] renames it into place but
/// leaves the manifest alone, and returns the entry that
/// [`Database::finish_sharded`] lists with the tier's other shards.
#[derive(Debug)]
pub struct ShardWriter<'db> {
    inner: TierWriter<'db>,
}

impl<'db> ShardWriter<'db> {
    pub(crate) fn new(inner: TierWriter<'db>) -> ShardWriter<'db> {
        ShardWriter { inner }
    }

    /// Records taken so far.
    #[must_use]
    pub fn records(&self) -> u64 {
        self.inner.records()
    }

    /// Appends one record (the next index).
    ///
    /// # Errors
    /// As [`TierWriter::push`].
    pub fn push(&mut self, record: Option<Value>) -> Result<()> {
        self.inner.push(record)
    }

    /// Appends a chunk of records (the next indices, in order).
    ///
    /// # Errors
    /// As [`TierWriter::push`].
    pub fn write(&mut self, records: &[Option<Value>]) -> Result<()> {
        self.inner.write(records)
    }

    /// Finishes the shard's file (index, header, sync, rename, directory
    /// sync) and returns its entry for [`Database::finish_sharded`]. The
    /// tier is not finished until that lists it.
    ///
    /// # Errors
    /// [`Error::Io`] from the file system; [`Error::WriterFailed`] if a
    /// call failed before.
    pub fn finish(mut self) -> Result<ShardEntry> {
        let e = self.inner.finish_file()?;
        Ok(ShardEntry::of(&e))
    }
}

impl Drop for TierWriter<'_> {
    fn drop(&mut self) {
        if !self.finished {
            let _ = std::fs::remove_file(&self.sink.tmp);
        }
        self.db.release_writer(self.tier, self.shard.map(|s| s.0));
    }
}

/// A header for `tier` of `db` with the fields known before writing.
fn header_for(db: &Database, tier: Tier, width: RecordWidth) -> Header {
    Header {
        rules_hash: db.rules_hash(),
        tier,
        records: 0,
        blocks: 0,
        index_offset: 0,
        index_crc: 0,
        block_records: 0,
        width,
        game: db.game().to_owned(),
    }
}

fn wide_temp(tmp: &Path) -> PathBuf {
    let mut name = tmp.file_name().unwrap_or_default().to_os_string();
    name.push(".wide");
    tmp.with_file_name(name)
}

/// A 16-bit record as the 32-bit record of the same value.
fn widen_bits(tmp: &Path, narrow: [u8; 2]) -> Result<u32> {
    let rec = crate::decode16(u16::from_le_bytes(narrow))
        .map_err(|e| Error::corrupt(tmp, format!("while widening: {e}")))?;
    Ok(crate::encode32(rec))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;

    /// Records that barely compress (about 14 bits of entropy each), so
    /// that the blocks fill the writer's buffer and reach the disk soon.
    fn noisy(i: u32) -> Option<Value> {
        let x = i.wrapping_mul(2_654_435_761) >> 18;
        Some(Value::win(x % 16_000))
    }

    /// Pushes records into `push` until it fails, as it must soon with a
    /// full disk; the error.
    fn push_until_full(mut push: impl FnMut(Option<Value>) -> Result<()>) -> Error {
        for i in 0..1_000_000 {
            if let Err(e) = push(noisy(i)) {
                return e;
            }
        }
        panic!("a million records were taken by a full disk");
    }

    fn failed_earlier(e: &Error, path: &Path) -> bool {
        matches!(e, Error::WriterFailed { path: p, tier: 0, cause }
            if p == path && cause.contains("no space left"))
    }

    /// A write the disk refused (full) failed that one call, but the
    /// writer carried on: the block it could not write stayed pending and
    /// grew past a block with every later record (never written again,
    /// as it was no longer exactly full), and `finish` wrote whatever it
    /// held. It now remembers the failure: every later call, `finish`
    /// included, is `WriterFailed` with the cause, and the tier is not
    /// finished.
    #[test]
    fn a_writer_that_failed_refuses_every_later_call() {
        let dir = tempfile::tempdir().unwrap();
        let opts = Options::default().with_block_bytes(4096);
        let db = Database::create_with(dir.path(), "g", "r", opts).unwrap();
        let mut w = db.writer(0).unwrap();
        w.write(&(0..5000).map(noisy).collect::<Vec<_>>()).unwrap();
        w.sink.file.get_mut().room = Some(1000);
        let e = push_until_full(|r| w.push(r));
        assert!(
            matches!(&e, Error::Io { source, .. }
                if source.kind() == std::io::ErrorKind::StorageFull),
            "{e}"
        );
        // The disk has room again: the writer still refuses.
        w.sink.file.get_mut().room = None;
        let path = db.tier_path(0);
        let tmp = w.sink.tmp.clone();
        let e = w.push(Some(Value::DRAW)).unwrap_err();
        assert!(failed_earlier(&e, &path), "{e}");
        let e = w.write(&[None, Some(Value::lose(2))]).unwrap_err();
        assert!(failed_earlier(&e, &path), "{e}");
        assert!(e.to_string().contains("failed earlier"), "{e}");
        let e = w.finish().unwrap_err();
        assert!(failed_earlier(&e, &path), "{e}");
        assert!(!db.is_finished(0));
        assert!(!path.exists() && !tmp.exists());
        // The tier can be written again.
        db.write_tier(0, (0..100).map(noisy)).unwrap();
        assert_eq!(db.lookup(0, 99).unwrap(), noisy(99));
    }

    /// The same for a shard: its `finish` never renames a file into place.
    #[test]
    fn a_shard_writer_that_failed_never_finishes() {
        let dir = tempfile::tempdir().unwrap();
        let opts = Options::default().with_block_bytes(4096);
        let db = Database::create_with(dir.path(), "g", "r", opts).unwrap();
        let mut s = db.shard_writer(0, 1, 10).unwrap();
        s.inner.sink.file.get_mut().room = Some(0);
        let e = push_until_full(|r| s.push(r));
        assert!(matches!(e, Error::Io { .. }), "{e}");
        s.inner.sink.file.get_mut().room = None;
        let path = db.shard_path(0, 1);
        let e = s.push(None).unwrap_err();
        assert!(failed_earlier(&e, &path), "{e}");
        let e = s.finish().unwrap_err();
        assert!(failed_earlier(&e, &path), "{e}");
        assert!(!path.exists());
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            1,
            "the manifest only"
        );
    }

    /// A tier that compressed past [`SPLIT_RATIO`] to one is written again
    /// in [`SMALL_BLOCK_BYTES`] blocks when finished, and reads back record
    /// for record; a tier that does not keeps the
    /// configured blocks. Both grow past the wide records' limit on the way
    /// (a remoteness over [`crate::MAX_NARROW_REMOTENESS`] near the end), so
    /// the rewrite into wide records keeps the choice too.
    #[test]
    fn a_tier_that_compresses_past_the_ratio_is_written_in_small_blocks() {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::create(dir.path(), "g", "r").unwrap();
        let n = 3 * (crate::DEFAULT_BLOCK_BYTES / 2) as u32 + 123;
        // Almost every record a draw (Magic Fingers' tables look so), a
        // few others; then one remoteness that needs wide records.
        let sparse = |i: u32| match i {
            i if i == n - 1 => Some(Value::win(crate::MAX_NARROW_REMOTENESS + 1)),
            i if i % 997 == 0 => Some(Value::lose(i % 30)),
            _ => Some(Value::DRAW),
        };
        let wide_at_end = |i: u32| if i == n - 1 { sparse(i) } else { noisy(i) };
        for (tier, f) in [
            (0, &sparse as &dyn Fn(u32) -> Option<Value>),
            (1, &wide_at_end),
        ] {
            let mut w = db.writer(tier).unwrap();
            for i in 0..n {
                w.push(f(i)).unwrap();
            }
            let info = w.finish().unwrap();
            assert_eq!(info.width, RecordWidth::Wide, "tier {tier}");
            let small = (SMALL_BLOCK_BYTES / RecordWidth::Wide.bytes()) as u32;
            let large = (crate::DEFAULT_BLOCK_BYTES / RecordWidth::Wide.bytes()) as u32;
            let want = if tier == 0 { small } else { large };
            assert_eq!(info.block_records, want, "tier {tier}");
            for i in (0..n).step_by(4_099).chain([n - 1]) {
                assert_eq!(
                    db.lookup(tier, u64::from(i)).unwrap(),
                    f(i),
                    "tier {tier} index {i}"
                );
            }
        }
    }

    /// The narrow case: a draw-only tier of four default blocks is written
    /// in small blocks; its size is a few bytes a small block.
    #[test]
    fn a_draw_only_tier_is_small_blocks_of_a_few_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let db = Database::create(dir.path(), "g", "r").unwrap();
        let n = 4 * (crate::DEFAULT_BLOCK_BYTES / 2) as u64;
        let info = db.write_tier(0, (0..n).map(|_| Some(Value::DRAW))).unwrap();
        assert_eq!(info.width, RecordWidth::Narrow);
        assert_eq!(info.block_records as usize, SMALL_BLOCK_BYTES / 2);
        assert_eq!(info.blocks, n / (SMALL_BLOCK_BYTES as u64 / 2));
        assert!(
            info.file_bytes < 64 * info.blocks + 4096,
            "{} bytes",
            info.file_bytes
        );
        assert_eq!(db.lookup(0, n - 1).unwrap(), Some(Value::DRAW));
    }
}
