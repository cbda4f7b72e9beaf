//! A failed run releases what it started: once it has returned its error,
//! the process has the threads and open descriptors it had before (a
//! library user may run many solves in one process). Before, a failed
//! run's workers and the network threads of its connections stayed
//! parked, holding their sockets, for the life of the process.
//!
//! A plain program (`harness = false` in Cargo.toml): the threads and
//! descriptors counted (`/proc/self/task`, `/proc/self/fd`) are this
//! program's alone, none of a test harness's. It is also the process of
//! `a_panic_in_timely_s_step_fails_its_run` (run again with [`CHILD`]
//! set, and `SOLVER_CLUSTER_PANIC_AT`).

mod common;

use std::time::{Duration, Instant};

use solver_cluster::{ClusterConfig, Error};
use solver_retro::fixtures::{Liar, Lie};

/// Set: this program runs a solve whose workers panic inside timely's
/// step.
const CHILD: &str = "SOLVER_CLUSTER_TEST_STEP_PANIC";

/// Fails the test without a panic (a panic may wait on the hook lock a
/// parked thread holds).
fn fail(m: String) -> ! {
    eprintln!("test failed: {m}");
    std::process::exit(1);
}

/// The process's threads (by name) and open descriptors.
#[derive(Debug, PartialEq, Eq)]
struct Held {
    threads: Vec<String>,
    fds: usize,
}

impl Held {
    fn now() -> Held {
        let mut threads: Vec<String> = std::fs::read_dir("/proc/self/task")
            .expect("/proc/self/task")
            .filter_map(Result::ok)
            .map(|t| {
                std::fs::read_to_string(t.path().join("comm"))
                    .unwrap_or_default()
                    .trim()
                    .to_string()
            })
            .collect();
        threads.sort();
        let fds = std::fs::read_dir("/proc/self/fd")
            .expect("/proc/self/fd")
            .count();
        Held { threads, fds }
    }
}

/// Waits (a few seconds at most) until the process holds what it held
/// in `before`; fails naming what `what` left behind.
fn released(before: &Held, what: &str) {
    let t = Instant::now();
    loop {
        let now = Held::now();
        if now == *before {
            return;
        }
        if t.elapsed() > Duration::from_secs(5) {
            fail(format!(
                "{what} left behind, 5 s after it returned: {now:?}, before it {before:?}"
            ));
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A failing run, as one or more processes of this program: their
/// results.
type Run = fn() -> Vec<Result<(), Error>>;

/// The failing runs, by what fails them.
fn runs() -> Vec<(&'static str, Run)> {
    vec![
        ("a game that panics, one process of 2 workers", || {
            let c = ClusterConfig::from_args(["-w", "2"]).expect("flags");
            vec![
                solver_cluster::solve_tiers(common::Boom(common::TieredChain(8)), &c, None)
                    .map(|_| ()),
            ]
        }),
        ("a broken promise, one process of 2 workers", || {
            let c = ClusterConfig::from_args(["-w", "2"]).expect("flags");
            let game = Liar {
                lie: Lie::CountTooLow,
            };
            vec![solver_cluster::solve_unmoves(game, &c, None).map(|_| ())]
        }),
        ("a broken promise, 2 processes of 2 workers", || {
            common::cluster_each(&[(2, 2), (2, 2)], |_, c| {
                let game = Liar {
                    lie: Lie::ParentPastTheEnd,
                };
                solver_cluster::solve_unmoves(game, &c, None).map(|_| ())
            })
        }),
        ("a game that panics, 3 processes of 1 worker", || {
            common::cluster_each(&[(3, 1); 3], |_, c| {
                solver_cluster::solve_tiers(common::Boom(common::TieredChain(8)), &c, None)
                    .map(|_| ())
            })
        }),
        ("processes started with other settings", || {
            common::cluster_each(&[(2, 1), (2, 2)], |_, c| {
                let game = Liar { lie: Lie::Honest };
                solver_cluster::solve_unmoves(game, &c, None).map(|_| ())
            })
        }),
    ]
}

fn main() {
    if std::env::var_os(CHILD).is_some() {
        a_panic_in_timely_s_step_child();
    }
    a_panic_in_timely_s_step_fails_its_run();
    a_failed_run_releases_its_threads_and_sockets();
}

/// Workers that panic inside timely's step (in an operator, at round 1:
/// `SOLVER_CLUSTER_PANIC_AT`), in a process of its own (this program run
/// again): the run fails with `Error::Failed` naming the panic, leaves no
/// thread behind, and the panic hook is free. Before, the hook parked
/// such a worker for good (keeping the hook's lock: `take_hook` never
/// returned after) and recorded the panic as the failure of every run
/// under way in the process.
fn a_panic_in_timely_s_step_fails_its_run() {
    let mut child = std::process::Command::new(std::env::current_exe().expect("this program"))
        .env(CHILD, "1")
        .env("SOLVER_CLUSTER_PANIC_AT", "0:1")
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the child");
    let t = Instant::now();
    let status = loop {
        match child.try_wait().expect("the child's status") {
            Some(s) => break s,
            None if t.elapsed() > Duration::from_secs(60) => {
                let _ = child.kill();
                let _ = child.wait();
                fail("a panic in timely's step: the process still runs after 60 s".into());
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    };
    if !status.success() {
        fail(format!(
            "a panic in timely's step: the process ended with {status}"
        ));
    }
    println!("test a_panic_in_timely_s_step_fails_its_run ... ok");
}

/// The child of [`a_panic_in_timely_s_step_fails_its_run`]: exits 0 if
/// all went as it should.
fn a_panic_in_timely_s_step_child() -> ! {
    let before = Held::now();
    let c = ClusterConfig::from_args(["-w", "2"]).expect("flags");
    match solver_cluster::solve_unmoves(Liar { lie: Lie::Honest }, &c, None) {
        Err(Error::Failed(m))
            if m.contains("a worker thread panicked")
                && m.contains("SOLVER_CLUSTER_PANIC_AT: a panic inside timely's step") => {}
        other => fail(format!("{other:?}")),
    }
    released(&before, "a panic in timely's step");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        std::panic::set_hook(std::panic::take_hook());
        let _ = tx.send(());
    });
    if rx.recv_timeout(Duration::from_secs(10)).is_err() {
        fail("take_hook still waits for the hook lock 10 s after the failed run".into());
    }
    std::process::exit(0);
}

/// Failing runs of every kind, each several times: the process holds
/// what it held before each.
fn a_failed_run_releases_its_threads_and_sockets() {
    // A run that solves first: what a process keeps for good (rayon's
    // pool, which solver-retro's tables use) is there before.
    let c = ClusterConfig::from_args(["-w", "2"]).expect("flags");
    if let Err(e) = solver_cluster::solve_unmoves(Liar { lie: Lie::Honest }, &c, None) {
        fail(format!("the honest run: {e}"));
    }
    let before = Held::now();
    // Each run several times: what one leaves adds up.
    for _ in 0..3 {
        for (what, run) in runs() {
            let results = run();
            if !results.iter().all(Result::is_err) {
                fail(format!("{what}: a run did not fail: {results:?}"));
            }
            released(&before, what);
        }
    }
    println!("test a_failed_run_releases_its_threads_and_sockets ... ok");
}
