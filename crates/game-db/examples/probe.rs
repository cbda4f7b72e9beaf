//! Opens a database and looks up records at pseudo-random indices of one
//! tier, printing how long that took from the start of the process: what a
//! command-line query costs.
//!
//! ```text
//! cargo run --release -p game-db --example probe -- DIR GAME RULES TIER COUNT
//! ```

use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let start = Instant::now();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dir, game, rules, tier, count] = &args[..] else {
        eprintln!("usage: probe DIR GAME RULES TIER COUNT");
        return ExitCode::FAILURE;
    };
    let (Ok(tier), Ok(count)) = (tier.parse::<u64>(), count.parse::<u64>()) else {
        eprintln!("TIER and COUNT are numbers");
        return ExitCode::FAILURE;
    };
    match run(dir, game, rules, tier, count) {
        Ok(summary) => {
            println!("{summary} in {:.2?} (open included)", start.elapsed());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(
    dir: &str,
    game: &str,
    rules: &str,
    tier: u64,
    count: u64,
) -> Result<String, game_db::Error> {
    let db = game_db::Database::open(dir, game, rules)?;
    let n = db.records(tier)?;
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut draws = 0;
    for _ in 0..count {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if db.lookup(tier, x % n.max(1))? == Some(game_core::Value::DRAW) {
            draws += 1;
        }
    }
    Ok(format!(
        "{count} lookups in tier {tier} of {n} records ({draws} draws)"
    ))
}
