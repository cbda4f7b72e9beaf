//! Flags shared by the games' commands, written once and flattened into
//! each (`#[command(flatten)]`).

use clap::Args;

use super::{Ctx, Error};

/// `--cluster FLAGS…` of a solve: run it on timely workers.
#[derive(Debug, Args)]
pub struct ClusterFlags {
    /// Solve on timely workers; takes timely's own flags, and comes
    /// last: `--cluster -w THREADS -n PROCESSES -p ID -h HOSTFILE`
    /// (one process per host, each started the same way).
    #[arg(long = "cluster", value_name = "FLAGS", num_args = 0.., allow_hyphen_values = true)]
    pub flags: Option<Vec<String>>,
}

/// `--samples N` of a check.
#[derive(Debug, Args)]
pub struct Samples {
    /// Positions to sample for each capability, at least 1 (all of them
    /// when the game has fewer).
    #[arg(long, default_value_t = 20_000, value_parser = parse_samples)]
    pub samples: u64,
}

/// A `--samples` count: 1 or more. 0 is refused (it sampled the game's
/// first positions all the same, and reported them checked).
fn parse_samples(s: &str) -> Result<u64, String> {
    parse_positions(s, "a check samples at least 1 position a capability, not 0")
}

/// A number of positions, 1 or more: `zero` is the refusal of 0.
pub fn parse_positions(s: &str, zero: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(0) => Err(zero.into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "'{}' is not a number of positions",
            game_core::echo(s)
        )),
    }
}

impl Samples {
    /// Refuses, before it starts, a check past the work budget: `passes`
    /// passes (one a capability) over at most `--samples` positions each
    /// (every one of the game's `size` when fewer), at `steps` steps of
    /// work a position (measured: Magic Fingers at 128 fingers some
    /// 11,000, its positions having hundreds of moves and parents;
    /// Dobutsu shogi some 2,000).
    pub fn check_work(
        &self,
        ctx: &Ctx,
        game: &str,
        size: u64,
        passes: u64,
        steps: u64,
    ) -> Result<(), Error> {
        let positions = self.samples.min(size).saturating_mul(passes);
        ctx.budget.check_work(
            &format!("checking {game} on {positions} sampled positions"),
            positions.saturating_mul(steps),
        )?;
        Ok(())
    }
}
