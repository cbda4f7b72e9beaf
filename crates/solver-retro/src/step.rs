//! One level step, as every executor runs it: the rayon engine of this
//! crate (its `engine` module) and solver-cluster's shard loop both call
//! what is here, so that a cell is updated by one rule wherever it lives.
//!
//! A step turns level `r` (the positions resolved with remoteness `r`)
//! into level `r + 1` ([`Phase::Decisive`]: lost children make their
//! parents wins, won children count their parents down, a count reaching
//! zero makes a loss; then [`Phase::Ties`]: tied children make their open
//! parents ties). What an executor owns is how the updates reach the cells
//! — an owner's inbox between threads, a timely exchange between
//! processes; the inputs and the rule are these:
//!
//! * [`Seeds`]: what the seeding found — level 0's positions and the
//!   *events* of children outside the cells ([`push_event`], read back
//!   with [`event_level`], [`event_id`], [`event_lost`] and
//!   [`level_events`]).
//! * [`Parents`]: where the parents of a resolved position come from (a
//!   stored reverse graph, the game's unmoves:
//!   [`UnmovesParents`](crate::UnmovesParents),
//!   [`TierUnmovesParents`](crate::TierUnmovesParents)).
//! * [`update`]: one parent's cell updated by one child, and [`dec_run`]:
//!   a run of parents of one won child counted down in one pass.
//! * [`level_cells`] and [`next_in_level`](crate::next_in_level): a level
//!   found by scanning cells instead of listing it.
//!
//! ```
//! use solver_retro::step::{update, Phase, Updated};
//! use solver_retro::{Cell, Outcome};
//!
//! // An open position with two unresolved children: a won child counts
//! // it down, a lost one makes it a win at the level being made.
//! let open = u16::counter(2);
//! let none = || unreachable!("the cell is counted");
//! assert_eq!(update(open, 7, false, Phase::Decisive, 3, none)?, Updated::Counted(u16::counter(1)));
//! assert_eq!(
//!     update(open, 7, true, Phase::Decisive, 3, none)?,
//!     Updated::Resolved(u16::resolved(Outcome::Win, 3))
//! );
//! // Its last child won: a loss.
//! assert_eq!(
//!     update(u16::counter(1), 7, false, Phase::Decisive, 3, none)?,
//!     Updated::Resolved(u16::resolved(Outcome::Lose, 3))
//! );
//! // A loss takes no update while wins and losses spread: a broken promise.
//! assert!(update(u16::resolved(Outcome::Lose, 1), 7, false, Phase::Decisive, 3, none).is_err());
//! # Ok::<(), solver_retro::Error>(())
//! ```

use game_core::{Outcome, ParentIndices, ParentVisitor};

use crate::cell::Cell;
use crate::Error;

/// Which half of a solve is running: wins and losses, then ties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Lost children make wins, won children count down to losses.
    Decisive,
    /// Tied children make their open parents ties.
    Ties,
}

/// Bits of an event's id.
pub(crate) const ID_BITS: u32 = 40;
/// The largest id an event can carry (a tier of 2⁴⁰ indices).
pub const MAX_EVENT_ID: u64 = (1 << ID_BITS) - 1;
/// The largest level an event can carry.
pub const MAX_EVENT_LEVEL: u64 = (1 << 22) - 1;

/// The sort key of the events of `level` for `id` (lost bit clear).
pub(crate) fn key(tie: bool, level: u64, id: u64) -> u64 {
    debug_assert!(level <= MAX_EVENT_LEVEL && id <= MAX_EVENT_ID);
    (u64::from(tie) << 63) | (level << (ID_BITS + 1)) | (id << 1)
}

/// The id an event (made by [`push_event`]) is for.
#[inline]
#[must_use]
pub fn event_id(e: u64) -> u64 {
    (e >> 1) & MAX_EVENT_ID
}

/// The level an event (made by [`push_event`]) is applied at: its child's
/// remoteness.
#[inline]
#[must_use]
pub fn event_level(e: u64) -> u64 {
    (e >> (ID_BITS + 1)) & MAX_EVENT_LEVEL
}

/// Whether an event's child was lost (its parent becomes a win).
#[inline]
#[must_use]
pub fn event_lost(e: u64) -> bool {
    e & 1 == 1
}

/// Whether an event belongs to [`Phase::Ties`] (its child was tied).
#[inline]
#[must_use]
pub fn event_tied(e: u64) -> bool {
    e >> 63 == 1
}

/// The events of level `r` of a phase (`tie`), in id order: a run of the
/// sorted `events`, found by its phase and level bits rather than by a key
/// past it (which would wrap past the last level an event can carry).
///
/// ```
/// use solver_retro::step::{level_events, push_event, event_id};
/// use solver_retro::Outcome;
///
/// let mut events = Vec::new();
/// push_event(&mut events, 2, 9, Outcome::Win)?;
/// push_event(&mut events, 0, 4, Outcome::Lose)?;
/// push_event(&mut events, 2, 5, Outcome::Tie)?;
/// push_event(&mut events, 2, 3, Outcome::Lose)?;
/// events.sort_unstable();
/// let ids = |l: &[u64]| l.iter().map(|&e| event_id(e)).collect::<Vec<_>>();
/// assert_eq!(ids(level_events(&events, false, 2)), [3, 9]);
/// assert_eq!(ids(level_events(&events, true, 2)), [5]);
/// assert_eq!(ids(level_events(&events, false, 1)), [] as [u64; 0]);
/// # Ok::<(), solver_retro::Error>(())
/// ```
#[must_use]
pub fn level_events(events: &[u64], tie: bool, r: u64) -> &[u64] {
    if r > MAX_EVENT_LEVEL {
        return &[];
    }
    let a = events.partition_point(|&e| e < key(tie, r, 0));
    let n = events[a..].partition_point(|&e| event_tied(e) == tie && event_level(e) == r);
    &events[a..a + n]
}

/// Adds to `events` the event "a child of `id` resolved at `level` with
/// `outcome`" (lose, win or tie), packed in 8 bytes: phase, level, id and
/// whether the child was lost, in that order of bits, so that sorting the
/// events sorts them by phase, level and id.
///
/// # Errors
/// [`Error::TooDeep`] past [`MAX_EVENT_LEVEL`], [`Error::Broken`] for an
/// id past [`MAX_EVENT_ID`].
pub fn push_event(
    events: &mut Vec<u64>,
    level: u64,
    id: u64,
    outcome: Outcome,
) -> Result<(), Error> {
    if level > MAX_EVENT_LEVEL {
        return Err(Error::TooDeep {
            max: MAX_EVENT_LEVEL,
        });
    }
    if id > MAX_EVENT_ID {
        return Err(Error::Broken(format!(
            "index {id} of a tier with outside children is past 2^40, the most the engine tracks"
        )));
    }
    events.push(key(outcome == Outcome::Tie, level, id) | u64::from(outcome == Outcome::Lose));
    Ok(())
}

/// Where the parents of a resolved position come from: the parents
/// source every executor asks.
pub trait Parents: Sync {
    /// Per-owner (per-worker) scratch memory.
    type Scratch: Default + Send;

    /// Adds the ids of the distinct open-able parents of `id` to `out`.
    ///
    /// # Errors
    /// A broken promise of the game ([`Error::Broken`], [`Error::BadIndex`]).
    fn parents(&self, id: u64, out: &mut ParentIndices, s: &mut Self::Scratch)
        -> Result<(), Error>;

    /// Sends the parents of `id` to `visit`: the same as
    /// [`Parents::parents`], without a list between where the source
    /// can. The default fills `buf` and sends what it holds.
    ///
    /// # Errors
    /// As [`Parents::parents`].
    fn visit<V: ParentVisitor>(
        &self,
        id: u64,
        buf: &mut ParentIndices,
        s: &mut Self::Scratch,
        visit: &mut V,
    ) -> Result<(), Error> {
        buf.clear();
        self.parents(id, buf, s)?;
        buf.send_to(visit);
        Ok(())
    }

    /// Counts the distinct children of `id` (for cells left
    /// [`Cell::UNCOUNTED`]).
    ///
    /// # Errors
    /// [`Error::Broken`] by default: a source that cannot count.
    fn count(&self, _id: u64, _s: &mut Self::Scratch) -> Result<u64, Error> {
        Err(Error::Broken(
            "a cell was left uncounted by a source that cannot count".into(),
        ))
    }
}

/// A solve's inputs besides the cells: what the seeding found.
#[derive(Debug, Default)]
pub struct Seeds {
    /// Positions resolved (won or lost) at level 0.
    pub decisive: Vec<u64>,
    /// Positions tied at level 0.
    pub ties: Vec<u64>,
    /// Children outside the cells, in any order (see [`push_event`]).
    pub events: Vec<u64>,
    /// Positions the seeding resolved, won or lost, at level 1 (their
    /// cells hold the value; level 1 is then found by a scan).
    pub settled_at_one: u64,
    /// Won or lost seeds not listed: `decisive` is then empty and level 0
    /// is found by a scan of the cells.
    pub unlisted_decisive: u64,
    /// Tied seeds not listed: `ties` is then empty and the ties' level 0
    /// is found by a scan.
    pub unlisted_ties: u64,
    /// Positions the seeding left open (a counter in their cell), where
    /// it counted them: for the progress reports only
    /// ([`crate::Progress::Expanded`]'s `positions`).
    pub open: Option<u64>,
}

/// What [`update`] made of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Updated<C> {
    /// Left as it was (resolved before, in this level or earlier).
    Unchanged,
    /// Still open, counted down to this.
    Counted(C),
    /// Resolved at the level being made, to this: it belongs to the next
    /// level.
    Resolved(C),
}

/// The update rule: what a parent's `cell` (of id `id`) becomes when a
/// child of it is resolved at the current level — lost (`lost`) or won
/// in [`Phase::Decisive`], tied in [`Phase::Ties`] — making level `next`.
/// An open parent of a lost (tied) child becomes a win (tie) at `next`;
/// a won child counts its parent down, and the last one makes it a loss
/// at `next`. `count` gives the parent's distinct children when its cell
/// is [`Cell::UNCOUNTED`].
///
/// # Errors
/// The game broke a promise, as the cell shows it: an update reaching a
/// loss or no position while wins and losses spread, or no position
/// while ties do ([`Cell::refuses_update_in`]), or more won children
/// than children; [`Error::TooManyChildren`] when a count does not fit
/// in `C` (the caller may solve again in wider cells); whatever `count`
/// returns.
#[inline]
pub fn update<C: Cell>(
    cell: C,
    id: u64,
    lost: bool,
    phase: Phase,
    next: u64,
    count: impl FnOnce() -> Result<u64, Error>,
) -> Result<Updated<C>, Error> {
    let Some(mut open) = cell.open() else {
        return match refused(phase, id, cell) {
            Some(e) => Err(e),
            None => Ok(Updated::Unchanged),
        };
    };
    Ok(Updated::Resolved(match phase {
        Phase::Ties => C::resolved(Outcome::Tie, next),
        Phase::Decisive if lost => C::resolved(Outcome::Win, next),
        Phase::Decisive => {
            if open == C::UNCOUNTED {
                open = count()?;
                if open > C::MAX_COUNT {
                    return Err(Error::TooManyChildren { max: C::MAX_COUNT });
                }
            }
            match open {
                0 => return Err(too_many_updates(id)),
                1 => C::resolved(Outcome::Lose, next),
                _ => return Ok(Updated::Counted(C::counter(open - 1))),
            }
        }
    }))
}

/// Lowers by one every open counter in `cells`, the parents of a won
/// child ([`Cell::dec_open_run`]); a counter that reaches zero becomes
/// `lose` and its offset goes to `record` (the next level). `Some(k)`:
/// the `k`-th cell refuses the update (the run is then left half done,
/// for an error).
///
/// ```
/// use solver_retro::step::dec_run;
/// use solver_retro::{Cell, Outcome};
///
/// let lose = u16::resolved(Outcome::Lose, 4);
/// let mut cells = [u16::counter(3), u16::counter(1), u16::resolved(Outcome::Win, 2)];
/// let mut made = Vec::new();
/// assert_eq!(dec_run(&mut cells, lose, |i| made.push(i)), None);
/// assert_eq!(cells, [u16::counter(2), lose, u16::resolved(Outcome::Win, 2)]);
/// assert_eq!(made, [1]);
/// ```
#[inline]
pub fn dec_run<C: Cell>(cells: &mut [C], lose: C, mut record: impl FnMut(usize)) -> Option<usize> {
    let zero = match C::dec_open_run(cells) {
        Ok(zero) => zero,
        Err(k) => return Some(k),
    };
    if zero {
        for (i, c) in cells.iter_mut().enumerate() {
            if *c == C::counter(0) {
                *c = lose;
                record(i);
            }
        }
    }
    None
}

/// The two cell values a scanned level `r` is made of in `phase`: lost
/// and won positions while wins and losses spread, tied ones (twice)
/// after ([`crate::next_in_level`] finds them).
#[must_use]
pub fn level_cells<C: Cell>(phase: Phase, r: u64) -> [C; 2] {
    match phase {
        Phase::Decisive => [C::resolved(Outcome::Lose, r), C::resolved(Outcome::Win, r)],
        Phase::Ties => [C::resolved(Outcome::Tie, r); 2],
    }
}

/// The error for an update that parent `id`, holding `cell` (not open),
/// refuses in `phase`, if it does ([`Cell::refuses_update_in`]).
#[inline]
pub(crate) fn refused<C: Cell>(phase: Phase, id: u64, cell: C) -> Option<Error> {
    cell.refuses_update_in(phase == Phase::Ties)
        .then(|| refused_cell(id, cell))
}

/// The error for an update parent `id`, holding `cell`, refuses.
#[cold]
pub(crate) fn refused_cell<C: Cell>(id: u64, cell: C) -> Error {
    Error::refused_update(id, cell == C::INVALID)
}

/// The error for a position that gets more updates from won children
/// than it has children.
#[cold]
pub(crate) fn too_many_updates(id: u64) -> Error {
    Error::refused_update(id, false)
}
