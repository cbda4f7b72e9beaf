//! Records: one `Option<Value>` in 16 or 32 bits.
//!
//! Both widths use the same layout: the top two bits are the class, the rest
//! the remoteness.
//!
//! | bits | meaning |
//! | --- | --- |
//! | `0` | no position (the index stands for nothing) |
//! | `1` | draw |
//! | `01` + r | lose in r |
//! | `10` + r | tie in r |
//! | `11` + r | win in r |
//!
//! Every other pattern with top bits `00` is invalid. A 16-bit record holds
//! remoteness up to [`MAX_NARROW_REMOTENESS`] (2¹⁴ − 1); a 32-bit record
//! holds every remoteness a [`Value`] can have ([`MAX_REMOTENESS`]), and the
//! two patterns above it are invalid.

use game_core::{Outcome, Value, MAX_REMOTENESS};

use crate::{Error, Result};

/// The largest remoteness a 16-bit record holds.
pub const MAX_NARROW_REMOTENESS: u32 = (1 << 14) - 1;

const NONE: u32 = 0;
const DRAW: u32 = 1;

/// How many bytes a record takes on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RecordWidth {
    /// 16 bits: remoteness up to [`MAX_NARROW_REMOTENESS`].
    Narrow,
    /// 32 bits: any remoteness.
    Wide,
}

impl RecordWidth {
    /// Bytes a record takes: 2 or 4.
    #[must_use]
    pub const fn bytes(self) -> usize {
        match self {
            RecordWidth::Narrow => 2,
            RecordWidth::Wide => 4,
        }
    }

    /// Bits a record takes: 16 or 32.
    #[must_use]
    pub const fn bits(self) -> u32 {
        self.bytes() as u32 * 8
    }

    /// The largest remoteness a record of this width holds.
    #[must_use]
    pub const fn max_remoteness(self) -> u32 {
        match self {
            RecordWidth::Narrow => MAX_NARROW_REMOTENESS,
            RecordWidth::Wide => MAX_REMOTENESS,
        }
    }

    /// The width with `bytes` bytes a record, if any.
    #[must_use]
    pub const fn from_bytes(bytes: usize) -> Option<RecordWidth> {
        match bytes {
            2 => Some(RecordWidth::Narrow),
            4 => Some(RecordWidth::Wide),
            _ => None,
        }
    }

    /// Whether `record` fits this width.
    #[must_use]
    pub fn fits(self, record: Option<Value>) -> bool {
        record
            .and_then(Value::remoteness)
            .is_none_or(|r| r <= self.max_remoteness())
    }

    /// Encodes `record` into the low [`RecordWidth::bits`] of a `u32`.
    ///
    /// # Errors
    /// [`Error::RemotenessTooLarge`] if the remoteness does not fit.
    pub fn encode(self, record: Option<Value>) -> Result<u32> {
        let Some(v) = record else { return Ok(NONE) };
        let shift = self.bits() - 2;
        let class = match v.outcome() {
            Outcome::Draw => return Ok(DRAW),
            Outcome::Lose => 1,
            Outcome::Tie => 2,
            Outcome::Win => 3,
        };
        let r = v.remoteness().unwrap_or(0);
        if r > self.max_remoteness() {
            return Err(Error::RemotenessTooLarge {
                remoteness: r,
                bits: self.bits(),
                max: self.max_remoteness(),
            });
        }
        Ok((class << shift) | r)
    }

    /// Decodes the low [`RecordWidth::bits`] of `bits`.
    ///
    /// # Errors
    /// [`Error::InvalidRecord`] for a pattern no record encodes (including
    /// any bit set above the width).
    pub fn decode(self, bits: u32) -> Result<Option<Value>> {
        let invalid = || Error::InvalidRecord {
            value: bits,
            bits: self.bits(),
        };
        if self == RecordWidth::Narrow && bits > u32::from(u16::MAX) {
            return Err(invalid());
        }
        let shift = self.bits() - 2;
        let r = bits & ((1 << shift) - 1);
        let outcome = match bits >> shift {
            0 => {
                return match bits {
                    NONE => Ok(None),
                    DRAW => Ok(Some(Value::DRAW)),
                    _ => Err(invalid()),
                }
            }
            1 => Outcome::Lose,
            2 => Outcome::Tie,
            _ => Outcome::Win,
        };
        if r > self.max_remoteness() {
            return Err(invalid());
        }
        Ok(Some(Value::new(outcome, r)))
    }
}

/// Encodes `record` as a 16-bit record.
///
/// ```
/// use game_core::Value;
/// use game_db::{decode16, encode16};
/// assert_eq!(encode16(None).unwrap(), 0);
/// assert_eq!(encode16(Some(Value::DRAW)).unwrap(), 1);
/// assert_eq!(encode16(Some(Value::win(5))).unwrap(), 0xC005);
/// assert_eq!(decode16(0x4003).unwrap(), Some(Value::lose(3)));
/// assert!(decode16(2).is_err());
/// assert!(encode16(Some(Value::win(1 << 14))).is_err());
/// ```
///
/// # Errors
/// [`Error::RemotenessTooLarge`] above [`MAX_NARROW_REMOTENESS`].
pub fn encode16(record: Option<Value>) -> Result<u16> {
    // A narrow encoding is below 2^16 by construction.
    RecordWidth::Narrow.encode(record).map(|b| b as u16)
}

/// Decodes a 16-bit record.
///
/// # Errors
/// [`Error::InvalidRecord`] for a pattern no record encodes.
pub fn decode16(bits: u16) -> Result<Option<Value>> {
    RecordWidth::Narrow.decode(u32::from(bits))
}

/// Encodes `record` as a 32-bit record; every value fits.
///
/// ```
/// use game_core::Value;
/// use game_db::{decode32, encode32};
/// assert_eq!(encode32(Some(Value::tie(70_000))), 0x8001_1170);
/// assert_eq!(decode32(1).unwrap(), Some(Value::DRAW));
/// assert!(decode32(0x3fff_ffff).is_err());
/// ```
#[must_use]
pub fn encode32(record: Option<Value>) -> u32 {
    match RecordWidth::Wide.encode(record) {
        Ok(bits) => bits,
        // A Value never holds more than MAX_REMOTENESS, which fits.
        Err(_) => unreachable!("every remoteness fits 32 bits"),
    }
}

/// Decodes a 32-bit record.
///
/// # Errors
/// [`Error::InvalidRecord`] for a pattern no record encodes.
pub fn decode32(bits: u32) -> Result<Option<Value>> {
    RecordWidth::Wide.decode(bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn any_record(max_r: u32) -> impl Strategy<Value = Option<Value>> {
        prop_oneof![
            Just(None),
            Just(Some(Value::DRAW)),
            (0..=max_r).prop_map(|r| Some(Value::win(r))),
            (0..=max_r).prop_map(|r| Some(Value::lose(r))),
            (0..=max_r).prop_map(|r| Some(Value::tie(r))),
        ]
    }

    #[test]
    fn every_16_bit_pattern_decodes_to_its_encoding_or_fails() {
        let mut valid = 0u32;
        for bits in 0..=u16::MAX {
            if let Ok(rec) = decode16(bits) {
                valid += 1;
                assert_eq!(encode16(rec).unwrap(), bits);
            }
        }
        // none + draw + three outcomes × 2^14 remoteness values.
        assert_eq!(valid, 2 + 3 * (1 << 14));
    }

    #[test]
    fn no_position_and_draw_are_distinct() {
        assert_ne!(
            encode16(None).unwrap(),
            encode16(Some(Value::DRAW)).unwrap()
        );
        assert_ne!(encode32(None), encode32(Some(Value::DRAW)));
    }

    #[test]
    fn wide_edges() {
        assert_eq!(
            decode32(encode32(Some(Value::win(MAX_REMOTENESS)))).unwrap(),
            Some(Value::win(MAX_REMOTENESS))
        );
        for class in 1..4u32 {
            for r in [MAX_REMOTENESS + 1, MAX_REMOTENESS + 2] {
                assert!(decode32((class << 30) | r).is_err());
            }
        }
        assert!(decode32(2).is_err());
        assert!(RecordWidth::Narrow.decode(0x1_0000).is_err());
    }

    #[test]
    fn narrow_refuses_large_remoteness() {
        let r = MAX_NARROW_REMOTENESS;
        assert!(encode16(Some(Value::lose(r))).is_ok());
        assert!(matches!(
            encode16(Some(Value::lose(r + 1))),
            Err(Error::RemotenessTooLarge { remoteness, .. }) if remoteness == r + 1
        ));
        assert!(!RecordWidth::Narrow.fits(Some(Value::tie(r + 1))));
        assert!(RecordWidth::Narrow.fits(Some(Value::DRAW)));
    }

    proptest! {
        #[test]
        fn narrow_round_trip(rec in any_record(MAX_NARROW_REMOTENESS)) {
            prop_assert_eq!(decode16(encode16(rec).unwrap()).unwrap(), rec);
        }

        #[test]
        fn wide_round_trip(rec in any_record(MAX_REMOTENESS)) {
            prop_assert_eq!(decode32(encode32(rec)).unwrap(), rec);
        }
    }
}
