//! A failed run releases what it started: once it has returned its error,
//! the process has the threads and open descriptors it had before (a
//! library user may run many solves in one process). Before, a failed
//! run's workers and the network threads of its connections stayed
//! parked, holding their sockets, for the life of the process.
//!
//! A plain program (`harness = false` in Cargo.toml): the threads and
//! descriptors counted (`/proc/self/task`, `/proc/self/fd`) are this
//! program's alone, none of a test harness's.

mod common;

use std::time::{Duration, Instant};

use solver_cluster::{ClusterConfig, Error};
use solver_retro::fixtures::{Liar, Lie};

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
    a_failed_run_releases_its_threads_and_sockets();
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
