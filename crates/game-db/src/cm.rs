//! The block codec of format 3: a binary range coder driven by a static
//! context model the block carries, restarted every [`CHUNK`] records so
//! that a lookup decodes at most one chunk.
//!
//! A block's records (in the low bits of `u32`s: [`crate::record`]) are
//! coded as binary decisions, each under a context whose probability the
//! block's model fixes. A value is known in contexts by its *summary*
//! byte, `class << 6 | min(r, 63)` (a draw `1`):
//!
//! 1. *present?* — under the presence of the `k` records before it in
//!    its chunk (`k` chosen per block, 0 to [`MAX_ORDER`]);
//! 2. for a present record, *the same value as the last present record
//!    of the chunk?* — under that last value's summary;
//! 3. if not, its class, two decisions (high bit, low bit) — under the
//!    last value's summary;
//! 4. if not a draw, min(r, 63), six decisions from the top bit down
//!    (a binary tree of 63 nodes) — under its class and the last value's
//!    class; for r ≥ 63, e = r − 62 in Exp-Golomb form (its bit length
//!    in unary, then its bits below the top), a context for each place.
//!
//! The model is one byte a context ([`prob`] maps it to a probability;
//! `0` for a context the block never uses), compressed with zstd. Chunks
//! are coded on their own (their contexts start empty) and their lengths
//! are listed, so a lookup starts at its chunk.
//!
//! | bytes | field |
//! | --- | --- |
//! | 1 | presence order k (0 to [`MAX_ORDER`]) |
//! | 4 | length m of the compressed model |
//! | m | the model: a zstd frame of 2^k + [`VALUE_CONTEXTS`] bytes |
//! | 4 | length t of the chunk table |
//! | t | the chunks' lengths in bytes, LEB128, one a chunk |
//! | … | the chunks' range-coded bytes, back to back |

/// Records a chunk: the most a lookup decodes.
pub(crate) const CHUNK: usize = 4096;

/// The longest presence context, in records.
pub(crate) const MAX_ORDER: u32 = 12;

/// Bits of a probability.
const PROB_BITS: u32 = 12;

/// Contexts of decision 2 (same as last): the last value.
const SAME: usize = 0;
/// Contexts of decision 3 (class): the last value × three tree nodes.
const CLASS: usize = SAME + 256;
/// Contexts of decision 4 (remoteness): class (1..=3) × last class
/// (0..=3) × 64 tree nodes.
const REM: usize = CLASS + 3 * 256;
/// Contexts of the unary bit length of a remoteness of 63 or more.
const ESC: usize = REM + 4 * 4 * 64;
/// Contexts of its bits below the top.
const MANT: usize = ESC + 33;
/// Contexts of the value decisions.
pub(crate) const VALUE_CONTEXTS: usize = MANT + 32;

use crate::RecordWidth;

/// The probability (of a 0, out of 2^12) a model byte stands for: `q`
/// from 1 to 255 is a log-odds of `(q − 128) / 12` bits, clamped to
/// 1..=4095; `0` (an unused context) is even odds. Integer arithmetic
/// only, so that every platform decodes alike.
pub(crate) const fn prob(q: u8) -> u16 {
    if q == 0 {
        return 1 << (PROB_BITS - 1);
    }
    // 2^(i/12) in 16.16 fixed point, i = 0..12.
    const FRAC: [u64; 12] = [
        65536, 69433, 73562, 77936, 82570, 87480, 92682, 98193, 104032, 110218, 116772, 123715,
    ];
    // p0 = 1 / (1 + 2^(-s/12)) with s = q − 128: 2^(e/12), e = 128 − q.
    let e = 128 - q as i32;
    let (whole, frac) = (e.div_euclid(12), e.rem_euclid(12) as usize);
    let pow = if whole >= 0 {
        FRAC[frac] << whole
    } else {
        FRAC[frac] >> (-whole)
    };
    let p = ((1u64 << (PROB_BITS + 16)) + (65536 + pow) / 2) / (65536 + pow);
    if p < 1 {
        1
    } else if p > (1 << PROB_BITS) - 1 {
        (1 << PROB_BITS) - 1
    } else {
        p as u16
    }
}

/// [`prob`] of every model byte.
const PROBS: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut q = 0;
    while q < 256 {
        t[q] = prob(q as u8);
        q += 1;
    }
    t
};

/// The model byte for a context that saw `n0` zeros and `n1` ones: the
/// one whose probability codes them in the fewest bits.
fn quantize(n0: u32, n1: u32) -> u8 {
    if n0 + n1 == 0 {
        return 0;
    }
    let cost = |q: u8| {
        let p = f64::from(prob(q)) / f64::from(1u32 << PROB_BITS);
        -(f64::from(n0) * p.log2() + f64::from(n1) * (1.0 - p).log2())
    };
    // Start from the nearest log-odds, then look around it.
    let p = (f64::from(n0) + 0.4) / (f64::from(n0 + n1) + 0.8);
    let guess = (128.0 + 12.0 * (p / (1.0 - p)).log2()).round().clamp(1.0, 255.0) as i32;
    let mut best = (guess as u8, cost(guess as u8));
    for q in (guess - 3).max(1)..=(guess + 3).min(255) {
        let c = cost(q as u8);
        if c < best.1 {
            best = (q as u8, c);
        }
    }
    best.0
}

/// About the bits coding `n0` zeros and `n1` ones cost: their entropy
/// (the model byte's rounding aside).
fn coded_bits(n0: u32, n1: u32) -> f64 {
    if n0 == 0 || n1 == 0 {
        // At the clamped probability.
        return f64::from(n0 + n1) * 0.00035;
    }
    let (a, b) = (f64::from(n0), f64::from(n1));
    let n = a + b;
    -(a * (a / n).log2() + b * (b / n).log2())
}

/// The range encoder (LZMA's carry-less scheme, 12-bit probabilities),
/// ending with as few bytes as decode the same.
struct Encoder<'a> {
    low: u64,
    range: u32,
    cache: u8,
    pending: u64,
    out: &'a mut Vec<u8>,
    /// Whether the first byte (always 0) is still to be dropped.
    first: bool,
}

impl<'a> Encoder<'a> {
    fn new(out: &'a mut Vec<u8>) -> Encoder<'a> {
        Encoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            pending: 1,
            out,
            first: true,
        }
    }

    #[inline]
    fn bit(&mut self, p0: u16, bit: bool) {
        let bound = (self.range >> PROB_BITS) * u32::from(p0);
        if bit {
            self.low += u64::from(bound);
            self.range -= bound;
        } else {
            self.range = bound;
        }
        while self.range < 1 << 24 {
            self.range <<= 8;
            self.shift_low();
        }
    }

    fn shift_low(&mut self) {
        if (self.low as u32) < 0xff00_0000 || (self.low >> 32) != 0 {
            let carry = (self.low >> 32) as u8;
            let mut byte = self.cache;
            loop {
                if self.first {
                    self.first = false;
                } else {
                    self.out.push(byte.wrapping_add(carry));
                }
                byte = 0xff;
                self.pending -= 1;
                if self.pending == 0 {
                    break;
                }
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.pending += 1;
        self.low = (self.low & 0x00ff_ffff) << 8;
    }

    /// Ends the stream: a value inside the final interval whose bytes
    /// after the first few are zeros (which the decoder reads past the
    /// end), and those zeros dropped.
    fn finish(mut self, start: usize) {
        // Round low up to a multiple of 2^24 inside [low, low + range).
        let v = (self.low + 0x00ff_ffff) & !0x00ff_ffff;
        if v < self.low + u64::from(self.range) {
            self.low = v;
        }
        for _ in 0..5 {
            self.shift_low();
        }
        while self.out.len() > start && self.out.last() == Some(&0) {
            self.out.pop();
        }
    }
}

/// The range decoder; bytes past the end read as zeros.
struct Decoder<'a> {
    code: u32,
    range: u32,
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Decoder<'a> {
    fn new(bytes: &'a [u8]) -> Decoder<'a> {
        let mut d = Decoder {
            code: 0,
            range: u32::MAX,
            bytes,
            at: 0,
        };
        for _ in 0..4 {
            d.code = (d.code << 8) | u32::from(d.next());
        }
        d
    }

    #[inline]
    fn next(&mut self) -> u8 {
        let b = self.bytes.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }

    #[inline]
    fn bit(&mut self, p0: u16) -> bool {
        let bound = (self.range >> PROB_BITS) * u32::from(p0);
        let bit = if self.code < bound {
            self.range = bound;
            false
        } else {
            self.code -= bound;
            self.range -= bound;
            true
        };
        while self.range < 1 << 24 {
            self.range <<= 8;
            self.code = (self.code << 8) | u32::from(self.next());
        }
        bit
    }
}

/// A record split for coding: class (0 for a draw, 1 lose, 2 tie, 3
/// win) and remoteness, from the low bits of a `u32` of width `shift + 2`
/// bits; `None` for no position.
#[inline]
fn split(rec: u32, shift: u32) -> Option<(u8, u32)> {
    if rec == 0 {
        return None;
    }
    let class = (rec >> shift) as u8;
    if class == 0 {
        return Some((0, 0));
    }
    Some((class, rec & ((1 << shift) - 1)))
}

/// The byte a value is known by in contexts: `class << 6 | min(r, 63)`,
/// a draw 1 (its record's pattern), none 0.
#[inline]
fn summary(rec: u32, shift: u32) -> u8 {
    match split(rec, shift) {
        None => 0,
        Some((0, _)) => 1,
        Some((c, r)) => (c << 6) | r.min(63) as u8,
    }
}

/// The decisions record `rec` (a record of `shift + 2` bits) is coded as,
/// each passed to `f` as (context, bit); `last` is the chunk's last
/// present record (0 at its start), updated. `hist` holds the presence of
/// the records before, newest in bit 0.
#[inline]
fn decisions(
    rec: u32,
    shift: u32,
    mask: u32,
    hist: &mut u32,
    last: &mut u32,
    mut f: impl FnMut(usize, bool),
) {
    let Some((class, r)) = split(rec, shift) else {
        f((*hist & mask) as usize, false);
        *hist <<= 1;
        return;
    };
    f((*hist & mask) as usize, true);
    *hist = (*hist << 1) | 1;
    let base = (mask + 1) as usize;
    let ls = summary(*last, shift);
    let same = rec == *last;
    f(base + SAME + ls as usize, same);
    if same {
        return;
    }
    let hi = class >> 1 != 0;
    f(base + CLASS + 3 * ls as usize, hi);
    f(base + CLASS + 3 * ls as usize + 1 + usize::from(hi), class & 1 != 0);
    if class != 0 {
        let ctx = base + REM + (((class as usize) << 2) | (ls >> 6) as usize) * 64;
        let m = r.min(63);
        let mut node = 1usize;
        for k in (0..6).rev() {
            let bit = (m >> k) & 1 != 0;
            f(ctx + node, bit);
            node = (node << 1) | usize::from(bit);
        }
        if m == 63 {
            // Exp-Golomb: the bit length of e + 1 in unary, then its bits
            // below the top.
            let e = u64::from(r - 63) + 1;
            let g = 63 - e.leading_zeros() as usize;
            for i in 0..g {
                f(base + ESC + i, true);
            }
            f(base + ESC + g, false);
            for i in (0..g).rev() {
                f(base + MANT + i, (e >> i) & 1 != 0);
            }
        }
    }
    *last = rec;
}

/// Encodes the records `recs` (in the low bits of `u32`s, of width
/// `width`) into `out` (appended) as the layout above; `level` is zstd's
/// for the model.
pub(crate) fn encode(
    recs: &[u32],
    width: RecordWidth,
    level: i32,
    out: &mut Vec<u8>,
) -> std::io::Result<()> {
    let shift = width.bits() - 2;
    // Counts for the longest presence context and every value context.
    let full = 1usize << MAX_ORDER;
    let mut counts = vec![[0u32; 2]; full + VALUE_CONTEXTS];
    for chunk in recs.chunks(CHUNK) {
        let (mut hist, mut last) = (0u32, 0u32);
        for &rec in chunk {
            decisions(rec, shift, (full - 1) as u32, &mut hist, &mut last, |c, bit| {
                counts[c][usize::from(bit)] += 1;
            });
        }
    }
    // The presence order that codes smallest, a model byte a context
    // counted at about 5 bits.
    let merge = |k: u32| {
        let mut merged = vec![[0u32; 2]; 1 << k];
        for (c, n) in counts[..full].iter().enumerate() {
            let m = &mut merged[c & ((1 << k) - 1)];
            m[0] += n[0];
            m[1] += n[1];
        }
        merged
    };
    let mut best = (0u32, f64::INFINITY);
    for k in 0..=MAX_ORDER {
        let bits: f64 = merge(k)
            .iter()
            .map(|n| coded_bits(n[0], n[1]) + 5.0 * f64::from(u8::from(n[0] + n[1] > 0)))
            .sum();
        if bits < best.1 {
            best = (k, bits);
        }
    }
    let k = best.0;
    let mask = (1u32 << k) - 1;
    let merged = merge(k);
    let model: Vec<u8> = merged
        .iter()
        .chain(&counts[full..])
        .map(|n| quantize(n[0], n[1]))
        .collect();
    let packed_model = zstd::bulk::compress(&model, level)?;
    out.push(k as u8);
    out.extend_from_slice(&(packed_model.len() as u32).to_le_bytes());
    out.extend_from_slice(&packed_model);
    let mut lengths = Vec::new();
    let mut streams = Vec::new();
    for chunk in recs.chunks(CHUNK) {
        let start = streams.len();
        let mut enc = Encoder::new(&mut streams);
        let (mut hist, mut last) = (0u32, 0u32);
        for &rec in chunk {
            decisions(rec, shift, mask, &mut hist, &mut last, |ctx, bit| {
                enc.bit(PROBS[model[ctx] as usize], bit);
            });
        }
        enc.finish(start);
        let mut len = (streams.len() - start) as u64;
        // LEB128.
        loop {
            let b = (len & 0x7f) as u8;
            len >>= 7;
            if len == 0 {
                lengths.push(b);
                break;
            }
            lengths.push(b | 0x80);
        }
    }
    out.extend_from_slice(&(lengths.len() as u32).to_le_bytes());
    out.extend_from_slice(&lengths);
    out.extend_from_slice(&streams);
    Ok(())
}

/// A block coded by [`encode`], parsed: its model's probabilities and
/// where each chunk starts, so that a record is found by decoding its
/// chunk up to it.
#[derive(Debug, Default)]
pub(crate) struct Coded {
    /// The block's bytes.
    bytes: Vec<u8>,
    /// The model: a byte ([`prob`]) for each presence context, then for
    /// each value context.
    model: Vec<u8>,
    /// Where each chunk starts in `bytes`; one more entry ends the last.
    starts: Vec<u32>,
    mask: u32,
    n: usize,
}

impl Coded {
    /// A block of no records, holding no memory.
    pub const EMPTY: Coded = Coded {
        bytes: Vec::new(),
        model: Vec::new(),
        starts: Vec::new(),
        mask: 0,
        n: 0,
    };

    /// The buffer the block's bytes are read into; [`Coded::parse`] must
    /// follow.
    pub fn buffer(&mut self) -> &mut Vec<u8> {
        self.n = 0;
        self.model.clear();
        self.starts.clear();
        self.bytes.clear();
        &mut self.bytes
    }

    /// Checks the bytes read into [`Coded::buffer`] as a block of `n`
    /// records and parses its model and chunk table; `Err` says what is
    /// wrong (and the block then holds no record).
    pub fn parse(
        &mut self,
        n: usize,
        dctx: &mut zstd::bulk::Decompressor<'static>,
    ) -> std::result::Result<(), String> {
        self.n = 0;
        let b = &self.bytes;
        let too_short = || format!("a block of {} bytes, too short", b.len());
        let k = u32::from(*b.first().ok_or_else(too_short)?);
        if k > MAX_ORDER {
            return Err(format!("presence order {k}"));
        }
        let u32_at = |at: usize| -> std::result::Result<usize, String> {
            b.get(at..at + 4)
                .map(|x| u32::from_le_bytes(x.try_into().expect("4 bytes")) as usize)
                .ok_or_else(too_short)
        };
        let m = u32_at(1)?;
        let model_end = 5usize
            .checked_add(m)
            .filter(|&e| e <= b.len())
            .ok_or_else(|| format!("a model of {m} bytes past the block's end"))?;
        let contexts = (1usize << k) + VALUE_CONTEXTS;
        self.model.clear();
        self.model.reserve(contexts);
        dctx.decompress_to_buffer(&b[5..model_end], &mut self.model)
            .map_err(|e| format!("model: {e}"))?;
        if self.model.len() != contexts {
            return Err(format!(
                "a model of {} contexts, not {contexts}",
                self.model.len()
            ));
        }
        let t = u32_at(model_end)?;
        let table = model_end + 4;
        let table_end = table
            .checked_add(t)
            .filter(|&e| e <= b.len())
            .ok_or_else(|| format!("a chunk table of {t} bytes past the block's end"))?;
        let chunks = n.div_ceil(CHUNK);
        self.starts.clear();
        let mut at = table_end as u64;
        let mut lens = b[table..table_end].iter();
        for c in 0..chunks {
            self.starts.push(at as u32);
            let mut len = 0u64;
            let mut place = 0;
            loop {
                let &x = lens
                    .next()
                    .ok_or_else(|| format!("a chunk table of {t} bytes for {chunks} chunks"))?;
                len |= u64::from(x & 0x7f) << place;
                place += 7;
                if x & 0x80 == 0 {
                    break;
                }
                if place > 28 {
                    return Err(format!("chunk {c}'s length does not end"));
                }
            }
            at += len;
            if at > b.len() as u64 {
                return Err(format!("chunk {c} ends past the block's end"));
            }
        }
        if lens.next().is_some() {
            return Err(format!("a chunk table longer than its {chunks} chunks"));
        }
        if at != b.len() as u64 {
            return Err(format!(
                "chunks of {} bytes in {} bytes",
                at - table_end as u64,
                b.len() - table_end
            ));
        }
        self.starts.push(at as u32);
        self.mask = (1 << k) - 1;
        self.n = n;
        Ok(())
    }

    /// The record (in the low bits of a `u32`, of width `width`; 0 for no
    /// position) at `i` (< the block's records).
    pub fn record(&self, width: RecordWidth, i: usize) -> std::result::Result<u32, String> {
        if i >= self.n {
            return Err(format!("record {i} of a block of {}", self.n));
        }
        let mut found = 0;
        self.decode_chunk(width, i / CHUNK, i % CHUNK + 1, |r| found = r)?;
        Ok(found)
    }

    /// Every record of the block, passed to `f` in order.
    pub fn decode_all(
        &self,
        width: RecordWidth,
        mut f: impl FnMut(u32),
    ) -> std::result::Result<(), String> {
        for c in 0..self.n.div_ceil(CHUNK) {
            let len = CHUNK.min(self.n - c * CHUNK);
            self.decode_chunk(width, c, len, &mut f)?;
        }
        Ok(())
    }

    /// Decodes the first `len` records of chunk `c`, each passed to `f`.
    fn decode_chunk(
        &self,
        width: RecordWidth,
        c: usize,
        len: usize,
        mut f: impl FnMut(u32),
    ) -> std::result::Result<(), String> {
        let shift = width.bits() - 2;
        let bytes = &self.bytes[self.starts[c] as usize..self.starts[c + 1] as usize];
        let mut d = Decoder::new(bytes);
        let q = &self.model;
        let p = |ctx: usize| PROBS[q[ctx] as usize];
        let base = (self.mask + 1) as usize;
        let (mut hist, mut last) = (0u32, 0u32);
        let mut ls = 0u8;
        for _ in 0..len {
            let present = d.bit(p((hist & self.mask) as usize));
            hist = (hist << 1) | u32::from(present);
            if !present {
                f(0);
                continue;
            }
            if d.bit(p(base + SAME + ls as usize)) {
                if last == 0 {
                    return Err(format!("chunk {c}: a repeat before any value"));
                }
                f(last);
                continue;
            }
            let at = base + CLASS + 3 * ls as usize;
            let hi = d.bit(p(at));
            let lo = d.bit(p(at + 1 + usize::from(hi)));
            let class = (u32::from(hi) << 1) | u32::from(lo);
            let rec = if class == 0 {
                1
            } else {
                let ctx = base + REM + (((class as usize) << 2) | (ls >> 6) as usize) * 64;
                let mut node = 1usize;
                for _ in 0..6 {
                    node = (node << 1) | usize::from(d.bit(p(ctx + node)));
                }
                let mut r = (node - 64) as u64;
                if r == 63 {
                    let mut g = 0;
                    while d.bit(p(base + ESC + g)) {
                        g += 1;
                        if g > 32 {
                            return Err(format!("chunk {c}: a remoteness past 2^32"));
                        }
                    }
                    let mut e = 1u64;
                    for i in (0..g).rev() {
                        e = (e << 1) | u64::from(d.bit(p(base + MANT + i)));
                    }
                    r = 62 + e;
                }
                if r > u64::from(width.max_remoteness()) {
                    return Err(format!(
                        "chunk {c}: remoteness {r} in a record of {} bits",
                        width.bits()
                    ));
                }
                (class << shift) | r as u32
            };
            if rec == last {
                return Err(format!(
                    "chunk {c}: a value coded as new that repeats the last"
                ));
            }
            last = rec;
            ls = summary(rec, shift);
            f(rec);
        }
        Ok(())
    }

    /// Bytes held allocated.
    pub fn allocated(&self) -> usize {
        self.bytes.capacity() + self.model.capacity() + 4 * self.starts.capacity()
    }

    /// Bytes in use.
    pub fn len(&self) -> usize {
        self.bytes.len() + self.model.len() + 4 * self.starts.len()
    }
}

impl Clone for Coded {
    /// A copy sized to what the block uses, not to its buffers.
    fn clone(&self) -> Coded {
        Coded {
            bytes: self.bytes.as_slice().to_vec(),
            model: self.model.as_slice().to_vec(),
            starts: self.starts.as_slice().to_vec(),
            mask: self.mask,
            n: self.n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::Value;
    use proptest::prelude::*;

    #[test]
    fn probabilities_are_monotone_and_centred() {
        assert_eq!(prob(128), 2048);
        for q in 1..255u8 {
            assert!(prob(q) <= prob(q + 1), "{q}");
        }
        assert!(prob(255) >= 4090, "{}", prob(255));
        assert!(prob(1) <= 4);
        // 12 steps are one bit of log-odds: 2:1.
        assert!((i32::from(prob(140)) - 2731).abs() <= 2, "{}", prob(140));
    }

    fn round_trip(width: RecordWidth, v: &[u32]) -> usize {
        let mut out = Vec::new();
        encode(v, width, 3, &mut out).unwrap();
        let mut dctx = zstd::bulk::Decompressor::new().unwrap();
        let mut c = Coded::default();
        c.buffer().extend_from_slice(&out);
        c.parse(v.len(), &mut dctx).unwrap();
        let mut all = Vec::new();
        c.decode_all(width, |r| all.push(r)).unwrap();
        assert_eq!(all, v);
        for i in (0..v.len()).step_by(97).chain(v.len().checked_sub(1)) {
            assert_eq!(c.record(width, i).unwrap(), v[i], "record {i}");
        }
        assert!(c.record(width, v.len()).is_err());
        out.len()
    }

    fn rec(width: RecordWidth, v: Option<Value>) -> u32 {
        width.encode(v).unwrap()
    }

    #[test]
    fn uniform_and_skewed_blocks_round_trip() {
        let w = RecordWidth::Narrow;
        round_trip(w, &[]);
        round_trip(w, &[1]);
        // A block of no positions, or of draws, costs next to nothing.
        assert!(round_trip(w, &[0; 100_000]) < 300);
        assert!(round_trip(w, &[1; 100_000]) < 300);
        let win = rec(w, Some(Value::win(16_000)));
        round_trip(w, &[win; 9_000]);
        let mut x = 12345u64;
        let noisy: Vec<u32> = (0..20_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let r = (x >> 40) as u32 % 200;
                match x % 7 {
                    0 | 1 => 0,
                    2 => 1,
                    3 => rec(w, Some(Value::lose(r))),
                    4 => rec(w, Some(Value::tie(r % 64))),
                    _ => rec(w, Some(Value::win(r % 9))),
                }
            })
            .collect();
        round_trip(w, &noisy);
        let wide = RecordWidth::Wide;
        let big = [
            rec(wide, Some(Value::win(game_core::MAX_REMOTENESS))),
            0,
            rec(wide, Some(Value::lose(62))),
            rec(wide, Some(Value::lose(63))),
            rec(wide, Some(Value::lose(64))),
            rec(wide, Some(Value::tie(1 << 20))),
        ];
        round_trip(wide, &big);
    }

    /// Damage inside a block's bytes (past its checksum: what a writer's
    /// bug would leave) is refused or decodes to records, never panics.
    #[test]
    fn damaged_blocks_are_refused_without_panicking() {
        let w = RecordWidth::Narrow;
        let v: Vec<u32> = (0..10_000u32)
            .map(|i| if i % 3 == 0 { 0 } else { rec(w, Some(Value::win(i % 70))) })
            .collect();
        let mut out = Vec::new();
        encode(&v, w, 3, &mut out).unwrap();
        let mut dctx = zstd::bulk::Decompressor::new().unwrap();
        let mut c = Coded::default();
        for cut in [0, 1, 4, 5, 9, out.len() - 1] {
            c.buffer().extend_from_slice(&out[..cut]);
            assert!(c.parse(v.len(), &mut dctx).is_err(), "cut at {cut}");
            assert!(c.record(w, 0).is_err());
        }
        c.buffer().extend_from_slice(&out);
        assert!(c.parse(v.len() + CHUNK, &mut dctx).is_err(), "a chunk too few");
        let mut bad = out.clone();
        bad[0] = 13;
        c.buffer().extend_from_slice(&bad);
        assert!(c.parse(v.len(), &mut dctx).is_err());
        for at in (5..out.len()).step_by(7) {
            let mut bad = out.clone();
            bad[at] ^= 0x5a;
            c.buffer().extend_from_slice(&bad);
            if c.parse(v.len(), &mut dctx).is_ok() {
                let _ = c.decode_all(w, |_| {});
                let _ = c.record(w, v.len() - 1);
            }
        }
    }

    fn any_record() -> impl Strategy<Value = Option<Value>> {
        let max = game_core::MAX_REMOTENESS;
        prop_oneof![
            4 => Just(None),
            2 => Just(Some(Value::DRAW)),
            1 => (0..64u32).prop_map(|r| Some(Value::lose(r))),
            1 => (0..64u32).prop_map(|r| Some(Value::tie(r))),
            1 => (0..=max).prop_map(|r| Some(Value::win(r))),
            2 => (0..4u32).prop_map(|r| Some(Value::win(r))),
        ]
    }

    proptest! {
        #[test]
        fn any_block_round_trips(
            wide: bool,
            v in proptest::collection::vec(any_record(), 0..10_000),
        ) {
            let width = if wide { RecordWidth::Wide } else { RecordWidth::Narrow };
            let v: Vec<u32> = v
                .into_iter()
                .map(|r| width.encode(r).unwrap_or(1))
                .collect();
            round_trip(width, &v);
        }
    }
}
