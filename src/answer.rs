//! One position of a game answered — its value and every move's — by the
//! engine that fits: a table of the whole game, solved in memory, when its
//! tiers fit the memory and work budget; an exact search (solver-search)
//! otherwise. Callers do not choose.
//!
//! ```
//! use gamesolve::answer::{answer, Engine};
//! use gamesolve::games::ConnectFour;
//! use gamesolve::{Budget, Value};
//!
//! let game = ConnectFour::new(4, 4)?;
//! let pos = game.position_from_moves("1212")?;
//! // 4×4 fits: its tiers are solved in memory.
//! let roomy = Budget::unlimited().with_memory(1 << 30).with_work(1 << 40);
//! let a = answer(&game, &pos, &roomy, 1, 8)?;
//! assert_eq!(a.engine, Engine::Table);
//! // In 64 KiB the tables do not fit: the search gives the same answer.
//! let tight = Budget::unlimited().with_memory(1 << 16).with_work(1 << 40);
//! let b = answer(&game, &pos, &tight, 1, 8)?;
//! assert_eq!(b.engine, Engine::Search);
//! assert_eq!((a.value, &a.moves), (b.value, &b.moves));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use game_core::{
    Budget, Canonical, EndgameTable, SearchHints, SearchKey, Symmetric, Tier, Tiered,
    TieredSymmetric, Value,
};
use game_db::Database;
use solver_retro::{Solved, TierSolver};
use solver_search::Searcher;

/// Which engine answers a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Engine {
    /// A table of the whole game, solved tier by tier in memory.
    Table,
    /// An exact search from the position.
    Search,
}

impl Engine {
    /// A lower-case name: `"table"` or `"search"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Engine::Table => "table",
            Engine::Search => "search",
        }
    }
}

/// What answering a position can fail with.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The table's solve failed.
    #[error(transparent)]
    Retro(#[from] solver_retro::Error),
    /// The search failed (its work budget spent, say).
    #[error(transparent)]
    Search(#[from] solver_search::Error),
    /// The table holds no value for a position asked (one the game's tiers
    /// do not cover).
    #[error("the table of the whole game holds no value for the position")]
    Unsolved,
}

/// Bytes the tiers of `game` take solved in memory: 2 an index (the
/// retrograde solver's cells).
pub fn table_bytes<G: Tiered>(game: &G) -> u64 {
    game.tiers()
        .iter()
        .map(|&t| game.tier_size(t))
        .fold(0u64, u64::saturating_add)
        .saturating_mul(2)
}

/// The engine for `game` under `budget`: the table when its tiers fit the
/// memory and solving them (`steps_an_index` steps an index) the work;
/// the search otherwise.
pub fn choose<G: Tiered>(game: &G, budget: &Budget, steps_an_index: u64) -> Engine {
    let bytes = table_bytes(game);
    let steps = (bytes / 2).saturating_mul(steps_an_index);
    if bytes <= budget.memory() && steps <= budget.work() {
        Engine::Table
    } else {
        Engine::Search
    }
}

/// The search's configuration under `budget` on `threads`, for positions
/// at most `plies_left` plies from the end (`None`: unknown): a
/// transposition table of 64 bytes for each of 2^`plies_left` nodes, at
/// least 1 MiB and at most a quarter of the memory and 1 GiB (a table
/// larger than a short search needs costs more to clear than the search).
pub fn search_config(
    budget: &Budget,
    threads: usize,
    plies_left: Option<u32>,
) -> solver_search::Config {
    let most = (budget.memory() / 4).min(1 << 30);
    let wanted = plies_left.map_or(most, |p| 64u64 << p.min(40));
    solver_search::Config::new()
        .with_threads(threads)
        .with_table_bytes(wanted.max(1 << 20).min(most))
        .with_budget(budget.clone())
}

/// A position's value, every move's value (in generation order, as the
/// player to move gets it), and who found them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer<M> {
    /// The value for the player to move.
    pub value: Value,
    /// Every move with its value; empty when the game is over.
    pub moves: Vec<(M, Value)>,
    /// The engine that answered.
    pub engine: Engine,
    /// Nodes the search visited (0 from a table).
    pub nodes: u64,
}

/// Answers `pos` of `game` with the engine [`choose`] picks: its value and
/// every move's.
///
/// # Errors
/// The table's solve's or the search's errors: over the budget, a game
/// that breaks its promises.
pub fn answer<G>(
    game: &G,
    pos: &G::Position,
    budget: &Budget,
    threads: usize,
    steps_an_index: u64,
) -> Result<Answer<G::Move>, Error>
where
    G: TieredSymmetric + SearchKey + SearchHints + Clone + Sync,
    G::Position: Send + Sync,
    G::Move: Send + Sync,
{
    answer_with(game, pos, budget, threads, steps_an_index, true)
}

/// As [`answer`], every move's value only when `moves` is true: without,
/// the search answers the position's value alone (one search, where every
/// move's value costs a search each), and [`Answer::moves`] is empty.
///
/// ```
/// use gamesolve::answer::{answer_with, Engine};
/// use gamesolve::games::ConnectFour;
/// use gamesolve::Budget;
///
/// let game = ConnectFour::new(4, 4)?;
/// let pos = game.position_from_moves("1212")?;
/// let tight = Budget::unlimited().with_memory(1 << 16).with_work(1 << 40);
/// let all = answer_with(&game, &pos, &tight, 1, 8, true)?;
/// let alone = answer_with(&game, &pos, &tight, 1, 8, false)?;
/// assert_eq!((alone.engine, alone.value), (Engine::Search, all.value));
/// assert!(alone.moves.is_empty() && !all.moves.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`answer`].
pub fn answer_with<G>(
    game: &G,
    pos: &G::Position,
    budget: &Budget,
    threads: usize,
    steps_an_index: u64,
    moves: bool,
) -> Result<Answer<G::Move>, Error>
where
    G: TieredSymmetric + SearchKey + SearchHints + Clone + Sync,
    G::Position: Send + Sync,
    G::Move: Send + Sync,
{
    let want_moves = moves;
    let mut moves = Vec::new();
    if want_moves && game.outcome(pos).is_none() {
        game.moves(pos, &mut moves);
    }
    match choose(game, budget, steps_an_index) {
        Engine::Table => {
            let canonical = Canonical(game.clone());
            let config = solver_retro::Config::default()
                .memory_limit(budget.memory())
                .threads(threads);
            let sol = TierSolver::new(&canonical)
                .config(&config)
                .solve()?
                .solution;
            let value = |p: &G::Position| sol.value(&game.canonical(p)).ok_or(Error::Unsolved);
            let moves = moves
                .into_iter()
                .map(|m| Ok((m.clone(), value(&game.play(pos, &m))?.parent())))
                .collect::<Result<Vec<_>, Error>>()?;
            Ok(Answer {
                value: value(pos)?,
                moves,
                engine: Engine::Table,
                nodes: 0,
            })
        }
        Engine::Search => {
            let config = search_config(budget, threads, game.plies_left(pos));
            let search = Searcher::new(game, config)?;
            let a = if want_moves {
                search.analyze(pos)?
            } else {
                let found = search.value(pos)?;
                solver_search::Analysis {
                    value: found.value,
                    moves: Vec::new(),
                    nodes: found.nodes,
                }
            };
            Ok(Answer {
                value: a.value,
                moves: a.moves,
                engine: Engine::Search,
                nodes: a.nodes,
            })
        }
    }
}

/// Endgame tables from a retrograde solution held in memory (of the game
/// seen through [`Canonical`]): the exact value of every position of the
/// tiers it holds, from tier `from` on, read by the search instead of
/// searched below.
///
/// ```
/// use gamesolve::answer::SolvedTiers;
/// use gamesolve::core::{Canonical, Tiered};
/// use gamesolve::games::ConnectFour;
/// use gamesolve::search::{Config, Searcher};
///
/// let game = ConnectFour::new(4, 4)?;
/// let canonical = Canonical(game.clone());
/// let sol = gamesolve::retro::solve_tiers(&canonical)?;
/// let pos = game.position_from_moves("1234")?;
/// let config = Config::new().with_table_bytes(1 << 16);
/// let plain = Searcher::new(&game, config.clone())?.value(&pos)?;
/// // Tiers of 10 pieces and more read from the table.
/// let tables = SolvedTiers::new(&sol).from_tier(10);
/// let helped = Searcher::with_tables(&game, tables, config)?.value(&pos)?;
/// assert_eq!(helped.value, plain.value);
/// assert!(helped.nodes < plain.nodes);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SolvedTiers<'s, S> {
    sol: &'s S,
    from: Tier,
}

impl<S> Clone for SolvedTiers<'_, S> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<S> Copy for SolvedTiers<'_, S> {}

impl<'s, S> SolvedTiers<'s, S> {
    /// Every tier `sol` holds.
    pub fn new(sol: &'s S) -> Self {
        SolvedTiers { sol, from: 0 }
    }

    /// Only the tiers from `from` on (with Connect Four: the positions of
    /// `from` pieces and more).
    #[must_use]
    pub fn from_tier(self, from: Tier) -> Self {
        SolvedTiers { from, ..self }
    }
}

impl<G, S> EndgameTable<G> for SolvedTiers<'_, S>
where
    G: Tiered + Symmetric,
    S: Solved<Game = Canonical<G>>,
{
    #[inline]
    fn table_value(&self, game: &G, pos: &G::Position) -> Option<Value> {
        if game.tier(pos) < self.from {
            return None;
        }
        self.sol.value(&game.canonical(pos))
    }
}

/// Endgame tables read from a database of solved tiers (written by a
/// tiered `solve --db`, of the game seen through [`Canonical`]): the exact
/// value of every position of its finished tiers. A record that cannot be
/// read (a damaged block) is searched instead: the answer stays exact.
pub struct DbTiers<'d> {
    db: &'d Database,
    finished: Vec<Tier>,
}

impl<'d> DbTiers<'d> {
    /// The finished tiers of `db`.
    pub fn new(db: &'d Database) -> Self {
        let mut finished = db.finished_tiers();
        finished.sort_unstable();
        DbTiers { db, finished }
    }

    /// The tiers read.
    pub fn tiers(&self) -> &[Tier] {
        &self.finished
    }
}

impl<G: Tiered + Symmetric> EndgameTable<G> for DbTiers<'_> {
    fn table_value(&self, game: &G, pos: &G::Position) -> Option<Value> {
        let t = game.tier(pos);
        if self.finished.binary_search(&t).is_err() {
            return None;
        }
        let c = game.canonical(pos);
        self.db.lookup(t, game.tier_index(&c)).ok().flatten()
    }
}
