//! Solver configuration: threads and the memory limit.

/// Options of the retrograde engine, builder style.
///
/// ```
/// let config = solver_retro::Config::default()
///     .memory_limit(1 << 30)
///     .threads(2)
///     .progress(|p| eprintln!("{p:?}"));
/// assert_eq!(config.limit(), 1 << 30);
/// assert_eq!(config.thread_count(), 2);
/// ```
#[derive(Clone)]
pub struct Config {
    memory_limit: u64,
    threads: usize,
    progress: Option<std::sync::Arc<dyn Fn(Progress) + Send + Sync>>,
    /// The narrowest cells a solve starts in ([`Config::narrowest_cells`]).
    narrowest: u64,
    /// Under test: whether a single-thread solve of a table in the cache
    /// updates parents as they come (`None`: every other solve).
    #[cfg(test)]
    pub(crate) direct: Option<bool>,
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("memory_limit", &self.memory_limit)
            .field("threads", &self.threads)
            .field("progress", &self.progress.is_some())
            .field("narrowest_cells", &self.narrowest)
            .finish()
    }
}

/// What a long solve reports as it goes (see [`Config::progress`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Progress {
    /// A level of the engine is done: `positions` resolved so far.
    Level {
        /// The level (remoteness) just produced.
        level: u64,
        /// Positions resolved so far in this table.
        positions: u64,
    },
    /// A tier is done.
    Tier {
        /// Tiers done so far (this one included).
        done: u64,
        /// Tiers in all.
        total: u64,
        /// Indices of the tier.
        positions: u64,
    },
    /// A block of the tier being solved is seeded (between its
    /// [`Progress::Tier`] reports; then, in a tier with levels, its
    /// [`Progress::Expanded`] and [`Progress::Level`] reports count the
    /// positions its levels expand and resolve):
    /// sent once a block of indices, from the thread that seeded it.
    Seeded {
        /// Indices of the tier seeded so far (blocks finish in any order).
        seeded: u64,
        /// Indices of the tier.
        positions: u64,
        /// Whether levels follow the seeding (a loopy tier: its seeding is
        /// about half its work); a tier every move leaves is done when
        /// seeded.
        levels: bool,
    },
    /// The levels of the table being solved have expanded (visited the
    /// parents of) `expanded` positions so far: sent as the levels begin
    /// (`expanded` 0), each time the count passes a multiple of
    /// [`Progress::EXPANDED_EVERY`] (from the thread that passed it, so
    /// reports of one level may come out of order: the largest counts),
    /// and at the end of each level that expanded any. Each position
    /// resolved in the table (won, lost or tied) is expanded once, in the
    /// step after its level; a draw never is. Counted once a batch of
    /// positions, never once a position.
    Expanded {
        /// Positions expanded so far in this table: at its end, every
        /// position resolved in it.
        expanded: u64,
        /// The most positions the levels may expand: those the seeding
        /// resolved or left open where it counted them (a tier's), else
        /// the table's cells. The draws among them never are.
        positions: u64,
    },
    /// Part of a check or a walk is done.
    Work {
        /// Units done so far.
        done: u64,
        /// Units in all.
        total: u64,
    },
}

impl Progress {
    /// How many positions a [`Progress::Expanded`] report stands for at
    /// most between two reports inside a level: 2¹⁶.
    pub const EXPANDED_EVERY: u64 = 1 << 16;
}

impl Default for Config {
    /// The memory limit defaults to the memory really available to the
    /// process ([`game_core::budget::available_memory`]: the least of the
    /// machine's available memory, the cgroup limit and what `ulimit -v`
    /// leaves), or 8 GiB where that is unknown;
    /// the threads to those of the current rayon pool (one per core unless
    /// the program set it otherwise).
    fn default() -> Self {
        Config {
            memory_limit: game_core::budget::available_memory()
                .unwrap_or(game_core::budget::FALLBACK_MEMORY),
            threads: 0,
            progress: None,
            narrowest: 1,
            #[cfg(test)]
            direct: None,
        }
    }
}

impl Config {
    /// Sets the most memory, in bytes, a solve may use for its tables and
    /// stored graph. A game that would need more is refused with
    /// [`crate::Error::TooLarge`] before the memory is taken.
    #[must_use]
    pub fn memory_limit(mut self, bytes: u64) -> Self {
        self.memory_limit = bytes;
        self
    }

    /// Sets the number of threads; 0 (the default) means as many as the
    /// current rayon pool has (one per core by default), and more than
    /// [`Config::MAX_THREADS`] means that many.
    /// Results are identical for any number.
    #[must_use]
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = threads;
        self
    }

    /// Sets the narrowest cells a table is solved in, in bytes: 1 (the
    /// default) lets the solver choose 1-byte cells wherever the
    /// remoteness is known to fit them ([`crate::Depths`]), 2 starts
    /// every table in 2-byte cells, 4 (or more) in 4-byte ones. The
    /// values are the same in every width; what the narrow cells save can
    /// be measured, and the widths cross-checked, with it.
    ///
    /// ```
    /// let config = solver_retro::Config::default().narrowest_cells(2);
    /// assert_eq!(config.cell_floor(), 2);
    /// assert_eq!(solver_retro::Config::default().cell_floor(), 1);
    /// ```
    #[must_use]
    pub fn narrowest_cells(mut self, bytes: u64) -> Self {
        self.narrowest = bytes;
        self
    }

    /// The narrowest cells a table is solved in, in bytes: 1, 2 or 4
    /// ([`Config::narrowest_cells`], rounded up to one of those).
    #[must_use]
    pub fn cell_floor(&self) -> u64 {
        match self.narrowest {
            0 | 1 => 1,
            2 => 2,
            _ => 4,
        }
    }

    /// Calls `report` as the work goes on (levels, tiers, blocks checked),
    /// from any thread; a command line draws a progress bar with it.
    #[must_use]
    pub fn progress(mut self, report: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.progress = Some(std::sync::Arc::new(report));
        self
    }

    /// Reports `p` to the progress callback ([`Config::progress`]), if
    /// any: for an engine of another crate run on this configuration.
    pub fn report(&self, p: Progress) {
        if let Some(f) = &self.progress {
            f(p);
        }
    }

    /// Whether a progress callback ([`Config::progress`]) was given.
    #[must_use]
    pub fn has_progress(&self) -> bool {
        self.progress.is_some()
    }

    /// The memory limit in bytes.
    #[must_use]
    pub fn limit(&self) -> u64 {
        self.memory_limit
    }

    /// The most threads a solve runs on: a larger count is cut to it.
    /// A pool of `usize::MAX` threads asked for by mistake would have
    /// rayon start 65,535 of them (a solve of five positions ran for
    /// minutes on every core, gigabytes of stacks reserved), and the
    /// owners counted from it overflowed.
    pub const MAX_THREADS: usize = 1 << 10;

    /// The number of threads a solve runs on, at most
    /// [`Config::MAX_THREADS`].
    #[must_use]
    pub fn thread_count(&self) -> usize {
        match self.threads {
            0 => rayon::current_num_threads(),
            n => n,
        }
        .min(Self::MAX_THREADS)
    }

    /// Runs `f` on a pool of [`Config::thread_count`] threads: the
    /// current pool when that already has as many, else one this thread
    /// keeps for the next call with the same count.
    ///
    /// Design note: building a pool for every call cost Fingers F = 64 at
    /// one thread (on two cores) some 0.6 ms of its 7 ms — the new thread
    /// starts cold — when `solve_unmoves` still went through here (at one
    /// thread it now runs on the caller's thread, with no pool); the other
    /// presets, walks and checks do. So each calling thread keeps the last
    /// pool it built (its threads park while unused, and leave with it).
    /// Kept per calling thread, not shared: solves started from different
    /// threads still get a pool each and run side by side.
    pub(crate) fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        use std::cell::RefCell;
        use std::sync::Arc;
        thread_local! {
            static KEPT: RefCell<Option<Arc<rayon::ThreadPool>>> = const { RefCell::new(None) };
        }
        let n = self.thread_count();
        if rayon::current_num_threads() == n {
            return f();
        }
        let kept = KEPT.with(|k| {
            let mut k = k.borrow_mut();
            if k.as_ref().is_none_or(|p| p.current_num_threads() != n) {
                *k = rayon::ThreadPoolBuilder::new()
                    .num_threads(n)
                    .build()
                    .ok()
                    .map(Arc::new);
            }
            k.clone()
        });
        match kept {
            Some(pool) => pool.install(f),
            None => f(),
        }
    }

    /// How many owners to cut a table into: a few per thread so that
    /// uneven levels still keep every thread busy; one for one thread.
    pub(crate) fn owners(&self) -> usize {
        match self.thread_count() {
            1 => 1,
            n => 16 * n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Config;

    /// A pool built for a thread count is kept for the next call from the
    /// same thread: one thread, so the same worker both times (a fresh
    /// pool would run the second call on a new thread), and the count is
    /// the one asked for.
    #[test]
    fn install_keeps_its_pool() {
        let config = Config::default().threads(1);
        let run = || config.install(|| (std::thread::current().id(), rayon::current_num_threads()));
        let (first, n) = run();
        assert_eq!(n, 1);
        assert_eq!(run(), (first, 1));
        // Another count builds another pool, and the first comes back.
        let three = Config::default().threads(3);
        assert_eq!(three.install(rayon::current_num_threads), 3);
        let (_, n) = run();
        assert_eq!(n, 1);
    }

    /// An absurd thread count is cut to the most a solve runs on, for
    /// the pool and the owners alike (`usize::MAX` started 65,535 rayon
    /// threads, and its owners overflowed).
    #[test]
    fn a_huge_thread_count_is_cut_to_the_most() {
        for n in [usize::MAX, 1 << 40, Config::MAX_THREADS + 1] {
            let config = Config::default().threads(n);
            assert_eq!(config.thread_count(), Config::MAX_THREADS);
            assert_eq!(config.owners(), 16 * Config::MAX_THREADS);
        }
        let config = Config::default().threads(Config::MAX_THREADS);
        assert_eq!(config.thread_count(), Config::MAX_THREADS);
    }
}
