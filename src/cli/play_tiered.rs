//! `gamesolve play connect4|teeko|dobutsu`: any game of the shared tiered
//! commands ([`CliGame`]) against the perfect player, from a database or
//! after solving in memory.
//!
//! The human types a move as [`CliGame::move_text`] writes it, `?` for the
//! value of each of their options, `q` to quit; the prompt lists the legal
//! moves, a move that throws a win away gets a word, and the game ends in
//! the words every `play` uses. With `--json` every line out is one JSON
//! object (the position, its value, the options or the solver's move; a
//! `{"blunder": …}` word; the end) and `?` answers with the options'
//! values.

use std::fmt::Debug;
use std::io::{BufRead, Write};
use std::path::PathBuf;

use game_core::{best_move, Canonical, Outcome, Tiered, Value};
use serde_json::json;
use solver_retro::Solved;

use super::analyze::open_db;
use super::fingers::verdict_words;
use super::play::{ask, promise, refuse, value_json, write_values};
use super::register::CliGame;
use super::{Ctx, Error};

/// Who moves first, and where the values come from.
#[derive(Debug, Clone, clap::Args)]
pub struct Seat {
    /// Move first without being asked.
    #[arg(long, conflicts_with = "second")]
    first: bool,
    /// Move second without being asked.
    #[arg(long)]
    second: bool,
    /// Play from this database (written by the game's `solve --db`) instead of
    /// solving first.
    #[arg(long, value_name = "DIR")]
    db: Option<PathBuf>,
}

impl Seat {
    /// The database to play from, if any.
    pub fn db(&self) -> Option<&std::path::Path> {
        self.db.as_deref()
    }
}

/// A position's value, from the database, a solve held in memory or a
/// search.
pub(super) type Lookup<'a, P> = Box<dyn Fn(&P) -> Result<Option<Value>, Error> + 'a>;

/// Plays `game` against the human on stdin and stdout.
pub fn run<G>(game: G, seat: &Seat, ctx: &Ctx) -> Result<(), Error>
where
    G: CliGame,
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    check_seat(seat, ctx)?;
    let game = Canonical(game);
    let sol;
    let db;
    let lookup: Lookup<'_, G::Position> = match &seat.db {
        Some(dir) => {
            db = open_db(dir, G::NAME, &super::tiered::rules_of(&game.0), false)?;
            // The start's record is checked against its children's before
            // anything is printed (the game's first line says its value).
            let start = game.0.canonical(&game.0.start());
            super::analyze::checked_lookup(&game, &db, &start, "")?;
            let (g, db) = (&game, &db);
            Box::new(move |p| {
                let c = g.0.canonical(p);
                db.lookup(g.tier(&c), g.tier_index(&c))
                    .map_err(super::analyze::db_error)
            })
        }
        None => {
            super::tiered::check_work(&game, solver_retro::cost::Work::Solve, ctx)?;
            super::tiered::check_whole(&game, super::tiered::WholeFor::Answer, ctx)?;
            if !ctx.json {
                writeln!(
                    std::io::stdout().lock(),
                    "Solving {} first (give --db DIR to play from a solved database)…",
                    game.0.title()
                )?;
            }
            let spinner = super::progress::Spinner::new("solving");
            let positions = game.tiers().iter().map(|&t| game.tier_size(t)).sum();
            let config = super::progress::config_sized(&spinner, ctx, positions, 0.0);
            sol = super::register::tier_solver(&game)
                .config(&config)
                .solve()?
                .solution;
            drop(spinner);
            let (g, sol) = (&game, &sol);
            Box::new(move |p| Ok(sol.value(&g.0.canonical(p))))
        }
    };
    run_with(&game.0, seat, ctx, &lookup)
}

/// Refuses `play --json` without a seat: it asks no questions.
fn check_seat(seat: &Seat, ctx: &Ctx) -> Result<(), Error> {
    if ctx.json && !seat.first && !seat.second {
        return Err(Error::Usage(
            "play --json needs --first or --second (it asks no questions but moves)".into(),
        ));
    }
    Ok(())
}

/// Plays `game` against the human with the values `lookup` gives (a
/// database's, a table's, or an exact search's where no table fits).
pub(super) fn run_with<G>(
    game: &G,
    seat: &Seat,
    ctx: &Ctx,
    lookup: &Lookup<'_, G::Position>,
) -> Result<(), Error>
where
    G: CliGame,
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    check_seat(seat, ctx)?;
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    match play(game, lookup, ctx.json, seat, &mut input, &mut out) {
        // A reader that went away is the end of the game, not an error.
        Err(Error::Io(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// The value of each move from `pos`, for the player to move.
fn options<G: CliGame>(
    game: &G,
    lookup: &Lookup<'_, G::Position>,
    pos: &G::Position,
    moves: &[G::Move],
    first: bool,
) -> Result<Vec<(String, Option<Value>)>, Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    moves
        .iter()
        .map(|m| {
            let v = lookup(&game.play(pos, m))?.map(Value::parent);
            Ok((game.move_text(pos, m, first), v))
        })
        .collect()
}

/// A picture without its last line when that says who is to move
/// (Teeko's, Dobutsu's): once the game is over nobody is.
fn board_only(picture: &str) -> &str {
    match picture.rsplit_once('\n') {
        Some((board, last)) if last.ends_with("to move") => board,
        _ => picture,
    }
}

fn play<G: CliGame>(
    game: &G,
    lookup: &Lookup<'_, G::Position>,
    json: bool,
    seat: &Seat,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    let start = game.start();
    let start_value =
        lookup(&start)?.ok_or_else(|| Error::Usage("the start position is not solved".into()))?;
    if !json {
        writeln!(
            out,
            "{}: from the start, whoever moves first {}.\n\
             Type a move as it is listed, ? for the value of each of your options, q to quit.",
            game.title(),
            verdict_words(start_value)
        )?;
    }
    let Some(human_first) = super::play::seat(seat.first, seat.second, input, out, json)? else {
        return Ok(());
    };
    let mut pos = start;
    let mut first_to_move = true;
    let mut moves = Vec::new();
    let mut buf = Vec::new();
    loop {
        let human_to_move = first_to_move == human_first;
        let picture = game.picture(&pos, first_to_move);
        let position = json!({
            "board": picture,
            "to_move": if human_to_move { "you" } else { "me" },
        });
        let over = game.outcome(&pos);
        if !json {
            let shown = if over.is_some() {
                board_only(&picture)
            } else {
                &picture
            };
            writeln!(out, "\n{shown}")?;
        }
        if let Some(o) = over {
            let winner = match o {
                Outcome::Win => Some(human_to_move),
                Outcome::Lose => Some(!human_to_move),
                _ => None,
            };
            if json {
                let w = winner.map(|h| if h { "you" } else { "me" });
                writeln!(
                    out,
                    "{}",
                    json!({ "position": position, "over": true, "winner": w })
                )?;
            } else {
                writeln!(out, "{}", super::play::game_over(winner))?;
            }
            return Ok(());
        }
        moves.clear();
        game.moves(&pos, &mut moves);
        // A database's value is checked against its children's records
        // before it is played from (records whose checksums hold can
        // still be wrong, and the moves would be too).
        let value = match &seat.db {
            Some(dir) => solver_retro::look_up_checked(
                &game,
                &pos,
                |p| lookup(p),
                |v, flaw| super::analyze::contradicted(dir, &game.line(&pos), v, flaw),
            )?
            .map(|l| l.value),
            None => lookup(&pos)?,
        };
        if human_to_move {
            let names: Vec<String> = moves
                .iter()
                .map(|m| game.move_text(&pos, m, first_to_move))
                .collect();
            if json {
                writeln!(
                    out,
                    "{}",
                    json!({ "position": position, "value": value_json(value), "options": names })
                )?;
            }
            // The legal moves in the prompt, as every `play` lists them.
            let prompt = format!("Your move ({}; ? for values): ", names.join(" "));
            let chosen = loop {
                let Some(a) = ask(input, out, &prompt, json)? else {
                    return Ok(());
                };
                if a.eq_ignore_ascii_case("q") || a.eq_ignore_ascii_case("quit") {
                    return Ok(());
                }
                if a == "?" {
                    let opts = options(game, lookup, &pos, &moves, first_to_move)?;
                    write_values(out, json, &opts)?;
                    continue;
                }
                match names.iter().position(|n| n.eq_ignore_ascii_case(&a)) {
                    Some(i) => break moves[i].clone(),
                    None => refuse(out, json, &a, &names)?,
                }
            };
            let after = lookup(&game.play(&pos, &chosen))?.map(Value::parent);
            if value.is_some_and(|v| after.is_some_and(|a| a.outcome() != v.outcome())) {
                let best = best_move(game, &pos, |c| lookup(c).ok().flatten(), &mut buf)
                    .map(|(m, _)| game.move_text(&pos, &m, first_to_move));
                super::play::say_blunder(
                    out,
                    json,
                    super::play::blunder(value, after, best.as_deref()),
                )?;
            }
            pos = game.play(&pos, &chosen);
        } else {
            // A child the table cannot answer (a damaged database) stops
            // the game with its error: skipped, the best of the others
            // would be played as if it were the best move.
            let mut failed = None;
            let best = best_move(
                game,
                &pos,
                |c| match lookup(c) {
                    Ok(v) => v,
                    Err(e) => {
                        failed.get_or_insert(e);
                        None
                    }
                },
                &mut buf,
            );
            if let Some(e) = failed {
                return Err(e);
            }
            let (mv, v) =
                best.ok_or_else(|| Error::Usage("a position of the game is not solved".into()))?;
            let name = game.move_text(&pos, &mv, first_to_move);
            if json {
                writeln!(
                    out,
                    "{}",
                    json!({ "position": position, "value": value_json(value), "move": name, "promise": promise(v) })
                )?;
            } else {
                writeln!(out, "I play {name}: {}.", promise(v))?;
            }
            pos = game.play(&pos, &mv);
        }
        first_to_move = !first_to_move;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::Game;

    /// A Teeko game won by black's four in a row, and a Dobutsu start: the
    /// picture of the end shows the board, not "red (r) to move"; a game
    /// going on keeps its line.
    #[test]
    fn a_finished_games_picture_says_nobody_is_to_move() {
        let teeko = games::Teeko::new();
        let won = teeko.parse("a1 e5 b1 e4 c1 d5 d1").expect("legal moves");
        assert!(teeko.outcome(&won).is_some());
        let picture = teeko.picture(&won, false);
        assert!(picture.ends_with("red (r) to move"), "{picture}");
        let shown = board_only(&picture);
        assert!(
            !shown.contains("to move") && shown.ends_with("a b c d e"),
            "{shown}"
        );
        let dobutsu = games::Dobutsu::new();
        let start = dobutsu.picture(&dobutsu.start(), true);
        assert!(board_only(&start).contains("in hand"), "{start}");
        assert!(!board_only(&start).contains("to move"), "{start}");
        // A picture with no such line is left whole.
        assert_eq!(board_only("1 2 3 4\n. . . ."), "1 2 3 4\n. . . .");
    }
}
