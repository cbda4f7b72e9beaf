//! Several processes of several workers each: every process of the
//! cluster runs here as a thread of the test, connected to the others
//! over localhost as separate programs would be. This covers what one
//! process alone never runs: updates for other processes' workers, applied
//! under the blocks' locks while the other workers of the process wait,
//! and tiers gathered from other processes. The tables equal
//! solver-retro's position by position, on every process.

use crate::common;

use common::{cluster, same_values};
use game_core::{Canonical, Tiered};
use games::{ConnectFour, Fingers, FingersRules};
use solver_cluster::ClusterSolution;

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
                same_values(
                    &game,
                    table,
                    &single,
                    &format!("{rules:?}, {n} x {w}, process {p}"),
                );
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

#[test]
fn levels_in_many_rounds_and_scanned_levels_match_the_unmoves_engine() {
    // A round ends as soon as a worker has sent anything to another
    // process, so every level of any size runs in several rounds, each
    // applied by its receivers before the next; and with a list cap of
    // nothing every level is found by scanning the cells too.
    let game = Fingers::new(FingersRules {
        fingers: 9,
        ..FingersRules::default()
    })
    .expect("rules");
    let single = solver_retro::solve_unmoves(&game).expect("solved");
    for cap in [None, Some(0)] {
        let sols = cluster(2, 2, |c| {
            let c = c.round_bytes(1);
            let c = match cap {
                Some(cap) => c.level_list_cap(cap),
                None => c,
            };
            solver_cluster::solve_unmoves(game.clone(), &c, None)
        });
        for (p, sol) in sols.iter().enumerate() {
            let t = sol.traffic();
            // Some level took more than one round.
            assert!(t.max_round_bytes < t.max_level_bytes, "{t:?}");
            assert_eq!(t.scanned_levels > 0, cap.is_some(), "{t:?}");
            same_values(
                &game,
                sol.table(0).expect("held"),
                &single,
                &format!("cap {cap:?}, process {p}"),
            );
        }
    }
    // Caps that some lists pass and others not, some of them only with
    // the updates other processes sent, applied after a round's summary
    // (each process decides for its own workers). At caps 16–25 one
    // process's workers mostly list their seeds (level 0) and the other's
    // scan for them.
    for cap in [2, 5, 12, 16, 19, 22, 25, 30, 80] {
        let sols = cluster(2, 2, |c| {
            solver_cluster::solve_unmoves(game.clone(), &c.level_list_cap(cap), None)
        });
        // Every position of a level is listed by one of the 4 workers, so
        // a level of 12 or more (this game has many) passes a cap of 2
        // somewhere; whether larger caps are passed depends on who takes
        // which children.
        let scanned: u64 = sols.iter().map(|s| s.traffic().scanned_levels).sum();
        assert!(cap > 2 || scanned > 0, "cap {cap}");
        for (p, sol) in sols.iter().enumerate() {
            let t = sol.traffic();
            assert!(t.scanned_levels < t.levels, "{t:?}");
            same_values(
                &game,
                sol.table(0).expect("held"),
                &single,
                &format!("cap {cap}, process {p}"),
            );
        }
    }
    // By default a level of this game is one round.
    let sols = cluster(2, 2, |c| {
        solver_cluster::solve_unmoves(game.clone(), &c, None)
    });
    for sol in &sols {
        let t = sol.traffic();
        assert_eq!(t.max_round_bytes, t.max_level_bytes, "{t:?}");
    }
}
