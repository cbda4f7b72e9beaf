//! A game not built into `gamesolve`, declared once in its own binary
//! (`examples/tiered_tic_tac_toe.rs`, through `gamesolve::cli::CliGame`),
//! gets `solve [--db] [--cluster]`, `value`, `analyze`, `check` and
//! `play`: every answer checked against a brute force written here from
//! the rules alone, and the published counts of tic-tac-toe (5,478
//! positions reachable from the empty board, 765 up to symmetry).

mod common;

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value as Json;

const EXAMPLE: &str = "tiered_tic_tac_toe";

/// The example's binary, beside this test's (`cargo test` builds the
/// examples; a run of this test alone builds it).
fn example() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().and_then(Path::parent).unwrap();
    let path = dir
        .join("examples")
        .join(format!("{EXAMPLE}{}", std::env::consts::EXE_SUFFIX));
    if !path.exists() {
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let built = Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "--profile",
                "test",
                "--example",
                EXAMPLE,
            ])
            .status()
            .expect("cargo runs");
        assert!(built.success(), "cargo build --example {EXAMPLE}");
    }
    path
}

fn run_with(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(example())
        .args(args)
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example runs");
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    child.wait_with_output().unwrap()
}

fn run(args: &[&str]) -> Output {
    run_with(args, "")
}

fn json(args: &[&str]) -> Json {
    let mut example = Command::new(example());
    example.env("RUST_BACKTRACE", "0");
    common::json_of(example, args)
}

use common::scratch;

// --- The brute force: tic-tac-toe from its rules, by plain recursion. ---

/// Cells 0..9 row by row: 0 empty, 1 X, 2 O.
type Board = [u8; 9];

const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A value for the player to move: ("win" | "lose" | "tie", plies).
type V = (&'static str, u64);

fn over(b: &Board, misere: bool) -> Option<V> {
    let line = LINES
        .iter()
        .any(|l| b[l[0]] != 0 && b[l[0]] == b[l[1]] && b[l[1]] == b[l[2]]);
    if line {
        // The player who just moved made it.
        Some((if misere { "win" } else { "lose" }, 0))
    } else if b.iter().all(|&c| c != 0) {
        Some(("tie", 0))
    } else {
        None
    }
}

fn play(b: &Board, cell: usize) -> Board {
    let mut next = *b;
    let filled = b.iter().filter(|&&c| c != 0).count();
    next[cell] = if filled % 2 == 0 { 1 } else { 2 };
    next
}

/// How good `v` is for the player to move: a win beats a tie beats a loss;
/// a faster win or tie, a slower loss, is better.
fn rank(v: V) -> (u8, i64) {
    match v.0 {
        "win" => (2, -(v.1 as i64)),
        "tie" => (1, -(v.1 as i64)),
        _ => (0, v.1 as i64),
    }
}

fn parent(v: V) -> V {
    let o = match v.0 {
        "win" => "lose",
        "lose" => "win",
        t => t,
    };
    (o, v.1 + 1)
}

fn value(b: &Board, misere: bool, memo: &mut HashMap<Board, V>) -> V {
    if let Some(v) = memo.get(b) {
        return *v;
    }
    let v = over(b, misere).unwrap_or_else(|| {
        (0..9)
            .filter(|&c| b[c] == 0)
            .map(|c| parent(value(&play(b, c), misere, memo)))
            .max_by_key(|&v| rank(v))
            .unwrap()
    });
    memo.insert(*b, v);
    v
}

/// The board reached by the cells `line` (1 to 9) from the empty one.
fn board(line: &str) -> Board {
    line.chars().fold([0; 9], |b, c| {
        play(&b, c.to_digit(10).unwrap() as usize - 1)
    })
}

/// Every position reachable from the empty board, and its value.
fn reachable(misere: bool) -> HashMap<Board, V> {
    let mut memo = HashMap::new();
    let mut seen = HashMap::new();
    let mut todo = vec![[0u8; 9]];
    while let Some(b) = todo.pop() {
        if seen.contains_key(&b) {
            continue;
        }
        seen.insert(b, value(&b, misere, &mut memo));
        if over(&b, misere).is_none() {
            todo.extend((0..9).filter(|&c| b[c] == 0).map(|c| play(&b, c)));
        }
    }
    seen
}

fn assert_value(j: &Json, v: V, what: &str) {
    assert_eq!(j["outcome"], v.0, "{what}: {j}");
    assert_eq!(j["remoteness"], v.1, "{what}: {j}");
}

/// `value` for `line` against the brute force: the position's value and
/// every move's.
fn check_value(j: &Json, line: &str, misere: bool) {
    let b = board(line);
    let mut memo = HashMap::new();
    assert_value(j, value(&b, misere, &mut memo), line);
    let moves = j["moves"].as_array().unwrap();
    let empty: Vec<usize> = (0..9).filter(|&c| b[c] == 0).collect();
    if over(&b, misere).is_some() {
        assert!(moves.is_empty(), "{line}: {j}");
        return;
    }
    assert_eq!(moves.len(), empty.len(), "{line}: {j}");
    for (m, &c) in moves.iter().zip(&empty) {
        assert_eq!(m["move"], format!("cell {}", c + 1), "{line}: {j}");
        let v = parent(value(&play(&b, c), misere, &mut memo));
        assert_value(m, v, &format!("{line} then {}", c + 1));
    }
}

#[test]
fn a_game_declared_in_its_own_binary_gets_every_command() {
    for misere in [false, true] {
        let rules: &[&str] = if misere { &["--misere"] } else { &[] };
        let all = reachable(misere);
        let start = all[&[0; 9]];
        let count = |o: &str| all.values().filter(|v| v.0 == o).count();
        // Solved in memory, reachable-first: the start, the published
        // counts, and the brute force's outcomes over them.
        let mut args = vec!["solve"];
        args.extend_from_slice(rules);
        let solved = json(&args);
        assert_value(&solved["start"], start, "start");
        assert_eq!(all.len(), 5_478);
        assert_eq!(solved["reachable"], 5_478);
        assert_eq!(solved["reachable_canonical"], 765);
        for o in ["win", "lose", "tie"] {
            assert_eq!(solved[o], count(o), "{o} (misère: {misere})");
        }
        assert_eq!(solved["verified"], true);
        // Into a database: the same; then `value`, `analyze` and `play`
        // from it with no option repeated.
        let dir = scratch(if misere { "misere" } else { "normal" });
        let d = dir.display().to_string();
        args.extend_from_slice(&["--db", &d]);
        let in_db = json(&args);
        assert_value(&in_db["start"], start, "start from the database");
        assert_eq!(in_db["reachable"], 5_478);
        for line in ["", "5", "51", "519", "1234", "12457", "159", "13246"] {
            let from_db = json(&["value", line, "--db", &d]);
            check_value(&from_db, line, misere);
            let mut solving = vec!["value", line];
            solving.extend_from_slice(rules);
            assert_eq!(from_db, json(&solving), "{line}");
        }
        let a = json(&["analyze", "--db", &d]);
        assert_eq!(a["reachable"]["all"], 5_478);
        for o in ["win", "lose", "tie"] {
            assert_eq!(a["reachable"]["counts"][o], count(o), "{o}");
        }
        // Playing second from the database: the solver's every move keeps
        // the start's value (a perfect player), game to the end.
        let out = run_with(&["--json", "play", "--second", "--db", &d], "q\n");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        for line in text.lines() {
            serde_json::from_str::<Json>(line).expect("one JSON object a line");
        }
        let mut solving = vec!["--json", "play", "--second"];
        solving.extend_from_slice(rules);
        let first = String::from_utf8(run_with(&solving, "q\n").stdout).unwrap();
        assert_eq!(text, first, "the same game as when solving first");
        assert!(!text.is_empty());
        // The other rules against this database: one line naming its own.
        let mut other = vec!["value", "5", "--db", &d];
        if !misere {
            other.push("--misere");
            let out = run(&other);
            assert!(!out.status.success());
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(err.contains("it holds Tic-tac-toe (3x3, normal"), "{err}");
            assert!(
                err.contains(&format!("{EXAMPLE} value 5 --db {d}`")),
                "{err}"
            );
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    // On two timely workers: the same start and counts.
    let cluster = json(&["solve", "--cluster", "-w", "2"]);
    let all = reachable(false);
    assert_value(&cluster["start"], all[&[0; 9]], "the cluster's start");
    assert_eq!(cluster["reachable"], 5_478);
    assert_eq!(cluster["cluster"]["workers"], 2);
    // `check`: every promise of tiers and symmetry.
    assert_eq!(json(&["check", "--samples", "500"])["ok"], true);
    // A move that cannot be played, a command that is not one: one line,
    // a non-zero exit.
    for args in [&["value", "55"][..], &["bogus"]] {
        let out = run(args);
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.starts_with(&format!("{EXAMPLE}: ")), "{err}");
    }
}
