//! Flags shared by the games' commands, written once and flattened into
//! each (`#[command(flatten)]`).

use clap::Args;

use super::{Ctx, Error};

/// The flags of every game's `solve`: the certificate, the database and
/// the cluster.
#[derive(Debug, Args)]
pub struct SolveFlags {
    /// Skip the certificate (it checks every position against its moves).
    #[arg(long)]
    pub no_certify: bool,
    /// Write every tier to a database in this directory as it is solved;
    /// a solve interrupted before resumes at the first unfinished tier, a
    /// finished one is not solved again.
    #[arg(long, value_name = "DIR")]
    pub db: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub cluster: ClusterFlags,
}

impl SolveFlags {
    /// Solves `game` as the flags say: on the cluster with `--cluster`,
    /// else on this machine ([`super::tiered::solve_cluster`],
    /// [`super::tiered::solve`]).
    pub fn solve<G: super::register::CliGame>(
        &self,
        game: G,
        ctx: &Ctx,
    ) -> Result<super::Report, Error>
    where
        G::Position: Send + Sync + std::fmt::Debug,
        G::Move: Send,
    {
        let db = self.db.as_deref();
        match &self.cluster.flags {
            Some(flags) => super::tiered::solve_cluster(game, self.no_certify, db, flags, ctx),
            None => super::tiered::solve(game, self.no_certify, db, ctx),
        }
    }
}

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

    /// `check` of a tiered `game`: refused past the work budget
    /// ([`Samples::check_work`] over its tiers' indices, `passes` passes),
    /// else every promise of its capabilities on the samples
    /// ([`super::tiered::check`]).
    pub fn check<G: super::register::CliGame>(
        &self,
        game: G,
        passes: u64,
        ctx: &Ctx,
    ) -> Result<super::Report, Error>
    where
        G::Position: Send + Sync + std::fmt::Debug,
        G::Move: Send,
    {
        let size = solver_retro::cost::indices(&game);
        self.check_work(ctx, &game.title(), size, passes, super::tiered::CHECK_STEPS)?;
        super::tiered::check(game, self.samples)
    }
}
