//! Command-line parsing and dispatch.

mod analyze;
mod connect4;
mod dobutsu;
mod fingers;
mod grundy;
mod play;
mod power_game;
mod progress;
mod stones;
mod subtraction;
mod teeko;
mod tiered;

use clap::{Parser, Subcommand};
use serde_json::Value as Json;

/// What a command can fail with: a one-line message.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Games(#[from] games::Error),
    #[error(transparent)]
    Dp(#[from] solver_dp::Error),
    #[error(transparent)]
    Core(#[from] game_core::Error),
    #[error(transparent)]
    Retro(#[from] solver_retro::Error),
    #[error(transparent)]
    Grundy(#[from] sprague_grundy::Error),
    #[error("the certificate check failed: {0}")]
    Certificate(String),
    #[error("{0}")]
    Usage(String),
    #[error("cannot write output: {0}")]
    Io(#[from] std::io::Error),
}

/// Solve two-player games of perfect information.
#[derive(Debug, Parser)]
#[command(name = "gamesolve", version, about, long_about = None)]
pub struct Cli {
    /// Print exactly one JSON object instead of text.
    #[arg(long, global = true)]
    json: bool,
    /// Threads for solving and checking (default: one per core). Results
    /// are the same for any number.
    #[arg(long, global = true, value_name = "N")]
    threads: Option<usize>,
    #[command(subcommand)]
    command: Command,
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
    Teeko(teeko::TeekoCmd),
    /// Dobutsu shogi: solve, value of a position, analyze, check.
    #[command(subcommand)]
    Dobutsu(dobutsu::DobutsuCmd),
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
}

/// What a command prints: text for people, an object for `--json`.
pub struct Report {
    text: String,
    json: Json,
}

impl Report {
    fn new(text: impl Into<String>, json: Json) -> Self {
        Report {
            text: text.into(),
            json,
        }
    }

    /// Adds `n` positions checked before to a `check` report.
    fn add_positions(&mut self, n: u64) {
        if let Some(p) = self.json.get("positions").and_then(Json::as_u64) {
            self.json["positions"] = Json::from(p + n);
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<(), Error> {
    if let Some(n) = cli.threads {
        if n == 0 || n > 1024 {
            return Err(Error::Usage(format!(
                "--threads takes 1..=1024 threads, not {n}"
            )));
        }
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
            .map_err(|e| Error::Usage(format!("cannot start {n} threads: {e}")))?;
    }
    let report = match cli.command {
        Command::Stones(s) => stones::run(s)?,
        Command::PowerGame(a) => power_game::run(&a)?,
        Command::Subtraction(a) => subtraction::run(&a)?,
        Command::Fingers(f) => fingers::run(f)?,
        Command::Connect4(c) => connect4::run(c)?,
        Command::Teeko(c) => teeko::run(c)?,
        Command::Dobutsu(c) => dobutsu::run(c)?,
        Command::Grundy(g) => grundy::run(g)?,
        Command::Nim(a) => grundy::nim(&a)?,
        Command::Knights(a) => grundy::knights(&a)?,
        Command::Play(p) => return play::run(p),
    };
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let written = if cli.json {
        writeln!(out, "{}", report.json)
    } else if report.text.ends_with('\n') {
        write!(out, "{}", report.text)
    } else {
        writeln!(out, "{}", report.text)
    };
    match written.and_then(|()| out.flush()) {
        // A reader that stopped early (`| head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
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
                .map_err(|e| format!("'{x}' is not a non-negative number: {e}"))
        })
        .collect::<Result<_, _>>()
        .map(List)
}
