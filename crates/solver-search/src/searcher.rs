//! [`Searcher`]: a game, its endgame tables, a transposition table and
//! threads, answering positions one after another.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use game_core::{Budget, EndgameTable, Game, NoTable, SearchHints, SearchKey, Value};
use rayon::prelude::*;

use crate::engine::{Engine, Shared, STEPS_A_NODE};
use crate::table::Table;
use crate::Error;

/// How a [`Searcher`] searches: threads, the size of its transposition
/// table, and the budget of memory (for the table and the search's path)
/// and work (nodes, [`STEPS_A_NODE`] steps each) of every query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    threads: usize,
    table_bytes: u64,
    budget: Budget,
}

/// The transposition table's size unless told: 64 MiB.
pub const DEFAULT_TABLE_BYTES: u64 = 64 << 20;

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: 1,
            table_bytes: DEFAULT_TABLE_BYTES,
            budget: Budget::available(),
        }
    }
}

impl Config {
    /// One thread, a table of [`DEFAULT_TABLE_BYTES`], the memory really
    /// available and unlimited work.
    #[must_use]
    pub fn new() -> Self {
        Config::default()
    }

    /// The same with `n` threads (at least one).
    #[must_use]
    pub fn with_threads(mut self, n: usize) -> Self {
        self.threads = n.max(1);
        self
    }

    /// The same with a transposition table of `bytes` (rounded down to a
    /// power of two of slots; refused when over the budget's memory).
    #[must_use]
    pub fn with_table_bytes(mut self, bytes: u64) -> Self {
        self.table_bytes = bytes;
        self
    }

    /// The same with a budget of memory and of work for each query.
    #[must_use]
    pub fn with_budget(mut self, budget: Budget) -> Self {
        self.budget = budget;
        self
    }

    /// Threads.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Bytes of the transposition table asked for.
    #[must_use]
    pub fn table_bytes(&self) -> u64 {
        self.table_bytes
    }

    /// The budget.
    #[must_use]
    pub fn budget(&self) -> &Budget {
        &self.budget
    }
}

/// A position's exact value and what finding it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The value for the player to move.
    pub value: Value,
    /// Nodes searched (every thread's).
    pub nodes: u64,
}

/// A position's exact value, every move's value, and what it cost.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis<M> {
    /// The value for the player to move.
    pub value: Value,
    /// Every move in generation order, with the value it gives the player
    /// to move (the child's value seen from above: [`Value::parent`]);
    /// empty when the game is over.
    pub moves: Vec<(M, Value)>,
    /// Nodes searched (every thread's).
    pub nodes: u64,
}

/// An exact search of one game: answers positions one after another,
/// keeping its transposition table between them (what it holds are true
/// bounds, whichever position proved them).
pub struct Searcher<'g, G: Game, T = NoTable> {
    game: &'g G,
    tables: T,
    tt: Table,
    tt_bytes: u64,
    config: Config,
    pool: Option<rayon::ThreadPool>,
}

impl<'g, G> Searcher<'g, G, NoTable>
where
    G: SearchKey + SearchHints + Sync,
    G::Position: Send + Sync,
    G::Move: Send + Sync,
{
    /// A search of `game` with no endgame table.
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the table is over the budget's memory.
    pub fn new(game: &'g G, config: Config) -> Result<Self, Error> {
        Searcher::with_tables(game, NoTable, config)
    }
}

impl<'g, G, T> Searcher<'g, G, T>
where
    G: SearchKey + SearchHints + Sync,
    G::Position: Send + Sync,
    G::Move: Send + Sync,
    T: EndgameTable<G> + Sync,
{
    /// A search of `game` that reads exact values from `tables` where they
    /// hold a position instead of searching below it.
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the table is over the budget's memory.
    pub fn with_tables(game: &'g G, tables: T, config: Config) -> Result<Self, Error> {
        let tt = Table::new(config.table_bytes, &config.budget)?;
        let tt_bytes = tt.bytes();
        // Without a pool the root's moves are searched one after another:
        // the same answer, on one thread.
        let pool = (config.threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(config.threads)
                    .build()
                    .ok()
            })
            .flatten();
        Ok(Searcher {
            game,
            tables,
            tt,
            tt_bytes,
            config,
            pool,
        })
    }

    /// The game searched.
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    fn shared<'a>(
        &'a self,
        nodes: &'a AtomicU64,
        stop: &'a AtomicBool,
        done: &'a AtomicBool,
    ) -> Shared<'a, G, T> {
        Shared {
            game: self.game,
            tables: &self.tables,
            tt: &self.tt,
            tt_bytes: self.tt_bytes,
            budget: &self.config.budget,
            nodes,
            stop,
            done,
        }
    }

    /// The exact value of `pos` (outcome and remoteness, as the retrograde
    /// solver gives them), by one search from `pos`. On several threads,
    /// helper threads search the same position with the moves of its
    /// first plies in other orders, filling the shared table; only the
    /// main search's answer is given, and it is exact whatever the table
    /// holds, so the value is the same for any number of threads (the
    /// nodes counted are every thread's, and vary).
    ///
    /// # Errors
    /// [`Error::TooLarge`] when the work budget is spent before the answer
    /// (or the path outgrows the memory), [`Error::Loopy`] for a game that
    /// repeats a position, and the game's broken promises.
    pub fn value(&self, pos: &G::Position) -> Result<Found, Error> {
        let (nodes, stop, done) = (
            AtomicU64::new(0),
            AtomicBool::new(false),
            AtomicBool::new(false),
        );
        let shared = self.shared(&nodes, &stop, &done);
        let main = || {
            let mut engine = Engine::new(shared);
            let value = engine.exact(pos);
            let flushed = engine.flush();
            done.store(true, Ordering::Relaxed);
            let value = value?;
            flushed.map(|()| value)
        };
        let value = match &self.pool {
            Some(pool) => pool.install(|| {
                rayon::scope(|s| {
                    for h in 1..self.config.threads {
                        s.spawn(move |_| {
                            let mut engine = Engine::helper(shared, h);
                            // A helper's answer, or its being stopped, is
                            // not used: the main search answers.
                            let _ = engine.exact(pos);
                            let _ = engine.flush();
                        });
                    }
                    main()
                })
            }),
            _ => main(),
        }?;
        Ok(Found {
            value,
            nodes: nodes.load(Ordering::Relaxed),
        })
    }

    /// The exact value of `pos` and of every move from it: first the
    /// position's value by [`Searcher::value`], then each child searched
    /// exactly with the table it left (on several threads, the children in
    /// parallel), checked to give the position's value.
    ///
    /// # Errors
    /// As [`Searcher::value`], and [`Error::Disagree`] when the best move's
    /// value is not the position's.
    pub fn analyze(&self, pos: &G::Position) -> Result<Analysis<G::Move>, Error> {
        let g = self.game;
        let root = self.value(pos)?;
        let mut moves = Vec::new();
        if g.outcome(pos).is_none() {
            g.moves(pos, &mut moves);
        }
        if moves.is_empty() {
            return Ok(Analysis {
                value: root.value,
                moves: Vec::new(),
                nodes: root.nodes,
            });
        }
        let (nodes, stop, done) = (
            AtomicU64::new(0),
            AtomicBool::new(false),
            AtomicBool::new(false),
        );
        let shared = self.shared(&nodes, &stop, &done);
        let child_value = |engine: &mut Engine<'_, G, T>, m: &G::Move| -> Result<Value, Error> {
            let v = engine.exact(&g.play(pos, m))?;
            v.checked_parent().ok_or(Error::TooDeep)
        };
        let values: Vec<Result<Value, Error>> = match &self.pool {
            Some(pool) => pool.install(|| {
                moves
                    .par_iter()
                    .map_init(
                        || Engine::new(shared),
                        |engine, m| {
                            let v = child_value(engine, m);
                            engine.flush().and(v)
                        },
                    )
                    .collect()
            }),
            None => {
                let mut engine = Engine::new(shared);
                let vs: Vec<_> = moves.iter().map(|m| child_value(&mut engine, m)).collect();
                engine.flush()?;
                vs
            }
        };
        let values = values.into_iter().collect::<Result<Vec<_>, _>>()?;
        let best = *values.iter().max().expect("a move");
        if best != root.value {
            return Err(Error::Disagree {
                value: root.value,
                best,
            });
        }
        Ok(Analysis {
            value: root.value,
            moves: moves.into_iter().zip(values).collect(),
            nodes: root.nodes + nodes.load(Ordering::Relaxed),
        })
    }

    /// Steps of the work budget that `nodes` nodes cost.
    #[must_use]
    pub fn steps(nodes: u64) -> u64 {
        nodes.saturating_mul(STEPS_A_NODE)
    }
}
