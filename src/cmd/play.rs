//! `gamesolve play fingers`: a game against the perfect player.

use std::io::{BufRead, Write};

use clap::Subcommand;
use game_core::{Game, Outcome, Value};
use games::{Fingers, FingersMove, FingersPosition};
use solver_retro::Solved;

use super::fingers::{describe, solve, RulesArgs};
use super::Error;

#[derive(Debug, Subcommand)]
pub enum PlayCmd {
    /// Magic Fingers against the solver.
    Fingers {
        #[command(flatten)]
        rules: RulesArgs,
        /// Move first without being asked.
        #[arg(long, conflicts_with = "second")]
        first: bool,
        /// Move second without being asked.
        #[arg(long)]
        second: bool,
    },
}

/// What the solver's move achieves, in words.
fn promise(v: Value) -> String {
    match (v.outcome(), v.remoteness()) {
        (Outcome::Win, Some(r)) => format!("I win in {r}"),
        (Outcome::Lose, Some(r)) => format!("I lose in {r} if you play perfectly"),
        (Outcome::Tie, Some(r)) => format!("a tie in {r}"),
        _ => "this keeps the draw".into(),
    }
}

/// Reads a line; `None` at end of input.
fn ask(
    input: &mut impl BufRead,
    out: &mut impl Write,
    prompt: &str,
) -> std::io::Result<Option<String>> {
    write!(out, "{prompt}")?;
    out.flush()?;
    let mut line = String::new();
    if input.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim().to_string()))
}

pub fn run(cmd: PlayCmd) -> Result<(), Error> {
    let PlayCmd::Fingers {
        rules,
        first,
        second,
    } = cmd;
    let game = rules.game()?;
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = std::io::stdout().lock();
    play(&game, first, second, &mut input, &mut out)
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

fn play(
    game: &Fingers,
    first: bool,
    second: bool,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), Error> {
    let (sol, _) = solve(game)?;
    writeln!(out, "Magic Fingers ({}). Type a move such as 1T1 (touch your 1 onto my 1) or C02 (clap to 0 and 2), or q to quit.", describe(game.rules()))?;
    let start_value = sol.value(&FingersPosition::START).expect("solved");
    let human_first = if first || second {
        first
    } else {
        loop {
            let Some(a) = ask(input, out, "Do you want to go first? [y/n] ")? else {
                return Ok(());
            };
            match a.to_ascii_lowercase().as_str() {
                "y" | "yes" => break true,
                "n" | "no" => break false,
                "q" | "quit" => return Ok(()),
                _ => writeln!(out, "Please answer y or n.")?,
            }
        }
    };
    writeln!(
        out,
        "(From the start, whoever moves first {}.)",
        super::fingers::verdict_words(start_value)
    )?;
    let mut pos = FingersPosition::START;
    let mut human_to_move = human_first;
    let mut moves = Vec::new();
    loop {
        let (you, me) = if human_to_move {
            (pos.me, pos.opp)
        } else {
            (pos.opp, pos.me)
        };
        show(game, out, you, me)?;
        if game.outcome(&pos).is_some() {
            let lost = pos.me == [0, 0];
            let human_won = lost != human_to_move;
            writeln!(
                out,
                "{}",
                if human_won {
                    "Both my hands are dead: you win!"
                } else {
                    "Both your hands are dead: I win."
                }
            )?;
            return Ok(());
        }
        if human_to_move {
            moves.clear();
            game.moves(&pos, &mut moves);
            let names: Vec<String> = moves.iter().map(FingersMove::to_string).collect();
            let chosen = loop {
                let Some(a) = ask(input, out, &format!("Your move ({}): ", names.join(" ")))?
                else {
                    writeln!(out)?;
                    return Ok(());
                };
                if a.eq_ignore_ascii_case("q") || a.eq_ignore_ascii_case("quit") {
                    return Ok(());
                }
                match names.iter().position(|n| n.eq_ignore_ascii_case(&a)) {
                    Some(i) => break moves[i],
                    None => writeln!(
                        out,
                        "'{a}' is not a legal move here; choose one of: {}",
                        names.join(" ")
                    )?,
                }
            };
            pos = game.play(&pos, &chosen);
        } else {
            let (mv, v) = sol
                .best_move(&pos)
                .expect("a position that is not over has moves");
            writeln!(
                out,
                "I play {mv}: I {}. {}.",
                mv.describe()
                    .replacen("touches", "touch", 1)
                    .replacen("claps", "clap", 1),
                promise(v)
            )?;
            pos = game.play(&pos, &mv);
        }
        human_to_move = !human_to_move;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(script: &str) -> String {
        let game = Fingers::new(games::FingersRules::default()).unwrap();
        let mut out = Vec::new();
        play(&game, false, false, &mut script.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn illegal_input_is_asked_again_and_eof_ends_cleanly() {
        let text = session("maybe\ny\n9T9\n1T1\n");
        assert!(text.contains("Please answer y or n."));
        assert!(text.contains("'9T9' is not a legal move here"));
        assert!(text.contains("I play"));
    }

    #[test]
    fn the_solver_moving_first_from_a_lost_start_says_so() {
        let text = session("n\nq\n");
        assert!(
            text.contains("I lose in 26 if you play perfectly"),
            "{text}"
        );
    }
}
