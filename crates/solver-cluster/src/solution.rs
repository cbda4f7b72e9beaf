//! A cluster solve's result on one process.

use game_core::Tiered;
use solver_retro::{HoldsTiers, TierTables};

use crate::Traffic;

/// A game solved by the cluster, as one process holds it: a table for
/// every tier solved in this run (every process ends with every tier it
/// solved, gathered from all shards) — tiers a database already held
/// finished are not loaded unless a tier solved needs them. It derefs to
/// its [`TierTables`] (`table`, `take_table`, `tiers`, `value_at`) and is
/// [`Solved`](solver_retro::Solved) through [`HoldsTiers`].
pub struct ClusterSolution<G> {
    pub(crate) game: G,
    pub(crate) tables: TierTables,
    pub(crate) traffic: Traffic,
    pub(crate) workers: usize,
    pub(crate) processes: usize,
}

impl<G> std::fmt::Debug for ClusterSolution<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClusterSolution")
            .field("tiers", &self.tables.tiers().len())
            .field("held", &self.tables.held())
            .field("workers", &self.workers)
            .field("processes", &self.processes)
            .finish_non_exhaustive()
    }
}

impl<G> std::ops::Deref for ClusterSolution<G> {
    type Target = TierTables;

    fn deref(&self) -> &TierTables {
        &self.tables
    }
}

impl<G> std::ops::DerefMut for ClusterSolution<G> {
    fn deref_mut(&mut self) -> &mut TierTables {
        &mut self.tables
    }
}

impl<G> ClusterSolution<G> {
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

impl<G: Tiered> HoldsTiers for ClusterSolution<G> {
    type Game = G;

    fn tiered_game(&self) -> &G {
        &self.game
    }

    fn tier_tables(&self) -> &TierTables {
        &self.tables
    }
}
