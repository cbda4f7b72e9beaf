//! Retrograde propagation over a table of cells, given the parents of each
//! position. Shared by the stored-graph and the unmoves paths; the checker
//! in `check.rs` does not use it.

use game_core::Outcome;

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
/// A cell may also be [`Cell::UNCOUNTED`]: open, children not counted yet;
/// `count` counts them the first time a won child reaches the position.
pub(crate) fn propagate<C: Cell>(
    cells: &mut [C],
    mut decisive: Vec<u32>,
    mut ties: Vec<u32>,
    mut parents: impl FnMut(u32, &mut Vec<u32>) -> Result<(), Error>,
    mut count: impl FnMut(u32) -> Result<u64, Error>,
) -> Result<(), Error> {
    let too_deep = Error::TooDeep {
        max: C::MAX_REMOTENESS,
    };
    let mut buf = Vec::new();
    let mut seen: Vec<C> = Vec::new();
    let mut head = 0;
    while let Some(&child) = decisive.get(head) {
        head += 1;
        let v = cells[child as usize]
            .value()
            .expect("queued cells are valid");
        let r = u64::from(v.remoteness().expect("decisive")) + 1;
        if r > C::MAX_REMOTENESS {
            return Err(too_deep);
        }
        let child_lost = v.outcome() == Outcome::Lose;
        buf.clear();
        parents(child, &mut buf)?;
        // Read every parent's cell first: independent loads overlap their
        // cache misses, where a read-test-write loop would wait on each.
        seen.clear();
        seen.extend(buf.iter().map(|&p| cells[p as usize]));
        for (&p, &cell) in buf.iter().zip(&seen) {
            let Some(mut open) = cell.open() else {
                continue;
            };
            if !child_lost && open == C::UNCOUNTED {
                open = count(p)?;
                if open > C::MAX_COUNT {
                    return Err(Error::TooManyChildren { max: C::MAX_COUNT });
                }
            }
            let new = if child_lost {
                decisive.push(p);
                C::resolved(Outcome::Win, r)
            } else if open <= 1 {
                decisive.push(p);
                C::resolved(Outcome::Lose, r)
            } else {
                C::counter(open - 1)
            };
            cells[p as usize] = new;
        }
    }
    let mut head = 0;
    while let Some(&child) = ties.get(head) {
        head += 1;
        let v = cells[child as usize]
            .value()
            .expect("queued cells are valid");
        let r = u64::from(v.remoteness().expect("tie")) + 1;
        if r > C::MAX_REMOTENESS {
            return Err(too_deep);
        }
        buf.clear();
        parents(child, &mut buf)?;
        for &p in &buf {
            let cell = &mut cells[p as usize];
            if cell.open().is_some() {
                *cell = C::resolved(Outcome::Tie, r);
                ties.push(p);
            }
        }
    }
    Ok(())
}
