//! `gamesolve connect4 …`: Connect Four on any board that fits 64 bits,
//! solved tier by tier (a tier = the pieces on the board), one position of
//! each mirror pair stored.

use std::time::Instant;

use clap::{Args, Subcommand};
use game_core::{Canonical, Game, Symmetric, Tiered, Value};
use games::connect4::{ConnectFour, ConnectFourPosition};
use serde_json::json;
use solver_retro::{Config, Held, NoStore, Solved};

use super::analyze::{analyze, open_db};
use super::fingers::verdict_words;
use super::{Error, Report};

/// The board.
#[derive(Debug, Clone, Args)]
pub struct Board {
    /// Columns.
    #[arg(long, default_value_t = 4)]
    width: u32,
    /// Rows.
    #[arg(long, default_value_t = 4)]
    height: u32,
}

impl Board {
    fn game(&self) -> Result<ConnectFour, Error> {
        Ok(ConnectFour::new(self.width, self.height)?)
    }
}

#[derive(Debug, Subcommand)]
pub enum Connect4Cmd {
    /// Solve every position; the start's value, counts of the positions
    /// reachable from the empty board, the certificate.
    Solve {
        #[command(flatten)]
        board: Board,
        /// Skip the certificate (it re-plays every move of every position).
        #[arg(long)]
        no_certify: bool,
        /// Write every tier to a database in this directory as it is
        /// solved; a solve interrupted before resumes at the first
        /// unfinished tier, a finished one is not solved again.
        #[arg(long, value_name = "DIR")]
        db: Option<std::path::PathBuf>,
    },
    /// Statistics of a solved database: counts by outcome and remoteness,
    /// reachable positions, longest win and loss, per tier.
    Analyze {
        #[command(flatten)]
        board: Board,
        /// The database written by `solve --db`.
        #[arg(long, value_name = "DIR")]
        db: std::path::PathBuf,
    },
    /// Check the game's implementation: every promise of its capabilities
    /// (index, tiers, mirror symmetry) on sampled positions.
    Check {
        #[command(flatten)]
        board: Board,
        /// Positions to sample for each capability (all when fewer).
        #[arg(long, default_value_t = 20_000)]
        samples: u64,
    },
    /// The value of a position given as the columns played (1-based, e.g.
    /// 4453), its best move and every move's value.
    Value {
        /// Columns played from the empty board.
        #[arg(default_value = "")]
        moves: String,
        #[command(flatten)]
        board: Board,
        /// Answer from this database (written by `solve --db`) instead of
        /// solving.
        #[arg(long, value_name = "DIR")]
        db: Option<std::path::PathBuf>,
    },
}

/// The game's name in a database.
const NAME: &str = "connect4";

/// What tells one database's rules from another's.
fn rules(game: &ConnectFour) -> String {
    format!(
        "{}x{}, mirror-canonical, tiers by pieces, v1",
        game.width(),
        game.height()
    )
}

fn value_json(v: Value) -> serde_json::Value {
    json!({ "outcome": v.outcome().name(), "remoteness": v.remoteness() })
}

pub fn run(cmd: Connect4Cmd) -> Result<Report, Error> {
    match cmd {
        Connect4Cmd::Analyze { board, db } => {
            let inner = board.game()?;
            let db = open_db(&db, NAME, &rules(&inner), false)?;
            let game = Canonical(inner);
            let weight = |p: &ConnectFourPosition| 1 + u64::from(game.0.mirror(p) != *p);
            analyze(
                &format!("Connect Four {}×{}", game.0.width(), game.0.height()),
                &game,
                &db,
                &game.0.start(),
                &weight,
                &|p| game.0.picture(p).replace('\n', " / "),
            )
        }
        Connect4Cmd::Solve {
            board,
            no_certify,
            db,
        } => {
            let inner = board.game()?;
            let (w, h) = (inner.width(), inner.height());
            let game = Canonical(inner);
            let db = match &db {
                Some(dir) => Some(open_db(dir, NAME, &rules(&game.0), true)?),
                None => None,
            };
            if let Some(db) = &db {
                if game.tiers().iter().all(|&t| db.is_finished(t)) {
                    let v = db
                        .lookup(0, game.tier_index(&game.0.start()))
                        .map_err(|e| Error::Usage(e.to_string()))?;
                    let v = v.ok_or_else(|| Error::Usage("the start is not stored".into()))?;
                    return Ok(Report::new(
                        format!(
                            "The database in {} is already solved: from the empty board the first player {}.",
                            db.dir().display(),
                            verdict_words(v)
                        ),
                        json!({ "already_solved": true, "start": value_json(v) }),
                    ));
                }
            }
            let t = Instant::now();
            let spinner = super::progress::Spinner::new("solving");
            let config = super::progress::config(&spinner);
            let sol = match &db {
                Some(db) => solver_retro::solve_tiers_with(
                    &game,
                    &config,
                    &mut gamesolve::store::DbStore::new(db),
                )?,
                None => solver_retro::solve_tiers_with(&game, &config, &mut NoStore)?,
            };
            spinner
                .bar()
                .set_message("counting the positions reachable from the empty board");
            let solve_s = t.elapsed().as_secs_f64();
            let start = game.0.start();
            let v = sol
                .value(&start)
                .ok_or_else(|| Error::Usage("the start position was not solved".into()))?;
            let t = Instant::now();
            // A position stands for itself and its mirror image, if other.
            let weight = |p: &ConnectFourPosition| 1 + u64::from(game.0.mirror(p) != *p);
            let reach = solver_retro::reachable_tiers(
                &game,
                &start,
                &mut |t| match (sol.table(t), &db) {
                    (Some(table), _) => Ok(Some(Held::Borrowed(table))),
                    (None, Some(db)) => Ok(Some(Held::Owned(gamesolve::store::load_table(db, t)?))),
                    (None, None) => Ok(None),
                },
                &weight,
                &Config::default(),
            )?;
            let reach_s = t.elapsed().as_secs_f64();
            spinner
                .bar()
                .set_message("checking the certificate move by move");
            let t = Instant::now();
            let all_held = game.tiers().iter().all(|&t| sol.table(t).is_some());
            let cert = if no_certify || !all_held {
                None
            } else {
                Some(solver_retro::certify(&sol).map_err(|e| e.to_string()))
            };
            let cert_s = t.elapsed().as_secs_f64();
            drop(spinner);
            let indices: u64 = game.tiers().iter().map(|&t| game.tier_size(t)).sum();
            let c = reach.counts;
            let verified = cert.as_ref().map(Result::is_ok);
            let text = format!(
                "Connect Four {w}×{h}: from the empty board the first player {}.\n\
                 Reachable from the empty board: {} positions ({} up to mirror symmetry); \
                 for the player to move {} are won, {} lost, {} tied and {} drawn.\n\
                 {}\n\
                 Solved {} tiers of {} indices in {solve_s:.2} s on {} threads (2 bytes an index); \
                 reachable counted in {reach_s:.2} s{}.",
                verdict_words(v),
                reach.count,
                reach.canonical,
                c.win,
                c.lose,
                c.tie,
                c.draw,
                match &cert {
                    None => "Certificate: skipped (--no-certify).".to_string(),
                    Some(Ok(c)) => format!("Certificate: every one of the {} solved positions checked against its {} moves — consistent.", c.positions, c.moves),
                    Some(Err(e)) => format!("Certificate: FAILED — {e}"),
                },
                game.tiers().len(),
                indices,
                rayon::current_num_threads(),
                if no_certify { String::new() } else { format!(", certified in {cert_s:.2} s") },
            );
            Ok(Report::new(
                text,
                json!({
                    "game": "connect4", "width": w, "height": h,
                    "start": value_json(v),
                    "reachable": reach.count,
                    "reachable_canonical": reach.canonical,
                    "win": c.win, "lose": c.lose, "tie": c.tie, "draw": c.draw,
                    "verified": verified,
                    "indices": indices,
                    "bytes_per_position": 2,
                    "seconds": {"solve": solve_s, "certify": if no_certify { None } else { Some(cert_s) }, "reachable": reach_s},
                }),
            ))
        }
        Connect4Cmd::Check { board, samples } => {
            let game = board.game()?;
            let mut check = solver_retro::GameCheck::new(&game, samples);
            check
                .indexed()
                .and_then(|c| c.tiered())
                .and_then(|c| c.symmetric_tiers())
                .map_err(|e| Error::Usage(e.to_string()))?;
            let n = check.positions();
            Ok(Report::new(
                format!("Connect Four {}×{}: every promise held on {n} positions checked (index, tiers, mirror symmetry).", game.width(), game.height()),
                json!({ "ok": true, "positions": n }),
            ))
        }
        Connect4Cmd::Value { moves, board, db } => {
            let inner = board.game()?;
            let pos = inner.position_from_moves(&moves)?;
            let game = Canonical(inner);
            type Lookup<'a> =
                Box<dyn Fn(&ConnectFourPosition) -> Result<Option<Value>, Error> + 'a>;
            let lookup: Lookup<'_> = match &db {
                Some(dir) => {
                    let db = open_db(dir, NAME, &rules(&game.0), false)?;
                    let g = &game;
                    Box::new(move |p| {
                        let c = g.0.canonical(p);
                        db.lookup(g.tier(&c), g.tier_index(&c))
                            .map_err(|e| Error::Usage(e.to_string()))
                    })
                }
                None => {
                    let sol =
                        solver_retro::solve_tiers_with(&game, &Config::default(), &mut NoStore)?;
                    // Keep what a query needs: the position and its children.
                    let mut values = std::collections::HashMap::new();
                    let mut kids = vec![pos];
                    let mut mv = Vec::new();
                    if game.0.outcome(&pos).is_none() {
                        game.0.moves(&pos, &mut mv);
                        kids.extend(mv.iter().map(|m| game.0.play(&pos, m)));
                    }
                    for k in kids {
                        values.insert(k, sol.value(&game.0.canonical(&k)));
                    }
                    Box::new(move |p| Ok(values.get(p).copied().flatten()))
                }
            };
            let v =
                lookup(&pos)?.ok_or_else(|| Error::Usage("the position was not solved".into()))?;
            let mut mv = Vec::new();
            let mut options = Vec::new();
            if game.0.outcome(&pos).is_none() {
                game.0.moves(&pos, &mut mv);
                for m in &mv {
                    let child = game.0.play(&pos, m);
                    if let Some(cv) = lookup(&child)? {
                        options.push((*m, cv.parent()));
                    }
                }
            }
            let best =
                game_core::best_move(&game.0, &pos, |c| lookup(c).ok().flatten(), &mut Vec::new());
            let best_text = best.as_ref().map(|(m, _)| game.0.format_move(*m));
            let mut text = format!(
                "{}\nThe player to move {}{}.",
                game.0.picture(&pos),
                verdict_words(v),
                best_text
                    .as_ref()
                    .map_or(" (the game is over)".to_string(), |m| format!(
                        "; best move: column {m}"
                    ))
            );
            for (m, ov) in &options {
                text += &format!(
                    "\n  column {}: {}",
                    game.0.format_move(*m),
                    verdict_words(*ov)
                );
            }
            Ok(Report::new(
                text,
                json!({
                    "outcome": v.outcome().name(),
                    "remoteness": v.remoteness(),
                    "best": best_text,
                    "moves": options.iter().map(|(m, ov)| json!({
                        "move": game.0.format_move(*m),
                        "outcome": ov.outcome().name(),
                        "remoteness": ov.remoteness(),
                    })).collect::<Vec<_>>(),
                }),
            ))
        }
    }
}
