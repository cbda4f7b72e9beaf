//! A game that breaks its promises stops a cluster solve with a typed
//! error naming what broke — on one worker and on several, never a panic,
//! a hang or a table solved wrong (solver-retro's fixture, the lies its
//! own unit test `a_broken_promise_is_an_error_on_every_path` checks).

use game_core::Value;
use solver_cluster::{ClusterConfig, Error};
use solver_retro::fixtures::{Liar, Lie};
use solver_retro::Error as RetroError;

use crate::common;
use common::Pile;

fn config(workers: usize) -> ClusterConfig {
    ClusterConfig::from_args(["-w".to_string(), workers.to_string()]).expect("flags")
}

#[test]
fn a_broken_promise_stops_the_cluster_with_an_error() {
    for lie in Lie::ALL {
        for workers in [1, 2, 3] {
            let err = match solver_cluster::solve_unmoves(Liar { lie }, &config(workers), None) {
                Ok(_) => panic!("{lie:?}, {workers} workers: solved a lying game"),
                Err(e) => e,
            };
            let named = match (lie, &err) {
                (Lie::CountTooLow, Error::Retro(RetroError::Broken(m))) => {
                    m.contains("position id 3 has more parents' updates than children")
                }
                (
                    Lie::ParentIsNoPosition | Lie::RunThroughNoPosition,
                    Error::Retro(RetroError::Broken(m)),
                ) => m.contains("parent id 4, which is no position"),
                (Lie::ParentPastTheEnd, e) => {
                    matches!(e, Error::Retro(RetroError::BadIndex { index: 7, size: 5 }))
                }
                _ => false,
            };
            assert!(named, "{lie:?}, {workers} workers: {err:?}");
        }
    }
}

/// The control: the same graph, honest, solves (3 lost in 2).
#[test]
fn the_honest_graph_solves() {
    let want = [Value::lose(0), Value::win(1), Value::win(1), Value::lose(2)];
    for workers in [1, 2, 3] {
        let liar = Liar { lie: Lie::Honest };
        let sol = solver_cluster::solve_unmoves(liar, &config(workers), None).expect("solved");
        let table = sol.table(0).expect("held");
        for (i, v) in want.into_iter().enumerate() {
            assert_eq!(table.value(i as u64), Some(v), "{workers} workers, {i}");
        }
    }
}

/// A tiered game whose `visit_tier` gives an index outside the range it
/// was asked for is a broken promise named as such. Before, seeding
/// indexed its cells with it: an index out of bounds panic in a worker
/// thread, reported as "a worker thread panicked".
#[test]
fn a_visit_outside_the_range_is_a_broken_promise() {
    for workers in [1, 2] {
        let sol = solver_cluster::solve_tiers(Pile { outside: false }, &config(workers), None)
            .expect("the honest pile solves");
        assert_eq!(sol.value_at(3, 0), Some(Value::win(3)), "{workers} workers");
        let err = solver_cluster::solve_tiers(Pile { outside: true }, &config(workers), None)
            .expect_err("a lying pile");
        assert!(
            matches!(&err, Error::Retro(RetroError::Broken(m))
                if m.contains("visit_tier of tier 2 gave index 5, outside the range 0..1")),
            "{workers} workers: {err:?}"
        );
    }
}

/// [`Pile`] whose tier 2 decodes to the pile of one, which the game's own
/// `tier` puts in tier 1; each tier declares every lower one a child
/// tier, so nothing else gives the lie away.
#[derive(Clone)]
struct Misplaced;

impl game_core::Game for Misplaced {
    type Position = u64;
    type Move = ();
    fn moves(&self, n: &u64, out: &mut Vec<()>) {
        Pile { outside: false }.moves(n, out);
    }
    fn play(&self, n: &u64, m: &()) -> u64 {
        Pile { outside: false }.play(n, m)
    }
}

impl game_core::Tiered for Misplaced {
    fn tiers(&self) -> Vec<game_core::Tier> {
        Pile { outside: false }.tiers()
    }
    fn tier(&self, n: &u64) -> game_core::Tier {
        Pile { outside: false }.tier(n)
    }
    /// Every lower tier: the pile of one's move stays within them.
    fn child_tiers(&self, t: game_core::Tier, out: &mut Vec<game_core::Tier>) {
        out.extend(0..t);
    }
    fn tier_size(&self, t: game_core::Tier) -> u64 {
        Pile { outside: false }.tier_size(t)
    }
    fn tier_index(&self, n: &u64) -> u64 {
        Pile { outside: false }.tier_index(n)
    }
    fn tier_position(&self, t: game_core::Tier, i: u64) -> Option<u64> {
        match (t, i) {
            (2, 0) => Some(1),
            _ => Pile { outside: false }.tier_position(t, i),
        }
    }
    fn leaves_tier(&self, _: game_core::Tier) -> bool {
        true
    }
}

/// A tier index that decodes to a position the game's own `tier` and
/// `tier_index` put elsewhere is refused when the tier is seeded, with
/// solver-retro's message. Before, the cluster seeded tier 2 from the
/// pile of one (a win in 1) and solved the pile of three as a loss in 2:
/// a wrong table, silently.
#[test]
fn a_decoding_the_game_places_elsewhere_is_a_broken_promise() {
    for workers in [1, 2] {
        let err = solver_cluster::solve_tiers(Misplaced, &config(workers), None)
            .expect_err("a misplacing pile");
        assert!(
            matches!(&err, Error::Retro(RetroError::Broken(m))
                if m.contains("index 0 of tier 2 decodes to a position that tier() and tier_index() put at index 0 of tier 1")),
            "{workers} workers: {err:?}"
        );
    }
    // solver-retro refuses it with the same words.
    let retro = solver_retro::solve_tiers_with(
        &Misplaced,
        &solver_retro::Config::default(),
        &mut solver_retro::NoStore,
    )
    .expect_err("a misplacing pile");
    assert!(
        matches!(&retro, RetroError::Broken(m)
            if m.contains("index 0 of tier 2 decodes to a position that tier() and tier_index() put at index 0 of tier 1")),
        "{retro:?}"
    );
}
