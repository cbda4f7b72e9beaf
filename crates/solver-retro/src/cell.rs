//! Table cells: a counter of unresolved children while a position is open,
//! its value once resolved. Two widths: 2 bytes (counters below 2¹⁵,
//! remoteness below 2¹³) and 4 bytes.

use game_core::{Outcome, Value};

/// A table cell of the propagation.
pub(crate) trait Cell: Copy + Eq + Send + Sync + 'static {
    /// Bytes a cell takes.
    const BYTES: u64;
    /// The largest counter of unresolved children.
    const MAX_COUNT: u64;
    /// An open position whose children are not counted yet.
    const UNCOUNTED: u64;
    /// The largest remoteness.
    const MAX_REMOTENESS: u64;
    /// A cell for an index that stands for no position.
    const INVALID: Self;
    fn counter(n: u64) -> Self;
    /// `Some(counter)` while unresolved.
    fn open(self) -> Option<u64>;
    fn resolved(outcome: Outcome, remoteness: u64) -> Self;
    /// The value: a draw for an open cell, `None` for an invalid one.
    fn value(self) -> Option<Value>;
}

macro_rules! cell {
    ($t:ty, $bits:expr) => {
        impl Cell for $t {
            const BYTES: u64 = $bits / 8;
            const MAX_COUNT: u64 = (1 << ($bits - 1)) - 2;
            const UNCOUNTED: u64 = (1 << ($bits - 1)) - 1;
            const MAX_REMOTENESS: u64 = (1 << ($bits - 3)) - 1;
            const INVALID: Self = <$t>::MAX;
            #[inline]
            fn counter(n: u64) -> Self {
                n as $t
            }
            #[inline]
            fn open(self) -> Option<u64> {
                (self >> ($bits - 1) == 0).then_some(self as u64)
            }
            #[inline]
            fn resolved(outcome: Outcome, remoteness: u64) -> Self {
                let code: $t = match outcome {
                    Outcome::Lose => 0,
                    Outcome::Tie => 1,
                    Outcome::Win => 2,
                    Outcome::Draw => unreachable!("draws are never resolved"),
                };
                (1 << ($bits - 1)) | (code << ($bits - 3)) | remoteness as $t
            }
            #[inline]
            fn value(self) -> Option<Value> {
                if self >> ($bits - 1) == 0 {
                    return Some(Value::DRAW);
                }
                let r = (self & ((1 << ($bits - 3)) - 1)) as u32;
                match (self >> ($bits - 3)) & 3 {
                    0 => Some(Value::lose(r)),
                    1 => Some(Value::tie(r)),
                    2 => Some(Value::win(r)),
                    _ => None,
                }
            }
        }
    };
}

cell!(u16, 16);
cell!(u32, 32);

/// A finished table of either width.
#[derive(Debug, Clone)]
pub(crate) enum Table {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Table {
    #[inline]
    pub(crate) fn value(&self, i: usize) -> Option<Value> {
        match self {
            Table::Narrow(v) => v.get(i)?.value(),
            Table::Wide(v) => v.get(i)?.value(),
        }
    }

    pub(crate) fn len(&self) -> usize {
        match self {
            Table::Narrow(v) => v.len(),
            Table::Wide(v) => v.len(),
        }
    }

    pub(crate) fn bytes_per_position(&self) -> u64 {
        match self {
            Table::Narrow(_) => 2,
            Table::Wide(_) => 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<C: Cell + std::fmt::Debug>() {
        for o in [Outcome::Win, Outcome::Lose, Outcome::Tie] {
            for r in [0, 1, C::MAX_REMOTENESS] {
                let c = C::resolved(o, r);
                assert_eq!(c.open(), None);
                assert_eq!(c.value(), Some(Value::new(o, r as u32)));
                assert_ne!(c, C::INVALID);
            }
        }
        for n in [0, 1, C::MAX_COUNT, C::UNCOUNTED] {
            assert_eq!(C::counter(n).open(), Some(n));
            assert_eq!(C::counter(n).value(), Some(Value::DRAW));
        }
        assert_eq!(C::INVALID.value(), None);
        assert_eq!(C::INVALID.open(), None);
    }

    #[test]
    fn cells_round_trip() {
        round_trip::<u16>();
        round_trip::<u32>();
    }
}
