//! The graph-free preset: a dense index and predecessors ("unmoves").

use std::sync::atomic::{AtomicU64, Ordering};

use game_core::{IndexedUnmoves, ParentIndices, ParentVisitor, Run};
use rayon::prelude::*;

use crate::cell::{Cell, Cells, Table};
use crate::engine::{in_cache, propagate, seed_cap, working_bytes, Parents, Seeds};
use crate::seed::UnmovesSeeding;
use crate::solution::IndexedSolution;
use crate::stored::table_count;
use crate::{Config, Error};

/// Solves every index of a game with a dense index and predecessors, with
/// the default [`Config`]. See [`solve_unmoves_with`].
///
/// # Errors
/// As [`solve_unmoves_with`].
pub fn solve_unmoves<G>(game: &G) -> Result<IndexedSolution<'_, G>, Error>
where
    G: IndexedUnmoves + Sync,
    G::Position: Send,
    G::Move: Send,
{
    solve_unmoves_with(game, &Config::default())
}

/// Solves every index of a game with a dense index and predecessors: no
/// graph is stored.
///
/// One cell a position holds the count of unresolved children while the
/// position is open ([`Unmoves::child_count`](game_core::Unmoves::child_count))
/// and its value once resolved; parents come from
/// [`IndexedUnmoves::unmove_indices`] on the fly. Where the game lists its
/// terminal positions ([`IndexedUnmoves::terminal_indices`]) there is no
/// scan of all positions: a position's children are counted the first time
/// one of them is found won, and positions never reached stay open (drawn)
/// without ever being looked at. Cells are 1 byte when the remoteness is
/// known to fit one (a game of at most 79 indices: a remoteness is
/// below the positions) and counts stay at most 16, else 2 bytes when
/// counts stay below 2¹⁵ and remoteness below 2¹³, else the solve
/// restarts with 4-byte cells. Plus 8 bytes of level lists for each
/// position that is won, lost or tied.
///
/// Time: one `child_count` a position, one `unmoves` a resolved position,
/// spread over [`Config::threads`] threads level by level (the game must be
/// `Sync`); the table is the same for any number of threads.
///
/// # Errors
/// [`Error::TooLarge`] over the memory limit (ids are 64-bit: a game past
/// 2³² positions is solved if its table fits);
/// [`Error::BadIndex`], [`Error::TooDeep`], [`Error::TerminalDraw`],
/// [`Error::Broken`] when the game's counts and unmoves disagree.
///
/// ```
/// use game_core::{Game, Indexed, IndexedUnmoves, Unmoves, Value};
/// use solver_retro::Solved;
///
/// /// Take 1 or 2 from a pile of up to 10.
/// struct Take12;
/// impl Game for Take12 {
///     type Position = u64;
///     type Move = u64;
///     fn moves(&self, n: &u64, out: &mut Vec<u64>) { out.extend((1..=2).filter(|t| t <= n)) }
///     fn play(&self, n: &u64, t: &u64) -> u64 { n - t }
/// }
/// impl Indexed for Take12 {
///     fn size(&self) -> u64 { 11 }
///     fn index(&self, n: &u64) -> u64 { *n }
///     fn position(&self, i: u64) -> Option<u64> { Some(i) }
/// }
/// impl Unmoves for Take12 {
///     fn unmoves(&self, n: &u64, out: &mut Vec<u64>) { out.extend((n + 1..=n + 2).filter(|&p| p <= 10)) }
/// }
/// impl IndexedUnmoves for Take12 {}
/// let sol = solver_retro::solve_unmoves(&Take12).unwrap();
/// assert_eq!(sol.value(&9), Some(Value::lose(6)));
/// // 11 positions: the remoteness fits one byte.
/// assert_eq!(sol.bytes_per_position(), 1);
/// ```
pub fn solve_unmoves_with<'g, G>(
    game: &'g G,
    config: &Config,
) -> Result<IndexedSolution<'g, G>, Error>
where
    G: IndexedUnmoves + Sync,
    G::Position: Send,
    G::Move: Send,
{
    let solve = || -> Result<Table, Error> {
        if config.cell_floor() == 1 && byte_fits(game.size()) {
            if let Some(cells) = run::<G, u8>(game, config)? {
                return Ok(Table::byte(cells));
            }
        }
        let narrow = match config.cell_floor() {
            4 => None,
            _ => run::<G, u16>(game, config)?,
        };
        Ok(match narrow {
            Some(cells) => Table::narrow(cells),
            None => Table::wide(run::<G, u32>(game, config)?.ok_or(Error::TooDeep {
                max: u32::MAX_REMOTENESS,
            })?),
        })
    };
    // On one thread the solve runs on the caller's, with no pool: its
    // seeding, sort and levels then call no rayon at all (each checks the
    // thread count), and handing the work to a pool thread and waking the
    // caller again cost ~0.2–0.5 ms of Fingers F = 64's ~6.5 ms.
    let table = if config.thread_count() == 1 {
        solve()?
    } else {
        config.install(solve)?
    };
    Ok(IndexedSolution {
        game,
        table,
        moves: None,
    })
}

/// Whether a game of `size` indices is solved in 1-byte cells first: every
/// remoteness is below the number of positions (a position's remoteness
/// is one more than a child's, down to 0 at the end, all distinct
/// positions), so at most `size − 1`.
fn byte_fits(size: u64) -> bool {
    size.saturating_sub(1) <= u8::MAX_REMOTENESS
}

/// The most memory [`solve_unmoves_with`] takes for a game of `size`
/// indices with `config`, in the cells it starts with (1 byte for a game
/// of at most 79 indices, else 2; or [`Config::narrowest_cells`]): the
/// table, and the engine's
/// two levels' lists (about a byte a cell each at most) and a round's
/// posts (16 to 64 MiB with more than one owner). What the solve checks
/// against the memory limit before it takes anything; a solve whose
/// cells must widen to 4 bytes checks the wider table again.
///
/// ```
/// use solver_retro::{solve_unmoves_bytes, Config};
/// // 2²⁰ positions on one thread: 2 MiB of cells, 2 MiB of lists.
/// assert_eq!(solve_unmoves_bytes(1 << 20, &Config::default().threads(1)), 4 << 20);
/// ```
#[must_use]
pub fn solve_unmoves_bytes(size: u64, config: &Config) -> u64 {
    match config.cell_floor() {
        1 if byte_fits(size) => solve_bytes::<u8>(size, config),
        4 => solve_bytes::<u32>(size, config),
        _ => solve_bytes::<u16>(size, config),
    }
}

/// [`solve_unmoves_bytes`] for cells of `C`: the table and the engine's
/// working memory.
fn solve_bytes<C: Cell>(cells: u64, config: &Config) -> u64 {
    cells
        .saturating_mul(C::BYTES)
        .saturating_add(working_bytes::<C>(cells, config))
}

/// The parents source of an [`IndexedUnmoves`] game: parents by
/// [`IndexedUnmoves::unmove_indices`] (or its visitor), checked against
/// the size, and children counted by
/// [`Unmoves::child_count`](game_core::Unmoves::child_count) for cells
/// left uncounted. What [`solve_unmoves_with`] and solver-cluster's shards
/// of such a game ask.
///
/// ```
/// use game_core::fixtures::Graph;
/// use game_core::ParentIndices;
/// use solver_retro::step::Parents;
/// use solver_retro::UnmovesParents;
///
/// // 0 -> 2, 1 -> 2: the parents of 2 are 0 and 1.
/// let g = Graph { edges: vec![vec![2], vec![2], vec![]], ends: vec![None; 3] };
/// let source = UnmovesParents::new(&g);
/// let mut out = ParentIndices::default();
/// source.parents(2, &mut out, &mut Default::default())?;
/// let mut all: Vec<u64> = out.singles.clone();
/// all.extend(out.runs.iter().flat_map(|r| r.iter()));
/// all.sort();
/// assert_eq!(all, [0, 1]);
/// assert_eq!(source.count(0, &mut Default::default())?, 1);
/// # Ok::<(), solver_retro::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct UnmovesParents<'g, G> {
    game: &'g G,
    size: u64,
}

impl<'g, G: IndexedUnmoves> UnmovesParents<'g, G> {
    /// The parents source of `game`.
    pub fn new(game: &'g G) -> Self {
        UnmovesParents {
            game,
            size: game.size(),
        }
    }
}

impl<G> Parents for UnmovesParents<'_, G>
where
    G: IndexedUnmoves + Sync,
    G::Position: Send,
    G::Move: Send,
{
    type Scratch = (Vec<G::Position>, Vec<G::Move>);

    fn parents(
        &self,
        id: u64,
        out: &mut ParentIndices,
        (positions, _): &mut Self::Scratch,
    ) -> Result<(), Error> {
        self.game.unmove_indices(id, out, positions);
        let size = self.size;
        let bad = out.singles.iter().copied().find(|&i| i >= size);
        match bad.or(out.runs.iter().find(|r| !r.within(size)).map(last_of)) {
            Some(index) => Err(Error::BadIndex { index, size }),
            None => Ok(()),
        }
    }

    fn visit<V: ParentVisitor>(
        &self,
        id: u64,
        buf: &mut ParentIndices,
        (positions, _): &mut Self::Scratch,
        visit: &mut V,
    ) -> Result<(), Error> {
        let mut checked = Checked {
            visit,
            size: self.size,
            bad: None,
        };
        self.game
            .visit_unmove_indices(id, buf, positions, &mut checked);
        match checked.bad {
            Some(index) => Err(Error::BadIndex {
                index,
                size: self.size,
            }),
            None => Ok(()),
        }
    }

    fn count(&self, id: u64, (positions, moves): &mut Self::Scratch) -> Result<u64, Error> {
        let pos = self.game.position(id).ok_or_else(|| {
            Error::Broken(format!("index {id} is a parent by unmoves but no position"))
        })?;
        match self.game.child_count(&pos, moves, positions) {
            0 => Err(Error::Broken(
                "terminal_indices left out a position with no move".into(),
            )),
            k => Ok(k as u64),
        }
    }
}

/// Passes on the parents below `size`, and keeps the first past it.
struct Checked<'v, V> {
    visit: &'v mut V,
    size: u64,
    bad: Option<u64>,
}

impl<V: ParentVisitor> ParentVisitor for Checked<'_, V> {
    #[inline]
    fn single(&mut self, index: u64) {
        if index < self.size {
            self.visit.single(index);
        } else {
            self.bad.get_or_insert(index);
        }
    }

    #[inline]
    fn run(&mut self, run: Run) {
        if run.within(self.size) {
            self.visit.run(run);
        } else {
            self.bad.get_or_insert(last_of(&run));
        }
    }
}

/// The index a run that is not within the game is refused by: its last
/// (saturating: a run past `u64::MAX` names it).
fn last_of(run: &Run) -> u64 {
    run.step
        .checked_mul(run.count.saturating_sub(1))
        .and_then(|span| run.start.checked_add(span))
        .unwrap_or(u64::MAX)
}

/// What a block's scan found: decisive seeds and tied seeds.
type Found = (Vec<u64>, Vec<u64>);

/// Cells are seeded in blocks of this many, in parallel.
const BLOCK: usize = 1 << 16;

/// `Ok(None)` when the cell type is too narrow for this game.
fn run<G, C: Cell>(game: &G, config: &Config) -> Result<Option<Cells<C>>, Error>
where
    G: IndexedUnmoves + Sync,
    G::Position: Send,
    G::Move: Send,
{
    let limit = config.limit();
    let size = game.size();
    // The whole need first: a refusal of the table alone would advise an
    // amount that is still too small.
    let needed = solve_bytes::<C>(size, config);
    if needed > limit {
        return Err(crate::error::too_large(
            "the table and the engine's working memory (two levels' lists and a round's posts)",
            needed,
            limit,
            "",
        ));
    }
    let n = table_count(size, limit, C::BYTES, false)?;
    let seeding = UnmovesSeeding::new(game)?;
    // Every cell is written by the seeding of its block, or holds what a
    // lazy seeding leaves open (its children counted only if a won child
    // ever reaches it).
    let mut cells = Cells::new(n, seeding.fill::<C>(), limit)?;
    // Seeds found so far (won or lost; tied): past `cap` of a kind, the
    // blocks stop listing it and level 0 is scanned for instead, so that
    // the lists never take more than the engine's levels may.
    let cap = seed_cap(n as u64);
    let found_seeds = [AtomicU64::new(0), AtomicU64::new(0)];
    // Scan (or count in bulk) block by block on all threads, or on this
    // one for a table the engine will solve on one ([`in_cache`]) or a
    // one-thread solve.
    let seed = |(b, chunk): (usize, &mut [C])| -> Result<Found, Error> {
        let first = (b * BLOCK) as u64;
        let mut found = (Vec::new(), Vec::new());
        seeding.seed_block(
            game,
            first,
            chunk,
            &mut (Vec::new(), Vec::new()),
            &mut found.0,
            &mut found.1,
        )?;
        for (list, total) in [&mut found.0, &mut found.1].into_iter().zip(&found_seeds) {
            let k = list.len() as u64;
            if total.fetch_add(k, Ordering::Relaxed) + k > cap {
                *list = Vec::new();
            }
        }
        Ok(found)
    };
    let blocks: Vec<Result<Found, Error>> = if in_cache::<C>(n as u64) || config.thread_count() == 1
    {
        cells.chunks_mut(BLOCK).enumerate().map(seed).collect()
    } else {
        cells.par_chunks_mut(BLOCK).enumerate().map(seed).collect()
    };
    let mut seeds = Seeds::default();
    let [decisive, ties] = found_seeds.map(AtomicU64::into_inner);
    let (list_decisive, list_ties) = (decisive <= cap, ties <= cap);
    if !list_decisive {
        seeds.unlisted_decisive = decisive;
    }
    if !list_ties {
        seeds.unlisted_ties = ties;
    }
    for b in blocks {
        match b {
            Ok((d, t)) => {
                if list_decisive {
                    seeds.decisive.extend(d);
                }
                if list_ties {
                    seeds.ties.extend(t);
                }
            }
            Err(Error::TooManyChildren { .. }) if C::BYTES < 4 => return Ok(None),
            Err(e) => return Err(e),
        }
    }
    seeding.seed_listed(game, 0, &mut cells, &mut seeds.decisive, &mut seeds.ties)?;
    let lazy = seeding.lazy();
    let parents = UnmovesParents { game, size };
    match propagate(&mut cells, seeds, &parents, lazy, config) {
        Ok(_) => Ok(Some(cells)),
        Err(Error::TooDeep { .. } | Error::TooManyChildren { .. }) if C::BYTES < 4 => Ok(None),
        Err(e) => Err(e),
    }
}

/// Tests of the graph-free preset (`solve_unmoves`).
#[cfg(test)]
mod tests {
    use crate::fixtures::testing::{big_graph, reference};
    use crate::Solved;
    use crate::{certify, solve_unmoves, Config, Error};
    use game_core::fixtures::Graph;
    use game_core::{Indexed, Value};
    use proptest::prelude::*;

    #[test]
    fn a_game_with_no_end_is_all_draws() {
        let g = Graph {
            edges: vec![vec![1], vec![2], vec![0, 1]],
            ends: vec![None; 3],
        };
        let sol = solve_unmoves(&g).unwrap();
        for p in 0..3 {
            assert_eq!(sol.value(&p), Some(Value::DRAW));
        }
        assert_eq!(sol.counts().draw, 3);
        assert!(certify(&sol).is_ok());
    }

    proptest! {
        /// The fast path checks its table and its working memory (two levels'
        /// lists) against the limit before it starts, as
        /// [`crate::solve_unmoves_bytes`] says: refused one byte below, solved
        /// at the figure.
        #[test]
        fn the_fast_path_is_refused_below_its_memory_and_solves_at_it(g in big_graph()) {
            let needed = crate::solve_unmoves_bytes(g.size(), &Config::default());
            // Two bytes a cell (one up to 79 positions), and two lists of at
            // least two 8-byte ids (under test) or an eighth of the cells.
            let cell = if g.size() <= 79 { 1 } else { 2 };
            prop_assert_eq!(needed, cell * g.size() + 2 * 8 * (g.size() / 8).max(2));
            let tight = Config::default().memory_limit(needed - 1);
            prop_assert!(matches!(
                crate::solve_unmoves_with(&g, &tight),
                Err(Error::TooLarge(_))
            ));
            let want = reference(&g);
            let sol = crate::solve_unmoves_with(&g, &Config::default().memory_limit(needed)).unwrap();
            for (p, &w) in want.iter().enumerate() {
                prop_assert_eq!(sol.value(&p), Some(w), "at {}", p);
            }
        }
    }
}
