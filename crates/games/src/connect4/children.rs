//! The indices of a position's children, all at once: from the parent's
//! rank terms, each child's index costs O(1) after one O(W + pieces) pass.
//!
//! A child differs from its parent in one column: its height rank takes
//! the parent's terms after that column, the terms with one more piece
//! left before it, and its own term; its colex rank takes the parent's sum
//! below the new piece and, above it, the sum with every place one higher
//! (and every ordinal one higher when the new piece is the first
//! player's). What depends only on the column heights ([`BoardTerms`]) is
//! kept per thread for the last board or two seen: a tier is walked in
//! index order, and thousands of consecutive positions share their
//! heights.

use std::cell::RefCell;

use game_core::Tier;

use super::combinatorics::{binomial, first_player_choices};
use super::{ConnectFour, ConnectFourPosition, MAX_WIDTH};

/// What the indices of a board's children owe to its column heights alone.
#[derive(Clone, Copy)]
struct BoardTerms {
    /// The board these are for: width, height, occupied cells (a width
    /// of 0 matches no board).
    key: (u32, u32, u64),
    /// Per column: the child's height rank minus the parent's, times the
    /// number of colex ranks of the child's tier (mod 2⁶⁴).
    parts: [u64; MAX_WIDTH],
    /// Per column: the number of pieces in it and the columns before.
    tops: [u8; MAX_WIDTH],
    /// The columns that are not full (bit `c`).
    open: u64,
    /// The parent's height rank times the number of colex ranks of the
    /// child's tier (mod 2⁶⁴).
    rest: u64,
    /// Open columns whose child's mirror image has a smaller occupied
    /// bitboard than the child, and those where the two are equal.
    mirror_less: u64,
    mirror_same: u64,
}

impl BoardTerms {
    const NONE: BoardTerms = BoardTerms {
        key: (0, 0, 0),
        parts: [0; MAX_WIDTH],
        tops: [0; MAX_WIDTH],
        open: 0,
        rest: 0,
        mirror_less: 0,
        mirror_same: 0,
    };
}

thread_local! {
    /// The terms of the last two boards seen by this thread: a parent's
    /// and its mirror image's.
    static TERMS: RefCell<[BoardTerms; 2]> = const { RefCell::new([BoardTerms::NONE; 2]) };
}

impl ConnectFour {
    /// The [`BoardTerms`] of the board `occupied` (`n` pieces, `n` below
    /// the number of cells).
    fn board_terms(&self, occupied: u64, n: u32) -> BoardTerms {
        let below = self.heights.raw();
        // The next row (one more piece left) is `next` entries on.
        let next = self.heights.row_at(0, 1);
        let choices = first_player_choices(n + 1);
        let mut terms = BoardTerms {
            key: (self.width, self.height, occupied),
            ..BoardTerms::NONE
        };
        let mirror = self.mirror_bits(occupied);
        let last = self.width - 1;
        let mut place = 0u32;
        // Σ of the child's height terms before column c and of the
        // parent's through column c.
        let (mut child_before, mut parent_through) = (0u64, 0u64);
        for c in 0..self.width {
            let ci = c as usize;
            let h = self.column_of(occupied, c).trailing_ones();
            let at = self.heights.row_at(c, n - place) + h as usize;
            parent_through += below[at];
            // The entry past a full column is read but not used.
            terms.parts[ci] = child_before
                .wrapping_add(below[at + next + 1])
                .wrapping_sub(parent_through)
                .wrapping_mul(choices);
            child_before += below[at + next];
            place += h;
            terms.tops[ci] = place as u8;
            if h < self.height {
                terms.open |= 1 << c;
                let child = occupied | (occupied + self.column_bottom(c));
                let image = mirror | (mirror + self.column_bottom(last - c));
                terms.mirror_less |= u64::from(image < child) << c;
                terms.mirror_same |= u64::from(image == child) << c;
            }
        }
        terms.rest = parent_through.wrapping_mul(choices);
        terms
    }

    /// The terms of the board `occupied` in `slot`, computed there unless
    /// it holds them already.
    #[inline]
    fn terms_in<'a>(&self, slot: &'a mut BoardTerms, occupied: u64, n: u32) -> &'a BoardTerms {
        if slot.key != (self.width, self.height, occupied) {
            *slot = self.board_terms(occupied, n);
        }
        slot
    }

    /// Appends `(name(c), index)` to `out` for the children of the board
    /// with the column terms `terms`, the first player's pieces `first` and
    /// `n` pieces, made by playing the columns `c` in `wanted` (bit `c`,
    /// open columns only), left to right: the colex part of each index.
    #[inline]
    fn push_children<K>(
        &self,
        terms: &BoardTerms,
        first: u64,
        n: u32,
        wanted: u64,
        out: &mut Vec<(K, u64)>,
        name: impl Fn(u32) -> K,
    ) {
        // 1 when the new piece is the first player's.
        let delta = u32::from(n.is_multiple_of(2));
        let from = out.len();
        let (mut place, mut j) = (0u32, 0u32);
        let (mut sum_low, mut sum_high) = (0u64, 0u64);
        for c in 0..self.width {
            let ci = c as usize;
            let col = self.column_of(first, c);
            if let Some(table) = &self.column_sums {
                let (low, m) = table.get(place, j, col);
                sum_low += low;
                sum_high += table.get(place + 1, j + delta, col).0;
                j += m;
            } else {
                let mut col = col;
                while col != 0 {
                    let q = place + col.trailing_zeros();
                    j += 1;
                    sum_low += binomial(q, j);
                    sum_high += binomial(q + 1, j + delta);
                    col &= col - 1;
                }
            }
            place = u32::from(terms.tops[ci]);
            if wanted & (1 << c) != 0 {
                // The colex rank without the whole shifted sum.
                let new = binomial(place, j + 1) & u64::from(delta).wrapping_neg();
                let colex = sum_low.wrapping_sub(sum_high).wrapping_add(new);
                out.push((name(c), terms.parts[ci].wrapping_add(colex)));
            }
        }
        let rest = terms.rest.wrapping_add(sum_high);
        for kid in &mut out[from..] {
            kid.1 = kid.1.wrapping_add(rest);
        }
    }

    /// Appends to `out` the tier and index of every child of `pos`, left to
    /// right: [`game_core::Tiered::child_tier_indices`].
    #[inline]
    pub(super) fn push_tier_child_indices(
        &self,
        pos: &ConnectFourPosition,
        out: &mut Vec<(Tier, u64)>,
    ) {
        let n = pos.pieces();
        if n >= self.cells() {
            return;
        }
        TERMS.with(|cell| {
            let slots = &mut *cell.borrow_mut();
            let terms = self.terms_in(&mut slots[0], pos.occupied, n);
            let tier = Tier::from(n) + 1;
            self.push_children(terms, pos.first_player(), n, terms.open, out, |_| tier);
        });
    }

    /// Appends to `out`, for every move of [`game_core::Game::moves`] at
    /// `pos` (in the same order), the move and the index of the child
    /// position inside its tier (`pos.pieces() + 1`).
    ///
    /// The same numbers as [`game_core::Tiered::tier_index`] of each child,
    /// computed together in O(W + pieces) time rather than that much for
    /// each child, without allocating.
    pub fn child_tier_indices(&self, pos: &ConnectFourPosition, out: &mut Vec<(u8, u64)>) {
        let n = pos.pieces();
        if n >= self.cells() {
            return;
        }
        let terms = self.board_terms(pos.occupied, n);
        self.push_children(&terms, pos.first_player(), n, terms.open, out, |c| c as u8);
    }

    /// Appends to `out`, for every move at `pos`, the tier and index of the
    /// *canonical form* ([`game_core::Symmetric::canonical`]) of the child
    /// (in no promised order): what
    /// [`game_core::Tiered::child_tier_indices`] of
    /// [`game_core::Canonical`]`(ConnectFour)` gives, without building,
    /// mirroring and indexing each child, and without allocating.
    ///
    /// A child's mirror image is the child of the mirrored parent in the
    /// mirrored column, so each child is compared with its mirror image by
    /// the column terms and, when they have the same cells, by the pieces;
    /// the indices come from one pass over the parent for the children that
    /// are canonical and one over its mirror image for the others (each
    /// pass only when needed).
    ///
    /// ```
    /// use game_core::{Canonical, Game, Symmetric, Tiered};
    /// let game = games::ConnectFour::new(5, 4)?;
    /// let pos = game.position_from_moves("1124")?;
    /// let mut fast = Vec::new();
    /// game.canonical_child_tier_indices(&pos, &mut fast);
    /// let mut plain = Vec::new();
    /// Canonical(game.clone()).child_tier_indices(&pos, &mut plain, &mut Vec::new());
    /// fast.sort_unstable();
    /// plain.sort_unstable();
    /// assert_eq!(fast, plain);
    /// # Ok::<(), games::Error>(())
    /// ```
    pub fn canonical_child_tier_indices(
        &self,
        pos: &ConnectFourPosition,
        out: &mut Vec<(Tier, u64)>,
    ) {
        let n = pos.pieces();
        if n >= self.cells() {
            return;
        }
        let first = pos.first_player();
        TERMS.with(|cell| {
            let [mine, image] = &mut *cell.borrow_mut();
            let terms = self.terms_in(mine, pos.occupied, n);
            // Every child's mover holds the parent's other player's
            // pieces: on a tie of cells, compare those with their image.
            let mut flip = terms.mirror_less;
            if terms.mirror_same != 0 {
                let opp = pos.opponent();
                if self.mirror_bits(opp) < opp {
                    flip |= terms.mirror_same;
                }
            }
            let tier = Tier::from(n) + 1;
            let plain = terms.open & !flip;
            if plain != 0 {
                self.push_children(terms, first, n, plain, out, |_| tier);
            }
            if flip != 0 {
                // The children of the mirror image in the mirrored columns.
                let mut wanted = 0u64;
                let mut rest = flip;
                while rest != 0 {
                    wanted |= 1 << (self.width - 1 - rest.trailing_zeros());
                    rest &= rest - 1;
                }
                let occupied = self.mirror_bits(pos.occupied);
                let terms = self.terms_in(image, occupied, n);
                self.push_children(terms, self.mirror_bits(first), n, wanted, out, |_| tier);
            }
        });
    }
}
