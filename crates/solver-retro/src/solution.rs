//! Solved games: the [`Solved`] trait and the two solution types.

use game_core::{best_move, Game, Indexed, Outcome, Value};
use rustc_hash::FxHashMap;

use crate::cell::Table;
use crate::Error;

/// A solved game: the value of every position the solve covered.
///
/// Implemented by [`Solution`] (positions reached from a start, in a hash
/// map) and [`IndexedSolution`] (every index of an [`Indexed`] game, in a
/// flat table). The checker ([`crate::certify`]), strategies and DOT export
/// work with either.
pub trait Solved {
    /// The game solved.
    type Game: Game;

    /// The game solved.
    fn game(&self) -> &Self::Game;

    /// The value of `pos` for the player to move; `None` if the solve did
    /// not cover it.
    fn value(&self, pos: &<Self::Game as Game>::Position) -> Option<Value>;

    /// The number of positions solved.
    fn len(&self) -> u64;

    /// Whether no position was solved.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` with every solved position and its value.
    fn for_each(&self, f: impl FnMut(&<Self::Game as Game>::Position, Value));

    /// Calls `f` with the solved positions of part `part` of `parts`: the
    /// parts together hold every position once, so they can be worked on
    /// in parallel (a part past the last, `part >= parts`, holds none).
    /// The default puts every position in part 0.
    fn for_each_part(
        &self,
        part: usize,
        parts: usize,
        f: impl FnMut(&<Self::Game as Game>::Position, Value),
    ) {
        let _ = parts;
        if part == 0 {
            self.for_each(f);
        }
    }

    /// The best move at `pos` and the value it achieves: the fastest win,
    /// else the fastest tie, else a move that keeps the draw, else the
    /// slowest loss; among equals, the first in [`Game::moves`] order.
    /// `None` at a terminal position.
    fn best_move(
        &self,
        pos: &<Self::Game as Game>::Position,
    ) -> Option<(<Self::Game as Game>::Move, Value)> {
        self.value(pos)?;
        best_move(self.game(), pos, |c| self.value(c), &mut Vec::new())
    }

    /// Whether `pos` has a key of its own in the solution: `false` when the
    /// table would read another position's value for it (an index that
    /// maps two positions to one id). The certificate rejects such games.
    fn keyed(&self, _pos: &<Self::Game as Game>::Position) -> bool {
        true
    }

    /// How many solved positions are won, lost, tied and drawn.
    fn counts(&self) -> Counts {
        let mut c = Counts::default();
        self.for_each(|_, v| c.add(v.outcome()));
        c
    }
}

/// Numbers of positions by outcome for the player to move.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Won for the player to move.
    pub win: u64,
    /// Lost for the player to move.
    pub lose: u64,
    /// Tied.
    pub tie: u64,
    /// Drawn (play goes on forever).
    pub draw: u64,
}

impl Counts {
    /// Counts one more position with outcome `o`.
    pub fn add(&mut self, o: Outcome) {
        match o {
            Outcome::Win => self.win += 1,
            Outcome::Lose => self.lose += 1,
            Outcome::Tie => self.tie += 1,
            Outcome::Draw => self.draw += 1,
        }
    }

    /// Counts `k` more positions with outcome `o`.
    pub fn add_many(&mut self, o: Outcome, k: u64) {
        match o {
            Outcome::Win => self.win += k,
            Outcome::Lose => self.lose += k,
            Outcome::Tie => self.tie += k,
            Outcome::Draw => self.draw += k,
        }
    }

    /// Adds `k` positions of outcome `o`, unless the count would pass
    /// `u64::MAX`: then nothing is added and the answer is `false`.
    pub(crate) fn checked_add_many(&mut self, o: Outcome, k: u64) -> bool {
        let count = match o {
            Outcome::Win => &mut self.win,
            Outcome::Lose => &mut self.lose,
            Outcome::Tie => &mut self.tie,
            Outcome::Draw => &mut self.draw,
        };
        match count.checked_add(k) {
            Some(sum) => {
                *count = sum;
                true
            }
            None => false,
        }
    }

    /// All positions counted.
    #[must_use]
    pub fn total(&self) -> u64 {
        self.win + self.lose + self.tie + self.draw
    }
}

impl std::ops::AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.win += other.win;
        self.lose += other.lose;
        self.tie += other.tie;
        self.draw += other.draw;
    }
}

/// The positions reachable from a start, solved by the stored-graph path
/// ([`crate::solve`]).
pub struct Solution<'g, G: Game> {
    pub(crate) game: &'g G,
    pub(crate) ids: FxHashMap<G::Position, u32>,
    pub(crate) positions: Vec<G::Position>,
    pub(crate) table: Table,
    pub(crate) moves: u64,
}

impl<G: Game> std::fmt::Debug for Solution<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solution")
            .field("positions", &self.positions.len())
            .field("moves", &self.moves)
            .finish_non_exhaustive()
    }
}

impl<G: Game> Solution<'_, G> {
    /// The number of distinct moves (position → distinct child) between the
    /// solved positions.
    #[must_use]
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The solved positions in the order they were found (breadth-first from
    /// the start, which comes first).
    #[must_use]
    pub fn positions(&self) -> &[G::Position] {
        &self.positions
    }
}

impl<G: Game> Solved for Solution<'_, G> {
    type Game = G;

    fn game(&self) -> &G {
        self.game
    }

    fn value(&self, pos: &G::Position) -> Option<Value> {
        self.table.value(u64::from(*self.ids.get(pos)?))
    }

    fn len(&self) -> u64 {
        self.positions.len() as u64
    }

    fn for_each(&self, f: impl FnMut(&G::Position, Value)) {
        self.for_each_part(0, 1, f);
    }

    fn for_each_part(&self, part: usize, parts: usize, mut f: impl FnMut(&G::Position, Value)) {
        let range = share(self.positions.len() as u64, part, parts);
        let (a, b) = (range.start as usize, range.end as usize);
        for (i, p) in self.positions[a..b].iter().enumerate() {
            if let Some(v) = self.table.value((a + i) as u64) {
                f(p, v);
            }
        }
    }
}

/// Every position of an [`Indexed`] game, solved into a flat table
/// ([`crate::solve_indexed`] or [`crate::solve_unmoves`]).
pub struct IndexedSolution<'g, G> {
    pub(crate) game: &'g G,
    pub(crate) table: Table,
    pub(crate) moves: Option<u64>,
}

impl<G: Indexed> std::fmt::Debug for IndexedSolution<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IndexedSolution")
            .field("size", &self.table.len())
            .finish_non_exhaustive()
    }
}

impl<'g, G: Indexed> IndexedSolution<'g, G> {
    /// The value at an index (`None` for an index that is no position).
    #[must_use]
    pub fn value_at(&self, index: u64) -> Option<Value> {
        let v = self.table.value(index)?;
        // An open cell may be an index no position has, left untouched.
        (v != Value::DRAW || self.game.position(index).is_some()).then_some(v)
    }

    /// The solved table, which owns its cells ([`crate::Table`]).
    #[must_use]
    pub fn table(&self) -> &crate::Table {
        &self.table
    }

    /// The solution over a table solved before (loaded from a file or a
    /// database) for `game`.
    ///
    /// # Errors
    /// [`crate::Error::TableSize`] when the table's length is not the
    /// game's size.
    pub fn from_table(game: &'g G, table: crate::Table) -> Result<Self, crate::Error> {
        if table.len() as u64 != game.size() {
            return Err(crate::Error::TableSize {
                cells: table.len() as u64,
                size: game.size(),
            });
        }
        Ok(IndexedSolution {
            game,
            table,
            moves: None,
        })
    }

    /// Bytes of table a position takes: 2, or 4 when counters or
    /// remoteness outgrow 16-bit cells.
    #[must_use]
    pub fn bytes_per_position(&self) -> u64 {
        self.table.bytes_per_position()
    }

    /// The number of distinct moves, where the solve counted them (the
    /// stored-graph path does; the unmoves path never enumerates moves).
    #[must_use]
    pub fn moves(&self) -> Option<u64> {
        self.moves
    }
}

impl<G: Indexed> Solved for IndexedSolution<'_, G> {
    type Game = G;

    fn game(&self) -> &G {
        self.game
    }

    fn value(&self, pos: &G::Position) -> Option<Value> {
        self.value_at(self.game.index(pos))
    }

    fn keyed(&self, pos: &G::Position) -> bool {
        self.game.position(self.game.index(pos)).as_ref() == Some(pos)
    }

    fn len(&self) -> u64 {
        (0..self.table.len() as u64)
            .filter(|&i| self.value_at(i).is_some())
            .count() as u64
    }

    fn for_each(&self, f: impl FnMut(&G::Position, Value)) {
        self.for_each_part(0, 1, f);
    }

    fn for_each_part(&self, part: usize, parts: usize, mut f: impl FnMut(&G::Position, Value)) {
        for i in share(self.table.len() as u64, part, parts) {
            if let (Some(v), Some(p)) = (self.table.value(i), self.game.position(i)) {
                f(&p, v);
            }
        }
    }
}

/// Part `part` of `0..n` cut into `parts` nearly equal ranges: empty for
/// a part past the last (no position is visited twice or past `n`), and
/// without overflow for any `n` and `parts`.
pub(crate) fn share(n: u64, part: usize, parts: usize) -> std::ops::Range<u64> {
    let parts = parts.max(1) as u128;
    let part = (part as u128).min(parts);
    let at = |k: u128| (u128::from(n) * k / parts) as u64;
    at(part)..at((part + 1).min(parts))
}

/// Tests of the solution types.
/// What [`Error::CountOverflow`] names.
const WEIGHTED: &str = "the positions reached";

/// `a + b`, a weighted count.
///
/// # Errors
/// [`Error::CountOverflow`] past `u64::MAX`.
pub(crate) fn checked_sum(a: u64, b: u64) -> Result<u64, Error> {
    // `ok_or_else`: an error built and dropped on every call (`ok_or`)
    // cost the walk a tenth of its time.
    a.checked_add(b).ok_or_else(count_overflow)
}

/// [`Error::CountOverflow`] for the weighted counts.
#[cold]
pub(crate) fn count_overflow() -> Error {
    Error::CountOverflow { what: WEIGHTED }
}

/// `a + b`, outcome by outcome, weighted counts.
///
/// # Errors
/// [`Error::CountOverflow`] past `u64::MAX`.
pub(crate) fn checked_counts(a: Counts, b: Counts) -> Result<Counts, Error> {
    Ok(Counts {
        win: checked_sum(a.win, b.win)?,
        lose: checked_sum(a.lose, b.lose)?,
        tie: checked_sum(a.tie, b.tie)?,
        draw: checked_sum(a.draw, b.draw)?,
    })
}

#[cfg(test)]
mod tests {
    use crate::{solve, solve_indexed, Error, Solved};
    use game_core::fixtures::Graph;
    use game_core::Game;

    /// A table of another length than the game is refused as such (it was
    /// reported as a position's index outside the game).
    #[test]
    fn a_table_of_another_length_is_refused_by_its_size() {
        let g = Graph {
            edges: vec![vec![]; 5],
            ends: vec![None; 5],
        };
        for cells in [3, 8] {
            let table = crate::Table::new(cells, false).unwrap();
            let err = crate::IndexedSolution::from_table(&g, table).unwrap_err();
            assert_eq!(err, Error::TableSize { cells, size: 5 });
        }
        let table = crate::Table::new(5, true).unwrap();
        assert!(crate::IndexedSolution::from_table(&g, table).is_ok());
    }

    /// A part past the last holds no position, and any number of parts
    /// together hold every position once, on every solution type (a
    /// `Solution` sliced its positions past their end: part 3 of 2 panicked,
    /// and part `usize::MAX` overflowed the start of its range).
    #[test]
    fn a_part_past_the_last_holds_no_position() {
        fn visited<S: Solved>(sol: &S, part: usize, parts: usize) -> Vec<String>
        where
            <S::Game as Game>::Position: std::fmt::Debug,
        {
            let mut seen = Vec::new();
            sol.for_each_part(part, parts, |p, _| seen.push(format!("{p:?}")));
            seen
        }
        fn check<S: Solved>(sol: &S)
        where
            <S::Game as Game>::Position: std::fmt::Debug,
        {
            for (part, parts) in [(2, 2), (3, 2), (usize::MAX, 2), (usize::MAX, usize::MAX)] {
                assert_eq!(
                    visited(sol, part, parts),
                    Vec::<String>::new(),
                    "{part} of {parts}"
                );
            }
            for parts in [1, 2, 5] {
                let mut all: Vec<String> =
                    (0..parts).flat_map(|k| visited(sol, k, parts)).collect();
                all.sort();
                assert_eq!(all, ["0", "1", "2"], "{parts} parts");
            }
            let last = visited(sol, usize::MAX - 1, usize::MAX);
            assert_eq!(last, ["2"]);
        }
        let g = Graph {
            edges: vec![vec![1], vec![2], vec![0]],
            ends: vec![None; 3],
        };
        check(&solve(&g, 0).unwrap());
        check(&solve_indexed(&g).unwrap());
        let tiered = game_core::OneTier(g.clone());
        check(&crate::solve_tiers(&tiered).unwrap());
    }
}
