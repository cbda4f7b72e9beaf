//! `gamesolve <game> analyze --db DIR`: what a solved database holds,
//! tier by tier and in total, in the shape of GamesmanOne's `analyze`.

use std::path::Path;

use game_core::{Tier, Tiered, Value};
use game_db::Database;
use serde_json::{json, Value as Json};
use solver_retro::{Counts, Flaw, Held, TierStats};

use super::{Error, Report};
use game_core::{grouped, plural};

fn counts_json(c: &Counts) -> Json {
    json!({ "win": c.win, "lose": c.lose, "tie": c.tie, "draw": c.draw, "total": c.total() })
}

/// Steps of work [`analyze`] takes an index of the game: reading its
/// cell, its counts and moves, and the forward walk over the reachable
/// ones. Measured: Connect Four 5×5's 171,976,899 indices in 8.5 s on one
/// thread, ~49 ns an index, at the budget's few nanoseconds a step.
pub const ANALYZE_STEPS: u64 = 20;

/// Checks that analysing a database of `indices` indices of `title`, at
/// `per_index` steps an index ([`ANALYZE_STEPS`] unless the game's moves
/// cost more), fits in the work budget, before its tables are read.
///
/// # Errors
/// [`Error::TooLarge`] for work, naming the game and its indices.
pub fn check_analyze(
    ctx: &super::Ctx,
    title: &str,
    indices: u64,
    per_index: u64,
) -> Result<(), Error> {
    ctx.budget.check_work(
        &format!(
            "analysing the database of {title} ({})",
            plural(indices, "index")
        ),
        indices.saturating_mul(per_index),
    )?;
    Ok(())
}

/// The analysis of a database of `game` solved from `start`: every tier's
/// positions read from the database (no solving), the reachable ones
/// found by a forward walk. `weight` gives a canonical position's class
/// size (1 without symmetry); `describe` prints a position.
pub fn analyze<G>(
    title: &str,
    game: &G,
    db: &Database,
    start: &G::Position,
    weight: &(dyn Fn(&G::Position) -> u64 + Sync),
    describe: &dyn Fn(&G::Position) -> String,
    ctx: &super::Ctx,
) -> Result<Report, Error>
where
    G: Tiered + Sync,
    G::Position: Send,
    G::Move: Send,
{
    let order = game.tiers();
    if let Some(&t) = order.iter().find(|&&t| !db.is_finished(t)) {
        return Err(not_finished(db.dir(), &game.tier_name(t)));
    }
    let mut per_tier = Vec::new();
    let mut total = TierStats::default();
    // Progress: the tiers and indices read of all, then the tiers the walk
    // has read (it skips a tier no position reaches).
    let (tiers, indices) = (
        order.len() as u64,
        order
            .iter()
            .fold(0u64, |n, &t| n.saturating_add(game.tier_size(t))),
    );
    let spinner = super::progress::Spinner::new(reading_words(0, tiers, 0, indices));
    let mut read = 0u64;
    for (k, &t) in order.iter().enumerate() {
        let size = game.tier_size(t);
        spinner
            .bar()
            .set_message(reading_words(k as u64, tiers, read, indices));
        read = read.saturating_add(size);
        let table = gamesolve::store::load_tier_within(db, t, size, &ctx.budget)?;
        let s = TierStats::of_tier(game, t, &table, weight);
        if let Some(i) = s.unrecorded {
            let at = game.tier_position(t, i).map_or(String::new(), |p| {
                format!(" ({})", game_core::echo(&describe(&p)))
            });
            return Err(Error::Usage(gamesolve::store::damaged(
                db.dir(),
                format_args!(
                    "{}: tier {} has no record for its position {i}{at}",
                    db.dir().display(),
                    game.tier_name(t)
                ),
            )));
        }
        total = total.merge(s.clone());
        per_tier.push((t, s));
    }
    spinner.bar().set_message(walking_words(0, tiers));
    let mut walked = 0u64;
    let reach = solver_retro::reachable_tiers(
        game,
        start,
        // Each tier is read within the room the walk leaves beside its
        // bitmaps (it was read within the whole --memory, on top of them).
        &mut |t, room| {
            spinner.bar().set_message(walking_words(walked, tiers));
            walked += 1;
            Ok(Some(Held::Owned(gamesolve::store::load_tier_within(
                db,
                t,
                game.tier_size(t),
                &ctx.budget.clone().with_memory(room),
            )?)))
        },
        weight,
        &ctx.config(),
    )?;
    let example = |e: Option<(u32, Tier, u64)>| -> Json {
        e.map_or(Json::Null, |(r, t, i)| {
            json!({ "remoteness": r, "tier": t, "index": i,
                    "position": game.tier_position(t, i).map(|p| describe(&p)) })
        })
    };
    let tier_json: Vec<Json> = per_tier
        .iter()
        .map(|(t, s)| {
            json!({
                "tier": game.tier_name(*t),
                "canonical": counts_json(&s.canonical),
                "all": counts_json(&s.all),
                "longest_win": example(s.longest_win),
                "longest_loss": example(s.longest_loss),
                "most_moves": s.most_moves.map(|(m, _, _)| m),
            })
        })
        .collect();
    let remoteness: Vec<Json> = total
        .by_remoteness
        .iter()
        .map(|(&(o, r), &n)| json!({ "outcome": o.name(), "remoteness": r, "positions": n }))
        .collect();
    // What the report names is checked by the certificate's local rule
    // first: the start and the longest win's and loss's examples (the
    // counts are the stored records', each block's checksum checked).
    let start_value: Option<Value> = checked_lookup(game, db, start, "")?;
    for (r, t, i) in [total.longest_win, total.longest_loss]
        .into_iter()
        .flatten()
    {
        if let Some(p) = game.tier_position(t, i) {
            checked_lookup(
                game,
                db,
                &p,
                &format!("the example of {r} plies, tier {t} index {i}"),
            )?;
        }
    }
    let mut text = format!(
        "{title}: database {} ({}, {} bytes on disk)\n\
         From the start: {}\n\
         All positions: {} stored ({} won, {} lost, {} tied, {} drawn); {} counting symmetric ones.\n\
         Reachable from the start: {} positions ({} stored): {} won, {} lost, {} tied, {} drawn.\n",
        db.dir().display(),
        plural(order.len() as u64, "tier"),
        grouped(db.total_bytes()),
        start_value.map_or("not stored".into(), |v| v.to_string()),
        grouped(total.canonical.total()),
        grouped(total.canonical.win),
        grouped(total.canonical.lose),
        grouped(total.canonical.tie),
        grouped(total.canonical.draw),
        grouped(total.all.total()),
        grouped(reach.count),
        grouped(reach.canonical),
        grouped(reach.counts.win),
        grouped(reach.counts.lose),
        grouped(reach.counts.tie),
        grouped(reach.counts.draw),
    );
    let show = |label: &str, e: Option<(u32, Tier, u64)>| -> String {
        e.map_or(format!("{label}: none\n"), |(r, t, i)| {
            format!(
                "{label}: {r} plies, e.g. {}\n",
                game.tier_position(t, i)
                    .map_or("?".into(), |p| describe(&p))
            )
        })
    };
    text += &show("Longest win", total.longest_win);
    text += &show("Longest loss", total.longest_loss);
    if let Some((m, _, _)) = total.most_moves {
        text += &format!("Most moves at one position: {m}\n");
    }
    text += "Per tier (stored positions: won / lost / tied / drawn):\n";
    for (t, s) in &per_tier {
        text += &format!(
            "  tier {:>4}: {} / {} / {} / {}\n",
            game.tier_name(*t),
            grouped(s.canonical.win),
            grouped(s.canonical.lose),
            grouped(s.canonical.tie),
            grouped(s.canonical.draw)
        );
    }
    Ok(Report::new(
        text,
        json!({
            "start": start_value.map(|v| json!({"outcome": v.outcome().name(), "remoteness": v.remoteness()})),
            "canonical": counts_json(&total.canonical),
            "all": counts_json(&total.all),
            "reachable": { "all": reach.count, "canonical": reach.canonical, "counts": counts_json(&reach.counts) },
            "remoteness": remoteness,
            "longest_win": example(total.longest_win),
            "longest_loss": example(total.longest_loss),
            "most_moves": total.most_moves.map(|(m, _, _)| m),
            "tiers": tier_json,
            "bytes": db.total_bytes(),
        }),
    ))
}

/// The progress words of an analysis reading its tiers: `done` of
/// `tiers` read, `read` of `indices` indices.
fn reading_words(done: u64, tiers: u64, read: u64, indices: u64) -> String {
    format!(
        "analysing: reading the tiers, {done}/{tiers} read ({} of {} indices), then the walk from the start",
        grouped(read),
        grouped(indices)
    )
}

/// The progress words of an analysis walking from the start: `done` tiers
/// read by the walk, of at most `tiers`.
fn walking_words(done: u64, tiers: u64) -> String {
    format!(
        "analysing: every tier read; walking the positions reachable from the start, {done} of at most {tiers} tiers walked"
    )
}

/// The database of a cluster process, and its share of the directory's
/// lock ([`game_db::SolveDir::cluster`]): process 0 creates (or opens) the
/// database, the others open it once process 0 has created it (the
/// directory is shared by all processes), waiting up to a minute for it.
/// `key` names the solve ([`cluster_key`]): a plain solve, or a process
/// of another cluster solve, writing the directory is refused.
pub fn open_cluster_db(
    dir: &Path,
    game: &str,
    rules: &Rules,
    leader: bool,
    key: &str,
) -> Result<(Database, Option<game_db::DirLock>), Error> {
    let wait = std::time::Duration::from_secs(60);
    game_db::SolveDir::cluster(dir, game, &rules.key, leader, key, wait)
        .map(game_db::SolveDir::into_parts)
        .map_err(|e| match e {
            e @ game_db::Error::Busy { .. } => db_error(e),
            e if leader => open_error(dir, rules, e),
            e => Error::Usage(format!(
                "database {} (created by process 0, shared by every process): {e}",
                dir.display()
            )),
        })
}

/// The name of a cluster solve that all its processes compute alike: its
/// rules and its cluster flags less the process's own id (`-p K`), as
/// `scripts/cluster-local.sh` starts them. A cluster of one process is
/// named by its process id and the time, its own alone: two such solves
/// into one directory are two solves.
pub fn cluster_key(processes: usize, rules: &str, flags: &[String]) -> String {
    if processes <= 1 {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        return format!("one process {} at {now}", std::process::id());
    }
    let mut words = Vec::with_capacity(flags.len());
    let mut skip = false;
    for f in flags {
        if std::mem::take(&mut skip) {
            continue;
        }
        match f.as_str() {
            "-p" | "--process" => skip = true,
            f if f.starts_with("--process=") || (f.starts_with("-p") && f.len() > 2) => {}
            f => words.push(f),
        }
    }
    format!(
        "{processes} processes, rules {rules}, flags {}",
        words.join(" ")
    )
}

/// The value `db` holds for `pos` (a position as the solve stored it: a
/// canonical one of a [`game_core::Canonical`] game), checked first
/// against its children's records by the certificate's rule for one
/// position ([`solver_retro::check_position`], as `value` checks): records
/// whose checksums hold can still be wrong (issue 46: tier 0's remoteness
/// raised by 2, every checksum recomputed, was reported by `solve --db`
/// and `analyze`). `None` without a record; `what` names the position in
/// the refusal ("" for the start).
///
/// # Errors
/// The database's error; [`contradicted`] when the records break the
/// rule.
pub fn checked_lookup<G: Tiered>(
    game: &G,
    db: &Database,
    pos: &G::Position,
    what: &str,
) -> Result<Option<Value>, Error> {
    let looked = solver_retro::look_up_checked(
        game,
        pos,
        |p| {
            db.lookup(game.tier(p), game.tier_index(p))
                .map_err(db_error)
        },
        |v, flaw| contradicted(db.dir(), what, v, flaw),
    )?;
    Ok(looked.map(|l| l.value))
}

/// A database's value of a position, read by a command.
pub type ValueOf<'a, P> = dyn Fn(&P) -> Result<Option<Value>, Error> + 'a;

/// Checks each child of `pos` that `lookup` gives a value, against its
/// own children's values, by the certificate's rule for one position: a
/// command that prints every move's value from a database (`value`)
/// reports the children's records too, and checked only the position's
/// (issue 46: `fingers value … --db` printed move values from children it
/// never checked). `name` says a child in the refusal.
///
/// # Errors
/// `lookup`'s; [`contradicted`] for the first child whose records break
/// the rule.
pub fn check_children<G: game_core::Game>(
    game: &G,
    pos: &G::Position,
    lookup: &ValueOf<'_, G::Position>,
    dir: &Path,
    name: &dyn Fn(&G::Position) -> String,
) -> Result<(), Error> {
    if game.outcome(pos).is_some() {
        return Ok(());
    }
    let (mut moves, mut grand) = (Vec::new(), Vec::new());
    game.moves(pos, &mut moves);
    for m in &moves {
        let c = game.play(pos, m);
        let Some(cv) = lookup(&c)? else { continue };
        let mut values = Vec::new();
        if game.outcome(&c).is_none() {
            grand.clear();
            game.moves(&c, &mut grand);
            for g in &grand {
                values.push(lookup(&game.play(&c, g))?.ok_or(Flaw::UnknownChild));
            }
        }
        solver_retro::check_position(game, &c, cv, values)
            .map_err(|flaw| contradicted(dir, &name(&c), cv, flaw))?;
    }
    Ok(())
}

/// The refusal of a database that lacks a tier a command reads: a solve
/// into it was killed (rerun it to resume) or is still running.
fn not_finished(dir: &Path, tier: &str) -> Error {
    Error::Usage(format!(
        "the database in {} is not finished (tier {tier} is missing): run solve with --db first",
        dir.display()
    ))
}

/// A database's error met while answering from it, in one line: a tier
/// not finished is said as [`analyze`] says it, with what to do (it was
/// "DIR/tier-2.gsdb: tier 2 is not finished").
pub fn db_error(e: game_db::Error) -> Error {
    match e {
        game_db::Error::TierNotFinished { path, tier } => not_finished(
            path.parent().unwrap_or_else(|| Path::new(".")),
            &tier.to_string(),
        ),
        e => Error::Usage(gamesolve::store::db_message(&e)),
    }
}

/// The refusal of an answer a database gives that its own records
/// contradict: the position `what` (as the user gave it) holds `value`,
/// but its children's records break the certificate's rule `flaw` (a
/// child with no record, a win without a lost child one ply closer, ...).
/// Checksums catch a damaged block; this catches records that are whole
/// but wrong.
pub fn contradicted(dir: &Path, what: &str, value: Value, flaw: Flaw) -> Error {
    let what = match what.trim() {
        "" => "the start position".to_string(),
        w => format!("'{}'", game_core::echo(w)),
    };
    Error::Usage(gamesolve::store::damaged(
        dir,
        format_args!(
            "{}: the database says {what} is {value}, but {flaw}",
            dir.display()
        ),
    ))
}

/// A game's rules as a database tells them apart: the text whose hash
/// its manifest keeps, and the same in words for messages.
pub struct Rules {
    /// The text hashed into the manifest (it must not change, or every
    /// database written before is refused).
    pub key: String,
    /// The rules in words.
    pub words: String,
}

impl From<String> for Rules {
    /// Rules whose key is already words (the tiered games' `rules()`).
    fn from(key: String) -> Self {
        Rules {
            words: key.clone(),
            key,
        }
    }
}

/// Opens (or creates, with `create`) the database in `dir` for `game`
/// and `rules`, with a one-line error naming the directory.
pub fn open_db(dir: &Path, game: &str, rules: &Rules, create: bool) -> Result<Database, Error> {
    let db = if create {
        Database::create(dir, game, &rules.key)
    } else {
        Database::open(dir, game, &rules.key)
    };
    db.map_err(|e| open_error(dir, rules, e))
}

/// The error `e` of opening (or creating) the database in `dir` for
/// `rules`, in one line naming the directory.
pub fn open_error(dir: &Path, rules: &Rules, e: game_db::Error) -> Error {
    match e {
        // The manifest keeps only a hash of the rules: say which were
        // asked, in words (for Magic Fingers it showed the key, a Debug
        // `FingersRules { fingers: 5, rollover: true, … }`).
        game_db::Error::WrongRules { .. } => Error::Usage(format!(
            "database {}: written for other rules than these ({}); give the options of the solve that wrote it",
            dir.display(),
            rules.words
        )),
        // The message starts with the path: named once ("database f: f:
        // File exists (os error 17)" before).
        e if matches!(&e, game_db::Error::NotADirectory { path }
            | game_db::Error::NotEmpty { path, .. } if path == dir) =>
        {
            Error::Usage(format!("database {e}"))
        }
        e => Error::Usage(format!(
            "database {}: {}",
            dir.display(),
            gamesolve::store::db_message(&e)
        )),
    }
}
