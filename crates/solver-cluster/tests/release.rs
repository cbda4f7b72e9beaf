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
//! set, and `SOLVER_CLUSTER_PANIC_AT`) and of the tests of runs whose
//! threads cannot all be spawned ([`SPAWN_CHILD`], [`SHORT_CHILD`]).

mod common;

use std::time::{Duration, Instant};

use solver_cluster::{ClusterConfig, Error};
use solver_retro::fixtures::{Liar, Lie};

/// Set: this program runs a solve whose workers panic inside timely's
/// step.
const CHILD: &str = "SOLVER_CLUSTER_TEST_STEP_PANIC";

/// Set to the number of processes (1 or 2, of 2 workers each): this
/// program runs a solve on them, one of which cannot spawn a thread
/// (`SOLVER_CLUSTER_SPAWN_FAIL_AT`, set too).
const SPAWN_CHILD: &str = "SOLVER_CLUSTER_TEST_SPAWN_FAIL";

/// Set to a number of threads `m`: this program limits its own address
/// space to what it holds, the stacks of `m` more threads (of
/// `RUST_MIN_STACK` bytes each, set too) and half a stack to spare, then
/// runs a solve on 2 processes of 2 workers.
const SHORT_CHILD: &str = "SOLVER_CLUSTER_TEST_SHORT_OF_STACKS";

/// The stack of each thread of a [`SHORT_CHILD`] (4 GiB): a thread that
/// cannot be spawned leaves up to that much address space free, so that
/// what else the run allocates rarely meets the limit instead.
const SHORT_STACK: u64 = 4 << 30;

/// The longest a child of this program may take: the start of a run
/// fails within a second or two, and every child's runs are given 10 s
/// to connect.
const CHILD_TIME: Duration = Duration::from_secs(30);

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
    if let Some(n) = std::env::var_os(SPAWN_CHILD) {
        a_thread_that_cannot_be_spawned_child(&n.to_string_lossy());
    }
    if let Some(m) = std::env::var_os(SHORT_CHILD) {
        short_of_stacks_child(&m.to_string_lossy());
    }
    a_panic_in_timely_s_step_fails_its_run();
    a_failed_run_releases_its_threads_and_sockets();
    a_thread_that_cannot_be_spawned_fails_the_start();
    a_run_short_of_memory_for_its_threads_fails_in_time();
}

/// Runs this program again with `env`, and waits for it up to
/// [`CHILD_TIME`]: fails the test (as `what`) if it does not exit with
/// success by then.
fn run_child(what: &str, env: &[(&str, String)]) {
    let mut command = std::process::Command::new(std::env::current_exe().expect("this program"));
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("the child");
    let t = Instant::now();
    let status = loop {
        match child.try_wait().expect("the child's status") {
            Some(s) => break s,
            None if t.elapsed() > CHILD_TIME => {
                let _ = child.kill();
                let _ = child.wait();
                fail(format!(
                    "{what}: the process still runs after {} s",
                    CHILD_TIME.as_secs()
                ));
            }
            None => std::thread::sleep(Duration::from_millis(20)),
        }
    };
    if !status.success() {
        fail(format!("{what}: the process ended with {status}"));
    }
}

/// A run in which a process cannot spawn one of its threads
/// (`SOLVER_CLUSTER_SPAWN_FAIL_AT`: its first worker, its last, or the
/// thread that waits for them), alone or beside a peer: the process fails
/// with `Error::Start` naming the thread, its peer fails too, both within
/// seconds, and neither leaves a thread or socket behind. Before, timely
/// spawned the workers one by one, and a spawn that failed part-way
/// parked the workers and network threads already started (they panicked
/// waiting for the allocators dropped with the error) while timely joined
/// those network threads: the process hung for ever, its peer until its
/// peer timeout.
fn a_thread_that_cannot_be_spawned_fails_the_start() {
    for (processes, process) in [(1, 0), (2, 1)] {
        for thread in 0..=2 {
            run_child(
                &format!("process {process} of {processes} that cannot spawn its thread {thread}"),
                &[
                    (SPAWN_CHILD, processes.to_string()),
                    (
                        "SOLVER_CLUSTER_SPAWN_FAIL_AT",
                        format!("{process}:{thread}"),
                    ),
                ],
            );
        }
    }
    println!("test a_thread_that_cannot_be_spawned_fails_the_start ... ok");
}

/// The child of [`a_thread_that_cannot_be_spawned_fails_the_start`], of
/// `processes` processes: exits 0 if all went as it should.
fn a_thread_that_cannot_be_spawned_child(processes: &str) -> ! {
    let n: usize = processes.parse().expect("a number of processes");
    let failing = n - 1;
    let before = Held::now();
    let t = Instant::now();
    let results = common::cluster_each(&vec![(n, 2); n], |_, c| {
        let c = c.connect_timeout(Duration::from_secs(10));
        solver_cluster::solve_unmoves(Liar { lie: Lie::Honest }, &c, None).map(|_| ())
    });
    let took = t.elapsed();
    match &results[failing] {
        Err(Error::Start(m))
            if m.contains("cannot start")
                && m.contains("SOLVER_CLUSTER_SPAWN_FAIL_AT: a thread that cannot be spawned") => {}
        other => fail(format!("process {failing}: {other:?}")),
    }
    if !results.iter().all(Result::is_err) {
        fail(format!("a run did not fail: {results:?}"));
    }
    if took > Duration::from_secs(5) {
        fail(format!("the runs failed {took:?} after they started"));
    }
    released(&before, "a thread that cannot be spawned");
    std::process::exit(0);
}

/// Runs on 2 processes in a program whose address space has room for
/// the stacks of only so many more threads (`RUST_MIN_STACK` and
/// `prlimit`; from none to more than a run takes, so that a spawn fails at
/// each of the run's threads in turn, timely's network threads too): every
/// run ends, solved or with an error, within seconds, and runs that fail
/// leave no thread or socket behind. Before, a run whose worker threads
/// could not all be spawned hung for ever (see
/// [`a_thread_that_cannot_be_spawned_fails_the_start`]; this is the same
/// failure as the system makes it), and a run whose second network thread
/// could not be spawned left the first parked in the panic hook, holding
/// its socket (and the hook's lock) for the life of the process.
fn a_run_short_of_memory_for_its_threads_fails_in_time() {
    if std::process::Command::new("prlimit")
        .arg("--version")
        .output()
        .is_err()
    {
        println!(
            "test a_run_short_of_memory_for_its_threads_fails_in_time ... ignored (no prlimit)"
        );
        return;
    }
    // A process of the run spawns up to 6 threads (a heartbeat, 2
    // workers, the one waiting for them, timely's 2 network threads),
    // after the 2 that run the processes here.
    for more in 0..=14 {
        run_child(
            &format!("a run with room for {more} more threads"),
            &[
                (SHORT_CHILD, more.to_string()),
                ("RUST_MIN_STACK", SHORT_STACK.to_string()),
            ],
        );
    }
    println!("test a_run_short_of_memory_for_its_threads_fails_in_time ... ok");
}

/// The child of [`a_run_short_of_memory_for_its_threads_fails_in_time`],
/// with room for `more` threads after the 2 that run the processes: exits
/// 0 once both processes' runs have ended (whether solved or failed).
fn short_of_stacks_child(more: &str) -> ! {
    let more: u64 = more.parse().expect("a number of threads");
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let held_kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmSize");
    let limit = held_kib * 1024 + (2 + more) * SHORT_STACK + SHORT_STACK / 2;
    let limited = std::process::Command::new("prlimit")
        .arg(format!("--pid={}", std::process::id()))
        .arg(format!("--as={limit}"))
        .status()
        .expect("prlimit");
    if !limited.success() {
        fail(format!("prlimit --as={limit}: {limited}"));
    }
    let before = Held::now();
    let results = common::cluster_each(&[(2, 2), (2, 2)], |_, c| {
        let c = c.connect_timeout(Duration::from_secs(10));
        solver_cluster::solve_unmoves(Liar { lie: Lie::Honest }, &c, None).map(|_| ())
    });
    // Whatever the results (every error is one), the runs have ended;
    // runs that failed left nothing behind (one that solved keeps
    // rayon's pool).
    if results.iter().all(Result::is_err) {
        released(&before, &format!("runs with room for {more} more threads"));
    }
    std::process::exit(0);
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
