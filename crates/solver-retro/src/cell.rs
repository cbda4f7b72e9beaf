//! Table cells: a counter of unresolved children while a position is open,
//! its value once resolved. Three widths: 1 byte (counters up to 16,
//! remoteness up to 78), 2 bytes (counters below 2¹⁵, remoteness below
//! 2¹³) and 4 bytes.

use game_core::{Outcome, Value};
use rayon::prelude::*;

/// A table cell: 1 byte ([`u8`]), 2 ([`u16`]) or 4 ([`u32`]), the only
/// three implementations. In 2 and 4 bytes, while a position is open the
/// cell counts its distinct children not yet resolved (top bit clear);
/// once resolved it holds the top bit, two bits of outcome (lose, tie,
/// win) and the remoteness (13 or 29 bits); all ones stand for an index
/// that is no position. One byte holds 256 codes instead (the layout is
/// on `u8`'s implementation): counters `0..=17`, then ties, wins and
/// losses of remoteness `0..=78` (79 codes each), and 255 for no
/// position. Public so
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
                resolved(((self >> ($bits - 3)) & 3) as u8, r)
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

/// The value of a resolved cell of any width from its outcome's code
/// (0 lost, 1 tied, 2 won; 3 is no position: `None`) and remoteness `r`.
#[inline(always)]
fn resolved(code: u8, r: u32) -> Option<Value> {
    match code {
        0 => Some(Value::lose(r)),
        1 => Some(Value::tie(r)),
        2 => Some(Value::win(r)),
        _ => None,
    }
}

/// The first code of a one-byte tie (remoteness 0): codes `0..BYTE_TIE`
/// are open counters, `0..=16` counted ([`Cell::MAX_COUNT`]) and 17
/// [`Cell::UNCOUNTED`] (the layout: `impl Cell for u8`).
const BYTE_TIE: u8 = 18;
/// The remoteness values a one-byte outcome holds: `0..=78`.
const BYTE_SPAN: u8 = 79;
/// The first code of a one-byte win (remoteness 0).
const BYTE_WIN: u8 = BYTE_TIE + BYTE_SPAN;
/// The first code of a one-byte loss (remoteness 0).
const BYTE_LOSE: u8 = BYTE_WIN + BYTE_SPAN;
// Every code is used: the last loss is 254, "no position" 255.
const _: () = assert!(BYTE_LOSE as u16 + BYTE_SPAN as u16 == 255);

/// The outcome's two-bit code in the wide layout (0 lose, 1 tie, 2 win)
/// of a resolved one-byte cell, and its remoteness: one table lookup.
static BYTE_RESOLVED: [(u8, u8); 256] = {
    let mut t = [(3u8, 0u8); 256];
    let mut c = BYTE_TIE as usize;
    while c < 255 {
        let k = (c - BYTE_TIE as usize) as u8;
        t[c] = ([1, 2, 0][(k / BYTE_SPAN) as usize], k % BYTE_SPAN);
        c += 1;
    }
    t
};

/// One byte, 256 codes in all, laid out so that a Connect Four tier
/// (remoteness up to 42 on 7×6, 64 on 8×8; counters of 1) and a loopy
/// game of up to 16 distinct children a position fit (remoteness is what
/// usually runs out first, so it takes the room: 79 values an outcome
/// against 64 with 62 counters):
///
/// | codes | meaning |
/// |---|---|
/// | `0..=16` | open, that many children unresolved |
/// | `17` | open, children not counted yet ([`Cell::UNCOUNTED`]) |
/// | `18..=96` | a tie in `0..=78` plies |
/// | `97..=175` | a win in `0..=78` |
/// | `176..=254` | a loss in `0..=78` |
/// | `255` | no position ([`Cell::INVALID`]) |
///
/// Losses and "no position" are the top codes, so that
/// [`Cell::refuses_updates`] is one comparison; open counters are the
/// bottom ones, so that [`Cell::is_open`] and [`Cell::dec_open`] are one
/// each; a value is one lookup in a 256-entry table.
///
/// ```
/// use solver_retro::{Cell, Outcome, Value};
/// assert_eq!(<u8 as Cell>::resolved(Outcome::Lose, 78), 254);
/// assert_eq!(<u8 as Cell>::resolved(Outcome::Tie, 0).value(), Some(Value::tie(0)));
/// assert_eq!(<u8 as Cell>::counter(16).dec_open(), 15);
/// ```
impl Cell for u8 {
    const BYTES: u64 = 1;
    const MAX_COUNT: u64 = BYTE_TIE as u64 - 2;
    const UNCOUNTED: u64 = BYTE_TIE as u64 - 1;
    const MAX_REMOTENESS: u64 = BYTE_SPAN as u64 - 1;
    const INVALID: Self = u8::MAX;
    #[inline]
    fn counter(n: u64) -> Self {
        n as u8
    }
    #[inline]
    fn open(self) -> Option<u64> {
        self.is_open().then_some(u64::from(self))
    }
    #[inline]
    fn is_open(self) -> bool {
        self < BYTE_TIE
    }
    #[inline]
    fn resolved(outcome: Outcome, remoteness: u64) -> Self {
        let base = match outcome {
            Outcome::Lose => BYTE_LOSE,
            Outcome::Tie => BYTE_TIE,
            Outcome::Win => BYTE_WIN,
            Outcome::Draw => unreachable!("draws are never resolved"),
        };
        // A remoteness past the range gives some other code, never a
        // panic: every caller checks it against `MAX_REMOTENESS` first.
        base.wrapping_add(remoteness as u8)
    }
    #[inline]
    fn count_or_invalid(k: u32) -> Self {
        (k as u8) | u8::from(k == 0).wrapping_neg()
    }
    #[inline]
    fn dec_open(self) -> Self {
        // Counters 1..=UNCOUNTED go down by one; 0 wraps to 255, which no
        // counter is below.
        self - u8::from(self.wrapping_sub(1) < BYTE_TIE - 1)
    }
    #[inline(always)]
    fn value(self) -> Option<Value> {
        if self.is_open() {
            return Some(Value::DRAW);
        }
        let (code, r) = BYTE_RESOLVED[usize::from(self)];
        resolved(code, u32::from(r))
    }
    #[inline]
    fn refuses_updates(self) -> bool {
        // Losses and "no position" are the top codes.
        self >= BYTE_LOSE
    }
    #[inline]
    fn widen(self) -> u32 {
        if self.is_open() {
            u32::from(self)
        } else if self == Self::INVALID {
            u32::MAX
        } else {
            let (code, r) = BYTE_RESOLVED[usize::from(self)];
            (1 << 31) | (u32::from(code) << 29) | u32::from(r)
        }
    }
    #[inline]
    fn narrow(c: u32) -> Self {
        if c >> 31 == 0 {
            c as u8
        } else {
            let r = u64::from(c & ((1 << 29) - 1));
            match (c >> 29) & 3 {
                0 => Self::resolved(Outcome::Lose, r),
                1 => Self::resolved(Outcome::Tie, r),
                2 => Self::resolved(Outcome::Win, r),
                _ => Self::INVALID,
            }
        }
    }
}

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

/// A solved table that owns its cells: one cell an index, 1 byte where
/// the remoteness and child counts fit one ([`u8`]'s [`Cell`]), else 2,
/// else 4. It needs no game to
/// be kept, shared across threads ([`Send`] + [`Sync`]) and saved by a
/// [`TierStore`](crate::TierStore) (a database, which checks what it
/// reads); a solution reads positions through it with the game's index.
pub struct Table(pub(crate) Inner);

/// The cells of a [`Table`] of either width.
pub(crate) enum Inner {
    /// 1-byte cells.
    Byte(Cells<u8>),
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
    pub(crate) fn byte(cells: Cells<u8>) -> Self {
        Table(Inner::Byte(cells))
    }

    pub(crate) fn narrow(cells: Cells<u16>) -> Self {
        Table(Inner::Narrow(cells))
    }

    pub(crate) fn wide(cells: Cells<u32>) -> Self {
        Table(Inner::Wide(cells))
    }

    /// The memory map of the cells, to solve another tier in.
    pub(crate) fn into_map(self) -> memmap2::MmapMut {
        match self.0 {
            Inner::Byte(c) => c.into_map(),
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
            Inner::Byte(v) => v.get(i)?.value(),
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
        Table::with_bytes(len, if wide { 4 } else { 2 })
    }

    /// A table of `len` cells, every one "no position", of `bytes` bytes
    /// a cell (1, 2 or 4; any other number: the next of those up, 4 past
    /// 2), to be filled with [`Table::set`] or [`Table::put`].
    ///
    /// ```
    /// use solver_retro::{Table, Value};
    /// let mut t = Table::with_bytes(3, 1)?;
    /// t.put(0, Some(Value::win(78)))?;
    /// assert_eq!(t.bytes_per_position(), 1);
    /// t.put(1, Some(Value::lose(79)))?; // widens to 2 bytes
    /// assert_eq!(t.bytes_per_position(), 2);
    /// assert_eq!(t.value(0), Some(Value::win(78)));
    /// assert_eq!(t.value(2), None);
    /// # Ok::<(), solver_retro::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] when the system refuses the memory.
    pub fn with_bytes(len: u64, bytes: u64) -> Result<Table, crate::Error> {
        let n = usize::try_from(len).map_err(|_| {
            crate::error::too_large("a table larger than the address space", len, u64::MAX, "")
        })?;
        Ok(match bytes {
            0 | 1 => Table::byte(Cells::new(n, Some(u8::INVALID), u64::MAX)?),
            2 => Table::narrow(Cells::new(n, Some(u16::INVALID), u64::MAX)?),
            _ => Table::wide(Cells::new(n, Some(u32::INVALID), u64::MAX)?),
        })
    }

    /// The same table in cells of the next width (1 byte to 2, 2 to 4):
    /// `false` when they are already 4 bytes wide.
    ///
    /// # Errors
    /// [`crate::Error::TooLarge`] when the system refuses the memory.
    pub fn widen(&mut self) -> Result<bool, crate::Error> {
        fn wider<A: Cell, B: Cell>(from: &Cells<A>) -> Result<Cells<B>, crate::Error> {
            let mut out = Cells::<B>::new(from.len(), None, u64::MAX)?;
            out.par_chunks_mut(1 << 16)
                .zip(from.par_chunks(1 << 16))
                .for_each(|(o, c)| {
                    for (o, &x) in o.iter_mut().zip(c) {
                        *o = B::narrow(x.widen());
                    }
                });
            Ok(out)
        }
        let next = match &self.0 {
            Inner::Byte(c) => Table::narrow(wider(c)?),
            Inner::Narrow(c) => Table::wide(wider(c)?),
            Inner::Wide(_) => return Ok(false),
        };
        *self = next;
        Ok(true)
    }

    /// [`Table::set`], widening the cells first ([`Table::widen`]) when
    /// the value's remoteness does not fit them.
    ///
    /// # Errors
    /// As [`Table::set`] and [`Table::widen`].
    pub fn put(&mut self, index: u64, value: Option<Value>) -> Result<(), crate::Error> {
        loop {
            match self.set(index, value) {
                Err(crate::Error::TooDeep { .. }) if self.widen()? => continue,
                r => return r,
            }
        }
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
            Inner::Byte(c) => *c.get_mut(i).ok_or(bad)? = encode(value)?,
            Inner::Narrow(c) => *c.get_mut(i).ok_or(bad)? = encode(value)?,
            Inner::Wide(c) => *c.get_mut(i).ok_or(bad)? = encode(value)?,
        }
        Ok(())
    }

    /// The number of cells (indices).
    #[must_use]
    pub fn len(&self) -> usize {
        match &self.0 {
            Inner::Byte(v) => v.len(),
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

    /// Bytes a cell takes: 1, 2 or 4.
    #[must_use]
    pub fn bytes_per_position(&self) -> u64 {
        match &self.0 {
            Inner::Byte(_) => 1,
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
        assert_eq!(u8::counter(5).dec_open(), u8::counter(4));
        assert_eq!(u8::counter(0).dec_open(), u8::counter(0));
        assert_eq!(u8::INVALID.dec_open(), u8::INVALID);
        assert_eq!(u8::count_or_invalid(0), u8::INVALID);
        assert_eq!(u8::count_or_invalid(9), u8::counter(9));
    }

    #[test]
    fn cells_round_trip() {
        round_trip::<u8>();
        round_trip::<u16>();
        round_trip::<u32>();
    }

    /// What a cell of any width says, in the same words: the counter
    /// while open, else the value (`None`: no position).
    fn said<C: Cell>(c: C) -> (Option<u64>, Option<Value>) {
        (c.open(), if c.is_open() { None } else { c.value() })
    }

    /// Every one of the 256 one-byte codes is exactly one of: a counter
    /// (`0..=MAX_COUNT`, or `UNCOUNTED`), a resolved value of each outcome
    /// and remoteness `0..=MAX_REMOTENESS`, or "no position"; each round
    /// trips through the 4-byte layout and agrees with the 2-byte cell of
    /// the same meaning (whose layout is the bit fields above, checked
    /// against the record format by the database's own tests).
    #[test]
    fn every_byte_code_is_one_cell_and_round_trips() {
        let mut seen = [0u32; 256];
        for n in 0..=u8::UNCOUNTED {
            let c = u8::counter(n);
            seen[usize::from(c)] += 1;
            assert_eq!(c.open(), Some(n));
            assert!(c.is_open());
            assert_eq!(c.value(), Some(Value::DRAW));
            assert!(!c.refuses_updates());
            assert_eq!(c.widen(), u32::counter(n));
            assert_eq!(u16::counter(n).widen(), c.widen());
        }
        for o in [Outcome::Lose, Outcome::Tie, Outcome::Win] {
            for r in 0..=u8::MAX_REMOTENESS {
                let c = u8::resolved(o, r);
                seen[usize::from(c)] += 1;
                assert_eq!(c.open(), None);
                assert!(!c.is_open());
                assert_eq!(c.value(), Some(Value::new(o, r as u32)), "code {c}");
                assert_eq!(c.refuses_updates(), o == Outcome::Lose, "code {c}");
                assert_eq!(c.dec_open(), c);
                assert_eq!(c.widen(), u32::resolved(o, r));
                assert_eq!(u16::resolved(o, r).widen(), c.widen());
                assert_eq!(said(c), said(u16::resolved(o, r)));
            }
        }
        seen[usize::from(u8::INVALID)] += 1;
        assert!(seen.iter().all(|&k| k == 1), "{seen:?}");
        assert_eq!(u8::INVALID.value(), None);
        assert_eq!(u8::INVALID.open(), None);
        assert!(u8::INVALID.refuses_updates());
        assert_eq!(u8::INVALID.widen(), u32::INVALID);
        // Every code: narrow(widen(c)) == c, and the 2-byte cell of the
        // same meaning widens alike.
        for c in 0..=u8::MAX {
            assert_eq!(u8::narrow(c.widen()), c, "code {c}");
            let w = u16::narrow(c.widen());
            assert_eq!(w.widen(), c.widen(), "code {c}");
            assert_eq!(said(w), said(c), "code {c}");
            // Only losses and "no position" refuse updates, in every
            // width alike.
            assert_eq!(c.refuses_updates(), w.refuses_updates(), "code {c}");
            assert_eq!(c.refuses_update_in(true), c == u8::INVALID);
        }
        // One past the range is refused by every caller's check.
        assert_eq!(u8::MAX_REMOTENESS, 78);
        assert_eq!(u8::MAX_COUNT, 16);
    }

    /// `dec_open` and `count_or_invalid` on one byte do what they do on
    /// two, code by code; `dec_open_run` reports zeros and the first
    /// refusing cell alike.
    #[test]
    fn byte_updates_match_two_byte_ones() {
        for c in 0..=u8::MAX {
            let w = u16::narrow(c.widen());
            assert_eq!(c.dec_open().widen(), w.dec_open().widen(), "code {c}");
        }
        for k in 0..=u8::MAX_COUNT as u32 {
            assert_eq!(
                u8::count_or_invalid(k).widen(),
                u16::count_or_invalid(k).widen()
            );
        }
        let runs: [&[u8]; 5] = [
            &[3, 1, 2],
            &[2, u8::resolved(Outcome::Win, 4), 5],
            &[1, u8::resolved(Outcome::Lose, 0), 1],
            &[4, u8::INVALID],
            &[u8::counter(u8::UNCOUNTED), u8::resolved(Outcome::Tie, 78)],
        ];
        for run in runs {
            let mut a = run.to_vec();
            let mut b: Vec<u16> = run.iter().map(|&c| u16::narrow(c.widen())).collect();
            let (ra, rb) = (u8::dec_open_run(&mut a), u16::dec_open_run(&mut b));
            assert_eq!(ra, rb, "{run:?}");
            if ra.is_ok() {
                let wa: Vec<u32> = a.iter().map(|c| c.widen()).collect();
                let wb: Vec<u32> = b.iter().map(|c| c.widen()).collect();
                assert_eq!(wa, wb, "{run:?}");
            }
        }
    }

    /// A table widens as values need: every value it held stays.
    #[test]
    fn a_table_widens_to_fit() {
        let mut t = Table::with_bytes(4, 1).unwrap();
        t.put(0, Some(Value::tie(78))).unwrap();
        t.put(1, Some(Value::DRAW)).unwrap();
        assert_eq!(t.bytes_per_position(), 1);
        assert!(matches!(
            t.set(2, Some(Value::win(79))),
            Err(crate::Error::TooDeep { max: 78 })
        ));
        t.put(2, Some(Value::win(79))).unwrap();
        assert_eq!(t.bytes_per_position(), 2);
        t.put(3, Some(Value::lose(1 << 13))).unwrap();
        assert_eq!(t.bytes_per_position(), 4);
        let want = [
            Some(Value::tie(78)),
            Some(Value::DRAW),
            Some(Value::win(79)),
            Some(Value::lose(1 << 13)),
        ];
        for (i, w) in want.into_iter().enumerate() {
            assert_eq!(t.value(i as u64), w);
        }
    }
}
