//! One finished tier file opened for reading.

use std::fs::File;
use std::path::{Path, PathBuf};

use game_core::Value;

use crate::format::{u32_at, Entry, Header, FIXED_HEADER, INDEX_ENTRY, MAX_NAME_BYTES};
use crate::fsio::read_at;
use crate::layout::Block;
use crate::{Error, RecordWidth, Result};

/// A tier file whose header and block index passed their checks.
#[derive(Debug)]
pub(crate) struct TierFile {
    pub path: PathBuf,
    pub header: Header,
    pub entry: Entry,
    /// A number no other file opened by this process has: the cache key.
    pub serial: u64,
    /// Where block `b` starts; one more entry marks the end of the last.
    offsets: Vec<u64>,
    crcs: Vec<u32>,
}

/// Bytes of the block index read at a time when a file is opened.
const INDEX_PIECE: usize = 64 << 10;

/// The largest compressed size of a block of `n` bytes.
pub(crate) fn compress_bound(n: usize) -> usize {
    zstd::zstd_safe::compress_bound(n)
}

impl TierFile {
    /// Opens the file the manifest entry `entry` describes and checks it
    /// against the entry, the game and the rules; returns it with the open
    /// file.
    pub fn open(
        path: PathBuf,
        entry: Entry,
        game: &str,
        rules_hash: u64,
        serial: u64,
    ) -> Result<(TierFile, File)> {
        let file = open_file(&path, entry.tier)?;
        let len = file.metadata().map_err(|e| Error::io(&path, e))?.len();
        if len < entry.bytes {
            return Err(Error::Truncated {
                path,
                expected: entry.bytes,
                found: len,
            });
        }
        if len > entry.bytes {
            return Err(Error::corrupt(
                path,
                format!("{len} bytes, the manifest says {}", entry.bytes),
            ));
        }
        if len < FIXED_HEADER as u64 {
            return Err(Error::Truncated {
                path,
                expected: FIXED_HEADER as u64,
                found: len,
            });
        }
        let mut fixed = [0u8; FIXED_HEADER];
        read_at(&file, &path, &mut fixed, 0)?;
        let header_len = Header::declared_len(&path, &fixed)?;
        if (header_len as u64) > len {
            return Err(Error::Truncated {
                path,
                expected: header_len as u64,
                found: len,
            });
        }
        let mut bytes = vec![0u8; header_len];
        read_at(&file, &path, &mut bytes, 0)?;
        let header = Header::parse(&path, &bytes)?;
        if header.game != game {
            return Err(Error::WrongGame {
                path,
                found: header.game,
                expected: game.to_owned(),
            });
        }
        if header.rules_hash != rules_hash {
            return Err(Error::WrongRules {
                path,
                found: header.rules_hash,
                expected: rules_hash,
            });
        }
        let header_crc = u32_at(&bytes, header_len - 4);
        if header.tier != entry.tier || header.records != entry.records {
            return Err(Error::corrupt(
                path,
                format!(
                    "the header is of tier {} with {} records, the manifest says tier {} with {}",
                    header.tier, header.records, entry.tier, entry.records
                ),
            ));
        }
        if header_crc != entry.header_crc {
            return Err(Error::corrupt(
                path,
                "the header's checksum differs from the manifest's: not the file that was finished",
            ));
        }
        if header.file_len() != len {
            return Err(Error::corrupt(
                path,
                format!("{len} bytes, the header says {}", header.file_len()),
            ));
        }
        let blocks =
            usize::try_from(header.blocks).map_err(|_| Error::corrupt(&path, "too many blocks"))?;
        // The index is read a piece at a time and each entry checked as it
        // comes, so that a file whose length and header claim an index of
        // any size without holding one (a sparse file of a few kilobytes on
        // disk and terabytes long) is refused at its first impossible
        // entry, before its claimed length is read or allocated.
        let bound = compress_bound(crate::layout::max_len(
            header.block_records as usize,
            header.width,
        )) as u64;
        let mut offsets = Vec::new();
        let mut crcs = Vec::new();
        let mut index_crc = crc32fast::Hasher::new();
        let mut piece = vec![0u8; INDEX_PIECE.min(blocks.saturating_mul(INDEX_ENTRY))];
        let index_bytes = header.blocks * INDEX_ENTRY as u64;
        let mut read = 0u64;
        let mut at = header_len as u64;
        while read < index_bytes {
            let n = (index_bytes - read).min(piece.len() as u64) as usize;
            let piece = &mut piece[..n];
            read_at(&file, &path, piece, header.index_offset + read)?;
            read += n as u64;
            index_crc.update(piece);
            for e in piece.chunks_exact(INDEX_ENTRY) {
                let n = u64::from(u32_at(e, 0));
                if n == 0 || n > bound {
                    return Err(Error::corrupt(path, format!("a block of {n} bytes")));
                }
                offsets.push(at);
                crcs.push(u32_at(e, 4));
                at = at
                    .checked_add(n)
                    .filter(|&end| end <= header.index_offset)
                    .ok_or_else(|| Error::corrupt(&path, "the blocks run into the block index"))?;
            }
        }
        if index_crc.finalize() != header.index_crc {
            return Err(Error::IndexChecksum { path });
        }
        offsets.push(at);
        if at != header.index_offset {
            return Err(Error::corrupt(
                path,
                format!(
                    "the blocks end at {at}, the index starts at {}",
                    header.index_offset
                ),
            ));
        }
        let tf = TierFile {
            path,
            header,
            entry,
            serial,
            offsets,
            crcs,
        };
        Ok((tf, file))
    }

    /// Opens this tier's file again (it was closed for room, or a scan
    /// reads it), checking that it is still the file that was opened: the
    /// same length and the same header, checksum included. The header
    /// holds the block index's checksum, so a file that passes has its
    /// blocks where this handle looks for them; a tier rewritten since
    /// (by another handle or process) fails, as [`Error::FileChanged`]
    /// rather than as a damaged block.
    pub fn reopen(&self) -> Result<File> {
        let file = open_file(&self.path, self.entry.tier)?;
        let len = file.metadata().map_err(|e| Error::io(&self.path, e))?.len();
        let mut bytes = [0u8; FIXED_HEADER + MAX_NAME_BYTES + 4];
        let n = self.header.len();
        let changed = || Error::FileChanged {
            path: self.path.clone(),
            tier: self.entry.tier,
        };
        if len != self.entry.bytes {
            return Err(changed());
        }
        let bytes = &mut bytes[..n];
        read_at(&file, &self.path, bytes, 0)?;
        let crc = u32_at(bytes, n - 4);
        if crc != self.entry.header_crc || crc32fast::hash(&bytes[..n - 4]) != crc {
            return Err(changed());
        }
        Ok(file)
    }

    /// Reads, checks and decompresses block `block` of `file` (this tier's
    /// file, open) into `out` (the raw records), using `compressed` and
    /// `packed` as scratch (the compressed bytes, and the block as laid
    /// out before compression: [`crate::layout`]).
    pub fn read_block(
        &self,
        file: &File,
        block: u64,
        dctx: &mut zstd::bulk::Decompressor<'static>,
        compressed: &mut Vec<u8>,
        packed: &mut Vec<u8>,
        out: &mut Vec<u8>,
    ) -> Result<()> {
        let n = self.header.records_in(block);
        packed.clear();
        packed.reserve(crate::layout::max_len(n, self.header.width));
        self.decompress(file, block, dctx, compressed, packed)?;
        crate::layout::unpack(self.header.width, packed, n, out)
            .map_err(|e| self.damaged_block(block, e))
    }

    /// Reads, checks and decompresses block `block` of `file` into `out`
    /// as it is laid out, with its rank index built: a lookup finds one
    /// record in it without expanding the block.
    pub fn read_indexed(
        &self,
        file: &File,
        block: u64,
        dctx: &mut zstd::bulk::Decompressor<'static>,
        compressed: &mut Vec<u8>,
        out: &mut Block,
    ) -> Result<()> {
        let n = self.header.records_in(block);
        let buf = out.buffer(n, self.header.width);
        self.decompress(file, block, dctx, compressed, buf)?;
        out.index(self.header.width, n)
            .map_err(|e| self.damaged_block(block, e))
    }

    /// Reads block `block`, checks it and decompresses it into `packed`
    /// (which has room for the largest layout of the block).
    fn decompress(
        &self,
        file: &File,
        block: u64,
        dctx: &mut zstd::bulk::Decompressor<'static>,
        compressed: &mut Vec<u8>,
        packed: &mut Vec<u8>,
    ) -> Result<()> {
        self.read_compressed(file, block, compressed)?;
        dctx.decompress_to_buffer(compressed.as_slice(), packed)
            .map(|_| ())
            .map_err(|e| self.damaged_block(block, e))
    }

    /// The error for block `block` found damaged: `e` says how.
    fn damaged_block(&self, block: u64, e: impl std::fmt::Display) -> Error {
        Error::corrupt(&self.path, format!("block {block}: {e}"))
    }

    /// Record `i` of a block read by [`TierFile::read_indexed`].
    pub fn record_in(&self, block: &Block, i: usize) -> Result<Option<Value>> {
        let width = self.header.width;
        let bits = block
            .record(width, i)
            .map_err(|e| Error::corrupt(&self.path, e))?;
        width
            .decode(bits)
            .map_err(|e| Error::corrupt(&self.path, format!("record {i} of its block: {e}")))
    }

    /// Reads block `block`'s compressed bytes into `compressed` and checks
    /// them against the block's checksum.
    fn read_compressed(&self, file: &File, block: u64, compressed: &mut Vec<u8>) -> Result<()> {
        let b = block as usize;
        let (start, end) = (self.offsets[b], self.offsets[b + 1]);
        compressed.resize((end - start) as usize, 0);
        read_at(file, &self.path, compressed, start)?;
        if crc32fast::hash(compressed) != self.crcs[b] {
            return Err(Error::BlockChecksum {
                path: self.path.clone(),
                block,
            });
        }
        Ok(())
    }

    /// Reads `file` (this tier's file, open) whole, once and in order, and
    /// checks it: every block against its checksum, and all the file's
    /// bytes against the CRC-32 recorded for the whole file
    /// ([`Entry::file_crc`]). A block that does not match (a hole in a
    /// sparse file reads as zeros) is refused where it is met, before the
    /// rest of the file is read. Nothing is decompressed: bytes that match
    /// the writer's checksums are the bytes it wrote.
    pub fn check_whole(&self, file: &File) -> Result<()> {
        let mut crc = crc32fast::Hasher::new();
        let mut buf = vec![0u8; self.header.len()];
        read_at(file, &self.path, &mut buf, 0)?;
        crc.update(&buf);
        let mut compressed = Vec::new();
        for block in 0..self.header.blocks {
            self.read_compressed(file, block, &mut compressed)?;
            crc.update(&compressed);
        }
        let end = self.header.file_len();
        let mut at = self.header.index_offset;
        buf.resize(INDEX_PIECE, 0);
        while at < end {
            let n = (end - at).min(INDEX_PIECE as u64) as usize;
            read_at(file, &self.path, &mut buf[..n], at)?;
            crc.update(&buf[..n]);
            at += n as u64;
        }
        if crc.finalize() != self.entry.file_crc {
            return Err(Error::FileChecksum {
                path: self.path.clone(),
            });
        }
        Ok(())
    }
}

/// Opens a finished tier's file for reading.
pub(crate) fn open_file(path: &Path, tier: game_core::Tier) -> Result<File> {
    crate::fsio::open_regular(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Error::TierFileMissing {
                path: path.to_owned(),
                tier,
            }
        } else {
            Error::io(path, e)
        }
    })
}

/// Record `i` of raw records of width `width`.
pub(crate) fn decode_at(
    path: &Path,
    width: RecordWidth,
    raw: &[u8],
    i: usize,
) -> Result<Option<Value>> {
    let bits = match width {
        RecordWidth::Narrow => u32::from(u16::from_le_bytes([raw[2 * i], raw[2 * i + 1]])),
        RecordWidth::Wide => u32_at(raw, 4 * i),
    };
    width
        .decode(bits)
        .map_err(|e| Error::corrupt(path, format!("record {i} of its block: {e}")))
}
