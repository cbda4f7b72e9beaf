//! Cells of 4 bytes, laid out as solver-retro's wide cells: while a
//! position is open, the count of its distinct children not yet resolved
//! (top bit clear); once resolved, the top bit, two bits of outcome (lose,
//! tie, win) and 29 bits of remoteness; all ones for an index that is no
//! position. Cluster cells are always wide: a narrow table would have to be
//! retried on every worker at once when one shard overflows it.

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
}
