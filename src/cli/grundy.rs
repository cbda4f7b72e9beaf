//! `gamesolve grundy …`, `gamesolve nim …`, `gamesolve knights …`.

use clap::{ArgGroup, Args, Subcommand};
use serde_json::json;
use sprague_grundy::{OctalCode, SubtractionSet};

use super::{parse_list, Ctx, Error, List, Report};
use game_core::{grouped, plural};

#[derive(Debug, Subcommand)]
pub enum GrundyCmd {
    /// Grundy values of a subtraction game, or their proven period.
    #[command(group(ArgGroup::new("what").required(true).args(["upto", "period"])))]
    Subtraction {
        /// The subtraction set, e.g. 1,3,4.
        #[arg(long, value_parser = parse_list)]
        set: List,
        /// Print g(0..=N).
        #[arg(long)]
        upto: Option<u64>,
        /// Print the proven preperiod and period.
        #[arg(long)]
        period: bool,
    },
    /// Grundy values of an octal game such as 0.77 (Kayles), or their
    /// proven period.
    #[command(group(ArgGroup::new("what").required(true).args(["upto", "period"])))]
    Octal {
        /// The code, e.g. 0.77, 0.07, 4.777.
        code: String,
        /// Print g(0..=N).
        #[arg(long)]
        upto: Option<u64>,
        /// Print the proven preperiod and period.
        #[arg(long)]
        period: bool,
        /// With --period: the most heaps to compute for the proof (the work
        /// budget, --max-work, usually ends the search first).
        #[arg(long, default_value_t = 4_000_000, requires = "period")]
        max: u64,
    },
}

/// Prints values as `0 1 2 …` or `{"values":[0,1,2,…]}`, after checking
/// the output against the budget (`digits` + 1 bytes a value at most).
fn values_report<T: Copy + Into<u64>>(
    ctx: &Ctx,
    what: &str,
    values: &[T],
    digits: u64,
) -> Result<Report, Error> {
    use std::fmt::Write as _;
    let bytes = (values.len() as u64).saturating_mul(digits + 1);
    ctx.check(&format!("printing {what}"), 0, bytes, bytes)?;
    let mut out = String::new();
    out.try_reserve(values.len().saturating_mul(2))
        .map_err(|_| {
            ctx.budget
                .memory_error(format!("printing {what}"), values.len() as u64 * 2)
        })?;
    out.push_str(if ctx.json { "{\"values\":[" } else { "" });
    let sep = if ctx.json { ',' } else { ' ' };
    for (i, &v) in values.iter().enumerate() {
        if i > 0 {
            out.push(sep);
        }
        let _ = write!(out, "{}", v.into());
    }
    out.push_str(if ctx.json { "]}" } else { "" });
    Ok(Report::rendered(out))
}

/// Decimal digits of `n`.
fn digits(n: u64) -> u64 {
    u64::from(n.checked_ilog10().unwrap_or(0)) + 1
}

pub fn run(cmd: GrundyCmd, ctx: &Ctx) -> Result<Report, Error> {
    match cmd {
        GrundyCmd::Subtraction { set, upto, period } => {
            let s = SubtractionSet::new(set.0)?;
            if period {
                let p = s.period_with(&ctx.budget)?;
                return Ok(Report::new(
                    format!(
                        "preperiod {}, period {} (proven: a window of max(S) = {} repeats; {} computed)",
                        grouped(p.preperiod),
                        grouped(p.period),
                        plural(s.max(), "value"),
                        plural(p.heaps, "value")
                    ),
                    json!({ "preperiod": p.preperiod, "period": p.period }),
                ));
            }
            let n = upto.unwrap_or(0);
            // Values are at most |S|.
            let width = digits(s.elements().len() as u64);
            let what = format!("g(0..={})", grouped(n));
            let heaps = n.saturating_add(1);
            ctx.check(
                &what,
                s.values_work(n),
                heaps,
                heaps.saturating_mul(width + 1),
            )?;
            let g = s.values_with(n, &ctx.budget)?;
            values_report(ctx, &what, &g, width)
        }
        GrundyCmd::Octal {
            code,
            upto,
            period,
            max,
        } => {
            let c: OctalCode = code.parse()?;
            if period {
                let p = c.period_with(max, &ctx.budget)?;
                return Ok(Report::new(
                    format!(
                        "{c}: preperiod {}, period {} (proven by the octal periodicity theorem with {}, t = {})",
                        grouped(p.preperiod),
                        grouped(p.period),
                        plural(p.heaps, "value"),
                        c.max_take()
                    ),
                    json!({ "preperiod": p.preperiod, "period": p.period }),
                ));
            }
            let n = upto.unwrap_or(0);
            // Values are below 2^32: ten digits at most; most are far shorter.
            let what = format!("g(0..={}) of {c}", grouped(n));
            // At least two bytes a value printed (a digit and a space);
            // the computation gets the budget the printing leaves.
            let printed = n.saturating_add(1).saturating_mul(2);
            ctx.check(&what, 0, n.saturating_add(1).saturating_mul(4), printed)?;
            let n = usize::try_from(n).map_err(|_| {
                ctx.budget
                    .memory_error(format!("a table of g(0..={})", grouped(n)), u64::MAX)
            })?;
            let g = c.values_with(n, &ctx.budget_after_output(printed))?;
            let top = g.iter().copied().max().unwrap_or(0);
            values_report(ctx, &what, &g, digits(u64::from(top)))
        }
    }
}

/// `gamesolve nim H1 H2 … [--max-take K]`.
#[derive(Debug, Args)]
pub struct NimArgs {
    /// The heaps.
    #[arg(required = true)]
    heaps: Vec<u64>,
    /// Bounded Nim: a move takes at most K.
    #[arg(long)]
    max_take: Option<u64>,
}

pub fn nim(a: &NimArgs, _ctx: &Ctx) -> Result<Report, Error> {
    let game = match a.max_take {
        Some(k) => games::Nim::bounded(k)?,
        None => games::Nim::new(),
    };
    let v = game.analyse(&a.heaps);
    let winner = if v.nim_sum == 0 { "second" } else { "first" };
    let text = match v.winning_move {
        Some((i, t)) => format!(
            "nim-sum {}: the first player wins; take {} from heap {i} (heaps numbered from 0)",
            grouped(v.nim_sum),
            grouped(t)
        ),
        None => "nim-sum 0: the second player wins (every move can be answered)".into(),
    };
    Ok(Report::new(
        text,
        json!({
            "winner": winner,
            "nim_sum": v.nim_sum,
            "move": v.winning_move.map(|(i, t)| json!({ "heap": i, "take": t })),
        }),
    ))
}

/// `gamesolve knights --size N [X,Y …]`.
#[derive(Debug, Args)]
pub struct KnightsArgs {
    /// The side of the board.
    #[arg(long)]
    size: usize,
    /// Knights' squares, 1-based, e.g. 3,4.
    #[arg(value_parser = parse_list)]
    knights: Vec<List>,
}

pub fn knights(a: &KnightsArgs, ctx: &Ctx) -> Result<Report, Error> {
    let k = games::Knights::new(a.size)?;
    if a.knights.is_empty() {
        // Three characters a square as text, at most three in JSON.
        let n = a.size as u64;
        let cells = n.saturating_mul(n);
        ctx.check(
            &format!("the Grundy table of the {0} × {0} board", a.size),
            games::Knights::table_work(a.size),
            cells.saturating_mul(2),
            cells.saturating_mul(3),
        )?;
        let table = k.grundy_table_with(&ctx.budget)?;
        let mut out = if ctx.json {
            String::from("{\"grundy\":[")
        } else {
            format!(
                "Grundy values, row x = 1..{n}, column y = 1..{n}:\n",
                n = a.size
            )
        };
        use std::fmt::Write as _;
        for (i, row) in table.iter().enumerate() {
            if ctx.json {
                out.push_str(if i > 0 { ",[" } else { "[" });
                for (j, g) in row.iter().enumerate() {
                    let _ = write!(out, "{}{g}", if j > 0 { "," } else { "" });
                }
                out.push(']');
            } else {
                if i > 0 {
                    out.push('\n');
                }
                for (j, g) in row.iter().enumerate() {
                    let _ = write!(out, "{}{g:>2}", if j > 0 { " " } else { "" });
                }
            }
        }
        if ctx.json {
            out.push_str("]}");
        }
        return Ok(Report::rendered(out));
    }
    let mut squares = Vec::new();
    for l in &a.knights {
        let [x, y] = l.0[..] else {
            // Written as typed: it printed a Debug list (`[1]`).
            let typed: Vec<String> = l.0.iter().map(u64::to_string).collect();
            return Err(game_core::Error::InvalidPosition(format!(
                "a knight's square is X,Y, not {}",
                game_core::echo(&typed.join(","))
            ))
            .into());
        };
        let (x, y) = (
            usize::try_from(x).unwrap_or(usize::MAX),
            usize::try_from(y).unwrap_or(usize::MAX),
        );
        squares.push(k.square(x, y)?);
    }
    // How to win, as `nim` says it: the knight and the square it goes to.
    let win = k.winning_move_with(&squares, &ctx.budget)?;
    let text = match win {
        Some((i, (x, y))) => {
            let (a, b) = squares[i];
            format!(
                "the first player wins: move the knight on {a},{b} to {x},{y} (knight {} of {}, numbered from 1 as given)",
                i + 1,
                squares.len()
            )
        }
        None => "the second player wins (every move can be answered)".into(),
    };
    Ok(Report::new(
        text,
        json!({
            "winner": if win.is_some() { "first" } else { "second" },
            "move": win.map(|(i, (x, y))| json!({
                // Numbered from 0, as nim numbers its heaps.
                "knight": i,
                "from": [squares[i].0, squares[i].1],
                "to": [x, y],
            })),
        }),
    ))
}
