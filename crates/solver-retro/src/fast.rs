//! The graph-free path: a dense index and predecessors ("unmoves").

use game_core::{Indexed, Outcome, Unmoves};

use crate::cell::{Cell, Table};
use crate::propagate::propagate;
use crate::solution::IndexedSolution;
use crate::stored::index_count;
use crate::{Config, Error};

/// Solves every index of a game with a dense index and predecessors, with
/// the default [`Config`]. See [`solve_unmoves_with`].
///
/// # Errors
/// As [`solve_unmoves_with`].
pub fn solve_unmoves<G: Indexed + Unmoves>(game: &G) -> Result<IndexedSolution<'_, G>, Error> {
    solve_unmoves_with(game, &Config::default())
}

/// Solves every index of a game with a dense index and predecessors: no
/// graph is stored.
///
/// One cell a position holds the count of unresolved children while the
/// position is open ([`Unmoves::child_count`]) and its value once resolved;
/// parents come from [`Unmoves::unmoves`] on the fly. Cells are 2 bytes
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
/// use game_core::{Game, Indexed, Unmoves, Value};
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
/// let sol = solver_retro::solve_unmoves(&Take12).unwrap();
/// assert_eq!(sol.value(&9), Some(Value::lose(6)));
/// assert_eq!(sol.bytes_per_position(), 2);
/// ```
pub fn solve_unmoves_with<'g, G: Indexed + Unmoves>(
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
fn run<G: Indexed + Unmoves, C: Cell>(game: &G, limit: u64) -> Result<Option<Vec<C>>, Error> {
    let size = game.size();
    let n = index_count(size, limit, C::BYTES)?;
    let mut cells = vec![C::INVALID; n];
    let (mut decisive, mut ties) = (Vec::new(), Vec::new());
    let (mut moves, mut scratch) = (Vec::new(), Vec::new());
    for (i, cell) in cells.iter_mut().enumerate() {
        let Some(pos) = game.position(i as u64) else {
            continue;
        };
        let outcome = match game.outcome(&pos) {
            None => match game.child_count(&pos, &mut moves, &mut scratch) as u64 {
                0 => game.stalemate(&pos),
                count if count > C::MAX_COUNT => return Ok(None),
                count => {
                    *cell = C::counter(count);
                    continue;
                }
            },
            Some(o) => o,
        };
        match outcome {
            Outcome::Draw => return Err(Error::TerminalDraw),
            Outcome::Tie => ties.push(i as u32),
            _ => decisive.push(i as u32),
        }
        *cell = C::resolved(outcome, 0);
    }
    drop(moves);
    drop(scratch);
    let mut preds = Vec::new();
    let mut bad = None;
    let result = propagate(&mut cells, decisive, ties, |c, out| {
        let pos = game
            .position(u64::from(c))
            .expect("queued ids are positions");
        preds.clear();
        game.unmoves(&pos, &mut preds);
        for p in &preds {
            let index = game.index(p);
            if index >= size {
                bad = Some(index);
                continue;
            }
            out.push(index as u32);
        }
    });
    if let Some(index) = bad {
        return Err(Error::BadIndex { index, size });
    }
    match result {
        Ok(()) => Ok(Some(cells)),
        Err(Error::TooDeep { .. }) if C::BYTES < 4 => Ok(None),
        Err(e) => Err(e),
    }
}
