//! Cells of 1, 2 or 4 bytes, laid out as solver-retro's cells: in 2 and
//! 4 bytes, while a position is open, the count of its distinct children
//! not yet resolved (top bit clear); once resolved, the top bit, two bits
//! of outcome (lose, tie, win) and the remoteness (13 or 29 bits); all
//! ones for an index that is no position; in 1 byte, 256 codes of the same
//! meanings (`impl Cell for u8` in solver-retro).
//!
//! A tier is solved in the cells solver-retro would start it in: 1 byte
//! when its remoteness is known to fit ([`solver_retro::Depths`]), else
//! 2; when a count or a remoteness does not fit, every worker learns it
//! at the same barrier and the tier starts again in the next width (see
//! `worker.rs`). Solved tiers are read in the wide layout
//! ([`Piece::wide_into`] widens narrower cells).

use std::sync::Arc;

use game_core::Value;

/// A cell of the levels, 2 bytes or 4: solver-retro's own encoding, so
/// that a solved tier becomes a [`solver_retro::Table`] by a copy.
pub(crate) use solver_retro::Cell;

/// The cell of a value read from a database (`None`: no position), or
/// `None` for a remoteness past what a cell holds
/// ([`Cell::MAX_REMOTENESS`]; a database holds up to 2³⁰ − 3, which
/// would spill into a cell's outcome bits).
#[inline]
pub(crate) fn from_value(v: Option<Value>) -> Option<u32> {
    match v {
        None => Some(u32::INVALID),
        Some(v) => match v.remoteness() {
            None => Some(u32::counter(0)),
            Some(r) if u64::from(r) > u32::MAX_REMOTENESS => None,
            Some(r) => Some(u32::resolved(v.outcome(), u64::from(r))),
        },
    }
}

/// The cells of one block in either width: a flat array in an anonymous
/// memory map, which reads as zeros until written (no pass to clear it)
/// and is advised to use huge pages where the system offers them (the
/// levels read parents scattered over the block).
pub(crate) struct Piece {
    map: memmap2::MmapMut,
    len: usize,
    width: Width,
}

/// The bytes of a block's cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Width {
    /// 1-byte cells ([`u8`]).
    Byte,
    /// 2-byte cells ([`u16`]).
    Narrow,
    /// 4-byte cells ([`u32`]).
    Wide,
}

impl Width {
    /// Bytes a cell takes.
    pub(crate) fn bytes(self) -> usize {
        match self {
            Width::Byte => 1,
            Width::Narrow => 2,
            Width::Wide => 4,
        }
    }

    /// The width of `bytes`-byte cells (4 for any number but 1 and 2).
    pub(crate) fn of_bytes(bytes: u8) -> Width {
        match bytes {
            1 => Width::Byte,
            2 => Width::Narrow,
            _ => Width::Wide,
        }
    }

    /// The next width up, where this one is too narrow.
    pub(crate) fn wider(self) -> Option<Width> {
        match self {
            Width::Byte => Some(Width::Narrow),
            Width::Narrow => Some(Width::Wide),
            Width::Wide => None,
        }
    }

    /// The largest remoteness a cell holds.
    pub(crate) fn max_remoteness(self) -> u64 {
        match self {
            Width::Byte => u8::MAX_REMOTENESS,
            Width::Narrow => u16::MAX_REMOTENESS,
            Width::Wide => u32::MAX_REMOTENESS,
        }
    }
}

/// A block's cells, as their width has them.
pub(crate) enum View<'a> {
    /// 1-byte cells.
    Byte(&'a mut [u8]),
    /// 2-byte cells.
    Narrow(&'a mut [u16]),
    /// 4-byte cells.
    Wide(&'a mut [u32]),
}

impl Piece {
    /// The width of the cells.
    pub(crate) fn width(&self) -> Width {
        self.width
    }

    /// Cells.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Bytes the memory holds.
    pub(crate) fn capacity(&self) -> usize {
        self.map.len()
    }

    /// The same memory as `len` cells of `width` (at most what the
    /// memory holds), holding whatever it held: for a block that is about
    /// to be written whole.
    pub(crate) fn reuse(mut self, len: usize, width: Width) -> Piece {
        self.width = width;
        self.len = len.min(self.capacity() / width.bytes());
        self
    }

    /// `len` cells of zero bits, of `width`.
    pub(crate) fn zeroed(len: usize, width: Width) -> Result<Piece, crate::Error> {
        let bytes = (len * width.bytes()).max(4);
        let map = memmap2::MmapMut::map_anon(bytes).map_err(|e| {
            // Nothing was available: the system said no.
            let refused = game_core::Budget::unlimited()
                .with_memory(0)
                .with_advice("run on more workers or processes, or free memory", "");
            solver_retro::Error::TooLarge(refused.memory_error(
                format!("a shard of {len} cells (the system refused the memory: {e})"),
                bytes as u64,
            ))
        })?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(Piece { map, len, width })
    }

    /// `len` cells that stand for no position (all ones in every width).
    pub(crate) fn invalid(len: usize, width: Width) -> Result<Piece, crate::Error> {
        let mut p = Piece::zeroed(len, width)?;
        p.map.fill(0xff);
        Ok(p)
    }

    /// The cells.
    #[inline]
    pub(crate) fn view(&mut self) -> View<'_> {
        let bytes = &mut self.map[..self.len * self.width.bytes()];
        match self.width {
            Width::Byte => View::Byte(bytes),
            Width::Narrow => View::Narrow(bytemuck::cast_slice_mut(bytes)),
            Width::Wide => View::Wide(bytemuck::cast_slice_mut(bytes)),
        }
    }

    /// The value of cell `i`: `None` past the end or for an index that is
    /// no position.
    #[inline(always)]
    pub(crate) fn value(&self, i: usize) -> Option<Value> {
        if i >= self.len {
            return None;
        }
        match self.width {
            Width::Byte => self.map.get(i)?.value(),
            Width::Narrow => {
                let b = self.map.get(2 * i..2 * i + 2)?;
                u16::from_ne_bytes([b[0], b[1]]).value()
            }
            Width::Wide => {
                let b = self.map.get(4 * i..4 * i + 4)?;
                u32::from_ne_bytes([b[0], b[1], b[2], b[3]]).value()
            }
        }
    }

    /// Cells `at..` in the wide layout, appended to `out`.
    pub(crate) fn wide_into(&self, at: usize, n: usize, out: &mut Vec<u32>) {
        let end = at.saturating_add(n).min(self.len);
        let at = at.min(end);
        let w = self.width.bytes();
        let bytes = &self.map[at * w..end * w];
        match self.width {
            Width::Byte => out.extend(bytes.iter().map(|&x| x.widen())),
            Width::Narrow => {
                let c: &[u16] = bytemuck::cast_slice(bytes);
                out.extend(c.iter().map(|&x| x.widen()));
            }
            Width::Wide => out.extend_from_slice(bytemuck::cast_slice(bytes)),
        }
    }

    /// Writes wide `cells` from `at` on, in this piece's width.
    pub(crate) fn put_wide(&mut self, at: usize, cells: &[u32]) {
        match self.view() {
            View::Byte(c) => {
                if let Some(dst) = c.get_mut(at..at + cells.len()) {
                    for (d, &x) in dst.iter_mut().zip(cells) {
                        *d = u8::narrow(x);
                    }
                }
            }
            View::Narrow(c) => {
                if let Some(dst) = c.get_mut(at..at + cells.len()) {
                    for (d, &x) in dst.iter_mut().zip(cells) {
                        *d = u16::narrow(x);
                    }
                }
            }
            View::Wide(c) => {
                if let Some(dst) = c.get_mut(at..at + cells.len()) {
                    dst.copy_from_slice(cells);
                }
            }
        }
    }

    /// The 1-byte cells, if they are.
    pub(crate) fn byte_cells(&self) -> Option<&[u8]> {
        (self.width == Width::Byte).then(|| &self.map[..self.len])
    }

    /// The 2-byte cells, if they are.
    pub(crate) fn narrow_cells(&self) -> Option<&[u16]> {
        (self.width == Width::Narrow).then(|| bytemuck::cast_slice(&self.map[..2 * self.len]))
    }
}

/// A solved tier as one process holds it: the shards of every worker,
/// `chunk` ids each (the last ones short or empty), in place — a worker's
/// shard is moved here when its levels end, never copied, and the shards
/// of other processes' workers arrive by the gather.
pub(crate) struct TierCells {
    chunk: u64,
    /// `⌊(2⁶⁴ − 1) / chunk⌋`: a shard's number by a multiplication.
    magic: u64,
    size: u64,
    pieces: Vec<Arc<Piece>>,
}

impl TierCells {
    /// A tier of `size` ids from its shards of `chunk` ids each (`chunk` at
    /// least 1).
    pub(crate) fn new(chunk: u64, size: u64, pieces: Vec<Arc<Piece>>) -> TierCells {
        let chunk = chunk.max(1);
        TierCells {
            chunk,
            magic: u64::MAX / chunk,
            size,
            pieces,
        }
    }

    /// The shard holding index `i` (below 2⁶³), without a division: the
    /// product falls short of `i / chunk` by at most one.
    #[inline]
    fn shard_of(&self, i: u64) -> u64 {
        let q = ((u128::from(i) * u128::from(self.magic)) >> 64) as u64;
        q + u64::from((q + 1) * self.chunk <= i)
    }

    /// The value of index `i`: `None` past the end or for an index that is
    /// no position.
    #[inline]
    pub(crate) fn value(&self, i: u64) -> Option<Value> {
        if i >= self.size {
            return None;
        }
        let k = self.shard_of(i);
        self.pieces
            .get(k as usize)?
            .value((i - k * self.chunk) as usize)
    }

    /// The table of these cells: copied as they are when every piece is
    /// of 1 byte or every one of 2, else widened and converted.
    pub(crate) fn table(&self) -> Result<solver_retro::Table, crate::Error> {
        let bytes: Option<Vec<&[u8]>> = self.pieces.iter().map(|p| p.byte_cells()).collect();
        if let Some(parts) = bytes.filter(|p| !p.is_empty()) {
            return Ok(solver_retro::Table::from_byte_parts(&parts)?);
        }
        let narrow: Option<Vec<&[u16]>> = self.pieces.iter().map(|p| p.narrow_cells()).collect();
        if let Some(parts) = narrow {
            return Ok(solver_retro::Table::from_narrow_parts(&parts)?);
        }
        let wide: Vec<Vec<u32>> = self
            .pieces
            .iter()
            .map(|p| {
                let mut v = Vec::with_capacity(p.len());
                p.wide_into(0, p.len(), &mut v);
                v
            })
            .collect();
        let parts: Vec<&[u32]> = wide.iter().map(|v| &v[..]).collect();
        Ok(solver_retro::Table::from_wide_parts(&parts)?)
    }

    /// The shards no one else holds.
    pub(crate) fn into_pieces(self) -> Vec<Piece> {
        self.pieces
            .into_iter()
            .filter_map(|p| Arc::try_unwrap(p).ok())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::Outcome;

    #[test]
    fn round_trip() {
        for o in [Outcome::Win, Outcome::Lose, Outcome::Tie] {
            for r in [0, 1, 8191, u32::MAX_REMOTENESS] {
                let c = u32::resolved(o, r);
                assert_eq!(c.open(), None);
                assert_eq!(c.value(), Some(Value::new(o, r as u32)));
                assert_eq!(from_value(c.value()), Some(c));
            }
        }
        assert_eq!(u32::INVALID.value(), None);
        assert_eq!(u32::INVALID.open(), None);
        assert_eq!(u32::counter(7).value(), Some(Value::DRAW));
        assert_eq!(u32::counter(u32::UNCOUNTED).open(), Some(u32::UNCOUNTED));
        assert_eq!(from_value(None), Some(u32::INVALID));
        // Past a cell's remoteness, the outcome would change: refused.
        let deep = Value::new(Outcome::Lose, u32::MAX_REMOTENESS as u32 + 1);
        assert_eq!(from_value(Some(deep)), None);
    }

    #[test]
    fn narrow_and_wide_cells_agree() {
        for o in [Outcome::Win, Outcome::Lose, Outcome::Tie] {
            for r in [0, 1, 8191] {
                let n = u16::resolved(o, r);
                assert_eq!(n.widen(), u32::resolved(o, r));
                assert_eq!(u16::narrow(u32::resolved(o, r)), n);
            }
        }
        for k in [0u64, 1, 7, u16::MAX_COUNT, u16::UNCOUNTED] {
            assert_eq!(u16::counter(k).widen(), u32::counter(k));
            assert_eq!(u16::narrow(u32::counter(k)), u16::counter(k));
            assert_eq!(u16::counter(k).open(), Some(k));
        }
        assert_eq!(u16::INVALID.widen(), u32::INVALID);
        assert_eq!(u16::narrow(u32::INVALID), u16::INVALID);
        assert_eq!(u16::count_or_invalid(0), u16::INVALID);
        assert_eq!(u16::count_or_invalid(3), 3);
        assert_eq!(u16::counter(3).dec_open(), 2);
        assert_eq!(u16::counter(0).dec_open(), 0);
        assert_eq!(u16::INVALID.dec_open(), u16::INVALID);
        assert_eq!(
            u16::resolved(Outcome::Win, 5).dec_open(),
            u16::resolved(Outcome::Win, 5)
        );
    }

    #[test]
    fn pieces_make_a_tier() {
        for width in [Width::Wide, Width::Narrow, Width::Byte] {
            let mut a = Piece::invalid(3, width).expect("memory");
            a.put_wide(1, &[u32::counter(2)]);
            let b = Piece::zeroed(2, width).expect("memory");
            let t = TierCells::new(3, 5, vec![Arc::new(a), Arc::new(b)]);
            assert_eq!(
                (0..6).map(|i| t.value(i)).collect::<Vec<_>>(),
                [
                    None,
                    Some(Value::DRAW),
                    None,
                    Some(Value::DRAW),
                    Some(Value::DRAW),
                    None
                ]
            );
            let mut wide = Vec::new();
            t.pieces[0].wide_into(0, 5, &mut wide);
            assert_eq!(wide, [u32::INVALID, 2, u32::INVALID]);
            let table = t.table().expect("memory");
            // Copied as they are from 1 or 2 bytes, narrowed from 4.
            let bytes = if width == Width::Byte { 1 } else { 2 };
            assert_eq!(table.bytes_per_position(), bytes);
            assert_eq!(
                (0..5).map(|i| table.value(i)).collect::<Vec<_>>(),
                [
                    None,
                    Some(Value::DRAW),
                    None,
                    Some(Value::DRAW),
                    Some(Value::DRAW)
                ]
            );
        }
    }

    #[test]
    fn shards_by_multiplication_match_division() {
        for chunk in [
            1u64,
            2,
            3,
            7,
            1000,
            65_537,
            (1 << 32) + 1,
            3 << 40,
            (1 << 62) - 1,
        ] {
            let t = TierCells::new(chunk, u64::MAX, Vec::new());
            let mut probes = vec![0, 1, 2, (1 << 63) - 1];
            for k in [1u64, 2, 3, 1000, 1 << 20] {
                if let Some(b) = k.checked_mul(chunk).filter(|&b| b < 1 << 63) {
                    probes.extend([b - 1, b, b + 1]);
                }
            }
            for i in probes.into_iter().filter(|&i| i < 1 << 63) {
                assert_eq!(t.shard_of(i), i / chunk, "index {i}, chunk {chunk}");
            }
        }
    }
}
