//! The graph-free path: a dense index and predecessors ("unmoves").

use game_core::{IndexedUnmoves, Outcome};

use crate::cell::{Cell, Cells, Table};
use crate::propagate::propagate;
use crate::solution::IndexedSolution;
use crate::stored::index_count;
use crate::{Config, Error};

/// Solves every index of a game with a dense index and predecessors, with
/// the default [`Config`]. See [`solve_unmoves_with`].
///
/// # Errors
/// As [`solve_unmoves_with`].
pub fn solve_unmoves<G: IndexedUnmoves>(game: &G) -> Result<IndexedSolution<'_, G>, Error> {
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
/// without ever being looked at. Cells are 2 bytes
/// when counts stay below 2¹⁵ and remoteness below 2¹³, else the solve
/// restarts with 4-byte cells. Plus a queue of 4 bytes for each position
/// that is won, lost or tied.
///
/// Time: one `child_count` a position, one `unmoves` a resolved position.
///
/// # Errors
/// [`Error::TooLarge`] over the memory limit or past 2³² indices;
/// [`Error::BadIndex`], [`Error::TooDeep`], [`Error::TerminalDraw`].
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
/// assert_eq!(sol.bytes_per_position(), 2);
/// ```
pub fn solve_unmoves_with<'g, G: IndexedUnmoves>(
    game: &'g G,
    config: &Config,
) -> Result<IndexedSolution<'g, G>, Error> {
    let table = match run::<G, u16>(game, config.limit())? {
        Some(cells) => Table::Narrow(cells),
        None => Table::Wide(run::<G, u32>(game, config.limit())?.ok_or(Error::TooDeep {
            max: u32::MAX_REMOTENESS,
        })?),
    };
    Ok(IndexedSolution {
        game,
        table,
        moves: None,
    })
}

/// `Ok(None)` when the cell type is too narrow for this game.
fn run<G: IndexedUnmoves, C: Cell>(game: &G, limit: u64) -> Result<Option<Cells<C>>, Error> {
    let size = game.size();
    let n = index_count(size, limit, C::BYTES)?;
    let (mut decisive, mut ties) = (Vec::new(), Vec::new());
    let (mut moves, mut scratch) = (Vec::new(), Vec::new());
    let mut seed = |cells: &mut [C], i: usize, outcome: Outcome| -> Result<(), Error> {
        if cells[i]
            .value()
            .is_some_and(|v| v != game_core::Value::DRAW)
        {
            return Ok(()); // listed twice: queued once
        }
        match outcome {
            Outcome::Draw => return Err(Error::TerminalDraw),
            Outcome::Tie => ties.push(i as u32),
            _ => decisive.push(i as u32),
        }
        cells[i] = C::resolved(outcome, 0);
        Ok(())
    };
    let mut listed = Vec::new();
    let listed_ends = game.terminal_indices(&mut listed);
    let mut counts = vec![0u32; n.clamp(1, 1 << 16)];
    let bulk = game.child_counts(0, &mut counts);
    let mut cells;
    if bulk {
        // Counts in bulk; an index with no children that the scan or the
        // list below does not seed is no position. Every cell is written.
        cells = Cells::new(n, None, limit)?;
        for start in (0..n).step_by(counts.len()) {
            let chunk = &mut counts[..(n - start).min(1 << 16)];
            if start > 0 {
                game.child_counts(start as u64, chunk);
            }
            if chunk.iter().fold(0, |m, &k| m.max(k)) as u64 > C::MAX_COUNT {
                return Ok(None);
            }
            for (c, &k) in cells[start..].iter_mut().zip(chunk.iter()) {
                *c = C::count_or_invalid(k);
            }
        }
    } else if listed_ends {
        // Every other position is open; its children are counted only if a
        // won child ever reaches it.
        cells = Cells::new(n, Some(C::counter(C::UNCOUNTED)), limit)?;
    } else {
        cells = Cells::new(n, Some(C::INVALID), limit)?;
    }
    if listed_ends {
        for &i in &listed {
            let pos = game
                .position(i)
                .filter(|_| i < size)
                .ok_or(Error::BadIndex { index: i, size })?;
            let outcome = game.outcome(&pos).unwrap_or_else(|| game.stalemate(&pos));
            seed(&mut cells, i as usize, outcome)?;
        }
    } else {
        for i in 0..n {
            let Some(pos) = game.position(i as u64) else {
                cells[i] = C::INVALID;
                continue;
            };
            let outcome = match game.outcome(&pos) {
                None if bulk && cells[i] != C::INVALID => continue,
                None => match game.child_count(&pos, &mut moves, &mut scratch) as u64 {
                    0 => game.stalemate(&pos),
                    count if count > C::MAX_COUNT => return Ok(None),
                    count => {
                        cells[i] = C::counter(count);
                        continue;
                    }
                },
                Some(o) => o,
            };
            seed(&mut cells, i, outcome)?;
        }
    }
    drop(listed);
    drop(counts);
    let lazy = listed_ends && !bulk;
    let mut positions = Vec::new();
    let result = propagate(
        &mut cells,
        decisive,
        ties,
        |c, out| {
            game.unmove_indices(u64::from(c), out, &mut positions);
            let bad = out.singles.iter().copied().find(|&i| i >= size);
            let bad = bad.or(out.runs.iter().find(|r| r.end > size).map(|r| r.end - 1));
            match bad {
                Some(index) => Err(Error::BadIndex { index, size }),
                None => Ok(()),
            }
        },
        |p| {
            let pos = game.position(u64::from(p)).expect("a parent is a position");
            match game.child_count(&pos, &mut moves, &mut scratch) {
                0 => Err(game_core::Error::InvalidPosition(
                    "terminal_indices left out a position with no move".into(),
                )
                .into()),
                k => Ok(k as u64),
            }
        },
        lazy,
    );
    match result {
        Ok(()) => Ok(Some(cells)),
        Err(Error::TooDeep { .. } | Error::TooManyChildren { .. }) if C::BYTES < 4 => Ok(None),
        Err(e) => Err(e),
    }
}
