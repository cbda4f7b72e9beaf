//! Counting tables for the dense index: binomial coefficients and ranks of
//! column-height vectors.

/// `BINOMIAL[n][k]` = C(n, k) for n, k ≤ 64 (C(64, 32) < 2⁶¹ fits).
pub(super) static BINOMIAL: [[u64; 65]; 65] = binomials();

const fn binomials() -> [[u64; 65]; 65] {
    let mut t = [[0u64; 65]; 65];
    let mut n = 0;
    while n < 65 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            k += 1;
        }
        n += 1;
    }
    t
}

/// C(n, k) for n, k ≤ 64.
#[inline]
pub(super) fn binomial(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
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
    /// `below[(c·(N+1) + s)·(H+2) + h]`: the number of vectors for columns
    /// `c..W` summing to `s` whose column `c` is below `h`.
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
        let mut below = vec![0u64; width as usize * sums * hs];
        for c in 0..width as usize {
            for s in 0..sums {
                let at = (c * sums + s) * hs;
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
            below,
        }
    }

    /// The number of vectors for columns `c..W` summing to `s` whose column
    /// `c` is below `h` (`h ≤ H + 1`, `s ≤ W·H`).
    #[inline]
    pub(super) fn below(&self, c: u32, s: u32, h: u32) -> u64 {
        let at = (c as usize * (self.cells as usize + 1) + s as usize) * (self.height as usize + 2);
        self.below[at + h as usize]
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
    pub(super) fn unrank(&self, n: u32, mut rank: u64, out: &mut [u32]) {
        let mut s = n;
        for (c, slot) in (0..self.width).zip(out.iter_mut()) {
            let mut h = 0;
            while self.below(c, s, h + 1) <= rank {
                h += 1;
            }
            rank -= self.below(c, s, h);
            s -= h;
            *slot = h;
        }
    }
}
