//! `gamesolve connect4 …`: Connect Four on any board that fits 64 bits,
//! solved tier by tier (a tier = the pieces on the board), one position of
//! each mirror pair stored; `value` and `play` on a board whose tables do
//! not fit are answered by exact search ([`gamesolve::answer`] chooses).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};
use games::connect4::{ConnectFour, ConnectFourPosition};

use gamesolve::answer::{self, Engine};
use serde_json::json;

use super::args::{Samples, SolveFlags};
use super::play_tiered::{self, Seat};
use super::register::CliGame;
use super::tiered;
use super::{Ctx, Error, Report};

/// The board.
#[derive(Debug, Clone, Args)]
pub struct Board {
    /// Columns [default: 4, or the database's with --db].
    #[arg(long)]
    width: Option<u32>,
    /// Rows [default: 4, or the database's with --db].
    #[arg(long)]
    height: Option<u32>,
}

impl Board {
    /// The board the options choose, 4 by 4 where they say nothing.
    pub(super) fn game(&self) -> Result<ConnectFour, Error> {
        self.game_over(None)
    }

    /// The board the options choose, the rest taken from `base` (a
    /// database's board), else 4.
    pub(super) fn game_over(&self, base: Option<&ConnectFour>) -> Result<ConnectFour, Error> {
        Ok(ConnectFour::new(
            self.width.or(base.map(ConnectFour::width)).unwrap_or(4),
            self.height.or(base.map(ConnectFour::height)).unwrap_or(4),
        )?)
    }

    /// The board a command reading the database in `dir` answers for
    /// ([`tiered::game_in_db`]): the database's, or these options' when
    /// they agree with it; `command` is the command as typed, less the
    /// options.
    pub(super) fn game_in_db(&self, dir: &Path, command: &str) -> Result<ConnectFour, Error> {
        tiered::game_in_db(dir, |base| self.game_over(base), command)
    }
}

#[derive(Debug, Subcommand)]
pub enum Connect4Cmd {
    /// Solve every position; the start's value, counts of the positions
    /// reachable from the empty board, the certificate.
    Solve {
        #[command(flatten)]
        board: Board,
        #[command(flatten)]
        flags: SolveFlags,
    },
    /// The value of a position given as the columns played (1-based, e.g.
    /// 4453), its best move and every move's value.
    Value {
        /// Columns played from the empty board.
        #[arg(default_value = "")]
        moves: String,
        #[command(flatten)]
        board: Board,
        /// Answer from this database (written by `solve --db`) instead of
        /// solving.
        #[arg(long, value_name = "DIR")]
        db: Option<PathBuf>,
        /// On a board answered by search, the position's value only: one
        /// search, without every move's (a search each). A table or a
        /// database gives every move's value anyway.
        #[arg(long)]
        no_moves: bool,
    },
    /// Statistics of a solved database: counts by outcome and remoteness,
    /// reachable positions, longest win and loss, per tier.
    Analyze {
        #[command(flatten)]
        board: Board,
        /// The database written by `solve --db`.
        #[arg(long, value_name = "DIR")]
        db: PathBuf,
    },
    /// Check the game's implementation: every promise of its capabilities
    /// (index, tiers, mirror symmetry) on sampled positions.
    Check {
        #[command(flatten)]
        board: Board,
        #[command(flatten)]
        samples: Samples,
    },
}

impl CliGame for ConnectFour {
    const NAME: &'static str = "connect4";
    /// Measured on 5×5 (171,976,899 indices): the solve, which counts the
    /// reachable positions as it goes, 5.1 s (12 steps an index with the walk);
    /// the certificate 2.7 s.
    const SOLVE_STEPS: u64 = 8;
    type Options = Board;

    fn from_options(board: &Board, base: Option<&Self>) -> Result<Self, Error> {
        board.game_over(base)
    }

    fn title(&self) -> String {
        format!("Connect Four {}×{}", self.width(), self.height())
    }

    fn rules(&self) -> String {
        format!(
            "{}x{}, mirror-canonical, tiers by pieces, v1",
            self.width(),
            self.height()
        )
    }

    fn options(&self) -> String {
        format!(" --width {} --height {}", self.width(), self.height())
    }

    fn from_rules_key(key: &str) -> Option<Self> {
        let board = key.strip_suffix(", mirror-canonical, tiers by pieces, v1")?;
        let (w, h) = board.split_once('x')?;
        let game = ConnectFour::new(w.parse().ok()?, h.parse().ok()?).ok()?;
        // One spelling of a board ("05x5" is no key this game writes).
        (game.rules() == key).then_some(game)
    }

    fn start(&self) -> ConnectFourPosition {
        ConnectFour::start(self)
    }

    fn parse(&self, text: &str) -> Result<ConnectFourPosition, Error> {
        Ok(self.position_from_moves(text)?)
    }

    fn show(&self, pos: &ConnectFourPosition) -> String {
        self.picture(pos).trim_end().to_string()
    }

    fn show_move(&self, _pos: &ConnectFourPosition, mv: &u8) -> String {
        format!("column {}", self.format_move(*mv))
    }

    fn move_text(&self, _pos: &ConnectFourPosition, mv: &u8, _first: bool) -> String {
        self.format_move(*mv)
    }

    fn weight(&self, pos: &ConnectFourPosition) -> u64 {
        1 + u64::from(self.mirror(pos) != *pos)
    }

    fn check_capabilities(&self, samples: u64) -> Result<u64, Error> {
        let mut check = solver_retro::GameCheck::new(self, samples);
        check.indexed().map_err(|e| Error::Usage(e.to_string()))?;
        Ok(check.widest())
    }
}

pub fn run(cmd: Connect4Cmd, ctx: &Ctx) -> Result<Report, Error> {
    match cmd {
        Connect4Cmd::Solve { board, flags } => flags.solve(board.game()?, ctx),
        Connect4Cmd::Value {
            moves,
            board,
            db: Some(db),
            ..
        } => {
            let game =
                board.game_in_db(&db, &tiered::command_line(&["connect4", "value", &moves]))?;
            tiered::value(game, &moves, Some(&db), ctx)
        }
        Connect4Cmd::Value {
            moves,
            board,
            db,
            no_moves,
        } => {
            let game = board.game()?;
            match (&db, engine(&game, ctx)) {
                (None, Engine::Search) => searched_value(&game, &moves, !no_moves, ctx),
                _ => tiered::value(game, &moves, db.as_deref(), ctx),
            }
        }
        Connect4Cmd::Analyze { board, db } => {
            tiered::analyze_db(board.game_in_db(&db, "connect4 analyze")?, &db, ctx)
        }
        // Tiers, symmetry and the index.
        Connect4Cmd::Check { board, samples } => samples.check(board.game()?, 3, ctx),
    }
}

/// The engine that answers on this board without a database: the table
/// when it fits the budget, else the search.
fn engine(game: &ConnectFour, ctx: &Ctx) -> Engine {
    answer::choose(game, &ctx.budget, ConnectFour::SOLVE_STEPS)
}

/// The search's failures in the command's terms: a refusal stays a typed
/// refusal (its advice names `--max-work`).
fn search_error(e: answer::Error) -> Error {
    match e {
        answer::Error::Search(solver_search::Error::TooLarge(t)) => Error::TooLarge(t),
        answer::Error::Retro(e) => Error::Retro(e),
        e => Error::Usage(e.to_string()),
    }
}

/// `connect4 value` by search: the position's value and every move's, as
/// the table's answer gives them; without `with_moves`, the value alone
/// (no best move and no moves in the answer).
fn searched_value(
    game: &ConnectFour,
    text: &str,
    with_moves: bool,
    ctx: &Ctx,
) -> Result<Report, Error> {
    let pos = game.position_from_moves(text)?;
    let threads = ctx.threads();
    let a = answer::answer_with(
        game,
        &pos,
        &ctx.budget,
        threads,
        ConnectFour::SOLVE_STEPS,
        with_moves,
    )
    .map_err(search_error)?;
    if !with_moves {
        let shown = CliGame::show(game, &pos);
        if ctx.json {
            let json = json!({
                "outcome": a.value.outcome().name(),
                "remoteness": a.value.remoteness(),
                "engine": a.engine.name(),
                "nodes": a.nodes,
            });
            return Ok(Report::new(String::new(), json));
        }
        let text = format!(
            "{shown}\nThe player to move {} (moves not searched: --no-moves).\n(by search: {} nodes on {})",
            super::fingers::verdict_words(a.value),
            a.nodes,
            game_core::plural(threads as u64, "thread")
        );
        return Ok(Report::new(text, serde_json::Value::Null));
    }
    let options: Vec<(String, _)> = a
        .moves
        .iter()
        .map(|(m, v)| (game.show_move(&pos, m), *v))
        .collect();
    // The first best move in column order, as from a table.
    let best = options
        .iter()
        .fold(None::<&(String, _)>, |b, o| match b {
            Some(b) if b.1 >= o.1 => Some(b),
            _ => Some(o),
        })
        .map(|(m, _)| m.clone());
    let (mut text, mut json) = super::tiered::value_report(
        &CliGame::show(game, &pos),
        a.value,
        best.as_ref(),
        &options,
        None,
    );
    if ctx.json {
        json["engine"] = json!(a.engine.name());
        json["nodes"] = json!(a.nodes);
        return Ok(Report::new(String::new(), json));
    }
    text += &format!(
        "\n(by search: {} nodes on {})",
        a.nodes,
        game_core::plural(threads as u64, "thread")
    );
    Ok(Report::new(text, serde_json::Value::Null))
}

/// `play connect4`: from a database or a table solved first where one
/// fits, else against the search (every value the player is shown or
/// plays by searched exactly, the table of the search kept between moves).
pub fn play(board: &Board, seat: &Seat, ctx: &Ctx) -> Result<(), Error> {
    let game = match seat.db() {
        Some(dir) => board.game_in_db(dir, "play connect4")?,
        None => board.game()?,
    };
    if seat.db().is_some() || engine(&game, ctx) == Engine::Table {
        return play_tiered::run(game, seat, ctx);
    }
    let threads = ctx.threads();
    // The whole game's length: the first search is from the start.
    let config = answer::search_config(&ctx.budget, threads, Some(game.cells()));
    let search = solver_search::Searcher::new(&game, config).map_err(|e| search_error(e.into()))?;
    let lookup: play_tiered::Lookup<'_, ConnectFourPosition> = Box::new(|p| {
        let found = search.value(p).map_err(|e| search_error(e.into()))?;
        Ok(Some(found.value))
    });
    play_tiered::run_with(&game, seat, ctx, &lookup)
}
