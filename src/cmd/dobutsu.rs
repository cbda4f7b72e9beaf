//! `gamesolve dobutsu …`: Dobutsu shogi (GamesmanOne's rules), solved by
//! retrograde analysis with unmoves, one position of each mirror pair
//! stored. Positions are seen by the player to move.

use game_core::Canonical;
use games::{Dobutsu, DobutsuMove, DobutsuPosition, DobutsuSide};
use solver_retro::{Config, TierStore, TieredSolution};

use super::tiered::{self, CliGame, FixedCmd};
use super::{Error, Report};

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

pub fn run(cmd: FixedCmd) -> Result<Report, Error> {
    tiered::run_fixed(Dobutsu::new(), cmd)
}
