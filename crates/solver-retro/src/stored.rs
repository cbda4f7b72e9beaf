//! The stored-graph paths: any [`Game`] from a start (hash map), or every
//! index of an [`Indexed`] game — with the reverse graph kept in memory.

use game_core::{Game, Indexed, Outcome, ParentIndices};

use crate::cell::{Cell, Cells, Table};
use crate::engine::{propagate, Parents, Seeds};
use crate::seed::terminal;
use crate::solution::{IndexedSolution, Solution};
use crate::walk::{explore, Explored};
use crate::{Config, Error};

const HINT: &str = "implement Indexed and Unmoves for the graph-free path (solve_unmoves)";

/// Bytes the stored-graph path takes for each distinct move at its peak:
/// the forward edge list and the reverse edge list, a `u32` each. For
/// [`solve_indexed`] it is 4 (only the reverse list is kept).
pub const BYTES_PER_MOVE: u64 = 8;

/// Fills `cells[id]` for a terminal position and queues it.
fn seed<C: Cell>(cells: &mut [C], id: u32, o: Outcome, seeds: &mut Seeds) {
    cells[id as usize] = C::resolved(o, 0);
    if o == Outcome::Tie {
        seeds.ties.push(u64::from(id));
    } else {
        seeds.decisive.push(u64::from(id));
    }
}

/// Solves every position reachable from `start` with the default
/// [`Config`]. See [`solve_with`].
///
/// # Errors
/// As [`solve_with`].
pub fn solve<G: Game>(game: &G, start: G::Position) -> Result<Solution<'_, G>, Error> {
    solve_with(game, start, &Config::default())
}

/// Solves every position reachable from `start`: any [`Game`], cycles
/// allowed.
///
/// Positions are found breadth-first and numbered through a hash map; the
/// distinct moves between them are stored, then reversed, and the
/// retrograde propagation runs over the reverse graph.
///
/// **Memory:** [`BYTES_PER_MOVE`] = 8 bytes a distinct move at the peak,
/// plus per position the position twice (list and hash map), about 16
/// bytes of map overhead and 20 bytes of counters, offsets and table. The
/// count is kept as the graph grows and the solve stops with
/// [`Error::TooLarge`] as soon as it passes the memory limit — before the
/// memory is taken, not by running out of it.
///
/// Time: O(positions + moves) hash operations.
///
/// # Errors
/// [`Error::TooLarge`] over the memory limit or past 2³² positions;
/// [`Error::TooDeep`] past 2²⁹ plies; [`Error::TerminalDraw`] if the game
/// declares a terminal draw.
///
/// ```
/// use game_core::{Game, Outcome, Value};
/// use solver_retro::Solved;
///
/// /// A counter 0..=3 that either player may step up or down by one; whoever
/// /// reaches 3 wins. From 0 and 1 play can go back and forth forever.
/// struct Walk;
/// impl Game for Walk {
///     type Position = u8;
///     type Move = i8;
///     fn moves(&self, n: &u8, out: &mut Vec<i8>) {
///         out.push(1);
///         if *n > 0 { out.push(-1) }
///     }
///     fn play(&self, n: &u8, d: &i8) -> u8 { (*n as i8 + d) as u8 }
///     fn outcome(&self, n: &u8) -> Option<Outcome> {
///         // The player who moved to 3 has won.
///         (*n == 3).then_some(Outcome::Lose)
///     }
/// }
/// let sol = solver_retro::solve(&Walk, 0).unwrap();
/// assert_eq!(sol.value(&2), Some(Value::win(1)));
/// assert_eq!(sol.value(&1), Some(Value::DRAW)); // stepping up loses, so step down
/// assert_eq!(sol.value(&0), Some(Value::DRAW));
/// ```
pub fn solve_with<'g, G: Game>(
    game: &'g G,
    start: G::Position,
    config: &Config,
) -> Result<Solution<'g, G>, Error> {
    let limit = config.limit();
    let per_position = 2 * std::mem::size_of::<G::Position>() as u64 + 36;
    let explored = explore(game, start, |positions, moves| {
        let needed = moves * BYTES_PER_MOVE + positions * per_position;
        (needed > limit || positions > u64::from(u32::MAX)).then_some(needed)
    })
    .map_err(|needed| crate::error::too_large(if needed == u64::MAX {
            "a game of more than 2^32 positions reachable (the stored graph numbers them with u32)"
        } else {
            "the stored game graph"
        }, needed, limit, HINT))?;
    let Explored {
        ids,
        positions,
        counts,
        over,
        forward,
    } = explored;
    let mut ends = Vec::with_capacity(positions.len());
    for (p, (&k, &o)) in positions.iter().zip(counts.iter().zip(&over)) {
        ends.push(if o || k == 0 {
            terminal(game, p, k > 0)?
        } else {
            None
        });
    }
    drop(over);
    let n = positions.len();
    // Reverse the graph: parents of each child, grouped by child.
    let mut offsets = vec![0u64; n + 1];
    for &c in &forward {
        offsets[c as usize + 1] += 1;
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut cursor = offsets[..n].to_vec();
    let mut reverse = vec![0u32; forward.len()];
    let mut at = 0usize;
    for (p, &k) in counts.iter().enumerate() {
        for &c in &forward[at..at + k as usize] {
            reverse[cursor[c as usize] as usize] = p as u32;
            cursor[c as usize] += 1;
        }
        at += k as usize;
    }
    let moves_total = forward.len() as u64;
    drop(forward);
    drop(cursor);
    let mut cells = Cells::new(n, None::<u32>, limit)?;
    let mut seeds = Seeds::default();
    for i in 0..n {
        match ends[i] {
            Some(o) => seed(&mut cells, i as u32, o, &mut seeds),
            None => cells[i] = u32::counter(u64::from(counts[i])),
        }
    }
    drop(ends);
    let stored = Stored {
        offsets: &offsets,
        reverse: &reverse,
    };
    config.install(|| propagate(&mut cells, seeds, &stored, false, config))?;
    Ok(Solution {
        game,
        ids,
        positions,
        table: Table::wide(cells),
        moves: moves_total,
    })
}

/// Bytes [`solve_indexed_with`] takes for each index at its peak, besides
/// 4 bytes a distinct move: a 4-byte cell, an 8-byte offset into the
/// reverse graph and, while the graph is filled, an 8-byte cursor (the
/// engine's lists, which follow it, take less but for tiny games).
pub const INDEXED_BYTES: u64 = 20;

/// The bytes [`solve_indexed_with`] takes at its peak for `size` indices
/// and `moves` distinct moves: the cells (4 bytes), offsets (8) and the
/// reverse graph (4 a move) throughout, with either the cursor that fills
/// the graph (8 an index) or, once it is freed, the engine's lists.
fn indexed_bytes(size: u64, moves: u64, config: &Config) -> u64 {
    let extra = size
        .saturating_mul(8)
        .max(crate::engine::working_bytes::<u32>(size, config));
    size.saturating_mul(12)
        .saturating_add(8)
        .saturating_add(moves.saturating_mul(4))
        .saturating_add(extra)
}

/// Solves every index of an [`Indexed`] game with the reverse graph stored
/// (for games without [`game_core::Unmoves`]), default [`Config`].
///
/// # Errors
/// As [`solve_indexed_with`].
pub fn solve_indexed<G: Indexed>(game: &G) -> Result<IndexedSolution<'_, G>, Error> {
    solve_indexed_with(game, &Config::default())
}

/// Solves every index of an [`Indexed`] game, storing the reverse graph.
///
/// Two passes over the moves: the first counts each position's distinct
/// children and each child's parents, the second fills the reverse edge
/// list. **Memory:** 4 bytes a distinct move (a `u32` parent id) plus
/// [`INDEXED_BYTES`] = 20 bytes an index at the peak (4 of table, 8 of
/// offsets, 8 of a cursor while the edges are written). A game whose graph,
/// estimated from 4,096 evenly spaced positions, needs more than twice the
/// memory limit is refused at once; otherwise the first pass stops with
/// [`Error::TooLarge`] as soon as the moves counted so far pass the limit. Use [`crate::solve_unmoves`] where the game has predecessors: no
/// graph at all, 2 bytes a position.
///
/// # Errors
/// [`Error::TooLarge`] over the memory limit or past 2³² indices;
/// [`Error::BadIndex`] if a position's index is out of range;
/// [`Error::TooDeep`], [`Error::TerminalDraw`].
pub fn solve_indexed_with<'g, G: Indexed>(
    game: &'g G,
    config: &Config,
) -> Result<IndexedSolution<'g, G>, Error> {
    let limit = config.limit();
    let size = game.size();
    let n = index_count(size, limit, INDEXED_BYTES)?;
    let base = indexed_bytes(size, 0, config);
    let (mut moves, mut kids): (Vec<G::Move>, Vec<u32>) = (Vec::new(), Vec::new());
    // Refuse at once a graph that is clearly too large, from the distinct
    // children of evenly spaced sample positions (the exact count below
    // still stops the solve the moment it passes the limit).
    let samples = n.min(4096);
    if samples > 0 && n > 4 * samples {
        let mut sampled = 0u64;
        let mut total = 0u64;
        for k in 0..samples {
            let i = (k as u64 * size) / samples as u64;
            if let Some(pos) = game.position(i) {
                children(game, &pos, &mut moves, &mut kids)?;
                total += kids.len() as u64;
                sampled += 1;
            }
        }
        // In 128 bits: a sample's children times the size can pass 2⁶⁴.
        let moves = u128::from(total) * u128::from(size) / u128::from(sampled.max(1));
        let estimate = base.saturating_add(u64::try_from(4 * moves).unwrap_or(u64::MAX));
        if estimate > limit.saturating_mul(2) {
            return Err(crate::error::too_large(
                "the stored reverse graph (estimated from a sample of positions)",
                estimate,
                limit,
                HINT,
            ));
        }
    }
    let mut cells = Cells::new(n, Some(u32::INVALID), limit)?;
    let mut offsets = vec![0u64; n + 1];
    let mut seeds = Seeds::default();
    let mut total = 0u64;
    for i in 0..n {
        let Some(pos) = game.position(i as u64) else {
            continue;
        };
        children(game, &pos, &mut moves, &mut kids)?;
        // The seeds are not listed (up to 8 bytes a position): the
        // engine finds level 0 by a scan of the cells.
        match terminal(game, &pos, !kids.is_empty())? {
            Some(o) => {
                cells[i] = u32::resolved(o, 0);
                match o {
                    Outcome::Tie => seeds.unlisted_ties += 1,
                    _ => seeds.unlisted_decisive += 1,
                }
            }
            None => cells[i] = u32::counter(kids.len() as u64),
        }
        for &c in &kids {
            offsets[c as usize + 1] += 1;
        }
        total += kids.len() as u64;
        let needed = base.saturating_add(total.saturating_mul(4));
        if needed > limit {
            return Err(crate::error::too_large(
                "the stored reverse graph",
                needed,
                limit,
                HINT,
            ));
        }
    }
    for i in 0..n {
        offsets[i + 1] += offsets[i];
    }
    let mut reverse = vec![0u32; total as usize];
    let mut cursor = offsets[..n].to_vec();
    for i in 0..n {
        let Some(pos) = game.position(i as u64) else {
            continue;
        };
        children(game, &pos, &mut moves, &mut kids)?;
        for &c in &kids {
            // Every index that is a position was seeded above: a child
            // still invalid is no position, and its parent would wait for
            // it for ever (a draw, silently).
            if cells[c as usize] == u32::INVALID {
                return Err(Error::Broken(format!(
                    "a move from index {i} leads to index {c}, which is no position"
                )));
            }
            // The parents counted for `c` in the first pass: a game whose
            // moves differ now would write past them (another child's
            // parents, or past the list).
            if cursor[c as usize] == offsets[c as usize + 1] {
                return Err(Error::Broken(format!(
                    "index {c} has more parents than were counted (a move from index {i} \
                     to it is new: the game's moves changed between two passes)"
                )));
            }
            reverse[cursor[c as usize] as usize] = i as u32;
            cursor[c as usize] += 1;
        }
    }
    // And fewer moves now would leave parents counted but never written
    // (parent id 0, silently).
    if let Some(c) = (0..n).find(|&c| cursor[c] != offsets[c + 1]) {
        return Err(Error::Broken(format!(
            "index {c} has fewer parents than were counted (the game's moves changed \
             between two passes)"
        )));
    }
    drop(cursor);
    let stored = Stored {
        offsets: &offsets,
        reverse: &reverse,
    };
    config.install(|| propagate(&mut cells, seeds, &stored, false, config))?;
    Ok(IndexedSolution {
        game,
        table: Table::wide(cells),
        moves: Some(total),
    })
}

/// Parents from a stored reverse graph: the parents of `c` are
/// `reverse[offsets[c]..offsets[c + 1]]`; every cell is counted.
struct Stored<'a> {
    offsets: &'a [u64],
    reverse: &'a [u32],
}

impl Parents for Stored<'_> {
    type Scratch = ();

    fn parents(&self, c: u64, out: &mut ParentIndices, _: &mut ()) -> Result<(), Error> {
        let c = c as usize;
        let parents = &self.reverse[self.offsets[c] as usize..self.offsets[c + 1] as usize];
        out.singles.extend(parents.iter().map(|&p| u64::from(p)));
        Ok(())
    }
}

/// The distinct children's indices of a position that is not over.
fn children<G: Indexed>(
    game: &G,
    pos: &G::Position,
    moves: &mut Vec<G::Move>,
    kids: &mut Vec<u32>,
) -> Result<(), Error> {
    kids.clear();
    if game.outcome(pos).is_some() {
        return Ok(());
    }
    moves.clear();
    game.moves(pos, moves);
    let size = game.size();
    for m in moves.iter() {
        let index = game.index(&game.play(pos, m));
        if index >= size {
            return Err(Error::BadIndex { index, size });
        }
        kids.push(index as u32);
    }
    kids.sort_unstable();
    kids.dedup();
    Ok(())
}

/// Checks that a table of `size` cells fits in `u32` ids and the limit.
pub(crate) fn index_count(size: u64, limit: u64, bytes_each: u64) -> Result<usize, Error> {
    table_count(size, limit, bytes_each, true)
}

/// Checks that a table of `size` cells of `bytes_each` fits the limit
/// (and, with `u32_ids`, ids of 32 bits: the stored graphs number
/// positions with `u32`).
pub(crate) fn table_count(
    size: u64,
    limit: u64,
    bytes_each: u64,
    u32_ids: bool,
) -> Result<usize, Error> {
    if u32_ids && size > u64::from(u32::MAX) {
        return Err(crate::error::too_large(
            "a game of more than 2^32 positions",
            size.saturating_mul(bytes_each),
            limit,
            "",
        ));
    }
    let needed = size.saturating_mul(bytes_each);
    if needed > limit || usize::try_from(size).is_err() {
        return Err(crate::error::too_large("the table", needed, limit, ""));
    }
    Ok(size as usize)
}

#[cfg(test)]
mod tests;
