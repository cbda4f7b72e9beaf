//! Retrograde analysis for games whose positions can repeat: every
//! position's value — win, lose, tie, or draw (play goes on forever) — with
//! remoteness, a perfect strategy, an independent certificate checker, and
//! Graphviz export.
//!
//! ```
//! // Everything comes from solver-retro alone: it re-exports the game traits.
//! use solver_retro::{certify, Game, Solved, Value};
//!
//! /// A token on a cycle of 5 squares; a move steps it 1 or 2 squares on.
//! /// Square 0 is a trap: whoever must move from it has lost.
//! struct Ring;
//! impl Game for Ring {
//!     type Position = u8;
//!     type Move = u8;
//!     fn moves(&self, s: &u8, out: &mut Vec<u8>) {
//!         if *s != 0 { out.extend([1, 2]) }
//!     }
//!     fn play(&self, s: &u8, step: &u8) -> u8 { (s + step) % 5 }
//! }
//!
//! let sol = solver_retro::solve(&Ring, 1)?;
//! assert_eq!(sol.value(&0), Some(Value::lose(0)));
//! assert_eq!(sol.value(&4), Some(Value::win(1)));   // step 1 onto the trap
//! assert_eq!(sol.value(&3), Some(Value::win(1)));   // step 2 onto the trap
//! assert_eq!(sol.value(&2), Some(Value::lose(2)));  // both steps give a win away
//! assert_eq!(sol.best_move(&1), Some((1, Value::win(3))));
//! let cert = certify(&sol).expect("the solution is consistent");
//! // 5 positions; the trap has no child, each other square 2 distinct ones.
//! assert_eq!((cert.positions, cert.children), (5, 8));
//! # Ok::<(), solver_retro::Error>(())
//! ```
//!
//! # One engine, several presets
//!
//! Every solve runs the same level engine; the free functions are presets
//! that choose where parents come from and how ids are laid out. For
//! tiered games one builder, [`TierSolver`], chooses by itself from what
//! the caller gives (a store, a start, the tables wanted, the game's
//! unmoves): the tier presets below are presets over it. A game of one
//! loopy tier indexed as a whole, given with its indexed unmoves
//! ([`TierUnmoves::indexed`]), is solved by [`solve_unmoves_with`] inside
//! it, and walked by [`reachable`] ([`TierSolve::reach_by_index`]).
//!
//! | preset | needs | memory | notes |
//! |---|---|---|---|
//! | [`solve`] / [`solve_with`] | [`Game`] | 8 B a move + the positions in a hash map | positions reachable from a start; `u32` ids |
//! | [`solve_indexed`] / [`solve_indexed_with`] | [`Indexed`] | 4 B a move + 20 B an index at the peak ([`INDEXED_BYTES`]) | every index; reverse graph stored |
//! | [`solve_unmoves`] / [`solve_unmoves_with`] | [`IndexedUnmoves`] | 2 B an index (4 if needed) | no graph stored; `u64` ids, past 2³² positions; 1 B an index for a game of at most 79 |
//! | [`solve_tiers`] / [`solve_tiers_with`] | [`Tiered`] | a tier and the solved tiers held (its child tiers and those later tiers read), 2 B an index (1 B where [`Depths`] bounds the remoteness by 78: Connect Four); 16 B an inside move of a loopy tier | tiers children first; loop-free tiers in one pass |
//! | [`solve_tiers_unmoves`] | [`Tiered`] + [`Unmoves`] | a tier and the solved tiers held, 2 B an index | no graph stored |
//! | [`solve_tiers_reachable`] | [`Tiered`], a start | a bit an index + a tier and its child tiers ([`Keep::Start`]) | the positions reachable from the start, counted; loop-free tiers reachable-first |
//!
//! A [`Config`] sets the threads (by default those of the current rayon
//! pool: every core), the memory limit (by default the memory available;
//! a game that does not fit is refused with [`Error::TooLarge`] before the
//! memory is taken, a tiered game by naming the first tier group that
//! cannot fit) and a progress callback. Symmetric games are solved through
//! [`Canonical`], which stores one position of each class.
//!
//! Solutions own their cells ([`Table`]): a table can be shared across
//! threads, handed to a [`TierStore`] (a database, which also lets a
//! crashed tiered solve resume) and read back through the game
//! ([`IndexedSolution::from_table`]). A
//! tiered solution is the game and its [`TierTables`]; any type holding
//! both is [`Solved`] through [`HoldsTiers`] (solver-cluster's solution
//! is). An executor of its own (solver-cluster is one) runs the engine's
//! own level step, [`step`]: the seeds, the phase, the parents source
//! ([`step::Parents`]: [`UnmovesParents`], [`TierUnmovesParents`]) and the
//! update rule over [`Cell`] ([`step::update`], [`step::dec_run`]), after
//! seeding with the engine's own routines: [`TierSeeding`] for a tier's
//! positions, [`UnmovesSeeding`] for a dense index with unmoves.
//!
//! With the feature `fixtures`, the module `fixtures` holds a game that
//! breaks its promises, to test that a solver built on this crate stops
//! with a typed error (solver-cluster's tests use it).
//!
//! # Design note: the engine
//!
//! **Cells.** One cell a position: 1 byte where the remoteness is known
//! before the solve to stay at most 78 ([`Depths`]: Connect Four's tiers,
//! any game of at most 79 positions) and counts at most 16, else 2 bytes
//! while counts stay below 2¹⁵ and remoteness below 2¹³, else 4 (past a
//! width, chosen by retrying in the next): while a position is
//! open the cell counts its distinct children not yet resolved; once
//! resolved it holds outcome and remoteness. Ids that are no position are
//! marked invalid.
//!
//! **Levels.** Level `r` is the set of positions resolved with remoteness
//! `r`; level 0 holds the terminal positions. One step turns level `r` into
//! level `r + 1`: every open parent of a lost position becomes a win in
//! `r + 1`; every won position lowers its open parents' counters, and a
//! counter that reaches zero makes the parent a loss in `r + 1`. Wins and
//! losses run to the last level; then ties spread the same way from tied
//! positions to open parents (tie is better than draw for the mover, worse
//! than a win); what stays open is a draw.
//!
//! **Why it is right.** By induction on `r`: a position made a win at
//! `r + 1` has a child lost at `r`, and none lost sooner (it would have
//! been made a win at an earlier level); a position made a loss at `r + 1`
//! has only won children, the last of which was resolved at `r`, so its
//! slowest child is exactly `r` and every move loses. A position never
//! resolved has no lost child and not all of its children won — every
//! move either keeps it open or gives the opponent a win — so neither side
//! can force an end: a draw. Because a level is finished before the next
//! begins, the remoteness is exact whatever order positions are taken in
//! inside a level, which is why the table is identical for any number of
//! threads (a proptest checks 1, 2 and 4 threads against an independent
//! reference on random cyclic games). The induction needs the game's
//! promises; where one breaks so that it shows in a cell, the solve stops
//! with [`Error::Broken`] rather than finish a wrong table: while wins and
//! losses spread, no update may reach a loss (its children were all
//! counted, and a terminal one has none) or an index that is no position.
//!
//! **Seams.** *Where ids come from*: a whole dense index, the ids a search
//! from a start numbered, or one tier's index. *Where cells live*: an
//! anonymous memory map advised to use huge pages (parents are read
//! scattered over the table), cut into contiguous ranges, one per *owner*.
//! *Who runs a level*: each owner takes its part of the level, updates the
//! parents it owns at once and posts the others to their owners; then each
//! owner applies what was posted to it. Owners are a few per thread, so
//! that uneven levels keep all threads busy; each half of a step is a
//! round of one task per owner on a *crew*: the calling thread and helper
//! threads that spin between rounds instead of sleeping (a step takes a
//! fraction of a millisecond, and waking sleeping threads twice a step
//! cost a sixth of a two-thread solve). An owner's cells are written by
//! the one task that holds the owner; with one owner nothing is posted and
//! no crew starts. A level of a few dozen positions runs on the calling
//! thread, owner after owner, in the same order. An owner takes
//! its level in batches of 32: it finds the parents of the whole batch,
//! reads their cells in one tight pass — the cache misses of the batch
//! overlap instead of stalling one parent at a time (a prefetch would
//! need `unsafe`) — and then updates them child by child, in the same
//! order as one at a time. A single owner whose cells fit in the
//! last-level cache (16 MiB) skips the batches: the game sends each parent
//! straight to its cell ([`IndexedUnmoves::visit_unmove_indices`], a
//! visitor where a game can give one), with no list and no second pass —
//! a quarter faster on Fingers F = 64, where a parent's cell is seldom a
//! miss. Such a table is one owner's however many threads there are (the
//! seeding still uses them all): its updates cost less than the posts
//! between owners would. The same
//! exchange, one per level, is what the cluster executor (`solver-cluster`)
//! routes over the network: its workers seed with [`TierSeeding`] and
//! [`UnmovesSeeding`], ask the same parents sources, and apply what
//! arrives with the same rule ([`step`]), only the routing of the
//! updates between workers and processes being its own.
//!
//! **Tiers.** A tier is solved after its child tiers. Its seeding pass
//! reads each position's children outside the tier from the solved child
//! tiers: a tier that every move leaves is finished by that pass; any
//! other gets, per position, a counter of its distinct children inside the
//! tier plus one standing for "the children outside", and up to three
//! *events* — the fastest lost outside child, the slowest won one when all
//! outside children are won, the fastest tied one — which the engine
//! applies at their levels exactly as if those children were inside.
//! A [`TierStore`] that keeps the finished tables (a database) lets the
//! solver drop those no tier still reads to stay within the memory limit;
//! with [`NoStore`] the solution is the only place the values live, so
//! every table is held to the end, and a game whose tables cannot all be
//! held beside the tier being solved is refused before any tier is solved
//! ([`TierStore::keeps_tables`]).
//!
//! **Reachable-first.** When every tier is left by every move,
//! [`solve_tiers_reachable`] first walks forward from the start (a bit an
//! index), then seeds only the marked positions, tallying their outcomes
//! — a reachable position's children are reachable, so the pass never
//! misses one. [`Keep::All`] holds every table to the end; with
//! [`Keep::Start`] each table is dropped as soon as no
//! tier still to solve needs it, and its memory map is reused: a fresh map
//! costs the kernel a clearing pass over every page (on Connect Four 5×5
//! 0.5 s of system time, a fifth of the run), a reused one nothing.
//!
//! **Cost.** Time O(positions + moves): one child count a position, one
//! parent generation a resolved position (or a stored reverse graph), one
//! update a move into a resolved position. Memory as in the table above,
//! plus the level lists — 8-byte ids until a list passes an eighth of its
//! owner's cells, when the level is found by scanning the cells instead,
//! so at most a byte a cell — the events (8 bytes each, packed: phase,
//! level, id, lost) and the posts of a round (16 to 64 MiB, growing with
//! the table). The seeds (positions over at level 0) are listed under the
//! same cap and scanned for past it. [`solve_unmoves_with`] checks its
//! table, two level lists and a round's posts against the memory limit
//! before it starts ([`solve_unmoves_bytes`]). The certificate below stays
//! the independent check: it shares no code with the engine.
//!
//! # Proofs and pictures
//!
//! * [`certify`] checks a solution position by position with forward moves
//!   only, sharing no code with the solvers; see [`check`] for why a
//!   solution that passes is correct. [`certify_indexed`] and
//!   [`certify_tiers`] are the same check by index and by tier index: one
//!   [`Certificate`] of positions and distinct children for one table. [`check_position`] is its rule for
//!   one position, for values read from elsewhere (a database's answer
//!   against its children's records).
//! * [`TierStats`] measures a solved tier's table: outcomes, remoteness,
//!   the longest win and loss, the most moves (what `analyze` reports).
//! * [`to_dot`] draws the solved graph with petgraph, coloured by value.
//! * [`Solved::best_move`] is the strategy: the fastest win, else the
//!   fastest tie, else a move that keeps the draw, else the slowest loss.

mod builder;
mod cell;
pub mod check;
pub mod check_game;
mod config;
pub mod cost;
mod crew;
mod dot;
mod engine;
mod error;
mod fast;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixtures;
mod raw;
mod reach_first;
mod seed;
mod solution;
mod stats;
pub mod step;
mod stored;
mod tier_solution;
mod tiers;
mod walk;

pub use builder::{
    solve_tiers, solve_tiers_reachable, solve_tiers_unmoves, solve_tiers_with, Parents, Plan,
    Positions, Tables, TierSolve, TierSolver, TierUnmoves,
};
pub use cell::{Cell, Table};
pub use check::{
    certify, certify_indexed, certify_tiers, certify_tiers_with, check_position, look_up_checked,
    Certificate, Flaw, Looked, Rejection,
};
pub use check_game::{BrokenPromise, GameCheck};
pub use config::{Config, Progress};
pub use dot::{colour, graph, to_dot};
pub use engine::next_in_level;
pub use error::Error;
pub use fast::{solve_unmoves, solve_unmoves_bytes, solve_unmoves_with, UnmovesParents};
/// The game traits and values of `game-core`, so that a crate depending on
/// `solver-retro` alone can write and solve a game.
pub use game_core::{
    Canonical, ChildIndices, Game, Indexed, IndexedChildren, IndexedUnmoves, Misere, OneTier,
    Outcome, ParentIndices, ParentVisitor, Run, Symmetric, Tier, Tiered, Unmoves, Value,
};
pub use seed::{
    count_children, outside_children, scan_cells, terminal, visited_outside, Outside, Placement,
    ScanScratch, TierScratch, TierSeeding, UnmovesSeeding,
};
pub use solution::{Counts, IndexedSolution, Solution, Solved};
pub use stats::{Example, TierStats};
pub use stored::{
    solve, solve_indexed, solve_indexed_with, solve_with, BYTES_PER_MOVE, INDEXED_BYTES,
};
pub use tier_solution::{HoldsTiers, TierTables, TieredSolution};
pub use tiers::{
    parents_by_unmoves, Depths, Keep, NoStore, ParentsFn, TierStore, TierUnmovesParents,
};
pub use walk::{reachable, reachable_bytes, reachable_tiers, Held, Reachable, TierReach};
