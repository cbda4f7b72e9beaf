//! One tier solver ([`TierSolver`]): the caller says what it has and
//! wants — the game, a store, a start, a memory limit, the tables for a
//! certificate, unmoves if the game has them — and the solver chooses how:
//! where a loopy tier's parents come from (its unmoves, or its inside moves
//! stored), whether only the positions reachable from the start are solved
//! first or every index, and which tables are held to the end. The free
//! functions ([`solve_tiers`], [`solve_tiers_with`],
//! [`solve_tiers_unmoves`], [`solve_tiers_reachable`]) are presets over it.
//!
//! The choice ([`TierSolver::plan`]), in full:
//!
//! | the caller gives | parents inside a loopy tier | positions | tables at the end |
//! |---|---|---|---|
//! | indexed unmoves ([`TierUnmoves::indexed`]) of a game of one loopy tier indexed as a whole | the game's dense index: [`solve_unmoves_with`](crate::solve_unmoves_with) ([`Parents::Indexed`]) | every index | the tier's, or none when the store held it finished |
//! | a store that keeps tables (a database) | unmoves if given, else stored | every index | those the memory limit left ([`Tables::Dropped`]) |
//! | a store that keeps nothing ([`NoStore`]) | unmoves if given, else stored | every index | every one ([`Tables::Held`]) |
//! | no store, a start, every tier left by every move | none needed | reachable from the start, counted ([`Positions::Reachable`]) | every one, or with [`Keep::Start`] the start's ([`Tables::Start`]) |
//! | no store, otherwise | unmoves if given, else stored | every index | every one |
//!
//! File order: `builder` uses `reach_first` (the reachable pass),
//! `tiers` (the tier pass), and `fast` and `walk` (a dense index's solve
//! and walk); `reach_first` uses `tiers` and `walk`; `tiers`
//! and `walk` use neither of the others.

use game_core::{Indexed, IndexedChildren, IndexedUnmoves, ParentIndices, Tier, Tiered, Unmoves};

use crate::reach_first::solve_reachable;
use crate::tier_solution::TierTables;
use crate::tier_solution::TieredSolution;
use crate::tiers::{parents_by_unmoves, run_tiers, ParentsFn};
use crate::walk::{walk_tiers, Reachable, TierReach};
use crate::{Config, Error, Keep, NoStore, Table, TierStore};

/// A game's unmoves, as the tier solver reads them: the proof that the
/// game has [`Unmoves`], made where that is known
/// ([`TierUnmoves::of`]) and handed on to generic code that cannot name
/// the bound (a registration trait's `Option<TierUnmoves<G>>`).
pub struct TierUnmoves<G: Tiered> {
    parents: ParentsFn<G>,
    /// The dense index's solve and walk, when the game has them
    /// ([`TierUnmoves::indexed`]).
    dense: Option<Dense<G>>,
}

impl<G: Tiered> Clone for TierUnmoves<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Tiered> Copy for TierUnmoves<G> {}

/// The fast path of a game of one tier that is indexed as a whole, with
/// unmoves and children by index ([`TierUnmoves::indexed`]): plain
/// functions made where those bounds are known.
struct Dense<G: Tiered> {
    /// Whether the game is one loopy tier of the index's size (then the
    /// tier is solved by the index).
    fits: fn(&G) -> bool,
    /// The tier's table, by [`solve_unmoves_with`](crate::solve_unmoves_with).
    solve: fn(&G, &Config) -> Result<Table, Error>,
    /// The positions reachable from a start, by [`crate::reachable`].
    walk: fn(&G, &G::Position, &Config) -> Result<Reachable, Error>,
    /// The certificate of the tier's table, by [`crate::certify_indexed`]'s
    /// rule (the children by index, in bulk).
    certify: Certify<G>,
}

/// [`Dense`]'s certificate of a table.
type Certify<G> =
    fn(
        &G,
        &Table,
    ) -> Result<crate::Certificate, crate::Rejection<<G as game_core::Game>::Position>>;

impl<G: Tiered> Clone for Dense<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Tiered> Copy for Dense<G> {}

impl<G: Tiered> std::fmt::Debug for TierUnmoves<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("TierUnmoves")
    }
}

impl<G: Tiered + Unmoves> TierUnmoves<G> {
    /// The unmoves of `G` ([`parents_by_unmoves`]: filtered to the tier,
    /// by index, distinct).
    #[must_use]
    pub fn of() -> Self {
        TierUnmoves {
            parents: parents_by_unmoves::<G>,
            dense: None,
        }
    }
}

impl<G> TierUnmoves<G>
where
    G: Tiered + IndexedUnmoves + IndexedChildren + Sync,
    G::Position: Send,
    G::Move: Send,
{
    /// The unmoves of `G` ([`TierUnmoves::of`]), with its dense index's
    /// fast paths: a game of one loopy tier whose tier index is its
    /// [`Indexed`] index (`tier_size` the `size`, `tier_index` the
    /// `index`, `tier_position` the `position` — the promise this
    /// declares; a game of more tiers, or one tier of another size, is
    /// solved tier by tier as [`TierUnmoves::of`] is) is solved by
    /// [`solve_unmoves_with`](crate::solve_unmoves_with) — its terminal
    /// list, bulk child counts and parents by index, in runs — and its
    /// reachable positions walked by [`crate::reachable`] (its children by
    /// index), as [`TierSolve::reach_by_index`] gives them. The plan says
    /// so: [`Parents::Indexed`].
    #[must_use]
    pub fn indexed() -> Self {
        TierUnmoves {
            parents: parents_by_unmoves::<G>,
            dense: Some(Dense {
                fits: dense_fits::<G>,
                solve: dense_solve::<G>,
                walk: dense_walk::<G>,
                certify: crate::check::certify_table::<G>,
            }),
        }
    }
}

/// Whether `game` is one loopy tier of its index's size.
fn dense_fits<G: Tiered + Indexed>(game: &G) -> bool {
    match game.tiers()[..] {
        [t] => !game.leaves_tier(t) && game.tier_size(t) == game.size(),
        _ => false,
    }
}

/// The table of a game of one tier solved by its index.
fn dense_solve<G>(game: &G, config: &Config) -> Result<Table, Error>
where
    G: IndexedUnmoves + Sync,
    G::Position: Send,
    G::Move: Send,
{
    Ok(crate::solve_unmoves_with(game, config)?.table)
}

/// The positions reachable from `start` by the index's children; a start
/// whose tier index is not its index breaks the promise of
/// [`TierUnmoves::indexed`].
fn dense_walk<G>(game: &G, start: &G::Position, config: &Config) -> Result<Reachable, Error>
where
    G: Tiered + IndexedChildren + Sync,
    G::Move: Send,
{
    let (i, t) = (game.index(start), game.tier_index(start));
    if i != t {
        return Err(Error::Broken(format!(
            "the start's index {i} is not its tier index {t}: a game of one tier solved by its \
             index must index the tier as the game"
        )));
    }
    crate::reachable(game, start, config)
}

impl<G: Tiered> TierUnmoves<G> {
    /// The parents of index `id` of `tier` inside the tier, added to
    /// `out.singles` (`scratch` is the caller's buffer).
    ///
    /// # Errors
    /// As [`parents_by_unmoves`].
    pub fn parents(
        &self,
        game: &G,
        tier: game_core::Tier,
        id: u64,
        out: &mut ParentIndices,
        scratch: &mut Vec<G::Position>,
    ) -> Result<(), Error> {
        (self.parents)(game, tier, id, out, scratch)
    }

    /// Whether these unmoves solve `game` by its dense index: made by
    /// [`TierUnmoves::indexed`], for a game of one loopy tier whose tier
    /// index is its whole index (the choice [`TierSolver`]
    /// makes, for an engine of another crate to make the same).
    #[must_use]
    pub fn solves_by_index(&self, game: &G) -> bool {
        self.dense.as_ref().is_some_and(|d| (d.fits)(game))
    }

    /// The function that gives the parents ([`TierUnmoves::parents`]),
    /// for an engine of another crate that asks them itself (a cluster's
    /// shards of a tier).
    #[must_use]
    pub fn parents_fn(self) -> ParentsFn<G> {
        self.parents
    }
}

/// Where a loopy tier's parents inside it come from ([`Plan::parents`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Parents {
    /// No parents are asked for: every tier is left by every move, so each
    /// tier is finished by its seeding pass.
    NotNeeded,
    /// The game's unmoves, filtered to the tier: no graph stored.
    Unmoves,
    /// The game's one tier solved by its dense index
    /// ([`TierUnmoves::indexed`]): the graph-free engine of
    /// [`solve_unmoves_with`](crate::solve_unmoves_with), with the game's
    /// terminal list, bulk child counts and parents by index.
    Indexed,
    /// The inside moves, found while seeding and stored as a reverse
    /// graph (16 bytes a move while sorted, 8 an index of offsets).
    Stored,
}

/// Which positions a solve covers ([`Plan::positions`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Positions {
    /// Every index of every tier.
    Whole,
    /// The positions reachable from the start, found first and counted as
    /// they are solved; every other index is left unsolved.
    Reachable,
}

/// Which tables the solution holds when the solve returns
/// ([`Plan::tables`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Tables {
    /// Every tier's: none is dropped, and a game whose tables cannot all
    /// be held beside the tier being solved is refused before any tier is
    /// solved.
    Held,
    /// Those the memory limit left: a table no tier still reads is
    /// dropped when the next tier would not fit beside it, the store
    /// keeping it.
    Dropped,
    /// The start's tier's alone: each other table is dropped as soon as
    /// no tier still to solve reads it, its memory reused.
    Start,
}

/// How a [`TierSolver`] will solve: what [`TierSolver::plan`] chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Plan {
    /// Where a loopy tier's parents come from.
    pub parents: Parents,
    /// Which positions are solved.
    pub positions: Positions,
    /// Which tables the solution holds at the end.
    pub tables: Tables,
}

/// A finished [`TierSolver::solve`]: the solution, the positions reachable
/// from the start when the solve found them first, and the plan it ran.
#[derive(Debug)]
pub struct TierSolve<'g, G: Tiered> {
    /// The solution (the tables [`Plan::tables`] says).
    pub solution: TieredSolution<'g, G>,
    /// The positions reachable from the start, counted, when the solve
    /// found them first ([`Positions::Reachable`]); `None` otherwise (walk
    /// them after with [`TierSolve::reach_by_index`] where the solve ran by
    /// the game's index, else [`crate::reachable_tiers`]).
    pub reach: Option<TierReach>,
    /// The strategy it ran.
    pub plan: Plan,
    /// The dense walk, when the plan solved by the index.
    dense: Option<Dense<G>>,
}

impl<G> TierSolve<'_, G>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    /// The positions reachable from `start`, counted as
    /// [`crate::reachable_tiers`] counts them (each weighing
    /// `weight(pos)`), walked by the game's dense index — a bit an index,
    /// children by index, on `config`'s threads — when the solve ran by
    /// it ([`Parents::Indexed`]) and holds the table; `None` otherwise
    /// (walk with [`crate::reachable_tiers`]).
    ///
    /// **Memory:** half a byte an index ([`crate::reachable_bytes`]),
    /// checked against `config`'s limit (give it what the table leaves).
    pub fn reach_by_index(
        &self,
        start: &G::Position,
        weight: Weight<'_, G::Position>,
        config: &Config,
    ) -> Option<Result<TierReach, Error>> {
        let dense = self.dense?;
        let &[t] = self.solution.tiers() else {
            return None;
        };
        let table = self.solution.table(t)?;
        Some(dense.reach(self.solution.game, t, table, start, weight, config))
    }

    /// The certificate by the game's index, where the plan solved by it
    /// ([`Parents::Indexed`]): the same positions and distinct children
    /// [`crate::certify_tiers`] counts on the same table, found by the
    /// index's children in bulk ([`crate::certify_indexed`]'s rule, some
    /// 6× faster on Magic Fingers); `None` for any other plan.
    pub fn certify_by_index(
        &self,
    ) -> Option<Result<crate::Certificate, crate::Rejection<G::Position>>> {
        let dense = self.dense?;
        let &[t] = self.solution.tiers() else {
            return None;
        };
        let table = self.solution.table(t)?;
        Some((dense.certify)(self.solution.game, table))
    }
}

impl<G: Tiered> Dense<G> {
    /// The positions reachable from `start` by the index's children,
    /// counted against `table`, the one tier `t`'s.
    fn reach(
        self,
        game: &G,
        t: Tier,
        table: &Table,
        start: &G::Position,
        weight: Weight<'_, G::Position>,
        config: &Config,
    ) -> Result<TierReach, Error>
    where
        G: Sync,
    {
        (self.walk)(game, start, config).and_then(|r| r.tier_reach(game, t, table, weight, config))
    }
}

impl<G: Tiered + Sync> TierUnmoves<G> {
    /// The dense index's walk over a solved table of `game`'s one loopy
    /// tier, solved elsewhere (on the cluster, say): the positions
    /// reachable from `start` counted as [`TierSolve::reach_by_index`]
    /// counts them; `None` when these unmoves have no dense index
    /// ([`TierUnmoves::of`]) or the game is not one such tier.
    pub fn reach_by_index(
        &self,
        game: &G,
        table: &Table,
        start: &G::Position,
        weight: Weight<'_, G::Position>,
        config: &Config,
    ) -> Option<Result<TierReach, Error>> {
        let dense = self.dense.filter(|d| (d.fits)(game))?;
        let t = game.tiers()[0];
        Some(dense.reach(game, t, table, start, weight, config))
    }

    /// The dense index's certificate of that table, as
    /// [`TierSolve::certify_by_index`] gives it; `None` as for
    /// [`TierUnmoves::reach_by_index`].
    pub fn certify_by_index(
        &self,
        game: &G,
        table: &Table,
    ) -> Option<Result<crate::Certificate, crate::Rejection<G::Position>>> {
        let dense = self.dense.filter(|d| (d.fits)(game))?;
        Some((dense.certify)(game, table))
    }
}

impl<G: Tiered> std::fmt::Debug for Dense<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Dense")
    }
}

/// What each position counts for in the reachable counts (1, or the size
/// of its class for a [`game_core::Canonical`] game).
type Weight<'w, P> = &'w (dyn Fn(&P) -> u64 + Sync);

/// The tier solver: what the caller has and wants, set builder style;
/// the strategy is chosen inside ([`TierSolver::plan`], in the module's
/// table).
///
/// ```
/// use game_core::{Game, Tier, Tiered, Value};
/// use solver_retro::{Keep, Positions, Solved, TierSolver};
///
/// /// Take 1 or 2 from a pile; the tier is the pile, and every move leaves it.
/// struct Take12;
/// impl Game for Take12 {
///     type Position = u64;
///     type Move = u64;
///     fn moves(&self, &n: &u64, out: &mut Vec<u64>) { out.extend((1..=2).filter(|t| *t <= n)) }
///     fn play(&self, &n: &u64, &t: &u64) -> u64 { n - t }
/// }
/// impl Tiered for Take12 {
///     fn tiers(&self) -> Vec<Tier> { (0..=12).collect() }
///     fn tier(&self, &n: &u64) -> Tier { n }
///     fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>) {
///         out.extend((1..=2).filter(|k| *k <= t).map(|k| t - k))
///     }
///     fn tier_size(&self, _: Tier) -> u64 { 1 }
///     fn tier_index(&self, _: &u64) -> u64 { 0 }
///     fn tier_position(&self, t: Tier, _: u64) -> Option<u64> { Some(t) }
///     fn leaves_tier(&self, _: Tier) -> bool { true }
/// }
/// // A start and no store: only the piles reachable from 9 are solved.
/// let weight = |_: &u64| 1;
/// let solver = TierSolver::new(&Take12).start(9, &weight).keep(Keep::Start);
/// assert_eq!(solver.plan().positions, Positions::Reachable);
/// let done = solver.solve()?;
/// assert_eq!(done.reach.map(|r| r.count), Some(10));
/// assert_eq!(done.solution.value(&9), Some(Value::lose(6)));
/// // No start: every pile.
/// let whole = TierSolver::new(&Take12).solve()?;
/// assert_eq!(whole.plan.positions, Positions::Whole);
/// assert_eq!(whole.solution.value(&12), Some(Value::lose(8)));
/// # Ok::<(), solver_retro::Error>(())
/// ```
pub struct TierSolver<'g, 's, G: Tiered> {
    game: &'g G,
    config: Config,
    store: Option<&'s mut dyn TierStore>,
    start: Option<(G::Position, Weight<'s, G::Position>)>,
    keep: Keep,
    unmoves: Option<TierUnmoves<G>>,
}

impl<'g, 's, G> TierSolver<'g, 's, G>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    /// A solver of `game` with the default [`Config`], no store, no
    /// start, every table kept ([`Keep::All`]) and no unmoves.
    #[must_use]
    pub fn new(game: &'g G) -> Self {
        TierSolver {
            game,
            config: Config::default(),
            store: None,
            start: None,
            keep: Keep::All,
            unmoves: None,
        }
    }

    /// The threads, the memory limit and the progress callback.
    #[must_use]
    pub fn config(mut self, config: &Config) -> Self {
        self.config = config.clone();
        self
    }

    /// Where finished tiers go and a resumed solve finds them: with a
    /// store every index is solved (a database answers any position
    /// later); one that keeps its tables ([`TierStore::keeps_tables`])
    /// lets the solver drop those no tier still reads.
    #[must_use]
    pub fn store(mut self, store: &'s mut dyn TierStore) -> Self {
        self.store = Some(store);
        self
    }

    /// The start, and what each position counts for: with no store and
    /// every tier left by every move, only the positions reachable from
    /// `start` are solved, and counted ([`TierSolve::reach`]).
    #[must_use]
    pub fn start(mut self, start: G::Position, weight: Weight<'s, G::Position>) -> Self {
        self.start = Some((start, weight));
        self
    }

    /// Which tables to hold at the end of a reachable-first solve:
    /// [`Keep::All`] (by default; a certificate or value queries can
    /// follow) or [`Keep::Start`] (the counts and the start's value at
    /// the least memory). A whole solve holds what its store asks.
    #[must_use]
    pub fn keep(mut self, keep: Keep) -> Self {
        self.keep = keep;
        self
    }

    /// The game's unmoves, if it has them (`None`: it has not): a loopy
    /// tier then finds its parents by them, with no graph stored; given
    /// over the game's index ([`TierUnmoves::indexed`]), a game of one
    /// loopy tier indexed as a whole is solved by its index instead
    /// ([`Parents::Indexed`]).
    #[must_use]
    pub fn unmoves(mut self, unmoves: Option<TierUnmoves<G>>) -> Self {
        self.unmoves = unmoves;
        self
    }

    /// The strategy [`solve`](Self::solve) will run (the module's table).
    #[must_use]
    pub fn plan(&self) -> Plan {
        let game = self.game;
        let loop_free = game.tiers().iter().all(|&t| game.leaves_tier(t));
        let dense = self
            .unmoves
            .and_then(|u| u.dense)
            .is_some_and(|d| (d.fits)(game));
        let parents = match (loop_free, dense, self.unmoves.is_some()) {
            (true, _, _) => Parents::NotNeeded,
            (false, true, _) => Parents::Indexed,
            (false, false, true) => Parents::Unmoves,
            (false, false, false) => Parents::Stored,
        };
        let reachable = loop_free && self.start.is_some() && self.store.is_none();
        let positions = if reachable {
            Positions::Reachable
        } else {
            Positions::Whole
        };
        let keeps = self.store.as_ref().is_some_and(|s| s.keeps_tables());
        let tables = match (keeps, reachable, self.keep) {
            (true, _, _) => Tables::Dropped,
            (false, true, Keep::Start) => Tables::Start,
            _ => Tables::Held,
        };
        Plan {
            parents,
            positions,
            tables,
        }
    }

    /// Solves as [`plan`](Self::plan) says.
    ///
    /// **Memory:** the tier being solved and the solved tiers held
    /// meanwhile — its child tiers, and any a later tier reads — 2 bytes
    /// an index (4 where remoteness or counts outgrow 16-bit cells), plus
    /// for loopy tiers with stored parents 16 bytes a move that stays
    /// inside the tier and 8 bytes an index for the reverse graph; a
    /// reachable-first solve adds a bit an index of every tier. Before
    /// anything is solved, the group of every tier still to solve (a tier
    /// the store holds finished, [`TierStore::is_done`], is not) is
    /// checked against the memory limit, and if any cannot fit, the one
    /// that needs the most is refused, by name.
    ///
    /// # Errors
    /// [`Error::TooLarge`] naming the tier; [`Error::Broken`] when a child
    /// lies in a tier not declared, a move stays inside a tier declared to
    /// be left, a child index is no position, or a tier's solved positions
    /// are not the ones reached; [`Error::TooDeep`],
    /// [`Error::TerminalDraw`], [`Error::Store`], [`Error::CountOverflow`].
    /// With unmoves, a move to an index of its own loopy tier that is no
    /// position goes unseen (no edge is kept to show it): its parents come
    /// out drawn; [`GameCheck::tiered`](crate::GameCheck::tiered) checks
    /// that every child's index decodes.
    pub fn solve(self) -> Result<TierSolve<'g, G>, Error> {
        let plan = self.plan();
        let TierSolver {
            game,
            config,
            store,
            start,
            keep,
            unmoves,
        } = self;
        if let (Positions::Reachable, Some((start, weight))) = (plan.positions, &start) {
            let (solution, reach) = solve_reachable(game, start, *weight, &config, keep)?;
            return Ok(TierSolve {
                solution,
                reach: Some(reach),
                plan,
                dense: None,
            });
        }
        let mut none = NoStore;
        let store: &mut dyn TierStore = match store {
            Some(s) => s,
            None => &mut none,
        };
        if let (Parents::Indexed, Some(dense)) = (plan.parents, unmoves.and_then(|u| u.dense)) {
            let solution = solve_dense(game, dense, &config, store)?;
            return Ok(TierSolve {
                solution,
                reach: None,
                plan,
                dense: Some(dense),
            });
        }
        let parents = match plan.parents {
            Parents::Unmoves => unmoves.map(|u| u.parents),
            _ => None,
        };
        let (solution, _) = run_tiers(game, &config, store, parents, None)?;
        Ok(TierSolve {
            solution,
            reach: None,
            plan,
            dense: None,
        })
    }
}

/// The one tier of `game` solved by its dense index ([`Parents::Indexed`])
/// into `store`: not solved again when the store holds it finished (the
/// solution then holds no table, as a tier solve's would not).
fn solve_dense<'g, G: Tiered>(
    game: &'g G,
    dense: Dense<G>,
    config: &Config,
    store: &mut dyn TierStore,
) -> Result<TieredSolution<'g, G>, Error> {
    let order: Vec<Tier> = game.tiers();
    let mut held = Vec::new();
    if let &[t] = &order[..] {
        if !store.is_done(t) {
            let table = (dense.solve)(game, config)?;
            store.save(t, &table)?;
            config.report(crate::config::Progress::Tier {
                done: 1,
                total: 1,
                positions: table.len() as u64,
            });
            held.push((t, table));
        }
    }
    Ok(TieredSolution {
        game,
        tables: TierTables::new(order, held),
    })
}

/// Solves every tier of `game`, children first, with the default
/// [`Config`] and no store. Tiers that are not [`Tiered::leaves_tier`]
/// keep a reverse graph of their inside moves (8 bytes a move); use
/// [`solve_tiers_unmoves`] for games with [`Unmoves`].
///
/// # Errors
/// As [`solve_tiers_with`].
///
/// ```
/// use game_core::{Game, Outcome, Tier, Tiered, Value};
/// use solver_retro::Solved;
///
/// /// Take 1 or 2 from a pile of at most 9; the tier is the pile divided
/// /// by 3, and inside a tier a player may also pass once by moving a
/// /// token ("passes" left: 1 or 0).
/// struct Take12;
/// impl Game for Take12 {
///     type Position = (u64, bool);
///     type Move = u64;
///     fn moves(&self, &(n, pass): &(u64, bool), out: &mut Vec<u64>) {
///         out.extend((1..=2).filter(|t| *t <= n));
///         if pass { out.push(0) }
///     }
///     fn play(&self, &(n, pass): &(u64, bool), &t: &u64) -> (u64, bool) {
///         if t == 0 { (n, false) } else { (n - t, pass) }
///     }
/// }
/// impl Tiered for Take12 {
///     fn tiers(&self) -> Vec<Tier> { vec![0, 1, 2, 3] }
///     fn tier(&self, p: &(u64, bool)) -> Tier { p.0 / 3 }
///     fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>) { if t > 0 { out.push(t - 1) } }
///     fn tier_size(&self, _: Tier) -> u64 { 6 }
///     fn tier_index(&self, p: &(u64, bool)) -> u64 { p.0 % 3 * 2 + u64::from(p.1) }
///     fn tier_position(&self, t: Tier, i: u64) -> Option<(u64, bool)> {
///         (t < 3 || i < 2).then_some((t * 3 + i / 2, i % 2 == 1))
///     }
/// }
/// let sol = solver_retro::solve_tiers(&Take12)?;
/// assert_eq!(sol.value(&(3, false)), Some(Value::lose(2)));
/// assert_eq!(sol.value(&(3, true)), Some(Value::win(3))); // pass: the other player faces a lost 3
/// # Ok::<(), solver_retro::Error>(())
/// ```
pub fn solve_tiers<G>(game: &G) -> Result<TieredSolution<'_, G>, Error>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    TierSolver::new(game).solve().map(|s| s.solution)
}

/// Solves every tier of `game`, children first, keeping finished tiers in
/// `store`.
///
/// **Memory:** the tier being solved and the solved tiers held meanwhile
/// — its child tiers, and any a later tier reads — 2 bytes an index (4
/// where remoteness or counts outgrow 16-bit cells), plus for loopy tiers
/// 16 bytes a move that stays inside the tier and 8 bytes an index for the
/// reverse graph. Before anything is solved, the group of every tier
/// still to solve (a tier the store holds finished,
/// [`TierStore::is_done`], is not) is checked against the memory limit,
/// and if any cannot fit, the one that needs the most is refused, by
/// name; a tier that needs 4-byte cells (or beside tables that have them)
/// is checked again before its cells are taken. Tables no tier still
/// reads are dropped when the next tier would not fit beside them (by
/// the estimate before its solve, or its own check, after which it is
/// solved again without them), or when they pass half the limit — only
/// with a store that keeps them ([`TierStore::keeps_tables`], a
/// database). Otherwise ([`NoStore`]) every table is held to the end,
/// each counted in the group of every tier solved after it.
///
/// # Errors
/// [`Error::TooLarge`] naming the tier; [`Error::Broken`] when a child lies
/// in a tier not declared, a move stays inside a tier declared to be left,
/// or a child index is no position; [`Error::TooDeep`],
/// [`Error::TerminalDraw`], [`Error::Store`].
pub fn solve_tiers_with<'g, G>(
    game: &'g G,
    config: &Config,
    store: &mut dyn TierStore,
) -> Result<TieredSolution<'g, G>, Error>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    TierSolver::new(game)
        .config(config)
        .store(store)
        .solve()
        .map(|s| s.solution)
}

/// Solves every tier of a game that also has [`Unmoves`]: the parents
/// inside a loopy tier come from `unmoves`, filtered to the tier, so no
/// graph is stored — 2 bytes an index of the tier and its child tiers.
///
/// # Errors
/// As [`solve_tiers_with`], except that a move to an index of its own
/// loopy tier that is no position goes unseen here (no edge is kept to
/// show it): its parents come out drawn. [`GameCheck::tiered`](crate::GameCheck::tiered)
/// checks that every child's index decodes.
pub fn solve_tiers_unmoves<'g, G>(
    game: &'g G,
    config: &Config,
    store: &mut dyn TierStore,
) -> Result<TieredSolution<'g, G>, Error>
where
    G: Tiered + Unmoves + Sync,
    G::Position: Send,
    G::Move: Send,
{
    TierSolver::new(game)
        .config(config)
        .store(store)
        .unmoves(Some(TierUnmoves::of()))
        .solve()
        .map(|s| s.solution)
}

/// Solves the positions of `game` reachable from `start` and counts them
/// by outcome, each position weighing `weight(pos)` (1, or the size of its
/// class for a [`game_core::Canonical`] game): what [`solve_tiers_with`]
/// followed by [`reachable_tiers`](crate::reachable_tiers) gives, and with
/// [`Keep::Start`] in a fraction of the memory.
///
/// **Strategy.** When every tier is left by every move
/// ([`Tiered::leaves_tier`], e.g. Connect Four by pieces on the board),
/// the positions reachable from the start are found first (a bit an index
/// of every tier, held through the solve), and the backward pass then
/// solves only those and counts them as it goes: the children of a
/// reachable position are reachable, so nothing it needs is left out.
/// Every other index is left unsolved — no position in the tables, so
/// [`crate::Solved::value`] is `None` there and [`crate::certify_tiers`]
/// checks the reachable positions. With [`Keep::Start`] a table is
/// dropped once no tier still to solve needs it and its memory serves the
/// next tiers. A game with a loopy tier is solved whole by
/// [`solve_tiers_with`] and walked after (all its tables kept).
///
/// ```
/// use game_core::{Game, Tier, Tiered, Value};
/// use solver_retro::{Keep, Solved};
///
/// /// Take 1 or 2 from a pile; the tier is the pile, and every move leaves it.
/// struct Take12;
/// impl Game for Take12 {
///     type Position = u64;
///     type Move = u64;
///     fn moves(&self, &n: &u64, out: &mut Vec<u64>) { out.extend((1..=2).filter(|t| *t <= n)) }
///     fn play(&self, &n: &u64, &t: &u64) -> u64 { n - t }
/// }
/// impl Tiered for Take12 {
///     fn tiers(&self) -> Vec<Tier> { (0..=12).collect() }
///     fn tier(&self, &n: &u64) -> Tier { n }
///     fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>) {
///         out.extend((1..=2).filter(|k| *k <= t).map(|k| t - k))
///     }
///     fn tier_size(&self, _: Tier) -> u64 { 1 }
///     fn tier_index(&self, _: &u64) -> u64 { 0 }
///     fn tier_position(&self, t: Tier, _: u64) -> Option<u64> { Some(t) }
///     fn leaves_tier(&self, _: Tier) -> bool { true }
/// }
/// let config = solver_retro::Config::default();
/// let (sol, reach) = solver_retro::solve_tiers_reachable(&Take12, &9, &|_| 1, &config, Keep::Start)?;
/// assert_eq!(reach.count, 10); // piles 9 down to 0; 10 to 12 are not reached
/// assert_eq!(reach.counts.lose, 4); // 9, 6, 3 and 0
/// assert_eq!(sol.value(&9), Some(Value::lose(6)));
/// assert_eq!(sol.value(&12), None); // not reachable from 9: not solved
/// # Ok::<(), solver_retro::Error>(())
/// ```
///
/// # Errors
/// As [`solve_tiers_with`] and [`reachable_tiers`](crate::reachable_tiers);
/// [`Error::TooLarge`] also when the bitmaps and a tier's group do not fit
/// together; [`Error::Broken`] when a tier's solved positions are not the
/// ones reached.
pub fn solve_tiers_reachable<'g, G>(
    game: &'g G,
    start: &G::Position,
    weight: &(dyn Fn(&G::Position) -> u64 + Sync),
    config: &Config,
    keep: Keep,
) -> Result<(TieredSolution<'g, G>, TierReach), Error>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    let done = TierSolver::new(game)
        .config(config)
        .start(start.clone(), weight)
        .keep(keep)
        .solve()?;
    if let Some(reach) = done.reach {
        return Ok((done.solution, reach));
    }
    // Solved whole: walked after, the walk's bitmaps on top of every
    // table (held to the end).
    let sol = done.solution;
    let held: u64 = sol
        .tables
        .tiers()
        .iter()
        .filter_map(|&t| sol.table(t))
        .map(Table::bytes)
        .sum();
    let walk = config
        .clone()
        .memory_limit(config.limit().saturating_sub(held));
    let reach = walk_tiers(
        game,
        start,
        &mut |t, _| Ok(sol.table(t).map(crate::Held::Borrowed)),
        weight,
        &walk,
        None,
    )?;
    Ok((sol, reach))
}

/// Tests of the builder's choice, each plan's solve against the reference.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::testing::{reached_from, reference, tiered_graph};
    use crate::{Counts, Solved};
    use proptest::prelude::*;

    /// A store that keeps every table it is given and says so: tables may
    /// be dropped.
    #[derive(Default)]
    struct Keeper(Vec<game_core::Tier>);

    impl TierStore for Keeper {
        fn keeps_tables(&self) -> bool {
            true
        }
        fn save(&mut self, tier: game_core::Tier, _: &Table) -> Result<(), Error> {
            self.0.push(tier);
            Ok(())
        }
    }

    proptest! {
        /// Every combination of what a caller gives — a store (none, one
        /// that keeps nothing, one that keeps tables), a start, unmoves,
        /// [`Keep`] — is planned as the module's table says, and solved
        /// to the reference's values on every position the plan covers,
        /// with the reachable counts the reference's when it found them;
        /// with 1 and 3 threads alike.
        #[test]
        fn every_plan_solves_to_the_reference(g in tiered_graph(), pick in any::<usize>()) {
            let want = reference(&g.graph);
            let loop_free = g.leaves.iter().all(|&l| l);
            let start = pick % g.graph.edges.len();
            let seen = reached_from(&g.graph, start);
            let mut counts = Counts::default();
            for (p, &w) in want.iter().enumerate() {
                if seen[p] {
                    counts.add(w.outcome());
                }
            }
            let weight = |_: &usize| 1;
            for threads in [1, 3] {
                let config = Config::default().threads(threads);
                for store in 0..3 {
                    for (with_start, with_unmoves) in [(false, false), (true, false), (false, true), (true, true)] {
                        for keep in [Keep::All, Keep::Start] {
                            let (mut none, mut keeper) = (NoStore, Keeper::default());
                            let mut solver = TierSolver::new(&g).config(&config).keep(keep);
                            solver = match store {
                                1 => solver.store(&mut none),
                                2 => solver.store(&mut keeper),
                                _ => solver,
                            };
                            if with_start {
                                solver = solver.start(start, &weight);
                            }
                            if with_unmoves {
                                solver = solver.unmoves(Some(TierUnmoves::of()));
                            }
                            let plan = solver.plan();
                            let reachable = loop_free && with_start && store == 0;
                            prop_assert_eq!(plan.positions == Positions::Reachable, reachable);
                            prop_assert_eq!(plan.parents, match (loop_free, with_unmoves) {
                                (true, _) => Parents::NotNeeded,
                                (false, true) => Parents::Unmoves,
                                (false, false) => Parents::Stored,
                            });
                            prop_assert_eq!(plan.tables, match store {
                                2 => Tables::Dropped,
                                _ if reachable && keep == Keep::Start => Tables::Start,
                                _ => Tables::Held,
                            });
                            let done = solver.solve().unwrap();
                            prop_assert_eq!(done.plan, plan);
                            prop_assert_eq!(done.reach.is_some(), reachable);
                            if let Some(reach) = &done.reach {
                                prop_assert_eq!(reach.counts, counts);
                            }
                            prop_assert_eq!(done.solution.value(&start), Some(want[start]));
                            if plan.tables != Tables::Held {
                                continue;
                            }
                            for (p, &w) in want.iter().enumerate() {
                                let expect = (seen[p] || !reachable).then_some(w);
                                prop_assert_eq!(done.solution.value(&p), expect, "at {}", p);
                            }
                            prop_assert!(crate::certify_tiers(&done.solution).is_ok());
                        }
                    }
                }
            }
        }
    }

    proptest! {
        /// A game of one loopy tier indexed as a whole, given its indexed
        /// unmoves, is planned and solved by its dense index, with and
        /// without its bulk fast paths, with and without a store, on 1 and
        /// 3 threads: the reference's value at every position; and its
        /// walk by the index counts what the reference reaches from the
        /// start (weighted) and what the tier walk counts.
        #[test]
        fn one_indexed_tier_is_solved_and_walked_by_its_index(
            g in crate::fixtures::testing::big_graph(),
            bulk in any::<bool>(),
            pick in any::<usize>(),
        ) {
            use crate::fixtures::testing::Capable;
            let game = game_core::OneTier(Capable { graph: g.clone(), bulk });
            let want = reference(&g);
            let start = pick % g.edges.len();
            let seen = reached_from(&g, start);
            let weight = |p: &usize| 1 + (*p as u64 % 3);
            let (mut count, mut counts) = (0u64, Counts::default());
            for (p, &w) in want.iter().enumerate() {
                if seen[p] {
                    count += weight(&p);
                    counts.add_many(w.outcome(), weight(&p));
                }
            }
            for threads in [1, 3] {
                let config = Config::default().threads(threads);
                for with_store in [false, true] {
                    let mut keeper = Keeper::default();
                    let mut solver = TierSolver::new(&game)
                        .config(&config)
                        .start(start, &weight)
                        .unmoves(Some(TierUnmoves::indexed()));
                    if with_store {
                        solver = solver.store(&mut keeper);
                    }
                    prop_assert_eq!(solver.plan().parents, Parents::Indexed);
                    prop_assert_eq!(solver.plan().positions, Positions::Whole);
                    let done = solver.solve().unwrap();
                    prop_assert!(done.reach.is_none());
                    for (p, &w) in want.iter().enumerate() {
                        prop_assert_eq!(done.solution.value(&p), Some(w), "at {}", p);
                    }
                    let by_index = done.reach_by_index(&start, &weight, &config).unwrap().unwrap();
                    prop_assert_eq!(by_index.count, count);
                    prop_assert_eq!(by_index.counts, counts);
                    prop_assert_eq!(
                        by_index.canonical,
                        seen.iter().filter(|&&s| s).count() as u64
                    );
                    let by_tiers = crate::reachable_tiers(
                        &game,
                        &start,
                        &mut |t, _| Ok(done.solution.table(t).map(crate::Held::Borrowed)),
                        &weight,
                        &config,
                    )
                    .unwrap();
                    prop_assert_eq!(&by_index.tiers, &by_tiers.tiers);
                    prop_assert!(crate::certify_tiers(&done.solution).is_ok());
                    drop(done);
                    if with_store {
                        prop_assert_eq!(&keeper.0, &[0]);
                    }
                }
            }
            // Unmoves without the index's fast paths: tier by tier, the
            // same values.
            let plain = TierSolver::new(&game).unmoves(Some(TierUnmoves::of()));
            prop_assert_eq!(plain.plan().parents, Parents::Unmoves);
            let done = plain.solve().unwrap();
            prop_assert!(done.reach_by_index(&start, &weight, &Config::default()).is_none());
            for (p, &w) in want.iter().enumerate() {
                prop_assert_eq!(done.solution.value(&p), Some(w), "at {}", p);
            }
        }
    }

    /// A store that holds the one tier finished: it is not solved again,
    /// and the solution holds no table (as a tier solve's would not).
    #[test]
    fn a_finished_indexed_tier_is_not_solved_again() {
        use crate::fixtures::testing::Capable;
        struct Done;
        impl TierStore for Done {
            fn is_done(&self, _: game_core::Tier) -> bool {
                true
            }
            fn save(&mut self, _: game_core::Tier, _: &Table) -> Result<(), Error> {
                panic!("a finished tier was solved again")
            }
        }
        let graph = game_core::fixtures::Graph {
            edges: vec![vec![1], vec![0, 2], vec![]],
            ends: vec![None; 3],
        };
        let game = game_core::OneTier(Capable { graph, bulk: true });
        let mut store = Done;
        let done = TierSolver::new(&game)
            .store(&mut store)
            .unmoves(Some(TierUnmoves::indexed()))
            .solve()
            .unwrap();
        assert_eq!(done.plan.parents, Parents::Indexed);
        assert!(done.solution.table(0).is_none());
        assert!(done
            .reach_by_index(&0, &|_| 1, &Config::default())
            .is_none());
    }

    /// A store that keeps tables is handed every tier solved, in order,
    /// and the solve is whole even with a start (a database answers any
    /// position later).
    #[test]
    fn a_store_that_keeps_tables_gets_every_tier_and_a_whole_solve() {
        let game = crate::fixtures::testing::Skip;
        let mut keeper = Keeper::default();
        let weight = |_: &(u64, u64)| 1;
        let done = TierSolver::new(&game)
            .store(&mut keeper)
            .start((4, 0), &weight)
            .solve()
            .unwrap();
        assert_eq!(done.plan.positions, Positions::Whole);
        assert!(done.reach.is_none());
        assert_eq!(keeper.0, game.tiers());
    }
}
