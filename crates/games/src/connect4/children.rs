//! The indices of a position's children, all at once: from the parent's
//! rank terms, each child's index costs O(1) after one O(W + pieces) pass.

use game_core::Tier;

use super::combinatorics::{binomial, first_player_choices};
use super::{ConnectFour, ConnectFourPosition};

impl ConnectFour {
    /// For each column `c` in `wanted` that is not full, calls
    /// `emit(c, part)`; the index inside tier `n + 1` of the child made by
    /// playing `c` is `part` plus the returned number (mod 2⁶⁴). The board
    /// has the cells `occupied`, of which `first` are the first player's,
    /// and `n` pieces.
    ///
    /// A child differs from its parent in one column: its height rank
    /// takes the parent's terms after that column, the terms with one
    /// more piece left before it, and its own term; its colex rank takes
    /// the parent's sum below the new piece and, above it, the sum with
    /// every place one higher (and every ordinal one higher when the new
    /// piece is the first player's). One pass gathers the prefix sums;
    /// what only the end of the pass knows (the parent's height rank and
    /// the whole shifted sum) is the same for every child, so it is added
    /// afterwards, and nothing is stored per column.
    #[inline]
    fn child_index_parts(
        &self,
        occupied: u64,
        first: u64,
        n: u32,
        wanted: u64,
        mut emit: impl FnMut(u32, u64),
    ) -> u64 {
        if n >= self.cells() {
            return 0;
        }
        let below = self.heights.raw();
        // The next row (one more piece left) is `next` entries on.
        let next = self.heights.row_at(0, 1);
        let choices = first_player_choices(n + 1);
        // 1 when the new piece is the first player's.
        let delta = u32::from(n % 2 == 0);
        let (mut place, mut j) = (0u32, 0u32);
        let (mut sum_low, mut sum_high) = (0u64, 0u64);
        // Σ of the child's height terms before column c and of the
        // parent's through column c.
        let (mut child_before, mut parent_through) = (0u64, 0u64);
        for c in 0..self.width {
            let h = self.column_of(occupied, c).trailing_ones();
            let left = n - place;
            let at = self.heights.row_at(c, left) + h as usize;
            parent_through += below[at];
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
            place += h;
            if h < self.height && wanted & (1 << c) != 0 {
                // The height rank without the parent's total, and the
                // colex rank without the whole shifted sum.
                let height_part = child_before
                    .wrapping_add(below[at + next + 1])
                    .wrapping_sub(parent_through);
                let new = if delta == 1 {
                    binomial(place, j + 1)
                } else {
                    0
                };
                let colex_part = sum_low.wrapping_sub(sum_high).wrapping_add(new);
                emit(
                    c,
                    height_part.wrapping_mul(choices).wrapping_add(colex_part),
                );
            }
            child_before += below[at + next];
        }
        parent_through.wrapping_mul(choices).wrapping_add(sum_high)
    }

    /// Appends `(tier, index)` to `out` for the children of the board
    /// (`occupied`, `first`, `n` pieces) made by playing the columns in
    /// `wanted` (bit `c`) that are not full, left to right.
    #[inline]
    fn push_child_indices(
        &self,
        occupied: u64,
        first: u64,
        n: u32,
        wanted: u64,
        out: &mut Vec<(Tier, u64)>,
    ) {
        let tier = Tier::from(n) + 1;
        let from = out.len();
        let rest = self.child_index_parts(occupied, first, n, wanted, |_, part| {
            out.push((tier, part));
        });
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
        self.push_child_indices(
            pos.occupied,
            pos.first_player(),
            pos.pieces(),
            u64::MAX,
            out,
        );
    }

    /// Appends to `out`, for every move of [`game_core::Game::moves`] at
    /// `pos` (in the same order), the move and the index of the child
    /// position inside its tier (`pos.pieces() + 1`).
    ///
    /// The same numbers as [`game_core::Tiered::tier_index`] of each child,
    /// computed together in O(W + pieces) time rather than that much for
    /// each child, without allocating.
    pub fn child_tier_indices(&self, pos: &ConnectFourPosition, out: &mut Vec<(u8, u64)>) {
        let from = out.len();
        let rest = self.child_index_parts(
            pos.occupied,
            pos.first_player(),
            pos.pieces(),
            u64::MAX,
            |c, part| out.push((c as u8, part)),
        );
        for kid in &mut out[from..] {
            kid.1 = kid.1.wrapping_add(rest);
        }
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
    /// a few bitboard operations, and the indices come from one pass over
    /// the parent for the children that are canonical and one over its
    /// mirror image for the others (each pass only when needed).
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
        let mirror = self.mirror(pos);
        // Every child's mover holds the parent's other player's pieces.
        let (opp, mirror_opp) = (pos.opponent(), mirror.opponent());
        let last = self.width - 1;
        // Columns whose child is canonical as played, and columns of the
        // mirror image whose child is the canonical form of another.
        let (mut plain, mut flipped) = (0u64, 0u64);
        for c in 0..self.width {
            if pos.occupied & self.column_top(c) != 0 {
                continue;
            }
            let occupied = pos.occupied | (pos.occupied + self.column_bottom(c));
            let m = mirror.occupied | (mirror.occupied + self.column_bottom(last - c));
            if (m, mirror_opp) < (occupied, opp) {
                flipped |= 1 << (last - c);
            } else {
                plain |= 1 << c;
            }
        }
        if plain != 0 {
            self.push_child_indices(pos.occupied, pos.first_player(), n, plain, out);
        }
        if flipped != 0 {
            self.push_child_indices(mirror.occupied, mirror.first_player(), n, flipped, out);
        }
    }
}
