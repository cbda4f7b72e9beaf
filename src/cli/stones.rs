//! `gamesolve stones …`

use clap::Subcommand;
use serde_json::json;

use super::{Ctx, Error, Report};

#[derive(Debug, Subcommand)]
pub enum Stones {
    /// How many stones to take: the largest winning take, else 1.
    Take {
        /// Stones I hold.
        mine: u64,
        /// Stones the opponent holds.
        his: u64,
        /// Stones left in the pile.
        pile: u64,
        /// The most stones one turn may take.
        max_take: u64,
    },
    /// The proven preperiod and period of the table of winners.
    Period {
        /// The most stones one turn may take.
        max_take: u64,
    },
}

pub fn run(cmd: Stones, ctx: &Ctx) -> Result<Report, Error> {
    Ok(match cmd {
        Stones::Take {
            mine,
            his,
            pile,
            max_take,
        } => {
            let t = games::stones::take_with(mine, his, pile, max_take, &ctx.budget)?;
            Report::new(game_core::grouped(t), json!({ "take": t }))
        }
        Stones::Period { max_take } => {
            let p = games::StonesTable::new_with(max_take, &ctx.budget)?.period();
            Report::new(
                format!(
                    "max take {}: the table of winners is periodic from row {} with period {}",
                    game_core::grouped(max_take),
                    game_core::grouped(p.preperiod),
                    game_core::grouped(p.period)
                ),
                json!({ "preperiod": p.preperiod, "period": p.period }),
            )
        }
    })
}
