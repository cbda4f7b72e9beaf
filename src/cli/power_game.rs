//! `gamesolve power-game SIZE0 SIZE1`

use clap::Args as ClapArgs;
use serde_json::json;

use super::{Ctx, Error, Report};

#[derive(Debug, ClapArgs)]
pub struct Args {
    /// Sticks in the first pile.
    size0: u64,
    /// Sticks in the second pile.
    size1: u64,
}

pub fn run(a: &Args, ctx: &Ctx) -> Result<Report, Error> {
    let v = games::power_game::winner_with(a.size0, a.size1, &ctx.budget)?;
    Ok(Report::new(
        // The problem's sentence, its count grouped.
        format!(
            "{} will win after {} moves",
            v.winner(),
            game_core::grouped(v.moves)
        ),
        json!({ "winner": v.winner(), "moves": v.moves }),
    ))
}
