//! The commands every tiered game shares — `solve [--db]`, `value [--db]`,
//! `analyze --db`, `check` — written once for any game with tiers and
//! symmetry (Connect Four, Teeko, Dobutsu shogi).

use std::fmt::Debug;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use game_core::{best_move, Canonical, Tier, Tiered, Value};
use game_db::Database;
use serde_json::json;
use solver_cluster::ClusterConfig;
use solver_retro::{Held, Keep, Solved, Table, Tables};

use super::analyze::{analyze, open_db};
use super::args::{Samples, SolveFlags};
use super::fingers::verdict_words;
use super::register::CliGame;
use super::solve_db::SolveDb;
use super::{Ctx, Error, Report};
use game_core::budget::human_bytes_apart;
use game_core::{grouped, plural};

/// The game a command reading the database in `dir` answers for: the one
/// its manifest's rules key names (so that no option need be repeated),
/// with the options given (`asked` builds the game from them, the options
/// not given taken from the database's game, or its defaults when the
/// database names none). Options that contradict the database are refused
/// in one line naming the database's own rules and `command` (the command
/// as typed less its options, say `connect4 value 4453`) that reads it.
///
/// A database that cannot be opened, is another game's or records no
/// rules key (written before keys were recorded) is left to the command's
/// own opening, which says what is wrong with it.
pub fn game_in_db<G: CliGame>(
    dir: &Path,
    asked: impl FnOnce(Option<&G>) -> Result<G, Error>,
    command: &str,
) -> Result<G, Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    let held = Database::open_any(dir)
        .ok()
        .filter(|db| db.game() == G::NAME)
        .and_then(|db| db.rules_key().and_then(G::from_rules_key));
    let game = asked(held.as_ref())?;
    match held {
        Some(held) if held.rules() != game.rules() => Err(Error::Usage(format!(
            "database {}: written for other rules than these ({}): it holds {} ({}); `{} {command} --db {}` reads it with its own rules",
            dir.display(),
            game.rules_words(),
            held.title(),
            held.rules_words(),
            program(),
            dir.display(),
        ))),
        _ => Ok(game),
    }
}

/// The rules a database of `game` records: its key, and the key in
/// words for messages.
pub(super) fn rules_of<G: CliGame>(game: &G) -> super::analyze::Rules
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    super::analyze::Rules {
        key: game.rules(),
        words: game.rules_words(),
    }
}

/// A command as typed, from its words (`connect4 value 4453`; an empty
/// word, such as the start's position, left out).
pub fn command_line(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| w.trim())
        .filter(|w| !w.is_empty())
        .map(game_core::echo)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The name this program was run by (`gamesolve`, or a user's binary).
pub(super) fn program() -> String {
    std::env::args_os()
        .next()
        .as_deref()
        .map(Path::new)
        .and_then(Path::file_stem)
        .map_or_else(|| "gamesolve".into(), |n| n.to_string_lossy().into_owned())
}

fn value_json(v: Value) -> serde_json::Value {
    json!({ "outcome": v.outcome().name(), "remoteness": v.remoteness() })
}

/// What a command runs a whole solve for ([`check_whole`]), which says
/// what to do instead.
#[derive(Clone, Copy)]
pub enum WholeFor {
    /// `solve`, which takes `--db`.
    Solve,
    /// `value` or `play`, which answer from a database `solve --db` wrote.
    Answer,
}

/// Refuses, before anything is solved, a solve kept whole in memory (no
/// database to hand tiers to) whose tables pass the memory limit, in
/// human units and with advice for the command `what` is run for (it
/// printed raw bytes, "needs 11243878 bytes … over the limit of
/// 10485760", and told `value` and `play` to "solve with --db DIR").
pub fn check_whole<G: CliGame>(game: &Canonical<G>, what: WholeFor, ctx: &Ctx) -> Result<(), Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    // One tier: its table is the engine's to check, beside the engine's
    // working memory, with an amount that would do (and a database
    // would not help: the tier is solved in memory all the same).
    if game.tiers().len() == 1 {
        return Ok(());
    }
    let needed = tables_bytes(game);
    let limit = ctx.budget.memory();
    if needed > limit {
        let advice = match what {
            WholeFor::Solve => {
                "solve with --db DIR (tiers go to disk as they are solved)".to_string()
            }
            WholeFor::Answer => format!(
                "solve it to disk once with `{} solve{} --db DIR`, then give this command --db DIR",
                G::NAME,
                game.0.options()
            ),
        };
        let (need, have) = human_bytes_apart(needed, limit);
        return Err(Error::Usage(format!(
            "{} needs {need} of tables in memory, over the limit of {have}: {advice}; or raise --memory BYTES if the machine has it",
            game.0.title()
        )));
    }
    Ok(())
}

use solver_retro::cost::Work;

/// Refuses, before anything is solved, a solve past the work budget:
/// [`CliGame::SOLVE_STEPS`] an index, and the walk and the certificate
/// as [`Work`] asks.
pub fn check_work<G: CliGame>(game: &Canonical<G>, work: Work, ctx: &Ctx) -> Result<(), Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    let cost = solver_retro::cost::work(game, G::SOLVE_STEPS, work);
    let (n, steps) = (cost.indices, cost.steps);
    let and = match work {
        Work::Solve => "",
        Work::Whole { certify: false, .. } => {
            ", the walk of the positions reachable from the start"
        }
        Work::Whole { certify: true, .. } => {
            ", the walk of the positions reachable from the start and the certificate"
        }
    };
    let indices = if cost.left == n {
        plural(n, "index")
    } else {
        format!(
            "{} of its {} left to solve",
            grouped(cost.left),
            plural(n, "index")
        )
    };
    ctx.budget.check_work(
        &format!("solving {} ({indices}){and}", game.0.title()),
        steps,
    )?;
    Ok(())
}

/// Refuses a cluster of more workers than the work budget can start and
/// join for a solve of `tiers` tiers ([`ClusterConfig::start_steps`]).
pub fn check_cluster_work(config: &ClusterConfig, tiers: usize, ctx: &Ctx) -> Result<(), Error> {
    ctx.budget.check_work(
        &format!(
            "running {} cluster workers, every one joined to every other",
            config.workers()
        ),
        config.start_steps(tiers),
    )?;
    Ok(())
}

use solver_retro::cost::{indices_of, tables_bytes};

/// Steps of work [`GameCheck`](solver_retro::GameCheck) takes a sampled
/// position of a tiered game (some 2,000 measured on Dobutsu shogi, the
/// heaviest).
pub const CHECK_STEPS: u64 = 2_500;

/// Refuses, before anything is solved, a cluster solve whose tables pass
/// the memory limit: every process ends holding every tier it solves,
/// with or without a database, and the levels' lists and updates
/// ([`solver_cluster::held_bytes`]).
fn check_cluster<G: CliGame>(
    game: &Canonical<G>,
    config: &ClusterConfig,
    ctx: &Ctx,
) -> Result<(), Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    ctx.budget.check_memory(
        &format!(
            "solving {} on the cluster (every process ends holding every tier's table, beside its workers' channels)",
            game.0.title()
        ),
        solver_cluster::held_bytes(game).saturating_add(config.channel_bytes()),
    )?;
    Ok(())
}

fn db_err(e: game_db::Error) -> Error {
    super::analyze::db_error(e)
}

/// The report of a database that was finished before this run.
fn already_solved<G: CliGame>(game: &Canonical<G>, db: &Database) -> Result<Option<Report>, Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    if !game.tiers().iter().all(|&t| db.is_finished(t)) {
        return Ok(None);
    }
    // Said solved only when every tier's file still matches its checksums
    // (the manifest alone would vouch for a damaged file).
    for t in game.tiers() {
        gamesolve::store::check_records(db, t, game.tier_size(t))?;
        db.verify(t).map_err(db_err)?;
    }
    let start = game.0.canonical(&game.0.start());
    // Checked against its children's records before it is reported.
    let v = super::analyze::checked_lookup(game, db, &start, "")?;
    let v = v.ok_or_else(|| Error::Usage("the start is not stored".into()))?;
    Ok(Some(
        Report::new(
            format!(
                "The database in {} is already solved (every tier file checked): from the start the first player {}.",
                db.dir().display(),
                verdict_words(v)
            ),
            json!({ "already_solved": true, "start": value_json(v) }),
        )
        .timed(&[]),
    ))
}

/// `G solve [--db DIR] [--no-certify]`.
pub fn solve<G: CliGame>(
    game: G,
    no_certify: bool,
    db: Option<&Path>,
    ctx: &Ctx,
) -> Result<Report, Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    let title = game.title();
    let game = Canonical(game);
    match db {
        // A database this solve creates is removed again if it fails
        // before a tier is finished.
        Some(dir) => SolveDb::open(dir, G::NAME, &rules_of(&game.0))?
            .run(|db| solve_in(&game, &title, no_certify, Some(db), ctx)),
        None => solve_in(&game, &title, no_certify, None, ctx),
    }
}

/// [`solve`] once the database, if any, is open.
fn solve_in<G: CliGame>(
    game: &Canonical<G>,
    title: &str,
    no_certify: bool,
    db: Option<&Database>,
    ctx: &Ctx,
) -> Result<Report, Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    if let Some(db) = db {
        if let Some(r) = already_solved(game, db)? {
            return Ok(r);
        }
    }
    // A resumed solve solves only the tiers the database has not
    // finished (its work was counted as the whole game's).
    let finished = db.map_or(0, |db| indices_of(game, |t| db.is_finished(t)));
    check_work(
        game,
        Work::Whole {
            certify: !no_certify,
            finished,
        },
        ctx,
    )?;
    // The solver chooses: with a database every index, solved into it;
    // without one, a game whose every move leaves its tier is solved
    // reachable-first — the positions reachable from the start are found,
    // then solved and counted; without a certificate to check, only the
    // start's table is kept (a database keeps every index), and the
    // engine checks its own groups (a tier, its child tiers, the bitmaps)
    // against the limit. When it holds every table to the end, they must
    // fit at once.
    let weight = |p: &G::Position| game.0.weight(p);
    let mut store = db.map(gamesolve::store::DbStore::new);
    let mut solver = super::register::tier_solver(game)
        .start(game.0.start(), &weight)
        .keep(if no_certify { Keep::Start } else { Keep::All });
    if let Some(store) = store.as_mut() {
        solver = solver.store(store);
    }
    let plan = solver.plan();
    if plan.tables == Tables::Held {
        check_whole(game, WholeFor::Solve, ctx)?;
    }
    // The walk and the certificate that follow the solve, for its
    // estimate of the time left: the certificate runs where every table
    // is still held at the end — all of them are, or (with a database to
    // drop them to) they all fit the memory limit together.
    let all_held = match plan.tables {
        Tables::Held => true,
        Tables::Dropped => tables_bytes(game) <= ctx.config().limit(),
        _ => false,
    };
    let after = solver_retro::cost::after_share(
        plan.positions != solver_retro::Positions::Reachable,
        !no_certify && all_held,
    );
    // What a resumed solve found done, said before it goes on (and in
    // its report).
    let resumed = db.and_then(|db| {
        let tiers = game.tiers().iter().filter(|&&t| db.is_finished(t)).count() as u64;
        (tiers > 0).then_some(Resumed {
            tiers,
            of: game.tiers().len() as u64,
            positions: finished,
        })
    });
    if let Some(r) = &resumed {
        super::progress::note(&r.words());
    }
    let t = Instant::now();
    let spinner = super::progress::Spinner::new("solving");
    let left = indices_of(game, |_| true).saturating_sub(finished);
    let config = super::progress::config_sized(&spinner, ctx, left, after);
    let done = solver.config(&config).solve()?;
    let solve_s = t.elapsed().as_secs_f64();
    let sol = &done.solution;
    // The solver's own walk where it has one (a game solved by its dense
    // index walks by it), else the tier walk.
    let start = game.0.start();
    let by_index = |c: &solver_retro::Config| done.reach_by_index(&start, &weight, c);
    finish(
        game,
        title,
        sol,
        &|t| sol.table(t),
        // The index's own certificate where the solve ran by it.
        &|| {
            done.certify_by_index()
                .unwrap_or_else(|| solver_retro::certify_tiers_with(sol, &config))
                .map_err(|e| e.to_string())
        },
        db,
        Done {
            no_certify,
            solve_s,
            reach: done.reach.clone(),
            resumed,
            by_index: &by_index,
        },
        &spinner,
        serde_json::Value::Null,
        ctx,
    )
}

/// `G solve --cluster FLAGS…`: the same solve on timely workers across
/// processes and hosts (see `solver_cluster`); process 0 reports, the
/// others print nothing.
pub fn solve_cluster<G: CliGame>(
    game: G,
    no_certify: bool,
    db: Option<&Path>,
    flags: &[String],
    ctx: &Ctx,
) -> Result<Report, Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    // The command's one configuration (its memory limit), the cluster's
    // threads its workers (`-w`).
    let config = ClusterConfig::new(ctx.config(), flags.iter().cloned())?.rules(format!(
        "{} {}",
        G::NAME,
        game.rules()
    ));
    let leader = config.process() == 0;
    let title = game.title();
    let game = Canonical(game);
    // Counted whole: the cluster's database is opened (by every process)
    // only after the checks, so a resumed cluster solve is counted as a
    // fresh one.
    check_work(
        &game,
        Work::Whole {
            certify: !no_certify,
            finished: 0,
        },
        ctx,
    )?;
    check_cluster_work(&config, game.tiers().len(), ctx)?;
    check_cluster(&game, &config, ctx)?;
    let key = super::analyze::cluster_key(config.processes(), &game.0.rules(), flags);
    let (db, _lock) = match db {
        Some(dir) => {
            let (db, lock) =
                super::analyze::open_cluster_db(dir, G::NAME, &rules_of(&game.0), leader, &key)?;
            (Some(Arc::new(db)), lock)
        }
        None => (None, None),
    };
    let before = match &db {
        Some(db) if leader => already_solved(&game, db)?,
        _ => None,
    };
    let t = Instant::now();
    let spinner = leader.then(|| super::progress::Spinner::new("solving on the cluster"));
    let all = indices_of(&game, |_| true);
    let config = match &spinner {
        // The walk and the certificate after it, priced by the model.
        Some(s) => config.progress(super::progress::report_sized(
            s,
            all,
            solver_retro::cost::after_share(true, !no_certify),
        )),
        None => config,
    };
    let sol = super::register::solve_on_cluster(game.clone(), &config, db.clone())?;
    let solve_s = t.elapsed().as_secs_f64();
    let Some(spinner) = spinner else {
        return Ok(Report::follower(config.process(), ctx));
    };
    if let Some(r) = before {
        return Ok(r);
    }
    let traffic = sol.traffic();
    let cluster = cluster_json(sol.processes(), sol.workers(), &traffic);
    // A game of one tier solved by its dense index is walked and
    // certified by it, as the solve on one machine is.
    let unmoves = G::unmoves().map(|u| u.tiers);
    let one = match game.tiers()[..] {
        [t] => sol.table(t),
        _ => None,
    };
    let start = game.0.start();
    let weight = |p: &G::Position| game.0.weight(p);
    let by_index = |c: &solver_retro::Config| {
        unmoves
            .as_ref()
            .zip(one)
            .and_then(|(u, table)| u.reach_by_index(&game, table, &start, &weight, c))
    };
    finish(
        &game,
        &title,
        &sol,
        &|t| sol.table(t),
        &|| {
            unmoves
                .as_ref()
                .zip(one)
                .and_then(|(u, table)| u.certify_by_index(&game, table))
                .unwrap_or_else(|| solver_retro::certify_tiers(&sol))
                .map_err(|e| e.to_string())
        },
        db.as_deref(),
        Done {
            no_certify,
            solve_s,
            reach: None,
            resumed: None,
            by_index: &by_index,
        },
        &spinner,
        cluster,
        ctx,
    )
}

/// What a solve hands [`finish`]: whether to skip the certificate, its
/// seconds, the reachable counts when the solve found them itself, and
/// what it found done when it resumed.
struct Done<'w> {
    no_certify: bool,
    solve_s: f64,
    reach: Option<solver_retro::TierReach>,
    resumed: Option<Resumed>,
    /// The solver's walk of the positions reachable from the start by
    /// the game's index, given the walk's configuration, if it has one
    /// ([`solver_retro::TierSolve::reach_by_index`]).
    by_index: &'w ByIndex<'w>,
}

/// [`Done::by_index`].
type ByIndex<'w> = dyn Fn(&solver_retro::Config) -> Option<Result<solver_retro::TierReach, solver_retro::Error>>
    + 'w;

/// What a resumed `solve --db` found done in its database.
#[derive(Debug, Clone, Copy)]
struct Resumed {
    /// Tiers found finished.
    tiers: u64,
    /// Tiers in all.
    of: u64,
    /// Their indices.
    positions: u64,
}

impl Resumed {
    /// `Resumed: 1 of 2 tiers (12,345 indices) were found done in the
    /// database; the rest solved now.`
    fn words(&self) -> String {
        format!(
            "Resumed: {} of {} ({}) {} found done in the database; the rest solved now.",
            grouped(self.tiers),
            plural(self.of, "tier"),
            plural(self.positions, "index"),
            if self.tiers == 1 { "was" } else { "were" }
        )
    }
}

/// Everything after the solve: the start's value, the positions reachable
/// from it, the certificate, the report.
#[allow(clippy::too_many_arguments)]
fn finish<'t, G: CliGame>(
    game: &Canonical<G>,
    title: &str,
    sol: &dyn SolvedValue<G::Position>,
    table: &dyn Fn(Tier) -> Option<&'t Table>,
    certify: &dyn Fn() -> Result<solver_retro::Certificate, String>,
    db: Option<&Database>,
    done: Done<'_>,
    spinner: &super::progress::Spinner,
    cluster: serde_json::Value,
    ctx: &Ctx,
) -> Result<Report, Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    let start = game.0.start();
    let (t0, i0) = (game.tier(&start), game.tier_index(&start));
    let v = match (sol.value_of(&start), db) {
        (Some(v), _) => v,
        (None, Some(db)) => db
            .lookup(t0, i0)
            .map_err(db_err)?
            .ok_or_else(|| Error::Usage("the start is not stored".into()))?,
        (None, None) => return Err(Error::Usage("the start position was not solved".into())),
    };
    let Done {
        no_certify,
        solve_s,
        reach: known,
        resumed,
        by_index,
    } = done;
    // The positions the certificate covers: those the solve holds — the
    // ones reachable from the start when it found them first, else every
    // position of the tiers.
    let (set, set_words) = if known.is_some() {
        ("reachable", "positions reachable from the start")
    } else {
        ("tiers", "positions of the tiers")
    };
    if known.is_none() {
        spinner
            .bar()
            .set_message("counting the positions reachable from the start");
    }
    let t = Instant::now();
    let weight = |p: &G::Position| game.0.weight(p);
    let counted_in_solve = known.is_some();
    // The walk's bitmaps come on top of the tables the solve holds.
    let held: u64 = game
        .tiers()
        .iter()
        .filter_map(|&t| table(t))
        .map(Table::bytes)
        .sum();
    let config = ctx.config();
    let walk = config
        .clone()
        .memory_limit(config.limit().saturating_sub(held));
    let fast = match known {
        Some(_) => None,
        None => by_index(&walk).transpose()?,
    };
    let reach = match known.or(fast) {
        Some(r) => r,
        None => solver_retro::reachable_tiers(
            game,
            &start,
            // A tier read back from the database is read within the room
            // the walk leaves beside its bitmaps (it was read within the
            // whole --memory, on top of them).
            &mut |t, room| match (table(t), db) {
                (Some(table), _) => Ok(Some(Held::Borrowed(table))),
                (None, Some(db)) => Ok(Some(Held::Owned(gamesolve::store::load_tier_within(
                    db,
                    t,
                    game.tier_size(t),
                    &ctx.budget.clone().with_memory(room),
                )?))),
                // A tier dropped to stay within the memory limit, with no
                // database to read it back from: refuse rather than count its
                // positions as draws.
                (None, None) => Err(solver_retro::Error::Store(format!(
                    "tier {} was not kept in memory (over the memory limit); solve with --db DIR",
                    game.tier_name(t)
                ))),
            },
            &weight,
            &walk,
        )?,
    };
    let reach_s = t.elapsed().as_secs_f64();
    spinner
        .bar()
        .set_message("checking the certificate move by move");
    let t = Instant::now();
    let all_held = game.tiers().iter().all(|&t| table(t).is_some());
    let cert = if no_certify || !all_held {
        None
    } else {
        Some(certify())
    };
    let cert_s = t.elapsed().as_secs_f64();
    let indices: u64 = game.tiers().iter().map(|&t| game.tier_size(t)).sum();
    let c = reach.counts;
    let verified = cert.as_ref().map(Result::is_ok);
    // The widest cells of the tables held (1, 2 or 4 bytes; 2 when none
    // is held, the database's), in the text and the JSON alike.
    let bytes = game
        .tiers()
        .iter()
        .filter_map(|&t| table(t).map(Table::bytes_per_position))
        .max()
        .unwrap_or(2);
    let threads = match cluster.get("workers").and_then(serde_json::Value::as_u64) {
        Some(w) => plural(w, "cluster worker"),
        None => plural(ctx.threads() as u64, "thread"),
    };
    // The times are the last line's (`Report::timed`), the whole run's.
    let mut text = format!(
        "{title}: from the start the first player {}.\n\
         Reachable from the start: {} positions ({} up to symmetry); \
         for the player to move {} are won, {} lost, {} tied and {} drawn.\n\
         {}\n\
         Solved {} of {}{} on {threads} ({}){}.",
        verdict_words(v),
        grouped(reach.count),
        grouped(reach.canonical),
        grouped(c.win),
        grouped(c.lose),
        grouped(c.tie),
        grouped(c.draw),
        match &cert {
            None if no_certify => "Certificate: skipped (--no-certify).".to_string(),
            // The tiers found done were not solved in this run: their
            // tables are in the database, not in memory.
            None => "Certificate: skipped (the tiers are not all in memory; the database holds them). \
                     The same solve without --db certifies every tier in memory."
                .to_string(),
            Some(Ok(c)) => format!(
                "Certificate: every one of the {} {set_words} (up to symmetry) checked against its {} — consistent.",
                grouped(c.positions), plural(c.children, "distinct child")
            ),
            Some(Err(e)) => format!("Certificate: FAILED — {e}"),
        },
        plural(game.tiers().len() as u64, "tier"),
        plural(indices, "index"),
        if counted_in_solve {
            " (the positions reachable from the start, found first)"
        } else {
            ""
        },
        plural(bytes, "byte") + " an index",
        if counted_in_solve {
            "; the reachable ones counted in the solve"
        } else {
            ""
        },
    );
    if let Some(r) = &resumed {
        text += &format!("\n{}", r.words());
    }
    if let Some(Err(e)) = &cert {
        return Err(Error::Certificate(e.clone()));
    }
    let mut j = json!({
        "game": G::NAME,
        "start": value_json(v),
        "reachable": reach.count,
        "reachable_canonical": reach.canonical,
        "win": c.win, "lose": c.lose, "tie": c.tie, "draw": c.draw,
        "verified": verified,
        "indices": indices,
        "bytes_per_position": bytes,
        "seconds": {
            "solve": solve_s,
            "certify": cert.as_ref().map(|_| cert_s),
            // In the solve's time when the solve counted them.
            "reachable": (!counted_in_solve).then_some(reach_s),
        },
    });
    if let Some(Ok(c)) = &cert {
        j["certificate"] = json!({ "positions": c.positions, "children": c.children, "of": set });
    }
    if let Some(r) = resumed {
        j["resumed"] = json!({ "tiers": r.tiers, "positions": r.positions });
    }
    if !cluster.is_null() {
        j["cluster"] = cluster;
    }
    let times = [
        ("solve", solve_s),
        ("walk", if counted_in_solve { 0.0 } else { reach_s }),
        ("certificate", if cert.is_some() { cert_s } else { 0.0 }),
    ];
    Ok(Report::new(text, j).timed(&times))
}

/// The value of a position in a solution of either kind.
pub trait SolvedValue<P> {
    /// The value of `pos`, if solved and held.
    fn value_of(&self, pos: &P) -> Option<Value>;
}

impl<S: Solved> SolvedValue<<S::Game as game_core::Game>::Position> for S {
    fn value_of(&self, pos: &<S::Game as game_core::Game>::Position) -> Option<Value> {
        self.value(pos)
    }
}

/// `G value POSITION [--db DIR]`: the value, the best move and every
/// move's value.
pub fn value<G: CliGame>(game: G, text: &str, db: Option<&Path>, ctx: &Ctx) -> Result<Report, Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    let pos = game.parse(text)?;
    let game = Canonical(game);
    type Lookup<'a, P> = Box<dyn Fn(&P) -> Result<Option<Value>, Error> + 'a>;
    let lookup: Lookup<'_, G::Position> = match db {
        Some(dir) => {
            let db = open_db(dir, G::NAME, &rules_of(&game.0), false)?;
            let g = &game;
            // Each tier read is first checked to hold the game's number of
            // records, as analyze and play check every tier.
            let checked = std::cell::RefCell::new(Vec::new());
            Box::new(move |p| {
                let c = g.0.canonical(p);
                let t = g.tier(&c);
                if !checked.borrow().contains(&t) {
                    // An unfinished tier is said as every command says it.
                    db.records(t).map_err(db_err)?;
                    gamesolve::store::check_records(&db, t, g.tier_size(t))?;
                    checked.borrow_mut().push(t);
                }
                db.lookup(t, g.tier_index(&c)).map_err(db_err)
            })
        }
        None => {
            check_work(&game, Work::Solve, ctx)?;
            check_whole(&game, WholeFor::Answer, ctx)?;
            let sol = super::register::tier_solver(&game)
                .config(&ctx.config())
                .solve()?
                .solution;
            // Keep what a query needs: the position and its children.
            let mut kids = vec![pos.clone()];
            let mut mv = Vec::new();
            if game.0.outcome(&pos).is_none() {
                game.0.moves(&pos, &mut mv);
                kids.extend(mv.iter().map(|m| game.0.play(&pos, m)));
            }
            let values: Vec<(G::Position, Option<Value>)> = kids
                .into_iter()
                .map(|k| {
                    let v = sol.value(&game.0.canonical(&k));
                    (k, v)
                })
                .collect();
            Box::new(move |p| Ok(values.iter().find(|(k, _)| k == p).and_then(|(_, v)| *v)))
        }
    };
    let unsolved = || Error::Usage("the position was not solved".into());
    // A database's answer is checked against its children's records, by
    // the certificate's rule for one position: records whose checksums
    // hold can still be wrong (written by another program, or edited).
    let (v, moves) = match db {
        Some(dir) => {
            let looked = solver_retro::look_up_checked(
                &game.0,
                &pos,
                |p| lookup(p),
                |v, flaw| super::analyze::contradicted(dir, text, v, flaw),
            )?
            .ok_or_else(unsolved)?;
            // And each move's value printed, against its own children.
            super::analyze::check_children(&game.0, &pos, &*lookup, dir, &|c| game.0.line(c))?;
            (looked.value, looked.moves)
        }
        None => {
            let v = lookup(&pos)?.ok_or_else(unsolved)?;
            let mut mv = Vec::new();
            let mut moves = Vec::new();
            if game.0.outcome(&pos).is_none() {
                game.0.moves(&pos, &mut mv);
                for m in mv {
                    if let Some(cv) = lookup(&game.0.play(&pos, &m))? {
                        moves.push((m, cv));
                    }
                }
            }
            (v, moves)
        }
    };
    // Named as `play` and the server name them: by who is to move.
    let first = game.0.first_to_move(text);
    let options: Vec<_> = moves
        .iter()
        .map(|(m, cv)| (game.0.show_move_at(&pos, m, first), cv.parent()))
        .collect();
    let best = best_move(&game.0, &pos, |c| lookup(c).ok().flatten(), &mut Vec::new())
        .map(|(m, _)| game.0.show_move_at(&pos, &m, first));
    let over = game.0.over_words(&pos);
    let (text, json) = value_report(
        &game.0.show_at(&pos, first),
        v,
        best.as_ref(),
        &options,
        over.as_deref(),
    );
    Ok(Report::new(text, json))
}

/// What `value` prints of a position, in text and JSON: its picture
/// `shown`, its value `v`, the best move and every move's value (from a
/// table, a database or a search alike); without a best move, the game
/// is over, in the game's words `over` if it has them.
pub fn value_report(
    shown: &str,
    v: Value,
    best: Option<&String>,
    options: &[(String, Value)],
    over: Option<&str>,
) -> (String, serde_json::Value) {
    let mut text = format!(
        "{shown}\nThe player to move {}{}.",
        verdict_words(v),
        best.map_or(
            format!(" ({})", over.unwrap_or("the game is over")),
            |m| format!("; best move: {m}")
        )
    );
    for (m, ov) in options {
        text += &format!("\n  {m}: {}", verdict_words(*ov));
    }
    let json = json!({
        "outcome": v.outcome().name(),
        "remoteness": v.remoteness(),
        // No best move: no move at all, the game is over.
        "over": best.is_none(),
        "best": best,
        "moves": options.iter().map(|(m, ov)| json!({
            "move": m,
            "outcome": ov.outcome().name(),
            "remoteness": ov.remoteness(),
        })).collect::<Vec<_>>(),
    });
    (text, json)
}

/// `G analyze --db DIR`.
pub fn analyze_db<G: CliGame>(game: G, db: &Path, ctx: &Ctx) -> Result<Report, Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    let title = game.title();
    let indices = game
        .tiers()
        .iter()
        .fold(0u64, |n, &t| n.saturating_add(game.tier_size(t)));
    // The database first: one that is not there, or is another game's,
    // is said so before any budget is.
    let db = open_db(db, G::NAME, &rules_of(&game), false)?;
    super::analyze::check_analyze(ctx, &title, indices, super::analyze::ANALYZE_STEPS)?;
    let game = Canonical(game);
    let weight = |p: &G::Position| game.0.weight(p);
    analyze(
        &title,
        &game,
        &db,
        &game.0.start(),
        &weight,
        &|p| game.0.line(p),
        ctx,
    )
}

/// `G check`: every promise of the game's own capabilities
/// ([`CliGame::check_capabilities`]: an index, unmoves, fast paths), its
/// tiers and its symmetry, on `samples` positions each; the positions
/// reported are the most one check looked at (every position of a small
/// game, however many checks ran).
pub fn check<G: CliGame>(game: G, samples: u64) -> Result<Report, Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    let own = game.check_capabilities(samples)?;
    let mut check = solver_retro::GameCheck::new(&game, samples);
    check
        .tiered()
        .and_then(|c| c.symmetric_tiers())
        .map_err(|e| Error::Usage(e.to_string()))?;
    let n = check.widest().max(own);
    Ok(Report::new(
        format!(
            "{}: every promise held on {} checked (tiers, indices, children, symmetry{}; each check looked at each).",
            game.title(),
            plural(n, "position"),
            if own > 0 { ", and the fast paths the game declares" } else { "" }
        ),
        json!({ "ok": true, "positions": n }),
    ))
}

/// The commands of a game with fixed rules (Teeko, Dobutsu shogi).
#[derive(Debug, clap::Subcommand)]
pub enum FixedCmd {
    /// Solve every position; the start's value, counts of the positions
    /// reachable from the start, the certificate.
    Solve {
        #[command(flatten)]
        flags: SolveFlags,
    },
    /// The value of a position — the moves from the start, separated by
    /// spaces, or the game's board form — its best move and every move's
    /// value.
    Value {
        /// Moves from the start, or a board.
        #[arg(default_value = "")]
        position: String,
        /// Answer from this database instead of solving.
        #[arg(long, value_name = "DIR")]
        db: Option<std::path::PathBuf>,
    },
    /// Statistics of a solved database.
    Analyze {
        /// The database written by `solve --db`.
        #[arg(long, value_name = "DIR")]
        db: std::path::PathBuf,
    },
    /// Check the game's implementation on sampled positions.
    Check {
        #[command(flatten)]
        samples: Samples,
    },
}

/// Runs a [`FixedCmd`] for a game with an index and unmoves.
pub fn run_fixed<G>(game: G, cmd: FixedCmd, ctx: &Ctx) -> Result<Report, Error>
where
    G: CliGame,
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    match cmd {
        FixedCmd::Solve { flags } => flags.solve(game, ctx),
        FixedCmd::Value { position, db } => value(game, &position, db.as_deref(), ctx),
        FixedCmd::Analyze { db } => analyze_db(game, &db, ctx),
        FixedCmd::Check { samples } => samples.check(game, 4, ctx),
    }
}

/// The `"cluster"` object of a cluster solve's JSON report: the
/// cluster's shape and what process 0's workers sent.
pub(super) fn cluster_json(
    processes: usize,
    workers: usize,
    traffic: &solver_cluster::Traffic,
) -> serde_json::Value {
    json!({
        "processes": processes,
        "workers": workers,
        "traffic_process_0": {
            "update_bytes": traffic.bytes,
            "update_bytes_to_other_processes": traffic.remote_bytes,
            "singles": traffic.singles,
            "runs": traffic.runs,
            "run_parents": traffic.run_parents,
            "local_updates": traffic.local_updates,
            "max_level_bytes_one_worker": traffic.max_level_bytes,
            "max_round_bytes_one_worker": traffic.max_round_bytes,
            "scanned_levels": traffic.scanned_levels,
            "summaries": traffic.summaries,
            "gathered_cells_to_other_processes": traffic.gather_cells_remote,
            "levels": traffic.levels,
            "rounds": traffic.rounds,
        },
    })
}
