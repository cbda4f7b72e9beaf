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
/// the game's bulk children counts ([`IndexedUnmoves::child_counts`],
/// in 16 bits for 2-byte cells), and
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
///     fn child_counts<T: game_core::ChildCount>(&self, first: u64, out: &mut [T]) -> bool {
///         for (k, o) in out.iter_mut().enumerate() {
///             *o = T::saturating(first as u32 + k as u32);
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
            if !game.child_counts(first + (s * BULK) as u64, counts) {
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

/// The terminal seeding of an [`IndexedUnmoves`] game's dense index, as
/// every executor does it (this crate's [`solve_unmoves_with`](crate::solve_unmoves_with)
/// and solver-cluster's shards): children counted in bulk where the game
/// counts them ([`count_children`]), terminal positions from the game's
/// list where it keeps one ([`IndexedUnmoves::terminal_indices`]; other
/// cells then wait, [`Cell::UNCOUNTED`], to be counted when a won child
/// first reaches them, unless counted in bulk), else found by a scan
/// ([`scan_cells`]).
///
/// A block of cells is seeded by [`UnmovesSeeding::seed_block`] (any
/// blocks, in any order, on any thread), then the listed terminal
/// positions in it by [`UnmovesSeeding::seed_listed`].
///
/// ```
/// use game_core::fixtures::Graph;
/// use solver_retro::{Cell, Outcome, UnmovesSeeding};
///
/// // 0 -> 1 -> 2, and 2 is over (lost for the player to move).
/// let g = Graph { edges: vec![vec![1], vec![2], vec![]], ends: vec![None; 3] };
/// let seeding = UnmovesSeeding::new(&g)?;
/// let mut cells = vec![seeding.fill::<u16>().unwrap_or(0); 3];
/// let (mut decisive, mut ties) = (Vec::new(), Vec::new());
/// let mut scratch = Default::default();
/// seeding.seed_block(&g, 0, &mut cells, &mut scratch, &mut decisive, &mut ties)?;
/// seeding.seed_listed(&g, 0, &mut cells, &mut decisive, &mut ties)?;
/// assert_eq!(cells, [u16::counter(1), u16::counter(1), u16::resolved(Outcome::Lose, 0)]);
/// assert_eq!((decisive, ties), (vec![2], vec![]));
/// # Ok::<(), solver_retro::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct UnmovesSeeding {
    /// The game's terminal list, checked and sorted, if it keeps one.
    listed: Option<Vec<u64>>,
    /// The game counts children in bulk.
    bulk: bool,
}

/// Scratch of [`UnmovesSeeding::seed_block`]: moves and positions.
pub type ScanScratch<G> = (Vec<<G as Game>::Move>, Vec<<G as Game>::Position>);

impl UnmovesSeeding {
    /// Reads what `game` offers: its terminal list (checked: every index a
    /// position) and whether it counts in bulk.
    ///
    /// # Errors
    /// [`Error::BadIndex`] for a listed index that is no position.
    pub fn new<G: IndexedUnmoves + ?Sized>(game: &G) -> Result<UnmovesSeeding, Error> {
        let size = game.size();
        let mut listed = Vec::new();
        let ends = game.terminal_indices(&mut listed);
        if ends {
            if let Some(&i) = listed
                .iter()
                .find(|&&i| i >= size || game.position(i).is_none())
            {
                return Err(Error::BadIndex { index: i, size });
            }
            listed.sort_unstable();
        }
        Ok(UnmovesSeeding {
            listed: ends.then_some(listed),
            bulk: game.child_counts(0, &mut [0u32; 1]),
        })
    }

    /// Cells may be left [`Cell::UNCOUNTED`], counted when first reached
    /// ([`crate::step::Parents::count`]).
    #[must_use]
    pub fn lazy(&self) -> bool {
        self.listed.is_some() && !self.bulk
    }

    /// What every cell must hold before [`UnmovesSeeding::seed_block`]
    /// when that does not write every cell: `Some` for a lazy seeding
    /// (every cell uncounted until a listed terminal or a won child
    /// reaches it).
    #[must_use]
    pub fn fill<C: Cell>(&self) -> Option<C> {
        self.lazy().then(|| C::counter(C::UNCOUNTED))
    }

    /// Whether [`UnmovesSeeding::seed_listed`] has anything to do: the
    /// game lists its terminal positions (then `seed_block` lists none).
    #[must_use]
    pub fn listed(&self) -> bool {
        self.listed.is_some()
    }

    /// Seeds the cells of indices `first..first + cells.len()` (holding
    /// [`UnmovesSeeding::fill`] when it is `Some`): bulk counts, and
    /// without a terminal list the scan, which adds the positions over at
    /// level 0 to `decisive` or `ties`.
    ///
    /// # Errors
    /// As [`count_children`] and [`scan_cells`].
    pub fn seed_block<G, C>(
        &self,
        game: &G,
        first: u64,
        cells: &mut [C],
        scratch: &mut ScanScratch<G>,
        decisive: &mut Vec<u64>,
        ties: &mut Vec<u64>,
    ) -> Result<(), Error>
    where
        G: IndexedUnmoves,
        C: Cell,
    {
        if self.bulk {
            count_children(game, first, cells)?;
        }
        if self.listed.is_some() {
            return Ok(());
        }
        scan_cells(game, first, cells, self.bulk, scratch, decisive, ties)
    }

    /// Resolves the listed terminal positions among indices
    /// `first..first + cells.len()` (once their block is seeded), adding
    /// each once to `decisive` or `ties`.
    ///
    /// # Errors
    /// [`Error::TerminalDraw`] for a position declared drawn.
    pub fn seed_listed<G, C>(
        &self,
        game: &G,
        first: u64,
        cells: &mut [C],
        decisive: &mut Vec<u64>,
        ties: &mut Vec<u64>,
    ) -> Result<(), Error>
    where
        G: IndexedUnmoves,
        C: Cell,
    {
        let Some(listed) = &self.listed else {
            return Ok(());
        };
        let size = game.size();
        let end = first + cells.len() as u64;
        let from = listed.partition_point(|&i| i < first);
        let to = listed.partition_point(|&i| i < end);
        for &i in &listed[from..to] {
            let pos = game.position(i).ok_or(Error::BadIndex { index: i, size })?;
            let outcome = terminal(game, &pos, false)?.unwrap_or(Outcome::Lose);
            let cell = &mut cells[(i - first) as usize];
            if cell.value().is_some_and(|v| v != Value::DRAW) {
                continue; // listed twice: queued once
            }
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
}

/// How the positions of one tier are seeded, as every executor does it
/// (this crate's tier presets and solver-cluster's shards): a terminal
/// value at level 0; in a tier every move leaves, the value from the
/// children at once; else a counter of the distinct children inside the
/// tier plus one for "the children outside", and up to three *events*
/// from the outside children ([`crate::step::push_event`]: the fastest
/// lost, the slowest won when all are won, the fastest tied).
#[derive(Debug, Clone, Copy)]
pub struct TierSeeding<'g, G> {
    /// The game.
    pub game: &'g G,
    /// The tier seeded.
    pub tier: Tier,
    /// Every move leaves the tier ([`Tiered::leaves_tier`]): each position
    /// is final once seeded, and nothing is listed for levels.
    pub leaves: bool,
    /// Settle at level 1 what outside children alone decide then (a lost
    /// child at level 0; every child outside and won at level 0), counted
    /// in [`crate::step::Seeds::settled_at_one`] — for an executor that
    /// then finds level 1 by a scan; else those are left to the events.
    pub settle_early: bool,
    /// List what is resolved at level 0 in `seeds` even when every move
    /// leaves the tier, though no level follows (this crate's tier preset
    /// does, and counts the lists against the memory limit; the cluster
    /// lists nothing there).
    pub list_when_leaving: bool,
}

/// Scratch of [`TierSeeding::seed`].
#[derive(Debug)]
pub struct TierScratch<G: Game> {
    kids: Vec<(Tier, u64)>,
    moves: Vec<G::Move>,
    inner: Vec<u64>,
}

impl<G: Game> Default for TierScratch<G> {
    fn default() -> Self {
        TierScratch {
            kids: Vec::new(),
            moves: Vec::new(),
            inner: Vec::new(),
        }
    }
}

impl<G: Tiered> TierSeeding<'_, G> {
    /// Seeds position `pos` (index `i` of the tier) into `cell`: what it
    /// resolves at level 0 goes to `seeds` (unless the tier is left by
    /// every move), its events to `seeds.events`, and with `edges` its
    /// moves inside the tier as (child, parent). `value` reads an outside
    /// child (as [`outside_children`]).
    ///
    /// # Errors
    /// As [`terminal`] and [`outside_children`];
    /// [`Error::TooManyChildren`] and [`Error::TooDeep`] when `C` is too
    /// narrow.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn seed<C: Cell>(
        &self,
        i: u64,
        pos: &G::Position,
        cell: &mut C,
        value: impl FnMut(Tier, u64) -> Option<Option<Value>>,
        seeds: &mut crate::step::Seeds,
        edges: Option<&mut Vec<(u64, u64)>>,
        s: &mut TierScratch<G>,
    ) -> Result<(), Error> {
        let (game, tier, leaves) = (self.game, self.tier, self.leaves);
        let unlisted = leaves && !self.list_when_leaving;
        let settle = |cell: &mut C, seeds: &mut crate::step::Seeds, o: Outcome| {
            *cell = C::resolved(o, 0);
            if unlisted {
                // No levels follow: nothing to list (a tier of Connect
                // Four has millions of ends).
                return;
            }
            if o == Outcome::Tie {
                &mut seeds.ties
            } else {
                &mut seeds.decisive
            }
            .push(i);
        };
        if let Some(o) = terminal(game, pos, true)? {
            settle(cell, seeds, o);
            return Ok(());
        }
        s.kids.clear();
        game.child_tier_indices(pos, &mut s.kids, &mut s.moves);
        if s.kids.is_empty() {
            let o = terminal(game, pos, false)?.unwrap_or(Outcome::Lose);
            settle(cell, seeds, o);
            return Ok(());
        }
        s.inner.clear();
        let outside = outside_children(game, tier, &s.kids, &mut s.inner, value)?;
        if leaves {
            *cell = match outside.leaving(game, tier, s.inner.len(), C::MAX_REMOTENESS)? {
                Some((o, r)) => C::resolved(o, r),
                None => C::counter(1),
            };
            return Ok(());
        }
        let inner = &mut s.inner;
        // Settled by the outside alone: a lost child at level 0 is the
        // fastest win there is; with no child inside, the outside decides.
        let settle_at_one = match (
            outside.lost,
            outside.all_won && outside.any,
            inner.is_empty(),
        ) {
            _ if !self.settle_early => None,
            (Some(0), _, _) => Some(Outcome::Win),
            (None, true, true) if outside.won.unwrap_or(0) == 0 => Some(Outcome::Lose),
            _ => None,
        };
        if let Some(o) = settle_at_one {
            *cell = C::resolved(o, 1);
            seeds.settled_at_one += 1;
            return Ok(());
        }
        inner.sort_unstable();
        inner.dedup();
        // Outside children all won at level 0 lower the counter before any
        // level runs: leave them out of it (when settling early).
        let early_won =
            self.settle_early && outside.any && outside.all_won && outside.won.unwrap_or(0) == 0;
        let count = inner.len() as u64 + u64::from(outside.any && !early_won);
        if count > C::MAX_COUNT {
            return Err(Error::TooManyChildren { max: C::MAX_COUNT });
        }
        *cell = C::counter(count);
        if let Some(edges) = edges {
            edges.extend(inner.iter().map(|&c| (c, i)));
        }
        let events = &mut seeds.events;
        if let Some(r) = outside.lost {
            crate::step::push_event(events, r, i, Outcome::Lose)?;
        }
        if outside.any && outside.all_won && !early_won {
            crate::step::push_event(events, outside.won.unwrap_or(0), i, Outcome::Win)?;
        }
        if let Some(r) = outside.tied {
            crate::step::push_event(events, r, i, Outcome::Tie)?;
        }
        Ok(())
    }
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
