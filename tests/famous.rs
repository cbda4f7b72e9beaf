//! The famous games' published results, through `gamesolve` as a user runs
//! it. The boards past a few seconds are `#[ignore]`d: run them with
//! `cargo test --release --test famous -- --ignored` (times and memory on
//! the project's 2-core machine are in BENCHMARKS.md).

use std::process::Command;

/// `gamesolve --json connect4 solve --width w --height h …`: the report.
fn connect4(w: u32, h: u32, extra: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_gamesolve"))
        .args(["--json", "connect4", "solve", "--width"])
        .arg(w.to_string())
        .arg("--height")
        .arg(h.to_string())
        .args(extra)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{w}x{h}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
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
    assert_eq!(
        r["win"].as_u64().unwrap()
            + r["lose"].as_u64().unwrap()
            + r["tie"].as_u64().unwrap()
            + r["draw"].as_u64().unwrap(),
        positions,
        "{r}"
    );
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
    let out = Command::new(env!("CARGO_BIN_EXE_gamesolve"))
        .args([
            "--memory", "8M", "connect4", "solve", "--width", "5", "--height", "4",
        ])
        .env("RUST_BACKTRACE", "0")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--db DIR"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let dir = std::env::temp_dir().join(format!("gamesolve-5x4-8m-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let r = tromp(
        5,
        4,
        3_945_711,
        "tie",
        20,
        &["--memory", "8M", "--no-certify", "--db", d],
    );
    assert_eq!(r["draw"], 0, "{r}");
    std::fs::remove_dir_all(&dir).unwrap();
}
