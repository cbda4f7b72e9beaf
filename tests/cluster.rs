//! The cluster executor from outside: 2 and 3 `gamesolve` processes on
//! localhost (free ports chosen here) write databases sharded one shard a
//! worker, whose records equal a single-process solve's, position by
//! position, and which answer `value` queries identically; a process that
//! dies fails the others with an error, and a rerun resumes and matches.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_gamesolve")
}

/// A fresh directory under the system's temporary directory.
fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!(
        "gamesolve-cluster-{}-{name}-{:?}",
        std::process::id(),
        Instant::now()
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("a temporary directory");
    d
}

/// A host file of `n` free localhost ports.
fn hosts(dir: &Path, n: usize) -> PathBuf {
    let listeners: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    let text: String = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}\n", l.local_addr().expect("bound").port()))
        .collect();
    let path = dir.join("hosts");
    std::fs::write(&path, text).expect("host file");
    path
}

fn spawn(args: &[&str], n: usize, p: usize, hosts: &Path, env: &[(&str, &str)]) -> Child {
    let mut c = Command::new(bin());
    c.args(args)
        .args([
            "--cluster",
            "-w",
            "1",
            "-n",
            &n.to_string(),
            "-p",
            &p.to_string(),
            "-h",
        ])
        .arg(hosts)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    c.spawn().expect("gamesolve starts")
}

/// Runs `n` processes; their outputs, process 0 first.
fn cluster(args: &[&str], n: usize, dir: &Path, env: &[(&str, &str)]) -> Vec<Output> {
    let h = hosts(dir, n);
    let children: Vec<Child> = (0..n).map(|p| spawn(args, n, p, &h, env)).collect();
    children
        .into_iter()
        .map(|c| c.wait_with_output().expect("gamesolve ends"))
        .collect()
}

fn single(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .output()
        .expect("gamesolve runs")
}

/// Every record of tier `t`, in index order.
fn records(db: &game_db::Database, t: u64) -> Vec<Option<game_core::Value>> {
    let mut v = Vec::new();
    db.for_each_block(t, |first, recs| {
        assert_eq!(first, v.len() as u64);
        v.extend_from_slice(recs);
    })
    .expect("readable");
    v
}

/// The single-process database `one` and the cluster's `sharded` (of
/// `shards` workers): the same game and rules, the same tiers finished,
/// every record equal; every tier of the cluster's stored as one shard a
/// worker (a count among `shards`), every one of the single process's
/// whole.
fn same_databases(one: &Path, sharded: &Path, shards: &[usize]) {
    let a = game_db::Database::open_any(one).expect("the single-process database");
    let b = game_db::Database::open_any(sharded).expect("the cluster's database");
    assert_eq!((a.game(), a.rules_hash()), (b.game(), b.rules_hash()));
    let tiers = a.finished_tiers();
    assert_eq!(tiers, b.finished_tiers(), "the same tiers finished");
    assert!(!tiers.is_empty());
    for &t in &tiers {
        assert_eq!(a.tier_info(t).expect("info").shards.len(), 1);
        let k = b.tier_info(t).expect("info").shards.len();
        assert!(shards.contains(&k), "tier {t}: {k} shards");
        assert!(records(&a, t) == records(&b, t), "tier {t} differs");
        b.verify(t).expect("every shard checks");
    }
}

/// `gamesolve connect4 value POS --db DIR` answers the same from both
/// databases, for every position of up to `plies` moves on a 5x4 board.
fn same_answers(one: &Path, sharded: &Path, plies: usize) {
    let mut positions = vec![String::new()];
    let mut frontier = vec![String::new()];
    for _ in 0..plies {
        let mut next = Vec::new();
        for p in &frontier {
            for c in 1..=5 {
                let q = format!("{p}{c}");
                if q.matches(char::from(b'0' + c)).count() <= 4 {
                    next.push(q);
                }
            }
        }
        positions.extend(next.iter().cloned());
        frontier = next;
    }
    let mut asked = 0;
    for (k, p) in positions.iter().enumerate() {
        // Every position of up to 2 plies, then every 7th.
        if p.len() > 2 && k % 7 != 0 {
            continue;
        }
        let ask = |db: &Path| {
            single(&[
                "connect4",
                "value",
                p,
                "--width",
                "5",
                "--height",
                "4",
                "--json",
                "--db",
                &db.to_string_lossy(),
            ])
        };
        let (x, y) = (ask(one), ask(sharded));
        assert!(x.status.success(), "{}", String::from_utf8_lossy(&x.stderr));
        assert_eq!(
            String::from_utf8_lossy(&x.stdout),
            String::from_utf8_lossy(&y.stdout),
            "value {p:?}"
        );
        asked += 1;
    }
    assert!(asked > 40, "{asked} positions asked");
}

fn json(out: &Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "gamesolve failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn check(game_args: &[&str], name: &str) {
    let dir = scratch(name);
    let one = dir.join("one");
    let mut args: Vec<&str> = game_args.to_vec();
    let one_s = one.to_string_lossy().into_owned();
    args.extend(["--json", "--db", &one_s]);
    let reference = json(&single(&args));
    for n in [2, 3] {
        let db = dir.join(format!("n{n}"));
        let db_s = db.to_string_lossy().into_owned();
        let mut args: Vec<&str> = game_args.to_vec();
        args.extend(["--json", "--db", &db_s]);
        let outs = cluster(&args, n, &dir, &[]);
        let mut report = json(&outs[0]);
        for (k, o) in outs.iter().enumerate().skip(1) {
            // Only process 0 reports; under --json the others print one
            // object saying they finished their shards (issue 46: stdout
            // was empty, where --json promises one object).
            let done = json(o);
            assert_eq!(done["cluster"]["process"], k, "{done}");
            assert_eq!(
                done.as_object().map(serde_json::Map::len),
                Some(1),
                "{done}"
            );
        }
        assert_eq!(report["cluster"]["processes"], n);
        report.as_object_mut().expect("object").remove("cluster");
        for r in [&mut report, &mut reference.clone()] {
            r.as_object_mut().expect("object").remove("seconds");
        }
        let mut expected = reference.clone();
        expected.as_object_mut().expect("object").remove("seconds");
        assert_eq!(report, expected, "{name} on {n} processes");
        same_databases(&one, &db, &[n]);
        if name == "connect4" {
            same_answers(&one, &db, 4);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fingers_16_rule_variants_on_2_and_3_processes() {
    for (name, extra) in [
        ("fingers", &[][..]),
        ("fingers-rollover", &["--rollover"][..]),
        ("fingers-no-transfers", &["--no-transfers"][..]),
        (
            "fingers-swap-no-revive",
            &["--allow-swap", "--no-revive"][..],
        ),
    ] {
        let mut args = vec!["fingers", "solve", "--fingers", "16"];
        args.extend(extra);
        check(&args, name);
    }
}

#[test]
fn connect_four_5x4_on_2_and_3_processes() {
    check(
        &["connect4", "solve", "--width", "5", "--height", "4"],
        "connect4",
    );
}

#[test]
fn a_dead_process_fails_the_other_and_a_rerun_resumes() {
    let dir = scratch("fault");
    let one = dir.join("one");
    let db = dir.join("two");
    let (one_s, db_s) = (
        one.to_string_lossy().into_owned(),
        db.to_string_lossy().into_owned(),
    );
    let game = [
        "connect4",
        "solve",
        "--width",
        "5",
        "--height",
        "4",
        "--no-certify",
    ];
    let mut args = game.to_vec();
    args.extend(["--db", &one_s]);
    assert!(single(&args).status.success());
    let mut args = game.to_vec();
    args.extend(["--db", &db_s]);
    // Process 1 crashes (abort, as if killed) at round 12: tiers 20..=12
    // pieces are finished by then, the rest not.
    let t = Instant::now();
    let outs = cluster(&args, 2, &dir, &[("SOLVER_CLUSTER_ABORT_AT", "1:12")]);
    assert!(t.elapsed() < Duration::from_secs(30), "no hang");
    assert!(!outs[1].status.success(), "the crashed process fails");
    assert!(!outs[0].status.success(), "process 0 fails too");
    let err = String::from_utf8_lossy(&outs[0].stderr);
    let line = err.lines().last().unwrap_or_default();
    assert!(
        line.starts_with("gamesolve: the cluster run failed") && line.contains("peer"),
        "one clear line: {err}"
    );
    let finished = game_db::Database::open_any(&db)
        .expect("database")
        .finished_tiers()
        .len();
    assert!(
        finished > 0 && finished < 21,
        "{finished} of 21 tiers finished"
    );
    // The rerun, on 3 processes, resumes at the first unfinished tier
    // (reading the finished tiers it needs from their 2 shards) and
    // matches.
    let outs = cluster(&args, 3, &dir, &[]);
    for o in &outs {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    same_databases(&one, &db, &[2, 3]);
    let b = game_db::Database::open_any(&db).expect("database");
    let sharded = |k| {
        b.finished_tiers()
            .iter()
            .filter(|&&t| b.tier_info(t).expect("info").shards.len() == k)
            .count()
    };
    assert_eq!(
        (sharded(2), sharded(3)),
        (finished, 21 - finished),
        "the finished tiers kept, the rest solved by 3"
    );
    same_answers(&one, &db, 3);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two processes started with other rules (the rollover variant has the
/// same positions): before, process 0 reported a wrong count of won
/// positions and both exited 0; now both refuse to start, in one line.
#[test]
fn processes_started_with_other_rules_refuse_to_start() {
    let dir = scratch("rules");
    let h = hosts(&dir, 2);
    let base = ["fingers", "solve", "--fingers", "9", "--no-certify"];
    let mut other = base.to_vec();
    other.push("--rollover");
    let t = Instant::now();
    let children = [spawn(&base, 2, 0, &h, &[]), spawn(&other, 2, 1, &h, &[])];
    let outs: Vec<Output> = children
        .into_iter()
        .map(|c| c.wait_with_output().expect("gamesolve ends"))
        .collect();
    assert!(t.elapsed() < Duration::from_secs(30), "no wait");
    for (p, o) in outs.iter().enumerate() {
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "process {p} succeeded: {err}");
        assert_eq!(err.lines().count(), 1, "process {p}: {err}");
        assert!(
            err.starts_with("gamesolve: the cluster could not start")
                && err.contains("another game or other rules"),
            "process {p}: {err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `scripts/cluster-local.sh N …` with N = 0 started no process and
/// exited 0 in silence, as if a solve had run; N that is no number of
/// processes gamesolve takes is refused with its usage and exit 2. (Past
/// 1,024, by hand: each process refused `-n` on its own.)
#[cfg(unix)]
#[test]
fn the_local_cluster_script_refuses_zero_processes() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/cluster-local.sh");
    let run = |n: &str| {
        Command::new("bash")
            .arg(&script)
            .args([n, "fingers", "solve", "--fingers", "4", "--no-certify"])
            .env("GAMESOLVE", bin())
            .output()
            .expect("bash runs the script")
    };
    for n in ["0", "00", "abc", ""] {
        let out = run(n);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "N = {n:?}: {err}");
        assert!(
            err.contains(&format!("from 1 to 1024, not '{n}'")) && err.contains("usage:"),
            "N = {n:?}: {err}"
        );
    }
    let out = run("2");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("first player wins"));
}

/// A `GAMESOLVE` that names no executable fell back to `gamesolve` on
/// the PATH, and with none there the script ended (`set -e`) with exit 1
/// and not a word; it now says so, exit 2.
#[cfg(unix)]
#[test]
fn the_local_cluster_script_says_when_it_has_no_binary() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/cluster-local.sh");
    let out = Command::new("bash")
        .arg(&script)
        .args(["2", "fingers", "solve", "--fingers", "4"])
        .env("GAMESOLVE", "/nonexistent/gamesolve")
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("bash runs the script");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("GAMESOLVE=/nonexistent/gamesolve is not an executable file"),
        "{err}"
    );
    // A directory passes `-x`: it got through and failed N times at exec.
    let dir = std::env::temp_dir();
    let out = Command::new("bash")
        .arg(&script)
        .args(["2", "fingers", "solve", "--fingers", "4"])
        .env("GAMESOLVE", &dir)
        .env("PATH", "/usr/bin:/bin")
        .output()
        .expect("bash runs the script");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("is not an executable file"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
