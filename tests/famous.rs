//! The famous games' published results, through `gamesolve` as a user runs
//! it. The boards past a few seconds are `#[ignore]`d: run them with
//! `cargo test --release --test famous -- --ignored` (times and memory on
//! the project's 2-core machine are in BENCHMARKS.md).

mod common;

use common::{fails as refusal, json as gamesolve};

/// `gamesolve --json connect4 solve --width w --height h …`: the report.
fn connect4(w: u32, h: u32, extra: &[&str]) -> serde_json::Value {
    let (w, h) = (w.to_string(), h.to_string());
    let mut args = vec!["connect4", "solve", "--width", &w, "--height", &h];
    args.extend_from_slice(extra);
    gamesolve(&args)
}

/// The counts of a solve report add up to the positions reached.
fn counts_add_up(r: &serde_json::Value) {
    let sum: u64 = ["win", "lose", "tie", "draw"]
        .iter()
        .map(|k| r[k].as_u64().expect("a count"))
        .sum();
    assert_eq!(Some(sum), r["reachable"].as_u64(), "{r}");
}

/// Tromp's table: positions reachable from the empty board over all plies
/// (a position with four in a row counted, not continued), and the start's
/// outcome with the ply the game ends on under perfect play.
fn tromp(
    w: u32,
    h: u32,
    positions: u64,
    outcome: &str,
    remoteness: u64,
    extra: &[&str],
) -> serde_json::Value {
    let r = connect4(w, h, extra);
    assert_eq!(r["reachable"], positions, "{w}x{h}: {r}");
    assert_eq!(r["start"]["outcome"], outcome, "{w}x{h}: {r}");
    assert_eq!(r["start"]["remoteness"], remoteness, "{w}x{h}: {r}");
    counts_add_up(&r);
    r
}

#[test]
fn connect4_5x4_is_a_tie_in_20_over_3945711_positions_certified() {
    let r = tromp(5, 4, 3_945_711, "tie", 20, &[]);
    assert_eq!(r["verified"], true, "{r}");
}

#[test]
#[ignore = "a few seconds in release, longer in the test profile"]
fn connect4_5x5_is_a_tie_in_25() {
    tromp(5, 5, 69_763_700, "tie", 25, &[]);
}

/// Issue 49's bar: Connect Four 5×5's database under one bit a position
/// reachable from the start (Tromp's 69,763,700), and a fresh process
/// answers from it.
#[test]
#[ignore = "a few seconds in release, longer in the test profile"]
fn connect4_5x5s_database_holds_under_a_bit_a_reachable_position() {
    let dir = common::scratch("famous-c4-5x5-db");
    let db = dir.join("db");
    let db_arg = db.to_str().expect("a UTF-8 path");
    tromp(
        5,
        5,
        69_763_700,
        "tie",
        25,
        &["--no-certify", "--db", db_arg],
    );
    let bytes: u64 = std::fs::read_dir(&db)
        .expect("the database")
        .map(|e| e.expect("an entry").metadata().expect("its size").len())
        .sum();
    assert!(bytes * 8 < 69_763_700, "{bytes} bytes");
    let board = [
        "--width",
        "5",
        "--height",
        "5",
        "--db",
        db_arg,
        "--no-moves",
    ];
    let v = gamesolve(&[&["connect4", "value", ""][..], &board].concat());
    assert_eq!(
        (&v["outcome"], &v["remoteness"]),
        (&"tie".into(), &25.into()),
        "{v}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
#[ignore = "a few seconds in release, longer in the test profile"]
fn connect4_6x4_is_a_second_player_win_in_24() {
    // The first player, to move at the start, loses.
    tromp(6, 4, 94_910_577, "lose", 24, &[]);
}

#[test]
#[ignore = "minutes and ~10 GB: 4.6·10⁹ indices"]
fn connect4_7x4_is_a_tie_in_28() {
    tromp(7, 4, 2_265_792_710, "tie", 28, &["--no-certify"]);
}

#[test]
#[ignore = "tens of minutes and ~12 GB with --memory 12G: 9.9·10⁹ indices"]
fn connect4_6x5_is_a_tie_in_30() {
    let dir = std::env::temp_dir().join(format!("gamesolve-6x5-{}", std::process::id()));
    let d = dir.to_str().unwrap();
    tromp(
        6,
        5,
        2_818_972_642,
        "tie",
        30,
        &["--no-certify", "--memory", "12G", "--db", d],
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Under a memory limit too small for the whole table, a solve without a
/// database is refused before it starts (one line naming `--db`); with a
/// database the tiers go to disk as they are solved, and the answer is
/// still Tromp's.
#[test]
fn connect4_under_a_small_memory_limit_needs_and_uses_a_database() {
    let err = refusal(&[
        "--memory", "5M", "connect4", "solve", "--width", "5", "--height", "4",
    ]);
    assert!(err.contains("--db DIR"), "{err}");
    let dir = std::env::temp_dir().join(format!("gamesolve-5x4-8m-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let r = tromp(
        5,
        4,
        3_945_711,
        "tie",
        20,
        &["--memory", "5M", "--no-certify", "--db", d],
    );
    assert_eq!(r["draw"], 0, "{r}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Without a certificate to check, a solve without a database keeps only
/// the tables it still needs (reachable-first, maps reused): 5×4 fits in
/// 5 MiB, where every table at once would take 5.4 MiB (one byte an
/// index), and the answer is still Tromp's; a limit too small for a tier
/// and its child tier is refused before solving, in one line naming the
/// tier.
#[test]
fn connect4_without_a_certificate_solves_in_the_memory_of_two_tiers() {
    let r = tromp(
        5,
        4,
        3_945_711,
        "tie",
        20,
        &["--memory", "5M", "--no-certify"],
    );
    assert_eq!(r["indices"], 5_621_939, "{r}");
    let err = refusal(&[
        "--memory",
        "2M",
        "connect4",
        "solve",
        "--width",
        "5",
        "--height",
        "4",
        "--no-certify",
    ]);
    assert!(
        err.contains("tier") && err.contains("raise it with --memory"),
        "{err}"
    );
}

/// Steele's Teeko is a draw with perfect play; the certificate checks the
/// whole table move by move.
#[test]
#[ignore = "some 20 s and 0.5 GB on 2 cores: 1.7·10⁸ indices"]
fn teeko_is_a_certified_draw() {
    let r = gamesolve(&["teeko", "solve", "--max-work", "1e15"]);
    assert_eq!(r["start"]["outcome"], "draw", "{r}");
    assert_eq!(r["verified"], true, "{r}");
    counts_add_up(&r);
}

/// Tanaka (2009): Dōbutsu shōgi is a win for the second player, in 78 plies.
#[test]
#[ignore = "some 30 minutes and 6.5 GB on 2 cores: 1.45·10⁹ indices"]
fn dobutsu_is_a_second_player_win_in_78_certified() {
    let r = gamesolve(&["dobutsu", "solve", "--max-work", "1e15"]);
    assert_eq!(r["start"]["outcome"], "lose", "{r}");
    assert_eq!(r["start"]["remoteness"], 78, "{r}");
    assert_eq!(r["verified"], true, "{r}");
    counts_add_up(&r);
}
