//! The retrograde tier engine across threads, processes and hosts, on
//! [timely-dataflow](https://docs.rs/timely): every worker owns a shard of
//! each tier's ids (any worker of a process updates any of its blocks), the
//! parent updates of a level are routed to their owners, and the next
//! level starts when timely's progress tracking says
//! the last one is complete.
//!
//! The answers are solver-retro's, position by position (value and
//! remoteness; best moves follow from values), for any number of workers
//! and processes: the tests compare 1, 2 and 3 processes against
//! `solver_retro::solve_tiers_with` and `solve_unmoves_with`.
//!
//! ```
//! use solver_cluster::{ClusterConfig, Solved};
//! use games::ConnectFour;
//!
//! let game = ConnectFour::new(4, 3)?;
//! // Two worker threads in this process (`-n` and `-p` and `-h` for more
//! // processes, one per host).
//! let config = ClusterConfig::from_args(["-w", "2"])?;
//! let sol = solver_cluster::solve_tiers(game.clone(), &config, None)?;
//! let single = solver_retro::solve_tiers(&game)?;
//! assert_eq!(sol.value(&game.start()), single.value(&game.start()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # How a tier is solved
//!
//! Tiers go children first ([`Tiered::tiers`]); an [`IndexedUnmoves`]
//! game is one tier ([`solve_unmoves`]). For each tier:
//!
//! 1. **Blocks and shards.** A tier's ids are cut into blocks of a power
//!    of two, about 16 a worker (fewer, down to 2, where that makes blocks
//!    of 1 Mi ids, whole huge pages of 2-byte cells), and worker `w` of
//!    `W` owns a run of whole blocks, `w·B/W .. (w+1)·B/W` of `B` (its
//!    shard). A block's cells (a counter while open, then outcome and
//!    remoteness, laid out as solver-retro's cells) are an anonymous
//!    memory map of its own, advised to use huge pages, behind a lock
//!    shared by the workers of the owner's process. Cells are 2 bytes
//!    first, as solver-retro solves a tier; when a count (past 32,766) or
//!    a remoteness (past 8,191) does not fit, every worker of every
//!    process learns it at the same barrier (the seeding's, or a level's:
//!    its summary carries an overflow bit, and the level number is the
//!    same everywhere) and the tier starts again in 4-byte cells. Blocks
//!    stay where they are: a process holds the tier as its workers' blocks
//!    side by side, so nothing is copied or gathered inside a process,
//!    until no tier left to solve reads the tier; then its blocks are
//!    copied into one table (2-byte blocks as they are, 4-byte ones
//!    narrowed where values fit) and reused for the blocks of tiers to
//!    come (fresh memory costs a page clearing on first touch), up to the
//!    largest tier's worth of 2-byte cells: the largest free blocks past
//!    that go back to the system.
//! 2. **Seeding.** The workers of a process seed its blocks together, a
//!    block at a time taken in turn, the last first (an index's cost
//!    varies along a tier, growing in Connect Four), each straight into
//!    its memory, with solver-retro's rules: terminal positions at level
//!    0; in a tier every move leaves, the value from the children at once;
//!    otherwise a counter of distinct inside children plus one for "the
//!    children outside", and up to three events from the outside children
//!    (the fastest lost, the slowest won when all are won, the fastest
//!    tied). The values of outside children are read from the solved
//!    child tiers, which **every process holds whole** (see *Child tiers*
//!    below). The seeds stay with the worker that found them.
//! 3. **Levels.** Level `r` holds the positions resolved with remoteness
//!    `r`. The workers of a process share the level's children (each
//!    publishes its part, with a bit for "lost", and all take chunks of
//!    every part), ask the game for each child's parents (unmoves) and
//!    gather the parents as one list of words a destination, run-length
//!    encoded (a parent is 8 bytes, its id and a bit for "the child was
//!    lost"; a run of consecutive parents with the same bit is 16, however
//!    long; neighbours join into runs as they are added). A destination
//!    is a block of the worker's own process, or a worker of another
//!    process. A block's list of 2 Ki words is applied by the worker that
//!    gathered it, holding the block's lock (if another worker holds it,
//!    the list grows, up to 8 times, before the worker waits): the cells
//!    of the whole list are read in one pass first, so that their cache
//!    misses overlap, then updated in order. So the work of a level goes
//!    to whichever worker is free, however its updates fall among the
//!    shards. Lists for workers of other processes go through one timely
//!    exchange; their owner applies them after the round's barrier, and
//!    the process's workers wait for each other before the next round. A
//!    level is one round unless a worker's updates to other processes
//!    pass [`ClusterConfig::round_bytes`]: then that worker stops taking
//!    children, says so in its summary, and every worker runs another
//!    round of the level, so that what is in flight stays bounded. A
//!    worker lists the positions it resolves for the next level up to
//!    [`ClusterConfig::level_list_cap`]; when any worker's list passes
//!    it, every worker of its process drops its list and finds that level
//!    by scanning its own shard's cells for the positions resolved at
//!    that remoteness (a list holds positions of the process's other
//!    shards too, so all of a process scan or none; they agree at the
//!    process's barrier after the updates received are applied, since
//!    those are listed too).
//!    Runs of won children are applied in bulk: one pass decrements the
//!    counters, a second resolves those that reached zero. A level ends
//!    with a barrier: when the process is the whole cluster, among its
//!    threads (spinning briefly, then sleeping); otherwise timely's, which
//!    also carries each worker's summary (how busy it was, its next event
//!    level) — the round is complete when every update sent in it has
//!    arrived. The summaries tell every worker alike whether the phase is
//!    over or which level comes next, so all run the same rounds. Wins and
//!    losses first, then ties; what stays open is a draw. Because a level
//!    is complete before the next starts, every remoteness is exact
//!    whatever the order of updates inside it, and whichever worker
//!    applies them.
//! 4. **Gather.** Each worker sends its blocks to one worker of every other
//!    process; a barrier later every process holds the tier whole (in the
//!    blocks of its own workers and copies of the others').
//!
//! # Child tiers: gathered, not requested
//!
//! This first version gathers every solved tier to every process (step 4)
//! instead of answering requests for single children. It costs
//! `4 · size · (P − 1)` bytes over the network per tier for `P`
//! processes, and each process holds a tier group (the tier's children
//! whole, its own shard of the tier) plus whatever the report keeps. It
//! keeps seeding local and simple; the price is that a child tier must fit
//! one machine's memory. A tier larger than one machine needs the
//! request/response path (send `(child, parent)` to the child's owner,
//! answer with the value) or, with cross-tier unmoves, a push from child
//! owners to parent owners — see the plan for Connect Four 7×6 below.
//!
//! # Memory
//!
//! A solve is refused before the processes connect when the cells a
//! process holds pass [`ClusterConfig::limit`] (by default what the
//! machine has available): every tier's table in 2-byte cells, the
//! largest tier again for its blocks while they are copied into its table,
//! and, with more than one tier, once more for the finished tiers' blocks
//! a process keeps to reuse (it gives back what passes that), and the
//! largest tier with levels once more for their lists and updates
//! ([`held_bytes`]), beside its workers' channels, which timely keeps
//! between every pair of workers ([`ClusterConfig::channel_bytes`]; at
//! most [`MAX_WORKERS`] a process). Those are bounded: a worker lists at
//! most a sixteenth of its shard's cells for a level (8-byte ids; it keeps three
//! lists: the level it takes, the one it builds and the one before),
//! past which every worker finds that level by scanning its shard's
//! cells instead ([`ClusterConfig::level_list_cap`]); and a level's
//! updates to other processes go in rounds of at most half a byte a
//! cell of the tier in all ([`ClusterConfig::round_bytes`]), each
//! applied by its receivers after the round's barrier. The events of
//! positions with children in other tiers (24 bytes each, up to three a
//! position) are checked as seeding finds them: a solve whose events
//! pass what the limit leaves is stopped with
//! [`solver_retro::Error::TooLarge`].
//!
//! # The database
//!
//! With a [`game_db::Database`], every process opens the same directory
//! (on one host trivially; across hosts a shared file system) and **each
//! worker writes its own shard** of every tier it solves, as shard `w` of
//! the tier (`tier-<N>.shard-<w>.gsdb`, its ids `lo..hi`;
//! [`game_db::Database::shard_writer`]), right after the tier's last level
//! and before the gather. It sends the shard's manifest entry (48 bytes) to
//! worker 0, which lists the tier as finished once all `W` shards are in
//! ([`game_db::Database::finish_sharded`]): the tier's records never travel
//! to be written. The database reads a sharded tier like any other
//! (`gamesolve … value --db DIR` finds the shard of an index).
//!
//! **Resume.** Worker 0 reads the manifest and tells every worker which
//! tiers are finished — a tier is finished only once every shard is
//! written and listed, so a rerun starts at the first tier not complete on
//! every shard. A finished tier that an unfinished one needs is read back
//! by every worker, its own range only (from whichever shards hold it, so
//! a rerun may use another number of workers), and gathered as after a
//! solve. Shard files of a tier that was never listed (a crash between
//! the shards and the listing) are simply written again.
//!
//! # Faults
//!
//! A worker that fails, or a process that dies, stops every process with
//! [`Error::Failed`] within a fraction of a second of the failure being
//! seen: the connection a timely network thread uses records a peer's
//! connection closing (or failing, or carrying a message timely could not
//! take) as the run's failure, never letting timely panic (see
//! `link.rs`); every worker checks for a failure between steps (see
//! `fault.rs`). A failing process never shuts its connections down
//! cleanly: it cuts them as soon as it sees the failure, so its peers see
//! it whether or not it exits, even once they are done and wait only for
//! its end of stream. A process that stops as a whole (stopped by a
//! signal, or its host gone without closing its connections) is found by
//! its silence: every process sends each peer a heartbeat when it has
//! sent nothing for a while, and a peer heard from not at all for
//! [`ClusterConfig::peer_timeout`] fails the run (see `link.rs`); a peer
//! not yet heard from since the processes connected (it may still be
//! connecting to others) is given [`ClusterConfig::connect_timeout`]
//! instead. A failed run ends every thread it started and closes every
//! socket before it returns the error, so a program may run solve after
//! solve (see `fault.rs`). A process that cannot spawn a thread of its
//! run (the system's limit of threads, or of memory for their stacks)
//! fails at once with [`Error::Start`] naming it, and its peers see its
//! connections cut: the run spawns its threads before timely is given
//! any (see `threads.rs`).
//!
//! Processes started with other settings never start solving: when they
//! connect, each greets the other with its `-n`, `-w` and a hash of the
//! game's tiers and sizes and of [`ClusterConfig::rules`], and both stop
//! with [`Error::Start`] naming what differs; so does a process that
//! finds something else than a process of a cluster at a peer's address.
//!
//! # Scaling (measured; figures in BENCHMARKS.md, "Cluster"; what changed in docs/benchmark-history.md)
//!
//! * **Bytes.** A parent update is 8 bytes (16 for a run of parents); a
//!   level also sends every worker a 24-byte summary across processes
//!   (one more a round when a level takes several).
//!   Fingers F = 64 on two processes: 2.2 bytes of updates a position
//!   owned, 32 KB a level on average and 1.63 MB at most; the gather of a
//!   solved tier is 4 bytes an index to every other process (Connect Four
//!   5×5: 344 MB from each of two processes, its only traffic, since every
//!   move leaves its tier). Inside a process nothing is serialized or
//!   sent: updates are applied to the process's blocks directly.
//! * **Cost against rayon** (1 process × 2 workers, 2 cores, the
//!   command line's solve seconds, `scripts/cluster-cost.sh 7`: medians of
//!   7 runs alternating with the rayon engine, and the spread of the 7
//!   pairs' ratios; 2026-11-25): Fingers F = 64 0.88× (0.022 s against
//!   0.025 s; pairs 0.64–1.04×), Connect Four 6×4 1.12× (1.562 s against
//!   1.389 s; pairs 0.94–1.16×). The same script on the build before
//!   (4-byte cells, blocks of 512 Ki ids), run just before it: F = 64
//!   1.56× (pairs 0.71–2.55×), Connect Four 6×4 1.27× (pairs
//!   1.15–1.33×). Load 0.98 when the first runs started, 1.84 when the
//!   second did and 2.10 at the end (mostly the runs' own). What closed
//!   the gap: 2-byte cells as the rayon engine's (half the pages to clear,
//!   half the bytes the levels stream through), blocks of whole huge
//!   pages (1 MiB maps of 2-byte cells faulted in 4 KiB pages: F = 64's
//!   seeding took 5 ms instead of 1.4), solved tiers copied into tables
//!   instead of converted, no seed lists in tiers every move leaves
//!   (Connect Four listed every end, some 240 MB a 6×4 solve), and child
//!   values read from the cells in their own width. F = 64's solve was
//!   then (timed inside, load about 2) 1.3–1.5 ms of seeding, 9–14 ms of
//!   levels (the rayon engine's 11–13) and 1.1–1.3 ms copying the table; what is left on Connect
//!   Four is seeding by the game's `visit_tier` a position at a time
//!   (the rayon engine expands in batches) and clearing the pages of
//!   blocks not reused. Earlier figures: before the blocks, Fingers
//!   was 1.4–1.8× (F = 64) and 1.5–2.8× (F = 128): a shard's owner
//!   applied every update to it, and in Fingers' levels most land in one
//!   shard.
//! * **Faults.** A process killed mid-solve (`kill -9`, Connect Four 5×5,
//!   6 of 26 tiers finished) stopped its peer 0.24 s later with one line;
//!   the rerun resumed at the first tier not finished on every shard and
//!   its database (two shards a tier) answers `value` as a single-process
//!   one (tests/cluster.rs compares every record on 5×4).
//! * **Connect Four 7×6** (4.5·10¹² positions, ~1.1·10¹³ indices) needs,
//!   first, the gather replaced by requests or pushes to owners (a child
//!   tier whole on every machine would be 4.4 TB); then 64 machines of
//!   192–256 GB hold the widest tier group sharded, 0.3–0.8 PB cross the
//!   network (60–170 bytes a position), and the solve takes 2–4 hours,
//!   network-bound (240 core-hours of CPU at the measured 190 ns a
//!   position).
//!
//! [`Tiered::tiers`]: game_core::Tiered::tiers

mod address;
mod cell;
mod error;
mod fault;
mod layout;
mod link;
mod local;
mod net;
mod solution;
mod space;
mod threads;
mod updates;
mod worker;

use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use game_core::{IndexedUnmoves, OneTier, Tiered, Unmoves};
use game_db::Database;
pub use solver_retro::{HoldsTiers, Progress, Solved, Table, TierTables};

pub use error::Error;
pub use solution::ClusterSolution;

use space::{IndexedSpace, Space, TierSpace};

/// What a process's workers sent to other workers, summed over the
/// process's workers. Bytes are the records' serialized payload (timely's
/// message headers come on top, a few dozen bytes a batch).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Traffic {
    /// Parents the game gave one by one (or the pieces of a run cut at
    /// block boundaries), sent to a worker of another process (8 bytes
    /// each, or none when one joins the run or single before it).
    pub singles: u64,
    /// Runs of parents the game gave (cut at block boundaries), sent to a
    /// worker of another process (16 bytes each, or none when one extends
    /// the run before it).
    pub runs: u64,
    /// Parents those runs cover.
    pub run_parents: u64,
    /// Parent updates applied inside the process, to any of its blocks
    /// (nothing sent).
    pub local_updates: u64,
    /// Bytes of parent updates sent to other workers, as encoded: by timely
    /// to workers of other processes (inside a process nothing is sent, so
    /// this equals `remote_bytes`).
    pub bytes: u64,
    /// Of those, bytes to workers of other processes (over the network).
    pub remote_bytes: u64,
    /// The most bytes of parent updates one worker sent to other processes
    /// in one level.
    pub max_level_bytes: u64,
    /// The most bytes of parent updates one worker sent to other processes
    /// in one round ([`ClusterConfig::round_bytes`] and one batch of
    /// children at most).
    pub max_round_bytes: u64,
    /// Levels a worker found by scanning its cells, the level being too
    /// long to list ([`ClusterConfig::level_list_cap`]; summed over
    /// workers).
    pub scanned_levels: u64,
    /// Summaries sent (one to every worker a round; 24 bytes each by
    /// timely, or a slot each in memory when the process is the whole
    /// cluster).
    pub summaries: u64,
    /// Cells of solved tiers sent to other processes (4 bytes each).
    pub gather_cells_remote: u64,
    /// Levels run (summed over workers).
    pub levels: u64,
    /// Rounds (barriers) run (summed over workers).
    pub rounds: u64,
    /// Tiers solved (summed over workers).
    pub tiers: u64,
}

impl std::ops::AddAssign for Traffic {
    fn add_assign(&mut self, o: Traffic) {
        self.singles += o.singles;
        self.runs += o.runs;
        self.run_parents += o.run_parents;
        self.local_updates += o.local_updates;
        self.bytes += o.bytes;
        self.remote_bytes += o.remote_bytes;
        self.max_level_bytes = self.max_level_bytes.max(o.max_level_bytes);
        self.max_round_bytes = self.max_round_bytes.max(o.max_round_bytes);
        self.scanned_levels += o.scanned_levels;
        self.summaries += o.summaries;
        self.gather_cells_remote += o.gather_cells_remote;
        self.levels += o.levels;
        self.rounds += o.rounds;
        self.tiers += o.tiers;
    }
}

/// Where a cluster solve runs: timely's own flags (`-w THREADS -n
/// PROCESSES -p ID -h HOSTFILE`), embedding the solver's
/// [`solver_retro::Config`] (the memory limit, the progress callback, and
/// as its thread count each process's worker threads, `-w`).
///
/// ```
/// let c = solver_cluster::ClusterConfig::from_args(["-w", "2"])?;
/// assert_eq!((c.threads(), c.processes(), c.process(), c.workers()), (2, 1, 0, 2));
/// assert!(solver_cluster::ClusterConfig::from_args(["-w", "two"]).is_err());
/// // timely alone would read none as one.
/// assert!(solver_cluster::ClusterConfig::from_args(["-w", "0"]).is_err());
/// assert!(solver_cluster::ClusterConfig::from_args(["-n", "0"]).is_err());
/// assert!(solver_cluster::ClusterConfig::from_args(["-w"]).is_err());
/// // Channels join every pair of workers: at most 1,024 a process.
/// assert!(solver_cluster::ClusterConfig::from_args(["-w", "1024"]).is_ok());
/// assert!(solver_cluster::ClusterConfig::from_args(["-w", "1025"]).is_err());
/// // One process is process 0 (timely alone would ignore -p).
/// assert!(solver_cluster::ClusterConfig::from_args(["-n", "1", "-p", "3"]).is_err());
/// # Ok::<(), solver_cluster::Error>(())
/// ```
#[derive(Clone)]
pub struct ClusterConfig {
    timely: timely::Config,
    /// The solver's configuration: its memory limit and progress
    /// callback, and `-w` as its threads.
    retro: solver_retro::Config,
    process: usize,
    processes: usize,
    connect: Duration,
    peer_timeout: Duration,
    list_cap: Option<u64>,
    round_bytes: Option<u64>,
    rules: String,
}

impl std::fmt::Debug for ClusterConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClusterConfig")
            .field("config", &self.retro)
            .field("process", &self.process)
            .field("processes", &self.processes)
            .field("list_cap", &self.list_cap)
            .field("round_bytes", &self.round_bytes)
            .field("rules", &self.rules)
            .finish_non_exhaustive()
    }
}

impl ClusterConfig {
    /// Reads timely's flags: `-w` worker threads a process (1), `-n`
    /// processes (1), `-p` this process (0), `-h` a file of `host:port`
    /// lines, one a process in order (default `localhost:2101` on): the
    /// first `-n` lines, spaces around an address ignored, every one
    /// checked to be a `host:port` address (not looked up) before any
    /// process connects.
    ///
    /// # Errors
    /// [`Error::Args`] for flags timely does not take, a free argument, a
    /// process id out of range, or a hostfile line that is no `host:port`
    /// address (naming its line).
    pub fn from_args<I, S>(args: I) -> Result<ClusterConfig, Error>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        ClusterConfig::new(solver_retro::Config::default(), args)
    }

    /// The cluster of timely's flags `args` (as [`ClusterConfig::from_args`])
    /// running the solver's configuration `retro`: its memory limit and
    /// progress callback are the cluster's, and its thread count becomes
    /// each process's worker threads (`-w`, one by default).
    ///
    /// ```
    /// let config = solver_retro::Config::default().memory_limit(1 << 30).threads(8);
    /// let c = solver_cluster::ClusterConfig::new(config, ["-w", "2"])?;
    /// assert_eq!((c.limit(), c.threads(), c.config().thread_count()), (1 << 30, 2, 2));
    /// # Ok::<(), solver_cluster::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`ClusterConfig::from_args`].
    pub fn new<I, S>(retro: solver_retro::Config, args: I) -> Result<ClusterConfig, Error>
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let args = split_values(args.into_iter().map(Into::into));
        let asked = getopts_free(&args)?;
        let mut config = timely::Config::from_args(args.into_iter()).map_err(Error::Args)?;
        if let timely::CommunicationConfig::Cluster { addresses, .. } = &mut config.communication {
            // timely keeps a line's spaces (a trailing one made the port
            // invalid) and checks no address: one of a later process was
            // never read here, and this process waited 60 s for that one
            // and blamed it for not connecting.
            for (p, a) in addresses.iter_mut().enumerate() {
                if let Some(why) = address::fault(a.trim()) {
                    let file = asked.hostfile.as_deref().unwrap_or("the hostfile");
                    return Err(Error::Args(format!(
                        "-h {}: line {} ({:?}), the address of process {p}: {why}",
                        game_core::echo(file),
                        p + 1,
                        game_core::echo(a),
                    )));
                }
                *a = a.trim().to_owned();
            }
        }
        let (threads, process, processes) = match &config.communication {
            timely::CommunicationConfig::Thread => (1, 0, 1),
            timely::CommunicationConfig::Process(n)
            | timely::CommunicationConfig::ProcessBinary(n) => (*n, 0, 1),
            timely::CommunicationConfig::Cluster {
                threads,
                process,
                addresses,
                ..
            } => (*threads, *process, addresses.len()),
        };
        if threads == 0 {
            return Err(Error::Args("-w must be at least 1".into()));
        }
        if let timely::CommunicationConfig::Cluster { addresses, .. } = &config.communication {
            // Two processes cannot listen at one address: the second
            // fails at once, the first waits out the connection time.
            let mut seen = std::collections::HashMap::new();
            for (p, a) in addresses.iter().enumerate() {
                if let Some(q) = seen.insert(a.as_str(), p) {
                    return Err(Error::Args(format!(
                        "the hostfile gives processes {q} and {p} the same address {a:?}"
                    )));
                }
            }
        }
        // With one process timely reads no -p at all.
        let process_asked = asked.process.unwrap_or(process);
        if process >= processes || process_asked >= processes {
            return Err(Error::Args(format!(
                "-p {process_asked} is not a process of -n {processes} (0 to {})",
                processes - 1
            )));
        }
        Ok(ClusterConfig {
            timely: config,
            retro: retro.threads(threads),
            process,
            processes,
            connect: Duration::from_secs(60),
            peer_timeout: Duration::from_secs(60),
            list_cap: None,
            round_bytes: None,
            rules: String::new(),
        })
    }

    /// Calls `report` with progress (levels and tiers), from process 0's
    /// first worker only.
    #[must_use]
    pub fn progress(mut self, report: impl Fn(Progress) + Send + Sync + 'static) -> Self {
        self.retro = self.retro.progress(report);
        self
    }

    /// How long a process waits for the others to connect (60 s by
    /// default); past it the solve fails with [`Error::Start`].
    #[must_use]
    pub fn connect_timeout(mut self, wait: Duration) -> Self {
        self.connect = wait;
        self
    }

    /// How long a peer process may send nothing before the run fails with
    /// [`Error::Failed`] (60 s by default; at least 40 ms), counted from
    /// the last time it was heard from (before it is first heard from,
    /// while it may still be connecting to other processes, it is given
    /// [`ClusterConfig::connect_timeout`] if that is longer). Every process
    /// sends each peer a heartbeat whenever it has sent nothing for a
    /// second (or a quarter of this, if less), whatever its workers are
    /// doing, so only a process that stopped as a whole (a signal, a host
    /// gone without closing its connections, a network that drops
    /// everything) is silent that long; a peer that takes nothing sent to
    /// it for as long fails the run the same way. Processes given other
    /// timeouts (of a few seconds or more) serve each other alike.
    #[must_use]
    pub fn peer_timeout(mut self, wait: Duration) -> Self {
        self.peer_timeout = wait;
        self
    }

    /// The most memory a process may take for its tables (see
    /// [`held_bytes`]) and its channels ([`ClusterConfig::channel_bytes`]);
    /// a solve past it is refused before the processes
    /// connect. By default, what the machine really has available (as
    /// `solver_retro::Config`'s default).
    ///
    /// ```
    /// use solver_cluster::{ClusterConfig, Error};
    /// use games::{Fingers, FingersRules};
    ///
    /// let game = Fingers::new(FingersRules::default())?;
    /// // Five fingers a hand: 225 positions, 900 bytes of cells at most.
    /// let config = ClusterConfig::from_args(["-w", "1"])?.memory_limit(800);
    /// assert_eq!(config.limit(), 800);
    /// let refused = solver_cluster::solve_unmoves(game, &config, None).unwrap_err();
    /// assert!(matches!(refused, Error::Retro(solver_retro::Error::TooLarge(_))));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn memory_limit(mut self, bytes: u64) -> Self {
        self.retro = self.retro.memory_limit(bytes);
        self
    }

    /// Names the game and its rules, as every process of the cluster must
    /// be given them (say `"fingers 9 rollover"`). When the processes
    /// connect they compare their `-n` and `-w`, the game's tiers and
    /// their sizes, and these rules, and refuse to start with
    /// [`Error::Start`] when any differ: processes started with other
    /// options would otherwise solve a mixture of two games. Rules that
    /// change no tier's size (a variant of the moves) are caught only by
    /// this name. Empty by default.
    #[must_use]
    pub fn rules(mut self, rules: impl Into<String>) -> Self {
        self.rules = rules.into();
        self
    }

    /// The memory limit ([`ClusterConfig::memory_limit`]) in bytes.
    #[must_use]
    pub fn limit(&self) -> u64 {
        self.retro.limit()
    }

    /// The solver's configuration this cluster runs (its thread count is
    /// each process's worker threads).
    #[must_use]
    pub fn config(&self) -> &solver_retro::Config {
        &self.retro
    }

    /// The longest list of a level's positions a worker keeps, in ids
    /// (8 bytes each). A level that grows past it in any worker of a
    /// process is found instead by every worker of that process scanning
    /// its own shard's cells for the positions resolved at that level, as
    /// solver-retro's engine does.
    /// By default a sixteenth of a worker's share of the tier's cells
    /// (at least 1,024), so that a worker's lists (the level it takes,
    /// the one it builds, the one before) stay under 2 bytes a cell. A
    /// smaller cap saves memory and costs a scan of the shard a long
    /// level; the answers are the same either way.
    ///
    /// ```
    /// use solver_cluster::ClusterConfig;
    /// use games::{Fingers, FingersRules};
    /// use game_core::Indexed;
    ///
    /// let game = Fingers::new(FingersRules::default())?;
    /// let listed = solver_cluster::solve_unmoves(game.clone(), &ClusterConfig::from_args(["-w", "2"])?, None)?;
    /// let config = ClusterConfig::from_args(["-w", "2"])?.level_list_cap(1);
    /// let scanned = solver_cluster::solve_unmoves(game.clone(), &config, None)?;
    /// assert!(scanned.traffic().scanned_levels > 0);
    /// assert_eq!(listed.traffic().scanned_levels, 0);
    /// for i in 0..game.size() {
    ///     assert_eq!(scanned.value_at(0, i), listed.value_at(0, i));
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn level_list_cap(mut self, ids: u64) -> Self {
        self.list_cap = Some(ids);
        self
    }

    /// The most bytes of parent updates a worker sends to workers of
    /// other processes in one round. A level whose updates pass it runs
    /// in several rounds, each ended by a barrier after which the
    /// updates received are applied, so that what a process receives
    /// and holds at once stays bounded. By default half a byte a cell of
    /// the tier, shared among the workers of the cluster (at least 256
    /// KiB a worker): so at most that much is in flight, and held by its
    /// receivers, at once. Within one process nothing is sent and a level
    /// is always one round.
    #[must_use]
    pub fn round_bytes(mut self, bytes: u64) -> Self {
        self.round_bytes = Some(bytes);
        self
    }

    /// Worker threads in each process.
    #[must_use]
    pub fn threads(&self) -> usize {
        self.retro.thread_count()
    }

    /// This process's id.
    #[must_use]
    pub fn process(&self) -> usize {
        self.process
    }

    /// Processes in the cluster.
    #[must_use]
    pub fn processes(&self) -> usize {
        self.processes
    }

    /// Workers in the cluster.
    #[must_use]
    pub fn workers(&self) -> usize {
        self.threads() * self.processes
    }

    /// The bytes of a process's channels: timely joins each of its worker
    /// threads to every worker of the cluster, some 4 KiB each (measured:
    /// 64 workers in one process take 32 MB, 256 take 274 MB, 1,024 take
    /// 3.6 GB, whatever the game).
    ///
    /// ```
    /// let c = solver_cluster::ClusterConfig::from_args(["-w", "256"])?;
    /// assert_eq!(c.channel_bytes(), 256 * 256 * 4096);
    /// # Ok::<(), solver_cluster::Error>(())
    /// ```
    #[must_use]
    pub fn channel_bytes(&self) -> u64 {
        (self.threads() as u64)
            .saturating_mul(self.workers() as u64)
            .saturating_mul(4096)
    }
}

impl ClusterConfig {
    /// The steps of work a cluster of these workers takes to start and
    /// join for a solve of `tiers` tiers, even of a tiny game: timely's
    /// channels join every pair of workers, some 8,000 steps a pair and
    /// 1,000 more a pair and tier (measured on 2 cores: Magic Fingers at 5
    /// fingers a hand on 256 workers in one process 1.3 s, on 1,024 25 s;
    /// 4×4 Connect Four's 17 tiers on 600 workers 16 s). A command
    /// compares it with its work budget.
    ///
    /// ```
    /// let c = solver_cluster::ClusterConfig::from_args(["-w", "4"])?;
    /// assert_eq!(c.start_steps(2), 16 * 10_000);
    /// # Ok::<(), solver_cluster::Error>(())
    /// ```
    #[must_use]
    pub fn start_steps(&self, tiers: usize) -> u64 {
        let w = self.workers() as u64;
        let per_pair = (tiers as u64).saturating_mul(1_000).saturating_add(8_000);
        w.saturating_mul(w).saturating_mul(per_pair)
    }
}

/// The most worker threads a process (`-w`) and processes (`-n`) a
/// cluster takes: timely joins every worker to every other by channels,
/// so their memory grows with the square of the workers
/// ([`ClusterConfig::channel_bytes`]). `scripts/cluster-local.sh` refuses
/// more processes than this too, by the same figure: change both.
pub const MAX_WORKERS: usize = 1024;

/// The longest hostfile read: a `host:port` line for each of at most
/// [`MAX_WORKERS`] processes, with room to spare.
const MAX_HOSTFILE_BYTES: u64 = 1 << 20;

/// The flags of timely that take a value.
const VALUED: [(&str, &str); 4] = [
    ("-w", "--threads"),
    ("-n", "--processes"),
    ("-p", "--process"),
    ("-h", "--hostfile"),
];

/// Timely's flags with their values as separate arguments: `-w4` and
/// `--threads=4` become `-w 4` and `--threads 4`, so that one check reads
/// every form (timely's own parser takes all three).
fn split_values(args: impl Iterator<Item = String>) -> Vec<String> {
    let mut out = Vec::new();
    for a in args {
        let split = VALUED.iter().find_map(|&(short, long)| {
            if let Some(v) = a.strip_prefix(long).and_then(|r| r.strip_prefix('=')) {
                Some((long, v))
            } else {
                a.strip_prefix(short)
                    .filter(|v| !v.is_empty() && !a.starts_with("--"))
                    .map(|v| (short, v))
            }
        });
        match split {
            Some((flag, value)) => {
                let value = value.to_string();
                out.push(flag.to_string());
                out.push(value);
            }
            None => out.push(a),
        }
    }
    out
}

/// A hostfile timely may read: a plain file (a FIFO would wait for a
/// writer for ever, a device would never end) of at most
/// [`MAX_HOSTFILE_BYTES`].
fn check_hostfile(path: &str) -> Result<(), Error> {
    let meta = std::fs::metadata(path)
        .map_err(|e| Error::Args(format!("-h {path}: cannot read the hostfile: {e}")))?;
    if !meta.is_file() {
        return Err(Error::Args(format!(
            "-h {path}: the hostfile is not a plain file"
        )));
    }
    if meta.len() > MAX_HOSTFILE_BYTES {
        return Err(Error::Args(format!(
            "-h {path}: a hostfile of {} bytes, more than the {MAX_HOSTFILE_BYTES} a list of \
             {MAX_WORKERS} processes needs",
            meta.len()
        )));
    }
    // A line no host name can fill would be repeated whole in any error
    // about its address: refused here, shown by its start.
    let text = std::fs::read(path)
        .map_err(|e| Error::Args(format!("-h {path}: cannot read the hostfile: {e}")))?;
    if let Some((k, line)) = text
        .split(|&b| b == b'\n')
        .enumerate()
        .find(|(_, l)| l.len() > MAX_HOST_LINE)
    {
        let start = String::from_utf8_lossy(&line[..40]);
        return Err(Error::Args(format!(
            "-h {path}: line {} is {} bytes long ({start}…), more than a host:port \
             line can be ({MAX_HOST_LINE})",
            k + 1,
            line.len()
        )));
    }
    Ok(())
}

/// The longest hostfile line: a host name (at most 253 bytes), brackets,
/// a colon and a port, with room for spaces.
const MAX_HOST_LINE: usize = 300;

/// What [`getopts_free`] read besides timely.
struct Asked {
    /// The `-p` given, if any.
    process: Option<usize>,
    /// The `-h` given, if any.
    hostfile: Option<String>,
}

/// Refuses free arguments (timely's parser would ignore them) and counts
/// out of range.
fn getopts_free(args: &[String]) -> Result<Asked, Error> {
    let mut asked = Asked {
        process: None,
        hostfile: None,
    };
    let mut k = 0;
    while k < args.len() {
        let a = &args[k];
        match a.as_str() {
            "-w" | "-n" | "--threads" | "--processes" => {
                // timely reads 0 workers or processes as one: refuse it.
                let value = args.get(k + 1).map(String::as_str);
                match value.map(str::parse::<usize>) {
                    Some(Ok(n)) if (1..=MAX_WORKERS).contains(&n) => k += 2,
                    _ => {
                        return Err(Error::Args(format!(
                            "{a} takes a number from 1 to {MAX_WORKERS}, not {}",
                            value.map_or("nothing".to_string(), |v| format!(
                                "{:?}",
                                game_core::echo(v)
                            ))
                        )))
                    }
                }
            }
            "-p" | "--process" => {
                // Read here, not left to timely: its refusal of `-p -1`
                // was "invalid digit found in string", naming no flag.
                let value = args.get(k + 1).map(String::as_str);
                match value.map(str::parse::<usize>) {
                    Some(Ok(p)) => asked.process = Some(p),
                    _ => {
                        return Err(Error::Args(format!(
                            "-p takes this process's number, from 0 to one less than -n, not {}",
                            value.map_or("nothing".to_string(), |v| format!(
                                "{:?}",
                                game_core::echo(v)
                            ))
                        )))
                    }
                }
                k += 2;
            }
            "-h" | "--hostfile" => {
                if let Some(path) = args.get(k + 1) {
                    check_hostfile(path)?;
                    asked.hostfile = Some(path.clone());
                }
                k += 2;
            }
            "-r" | "-z" | "--report" | "--zerocopy" => k += 1,
            s if s.starts_with('-') && s.len() > 2 => k += 1,
            s => {
                return Err(Error::Args(format!(
                    "unexpected argument {:?}",
                    game_core::echo(s)
                )))
            }
        }
    }
    Ok(asked)
}

/// Solves every tier of `game`, children first, on the cluster `config`
/// describes (run the same call on every process). Every tier must be
/// left by every move ([`Tiered::leaves_tier`]); use
/// [`solve_tiers_unmoves`] for games whose moves may stay inside a tier.
/// With `db` (every process passes the database of the same, shared
/// directory, or none does), each worker writes its shard of every tier
/// solved and the run resumes at the first tier not finished on every
/// shard; see the crate docs, *The database*.
///
/// # Errors
/// [`Error::Args`], [`Error::Start`] (the processes could not connect,
/// or a process could not spawn its threads),
/// [`Error::Failed`] (a worker or process failed), [`Error::NeedsUnmoves`],
/// [`Error::Retro`] for a game that breaks its promises, [`Error::Db`].
pub fn solve_tiers<G>(
    game: G,
    config: &ClusterConfig,
    db: Option<Arc<Database>>,
) -> Result<ClusterSolution<G>, Error>
where
    G: Tiered + Clone + Send + Sync + 'static,
    G::Position: Send,
    G::Move: Send,
{
    solve_tiers_given(game, None, config, db)
}

/// Solves every tier of a game with [`Unmoves`]: the parents inside a
/// tier come from `unmoves`, filtered to the tier, as in
/// `solver_retro::solve_tiers_unmoves`.
///
/// # Errors
/// As [`solve_tiers`].
pub fn solve_tiers_unmoves<G>(
    game: G,
    config: &ClusterConfig,
    db: Option<Arc<Database>>,
) -> Result<ClusterSolution<G>, Error>
where
    G: Tiered + Unmoves + Clone + Send + Sync + 'static,
    G::Position: Send,
    G::Move: Send,
{
    solve_tiers_given(game, Some(solver_retro::TierUnmoves::of()), config, db)
}

/// Solves every tier of `game` on the cluster `config` describes, given
/// its unmoves if it has them ([`solver_retro::TierUnmoves`], as
/// `solver_retro::TierSolver::unmoves` takes them): the one entry point
/// for a caller generic over games with and without unmoves, the cluster
/// choosing how a tier's parents inside it are found — by the unmoves
/// ([`solve_tiers_unmoves`]) when given, else every tier must be left by
/// every move ([`solve_tiers`]).
///
/// # Errors
/// As [`solve_tiers`].
pub fn solve_tiers_given<G>(
    game: G,
    unmoves: Option<solver_retro::TierUnmoves<G>>,
    config: &ClusterConfig,
    db: Option<Arc<Database>>,
) -> Result<ClusterSolution<G>, Error>
where
    G: Tiered + Clone + Send + Sync + 'static,
    G::Position: Send,
    G::Move: Send,
{
    let space = TierSpace {
        game: game.clone(),
        parents: unmoves.map(solver_retro::TierUnmoves::parents_fn),
    };
    run(space, game, config, db)
}

/// Solves every tier of `game`, which has unmoves and children by index,
/// choosing how as `solver_retro::TierSolver` does on one machine with
/// `solver_retro::TierUnmoves::indexed`: a game of one loopy tier 0
/// indexed as a whole (its tier index its [`IndexedUnmoves`] index, the
/// promise that declares) by its index, as [`solve_unmoves`] — bulk child
/// counts, the terminal list, parents by index in runs; any other game
/// tier by tier, as [`solve_tiers_given`].
///
/// ```
/// use games::{Fingers, FingersPosition, FingersRules};
/// use solver_cluster::{ClusterConfig, Solved};
/// let game = Fingers::new(FingersRules::default())?;
/// let config = ClusterConfig::from_args(["-w", "2"])?;
/// let sol = solver_cluster::solve_tiers_indexed(game.clone(), &config, None)?;
/// let by_one = solver_retro::solve_unmoves(&game)?;
/// let start = FingersPosition::START;
/// assert_eq!(sol.value(&start), by_one.value(&start));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`solve_tiers`].
pub fn solve_tiers_indexed<G>(
    game: G,
    config: &ClusterConfig,
    db: Option<Arc<Database>>,
) -> Result<ClusterSolution<G>, Error>
where
    G: Tiered + IndexedUnmoves + game_core::IndexedChildren + Clone + Send + Sync + 'static,
    G::Position: Send,
    G::Move: Send,
{
    let unmoves = solver_retro::TierUnmoves::indexed();
    // The index's space is tier 0 of the game's index.
    if unmoves.solves_by_index(&game) && game.tiers()[..] == [0] {
        let space = IndexedSpace { game: game.clone() };
        run(space, game, config, db)
    } else {
        solve_tiers_given(game, Some(unmoves), config, db)
    }
}

/// Solves every index of an [`IndexedUnmoves`] game as one tier (tier 0
/// of [`OneTier`]), as `solver_retro::solve_unmoves_with`: bulk child
/// counts and the terminal list where the game has them, parents by
/// `unmove_indices` (runs of parents travel as runs).
///
/// # Errors
/// As [`solve_tiers`].
pub fn solve_unmoves<G>(
    game: G,
    config: &ClusterConfig,
    db: Option<Arc<Database>>,
) -> Result<ClusterSolution<OneTier<G>>, Error>
where
    G: IndexedUnmoves + Clone + Send + Sync + 'static,
    G::Position: Send,
    G::Move: Send,
{
    let space = IndexedSpace { game: game.clone() };
    run(space, OneTier(game), config, db)
}

/// The most memory a cluster solve of `game` takes on each process for
/// its cells, in 2-byte cells: every process ends holding every tier's
/// table; the largest tier is counted again for its blocks while they
/// are copied into its table; and with more than one tier, once more for
/// the blocks of finished tiers kept for the tiers to come (the process
/// keeps no more than that); and the largest tier that runs levels (one
/// whose moves can stay in it) once more, for the levels' lists and
/// updates: a worker's lists at most 1.5 bytes a cell of its shard
/// ([`ClusterConfig::level_list_cap`]) and the updates in flight at most
/// half a byte a cell of the tier ([`ClusterConfig::round_bytes`]). What
/// a solve checks against [`ClusterConfig::limit`] before the processes
/// connect. Not counted: buffers of a fixed size (a few hundred KiB a
/// worker and peer), a tier whose counts or remoteness need 4-byte cells,
/// which takes twice its 2-byte share, and the events of positions with
/// children in other tiers, which are checked as they are found.
///
/// ```
/// use game_core::{OneTier, Indexed};
/// use games::{Fingers, FingersRules};
///
/// let game = Fingers::new(FingersRules::default())?;
/// // One tier: its table, its blocks while they are copied, and its
/// // levels' lists and updates.
/// assert_eq!(solver_cluster::held_bytes(&OneTier(game.clone())), 6 * game.size());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn held_bytes<G: Tiered>(game: &G) -> u64 {
    held_cells(game).0.saturating_mul(2)
}

/// The cells a process holds at most ([`held_bytes`]), and of those the
/// cells' worth of blocks it keeps free for tiers to come: the largest
/// tier's, with more than one tier (none to come otherwise).
fn held_cells<G: Tiered>(game: &G) -> (u64, u64) {
    let tiers = game.tiers();
    let (sum, max, loopy) = tiers
        .iter()
        .fold((0u64, 0u64, 0u64), |(sum, max, loopy), &t| {
            let n = game.tier_size(t);
            let loopy = if game.leaves_tier(t) {
                loopy
            } else {
                loopy.max(n)
            };
            (sum.saturating_add(n), max.max(n), loopy)
        });
    let kept_free = if tiers.len() > 1 { max } else { 0 };
    let held = sum
        .saturating_add(max)
        .saturating_add(kept_free)
        .saturating_add(loopy);
    (held, kept_free)
}

/// What the processes of a cluster compare when they connect besides
/// their flags: a hash of the tiers in `order` with their sizes in
/// `space`, and of `rules` ([`ClusterConfig::rules`]).
fn solve_hash<S: Space>(space: &S, order: &[game_core::Tier], rules: &str) -> u64 {
    let mut bytes = Vec::with_capacity(16 * order.len() + rules.len() + 8);
    for &t in order {
        bytes.extend_from_slice(&t.to_le_bytes());
        bytes.extend_from_slice(&space.size(t).to_le_bytes());
    }
    bytes.extend_from_slice(&(rules.len() as u64).to_le_bytes());
    bytes.extend_from_slice(rules.as_bytes());
    game_db::rules_hash(&bytes)
}

fn run<S: Space, G: Tiered>(
    space: S,
    game: G,
    config: &ClusterConfig,
    db: Option<Arc<Database>>,
) -> Result<ClusterSolution<G>, Error> {
    let (held, kept_free) = held_cells(&game);
    let budget = game_core::Budget::unlimited()
        .with_memory(config.limit())
        .with_advice(
            "raise the memory limit (ClusterConfig::memory_limit, --memory)",
            "",
        );
    let held_bytes = held
        .saturating_mul(2)
        .saturating_add(config.channel_bytes());
    budget
        .check_memory(
            "every tier's table, held by every process of the cluster, and its workers' channels",
            held_bytes,
        )
        .map_err(solver_retro::Error::TooLarge)?;
    let order = space.tiers();
    let solve = solve_hash(&space, &order, &config.rules);
    let fault = fault::Fault::new();
    let ctx = Arc::new(worker::Ctx {
        space: Arc::new(space),
        shared: Arc::new(worker::Shared::new(
            config.workers(),
            config.threads(),
            fault.clone(),
            usize::try_from(kept_free.saturating_mul(2)).unwrap_or(usize::MAX),
        )),
        per_process: config.threads(),
        db,
        progress: config.retro.has_progress().then(|| {
            let retro = config.retro.clone();
            Arc::new(move |p| retro.report(p)) as worker::ProgressFn
        }),
        list_cap: config.list_cap,
        round_bytes: config.round_bytes,
        budget,
        held: held_bytes,
    });
    let (tx, rx) = mpsc::channel::<Result<Traffic, Error>>();
    let tx = Mutex::new(tx);
    let c = Arc::clone(&ctx);
    let net::Built {
        reserved,
        builders,
        others,
        links,
    } = net::build(
        config.timely.communication.clone(),
        config.connect,
        solve,
        config.peer_timeout,
        &fault,
    )?;
    // timely's `execute_from` would spawn the worker threads one by one
    // and, when one cannot be spawned, hang (see `threads.rs`): they are
    // spawned already, and only now given their allocators.
    let worker_config = config.timely.worker.clone();
    let running = reserved.start(builders, others, worker_config, move |w| {
        let fault = &c.shared.local.fault;
        // A panic in the worker's solve (a game's code, say, or a timely
        // operator) fails this run alone, as an error.
        let r = fault::catching(|| {
            let traffic = worker::work(w, &c)?;
            worker::finish(w, fault).map(|()| traffic)
        })
        .unwrap_or_else(|m| Err(Error::Failed(m)));
        if let Err(e) = &r {
            fault.set(e.to_string());
            // The worker steps no more (its state may be half-changed
            // by a panic) and its thread ends.
            let _ = fault::catching(|| worker::stop(w));
        }
        // Sent once the worker steps no more: see `finish_run`.
        let _ = tx
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .send(r);
    });
    let traffic = finish_run(config, &fault, rx, running, links)?;
    let mut tables = ctx.shared.tables(|t| ctx.space.size(t))?;
    // A tier of no indices has no blocks, so nothing filed it: held
    // empty, as solver-retro holds it.
    for &t in &order {
        if ctx.space.size(t) == 0 && !tables.iter().any(|(u, _)| *u == t) {
            tables.push((t, Table::from_narrow_parts(&[])?));
        }
    }
    Ok(ClusterSolution {
        game,
        tables: solver_retro::TierTables::new(order, tables),
        traffic,
        workers: config.workers(),
        processes: config.processes,
    })
}

/// How long a failed run waits, once the failure is seen, for its threads
/// to end before it returns all the same: a worker stops at its next
/// check for the failure, between steps, blocks and chunks of work (a
/// worker in a game's code, or in a panic hook's grip, may be long or
/// never). Past it the threads end in the background, as they stop.
const REAP: Duration = Duration::from_secs(10);

/// Waits for the `threads` results of a run's workers on `rx` and for
/// every thread of the run to end (its workers and, through their guard,
/// timely's network threads, all in `running`; the heartbeats of
/// `links`): the traffic, or the
/// run's error. A failure (a worker's error, or one `fault` records) cuts
/// the connections at once, so the peers see it; the threads are then
/// given [`REAP`] to end. A failed run so leaves no thread parked nor
/// socket open behind it.
fn finish_run(
    config: &ClusterConfig,
    fault: &fault::Fault,
    rx: mpsc::Receiver<Result<Traffic, Error>>,
    running: threads::Running,
    links: net::Links,
) -> Result<Traffic, Error> {
    let process = config.process;
    let failed = |m: String| Error::Failed(format!("process {process}: {m}"));
    let mut traffic = Traffic::default();
    let mut failure: Option<Error> = None;
    // When the failure was seen: the connections were cut then.
    let mut since: Option<std::time::Instant> = None;
    let note = |e: Error, failure: &mut Option<Error>| {
        // A worker's own error says more than the failure it caused the
        // others to see.
        if failure
            .as_ref()
            .is_none_or(|f| matches!(f, Error::Failed(_)) && !matches!(e, Error::Failed(_)))
        {
            *failure = Some(e);
        }
    };
    let reaped = |since: Option<std::time::Instant>| since.is_some_and(|t| t.elapsed() >= REAP);
    // A failure `fault` recorded is the run's (unless one is already);
    // a run that has failed cuts the connections once, so that its peers
    // see it now, not when this process exits.
    let watch = |failure: &mut Option<Error>,
                 since: &mut Option<std::time::Instant>,
                 links: &net::Links| {
        if failure.is_none() {
            if let Some(m) = fault.get() {
                note(failed(m), failure);
            }
        }
        if failure.is_some() && since.is_none() {
            links.cut();
            *since = Some(std::time::Instant::now());
        }
    };
    let mut got = 0;
    while got < config.threads() && !reaped(since) {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(Ok(t)) => {
                traffic += t;
                got += 1;
            }
            Ok(Err(e)) => {
                got += 1;
                let e = match e {
                    Error::Failed(m) => failed(m),
                    e => e,
                };
                note(e, &mut failure);
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                note(
                    failed("the worker threads ended without a result".into()),
                    &mut failure,
                );
                break;
            }
        }
        watch(&mut failure, &mut since, &links);
    }
    // Every worker is done, but timely's network threads wait for each
    // peer's clean end of stream: a peer that fails after the last
    // barrier (an update it applies then, its database) never sends it,
    // and the link that reads from it records the failure and, released,
    // ends the stream for timely. Workers still running are waited for
    // here first (they stop at the failure).
    let links = Arc::new(links);
    let (joined, join) = mpsc::channel();
    let joiner = {
        let fault = fault.clone();
        let links = Arc::clone(&links);
        let left = config.threads() - got;
        let threads = running.threads;
        // A thread spawned with the workers (`threads.rs`): a run that
        // started never fails to wait for its end.
        running.joiner.run(move || {
            for _ in 0..left {
                if rx.recv().is_err() {
                    break;
                }
            }
            // No worker steps any more: nothing reads what the links
            // hand timely's threads.
            fault.release();
            let results = threads.join();
            links.join();
            let _ = joined.send(results);
        })
    };
    loop {
        match join.recv_timeout(Duration::from_millis(100)) {
            Ok(results) => {
                if let Some(j) = joiner {
                    let _ = j.join();
                }
                for r in results {
                    if let Err(m) = r {
                        note(Error::Failed(m), &mut failure);
                    }
                }
                break;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                watch(&mut failure, &mut since, &links);
                if reaped(since) {
                    break;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                note(
                    failed("the worker threads ended without a result".into()),
                    &mut failure,
                );
                break;
            }
        }
    }
    match failure {
        Some(e) => Err(e),
        None => Ok(traffic),
    }
}
