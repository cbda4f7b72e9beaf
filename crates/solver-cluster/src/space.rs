//! What the cluster solves: the tiers of a [`Tiered`] game (parents inside
//! a tier by its unmoves, if any) or the one dense index of an
//! [`IndexedUnmoves`] game. Both seed a worker's shard with the rules of
//! solver-retro's presets (`solve_tiers_with` and `solve_unmoves_with`) so
//! that the tables come out the same.

use game_core::{Game, IndexedUnmoves, ParentIndices, Tier, Tiered};
use solver_retro::step::{Parents, Seeds};
use solver_retro::{
    ParentsFn, TierScratch as SeedScratch, TierSeeding, TierUnmovesParents, UnmovesParents,
    UnmovesSeeding,
};

use crate::cell::{Cell, TierCells};
use crate::Error;

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
    /// Whether every move from `t` leaves it ([`Tiered::leaves_tier`]).
    fn leaves(&self, t: Tier) -> bool;
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
    fn count(
        &self,
        _t: Tier,
        _id: u64,
        _s: &mut Self::Scratch,
    ) -> Result<u64, solver_retro::Error> {
        Err(solver_retro::Error::Broken(
            "a cell was left uncounted".into(),
        ))
    }
}

/// A [`Tiered`] game, with parents inside a tier by unmoves or none.
pub(crate) struct TierSpace<G: Tiered> {
    pub game: G,
    /// [`solver_retro::parents_by_unmoves`] for a game with unmoves.
    pub parents: Option<ParentsFn<G>>,
}

/// Scratch of [`TierSpace`]: the seeding's, and the parents'.
pub(crate) struct TierScratch<G: Game> {
    seed: SeedScratch<G>,
    positions: Vec<G::Position>,
}

impl<G: Game> Default for TierScratch<G> {
    fn default() -> Self {
        TierScratch {
            seed: SeedScratch::default(),
            positions: Vec::new(),
        }
    }
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
    fn leaves(&self, t: Tier) -> bool {
        self.game.leaves_tier(t)
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
        let seeding = TierSeeding {
            game,
            tier,
            leaves,
            settle_early: false,
            list_when_leaving: false,
        };
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
            // The seeding of solver-retro's tier presets, but for what
            // they settle early (this executor lists level 1, never scans
            // for it).
            let seeded = seeding.seed(
                i,
                &pos,
                cell,
                |t, k| {
                    kids.iter()
                        .find(|c| c.0 == t)
                        .map(|&(_, cells)| cells.value(k))
                },
                seeds,
                None,
                &mut s.seed,
            );
            if let Err(e) = seeded {
                fault = Some(e.into());
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
            Some(f) => Ok(TierUnmovesParents::with(&self.game, t, f).parents(
                id,
                out,
                &mut s.positions,
            )?),
            None => Err(Error::NeedsUnmoves {
                tier: self.game.tier_name(t),
            }),
        }
    }
}

/// An [`IndexedUnmoves`] game: one tier, 0, its dense index.
pub(crate) struct IndexedSpace<G> {
    pub game: G,
}

/// Scratch of [`IndexedSpace`].
pub(crate) struct IndexedScratch<G: Game> {
    /// Positions and moves for the parents and counts of
    /// [`UnmovesParents`], and for a scan's counts.
    parents: (Vec<G::Position>, Vec<G::Move>),
    scan: (Vec<G::Move>, Vec<G::Position>),
    /// The seeding (the game's terminal list, sorted and checked), made
    /// at the first block seeded.
    seeding: Option<UnmovesSeeding>,
}

impl<G: Game> Default for IndexedScratch<G> {
    fn default() -> Self {
        IndexedScratch {
            parents: (Vec::new(), Vec::new()),
            scan: (Vec::new(), Vec::new()),
            seeding: None,
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
    fn leaves(&self, _t: Tier) -> bool {
        false
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
        let seeding = match s.seeding.take() {
            Some(seeding) => seeding,
            None => UnmovesSeeding::new(game)?,
        };
        if let Some(fill) = seeding.fill::<C>() {
            cells.fill(fill);
        }
        for (b, chunk) in cells.chunks_mut(BLOCK).enumerate() {
            let first = lo + (b * BLOCK) as u64;
            seeding.seed_block(
                game,
                first,
                chunk,
                &mut s.scan,
                &mut seeds.decisive,
                &mut seeds.ties,
            )?;
        }
        seeding.seed_listed(game, lo, cells, &mut seeds.decisive, &mut seeds.ties)?;
        let lazy = seeding.lazy();
        s.seeding = Some(seeding);
        Ok(After::Levels { lazy })
    }

    fn parents(
        &self,
        _t: Tier,
        id: u64,
        out: &mut ParentIndices,
        s: &mut Self::Scratch,
    ) -> Result<(), Error> {
        Ok(UnmovesParents::new(&self.game).parents(id, out, &mut s.parents)?)
    }

    fn count(&self, _t: Tier, id: u64, s: &mut Self::Scratch) -> Result<u64, solver_retro::Error> {
        UnmovesParents::new(&self.game).count(id, &mut s.parents)
    }
}
