//! What an exact search (`solver-search`) uses from Connect Four: a
//! bitboard key, a move order (threats, then centre first), and the quick
//! tests "wins now" and "can only lose", as in Pascal Pons' solver, behind
//! the generic [`SearchKey`] and [`SearchHints`].
//!
//! ```
//! use game_core::{SearchHints, SearchKey, Value};
//! use games::ConnectFour;
//!
//! let game = ConnectFour::new(7, 6)?;
//! // X has three in column 4: playing it again wins.
//! let pos = game.position_from_moves("414141")?;
//! assert_eq!(game.quick_value(&pos), Some(Value::win(1)));
//! // A board and its mirror image share a key.
//! assert_eq!(
//!     game.search_key(&game.position_from_moves("12")?),
//!     game.search_key(&game.position_from_moves("76")?)
//! );
//! # Ok::<(), games::Error>(())
//! ```

use game_core::{SearchHints, SearchKey, Value};

use super::{ConnectFour, ConnectFourPosition, MAX_WIDTH};

impl ConnectFour {
    /// The empty cells where one more stone of `bits` would make four in
    /// a row (of any direction that fits the board). The four directions
    /// written out, without a branch: a direction that does not fit has
    /// mask 0.
    #[inline(always)]
    pub(super) fn winning_cells(&self, bits: u64, empty: u64) -> u64 {
        let [(s0, m0), (s1, m1), (s2, m2), (s3, m3)] = self.directions;
        let r = (Self::line_cells(bits, s0) & m0)
            | (Self::line_cells(bits, s1) & m1)
            | (Self::line_cells(bits, s2) & m2)
            | (Self::line_cells(bits, s3) & m3);
        r & empty
    }

    /// The cells that complete three of `bits` to four along shift `s`:
    /// the fourth at either end or inside.
    #[inline(always)]
    fn line_cells(bits: u64, s: u32) -> u64 {
        let up = (bits << s) & (bits << (2 * s));
        let down = (bits >> s) & (bits >> (2 * s));
        (up & (bits << (3 * s)))
            | (up & (bits >> s))
            | (down & (bits << s))
            | (down & (bits >> (3 * s)))
    }

    /// The cells a move can fill: the lowest empty cell of each column not
    /// full.
    #[inline]
    pub(super) fn playable(&self, pos: &ConnectFourPosition) -> u64 {
        (pos.occupied + self.bottom) & self.board
    }

    /// Sorts `moves`: those under one of the opponent's winning cells
    /// (`theirs`) last, the others by the winning cells they make for the
    /// mover, most first; ties by closeness to the centre, then by column.
    fn sort_by_threats(&self, pos: &ConnectFourPosition, theirs: u64, moves: &mut [u8]) {
        let empty = self.board & !pos.occupied;
        let centre = self.width as i32 - 1;
        // One word a move: its sort key above, the column's complement
        // below (so that equal keys keep column order, as a stable sort).
        let mut keys = [0i32; MAX_WIDTH];
        let keys = &mut keys[..moves.len()];
        for (k, &m) in keys.iter_mut().zip(moves.iter()) {
            let cell = self.drop_cell(pos, u32::from(m));
            let threats = if (cell << 1) & theirs != 0 {
                -1
            } else {
                self.winning_cells(pos.mover | cell, empty & !cell)
                    .count_ones() as i32
            };
            // Larger is tried first: threats, then nearness to the centre.
            let off = (2 * i32::from(m) - centre).abs();
            *k = ((threats * 128 - off) << 8) | (255 - i32::from(m));
        }
        // Insertion sort: at most 32 moves, no allocation.
        for i in 1..keys.len() {
            let mut j = i;
            while j > 0 && keys[j - 1] < keys[j] {
                keys.swap(j - 1, j);
                j -= 1;
            }
        }
        for (m, k) in moves.iter_mut().zip(keys.iter()) {
            *m = (255 - (k & 0xff)) as u8;
        }
    }

    /// Whether the player to move of `pos` (without a win at once) can
    /// only lose in 2: the opponent threatens to make four at two playable
    /// cells, or at one whose blocking stone gives the cell above it to
    /// another of the opponent's fours, or every move puts a stone under
    /// one of the opponent's winning cells.
    #[inline]
    fn only_loses(&self, pos: &ConnectFourPosition, empty: u64, playable: u64) -> bool {
        let theirs = self.winning_cells(pos.opponent(), empty);
        let forced = theirs & playable;
        forced.count_ones() >= 2
            || (forced != 0 && (forced << 1) & theirs != 0)
            || (forced == 0 && playable & !(theirs >> 1) == 0)
    }

    /// The key of a position's mirror image from its key: the key keeps
    /// every column within its own bits (its cells and the sentinel above),
    /// so the columns are swapped whole.
    #[inline]
    fn mirror_key(&self, key: u64) -> u64 {
        let mut out = key & (self.mirror_middle | (self.mirror_middle << 1));
        for &(cells, shift) in &self.mirror_pairs[..self.width as usize / 2] {
            let cells = cells | (cells << 1);
            out |= ((key & cells) << shift) | ((key >> shift) & cells);
        }
        out
    }

    /// The cell a move into column `c` fills (0 for a full column).
    #[inline]
    fn drop_cell(&self, pos: &ConnectFourPosition, c: u32) -> u64 {
        self.playable(pos) & (self.column_cells() << (c * self.stride))
    }
}

/// The key of a board is its two bitboards in one, `mover + occupied`
/// (unique: the occupied cells of a column, plus the mover's among them,
/// carry into the cell above the column's top exactly when the top is the
/// mover's, so the sum tells the column's height and every colour), taken
/// for whichever of the board and its mirror image gives the smaller: a
/// board and its mirror have one value.
impl SearchKey for ConnectFour {
    #[inline]
    fn search_key(&self, pos: &ConnectFourPosition) -> u64 {
        let key = pos.mover + pos.occupied;
        key.min(self.mirror_key(key))
    }
}

impl SearchHints for ConnectFour {
    /// Moves that let the opponent win at once (a stone under one of the
    /// opponent's winning cells) last; the others by the winning cells
    /// they make for the mover, most first; ties by closeness to the
    /// centre.
    fn order_moves(&self, pos: &ConnectFourPosition, moves: &mut [u8]) {
        let empty = self.board & !pos.occupied;
        let theirs = self.winning_cells(pos.opponent(), empty);
        self.sort_by_threats(pos, theirs, moves);
    }

    /// Pascal Pons' non-losing moves: when the opponent threatens to win
    /// at a playable cell, only the move that blocks it (every other move
    /// loses at once); else every move but those under one of the
    /// opponent's winning cells (each loses at once, and
    /// [`SearchHints::quick_value`] has told that some move does not);
    /// in the order of [`SearchHints::order_moves`].
    fn useful_moves(&self, pos: &ConnectFourPosition, moves: &mut [u8]) -> usize {
        let empty = self.board & !pos.occupied;
        let theirs = self.winning_cells(pos.opponent(), empty);
        let playable = self.playable(pos);
        let forced = theirs & playable;
        if forced != 0 {
            // One forced cell (two would be a loss the quick value tells).
            if let Some(i) = moves
                .iter()
                .position(|&m| self.drop_cell(pos, u32::from(m)) & forced != 0)
            {
                moves.swap(0, i);
                return 1;
            }
        }
        self.sort_by_threats(pos, theirs, moves);
        // Moves under an opponent's winning cell sort last: keep the rest.
        let losing = theirs >> 1;
        let keep = moves
            .iter()
            .take_while(|&&m| self.drop_cell(pos, u32::from(m)) & losing == 0)
            .count();
        if keep == 0 {
            moves.len()
        } else {
            keep
        }
    }

    /// A win in 1 when a move makes four; a loss in 2 when the opponent
    /// threatens to make four at two playable cells, or at one whose
    /// blocking stone gives the cell above it to another of the
    /// opponent's fours, or when every move puts a stone under one of the
    /// opponent's winning cells.
    #[inline]
    fn quick_value(&self, pos: &ConnectFourPosition) -> Option<Value> {
        let empty = self.board & !pos.occupied;
        let playable = self.playable(pos);
        if self.winning_cells(pos.mover, empty) & playable != 0 {
            return Some(Value::win(1));
        }
        self.only_loses(pos, empty, playable)
            .then_some(Value::lose(2))
    }

    /// A child of a kept move: not a four (its parent had no win in 1),
    /// and its mover has no win at once (the kept moves leave none), so
    /// only a full board and "can only lose" are tested.
    #[inline]
    fn kept_child_value(&self, pos: &ConnectFourPosition) -> Option<Value> {
        if self.is_full(pos) {
            return Some(Value::tie(0));
        }
        let empty = self.board & !pos.occupied;
        self.only_loses(pos, empty, self.playable(pos))
            .then_some(Value::lose(2))
    }

    /// Complete: "wins now" is every win in 1, "can only lose" every loss
    /// in 2, and only the player who just moved can have won.
    #[inline]
    fn quick_value_complete(&self) -> bool {
        true
    }

    /// The pieces on the board: one more with every move.
    #[inline]
    fn progress(&self, pos: &ConnectFourPosition) -> Option<u64> {
        Some(u64::from(pos.pieces()))
    }

    /// The empty cells.
    #[inline]
    fn plies_left(&self, pos: &ConnectFourPosition) -> Option<u32> {
        Some(self.cells() - pos.pieces())
    }

    /// A tie fills the board: the empty cells.
    #[inline]
    fn tie_remoteness(&self, pos: &ConnectFourPosition) -> Option<u32> {
        Some(self.cells() - pos.pieces())
    }
}

#[cfg(test)]
mod tests {
    use game_core::{Game, Outcome, SearchHints, SearchKey, Value};
    use rustc_hash::FxHashMap;

    use super::super::{ConnectFour, ConnectFourPosition};
    use crate::testing::Rng;

    /// A random position reached by random moves, not over.
    fn random_position(g: &ConnectFour, rng: &mut Rng) -> Option<ConnectFourPosition> {
        let mut pos = g.start();
        let plies = rng.below(u64::from(g.cells()));
        let mut moves = Vec::new();
        for _ in 0..plies {
            moves.clear();
            g.moves(&pos, &mut moves);
            let next = g.play(&pos, &moves[rng.below(moves.len() as u64) as usize]);
            if g.outcome(&next).is_some() {
                break;
            }
            pos = next;
        }
        Some(pos)
    }

    /// The value of a position by brute force, if the game ends within two
    /// plies whatever is played: win in 1 or loss in 2 (`None` otherwise).
    fn within_two(g: &ConnectFour, pos: &ConnectFourPosition) -> Option<Value> {
        let mut moves = Vec::new();
        g.moves(pos, &mut moves);
        let kids: Vec<_> = moves.iter().map(|m| g.play(pos, m)).collect();
        if kids.iter().any(|k| g.outcome(k) == Some(Outcome::Lose)) {
            return Some(Value::win(1));
        }
        let opponent_wins_at_once = |k: &ConnectFourPosition| {
            let mut ms = Vec::new();
            g.moves(k, &mut ms);
            g.outcome(k).is_none()
                && ms
                    .iter()
                    .any(|m| g.outcome(&g.play(k, m)) == Some(Outcome::Lose))
        };
        (!kids.is_empty() && kids.iter().all(opponent_wins_at_once)).then_some(Value::lose(2))
    }

    /// Quick values against brute force: "wins now" exactly when a move
    /// wins; "can only lose" exactly when every move loses at once.
    #[test]
    fn quick_values_are_true() {
        let mut rng = Rng(48);
        for (w, h) in [(7, 6), (5, 4), (4, 4), (6, 5), (8, 7), (3, 5)] {
            let g = ConnectFour::new(w, h).unwrap();
            for _ in 0..3000 {
                let Some(pos) = random_position(&g, &mut rng) else {
                    continue;
                };
                let quick = g.quick_value(&pos);
                let brute = within_two(&g, &pos);
                match quick {
                    Some(v) => assert_eq!(Some(v), brute, "{w}x{h}\n{}", g.picture(&pos)),
                    // Complete: no win in 1 nor loss in 2 is missed.
                    None => assert_eq!(brute, None, "{}", g.picture(&pos)),
                }
            }
        }
    }

    /// A kept move's child: its value as the game over and the quick
    /// value tell it, and the key of a mirror image is the mirrored key.
    #[test]
    fn kept_children_are_valued_as_outcome_and_quick_value() {
        let mut rng = Rng(4848);
        let mut checked = 0;
        for (w, h) in [(7, 6), (5, 4), (4, 4), (6, 5), (8, 7), (3, 5)] {
            let g = ConnectFour::new(w, h).unwrap();
            for _ in 0..3000 {
                let Some(pos) = random_position(&g, &mut rng) else {
                    continue;
                };
                let m = g.mirror(&pos);
                assert_eq!(
                    g.mirror_key(m.mover + m.occupied),
                    pos.mover + pos.occupied,
                    "{}",
                    g.picture(&pos)
                );
                if g.outcome(&pos).is_some() || g.quick_value(&pos).is_some() {
                    continue;
                }
                let mut moves = Vec::new();
                g.moves(&pos, &mut moves);
                let n = g.useful_moves(&pos, &mut moves);
                for mv in &moves[..n] {
                    let child = g.play(&pos, mv);
                    let want = match g.outcome(&child) {
                        Some(o) => Some(Value::new(o, 0)),
                        None => g.quick_value(&child),
                    };
                    assert_eq!(g.kept_child_value(&child), want, "{}", g.picture(&child));
                    checked += 1;
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }

    /// Keys tell apart every position reachable on 4×4 up to the mirror:
    /// equal keys exactly for a board and its mirror image.
    #[test]
    fn keys_are_unique_up_to_the_mirror() {
        let g = ConnectFour::new(4, 4).unwrap();
        let sol = solver_dp::solve(&g, g.start()).unwrap();
        let mut seen: FxHashMap<u64, ConnectFourPosition> = FxHashMap::default();
        for (pos, _) in sol.iter() {
            let canonical = (*pos).min(g.mirror(pos));
            let old = seen.insert(g.search_key(pos), canonical);
            assert!(old.is_none_or(|o| o == canonical), "{}", g.picture(pos));
        }
        assert!(seen.len() > 80_000);
    }

    /// The moves worth searching hold the best: on every position of 4×4
    /// without a quick value, the best value among the moves kept is the
    /// position's value (from the table of the whole game), and the kept
    /// and left out moves are a permutation of all.
    #[test]
    fn useful_moves_keep_the_best() {
        let g = ConnectFour::new(4, 4).unwrap();
        let sol = solver_dp::solve(&g, g.start()).unwrap();
        let (mut checked, mut cut) = (0, 0);
        let mut moves = Vec::new();
        for (pos, want) in sol.iter() {
            if g.outcome(pos).is_some() || g.quick_value(pos).is_some() {
                continue;
            }
            moves.clear();
            g.moves(pos, &mut moves);
            let mut kept = moves.clone();
            let n = g.useful_moves(pos, &mut kept);
            assert!((1..=moves.len()).contains(&n));
            let mut sorted = kept.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, moves);
            let best = kept[..n]
                .iter()
                .map(|m| sol.value(&g.play(pos, m)).unwrap().parent())
                .max();
            assert_eq!(best, Some(want), "{}", g.picture(pos));
            checked += 1;
            cut += moves.len() - n;
        }
        assert!(checked > 10_000 && cut > 10_000, "{checked} {cut}");
    }

    #[test]
    fn the_move_order_is_a_permutation_threats_first() {
        let g = ConnectFour::new(7, 6).unwrap();
        let mut rng = Rng(7);
        for _ in 0..500 {
            let pos = random_position(&g, &mut rng).unwrap();
            let mut moves = Vec::new();
            g.moves(&pos, &mut moves);
            let mut ordered = moves.clone();
            g.order_moves(&pos, &mut ordered);
            let mut sorted = ordered.clone();
            sorted.sort_unstable();
            assert_eq!(sorted, moves);
        }
        // The empty board: centre first, then outwards.
        let mut moves = vec![0, 1, 2, 3, 4, 5, 6];
        g.order_moves(&g.start(), &mut moves);
        assert_eq!(moves[0], 3);
        assert_eq!(
            &moves[1..3]
                .iter()
                .map(|&m| (m as i32 - 3).abs())
                .collect::<Vec<_>>(),
            &[1, 1]
        );
    }
}
