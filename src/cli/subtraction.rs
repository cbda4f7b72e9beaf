//! `gamesolve subtraction (--set S | --squares) --upto N [--misere]`

use clap::Args as ClapArgs;
use serde_json::json;

use super::{parse_list, Ctx, Error, List, Report};

#[derive(Debug, ClapArgs)]
#[command(group = clap::ArgGroup::new("moves").required(true))]
pub struct Args {
    /// The subtraction set, e.g. 1,3,4.
    #[arg(long, group = "moves", value_parser = parse_list)]
    set: Option<List>,
    /// Subtract a positive square.
    #[arg(long, group = "moves")]
    squares: bool,
    /// The largest pile to show.
    #[arg(long)]
    upto: u64,
    /// Misère play: whoever cannot move wins.
    #[arg(long)]
    misere: bool,
}

pub fn run(a: &Args, ctx: &Ctx) -> Result<Report, Error> {
    let game = match &a.set {
        Some(set) => games::Subtraction::finite(set.0.iter().copied())?,
        None => games::Subtraction::squares(),
    };
    // The table, then a letter a pile (twice while made into JSON).
    let piles = a.upto.saturating_add(1);
    ctx.check(
        &format!("the outcomes of piles 0..={}", game_core::grouped(a.upto)),
        game.outcomes_work(a.upto),
        piles.saturating_mul(2),
        piles,
    )?;
    let s: String = game
        .outcomes_with(a.upto, a.misere, &ctx.budget)?
        .into_iter()
        .map(|w| if w { 'W' } else { 'L' })
        .collect();
    Ok(if ctx.json {
        Report::rendered(json!({ "outcomes": s }).to_string())
    } else {
        Report::rendered(s)
    })
}
