//! The one terminal-outcome routine every path seeds with, the one
//! reading of a tier position's children outside its tier, and the one
//! bulk count of children.

use game_core::{Game, IndexedUnmoves, Outcome, Tier, Tiered, Value};

use crate::{Cell, Error};

/// The terminal outcome at `pos` given whether it has moves, or `None` when
/// play goes on: [`Game::outcome`] where the game decides its own end, else
/// [`Game::stalemate`] for a position with no move. A declared draw is an
/// error (a draw is found, never declared).
///
/// # Errors
/// [`Error::TerminalDraw`] for a declared draw.
///
/// ```
/// use game_core::{Game, Outcome};
/// # struct Nim;
/// # impl Game for Nim {
/// #     type Position = u64;
/// #     type Move = u64;
/// #     fn moves(&self, n: &u64, out: &mut Vec<u64>) { out.extend(1..=*n) }
/// #     fn play(&self, n: &u64, t: &u64) -> u64 { n - t }
/// # }
/// // A pile of none: no move, and the player to move loses (the default
/// // stalemate).
/// assert_eq!(solver_retro::terminal(&Nim, &0, false), Ok(Some(Outcome::Lose)));
/// assert_eq!(solver_retro::terminal(&Nim, &3, true), Ok(None));
/// ```
pub fn terminal<G: Game>(
    game: &G,
    pos: &G::Position,
    has_moves: bool,
) -> Result<Option<Outcome>, Error> {
    let o = match game.outcome(pos) {
        Some(o) => Some(o),
        None if !has_moves => Some(game.stalemate(pos)),
        None => None,
    };
    if o == Some(Outcome::Draw) {
        return Err(Error::TerminalDraw);
    }
    Ok(o)
}

/// What the children of a tier's position that lie outside the tier
/// say, read from the solved child tiers ([`outside_children`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outside {
    /// The fastest lost child's remoteness, if any child is lost.
    pub lost: Option<u64>,
    /// The slowest won child's remoteness, if any child is won.
    pub won: Option<u64>,
    /// The fastest tied child's remoteness, if any child is tied.
    pub tied: Option<u64>,
    /// Whether any child lies outside.
    pub any: bool,
    /// Whether every child outside is won (true when none is).
    pub all_won: bool,
}

impl Outside {
    /// The outcome and the remoteness of the child that decides it, for a
    /// position whose children all lie outside its tier: won after the
    /// fastest lost child, else lost after the slowest won one when all
    /// are won, else tied after the fastest tied one; `None` (a draw)
    /// otherwise. The position's remoteness is one more.
    ///
    /// ```
    /// use game_core::Outcome;
    /// use solver_retro::Outside;
    ///
    /// let o = Outside { lost: None, won: Some(4), tied: None, any: true, all_won: true };
    /// assert_eq!(o.decided(), Some((Outcome::Lose, 4)));
    /// let o = Outside { lost: Some(2), won: Some(4), tied: None, any: true, all_won: false };
    /// assert_eq!(o.decided(), Some((Outcome::Win, 2)));
    /// ```
    #[must_use]
    #[inline]
    pub fn decided(&self) -> Option<(Outcome, u64)> {
        match (self.lost, self.all_won, self.tied) {
            (Some(r), _, _) => Some((Outcome::Win, r)),
            (None, true, _) => Some((Outcome::Lose, self.won.unwrap_or(0))),
            (None, false, Some(r)) => Some((Outcome::Tie, r)),
            _ => None,
        }
    }

    /// The value of a position of `tier`, a tier every move leaves
    /// ([`Tiered::leaves_tier`]), given its children outside and the
    /// number found `inside` (none, or the game broke its promise):
    /// [`Outside::decided`] one ply on, `None` for a draw.
    ///
    /// # Errors
    /// [`Error::Broken`] when a child lies inside; [`Error::TooDeep`] past
    /// a remoteness of `max`.
    ///
    /// ```
    /// use game_core::{OneTier, Outcome};
    /// use solver_retro::{Error, Outside};
    /// # use game_core::{Game, Indexed};
    /// # struct Two;
    /// # impl Game for Two {
    /// #     type Position = u64;
    /// #     type Move = ();
    /// #     fn moves(&self, _: &u64, _: &mut Vec<()>) {}
    /// #     fn play(&self, n: &u64, _: &()) -> u64 { *n }
    /// # }
    /// # impl Indexed for Two {
    /// #     fn size(&self) -> u64 { 2 }
    /// #     fn index(&self, n: &u64) -> u64 { *n }
    /// #     fn position(&self, i: u64) -> Option<u64> { Some(i) }
    /// # }
    /// let game = OneTier(Two);
    /// let lost = |r| Outside { lost: Some(r), won: None, tied: None, any: true, all_won: false };
    /// assert_eq!(lost(6).leaving(&game, 0, 0, 100), Ok(Some((Outcome::Win, 7))));
    /// assert_eq!(lost(100).leaving(&game, 0, 0, 100), Err(Error::TooDeep { max: 100 }));
    /// assert_eq!(lost(u64::MAX).leaving(&game, 0, 0, 100), Err(Error::TooDeep { max: 100 }));
    /// assert!(matches!(lost(6).leaving(&game, 0, 1, 100), Err(Error::Broken(_))));
    /// ```
    #[inline]
    pub fn leaving<G: Tiered>(
        &self,
        game: &G,
        tier: Tier,
        inside: usize,
        max: u64,
    ) -> Result<Option<(Outcome, u64)>, Error> {
        if inside > 0 {
            return Err(stays_inside(game, tier));
        }
        match self.decided() {
            Some((o, r)) => match r.checked_add(1).filter(|&d| d <= max) {
                Some(d) => Ok(Some((o, d))),
                None => Err(Error::TooDeep { max }),
            },
            None => Ok(None),
        }
    }
}

/// The error of a move that stays inside `tier`, which the game says every
/// move leaves (out of line: the seeding's hot path only tests for it).
#[cold]
fn stays_inside<G: Tiered>(game: &G, tier: Tier) -> Error {
    Error::Broken(format!(
        "a move stays inside tier {}, which the game says every move leaves",
        game.tier_name(tier)
    ))
}

/// The error of a child of a position of `tier` at index `k` of tier `t`
/// that cannot be read: `t` is not a declared child tier (`undeclared`),
/// or the index is no position there.
#[cold]
fn unreadable_child<G: Tiered>(game: &G, tier: Tier, t: Tier, k: u64, undeclared: bool) -> Error {
    Error::Broken(if undeclared {
        format!(
            "a move from tier {} reaches tier {}, which is not among its declared child tiers",
            game.tier_name(tier),
            game.tier_name(t)
        )
    } else {
        format!(
            "a move from tier {} reaches index {k} of tier {}, which is no position",
            game.tier_name(tier),
            game.tier_name(t)
        )
    })
}

/// Splits the children `kids` (tier and index of each) of a position of
/// `tier`: those inside the tier go to `inner` (checked against the
/// tier's size; repeats kept), those outside are read through `value` —
/// the child's value in its solved tier, `None` when `t` is none of the
/// tier's child tiers, `Some(None)` when the index is no position there.
/// How the tier presets (and the cluster) seed a tier.
///
/// # Errors
/// [`Error::BadIndex`] for an inside child past the tier's size;
/// [`Error::Broken`] for a child in a tier not declared a child tier, or
/// at an index that is no position.
#[inline]
pub fn outside_children<G: Tiered>(
    game: &G,
    tier: Tier,
    kids: &[(Tier, u64)],
    inner: &mut Vec<u64>,
    mut value: impl FnMut(Tier, u64) -> Option<Option<Value>>,
) -> Result<Outside, Error> {
    let size = game.tier_size(tier);
    let mut out = Outside {
        lost: None,
        won: None,
        tied: None,
        any: false,
        all_won: true,
    };
    for &(t, k) in kids {
        if t == tier {
            if k >= size {
                return Err(Error::BadIndex { index: k, size });
            }
            inner.push(k);
            continue;
        }
        let v = match value(t, k) {
            Some(Some(v)) => v,
            other => return Err(unreadable_child(game, tier, t, k, other.is_none())),
        };
        out.any = true;
        let r = u64::from(v.remoteness().unwrap_or(0));
        match v.outcome() {
            Outcome::Lose => out.lost = Some(out.lost.map_or(r, |x| x.min(r))),
            Outcome::Win => out.won = Some(out.won.map_or(r, |x| x.max(r))),
            Outcome::Tie => out.tied = Some(out.tied.map_or(r, |x| x.min(r))),
            Outcome::Draw => {}
        }
        out.all_won &= v.outcome() == Outcome::Win;
    }
    Ok(out)
}

/// Children are counted in bulk this many at a time (16 KiB of counts:
/// they stay in the first-level cache until they are narrowed into the
/// cells).
const BULK: usize = 1 << 12;

/// Writes into `cells`, the cells of indices `first..first + cells.len()`,
/// the game's bulk children counts ([`IndexedUnmoves::child_counts`];
/// [`IndexedUnmoves::child_counts_narrow`] for 2-byte cells), and
/// [`Cell::INVALID`] where a count is 0 — for a game whose `child_counts`
/// said it counts in bulk. Every seeding of bulk counts goes through here
/// (solver-cluster's included).
///
/// # Errors
/// [`Error::TooManyChildren`] where a count is more than the cell type
/// holds (a solver then moves to wider cells); [`Error::Broken`] if the
/// game stops counting in bulk.
///
/// ```
/// use game_core::{Game, Indexed, IndexedUnmoves, Unmoves};
/// use solver_retro::Cell;
///
/// /// Position `i` has `i` children (only counted here).
/// struct Fan;
/// # impl Game for Fan {
/// #     type Position = u64; type Move = ();
/// #     fn moves(&self, _: &u64, _: &mut Vec<()>) {}
/// #     fn play(&self, p: &u64, _: &()) -> u64 { *p }
/// # }
/// # impl Indexed for Fan {
/// #     fn size(&self) -> u64 { 1 << 20 }
/// #     fn index(&self, p: &u64) -> u64 { *p }
/// #     fn position(&self, i: u64) -> Option<u64> { Some(i) }
/// # }
/// # impl Unmoves for Fan { fn unmoves(&self, _: &u64, _: &mut Vec<u64>) {} }
/// impl IndexedUnmoves for Fan {
///     fn child_counts(&self, first: u64, out: &mut [u32]) -> bool {
///         for (k, o) in out.iter_mut().enumerate() {
///             *o = first as u32 + k as u32;
///         }
///         true
///     }
/// }
/// let mut cells = vec![0u16; 3];
/// solver_retro::count_children(&Fan, 0, &mut cells).unwrap();
/// assert_eq!(cells, [u16::INVALID, u16::counter(1), u16::counter(2)]);
/// // 2-byte cells count up to 2^15 - 1 children; 4-byte ones far more.
/// let mut cells = vec![0u16; 1];
/// assert!(solver_retro::count_children(&Fan, 40_000, &mut cells).is_err());
/// let mut cells = vec![0u32; 1];
/// solver_retro::count_children(&Fan, 40_000, &mut cells).unwrap();
/// assert_eq!(cells[0].open(), Some(40_000));
/// ```
pub fn count_children<G, C>(game: &G, first: u64, cells: &mut [C]) -> Result<(), Error>
where
    G: IndexedUnmoves + ?Sized,
    C: Cell,
{
    if C::BYTES <= 2 {
        let mut counts = [0u16; BULK];
        let mut narrow = true;
        for (s, cells) in cells.chunks_mut(BULK).enumerate() {
            let counts = &mut counts[..cells.len()];
            if !game.child_counts_narrow(first + (s * BULK) as u64, counts) {
                narrow = false;
                break;
            }
            write_counts(cells, counts)?;
        }
        if narrow {
            return Ok(());
        }
    }
    let mut counts = [0u32; BULK];
    for (s, cells) in cells.chunks_mut(BULK).enumerate() {
        let counts = &mut counts[..cells.len()];
        if !game.child_counts(first + (s * BULK) as u64, counts) {
            return Err(Error::Broken(
                "child_counts said it counts in bulk, then did not".into(),
            ));
        }
        write_counts(cells, counts)?;
    }
    Ok(())
}

/// Seeds the cells of indices `first..first + cells.len()` of a game
/// without a terminal list, position by position: an index that is no
/// position is [`Cell::INVALID`]; a position that is over or has no move
/// is resolved at level 0 and its index added to `decisive` (or `ties`);
/// any other gets its children counted — unless `bulk`, when
/// [`count_children`] has already written its counter. Every seeding by
/// scan goes through here (solver-cluster's included).
///
/// # Errors
/// [`Error::TooManyChildren`] past what a cell counts,
/// [`Error::TerminalDraw`] for a position declared drawn.
pub fn scan_cells<G, C>(
    game: &G,
    first: u64,
    cells: &mut [C],
    bulk: bool,
    (moves, positions): &mut (Vec<G::Move>, Vec<G::Position>),
    decisive: &mut Vec<u64>,
    ties: &mut Vec<u64>,
) -> Result<(), Error>
where
    G: IndexedUnmoves,
    C: Cell,
{
    for (k, cell) in cells.iter_mut().enumerate() {
        let i = first + k as u64;
        let Some(pos) = game.position(i) else {
            *cell = C::INVALID;
            continue;
        };
        let outcome = match game.outcome(&pos) {
            None if bulk && *cell != C::INVALID => continue,
            None => match game.child_count(&pos, moves, positions) as u64 {
                0 => terminal(game, &pos, false)?.unwrap_or(Outcome::Lose),
                count if count > C::MAX_COUNT => {
                    return Err(Error::TooManyChildren { max: C::MAX_COUNT })
                }
                count => {
                    *cell = C::counter(count);
                    continue;
                }
            },
            Some(Outcome::Draw) => return Err(Error::TerminalDraw),
            Some(o) => o,
        };
        *cell = C::resolved(outcome, 0);
        if outcome == Outcome::Tie {
            &mut *ties
        } else {
            &mut *decisive
        }
        .push(i);
    }
    Ok(())
}

/// Writes `counts` (16 or 32 bits) into `cells` as counters, 0 as
/// [`Cell::INVALID`]; [`Error::TooManyChildren`] past what a cell counts.
#[inline]
fn write_counts<C, W>(cells: &mut [C], counts: &[W]) -> Result<(), Error>
where
    C: Cell,
    W: Copy + Default + Into<u32> + std::ops::BitOr<Output = W>,
{
    // Written in one pass with the counts' bitwise or, which bounds the
    // largest from above (and costs less than a maximum without wide
    // SIMD); only past the cell's range is the largest looked for, and
    // then the cells written are thrown away with the error.
    let mut any = W::default();
    for (c, &k) in cells.iter_mut().zip(counts) {
        any = any | k;
        *c = C::count_or_invalid(k.into());
    }
    let over = |k: W| u64::from(k.into()) > C::MAX_COUNT;
    if over(any) && counts.iter().any(|&k| over(k)) {
        return Err(Error::TooManyChildren { max: C::MAX_COUNT });
    }
    Ok(())
}

/// Checks, on a sample, that the positions a tier's seeding decodes are
/// where the game itself places them. A position's parents read its cell
/// at [`Tiered::tier`] and [`Tiered::tier_index`] of the position; an
/// index that decodes to a position the game places elsewhere would have
/// them read another cell (a silently wrong table), so it is
/// [`Error::Broken`] instead.
///
/// Checked on a sample: the first [`Placement::STRIDE`] positions a
/// block's seeding visits, then one in [`Placement::STRIDE`], since a
/// canonical index costs as much as the rest of the seeding (Connect Four
/// 5×5 on one thread: 6.7 s with every position checked, 5.65 s with
/// none). [`GameCheck`](crate::GameCheck) checks every position it
/// samples. Every seeding (this crate's tiers, and a cluster's) uses one
/// per block, so that they refuse the same games.
///
/// ```
/// use game_core::{Game, Tiered};
/// use solver_retro::Placement;
/// # use game_core::{Indexed, Tier};
/// # struct Pair;
/// # impl Game for Pair {
/// #     type Position = u8;
/// #     type Move = ();
/// #     fn moves(&self, _: &u8, _: &mut Vec<()>) {}
/// #     fn play(&self, p: &u8, _: &()) -> u8 { *p }
/// # }
/// # impl Tiered for Pair {
/// #     fn tiers(&self) -> Vec<Tier> { vec![0] }
/// #     fn tier(&self, _: &u8) -> Tier { 0 }
/// #     fn child_tiers(&self, _: Tier, _: &mut Vec<Tier>) {}
/// #     fn tier_size(&self, _: Tier) -> u64 { 2 }
/// #     fn tier_index(&self, p: &u8) -> u64 { u64::from(*p) }
/// #     fn tier_position(&self, _: Tier, i: u64) -> Option<u8> { (i < 2).then_some(i as u8) }
/// # }
/// let mut placement = Placement::default();
/// // Index 1 of tier 0 is position 1, which the game puts at index 1.
/// assert!(placement.check(&Pair, 0, 1, &1).is_ok());
/// // Index 0 decoded to position 1 would be read at index 1 by its parents.
/// assert!(placement.check(&Pair, 0, 0, &1).is_err());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Placement {
    /// Positions of the block visited so far.
    seen: u64,
}

impl Placement {
    /// Every position up to this many in a block is checked, then one in
    /// this many.
    pub const STRIDE: u64 = 64;

    /// Notes the next position of the block, index `i` of `tier`,
    /// decoded as `pos`, and checks where the game places it when it is
    /// one of the sample.
    ///
    /// # Errors
    /// [`Error::Broken`] when the game places a sampled position in
    /// another tier or at another index.
    pub fn check<G: Tiered + ?Sized>(
        &mut self,
        game: &G,
        tier: Tier,
        i: u64,
        pos: &G::Position,
    ) -> Result<(), Error> {
        self.seen += 1;
        if self.seen > Self::STRIDE && !self.seen.is_multiple_of(Self::STRIDE) {
            return Ok(());
        }
        let (t, back) = (game.tier(pos), game.tier_index(pos));
        if t == tier && back == i {
            return Ok(());
        }
        Err(Error::Broken(format!(
            "index {i} of tier {} decodes to a position that tier() and tier_index() put at index \
             {back} of tier {}",
            game.tier_name(tier),
            game.tier_name(t)
        )))
    }
}

/// The broken promise when a game's [`Tiered::visit_tier`], asked for the
/// indices `asked` of `tier`, gives index `i` outside them: one message
/// for every walk over a game's tiers (seeding, reachable counts, a
/// cluster's seeding).
pub fn visited_outside<G: Tiered + ?Sized>(
    game: &G,
    tier: Tier,
    i: u64,
    asked: std::ops::Range<u64>,
) -> Error {
    Error::Broken(format!(
        "visit_tier of tier {} gave index {i}, outside the range {}..{} it was asked for",
        game.tier_name(tier),
        asked.start,
        asked.end
    ))
}

#[cfg(test)]
mod tests;
