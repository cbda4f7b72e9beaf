//! What the cluster solves: the tiers of a [`Tiered`] game (parents inside
//! a tier by its unmoves, if any) or the one dense index of an
//! [`IndexedUnmoves`] game. Both seed a worker's shard with the rules of
//! solver-retro's presets (`solve_tiers_with` and `solve_unmoves_with`) so
//! that the tables come out the same.

use game_core::{Game, IndexedUnmoves, Outcome, ParentIndices, Tier, Tiered, Unmoves, Value};

use crate::cell::{Cell, TierCells};
use crate::Error;

/// What a child of `id` (outside the shard's tier) turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Event {
    /// The child's level (remoteness).
    pub level: u64,
    /// The parent, a global id of the tier.
    pub id: u64,
    /// Lose, win or tie.
    pub outcome: Outcome,
}

/// A shard's inputs to the levels.
#[derive(Debug, Default)]
pub(crate) struct Seeds {
    /// Won or lost at level 0 (global ids).
    pub decisive: Vec<u64>,
    /// Tied at level 0.
    pub ties: Vec<u64>,
    /// Children outside the tier.
    pub events: Vec<Event>,
}

/// How a seeded tier goes on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum After {
    /// Every cell is final (every move leaves the tier).
    Done,
    /// Levels follow; `lazy`: cells may be uncounted.
    Levels {
        /// Cells may hold `Cell::UNCOUNTED`.
        lazy: bool,
    },
}

/// The solved child tiers, as cells.
pub(crate) type Kids<'a> = [(Tier, &'a TierCells)];

/// The shape of what is solved, and the rules of seeding and parents.
pub(crate) trait Space: Send + Sync + 'static {
    /// Per-worker scratch memory.
    type Scratch: Default;
    /// Every tier, children first.
    fn tiers(&self) -> Vec<Tier>;
    /// The tiers a move from `t` may reach.
    fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>);
    /// Indices of `t`.
    fn size(&self, t: Tier) -> u64;
    /// The tier's name.
    fn name(&self, t: Tier) -> String;
    /// Seeds cells `lo..lo + cells.len()` of `t` (whatever they hold on
    /// entry): writes every cell, and adds to `seeds`.
    /// [`solver_retro::Error::TooManyChildren`] or
    /// [`solver_retro::Error::TooDeep`] when a cell of type `C` is too
    /// narrow.
    fn seed<C: Cell>(
        &self,
        t: Tier,
        lo: u64,
        cells: &mut [C],
        kids: &Kids<'_>,
        seeds: &mut Seeds,
        s: &mut Self::Scratch,
    ) -> Result<After, Error>;
    /// The distinct parents of `id` inside `t`.
    fn parents(
        &self,
        t: Tier,
        id: u64,
        out: &mut ParentIndices,
        s: &mut Self::Scratch,
    ) -> Result<(), Error>;
    /// The distinct children of `id` (for uncounted cells).
    fn count(&self, _t: Tier, _id: u64, _s: &mut Self::Scratch) -> Result<u64, Error> {
        Err(solver_retro::Error::Broken("a cell was left uncounted".into()).into())
    }
}

/// The parents of a tier's index inside the tier.
pub(crate) type ParentsFn<G> =
    fn(&G, Tier, u64, &mut ParentIndices, &mut Vec<<G as Game>::Position>) -> Result<(), Error>;

/// A [`Tiered`] game, with parents inside a tier by unmoves or none.
pub(crate) struct TierSpace<G: Tiered> {
    pub game: G,
    pub parents: Option<ParentsFn<G>>,
}

/// Scratch of [`TierSpace`].
pub(crate) struct TierScratch<G: Game> {
    kids: Vec<(Tier, u64)>,
    moves: Vec<G::Move>,
    inner: Vec<u64>,
    positions: Vec<G::Position>,
}

impl<G: Game> Default for TierScratch<G> {
    fn default() -> Self {
        TierScratch {
            kids: Vec::new(),
            moves: Vec::new(),
            inner: Vec::new(),
            positions: Vec::new(),
        }
    }
}

/// The parents of `id` inside `tier` by the game's unmoves, distinct:
/// solver-retro's own ([`solver_retro::parents_by_unmoves`]).
pub(crate) fn parents_by_unmoves<G: Tiered + Unmoves>(
    game: &G,
    tier: Tier,
    id: u64,
    out: &mut ParentIndices,
    positions: &mut Vec<G::Position>,
) -> Result<(), Error> {
    Ok(solver_retro::parents_by_unmoves(
        game, tier, id, out, positions,
    )?)
}

impl<G> Space for TierSpace<G>
where
    G: Tiered + Send + Sync + 'static,
    G::Position: Send,
    G::Move: Send,
{
    type Scratch = TierScratch<G>;

    fn tiers(&self) -> Vec<Tier> {
        self.game.tiers()
    }
    fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>) {
        self.game.child_tiers(t, out);
    }
    fn size(&self, t: Tier) -> u64 {
        self.game.tier_size(t)
    }
    fn name(&self, t: Tier) -> String {
        self.game.tier_name(t)
    }

    fn seed<C: Cell>(
        &self,
        tier: Tier,
        lo: u64,
        cells: &mut [C],
        kids: &Kids<'_>,
        seeds: &mut Seeds,
        s: &mut Self::Scratch,
    ) -> Result<After, Error> {
        let game = &self.game;
        let leaves = game.leaves_tier(tier);
        if !leaves && self.parents.is_none() {
            return Err(Error::NeedsUnmoves {
                tier: game.tier_name(tier),
            });
        }
        let mut fault = None;
        let hi = lo + cells.len() as u64;
        cells.fill(C::INVALID);
        let mut placement = solver_retro::Placement::default();
        game.visit_tier(tier, lo..hi, &mut |i, pos| {
            if fault.is_some() {
                return;
            }
            // A game may give an index outside the range asked for: a
            // broken promise, not an index out of bounds.
            let Some(cell) = i
                .checked_sub(lo)
                .and_then(|j| usize::try_from(j).ok())
                .and_then(|j| cells.get_mut(j))
            else {
                fault = Some(solver_retro::visited_outside(game, tier, i, lo..hi).into());
                return;
            };
            // Where the game places the position, on the same sample as
            // solver-retro's seeding: a decoding that disagrees would have
            // the position's parents read another cell.
            if let Err(e) = placement.check(game, tier, i, &pos) {
                fault = Some(e.into());
                return;
            }
            if let Err(e) = seed_position(game, tier, leaves, kids, i, &pos, cell, seeds, s) {
                fault = Some(e);
            }
        });
        match fault {
            Some(e) => Err(e),
            None if leaves => Ok(After::Done),
            None => Ok(After::Levels { lazy: false }),
        }
    }

    fn parents(
        &self,
        t: Tier,
        id: u64,
        out: &mut ParentIndices,
        s: &mut Self::Scratch,
    ) -> Result<(), Error> {
        match self.parents {
            Some(f) => f(&self.game, t, id, out, &mut s.positions),
            None => Err(Error::NeedsUnmoves {
                tier: self.game.tier_name(t),
            }),
        }
    }
}

/// Seeds one position of a tier exactly as solver-retro's tier preset: a
/// terminal value, a value from children all outside (a tier every move
/// leaves), or a counter of the distinct inside children plus one for
/// "the children outside" and up to three events.
#[allow(clippy::too_many_arguments)]
fn seed_position<G: Tiered, C: Cell>(
    game: &G,
    tier: Tier,
    leaves: bool,
    kids: &Kids<'_>,
    i: u64,
    pos: &G::Position,
    cell: &mut C,
    seeds: &mut Seeds,
    s: &mut TierScratch<G>,
) -> Result<(), Error> {
    let settle = |cell: &mut C, seeds: &mut Seeds, o: Outcome| {
        *cell = C::resolved(o, 0);
        if leaves {
            // No levels follow: nothing to list (a tier of Connect Four
            // has millions of ends).
            return;
        }
        if o == Outcome::Tie {
            &mut seeds.ties
        } else {
            &mut seeds.decisive
        }
        .push(i);
    };
    if let Some(o) = solver_retro::terminal(game, pos, true)? {
        settle(cell, seeds, o);
        return Ok(());
    }
    s.kids.clear();
    game.child_tier_indices(pos, &mut s.kids, &mut s.moves);
    if s.kids.is_empty() {
        let o = solver_retro::terminal(game, pos, false)?.unwrap_or(Outcome::Lose);
        settle(cell, seeds, o);
        return Ok(());
    }
    s.inner.clear();
    let outside = solver_retro::outside_children(game, tier, &s.kids, &mut s.inner, |t, k| {
        kids.iter()
            .find(|c| c.0 == t)
            .map(|&(_, cells)| cells.value(k))
    })?;
    if leaves {
        let leaving = outside.leaving(game, tier, s.inner.len(), C::MAX_REMOTENESS)?;
        *cell = match leaving {
            Some((o, r)) => C::resolved(o, r),
            None => C::counter(1),
        };
        return Ok(());
    }
    s.inner.sort_unstable();
    s.inner.dedup();
    let count = s.inner.len() as u64 + u64::from(outside.any);
    if count > C::MAX_COUNT {
        return Err(solver_retro::Error::TooManyChildren { max: C::MAX_COUNT }.into());
    }
    *cell = C::counter(count);
    let mut event = |level: u64, outcome| {
        seeds.events.push(Event {
            level,
            id: i,
            outcome,
        });
    };
    if let Some(r) = outside.lost {
        event(r, Outcome::Lose);
    }
    if outside.any && outside.all_won {
        event(outside.won.unwrap_or(0), Outcome::Win);
    }
    if let Some(r) = outside.tied {
        event(r, Outcome::Tie);
    }
    Ok(())
}

/// An [`IndexedUnmoves`] game: one tier, 0, its dense index.
pub(crate) struct IndexedSpace<G> {
    pub game: G,
}

/// Scratch of [`IndexedSpace`].
pub(crate) struct IndexedScratch<G: Game> {
    positions: Vec<G::Position>,
    /// Moves and positions for counting a position's children (here and
    /// in [`solver_retro::scan_cells`]).
    scan: (Vec<G::Move>, Vec<G::Position>),
    /// The game's terminal list, sorted and checked (`None` inside: the
    /// game lists none), kept from the first block seeded.
    listed: Option<Option<Vec<u64>>>,
}

impl<G: Game> Default for IndexedScratch<G> {
    fn default() -> Self {
        IndexedScratch {
            positions: Vec::new(),
            scan: (Vec::new(), Vec::new()),
            listed: None,
        }
    }
}

/// Cells are seeded in blocks of this many.
const BLOCK: usize = 1 << 16;

impl<G> Space for IndexedSpace<G>
where
    G: IndexedUnmoves + Send + Sync + 'static,
    G::Position: Send,
    G::Move: Send,
{
    type Scratch = IndexedScratch<G>;

    fn tiers(&self) -> Vec<Tier> {
        vec![0]
    }
    fn child_tiers(&self, _t: Tier, _out: &mut Vec<Tier>) {}
    fn size(&self, t: Tier) -> u64 {
        if t == 0 {
            self.game.size()
        } else {
            0
        }
    }
    fn name(&self, t: Tier) -> String {
        t.to_string()
    }

    /// As solver-retro's `solve_unmoves_with`: counts in bulk where the
    /// game has them, terminal positions from its list where it has one
    /// (then other cells are counted lazily when no bulk counts).
    fn seed<C: Cell>(
        &self,
        _t: Tier,
        lo: u64,
        cells: &mut [C],
        _kids: &Kids<'_>,
        seeds: &mut Seeds,
        s: &mut Self::Scratch,
    ) -> Result<After, Error> {
        let game = &self.game;
        let size = game.size();
        if s.listed.is_none() {
            let mut listed = Vec::new();
            let ends = game.terminal_indices(&mut listed);
            if let Some(&i) = listed
                .iter()
                .find(|&&i| i >= size || game.position(i).is_none())
            {
                return Err(solver_retro::Error::BadIndex { index: i, size }.into());
            }
            listed.sort_unstable();
            s.listed = Some(ends.then_some(listed));
        }
        let listed = s.listed.take().flatten();
        let listed_ends = listed.is_some();
        let bulk = game.child_counts(0, &mut [0u32; 1]);
        if !bulk && listed_ends {
            cells.fill(C::counter(C::UNCOUNTED));
        }
        for (b, chunk) in cells.chunks_mut(BLOCK).enumerate() {
            let first = lo + (b * BLOCK) as u64;
            if bulk {
                solver_retro::count_children(game, first, chunk)?;
            }
            if listed_ends {
                continue;
            }
            solver_retro::scan_cells(
                game,
                first,
                chunk,
                bulk,
                &mut s.scan,
                &mut seeds.decisive,
                &mut seeds.ties,
            )?;
        }
        if let Some(listed) = &listed {
            let hi = lo + cells.len() as u64;
            let from = listed.partition_point(|&i| i < lo);
            let to = listed.partition_point(|&i| i < hi);
            for &i in &listed[from..to] {
                let pos = game
                    .position(i)
                    .ok_or(solver_retro::Error::BadIndex { index: i, size })?;
                let outcome = solver_retro::terminal(game, &pos, false)?.unwrap_or(Outcome::Lose);
                let c = &mut cells[(i - lo) as usize];
                if c.value().is_some_and(|v| v != Value::DRAW) {
                    continue; // listed twice: queued once
                }
                *c = C::resolved(outcome, 0);
                if outcome == Outcome::Tie {
                    &mut seeds.ties
                } else {
                    &mut seeds.decisive
                }
                .push(i);
            }
        }
        s.listed = Some(listed);
        Ok(After::Levels {
            lazy: listed_ends && !bulk,
        })
    }

    fn parents(
        &self,
        _t: Tier,
        id: u64,
        out: &mut ParentIndices,
        s: &mut Self::Scratch,
    ) -> Result<(), Error> {
        self.game.unmove_indices(id, out, &mut s.positions);
        let size = self.game.size();
        let bad = out.singles.iter().copied().find(|&i| i >= size);
        match bad.or(out.runs.iter().find(|r| r.end > size).map(|r| r.end - 1)) {
            Some(index) => Err(solver_retro::Error::BadIndex { index, size }.into()),
            None => Ok(()),
        }
    }

    fn count(&self, _t: Tier, id: u64, s: &mut Self::Scratch) -> Result<u64, Error> {
        let pos = self.game.position(id).ok_or_else(|| {
            solver_retro::Error::Broken(format!(
                "index {id} is a parent by unmoves but no position"
            ))
        })?;
        match self.game.child_count(&pos, &mut s.scan.0, &mut s.scan.1) {
            0 => Err(solver_retro::Error::Broken(
                "terminal_indices left out a position with no move".into(),
            )
            .into()),
            k => Ok(k as u64),
        }
    }
}
