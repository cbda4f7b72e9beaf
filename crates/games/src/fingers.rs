//! Magic Fingers (chopsticks), Ruby Quiz #120, with rule variants.
//!
//! Each player has two hands showing 1..F−1 fingers, or 0 for a dead hand.
//! Both start with one finger on each hand. A turn is either
//!
//! * a **touch**: one of your live hands onto a live hand of the opponent,
//!   which gains your count (and dies at F or more — or, with rollover,
//!   keeps the count mod F); or
//! * a **transfer**: move k ≥ 1 fingers from one of your hands to the
//!   other, subject to the [`FingersRules`] switches.
//!
//! A player whose two hands are dead has lost. A player's hands are
//! interchangeable, so positions are kept in canonical form (each pair of
//! hands ascending).

use std::fmt;

use game_core::{
    child_indices_by_moves, ChildCount, ChildIndices, Game, Indexed, IndexedChildren,
    IndexedUnmoves, Outcome, ParentIndices, ParentVisitor, Run, Symmetric, Tier, Tiered,
    TieredSymmetric, Unmoves,
};

use crate::Error;

/// The rules of a Magic Fingers game. The default is what the Ruby Quiz
/// thread settled on: 5 fingers a hand, cutoff, transfers allowed onto a
/// dead hand (revive) and off all fingers of a hand (empty), no pure swap,
/// no transfer that lifts the target to F or more.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FingersRules {
    /// F: a hand dies on reaching F fingers (2..=255).
    pub fingers: u8,
    /// A hand reaching F or more keeps the count mod F instead of dying
    /// (it dies only at exactly a multiple of F).
    pub rollover: bool,
    /// Transfers between one's own hands are allowed at all.
    pub transfers: bool,
    /// A transfer onto a dead hand (reviving it) is allowed.
    pub revive: bool,
    /// A transfer of all the fingers off a hand is allowed.
    pub empty: bool,
    /// A transfer that merely swaps the hands, such as (3,1) → (1,3), counts
    /// as a move.
    pub allow_swap: bool,
    /// A transfer that lifts the target to F or more is allowed (it kills
    /// the target under cutoff, wraps it under rollover).
    pub allow_transfer_overflow: bool,
}

impl Default for FingersRules {
    fn default() -> Self {
        FingersRules {
            fingers: 5,
            rollover: false,
            transfers: true,
            revive: true,
            empty: true,
            allow_swap: false,
            allow_transfer_overflow: false,
        }
    }
}

impl FingersRules {
    /// The rules of `fingers` a hand with the six switches set from the
    /// low bits of `bits`, in the order of the fields: bit 0
    /// [`rollover`](Self::rollover), 1 `transfers`, 2 `revive`, 3 `empty`,
    /// 4 `allow_swap`, 5 `allow_transfer_overflow` (higher bits are
    /// ignored): `0..64` is every set of rules of one F.
    ///
    /// ```
    /// use games::fingers::FingersRules;
    /// let default = FingersRules::default();
    /// assert_eq!(FingersRules::from_switches(5, 0b1110), default);
    /// ```
    #[must_use]
    pub fn from_switches(fingers: u8, bits: u32) -> Self {
        let on = |b: u32| bits & (1 << b) != 0;
        FingersRules {
            fingers,
            rollover: on(0),
            transfers: on(1),
            revive: on(2),
            empty: on(3),
            allow_swap: on(4),
            allow_transfer_overflow: on(5),
        }
    }

    fn is_default_shape(&self) -> bool {
        FingersRules {
            fingers: self.fingers,
            ..FingersRules::default()
        } == *self
    }
}

/// A position: the hands of the player to move and of the opponent, each
/// pair ascending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FingersPosition {
    /// The player to move's hands, ascending.
    pub me: [u8; 2],
    /// The opponent's hands, ascending.
    pub opp: [u8; 2],
}

fn canon(a: u8, b: u8) -> [u8; 2] {
    if a <= b {
        [a, b]
    } else {
        [b, a]
    }
}

impl FingersPosition {
    /// The start: one finger on every hand.
    pub const START: FingersPosition = FingersPosition {
        me: [1, 1],
        opp: [1, 1],
    };

    /// A position from hands in any order (canonicalised).
    #[must_use]
    pub fn new(me: [u8; 2], opp: [u8; 2]) -> Self {
        FingersPosition {
            me: canon(me[0], me[1]),
            opp: canon(opp[0], opp[1]),
        }
    }
}

impl fmt::Display for FingersPosition {
    /// `me 1,3 | opponent 2,2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{},{} | {},{}",
            self.me[0], self.me[1], self.opp[0], self.opp[1]
        )
    }
}

/// A move, named as in the thread's tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FingersMove {
    /// Touch my hand showing `from` fingers onto the opponent's hand showing
    /// `to`: written `{from}T{to}`.
    Touch {
        /// Fingers on my touching hand.
        from: u8,
        /// Fingers on the opponent's touched hand.
        to: u8,
    },
    /// Transfer fingers so that my hands end up as `hands` (ascending):
    /// written `C{a}{b}` (`C{a},{b}` once a hand reaches 10).
    Transfer {
        /// My hands after the transfer, ascending.
        hands: [u8; 2],
    },
}

impl FingersMove {
    /// The move in words, for the player making it.
    #[must_use]
    pub fn describe(&self) -> String {
        match self {
            FingersMove::Touch { from, to } => {
                format!("touches a hand of {from} onto the opponent's hand of {to}")
            }
            FingersMove::Transfer { hands: [a, b] } => {
                format!("claps, moving fingers so the hands show {a} and {b}")
            }
        }
    }
}

impl fmt::Display for FingersMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FingersMove::Touch { from, to } => write!(f, "{from}T{to}"),
            FingersMove::Transfer { hands: [a, b] } if *b < 10 => write!(f, "C{a}{b}"),
            FingersMove::Transfer { hands: [a, b] } => write!(f, "C{a},{b}"),
        }
    }
}

/// Magic Fingers under a set of [`FingersRules`].
///
/// It is [`Indexed`] over every pair of canonical hand pairs
/// ((F(F+1)/2)² indices; the one with both players dead is no position),
/// ordered so that hand pairs with the same number of fingers are
/// contiguous — a position's transfer predecessors then form a run of
/// indices — and implements [`Unmoves`] with a closed-form child count
/// under the default rules, so `solver-retro` solves it without a stored
/// graph.
///
/// ```
/// use games::{Fingers, FingersRules, FingersPosition};
/// use game_core::Game;
/// let g = Fingers::new(FingersRules::default())?;
/// let mut moves = Vec::new();
/// g.moves(&FingersPosition::START, &mut moves);
/// let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
/// assert_eq!(names, ["1T1", "C02"]);
/// # Ok::<(), games::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Fingers {
    rules: FingersRules,
    f: u8,
    /// Canonical hand pairs, by finger sum then smaller hand.
    pairs: Vec<[u8; 2]>,
    /// `pair_index[a * F + b]`: index of the pair {a, b}.
    pair_index: Vec<u16>,
    /// `sum_start[s]`: the first pair with s fingers in all.
    sum_start: Vec<u32>,
    default_shape: bool,
    /// `u64::MAX / pairs + 1`: exact division of indices below 2³² by the
    /// number of pairs with one multiplication (Lemire's method).
    magic: u64,
    /// `counts_with[n][p]`, for a mover with hands `p` facing `n` distinct
    /// live hands: its distinct transfers plus `n` times its distinct live
    /// counts (the children before touches merge). At most 2 · 254 + 4, so
    /// 16 bits: the bulk counts run eight to a 128-bit register.
    counts_with: [Vec<u16>; 3],
    /// Per hand pair: the smaller live count when there are two, else 0
    /// (signed: the bulk count compares it in SIMD lanes that compare
    /// signed numbers alone).
    low_live: Vec<i16>,
}

impl Fingers {
    /// The game under `rules`.
    ///
    /// # Errors
    /// [`Error::Core`] with invalid rules if `rules.fingers < 2`.
    pub fn new(rules: FingersRules) -> Result<Self, Error> {
        let f = rules.fingers;
        if f < 2 {
            return Err(game_core::Error::InvalidRules(format!(
                "a hand needs room for at least 1 finger: fingers per hand must be 2..=255, not {f}"
            ))
            .into());
        }
        let mut pairs: Vec<[u8; 2]> = Vec::new();
        let mut sum_start = Vec::new();
        for s in 0..=2 * (u32::from(f) - 1) {
            sum_start.push(pairs.len() as u32);
            for a in 0..f {
                let b = s as i64 - i64::from(a);
                if b >= i64::from(a) && b < i64::from(f) {
                    pairs.push([a, b as u8]);
                }
            }
        }
        sum_start.push(pairs.len() as u32);
        let fu = usize::from(f);
        let mut pair_index = vec![0u16; fu * fu];
        for (i, &[a, b]) in pairs.iter().enumerate() {
            pair_index[usize::from(a) * fu + usize::from(b)] = i as u16;
            pair_index[usize::from(b) * fu + usize::from(a)] = i as u16;
        }
        Ok(Fingers {
            rules,
            f,
            pair_index,
            sum_start,
            default_shape: rules.is_default_shape(),
            magic: u64::MAX / pairs.len() as u64 + 1,
            counts_with: Default::default(),
            low_live: pairs
                .iter()
                .map(|&h| match Self::live(h) {
                    (v, 2) => i16::from(v[0].min(v[1])),
                    _ => 0,
                })
                .collect(),
            pairs,
        }
        .with_transfer_counts())
    }

    fn with_transfer_counts(mut self) -> Self {
        let counts: Vec<(u32, u32)> = self
            .pairs
            .iter()
            .map(|&h| {
                let mut n = 0;
                self.for_each_transfer(h, |_| n += 1);
                (n, Self::live(h).1 as u32)
            })
            .collect();
        for (n, with) in self.counts_with.iter_mut().enumerate() {
            // At most 2 · 254 transfers and 2 live counts: 16 bits.
            *with = counts
                .iter()
                .map(|&(t, v)| (t + n as u32 * v) as u16)
                .collect();
        }
        self
    }

    /// The rules in force.
    #[must_use]
    pub fn rules(&self) -> &FingersRules {
        &self.rules
    }

    /// Why no hand shows F or more fingers under these rules, in words
    /// for a refusal: such a hand is dead (shown as 0), or under rollover
    /// keeps its count mod F — not dead, but never F or more either.
    #[must_use]
    pub fn hand_limit(&self) -> String {
        if self.rules.rollover {
            format!(
                "under rollover a hand keeps its count mod {} (0 to {})",
                self.f,
                self.f - 1
            )
        } else {
            format!("a hand with {} or more is dead (shown as 0)", self.f)
        }
    }

    /// Checks and canonicalises a position given as two pairs of hands.
    ///
    /// # Errors
    /// [`Error::Core`] with an invalid position if a hand shows F or more
    /// fingers, or if both players' hands are all dead (no game reaches
    /// that).
    pub fn position_from(&self, me: [u8; 2], opp: [u8; 2]) -> Result<FingersPosition, Error> {
        for (who, hands) in [("your", me), ("the opponent's", opp)] {
            if let Some(&h) = hands.iter().find(|&&h| h >= self.f) {
                return Err(game_core::Error::InvalidPosition(format!(
                    "{who} hand shows {h} fingers, but {}",
                    self.hand_limit()
                ))
                .into());
            }
        }
        if me == [0, 0] && opp == [0, 0] {
            return Err(game_core::Error::InvalidPosition(
                "both players have lost both hands, which no game reaches".into(),
            )
            .into());
        }
        Ok(FingersPosition::new(me, opp))
    }

    /// One player's hands drawn as in the thread: the left hand's fingers
    /// as bars at its right end, the right hand's at its left end, dashes
    /// for the fingers down: `----| |||--` is 1 and 3 with F = 5.
    #[must_use]
    pub fn picture(&self, hands: [u8; 2]) -> String {
        let f = usize::from(self.f);
        let (l, r) = (usize::from(hands[0]), usize::from(hands[1]));
        format!(
            "{}{} {}{}",
            "-".repeat(f.saturating_sub(l)),
            "|".repeat(l),
            "|".repeat(r),
            "-".repeat(f.saturating_sub(r))
        )
    }

    /// A pair of hands as a table label: `13` (or `1,13` once F > 10).
    #[must_use]
    pub fn label(&self, hands: [u8; 2]) -> String {
        if self.f <= 10 {
            format!("{}{}", hands[0], hands[1])
        } else {
            format!("{},{}", hands[0], hands[1])
        }
    }

    /// Every canonical pair of hands with a live hand, in table order
    /// (`01, 02, …, 11, 12, …`).
    #[must_use]
    pub fn live_hands(&self) -> Vec<[u8; 2]> {
        let mut v: Vec<[u8; 2]> = self
            .pairs
            .iter()
            .copied()
            .filter(|&h| h != [0, 0])
            .collect();
        v.sort_unstable();
        v
    }

    #[inline]
    fn pair(&self, a: u8, b: u8) -> u64 {
        u64::from(self.pair_index[usize::from(a) * usize::from(self.f) + usize::from(b)])
    }

    #[inline]
    fn touch(&self, target: u8, by: u8) -> u8 {
        let s = u16::from(target) + u16::from(by);
        let f = u16::from(self.f);
        if s < f {
            s as u8
        } else if self.rules.rollover {
            (s - f) as u8
        } else {
            0
        }
    }

    /// Calls `f` with each transfer result (my hands after it, ascending),
    /// each distinct result once.
    fn for_each_transfer(&self, me: [u8; 2], mut f: impl FnMut([u8; 2])) {
        if !self.rules.transfers {
            return;
        }
        let r = &self.rules;
        let fu = u16::from(self.f);
        // Collect, then sort and drop repeats: two sources, or two amounts
        // with overflow, can give the same result.
        let mut found: [[u8; 2]; 512] = [[0; 2]; 512];
        let mut n = 0usize;
        let sources: &[usize] = if me[0] == me[1] { &[0] } else { &[0, 1] };
        for &s in sources {
            let (c, d) = (me[s], me[1 - s]);
            if c == 0 || (d == 0 && !r.revive) {
                continue;
            }
            for k in 1..=c {
                if k == c && !r.empty {
                    continue;
                }
                let mut nd = u16::from(d) + u16::from(k);
                if nd >= fu {
                    if !r.allow_transfer_overflow {
                        break;
                    }
                    nd = if r.rollover { nd - fu } else { 0 };
                }
                let res = canon(c - k, nd as u8);
                if res == me && !r.allow_swap {
                    continue;
                }
                found[n] = res;
                n += 1;
            }
        }
        let found = &mut found[..n];
        found.sort_unstable();
        let mut last = None;
        for &res in found.iter() {
            if last != Some(res) {
                f(res);
                last = Some(res);
            }
        }
    }

    /// Distinct live finger counts of a pair of hands.
    fn live(h: [u8; 2]) -> ([u8; 2], usize) {
        match (h[0] > 0, h[1] > 0 && h[1] != h[0]) {
            (true, true) => (h, 2),
            (true, false) => ([h[0], 0], 1),
            (false, _) if h[1] > 0 => ([h[1], 0], 1),
            _ => ([0, 0], 0),
        }
    }
}

impl Game for Fingers {
    type Position = FingersPosition;
    type Move = FingersMove;

    fn moves(&self, pos: &FingersPosition, out: &mut Vec<FingersMove>) {
        let (mine, nm) = Self::live(pos.me);
        let (theirs, nt) = Self::live(pos.opp);
        for &from in &mine[..nm] {
            for &to in &theirs[..nt] {
                out.push(FingersMove::Touch { from, to });
            }
        }
        self.for_each_transfer(pos.me, |hands| out.push(FingersMove::Transfer { hands }));
    }

    fn play(&self, pos: &FingersPosition, mv: &FingersMove) -> FingersPosition {
        match *mv {
            FingersMove::Touch { from, to } => {
                let j = usize::from(pos.opp[0] != to);
                let mut opp = pos.opp;
                opp[j] = self.touch(to, from);
                FingersPosition {
                    me: canon(opp[0], opp[1]),
                    opp: pos.me,
                }
            }
            FingersMove::Transfer { hands } => FingersPosition {
                me: pos.opp,
                opp: hands,
            },
        }
    }

    fn outcome(&self, pos: &FingersPosition) -> Option<Outcome> {
        if pos.me == [0, 0] {
            Some(Outcome::Lose)
        } else if pos.opp == [0, 0] {
            Some(Outcome::Win)
        } else {
            None
        }
    }
}

impl Indexed for Fingers {
    fn size(&self) -> u64 {
        let h = self.pairs.len() as u64;
        h * h
    }

    #[inline]
    fn index(&self, pos: &FingersPosition) -> u64 {
        // A hand of F or more is no hand of this game: outside 0..size
        // (solvers report it), where the pair table has no entry.
        if !self.holds(pos) {
            return u64::MAX;
        }
        let h = self.pairs.len() as u64;
        self.pair(pos.opp[0], pos.opp[1]) * h + self.pair(pos.me[0], pos.me[1])
    }

    #[inline]
    fn position(&self, index: u64) -> Option<FingersPosition> {
        let h = self.pairs.len() as u64;
        if index >= h * h {
            return None;
        }
        // index < h² < 2³², so the multiply-shift quotient is exact.
        let q = ((u128::from(index) * u128::from(self.magic)) >> 64) as u64;
        let opp = self.pairs[q as usize];
        let me = self.pairs[(index - q * h) as usize];
        (me != [0, 0] || opp != [0, 0]).then_some(FingersPosition { me, opp })
    }
}

impl Fingers {
    /// Calls `f` with the opponent's hands before a touch that led to
    /// `child` (the mover's hands were `child.opp` and stay so), each
    /// distinct pair once.
    #[inline]
    fn touch_parents(&self, child: &FingersPosition, mut f: impl FnMut([u8; 2])) {
        let (values, nv) = Self::live(child.opp);
        let fingers = self.f;
        let slots: &[usize] = if child.me[0] == child.me[1] {
            &[0]
        } else {
            &[0, 1]
        };
        for &j in slots {
            let (x, other) = (child.me[j], child.me[1 - j]);
            if x == 0 && !self.rules.rollover {
                // Any live y with y + v >= F: y from F − max(v) up.
                let vmax = values[..nv].iter().copied().max().unwrap_or(0);
                if vmax > 0 {
                    for y in (fingers - vmax).max(1)..fingers {
                        f(canon(y, other));
                    }
                }
                continue;
            }
            for &v in &values[..nv] {
                let y = if self.rules.rollover {
                    (u16::from(x) + u16::from(fingers) - u16::from(v)) % u16::from(fingers)
                } else {
                    u16::from(x).wrapping_sub(u16::from(v))
                };
                if y >= 1 && y < u16::from(fingers) {
                    f(canon(y as u8, other));
                }
            }
        }
    }

    /// Under the default rules, the pair indices of the mover's hands
    /// before a transfer that ended with `hands`: every other split of the
    /// same number of fingers — a contiguous run, thanks to the index order.
    #[inline]
    fn transfer_parent_run(&self, hands: [u8; 2]) -> std::ops::Range<u32> {
        let s = usize::from(hands[0]) + usize::from(hands[1]);
        self.sum_start[s]..self.sum_start[s + 1]
    }
}

impl Unmoves for Fingers {
    /// No parent for a position with a hand of F or more
    /// ([`FingersPosition::new`] builds one unchecked): no move of the
    /// game makes such a hand.
    fn unmoves(&self, child: &FingersPosition, out: &mut Vec<FingersPosition>) {
        if !self.holds(child) {
            return;
        }
        // Touch: the mover's hands were `child.opp`, the opponent's were
        // `child.me` with one hand before the touch.
        self.touch_parents(child, |opp| {
            out.push(FingersPosition { me: child.opp, opp });
        });
        // Transfer: the opponent's hands were `child.me`; the mover's
        // became `child.opp`.
        if !self.rules.transfers || child.me == [0, 0] {
            return;
        }
        if self.default_shape {
            for i in self.transfer_parent_run(child.opp) {
                let hands = self.pairs[i as usize];
                if hands != child.opp {
                    out.push(FingersPosition {
                        me: hands,
                        opp: child.me,
                    });
                }
            }
            return;
        }
        let start = out.len();
        let r = &self.rules;
        let fu = u16::from(self.f);
        let [p0, q0] = child.opp;
        let assignments: &[(u8, u8)] = if p0 == q0 {
            &[(p0, q0)]
        } else {
            &[(p0, q0), (q0, p0)]
        };
        for &(p, q) in assignments {
            // Source ended with p, target with q; k fingers moved.
            let (p, q) = (u16::from(p), u16::from(q));
            for k in 1..fu.saturating_sub(p) {
                let c = p + k;
                // Without overflow: d + k = q.
                if k <= q {
                    let d = q - k;
                    if (d > 0 || r.revive) && (p > 0 || r.empty) {
                        push_parent(out, start, canon(c as u8, d as u8), child, r.allow_swap);
                    }
                }
                if r.allow_transfer_overflow && (p > 0 || r.empty) {
                    if r.rollover {
                        // d + k − F = q.
                        if k > q {
                            let d = q + fu - k;
                            push_parent(out, start, canon(c as u8, d as u8), child, r.allow_swap);
                        }
                    } else if q == 0 {
                        for d in fu - k..fu {
                            push_parent(out, start, canon(c as u8, d as u8), child, r.allow_swap);
                        }
                    }
                }
            }
        }
    }

    /// In closed form; a position with a hand of F or more, which the
    /// closed forms do not cover, by its moves.
    #[inline]
    fn child_count(
        &self,
        pos: &FingersPosition,
        moves: &mut Vec<FingersMove>,
        children: &mut Vec<FingersPosition>,
    ) -> usize {
        if !self.holds(pos) {
            return self.child_count_by_moves(pos, moves, children);
        }
        if self.default_shape {
            self.default_child_count(pos)
        } else {
            self.general_child_count(pos)
        }
    }
}

impl Fingers {
    /// Whether every hand of `pos` shows fewer than F fingers: a position
    /// of this game, not one built past it with [`FingersPosition::new`].
    #[inline]
    fn holds(&self, pos: &FingersPosition) -> bool {
        pos.me.iter().chain(&pos.opp).all(|&x| x < self.f)
    }

    /// Distinct children by playing every move, in the caller's buffers.
    #[cold]
    #[inline(never)]
    fn child_count_by_moves(
        &self,
        pos: &FingersPosition,
        moves: &mut Vec<FingersMove>,
        children: &mut Vec<FingersPosition>,
    ) -> usize {
        moves.clear();
        children.clear();
        self.moves(pos, moves);
        children.extend(moves.iter().map(|m| self.play(pos, m)));
        children.sort_unstable();
        children.dedup();
        children.len()
    }

    /// Distinct children under any rules, by enumeration.
    #[cold]
    #[inline(never)]
    fn general_child_count(&self, pos: &FingersPosition) -> usize {
        let (mine, nm) = Self::live(pos.me);
        let (theirs, nt) = Self::live(pos.opp);
        let mut n = 0;
        for &t in &theirs[..nt] {
            n += match nm {
                2 if self.touch(t, mine[0]) == self.touch(t, mine[1]) => 1,
                k => k,
            };
        }
        self.for_each_transfer(pos.me, |_| n += 1);
        n
    }

    /// Distinct children under the default rules, in closed form: touches
    /// from each distinct live hand onto each distinct live target (two
    /// touches that both kill the target give one child), plus every other
    /// split of my fingers between my hands.
    #[inline]
    fn default_child_count(&self, pos: &FingersPosition) -> usize {
        let [a, b] = pos.me;
        let [c, d] = pos.opp;
        let f = u32::from(self.f);
        // Distinct live hands of mine; a <= b, so the smallest live is a if a > 0.
        let nm = u32::from(a > 0) + u32::from(b > 0 && b != a);
        let touches_on = |t: u8| -> u32 {
            if t == 0 {
                0
            } else if nm == 2 && u32::from(t) + u32::from(a) >= f {
                1
            } else {
                nm
            }
        };
        let touches = touches_on(c) + if d != c { touches_on(d) } else { 0 };
        let s = u32::from(a) + u32::from(b);
        let lo = s.saturating_sub(f - 1);
        (touches + s / 2 - lo) as usize
    }
}

impl IndexedChildren for Fingers {
    /// Under the default rules the transfer children are one strided run
    /// of the index less the mover's own split (every other split of the mover's fingers becomes the
    /// new opponent's hands; the new mover's hands, the column, stay), so
    /// no move is generated for them; touches are played and indexed.
    fn child_indices(&self, index: u64, out: &mut ChildIndices, moves: &mut Vec<FingersMove>) {
        if !self.default_shape {
            return child_indices_by_moves(self, index, out, moves);
        }
        let Some(pos) = self.position(index) else {
            return;
        };
        if self.outcome(&pos).is_some() {
            return;
        }
        let h = self.pairs.len() as u64;
        let (mine, nm) = Self::live(pos.me);
        let (theirs, nt) = Self::live(pos.opp);
        let first = out.singles.len();
        for &from in &mine[..nm] {
            for &to in &theirs[..nt] {
                let child = self.play(&pos, &FingersMove::Touch { from, to });
                let k = self.index(&child);
                if !out.singles[first..].contains(&k) {
                    out.singles.push(k);
                }
            }
        }
        // A transfer child is (me: opp, opp: X) for every other pair X with
        // the mover's sum: index X·h + pair(opp), X over a run less pair(me).
        let row = self.pair(pos.opp[0], pos.opp[1]);
        let col = self.pair(pos.me[0], pos.me[1]);
        let s = usize::from(pos.me[0]) + usize::from(pos.me[1]);
        let (lo, hi) = (
            u64::from(self.sum_start[s]),
            u64::from(self.sum_start[s + 1]),
        );
        if hi - lo > 1 {
            out.runs
                .push(Run::strided(lo * h + row, h, hi - lo).except(col * h + row));
        }
    }
}

impl IndexedUnmoves for Fingers {
    /// Every position where a player has two dead hands.
    fn terminal_indices(&self, out: &mut Vec<u64>) -> bool {
        let h = self.pairs.len() as u64;
        let dead = self.pair(0, 0);
        for p in (0..h).filter(|&p| p != dead) {
            out.push(p * h + dead); // the mover is dead
            out.push(dead * h + p); // the opponent is dead
        }
        true
    }

    /// Children counts in closed form, a row of the index at a time
    /// (computed in 16 bits, in either width: they never need more).
    fn child_counts<T: ChildCount>(&self, first: u64, out: &mut [T]) -> bool {
        self.bulk_counts(first, out);
        true
    }

    /// Parents by index without building positions; under the default
    /// rules the transfer parents are a run of consecutive indices (less
    /// the child's own hands).
    fn unmove_indices(
        &self,
        index: u64,
        out: &mut ParentIndices,
        scratch: &mut Vec<FingersPosition>,
    ) {
        self.parent_indices(index, scratch, out);
    }

    fn visit_unmove_indices<V: ParentVisitor>(
        &self,
        index: u64,
        _buf: &mut ParentIndices,
        scratch: &mut Vec<FingersPosition>,
        visit: &mut V,
    ) {
        self.parent_indices(index, scratch, visit);
    }
}

impl Fingers {
    /// Children counts in closed form, a row of the index at a time, into
    /// 16- or 32-bit counts (computed in 16 bits): transfers depend on the
    /// mover's hands alone (a table), touches on the number of distinct
    /// live hands and, under cutoff, on whether both of the mover's values
    /// would kill the target.
    fn bulk_counts<T: ChildCount>(&self, first: u64, out: &mut [T]) {
        let h = self.pairs.len();
        let f = i16::from(self.f);
        let mut i = usize::try_from(first).unwrap_or(usize::MAX);
        let mut k = 0;
        while k < out.len() {
            let (row, col) = (i / h, i % h);
            // Past the last index: no positions, any count will do.
            let Some(&[c, d]) = self.pairs.get(row) else {
                out[k..].iter_mut().for_each(|o| *o = T::from(0));
                break;
            };
            let never = i16::MAX;
            // A target t merges two touches when low + t >= F (cutoff only).
            let merge_at = |t: u8| -> i16 {
                if t == 0 || self.rules.rollover {
                    never
                } else {
                    f - i16::from(t)
                }
            };
            let nt = usize::from(c > 0) + usize::from(d > 0 && d != c);
            let (cc, dd) = (merge_at(c), if d != c { merge_at(d) } else { never });
            let len = (h - col).min(out.len() - k);
            let cols = col..col + len;
            for ((o, &base), &low) in out[k..k + len]
                .iter_mut()
                .zip(&self.counts_with[nt][cols.clone()])
                .zip(&self.low_live[cols])
            {
                *o = T::from(base - u16::from(low >= cc) - u16::from(low >= dd));
            }
            k += len;
            i += len;
        }
    }

    /// The parents of the position at `index`, to `out`: under the
    /// default rules straight from the index ([`Fingers::default_parents`]);
    /// else by `unmoves` into `scratch`.
    #[inline]
    fn parent_indices(
        &self,
        index: u64,
        scratch: &mut Vec<FingersPosition>,
        out: &mut impl ParentVisitor,
    ) {
        if self.default_shape {
            self.default_parents(index, out);
            return;
        }
        let Some(child) = self.position(index) else {
            return;
        };
        scratch.clear();
        self.unmoves(&child, scratch);
        for p in scratch.iter() {
            out.single(self.index(p));
        }
    }

    /// Under the default rules, the parents of the position at `index`
    /// from the index alone: the touches one by one, the transfers as
    /// runs. The same parents as [`Unmoves::unmoves`] with
    /// [`Fingers::touch_parents`] (checked against it in the tests), in
    /// fewer branches: the retrograde solve spends most of its time here.
    ///
    /// `index = pair(opp) * h + pair(me)`. A touch left the mover's hands
    /// (`child.opp`) as they were and raised one of the opponent's
    /// (`child.me`) by a live value of the mover's, or killed it: the
    /// parent is `pair(opponent before) * h + pair(child.opp)`. A transfer
    /// split the mover's fingers another way: the parents are
    /// `pair(child.me) * h + every other pair with child.opp's sum` — a
    /// run, less the child's own hands.
    #[inline]
    fn default_parents(&self, index: u64, out: &mut impl ParentVisitor) {
        let h = self.pairs.len() as u64;
        if index >= h * h {
            return;
        }
        // index < h² < 2³², so the multiply-shift quotient is exact.
        let child_opp = ((u128::from(index) * u128::from(self.magic)) >> 64) as u64;
        let child_me = index - child_opp * h;
        let [y0, y1] = self.pairs[child_opp as usize];
        let [x0, x1] = self.pairs[child_me as usize];
        if x0 | x1 | y0 | y1 == 0 {
            return; // no position
        }
        let f = usize::from(self.f);
        let parent = |w: u8, other: u8| {
            u64::from(self.pair_index[usize::from(w) * f + usize::from(other)]) * h + child_opp
        };
        // The mover's live values, ascending (hands are): y1 is the
        // largest; v1 = 0 when there is one.
        if y1 > 0 {
            let (v0, v1) = if y0 > 0 && y0 != y1 {
                (y0, y1)
            } else {
                (y1, 0)
            };
            // At most four parents from live hands (two values, two
            // hands) and a range of them from a killed hand, sent from
            // two places (sending from each of four places cost a third
            // more: the visitor's call was repeated at each).
            let mut few = [0u64; 4];
            let mut n = 0;
            let mut killed = None;
            let hands: &[(u8, u8)] = if x0 == x1 {
                &[(x0, x1)]
            } else {
                &[(x0, x1), (x1, x0)]
            };
            for &(x, other) in hands {
                if x == 0 {
                    killed = Some(other);
                    continue;
                }
                if x > v0 {
                    few[n] = parent(x - v0, other);
                    n += 1;
                }
                if v1 > 0 && x > v1 {
                    few[n] = parent(x - v1, other);
                    n += 1;
                }
            }
            for &p in &few[..n] {
                out.single(p);
            }
            if let Some(other) = killed {
                // Killed: by any live hand w with w + y1 >= F.
                for w in (self.f - y1).max(1)..self.f {
                    out.single(parent(w, other));
                }
            }
        }
        if x0 | x1 != 0 {
            let base = child_me * h;
            let run = self.transfer_parent_run([y0, y1]);
            let (lo, hi) = (base + u64::from(run.start), base + u64::from(run.end));
            let own = base + child_opp;
            out.run(Run::range(lo..hi).except(own));
        }
    }
}

fn push_parent(
    out: &mut Vec<FingersPosition>,
    start: usize,
    me: [u8; 2],
    child: &FingersPosition,
    allow_swap: bool,
) {
    if me == child.opp && !allow_swap {
        return;
    }
    let p = FingersPosition { me, opp: child.me };
    if !out[start..].contains(&p) {
        out.push(p);
    }
}

/// One tier, the whole index: what the tier solvers, the database's tier
/// files and the command line's shared commands (`CliGame`) read. Every
/// move stays in the tier (the game is loopy).
impl Tiered for Fingers {
    fn tiers(&self) -> Vec<Tier> {
        vec![0]
    }
    fn tier(&self, _pos: &FingersPosition) -> Tier {
        0
    }
    fn child_tiers(&self, _tier: Tier, _out: &mut Vec<Tier>) {}
    fn tier_size(&self, tier: Tier) -> u64 {
        if tier == 0 {
            self.size()
        } else {
            0
        }
    }
    fn tier_index(&self, pos: &FingersPosition) -> u64 {
        self.index(pos)
    }
    fn tier_position(&self, tier: Tier, index: u64) -> Option<FingersPosition> {
        if tier == 0 {
            self.position(index)
        } else {
            None
        }
    }
}

/// No symmetry beyond the one the index already folds: a player's two
/// hands are kept in order ([`FingersPosition::new`]), so every position
/// is its class's only member.
impl Symmetric for Fingers {
    fn symmetric(&self, pos: &FingersPosition, out: &mut Vec<FingersPosition>) {
        out.push(*pos);
    }
    fn canonical(&self, pos: &FingersPosition) -> FingersPosition {
        *pos
    }
    /// The identity: `Canonical(fingers)` runs Fingers' own index fast
    /// paths.
    fn is_identity(&self) -> bool {
        true
    }
}

/// Every position is canonical: a tier's walk filters none.
impl TieredSymmetric for Fingers {
    fn visit_canonical_tier(
        &self,
        tier: Tier,
        range: std::ops::Range<u64>,
        f: &mut dyn FnMut(u64, FingersPosition),
    ) {
        self.visit_tier(tier, range, f);
    }
}

/// What solving and reading a Magic Fingers game costs, measured, for a
/// budget's check before a command starts: steps of work (the unit of
/// [`game_core::Budget::check_work`], a few nanoseconds each on the
/// 2-core reference machine).
impl Fingers {
    /// Steps solver-retro's `GameCheck` takes a sampled position (11,000
    /// measured at 128 fingers a hand).
    pub const CHECK_STEPS: u64 = 12_000;

    /// Steps a retrograde solve of the whole game takes, about: the solver
    /// without a stored graph takes some 15 ns a position (measured from
    /// F = 64 to 128), and the start's reachable set is walked once more.
    #[must_use]
    pub fn solve_steps(&self) -> u64 {
        self.size().saturating_mul(16)
    }

    /// Steps the walk of the positions reachable from the start takes,
    /// some 16 a position (3.4 s at 128 fingers a hand).
    #[must_use]
    pub fn walk_steps(&self) -> u64 {
        self.size().saturating_mul(16)
    }

    /// Steps the certificate takes, some 20 a position (3.6 s at 128
    /// fingers a hand).
    #[must_use]
    pub fn certify_steps(&self) -> u64 {
        self.size().saturating_mul(20)
    }

    /// Steps reading a solved database's statistics (`analyze`) takes an
    /// index: a position has some F transfers to play and index in the
    /// reachable walk, and past the cache each costs more. Measured (two
    /// threads, at about 3 ns a step): F = 32, 278,784 indices in 0.12 s
    /// (~145 steps an index); F = 64, 4,326,400 in 2.03–2.11 s (~160);
    /// F = 96, 21.9 M in 30.5 s at load 3 (~460). With 20 + 5·F the
    /// budget never passes a run by much.
    #[must_use]
    pub fn analyze_steps_per_index(&self) -> u64 {
        20 + 5 * u64::from(self.f)
    }

    /// Steps a solve and a map of the positions reachable from the start
    /// (`dot`) take: one thread, some 500 steps a position on top of the
    /// solve (30 s at 100 fingers a hand, 25,502,500 positions).
    #[must_use]
    pub fn dot_steps(&self) -> u64 {
        self.solve_steps()
            .saturating_add(self.size().saturating_mul(500))
    }

    /// Steps a solve and a table of `cells` hand pairs against hand pairs
    /// take: each cell made and written at some 600 steps (5.4 s for the
    /// 3,345,241 cells of 60 fingers a hand).
    #[must_use]
    pub fn table_steps(&self, cells: u64) -> u64 {
        self.solve_steps().saturating_add(cells.saturating_mul(600))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> Fingers {
        Fingers::new(FingersRules::default()).unwrap()
    }

    /// The quiz's example game, move by move: five touches, and player 2
    /// has two dead hands.
    #[test]
    fn the_quiz_example_game() {
        let g = game();
        let touches = [(1, 1), (2, 1), (3, 2), (1, 3), (4, 1)];
        let mut pos = FingersPosition::START;
        for (from, to) in touches {
            assert_eq!(g.outcome(&pos), None);
            let mut moves = Vec::new();
            g.moves(&pos, &mut moves);
            let mv = FingersMove::Touch { from, to };
            assert!(moves.contains(&mv), "{mv} legal at {pos}");
            pos = g.play(&pos, &mv);
        }
        // Player 2 is to move with both hands dead: lost.
        assert_eq!(pos.me, [0, 0]);
        assert_eq!(g.outcome(&pos), Some(Outcome::Lose));
    }

    #[test]
    fn thread_rules_for_transfers() {
        let g = game();
        let at = |me, opp| {
            let mut moves = Vec::new();
            g.moves(&FingersPosition::new(me, opp), &mut moves);
            moves
                .into_iter()
                .filter_map(|m| match m {
                    FingersMove::Transfer { hands } => Some(hands),
                    FingersMove::Touch { .. } => None,
                })
                .collect::<Vec<_>>()
        };
        // (1,3): 0,4 (emptying) and 2,2; not the mere swap to (3,1).
        assert_eq!(at([1, 3], [1, 1]), [[0, 4], [2, 2]]);
        // (0,2): reviving the dead hand gives 1,1.
        assert_eq!(at([0, 2], [1, 1]), [[1, 1]]);
        // (3,4): no transfer may lift a hand to 5 or more, none swaps.
        assert_eq!(at([3, 4], [1, 1]), Vec::<[u8; 2]>::new());
        let swaps = Fingers::new(FingersRules {
            allow_swap: true,
            ..FingersRules::default()
        })
        .unwrap();
        let mut moves = Vec::new();
        swaps.moves(&FingersPosition::new([1, 3], [1, 1]), &mut moves);
        assert!(moves.contains(&FingersMove::Transfer { hands: [1, 3] }));
    }

    #[test]
    fn rollover_keeps_the_count_mod_f() {
        let g = Fingers::new(FingersRules {
            rollover: true,
            ..FingersRules::default()
        })
        .unwrap();
        let pos = FingersPosition::new([3, 3], [1, 4]);
        let next = g.play(&pos, &FingersMove::Touch { from: 3, to: 4 });
        // 4 + 3 = 7 -> 2 with five fingers a hand.
        assert_eq!(next.me, [1, 2]);
    }

    /// The analysis estimate is never below what was measured (the steps
    /// an index of the runs its docs record, at 32, 64 and 96 fingers a
    /// hand), nor more than three times it.
    #[test]
    fn the_analysis_estimate_covers_the_measured_runs() {
        for (f, measured) in [(32u8, 145u64), (64, 160), (96, 460)] {
            let g = Fingers::new(FingersRules {
                fingers: f,
                ..FingersRules::default()
            })
            .unwrap();
            let e = g.analyze_steps_per_index();
            assert!(
                e >= measured && e <= 3 * measured,
                "F = {f}: {e} against {measured}"
            );
        }
    }

    /// Each estimate grows with the positions: F = 100's solve is
    /// counted at 16 steps for each of its 25,502,500 positions (the count
    /// its `dot` cost was measured on), and the map on top at 500.
    #[test]
    fn the_estimates_count_every_position() {
        let g = Fingers::new(FingersRules {
            fingers: 100,
            ..FingersRules::default()
        })
        .unwrap();
        assert_eq!(g.size(), 25_502_500);
        assert_eq!(g.solve_steps(), 16 * 25_502_500);
        assert_eq!(g.dot_steps(), 516 * 25_502_500);
        assert_eq!(g.table_steps(10), 16 * 25_502_500 + 6_000);
        assert!(g.certify_steps() > g.walk_steps());
    }
}
