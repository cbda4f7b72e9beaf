//! `gamesolve teeko …`: Teeko, solved tier by tier (men placed, then the
//! moving phase by retrograde analysis with unmoves), one position of each
//! class of the square's 8 symmetries stored.

use std::path::PathBuf;

use clap::Subcommand;
use game_core::Canonical;
use games::{Teeko, TeekoMove, TeekoPosition};
use solver_retro::{Config, TierStore, TieredSolution};

use super::tiered::{self, CliGame};
use super::{Error, Report};

#[derive(Debug, Subcommand)]
pub enum TeekoCmd {
    /// Solve every position; the start's value, counts of the positions
    /// reachable from the start, the certificate.
    Solve {
        /// Skip the certificate.
        #[arg(long)]
        no_certify: bool,
        /// Write every tier to a database in this directory as it is
        /// solved (resumes at the first unfinished tier).
        #[arg(long, value_name = "DIR")]
        db: Option<PathBuf>,
    },
    /// The value of a position — the moves from the start (`c3 b2 …`) or
    /// the board (25 squares rank 1 first, `b`/`r`/`.`, then the side to
    /// move) — its best move and every move's value.
    Value {
        /// Moves from the start, or a board.
        #[arg(default_value = "")]
        position: String,
        /// Answer from this database instead of solving.
        #[arg(long, value_name = "DIR")]
        db: Option<PathBuf>,
    },
    /// Statistics of a solved database.
    Analyze {
        /// The database written by `solve --db`.
        #[arg(long, value_name = "DIR")]
        db: PathBuf,
    },
    /// Check the game's implementation on sampled positions.
    Check {
        /// Positions to sample for each capability.
        #[arg(long, default_value_t = 20_000)]
        samples: u64,
    },
}

impl CliGame for Teeko {
    const NAME: &'static str = "teeko";

    fn title(&self) -> String {
        "Teeko".into()
    }

    fn rules(&self) -> String {
        "Teeko 5x5, 4 men, lines and 2x2 squares win, 8 symmetries, GamesmanOne tiers, v1".into()
    }

    fn start(&self) -> TeekoPosition {
        TeekoPosition::START
    }

    fn parse(&self, text: &str) -> Result<TeekoPosition, Error> {
        let text = text.trim();
        if text.len() >= 25 && text.contains('.') {
            return Ok(text.parse()?);
        }
        Ok(self.play_line(text)?)
    }

    fn show(&self, pos: &TeekoPosition) -> String {
        pos.to_string()
    }

    fn show_move(&self, _pos: &TeekoPosition, mv: &TeekoMove) -> String {
        mv.to_string()
    }

    fn weight(&self, pos: &TeekoPosition) -> u64 {
        Teeko::orbit_size(self, pos)
    }

    fn solve<'g>(
        game: &'g Canonical<Self>,
        config: &Config,
        store: &mut dyn TierStore,
    ) -> Result<TieredSolution<'g, Canonical<Self>>, solver_retro::Error> {
        solver_retro::solve_tiers_unmoves(game, config, store)
    }
}

pub fn run(cmd: TeekoCmd) -> Result<Report, Error> {
    match cmd {
        TeekoCmd::Solve { no_certify, db } => {
            tiered::solve(Teeko::new(), no_certify, db.as_deref())
        }
        TeekoCmd::Value { position, db } => tiered::value(Teeko::new(), &position, db.as_deref()),
        TeekoCmd::Analyze { db } => tiered::analyze_db(Teeko::new(), &db),
        TeekoCmd::Check { samples } => {
            let game = Teeko::new();
            let mut check = solver_retro::GameCheck::new(&game, samples);
            check
                .indexed()
                .and_then(|c| c.unmoves())
                .map_err(|e| Error::Usage(e.to_string()))?;
            let first = check.positions();
            let mut report = tiered::check(game, samples)?;
            report.add_positions(first);
            Ok(report)
        }
    }
}
