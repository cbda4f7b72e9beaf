//! Counting tables for the dense index: binomial coefficients and ranks of
//! column-height vectors.

/// `BINOMIAL[k][n]` = C(n, k) for n, k < 64 (C(63, 31) < 2⁶⁰ fits). Rows
/// by `k`, so scanning `n` for a fixed `k` reads consecutive words.
static BINOMIAL: [[u64; 64]; 64] = binomials();

const fn binomials() -> [[u64; 64]; 64] {
    let mut t = [[0u64; 64]; 64];
    let mut n = 0;
    while n < 64 {
        t[0][n] = 1;
        let mut k = 1;
        while k <= n {
            t[k][n] = t[k - 1][n - 1] + t[k][n - 1];
            k += 1;
        }
        n += 1;
    }
    t
}

/// C(n, k) for n, k < 64 (the board has at most 63 cells); the arguments
/// are taken mod 64, which spares the bounds checks.
#[inline]
pub(super) fn binomial(n: u32, k: u32) -> u64 {
    BINOMIAL[k as usize & 63][n as usize & 63]
}

/// Sets of at most this many places are decoded by one read of
/// [`LOW_SETS`].
pub(super) const LOW_PLACES: u32 = 12;

/// Every `j`-subset of the places `0..p`, for `p ≤` [`LOW_PLACES`], in
/// colex order (which is the order of the bit patterns as numbers): the
/// subset of colex rank `r` is `LOW_SETS[low_offset(p, j) + r]`.
static LOW_SETS: [u16; 1 << (LOW_PLACES + 1)] = low_sets();

/// Where the `j`-subsets of `0..p` start in [`LOW_SETS`]: after all the
/// subsets of fewer places (2ᵖ − 1 of them) and those of `0..p` with
/// fewer elements.
const fn low_offset(p: u32, j: u32) -> usize {
    let mut at = (1usize << p) - 1;
    let mut i = 0;
    while i < j {
        at += binomial_const(p, i) as usize;
        i += 1;
    }
    at
}

const fn binomial_const(n: u32, k: u32) -> u64 {
    BINOMIAL[k as usize & 63][n as usize & 63]
}

const fn low_sets() -> [u16; 1 << (LOW_PLACES + 1)] {
    let mut t = [0u16; 1 << (LOW_PLACES + 1)];
    let mut p = 0;
    while p <= LOW_PLACES {
        let mut seen = [0usize; LOW_PLACES as usize + 1];
        let mut mask = 0u32;
        while mask < 1 << p {
            let j = mask.count_ones();
            t[low_offset(p, j) + seen[j as usize]] = mask as u16;
            seen[j as usize] += 1;
            mask += 1;
        }
        p += 1;
    }
    t
}

/// The `j`-subset of the places `0..p` (`p ≤` [`LOW_PLACES`]) of colex
/// rank `rank` (`< C(p, j)`), as bits.
#[inline]
pub(super) fn low_set(p: u32, j: u32, rank: u64) -> u64 {
    u64::from(LOW_SETS[low_offset(p, j) + rank as usize])
}

/// The tallest column for which [`ColumnSums`] keeps a table (2⁶
/// patterns of pieces).
const SUMS_MAX_HEIGHT: u32 = 6;

/// The number of set bits of every pattern of [`SUMS_MAX_HEIGHT`] bits.
static POPCOUNT: [u8; 1 << SUMS_MAX_HEIGHT] = popcounts();

const fn popcounts() -> [u8; 1 << SUMS_MAX_HEIGHT] {
    let mut t = [0u8; 1 << SUMS_MAX_HEIGHT];
    let mut i = 1;
    while i < t.len() {
        t[i] = t[i >> 1] + (i & 1) as u8;
        i += 1;
    }
    t
}

/// The colex terms of one column's first-player pieces, by table: for a
/// column whose pieces take the places from `place` up, after `j` pieces
/// of the first player below, with those pieces at the rows set in
/// `pattern`, the sum `Σᵢ C(place + rᵢ, j + i)` over its rows
/// `r₁ < r₂ < …`, and the number of them. Kept for boards of at most
/// [`SUMS_MAX_HEIGHT`] rows.
#[derive(Clone)]
pub(super) struct ColumnSums {
    /// Values of `j` per place: `⌈W·H/2⌉ + 2`.
    js: usize,
    /// `sums[(place · js + j) · 2^H + pattern]`, `place ≤ W·H + 1`.
    sums: Vec<u64>,
    /// `1 << H`.
    patterns: usize,
}

impl ColumnSums {
    /// The table of a `width` × `height` board, if `height` is at most
    /// [`SUMS_MAX_HEIGHT`].
    pub(super) fn new(width: u32, height: u32) -> Option<Self> {
        if height > SUMS_MAX_HEIGHT {
            return None;
        }
        let cells = width * height;
        let places = cells as usize + 2;
        let js = first_player_pieces(cells) as usize + 2;
        let patterns = 1usize << height;
        let mut sums = vec![0u64; places * js * patterns];
        for place in 0..places {
            for j in 0..js {
                let at = (place * js + j) * patterns;
                for pattern in 1..patterns {
                    // The sum for the pattern without its top row, plus
                    // the top row's term.
                    let top = usize::BITS - 1 - pattern.leading_zeros();
                    let rest = pattern ^ (1 << top);
                    let i = POPCOUNT[pattern] as u32;
                    sums[at + pattern] =
                        sums[at + rest] + binomial(place as u32 + top, j as u32 + i);
                }
            }
        }
        Some(ColumnSums { js, sums, patterns })
    }

    /// `Σᵢ C(place + rᵢ, j + i)` over the rows `r₁ < r₂ < …` of
    /// `pattern`, and their number.
    #[inline]
    pub(super) fn get(&self, place: u32, j: u32, pattern: u64) -> (u64, u32) {
        let p = pattern as usize & (self.patterns - 1);
        (
            self.sums[(place as usize * self.js + j as usize) * self.patterns + p],
            u32::from(POPCOUNT[p & ((1 << SUMS_MAX_HEIGHT) - 1)]),
        )
    }
}

/// The number of pieces the first player has after `n` plies: ⌈n/2⌉.
#[inline]
pub(super) fn first_player_pieces(n: u32) -> u32 {
    n.div_ceil(2)
}

/// C(n, ⌈n/2⌉): the ways to choose which of `n` pieces are the first
/// player's.
#[inline]
pub(super) fn first_player_choices(n: u32) -> u64 {
    binomial(n, first_player_pieces(n))
}

/// Ranks of column-height vectors `(h₀, …, h_{W−1})`, `0 ≤ hᵢ ≤ H`, among
/// those with the same sum, in lexicographic order.
#[derive(Clone)]
pub(super) struct HeightTable {
    width: u32,
    height: u32,
    cells: u32,
    /// Rows are `H + 2` entries padded to `1 << shift`.
    shift: u32,
    /// `below[((c·(N+1) + s) << shift) + h]`: the number of vectors for
    /// columns `c..W` summing to `s` whose column `c` is below `h`.
    below: Vec<u64>,
}

impl HeightTable {
    pub(super) fn new(width: u32, height: u32) -> Self {
        let cells = width * height;
        let sums = cells as usize + 1;
        // rest[c][s]: vectors for columns c..W summing to s.
        let mut rest = vec![vec![0u64; sums]; width as usize + 1];
        rest[width as usize][0] = 1;
        for c in (0..width as usize).rev() {
            for s in 0..sums {
                rest[c][s] = (0..=(height as usize).min(s))
                    .map(|v| rest[c + 1][s - v])
                    .sum();
            }
        }
        let hs = height as usize + 2;
        let shift = hs.next_power_of_two().trailing_zeros();
        let mut below = vec![0u64; (width as usize * sums) << shift];
        for c in 0..width as usize {
            for s in 0..sums {
                let at = (c * sums + s) << shift;
                for h in 1..hs {
                    let v = h - 1;
                    let more = if v <= s { rest[c + 1][s - v] } else { 0 };
                    below[at + h] = below[at + h - 1] + more;
                }
            }
        }
        HeightTable {
            width,
            height,
            cells,
            shift,
            below,
        }
    }

    /// Where the row of column `c` and sum `s` starts in
    /// [`HeightTable::raw`].
    #[inline]
    pub(super) fn row_at(&self, c: u32, s: u32) -> usize {
        (c as usize * (self.cells as usize + 1) + s as usize) << self.shift
    }

    /// For columns `c..W` summing to `s`: entry `h` (`0..=H+1`) is the
    /// number of vectors whose column `c` is below `h`.
    #[inline]
    fn row(&self, c: u32, s: u32) -> &[u64] {
        let at = self.row_at(c, s);
        &self.below[at..at + self.height as usize + 2]
    }

    /// The number of vectors for columns `c..W` summing to `s` whose column
    /// `c` is below `h` (`h ≤ H + 1`, `s ≤ W·H`).
    #[inline]
    pub(super) fn below(&self, c: u32, s: u32, h: u32) -> u64 {
        self.row(c, s)[h as usize]
    }

    /// The whole table: entry `row_at(c, s) + h` is
    /// [`HeightTable::below`]`(c, s, h)`.
    #[inline]
    pub(super) fn raw(&self) -> &[u64] {
        &self.below
    }

    /// The number of height vectors summing to `n` (0 past W·H).
    pub(super) fn count(&self, n: u32) -> u64 {
        if n > self.cells {
            0
        } else {
            self.below(0, n, self.height + 1)
        }
    }

    /// The column heights of rank `rank` among the vectors summing to `n`
    /// (`rank < count(n)`), written to `out[..W]`.
    ///
    /// Each column's height is the number of its thresholds at or below
    /// what is left of the rank, counted without branches (the rows are
    /// nondecreasing, and a column cannot hold more than what is left).
    #[inline]
    pub(super) fn unrank(&self, n: u32, mut rank: u64, out: &mut [u32]) {
        let mut s = n;
        for (c, slot) in (0..self.width).zip(out.iter_mut()) {
            let row = self.row(c, s);
            let top = self.height.min(s) as usize;
            // The thresholds passed are a prefix: count them, and sum
            // their steps (the last one passed) without a dependent read.
            let (mut h, mut passed) = (0, 0);
            for w in row[..=top].windows(2) {
                let yes = w[1] <= rank;
                h += usize::from(yes);
                passed += (w[1] - w[0]) & u64::from(yes).wrapping_neg();
            }
            rank -= passed;
            s -= h as u32;
            *slot = h as u32;
        }
    }
}
