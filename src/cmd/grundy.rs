//! `gamesolve grundy …`, `gamesolve nim …`, `gamesolve knights …`.

use clap::{Args, Subcommand};
use serde_json::json;
use sprague_grundy::{OctalCode, SubtractionSet};

use super::{parse_list, Error, List, Report};

/// The most values printed by `--upto`.
const MAX_UPTO: u64 = 100_000_000;

#[derive(Debug, Subcommand)]
pub enum GrundyCmd {
    /// Grundy values of a subtraction game, or their proven period.
    Subtraction {
        /// The subtraction set, e.g. 1,3,4.
        #[arg(long, value_parser = parse_list)]
        set: List,
        /// Print g(0..=N).
        #[arg(long, conflicts_with = "period", required_unless_present = "period")]
        upto: Option<u64>,
        /// Print the proven preperiod and period.
        #[arg(long)]
        period: bool,
    },
    /// Grundy values of an octal game such as 0.77 (Kayles), or their
    /// proven period.
    Octal {
        /// The code, e.g. 0.77, 0.07, 4.777.
        code: String,
        /// Print g(0..=N).
        #[arg(long, conflicts_with = "period", required_unless_present = "period")]
        upto: Option<u64>,
        /// Print the proven preperiod and period.
        #[arg(long)]
        period: bool,
        /// With --period: the most heaps to compute for the proof.
        #[arg(long, default_value_t = 4_000_000)]
        max: u64,
    },
}

fn upto_limit(n: u64) -> Result<usize, Error> {
    if n > MAX_UPTO {
        return Err(sprague_grundy::Error::TooLarge {
            what: "--upto",
            size: n,
            limit: MAX_UPTO,
        }
        .into());
    }
    Ok(n as usize)
}

fn values_report(values: Vec<u64>) -> Report {
    let text = values
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    Report::new(text, json!({ "values": values }))
}

pub fn run(cmd: GrundyCmd) -> Result<Report, Error> {
    match cmd {
        GrundyCmd::Subtraction { set, upto, period } => {
            let s = SubtractionSet::new(set.0)?;
            if period {
                let p = s.period();
                return Ok(Report::new(
                    format!(
                        "preperiod {}, period {} (proven: a window of max(S) = {} values repeats; {} values computed)",
                        p.preperiod,
                        p.period,
                        s.max(),
                        p.heaps
                    ),
                    json!({ "preperiod": p.preperiod, "period": p.period }),
                ));
            }
            let n = upto_limit(upto.unwrap_or(0))?;
            Ok(values_report(
                s.values(n as u64)?.into_iter().map(u64::from).collect(),
            ))
        }
        GrundyCmd::Octal {
            code,
            upto,
            period,
            max,
        } => {
            let c: OctalCode = code.parse()?;
            if period {
                let p = c.period(max)?;
                return Ok(Report::new(
                    format!(
                        "{c}: preperiod {}, period {} (proven by the octal periodicity theorem with {} values, t = {})",
                        p.preperiod,
                        p.period,
                        p.heaps,
                        c.max_take()
                    ),
                    json!({ "preperiod": p.preperiod, "period": p.period }),
                ));
            }
            let n = upto_limit(upto.unwrap_or(0))?;
            Ok(values_report(
                c.values(n).into_iter().map(u64::from).collect(),
            ))
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

pub fn nim(a: &NimArgs) -> Result<Report, Error> {
    let game = match a.max_take {
        Some(k) => games::Nim::bounded(k)?,
        None => games::Nim::new(),
    };
    let v = game.analyse(&a.heaps);
    let winner = if v.nim_sum == 0 { "second" } else { "first" };
    let text = match v.winning_move {
        Some((i, t)) => format!(
            "nim-sum {}: the first player wins; take {t} from heap {i} (heaps numbered from 0)",
            v.nim_sum
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

pub fn knights(a: &KnightsArgs) -> Result<Report, Error> {
    let k = games::Knights::new(a.size)?;
    if a.knights.is_empty() {
        let table = k.grundy_table();
        let text = table
            .iter()
            .map(|row| {
                row.iter()
                    .map(|g| format!("{g:>2}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n");
        return Ok(Report::new(
            format!(
                "Grundy values, row x = 1..{n}, column y = 1..{n}:\n{text}",
                n = a.size
            ),
            json!({ "grundy": table }),
        ));
    }
    let mut squares = Vec::new();
    for l in &a.knights {
        let [x, y] = l.0[..] else {
            return Err(game_core::Error::InvalidPosition(format!(
                "a knight's square is X,Y, not {:?}",
                l.0
            ))
            .into());
        };
        let (x, y) = (
            usize::try_from(x).unwrap_or(usize::MAX),
            usize::try_from(y).unwrap_or(usize::MAX),
        );
        squares.push(k.square(x, y)?);
    }
    let first = k.first_player_wins(&squares)?;
    let winner = if first { "first" } else { "second" };
    Ok(Report::new(
        format!("the {winner} player wins"),
        json!({ "winner": winner }),
    ))
}
