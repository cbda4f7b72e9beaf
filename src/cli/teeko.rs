//! `gamesolve teeko …`: Teeko, solved tier by tier (men placed, then the
//! moving phase by retrograde analysis with unmoves), one position of each
//! class of the square's 8 symmetries stored.

use games::{Teeko, TeekoColor, TeekoMove, TeekoPosition};

use super::register::{CliGame, NoOptions};
use super::tiered::{self, FixedCmd};
use super::{Ctx, Error, Report};

impl CliGame for Teeko {
    const NAME: &'static str = "teeko";
    /// Measured: 172,401,726 indices solved in 8.3–16 s, walked in 6.4–7
    /// s, certified in 11–12 s, from day to day.
    const SOLVE_STEPS: u64 = 28;
    type Options = NoOptions;

    fn from_options(_: &NoOptions, _: Option<&Self>) -> Result<Self, Error> {
        Ok(Teeko::new())
    }

    fn title(&self) -> String {
        "Teeko".into()
    }

    fn rules(&self) -> String {
        "Teeko 5x5, 4 men, lines and 2x2 squares win, 8 symmetries, GamesmanOne tiers, v1".into()
    }

    fn from_rules_key(key: &str) -> Option<Self> {
        let game = Teeko::new();
        (game.rules() == key).then_some(game)
    }

    fn start(&self) -> TeekoPosition {
        TeekoPosition::START
    }

    fn parse(&self, text: &str) -> Result<TeekoPosition, Error> {
        let text = text.trim();
        // A board's first word is its 25 squares; a move is a few letters,
        // so a board's fault is named as the board's.
        if text
            .split_whitespace()
            .next()
            .is_some_and(|w| w.len() >= 25)
        {
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

    fn picture(&self, pos: &TeekoPosition, _first_to_move: bool) -> String {
        let mut out = String::new();
        for rank in (0..5).rev() {
            out += &format!("{}", rank + 1);
            for file in 0..5 {
                let bit = 1u32 << (rank * 5 + file);
                out.push(' ');
                out.push(if pos.black() & bit != 0 {
                    'b'
                } else if pos.red() & bit != 0 {
                    'r'
                } else {
                    '.'
                });
            }
            out.push('\n');
        }
        out += "  a b c d e\n";
        out += match pos.to_move() {
            TeekoColor::Black => "black (b) to move",
            TeekoColor::Red => "red (r) to move",
        };
        out
    }

    fn weight(&self, pos: &TeekoPosition) -> u64 {
        Teeko::orbit_size(self, pos)
    }

    fn unmoves() -> Option<gamesolve::cli::HasUnmoves<Self>> {
        Some(gamesolve::cli::HasUnmoves::new())
    }
}

pub fn run(cmd: FixedCmd, ctx: &Ctx) -> Result<Report, Error> {
    tiered::run_fixed(Teeko::new(), cmd, ctx)
}
