//! The layout of a block's bytes before compression: one compact byte a
//! record where every record of the block has one, else which records
//! stand for a position, then the values of those alone.
//!
//! The first byte says which:
//!
//! | first byte | then |
//! | --- | --- |
//! | 0 (dense, format 3) | n compact values, one a record, `0` for "no position" |
//! | 1 (format 2 only) | the presence bitmap, then one compact value a set bit |
//! | the record width w (2 or 4) | the presence bitmap (⌈n/8⌉ bytes: bit `i % 8` of byte `i / 8` set iff record `i` is not "no position"; bits past n are 0), then the records that are set, w bytes each, in index order |
//!
//! A compact value is one byte, `class << 6 | r`, for a record whose
//! remoteness is below 64 (a draw is `1`, its record's pattern; "no
//! position", the record 0, is the byte 0): the record's class (its top
//! two bits) and remoteness. Blocks are written dense whenever they can
//! be (every remoteness under 64): a byte a record, and the indices that
//! stand for no position (illegal, unreachable or not canonical: most of a
//! densely indexed table) are runs zstd's matches take almost for nothing.
//! Dense blocks compress better than a bitmap beside the values, because
//! a match then carries presence and values together (Connect Four 5×5:
//! 8.40 MB against 8.86 MB, both at 2 MiB blocks and level 12,
//! BENCHMARKS.md). A
//! block with any remoteness of 64 or more keeps the bitmap and its
//! values at the record width. Format 2's compact bitmap layout (first
//! byte 1) is still read.

use crate::RecordWidth;

/// The largest laid-out size of a block of `n` records of width `width`.
pub(crate) fn max_len(n: usize, width: RecordWidth) -> usize {
    1 + n.div_ceil(8) + n * width.bytes()
}

/// The record (in the low bits of a `u32`) of raw record `i`.
fn record_at(width: RecordWidth, raw: &[u8], i: usize) -> u32 {
    match width {
        RecordWidth::Narrow => u32::from(u16::from_le_bytes([raw[2 * i], raw[2 * i + 1]])),
        RecordWidth::Wide => u32::from_le_bytes(raw[4 * i..4 * i + 4].try_into().expect("4 bytes")),
    }
}

/// The compact byte of `record`, if it has one.
fn compact(width: RecordWidth, record: u32) -> Option<u8> {
    let shift = width.bits() - 2;
    let r = record & ((1 << shift) - 1);
    (r < 64).then(|| (((record >> shift) << 6) | r) as u8)
}

/// The record a compact byte stands for.
fn expand(width: RecordWidth, byte: u8) -> u32 {
    let shift = width.bits() - 2;
    (u32::from(byte >> 6) << shift) | u32::from(byte & 0x3f)
}

/// Lays out the raw records `raw` (little-endian, of width `width`) into
/// `out` (cleared first).
pub(crate) fn pack(width: RecordWidth, raw: &[u8], out: &mut Vec<u8>) {
    let w = width.bytes();
    let n = raw.len() / w;
    out.clear();
    out.push(DENSE);
    for i in 0..n {
        match compact(width, record_at(width, raw, i)) {
            Some(b) => out.push(b),
            None => break,
        }
    }
    if out.len() == 1 + n {
        return;
    }
    out.clear();
    out.push(w as u8);
    out.resize(1 + n.div_ceil(8), 0);
    for i in 0..n {
        if record_at(width, raw, i) != 0 {
            out[1 + i / 8] |= 1 << (i % 8);
        }
    }
    for i in 0..n {
        if record_at(width, raw, i) != 0 {
            out.extend_from_slice(&raw[w * i..w * (i + 1)]);
        }
    }
}

/// The first byte of a dense block: a compact value a record.
const DENSE: u8 = 0;

/// A block as laid out ([`pack`]), checked, with what finds a record in
/// it without expanding it: the number of present records before every
/// 512-record stretch of the bitmap, so that a record's place among the
/// values is that count plus a popcount of at most eight words. Built
/// once when the block is decompressed, kept with it in the block cache;
/// its buffers are reused for the next block read into it.
#[derive(Debug)]
pub(crate) struct Block {
    /// The laid-out bytes (the decompressed block).
    bytes: Vec<u8>,
    /// Present records before each 512-record stretch.
    ranks: Vec<u32>,
    /// Records of the block.
    n: usize,
    /// Bytes of a value after the bitmap: 1 (compact) or the record
    /// width; 0 for a dense block (no bitmap, a compact value a record).
    vw: usize,
}

/// Records a stretch of the rank index covers: eight 64-bit words.
const STRETCH: usize = 512;

impl Default for Block {
    fn default() -> Block {
        Block::EMPTY
    }
}

impl Block {
    /// A block of no records, holding no memory.
    pub const EMPTY: Block = Block {
        bytes: Vec::new(),
        ranks: Vec::new(),
        n: 0,
        vw: 1,
    };

    /// The buffer to decompress into (cleared, room for a block of `n`
    /// records of width `width`); [`Block::index`] must follow.
    pub fn buffer(&mut self, n: usize, width: RecordWidth) -> &mut Vec<u8> {
        self.n = 0;
        self.ranks.clear();
        self.bytes.clear();
        self.bytes.reserve(max_len(n, width));
        &mut self.bytes
    }

    /// Checks the bytes read into [`Block::buffer`] as the layout of `n`
    /// records of width `width` and builds the rank index; `Err` says
    /// what is wrong (and the block then holds no record).
    pub fn index(&mut self, width: RecordWidth, n: usize) -> std::result::Result<(), String> {
        self.ranks.clear();
        if self.bytes.first() == Some(&DENSE) {
            dense_fits(&self.bytes, n)?;
            (self.n, self.vw) = (n, 0);
            return Ok(());
        }
        let (vw, map, values) = split(width, &self.bytes, n)?;
        let mut present = 0usize;
        for stretch in map.chunks(STRETCH / 8) {
            // At most 2^32 records a block (MAX_BLOCK_BYTES).
            self.ranks.push(present as u32);
            present += stretch
                .iter()
                .map(|b| b.count_ones() as usize)
                .sum::<usize>();
        }
        if let Err(e) = values_fit(values, present, vw) {
            self.ranks.clear();
            return Err(e);
        }
        (self.n, self.vw) = (n, vw);
        Ok(())
    }

    /// The record (in the low bits of a `u32`, 0 for no position) at `i`
    /// (< the block's records); `Err` for a value that contradicts the
    /// bitmap (a present record holding no position).
    pub fn record(&self, width: RecordWidth, i: usize) -> std::result::Result<u32, String> {
        if i >= self.n {
            return Err(format!("record {i} of a block of {}", self.n));
        }
        if self.vw == 0 {
            return Ok(expand(width, self.bytes[1 + i]));
        }
        let map = &self.bytes[1..1 + self.n.div_ceil(8)];
        if map[i / 8] & (1 << (i % 8)) == 0 {
            return Ok(0);
        }
        let stretch = i / STRETCH;
        let mut k = self.ranks[stretch] as usize;
        let from = stretch * (STRETCH / 8);
        k += map[from..i / 8]
            .iter()
            .map(|b| b.count_ones() as usize)
            .sum::<usize>();
        k += (map[i / 8] & ((1u8 << (i % 8)) - 1)).count_ones() as usize;
        let values = &self.bytes[1 + map.len()..];
        let v = values
            .get(k * self.vw..(k + 1) * self.vw)
            .ok_or_else(|| format!("record {i}'s value is past the block's end"))?;
        present_record(width, v, i)
    }

    /// What the block holds allocated, in bytes.
    pub fn allocated(&self) -> usize {
        self.bytes.capacity() + 4 * self.ranks.capacity()
    }

    /// Bytes in use (laid-out bytes and rank index).
    pub fn len(&self) -> usize {
        self.bytes.len() + 4 * self.ranks.len()
    }
}

impl Clone for Block {
    /// A copy sized to what the block uses, not to its buffers.
    fn clone(&self) -> Block {
        Block {
            bytes: self.bytes.as_slice().to_vec(),
            ranks: self.ranks.as_slice().to_vec(),
            n: self.n,
            vw: self.vw,
        }
    }
}

/// Checks `packed` as the layout of `n` records of width `width` but for
/// the count of its values: the value width, the bitmap and the values.
fn split(
    width: RecordWidth,
    packed: &[u8],
    n: usize,
) -> std::result::Result<(usize, &[u8], &[u8]), String> {
    let w = width.bytes();
    let map_len = n.div_ceil(8);
    let Some((&vw, rest)) = packed.split_first() else {
        return Err("an empty block".into());
    };
    let vw = usize::from(vw);
    if vw != 1 && vw != w {
        return Err(format!(
            "values of {vw} bytes in a block of {w}-byte records"
        ));
    }
    if rest.len() < map_len {
        return Err(format!(
            "{} bytes, too short for a presence bitmap of {n} records",
            packed.len()
        ));
    }
    let (map, values) = rest.split_at(map_len);
    if !n.is_multiple_of(8) && map[map_len - 1] >> (n % 8) != 0 {
        return Err("presence bits set past the block's last record".into());
    }
    Ok((vw, map, values))
}

/// `Err` unless the dense block `packed` holds a value for each of `n`
/// records.
fn dense_fits(packed: &[u8], n: usize) -> std::result::Result<(), String> {
    if packed.len() == 1 + n {
        return Ok(());
    }
    Err(format!(
        "{} bytes for a dense block of {n} records",
        packed.len()
    ))
}

/// `Err` unless `values` holds exactly `present` values of `vw` bytes.
fn values_fit(values: &[u8], present: usize, vw: usize) -> std::result::Result<(), String> {
    if values.len() == present * vw {
        return Ok(());
    }
    Err(format!(
        "{} bytes of values for {present} records of {vw} bytes",
        values.len()
    ))
}

/// The record stored as `v` (one compact byte, or a whole record) for
/// record `i`, which the bitmap marks present; `Err` if it holds no
/// position.
fn present_record(width: RecordWidth, v: &[u8], i: usize) -> std::result::Result<u32, String> {
    let rec = if v.len() == 1 {
        expand(width, v[0])
    } else {
        record_at(width, v, 0)
    };
    if rec == 0 {
        return Err(format!(
            "record {i} is marked present but holds no position"
        ));
    }
    Ok(rec)
}

/// The raw records of `n` records of width `width` laid out in `packed`,
/// into `raw` (cleared first); `Err` says what is wrong with `packed`.
pub(crate) fn unpack(
    width: RecordWidth,
    packed: &[u8],
    n: usize,
    raw: &mut Vec<u8>,
) -> std::result::Result<(), String> {
    let w = width.bytes();
    raw.clear();
    if packed.first() == Some(&DENSE) {
        dense_fits(packed, n)?;
        raw.resize(n * w, 0);
        for (dst, &b) in raw.chunks_exact_mut(w).zip(&packed[1..]) {
            put(width, dst, expand(width, b));
        }
        return Ok(());
    }
    let (vw, map, values) = split(width, packed, n)?;
    let present: usize = map.iter().map(|b| b.count_ones() as usize).sum();
    values_fit(values, present, vw)?;
    raw.resize(n * w, 0);
    let mut next = values.chunks_exact(vw);
    for i in 0..n {
        if map[i / 8] & (1 << (i % 8)) == 0 {
            continue;
        }
        let rec = present_record(width, next.next().expect("counted above"), i)?;
        put(width, &mut raw[w * i..w * (i + 1)], rec);
    }
    Ok(())
}

/// Writes `rec` as a raw record of width `width` into `dst`.
fn put(width: RecordWidth, dst: &mut [u8], rec: u32) {
    match width {
        RecordWidth::Narrow => dst.copy_from_slice(&(rec as u16).to_le_bytes()),
        RecordWidth::Wide => dst.copy_from_slice(&rec.to_le_bytes()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::Value;
    use proptest::prelude::*;

    fn raw_of(width: RecordWidth, recs: &[Option<Value>]) -> Vec<u8> {
        let mut raw = Vec::new();
        for &r in recs {
            let bits = width.encode(r).unwrap();
            match width {
                RecordWidth::Narrow => raw.extend_from_slice(&(bits as u16).to_le_bytes()),
                RecordWidth::Wide => raw.extend_from_slice(&bits.to_le_bytes()),
            }
        }
        raw
    }

    fn any_record(max_r: u32) -> impl Strategy<Value = Option<Value>> {
        prop_oneof![
            4 => Just(None),
            1 => Just(Some(Value::DRAW)),
            1 => (0..=max_r).prop_map(|r| Some(Value::win(r))),
            1 => (0..=max_r).prop_map(|r| Some(Value::lose(r))),
            1 => (0..=max_r).prop_map(|r| Some(Value::tie(r))),
        ]
    }

    /// A block of small remoteness is dense, a byte a record; one with a
    /// remoteness of 64 a bitmap and whole records.
    #[test]
    fn sizes() {
        let mut out = Vec::new();
        for width in [RecordWidth::Narrow, RecordWidth::Wide] {
            pack(width, &raw_of(width, &[None; 100]), &mut out);
            assert_eq!(out, [0u8; 101]);
            let recs = [
                Some(Value::win(63)),
                None,
                Some(Value::DRAW),
                Some(Value::lose(0)),
            ];
            pack(width, &raw_of(width, &recs), &mut out);
            assert_eq!(out, [DENSE, 0xff, 0, 0x01, 0x40]);
            let recs = [Some(Value::tie(64)), None];
            pack(width, &raw_of(width, &recs), &mut out);
            assert_eq!(out.len(), 2 + width.bytes());
            assert_eq!(out[..2], [width.bytes() as u8, 0b01]);
        }
    }

    /// Format 2 wrote blocks of small remoteness as a bitmap and a
    /// compact value a set bit (first byte 1): they are still read.
    #[test]
    fn format_two_compact_blocks_are_read() {
        let w = RecordWidth::Narrow;
        let recs = [Some(Value::lose(1)), None, Some(Value::DRAW), None];
        let mut raw = Vec::new();
        unpack(w, &[1, 0b0101, 0x41, 0x01], 4, &mut raw).unwrap();
        assert_eq!(raw, raw_of(w, &recs));
        let mut b = Block::default();
        b.buffer(4, w).extend_from_slice(&[1, 0b0101, 0x41, 0x01]);
        b.index(w, 4).unwrap();
        for (i, r) in recs.iter().enumerate() {
            assert_eq!(b.record(w, i).unwrap(), w.encode(*r).unwrap());
        }
    }

    #[test]
    fn damaged_layouts_are_refused() {
        let w = RecordWidth::Narrow;
        let mut raw = Vec::new();
        // Too short, a bad width, bits past the end, a missing value, a
        // present record that is none.
        for bad in [
            &[][..],
            &[3, 0][..],
            &[1][..],
            &[1, 0b1000_0000][..],
            &[1, 0b1][..],
            &[1, 0b1, 0][..],
            &[2, 0b1, 0, 0][..],
            // Dense blocks of two and four values for three records.
            &[0, 0, 0][..],
            &[0, 0, 0, 0, 0][..],
        ] {
            assert!(unpack(w, bad, 3, &mut raw).is_err(), "{bad:?}");
            let mut b = Block::default();
            b.buffer(3, w).extend_from_slice(bad);
            let refused = b.index(w, 3).is_err() || (0..3).any(|i| b.record(w, i).is_err());
            assert!(refused, "{bad:?}");
        }
        assert!(unpack(w, &[1, 0b1, 0x41], 3, &mut raw).is_ok());
        assert_eq!(raw, raw_of(w, &[Some(Value::lose(1)), None, None]));
    }

    proptest! {
        #[test]
        fn round_trip(recs in proptest::collection::vec(any_record(100), 0..2000), wide: bool) {
            let width = if wide { RecordWidth::Wide } else { RecordWidth::Narrow };
            let raw = raw_of(width, &recs);
            let mut packed = Vec::new();
            pack(width, &raw, &mut packed);
            prop_assert!(packed.len() <= max_len(recs.len(), width));
            let mut back = Vec::new();
            unpack(width, &packed, recs.len(), &mut back).unwrap();
            prop_assert_eq!(&back, &raw);
            // Every record found by rank, as unpacking places it.
            let mut block = Block::default();
            block.buffer(recs.len(), width).extend_from_slice(&packed);
            block.index(width, recs.len()).unwrap();
            for i in 0..recs.len() {
                prop_assert_eq!(block.record(width, i).unwrap(), record_at(width, &raw, i));
            }
            prop_assert!(block.record(width, recs.len()).is_err());
        }
    }
}
