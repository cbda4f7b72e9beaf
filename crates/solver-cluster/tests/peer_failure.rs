//! A game that breaks its promises, on processes of the cluster: every
//! process stops with an error, one of them naming what broke, never a
//! wait for ever. Before, the process that found the lie kept its
//! connections open (its failed worker parked) and, when it found it
//! applying the updates of the last round, its peers had finished their
//! levels and waited for ever for its clean end of stream in timely's
//! shutdown; as a program, a process would hang the same way on a peer
//! that fails after the last barrier.
//!
//! A plain program (`harness = false` in Cargo.toml): it exits as soon
//! as it is done (a failed run now releases its threads, `release.rs`,
//! but a panic on timely's own threads still parks them). It is also
//! the peer process of `a_stopped_peer_fails_the_run` (run again with
//! [`CHILD`] set).

mod common;

use std::time::{Duration, Instant};

use games::{Fingers, FingersRules};
use solver_cluster::{ClusterConfig, Error};
use solver_retro::fixtures::{Liar, Lie};

/// Set to a host file: this program runs as process 1 of two with it.
const CHILD: &str = "SOLVER_CLUSTER_TEST_CHILD";

/// The flags of process `p` of two of one worker each.
fn flags(p: usize, hosts: &str) -> ClusterConfig {
    let p = p.to_string();
    ClusterConfig::from_args(["-n", "2", "-p", p.as_str(), "-h", hosts]).expect("flags")
}

/// Fails the test without a panic (a panic may wait on the hook lock a
/// parked thread holds).
fn fail(m: String) -> ! {
    eprintln!("test failed: {m}");
    std::process::exit(1);
}

fn main() {
    if let Ok(hosts) = std::env::var(CHILD) {
        let game = Fingers::new(FingersRules::default()).expect("rules");
        let _ = solver_cluster::solve_unmoves(game, &flags(1, &hosts), None);
        std::process::exit(0);
    }
    a_broken_promise_stops_every_process();
    a_game_that_panics_fails_its_run_alone();
    the_panic_hook_is_free_after_a_failure();
    a_stopped_peer_fails_the_run();
    std::process::exit(0);
}

/// A game that panics inside a worker, beside an honest run: the panic
/// fails its own run with `Error::Failed` naming it, the honest run
/// solves. Before, the hook parked the worker inside itself (keeping the
/// hook's lock, below) and recorded the panic as every run's failure.
fn a_game_that_panics_fails_its_run_alone() {
    let config = ClusterConfig::from_args(["-w", "2"]).expect("flags");
    let (tx, rx) = std::sync::mpsc::channel();
    let c = config.clone();
    let tx2 = tx.clone();
    std::thread::spawn(move || {
        let game = common::Boom(common::TieredChain(8));
        let _ = tx.send((0, solver_cluster::solve_tiers(game, &c, None).map(|_| ())));
    });
    std::thread::spawn(move || {
        // Long enough to be under way when the other run fails.
        let game = Fingers::new(FingersRules::default()).expect("rules");
        let r = solver_cluster::solve_unmoves(game, &config, None).map(|_| ());
        let _ = tx2.send((1, r));
    });
    let mut got = [None, None];
    for _ in 0..2 {
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok((k, r)) => got[k] = Some(r),
            Err(_) => fail("a run still waits".into()),
        }
    }
    match &got[0] {
        Some(Err(Error::Failed(m)))
            if m.contains("a worker thread panicked") && m.contains("boom at pile 5") => {}
        other => fail(format!("the panicking game: {other:?}")),
    }
    if !matches!(got[1], Some(Ok(()))) {
        fail(format!("the honest run beside it: {:?}", got[1]));
    }
    println!("test a_game_that_panics_fails_its_run_alone ... ok");
}

/// Every run above failed: the panic hook can still be taken and set.
/// Before, each failure parked a network thread of every process inside
/// the panic hook (timely's threads panic when a connection closes), which
/// keeps the standard library's hook lock: `take_hook` waited for ever,
/// and so, from then on, did every panic in the process.
fn the_panic_hook_is_free_after_a_failure() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        std::panic::set_hook(std::panic::take_hook());
        let _ = tx.send(());
    });
    if rx.recv_timeout(Duration::from_secs(10)).is_err() {
        fail("take_hook still waits for the hook lock 10 s after the failed runs".into());
    }
    println!("test the_panic_hook_is_free_after_a_failure ... ok");
}

/// Process 1 (another process: this program run again) stops as a whole
/// at round 5 (`SIGSTOP`), its connections open, as a host that vanished.
/// Before, process 0 waited for it for ever (no heartbeat); now it fails
/// with `Error::Failed` naming the silence, in about the peer timeout.
#[cfg(unix)]
fn a_stopped_peer_fails_the_run() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let hosts = common::hosts(&dir, 2);
    let hosts = hosts.to_str().expect("utf-8").to_string();
    let mut child = std::process::Command::new(std::env::current_exe().expect("this program"))
        .env(CHILD, &hosts)
        .env("SOLVER_CLUSTER_STOP_AT", "1:5")
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("process 1");
    let (tx, rx) = std::sync::mpsc::channel();
    let config = flags(0, &hosts).peer_timeout(Duration::from_secs(1));
    let started = Instant::now();
    std::thread::spawn(move || {
        let game = Fingers::new(FingersRules::default()).expect("rules");
        let _ = tx.send(solver_cluster::solve_unmoves(game, &config, None).map(|_| ()));
    });
    let got = rx.recv_timeout(Duration::from_secs(30));
    let _ = child.kill();
    let _ = child.wait();
    match got {
        Ok(Err(Error::Failed(m))) if m.contains("peer process 1") && m.contains("sent nothing") => {
        }
        Ok(other) => fail(format!("a stopped peer: {other:?}")),
        Err(_) => fail("process 0 still waits 30 s on a stopped peer".into()),
    }
    if started.elapsed() > Duration::from_secs(20) {
        fail(format!(
            "a stopped peer found after {:?}",
            started.elapsed()
        ));
    }
    println!("test a_stopped_peer_fails_the_run ... ok");
}

#[cfg(not(unix))]
fn a_stopped_peer_fails_the_run() {}

fn a_broken_promise_stops_every_process() {
    for lie in Lie::ALL {
        for each in [&[(2, 1), (2, 1)][..], &[(2, 2), (2, 2)], &[(3, 1); 3]] {
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let _ = tx.send(common::cluster_each(each, |_, c| {
                    solver_cluster::solve_unmoves(Liar { lie }, &c, None).map(|_| ())
                }));
            });
            let results = rx
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("{lie:?}, {each:?}: a process still waits"));
            assert!(
                results.iter().all(Result::is_err),
                "{lie:?}, {each:?}: {results:?}"
            );
            assert!(
                results.iter().any(|r| matches!(r, Err(Error::Retro(_)))),
                "{lie:?}, {each:?}: {results:?}"
            );
        }
    }
    println!("test a_broken_promise_stops_every_process ... ok");
}
