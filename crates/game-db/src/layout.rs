//! The layout of a block's bytes before compression (format 2): which
//! records stand for a position, then the values of those alone.
//!
//! | bytes | field |
//! | --- | --- |
//! | 1 | value width v: 1 (compact) or the record width (2 or 4) |
//! | ⌈n/8⌉ | presence bitmap: bit `i % 8` of byte `i / 8` set iff record `i` is not "no position"; bits past n are 0 |
//! | v per set bit | the records that are set, in index order |
//!
//! A compact value is one byte, `class << 6 | r`, for a record whose
//! remoteness is below 64 (a draw is `1`, its record's pattern): the
//! record's class (its top two bits) and remoteness, so a block of small
//! remoteness costs a byte a position and nothing for an index that
//! stands for none. A block with any remoteness of 64 or more keeps its
//! values at the record width.
//!
//! Tables of games indexed densely are mostly "no position" (indices of
//! positions that are illegal, unreachable or not canonical): the bitmap
//! is what they cost, and it compresses to little.

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
    let all_compact = (0..n).all(|i| compact(width, record_at(width, raw, i)).is_some());
    out.push(if all_compact { 1 } else { w as u8 });
    out.resize(1 + n.div_ceil(8), 0);
    for i in 0..n {
        if record_at(width, raw, i) != 0 {
            out[1 + i / 8] |= 1 << (i % 8);
        }
    }
    for i in 0..n {
        let rec = record_at(width, raw, i);
        if rec == 0 {
            continue;
        }
        match compact(width, rec) {
            Some(b) if all_compact => out.push(b),
            _ => out.extend_from_slice(&raw[w * i..w * (i + 1)]),
        }
    }
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
    let present: usize = map.iter().map(|b| b.count_ones() as usize).sum();
    if values.len() != present * vw {
        return Err(format!(
            "{} bytes of values for {present} records of {vw} bytes",
            values.len()
        ));
    }
    raw.clear();
    raw.resize(n * w, 0);
    let mut next = values.iter();
    let mut wide = values.chunks_exact(vw);
    for i in 0..n {
        if map[i / 8] & (1 << (i % 8)) == 0 {
            continue;
        }
        let dst = &mut raw[w * i..w * (i + 1)];
        if vw == 1 {
            let b = *next.next().expect("counted above");
            let rec = expand(width, b);
            if rec == 0 {
                return Err(format!(
                    "record {i} is marked present but holds no position"
                ));
            }
            match width {
                RecordWidth::Narrow => dst.copy_from_slice(&(rec as u16).to_le_bytes()),
                RecordWidth::Wide => dst.copy_from_slice(&rec.to_le_bytes()),
            }
        } else {
            let v = wide.next().expect("counted above");
            if v.iter().all(|&b| b == 0) {
                return Err(format!(
                    "record {i} is marked present but holds no position"
                ));
            }
            dst.copy_from_slice(v);
        }
    }
    Ok(())
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

    /// A block of "no position" costs its bitmap only; a block of small
    /// remoteness a byte a position.
    #[test]
    fn sizes() {
        let mut out = Vec::new();
        for width in [RecordWidth::Narrow, RecordWidth::Wide] {
            pack(width, &raw_of(width, &[None; 100]), &mut out);
            assert_eq!(out.len(), 1 + 13);
            let recs = [
                Some(Value::win(63)),
                None,
                Some(Value::DRAW),
                Some(Value::lose(0)),
            ];
            pack(width, &raw_of(width, &recs), &mut out);
            assert_eq!(out, [1, 0b1101, 0xff, 0x01, 0x40]);
            let recs = [Some(Value::tie(64)), None];
            pack(width, &raw_of(width, &recs), &mut out);
            assert_eq!(out.len(), 2 + width.bytes());
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
        ] {
            assert!(unpack(w, bad, 3, &mut raw).is_err(), "{bad:?}");
        }
        assert!(unpack(w, &[1, 0b1, 0x41], 3, &mut raw).is_ok());
        assert_eq!(raw, raw_of(w, &[Some(Value::lose(1)), None, None]));
    }

    proptest! {
        #[test]
        fn round_trip(recs in proptest::collection::vec(any_record(100), 0..200), wide: bool) {
            let width = if wide { RecordWidth::Wide } else { RecordWidth::Narrow };
            let raw = raw_of(width, &recs);
            let mut packed = Vec::new();
            pack(width, &raw, &mut packed);
            prop_assert!(packed.len() <= max_len(recs.len(), width));
            let mut back = Vec::new();
            unpack(width, &packed, recs.len(), &mut back).unwrap();
            prop_assert_eq!(back, raw);
        }
    }
}
