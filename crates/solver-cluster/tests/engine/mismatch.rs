//! Processes started with settings that do not agree (another game, other
//! rules, another `-w` or `-n`), or something else than a process at a
//! cluster's address: every process refuses to start with
//! [`Error::Start`] naming what differs, as soon as they connect, never a
//! solve of a mixture of two games, a panic or a wait for ever.

use crate::common;

use std::time::Duration;

use common::cluster_each;
use games::{Fingers, FingersRules};
use solver_cluster::{ClusterConfig, Error};

/// Generous: a refusal comes as soon as the processes connect.
const WAIT: Duration = Duration::from_secs(30);

fn rules(fingers: u8, rollover: bool) -> FingersRules {
    FingersRules {
        fingers,
        rollover,
        ..FingersRules::default()
    }
}

fn solve(r: FingersRules, c: ClusterConfig) -> Result<(), Error> {
    let game = Fingers::new(r).expect("rules");
    let c = c.rules(format!("{r:?}"));
    solver_cluster::solve_unmoves(game, &c, None).map(|_| ())
}

/// Every result is a refusal to start that says `what`.
fn all_refused(results: &[Result<(), Error>], what: &str) {
    for (p, r) in results.iter().enumerate() {
        match r {
            Err(Error::Start(m)) => assert!(m.contains(what), "process {p}: {m}"),
            other => panic!("process {p}: {other:?}, not a refusal saying {what:?}"),
        }
    }
}

/// Before, process 1 solving 10 fingers a hand against process 0's 9 sent
/// updates outside process 0's shards ("the game broke the solver's
/// contract"), and one solving the rollover variant (the same size) made
/// process 0 report a wrong count of won positions, exiting 0.
#[test]
fn processes_solving_other_games_refuse_to_start() {
    for theirs in [rules(10, false), rules(9, true)] {
        let results = cluster_each(&[(2, 2), (2, 2)], |p, c| {
            solve(if p == 0 { rules(9, false) } else { theirs }, c)
        });
        all_refused(&results, "another game or other rules");
    }
    // The control: the same game on both solves.
    let results = cluster_each(&[(2, 2), (2, 2)], |_, c| solve(rules(9, true), c));
    assert!(results.iter().all(Result::is_ok), "{results:?}");
}

/// Before, `-w 2` against `-w 3` stopped both with a panic inside timely
/// ("index out of bounds"), and `-n 2` against `-n 3` waited the whole
/// connection time for a process 2 that process 0 never expects.
#[test]
fn processes_with_other_flags_refuse_to_start() {
    let results = cluster_each(&[(2, 2), (2, 3)], |_, c| solve(rules(5, false), c));
    all_refused(&results, "-w");
    let t = std::time::Instant::now();
    let results = cluster_each(&[(2, 1), (3, 1)], |_, c| solve(rules(5, false), c));
    all_refused(&results, "-n");
    assert!(t.elapsed() < WAIT, "{:?}", t.elapsed());
}

/// What answers at process 0's address holds the connection and says
/// nothing (another service, a wrong host file): before, process 1 took
/// it for process 0 and waited on it for ever.
#[test]
fn a_silent_listener_at_a_peer_address_is_not_a_peer() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = common::hosts(&dir, 2);
    let text = std::fs::read_to_string(&path).expect("hosts");
    let zero = text.lines().next().expect("a line").to_string();
    let silent = std::net::TcpListener::bind(&zero).expect("process 0's port");
    let held = std::thread::spawn(move || silent.accept().map(|(s, _)| s));
    let args = ["-n", "2", "-p", "1", "-h", path.to_str().expect("utf-8")];
    let c = ClusterConfig::from_args(args)
        .expect("flags")
        .connect_timeout(Duration::from_secs(2));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(solve(rules(5, false), c)));
    match rx.recv_timeout(WAIT) {
        Ok(Err(Error::Start(m))) => assert!(m.contains("did not greet"), "{m}"),
        Ok(other) => panic!("{other:?}"),
        Err(_) => panic!("process 1 still waits on a listener that is no process"),
    }
    drop(held);
}

/// Something that is no process connects to process 0 and sends bytes
/// of its own, and process 1 never comes: process 0 names the stranger
/// when it gives up. (A stranger alone no longer stops the start: it is
/// dropped, and the processes that come connect.)
#[test]
fn a_stranger_connecting_is_named() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = common::hosts(&dir, 2);
    let text = std::fs::read_to_string(&path).expect("hosts");
    let zero = text.lines().next().expect("a line").to_string();
    let args = ["-n", "2", "-p", "0", "-h", path.to_str().expect("utf-8")];
    let c = ClusterConfig::from_args(args)
        .expect("flags")
        .connect_timeout(Duration::from_secs(2));
    let run = std::thread::spawn(move || solve(rules(5, false), c));
    let mut stranger = loop {
        match std::net::TcpStream::connect(&zero) {
            Ok(s) => break s,
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
    };
    use std::io::Write;
    let _ = stranger.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n, and more bytes to come");
    match run.join().expect("process 0") {
        Err(Error::Start(m)) => {
            assert!(m.contains("did not connect within 2 s"), "{m}");
            assert!(m.contains("not a process of a cluster solve"), "{m}");
        }
        other => panic!("{other:?}"),
    }
}
