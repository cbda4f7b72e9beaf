//! Several processes of several workers each: every process of the
//! cluster runs here as a thread of the test, connected to the others
//! over localhost as separate programs would be. This covers what one
//! process alone never runs: updates for other processes' workers, applied
//! under the blocks' locks while the other workers of the process wait,
//! and tiers gathered from other processes. The tables equal
//! solver-retro's position by position, on every process.

use std::path::PathBuf;

use game_core::{Canonical, Indexed, Tiered};
use games::{ConnectFour, Fingers, FingersRules};
use solver_cluster::{ClusterConfig, ClusterSolution, Error};

/// A host file of `n` free localhost ports.
fn hosts(dir: &tempfile::TempDir, n: usize) -> PathBuf {
    let listeners: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    let text: String = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}\n", l.local_addr().expect("bound").port()))
        .collect();
    let path = dir.path().join("hosts");
    std::fs::write(&path, text).expect("host file");
    path
}

/// Runs `solve` as each of `n` processes of `w` workers, at once; their
/// results, process 0 first.
fn cluster<T: Send>(
    n: usize,
    w: usize,
    solve: impl Fn(ClusterConfig) -> Result<T, Error> + Sync,
) -> Vec<T> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = hosts(&dir, n);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|p| {
                let args = [
                    "-w".to_string(),
                    w.to_string(),
                    "-n".to_string(),
                    n.to_string(),
                    "-p".to_string(),
                    p.to_string(),
                    "-h".to_string(),
                    path.display().to_string(),
                ];
                let solve = &solve;
                s.spawn(move || solve(ClusterConfig::from_args(args).expect("flags")))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("process thread").expect("cluster solved"))
            .collect()
    })
}

#[test]
fn fingers_on_processes_of_several_workers_matches_the_unmoves_engine() {
    let base = FingersRules {
        fingers: 9,
        ..FingersRules::default()
    };
    for rules in [
        base,
        FingersRules {
            rollover: true,
            ..base
        },
    ] {
        let game = Fingers::new(rules).expect("rules");
        let single = solver_retro::solve_unmoves(&game).expect("solved");
        for (n, w) in [(2, 2), (3, 2)] {
            let sols: Vec<ClusterSolution<_>> = cluster(n, w, |c| {
                solver_cluster::solve_unmoves(game.clone(), &c, None)
            });
            for (p, sol) in sols.iter().enumerate() {
                let table = sol.table(0).expect("held");
                for i in 0..game.size() {
                    if game.position(i).is_some() {
                        assert_eq!(
                            table.value(i),
                            single.value_at(i),
                            "{rules:?}, {n} x {w}, process {p}, index {i}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn connect_four_on_processes_of_several_workers_matches_the_tier_engine() {
    let game = Canonical(ConnectFour::new(4, 4).expect("board"));
    let single = solver_retro::solve_tiers(&game).expect("solved");
    let sols = cluster(2, 2, |c| {
        solver_cluster::solve_tiers(game.clone(), &c, None)
    });
    for (p, sol) in sols.iter().enumerate() {
        for &t in &game.tiers() {
            let (a, b) = (sol.table(t).expect("held"), single.table(t).expect("held"));
            assert_eq!(a.len(), b.len());
            for i in 0..a.len() as u64 {
                if game.tier_position(t, i).is_some() {
                    assert_eq!(a.value(i), b.value(i), "process {p}, tier {t}, index {i}");
                }
            }
        }
    }
}
