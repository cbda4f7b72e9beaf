//! The solved-game database as a user meets it: a solve killed at random
//! moments resumes and ends byte-identical to a clean run; a finished
//! database answers at once; answers from the database equal the solver's;
//! a damaged file is refused, never misread.

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::{bin, json, run, scratch};

/// Every file of a directory with its bytes, by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut all: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    all.sort();
    all
}

const BOARD: [&str; 4] = ["--width", "4", "--height", "5"];

fn solve_args(dir: &Path) -> Vec<String> {
    let mut a: Vec<String> = ["connect4", "solve", "--no-certify", "--db"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    a.push(dir.display().to_string());
    a.extend(BOARD.iter().map(|s| s.to_string()));
    a
}

#[test]
fn a_killed_solve_resumes_and_ends_byte_identical() {
    let clean = scratch("clean");
    let t = Instant::now();
    let out = bin().args(solve_args(&clean)).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let took = t.elapsed().max(Duration::from_millis(50));
    let want = files(&clean);
    assert!(
        want.iter().any(|(n, _)| n.starts_with("manifest")),
        "{want:?}"
    );
    assert!(want.len() > 10, "a tier file for each of the 21 tiers");

    let crashed = scratch("crashed");
    // Five kills at moments spread over a clean run's time (a fixed
    // pseudo-random sequence, so a failure can be rerun).
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..5 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let at = took.mul_f64((seed % 1000) as f64 / 1000.0);
        let mut child = bin()
            .args(solve_args(&crashed))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(at);
        let _ = child.kill(); // SIGKILL on Unix
        let _ = child.wait();
    }
    let out = bin().args(solve_args(&crashed)).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let got = files(&crashed);
    let names = |v: &[(String, Vec<u8>)]| v.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&got), names(&want));
    for ((name, a), (_, b)) in want.iter().zip(&got) {
        assert!(a == b, "{name} differs after the crashes");
    }

    // Run again on the finished database: it says so and solves nothing.
    let again = json(
        &solve_args(&crashed)
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert_eq!(again["already_solved"], true);
    assert_eq!(again["start"]["outcome"], "tie");
    assert_eq!(again["start"]["remoteness"], 20);
    let _ = std::fs::remove_dir_all(&clean);
    let _ = std::fs::remove_dir_all(&crashed);
}

#[test]
fn database_answers_equal_the_solver_and_analyze_equals_solve() {
    let dir = scratch("answers");
    let d = dir.display().to_string();
    let solved = json(&[
        "connect4", "solve", "--db", &d, "--width", "4", "--height", "4",
    ]);
    assert_eq!(solved["reachable"], 161_029); // Tromp
    for line in ["", "1", "44", "4433", "1234123", "1122334"] {
        let from_db = json(&[
            "connect4", "value", line, "--db", &d, "--width", "4", "--height", "4",
        ]);
        let solving = json(&["connect4", "value", line, "--width", "4", "--height", "4"]);
        assert_eq!(from_db, solving, "position {line:?}");
    }
    // 1122334: the first player has four in a row; the game is over.
    let over = json(&[
        "connect4", "value", "1122334", "--db", &d, "--width", "4", "--height", "4",
    ]);
    assert_eq!(over["best"], serde_json::Value::Null);
    assert_eq!(over["outcome"], "lose");
    let a = json(&[
        "connect4", "analyze", "--db", &d, "--width", "4", "--height", "4",
    ]);
    assert_eq!(a["reachable"]["all"], solved["reachable"]);
    for k in ["win", "lose", "tie", "draw"] {
        assert_eq!(a["reachable"]["counts"][k], solved[k], "{k}");
    }
    // Fingers: one tier; analyze's reachable counts equal solve's.
    let f = scratch("fingers");
    let fd = f.display().to_string();
    let s = json(&["fingers", "solve", "--db", &fd]);
    let a = json(&["fingers", "analyze", "--db", &fd]);
    assert_eq!(a["reachable"]["all"], s["reachable"]);
    for k in ["win", "lose", "draw"] {
        assert_eq!(a["reachable"]["counts"][k], s[k], "{k}");
    }
    assert_eq!(
        json(&["fingers", "value", "1,1", "1,1", "--db", &fd]),
        json(&["fingers", "value", "1,1", "1,1"])
    );
    // analyze checks its work against --max-work before it reads (it
    // read any database whatever the budget): 4×4's 201,755 indices (4e6
    // steps) are past 10^6 steps, F = 5's 225 are not.
    let out = run(&[
        "--max-work",
        "1e6",
        "connect4",
        "analyze",
        "--db",
        &d,
        "--width",
        "4",
        "--height",
        "4",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("analysing the database") && err.contains("--max-work"),
        "{err}"
    );
    assert!(
        run(&["--max-work", "1e6", "fingers", "analyze", "--db", &fd])
            .status
            .success()
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&f);
}

#[test]
fn damaged_or_foreign_databases_are_refused_in_one_line() {
    let dir = scratch("damaged");
    let d = dir.display().to_string();
    json(&[
        "connect4",
        "solve",
        "--db",
        &d,
        "--no-certify",
        "--width",
        "4",
        "--height",
        "4",
    ]);
    // Another board's rules: named (the manifest keeps only their hash).
    let out = run(&[
        "connect4", "value", "1", "--db", &d, "--width", "5", "--height", "4",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("other rules than these (5x4"), "{err}");
    // Flip one byte in the middle of the start tier's file: the query that
    // reads it fails, and nothing is printed on stdout.
    let tier0 = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("tier-0.")
        })
        .expect("tier 0's file");
    let mut bytes = std::fs::read(&tier0).unwrap();
    let k = bytes.len() - 3;
    bytes[k] ^= 0x40;
    std::fs::write(&tier0, bytes).unwrap();
    let out = run(&[
        "connect4", "value", "", "--db", &d, "--width", "4", "--height", "4",
    ]);
    assert!(!out.status.success(), "a damaged block must not answer");
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_from_a_database_moves_as_the_solver_does() {
    let dir = scratch("play");
    let d = dir.display().to_string();
    json(&["fingers", "solve", "--db", &d]);
    let play = |extra: &[&str]| {
        let mut args = vec!["--json", "play", "fingers", "--first"];
        args.extend_from_slice(extra);
        common::script(&args, "1T1\n1T1\nq\n")
    };
    let from_db = play(&["--db", &d]);
    assert!(from_db.lines().count() >= 3, "{from_db}");
    for line in from_db.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("one JSON object a line");
    }
    assert_eq!(from_db, play(&[]), "the same game as when solving first");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_tiered_game_keeps_its_promises() {
    for game in [
        &["teeko", "check", "--samples", "400"][..],
        &["dobutsu", "check", "--samples", "400"],
        &[
            "connect4",
            "check",
            "--samples",
            "2000",
            "--width",
            "5",
            "--height",
            "4",
        ],
        &["fingers", "check", "--fingers", "9", "--rollover"],
    ] {
        let j = json(game);
        assert_eq!(j["ok"], true, "{game:?}");
        assert!(j["positions"].as_u64().unwrap() > 100, "{game:?}");
    }
}

#[test]
fn a_finished_database_with_a_damaged_file_is_not_called_solved() {
    // The manifest said finished, so `solve` used to answer "already
    // solved" from it alone, though `value` then found the damage.
    for (name, args) in [
        (
            "damaged-c4",
            &["connect4", "--width", "4", "--height", "4"][..],
        ),
        ("damaged-fingers", &["fingers"][..]),
    ] {
        let dir = scratch(name);
        let d = dir.display().to_string();
        let solve = |extra: &[&str]| {
            let mut a = vec![args[0], "solve", "--no-certify", "--db", &d];
            a.extend_from_slice(&args[1..]);
            a.extend_from_slice(extra);
            run(&a)
        };
        assert!(solve(&[]).status.success());
        let again = solve(&["--json"]);
        assert!(String::from_utf8_lossy(&again.stdout).contains("already_solved"));
        // Flip a bit in the middle of the last tier file's blocks.
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with("tier-"))
            })
            .collect();
        files.sort();
        let victim = files.last().unwrap();
        let mut bytes = std::fs::read(victim).unwrap();
        let at = bytes.len() * 3 / 4;
        bytes[at] ^= 0x10;
        std::fs::write(victim, bytes).unwrap();
        let out = solve(&[]);
        assert!(
            !out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("checksum"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Rewrites tier `tier` of the database in `dir` (through the library, so
/// every checksum holds) keeping only its first `keep` records: a database
/// of the right game and rules whose tier is shorter than the game's.
fn shorten_tier(dir: &Path, tier: u64, keep: usize) {
    let db = game_db::Database::open_any(dir).unwrap();
    let mut records = Vec::new();
    db.for_each_block(tier, |_, r| records.extend_from_slice(r))
        .unwrap();
    assert!(records.len() > keep);
    records.truncate(keep);
    db.write_tier(tier, records).unwrap();
}

#[test]
fn a_tier_of_another_length_than_the_games_is_refused() {
    // `analyze` read a short tier's missing indices as "no position" and
    // printed wrong counts (positions missing, the reachable ones counted
    // as draws); `solve` called such a database solved.
    let f = scratch("short-fingers");
    let fd = f.display().to_string();
    json(&["fingers", "solve", "--no-certify", "--db", &fd]);
    shorten_tier(&f, 0, 120);
    let c = scratch("short-c4");
    let cd = c.display().to_string();
    let board = ["--width", "4", "--height", "4"];
    let mut solve = vec!["connect4", "solve", "--no-certify", "--db", &cd];
    solve.extend_from_slice(&board);
    json(&solve);
    shorten_tier(&c, 9, 10);
    let mut analyze_c4 = vec!["connect4", "analyze", "--db", &cd];
    analyze_c4.extend_from_slice(&board);
    // `value` read a short tier's records as they came (a later fix: it
    // checks each tier it reads, as the others check them all).
    let mut value_c4 = vec!["connect4", "value", "123412341", "--db", &cd];
    value_c4.extend_from_slice(&board);
    for args in [
        vec!["fingers", "analyze", "--db", &fd],
        vec!["fingers", "solve", "--no-certify", "--db", &fd],
        vec!["fingers", "value", "1,1", "1,1", "--db", &fd],
        analyze_c4,
        value_c4,
        solve,
    ] {
        let out = run(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} answered from a short tier");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("records"), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&f);
    let _ = std::fs::remove_dir_all(&c);
}

/// A Fingers database (default rules) whose checksums hold but whose
/// table has no value for the position at index `hole` (forged, or
/// written by other code), in a fresh scratch directory.
fn forged_fingers(name: &str, hole: impl Fn(&games::Fingers) -> u64) -> String {
    forged_fingers_with(name, |g, i, v| (i != hole(g)).then_some(v).flatten())
}

/// A Fingers database (default rules) whose checksums hold, holding for
/// each index `edit(game, index, its solved value)`.
fn forged_fingers_with(
    name: &str,
    edit: impl Fn(&games::Fingers, u64, Option<game_core::Value>) -> Option<game_core::Value>,
) -> String {
    use game_core::Indexed;
    let dir = scratch(name);
    let game = games::Fingers::new(games::FingersRules::default()).unwrap();
    let rules = format!("{:?}, index v1", game.rules());
    let db = game_db::Database::create(&dir, "fingers", &rules).unwrap();
    let solved = solver_retro::solve_unmoves(&game).unwrap();
    let mut table = solver_retro::Table::new(game.size(), false).unwrap();
    for i in 0..game.size() {
        table.set(i, edit(&game, i, solved.value_at(i))).unwrap();
    }
    gamesolve::store::save_table(&db, 0, &table).unwrap();
    dir.display().to_string()
}

/// Records that are whole (their checksums hold) but wrong: `value`
/// answered from them (a remoteness of 0 beside legal moves, a legal
/// move left out) and `analyze` counted a position without a record as
/// a draw, all with exit 0. `value` now checks its answer against the
/// children's records by the certificate's rule for one position, and
/// `analyze` refuses a position of a tier without a record.
#[test]
fn records_that_contradict_each_other_are_refused() {
    use game_core::{Indexed, Value};
    let one_line = |args: &[&str], words: &str| {
        let out = run(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} answered: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(words), "{args:?}: {err}");
        assert!(err.contains("the database is damaged"), "{args:?}: {err}");
    };
    // A child of the start (one touch away) without a record.
    let child = games::FingersPosition {
        me: [1, 2],
        opp: [1, 1],
    };
    let hole = forged_fingers("contradict-hole", |g| g.index(&child));
    one_line(
        &["fingers", "value", "1,1", "1,1", "--db", &hole],
        "a child has no value",
    );
    one_line(&["fingers", "analyze", "--db", &hole], "has no record");
    // Every won or lost record at remoteness 0 (its outcome kept): the
    // start, lost in 26, would read "lost in 0" beside its moves.
    let flat = forged_fingers_with("contradict-flat", |_, _, v| {
        v.map(|v| match v.remoteness() {
            Some(_) => Value::new(v.outcome(), 0),
            None => v,
        })
    });
    one_line(
        &["fingers", "value", "1,1", "1,1", "--db", &flat],
        "not every child is won",
    );
    // `play` checks each position before it plays from it.
    let played = |args: &[&str]| {
        let out = bin()
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?} played");
        let err = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("the database is damaged"), "{args:?}: {err}");
    };
    played(&["play", "fingers", "--second", "--db", &flat]);
    // The whole table as solved: answered, as before.
    let whole = forged_fingers_with("contradict-none", |_, _, v| v);
    let v = json(&["fingers", "value", "1,1", "1,1", "--db", &whole]);
    assert_eq!(v["outcome"], "lose");
    assert_eq!(v["remoteness"], 26);
    // Connect Four 4×4: one position of tier 1 without a record, read as
    // a child by `value` from the start and by `analyze`.
    let c = scratch("contradict-c4");
    let cd = c.display().to_string();
    let board = ["--width", "4", "--height", "4"];
    json(
        &[
            &["connect4", "solve", "--no-certify", "--db", &cd][..],
            &board,
        ]
        .concat(),
    );
    let db = game_db::Database::open_any(&c).unwrap();
    let mut records = Vec::new();
    db.for_each_block(1, |_, r| records.extend_from_slice(r))
        .unwrap();
    // The last position of the tier that has a record (its others are
    // mirror images, stored once).
    let last = records.iter().rposition(Option::is_some).unwrap();
    records[last] = None;
    db.write_tier(1, records).unwrap();
    drop(db);
    one_line(
        &[&["connect4", "value", "--db", &cd][..], &board].concat(),
        "a child has no value",
    );
    one_line(
        &[&["connect4", "analyze", "--db", &cd][..], &board].concat(),
        "has no record",
    );
    played(&[&["play", "connect4", "--first", "--db", &cd][..], &board].concat());
    for dir in [hole, flat, whole, cd] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A database whose table has no value for the start, or for another
/// position reachable from it, is refused in one line naming it by
/// `play` and by `fingers solve --positions` on the cluster path (both
/// panicked).
#[test]
fn a_database_without_a_value_for_a_position_is_refused() {
    use game_core::Indexed;
    let start = forged_fingers("forged-start", |g| g.index(&games::FingersPosition::START));
    let out = bin()
        .args(["play", "fingers", "--first", "--db", &start])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let one_line = |out: Output, words: &str| {
        assert!(!out.status.success());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(words), "{err}");
    };
    one_line(out, "no value for the start");
    one_line(
        run(&["fingers", "solve", "--db", &start]),
        "start is not stored",
    );
    // A position one touch from the start: the listing of a finished
    // database's table (on the cluster path, which reports it) names it.
    let other = forged_fingers("forged-other", |g| {
        g.index(&games::FingersPosition {
            me: [1, 2],
            opp: [1, 1],
        })
    });
    let listing = [
        "fingers",
        "solve",
        "--no-certify",
        "--positions",
        "--db",
        &other,
        "--cluster",
        "-w",
        "1",
    ];
    // The shared solve checks the finished database's start against its
    // children first (the child 1,2 | 1,1 has no value).
    one_line(run(&listing), "a child has no value");
    one_line(
        run(&[&["--json"][..], &listing].concat()),
        "a child has no value",
    );
    for dir in [start, other] {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A solve refused before it starts (memory, work) or failing before a
/// tier is finished leaves no database behind that it created; a database
/// that was there before, or has finished tiers, stays as it was.
#[test]
fn a_refused_solve_leaves_no_database_it_created() {
    let root = scratch("refused");
    let new = root.join("new");
    let new_s = new.display().to_string();
    let c4 = |limit: &[&str]| {
        let mut a: Vec<&str> = limit.to_vec();
        a.extend(["connect4", "solve", "--db", &new_s]);
        a.extend(BOARD);
        run(&a)
    };
    for limit in [&["--memory", "1"][..], &["--max-work", "1"]] {
        let out = c4(limit);
        assert!(!out.status.success(), "{limit:?}");
        assert!(!new.exists(), "{limit:?} left {:?}", files(&new));
    }
    // Parents the database's creation made go too.
    let deep = root.join("a").join("b");
    let deep_s = deep.display().to_string();
    let out = run(&["--memory", "1", "fingers", "solve", "--db", &deep_s]);
    assert!(!out.status.success());
    assert!(
        !root.join("a").exists(),
        "the parent a/ the solve made stays"
    );
    // A directory that was there stays, empty as it was.
    std::fs::create_dir_all(&new).unwrap();
    let out = run(&["--memory", "1", "fingers", "solve", "--db", &new_s]);
    assert!(!out.status.success());
    assert!(new.is_dir() && files(&new).is_empty(), "{:?}", files(&new));
    // A database made before (here, a manifest with no tier finished) is
    // kept by a refused solve.
    let game = games::Fingers::new(games::FingersRules::default()).unwrap();
    let rules = format!("{:?}, index v1", game.rules());
    game_db::Database::create(&new, "fingers", &rules).unwrap();
    let before = files(&new);
    assert_eq!(before.len(), 1, "{before:?}");
    let out = run(&["--memory", "1", "fingers", "solve", "--db", &new_s]);
    assert!(!out.status.success());
    assert_eq!(files(&new), before);
    let _ = std::fs::remove_dir_all(root);
}

/// A `--db` path that is a file, or runs through one, is refused in one
/// line that says so and names the path once: it said "database f: f:
/// File exists (os error 17)" (and "Not a directory (os error 20)" inside
/// a file, or of the manifest's path for the readers).
#[test]
fn a_db_path_that_is_a_file_is_refused_as_not_a_directory() {
    let dir = scratch("regfile");
    let file = dir.join("regfile");
    std::fs::write(&file, b"notes").unwrap();
    let f = file.display().to_string();
    let inside = file.join("x").display().to_string();
    for (db, said) in [
        (&f, format!("database {f}: a file, not a directory")),
        (
            &inside,
            format!("database {inside}: {f}: a file, not a directory"),
        ),
    ] {
        for cmd in ["solve", "analyze"] {
            let out = run(&["fingers", cmd, "--fingers", "4", "--db", db]);
            assert!(!out.status.success(), "{cmd} {db}");
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(err.contains(&said), "{cmd} {db}: {err}");
        }
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"notes", "untouched");
    let _ = std::fs::remove_dir_all(dir);
}

/// A solve into a directory that holds no database but files (here a
/// database's tier file whose manifest is lost, and a note) is refused in
/// one line naming the directory and what is there, and touches nothing:
/// it wrote a new manifest and replaced `tier-0.gsdb`, exit 0.
#[test]
fn a_solve_into_a_directory_holding_other_files_is_refused() {
    let dir = scratch("foreign");
    let d = dir.display().to_string();
    std::fs::write(dir.join("tier-0.gsdb"), b"someone's tier").unwrap();
    std::fs::write(dir.join("notes.txt"), b"mine").unwrap();
    let before = files(&dir);
    let out = run(&["fingers", "solve", "--fingers", "4", "--db", &d]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains(&format!("database {d}: holds no database (no manifest)"))
            && err.contains(r#"2 entries ("notes.txt", "tier-0.gsdb")"#),
        "{err}"
    );
    assert_eq!(files(&dir), before);
    let _ = std::fs::remove_dir_all(dir);
}

/// A second solve into a directory another solve is writing is refused at
/// once, in one line, and touches nothing: two at once each found the
/// other's half-written tier files ("tier-19.gsdb: truncated", "No such
/// file or directory") and both failed, leaving an unfinished database.
/// Here the test holds the directory's lock, as a running solve does.
#[cfg(unix)]
#[test]
fn a_solve_into_a_directory_another_solve_holds_is_refused() {
    let dir = scratch("locked");
    let dir_s = dir.display().to_string();
    let mut args = vec!["connect4", "solve", "--db", &dir_s];
    args.extend(BOARD);
    let held = std::fs::File::open(&dir).unwrap();
    held.lock().unwrap();
    let out = run(&args);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("being written by another solve"), "{err}");
    assert!(files(&dir).is_empty(), "{:?}", files(&dir));
    // Released (the solve's process ended): the solve runs.
    drop(held);
    let v = json(&args);
    assert_eq!(v["reachable"], 1_706_255, "Tromp's count for 4×5");
    let _ = std::fs::remove_dir_all(dir);
}

/// The engine of `play` reads every move's value before it moves: one the
/// database cannot give (a damaged block) stops the game with the
/// damage named. Before, such moves were skipped and the best of the
/// others played as if it were best (from a 5×4 database with one
/// damaged block: a move that loses in 2 where the best wins in 11), or
/// "a position of the game is not solved" said when every move was.
#[test]
fn play_from_a_damaged_database_stops_naming_the_damage() {
    let dir = scratch("play-damaged");
    let d = dir.display().to_string();
    let board = ["--width", "4", "--height", "4"];
    let mut solve = vec!["connect4", "solve", "--no-certify", "--db", &d];
    solve.extend_from_slice(&board);
    assert!(run(&solve).status.success());
    // The children of the start: the engine, moving first, reads them
    // all. Their one block lies before the file's last 20 bytes (its
    // block index), after the header that opening checks.
    let victim = dir.join("tier-1.gsdb");
    let mut bytes = std::fs::read(&victim).unwrap();
    let at = bytes.len() - 20;
    bytes[at] ^= 0x10;
    std::fs::write(&victim, bytes).unwrap();
    let mut play = vec!["play", "connect4", "--second", "--db", &d];
    play.extend_from_slice(&board);
    let out = bin()
        .args(&play)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("tier-1.gsdb: block 0 checksum mismatch"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `analyze` reads each tier for its walk of the reachable positions
/// within the room the walk leaves beside its bitmaps: at a `--memory` of
/// the largest tier's table alone (read into one-byte cells, Connect
/// Four's remoteness fitting them), which holds it but not beside its bitmap (a bit a
/// record), it is refused in one line before the table is taken (it read
/// within the whole `--memory` and held the table and the bitmaps past
/// it), in what the walk needs in all against `--memory`, not against
/// the room; with room for two tiers' bitmaps and a little more, it runs.
#[test]
fn analyze_reads_tiers_for_the_walk_within_the_room_it_leaves() {
    let dir = scratch("analyze-room");
    let d = dir.display().to_string();
    let board = ["--width", "4", "--height", "4"];
    let mut solve = vec!["connect4", "solve", "--no-certify", "--db", &d];
    solve.extend_from_slice(&board);
    assert!(run(&solve).status.success());
    let db = game_db::Database::open_any(&dir).unwrap();
    let records = db
        .finished_tiers()
        .into_iter()
        .map(|t| db.records(t).unwrap())
        .max()
        .unwrap();
    drop(db);
    let analyze = |memory: u64| {
        let memory = memory.to_string();
        let mut args = vec!["--memory", &memory, "connect4", "analyze", "--db", &d];
        args.extend_from_slice(&board);
        run(&args)
    };
    let out = analyze(records);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("read into memory") && err.contains("--memory"),
        "{err}"
    );
    // In the figures the user gave: the walk's need in all against
    // `--memory` (it was the table against the room the walk leaves, which
    // the user never typed).
    let limit = game_core::budget::human_bytes(records);
    assert!(
        err.contains("the walk of the reachable positions")
            && err.contains(&format!("more than the {limit} available")),
        "{err}"
    );
    let bitmaps = 2 * records.div_ceil(64) * 8;
    let out = analyze(records + bitmaps + 1024);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `analyze` reads whole tiers into memory and `play fingers --db` its
/// whole table: both are refused past `--memory`, before the table is
/// taken (they read any size whatever the limit). And `analyze` says what
/// is wrong with the database before asking for a larger work budget
/// (for a missing database it asked for `--max-work`).
#[test]
fn analyze_and_play_read_tables_within_the_memory_limit() {
    let dir = scratch("analyze-memory");
    let d = dir.display().to_string();
    let board = ["--width", "4", "--height", "4"];
    let mut solve = vec!["connect4", "solve", "--no-certify", "--db", &d];
    solve.extend_from_slice(&board);
    assert!(run(&solve).status.success());
    let mut analyze = vec!["connect4", "analyze", "--db", &d];
    analyze.extend_from_slice(&board);
    assert!(run(&analyze).status.success());
    let mut small = vec!["--memory", "1k"];
    small.extend_from_slice(&analyze);
    let out = run(&small);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("read into memory") && err.contains("--memory"),
        "{err}"
    );
    let missing = dir.join("missing").display().to_string();
    let out = run(&[
        "--max-work",
        "1",
        "connect4",
        "analyze",
        "--db",
        &missing,
        "--width",
        "4",
        "--height",
        "4",
    ]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("no database here") && !err.contains("--max-work"),
        "{err}"
    );

    let fingers = dir.join("fingers").display().to_string();
    assert!(run(&["fingers", "solve", "--no-certify", "--db", &fingers])
        .status
        .success());
    let play = |memory: &str| {
        bin()
            .args([
                "--memory", memory, "--json", "play", "fingers", "--first", "--db", &fingers,
            ])
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs")
    };
    assert!(play("1G").status.success());
    let out = play("16");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!out.status.success(), "{err}");
    assert!(err.contains("read into memory"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database whose solve was killed (or is still running) holds only the
/// tiers finished so far; `value` and `play` that reach a missing tier say
/// so as `analyze` does: the database is not finished, run solve with
/// `--db` (they said only "DIR/tier-0.gsdb: tier 0 is not finished").
#[test]
fn value_and_play_from_an_unfinished_database_say_to_finish_the_solve() {
    let dir = scratch("unfinished");
    let (whole, part) = (dir.join("whole"), dir.join("part"));
    let w = whole.display().to_string();
    let p = part.display().to_string();
    let board = ["--width", "4", "--height", "4"];
    let mut solve = vec!["connect4", "solve", "--no-certify", "--db", &w];
    solve.extend_from_slice(&board);
    assert!(run(&solve).status.success());
    // The last tier alone, as a solve killed after its first tier leaves it.
    let key = "4x4, mirror-canonical, tiers by pieces, v1";
    let from = game_db::Database::open(&whole, "connect4", key).unwrap();
    let to = game_db::Database::create(&part, "connect4", key).unwrap();
    let last = *from.finished_tiers().iter().max().unwrap();
    let table = gamesolve::store::load_table(&from, last).unwrap();
    gamesolve::store::save_table(&to, last, &table).unwrap();
    drop((from, to));
    let mut value = vec!["connect4", "value", "12", "--db", &p];
    value.extend_from_slice(&board);
    let mut play = vec!["play", "connect4", "--first", "--db", &p];
    play.extend_from_slice(&board);
    for args in [value, play] {
        let out = bin()
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(!out.status.success(), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            err.contains(&format!("the database in {p} is not finished"))
                && err.contains("run solve with --db"),
            "{args:?}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A resumed solve's work is counted without the tiers the database holds
/// finished: with every tier of 4×4 Connect Four but the empty board's
/// finished, a budget of 1.5e6 steps (under the fresh solve's 2.4e6: its
/// 201,755 indices at 8 steps, half again for the walk) finishes the
/// solve (the solve left is one index, the walk 0.8e6), where it was
/// refused as though every tier were still to solve.
#[test]
fn a_resumed_solve_counts_only_the_work_left() {
    let dir = scratch("resume-work");
    let (whole, part, fresh) = (dir.join("whole"), dir.join("part"), dir.join("fresh"));
    let board = ["--width", "4", "--height", "4"];
    let solve = |db: &Path, extra: &[&str]| {
        let d = db.display().to_string();
        let mut args = vec!["connect4", "solve", "--no-certify", "--db", &d];
        args.extend_from_slice(&board);
        args.extend_from_slice(extra);
        run(&args)
    };
    let done = solve(&whole, &[]);
    assert!(done.status.success());
    // Every tier but the smallest, as a solve killed after the others.
    let key = "4x4, mirror-canonical, tiers by pieces, v1";
    let partial = |dst: &Path| {
        let from = game_db::Database::open(&whole, "connect4", key).unwrap();
        let to = game_db::Database::create(dst, "connect4", key).unwrap();
        let tiers = from.finished_tiers();
        let first = *tiers.iter().min().unwrap();
        for &t in tiers.iter().filter(|&&t| t != first) {
            let table = gamesolve::store::load_table(&from, t).unwrap();
            gamesolve::store::save_table(&to, t, &table).unwrap();
        }
    };
    partial(&part);
    let budget = ["--max-work", "1.5e6"];
    let refused = solve(&fresh, &budget);
    let err = String::from_utf8(refused.stderr).unwrap();
    assert!(!refused.status.success(), "{err}");
    assert!(err.contains("(201,755 indices)"), "{err}");
    let resumed = solve(&part, &budget);
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{err}");
    // It says that it resumed, and what it found done: the 16 tiers
    // copied, every index but the empty board's (issue 45).
    let said = String::from_utf8_lossy(&resumed.stdout);
    assert!(
        said.contains("Resumed: 16 of 17 tiers (201,754 indices) were found done in the database"),
        "{said}"
    );
    // The whole solve's verdict and reachable counts (Tromp's 4×4: a
    // tie; the last line is times).
    let verdict = |o: &Output| {
        let text = String::from_utf8_lossy(&o.stdout).into_owned();
        text.lines().take(2).collect::<Vec<_>>().join("\n")
    };
    assert!(
        verdict(&done).contains("ties in 16 plies"),
        "{}",
        verdict(&done)
    );
    assert_eq!(verdict(&resumed), verdict(&done));
    // Resumed with its certificate, which it cannot give (the tiers found
    // done are not in memory): it says so and what gives one.
    let certified = dir.join("certified");
    partial(&certified);
    let d = certified.display().to_string();
    let mut args = vec!["connect4", "solve", "--db", &d];
    args.extend_from_slice(&board);
    let out = run(&args);
    assert!(out.status.success());
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("Certificate: skipped (the tiers are not all in memory")
            && said.contains("The same solve without --db certifies every tier in memory.")
            && said.contains("Resumed: 16 of 17 tiers"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A damaged database (a file cut short, a block whose checksum fails, a
/// tier's file gone) is refused by every command that reads it with what
/// to do: delete it and solve again (it named the damage alone, as
/// "DIR/tier-0.gsdb: block 0 checksum mismatch", and `analyze` as "the
/// tier store failed: …").
#[test]
fn a_damaged_database_is_refused_with_what_to_do() {
    let dir = scratch("damage-advice");
    let d = dir.display().to_string();
    assert!(run(&["fingers", "solve", "--no-certify", "--db", &d])
        .status
        .success());
    let tier = dir.join("tier-0.gsdb");
    let good = std::fs::read(&tier).unwrap();
    let mut flipped = good.clone();
    // A byte of the one block: after the header, before the block index.
    let at = good.len() - 40;
    flipped[at] ^= 0x10;
    let damages: [(&str, Option<Vec<u8>>); 3] = [
        ("cut short", Some(good[..good.len() / 2].to_vec())),
        ("a block flipped", Some(flipped)),
        ("gone", None),
    ];
    for (what, bytes) in damages {
        match bytes {
            Some(b) => std::fs::write(&tier, b).unwrap(),
            None => std::fs::remove_file(&tier).unwrap(),
        }
        for args in [
            &["fingers", "value", "1,1", "1,1", "--db", &d][..],
            &["fingers", "analyze", "--db", &d],
            &["fingers", "solve", "--db", &d],
            &["play", "fingers", "--first", "--db", &d],
        ] {
            let out = bin()
                .args(args)
                .stdin(Stdio::null())
                .output()
                .expect("the binary runs");
            let err = String::from_utf8(out.stderr).unwrap();
            assert!(!out.status.success(), "{what}: {args:?}: {err}");
            assert_eq!(err.trim().lines().count(), 1, "{err}");
            assert!(
                err.contains(&format!(
                    "the database is damaged: delete {d} and run solve with --db {d} again"
                )),
                "{what}: {args:?}: {err}"
            );
        }
        std::fs::write(&tier, &good).unwrap();
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database knows the rules it was solved with (issue 44): `value`,
/// `analyze` and `play` with `--db` on a 5×3 database need no
/// `--width`/`--height` and answer as the 5×3 solver in memory does;
/// options that contradict it are refused in one line naming its board and
/// the command that reads it; a database written before keys were recorded
/// still answers when its options are given.
#[test]
fn a_database_answers_for_its_own_rules_without_options() {
    let dir = scratch("own-rules");
    let d = dir.display().to_string();
    let board = ["--width", "5", "--height", "3"];
    let mut solve = vec!["connect4", "solve", "--no-certify", "--db", &d];
    solve.extend_from_slice(&board);
    let solved = json(&solve);
    // Column 5 exists only on the database's board (not on 4×4, the
    // options' default).
    for line in ["", "3", "5", "35", "3355"] {
        let mut solving = vec!["connect4", "value", line];
        solving.extend_from_slice(&board);
        let expected = json(&solving);
        assert_eq!(
            json(&["connect4", "value", line, "--db", &d]),
            expected,
            "{line:?}"
        );
        // Options that agree with the database are taken.
        assert_eq!(
            json(&["connect4", "value", line, "--db", &d, "--width", "5"]),
            expected,
            "{line:?}"
        );
    }
    let a = json(&["connect4", "analyze", "--db", &d]);
    assert_eq!(a["reachable"]["all"], solved["reachable"]);
    // Playing from the database moves as playing after a 5×3 solve does.
    let play = |extra: &[&str]| {
        let mut args = vec!["--json", "play", "connect4", "--first"];
        args.extend_from_slice(extra);
        common::script(&args, "3\n3\n5\nq\n")
    };
    let from_db = play(&["--db", &d]);
    assert!(from_db.lines().count() >= 3, "{from_db}");
    assert_eq!(from_db, play(&board));
    // A board of another width: one line naming the database's board and
    // the command that reads it, nothing on stdout.
    for (args, command) in [
        (
            vec!["connect4", "value", "35", "--db", &d, "--width", "4"],
            format!("`gamesolve connect4 value 35 --db {d}`"),
        ),
        (
            vec!["connect4", "analyze", "--db", &d, "--height", "4"],
            format!("`gamesolve connect4 analyze --db {d}`"),
        ),
        (
            vec!["play", "connect4", "--first", "--db", &d, "--width", "4"],
            format!("`gamesolve play connect4 --db {d}`"),
        ),
    ] {
        let out = run(&args);
        assert!(!out.status.success(), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains("it holds Connect Four 5×3"), "{err}");
        assert!(err.contains(&command), "{command}: {err}");
    }
    let mut with_json = vec!["--json", "connect4", "value", "", "--db", &d];
    with_json.extend_from_slice(&["--width", "4"]);
    let out = run(&with_json);
    let err: serde_json::Value = serde_json::from_slice(&out.stderr).expect("one JSON object");
    assert!(err["error"].as_str().unwrap().contains("5×3"), "{err}");
    // The manifest of a database written before keys were recorded (its
    // rules-key line taken out, the checksum mended): the options are
    // needed again, and taken.
    let manifest = dir.join("manifest.gsdb");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let body: String = text
        .lines()
        .filter(|l| !l.starts_with("rules-key ") && !l.starts_with("crc32 "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(
        text.contains("\nrules-key 5x3, mirror-canonical, tiers by pieces, v1\n"),
        "{text}"
    );
    let old = format!("{body}crc32 {:08x}\n", crc32(body.as_bytes()));
    std::fs::write(&manifest, old).unwrap();
    let out = run(&["connect4", "value", "3", "--db", &d]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("other rules than these (4x4"), "{err}");
    let mut given = vec!["connect4", "value", "5", "--db", &d];
    given.extend_from_slice(&board);
    let mut solving = vec!["connect4", "value", "5"];
    solving.extend_from_slice(&board);
    assert_eq!(json(&given), json(&solving));
    let _ = std::fs::remove_dir_all(&dir);
}

/// CRC-32 (IEEE 802.3, the manifest's checksum), bit by bit.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Issue 46's matrix: a plain or a cluster solve (`--cluster -w 1`, a
/// cluster of one process) into a directory that a plain or a cluster
/// solve is writing, as the issue started them (`gamesolve --json
/// connect4 solve --width 5 --height 4 --db x & …; gamesolve … --db x
/// --cluster -w 1`, the second started once the first has made its
/// manifest). The second is refused in one line; the first completes
/// with the verdict (a tie, and a tie in Connect Four fills the board:
/// 20 plies) and leaves its own files only: tier files from a plain
/// solve, shard files (and the cluster's lock file) from a cluster, never
/// both. Without the lock on cluster solves the second failed with
/// "x/manifest.gsdb: No such file or directory", or the first did, or
/// both "succeeded" with stray shard files beside a plain manifest.
#[cfg(unix)]
#[test]
fn every_writer_locks_the_directory_plain_or_cluster_in_either_order() {
    let cluster = ["--cluster", "-w", "1"];
    for first_cluster in [false, true] {
        for second_cluster in [false, true] {
            let name = format!("matrix-{first_cluster}-{second_cluster}");
            let dir = scratch(&name);
            let _ = std::fs::remove_dir(&dir);
            let d = dir.display().to_string();
            let args = |on_cluster: bool| {
                let mut a = vec![
                    "--json", "connect4", "solve", "--width", "5", "--height", "4",
                ];
                a.extend(["--db", &d]);
                if on_cluster {
                    a.extend(cluster);
                }
                a
            };
            let first = bin()
                .args(args(first_cluster))
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("the binary runs");
            let t = Instant::now();
            while !dir.join(game_db::MANIFEST_FILE).exists() {
                assert!(t.elapsed() < Duration::from_secs(60), "{name}: no manifest");
                std::thread::sleep(Duration::from_millis(2));
            }
            let second = run(&args(second_cluster));
            let first = first.wait_with_output().expect("the first ends");
            let err = String::from_utf8_lossy(&second.stderr);
            assert_eq!(second.status.code(), Some(1), "{name}: {err}");
            assert!(second.stdout.is_empty(), "{name}");
            assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
            let said: serde_json::Value = serde_json::from_str(&err).expect("one object");
            let said = said["error"].as_str().expect("a message");
            assert!(
                said.contains(&format!("the database in {d} is being written by")),
                "{name}: {said}"
            );
            assert!(
                first.status.success(),
                "{name}: the first failed: {}",
                String::from_utf8_lossy(&first.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&first.stdout).expect("one object");
            assert_eq!(v["start"]["outcome"], "tie", "{name}: {v}");
            assert_eq!(v["start"]["remoteness"], 20, "{name}: {v}");
            let names: Vec<String> = files(&dir).into_iter().map(|(n, _)| n).collect();
            let shards = names.iter().filter(|n| n.contains(".shard-")).count();
            let plain = names
                .iter()
                .filter(|n| n.starts_with("tier-") && !n.contains(".shard-"))
                .count();
            // 5×4 Connect Four has tiers 0 to 20, one a ply.
            let (want_plain, want_shards) = if first_cluster { (0, 21) } else { (21, 0) };
            assert_eq!(
                (plain, shards),
                (want_plain, want_shards),
                "{name}: {names:?}"
            );
            let extra = usize::from(first_cluster); // cluster.lock
            assert_eq!(names.len(), 1 + 21 + extra, "{name}: {names:?}");
            // The database answers: the start, as the first solve said.
            let start = json(&[
                "connect4", "value", "", "--db", &d, "--width", "5", "--height", "4",
            ]);
            assert_eq!(start["outcome"], "tie", "{name}: {start}");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
}

/// Issue 46's forged database: Connect Four 4×4 solved, then the record
/// of tier 0 (the start) given a remoteness 2 plies longer and the tier
/// written again with every checksum valid. `solve --db` said
/// `{"already_solved": true, "start": {"outcome": "tie", "remoteness":
/// 18}}` (a tie fills the 4×4 board: 16 plies), `analyze` "tie in 18",
/// and `play connect4` "ties in 18 plies" before refusing. Each now
/// checks what it reports against the children's records by the
/// certificate's rule for one position first, and refuses in one line,
/// printing nothing on stdout; the database as solved is answered.
#[test]
fn records_forged_with_valid_checksums_are_refused_by_every_reader() {
    use game_core::Value;
    let dir = scratch("forged-tier-0");
    let d = dir.display().to_string();
    let board = ["--width", "4", "--height", "4"];
    let solve = [
        &["connect4", "solve", "--no-certify", "--db", &d][..],
        &board,
    ]
    .concat();
    let v = json(&solve);
    assert_eq!(v["start"]["remoteness"], 16, "{v}");
    // Solved and untouched: answered from the database.
    let again = json(&solve);
    assert_eq!(again["already_solved"], true, "{again}");
    assert_eq!(again["start"]["remoteness"], 16, "{again}");
    let analyze = [&["connect4", "analyze", "--db", &d][..], &board].concat();
    assert_eq!(json(&analyze)["start"]["remoteness"], 16);
    let db = game_db::Database::open_any(&dir).unwrap();
    let mut records = Vec::new();
    db.for_each_block(0, |_, r| records.extend_from_slice(r))
        .unwrap();
    assert_eq!(records.len(), 1, "tier 0 is the start alone");
    let start = records[0].expect("the start's record");
    let r = start.remoteness().expect("a tie has a remoteness");
    records[0] = Some(Value::new(start.outcome(), r + 2));
    db.write_tier(0, records).unwrap();
    drop(db);
    let refused = |args: &[&str]| {
        let out = bin()
            .args(args)
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?} answered: {err}");
        assert!(
            out.stdout.is_empty(),
            "{args:?} printed: {}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("the database is damaged"), "{args:?}: {err}");
        assert!(err.contains("the start position"), "{args:?}: {err}");
    };
    for args in [solve.clone(), analyze.clone()] {
        refused(&args);
        refused(&[&["--json"][..], &args].concat());
    }
    refused(&[&["connect4", "value", "--db", &d][..], &board].concat());
    refused(&[&["play", "connect4", "--first", "--db", &d][..], &board].concat());
    refused(&[&["play", "connect4", "--second", "--db", &d][..], &board].concat());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `fingers value … --db` prints every move's value: each is checked
/// against its own children's records too (issue 46: the position alone
/// was checked, and the move values printed from children never
/// checked). Every position two touches from the start, and no nearer,
/// is given a remoteness of 0 (its outcome kept): the start's record and
/// its children's are untouched and agree, but each child's win or loss
/// now has no child one ply closer. Untouched, the same line answers.
#[test]
fn fingers_value_checks_the_move_values_it_prints() {
    use game_core::{Game, Indexed, Value};
    let near = |g: &games::Fingers| {
        let start = games::FingersPosition::START;
        let mut moves = Vec::new();
        g.moves(&start, &mut moves);
        let kids: Vec<_> = moves.iter().map(|m| g.play(&start, m)).collect();
        let mut two = Vec::new();
        for k in &kids {
            let mut mv = Vec::new();
            g.moves(k, &mut mv);
            two.extend(mv.iter().map(|m| g.index(&g.play(k, m))));
        }
        let keep: Vec<u64> = kids
            .iter()
            .map(|k| g.index(k))
            .chain([g.index(&start)])
            .collect();
        two.retain(|i| !keep.contains(i));
        two
    };
    let forged = forged_fingers_with("forged-grandchildren", |g, i, v| {
        if near(g).contains(&i) {
            v.map(|v| match v.remoteness() {
                Some(_) => Value::new(v.outcome(), 0),
                None => v,
            })
        } else {
            v
        }
    });
    let out = run(&["fingers", "value", "1,1", "1,1", "--db", &forged]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "answered: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(out.stdout.is_empty());
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains("the database is damaged"), "{err}");
    let whole = forged_fingers_with("forged-grandchildren-none", |_, _, v| v);
    let v = json(&["fingers", "value", "1,1", "1,1", "--db", &whole]);
    assert_eq!(
        (v["outcome"].as_str(), v["remoteness"].as_u64()),
        (Some("lose"), Some(26))
    );
    for dir in [forged, whole] {
        let _ = std::fs::remove_dir_all(dir);
    }
}
