//! Dōbutsu shōgi's tiers and dense indices.
//!
//! The lions decide the tier: *over* (tier 0) when the mover's lion is
//! gone or the opponent's lion stands on the mover's home rank, *play*
//! (tier 1) otherwise; the mover's lion never stands on rank 1 (such
//! positions are not indexed). Inside a tier a position's index is
//!
//! `base(lion squares) + offset(hand signature) + arrangement`:
//!
//! * the lion squares: one of 75 pairs in *play*; 24 pairs, then 12
//!   squares of the opponent's lion alone, in *over*;
//! * the hand signature: for giraffes, elephants and chicks, how many each
//!   player holds (6 ways a kind, 216 in all), which fixes how many of
//!   each kind are on the board;
//! * the arrangement: the squares of the giraffes, elephants and chicks
//!   among the free squares (combinations ranked in colex order, each kind
//!   among the squares the previous kinds leave), then one bit a piece for
//!   its owner and one more a chick for promotion.
//!
//! Every index stands for a position: *play* has 75 · 11,878,227 =
//! 890,867,025 indices, *over* 24 · 11,878,227 + 12 · 22,897,011 =
//! 559,841,580, the whole game 1,450,708,605.

use game_core::{Indexed, Tier, Tiered};

use super::piece::{CHICK, ELEPHANT, EMPTY, FAR, GIRAFFE, HEN, KIND, LION, MY_HOME, THEIRS};
use super::{Dobutsu, DobutsuPosition};

/// The tier of positions that are over.
pub(crate) const OVER: Tier = 0;
/// The tier of positions in play.
pub(crate) const PLAY: Tier = 1;

/// (mover, opponent) hand counts of one kind, in signature order.
const HAND_STATES: [(u8, u8); 6] = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)];

/// `STATE_OF[mine][theirs]`: the index in [`HAND_STATES`].
const STATE_OF: [[u8; 3]; 3] = [[0, 1, 2], [3, 4, 6], [5, 6, 6]];

/// C(n, k) for n ≤ 12, k ≤ 2.
#[inline]
const fn c(n: u64, k: u32) -> u64 {
    match k {
        0 => 1,
        1 => n,
        _ => n * n.saturating_sub(1) / 2,
    }
}

/// Arrangements of a signature's board pieces on `n` free squares.
fn arrangements(n: u64, on_board: [u32; 3]) -> u64 {
    let [g, e, ch] = on_board;
    let (g64, e64) = (u64::from(g), u64::from(e));
    (c(n, g) * c(n - g64, e) * c(n - g64 - e64, ch)) << (g + e + 2 * ch)
}

/// Pieces of each kind on the board for signature `sig`.
fn on_board(sig: usize) -> [u32; 3] {
    [sig / 36, sig / 6 % 6, sig % 6].map(|h| {
        let (a, b) = HAND_STATES[h];
        2 - u32::from(a) - u32::from(b)
    })
}

/// The colex rank of a set of at most two coordinates.
#[inline]
fn colex(mask: u16) -> u64 {
    match mask.count_ones() {
        0 => 0,
        1 => u64::from(mask.trailing_zeros()),
        _ => {
            let y = 15 - mask.leading_zeros();
            u64::from(mask.trailing_zeros()) + c(u64::from(y), 2)
        }
    }
}

/// The set of `k ≤ 2` coordinates with colex rank `r`.
#[inline]
fn uncolex(r: u64, k: u32) -> u16 {
    match k {
        0 => 0,
        1 => 1 << r,
        _ => {
            let mut y = 1;
            while c(y + 1, 2) <= r {
                y += 1;
            }
            (1 << (r - c(y, 2))) | (1 << y)
        }
    }
}

/// `mask`'s squares numbered among the squares outside `taken`.
#[inline]
fn compress(mut mask: u16, taken: u16) -> u16 {
    let mut out = 0;
    while mask != 0 {
        let s = mask.trailing_zeros();
        out |= 1 << (s - (taken & ((1 << s) - 1)).count_ones());
        mask &= mask - 1;
    }
    out
}

/// The squares outside `taken` numbered `mask`.
#[inline]
fn expand(mut mask: u16, taken: u16) -> u16 {
    let mut out = 0;
    let mut free = !taken & 0xfff;
    while mask != 0 {
        if mask & 1 != 0 {
            out |= 1 << free.trailing_zeros();
        }
        mask >>= 1;
        free &= free - 1;
    }
    out
}

/// The index tables: a few kilobytes.
#[derive(Debug, Clone)]
pub(crate) struct Tables {
    /// `lion_class[m][o]` (m = 12 when the mover has no lion): the tier and
    /// the class number in it, or `u16::MAX` when not indexed.
    lion_class: [[(u8, u16); 12]; 13],
    /// Per tier, the (mover, opponent) lion squares of each class (mover
    /// 12 = none).
    classes: [Vec<(u8, u8)>; 2],
    /// Per tier, the first index of each class, then the tier size.
    base: [Vec<u64>; 2],
    /// For 10 and 11 free squares: the first arrangement number of each
    /// hand signature, then the total.
    sig_offset: [[u64; 217]; 2],
}

impl Tables {
    pub(crate) fn new() -> Self {
        let mut sig_offset = [[0u64; 217]; 2];
        for (k, offsets) in sig_offset.iter_mut().enumerate() {
            for sig in 0..216 {
                offsets[sig + 1] = offsets[sig] + arrangements(10 + k as u64, on_board(sig));
            }
        }
        let mut classes: [Vec<(u8, u8)>; 2] = [Vec::new(), Vec::new()];
        for m in 0..12u8 {
            if FAR & (1 << m) != 0 {
                continue;
            }
            for o in (0..12u8).filter(|&o| o != m) {
                let tier = if MY_HOME & (1 << o) != 0 { OVER } else { PLAY };
                classes[tier as usize].push((m, o));
            }
        }
        classes[OVER as usize].extend((0..12).map(|o| (12, o)));
        let mut lion_class = [[(0u8, u16::MAX); 12]; 13];
        let mut base: [Vec<u64>; 2] = [vec![0], vec![0]];
        for (tier, list) in classes.iter().enumerate() {
            for (k, &(m, o)) in list.iter().enumerate() {
                lion_class[usize::from(m)][usize::from(o)] = (tier as u8, k as u16);
                let free = if m == 12 { 1 } else { 0 };
                let last = *base[tier].last().unwrap_or(&0);
                base[tier].push(last + sig_offset[free][216]);
            }
        }
        Tables {
            lion_class,
            classes,
            base,
            sig_offset,
        }
    }
}

impl Dobutsu {
    /// The tier of `pos` and its index inside the tier, from one pass over
    /// the board (lions, the squares of each kind and the owner bits
    /// together: this is the hot path of every solve, walk and check).
    #[inline]
    pub(crate) fn locate(&self, pos: &DobutsuPosition) -> (Tier, u64) {
        // Per kind (a hen counted as a chick): its squares, its pieces
        // seen so far and their owner (and, for chicks, promotion) bits.
        let mut mask = [0u16; 8];
        let mut seen = [0u32; 8];
        let mut bits = [0u64; 8];
        let (mut my_lion, mut their_lion) = (0u16, 0u16);
        for (s, &cell) in pos.board.iter().enumerate() {
            let kind = cell & KIND;
            let hen = kind == HEN;
            let k = usize::from(if hen { CHICK } else { kind });
            let theirs = u64::from(cell & THEIRS != 0);
            let width = if hen || kind == CHICK { 2 } else { 1 };
            bits[k] |= (theirs | u64::from(hen) << 1) << (seen[k] * width);
            seen[k] += 1;
            mask[k] |= 1 << s;
            my_lion |= u16::from(cell == LION) << s;
            their_lion |= u16::from(cell == LION | THEIRS) << s;
        }
        let m = if my_lion == 0 {
            12
        } else {
            my_lion.trailing_zeros() as usize
        };
        let o = if their_lion == 0 {
            0
        } else {
            their_lion.trailing_zeros() as usize
        };
        let (tier, class) = self.index.lion_class[m][o];
        // The mover's lion on rank 1 only follows a move played where the
        // game was over; such positions have no index (the class is
        // u16::MAX) and are given class 0 of their tier rather than a panic.
        let class = if class == u16::MAX {
            0
        } else {
            usize::from(class)
        };
        let taken = (1u16 << o) | if m < 12 { 1 << m } else { 0 };
        let (g, e, ch) = (
            mask[usize::from(GIRAFFE)],
            mask[usize::from(ELEPHANT)],
            mask[usize::from(CHICK)],
        );
        let state = |slot: usize| {
            usize::from(STATE_OF[usize::from(pos.hands[0][slot])][usize::from(pos.hands[1][slot])])
        };
        let sig = state(0) * 36 + state(1) * 6 + state(2);
        let (ng, ne, nc) = (g.count_ones(), e.count_ones(), ch.count_ones());
        let rg = colex(compress(g, taken));
        let t1 = taken | g;
        let re = colex(compress(e, t1));
        let t2 = t1 | e;
        let rc = colex(compress(ch, t2));
        let n = u64::from(12 - taken.count_ones());
        let combo = (rg * c(n - u64::from(ng), ne) + re) * c(n - u64::from(ng + ne), nc) + rc;
        // Owner bits: giraffes, elephants, then (owner, hen) for chicks,
        // each kind by ascending square.
        let colour = bits[usize::from(GIRAFFE)]
            | bits[usize::from(ELEPHANT)] << ng
            | bits[usize::from(CHICK)] << (ng + ne);
        let rest =
            self.index.sig_offset[n as usize - 10][sig] + (combo << (ng + ne + 2 * nc)) + colour;
        let tier = Tier::from(tier);
        (tier, self.index.base[tier as usize][class] + rest)
    }

    /// The position with the lions on `taken` (mover's `m`, 12 for none;
    /// opponent's `o`) and arrangement number `rest`.
    fn rest_position(&self, m: u8, o: u8, taken: u16, rest: u64) -> DobutsuPosition {
        let n = 12 - taken.count_ones();
        let offsets = &self.index.sig_offset[n as usize - 10];
        let sig = offsets.partition_point(|&x| x <= rest) - 1;
        let [ng, ne, nc] = on_board(sig);
        let rank = rest - offsets[sig];
        let bits = ng + ne + 2 * nc;
        let mut colour = rank & ((1 << bits) - 1);
        let mut combo = rank >> bits;
        let n = u64::from(n);
        let cc = c(n - u64::from(ng + ne), nc);
        let rc = combo % cc;
        combo /= cc;
        let ce = c(n - u64::from(ng), ne);
        let (rg, re) = (combo / ce, combo % ce);
        let g = expand(uncolex(rg, ng), taken);
        let t1 = taken | g;
        let e = expand(uncolex(re, ne), t1);
        let ch = expand(uncolex(rc, nc), t1 | e);
        let mut board = [EMPTY; 12];
        if m < 12 {
            board[usize::from(m)] = LION;
        }
        board[usize::from(o)] = LION | THEIRS;
        for (mask, code) in [(g, GIRAFFE), (e, ELEPHANT)] {
            let mut mm = mask;
            while mm != 0 {
                let s = mm.trailing_zeros() as usize;
                board[s] = code | if colour & 1 != 0 { THEIRS } else { 0 };
                colour >>= 1;
                mm &= mm - 1;
            }
        }
        let mut mm = ch;
        while mm != 0 {
            let s = mm.trailing_zeros() as usize;
            let kind = if colour & 2 != 0 { HEN } else { CHICK };
            board[s] = kind | if colour & 1 != 0 { THEIRS } else { 0 };
            colour >>= 2;
            mm &= mm - 1;
        }
        let hand = |shift: usize| HAND_STATES[sig / shift % 6];
        let (hg, he, hc) = (hand(36), hand(6), hand(1));
        DobutsuPosition {
            board,
            hands: [[hg.0, he.0, hc.0], [hg.1, he.1, hc.1]],
        }
    }

    /// The tier of `pos`, from where the lions stand.
    #[inline]
    fn tier_of(&self, pos: &DobutsuPosition) -> Tier {
        let (mut m, mut o) = (12usize, 0usize);
        for (s, &cell) in pos.board.iter().enumerate() {
            if cell == LION {
                m = s;
            } else if cell == LION | THEIRS {
                o = s;
            }
        }
        Tier::from(self.index.lion_class[m][o].0)
    }
}

impl Tiered for Dobutsu {
    /// `[0, 1]`: *over*, then *play*.
    fn tiers(&self) -> Vec<Tier> {
        vec![OVER, PLAY]
    }

    fn tier(&self, pos: &DobutsuPosition) -> Tier {
        self.tier_of(pos)
    }

    fn child_tiers(&self, tier: Tier, out: &mut Vec<Tier>) {
        if tier == PLAY {
            out.push(OVER);
        }
    }

    fn tier_size(&self, tier: Tier) -> u64 {
        match self.index.base.get(tier as usize) {
            Some(b) => *b.last().unwrap_or(&0),
            None => 0,
        }
    }

    fn tier_index(&self, pos: &DobutsuPosition) -> u64 {
        self.locate(pos).1
    }

    fn tier_position(&self, tier: Tier, index: u64) -> Option<DobutsuPosition> {
        let base = self.index.base.get(tier as usize)?;
        if index >= *base.last()? {
            return None;
        }
        let class = base.partition_point(|&b| b <= index) - 1;
        let (m, o) = self.index.classes[tier as usize][class];
        let taken = (1u16 << o) | if m < 12 { 1 << m } else { 0 };
        Some(self.rest_position(m, o, taken, index - base[class]))
    }

    /// The *over* tier has no moves at all.
    fn leaves_tier(&self, tier: Tier) -> bool {
        tier == OVER
    }

    fn tier_name(&self, tier: Tier) -> String {
        match tier {
            OVER => "over".into(),
            PLAY => "play".into(),
            t => t.to_string(),
        }
    }
}

impl Indexed for Dobutsu {
    /// 1,450,708,605: the *over* tier, then the *play* tier.
    fn size(&self) -> u64 {
        self.tier_size(OVER) + self.tier_size(PLAY)
    }

    fn index(&self, pos: &DobutsuPosition) -> u64 {
        let (tier, i) = self.locate(pos);
        let offset = if tier == PLAY {
            self.tier_size(OVER)
        } else {
            0
        };
        offset + i
    }

    fn position(&self, index: u64) -> Option<DobutsuPosition> {
        let over = self.tier_size(OVER);
        if index < over {
            self.tier_position(OVER, index)
        } else {
            self.tier_position(PLAY, index - over)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_and_compress_round_trip() {
        for k in 0..=2u32 {
            for r in 0..c(12, k) {
                let m = uncolex(r, k);
                assert_eq!(m.count_ones(), k);
                assert!(m < 1 << 12);
                assert_eq!(colex(m), r);
            }
        }
        let taken = 0b1000_0100_0010;
        for m in 0..1u16 << 9 {
            assert_eq!(compress(expand(m, taken), taken), m);
        }
        for (a, b) in HAND_STATES {
            assert_eq!(
                HAND_STATES[usize::from(STATE_OF[usize::from(a)][usize::from(b)])],
                (a, b)
            );
        }
    }

    #[test]
    fn class_and_signature_counts() {
        let t = Tables::new();
        assert_eq!(t.classes[PLAY as usize].len(), 75);
        assert_eq!(t.classes[OVER as usize].len(), 36);
        // The counts of a Python re-derivation; that each index stands for
        // exactly one position is checked in the game's tests.
        assert_eq!(t.sig_offset[0][216], 11_878_227);
        assert_eq!(t.sig_offset[1][216], 22_897_011);
    }
}
