//! Table cells: a counter of unresolved children while a position is open,
//! its value once resolved. Two widths: 2 bytes (counters below 2¹⁵,
//! remoteness below 2¹³) and 4 bytes.

use game_core::{Outcome, Value};
use rayon::prelude::*;

/// A table cell: 2 bytes ([`u16`]) or 4 ([`u32`]), the only two
/// implementations. While a position is open the cell counts its distinct
/// children not yet resolved (top bit clear); once resolved it holds the
/// top bit, two bits of outcome (lose, tie, win) and the remoteness (13 or
/// 29 bits); all ones stand for an index that is no position. Public so
/// that other engines over the same tables (`solver-cluster`) share the
/// one encoding; [`Table`] is what a caller normally reads.
///
/// ```
/// use solver_retro::{Cell, Outcome, Value};
/// let c = <u16 as Cell>::resolved(Outcome::Win, 7);
/// assert_eq!(c.value(), Some(Value::win(7)));
/// assert_eq!(<u16 as Cell>::narrow(c.widen()), c);
/// assert_eq!(<u16 as Cell>::counter(3).dec_open().open(), Some(2));
/// ```
pub trait Cell: Copy + Eq + Send + Sync + bytemuck::Pod + 'static {
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
    /// An open cell counting `n` children (at most [`Cell::UNCOUNTED`]).
    fn counter(n: u64) -> Self;
    /// `Some(counter)` while unresolved.
    fn open(self) -> Option<u64>;
    /// Whether the cell is open (unresolved).
    fn is_open(self) -> bool;
    /// A resolved cell (`remoteness` at most [`Cell::MAX_REMOTENESS`];
    /// `outcome` not a draw, which is never resolved).
    fn resolved(outcome: Outcome, remoteness: u64) -> Self;
    /// The value: a draw for an open cell, `None` for an invalid one.
    fn value(self) -> Option<Value>;
    /// Branch-free: a counter of `k` children, or [`Cell::INVALID`] for 0
    /// (`k` at most [`Cell::MAX_COUNT`]).
    fn count_or_invalid(k: u32) -> Self;
    /// Branch-free: one less for an open cell with a counter above 0,
    /// unchanged otherwise.
    fn dec_open(self) -> Self;
    /// Branch-free: whether the cell is a loss or stands for no position —
    /// a cell no update may reach while wins and losses spread: a lost
    /// position's children were all counted (a terminal one has none), and
    /// an index that is no position is nobody's parent.
    fn refuses_updates(self) -> bool;
    /// Whether this cell, not open, refuses an update in the ties phase
    /// (`ties`) or while wins and losses spread: then a loss or no
    /// position ([`Cell::refuses_updates`]); in the ties phase only no
    /// position (a position resolved otherwise takes the update and stays
    /// as it is). The rule every engine over these cells applies.
    #[inline]
    fn refuses_update_in(self, ties: bool) -> bool {
        if ties {
            self == Self::INVALID
        } else {
            self.refuses_updates()
        }
    }
    /// [`Cell::dec_open`] on every cell of `cells` (the parents of a won
    /// child), branch-free so that the loop vectorises: `Ok` with whether
    /// a counter reached zero, or `Err(k)` when the `k`-th cell
    /// [refuses the update](Cell::refuses_updates) (the run is then left
    /// half done, for an error).
    #[inline]
    fn dec_open_run(cells: &mut [Self]) -> Result<bool, usize> {
        let (mut zero, mut bad) = (false, false);
        for c in cells.iter_mut() {
            bad |= c.refuses_updates();
            *c = c.dec_open();
            zero |= *c == Self::counter(0);
        }
        if bad {
            // The first refusing cell answers for the broken promise
            // (`dec_open` leaves it as it was).
            if let Some(k) = cells.iter().position(|c| c.refuses_updates()) {
                return Err(k);
            }
        }
        Ok(zero)
    }
    /// The same cell in the 4-byte layout.
    fn widen(self) -> u32;
    /// A 4-byte cell in this layout (its counter or remoteness must fit).
    fn narrow(wide: u32) -> Self;
}

macro_rules! cell {
    ($t:ty, $s:ty, $bits:expr) => {
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
                self.is_open().then_some(self as u64)
            }
            #[inline]
            fn is_open(self) -> bool {
                self >> ($bits - 1) == 0
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
            fn count_or_invalid(k: u32) -> Self {
                (k as $t) | <$t>::from(k == 0).wrapping_neg()
            }
            #[inline]
            fn dec_open(self) -> Self {
                // Resolved and invalid cells have the top bit set, so they
                // are negative as signed numbers.
                self - <$t>::from((self as $s) > 0)
            }
            #[inline(always)]
            fn value(self) -> Option<Value> {
                if self.is_open() {
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
            #[inline]
            fn refuses_updates(self) -> bool {
                // As signed numbers losses are the lowest (top bits 100),
                // below every tie (101) and win (110); no position is -1.
                let s = self as $s;
                (s < ((0b101 as $t) << ($bits - 3)) as $s) | (s == -1)
            }
            #[inline]
            fn widen(self) -> u32 {
                if self == Self::INVALID {
                    u32::MAX
                } else if self.is_open() {
                    self as u32
                } else {
                    let code = ((self >> ($bits - 3)) & 3) as u32;
                    let r = (self & ((1 << ($bits - 3)) - 1)) as u32;
                    (1 << 31) | (code << 29) | r
                }
            }
            #[inline]
            fn narrow(c: u32) -> Self {
                if c == u32::MAX {
                    Self::INVALID
                } else if c >> 31 == 0 {
                    c as $t
                } else {
                    let code = ((c >> 29) & 3) as $t;
                    (1 << ($bits - 1)) | (code << ($bits - 3)) | (c & ((1 << 29) - 1)) as $t
                }
            }
        }
    };
}

cell!(u16, i16, 16);
cell!(u32, i32, 32);

/// The cells of a [`Table`]: a flat array in an anonymous memory map, advised to use huge
/// pages where the system offers them (Linux): the retrograde queue reads
/// parents scattered over the whole table, and with 4 KiB pages nearly
/// every such read also misses the TLB. Falls back to ordinary pages
/// silently.
///
/// A huge page covers only a [`HUGE`]-aligned stretch of the map, and a
/// fresh map is merely page-aligned: a table of a few huge pages would
/// keep a third of its cells (and most of its page faults) in small
/// pages. So a map of [`HUGE`] bytes or more is made [`HUGE`] bytes
/// longer and the cells start at its first aligned byte (Fingers F = 64,
/// 8.6 MB of cells: some 600 page faults a solve before, a handful now).
pub(crate) struct Cells<C> {
    map: memmap2::MmapMut,
    /// Where the cells start in `map` (see [`aligned_start`]).
    start: usize,
    len: usize,
    _cell: std::marker::PhantomData<C>,
}

/// The size and alignment of a huge page (x86-64 and most Linux systems).
const HUGE: usize = 2 << 20;

/// The extra bytes a map of `bytes` takes so that its cells can start on a
/// huge page: none for a map too small to hold one.
fn huge_pad(bytes: usize) -> usize {
    if bytes >= HUGE {
        HUGE
    } else {
        0
    }
}

/// The first [`HUGE`]-aligned offset in `map` from which `bytes` bytes
/// still fit, else 0 (a map made without room for the alignment).
fn aligned_start(map: &[u8], bytes: usize) -> usize {
    let start = (map.as_ptr() as usize).wrapping_neg() % HUGE;
    if bytes >= HUGE && start + bytes <= map.len() {
        start
    } else {
        0
    }
}

impl<C: Cell> Cells<C> {
    /// `len` cells of zero bits (a fresh anonymous map reads as zeros).
    pub(crate) fn zeroed(len: usize) -> std::io::Result<Self> {
        Self::mapped(len, 0)
    }

    /// `len` cells of zero bits in a map of at least `room` bytes.
    fn mapped(len: usize, room: usize) -> std::io::Result<Self> {
        // A count whose bytes pass the address space is no table (and
        // must not wrap into a small one).
        let cells = len.checked_mul(std::mem::size_of::<C>()).ok_or_else(|| {
            std::io::Error::new(
                std::io::ErrorKind::OutOfMemory,
                "a table of more bytes than the address space holds",
            )
        })?;
        let bytes = room.max(cells).max(1);
        let map = memmap2::MmapMut::map_anon(bytes.saturating_add(huge_pad(bytes)))?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(Cells {
            start: aligned_start(&map, cells),
            map,
            len,
            _cell: std::marker::PhantomData,
        })
    }

    /// `len` cells of zero bits in a map of `room` bytes (at least the
    /// cells'): only the pages written are ever faulted in, so the map can
    /// later be [reused](Cells::reuse) for a larger tier.
    pub(crate) fn with_room(len: usize, room: usize) -> Result<Self, crate::Error> {
        Self::mapped(len, room).map_err(|_| {
            let bytes = room.max(len.saturating_mul(std::mem::size_of::<C>())) as u64;
            crate::error::too_large("the table", bytes, bytes, "")
        })
    }

    /// `len` cells, all `value` (`None`: zero bits, for a caller that
    /// writes every cell itself); a refused mapping is
    /// [`Error::TooLarge`](crate::Error::TooLarge).
    pub(crate) fn new(len: usize, value: Option<C>, limit: u64) -> Result<Self, crate::Error> {
        let mut cells = Self::zeroed(len).map_err(|_| {
            crate::error::too_large(
                "the table",
                (len as u64).saturating_mul(std::mem::size_of::<C>() as u64),
                limit,
                "",
            )
        })?;
        if let Some(v) = value {
            cells.fill(v);
        }
        Ok(cells)
    }
}

impl<C: Cell> Cells<C> {
    /// `len` cells in the map of a table no longer needed (at least
    /// `len` cells' bytes, else `None`): its pages are already faulted in
    /// and cleared, so a tier solved in them skips the kernel's clearing.
    /// The old cells stay until the caller writes every cell.
    pub(crate) fn reuse(map: memmap2::MmapMut, len: usize) -> Option<Self> {
        let bytes = len.checked_mul(std::mem::size_of::<C>())?;
        (map.len() >= bytes).then(|| Cells {
            start: aligned_start(&map, bytes),
            map,
            len,
            _cell: std::marker::PhantomData,
        })
    }

    /// The map, for [`Cells::reuse`].
    pub(crate) fn into_map(self) -> memmap2::MmapMut {
        self.map
    }

    /// The bytes of the cells (the map may be longer: a reused one).
    fn byte_len(&self) -> usize {
        self.len * std::mem::size_of::<C>()
    }
}

impl<C: Cell> std::ops::Deref for Cells<C> {
    type Target = [C];
    fn deref(&self) -> &[C] {
        bytemuck::cast_slice(&self.map[self.start..self.start + self.byte_len()])
    }
}

impl<C: Cell> std::ops::DerefMut for Cells<C> {
    fn deref_mut(&mut self) -> &mut [C] {
        let (a, n) = (self.start, self.byte_len());
        bytemuck::cast_slice_mut(&mut self.map[a..a + n])
    }
}

/// A solved table that owns its cells: one cell an index, 2 bytes (or 4
/// when remoteness or child counts outgrow 16 bits). It needs no game to
/// be kept, shared across threads ([`Send`] + [`Sync`]) and saved by a
/// [`TierStore`](crate::TierStore) (a database, which checks what it
/// reads); a solution reads positions through it with the game's index.
pub struct Table(pub(crate) Inner);

/// The cells of a [`Table`] of either width.
pub(crate) enum Inner {
    /// 2-byte cells.
    Narrow(Cells<u16>),
    /// 4-byte cells.
    Wide(Cells<u32>),
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("len", &self.len())
            .field("bytes_per_position", &self.bytes_per_position())
            .finish()
    }
}

impl Table {
    pub(crate) fn narrow(cells: Cells<u16>) -> Self {
        Table(Inner::Narrow(cells))
    }

    pub(crate) fn wide(cells: Cells<u32>) -> Self {
        Table(Inner::Wide(cells))
    }

    /// The memory map of the cells, to solve another tier in.
    pub(crate) fn into_map(self) -> memmap2::MmapMut {
        match self.0 {
            Inner::Narrow(c) => c.into_map(),
            Inner::Wide(c) => c.into_map(),
        }
    }

    /// The value at `index`: `None` past the end or for an index that
    /// stands for no position (a table solved without listing every
    /// position may show such an index as a draw; the solution types check
    /// with the game).
    #[inline]
    #[must_use]
    pub fn value(&self, index: u64) -> Option<Value> {
        let i = usize::try_from(index).ok()?;
        match &self.0 {
            Inner::Narrow(v) => v.get(i)?.value(),
            Inner::Wide(v) => v.get(i)?.value(),
        }
    }

    /// A table of `len` cells, every one "no position", of 2 bytes (or 4
    /// with `wide`), to be filled with [`Table::set`] — for example from a
    /// database.
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] when the system refuses the memory.
    pub fn new(len: u64, wide: bool) -> Result<Table, crate::Error> {
        let n = usize::try_from(len).map_err(|_| {
            crate::error::too_large("a table larger than the address space", len, u64::MAX, "")
        })?;
        Ok(if wide {
            Table::wide(Cells::new(n, Some(u32::INVALID), u64::MAX)?)
        } else {
            Table::narrow(Cells::new(n, Some(u16::INVALID), u64::MAX)?)
        })
    }

    /// Sets the cell at `index` to `value` (`None`: no position).
    ///
    /// # Errors
    /// [`crate::Error::TooDeep`] when the remoteness does not fit the cell
    /// (make the table wide); [`crate::Error::BadIndex`] past the end.
    pub fn set(&mut self, index: u64, value: Option<Value>) -> Result<(), crate::Error> {
        fn encode<C: Cell>(value: Option<Value>) -> Result<C, crate::Error> {
            let Some(v) = value else {
                return Ok(C::INVALID);
            };
            match v.remoteness() {
                None => Ok(C::counter(0)),
                Some(r) if u64::from(r) > C::MAX_REMOTENESS => Err(crate::Error::TooDeep {
                    max: C::MAX_REMOTENESS,
                }),
                Some(r) => Ok(C::resolved(v.outcome(), u64::from(r))),
            }
        }
        let size = self.len() as u64;
        let bad = crate::Error::BadIndex { index, size };
        let i = usize::try_from(index).map_err(|_| bad.clone())?;
        match &mut self.0 {
            Inner::Narrow(c) => *c.get_mut(i).ok_or(bad)? = encode(value)?,
            Inner::Wide(c) => *c.get_mut(i).ok_or(bad)? = encode(value)?,
        }
        Ok(())
    }

    /// The number of cells (indices).
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.0 {
            Inner::Narrow(v) => v.len(),
            Inner::Wide(v) => v.len(),
        }
    }

    /// Whether the table has no cell.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of cells that hold a value (not marked "no position").
    #[must_use]
    pub fn positions(&self) -> u64 {
        (0..self.len() as u64)
            .into_par_iter()
            .filter(|&i| self.value(i).is_some())
            .count() as u64
    }

    /// Bytes a cell takes: 2 or 4.
    #[must_use]
    pub fn bytes_per_position(&self) -> u64 {
        match &self.0 {
            Inner::Narrow(_) => 2,
            Inner::Wide(_) => 4,
        }
    }

    /// Bytes the cells take.
    #[must_use]
    pub fn bytes(&self) -> u64 {
        self.len() as u64 * self.bytes_per_position()
    }
}

/// The offset of index `i` in a block of `len` indices from `first`, if it
/// lies there.
pub(crate) fn offset_in(i: u64, first: u64, len: usize) -> Option<usize> {
    i.checked_sub(first)
        .filter(|&j| j < len as u64)
        .map(|j| j as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of a huge page or more starts on a huge-page boundary, in
    /// a fresh map and in a reused one, and keeps its cells; a smaller
    /// one starts where its map does.
    #[test]
    fn big_tables_start_on_a_huge_page() {
        let aligned = |c: &Cells<u16>| (c.as_ptr() as usize).is_multiple_of(HUGE);
        for len in [HUGE / 2, HUGE / 2 + 3, 3 * HUGE] {
            let mut cells = Cells::<u16>::zeroed(len).unwrap();
            assert_eq!(cells.len(), len);
            assert!(aligned(&cells), "{len} cells");
            cells[len - 1] = 7;
            assert!(cells[..len - 1].iter().all(|&c| c == 0));
            let again = Cells::<u16>::reuse(cells.into_map(), len).unwrap();
            assert!(aligned(&again));
            assert_eq!(again[len - 1], 7);
        }
        let small = Cells::<u32>::with_room(10, 1 << 20).unwrap();
        assert_eq!(small.len(), 10);
        assert_eq!(small.as_ptr().cast::<u8>(), small.map.as_ptr());
    }

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
    fn dec_open_touches_only_positive_counters() {
        assert_eq!(u16::counter(5).dec_open(), u16::counter(4));
        assert_eq!(u16::counter(1).dec_open(), u16::counter(0));
        assert_eq!(u16::counter(0).dec_open(), u16::counter(0));
        assert_eq!(u16::INVALID.dec_open(), u16::INVALID);
        let w = u16::resolved(Outcome::Win, 3);
        assert_eq!(w.dec_open(), w);
        let l = u16::resolved(Outcome::Lose, 0);
        assert_eq!(l.dec_open(), l);
        assert_eq!(u32::counter(7).dec_open(), u32::counter(6));
        assert_eq!(u32::INVALID.dec_open(), u32::INVALID);
        assert_eq!(u16::count_or_invalid(0), u16::INVALID);
        assert_eq!(u16::count_or_invalid(9), u16::counter(9));
        assert_eq!(u32::count_or_invalid(0), u32::INVALID);
    }

    #[test]
    fn cells_round_trip() {
        round_trip::<u16>();
        round_trip::<u32>();
    }
}
