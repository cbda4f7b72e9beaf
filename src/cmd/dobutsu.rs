//! `gamesolve dobutsu …`: Dobutsu shogi (GamesmanOne's rules), solved by
//! retrograde analysis with unmoves, one position of each mirror pair
//! stored. Positions are seen by the player to move.

use std::path::PathBuf;

use clap::Subcommand;
use game_core::Canonical;
use games::{Dobutsu, DobutsuMove, DobutsuPosition, DobutsuSide};
use solver_retro::{Config, TierStore, TieredSolution};

use super::tiered::{self, CliGame};
use super::{Error, Report};

#[derive(Debug, Subcommand)]
pub enum DobutsuCmd {
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
    /// The value of a position — the moves from the start (`b3b2 c1b2
    /// C*b3`) or a board string — its best move and every move's value.
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

impl CliGame for Dobutsu {
    const NAME: &'static str = "dobutsu";

    fn title(&self) -> String {
        "Dobutsu shogi".into()
    }

    fn rules(&self) -> String {
        "Dobutsu shogi, GamesmanOne's try rule, mirror-canonical, v1".into()
    }

    fn start(&self) -> DobutsuPosition {
        DobutsuPosition::START
    }

    fn parse(&self, text: &str) -> Result<DobutsuPosition, Error> {
        let text = text.trim();
        if let Ok((pos, _)) = DobutsuPosition::parse_with_side(text) {
            return Ok(pos);
        }
        Ok(self.play_line(text)?.0)
    }

    fn show(&self, pos: &DobutsuPosition) -> String {
        format!(
            "{} (seen by the player to move)",
            pos.board_string(DobutsuSide::First)
        )
    }

    fn show_move(&self, _pos: &DobutsuPosition, mv: &DobutsuMove) -> String {
        mv.notation(DobutsuSide::First)
    }

    fn solve<'g>(
        game: &'g Canonical<Self>,
        config: &Config,
        store: &mut dyn TierStore,
    ) -> Result<TieredSolution<'g, Canonical<Self>>, solver_retro::Error> {
        solver_retro::solve_tiers_unmoves(game, config, store)
    }
}

pub fn run(cmd: DobutsuCmd) -> Result<Report, Error> {
    match cmd {
        DobutsuCmd::Solve { no_certify, db } => {
            tiered::solve(Dobutsu::new(), no_certify, db.as_deref())
        }
        DobutsuCmd::Value { position, db } => {
            tiered::value(Dobutsu::new(), &position, db.as_deref())
        }
        DobutsuCmd::Analyze { db } => tiered::analyze_db(Dobutsu::new(), &db),
        DobutsuCmd::Check { samples } => {
            let game = Dobutsu::new();
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
