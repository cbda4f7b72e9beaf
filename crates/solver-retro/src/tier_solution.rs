//! Solved tiers: their tables without the game ([`TierTables`]), and a
//! game with them ([`HoldsTiers`], which makes any such holder
//! [`Solved`]: [`TieredSolution`] here, the cluster's solution elsewhere).

use game_core::{Game, Tier, Tiered, Value};
use rustc_hash::FxHashMap;

use crate::cell::Table;
use crate::Solved;

/// The tables of a tiered game's solved tiers, without the game: one
/// [`Table`] a tier held, and the tiers in the order solved (children
/// first). A tier solved but no longer held (dropped under the memory
/// limit, or kept only by a store) has no table.
///
/// ```
/// use solver_retro::{Table, TierTables};
/// use game_core::Value;
///
/// // Tier 0 of three indices, one of them a position, held; tier 1 not.
/// let mut table = Table::new(3, false)?;
/// table.set(2, Some(Value::DRAW))?;
/// let mut held = TierTables::new(vec![1, 0], [(0, table)]);
/// assert_eq!(held.tiers(), &[1, 0]);
/// assert_eq!((held.held(), held.positions()), (1, 1));
/// assert_eq!(held.value_at(0, 2), Some(Value::DRAW));
/// assert_eq!(held.value_at(0, 1), None);
/// assert!(held.table(1).is_none());
/// assert!(held.take_table(0).is_some());
/// # Ok::<(), solver_retro::Error>(())
/// ```
#[derive(Default)]
pub struct TierTables {
    pub(crate) tables: FxHashMap<Tier, Table>,
    pub(crate) order: Vec<Tier>,
}

impl std::fmt::Debug for TierTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TierTables")
            .field("tiers", &self.order.len())
            .field("held", &self.tables.len())
            .finish_non_exhaustive()
    }
}

impl TierTables {
    /// The tiers of `order` (children first), with the `tables` held.
    ///
    /// The order is what every visit of the held positions follows
    /// ([`Solved::for_each`], the certificates), so it is made to name
    /// each held table once: a tier listed again is dropped from its later
    /// places, and a tier held but not listed is added at the end (in
    /// increasing order). Without that, a table held for a tier left out
    /// of the order answered [`Solved::value`] without ever being checked.
    pub fn new(order: Vec<Tier>, tables: impl IntoIterator<Item = (Tier, Table)>) -> Self {
        let tables: FxHashMap<Tier, Table> = tables.into_iter().collect();
        let mut listed = rustc_hash::FxHashSet::default();
        let mut order: Vec<Tier> = order.into_iter().filter(|&t| listed.insert(t)).collect();
        let mut left_out: Vec<Tier> = tables
            .keys()
            .copied()
            .filter(|t| !listed.contains(t))
            .collect();
        left_out.sort_unstable();
        order.extend(left_out);
        TierTables { tables, order }
    }

    /// The table of `tier`, if held.
    #[must_use]
    pub fn table(&self, tier: Tier) -> Option<&Table> {
        self.tables.get(&tier)
    }

    /// Takes the table of `tier` out.
    pub fn take_table(&mut self, tier: Tier) -> Option<Table> {
        self.tables.remove(&tier)
    }

    /// The tiers in the order solved (children first).
    #[must_use]
    pub fn tiers(&self) -> &[Tier] {
        &self.order
    }

    /// The value at index `index` of `tier`: `None` when the tier is not
    /// held or the index is no position.
    #[must_use]
    pub fn value_at(&self, tier: Tier, index: u64) -> Option<Value> {
        self.tables.get(&tier)?.value(index)
    }

    /// How many tiers' tables are held.
    #[must_use]
    pub fn held(&self) -> usize {
        self.tables.len()
    }

    /// The positions of the tables held.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.tables.values().map(Table::positions).sum()
    }
}

/// A tiered game and the tables of its solved tiers: two methods, and
/// [`Solved`] comes with them (values by tier and index; every held
/// position visited tier by tier, in the order solved).
///
/// ```
/// use game_core::{Game, Indexed, OneTier, Value};
/// use solver_retro::{HoldsTiers, Solved, Table, TierTables};
///
/// /// Take one from a pile of up to 2.
/// struct Pile;
/// impl Game for Pile {
///     type Position = u64;
///     type Move = ();
///     fn moves(&self, n: &u64, out: &mut Vec<()>) { if *n > 0 { out.push(()) } }
///     fn play(&self, n: &u64, _: &()) -> u64 { n - 1 }
/// }
/// impl Indexed for Pile {
///     fn size(&self) -> u64 { 3 }
///     fn index(&self, n: &u64) -> u64 { *n }
///     fn position(&self, i: u64) -> Option<u64> { (i < 3).then_some(i) }
/// }
///
/// /// A game with its solved tables, owned (the game is not borrowed).
/// struct Owned<G> { game: G, tiers: TierTables }
/// impl<G: Indexed> HoldsTiers for Owned<OneTier<G>> {
///     type Game = OneTier<G>;
///     fn tiered_game(&self) -> &OneTier<G> { &self.game }
///     fn tier_tables(&self) -> &TierTables { &self.tiers }
/// }
///
/// let mut table = Table::new(3, false)?;
/// for (n, v) in [Value::lose(0), Value::win(1), Value::lose(2)].into_iter().enumerate() {
///     table.set(n as u64, Some(v))?;
/// }
/// let sol = Owned { game: OneTier(Pile), tiers: TierTables::new(vec![0], [(0, table)]) };
/// assert_eq!(sol.value(&2), Some(Value::lose(2)));
/// assert_eq!(sol.len(), 3);
/// assert_eq!(sol.best_move(&1), Some(((), Value::win(1))));
/// # Ok::<(), solver_retro::Error>(())
/// ```
pub trait HoldsTiers {
    /// The game solved.
    type Game: Tiered;

    /// The game solved (named apart from [`Solved::game`], which it
    /// serves).
    fn tiered_game(&self) -> &Self::Game;

    /// The tables of its solved tiers.
    fn tier_tables(&self) -> &TierTables;
}

impl<T: HoldsTiers> Solved for T {
    type Game = T::Game;

    fn game(&self) -> &T::Game {
        self.tiered_game()
    }

    fn value(&self, pos: &<T::Game as Game>::Position) -> Option<Value> {
        let game = self.tiered_game();
        self.tier_tables()
            .value_at(game.tier(pos), game.tier_index(pos))
    }

    fn keyed(&self, pos: &<T::Game as Game>::Position) -> bool {
        let game = self.tiered_game();
        let t = game.tier(pos);
        game.tier_position(t, game.tier_index(pos)).as_ref() == Some(pos)
    }

    fn len(&self) -> u64 {
        self.tier_tables().positions()
    }

    fn for_each(&self, f: impl FnMut(&<T::Game as Game>::Position, Value)) {
        self.for_each_part(0, 1, f);
    }

    fn for_each_part(
        &self,
        part: usize,
        parts: usize,
        mut f: impl FnMut(&<T::Game as Game>::Position, Value),
    ) {
        // The part is one stretch of the held tables' indices laid end to
        // end in the order solved, so that the parts in turn visit the
        // positions in that order (a slice of every tier a part put a
        // later tier's position before an earlier one's, and what came
        // first depended on the number of parts).
        let (game, held) = (self.tiered_game(), self.tier_tables());
        let tables = || {
            held.tiers()
                .iter()
                .filter_map(|&t| Some((t, held.table(t)?)))
        };
        let total = tables().fold(0u64, |n, (_, table)| n.saturating_add(table.len() as u64));
        let mine = crate::solution::share(total, part, parts);
        let mut at = 0u64;
        for (t, table) in tables() {
            let (from, len) = (at, table.len() as u64);
            at = at.saturating_add(len);
            let range = mine.start.max(from) - from..mine.end.min(at).max(from) - from;
            if range.is_empty() {
                continue;
            }
            // Every index with a value once, in order, whatever the game's
            // visit_tier does: an index it passes over is decoded here
            // (else the certificate would never see a value the solution
            // answers), one it gives again or out of order is skipped.
            let mut next = range.start;
            let end = range.end;
            let passed = |from: u64, to: u64, f: &mut dyn FnMut(&_, Value)| {
                for k in from..to {
                    if let Some(v) = table.value(k) {
                        if let Some(p) = game.tier_position(t, k) {
                            f(&p, v);
                        }
                    }
                }
            };
            game.visit_tier(t, range, &mut |i, p| {
                if i < next || i >= end {
                    return;
                }
                passed(next, i, &mut f);
                next = i + 1;
                if let Some(v) = table.value(i) {
                    f(&p, v);
                }
            });
            passed(next, end, &mut f);
        }
    }
}

/// A tiered game solved: one [`Table`] for each tier still held in memory
/// ([`TierTables`], which it derefs to), with the game borrowed.
///
/// Tiers are dropped from memory once no unsolved tier needs them and the
/// memory limit would otherwise be passed; [`Solved::value`] is `None` for
/// positions of a dropped tier (the store has them).
pub struct TieredSolution<'g, G> {
    pub(crate) game: &'g G,
    pub(crate) tables: TierTables,
}

impl<G> std::fmt::Debug for TieredSolution<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TieredSolution")
            .field("tiers", &self.tables.tiers().len())
            .field("held", &self.tables.held())
            .finish_non_exhaustive()
    }
}

impl<G> std::ops::Deref for TieredSolution<'_, G> {
    type Target = TierTables;

    fn deref(&self) -> &TierTables {
        &self.tables
    }
}

impl<G> std::ops::DerefMut for TieredSolution<'_, G> {
    fn deref_mut(&mut self) -> &mut TierTables {
        &mut self.tables
    }
}

impl<G: Tiered> HoldsTiers for TieredSolution<'_, G> {
    type Game = G;

    fn tiered_game(&self) -> &G {
        self.game
    }

    fn tier_tables(&self) -> &TierTables {
        &self.tables
    }
}

/// Tests of the tiered solution.
#[cfg(test)]
mod tests {
    use crate::certify;
    use crate::fixtures::testing::stops_short_forged;
    use crate::Solved;

    /// Every held position is visited by a tiered solution's `for_each`, so
    /// the plain certificate checks it too: before, count 7 of [`STOPS_SHORT`],
    /// which its `visit_tier` leaves out, was never visited, and `certify`
    /// said `Ok` to it given as lost at once (truly won in 7).
    #[test]
    fn a_tiered_solution_visits_what_visit_tier_leaves_out() {
        let sol = stops_short_forged();
        assert_eq!(sol.counts().total(), 8);
        let r = certify(&sol).unwrap_err();
        assert_eq!((r.position, r.flaw), (7, crate::Flaw::Lose));
    }
}
