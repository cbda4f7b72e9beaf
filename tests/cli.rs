//! The `gamesolve` command as a user runs it: JSON output, the seed
//! problems' answers, and one-line errors with a non-zero exit.

use std::process::Command;

mod common;

use common::{fails, json, run as gamesolve};

/// A command refused for the memory it needs ([`fails`]): its line says
/// each of `says` and how to raise the budget (`--memory`).
fn refused_for_memory(args: &[&str], says: &[&str]) {
    let err = fails(args);
    assert!(
        says.iter().all(|s| err.contains(s)) && err.contains("--memory"),
        "{err}"
    );
}

#[test]
fn stones_take_and_period() {
    assert_eq!(json(&["stones", "take", "0", "0", "7", "3"])["take"], 2);
    let p = json(&["stones", "period", "3"]);
    assert_eq!(
        (p["preperiod"].as_u64(), p["period"].as_u64()),
        (Some(0), Some(8))
    );
    // Huge piles go through the period.
    let big = json(&["stones", "take", "0", "0", "1000000000000007", "3"]);
    assert_eq!(big["take"], 2);
}

#[test]
fn power_game_examples() {
    let v = json(&["power-game", "7", "13"]);
    assert_eq!(v["winner"], "Bob");
    assert_eq!(v["moves"], 4);
    let text = gamesolve(&["power-game", "10000", "10000"]);
    assert_eq!(
        String::from_utf8(text.stdout).unwrap().trim(),
        "Alan will win after 1 moves"
    );
}

#[test]
fn subtraction_tables() {
    assert_eq!(
        json(&["subtraction", "--set", "1,3,4", "--upto", "11"])["outcomes"],
        "LWLWWWWLWLWW"
    );
    assert_eq!(
        json(&["subtraction", "--set", "1,3,4", "--upto", "11", "--misere"])["outcomes"],
        "WLWLWWWWLWLW"
    );
    let sq = json(&["subtraction", "--squares", "--upto", "39"]);
    let losses: Vec<usize> = sq["outcomes"]
        .as_str()
        .unwrap()
        .char_indices()
        .filter(|&(_, c)| c == 'L')
        .map(|(i, _)| i)
        .collect();
    assert_eq!(losses, [0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39]);
}

#[test]
fn bad_input_is_one_line_and_non_zero() {
    assert!(fails(&["stones", "take", "0", "0", "7", "0"]).contains("max take"));
    assert!(fails(&["stones", "take", "0", "0", "0", "3"]).contains("empty"));
    assert!(fails(&["stones", "take", "0", "0", "8", "3"]).contains("even"));
    assert!(fails(&["stones", "period", "0"]).contains("max take"));
    assert!(fails(&["subtraction", "--set", "", "--upto", "5"]).contains("empty"));
    assert!(fails(&["subtraction", "--set", "0,2", "--upto", "5"]).contains("contains 0"));
    assert!(fails(&["subtraction", "--set", "1,x", "--upto", "5"])
        .contains("not a non-negative number"));
    assert!(fails(&["subtraction", "--upto", "5"]).contains("required"));
    // Either --upto or --period will do, and the message says so.
    for args in [
        &["grundy", "subtraction", "--set", "1,2"][..],
        &["grundy", "octal", "0.77"],
    ] {
        let err = fails(args);
        assert!(err.contains("--upto") && err.contains("--period"), "{err}");
    }
    assert!(
        fails(&["grundy", "octal", "0.77", "--upto", "3", "--period"])
            .contains("cannot be used with")
    );
    let err = fails(&["subtraction", "--squares", "--upto", "99999999999999"]);
    assert!(err.contains("needs") && err.contains("--memory"), "{err}");
    let err = fails(&["subtraction", "--squares", "--upto", "100000000"]);
    assert!(
        err.contains("steps of work") && err.contains("--max-work"),
        "{err}"
    );
    fails(&["stones", "take", "-1", "0", "7", "3"]);
    fails(&["stones", "take", "x", "0", "7", "3"]);
    fails(&["no-such-command"]);
    // timely alone reads no workers or processes as one, silently, and
    // would start any number (5,000 workers took 19.5 GB in 30 s).
    for flags in [["-w", "0"], ["-n", "0"], ["-w", "x"], ["-w", "5000"]] {
        let mut args = vec!["fingers", "solve", "--cluster"];
        args.extend(flags);
        assert!(fails(&args).contains("from 1 to 1024"), "{args:?}");
    }
    // 1,024 workers pass the range, but their channels (4 KiB for each
    // pair) and their start-up work are counted before anything starts.
    let err = fails(&["fingers", "solve", "--cluster", "-w", "1024"]);
    assert!(
        err.contains("1024 cluster workers") && err.contains("--max-work"),
        "{err}"
    );
    let err = fails(&[
        "--max-work",
        "1e19",
        "--memory",
        "1G",
        "fingers",
        "solve",
        "--cluster",
        "-w",
        "1024",
    ]);
    assert!(err.contains("channels") && err.contains("4.0 GiB"), "{err}");
    // With one process timely ignores -p.
    assert!(fails(&["fingers", "solve", "--cluster", "-n", "1", "-p", "3"]).contains("-p 3"));
    fails(&[
        "connect4",
        "solve",
        "--width",
        "4",
        "--height",
        "4",
        "--cluster",
        "-w",
    ]);
}

#[test]
fn fingers_solve_default_rules() {
    let v = json(&["fingers", "solve"]);
    assert_eq!(v["start"]["outcome"], "lose");
    assert_eq!(v["start"]["remoteness"], 26);
    assert_eq!(v["reachable"], 191);
    // The shared solve's report, as every registered game's: its
    // certificate over the table's 224 positions and their 546 distinct
    // children (tests/certificate.rs derives both from the rules).
    assert_eq!(v["certificate"]["positions"], 224);
    assert_eq!(v["certificate"]["children"], 546);
    assert_eq!(v["verified"], true);
    let total = ["win", "lose", "tie", "draw"]
        .iter()
        .map(|k| v[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(total, 191);
    let with = json(&["fingers", "solve", "--positions"]);
    // The listing beside the same report.
    for key in [
        "start",
        "reachable",
        "win",
        "lose",
        "tie",
        "draw",
        "certificate",
    ] {
        assert_eq!(with[key], v[key], "{key}");
    }
    let positions = with["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 191);
    let start = positions
        .iter()
        .find(|p| {
            p["me"] == serde_json::json!([1, 1]) && p["opponent"] == serde_json::json!([1, 1])
        })
        .unwrap();
    assert_eq!(start["outcome"], "lose");
    assert!(start["best"].is_string());
    // Without the certificate: the same answers, the check reported as
    // not made (null), not as passed.
    let quick = json(&["fingers", "solve", "--no-certify"]);
    for key in ["start", "reachable", "win", "lose", "tie", "draw"] {
        assert_eq!(quick[key], v[key], "{key}");
    }
    assert!(quick["verified"].is_null() && quick["seconds"]["certify"].is_null());
    assert!(v["seconds"]["certify"].is_f64());
}

#[test]
fn fingers_value_table_line_dot() {
    let v = json(&["fingers", "value", "1,3", "2,2"]);
    assert_eq!(v["outcome"], "draw");
    assert!(v["remoteness"].is_null());
    // From the thread's table: 04 vs 01 is "+4T1", a win at once.
    let w = json(&["fingers", "value", "0,4", "0,1"]);
    assert_eq!(
        (w["outcome"].as_str(), w["remoteness"].as_u64()),
        (Some("win"), Some(1))
    );
    assert_eq!(w["best"], "4T1");
    let t = json(&["fingers", "table"]);
    assert_eq!(t["rows"].as_array().unwrap().len(), 14);
    assert_eq!(t["cells"][0][3], "+1T4");
    let line = json(&["fingers", "line"]);
    assert_eq!(line["length"], 26);
    assert_eq!(line["end"], "over");
    let dot = json(&["fingers", "dot"]);
    assert!(dot["dot"].as_str().unwrap().starts_with("digraph"));
}

#[test]
fn fingers_rule_switches_and_bad_input() {
    let v = json(&[
        "fingers",
        "solve",
        "--fingers",
        "3",
        "--rollover",
        "--allow-swap",
    ]);
    assert_eq!(v["verified"], true);
    assert!(fails(&["fingers", "value", "5,1", "1,1"]).contains("5 fingers"));
    assert!(fails(&["fingers", "value", "0,0", "0,0"]).contains("both players"));
    assert!(fails(&["fingers", "value", "1", "1,1"]).contains("pair of hands"));
    assert!(fails(&["fingers", "solve", "--fingers", "1"]).contains("2..=255"));
    assert!(fails(&["fingers", "solve", "--fingers", "256"]).contains("2..=255"));
    assert!(fails(&["fingers", "dot", "--max-positions", "0"]).contains("at least 1"));
    assert!(fails(&["fingers", "dot", "--max-positions", "x"]).contains("number of positions"));
    // Under rollover a hand of F or more is not dead: it cannot be shown.
    let err = fails(&["fingers", "value", "6,1", "1,1", "--rollover"]);
    assert!(err.contains("mod 5") && !err.contains("dead"), "{err}");
    let err = fails(&["fingers", "value", "300,1", "1,1", "--rollover"]);
    assert!(err.contains("mod 5") && !err.contains("dead"), "{err}");
    // The transfer switches change nothing without transfers: refused
    // beside --no-transfers (a database solved with one and read without
    // it was refused as written for other rules, though the game was the
    // same).
    for switch in [
        "--no-revive",
        "--no-empty",
        "--allow-swap",
        "--allow-transfer-overflow",
    ] {
        let err = fails(&["fingers", "solve", "--no-transfers", switch]);
        assert!(
            err.contains(switch) && err.contains("--no-transfers"),
            "{err}"
        );
    }
}

/// `play fingers` with `args`, its standard input `script`: the output.
fn play(args: &[&str], script: &str) -> String {
    let mut all = vec!["play", "fingers"];
    all.extend_from_slice(args);
    common::script(&all, script)
}

#[test]
fn play_asks_again_on_an_empty_line_and_ends_a_closed_input_with_a_newline() {
    let text = play(&[], "\ny\n\n1T1\n");
    assert!(!text.contains("Please answer"), "{text}");
    assert!(!text.contains("not a legal move"), "{text}");
    // Asked twice for the first move (the empty line), once after.
    assert_eq!(text.matches("Your move").count(), 3, "{text}");
    assert!(text.ends_with('\n'), "{text:?}");
    assert!(play(&[], "").ends_with("[y/n] \n"));
    let text = play(&[], "maybe\ny\n9T9\n1T1\n");
    assert!(text.contains("Please answer y or n."));
    assert!(text.contains("'9T9' is not a legal move here"));
    assert!(text.contains("I play"));
}

#[test]
fn play_describes_its_moves_from_your_side_of_the_table() {
    // The solver moves first from a lost start: it says so, in plies.
    let text = play(&[], "n\nq\n");
    assert!(
        text.contains("I play 1T1: I touch my hand of 1 onto your hand of 1."),
        "{text}"
    );
    assert!(
        text.contains("I lose in 26 plies if you play perfectly"),
        "{text}"
    );
    assert!(!text.contains("opponent"), "{text}");
}

#[test]
fn play_json_is_one_object_a_line_or_a_one_line_refusal() {
    let text = play(&["--json", "--first"], "xyz\n1T1\nq\n");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l}: {e}")))
        .collect();
    assert_eq!(lines[0]["options"], serde_json::json!(["1T1", "C02"]));
    assert_eq!(lines[0]["value"]["outcome"], "lose");
    assert_eq!(lines[0]["value"]["remoteness"], 26);
    assert!(lines[1]["error"].as_str().unwrap().contains("xyz"));
    assert!(lines[2]["move"].is_string(), "{text}");
    assert_eq!(lines.len(), 4, "{text}");
    // Without --first or --second there is nobody to ask: one line.
    assert!(fails(&["--json", "play", "fingers"]).contains("--first or --second"));
}

/// The default drawing: the positions near the start and on the line of
/// perfect play, each node's drawn and hidden moves adding up to its moves
/// in the game, and the cut said in the graph and on stderr.
#[test]
fn fingers_dot_draws_a_readable_cut_and_says_so() {
    use game_core::Game;
    use games::{Fingers, FingersPosition, FingersRules};
    let out = gamesolve(&["fingers", "dot", "--depth", "1"]);
    assert!(out.status.success());
    let dot = String::from_utf8(out.stdout).unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("of the 191 positions reachable from the start are pictured"),
        "{err}"
    );
    assert!(dot.contains("CUT: "), "{dot}");
    let game = Fingers::new(FingersRules::default()).unwrap();
    // Nodes: `  i [ label = "a,b | c,d\nvalue[\n+k moves not drawn]", ... ]`.
    let mut nodes = Vec::new();
    for line in dot.lines().filter(|l| l.contains("fillcolor")) {
        let label = line.split('"').nth(1).unwrap();
        let mut parts = label.split("\\n");
        let pos = parts.next().unwrap();
        let (me, opp) = pos.split_once(" | ").unwrap();
        let hands = |s: &str| -> [u8; 2] {
            let (a, b) = s.split_once(',').unwrap();
            [a.parse().unwrap(), b.parse().unwrap()]
        };
        let hidden: usize = parts
            .find(|p| p.ends_with("not drawn"))
            .map_or(0, |p| p[1..].split(' ').next().unwrap().parse().unwrap());
        nodes.push((FingersPosition::new(hands(me), hands(opp)), hidden));
    }
    assert!(nodes.len() > 10 && nodes.len() < 191, "{}", nodes.len());
    assert_eq!(nodes[0].0, FingersPosition::START);
    let mut moves = Vec::new();
    for (i, (pos, hidden)) in nodes.iter().enumerate() {
        let drawn = dot.matches(&format!("    {i} -> ")).count();
        moves.clear();
        if game.outcome(pos).is_none() {
            game.moves(pos, &mut moves);
        }
        assert_eq!(drawn + hidden, moves.len(), "{pos}");
    }
    // --all draws every reachable position, with no cut.
    let all = json(&["fingers", "dot", "--all"]);
    assert_eq!(all["drawn"], 191);
    assert_eq!(all["cut"], false);
}

#[test]
fn play_fingers_re_asks_and_ends() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamesolve"))
        .args(["play", "fingers", "--second"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"xyz\nq\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("I play"), "{text}");
    assert!(text.contains("'xyz' is not a legal move"), "{text}");
}

#[test]
fn grundy_nim_knights_commands() {
    let v = json(&["grundy", "subtraction", "--set", "1,2,3", "--upto", "9"]);
    assert_eq!(
        v["values"],
        serde_json::json!([0, 1, 2, 3, 0, 1, 2, 3, 0, 1])
    );
    let p = json(&["grundy", "subtraction", "--set", "1,3,4", "--period"]);
    assert_eq!(
        (p["preperiod"].as_u64(), p["period"].as_u64()),
        (Some(0), Some(7))
    );
    let k = json(&["grundy", "octal", "0.77", "--period"]);
    assert_eq!(
        (k["preperiod"].as_u64(), k["period"].as_u64()),
        (Some(71), Some(12))
    );
    let u = json(&["grundy", "octal", "0.77", "--upto", "11"]);
    assert_eq!(
        u["values"],
        serde_json::json!([0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6])
    );
    assert!(
        fails(&["grundy", "octal", "0.6", "--period", "--max", "3000"])
            .contains("no period proven")
    );
    assert!(fails(&["grundy", "octal", "0.9", "--period"]).contains("invalid octal code"));
    assert!(
        fails(&["grundy", "subtraction", "--set", "0,1", "--upto", "5"]).contains("contains 0")
    );
    let n = json(&["nim", "1", "2", "3"]);
    assert_eq!(
        (n["winner"].as_str(), n["nim_sum"].as_u64()),
        (Some("second"), Some(0))
    );
    assert!(n["move"].is_null());
    let n = json(&["nim", "7", "4", "1"]);
    assert_eq!(n["winner"], "first");
    assert_eq!(n["move"], serde_json::json!({"heap": 0, "take": 2}));
    let b = json(&["nim", "3", "4", "5", "--max-take", "3"]);
    assert_eq!(b["winner"], "first");
    assert!(fails(&["nim", "3", "--max-take", "0"]).contains("at least 1"));
    let t = json(&["knights", "--size", "8"]);
    assert_eq!(t["grundy"].as_array().unwrap().len(), 8);
    assert_eq!(t["grundy"][0][0], 0);
    let w = json(&["knights", "--size", "15", "1,1"]);
    assert_eq!(w["winner"], "second");
    assert!(fails(&["knights", "--size", "8", "9,9"]).contains("off the"));
    assert!(fails(&["knights", "--size", "0"]).contains("at least one square"));
}

/// `fingers solve` must fit in `--memory` before anything starts: its
/// table and the engine's working memory (the walk of the positions
/// reachable from the start beside the table takes less). F = 128 (68,161,536
/// positions) on one thread: 2 bytes a position of table and two level
/// lists of at most an eighth of the positions in 8-byte ids, 4 bytes a
/// position in all, 260 MiB (the walk beside the table takes 2.5 bytes a
/// position). A budget that holds the table alone (130 MiB) is refused.
#[test]
fn fingers_solve_refuses_a_memory_budget_that_holds_the_table_but_not_its_work() {
    refused_for_memory(
        &[
            "--threads",
            "1",
            "--memory",
            "140M",
            "fingers",
            "solve",
            "--fingers",
            "128",
        ],
        &["the engine's working memory", "260.0 MiB"],
    );
}

#[test]
fn fingers_solve_on_the_cluster_is_refused_before_it_starts_when_the_table_cannot_fit() {
    // Every process holds the whole table (68,161,536 positions of two
    // bytes: 130.0 MiB) beside its blocks while they are copied into it,
    // and the levels' lists and updates (at most two bytes an index):
    // 390.0 MiB; more than process 0's table and walk of the reachable
    // positions afterwards (half a byte an index: 162.5 MiB in all). It
    // used to run the whole solve before the walk refused.
    refused_for_memory(
        &[
            "--memory",
            "150M",
            "fingers",
            "solve",
            "--fingers",
            "128",
            "--cluster",
            "-w",
            "1",
        ],
        &["on the cluster", "390.0 MiB"],
    );
}

#[test]
fn a_tiered_game_on_the_cluster_is_refused_before_it_starts_when_its_tables_cannot_fit() {
    // Every process ends holding every tier's table, and the largest
    // tier's cells twice more (its blocks beside its table while they are
    // copied; finished tiers' blocks kept for the tiers to come), and
    // the largest tier with levels once more for their lists and updates:
    // Teeko's 172,401,726 indices and the moving phase's 151,420,500
    // three times, at two bytes, are 1,253,326,452 bytes, 1.2 GiB. It used
    // to start with no check at all.
    refused_for_memory(
        &[
            "--memory",
            "100M",
            "--max-work",
            "1e15",
            "teeko",
            "solve",
            "--cluster",
            "-w",
            "1",
        ],
        &["Teeko on the cluster", "1.2 GiB"],
    );
}

#[test]
fn budget_flags_take_units_and_refusals_name_them() {
    // 10,001 piles take three bytes each: over a KiB.
    refused_for_memory(
        &[
            "--memory",
            "1k",
            "subtraction",
            "--set",
            "1",
            "--upto",
            "10000",
        ],
        &["more than the 1.0 KiB available"],
    );
    let ok = json(&[
        "--max-work",
        "1e6",
        "subtraction",
        "--set",
        "1,3,4",
        "--upto",
        "11",
    ]);
    assert_eq!(ok["outcomes"], "LWLWWWWLWLWW");
    // Piles 0..=100: (4/3)·100^1.5 + 101 = 1434 steps, over 1000.
    let err = fails(&["--max-work", "1k", "power-game", "100", "100"]);
    assert!(
        err.contains("about 1434 steps of work, over the budget of 1000"),
        "{err}"
    );
    assert!(err.contains("--max-work"), "{err}");
    assert_eq!(
        json(&["--max-work", "1435", "power-game", "100", "100"])["moves"],
        1
    );
    for bad in ["0", "-1", "x", "1e400", "5Q", ""] {
        fails(&["--max-work", bad, "nim", "1"]);
        fails(&["--memory", bad, "nim", "1"]);
    }
}

/// The budget a work refusal suggests (`--max-work N`, the line's last
/// word), and the steps it says were needed.
fn suggested_work(err: &str) -> (f64, f64) {
    let needed = err
        .split("needs about ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no figure of steps: {err}"));
    let enough = err
        .trim()
        .trim_end_matches(')')
        .rsplit(' ')
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no suggested budget: {err}"));
    (needed, enough)
}

#[test]
fn solves_and_checks_past_the_work_budget_are_refused_before_they_start() {
    // Each used to start and run for minutes (or abort, asking for the
    // memory of 10^12 samples) whatever --max-work said.
    for args in [
        &["teeko", "solve"][..],
        &["dobutsu", "value"],
        &[
            "--max-work",
            "1",
            "connect4",
            "solve",
            "--width",
            "4",
            "--height",
            "4",
        ],
        &[
            "connect4",
            "check",
            "--width",
            "7",
            "--height",
            "6",
            "--samples",
            "1000000000000",
        ],
        &["dobutsu", "check", "--samples", "100000000"],
        &["fingers", "solve", "--fingers", "150"],
        // Not even "Solving … first" is printed.
        &["play", "teeko", "--first"],
        // 30 s mapping before the drawing was refused; 53 s of table.
        &["fingers", "dot", "--all", "--fingers", "100"],
        &["fingers", "table", "--fingers", "100"],
        // A million pairs of workers joined by channels (25 s on 2 cores
        // for the smallest game).
        &[
            "fingers",
            "solve",
            "--fingers",
            "5",
            "--cluster",
            "-w",
            "1024",
        ],
    ] {
        let err = fails(args);
        assert!(
            err.contains("steps of work") && err.contains("--max-work"),
            "{err}"
        );
        let (needed, enough) = suggested_work(&err);
        assert!(enough >= needed, "{err}");
    }
    // The budget suggested is enough.
    let err = fails(&[
        "--max-work",
        "1",
        "connect4",
        "solve",
        "--width",
        "4",
        "--height",
        "4",
    ]);
    let (_, enough) = suggested_work(&err);
    let v = json(&[
        "--max-work",
        &format!("{enough:e}"),
        "connect4",
        "solve",
        "--width",
        "4",
        "--height",
        "4",
    ]);
    assert_eq!(v["reachable"], 161_029, "Tromp's count for 4×4");
}

/// A whole solve with no database holds every tier to the end, or is
/// refused: under a limit that held the tables but not twice them,
/// Connect Four 4×5 (6.1 MB of tables) dropped tiers to stay under half of
/// it and then skipped its certificate, saying that a database (there was
/// none) held them.
#[test]
fn a_whole_solve_without_a_database_certifies_or_is_refused() {
    let board = ["connect4", "solve", "--width", "4", "--height", "5"];
    // One byte an index (Connect Four's remoteness fits it): 2.9 MiB of
    // tables, held at once for the certificate.
    for memory in ["4M", "5M"] {
        let mut args = vec!["--memory", memory];
        args.extend(board);
        let v = json(&args);
        assert_eq!(v["verified"], true, "--memory {memory}: {v}");
        assert_eq!(v["reachable"], 1_706_255, "Tromp's count for 4×5");
    }
    let mut args = vec!["--memory", "3M"];
    args.extend(board);
    refused_for_memory(&args, &["every tier solved before it"]);
}

#[test]
fn a_listing_of_every_position_is_refused_when_it_cannot_fit() {
    // At 50 fingers a hand, 1,625,625 positions that may all be listed:
    // it used to pass and take 1.7 GB under --memory 100M.
    refused_for_memory(
        &[
            "--memory",
            "100M",
            "fingers",
            "solve",
            "--fingers",
            "50",
            "--positions",
        ],
        &["listing them"],
    );
}

#[test]
fn play_answers_a_line_that_is_not_utf8_as_no_move() {
    // It used to end the game with "cannot write output: stream did not
    // contain valid UTF-8".
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_gamesolve"))
        .args(["play", "fingers"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"y\n\xff\xfe\n1T1\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("is not a legal move here"), "{text}");
    assert!(text.contains("I play"), "{text}");
}

#[test]
fn play_refuses_an_input_line_longer_than_any_answer() {
    // A line was read whole into memory, however long: `play fingers
    // </dev/zero` grew until the allocator aborted. A line past 4096 bytes
    // now ends the game with one line.
    for args in [
        &["play", "fingers", "--first"][..],
        &[
            "play", "connect4", "--width", "3", "--height", "3", "--first",
        ],
    ] {
        let out = common::with_input(args, &format!("{}\n1\n", "1".repeat(5000)));
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            err.contains("input line longer than 4096 bytes") && !err.contains("panicked"),
            "{err}"
        );
    }
    // A line of 4096 bytes is still read, and answered as no move.
    let text = play(&["--first"], &format!("{}\nq\n", "1".repeat(4096)));
    assert!(text.contains("is not a legal move here"), "{text}");
}

#[test]
fn play_names_an_input_it_cannot_read_as_input() {
    // Standard input a directory: reading it fails, which was reported as
    // "cannot write output: Is a directory".
    for game in ["fingers", "connect4"] {
        let out = Command::new(env!("CARGO_BIN_EXE_gamesolve"))
            .args(["play", game, "--first"])
            .env("RUST_BACKTRACE", "0")
            .stdin(std::fs::File::open("/").unwrap())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{game}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            err.contains("cannot read input") && !err.contains("output"),
            "{err}"
        );
    }
}

#[test]
fn rayon_num_threads_is_bounded_as_threads_is() {
    // RAYON_NUM_THREADS=20000 started 20,000 threads without a word: a
    // 3×3 solve ran past a minute. Now refused as --threads 20000 is; with
    // --threads given, the variable is not read.
    let board = ["connect4", "solve", "--width", "3", "--height", "3"];
    let out = common::bin()
        .args(board)
        .env("RAYON_NUM_THREADS", "2000")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("RAYON_NUM_THREADS takes 1..=1024 threads") && err.contains("2000"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    let out = common::bin()
        .args(["--threads", "2"])
        .args(board)
        .env("RAYON_NUM_THREADS", "2000")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_board_that_is_wrong_is_named_as_a_board() {
    // Both used to be read as moves, and the error named a move.
    let err = fails(&["--memory", "1M", "dobutsu", "value", "lll/.c./.C./ELG - b"]);
    assert!(err.contains("lion") && !err.contains("move from"), "{err}");
    let err = fails(&[
        "--memory",
        "1M",
        "teeko",
        "value",
        "bbbbbbbbbbbbbbbbbbbbbbbbb r",
    ]);
    assert!(err.contains("four") && !err.contains("move from"), "{err}");
}

#[test]
fn a_solver_s_own_memory_refusal_names_the_flag_not_the_library() {
    // The solvers' refusals used to end "(Config::memory_limit, --memory)".
    for args in [
        &["--memory", "1", "fingers", "line"][..],
        &["--memory", "1", "play", "fingers", "--first"],
    ] {
        let err = fails(args);
        assert!(
            err.contains("--memory BYTES") && !err.contains("Config"),
            "{err}"
        );
    }
}

#[test]
fn the_largest_budgets_are_taken_and_no_budget_is_advised_past_them() {
    // u64::MAX itself was refused as "not between 1 and 1.8e19".
    for flag in ["--max-work", "--memory"] {
        let v = json(&[flag, "18446744073709551615", "nim", "1", "2"]);
        assert_eq!(v["winner"], "first", "{v}");
    }
    fails(&["--max-work", "1e20", "nim", "1", "2"]);
    // The help says up to 16 EiB: the units up to it are taken (1P and 8E
    // were refused as "not an amount"), and past it refused.
    for most in ["1P", "8E", "16E", "16EiB"] {
        let v = json(&["--memory", most, "nim", "1", "2"]);
        assert_eq!(v["winner"], "first", "{most}: {v}");
    }
    assert!(fails(&["--memory", "17E", "nim", "1", "2"]).contains("16 EiB"));
    // Work past counting: no budget to raise to.
    let err = fails(&["power-game", "18446744073709551615", "0"]);
    assert!(
        err.contains("past any budget") && !err.contains("--max-work"),
        "{err}"
    );
    // Work between 10^19 steps and u64::MAX: the round budget advised was
    // 2e19, which --max-work refuses; the largest it takes is named, and
    // taken.
    // (A solve: `value` on a board whose tables fit no budget is answered
    // by search.)
    let board = [
        "connect4",
        "solve",
        "--no-certify",
        "--width",
        "1",
        "--height",
        "62",
    ];
    let err = fails(&board);
    assert!(
        err.contains("--max-work 18446744073709551615") && !err.contains("2e19"),
        "{err}"
    );
    // (Within 1G the solve stops at once, on memory; in all the machine
    // has it solves the first tiers before it does.)
    let mut most = vec!["--max-work", "18446744073709551615", "--memory", "1G"];
    most.extend(board);
    let err = fails(&most);
    assert!(!err.contains("--max-work"), "{err}");
}

/// The budget a refusal's advice ends with ("… e.g. --max-work 4e9)").
fn suggested_budget(err: &str) -> f64 {
    err.trim()
        .trim_end_matches(')')
        .rsplit(' ')
        .next()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no suggested budget: {err}"))
}

/// A search that spends its whole work budget does not know its need: it
/// says "more than the budget" and advises a multiple of it. It used to
/// print the budget spent as the need ("needs about 4.0e9 steps, over the
/// budget of 4.0e9") and advise a budget a step above it, which failed
/// again.
#[test]
fn a_search_that_spends_its_budget_says_more_than_the_budget() {
    // The empty 7x6 board: some 8e9 steps of search on one thread.
    for args in [
        &[
            "--max-work",
            "1e6",
            "connect4",
            "value",
            "",
            "--width",
            "7",
            "--height",
            "6",
        ][..],
        &[
            "--max-work",
            "2e6",
            "--threads",
            "2",
            "connect4",
            "value",
            "4",
            "--width",
            "7",
            "--height",
            "6",
        ],
    ] {
        let err = fails(args);
        let budget = game_core::budget::human_count(args[1].parse::<f64>().unwrap() as u64);
        assert!(
            err.contains(&format!("needs more than the budget of {budget} steps")),
            "{args:?}: {err}"
        );
        assert!(!err.contains("needs about"), "{args:?}: {err}");
        let given: f64 = args[1].parse().unwrap();
        let suggested = suggested_budget(&err);
        assert!(suggested >= 4.0 * given, "{args:?}: {err}");
    }
}

/// A period search that spends its work budget suggests one that would
/// go further, as a number to type: the advice's placeholder used to be
/// printed as it was ("e.g. --max-work {enough}").
#[test]
fn a_period_search_past_its_budget_suggests_a_budget_to_type() {
    for args in [
        &[
            "--max-work",
            "1e4",
            "grundy",
            "subtraction",
            "--set",
            "5,17,123,999",
            "--period",
        ][..],
        &["--max-work", "1e6", "grundy", "octal", "0.6", "--period"],
    ] {
        let err = fails(args);
        assert!(!err.contains('{'), "{args:?}: {err}");
        let given: f64 = args[1].parse().unwrap();
        let suggested = suggested_budget(&err);
        assert!(suggested > given, "{args:?}: {err}");
        // And with it the search goes further.
        let heaps = |e: &str| -> u64 {
            e.split("up to ")
                .nth(1)
                .and_then(|s| s.split(' ').next())
                .and_then(|s| s.parse().ok())
                .unwrap_or(u64::MAX)
        };
        let mut more = args.to_vec();
        let budget = suggested.to_string();
        more[1] = &budget;
        let out = gamesolve(&more);
        let err2 = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() || heaps(&err2) > heaps(&err), "{err2}");
    }
}

/// A 100 KB argument is quoted back cut to its first 80 characters and
/// `…`, whichever message quotes it: clap's, a value parser's, a game's
/// notation or a database path (each repeated it whole, 100 KB of error).
#[test]
fn a_huge_argument_is_quoted_back_cut_short() {
    let big = "9".repeat(100_000);
    // Its first 80 characters (a path's 75 nines after `/tmp/`) and `…`.
    let cut = format!("{}…", "9".repeat(75));
    let board = format!("{big} b");
    let path = format!("/tmp/{big}");
    let lines: Vec<Vec<&str>> = vec![
        vec!["power-game", &big, "3"],
        vec!["--memory", &big, "fingers", "solve"],
        vec!["--max-work", &big, "fingers", "solve"],
        vec!["fingers", "value", &big, "1,1"],
        vec!["subtraction", "--set", &big, "--upto", "3"],
        vec!["connect4", "value", &big, "--width", "4", "--height", "4"],
        vec!["teeko", "value", &board],
        vec!["dobutsu", "value", &big],
        vec!["knights", "--size", "8", &big],
        vec!["fingers", "value", "1,1", "1,1", "--db", &path],
    ];
    for args in lines {
        let err = fails(&args);
        assert!(
            err.len() < 400 && err.contains(&cut),
            "{}: {err}",
            args.join(" ").chars().take(60).collect::<String>()
        );
    }
}

/// With `--json` an error is one JSON object on stderr, `{"error": …}`,
/// with stdout empty and a non-zero exit, whether the command refuses it
/// or the parser does (it was the text line `gamesolve: …` under `--json`).
#[test]
fn with_json_an_error_is_one_json_object_on_stderr() {
    for (args, says) in [
        (
            &["--json", "fingers", "solve", "--fingers", "0"][..],
            "invalid rules",
        ),
        (
            &["fingers", "solve", "--fingers", "0", "--json"],
            "invalid rules",
        ),
        (&["--json", "fingers", "solve", "--bogus"], "--bogus"),
        (&["--json", "power-game", "7"], "<SIZE1>"),
        (&["--json", "fingers"], "needs a command"),
        (&["--json", "--memory", "lots", "fingers", "solve"], "lots"),
    ] {
        let err = fails(args);
        let v: serde_json::Value = serde_json::from_str(err.trim())
            .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {err}"));
        let message = v["error"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{args:?}: {err}");
        assert_eq!(v.as_object().map(serde_json::Map::len), Some(1), "{err}");
    }
    // Without --json the same line is text.
    assert!(fails(&["fingers", "solve", "--fingers", "0"]).starts_with("gamesolve: invalid rules"));
}

/// One of a thing is said in the singular ("its 1 moves", "on 1 threads",
/// "a window of max(S) = 1 values" were printed).
#[test]
fn one_of_a_thing_is_singular() {
    let out = gamesolve(&[
        "--threads",
        "1",
        "connect4",
        "solve",
        "--width",
        "1",
        "--height",
        "1",
    ]);
    let text = String::from_utf8(out.stdout).unwrap();
    // The 1×1 board: one move from the start, then the board is full.
    assert!(
        text.contains("checked against its 1 distinct child —") && text.contains(" on 1 thread "),
        "{text}"
    );
    let out = gamesolve(&["grundy", "subtraction", "--set", "1", "--period"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("max(S) = 1 value repeats"), "{text}");
}

/// A `-p` that is not a process number is named as such (timely's own
/// refusal of `-p -1` was "invalid digit found in string").
#[test]
fn a_cluster_process_number_that_is_no_number_is_named() {
    for p in ["-1", "x"] {
        let err = fails(&["fingers", "solve", "--cluster", "-n", "2", "-p", p]);
        assert!(
            err.contains("-p takes this process's number") && err.contains(&format!("\"{p}\"")),
            "{err}"
        );
    }
}

/// `check --samples 0` is refused, as `--help` says (it checked some
/// positions all the same and said so).
#[test]
fn a_check_of_no_samples_is_refused() {
    for game in [
        &["fingers"][..],
        &["connect4", "--width", "4", "--height", "4"],
        &["teeko"],
    ] {
        let mut args = vec![game[0], "check", "--samples", "0"];
        args.extend_from_slice(&game[1..]);
        let err = fails(&args);
        assert!(err.contains("at least 1 position"), "{err}");
    }
    let help = String::from_utf8(gamesolve(&["fingers", "check", "--help"]).stdout).unwrap();
    assert!(help.contains("at least 1"), "{help}");
}

/// Messages name rules, sides and squares in words, not in Rust's Debug
/// form: a fingers database for other rules showed `FingersRules {
/// fingers: 5, … }`, Teeko `Black`, Dobutsu `the Second player`, a
/// knight's square `[1]`.
#[test]
fn messages_show_no_debug_forms() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-debug-forms-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let db = dir.to_str().unwrap();
    assert!(gamesolve(&["fingers", "solve", "--db", db])
        .status
        .success());
    let err = fails(&["fingers", "value", "1,1", "1,1", "--db", db, "--rollover"]);
    assert!(
        err.contains("(5 fingers a hand, rollover, transfers") && !err.contains("FingersRules"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
    let err = fails(&["teeko", "value", "bbbb..................... b"]);
    assert!(err.contains("with black to place"), "{err}");
    let err = fails(&["knights", "--size", "8", "1"]);
    assert!(err.contains("X,Y, not 1") && !err.contains('['), "{err}");
}

/// An illegal move in a line of moves is named by the moves typed before
/// it, with the legal moves there: it was named by the game's board code
/// (`c3 at ............b............ r`, `b3b2 by the Second player at
/// gle/.C./.../ELG C w`).
#[test]
fn an_illegal_move_in_a_line_is_named_by_the_moves_before_it() {
    let err = fails(&["teeko", "value", "c3 c3"]);
    assert!(
        err.contains("move 2, \"c3\", after \"c3\"")
            && err.contains("legal moves there: a1 b1")
            && !err.contains("...."),
        "{err}"
    );
    let err = fails(&["teeko", "value", "c3d4"]);
    assert!(err.contains("move 1, \"c3d4\", from the start"), "{err}");
    let err = fails(&["dobutsu", "value", "b3b2 b3b2"]);
    // c1b2 is one of the second player's moves there, as typed.
    assert!(
        err.contains("move 2, \"b3b2\", after \"b3b2\"")
            && err.contains(" c1b2")
            && !err.contains('/'),
        "{err}"
    );
}

/// A tiered game's whole solve past `--memory` is refused in human units
/// with advice the command can follow (it said "needs 11243878 bytes …
/// over the limit of 10485760: solve with --db DIR"). Connect Four's
/// `value` there is answered by search instead, as the table answers it.
#[test]
fn a_whole_solve_past_memory_is_refused_in_human_units_with_advice_that_applies() {
    let board = ["--width", "5", "--height", "4"];
    let table = json(&["connect4", "value", "44", "--width", "5", "--height", "4"]);
    let searched = json(&[
        "--memory", "5M", "connect4", "value", "44", "--width", "5", "--height", "4",
    ]);
    assert_eq!(searched["engine"], "search");
    for key in ["outcome", "remoteness", "best", "moves"] {
        assert_eq!(searched[key], table[key], "{key}");
    }
    // `--no-moves`: the value alone, by one search.
    let alone = json(&[
        "--memory",
        "5M",
        "connect4",
        "value",
        "44",
        "--width",
        "5",
        "--height",
        "4",
        "--no-moves",
    ]);
    assert_eq!(alone["engine"], "search");
    for key in ["outcome", "remoteness"] {
        assert_eq!(alone[key], table[key], "{key}");
    }
    assert!(alone.get("moves").is_none() && alone.get("best").is_none());
    let mut args = vec!["--memory", "5M", "connect4", "solve"];
    args.extend_from_slice(&board);
    let err = fails(&args);
    assert!(
        err.contains("needs 5.4 MiB of tables in memory, over the limit of 5.0 MiB")
            && err.contains("solve with --db DIR"),
        "{args:?}: {err}"
    );
    // A game the search cannot answer (Teeko, whose positions repeat) is
    // still told to solve to disk.
    for cmd in [&["teeko", "value", ""][..], &["play", "teeko"]] {
        let mut args = vec!["--memory", "10M", "--max-work", "1e10"];
        args.extend_from_slice(cmd);
        let err = fails(&args);
        assert!(
            err.contains("of tables in memory, over the limit of 10.0 MiB")
                && err.contains("solve it to disk once with `teeko solve --db DIR`"),
            "{args:?}: {err}"
        );
    }
}

/// Threads past the first 8 count against `--memory` (1,024 threads took
/// 198 MB under `--memory 20M`): a count whose own memory passes the limit
/// is refused before anything runs, and what they take is left out of
/// what the solve may use.
#[test]
fn threads_past_a_few_count_against_the_memory_limit() {
    let err = fails(&[
        "--threads",
        "100",
        "--memory",
        "10M",
        "connect4",
        "solve",
        "--width",
        "4",
        "--height",
        "4",
    ]);
    assert!(
        err.contains("100 threads take about 23.0 MiB") && err.contains("--memory 10.0 MiB"),
        "{err}"
    );
    // 24 threads take 4 MiB of 15: the certified 5×4 solve (5.4 MiB of
    // tables, one byte an index) fits the 11 left, and not the 5 left by
    // 48 threads.
    let board = ["connect4", "solve", "--width", "5", "--height", "4"];
    let v = json(&[&["--threads", "24", "--memory", "15M"][..], &board].concat());
    assert_eq!(v["start"]["outcome"], "tie");
    let err = fails(&[&["--threads", "48", "--memory", "15M"][..], &board].concat());
    assert!(
        err.contains("needs 5.4 MiB") && err.contains("over the limit of 5.0 MiB"),
        "{err}"
    );
}

/// `play teeko --help` and `play dobutsu --help` name the `--max-work`
/// that solving first takes, the figure the refusal at the default budget
/// advises (the help said "a minute or two" and the default budget
/// refused it).
#[test]
fn play_help_names_the_work_budget_its_solve_is_refused_without() {
    for game in ["teeko", "dobutsu"] {
        let err = fails(&["play", game]);
        let (_, advised) = err.split_once("e.g. ").expect("a budget advised");
        let advised = advised.trim().trim_end_matches(')');
        let help = gamesolve(&["play", game, "--help"]);
        let help = String::from_utf8(help.stdout).unwrap();
        assert!(help.contains(&format!("`{advised}`")), "{err}\n{help}");
    }
}

/// A memory refusal's example of `--memory` is an amount that would do:
/// the need rounded up in the largest unit (it was always "e.g. --memory
/// 16G", less than the 4.5 TiB the knights' table of a 10^6 board needs,
/// and less than most machines have).
#[test]
fn a_memory_refusal_advises_an_amount_that_would_do() {
    let err = fails(&["knights", "--size", "1000000"]);
    assert!(
        err.contains("needs 4.5 TiB") && err.contains("e.g. --memory 5T"),
        "{err}"
    );
    let err = fails(&["--memory", "1", "fingers", "solve"]);
    assert!(
        err.contains("needs 64.4 KiB") && err.contains("e.g. --memory 65K"),
        "{err}"
    );
    // The amount advised is enough: the same command runs with it.
    assert!(gamesolve(&["--memory", "65K", "fingers", "solve"])
        .status
        .success());
}

/// A negative number is named as one, with what the command takes: clap
/// reads "-1" as a flag and said only "unexpected argument '-1' found"
/// (its tip, "use '-- -1'", cut from the one line, would not have helped).
#[test]
fn a_negative_number_is_named_as_one() {
    for args in [
        &["stones", "take", "-1", "0", "7", "3"][..],
        &["nim", "3", "-4"],
        &["--max-work", "-1", "nim", "3"],
        &["knights", "--size", "8", "-3,4"],
        &["fingers", "value", "-1,1", "1,1"],
        &["--json", "power-game", "-3", "4"],
    ] {
        let err = fails(args);
        let bad = args
            .iter()
            .find(|a| a.starts_with('-') && a[1..].starts_with(|c: char| c.is_ascii_digit()))
            .unwrap();
        assert!(
            err.contains(&format!("'{bad}'"))
                && err.contains("negative")
                && err.contains("0 or more"),
            "{args:?}: {err}"
        );
    }
    // A flag that does not exist is still said so.
    assert!(fails(&["nim", "3", "-x"]).contains("unexpected argument '-x'"));
}

/// With `--json`, stderr holds one error object or nothing: a drawing cut
/// short said so on stderr as a plain line beside the JSON (the note is
/// in the drawing's title).
#[test]
fn json_keeps_notes_off_stderr() {
    let out = gamesolve(&["--json", "fingers", "dot", "--depth", "1"]);
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("CUT:"), "{stdout}");
    // Without --json the note is on stderr.
    let out = gamesolve(&["fingers", "dot", "--depth", "1"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("are pictured"));
}

/// A mistyped command or flag is answered with clap's suggestion on the
/// one line (issue 45: `gamesolve conect4 solve` said only "unrecognized
/// subcommand 'conect4'"); with `--json` the suggestion is in the error
/// object.
#[test]
fn a_mistyped_command_or_flag_gets_a_suggestion() {
    for (args, similar) in [
        (&["conect4", "solve"][..], "did you mean `connect4`?"),
        (&["connect4", "slove"], "did you mean `solve`?"),
        (
            &["fingers", "solve", "--fingrs", "3"],
            "did you mean `--fingers`?",
        ),
    ] {
        let err = fails(args);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(similar), "{args:?}: {err}");
    }
    let out = gamesolve(&["--json", "conect4", "solve"]);
    assert!(!out.status.success() && out.stdout.is_empty());
    let err: serde_json::Value = serde_json::from_slice(&out.stderr).expect("one JSON object");
    assert!(
        err["error"]
            .as_str()
            .unwrap()
            .contains("did you mean `connect4`?"),
        "{err}"
    );
}

/// `fingers table` prints its legend under the table (issue 45: it was only
/// in `--help`), and the legend covers every cell: a sign (+, - or none)
/// and a move as `aTb` or `Cab`, which the thread's own table reads
/// (04 against 01 is "+4T1").
#[test]
fn fingers_table_prints_its_legend() {
    let out = gamesolve(&["fingers", "table"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    for words in [
        "Rows: your hands; columns: the opponent's",
        "+ you win, - you lose, no sign a draw",
        "aTb touches your hand of a onto the opponent's hand of b",
        "Cab claps",
    ] {
        assert!(text.contains(words), "{words:?} missing:\n{text}");
    }
    let cells = json(&["fingers", "table"])["cells"].clone();
    let cells: Vec<&str> = cells
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|row| row.as_array().unwrap().iter().map(|c| c.as_str().unwrap()))
        .collect();
    assert_eq!(cells.len(), 14 * 14);
    for c in cells {
        let mv = c.trim_start_matches(['+', '-']);
        let b = mv.as_bytes();
        let touch = b.len() == 3 && b[1] == b'T' && b[0].is_ascii_digit() && b[2].is_ascii_digit();
        let clap = b.len() == 3 && b[0] == b'C' && b[1].is_ascii_digit() && b[2].is_ascii_digit();
        assert!(touch || clap, "{c:?} is not in the legend");
    }
}

/// The last line of a solve's text output: `Done in 2.41 s: solve 0.074 s,
/// certificate 1.37 s, walk 0.96 s.` as (the whole, [(part, seconds)]).
fn done_line(text: &str) -> (f64, Vec<(String, f64)>) {
    let last = text.trim_end().lines().last().unwrap_or("");
    let rest = last
        .strip_prefix("Done in ")
        .and_then(|r| r.strip_suffix('.'))
        .unwrap_or_else(|| panic!("the last line is not the run's time: {last:?}"));
    let seconds = |s: &str| -> f64 {
        let n = s
            .trim()
            .strip_suffix(" s")
            .unwrap_or_else(|| panic!("{s:?}"));
        n.replace(',', "")
            .parse()
            .unwrap_or_else(|_| panic!("{s:?}"))
    };
    let (total, parts) = rest.split_once(": ").unwrap_or((rest, ""));
    let parts = parts
        .split(", ")
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (name, s) = p.split_once(' ').unwrap();
            (name.to_string(), seconds(s))
        })
        .collect();
    (seconds(total), parts)
}

/// The last line of a solve's text output is the whole run's time, from
/// the start of main, with its parts (issue 45: `fingers solve --fingers
/// 128 --threads 2` ended "Solved in 0.554 s" after a 9.75 s run, and
/// `--fingers 40 --rollover` said 0.002 s for 0.27 s): no more than the
/// wall time this test sees from outside, within 10 % of it (and a tenth
/// of a second for starting and ending the process), and no less than its
/// parts. `--json` keeps its separate fields and prints no such line.
#[test]
fn a_solves_last_line_is_the_whole_runs_time_and_its_parts() {
    for (args, parts) in [
        (
            &["fingers", "solve", "--fingers", "40", "--rollover"][..],
            &["solve", "certificate", "walk"][..],
        ),
        (
            &[
                "fingers",
                "solve",
                "--fingers",
                "40",
                "--rollover",
                "--no-certify",
            ],
            &["solve", "walk"],
        ),
        (
            &["connect4", "solve", "--width", "4", "--height", "4"],
            &["solve", "certificate"],
        ),
    ] {
        let t = std::time::Instant::now();
        let out = gamesolve(args);
        let wall = t.elapsed().as_secs_f64();
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(!text.contains("Solved in"), "{text}");
        let (total, named) = done_line(&text);
        assert!(
            // The line rounds to hundredths: half of one more.
            total <= wall + 0.006,
            "{args:?}: {total} s said, {wall} s seen"
        );
        assert!(
            total >= 0.8 * wall - 0.15,
            "{args:?}: {total} s said, {wall} s seen"
        );
        // Each part rounded to three figures or so.
        let sum: f64 = named.iter().map(|(_, s)| s).sum();
        assert!(
            sum <= total * 1.01 + 0.002,
            "{args:?}: {named:?} past {total}"
        );
        for p in parts {
            assert!(
                named.iter().any(|(n, _)| n == p),
                "{args:?}: {p} in {named:?}"
            );
        }
    }
    let out = gamesolve(&["--json", "fingers", "solve"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("Done in"), "{text}");
    let j: serde_json::Value = serde_json::from_str(&text).unwrap();
    for part in ["solve", "certify", "reachable"] {
        assert!(j["seconds"][part].is_f64(), "{j}");
    }
}

/// `n` with a comma between groups of three, written here apart from the
/// program's own helper.
fn commas(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().rev().enumerate() {
        if i > 0 && i % 3 == 0 {
            out.insert(0, ',');
        }
        out.insert(0, c);
    }
    out
}

/// Whether `text` holds a run of five digits or more.
fn has_long_number(text: &str) -> Option<&str> {
    text.split(|c: char| !c.is_ascii_digit())
        .find(|run| run.len() > 4)
}

/// Numbers of more than four digits print with separators in text output
/// (issue 45: the README wrote 3,945,711 and the program 3945711), the
/// same numbers plain in JSON. Tromp's count for 4×4 Connect Four is
/// 161,029 positions; Magic Fingers' reachable count is the JSON's.
#[test]
fn counts_print_with_separators_in_text_and_plain_in_json() {
    for args in [
        &["connect4", "solve", "--width", "4", "--height", "4"][..],
        &["fingers", "solve", "--fingers", "40", "--rollover"],
    ] {
        let out = gamesolve(args);
        assert!(out.status.success(), "{args:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert_eq!(has_long_number(&text), None, "{text}");
        let j = json(args);
        let reachable = j["reachable"].as_u64().unwrap();
        assert!(reachable >= 10_000, "{j}");
        assert!(
            text.contains(&format!(
                "Reachable from the start: {} positions",
                commas(reachable)
            )),
            "{text}"
        );
        // The JSON's counts stay numbers.
        assert!(
            j["win"].is_u64() && j["certificate"]["children"].is_u64(),
            "{j}"
        );
    }
    let text = String::from_utf8(
        gamesolve(&["connect4", "solve", "--width", "4", "--height", "4"]).stdout,
    )
    .unwrap();
    assert!(text.contains("161,029 positions"), "{text}");
    // Stones with a take of up to k has period k + 2 (the seed's table).
    let text = String::from_utf8(gamesolve(&["stones", "period", "1000000"]).stdout).unwrap();
    assert!(
        text.contains("max take 1,000,000:") && text.contains("with period 1,000,002"),
        "{text}"
    );
    assert_eq!(json(&["stones", "period", "1000000"])["period"], 1_000_002);
    // A database's analysis: every count of the 4×4 database grouped.
    let dir = std::env::temp_dir().join(format!("gamesolve-cli-commas-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let board = ["--width", "4", "--height", "4", "--db", d];
    let solved = gamesolve(&[&["connect4", "solve", "--no-certify"][..], &board].concat());
    assert!(solved.status.success());
    let text =
        String::from_utf8(gamesolve(&[&["connect4", "analyze"][..], &board].concat()).stdout)
            .unwrap();
    assert!(
        text.contains("Reachable from the start: 161,029 positions"),
        "{text}"
    );
    // Counts, not the directory's name nor the example positions (moves
    // written as columns, 1122334…).
    let counts: String = text
        .replace(d, "DIR")
        .lines()
        .filter(|l| !l.contains("e.g."))
        .collect();
    assert_eq!(has_long_number(&counts), None, "{text}");
    let _ = std::fs::remove_dir_all(&dir);
    // A refusal's count too.
    let err = fails(&["teeko", "solve"]);
    assert!(err.contains("172,401,726 indices"), "{err}");
    // Fingers' JSON names the certificate's distinct children
    // "children", as the text does (it said "moves"), apart from the
    // positions.
    let j = json(&["fingers", "solve"]);
    assert_eq!(j["reachable"], 191);
    assert_eq!(j["certificate"]["children"], 546);
    assert!(j.get("moves").is_none(), "{j}");
}

/// Grundy values of the knights game by a plain mex over the four steps
/// towards the corner, computed here (the program's table is not used).
fn knights_grundy(n: i64) -> Vec<Vec<u32>> {
    let mut g = vec![vec![0u32; n as usize + 1]; n as usize + 1];
    for s in 2..=2 * n {
        for x in 1..=n {
            let y = s - x;
            if !(1..=n).contains(&y) {
                continue;
            }
            let mut seen = Vec::new();
            for (dx, dy) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)] {
                let (a, b) = (x + dx, y + dy);
                if (1..=n).contains(&a) && (1..=n).contains(&b) {
                    seen.push(g[a as usize][b as usize]);
                }
            }
            g[x as usize][y as usize] = (0..).find(|v| !seen.contains(v)).unwrap();
        }
    }
    g
}

/// `knights` with knights placed says how to win, as `nim` does (issue
/// 45: it said who wins, not how): the move is one knight's step towards
/// the corner, and it leaves a position whose XOR of Grundy values —
/// computed here by a plain mex — is 0; a lost position says so with no
/// move.
#[test]
fn knights_names_the_winning_move() {
    let g = knights_grundy(15);
    // (2,3) has a move to (1,1), which has none: its value is not 0.
    for knights in [
        &["3,4", "7,7", "15,15"][..],
        &["2,3"],
        &["15,15", "2,3", "15,15"],
    ] {
        let mut args = vec!["knights", "--size", "15"];
        args.extend_from_slice(knights);
        let text = String::from_utf8(gamesolve(&args).stdout).unwrap();
        let squares: Vec<(i64, i64)> = knights
            .iter()
            .map(|k| {
                let (x, y) = k.split_once(',').unwrap();
                (x.parse().unwrap(), y.parse().unwrap())
            })
            .collect();
        let xor = |sq: &[(i64, i64)]| {
            sq.iter()
                .fold(0, |a, &(x, y)| a ^ g[x as usize][y as usize])
        };
        assert_ne!(xor(&squares), 0, "{knights:?} is a first-player win");
        let (_, mv) = text.split_once("move the knight on ").expect(&text);
        let (from, rest) = mv.split_once(" to ").unwrap();
        let to = rest.split_whitespace().next().unwrap();
        let pair = |s: &str| -> (i64, i64) {
            let (x, y) = s.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        };
        let (from, to) = (pair(from), pair(to));
        let i = squares.iter().position(|&s| s == from).expect(&text);
        assert!(
            [(-2, 1), (-2, -1), (1, -2), (-1, -2)].contains(&(to.0 - from.0, to.1 - from.1)),
            "{text}"
        );
        let mut after = squares.clone();
        after[i] = to;
        assert_eq!(xor(&after), 0, "{text}");
        let j = json(&args);
        assert_eq!(j["move"]["to"], serde_json::json!([to.0, to.1]), "{j}");
    }
    // Two knights on one square: each move is answered by the other's.
    let text =
        String::from_utf8(gamesolve(&["knights", "--size", "15", "5,5", "5,5"]).stdout).unwrap();
    assert!(text.contains("the second player wins"), "{text}");
    assert!(json(&["knights", "--size", "15", "5,5", "5,5"])["move"].is_null());
}

/// One set of work budgets and timings (issue 45: the README, `play teeko
/// --help`, `play dobutsu --help` and the Dobutsu test named four budgets
/// and three timings for two games): each refusal advises the `--max-work`
/// the README and the help name, beside the same measured figure.
#[test]
fn the_readme_help_refusals_and_tests_name_the_same_budgets_and_timings() {
    let readme = include_str!("../README.md");
    let famous = include_str!("famous.rs");
    for (cmd, budget, figure) in [
        (
            &["teeko", "solve"][..],
            "--max-work 2e10",
            "some 20 s and 0.5 GB",
        ),
        (&["play", "teeko"], "--max-work 5e9", "some 10 s"),
        (
            &["dobutsu", "solve"],
            "--max-work 5e11",
            "some 30 minutes and 6 GB",
        ),
        (
            &["play", "dobutsu"],
            "--max-work 2e11",
            "some 8 minutes and 5 GB",
        ),
    ] {
        let err = fails(cmd);
        assert!(err.contains(&format!("(e.g. {budget})")), "{cmd:?}: {err}");
        assert!(
            readme.contains(budget) && readme.contains(figure),
            "{budget} {figure}"
        );
        if cmd[0] == "play" {
            let help = String::from_utf8(gamesolve(&["play", cmd[1], "--help"]).stdout).unwrap();
            let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(help.contains(&format!("`{budget}`")), "{help}");
            assert!(help.contains(figure), "{figure}: {help}");
        }
    }
    assert!(famous.contains("some 20 s and 0.5 GB on 2 cores"));
    assert!(famous.contains("some 30 minutes and 6.5 GB on 2 cores"));
    assert!(readme.contains("6.5 GB holding every tier in memory"));
}

/// A fresh directory for a database, under the system's temporary one.
fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gamesolve-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The indices a `solve` says it solved (`Solved 21 tiers of 5,621,939
/// indices …`): (tiers, indices).
fn solved_tiers_and_indices(text: &str) -> (u64, u64) {
    let line = text
        .lines()
        .find(|l| l.starts_with("Solved "))
        .unwrap_or_else(|| panic!("no Solved line: {text}"));
    (
        common::number_before(line, " tiers").unwrap(),
        common::number_before(line, " indices").unwrap(),
    )
}

/// Issue 45: a tiered solve at a terminal shows the tiers done of those
/// the solve then says it solved, and inside a tier the phase with its
/// work done of its whole — `seeding tier k: X of Y indices`, X growing
/// and at most Y, Y at most the indices solved — moving between two
/// redraws of one tier (a count that moved only as tiers ended could
/// not), and a time left. Connect Four 5×5's tiers every move leaves:
/// done when seeded.
#[test]
fn a_tiered_solve_at_a_terminal_shows_work_done_inside_a_tier() {
    // 5×5, not 5×4: a solve of a few seconds, so that even a fast
    // machine redraws inside a tier.
    let board = ["--width", "5", "--height", "5"];
    let mut args = vec!["connect4", "solve", "--no-certify"];
    args.extend(board);
    let lines = common::on_a_terminal(&args);
    let (tiers, indices) = solved_tiers_and_indices(&lines.join("\n"));
    let head = "; seeding tier ";
    // (tier, seeded, of)
    let mut seen: Vec<(u64, u64, u64)> = Vec::new();
    for l in lines.iter().filter(|l| l.contains(head)) {
        let tail = &l[l.find(head).unwrap() + head.len()..];
        let tier: u64 = tail[..tail.find(':').unwrap()].parse().unwrap();
        let of = common::number_before(tail, " indices").unwrap();
        let done = common::number_before(tail, " of ").unwrap();
        assert!(tier >= 2 && tier <= tiers, "{l}");
        assert!(done <= of && of <= indices, "{l}");
        assert!(
            l.contains(&format!("solving: {}/{tiers} tiers done", tier - 1)),
            "{l}"
        );
        if let Some(&(t, last, _)) = seen.last() {
            assert!(t < tier || t == tier && done >= last, "went back: {l}");
        }
        seen.push((tier, done, of));
    }
    assert!(seen.len() > 2, "{lines:#?}");
    let inside = seen.windows(2).any(|w| w[0].0 == w[1].0 && w[0].1 < w[1].1);
    assert!(inside, "no progress inside a tier of {tiers}: {seen:?}");
    assert!(lines
        .iter()
        .any(|l| l.contains("; about ") && l.contains(" left")));
}

/// Issue 45: `connect4 analyze --db DIR` at a terminal says the tiers and
/// indices read of all (all: the indices and tiers the solve said), then
/// the tiers its walk has read, of at most all — not only a phase.
#[test]
fn connect4_analyze_at_a_terminal_shows_done_and_left() {
    let dir = fresh_dir("analyze-progress");
    let d = dir.to_str().unwrap();
    let board = ["--width", "5", "--height", "4"];
    let mut solve = vec!["connect4", "solve", "--no-certify", "--db", d];
    solve.extend(board);
    let out = gamesolve(&solve);
    assert!(out.status.success(), "{out:?}");
    let (tiers, indices) = solved_tiers_and_indices(&String::from_utf8_lossy(&out.stdout));
    let mut analyze = vec!["connect4", "analyze", "--db", d];
    analyze.extend(board);
    let lines = common::on_a_terminal(&analyze);
    let of = format!(" of {} indices)", game_core::grouped(indices));
    let reading: Vec<(u64, u64)> = lines
        .iter()
        .filter(|l| l.contains(&of))
        .map(|l| {
            let head = format!("/{tiers} read");
            (
                common::number_before(l, &head).unwrap(),
                common::number_before(l, &of).unwrap(),
            )
        })
        .collect();
    assert!(reading.len() > 1, "{lines:#?}");
    assert!(reading.windows(2).all(|w| w[0] <= w[1]), "{reading:?}");
    assert!(reading
        .iter()
        .any(|&(k, read)| k > 0 && read > 0 && read < indices));
    let walked = format!(" of at most {tiers} tiers walked");
    assert!(lines.iter().any(|l| l.contains(&walked)), "{lines:#?}");
    // And the report itself, after the progress.
    assert!(lines
        .iter()
        .any(|l| l.starts_with("From the start: tie in 20")));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A run of five or more digits with no separator in `text`, if any
/// (issue 45: every number over four digits is grouped).
fn ungrouped(text: &str) -> Option<String> {
    text.split(|c: char| !c.is_ascii_digit())
        .find(|d| d.len() > 4)
        .map(str::to_string)
}

/// The output of `args` that succeeds (stdout) or fails (stderr).
fn said(args: &[&str]) -> String {
    let out = gamesolve(args);
    String::from_utf8_lossy(if out.status.success() {
        &out.stdout
    } else {
        &out.stderr
    })
    .into_owned()
}

/// Issue 45's separators audit: numbers over four digits in text output
/// are grouped, in answers and in refusals. The answers are re-derived:
/// nim's winning take leaves a nim-sum of 0 (123,456 ^ 7 = 123,463, take
/// 123,456 - (123,456 ^ 123,463) = 123,449), and the subtraction game
/// {1, b} for even b has preperiod 0 and period b + 1 (Winning Ways).
#[test]
fn numbers_past_four_digits_are_grouped() {
    let (heap, other) = (123_456u64, 7u64);
    let sum = heap ^ other;
    let take = heap - (heap ^ sum);
    let nim = said(&["nim", &heap.to_string(), &other.to_string()]);
    assert!(
        nim.starts_with(&format!(
            "nim-sum {}: the first player wins; take {} from heap 0",
            game_core::grouped(sum),
            game_core::grouped(take)
        )),
        "{nim}"
    );
    let b = 20_000u64;
    let period = said(&[
        "grundy",
        "subtraction",
        "--set",
        &format!("1,{b}"),
        "--period",
    ]);
    assert!(
        period.starts_with(&format!(
            "preperiod 0, period {} ",
            game_core::grouped(b + 1)
        )),
        "{period}"
    );
    for args in [
        &["stones", "take", "0", "0", "100000", "50000"][..],
        &["stones", "take", "0", "0", "100001", "50000"],
        &[
            "--max-work",
            "1",
            "grundy",
            "subtraction",
            "--set",
            "1,2",
            "--upto",
            "1000000",
        ],
        &[
            "--max-work",
            "1",
            "grundy",
            "octal",
            "0.07",
            "--upto",
            "1000000",
        ],
        &["--max-work", "1", "power-game", "100000000", "1"],
        &[
            "--max-work",
            "1",
            "subtraction",
            "--set",
            "1,2",
            "--upto",
            "10000000",
        ],
        &["--max-work", "1", "fingers", "solve"],
    ] {
        let text = said(args);
        assert!(!text.trim().is_empty(), "{args:?}");
        assert_eq!(ungrouped(&text), None, "{args:?}: {text}");
    }
}
