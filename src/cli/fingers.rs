//! `gamesolve fingers …`: Magic Fingers, solved, certified and shown.

use std::time::Instant;

use clap::{Args, Subcommand};
use game_core::{principal_variation, Game, Indexed, LineEnd, Outcome, Value};
use games::{Fingers, FingersMove, FingersPosition, FingersRules};
use serde_json::{json, Value as Json};
use solver_retro::{IndexedSolution, Solved};

use super::analyze::Rules;
use super::args::{Samples, SolveFlags};
use super::register::{CliGame, HasUnmoves};
use super::{plies, Ctx, Error, Report};

/// The rule switches shared by every fingers command.
#[derive(Debug, Clone, Args)]
pub struct RulesArgs {
    /// Fingers per hand: a hand reaching this many dies (2..=255)
    /// [default: 5].
    #[arg(long)]
    fingers: Option<u16>,
    /// A hand reaching F or more keeps the count mod F instead of dying.
    #[arg(long)]
    rollover: bool,
    /// Forbid transfers between one's own hands (the transfer switches
    /// below then have nothing to change, and are refused beside it).
    #[arg(long)]
    no_transfers: bool,
    /// Forbid transfers onto a dead hand.
    #[arg(long, conflicts_with = "no_transfers")]
    no_revive: bool,
    /// Forbid transferring all fingers off a hand.
    #[arg(long, conflicts_with = "no_transfers")]
    no_empty: bool,
    /// Let a transfer that merely swaps the hands count as a move.
    #[arg(long, conflicts_with = "no_transfers")]
    allow_swap: bool,
    /// Allow a transfer that lifts the target hand to F or more.
    #[arg(long, conflicts_with = "no_transfers")]
    allow_transfer_overflow: bool,
}

impl RulesArgs {
    /// The game these switches choose, the rest the default rules.
    pub fn game(&self) -> Result<Fingers, Error> {
        self.game_over(None)
    }

    /// The game these switches choose, the rules they do not change taken
    /// from `base` (a database's game, with `--db`), else the defaults: a
    /// switch only ever turns its rule on (or, for a `--no-…` switch, off),
    /// so one that contradicts `base` makes other rules, which the
    /// database then refuses.
    pub fn game_over(&self, base: Option<&Fingers>) -> Result<Fingers, Error> {
        let base = base.map_or_else(FingersRules::default, |g| *g.rules());
        let given = self.fingers.map_or(Ok(base.fingers), |f| {
            u8::try_from(f).map_err(|_| {
                game_core::Error::InvalidRules(format!("fingers per hand must be 2..=255, not {f}"))
            })
        })?;
        let transfers = base.transfers && !self.no_transfers;
        // Without transfers the transfer switches are kept at their
        // defaults, as they always were written.
        let defaults = FingersRules::default();
        let pick = |asked: bool, from_base: bool, default: bool| {
            if transfers {
                asked || from_base
            } else {
                default
            }
        };
        Ok(Fingers::new(FingersRules {
            fingers: given,
            rollover: base.rollover || self.rollover,
            transfers,
            revive: !pick(self.no_revive, !base.revive, !defaults.revive),
            empty: !pick(self.no_empty, !base.empty, !defaults.empty),
            allow_swap: pick(self.allow_swap, base.allow_swap, defaults.allow_swap),
            allow_transfer_overflow: pick(
                self.allow_transfer_overflow,
                base.allow_transfer_overflow,
                defaults.allow_transfer_overflow,
            ),
        })?)
    }
}

/// Magic Fingers declared once for the shared commands: one tier (the
/// whole index), the identity symmetry, indexed unmoves. The tier solver
/// then plans the dense index's solve and walk for it
/// ([`solver_retro::Parents::Indexed`]; before, the tier solve and tier
/// walk took 196 s and 212 s at 128 fingers a hand on one thread, where the
/// indexed engine and walk take 0.9 s and 15 s); tests/fingers.rs checks
/// that the shared path, the tier path and the indexed engine give the
/// same values and counts. `gamesolve fingers solve/value/analyze/check`
/// are the shared commands of this registration (`super::tiered`); only
/// `table`, `line`, `dot` and `solve --positions`'s listing are Fingers'
/// own.
impl CliGame for Fingers {
    const NAME: &'static str = DB_NAME;
    /// [`Fingers::solve_steps`] an index.
    const SOLVE_STEPS: u64 = 16;
    type Options = RulesArgs;

    fn from_options(options: &RulesArgs, base: Option<&Self>) -> Result<Self, Error> {
        options.game_over(base)
    }

    fn title(&self) -> String {
        format!("Magic Fingers ({})", describe(self.rules()))
    }

    /// The key fingers databases have always recorded.
    fn rules(&self) -> String {
        db_rules(self).key
    }

    fn rules_words(&self) -> String {
        describe(self.rules())
    }

    fn from_rules_key(key: &str) -> Option<Self> {
        // Only a key this game writes: the fingers count read from the
        // key, then every switch tried against it.
        let f: u8 = key
            .strip_prefix("FingersRules { fingers: ")?
            .split(',')
            .next()?
            .parse()
            .ok()?;
        // The switches' own form is compared first: only the one set of
        // rules that matches is built (a game of 255 fingers a hand takes
        // its tables to build).
        (0..64u32).find_map(|bits| {
            let rules = FingersRules::from_switches(f, bits);
            if format!("{rules:?}, index v1") != key {
                return None;
            }
            let game = Fingers::new(rules).ok()?;
            (db_rules(&game).key == key).then_some(game)
        })
    }

    fn options(&self) -> String {
        let r = self.rules();
        let d = FingersRules::default();
        let mut o = String::new();
        if r.fingers != d.fingers {
            o += &format!(" --fingers {}", r.fingers);
        }
        for (on, flag) in [
            (r.rollover, " --rollover"),
            (!r.transfers, " --no-transfers"),
            (r.transfers && !r.revive, " --no-revive"),
            (r.transfers && !r.empty, " --no-empty"),
            (r.transfers && r.allow_swap, " --allow-swap"),
            (
                r.transfers && r.allow_transfer_overflow,
                " --allow-transfer-overflow",
            ),
        ] {
            if on {
                o += flag;
            }
        }
        o
    }

    fn start(&self) -> FingersPosition {
        FingersPosition::START
    }

    /// The player to move's hands, then the opponent's: `1,3 2,2` (or
    /// `1,3 | 2,2`, as positions are shown); empty for the start.
    fn parse(&self, text: &str) -> Result<FingersPosition, Error> {
        let words: Vec<&str> = text
            .split(|c: char| c.is_whitespace() || c == '|')
            .filter(|w| !w.is_empty())
            .collect();
        match words[..] {
            [] => Ok(FingersPosition::START),
            [me, opp] => {
                let hands = |w: &str| parse_hands(w).map_err(Error::Usage);
                position(self, hands(me)?, hands(opp)?)
            }
            _ => Err(Error::Usage(format!(
                "'{}' is not a position such as 1,3 2,2 (the player to move's hands, then the opponent's)",
                game_core::echo(text)
            ))),
        }
    }

    fn show(&self, pos: &FingersPosition) -> String {
        pos.to_string()
    }

    fn show_move(&self, _pos: &FingersPosition, mv: &FingersMove) -> String {
        mv.to_string()
    }

    /// The hands, the player to move's first, named so.
    fn show_at(&self, pos: &FingersPosition, _first_to_move: bool) -> String {
        format!("{pos} (yours | the opponent's)")
    }

    fn over_words(&self, pos: &FingersPosition) -> Option<String> {
        game_over_words(self, pos).map(str::to_string)
    }

    /// Every position is its class's only member.
    fn weight(&self, _pos: &FingersPosition) -> u64 {
        1
    }

    fn unmoves() -> Option<HasUnmoves<Self>> {
        Some(HasUnmoves::new())
    }

    /// Beyond the index and the unmoves, the children by index and the
    /// unmoves by index (the fast paths `fingers solve` runs).
    fn check_capabilities(&self, samples: u64) -> Result<u64, Error> {
        Ok(promises(self, samples)?.widest())
    }
}

/// The four promises `fingers check` checks, on `samples` positions:
/// the index, the children by index, the unmoves and the unmoves by
/// index (the fast paths `fingers solve` runs).
fn promises(game: &Fingers, samples: u64) -> Result<solver_retro::GameCheck<'_, Fingers>, Error> {
    let mut check = solver_retro::GameCheck::new(game, samples);
    check
        .indexed()
        .and_then(|c| c.indexed_children())
        .and_then(|c| c.unmoves())
        .and_then(|c| c.indexed_unmoves())
        .map_err(|e| Error::Usage(e.to_string()))?;
    Ok(check)
}

/// Describes the rules in words.
pub fn describe(r: &FingersRules) -> String {
    let mut parts = vec![format!("{} fingers a hand", r.fingers)];
    parts.push(if r.rollover { "rollover" } else { "cutoff" }.into());
    if r.transfers {
        let mut t = vec![];
        t.push(if r.revive { "revive" } else { "no revive" });
        t.push(if r.empty { "empty" } else { "no empty" });
        t.push(if r.allow_swap { "swaps" } else { "no swaps" });
        t.push(if r.allow_transfer_overflow {
            "overflow"
        } else {
            "no overflow"
        });
        parts.push(format!("transfers ({})", t.join(", ")));
    } else {
        parts.push("no transfers".into());
    }
    parts.join(", ")
}

/// A pair of hands on the command line: `1,3`.
pub fn parse_hands(s: &str) -> Result<[u16; 2], String> {
    let v: Vec<&str> = s.split(',').collect();
    let [a, b] = v[..] else {
        return Err(format!(
            "'{}' is not a pair of hands such as 1,3",
            game_core::echo(s)
        ));
    };
    let n = |x: &str| {
        x.trim()
            .parse::<u16>()
            .map_err(|_| format!("'{}' is not a number of fingers", game_core::echo(x)))
    };
    Ok([n(a)?, n(b)?])
}

/// Checks hands given on the command line against the game.
pub fn position(game: &Fingers, me: [u16; 2], opp: [u16; 2]) -> Result<FingersPosition, Error> {
    let narrow = |h: [u16; 2]| -> Result<[u8; 2], Error> {
        let c = |x: u16| {
            u8::try_from(x).map_err(|_| {
                Error::from(game_core::Error::InvalidPosition(format!(
                    "a hand shows {x} fingers, but {}",
                    game.hand_limit()
                )))
            })
        };
        Ok([c(h[0])?, c(h[1])?])
    };
    Ok(game.position_from(narrow(me)?, narrow(opp)?)?)
}

#[derive(Debug, Subcommand)]
pub enum FingersCmd {
    /// The verdict from the start, counts of reachable positions, and the
    /// checker's certificate.
    Solve {
        #[command(flatten)]
        rules: RulesArgs,
        /// Also list every reachable position with its value and best move.
        #[arg(long)]
        positions: bool,
        #[command(flatten)]
        flags: SolveFlags,
    },
    /// Statistics of a solved database: counts by outcome and remoteness,
    /// reachable positions, longest win and loss.
    Analyze {
        #[command(flatten)]
        rules: RulesArgs,
        /// The database written by `solve --db`.
        #[arg(long, value_name = "DIR")]
        db: std::path::PathBuf,
    },
    /// Check the game's implementation: every promise of its capabilities
    /// (index, children by index, unmoves, counts, terminal list) on
    /// sampled positions (all of them for small games).
    Check {
        #[command(flatten)]
        rules: RulesArgs,
        #[command(flatten)]
        samples: Samples,
    },
    /// The value of one position for the player to move, and the best move.
    Value {
        /// The player to move's hands, e.g. 1,3.
        #[arg(value_parser = parse_hands)]
        me: [u16; 2],
        /// The opponent's hands, e.g. 2,2.
        #[arg(value_parser = parse_hands)]
        opp: [u16; 2],
        #[command(flatten)]
        rules: RulesArgs,
        /// Answer from this database (written by `solve --db`) instead of
        /// solving.
        #[arg(long, value_name = "DIR")]
        db: Option<std::path::PathBuf>,
    },
    /// The move table in the thread's style: rows your hands, columns the
    /// opponent's; + a win, - a loss, no sign a draw; then the best move.
    Table {
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// The line of perfect play from the start, drawn as in the thread.
    Line {
        #[command(flatten)]
        rules: RulesArgs,
    },
    /// The solved graph in Graphviz DOT, coloured by value (win green, loss
    /// red, draw yellow, for the player to move). By default only what a
    /// person can read: the positions within --depth plies of the start and
    /// those on the line of perfect play; --all draws every position
    /// reachable from the start.
    Dot {
        #[command(flatten)]
        rules: RulesArgs,
        /// Draw the positions within this many plies of the start.
        #[arg(long, default_value_t = 3, conflicts_with = "all")]
        depth: usize,
        /// Draw every position reachable from the start.
        #[arg(long)]
        all: bool,
        /// The most positions to draw, at least 1 [default: 300, or all
        /// with --all].
        #[arg(long, value_parser = parse_max_positions)]
        max_positions: Option<usize>,
    },
}

/// A `--max-positions` count: 1 or more (0 drew an empty graph and
/// called it the game's).
fn parse_max_positions(s: &str) -> Result<usize, String> {
    let n = super::args::parse_positions(s, "a drawing holds at least 1 position, not 0")?;
    // Past the address space: as many as there can be.
    Ok(usize::try_from(n).unwrap_or(usize::MAX))
}

fn value_json(v: Value) -> Json {
    json!({ "outcome": v.outcome().name(), "remoteness": v.remoteness() })
}

/// "loses in 26 plies", "wins in 1 ply" and the like.
pub fn verdict_words(v: Value) -> String {
    match (v.outcome(), v.remoteness()) {
        (Outcome::Win, Some(r)) => format!("wins in {}", plies(r)),
        (Outcome::Lose, Some(r)) => format!("loses in {}", plies(r)),
        (Outcome::Tie, Some(r)) => format!("ties in {}", plies(r)),
        _ => "draws: neither player can force an end".into(),
    }
}

/// Steps of work a solve of the whole game takes ([`Fingers::solve_steps`]).
pub fn solve_work(game: &Fingers) -> u64 {
    game.solve_steps()
}

/// Checks that solving `game` fits in the work budget (the solver checks
/// its own memory against the same budget).
pub fn check_solve(game: &Fingers, ctx: &Ctx) -> Result<(), Error> {
    ctx.budget.check_work(
        &format!(
            "solving Magic Fingers with {} fingers a hand ({} positions)",
            game.rules().fingers,
            game_core::grouped(game.size())
        ),
        solve_work(game),
    )?;
    Ok(())
}

/// Checks that `fingers solve --positions` fits in the work budget, and
/// its listing in the memory budget too, before it starts: the solve
/// ([`solve_work`]), the walk of the positions reachable from the start
/// and the certificate when `certify`, each some 16–20 steps a position
/// (3.4 and 3.6 s at 128 fingers a hand), and the listing's solve again;
/// a listed position takes some 400 bytes in memory while the report is
/// built and 60 printed, and every position may be reachable.
fn check_solve_command(game: &Fingers, certify: bool, ctx: &Ctx) -> Result<(), Error> {
    let size = game.size();
    let walk = game.walk_steps();
    let certify_steps = if certify { game.certify_steps() } else { 0 };
    let what = format!(
        "solving Magic Fingers with {} fingers a hand ({} positions), walking the positions reachable from the start{} and listing them",
        game.rules().fingers,
        game_core::grouped(size),
        if certify { ", checking the certificate" } else { "" },
    );
    ctx.check(
        &what,
        solve_work(game)
            .saturating_mul(2)
            .saturating_add(walk)
            .saturating_add(certify_steps),
        size.saturating_mul(400),
        size.saturating_mul(60),
    )
}

/// Adds to a `fingers solve` report every position reachable from the
/// start with its value and best move (`--positions`), from the table
/// solved again (the listing is for games small enough to read; the
/// report's figures are the shared solve's). A cluster process other
/// than 0 reports nothing, and lists nothing.
fn list_positions(game: &Fingers, report: &mut Report, ctx: &Ctx) -> Result<(), Error> {
    if report.json.get("start").is_none() {
        return Ok(());
    }
    let sol = solve_checked(game, ctx)?;
    let (order, _) = reachable(game);
    let value = |p: &FingersPosition| sol.value(p).ok_or_else(|| no_value(p));
    if ctx.json {
        let entries = order
            .iter()
            .map(|p| {
                let v = value(p)?;
                Ok(json!({
                    "me": p.me, "opponent": p.opp,
                    "outcome": v.outcome().name(), "remoteness": v.remoteness(),
                    "best": sol.best_move(p).map(|(m, _)| m.to_string()),
                }))
            })
            .collect::<Result<Vec<Json>, Error>>()?;
        report.json["positions"] = Json::Array(entries);
    } else {
        for p in &order {
            let v = value(p)?;
            let best = sol.best_move(p).map_or("-".into(), |(m, _)| m.to_string());
            report.text += &format!("\n{p}: {v}, best {best}");
        }
    }
    Ok(())
}

/// [`solve`] after checking its work against the budget, with the
/// budget's memory as the solver's limit.
pub fn solve_checked<'g>(
    game: &'g Fingers,
    ctx: &Ctx,
) -> Result<IndexedSolution<'g, Fingers>, Error> {
    check_solve(game, ctx)?;
    let config = ctx.config();
    Ok(solver_retro::solve_unmoves_with(game, &config)?)
}

/// The error for a table without a value for `what` (a position, or
/// words for one): a table solved here holds every position, so one read
/// from a database that does not is damaged (its checksums hold).
pub fn no_value(what: impl std::fmt::Display) -> Error {
    Error::Retro(solver_retro::Error::Store(format!(
        "the table holds no value for {what}: the database is damaged"
    )))
}

/// The position's end in words, for the player to move, if it is over.
pub fn game_over_words(game: &Fingers, pos: &FingersPosition) -> Option<&'static str> {
    game.outcome(pos).map(|_| {
        if pos.me == [0, 0] {
            "the game is over: the player to move has no live hand and has lost"
        } else {
            "the game is over: the opponent has no live hand; the player to move has won"
        }
    })
}

fn sign(v: Value) -> &'static str {
    match v.outcome() {
        Outcome::Win => "+",
        Outcome::Lose => "-",
        _ => "",
    }
}

pub fn solve<'g>(
    game: &'g Fingers,
    ctx: &Ctx,
) -> Result<(IndexedSolution<'g, Fingers>, f64), Error> {
    let t = Instant::now();
    let spinner = super::progress::Spinner::new("solving");
    let sol = solver_retro::solve_unmoves_with(game, &super::progress::config(&spinner, ctx))?;
    drop(spinner);
    Ok((sol, t.elapsed().as_secs_f64()))
}

/// Positions reachable from the start (breadth-first) and the number of
/// distinct moves between them.
fn reachable(game: &Fingers) -> (Vec<FingersPosition>, u64) {
    let mut seen = vec![false; game.size() as usize];
    let start = FingersPosition::START;
    seen[game.index(&start) as usize] = true;
    let mut order = vec![start];
    let (mut moves, mut kids) = (Vec::new(), Vec::new());
    let mut edges = 0u64;
    let mut head = 0;
    while head < order.len() {
        let p = order[head];
        head += 1;
        if game.outcome(&p).is_some() {
            continue;
        }
        moves.clear();
        game.moves(&p, &mut moves);
        kids.clear();
        kids.extend(moves.iter().map(|m| game.index(&game.play(&p, m))));
        kids.sort_unstable();
        kids.dedup();
        edges += kids.len() as u64;
        for &k in &kids {
            if !seen[k as usize] {
                seen[k as usize] = true;
                order.push(game.position(k).expect("a reached index is a position"));
            }
        }
    }
    (order, edges)
}

pub fn run(cmd: FingersCmd, ctx: &Ctx) -> Result<Report, Error> {
    match cmd {
        FingersCmd::Solve {
            rules,
            positions,
            flags,
        } => {
            let game = rules.game()?;
            if positions {
                // The listing's work and memory, before anything starts.
                check_solve_command(&game, !flags.no_certify, ctx)?;
            }
            // The shared solve, as every registered game's; only a listing
            // of every position (`--positions`) is this command's own.
            let mut report = flags.solve(game.clone(), ctx)?;
            if positions {
                list_positions(&game, &mut report, ctx)?;
            }
            Ok(report)
        }
        // The shared commands (`tiered`'s, as for every registered game),
        // with the rules read from the database where one is given.
        FingersCmd::Analyze { rules, db } => {
            let at = super::tiered::command_line(&["fingers", "analyze"]);
            let game = super::tiered::game_in_db(&db, |base| rules.game_over(base), &at)?;
            super::tiered::analyze_db(game, &db, ctx)
        }
        FingersCmd::Check { rules, samples } => {
            let game = rules.game()?;
            samples.check_work(ctx, &game.title(), game.size(), 4, Fingers::CHECK_STEPS)?;
            super::tiered::check(game, samples.samples)
        }
        FingersCmd::Value { me, opp, rules, db } => {
            let text = format!("{},{} {},{}", me[0], me[1], opp[0], opp[1]);
            let game = match &db {
                Some(dir) => {
                    let at = super::tiered::command_line(&["fingers", "value", &text]);
                    super::tiered::game_in_db(dir, |base| rules.game_over(base), &at)?
                }
                None => rules.game()?,
            };
            super::tiered::value(game, &text, db.as_deref(), ctx)
        }
        FingersCmd::Table { rules } => run_table(&rules.game()?, ctx),
        FingersCmd::Line { rules } => {
            let game = rules.game()?;
            check_solve(&game, ctx)?;
            run_line(&game, ctx)
        }
        FingersCmd::Dot {
            rules,
            depth,
            all,
            max_positions,
        } => run_dot(&rules.game()?, ctx, depth, all, max_positions),
    }
}

/// The default cap on a drawing: about what a person can take in.
const READABLE: usize = 300;

fn run_dot(
    game: &Fingers,
    ctx: &Ctx,
    depth: usize,
    all: bool,
    max_positions: Option<usize>,
) -> Result<Report, Error> {
    // The solve, and the map of the positions reachable from the start
    // that comes first ([`Fingers::dot_steps`]).
    let cap = max_positions.unwrap_or(if all { usize::MAX } else { READABLE });
    ctx.budget.check_work(
        &format!(
            "solving Magic Fingers with {} fingers a hand and mapping the positions reachable from the start",
            game.rules().fingers
        ),
        game.dot_steps(),
    )?;
    // A flag an index, and every reachable position in the order found;
    // beside them, the drawing of as many as may be reached (its moves
    // are counted once the map is made).
    ctx.budget.check_memory(
        "a map of the positions reachable from the start, and their drawing",
        game.size()
            .saturating_mul(1 + std::mem::size_of::<FingersPosition>() as u64)
            .saturating_add(
                game.size()
                    .min(cap as u64)
                    .saturating_mul(super::dot::BYTES_PER_NODE),
            ),
    )?;
    let (reach, edges) = reachable(game);
    let drawn_at_most = reach.len().min(cap) as u64;
    // Every reachable move may be drawn: budget for all of them.
    let bytes = drawn_at_most
        .saturating_mul(super::dot::BYTES_PER_NODE)
        .saturating_add(edges.saturating_mul(super::dot::BYTES_PER_EDGE));
    ctx.check(
        &format!(
            "a drawing of up to {} positions",
            game_core::grouped(drawn_at_most)
        ),
        0,
        bytes,
        bytes,
    )?;
    let sol = solve_checked(game, ctx)?;
    let start = FingersPosition::START;
    let (nodes, why) = if all {
        let (mut nodes, _) = super::dot::near(game, &start, usize::MAX, cap);
        nodes.truncate(cap);
        (nodes, "in breadth-first order from the start".to_string())
    } else {
        let (mut nodes, _) = super::dot::near(game, &start, depth, cap);
        let line = principal_variation(game, start, |p| sol.value(p), 10_000);
        let mut on_line: Vec<FingersPosition> = line.plies.iter().map(|p| p.position).collect();
        on_line.push(match line.end {
            LineEnd::Over(p) | LineEnd::Repeats(p) | LineEnd::Cut(p) | LineEnd::Unknown(p) => p,
        });
        for p in on_line {
            if nodes.len() >= cap {
                break;
            }
            if !nodes.contains(&p) {
                nodes.push(p);
            }
        }
        nodes.truncate(cap);
        (
            nodes,
            format!(
                "within {} of the start and on the line of perfect play",
                plies(depth as u64)
            ),
        )
    };
    let cut = nodes.len() < reach.len();
    let title = format!("Magic Fingers ({})", describe(game.rules()));
    let note = if cut {
        let hint = if all {
            "raise --max-positions to draw more"
        } else {
            "--depth N draws more, --all the whole graph"
        };
        let line = format!(
            "{} of the {} positions reachable from the start {} pictured ({why}); {hint}",
            nodes.len(),
            reach.len(),
            if nodes.len() == 1 { "is" } else { "are" }
        );
        // With --json stderr holds an error object or nothing; the note
        // is in the drawing's title either way.
        if !ctx.json {
            eprintln!("gamesolve: {line}");
        }
        format!("{title}\nCUT: {line}")
    } else {
        format!(
            "{title}\nall {} positions reachable from the start",
            game_core::grouped(reach.len() as u64)
        )
    };
    let pic = super::dot::Picture {
        game,
        nodes: &nodes,
        note,
    };
    let dot = super::dot::render(&pic, |p| sol.value(p), |p| p.to_string(), |m| m.to_string());
    let drawn = nodes.len();
    Ok(ctx.report(
        || dot.clone(),
        || json!({ "dot": dot, "drawn": drawn, "reachable": reach.len(), "cut": cut }),
    ))
}

/// The game's name in a database.
pub const DB_NAME: &str = "fingers";

/// What tells one database's rules from another's: the key, kept as
/// databases were written, and the rules in words.
pub fn db_rules(game: &Fingers) -> Rules {
    Rules {
        key: format!("{:?}, index v1", game.rules()),
        words: describe(game.rules()),
    }
}

/// What `fingers table` prints under the table (issue 45: the legend was
/// only in `--help`).
const TABLE_LEGEND: &str = "\n\nRows: your hands; columns: the opponent's (13: hands of one finger and three; 1,13 past ten).\n\
Each cell: + you win, - you lose, no sign a draw; then the best move:\n\
aTb touches your hand of a onto the opponent's hand of b; Cab claps your\n\
fingers over so that your hands show a and b.";

fn run_table(game: &Fingers, ctx: &Ctx) -> Result<Report, Error> {
    // Checked before solving: a cell is a sign and a move such as C12 (a
    // dozen bytes with separators, more as text and JSON strings).
    // A cell is a sign and a move such as +C12: some 40 bytes as a string
    // in memory, a dozen printed.
    let f = u64::from(game.rules().fingers);
    let live = f * (f + 1) / 2 - 1;
    let cells = live.saturating_mul(live);
    // Each cell is made and written ([`Fingers::table_steps`]).
    ctx.check(
        &format!("a table of {live} × {live} hands"),
        game.table_steps(cells),
        cells.saturating_mul(40),
        cells.saturating_mul(12),
    )?;
    let sol = solve_checked(game, ctx)?;
    let hands = game.live_hands();
    let labels: Vec<String> = hands.iter().map(|&h| game.label(h)).collect();
    let mut cells: Vec<Vec<String>> = Vec::new();
    for &me in &hands {
        let row = hands
            .iter()
            .map(|&opp| {
                let p = FingersPosition { me, opp };
                let v = sol.value(&p).expect("solved");
                let best = sol
                    .best_move(&p)
                    .map_or(String::new(), |(m, _)| m.to_string());
                format!("{}{best}", sign(v))
            })
            .collect();
        cells.push(row);
    }
    let width = cells
        .iter()
        .flatten()
        .map(String::len)
        .chain(labels.iter().map(String::len))
        .max()
        .unwrap_or(4);
    let lw = labels.iter().map(String::len).max().unwrap_or(2);
    let text = || {
        let mut text = format!("{:lw$}  ", "");
        for l in &labels {
            text += &format!(" {l:>width$}");
        }
        text += &format!("\n{:lw$}  ", "");
        for _ in &labels {
            text += &format!(" {}", "-".repeat(width));
        }
        for (l, row) in labels.iter().zip(&cells) {
            text += &format!("\n{l:>lw$}: ");
            for c in row {
                text += &format!(" {c:>width$}");
            }
        }
        text.push_str(TABLE_LEGEND);
        text
    };
    Ok(ctx.report(
        text,
        || json!({ "rows": labels, "columns": labels, "cells": cells }),
    ))
}

fn run_line(game: &Fingers, ctx: &Ctx) -> Result<Report, Error> {
    let (sol, _) = solve(game, ctx)?;
    let game_core::Line { plies, end } =
        principal_variation(game, FingersPosition::START, |p| sol.value(p), 10_000);
    let mut text = String::new();
    let mut steps = Vec::new();
    // Player 1 moves at even plies. Draw both players each ply.
    let draw = |text: &mut String, p: &FingersPosition, ply: usize| {
        let (one, two, star) = if ply.is_multiple_of(2) {
            (p.me, p.opp, 1)
        } else {
            (p.opp, p.me, 2)
        };
        text.push_str(&format!(
            "1: {}{}\n2: {}{}\n",
            game.picture(one),
            if star == 1 { " *" } else { "" },
            game.picture(two),
            if star == 2 { " *" } else { "" },
        ));
    };
    for (i, ply) in plies.iter().enumerate() {
        draw(&mut text, &ply.position, i);
        let who = if i % 2 == 0 { 1 } else { 2 };
        text.push_str(&format!(
            "   player {who} {} ({}; {})\n\n",
            ply.mv.describe(),
            ply.mv,
            verdict_words(ply.value)
                .replace("wins", "will win")
                .replace("loses", "will lose")
        ));
        steps.push(
            json!({ "player": who, "move": ply.mv.to_string(), "value": value_json(ply.value) }),
        );
    }
    let (last, how) = match &end {
        LineEnd::Over(p) => (p, "over"),
        LineEnd::Repeats(p) => (p, "repeats"),
        LineEnd::Cut(p) => (p, "cut"),
        LineEnd::Unknown(p) => (p, "unknown"),
    };
    draw(&mut text, last, plies.len());
    let loser = if plies.len() % 2 == 0 { 1 } else { 2 };
    text.push_str(&match end {
        LineEnd::Over(_) => format!(
            "   player {loser} has no live hand: player {} wins after {}.",
            3 - loser,
            super::plies(plies.len() as u64)
        ),
        LineEnd::Repeats(_) => "   this position was reached before: with perfect play the game \
                                goes round forever (a draw)."
            .into(),
        LineEnd::Cut(_) => "   (line cut)".into(),
        LineEnd::Unknown(_) => "   (the solution holds no value past here)".into(),
    });
    Ok(Report::new(
        text,
        json!({ "plies": steps, "end": how, "length": plies.len() }),
    ))
}
