//! `gamesolve play fingers|connect4|teeko|dobutsu`: a game against the
//! perfect player (the tiered games through [`super::play_tiered`]).

use std::io::{BufRead, Write};

use clap::Subcommand;
use game_core::{Game, Outcome, Value};
use games::{Fingers, FingersMove, FingersPosition};
use serde_json::json;
use solver_retro::Solved;

use super::fingers::{describe, no_value, solve_checked, RulesArgs};
use super::{plies, Ctx, Error};

#[derive(Debug, Subcommand)]
pub enum PlayCmd {
    /// Magic Fingers against the solver. With --json, one JSON object a
    /// line (the position, its value, your options) and --first or
    /// --second is required.
    Fingers {
        #[command(flatten)]
        rules: RulesArgs,
        /// Move first without being asked.
        #[arg(long, conflicts_with = "second")]
        first: bool,
        /// Move second without being asked.
        #[arg(long)]
        second: bool,
        /// Play from this database (written by `fingers solve --db`)
        /// instead of solving first.
        #[arg(long, value_name = "DIR")]
        db: Option<std::path::PathBuf>,
    },
    /// Connect Four against the solver (a small board solves in seconds;
    /// larger ones want `--db` from `connect4 solve --db`). Type a column.
    Connect4 {
        #[command(flatten)]
        board: super::connect4::Board,
        #[command(flatten)]
        seat: super::play_tiered::Seat,
    },
    /// Teeko against the solver (solving first needs `--max-work 5e9`,
    /// past the default budget, and some 10 s and 0.5 GB on 2 cores; `--db`
    /// from `teeko solve --db` answers at once). Type a square (c3) to place a
    /// man, two (c3d4) to move one.
    Teeko {
        #[command(flatten)]
        seat: super::play_tiered::Seat,
    },
    /// Dobutsu shogi against the solver, from a database written by
    /// `dobutsu solve --db` (solving first needs `--max-work 2e11`, some 8
    /// minutes and 5 GB on 2 cores). Type b3b2 to step, C*b2 to drop.
    Dobutsu {
        #[command(flatten)]
        seat: super::play_tiered::Seat,
    },
}

/// What the solver's move achieves, in words.
pub(super) fn promise(v: Value) -> String {
    match (v.outcome(), v.remoteness()) {
        (Outcome::Win, Some(r)) => format!("I win in {}", plies(r)),
        (Outcome::Lose, Some(r)) => format!("I lose in {} if you play perfectly", plies(r)),
        (Outcome::Tie, Some(r)) => format!("a tie in {}", plies(r)),
        _ => "this keeps the draw".into(),
    }
}

/// The solver's move in words, from the human's side of the table.
fn my_move_words(mv: &FingersMove) -> String {
    match mv {
        FingersMove::Touch { from, to } => {
            format!("I touch my hand of {from} onto your hand of {to}")
        }
        FingersMove::Transfer { hands: [a, b] } => {
            format!("I clap, moving fingers so my hands show {a} and {b}")
        }
    }
}

/// The longest line of input read as an answer: every move and answer is
/// a few bytes, and a line is held whole in memory while it is read.
pub(super) const MAX_LINE: u64 = 4096;

/// Reads a non-empty line (an empty one is asked again); `None` at end of
/// input, after ending the prompt's line.
///
/// # Errors
/// Writing the prompt, reading the input, or a line longer than
/// [`MAX_LINE`] bytes (refused before more of it is read).
pub(super) fn ask(
    input: &mut impl BufRead,
    out: &mut impl Write,
    prompt: &str,
    json: bool,
) -> Result<Option<String>, Error> {
    loop {
        if !json {
            write!(out, "{prompt}")?;
        }
        out.flush()?;
        // Bytes, not a string: a line that is not UTF-8 is no move and is
        // answered as such, not taken for a broken input.
        let mut bytes = Vec::new();
        let read = std::io::Read::take(&mut *input, MAX_LINE + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(Error::Input)?;
        if read as u64 > MAX_LINE && bytes.last() != Some(&b'\n') {
            return Err(Error::Usage(format!(
                "an input line longer than {MAX_LINE} bytes: no answer is that long"
            )));
        }
        if read == 0 {
            if !json {
                writeln!(out)?;
            }
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&bytes);
        let line = line.trim();
        if !line.is_empty() {
            return Ok(Some(line.to_string()));
        }
    }
}

/// Whether the human moves first: `--first`/`--second`, else asked;
/// `None` when they quit or the input ends.
pub(super) fn seat(
    first: bool,
    second: bool,
    input: &mut impl BufRead,
    out: &mut impl Write,
    json: bool,
) -> Result<Option<bool>, Error> {
    if first || second {
        return Ok(Some(first));
    }
    loop {
        let Some(a) = ask(input, out, "Do you want to go first? [y/n] ", json)? else {
            return Ok(None);
        };
        match a.to_ascii_lowercase().as_str() {
            "y" | "yes" => return Ok(Some(true)),
            "n" | "no" => return Ok(Some(false)),
            "q" | "quit" => return Ok(None),
            _ => writeln!(out, "Please answer y or n.")?,
        }
    }
}

/// Says that `a` is not among the legal moves `names`, and which are.
pub(super) fn refuse(
    out: &mut impl Write,
    json: bool,
    a: &str,
    names: &[String],
) -> std::io::Result<()> {
    let a = game_core::echo(a);
    if json {
        writeln!(
            out,
            "{}",
            json!({ "error": format!("'{a}' is not a legal move here"), "options": names })
        )
    } else {
        writeln!(
            out,
            "'{a}' is not a legal move here; choose one of: {}",
            names.join(" ")
        )
    }
}

pub fn run(cmd: PlayCmd, ctx: &Ctx) -> Result<(), Error> {
    let (rules, first, second, db) = match cmd {
        PlayCmd::Fingers {
            rules,
            first,
            second,
            db,
        } => (rules, first, second, db),
        PlayCmd::Connect4 { board, seat } => return super::connect4::play(&board, &seat, ctx),
        PlayCmd::Teeko { seat } => return super::play_tiered::run(games::Teeko::new(), &seat, ctx),
        PlayCmd::Dobutsu { seat } => {
            return super::play_tiered::run(games::Dobutsu::new(), &seat, ctx)
        }
    };
    if ctx.json && !first && !second {
        return Err(Error::Usage(
            "play --json needs --first or --second (it asks no questions but moves)".into(),
        ));
    }
    let game = rules.game()?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    match play(
        &game,
        ctx,
        first,
        second,
        db.as_deref(),
        &mut input,
        &mut out,
    ) {
        // A reader that went away is the end of the game, not an error.
        Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

fn show(game: &Fingers, out: &mut impl Write, you: [u8; 2], me: [u8; 2]) -> std::io::Result<()> {
    writeln!(
        out,
        "  you: {}   ({},{})",
        game.picture(you),
        you[0],
        you[1]
    )?;
    writeln!(out, "  me:  {}   ({},{})", game.picture(me), me[0], me[1])
}

/// Answers `?`: each move's value for the human, one line each, or under
/// `--json` the object `{"values": [{"move", "outcome", "remoteness"}…]}`.
pub(super) fn write_values(
    out: &mut impl Write,
    json: bool,
    values: &[(String, Option<Value>)],
) -> std::io::Result<()> {
    if json {
        let list: Vec<_> = values
            .iter()
            .map(|(m, v)| {
                let mut j = value_json(*v);
                if let Some(o) = j.as_object_mut() {
                    o.insert("move".into(), json!(m));
                }
                j
            })
            .collect();
        return writeln!(out, "{}", json!({ "values": list }));
    }
    for (m, v) in values {
        writeln!(out, "  {m}: {}", you_words(*v))?;
    }
    Ok(())
}

/// The end-of-game words of every `play`: `winner` is whether the human
/// won, `None` for a tie.
pub(super) fn game_over(winner: Option<bool>) -> &'static str {
    match winner {
        Some(true) => "Game over: you win!",
        Some(false) => "Game over: I win.",
        None => "Game over: a tie.",
    }
}

/// The word on a move of the human's that throws a win away, or turns a
/// tie or a draw into a loss: `before` is the position's value for them,
/// `after` the value of the move they chose (for them), `best` a move
/// that kept `before`. `None` for a move that keeps the value (or when a
/// value is not known).
pub(super) fn blunder(
    before: Option<Value>,
    after: Option<Value>,
    best: Option<&str>,
) -> Option<String> {
    let (b, a) = (before?, after?);
    let kept = best.map_or(String::new(), |m| format!("; {m} kept it"));
    let lost = match (b.outcome(), a.outcome()) {
        (Outcome::Win, Outcome::Win) => return None,
        (Outcome::Win, _) => "throws away the win",
        (Outcome::Tie, Outcome::Lose) => "turns the tie into a loss",
        (Outcome::Draw, Outcome::Lose) => "turns the draw into a loss",
        _ => return None,
    };
    Some(format!(
        "That move {lost}{kept}: now {}.",
        you_words(Some(a))
    ))
}

/// Says [`blunder`]'s word, if any: a line of text, or under `--json` the
/// object `{"blunder": WORDS}`.
pub(super) fn say_blunder(
    out: &mut impl Write,
    json: bool,
    word: Option<String>,
) -> std::io::Result<()> {
    match word {
        None => Ok(()),
        Some(w) if json => writeln!(out, "{}", json!({ "blunder": w })),
        Some(w) => writeln!(out, "{w}"),
    }
}

/// What a move's value means for the human who would play it.
pub(super) fn you_words(v: Option<Value>) -> String {
    match v.map(|v| (v.outcome(), v.remoteness())) {
        None => "not solved".into(),
        Some((Outcome::Win, Some(r))) => format!("you win in {}", plies(r)),
        Some((Outcome::Lose, Some(r))) => format!("you lose in {}", plies(r)),
        Some((Outcome::Tie, Some(r))) => format!("a tie in {}", plies(r)),
        Some(_) => "a draw: neither can force an end".into(),
    }
}

/// A value as JSON: outcome and remoteness, or null for none.
pub(super) fn value_json(v: Option<Value>) -> serde_json::Value {
    v.map_or(
        serde_json::Value::Null,
        |v| json!({ "outcome": v.outcome().name(), "remoteness": v.remoteness() }),
    )
}

fn play(
    game: &Fingers,
    ctx: &Ctx,
    first: bool,
    second: bool,
    db: Option<&std::path::Path>,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), Error> {
    let json = ctx.json;
    let sol = match db {
        Some(dir) => {
            let db = super::analyze::open_db(
                dir,
                super::fingers::DB_NAME,
                &super::fingers::db_rules(game),
                false,
            )?;
            let table = gamesolve::store::load_tier_within(
                &db,
                0,
                game_core::Indexed::size(game),
                &ctx.budget,
            )?;
            solver_retro::IndexedSolution::from_table(game, table)?
        }
        None => solve_checked(game, ctx)?,
    };
    if !json {
        writeln!(out, "Magic Fingers ({}). Type a move such as 1T1 (touch your 1 onto my 1) or C02 (clap to 0 and 2), ? for every move's value, or q to quit.", describe(game.rules()))?;
    }
    let start_value = sol
        .value(&FingersPosition::START)
        .ok_or_else(|| no_value("the start"))?;
    let Some(human_first) = seat(first, second, input, out, json)? else {
        return Ok(());
    };
    if !json {
        writeln!(
            out,
            "(From the start, whoever moves first {}.)",
            super::fingers::verdict_words(start_value)
        )?;
    }
    let mut pos = FingersPosition::START;
    let mut human_to_move = human_first;
    let mut moves = Vec::new();
    loop {
        let (you, me) = if human_to_move {
            (pos.me, pos.opp)
        } else {
            (pos.opp, pos.me)
        };
        let position =
            json!({ "you": you, "me": me, "to_move": if human_to_move { "you" } else { "me" } });
        if !json {
            show(game, out, you, me)?;
        }
        if game.outcome(&pos).is_some() {
            let lost = pos.me == [0, 0];
            let human_won = lost != human_to_move;
            if json {
                writeln!(
                    out,
                    "{}",
                    json!({ "position": position, "over": true, "winner": if human_won { "you" } else { "me" } })
                )?;
            } else {
                writeln!(
                    out,
                    "{} {}",
                    if human_won {
                        "Both my hands are dead."
                    } else {
                        "Both your hands are dead."
                    },
                    game_over(Some(human_won))
                )?;
            }
            return Ok(());
        }
        // A database's value is checked against its children's before it
        // is played from (records whose checksums hold can still be
        // wrong, and the moves would be too).
        moves.clear();
        game.moves(&pos, &mut moves);
        if let Some(dir) = db {
            solver_retro::look_up_checked(
                game,
                &pos,
                |p| Ok(sol.value(p)),
                |v, flaw| super::analyze::contradicted(dir, &pos.to_string(), v, flaw),
            )?;
        }
        if human_to_move {
            let names: Vec<String> = moves.iter().map(FingersMove::to_string).collect();
            if json {
                writeln!(
                    out,
                    "{}",
                    json!({ "position": position, "value": value_json(sol.value(&pos)), "options": names })
                )?;
            }
            let chosen = loop {
                let prompt = format!("Your move ({}; ? for values): ", names.join(" "));
                let Some(a) = ask(input, out, &prompt, json)? else {
                    return Ok(());
                };
                if a.eq_ignore_ascii_case("q") || a.eq_ignore_ascii_case("quit") {
                    return Ok(());
                }
                if a == "?" {
                    // Each move's value for the human, as `play connect4`
                    // lists them.
                    let values: Vec<(String, Option<Value>)> = moves
                        .iter()
                        .map(|m| {
                            (
                                m.to_string(),
                                sol.value(&game.play(&pos, m)).map(Value::parent),
                            )
                        })
                        .collect();
                    write_values(out, json, &values)?;
                    continue;
                }
                match names.iter().position(|n| n.eq_ignore_ascii_case(&a)) {
                    Some(i) => break moves[i],
                    None => refuse(out, json, &a, &names)?,
                }
            };
            let best = sol.best_move(&pos).map(|(m, _)| m.to_string());
            let after = sol.value(&game.play(&pos, &chosen)).map(Value::parent);
            say_blunder(out, json, blunder(sol.value(&pos), after, best.as_deref()))?;
            pos = game.play(&pos, &chosen);
        } else {
            let (mv, v) = sol
                .best_move(&pos)
                .ok_or_else(|| no_value(format_args!("{pos} or any of its children")))?;
            if json {
                writeln!(
                    out,
                    "{}",
                    json!({ "position": position, "value": value_json(sol.value(&pos)), "move": mv.to_string(), "promise": promise(v) })
                )?;
            } else {
                writeln!(out, "I play {mv}: {}. {}.", my_move_words(&mv), promise(v))?;
            }
            pos = game.play(&pos, &mv);
        }
        human_to_move = !human_to_move;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move that loses the value the position had gets a word; one that
    /// keeps it, or a loss that stays a loss, none.
    #[test]
    fn a_thrown_away_win_or_draw_gets_a_word() {
        let w = blunder(Some(Value::win(3)), Some(Value::tie(8)), Some("c3"));
        assert_eq!(
            w.as_deref(),
            Some("That move throws away the win; c3 kept it: now a tie in 8 plies.")
        );
        let w = blunder(Some(Value::DRAW), Some(Value::lose(4)), None).unwrap();
        assert!(
            w.starts_with("That move turns the draw into a loss: now you lose in 4"),
            "{w}"
        );
        let w = blunder(Some(Value::tie(6)), Some(Value::lose(5)), Some("2")).unwrap();
        assert!(w.contains("turns the tie into a loss; 2 kept it"), "{w}");
        assert_eq!(
            blunder(Some(Value::win(3)), Some(Value::win(9)), None),
            None
        );
        assert_eq!(
            blunder(Some(Value::lose(3)), Some(Value::lose(1)), None),
            None
        );
        assert_eq!(blunder(Some(Value::tie(3)), Some(Value::DRAW), None), None);
        assert_eq!(blunder(None, Some(Value::lose(1)), None), None);
    }

    /// Every `play` ends in the same words.
    #[test]
    fn the_end_of_game_words() {
        assert_eq!(game_over(Some(true)), "Game over: you win!");
        assert_eq!(game_over(Some(false)), "Game over: I win.");
        assert_eq!(game_over(None), "Game over: a tie.");
    }
}
