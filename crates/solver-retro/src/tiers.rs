//! The tier preset: a [`Tiered`] game solved tier by tier, children first.
//!
//! Each tier is one run of the level engine over the tier's own dense
//! index. Seeding a tier reads its children in already solved tiers: a
//! tier whose moves all leave it ([`Tiered::leaves_tier`]) is finished by
//! that one pass; any other tier gets, for each position, a counter of its
//! distinct children inside the tier plus one for "the children outside",
//! and up to three events from outside (the fastest lost child, the slowest
//! won child when all outside children are won, the fastest tied child);
//! the engine then runs the tier's levels exactly as if the outside
//! children were inside it.

use game_core::{Outcome, ParentIndices, Tier, Tiered, Unmoves};
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use rustc_hash::FxHashMap;

use crate::cell::{Cell, Cells, Table};
use crate::engine::{posts_bytes, propagate, Parents, Seeds};
use crate::seed::{visited_outside, Placement, TierScratch, TierSeeding};
use crate::solution::{checked_counts, count_overflow, Counts};
use crate::tier_solution::{TierTables, TieredSolution};
use crate::walk::TierBits;
use crate::{Config, Error};

/// Where finished tiers go, and where a resumed solve finds them.
///
/// The tier solver calls [`TierStore::load`] before solving a tier (a
/// database resuming after a crash answers with the tier it finished) and
/// [`TierStore::save`] with every tier it solves. [`NoStore`] keeps
/// nothing, so the solver holds every table itself.
pub trait TierStore {
    /// Whether the store keeps the tables it is given
    /// ([`TierStore::save`]) so that they can be had again (a database):
    /// then the solver may drop a table no tier still to solve reads, to
    /// stay within the memory limit, and the solution it returns holds
    /// only the tables it kept. By default `false`: every table stays in
    /// memory to the end (the solution is the only place the values
    /// surely live), and a game whose tables cannot all be held beside
    /// the tier being solved is refused before anything is solved. A
    /// store that answers `true` and keeps nothing loses the dropped
    /// tiers' values.
    fn keeps_tables(&self) -> bool {
        false
    }

    /// Whether the store holds `tier` finished (then it is not solved
    /// again, and loaded only when a tier still to solve needs it).
    fn is_done(&self, _tier: Tier) -> bool {
        false
    }

    /// The table of `tier` if the store already holds it finished: a
    /// table of `size` cells, the tier's indices. A store that holds
    /// another number for the tier should refuse before it allocates (a
    /// damaged file could claim any number); the solver refuses a table of
    /// another length anyway.
    ///
    /// # Errors
    /// Whatever the store fails with, as [`Error::Store`].
    fn load(&mut self, _tier: Tier, _size: u64) -> Result<Option<Table>, Error> {
        Ok(None)
    }

    /// Keeps the finished `table` of `tier`.
    ///
    /// # Errors
    /// Whatever the store fails with, as [`Error::Store`].
    fn save(&mut self, _tier: Tier, _table: &Table) -> Result<(), Error> {
        Ok(())
    }
}

/// A [`TierStore`] that keeps nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoStore;

impl TierStore for NoStore {}

/// Every tier solved into `store`: a loopy tier's parents inside it from
/// `unmoves` when given (no graph stored), else from its inside moves,
/// stored; with `only` just the reachable positions, tallied per tier.
pub(crate) fn run_tiers<'g, G>(
    game: &'g G,
    config: &Config,
    store: &mut dyn TierStore,
    unmoves: Option<ParentsFn<G>>,
    only: Option<&Only<'_, G::Position>>,
) -> Result<(TieredSolution<'g, G>, FxHashMap<Tier, Tally>), Error>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    match unmoves {
        Some(parents) => run(
            game,
            config,
            store,
            false,
            &move |game, tier, _| {
                Ok(Inside::Unmoves(TierUnmovesParents::with(
                    game, tier, parents,
                )))
            },
            only,
        ),
        None => run(
            game,
            config,
            store,
            true,
            &|game, tier, edges| Ok(StoredInside::build(game, tier, edges)),
            only,
        ),
    }
}

/// Parents inside a tier: a stored reverse graph or the game's unmoves.
enum Inside<'g, G: Tiered> {
    Stored(StoredInside),
    Unmoves(TierUnmovesParents<'g, G>),
}

/// Builds the parents source of a loopy tier from its inside edges
/// (child, parent); a plain function pointer type keeps `run` generic only
/// over the game.
type MakeInside<'m, G> =
    dyn for<'a> Fn(&'a G, Tier, Vec<(u64, u64)>) -> Result<Inside<'a, G>, Error> + Sync + 'm;

struct StoredInside {
    offsets: Vec<u64>,
    parents: Vec<u64>,
}

impl StoredInside {
    fn build<G: Tiered>(game: &G, tier: Tier, mut edges: Vec<(u64, u64)>) -> Inside<'_, G> {
        edges.par_sort_unstable();
        edges.dedup();
        let n = game.tier_size(tier) as usize;
        let mut offsets = vec![0u64; n + 1];
        for &(c, _) in &edges {
            offsets[c as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        let parents = edges.into_iter().map(|(_, p)| p).collect();
        Inside::Stored(StoredInside { offsets, parents })
    }
}

/// The parents of an id of a tier inside the tier (as
/// [`parents_by_unmoves`]): a plain function, so that a parents source
/// holding one is generic over the game alone.
pub type ParentsFn<G> = fn(
    &G,
    Tier,
    u64,
    &mut ParentIndices,
    &mut Vec<<G as game_core::Game>::Position>,
) -> Result<(), Error>;

/// The parents source of a loopy tier by the game's unmoves: the parents
/// of an index inside its tier ([`parents_by_unmoves`]). What
/// [`solve_tiers_unmoves`](crate::solve_tiers_unmoves) and solver-cluster's
/// shards of a tier ask.
pub struct TierUnmovesParents<'g, G: Tiered> {
    game: &'g G,
    tier: Tier,
    parents: ParentsFn<G>,
}

impl<'g, G: Tiered> TierUnmovesParents<'g, G> {
    /// The parents of `tier`'s indices inside it, by `game`'s unmoves.
    pub fn new(game: &'g G, tier: Tier) -> Self
    where
        G: Unmoves,
    {
        Self::with(game, tier, parents_by_unmoves::<G>)
    }

    /// The same, by `parents` (for a caller generic over games that may
    /// have no unmoves: it keeps the function of those that have).
    pub fn with(game: &'g G, tier: Tier, parents: ParentsFn<G>) -> Self {
        TierUnmovesParents {
            game,
            tier,
            parents,
        }
    }
}

impl<G> Parents for TierUnmovesParents<'_, G>
where
    G: Tiered + Sync,
    G::Position: Send,
{
    type Scratch = Vec<G::Position>;

    fn parents(
        &self,
        id: u64,
        out: &mut ParentIndices,
        s: &mut Self::Scratch,
    ) -> Result<(), Error> {
        (self.parents)(self.game, self.tier, id, out, s)
    }
}

impl<G> Parents for Inside<'_, G>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    type Scratch = Vec<G::Position>;

    fn parents(
        &self,
        id: u64,
        out: &mut ParentIndices,
        s: &mut Self::Scratch,
    ) -> Result<(), Error> {
        match self {
            Inside::Stored(g) => {
                let (a, b) = (g.offsets[id as usize], g.offsets[id as usize + 1]);
                out.singles
                    .extend_from_slice(&g.parents[a as usize..b as usize]);
                Ok(())
            }
            Inside::Unmoves(u) => u.parents(id, out, s),
        }
    }
}

/// The parents of index `id` of `tier` inside the tier, by the game's
/// unmoves, distinct, added to `out.singles` (`positions` is scratch):
/// how [`solve_tiers_unmoves`](crate::solve_tiers_unmoves) (and the cluster) find parents inside
/// a tier.
///
/// # Errors
/// [`Error::Broken`] when `id` is no position of the tier,
/// [`Error::BadIndex`] for a parent's index past the tier's size.
pub fn parents_by_unmoves<G: Tiered + Unmoves>(
    game: &G,
    tier: Tier,
    id: u64,
    out: &mut ParentIndices,
    positions: &mut Vec<G::Position>,
) -> Result<(), Error> {
    let s = positions;
    let Some(pos) = game.tier_position(tier, id) else {
        return Err(Error::Broken(format!(
            "index {id} of tier {} was resolved but is no position",
            game.tier_name(tier)
        )));
    };
    s.clear();
    game.unmoves(&pos, s);
    let first = out.singles.len();
    let size = game.tier_size(tier);
    for q in s.iter() {
        if game.tier(q) == tier {
            let i = game.tier_index(q);
            if i >= size {
                return Err(Error::BadIndex { index: i, size });
            }
            out.singles.push(i);
        }
    }
    game_core::sort_dedup_tail(&mut out.singles, first);
    Ok(())
}

fn run<'g, G>(
    game: &'g G,
    config: &Config,
    store: &mut dyn TierStore,
    stored: bool,
    make: &MakeInside<'_, G>,
    only: Option<&Only<'_, G::Position>>,
) -> Result<(TieredSolution<'g, G>, FxHashMap<Tier, Tally>), Error>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    let order = game.tiers();
    let limit = config.limit();
    // The reachable bitmaps stay in memory through the whole solve.
    let bits_bytes = only_bytes(only);
    let mut spare = Spare::default();
    if only.is_some_and(|o| o.keep == Keep::Start) {
        let largest = order.iter().map(|&t| game.tier_size(t)).max().unwrap_or(0);
        spare.room = usize::try_from(largest.saturating_mul(2)).unwrap_or(usize::MAX);
    }
    // Every tier's group still to solve must fit before anything is
    // solved: the tier at `per_index` bytes an index (and a loopy tier's
    // posts), and in the cells it starts in every solved tier that is
    // held meanwhile because it or a later tier reads it ([`held_before`]).
    // The events the child tiers seed and a stored graph's edges are
    // counted as they are found (below).
    let mut kids = Vec::new();
    let mut needed_by: FxHashMap<Tier, usize> = FxHashMap::default();
    let mut depth = Depths::default();
    for (k, &t) in order.iter().enumerate() {
        kids.clear();
        game.child_tiers(t, &mut kids);
        for &c in &kids {
            needed_by.insert(c, k);
        }
        depth.add(t, game.tier_size(t), game.leaves_tier(t), &kids);
    }
    // Nothing to read a dropped table back from, and the caller wants
    // every tier's values (but with `Keep::Start`): every table is held
    // to the end.
    let hold_all = !store.keeps_tables() && !only.is_some_and(|o| o.keep == Keep::Start);
    // The bytes of a tier's cells as its solve starts them (a tier
    // widened later is checked again as it is solved).
    let cell = |t: Tier| match config.cell_floor() {
        1 if depth.fits::<u8>(t) => 1,
        4 => 4,
        _ => 2,
    };
    let held_before = held_before(game, &order, &needed_by, hold_all, &cell);
    // The refusal names the group that needs the most, not the first over
    // the limit: a limit raised to what it says then fits every group
    // (naming the first, Connect Four 5×5 was refused at 30M, 36M and
    // 70M in turn).
    // A tier the store holds finished is not solved again, so its group
    // is never formed: only those still to solve must fit (a resumed
    // solve was refused for a finished tier's group).
    let most = order
        .iter()
        .enumerate()
        .filter(|&(_, &t)| !store.is_done(t))
        .map(|(k, &t)| {
            let bytes = group_bytes_of(
                cell(t),
                game.tier_size(t),
                game.leaves_tier(t),
                stored,
                held_before[k],
                bits_bytes,
                config,
            );
            (bytes, std::cmp::Reverse(k), t)
        })
        .max();
    if let Some((bytes, _, t)) = most {
        if bytes > limit {
            let (with, hint) = if hold_all {
                (
                    "every tier solved before it",
                    "raise the memory limit or give the solve a store",
                )
            } else {
                (
                    "its child tiers",
                    "raise the memory limit or split the tiers",
                )
            };
            return Err(crate::error::too_large(
                format!("tier {} with {with}", game.tier_name(t)),
                bytes,
                limit,
                hint,
            ));
        }
    }
    let mut tables: FxHashMap<Tier, Table> = FxHashMap::default();
    let mut counts: FxHashMap<Tier, Tally> = FxHashMap::default();
    let mut held = 0u64;
    // With `Keep::Start`, the start's tier: its table is never dropped.
    let keep_start = only.filter(|o| o.keep == Keep::Start).map(|o| o.start);
    for (k, &t) in order.iter().enumerate() {
        if store.is_done(t) {
            continue;
        }
        kids.clear();
        game.child_tiers(t, &mut kids);
        for &c in &kids {
            if tables.contains_key(&c) {
                continue;
            }
            let table = store.load(c, game.tier_size(c))?.ok_or_else(|| {
                Error::Store(format!(
                    "tier {} is needed to solve tier {} but neither solved nor stored",
                    game.tier_name(c),
                    game.tier_name(t)
                ))
            })?;
            // A table of another length would be read at the wrong
            // indices, or past its end.
            if table.len() as u64 != game.tier_size(c) {
                return Err(Error::Store(format!(
                    "the store gave tier {} a table of {} cells, but the tier has {} indices",
                    game.tier_name(c),
                    table.len(),
                    game.tier_size(c)
                )));
            }
            held += table.bytes();
            tables.insert(c, table);
        }
        // Tables no tier from this one on reads, kept while they fit, go
        // now if this tier would not fit beside them (the tier's own check
        // counts every table held).
        let alone = group_bytes_of(
            cell(t),
            game.tier_size(t),
            game.leaves_tier(t),
            stored,
            0,
            bits_bytes,
            config,
        );
        if !hold_all && held.saturating_add(alone) > limit {
            drop_unread(&mut tables, &mut held, &needed_by, k, keep_start);
        }
        // The tier may still not fit beside them (its seeds, or 4-byte
        // cells, which the estimate above leaves out): it is solved again
        // without them before it is refused.
        let byte = config.cell_floor() == 1 && depth.fits::<u8>(t);
        let (table, tier_counts) = match config.install(|| {
            solve_tier(
                game, t, &tables, config, stored, make, only, &mut spare, byte,
            )
        }) {
            Err(Error::TooLarge(_))
                if !hold_all && drop_unread(&mut tables, &mut held, &needed_by, k, keep_start) =>
            {
                config.install(|| {
                    solve_tier(
                        game, t, &tables, config, stored, make, only, &mut spare, byte,
                    )
                })?
            }
            r => r?,
        };
        counts.insert(t, tier_counts);
        store.save(t, &table)?;
        config.report(crate::config::Progress::Tier {
            done: k as u64 + 1,
            total: order.len() as u64,
            positions: table.len() as u64,
        });
        held += table.bytes();
        tables.insert(t, table);
        // Tables no tier still to solve needs: with `Keep::Start` all of
        // them but the start's, their maps serving the next tiers;
        // otherwise only while over the limit.
        if !hold_all && (keep_start.is_some() || held > limit / 2) {
            let done: Vec<Tier> = tables
                .keys()
                .copied()
                .filter(|&c| Some(c) != keep_start && unread_from(&needed_by, c, k + 1))
                .collect();
            for c in done {
                if keep_start.is_none() && held <= limit / 2 {
                    break;
                }
                if let Some(table) = tables.remove(&c) {
                    let bytes = table.bytes();
                    held -= bytes;
                    if keep_start.is_some() {
                        spare.put(table.into_map(), bytes, limit.saturating_sub(held) / 2);
                    }
                }
            }
        }
    }
    Ok((
        TieredSolution {
            game,
            tables: TierTables::new(order, tables),
        },
        counts,
    ))
}

/// Solves one tier with 1-byte cells when `byte` (its remoteness is
/// known to fit one: [`Depths`]), else or where those are too narrow (a
/// count of children) with 2-byte cells, or 4 where 2 are too narrow.
/// With `only`, also the weighed outcomes of the tier's reachable
/// positions; the cells go in a `spare` map where one fits.
#[allow(clippy::too_many_arguments)]
fn solve_tier<G>(
    game: &G,
    tier: Tier,
    solved: &FxHashMap<Tier, Table>,
    config: &Config,
    stored: bool,
    make: &MakeInside<'_, G>,
    only: Option<&Only<'_, G::Position>>,
    spare: &mut Spare,
    byte: bool,
) -> Result<(Table, Tally), Error>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    if byte {
        match solve_tier_in::<G, u8>(game, tier, solved, config, stored, make, only, spare) {
            Ok((cells, tally)) => return Ok((Table::byte(cells), tally)),
            Err(Error::TooDeep { .. } | Error::TooManyChildren { .. }) => {}
            Err(e) => return Err(e),
        }
    }
    if config.cell_floor() > 2 {
        let (cells, tally) =
            solve_tier_in::<G, u32>(game, tier, solved, config, stored, make, only, spare)?;
        return Ok((Table::wide(cells), tally));
    }
    match solve_tier_in::<G, u16>(game, tier, solved, config, stored, make, only, spare) {
        Ok((cells, tally)) => Ok((Table::narrow(cells), tally)),
        Err(Error::TooDeep { .. } | Error::TooManyChildren { .. }) => {
            let (cells, tally) =
                solve_tier_in::<G, u32>(game, tier, solved, config, stored, make, only, spare)?;
            Ok((Table::wide(cells), tally))
        }
        Err(e) => Err(e),
    }
}

/// What the solver knows of every tier's remoteness before solving it,
/// from the tiers' shapes alone: an upper bound, `None` when there is none
/// (a child tier it does not know).
///
/// A position's remoteness is one more than a child's (or 0 at the end),
/// so following such children from a position of tier `t` passes only
/// positions of ever smaller remoteness — inside `t` each at most once,
/// so at most `tier_size(t) − 1` moves there (none in a tier every move
/// leaves), then at most one move into a child tier, whose bound follows.
/// A tier of Connect Four with `p` pieces thus gets `W·H − p`, exact.
/// What chooses 1-byte cells for a tier, in this crate's tier presets and
/// in solver-cluster's shards.
///
/// ```
/// use solver_retro::Depths;
/// let mut d = Depths::default();
/// d.add(2, 10, true, &[]); // every move leaves, no child tier: all ends
/// d.add(1, 10, true, &[2]);
/// d.add(0, 50, false, &[1]); // 49 moves inside, then one into tier 1
/// assert_eq!((d.bound(2), d.bound(1), d.bound(0)), (Some(0), Some(1), Some(51)));
/// assert!(d.fits::<u8>(0));
/// d.add(5, 3, true, &[9]); // a child tier not added: no bound
/// assert_eq!(d.bound(5), None);
/// assert!(!d.fits::<u32>(5));
/// ```
#[derive(Debug, Default, Clone)]
pub struct Depths(FxHashMap<Tier, Option<u64>>);

impl Depths {
    /// Adds tier `tier` of `size` indices, every move leaving it if
    /// `leaves`, whose child tiers `kids` were added before it (a child
    /// not added leaves the tier unbounded).
    pub fn add(&mut self, tier: Tier, size: u64, leaves: bool, kids: &[Tier]) {
        let inside = if leaves { 0 } else { size.saturating_sub(1) };
        let mut outside = Some(0);
        for c in kids {
            outside = match (outside, self.0.get(c).copied().flatten()) {
                (Some(a), Some(b)) => Some(a.max(b.saturating_add(1))),
                _ => None,
            };
        }
        let bound = outside.map(|o| o.saturating_add(inside));
        self.0.insert(tier, bound);
    }

    /// The bound on `tier`'s remoteness, if one is known.
    #[must_use]
    pub fn bound(&self, tier: Tier) -> Option<u64> {
        self.0.get(&tier).copied().flatten()
    }

    /// Whether every remoteness of `tier` is known to fit cells of `C`.
    #[must_use]
    pub fn fits<C: Cell>(&self, tier: Tier) -> bool {
        self.bound(tier).is_some_and(|b| b <= C::MAX_REMOTENESS)
    }
}

/// The bytes a block's seeds, events and edges take.
fn found_bytes(f: &Found) -> u64 {
    (f.seeds.decisive.capacity() * 8
        + f.seeds.ties.capacity() * 8
        + f.seeds.events.capacity() * 8
        + f.edges.capacity() * 16) as u64
}

/// The bytes of a tier's group while the tier is solved in cells of `C`:
/// the tier at [`per_index`] bytes an index (its cells `C::BYTES` instead
/// of 2), a loopy tier's round of posts, the `children` tables' bytes and
/// the reachable bitmaps' `bits` bytes. The events the child tiers seed
/// and a stored graph's edges are counted as they are found.
fn group_bytes<C: Cell>(
    size: u64,
    leaves: bool,
    stored: bool,
    children: u64,
    bits: u64,
    config: &Config,
) -> u64 {
    let posts = if leaves {
        0
    } else {
        // A loopy tier runs the level engine.
        posts_bytes::<C>(size, config)
    };
    size.saturating_mul(per_index(leaves, stored) - 2)
        .saturating_add(size.saturating_mul(C::BYTES))
        .saturating_add(posts)
        .saturating_add(children)
        .saturating_add(bits)
}

/// [`group_bytes`] in cells of `cell` bytes (1, 2 or 4).
fn group_bytes_of(
    cell: u64,
    size: u64,
    leaves: bool,
    stored: bool,
    children: u64,
    bits: u64,
    config: &Config,
) -> u64 {
    let f: fn(u64, bool, bool, u64, u64, &Config) -> u64 = match cell {
        1 => group_bytes::<u8>,
        2 => group_bytes::<u16>,
        _ => group_bytes::<u32>,
    };
    f(size, leaves, stored, children, bits, config)
}

/// Drops the tables no tier from position `k` of the order on reads
/// (`needed_by`: the last position that reads a tier), but `keep`'s,
/// taking their bytes off `held`: `true` if any was dropped.
fn drop_unread(
    tables: &mut FxHashMap<Tier, Table>,
    held: &mut u64,
    needed_by: &FxHashMap<Tier, usize>,
    k: usize,
    keep: Option<Tier>,
) -> bool {
    let before = tables.len();
    tables.retain(|&c, table| {
        if !unread_from(needed_by, c, k) || Some(c) == keep {
            return true;
        }
        *held -= table.bytes();
        false
    });
    tables.len() < before
}

/// Whether no tier from position `k` of the order on reads tier `c`
/// (`needed_by`: the last position that reads a tier).
fn unread_from(needed_by: &FxHashMap<Tier, usize>, c: Tier, k: usize) -> bool {
    needed_by.get(&c).is_none_or(|&last| last < k)
}

/// For each position `k` of `order`, the bytes of the solved tiers held
/// while tier `order[k]` is solved, at `cell(t)` bytes an index of tier
/// `t`: every tier solved before it that it or a later tier reads
/// (`needed_by`: the last position that reads a tier), or with `all`
/// every tier solved before it.
fn held_before<G: Tiered + ?Sized>(
    game: &G,
    order: &[Tier],
    needed_by: &FxHashMap<Tier, usize>,
    all: bool,
    cell: &dyn Fn(Tier) -> u64,
) -> Vec<u64> {
    let mut at: FxHashMap<Tier, usize> = FxHashMap::default();
    for (k, &t) in order.iter().enumerate() {
        at.entry(t).or_insert(k);
    }
    // A table joins the held ones after its tier is solved and leaves
    // after its last reader (in 128 bits: a game's sizes may add past
    // 2⁶⁴).
    let mut joins = vec![0u128; order.len() + 1];
    let mut parts = vec![0u128; order.len() + 1];
    if all {
        // Held from its solve to the end (a tier listed twice, once).
        for (c, &k) in &at {
            joins[k + 1] += u128::from(game.tier_size(*c)) * u128::from(cell(*c));
        }
    } else {
        for (c, &last) in needed_by {
            if let Some(&k) = at.get(c).filter(|&&k| k < last) {
                let bytes = u128::from(game.tier_size(*c)) * u128::from(cell(*c));
                joins[k + 1] += bytes;
                parts[last + 1] += bytes;
            }
        }
    }
    let mut held = 0u128;
    (0..order.len())
        .map(|k| {
            held = held + joins[k] - parts[k];
            u64::try_from(held).unwrap_or(u64::MAX)
        })
        .collect()
}

/// The bytes of the reachable bitmaps a reachable-first solve holds
/// throughout (none without them).
fn only_bytes<P>(only: Option<&Only<'_, P>>) -> u64 {
    only.map_or(0, |o| o.bits.values().map(|b| b.len() as u64 * 8).sum())
}

/// Bytes an index of a tier takes while it is solved, besides its child
/// tiers: 2 for the cell; a loopy tier adds the engine's two level lists
/// (each at most an eighth of the cells in 8-byte ids before the engine
/// scans the cells instead) and, with a stored inside graph, its offsets
/// (8 bytes an index; the edges are counted as they are found).
fn per_index(leaves: bool, stored: bool) -> u64 {
    match (leaves, stored) {
        (true, _) => 2,
        (false, false) => 2 + 2,
        (false, true) => 2 + 2 + 8,
    }
}

/// What one block of a tier's seeding found.
#[derive(Default)]
struct Found {
    seeds: Seeds,
    edges: Vec<(u64, u64)>,
    /// The reachable positions solved (with [`Only`]).
    tally: Tally,
    /// Positions left open (for the progress reports).
    open: u64,
}

const BLOCK: u64 = 1 << 14;

#[allow(clippy::too_many_arguments)]
fn solve_tier_in<G, C: Cell>(
    game: &G,
    tier: Tier,
    solved: &FxHashMap<Tier, Table>,
    config: &Config,
    stored: bool,
    make: &MakeInside<'_, G>,
    only: Option<&Only<'_, G::Position>>,
    spare: &mut Spare,
) -> Result<(Cells<C>, Tally), Error>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    let size = game.tier_size(tier);
    let n = usize::try_from(size).map_err(|_| {
        crate::error::too_large(
            "a tier larger than the address space",
            u64::MAX,
            config.limit(),
            "",
        )
    })?;
    // Zero bits (or a spent table's cells) for now: each block below fills
    // its own cells with "no position" just before seeding them, so the
    // pages are first touched (and cleared by the kernel) on every thread
    // at once, not all on this one (a sixth of Connect Four 5x5's time was
    // that serial fill).
    let leaves = game.leaves_tier(tier);
    if only.is_some() && !leaves {
        return Err(Error::Broken(format!(
            "tier {} is loopy: only tiers that every move leaves are solved reachable-first",
            game.tier_name(tier)
        )));
    }
    // The reachable bits of this tier (none reached: an empty map).
    let reach: Option<(&[u64], Weight<'_, G::Position>)> =
        only.map(|o| (o.bits.get(&tier).map_or(&[][..], Vec::as_slice), o.weight));
    let mut declared = Vec::new();
    game.child_tiers(tier, &mut declared);
    // The child tiers' tables, found once (a declared tier not solved yet
    // is left out: a move into it is reported as a broken promise).
    let children: Vec<(Tier, &Table)> = declared
        .iter()
        .filter_map(|&t| Some((t, solved.get(&t)?)))
        .collect();
    let table_bytes = size.saturating_mul(C::BYTES);
    // Every table held, the child tiers' and any other's: all are in
    // memory while this tier is solved.
    let children_bytes: u64 = solved.values().map(Table::bytes).sum();
    // The group as it will be held: the check before the solve counted
    // 2-byte cells, and a tier retried in 4-byte ones (or a child tier
    // solved in them) takes more. Refused before the cells are taken.
    let group = group_bytes::<C>(
        size,
        leaves,
        stored,
        children_bytes,
        only_bytes(only),
        config,
    );
    if group > config.limit() {
        return Err(crate::error::too_large(
            format!(
                "tier {} with the tables held beside it, in {}-byte cells",
                game.tier_name(tier),
                C::BYTES
            ),
            group,
            config.limit(),
            "raise the memory limit or split the tiers",
        ));
    }
    let mut cells: Cells<C> = spare.cells(n, config.limit())?;
    // What the seeds may grow to: the limit less the tables, and for a
    // loopy tier less what the engine and the stored graph's offsets will
    // take besides the cells.
    let taken = size
        .saturating_mul(per_index(leaves, stored) - 2)
        .saturating_add(table_bytes)
        .saturating_add(children_bytes);
    let room = config.limit().saturating_sub(taken);
    let held = AtomicU64::new(0);
    // Indices seeded so far, reported a block at a time.
    let seeded = AtomicU64::new(0);
    let block_seeded = |len: u64| {
        config.report(crate::config::Progress::Seeded {
            seeded: seeded.fetch_add(len, Ordering::Relaxed) + len,
            positions: size,
            levels: !leaves,
        });
    };
    let found: Vec<Result<Found, Error>> = cells
        .par_chunks_mut(BLOCK as usize)
        .enumerate()
        .map(|(b, chunk)| {
            let first = b as u64 * BLOCK;
            chunk.fill(C::INVALID);
            let mut found = Found::default();
            // With `only`, this block's reachable bits (BLOCK is a multiple
            // of 64); a block with none stays unsolved.
            let words = reach.map(|(bits, _)| {
                let w = (first / 64) as usize;
                bits.get(w..(w + chunk.len().div_ceil(64)).min(bits.len()))
                    .unwrap_or(&[])
            });
            if words.is_some_and(|w| w.iter().all(|&x| x == 0)) {
                block_seeded(chunk.len() as u64);
                return Ok(found);
            }
            let mut scratch = TierScratch::default();
            let seeding = TierSeeding {
                game,
                tier,
                leaves,
                settle_early: true,
                list_when_leaving: true,
            };
            let mut fault: Option<Error> = None;
            let mut placement = Placement::default();
            game.visit_tier(tier, first..first + chunk.len() as u64, &mut |i, pos| {
                if fault.is_some() {
                    return;
                }
                let Some(j) = crate::cell::offset_in(i, first, chunk.len()) else {
                    fault = Some(visited_outside(
                        game,
                        tier,
                        i,
                        first..first + chunk.len() as u64,
                    ));
                    return;
                };
                if let Some(w) = words {
                    if w.get(j / 64).is_none_or(|x| x >> (j % 64) & 1 == 0) {
                        return;
                    }
                }
                // The position is where the game itself puts it (on a
                // sample: see [`Placement`]).
                if let Err(e) = placement.check(game, tier, i, &pos) {
                    fault = Some(e);
                    return;
                }
                let cell = &mut chunk[j];
                let r = seeding.seed(
                    i,
                    &pos,
                    cell,
                    |t, k| {
                        children
                            .iter()
                            .find(|c| c.0 == t)
                            .map(|&(_, table)| table.value(k))
                    },
                    &mut found.seeds,
                    stored.then_some(&mut found.edges),
                    &mut scratch,
                );
                let r = match (r, reach) {
                    (Ok(()), Some((_, weight))) => {
                        // A tier every move leaves is final once seeded.
                        let o = cell.value().map_or(Outcome::Draw, |v| v.outcome());
                        found.tally.positions += 1;
                        if found.tally.counts.checked_add_many(o, weight(&pos)) {
                            Ok(())
                        } else {
                            Err(count_overflow())
                        }
                    }
                    (r, _) => r,
                };
                match r {
                    Err(e) => fault = Some(e),
                    Ok(()) => found.open += u64::from(cell.is_open()),
                }
            });
            if fault.is_none() {
                // Guard the memory the seeds take as they grow: a tier
                // whose outside children make too many events is refused,
                // never left to exhaust the machine.
                let bytes = found_bytes(&found);
                let now = held.fetch_add(bytes, Ordering::Relaxed) + bytes;
                if now.saturating_mul(2) > room {
                    fault = Some(crate::error::too_large(
                        "the seeds and events of a tier (levels, outside children)",
                        now.saturating_mul(2).saturating_add(taken),
                        config.limit(),
                        "raise the memory limit, or give the game finer tiers",
                    ));
                }
            }
            block_seeded(chunk.len() as u64);
            match fault {
                Some(e) => Err(e),
                None => Ok(found),
            }
        })
        .collect();
    let mut parts = Vec::with_capacity(found.len());
    for f in found {
        parts.push(f?);
    }
    // Exact capacities: the parts are moved in and freed one by one.
    let mut seeds = Seeds {
        decisive: Vec::with_capacity(parts.iter().map(|f| f.seeds.decisive.len()).sum()),
        ties: Vec::with_capacity(parts.iter().map(|f| f.seeds.ties.len()).sum()),
        events: Vec::with_capacity(parts.iter().map(|f| f.seeds.events.len()).sum()),
        settled_at_one: parts.iter().map(|f| f.seeds.settled_at_one).sum(),
        open: Some(parts.iter().map(|f| f.open).sum()),
        ..Seeds::default()
    };
    let mut edges = Vec::with_capacity(parts.iter().map(|f| f.edges.len()).sum());
    let mut tally = Tally::default();
    for f in parts {
        tally.counts = checked_counts(tally.counts, f.tally.counts)?;
        tally.positions += f.tally.positions;
        seeds.decisive.extend(f.seeds.decisive);
        seeds.ties.extend(f.seeds.ties);
        seeds.events.extend(f.seeds.events);
        edges.extend(f.edges);
    }
    if leaves {
        return Ok((cells, tally));
    }
    // Every position of the tier is seeded now: a child inside it whose
    // cell is still invalid is no position, and its parents would wait for
    // it for ever (drawn, silently). The stored edges show it for free;
    // the unmoves path keeps none, and `GameCheck::tiered` checks that
    // every child decodes.
    if let Some(&(c, p)) = edges
        .iter()
        .find(|&&(c, _)| cells[c as usize] == C::INVALID)
    {
        return Err(Error::Broken(format!(
            "a move from index {p} of tier {} leads to its index {c}, which is no position",
            game.tier_name(tier)
        )));
    }
    let inside = make(game, tier, edges)?;
    propagate(&mut cells, seeds, &inside, false, config)?;
    Ok((cells, tally))
}

/// Only the positions reachable from a start, weighed for counting: a
/// solve given this leaves every other index unsolved (no position) and
/// counts the outcomes of the reachable ones as it finds them. For games
/// whose every tier is left by every move (a position's children are then
/// all in solved child tiers, and reachable when it is).
pub(crate) struct Only<'a, P> {
    /// A bit an index of every tier: reached from the start.
    pub(crate) bits: &'a TierBits,
    /// What each position counts for.
    pub(crate) weight: Weight<'a, P>,
    /// Which tables to hold at the end.
    pub(crate) keep: Keep,
    /// The start's tier, kept with [`Keep::Start`].
    pub(crate) start: Tier,
}

/// What a position counts for ([`solve_tiers_reachable`](crate::solve_tiers_reachable)).
pub(crate) type Weight<'a, P> = &'a (dyn Fn(&P) -> u64 + Sync);

/// Which tables [`solve_tiers_reachable`](crate::solve_tiers_reachable) holds when it returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Every tier's (a certificate, or value queries, can follow): no
    /// table is dropped, and a game whose tables cannot all be held
    /// beside the tier being solved (and the bitmaps) is refused before
    /// any tier is solved.
    All,
    /// Only the start's tier: every other table is dropped as soon as no
    /// tier still to solve needs it, and its memory is reused for the
    /// next tiers (no fresh pages for the kernel to clear) — the counts
    /// and the start's value at the least memory.
    Start,
}

/// Tables no longer needed, kept as memory maps to solve later tiers in
/// (at most [`Spare::MAX`], the largest), and the bytes a new table's map
/// reserves (`room`: the largest tier's, with [`Keep::Start`]) so that it
/// can serve any later tier — a map's pages are faulted in only as they
/// are written.
#[derive(Default)]
pub(crate) struct Spare {
    maps: Vec<memmap2::MmapMut>,
    /// The bytes a new map reserves.
    pub(crate) room: usize,
}

impl Spare {
    const MAX: usize = 2;

    /// Keeps `map` (the two largest maps kept) unless the pages it held,
    /// `written` bytes, pass `limit`: those stay resident while it waits.
    pub(crate) fn put(&mut self, map: memmap2::MmapMut, written: u64, limit: u64) {
        if written > limit {
            return;
        }
        self.maps.push(map);
        self.maps.sort_by_key(|m| std::cmp::Reverse(m.len()));
        self.maps.truncate(Self::MAX);
    }

    /// `len` cells for a tier (zero bits, or an old table's, until the
    /// caller writes every one): in the smallest spare map they fit, else
    /// in a fresh map of `room` bytes when that is more, else in a map of
    /// their own.
    pub(crate) fn cells<C: Cell>(&mut self, len: usize, limit: u64) -> Result<Cells<C>, Error> {
        let bytes = len.saturating_mul(C::BYTES as usize);
        if let Some(k) = self.maps.iter().rposition(|m| m.len() >= bytes) {
            if let Some(cells) = Cells::reuse(self.maps.remove(k), len) {
                return Ok(cells);
            }
        }
        if self.room > bytes {
            Cells::with_room(len, self.room)
        } else {
            Cells::new(len, None, limit)
        }
    }
}

/// The reachable positions a tier's solve found: their weighed outcomes,
/// and how many there are (unweighed).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Tally {
    /// The weighed outcomes.
    pub(crate) counts: Counts,
    /// The positions (unweighed).
    pub(crate) positions: u64,
}

#[cfg(test)]
mod tests;
