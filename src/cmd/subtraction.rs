//! `gamesolve subtraction (--set S | --squares) --upto N [--misere]`

use clap::Args as ClapArgs;
use serde_json::json;

use super::{parse_list, Error, List, Report};

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

pub fn run(a: &Args) -> Result<Report, Error> {
    let game = match &a.set {
        Some(set) => games::Subtraction::finite(set.0.iter().copied())?,
        None => games::Subtraction::squares(),
    };
    let s = game.outcome_string(a.upto, a.misere)?;
    Ok(Report::new(s.clone(), json!({ "outcomes": s })))
}
