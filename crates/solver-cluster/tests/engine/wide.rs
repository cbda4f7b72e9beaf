//! Tiers whose counts or remoteness outgrow 2-byte cells: the cluster
//! starts them again in 4-byte cells, on every worker of every process at
//! once, and its tables equal solver-retro's (which does the same) value
//! by value.

use crate::common;

use common::{cluster, same_values, Chain, Star, TieredChain};
use game_core::{IndexedUnmoves, Tiered, Value};
use solver_cluster::{ClusterConfig, ClusterSolution};

fn threads(w: usize) -> ClusterConfig {
    ClusterConfig::from_args(["-w".to_string(), w.to_string()]).expect("flags")
}

/// Compares every index of `runs` (each the solutions of a run's
/// processes) with solver-retro.
fn same_as_the_unmoves_engine<G>(game: &G, runs: &[Vec<ClusterSolution<game_core::OneTier<G>>>])
where
    G: IndexedUnmoves + Sync,
    G::Position: Send,
    G::Move: Send,
{
    let single = solver_retro::solve_unmoves(game).expect("solved");
    for (k, sols) in runs.iter().enumerate() {
        for (p, sol) in sols.iter().enumerate() {
            let table = sol.table(0).expect("held");
            // Values that fit 2 bytes are kept in 2 (the engine keeps a
            // table it had to solve in 4 bytes, for its counts, in 4).
            assert!(table.bytes_per_position() <= single.bytes_per_position());
            same_values(game, table, &single, &format!("run {k}, process {p}"));
        }
    }
}

/// Runs on each of `workers` threads of one process, then on 2 processes
/// of `w` workers.
fn unmoves_runs<G>(
    game: &G,
    workers: &[usize],
    w: usize,
) -> Vec<Vec<ClusterSolution<game_core::OneTier<G>>>>
where
    G: IndexedUnmoves + Clone + Send + Sync + 'static,
    G::Position: Send,
    G::Move: Send,
{
    let mut runs = Vec::new();
    for &w in workers {
        let sol = solver_cluster::solve_unmoves(game.clone(), &threads(w), None).expect("solved");
        runs.push(vec![sol]);
    }
    runs.push(cluster(2, w, |c| {
        solver_cluster::solve_unmoves(game.clone(), &c, None)
    }));
    runs
}

#[test]
fn remoteness_past_two_bytes_is_solved_again_wide() {
    let game = Chain(12_600);
    let single = solver_retro::solve_unmoves(&game).expect("solved");
    assert_eq!(
        single.bytes_per_position(),
        4,
        "the chain must outgrow 2 bytes"
    );
    assert_eq!(single.value_at(12_600), Some(Value::lose(8400)));
    // Some 8,400 levels a run, 8,191 of them twice.
    same_as_the_unmoves_engine(&game, &unmoves_runs(&game, &[2], 1));
}

#[test]
fn counts_past_two_bytes_are_solved_again_wide() {
    for listed in [false, true] {
        let game = Star {
            children: 40_000,
            listed,
        };
        let single = solver_retro::solve_unmoves(&game).expect("solved");
        assert_eq!(single.bytes_per_position(), 4);
        assert_eq!(single.value_at(0), Some(Value::lose(1)));
        same_as_the_unmoves_engine(&game, &unmoves_runs(&game, &[1, 2, 3], 2));
    }
}

#[test]
fn tiers_past_two_bytes_of_remoteness_are_solved_again_wide() {
    let game = TieredChain(12_400);
    let single = solver_retro::solve_tiers(&game).expect("solved");
    let runs = vec![
        vec![solver_cluster::solve_tiers(game.clone(), &threads(2), None).expect("solved")],
        cluster(2, 1, |c| {
            solver_cluster::solve_tiers(game.clone(), &c, None)
        }),
    ];
    for sols in &runs {
        for sol in sols {
            for &t in &game.tiers() {
                let (a, b) = (sol.table(t).expect("held"), single.table(t).expect("held"));
                assert_eq!(a.value(0), b.value(0), "tier {t}");
                assert_eq!(a.bytes_per_position(), b.bytes_per_position(), "tier {t}");
            }
        }
    }
    let deep = single.table(12_400).expect("held");
    assert_eq!(deep.value(0), Some(Value::win(8267)));
    assert_eq!(deep.bytes_per_position(), 4);
}
