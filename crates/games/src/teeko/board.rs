//! The 5 × 5 board as 25-bit masks: squares, neighbours, the 44 winning
//! patterns and the 8 symmetries of the square.
//!
//! Square `s = 5 · row + column`: row 0 is rank 1, column 0 is file a, so
//! `a1` is square 0, `e1` square 4 and `e5` square 24.

/// Squares on the board.
pub(crate) const SQUARES: u32 = 25;
/// Every square.
pub(crate) const FULL: u32 = (1 << SQUARES) - 1;

/// `NEIGHBOURS[s]`: the squares one king step from `s`.
pub(crate) const NEIGHBOURS: [u32; 25] = neighbours();

/// The 44 winning patterns: 10 rows of four, 10 columns of four, 8
/// diagonals of four, and the 16 2 × 2 squares.
pub(crate) const PATTERNS: [u32; 44] = patterns();

/// `SYMMETRY[t][s]`: where the symmetry `t` of the square takes square `s`
/// (`t = 0` is the identity).
#[cfg(test)]
pub(crate) const SYMMETRY: [[u8; 25]; 8] = symmetries();

/// `BYTE_IMAGE[j][bits]`: the images under the 8 symmetries of the
/// squares `bits` of byte `j` of a mask (squares `8 j .. 8 j + 8`), each a
/// 25-bit mask. A mask's 8 images are the OR of its four bytes' rows.
pub(crate) static BYTE_IMAGE: [[[u32; 8]; 256]; 4] = byte_images();

const fn neighbours() -> [u32; 25] {
    let mut out = [0u32; 25];
    let mut s = 0;
    while s < 25 {
        let (r, c) = ((s / 5) as i32, (s % 5) as i32);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (nr, nc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && nr >= 0 && nr < 5 && nc >= 0 && nc < 5 {
                    out[s] |= 1 << (nr * 5 + nc);
                }
                dc += 1;
            }
            dr += 1;
        }
        s += 1;
    }
    out
}

const fn line(r: i32, c: i32, dr: i32, dc: i32) -> u32 {
    let mut m = 0;
    let mut k = 0;
    while k < 4 {
        m |= 1 << ((r + k * dr) * 5 + c + k * dc);
        k += 1;
    }
    m
}

const fn patterns() -> [u32; 44] {
    let mut out = [0u32; 44];
    let mut n = 0;
    let mut a = 0;
    while a < 5 {
        let mut b = 0;
        while b < 2 {
            out[n] = line(a, b, 0, 1); // a row of four
            out[n + 1] = line(b, a, 1, 0); // a column of four
            n += 2;
            b += 1;
        }
        a += 1;
    }
    let mut r = 0;
    while r < 2 {
        let mut c = 0;
        while c < 2 {
            out[n] = line(r, c, 1, 1); // down-right diagonal
            out[n + 1] = line(r, c + 3, 1, -1); // down-left diagonal
            n += 2;
            c += 1;
        }
        r += 1;
    }
    let mut r = 0;
    while r < 4 {
        let mut c = 0;
        while c < 4 {
            let s = r * 5 + c;
            out[n] = (1 << s) | (1 << (s + 1)) | (1 << (s + 5)) | (1 << (s + 6));
            n += 1;
            c += 1;
        }
        r += 1;
    }
    out
}

const fn symmetries() -> [[u8; 25]; 8] {
    let mut out = [[0u8; 25]; 8];
    let mut t = 0;
    while t < 8 {
        let mut s = 0;
        while s < 25 {
            let (r, c) = (s / 5, s % 5);
            // t & 3 quarter turns, then a mirror if t >= 4.
            let (mut r2, mut c2) = (r, c);
            let mut q = 0;
            while q < (t & 3) {
                let nr = c2;
                let nc = 4 - r2;
                r2 = nr;
                c2 = nc;
                q += 1;
            }
            if t >= 4 {
                c2 = 4 - c2;
            }
            out[t][s] = (r2 * 5 + c2) as u8;
            s += 1;
        }
        t += 1;
    }
    out
}

const fn byte_images() -> [[[u32; 8]; 256]; 4] {
    let sym = symmetries();
    let mut out = [[[0u32; 8]; 256]; 4];
    let mut j = 0;
    while j < 4 {
        let mut bits = 0;
        while bits < 256 {
            let mut t = 0;
            while t < 8 {
                let mut m = 0u32;
                let mut b = 0;
                while b < 8 {
                    let s = j * 8 + b;
                    if s < 25 && bits & (1 << b) != 0 {
                        m |= 1 << sym[t][s];
                    }
                    b += 1;
                }
                out[j][bits][t] = m;
                t += 1;
            }
            bits += 1;
        }
        j += 1;
    }
    out
}

/// The images of the squares `mask` under the 8 symmetries (`[0]` is
/// `mask` itself): four table rows OR-ed together.
#[inline]
pub(crate) fn images(mask: u32) -> [u32; 8] {
    let a = &BYTE_IMAGE[0][(mask & 255) as usize];
    let b = &BYTE_IMAGE[1][((mask >> 8) & 255) as usize];
    let c = &BYTE_IMAGE[2][((mask >> 16) & 255) as usize];
    let d = &BYTE_IMAGE[3][((mask >> 24) & 1) as usize];
    let mut out = [0u32; 8];
    for t in 0..8 {
        out[t] = a[t] | b[t] | c[t] | d[t];
    }
    out
}

/// The image of the squares `mask` under symmetry `t`.
#[inline]
pub(crate) fn transform(t: usize, mask: u32) -> u32 {
    BYTE_IMAGE[0][(mask & 255) as usize][t]
        | BYTE_IMAGE[1][((mask >> 8) & 255) as usize][t]
        | BYTE_IMAGE[2][((mask >> 16) & 255) as usize][t]
        | BYTE_IMAGE[3][((mask >> 24) & 1) as usize][t]
}

/// Row four, column four, down-right diagonal, down-left diagonal and
/// 2 × 2 square, each shifted down to its lowest square.
const ROW4: u32 = 0b1111;
const COL4: u32 = 1 | 1 << 5 | 1 << 10 | 1 << 15;
const DIAG4: u32 = 1 | 1 << 6 | 1 << 12 | 1 << 18;
const ANTI4: u32 = 1 | 1 << 4 | 1 << 8 | 1 << 12;
const SQUARE4: u32 = 1 | 1 << 1 | 1 << 5 | 1 << 6;

/// Whether the four squares `mask` (exactly four bits) are one of the
/// winning patterns: the shape seen from its lowest square, and the column
/// of that square so the shape does not wrap round the board's edge.
#[inline]
fn is_pattern4(mask: u32) -> bool {
    let s = mask.trailing_zeros();
    let col = s % 5;
    match mask >> s {
        ROW4 | DIAG4 => col <= 1,
        COL4 => true,
        ANTI4 => col >= 3,
        SQUARE4 => col <= 3,
        _ => false,
    }
}

/// Whether the men `mask` cover one of the winning patterns.
#[inline]
pub(crate) fn has_pattern(mask: u32) -> bool {
    match mask.count_ones() {
        0..=3 => false,
        4 => is_pattern4(mask),
        _ => PATTERNS.iter().any(|&p| p & !mask == 0),
    }
}

/// The name of square `s`: file letter then rank digit (`c3`).
pub(crate) fn square_name(s: u8) -> String {
    format!("{}{}", char::from(b'a' + s % 5), s / 5 + 1)
}

/// The square named by two bytes (`c3`), if any.
pub(crate) fn parse_square(file: u8, rank: u8) -> Option<u8> {
    let f = file.to_ascii_lowercase().checked_sub(b'a')?;
    let r = rank.checked_sub(b'1')?;
    // Lazily: `r * 5` overflows a byte for a far-off rank byte.
    (f < 5 && r < 5).then(|| r * 5 + f)
}
