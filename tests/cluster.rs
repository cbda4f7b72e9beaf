//! The cluster executor from outside: 2 and 3 `gamesolve` processes on
//! localhost (free ports chosen here) write databases byte for byte equal
//! to a single-process solve's (the database files are deterministic, so
//! equal files mean equal records, position by position); a process that
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

/// Every file of two database directories, byte for byte.
fn same_databases(a: &Path, b: &Path) {
    let names = |d: &Path| {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .expect("a database")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".gsdb"))
            .collect();
        v.sort();
        v
    };
    let (na, nb) = (names(a), names(b));
    assert_eq!(na, nb, "the same tiers finished");
    assert!(na.len() > 1, "a manifest and tiers");
    for n in &na {
        let (x, y) = (
            std::fs::read(a.join(n)).expect("read"),
            std::fs::read(b.join(n)).expect("read"),
        );
        assert!(
            x == y,
            "{n} differs between {} and {}",
            a.display(),
            b.display()
        );
    }
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
        for o in &outs[1..] {
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            assert!(o.stdout.is_empty(), "only process 0 reports");
        }
        assert_eq!(report["cluster"]["processes"], n);
        report.as_object_mut().expect("object").remove("cluster");
        for r in [&mut report, &mut reference.clone()] {
            r.as_object_mut().expect("object").remove("seconds");
        }
        let mut expected = reference.clone();
        expected.as_object_mut().expect("object").remove("seconds");
        assert_eq!(report, expected, "{name} on {n} processes");
        same_databases(&one, &db);
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
    let finished = std::fs::read_dir(&db)
        .expect("database")
        .filter(|e| {
            let n = e.as_ref().expect("entry").file_name();
            let n = n.to_string_lossy();
            n.starts_with("tier-") && n.ends_with(".gsdb")
        })
        .count();
    assert!(
        finished > 0 && finished < 21,
        "{finished} of 21 tiers written"
    );
    // The rerun resumes at the first unfinished tier and matches.
    let outs = cluster(&args, 2, &dir, &[]);
    for o in &outs {
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    same_databases(&one, &db);
    let _ = std::fs::remove_dir_all(&dir);
}
