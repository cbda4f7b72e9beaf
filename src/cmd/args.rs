//! Flags shared by the games' commands, written once and flattened into
//! each (`#[command(flatten)]`).

use clap::Args;

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
    /// Positions to sample for each capability (all of them when the
    /// game has fewer).
    #[arg(long, default_value_t = 20_000)]
    pub samples: u64,
}
