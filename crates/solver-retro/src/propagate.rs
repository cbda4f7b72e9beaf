//! Retrograde propagation over a table of cells, given the parents of each
//! position. Shared by the stored-graph and the unmoves paths; the checker
//! in `check.rs` does not use it.

use game_core::{Outcome, ParentIndices, Value};

use crate::cell::Cell;
use crate::Error;

/// Runs the propagation to its end.
///
/// On entry `cells` holds a counter of distinct unresolved children for
/// every open position, the value for every terminal one and
/// [`Cell::INVALID`] for ids that stand for no position; `decisive` holds
/// the ids of terminal wins and losses, `ties` those of terminal ties.
///
/// Phase 1 is a FIFO in remoteness order: a lost position makes every open
/// parent a win (the first found is the fastest); a won position lowers its
/// parents' counters, and a parent whose counter reaches zero is lost (the
/// last child to arrive is the slowest). Both kinds share one queue, which
/// is drained to the end. Phase 2 spreads ties from tied terminals to open
/// parents, fastest first. Whatever stays open is a draw.
///
/// With `lazy`, a cell may also be [`Cell::UNCOUNTED`]: open, children not
/// counted yet; `count` counts them the first time a won child reaches the
/// position. Without it, runs of parents are updated with one branch-free
/// loop.
pub(crate) fn propagate<C: Cell>(
    cells: &mut [C],
    mut decisive: Vec<u32>,
    mut ties: Vec<u32>,
    mut parents: impl FnMut(u32, &mut ParentIndices) -> Result<(), Error>,
    mut count: impl FnMut(u32) -> Result<u64, Error>,
    lazy: bool,
) -> Result<(), Error> {
    let mut buf = ParentIndices::default();
    let mut seen: Vec<C> = Vec::new();
    let mut head = 0;
    while let Some(&child) = decisive.get(head) {
        head += 1;
        let (v, r) = next_level(cells, child)?;
        let child_lost = v.outcome() == Outcome::Lose;
        buf.clear();
        parents(child, &mut buf)?;
        // Read every single parent's cell first: independent loads overlap
        // their cache misses, where a read-test-write loop waits on each.
        seen.clear();
        seen.extend(buf.singles.iter().map(|&p| cells[p as usize]));
        for (&p, &cell) in buf.singles.iter().zip(&seen) {
            update(
                cells,
                p as u32,
                cell,
                child_lost,
                r,
                &mut decisive,
                &mut count,
            )?;
        }
        for run in &buf.runs {
            let (lo, hi) = (run.start as usize, run.end as usize);
            if child_lost || lazy {
                for p in lo..hi {
                    let cell = cells[p];
                    update(
                        cells,
                        p as u32,
                        cell,
                        child_lost,
                        r,
                        &mut decisive,
                        &mut count,
                    )?;
                }
                continue;
            }
            let mut zero = false;
            for c in &mut cells[lo..hi] {
                *c = c.dec_open();
                zero |= *c == C::counter(0);
            }
            if zero {
                for (k, c) in cells[lo..hi].iter_mut().enumerate() {
                    if *c == C::counter(0) {
                        *c = C::resolved(Outcome::Lose, r);
                        decisive.push((lo + k) as u32);
                    }
                }
            }
        }
    }
    let mut head = 0;
    while let Some(&child) = ties.get(head) {
        head += 1;
        let (_, r) = next_level(cells, child)?;
        buf.clear();
        parents(child, &mut buf)?;
        for p in buf.iter() {
            let cell = &mut cells[p as usize];
            if cell.open().is_some() {
                *cell = C::resolved(Outcome::Tie, r);
                ties.push(p as u32);
            }
        }
    }
    Ok(())
}

/// The value of a queued (resolved) position and the remoteness its
/// parents get from it.
fn next_level<C: Cell>(cells: &[C], child: u32) -> Result<(Value, u64), Error> {
    let v = cells[child as usize]
        .value()
        .expect("queued cells are valid");
    let r = u64::from(v.remoteness().expect("queued cells are resolved")) + 1;
    if r > C::MAX_REMOTENESS {
        return Err(Error::TooDeep {
            max: C::MAX_REMOTENESS,
        });
    }
    Ok((v, r))
}

/// One parent of a decided child: a lost child makes an open parent won; a
/// won child lowers the parent's counter (counting its children first if
/// it waits to be counted) and makes it lost at zero.
#[inline]
fn update<C: Cell>(
    cells: &mut [C],
    p: u32,
    cell: C,
    child_lost: bool,
    r: u64,
    decisive: &mut Vec<u32>,
    count: &mut impl FnMut(u32) -> Result<u64, Error>,
) -> Result<(), Error> {
    let Some(mut open) = cell.open() else {
        return Ok(());
    };
    let new = if child_lost {
        decisive.push(p);
        C::resolved(Outcome::Win, r)
    } else {
        if open == C::UNCOUNTED {
            open = count(p)?;
            if open > C::MAX_COUNT {
                return Err(Error::TooManyChildren { max: C::MAX_COUNT });
            }
        }
        if open <= 1 {
            decisive.push(p);
            C::resolved(Outcome::Lose, r)
        } else {
            C::counter(open - 1)
        }
    };
    cells[p as usize] = new;
    Ok(())
}
