//! Cells of 4 bytes, laid out as solver-retro's wide cells: while a
//! position is open, the count of its distinct children not yet resolved
//! (top bit clear); once resolved, the top bit, two bits of outcome (lose,
//! tie, win) and 29 bits of remoteness; all ones for an index that is no
//! position. Cluster cells are always wide: a narrow table would have to be
//! retried on every worker at once when one shard overflows it.

use std::sync::Arc;

use game_core::{Outcome, Value};

/// An index that stands for no position.
pub(crate) const INVALID: u32 = u32::MAX;
/// The largest count of unresolved children.
pub(crate) const MAX_COUNT: u64 = (1 << 31) - 2;
/// An open position whose children are not counted yet.
pub(crate) const UNCOUNTED: u64 = (1 << 31) - 1;
/// The largest remoteness.
pub(crate) const MAX_REMOTENESS: u64 = (1 << 29) - 1;

/// An open cell counting `n` children.
#[inline]
pub(crate) fn counter(n: u64) -> u32 {
    n as u32
}

/// `Some(counter)` while open.
#[inline]
pub(crate) fn open(c: u32) -> Option<u64> {
    (c >> 31 == 0).then_some(u64::from(c))
}

/// A resolved cell.
#[inline]
pub(crate) fn resolved(outcome: Outcome, remoteness: u64) -> u32 {
    let code = match outcome {
        Outcome::Lose => 0,
        Outcome::Tie => 1,
        Outcome::Win => 2,
        Outcome::Draw => unreachable!("draws are never resolved"),
    };
    (1 << 31) | (code << 29) | remoteness as u32
}

/// The value: a draw for an open cell, `None` for an index that is no
/// position.
#[inline]
pub(crate) fn value(c: u32) -> Option<Value> {
    if c >> 31 == 0 {
        return Some(Value::DRAW);
    }
    let r = c & ((1 << 29) - 1);
    match (c >> 29) & 3 {
        0 => Some(Value::lose(r)),
        1 => Some(Value::tie(r)),
        2 => Some(Value::win(r)),
        _ => None,
    }
}

/// The cell of a value read from a database (`None`: no position).
#[inline]
pub(crate) fn from_value(v: Option<Value>) -> u32 {
    match v {
        None => INVALID,
        Some(v) => match v.remoteness() {
            None => counter(0),
            Some(r) => resolved(v.outcome(), u64::from(r)),
        },
    }
}

/// `k` children, or [`INVALID`] for none (as solver-retro's bulk counts).
#[inline]
pub(crate) fn count_or_invalid(k: u32) -> u32 {
    if k == 0 {
        INVALID
    } else {
        k
    }
}

/// The cells of one shard: a flat array in an anonymous memory map, which
/// reads as zeros until written (no pass to clear it) and is advised to use
/// huge pages where the system offers them (the levels read parents
/// scattered over the shard).
pub(crate) struct Piece {
    map: memmap2::MmapMut,
    len: usize,
}

impl Piece {
    /// Cells the memory holds (at least the length).
    pub(crate) fn capacity(&self) -> usize {
        self.map.len() / 4
    }

    /// The same memory as `len` cells (at most the capacity), holding
    /// whatever it held: for a block that is about to be written whole.
    pub(crate) fn reuse(mut self, len: usize) -> Piece {
        self.len = len.min(self.capacity());
        self
    }
}

impl Piece {
    /// `len` cells of zero bits.
    pub(crate) fn zeroed(len: usize) -> Result<Piece, crate::Error> {
        let bytes = (len * 4).max(4);
        let map = memmap2::MmapMut::map_anon(bytes).map_err(|e| {
            solver_retro::Error::TooLarge(game_core::TooLarge {
                what: format!("a shard of {len} cells (the system refused the memory: {e})").into(),
                resource: game_core::budget::Resource::Memory,
                needed: bytes as u64,
                available: 0,
                raise: "run on more workers or processes, or free memory".into(),
            })
        })?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(Piece { map, len })
    }

    /// `len` cells, all `c`.
    pub(crate) fn filled(len: usize, c: u32) -> Result<Piece, crate::Error> {
        let mut p = Piece::zeroed(len)?;
        if c != 0 {
            p.fill(c);
        }
        Ok(p)
    }
}

impl std::ops::Deref for Piece {
    type Target = [u32];
    #[inline]
    fn deref(&self) -> &[u32] {
        &bytemuck::cast_slice(&self.map[..])[..self.len]
    }
}

impl std::ops::DerefMut for Piece {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u32] {
        &mut bytemuck::cast_slice_mut(&mut self.map[..])[..self.len]
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

    /// The cell of index `i` (`None` past the end).
    #[inline]
    pub(crate) fn get(&self, i: u64) -> Option<u32> {
        if i >= self.size {
            return None;
        }
        let k = self.shard_of(i);
        self.pieces
            .get(k as usize)?
            .get((i - k * self.chunk) as usize)
            .copied()
    }

    /// The shards in order, as slices.
    pub(crate) fn parts(&self) -> Vec<&[u32]> {
        self.pieces.iter().map(|p| &p[..]).collect()
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

    #[test]
    fn round_trip() {
        for o in [Outcome::Win, Outcome::Lose, Outcome::Tie] {
            for r in [0, 1, 8191, MAX_REMOTENESS] {
                let c = resolved(o, r);
                assert_eq!(open(c), None);
                assert_eq!(value(c), Some(Value::new(o, r as u32)));
                assert_eq!(from_value(value(c)), c);
            }
        }
        assert_eq!(value(INVALID), None);
        assert_eq!(open(INVALID), None);
        assert_eq!(value(counter(7)), Some(Value::DRAW));
        assert_eq!(open(counter(UNCOUNTED)), Some(UNCOUNTED));
        assert_eq!(from_value(None), INVALID);
    }

    #[test]
    fn pieces_make_a_tier() {
        let mut a = Piece::filled(3, INVALID).expect("memory");
        a[1] = counter(2);
        let b = Piece::zeroed(2).expect("memory");
        let t = TierCells::new(3, 5, vec![Arc::new(a), Arc::new(b)]);
        assert_eq!(
            (0..6).map(|i| t.get(i)).collect::<Vec<_>>(),
            [
                Some(INVALID),
                Some(2),
                Some(INVALID),
                Some(0),
                Some(0),
                None
            ]
        );
        assert_eq!(t.parts().concat(), [INVALID, 2, INVALID, 0, 0]);
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
