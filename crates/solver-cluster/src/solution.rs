//! A cluster solve's result on one process.

use game_core::{Tier, Tiered, Value};
use rustc_hash::FxHashMap;
use solver_retro::{Solved, Table};

use crate::Traffic;

/// A game solved by the cluster, as one process holds it: a [`Table`] for
/// every tier solved in this run (every process ends with every tier it
/// solved, gathered from all shards) — tiers a database already held
/// finished are not loaded unless a tier solved needs them.
pub struct ClusterSolution<G> {
    pub(crate) game: G,
    pub(crate) tables: FxHashMap<Tier, Table>,
    pub(crate) order: Vec<Tier>,
    pub(crate) traffic: Traffic,
    pub(crate) workers: usize,
    pub(crate) processes: usize,
}

impl<G> std::fmt::Debug for ClusterSolution<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClusterSolution")
            .field("tiers", &self.order.len())
            .field("held", &self.tables.len())
            .field("workers", &self.workers)
            .field("processes", &self.processes)
            .finish_non_exhaustive()
    }
}

impl<G: Tiered> ClusterSolution<G> {
    /// The table of `tier`, if held.
    #[must_use]
    pub fn table(&self, tier: Tier) -> Option<&Table> {
        self.tables.get(&tier)
    }

    /// Takes the table of `tier` out of the solution.
    pub fn take_table(&mut self, tier: Tier) -> Option<Table> {
        self.tables.remove(&tier)
    }

    /// The tiers in the order solved (children first).
    #[must_use]
    pub fn tiers(&self) -> &[Tier] {
        &self.order
    }

    /// The value at index `index` of `tier`.
    #[must_use]
    pub fn value_at(&self, tier: Tier, index: u64) -> Option<Value> {
        self.tables.get(&tier)?.value(index)
    }

    /// What this process's workers sent (see [`Traffic`]).
    #[must_use]
    pub fn traffic(&self) -> Traffic {
        self.traffic
    }

    /// Workers in the whole cluster.
    #[must_use]
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// Processes in the cluster.
    #[must_use]
    pub fn processes(&self) -> usize {
        self.processes
    }
}

impl<G: Tiered> Solved for ClusterSolution<G> {
    type Game = G;

    fn game(&self) -> &G {
        &self.game
    }

    fn value(&self, pos: &G::Position) -> Option<Value> {
        self.value_at(self.game.tier(pos), self.game.tier_index(pos))
    }

    fn keyed(&self, pos: &G::Position) -> bool {
        let t = self.game.tier(pos);
        self.game
            .tier_position(t, self.game.tier_index(pos))
            .as_ref()
            == Some(pos)
    }

    fn len(&self) -> u64 {
        self.tables.values().map(Table::positions).sum()
    }

    fn for_each(&self, f: impl FnMut(&G::Position, Value)) {
        self.for_each_part(0, 1, f);
    }

    fn for_each_part(&self, part: usize, parts: usize, mut f: impl FnMut(&G::Position, Value)) {
        for &t in &self.order {
            let Some(table) = self.tables.get(&t) else {
                continue;
            };
            let n = table.len() as u64;
            let parts = parts.max(1) as u64;
            let range = n * part as u64 / parts..n * (part as u64 + 1) / parts;
            self.game.visit_tier(t, range, &mut |i, p| {
                if let Some(v) = table.value(i) {
                    f(&p, v);
                }
            });
        }
    }
}
