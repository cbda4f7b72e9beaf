//! A block's bytes (format 3): the block's records coded by
//! [`crate::cm`] under a model the block carries, in chunks a lookup can
//! start at; and the parsed block the cache keeps.

use crate::cm::{self, Coded, CHUNK, MAX_ORDER, VALUE_CONTEXTS};
use crate::RecordWidth;

/// The largest block of `n` records a writer writes (of any width): a
/// record is at most 75 decisions of at most 12 bits, a chunk ends in at
/// most 5 bytes and its length takes at most 5.
pub(crate) fn max_len(n: usize) -> usize {
    let chunks = n.div_ceil(CHUNK);
    9 + zstd::zstd_safe::compress_bound((1 << MAX_ORDER) + VALUE_CONTEXTS)
        + chunks * 10
        + n * 113
}

/// Codes the records `recs` (in the low bits of `u32`s, of width
/// `width`) as a block into `out` (cleared first); `level` is zstd's, for
/// the block's model.
pub(crate) fn pack(
    width: RecordWidth,
    recs: &[u32],
    level: i32,
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    out.clear();
    cm::encode(recs, width, level, out)
}

/// A block as read ([`pack`]), checked and parsed: its model and chunk
/// table, so that a record is found by decoding at most one chunk. Kept
/// in the block cache; its buffers are reused for the next block read
/// into it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Block {
    coded: Coded,
}

impl Block {
    /// A block of no records, holding no memory.
    pub const EMPTY: Block = Block {
        coded: Coded::EMPTY,
    };

    /// The buffer to read the block's bytes into (cleared, room for
    /// `len` bytes); [`Block::index`] must follow.
    pub fn buffer(&mut self, len: usize) -> &mut Vec<u8> {
        let b = self.coded.buffer();
        b.reserve(len);
        b
    }

    /// Checks the bytes read into [`Block::buffer`] as a block of `n`
    /// records and parses it; `Err` says what is wrong (and the block
    /// then holds no record).
    pub fn index(
        &mut self,
        n: usize,
        dctx: &mut zstd::bulk::Decompressor<'static>,
    ) -> std::result::Result<(), String> {
        self.coded.parse(n, dctx)
    }

    /// The record (in the low bits of a `u32`, 0 for no position) at `i`
    /// (< the block's records); `Err` for a code no writer wrote.
    pub fn record(&self, width: RecordWidth, i: usize) -> std::result::Result<u32, String> {
        self.coded.record(width, i)
    }

    /// Every record of the block, in order, into `out` (cleared first).
    pub fn records(
        &self,
        width: RecordWidth,
        out: &mut Vec<u32>,
    ) -> std::result::Result<(), String> {
        out.clear();
        self.coded.decode_all(width, |r| out.push(r))
    }

    /// What the block holds allocated, in bytes.
    pub fn allocated(&self) -> usize {
        self.coded.allocated()
    }

    /// Bytes in use.
    pub fn len(&self) -> usize {
        self.coded.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::Value;
    use proptest::prelude::*;

    fn any_record(max_r: u32) -> impl Strategy<Value = Option<Value>> {
        prop_oneof![
            4 => Just(None),
            1 => Just(Some(Value::DRAW)),
            1 => (0..=max_r).prop_map(|r| Some(Value::win(r))),
            1 => (0..=max_r).prop_map(|r| Some(Value::lose(r))),
            1 => (0..=max_r).prop_map(|r| Some(Value::tie(r))),
        ]
    }

    proptest! {
        /// Every record back, by lookup and by a scan, within the bound.
        #[test]
        fn round_trip(recs in proptest::collection::vec(any_record(20_000), 0..9000), wide: bool) {
            let width = if wide { RecordWidth::Wide } else { RecordWidth::Narrow };
            let recs: Vec<u32> = recs.iter().map(|&r| width.encode(r).unwrap_or(1)).collect();
            let mut packed = Vec::new();
            pack(width, &recs, 9, &mut packed).unwrap();
            prop_assert!(packed.len() <= max_len(recs.len()));
            let mut dctx = zstd::bulk::Decompressor::new().unwrap();
            let mut block = Block::default();
            block.buffer(packed.len()).extend_from_slice(&packed);
            block.index(recs.len(), &mut dctx).unwrap();
            let mut back = Vec::new();
            block.records(width, &mut back).unwrap();
            prop_assert_eq!(&back, &recs);
            for i in (0..recs.len()).step_by(37) {
                prop_assert_eq!(block.record(width, i).unwrap(), recs[i]);
            }
            prop_assert!(block.record(width, recs.len()).is_err());
        }
    }
}
