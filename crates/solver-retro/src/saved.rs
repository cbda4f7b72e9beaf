//! A [`Table`] saved and loaded: a header (magic, cell width, cell
//! count), the cells little-endian, and a checksum of all of it, so that a
//! damaged file is an error, never a table that answers wrongly.
//!
//! Design note: the checksum finds damage (a flipped bit, a lost or
//! repeated stretch), not forgery; a database that must resist a hostile
//! writer is not what this format is for. It is a 64-bit multiply–rotate
//! over the bytes eight at a time, computed as they stream, so saving and
//! loading stay one pass at memory speed. Each step is a bijection of the
//! running state for a given word, and of the word for a given state, so a
//! change confined to one word always changes the sum.

use crate::cell::{Cell, Cells, Inner, Table};

/// The magic that starts a saved [`Table`] of this format (version 2:
/// with a checksum).
const MAGIC: &[u8; 8] = b"GSTABLE2";

/// The magic of the first format, which had no checksum.
const MAGIC_V1: &[u8; 8] = b"GSTABLE1";

/// Cells a chunk: the writer and the reader feed the checksum the same
/// chunks.
const CHUNK: usize = 1 << 16;

/// The running checksum of a saved table.
struct Checksum(u64);

impl Checksum {
    /// The sum before any cell: seeded with the header's fields.
    fn new(width: u64, len: u64) -> Checksum {
        let mut sum = Checksum(0x243F_6A88_85A3_08D3);
        sum.mix(width);
        sum.mix(len);
        sum
    }

    fn mix(&mut self, word: u64) {
        self.0 = (self.0 ^ word)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(31);
    }

    /// Adds `bytes`, eight at a time; a short tail is padded with zeros
    /// and marked with its length.
    fn add(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for w in &mut words {
            self.mix(u64::from_le_bytes(w.try_into().expect("8 bytes")));
        }
        let rest = words.remainder();
        if !rest.is_empty() {
            let mut b = [0u8; 8];
            b[..rest.len()].copy_from_slice(rest);
            self.mix(u64::from_le_bytes(b) ^ ((rest.len() as u64) << 56));
        }
    }
}

impl Table {
    /// Writes the table: a magic, the cell width and count, the cells
    /// (little-endian), then a checksum of them ([`Table::read_from`]
    /// refuses a file whose checksum does not match).
    ///
    /// ```
    /// use solver_retro::Table;
    ///
    /// let mut table = Table::new(1000, false)?;
    /// table.set(7, Some(game_core::Value::win(3)))?;
    /// let mut file = Vec::new();
    /// table.write_to(&mut file)?;
    /// let back = Table::read_from(&mut file.as_slice(), 1000)?;
    /// assert_eq!(back.value(7), Some(game_core::Value::win(3)));
    /// // A flipped bit anywhere is an error, not a wrong table.
    /// file[24 + 7 * 2] ^= 1;
    /// assert!(Table::read_from(&mut file.as_slice(), 1000).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// Whatever the writer fails with.
    pub fn write_to(&self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        let (width, len) = (self.bytes_per_position(), self.len() as u64);
        let mut sum = Checksum::new(width, len);
        w.write_all(MAGIC)?;
        w.write_all(&width.to_le_bytes())?;
        w.write_all(&len.to_le_bytes())?;
        match &self.0 {
            Inner::Narrow(c) => write_cells(w, c, &mut sum, |x| x.to_le_bytes())?,
            Inner::Wide(c) => write_cells(w, c, &mut sum, |x| x.to_le_bytes())?,
        }
        w.write_all(&sum.0.to_le_bytes())
    }

    /// Reads a table written by [`Table::write_to`], refusing another
    /// format (the first, which had no checksum, included), a cell width
    /// other than 2 or 4, a count over `max_cells`, a short file and a
    /// checksum that does not match.
    ///
    /// # Errors
    /// [`std::io::ErrorKind::InvalidData`] for a bad header or checksum,
    /// or whatever the reader fails with
    /// ([`std::io::ErrorKind::UnexpectedEof`] for a short file).
    pub fn read_from(r: &mut impl std::io::Read, max_cells: u64) -> std::io::Result<Table> {
        let bad = |m: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, m.to_string());
        let mut head = [0u8; 24];
        r.read_exact(&mut head)?;
        if &head[..8] == MAGIC_V1 {
            return Err(bad(
                "a table saved in the first format, which has no checksum: save it again",
            ));
        }
        if &head[..8] != MAGIC {
            return Err(bad("not a saved gamesolve table"));
        }
        let width = u64::from_le_bytes(head[8..16].try_into().expect("8 bytes"));
        let len = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
        if len > max_cells {
            return Err(bad("the table has more cells than allowed"));
        }
        let n = usize::try_from(len).map_err(|_| bad("the table is too large"))?;
        let mut sum = Checksum::new(width, len);
        let table = match width {
            2 => Table(Inner::Narrow(read_cells(r, n, &mut sum, |b| {
                u16::from_le_bytes([b[0], b[1]])
            })?)),
            4 => Table(Inner::Wide(read_cells(r, n, &mut sum, |b| {
                u32::from_le_bytes([b[0], b[1], b[2], b[3]])
            })?)),
            _ => return Err(bad("cells of a width other than 2 or 4 bytes")),
        };
        let mut stored = [0u8; 8];
        r.read_exact(&mut stored)?;
        if u64::from_le_bytes(stored) != sum.0 {
            return Err(bad(
                "the table's checksum does not match its cells: the file is damaged",
            ));
        }
        Ok(table)
    }
}

/// Writes `cells` little-endian (`to_le` encodes one), a chunk at a time,
/// adding them to `sum`.
fn write_cells<C: Cell, const B: usize>(
    w: &mut impl std::io::Write,
    cells: &[C],
    sum: &mut Checksum,
    to_le: impl Fn(C) -> [u8; B],
) -> std::io::Result<()> {
    let mut bytes = Vec::with_capacity(CHUNK * B);
    for chunk in cells.chunks(CHUNK) {
        bytes.clear();
        bytes.extend(chunk.iter().flat_map(|&x| to_le(x)));
        sum.add(&bytes);
        w.write_all(&bytes)?;
    }
    Ok(())
}

/// Reads `n` cells written by [`write_cells`], adding them to `sum`;
/// `from_le` decodes one cell's bytes.
fn read_cells<C: Cell>(
    r: &mut impl std::io::Read,
    n: usize,
    sum: &mut Checksum,
    from_le: impl Fn(&[u8]) -> C,
) -> std::io::Result<Cells<C>> {
    let width = C::BYTES as usize;
    let mut cells = Cells::<C>::zeroed(n)?;
    let mut buf = vec![0u8; CHUNK * width];
    for chunk in cells.chunks_mut(CHUNK) {
        let bytes = &mut buf[..chunk.len() * width];
        r.read_exact(bytes)?;
        sum.add(bytes);
        for (c, b) in chunk.iter_mut().zip(bytes.chunks_exact(width)) {
            *c = from_le(b);
        }
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use game_core::Value;

    use super::*;

    /// A table of both widths with every kind of cell, past one chunk.
    fn tables() -> Vec<Table> {
        [false, true]
            .into_iter()
            .map(|wide| {
                let n = CHUNK as u64 + 37;
                let mut t = Table::new(n, wide).unwrap();
                for i in 0..n {
                    let v = match i % 5 {
                        0 => None,
                        1 => Some(Value::DRAW),
                        2 => Some(Value::win((i % 91) as u32)),
                        3 => Some(Value::lose((i % 83) as u32)),
                        _ => Some(Value::tie((i % 7) as u32)),
                    };
                    t.set(i, v).unwrap();
                }
                t
            })
            .collect()
    }

    fn saved(t: &Table) -> Vec<u8> {
        let mut file = Vec::new();
        t.write_to(&mut file).unwrap();
        file
    }

    #[test]
    fn a_saved_table_loads_as_it_was() {
        for t in tables() {
            let file = saved(&t);
            assert_eq!(file.len() as u64, 24 + t.bytes() + 8);
            let back = Table::read_from(&mut file.as_slice(), t.len() as u64).unwrap();
            assert_eq!(back.bytes_per_position(), t.bytes_per_position());
            assert!((0..t.len() as u64).all(|i| back.value(i) == t.value(i)));
        }
    }

    /// Every flipped byte (of a sample spread over the file, the header
    /// and trailer whole) and every cut is an error.
    #[test]
    fn damaged_or_short_files_are_refused() {
        for t in tables() {
            let file = saved(&t);
            let n = file.len();
            let places = (0..40).chain((40..n - 40).step_by(997)).chain(n - 40..n);
            for at in places {
                let mut bad = file.clone();
                bad[at] ^= 0x10;
                assert!(
                    Table::read_from(&mut bad.as_slice(), t.len() as u64).is_err(),
                    "byte {at} of {n}"
                );
            }
            for cut in [0, 8, 23, 24, n / 2, n - 8, n - 1] {
                assert!(Table::read_from(&mut &file[..cut], t.len() as u64).is_err());
            }
            let err = Table::read_from(&mut file.as_slice(), t.len() as u64 - 1).unwrap_err();
            assert!(err.to_string().contains("more cells than allowed"));
        }
        // A count whose bytes pass the address space: refused, not wrapped
        // into a small table (a 32-byte file claiming 2⁶² cells loaded as
        // an empty table in a release build).
        assert!(Table::new(1 << 62, true).is_err());
        let mut huge = saved(&tables()[0]);
        huge[16..24].copy_from_slice(&(1u64 << 62).to_le_bytes());
        assert!(Table::read_from(&mut huge.as_slice(), u64::MAX).is_err());
        let mut old = saved(&tables()[0]);
        old[..8].copy_from_slice(MAGIC_V1);
        let err = Table::read_from(&mut old.as_slice(), u64::MAX).unwrap_err();
        assert!(err.to_string().contains("first format"), "{err}");
    }
}
