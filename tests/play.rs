//! `gamesolve play connect4|teeko|dobutsu`: a scripted player that asks for
//! the value of its options (`?`) and always takes the best, against the
//! solver. Perfect play on both sides must end as Tromp's table says.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::Value as Json;

mod common;

/// Plays `gamesolve --json play …args` to the end, the scripted human
/// choosing by the values `?` reports; the JSON lines seen.
fn perfect_game(args: &[&str]) -> Vec<Json> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamesolve"))
        .arg("--json")
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut seen = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if output.read_line(&mut line).unwrap() == 0 {
            break;
        }
        let j: Json = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{line}: {e}"));
        seen.push(j.clone());
        if j["over"] == true {
            break;
        }
        if j.get("options").is_some() {
            writeln!(input, "?").unwrap();
        } else if let Some(values) = j["values"].as_array() {
            // The human's best: the fastest win, else a tie, else the
            // slowest loss (values are the mover's, the human's).
            let key = |v: &Json| {
                let r = v["remoteness"].as_i64().unwrap_or(0);
                match v["outcome"].as_str().unwrap() {
                    "win" => 3_000 - r,
                    "tie" | "draw" => 2_000,
                    _ => 1_000 + r,
                }
            };
            let best = values.iter().max_by_key(|v| key(v)).unwrap();
            writeln!(input, "{}", best["move"].as_str().unwrap()).unwrap();
        }
        input.flush().unwrap();
    }
    drop(input);
    assert!(child.wait().unwrap().success(), "{args:?}");
    seen
}

/// 4×4 is a tie in 16 (Tromp): perfect play on both sides fills the board
/// with no four, whoever starts.
#[test]
fn connect4_4x4_perfect_play_fills_the_board_in_a_tie() {
    for seat in ["--first", "--second"] {
        let lines = perfect_game(&["connect4", "--width", "4", "--height", "4", seat]);
        let first = &lines[0];
        assert_eq!(first["value"]["outcome"], "tie", "{first}");
        assert_eq!(first["value"]["remoteness"], 16, "{first}");
        let last = lines.last().unwrap();
        assert_eq!(last["over"], true, "{last}");
        assert_eq!(last["winner"], Json::Null, "{last}");
        let board = last["position"]["board"].as_str().unwrap();
        assert!(!board.contains('.'), "{board}");
        let plies = lines.iter().filter(|l| l.get("position").is_some()).count() - 1;
        assert_eq!(plies, 16);
    }
}

/// 5×4 is a tie in 20 (Tromp): played from a database, perfect play on
/// both sides fills the board, and every promise of the solver agrees.
#[test]
fn connect4_5x4_from_a_database_ties_in_20() {
    let dir = std::env::temp_dir().join(format!("gamesolve-play-c4-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let board = ["--width", "5", "--height", "4"];
    let solve = Command::new(env!("CARGO_BIN_EXE_gamesolve"))
        .args(["connect4", "solve", "--no-certify", "--db", d])
        .args(board)
        .output()
        .unwrap();
    assert!(solve.status.success(), "{solve:?}");
    let mut args = vec!["connect4", "--first", "--db", d];
    args.extend(board);
    let lines = perfect_game(&args);
    // 5×4: a tie in 20 (Tromp).
    assert_eq!(lines[0]["value"]["outcome"], "tie");
    assert_eq!(lines[0]["value"]["remoteness"], 20);
    let last = lines.last().unwrap();
    assert_eq!(last["winner"], Json::Null, "{last}");
    let plies = lines.iter().filter(|l| l.get("position").is_some()).count() - 1;
    assert_eq!(plies, 20);
    // The solver's every promise on the way agrees with the start's value.
    for l in lines.iter().filter(|l| l.get("promise").is_some()) {
        assert!(
            l["promise"].as_str().unwrap().starts_with("a tie in"),
            "{l}"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// With --json nobody can be asked who starts: a one-line refusal.
#[test]
fn json_play_needs_a_seat() {
    for game in ["teeko", "dobutsu", "connect4"] {
        let out = Command::new(env!("CARGO_BIN_EXE_gamesolve"))
            .args(["--json", "play", game])
            .output()
            .unwrap();
        assert!(!out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains("--first or --second"), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
}

/// In text: the board drawn, a move that is not legal named and asked
/// again, `?` answered with every option's value, `q` the end.
#[test]
fn connect4_text_play_re_asks_and_lists_values() {
    let text = common::script(
        &[
            "play", "connect4", "--width", "4", "--height", "4", "--first",
        ],
        "9\n?\n2\nq\n",
    );
    assert!(
        text.contains("whoever moves first ties in 16 plies"),
        "{text}"
    );
    assert!(
        text.contains("'9' is not a legal move here; choose one of: 1 2 3 4"),
        "{text}"
    );
    // Four options, each with its value for the human (every column
    // keeps the tie on 4×4).
    for c in 1..=4 {
        assert!(
            text.contains(&format!("  {c}: a tie in 16 plies")),
            "{text}"
        );
    }
    assert!(text.contains("1 2 3 4\n"), "{text}");
    assert!(text.contains("I play "), "{text}");
}

/// 5×4 is a tie in 20 (Tromp): where its tables do not fit (`--memory
/// 10M`), the game is played against the exact search, and perfect play on
/// both sides still fills the board in a tie.
#[test]
fn connect4_5x4_by_search_ties_in_20() {
    for seat in ["--first", "--second"] {
        let args = [
            "connect4", "--width", "5", "--height", "4", "--memory", "10M", seat,
        ];
        let lines = perfect_game(&args);
        assert_eq!(lines[0]["value"]["outcome"], "tie", "{}", lines[0]);
        assert_eq!(lines[0]["value"]["remoteness"], 20, "{}", lines[0]);
        let last = lines.last().unwrap();
        assert_eq!(
            (&last["over"], &last["winner"]),
            (&Json::Bool(true), &Json::Null)
        );
        let plies = lines.iter().filter(|l| l.get("position").is_some()).count() - 1;
        assert_eq!(plies, 20);
    }
}

/// `play fingers` answers `?` with each move's value, as `play connect4`
/// does (issue 45), and a player who always takes the best of them plays
/// the quiz's game out as the thread settled it: the first player loses,
/// holding out for 26 plies.
#[test]
fn fingers_answers_the_question_mark_and_perfect_play_lasts_26_plies() {
    for (seat, winner) in [("--first", "me"), ("--second", "you")] {
        let lines = perfect_game(&["fingers", seat]);
        assert!(lines.iter().any(|l| l.get("values").is_some()), "{seat}");
        let start = &lines[0];
        let mover = if seat == "--first" { "lose" } else { "win" };
        let value = start.get("value").unwrap_or(&Json::Null);
        if seat == "--first" {
            assert_eq!(value["outcome"], mover, "{start}");
            assert_eq!(value["remoteness"], 26, "{start}");
        }
        let last = lines.last().unwrap();
        assert_eq!(last["over"], true, "{last}");
        assert_eq!(last["winner"], winner, "{last}");
        let plies = lines.iter().filter(|l| l.get("position").is_some()).count() - 1;
        assert_eq!(plies, 26, "{seat}");
    }
}

/// Every legal move name of Magic Fingers' default rules: touches aTb and
/// claps Cab for hands of 0 to 4.
fn fingers_moves() -> Vec<String> {
    let mut all = Vec::new();
    for a in 0..5 {
        for b in 0..5 {
            all.push(format!("{a}T{b}"));
            all.push(format!("C{a}{b}"));
        }
    }
    all
}

/// Every `play` lists the legal moves in its prompt and ends in the same
/// words (issue 45: `play teeko` listed none, and the games ended in
/// words of their own). A scripted player typing every move name in turn
/// (the illegal ones refused and asked again) plays each game to its end
/// against the perfect player.
#[test]
fn every_play_lists_its_moves_and_ends_in_the_same_words() {
    let columns = "1\n2\n3\n4\n".repeat(20);
    let text = common::script(
        &[
            "play", "connect4", "--width", "4", "--height", "4", "--first",
        ],
        &columns,
    );
    assert!(
        text.contains("Your move (1 2 3 4; ? for values): "),
        "{text}"
    );
    let fingers = (fingers_moves().join("\n") + "\n").repeat(40);
    let played = common::script(&["play", "fingers", "--first"], &fingers);
    assert!(
        played.contains("Your move (1T1 C02; ? for values): "),
        "{played}"
    );
    for t in [&text, &played] {
        let last = t.trim_end().lines().last().unwrap();
        assert!(
            [
                "Game over: you win!",
                "Game over: I win.",
                "Game over: a tie."
            ]
            .iter()
            .any(|w| last.ends_with(w)),
            "{last}"
        );
    }
    // The first player of Magic Fingers loses to perfect play.
    assert!(
        played
            .trim_end()
            .ends_with("Both your hands are dead. Game over: I win."),
        "{played}"
    );
}

/// A move that throws a win away gets a word (issue 45: a blunder got
/// none): playing second at Magic Fingers, where the second player wins
/// (the quiz's answer), the scripted player picks a move that `?` says
/// does not win, and is told so with a move that `?` says wins.
#[test]
fn a_move_that_throws_the_win_away_gets_a_word() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamesolve"))
        .args(["--json", "play", "fingers", "--second"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut next = || {
        let mut line = String::new();
        output.read_line(&mut line).unwrap();
        serde_json::from_str::<Json>(&line).unwrap_or_else(|e| panic!("{line}: {e}"))
    };
    let mut j = next();
    while j.get("options").is_none() {
        j = next();
    }
    assert_eq!(j["value"]["outcome"], "win", "{j}");
    writeln!(input, "?").unwrap();
    input.flush().unwrap();
    let values = next();
    let values = values["values"].as_array().unwrap();
    let winning: Vec<&str> = values
        .iter()
        .filter(|v| v["outcome"] == "win")
        .map(|v| v["move"].as_str().unwrap())
        .collect();
    let thrown = values
        .iter()
        .find(|v| v["outcome"] != "win")
        .expect("a move that does not win");
    writeln!(input, "{}", thrown["move"].as_str().unwrap()).unwrap();
    input.flush().unwrap();
    let word = next();
    let word = word["blunder"].as_str().unwrap_or_else(|| panic!("{word}"));
    assert!(
        word.starts_with("That move throws away the win; "),
        "{word}"
    );
    let kept = word
        .trim_start_matches("That move throws away the win; ")
        .split_whitespace()
        .next()
        .unwrap();
    assert!(winning.contains(&kept), "{word}: {winning:?}");
    writeln!(input, "q").unwrap();
    drop(input);
    assert!(child.wait().unwrap().success());
}

/// The number just before `word` in `text` (`lose in 8 plies`: 8).
fn plies_before(text: &str, word: &str) -> u32 {
    let head = &text[..text
        .find(word)
        .unwrap_or_else(|| panic!("{word:?} in {text}"))];
    let digits: String = head
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.chars().rev().collect::<String>().parse().unwrap()
}

/// `play teeko` end to end, solving the real game first under a raised
/// budget: a scripted player asks `?` at the start, then types every
/// move name in turn (the 25 squares, then every pair), the illegal ones
/// refused and asked again. Teeko is a draw (Steele), so every opening
/// square draws; the prompt lists the legal moves (all 25 squares at the
/// start, the two men placed left out after a ply each); the scripted
/// player's first blunder gets a word whose loss the solver's next move
/// confirms a ply shorter (`?`'s and the solver's values agree), and the
/// game ends in the words every `play` uses.
#[test]
fn teeko_play_lists_moves_answers_the_question_mark_and_ends() {
    let squares: Vec<String> = "12345"
        .chars()
        .flat_map(|r| "abcde".chars().map(move |f| format!("{f}{r}")))
        .collect();
    let mut names = squares.clone();
    for a in &squares {
        for b in squares.iter().filter(|b| *b != a) {
            names.push(format!("{a}{b}"));
        }
    }
    let input = format!("?\n{}", (names.join("\n") + "\n").repeat(40));
    let text = common::script(&["play", "teeko", "--first", "--max-work", "1e10"], &input);
    assert!(
        text.contains("Teeko: from the start, whoever moves first draws"),
        "{text}"
    );
    let all = format!("Your move ({}; ? for values): ", squares.join(" "));
    assert!(text.contains(&all), "{text}");
    // `?` at the start: one value an opening square, every one a draw.
    let asked = &text[text.find(&all).unwrap() + all.len()..];
    let values: Vec<&str> = asked.lines().take(25).collect();
    for (v, s) in values.iter().zip(&squares) {
        assert_eq!(*v, format!("  {s}: a draw: neither can force an end"));
    }
    assert_eq!(values.len(), 25);
    // The scripted player placed a1, the solver replied: neither is
    // listed in the next prompt.
    let reply = text
        .split("I play ")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .unwrap();
    let left: Vec<&str> = squares
        .iter()
        .map(String::as_str)
        .filter(|s| *s != "a1" && *s != reply)
        .collect();
    assert!(
        text.contains(&format!("Your move ({}; ? for values): ", left.join(" "))),
        "{reply}: {text}"
    );
    // The blunder's word, and the solver's move after it.
    let word = text
        .find("That move turns the draw into a loss")
        .map(|at| &text[at..])
        .unwrap_or_else(|| panic!("{text}"));
    let lose = plies_before(word, " plies.");
    let next = &word[word.find("I play ").unwrap()..];
    let next = next.lines().next().unwrap();
    let win = if lose == 2 {
        plies_before(next, " ply.")
    } else {
        plies_before(next, " plies.")
    };
    assert_eq!(win + 1, lose, "{word}");
    assert!(
        text.trim_end().ends_with("Game over: I win."),
        "{}",
        &text[text.len().saturating_sub(400)..]
    );
}
