//! The command line: `gamesolve`'s commands, and every shared command of
//! a game declared once ([`CliGame`]) for a user's own binary
//! ([`main_for`]).
//!
//! A tiered game of your own, with `solve [--db DIR] [--cluster …]`,
//! `value`, `analyze`, `check` and `play`, is one `impl CliGame` and a
//! `main`; `examples/tiered_tic_tac_toe.rs` is one in full:
//!
//! ```text
//! fn main() -> std::process::ExitCode {
//!     gamesolve::cli::main_for::<TicTacToe>()
//! }
//! ```

mod analyze;
mod args;
mod connect4;
mod dobutsu;
mod dot;
mod exit;
mod fingers;
mod grundy;
mod play;
mod play_tiered;
mod power_game;
mod progress;
mod register;
mod serve;
mod solve_db;
mod stones;
mod subtraction;
mod teeko;
mod tiered;

use clap::{Parser, Subcommand};
use game_core::{echo, grouped, plural, Budget};
use serde_json::Value as Json;

pub use register::{
    check_indexed_unmoves, main_for, solve_on_cluster, tier_solver, CliGame, HasUnmoves, NoOptions,
};

/// What a command can fail with: a one-line message.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A game's.
    #[error(transparent)]
    Games(#[from] games::Error),
    /// Backward induction's.
    #[error(transparent)]
    Dp(#[from] solver_dp::Error),
    /// A game's promises or rules.
    #[error(transparent)]
    Core(#[from] game_core::Error),
    /// Retrograde analysis's.
    #[error(transparent)]
    Retro(#[from] solver_retro::Error),
    /// Grundy values'.
    #[error(transparent)]
    Grundy(#[from] sprague_grundy::Error),
    /// The cluster's.
    #[error(transparent)]
    Cluster(#[from] solver_cluster::Error),
    /// Past the memory or work budget.
    #[error(transparent)]
    TooLarge(#[from] game_core::TooLarge),
    /// The server's (`serve`).
    #[error(transparent)]
    Server(#[from] game_server::Error),
    /// A command line, position or database refused, in words.
    #[error("{0}")]
    Usage(String),
    /// A certificate that did not check.
    #[error("the certificate check failed: {0}")]
    Certificate(String),
    /// Output that could not be written.
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
    /// Input that could not be read.
    #[error("cannot read input: {0}")]
    Input(std::io::Error),
    /// The command's thread pool could not start (the system refused the
    /// threads or the memory for their stacks).
    #[error("cannot start {}: {source}", plural(*.threads as u64, "thread"))]
    Threads {
        /// The threads asked for.
        threads: usize,
        /// Why they did not start.
        source: rayon::ThreadPoolBuildError,
    },
    /// The address space left under the limit (`ulimit -v`) does not
    /// hold the threads' stacks ([`THREAD_SPACE`] each) and the megabyte
    /// beside them ([`threads_space`]).
    #[error(
        "cannot start {}: they need {} of address space (2.5 MiB a thread and 1 MiB beside), and {} is free under the limit",
        plural(*.threads as u64, "thread"),
        game_core::budget::human_bytes_apart(*.needed, *.free).0,
        game_core::budget::human_bytes_apart(*.needed, *.free).1
    )]
    ThreadStacks {
        /// The threads asked for.
        threads: usize,
        /// The address space they need ([`threads_space`]), in bytes.
        needed: u64,
        /// The address space free under the limit, in bytes.
        free: u64,
    },
}

/// The address space a started thread takes, with room to spare: its
/// stack (2 MiB, std's and rayon's default), std's signal stack and the
/// guard pages. A thread whose signal stack cannot be mapped is not
/// refused but aborts the program (std panics in the new thread: seen
/// under `ulimit -v 24000`), so the room is checked before it starts.
pub const THREAD_SPACE: u64 = 5 << 19;

/// The address space `n` threads need free before they start: a
/// [`THREAD_SPACE`] each and a megabyte beside, for what they allocate.
/// A refusal quotes this whole figure, so it is never less than what it
/// says is free.
pub const fn threads_space(n: usize) -> u64 {
    THREAD_SPACE * n as u64 + (1 << 20)
}

/// Solve two-player games of perfect information.
#[derive(Debug, Parser)]
#[command(name = "gamesolve", version, about, long_about = None)]
struct Cli {
    #[command(flatten)]
    globals: Globals,
    #[command(subcommand)]
    command: Command,
}

/// The flags every command takes: the output's form, threads and budget.
#[derive(Debug, clap::Args)]
struct Globals {
    /// Print exactly one JSON object instead of text; an error is the
    /// object {"error": MESSAGE} on stderr, with a non-zero exit.
    #[arg(long, global = true)]
    json: bool,
    /// Threads for solving and checking (default: one per core). Results
    /// are the same for any number.
    #[arg(long, global = true, value_name = "N")]
    threads: Option<usize>,
    /// The most memory a command may use, e.g. 4G, 512M or 1000000 (bytes).
    /// Default: what is really available (the least of the machine's
    /// available memory, the cgroup limit and `ulimit -v`). The program
    /// itself (about 12 MB with up to 8 threads) is not counted; each
    /// thread past 8 is, at 256 KiB.
    #[arg(long, global = true, value_name = "BYTES", value_parser = parse_bytes)]
    memory: Option<u64>,
    /// The most work a command may do, in steps of a few nanoseconds each,
    /// e.g. 1e11 [default: 4e9, about ten seconds]. Commands estimate their
    /// work first and refuse beyond it; searches stop when it is spent.
    #[arg(long, global = true, value_name = "STEPS", value_parser = parse_steps)]
    max_work: Option<u64>,
}

/// The default work budget, in steps: about ten seconds of work in a
/// release build (a step is about a nanosecond).
pub const DEFAULT_WORK: u64 = 4_000_000_000;

/// Steps of work a byte of output costs (formatting and writing it).
pub const OUTPUT_STEPS_PER_BYTE: u64 = 10;

/// What every command is run with: the output form and the budget.
pub struct Ctx {
    /// Print JSON instead of text.
    pub json: bool,
    /// The memory and work a command may use.
    pub budget: Budget,
    /// The threads the command's pool has (`--threads`, else
    /// `RAYON_NUM_THREADS`, else one a core, as started): every engine's
    /// [`solver_retro::Config`] is given this count.
    threads: usize,
}

/// Threads whose own memory (stacks, allocator caches) is left out of
/// `--memory` with the program's: the usual pools of a machine.
const FREE_THREADS: usize = 8;

/// The memory each thread past [`FREE_THREADS`] counts against
/// `--memory`: about 170 KiB measured a thread (1,024 threads took 183 MB
/// for a command that takes 12 MB on one), rounded up.
const THREAD_BYTES: u64 = 256 << 10;

impl Ctx {
    /// The context of a command run on `threads` threads: its budget is
    /// `memory` (else what is available) less what the threads past
    /// [`FREE_THREADS`] take, refused when they would take it all.
    fn new(
        json: bool,
        memory: Option<u64>,
        work: Option<u64>,
        threads: usize,
    ) -> Result<Self, Error> {
        let budget = memory
            .map_or_else(Budget::available, |m| Budget::unlimited().with_memory(m))
            .with_work(work.unwrap_or(DEFAULT_WORK))
            .with_advice(
                RAISE_MEMORY,
                "raise it with --max-work STEPS (e.g. --max-work {enough})",
            );
        let extra = threads.saturating_sub(FREE_THREADS) as u64 * THREAD_BYTES;
        let Some(left) = budget.memory().checked_sub(extra).filter(|&m| m > 0) else {
            let limit = game_core::budget::human_bytes(budget.memory());
            let (limit, or) = match memory {
                Some(_) => (format!("--memory {limit} allows"), " or raise --memory"),
                None => (format!("the {limit} of memory available"), ""),
            };
            return Err(Error::Usage(format!(
                "{threads} threads take about {} of memory themselves (256 KiB each past the first {FREE_THREADS}), more than {limit}: use fewer --threads{or}",
                game_core::budget::human_bytes(extra)
            )));
        };
        let budget = budget.with_memory(left);
        Ok(Ctx {
            json,
            budget,
            threads,
        })
    }

    /// A solver configuration within the command's memory limit
    /// (`--memory`, else what is really available).
    pub fn config(&self) -> solver_retro::Config {
        self.config_beside(0)
    }

    /// The solvers' [`solver_retro::Config`] for work done while `held`
    /// bytes (a solved table, say) stay in memory: its limit is what they
    /// leave of the budget.
    pub fn config_beside(&self, held: u64) -> solver_retro::Config {
        solver_retro::Config::default()
            .memory_limit(self.budget.memory().saturating_sub(held))
            .threads(self.threads)
    }

    /// The threads the command runs on (its pool's).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// A report built in the one form that will be printed.
    pub fn report(&self, text: impl FnOnce() -> String, json: impl FnOnce() -> Json) -> Report {
        if self.json {
            Report::new(String::new(), json())
        } else {
            Report::new(text(), Json::Null)
        }
    }

    /// Checks a command's whole cost before it starts: `work` steps of
    /// computation, `memory` bytes of tables, and `output` bytes printed
    /// (held in memory, then written: a byte of output counts as a byte of
    /// memory and [`OUTPUT_STEPS_PER_BYTE`] steps of work).
    pub fn check(&self, what: &str, work: u64, memory: u64, output: u64) -> Result<(), Error> {
        self.budget
            .check_memory(what, memory.saturating_add(output))?;
        self.budget.check_work(
            what,
            work.saturating_add(output.saturating_mul(OUTPUT_STEPS_PER_BYTE)),
        )?;
        Ok(())
    }

    /// The budget left for a computation after `output` bytes of printing.
    pub fn budget_after_output(&self, output: u64) -> Budget {
        let left = self
            .budget
            .work()
            .saturating_sub(output.saturating_mul(OUTPUT_STEPS_PER_BYTE));
        self.budget.clone().with_work(left)
    }
}

#[derive(Debug, Subcommand)]
enum Command {
    /// The Stones parity game (The Perl Journal #7).
    #[command(subcommand)]
    Stones(stones::Stones),
    /// PowerGame (SRM 384): who wins, and after how many moves.
    PowerGame(power_game::Args),
    /// Win/loss table of a subtraction game.
    Subtraction(subtraction::Args),
    /// Magic Fingers (Ruby Quiz #120): solve, certify, tabulate, draw.
    #[command(subcommand)]
    Fingers(fingers::FingersCmd),
    /// Connect Four on a W×H board: solve tier by tier, value of a position.
    #[command(subcommand)]
    Connect4(connect4::Connect4Cmd),
    /// Teeko: solve (tier by tier), value of a position, analyze, check.
    #[command(subcommand)]
    Teeko(tiered::FixedCmd),
    /// Dobutsu shogi: solve, value of a position, analyze, check.
    #[command(subcommand)]
    Dobutsu(tiered::FixedCmd),
    /// Grundy values of heap games, with proven periods.
    #[command(subcommand)]
    Grundy(grundy::GrundyCmd),
    /// Nim (or bounded Nim): who wins, and a winning move.
    Nim(grundy::NimArgs),
    /// The knights game: the Grundy table, or who wins with knights placed.
    Knights(grundy::KnightsArgs),
    /// Play against the perfect player in the terminal.
    #[command(subcommand)]
    Play(play::PlayCmd),
    /// A JSON API and a web explorer of solved games, on localhost.
    Serve(serve::Args),
}

/// What a command prints: text for people, an object for `--json`.
pub struct Report {
    text: String,
    json: Json,
    /// Output already rendered in the form asked for (large outputs are
    /// written once, not built as a JSON value first).
    rendered: Option<String>,
    /// The parts of the run a solve timed (`("solve", 8.9)`, …): text
    /// output then ends with the whole run's time and these
    /// ([`time_line`]); `None` for a command that prints no time.
    times: Option<Vec<(&'static str, f64)>>,
}

impl Report {
    fn new(text: impl Into<String>, json: Json) -> Self {
        Report {
            text: text.into(),
            json,
            rendered: None,
            times: None,
        }
    }

    /// Output already in the form asked for (text, or one JSON object).
    fn rendered(out: String) -> Self {
        Report {
            text: String::new(),
            json: Json::Null,
            rendered: Some(out),
            times: None,
        }
    }

    /// Ends the text output with the run's time and its timed `parts`
    /// (seconds each, in the order they ran; zero-length parts left out).
    /// `--json` keeps its own `seconds` fields and gets no such line.
    fn timed(mut self, parts: &[(&'static str, f64)]) -> Self {
        self.times = Some(parts.to_vec());
        self
    }

    /// The report of a cluster process other than 0, which finished its
    /// workers' shards: process 0 reports the solve. Text prints nothing;
    /// `--json` the one object `{"cluster": {"process": K, "finished":
    /// "its shards"}}` (stdout held nothing, where one object is promised).
    fn follower(process: usize, ctx: &Ctx) -> Self {
        if !ctx.json {
            return Report::rendered(String::new());
        }
        Report::new(
            String::new(),
            serde_json::json!({
                "cluster": {
                    "process": process,
                    "finished": "its shards; process 0 reports the solve",
                }
            }),
        )
    }
}

impl Error {
    /// The refusal inside this error, whichever crate made it.
    fn too_large_mut(&mut self) -> Option<&mut game_core::TooLarge> {
        match self {
            Error::TooLarge(t)
            | Error::Retro(solver_retro::Error::TooLarge(t))
            | Error::Cluster(solver_cluster::Error::Retro(solver_retro::Error::TooLarge(t)))
            | Error::Games(games::Error::TooLarge(t))
            | Error::Dp(solver_dp::Error::TooLarge(t))
            | Error::Grundy(sprague_grundy::Error::TooLarge(t)) => Some(t),
            _ => None,
        }
    }
}

/// The advice a memory refusal gives here: the flag, not the library's
/// setting that a solver's own refusal names, with an amount that would
/// do (it was always "e.g. --memory 16G", whatever the need).
const RAISE_MEMORY: &str =
    "raise it with --memory BYTES (e.g. --memory {enough}) if the machine really has it";

/// The advice a work refusal gives when the round budget it would name is
/// past the largest `--max-work` takes (u64::MAX steps).
const RAISE_WORK_MOST: &str =
    "raise it with --max-work STEPS (at most --max-work 18446744073709551615)";

/// The most threads `--threads` (or `RAYON_NUM_THREADS`) may ask for:
/// the most a solve runs on.
const MAX_THREADS: usize = solver_retro::Config::MAX_THREADS;

/// When the run began: [`mark_start`], else the first time it was asked.
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// Marks the start of the run, from which the last line of a solve's text
/// output measures the whole run's time: a binary's `main` calls it first
/// ([`main`] and [`main_for`] call it too; the first call counts).
pub fn mark_start() {
    STARTED.get_or_init(std::time::Instant::now);
}

/// Seconds since [`mark_start`].
fn run_seconds() -> f64 {
    STARTED
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs_f64()
}

/// `0.004 s`, `0.27 s`, `9.75 s`, `42.1 s`, `1,234 s`: seconds with three
/// figures or so.
pub fn seconds_words(s: f64) -> String {
    if s < 0.1 {
        format!("{s:.3} s")
    } else if s < 10.0 {
        format!("{s:.2} s")
    } else if s < 100.0 {
        format!("{s:.1} s")
    } else {
        format!("{} s", grouped(s.round() as u64))
    }
}

/// The last line of a solve's text output: `Done in 9.75 s: solve 8.90 s,
/// certificate 0.30 s, walk 0.50 s, other 0.05 s.` — the whole run, from
/// [`mark_start`] to now (`total` seconds), and its timed `parts`; what
/// they leave (start-up, checks, output) is `other` when it is a hundredth
/// of a second or more.
pub fn time_line(total: f64, parts: &[(&str, f64)]) -> String {
    let mut words: Vec<String> = parts
        .iter()
        .filter(|(_, s)| *s > 0.0)
        .map(|(name, s)| format!("{name} {}", seconds_words(*s)))
        .collect();
    let rest = total - parts.iter().map(|(_, s)| s).sum::<f64>();
    if rest >= 0.01 && !words.is_empty() {
        words.push(format!("other {}", seconds_words(rest)));
    }
    if words.is_empty() {
        format!("Done in {}.", seconds_words(total))
    } else {
        format!("Done in {}: {}.", seconds_words(total), words.join(", "))
    }
}

/// The `gamesolve` program: parses its command line, runs it, and returns
/// the exit code (see the binary).
pub fn main() -> std::process::ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    mark_start();
    exit::main_with(Cli::command, |matches| {
        let cli = Cli::from_arg_matches(&matches).map_err(|e| Error::Usage(e.to_string()))?;
        run(cli)
    })
}

/// Runs a parsed command line.
fn run(cli: Cli) -> Result<(), Error> {
    run_with(&cli.globals, |ctx| run_command(cli.command, ctx))
}

/// The report of `command`, or `None` when it printed as it went (`play`).
fn run_command(command: Command, ctx: &Ctx) -> Result<Option<Report>, Error> {
    Ok(Some(match command {
        Command::Stones(s) => stones::run(s, ctx)?,
        Command::PowerGame(a) => power_game::run(&a, ctx)?,
        Command::Subtraction(a) => subtraction::run(&a, ctx)?,
        Command::Fingers(f) => fingers::run(f, ctx)?,
        Command::Connect4(c) => connect4::run(c, ctx)?,
        Command::Teeko(c) => teeko::run(c, ctx)?,
        Command::Dobutsu(c) => dobutsu::run(c, ctx)?,
        Command::Grundy(g) => grundy::run(g, ctx)?,
        Command::Nim(a) => grundy::nim(&a, ctx)?,
        Command::Knights(a) => grundy::knights(&a, ctx)?,
        Command::Play(p) => {
            play::run(p, ctx)?;
            return Ok(None);
        }
        Command::Serve(a) => {
            serve::run(a, ctx)?;
            return Ok(None);
        }
    }))
}

/// Runs `command` under the flags `globals` (threads, budget), prints its
/// report, and makes the refusals' advice the command line's.
fn run_with(
    globals: &Globals,
    command: impl FnOnce(&Ctx) -> Result<Option<Report>, Error> + Send,
) -> Result<(), Error> {
    run_commands(globals, command).map_err(|mut e| {
        if let Some(t) = e.too_large_mut() {
            use game_core::budget::Resource;
            match t.resource {
                Resource::Memory => t.raise = RAISE_MEMORY.into(),
                // Past 10^19 steps the round budget advised would be 2e19,
                // past what --max-work takes: name the largest it does.
                Resource::Work if t.needed > 10_000_000_000_000_000_000 => {
                    t.raise = RAISE_WORK_MOST.into();
                }
                _ => {}
            }
        }
        e
    })
}

/// [`run_with`], before the refusals' advice is made the command line's: the
/// command runs inside its own thread pool ([`thread_pool`]), and every
/// parallel loop in it, and every `rayon::current_num_threads()`, sees
/// that pool. Rayon's global pool is never used: its lazy start panicked
/// ("The global thread pool has not been initialized") where the system
/// refused its threads, as under some `ulimit -v`.
fn run_commands(
    cli: &Globals,
    command: impl FnOnce(&Ctx) -> Result<Option<Report>, Error> + Send,
) -> Result<(), Error> {
    let pool = thread_pool(cli.threads)?;
    pool.install(|| run_in_pool(cli, command))
}

/// The pool a command runs in: `--threads` threads, else
/// `RAYON_NUM_THREADS`, else one a core. A count asked for (the flag or
/// the variable) that cannot start is refused ([`Error::Threads`]); the
/// default count falls back to fewer threads, down to one, and at last
/// to this thread alone (results are the same for any number). Under
/// `ulimit -v 145000` (KB) the allocator's arena left no room for a
/// second thread's stack.
fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, Error> {
    let env = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0);
    let asked = match (threads, env) {
        (Some(n), _) => {
            if n == 0 || n > MAX_THREADS {
                return Err(Error::Usage(format!(
                    "--threads takes 1..={MAX_THREADS} threads, not {n}"
                )));
            }
            Some(n)
        }
        // Without --threads, RAYON_NUM_THREADS (0 or a word: one a core)
        // has the same bound (20,000 threads took minutes to start for a
        // tiny game).
        (None, Some(n)) if n > MAX_THREADS => {
            return Err(Error::Usage(format!(
                "RAYON_NUM_THREADS takes 1..={MAX_THREADS} threads (as --threads), not {n}"
            )));
        }
        (None, env) => env,
    };
    // The address space free under a limit, read once (`/proc/self/smaps`)
    // for every count tried; `None` without a limit.
    let free = game_core::budget::address_space_limit_now()
        .and_then(|_| game_core::budget::MemoryLimits::current().address_space);
    let build = |n: usize| {
        let needed = threads_space(n);
        if let Some(free) = free {
            if free < needed {
                return Err(Error::ThreadStacks {
                    threads: n,
                    needed,
                    free,
                });
            }
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|source| Error::Threads { threads: n, source })
    };
    // One thread is this one, when no other can start: a pool of the
    // current thread starts none (its registry is left to the process's
    // end, as rayon does with a pool that uses the current thread).
    let alone = |e: Error| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .use_current_thread()
            .build()
            .map_err(|_| e)
    };
    if let Some(n) = asked {
        return match build(n) {
            Err(e) if n == 1 => alone(e),
            r => r,
        };
    }
    let cores = std::thread::available_parallelism()
        .map_or(1, std::num::NonZeroUsize::get)
        .min(MAX_THREADS);
    let mut n = cores;
    loop {
        match build(n) {
            Ok(pool) => return Ok(pool),
            Err(_) if n > 1 => n /= 2,
            // Refused as the count the default asked for.
            Err(Error::Threads { source, .. }) => {
                return alone(Error::Threads {
                    threads: cores,
                    source,
                })
            }
            Err(Error::ThreadStacks { free, .. }) => {
                return alone(Error::ThreadStacks {
                    threads: cores,
                    needed: threads_space(cores),
                    free,
                })
            }
            Err(e) => return Err(e),
        }
    }
}

/// [`run_commands`] inside the command's pool.
fn run_in_pool(
    cli: &Globals,
    command: impl FnOnce(&Ctx) -> Result<Option<Report>, Error>,
) -> Result<(), Error> {
    let ctx = Ctx::new(
        cli.json,
        cli.memory,
        cli.max_work,
        rayon::current_num_threads(),
    )?;
    let Some(report) = command(&ctx)? else {
        return Ok(());
    };
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = if let Some(r) = &report.rendered {
        if r.is_empty() {
            Ok(())
        } else if r.ends_with('\n') {
            write!(out, "{r}")
        } else {
            writeln!(out, "{r}")
        }
    } else if cli.json {
        writeln!(out, "{}", report.json)
    } else {
        let text = report.text.trim_end_matches('\n');
        match &report.times {
            // Measured now, as the last thing before the output is written.
            Some(parts) => writeln!(out, "{text}\n{}", time_line(run_seconds(), parts)),
            None => writeln!(out, "{text}"),
        }
    };
    match written.and_then(|()| out.flush()) {
        // A reader that stopped early (`| head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// A number of bytes: `4096`, `512K`, `4G`, `1.5GiB`, `2TB`, up to `16E`
/// (K, M, G, T, P, E are powers of 1024).
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        "p" | "pb" | "pib" => 50,
        "e" | "eb" | "eib" => 60,
        _ => {
            return Err(format!(
                "'{}' is not an amount of memory such as 4G or 512M",
                echo(s)
            ))
        }
    };
    let v: f64 = num.parse().map_err(|_| {
        format!(
            "'{}' is not an amount of memory such as 4G or 512M",
            echo(s)
        )
    })?;
    let bytes = v * (1u64 << shift) as f64;
    // Up to 2^64 (16 EiB, as near as a float says u64::MAX), taken as
    // u64::MAX.
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 {
        return Err(format!(
            "'{}' is not an amount of memory between 1 byte and 16 EiB",
            echo(s)
        ));
    }
    Ok(bytes as u64)
}

/// A number of steps: `1000000`, `1e10`, `5G` (k, M, G, T are powers of
/// 1000).
pub fn parse_steps(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let bad = || format!("'{}' is not a number of steps such as 1e10 or 5G", echo(s));
    let (num, mult) = match t.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() && !t.ends_with(['e', 'E']) => {
            let m = match c.to_ascii_lowercase() {
                'k' => 1e3,
                'm' => 1e6,
                'g' => 1e9,
                't' => 1e12,
                _ => return Err(bad()),
            };
            (&t[..i], m)
        }
        _ => (t, 1.0),
    };
    if num.is_empty() || !num.starts_with(|c: char| c.is_ascii_digit()) {
        return Err(bad());
    }
    let v: f64 = num.parse().map_err(|_| bad())?;
    let steps = v * mult;
    if !steps.is_finite() || steps < 1.0 || steps > u64::MAX as f64 {
        return Err(format!(
            "'{}' is not a number of steps between 1 and 1.8e19",
            echo(s)
        ));
    }
    Ok(steps as u64)
}

/// `1 ply`, `26 plies`.
pub fn plies(n: impl Into<u64>) -> String {
    plural(n, "ply")
}

/// A comma-separated list of numbers such as `1,3,4`.
#[derive(Debug, Clone)]
pub struct List(pub Vec<u64>);

/// Parses a [`List`].
pub fn parse_list(s: &str) -> Result<List, String> {
    if s.trim().is_empty() {
        return Ok(List(Vec::new()));
    }
    s.split(',')
        .map(|x| {
            x.trim()
                .parse::<u64>()
                .map_err(|e| format!("'{}' is not a non-negative number: {e}", echo(x)))
        })
        .collect::<Result<_, _>>()
        .map(List)
}
