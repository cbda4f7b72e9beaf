//! A seam for executors outside this crate (solver-cluster): a [`Table`]
//! made from cells in the layout of the engine's 4-, 2- or 1-byte cells,
//! without a `Value` round trip per cell.

use rayon::prelude::*;

use crate::cell::{Cell, Cells, Table};

impl Table {
    /// The table of `cells` laid out as the engine's 4-byte cells (top bit
    /// clear: open, a draw once solving ends; top bit set: two bits of
    /// outcome — 0 lose, 1 tie, 2 win — and 29 of remoteness; all ones:
    /// no position). Kept in 2-byte cells when every remoteness is below
    /// 2¹³, else copied as they are.
    ///
    /// ```
    /// use solver_retro::{Table, Value};
    /// let win3 = (1u32 << 31) | (2 << 29) | 3;
    /// let t = Table::from_wide_cells(&[win3, 5, u32::MAX])?;
    /// assert_eq!(t.bytes_per_position(), 2);
    /// assert_eq!(t.value(0), Some(Value::win(3)));
    /// assert_eq!(t.value(1), Some(Value::DRAW));
    /// assert_eq!(t.value(2), None);
    /// # Ok::<(), solver_retro::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] when the system refuses the memory.
    pub fn from_wide_cells(cells: &[u32]) -> Result<Table, crate::Error> {
        Table::from_wide_parts(&[cells])
    }

    /// The table of `parts` one after the other, each laid out as in
    /// [`Table::from_wide_cells`]: one pass over the parts, however they
    /// were cut (an executor's shards, say), without joining them first.
    ///
    /// ```
    /// use solver_retro::{Table, Value};
    /// let win3 = (1u32 << 31) | (2 << 29) | 3;
    /// let t = Table::from_wide_parts(&[&[win3], &[], &[5, u32::MAX]])?;
    /// assert_eq!(t.len(), 3);
    /// assert_eq!(t.value(0), Some(Value::win(3)));
    /// assert_eq!(t.value(1), Some(Value::DRAW));
    /// assert_eq!(t.value(2), None);
    /// # Ok::<(), solver_retro::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] when the system refuses the memory.
    pub fn from_wide_parts(parts: &[&[u32]]) -> Result<Table, crate::Error> {
        let narrow_max = u16::MAX_REMOTENESS as u32;
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let fits = parts.iter().all(|cells| {
            cells.par_chunks(BLOCK).all(|c| {
                c.iter().all(|&x| {
                    x >> 31 == 0 || x == u32::INVALID || x & ((1 << 29) - 1) <= narrow_max
                })
            })
        });
        if fits {
            let mut out = Cells::<u16>::new(len, None, u64::MAX)?;
            convert(&mut out, parts, |o, c| {
                for (o, &x) in o.iter_mut().zip(c) {
                    // An open cell's counter becomes zero; the rest
                    // (resolved, or no position) narrows as it is.
                    *o = if x >> 31 == 0 {
                        u16::counter(0)
                    } else {
                        u16::narrow(x)
                    };
                }
            });
            Ok(Table::narrow(out))
        } else {
            let mut out = Cells::<u32>::new(len, None, u64::MAX)?;
            convert(&mut out, parts, |o, c| o.copy_from_slice(c));
            Ok(Table::wide(out))
        }
    }

    /// The table of `parts` one after the other, each laid out as the
    /// engine's 2-byte cells (top bit clear: open, a draw once solving
    /// ends; top bit set: two bits of outcome — 0 lose, 1 tie, 2 win —
    /// and 13 of remoteness; all ones: no position): copied in one pass
    /// (open cells kept as draws), without a conversion.
    ///
    /// ```
    /// use solver_retro::{Table, Value};
    /// let win3 = (1u16 << 15) | (2 << 13) | 3;
    /// let t = Table::from_narrow_parts(&[&[win3], &[], &[5, u16::MAX]])?;
    /// assert_eq!(t.bytes_per_position(), 2);
    /// assert_eq!(t.len(), 3);
    /// assert_eq!(t.value(0), Some(Value::win(3)));
    /// assert_eq!(t.value(1), Some(Value::DRAW));
    /// assert_eq!(t.value(2), None);
    /// # Ok::<(), solver_retro::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] when the system refuses the memory.
    pub fn from_narrow_parts(parts: &[&[u16]]) -> Result<Table, crate::Error> {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let mut out = Cells::<u16>::new(len, None, u64::MAX)?;
        convert(&mut out, parts, |o, c| {
            for (o, &x) in o.iter_mut().zip(c) {
                // An open cell's counter becomes zero (as the engine
                // leaves its own tables).
                *o = x & (((x >> 15) & 1).wrapping_neg());
            }
        });
        Ok(Table::narrow(out))
    }

    /// The table of `parts` one after the other, each laid out as the
    /// engine's 1-byte cells (see `impl Cell for u8`): copied in one pass
    /// (open cells kept as draws), without a conversion.
    ///
    /// ```
    /// use solver_retro::{Cell, Outcome, Table, Value};
    /// let win3 = <u8 as Cell>::resolved(Outcome::Win, 3);
    /// let t = Table::from_byte_parts(&[&[win3], &[], &[5, u8::MAX]])?;
    /// assert_eq!(t.bytes_per_position(), 1);
    /// assert_eq!(t.value(0), Some(Value::win(3)));
    /// assert_eq!(t.value(1), Some(Value::DRAW));
    /// assert_eq!(t.value(2), None);
    /// # Ok::<(), solver_retro::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] when the system refuses the memory.
    pub fn from_byte_parts(parts: &[&[u8]]) -> Result<Table, crate::Error> {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let mut out = Cells::<u8>::new(len, None, u64::MAX)?;
        convert(&mut out, parts, |o, c| {
            for (o, &x) in o.iter_mut().zip(c) {
                // An open cell's counter becomes zero.
                *o = x & u8::from(!x.is_open()).wrapping_neg();
            }
        });
        Ok(Table::byte(out))
    }
}

/// Cells converted a block at a time.
const BLOCK: usize = 1 << 16;

/// Each part into its place in `out`, one after the other, block by block
/// on all threads.
fn convert<C: Send, W: Sync>(
    out: &mut [C],
    parts: &[&[W]],
    block: impl Fn(&mut [C], &[W]) + Sync + Send,
) {
    let mut rest = out;
    for cells in parts {
        let (here, after) = rest.split_at_mut(cells.len());
        rest = after;
        here.par_chunks_mut(BLOCK)
            .zip(cells.par_chunks(BLOCK))
            .for_each(|(o, c)| block(o, c));
    }
}
