//! `gamesolve serve`: the JSON API and the web explorer over every
//! database given, or over the embedded default games.

use std::io::Write;
use std::path::PathBuf;

use super::{Ctx, Error};

/// `serve [--db DIR]... [--addr ADDR]`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Serve this database (written by `solve --db`; it knows its game and
    /// rules), opened read-only; give it again for more. Without any, the
    /// embedded games are solved and served: Magic Fingers, Connect Four
    /// 4×4 and 5×4, and a subtraction game.
    #[arg(long, value_name = "DIR")]
    db: Vec<PathBuf>,
    /// The address to listen on (port 0 picks a free port). Only this
    /// machine can reach the default.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8080")]
    addr: String,
}

/// Serves until Ctrl-C.
pub fn run(args: Args, ctx: &Ctx) -> Result<(), Error> {
    let games = if args.db.is_empty() {
        game_server::catalog::defaults()?
    } else {
        args.db
            .iter()
            .map(|d| game_server::catalog::open_database(d))
            .collect::<Result<_, _>>()?
    };
    let games = game_server::Games::new(games)?;
    let n = games.infos().len();
    let json = ctx.json;
    game_server::run(&args.addr, games, |addr| {
        let url = format!("http://{addr}/");
        let line = if json {
            serde_json::json!({ "url": url, "games": n }).to_string()
        } else {
            format!(
                "Serving {} at {url} (the API at {url}api/games); Ctrl-C stops.",
                super::plural(n as u64, "game")
            )
        };
        let mut out = std::io::stdout().lock();
        // The address is what a reader (a test, a script) waits for.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    })?;
    Ok(())
}
