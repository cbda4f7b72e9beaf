//! `gamesolve dobutsu …`: Dobutsu shogi (GamesmanOne's rules), solved by
//! retrograde analysis with unmoves, one position of each mirror pair
//! stored. Positions are seen by the player to move.

use games::{Dobutsu, DobutsuMove, DobutsuPosition, DobutsuSide};

use super::register::{CliGame, NoOptions};
use super::tiered::{self, FixedCmd};
use super::{Ctx, Error, Report};

impl CliGame for Dobutsu {
    const NAME: &'static str = "dobutsu";
    /// Measured: 1,450,708,605 indices solved in 486 s, walked in 245 s.
    const SOLVE_STEPS: u64 = 134;
    type Options = NoOptions;

    fn from_options(_: &NoOptions, _: Option<&Self>) -> Result<Self, Error> {
        Ok(Dobutsu::new())
    }

    fn weight(&self, pos: &DobutsuPosition) -> u64 {
        Dobutsu::orbit_size(self, pos)
    }

    fn title(&self) -> String {
        "Dobutsu shogi".into()
    }

    fn rules(&self) -> String {
        "Dobutsu shogi, GamesmanOne's try rule, mirror-canonical, v1".into()
    }

    fn from_rules_key(key: &str) -> Option<Self> {
        let game = Dobutsu::new();
        (game.rules() == key).then_some(game)
    }

    fn start(&self) -> DobutsuPosition {
        DobutsuPosition::START
    }

    fn parse(&self, text: &str) -> Result<DobutsuPosition, Error> {
        Ok(self.read(text)?.0)
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

    fn picture(&self, pos: &DobutsuPosition, first_to_move: bool) -> String {
        picture(pos, side(first_to_move))
    }

    fn move_text(&self, _pos: &DobutsuPosition, mv: &DobutsuMove, first_to_move: bool) -> String {
        mv.notation(side(first_to_move))
    }

    fn first_to_move(&self, text: &str) -> bool {
        !matches!(self.read(text), Ok((_, DobutsuSide::Second)))
    }

    fn show_move_at(
        &self,
        _pos: &DobutsuPosition,
        mv: &DobutsuMove,
        first_to_move: bool,
    ) -> String {
        mv.notation(side(first_to_move))
    }

    fn show_at(&self, pos: &DobutsuPosition, first_to_move: bool) -> String {
        let side = side(first_to_move);
        format!(
            "{} ({} player to move)",
            pos.board_string(side),
            side.name()
        )
    }

    fn unmoves() -> Option<gamesolve::cli::HasUnmoves<Self>> {
        Some(gamesolve::cli::HasUnmoves::new())
    }
}

fn side(first_to_move: bool) -> DobutsuSide {
    if first_to_move {
        DobutsuSide::First
    } else {
        DobutsuSide::Second
    }
}

/// The board as the first player sees it (upper case, home rank 4 at the
/// bottom), the hands and who is to move.
fn picture(pos: &DobutsuPosition, side: DobutsuSide) -> String {
    let text = pos.board_string(side);
    let mut words = text.split(' ');
    let (board, hands) = (words.next().unwrap_or(""), words.next().unwrap_or("-"));
    let mut out = String::from("  a b c\n");
    for (rank, row) in board.split('/').enumerate() {
        let cells: Vec<String> = row.chars().map(String::from).collect();
        out += &format!("{} {}\n", rank + 1, cells.join(" "));
    }
    let of = |upper: bool| -> String {
        let h: String = hands
            .chars()
            .filter(|c| c.is_ascii_alphabetic() && c.is_ascii_uppercase() == upper)
            .collect();
        if h.is_empty() {
            "-".into()
        } else {
            h
        }
    };
    out += &format!(
        "in hand: first (upper case) {}, second (lower case) {}\n{} player to move",
        of(true),
        of(false),
        match side {
            DobutsuSide::First => "first",
            DobutsuSide::Second => "second",
        }
    );
    out
}

pub fn run(cmd: FixedCmd, ctx: &Ctx) -> Result<Report, Error> {
    tiered::run_fixed(Dobutsu::new(), cmd, ctx)
}
