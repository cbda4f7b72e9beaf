//! One process, several worker threads: the cluster's tables equal
//! solver-retro's position by position. (Several processes are tested
//! through the command line: tests/cluster.rs of the workspace root.)

use game_core::{Canonical, Game, Indexed, Tiered, Unmoves};
use games::{ConnectFour, Fingers, FingersRules};
use solver_cluster::{ClusterConfig, Solved};

fn config(w: usize) -> ClusterConfig {
    ClusterConfig::from_args(["-w".to_string(), w.to_string()]).expect("flags")
}

#[test]
fn connect_four_matches_the_tier_engine() {
    for (w, h) in [(4, 4), (5, 3)] {
        let game = Canonical(ConnectFour::new(w, h).expect("board"));
        let single = solver_retro::solve_tiers(&game).expect("solved");
        for workers in [1, 2, 3] {
            let sol = solver_cluster::solve_tiers(game.clone(), &config(workers), None)
                .expect("cluster solved");
            for &t in &game.tiers() {
                let (a, b) = (sol.table(t).expect("held"), single.table(t).expect("held"));
                assert_eq!(a.len(), b.len());
                for i in 0..a.len() as u64 {
                    if game.tier_position(t, i).is_some() {
                        assert_eq!(a.value(i), b.value(i), "{w}x{h} tier {t} index {i}");
                    }
                }
            }
            assert_eq!(sol.len(), single.len());
        }
    }
}

fn fingers_rules() -> Vec<FingersRules> {
    let base = FingersRules {
        fingers: 7,
        ..FingersRules::default()
    };
    vec![
        base,
        FingersRules {
            rollover: true,
            ..base
        },
        FingersRules {
            transfers: false,
            ..base
        },
        FingersRules {
            allow_swap: true,
            revive: false,
            ..base
        },
    ]
}

#[test]
fn fingers_matches_the_unmoves_engine() {
    for rules in fingers_rules() {
        let game = Fingers::new(rules).expect("rules");
        let single = solver_retro::solve_unmoves(&game).expect("solved");
        for workers in [1, 2, 3] {
            let sol = solver_cluster::solve_unmoves(game.clone(), &config(workers), None)
                .expect("cluster solved");
            let table = sol.table(0).expect("held");
            for i in 0..game.size() {
                if game.position(i).is_some() {
                    assert_eq!(table.value(i), single.value_at(i), "{rules:?} index {i}");
                }
            }
        }
    }
}

/// Magic Fingers seen as a tiered game with unmoves: tier = the mover's
/// live hands (moves stay inside a tier or go to another, so tiers are
/// loopy and by unmoves).
#[derive(Clone)]
struct OneLoopyTier(Fingers);

impl Game for OneLoopyTier {
    type Position = <Fingers as Game>::Position;
    type Move = <Fingers as Game>::Move;
    fn moves(&self, p: &Self::Position, out: &mut Vec<Self::Move>) {
        self.0.moves(p, out);
    }
    fn play(&self, p: &Self::Position, m: &Self::Move) -> Self::Position {
        self.0.play(p, m)
    }
    fn outcome(&self, p: &Self::Position) -> Option<game_core::Outcome> {
        self.0.outcome(p)
    }
}

impl Tiered for OneLoopyTier {
    fn tiers(&self) -> Vec<u64> {
        vec![0]
    }
    fn tier(&self, _: &Self::Position) -> u64 {
        0
    }
    fn child_tiers(&self, _: u64, _: &mut Vec<u64>) {}
    fn tier_size(&self, _: u64) -> u64 {
        self.0.size()
    }
    fn tier_index(&self, p: &Self::Position) -> u64 {
        self.0.index(p)
    }
    fn tier_position(&self, _: u64, i: u64) -> Option<Self::Position> {
        self.0.position(i)
    }
}

impl Unmoves for OneLoopyTier {
    fn unmoves(&self, p: &Self::Position, out: &mut Vec<Self::Position>) {
        self.0.unmoves(p, out);
    }
}

#[test]
fn loopy_tiers_by_unmoves_match_the_tier_engine() {
    for rules in fingers_rules() {
        let game = OneLoopyTier(Fingers::new(rules).expect("rules"));
        let single = solver_retro::solve_tiers_unmoves(
            &game,
            &Default::default(),
            &mut solver_retro::NoStore,
        )
        .expect("solved");
        for workers in [1, 3] {
            let sol = solver_cluster::solve_tiers_unmoves(game.clone(), &config(workers), None)
                .expect("cluster solved");
            let (a, b) = (sol.table(0).expect("held"), single.table(0).expect("held"));
            for i in 0..a.len() as u64 {
                if game.tier_position(0, i).is_some() {
                    assert_eq!(a.value(i), b.value(i), "{rules:?} index {i}");
                }
            }
        }
    }
}

/// The one entry point given the unmoves solves as by them (and as
/// solver-retro's tier engine does); given none, a game whose tiers are
/// all left by every move solves as `solve_tiers`, and a loopy one is
/// refused.
#[test]
fn the_entry_point_chooses_by_the_unmoves_given() {
    let game = OneLoopyTier(Fingers::new(FingersRules::default()).expect("rules"));
    let single =
        solver_retro::solve_tiers_unmoves(&game, &Default::default(), &mut solver_retro::NoStore)
            .expect("solved");
    let given = solver_retro::TierUnmoves::of();
    let sol = solver_cluster::solve_tiers_given(game.clone(), Some(given), &config(2), None)
        .expect("cluster solved");
    let (a, b) = (sol.table(0).expect("held"), single.table(0).expect("held"));
    let mut checked = 0;
    for i in 0..a.len() as u64 {
        if game.tier_position(0, i).is_some() {
            assert_eq!(a.value(i), b.value(i), "index {i}");
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
    let e = solver_cluster::solve_tiers_given(game, None, &config(2), None).unwrap_err();
    assert!(
        matches!(e, solver_cluster::Error::NeedsUnmoves { .. }),
        "{e}"
    );

    let game = Canonical(ConnectFour::new(4, 4).expect("board"));
    let single = solver_retro::solve_tiers(&game).expect("solved");
    let sol = solver_cluster::solve_tiers_given(game.clone(), None, &config(2), None)
        .expect("cluster solved");
    for &t in &game.tiers() {
        let (a, b) = (sol.table(t).expect("held"), single.table(t).expect("held"));
        for i in 0..a.len() as u64 {
            if game.tier_position(t, i).is_some() {
                assert_eq!(a.value(i), b.value(i), "tier {t} index {i}");
            }
        }
    }
}

#[test]
fn a_loopy_tier_without_unmoves_is_refused() {
    let game = OneLoopyTier(Fingers::new(FingersRules::default()).expect("rules"));
    let e = solver_cluster::solve_tiers(game, &config(2), None).unwrap_err();
    assert!(
        matches!(e, solver_cluster::Error::NeedsUnmoves { .. }),
        "{e}"
    );
}

#[test]
fn a_solve_past_the_memory_limit_is_refused_before_it_starts() {
    let game = Canonical(ConnectFour::new(4, 4).expect("board"));
    // Every tier's table in 2-byte cells, and the largest one twice more
    // (its blocks while they are copied; the finished tiers' blocks kept
    // for tiers to come), from the tables a solve returns.
    let sol = solver_cluster::solve_tiers(game.clone(), &config(2), None).expect("solved");
    let lens: Vec<u64> = game
        .tiers()
        .iter()
        .map(|&t| sol.table(t).expect("held").len() as u64)
        .collect();
    let held = 2 * (lens.iter().sum::<u64>() + 2 * lens.iter().max().expect("tiers"));
    assert_eq!(solver_cluster::held_bytes(&game), held);
    // Beside the channels of the two workers.
    let held = held + config(2).channel_bytes();
    let e = solver_cluster::solve_tiers(game.clone(), &config(2).memory_limit(held - 1), None)
        .unwrap_err();
    match e {
        solver_cluster::Error::Retro(solver_retro::Error::TooLarge(t)) => {
            assert_eq!((t.needed, t.available), (held, held - 1), "{t}");
        }
        e => panic!("not refused for memory: {e}"),
    }
    let fits = solver_cluster::solve_tiers(game.clone(), &config(2).memory_limit(held), None)
        .expect("fits exactly");
    assert_eq!(fits.value(&game.0.start()), sol.value(&game.0.start()));
}

/// Levels too long for a worker's list are found by scanning the cells,
/// in both phases (wins and losses, then ties): random games with loops
/// and tied ends, listed and scanned, equal solver-retro's answers.
mod scanned_levels {
    use super::config;
    use game_core::fixtures::{graphs, Graph};
    use game_core::Indexed;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        #[test]
        fn scanned_levels_equal_listed_ones(g in graphs(12, false), workers in 1usize..4, cap in 0u64..3) {
            let single = solver_retro::solve_unmoves(&g).expect("solved");
            let sol = solver_cluster::solve_unmoves(g.clone(), &config(workers).level_list_cap(cap), None)
                .expect("cluster solved");
            let table = sol.table(0).expect("held");
            for i in 0..g.size() {
                prop_assert_eq!(table.value(i), single.value_at(i), "index {}", i);
            }
        }
    }

    #[test]
    fn a_cap_of_nothing_scans_every_level_of_both_phases() {
        // 0 ↔ 1 loop, 1 → 2 tied end, 3 → 0 and 3 → 4 lost end: level 0
        // holds a tie and a loss, so both phases start from a scan.
        let g = Graph {
            edges: vec![vec![1], vec![0, 2], vec![], vec![0, 4], vec![]],
            ends: vec![
                None,
                None,
                Some(game_core::Outcome::Tie),
                None,
                Some(game_core::Outcome::Lose),
            ],
        };
        let single = solver_retro::solve_unmoves(&g).expect("solved");
        let sol = solver_cluster::solve_unmoves(g.clone(), &config(2).level_list_cap(0), None)
            .expect("cluster solved");
        let table = sol.table(0).expect("held");
        for i in 0..g.size() {
            assert_eq!(table.value(i), single.value_at(i), "index {i}");
        }
        // Every level of both phases was scanned, by both workers, but
        // the empty one that ends each phase (nothing resolved at the
        // level before, so nothing overflowed a list).
        let t = sol.traffic();
        assert!(t.scanned_levels >= 2 * 2, "{t:?}");
        assert_eq!(t.scanned_levels + 2 * 2, t.levels, "{t:?}");
    }
}

#[test]
fn fingers_with_every_level_scanned_matches_the_unmoves_engine() {
    for rules in fingers_rules() {
        let game = Fingers::new(rules).expect("rules");
        let single = solver_retro::solve_unmoves(&game).expect("solved");
        for (workers, cap) in [(1, 0), (3, 0), (1, 40), (2, 40)] {
            let sol = solver_cluster::solve_unmoves(
                game.clone(),
                &config(workers).level_list_cap(cap),
                None,
            )
            .expect("cluster solved");
            let t = sol.traffic();
            if cap == 0 {
                // All but the empty levels that end the two phases (the
                // ties' first is empty too: Fingers has no tied ends).
                assert_eq!(t.scanned_levels + 2 * workers as u64, t.levels, "{t:?}");
            } else if workers == 1 {
                // One list: some levels pass 40, not all. (Among several
                // workers, how long each list grows depends on who takes
                // which children.)
                assert!(0 < t.scanned_levels && t.scanned_levels < t.levels, "{t:?}");
            } else {
                assert!(t.scanned_levels < t.levels, "{t:?}");
            }
            let table = sol.table(0).expect("held");
            for i in 0..game.size() {
                if game.position(i).is_some() {
                    assert_eq!(table.value(i), single.value_at(i), "{rules:?} index {i}");
                }
            }
        }
    }
}

/// A graph cut in two tiers: nodes below `split` are tier 1 (loops among
/// them, moves down to tier 0), the others tier 0 (moves stay there).
#[derive(Clone)]
struct TwoTiers(game_core::fixtures::Graph, usize);

impl Game for TwoTiers {
    type Position = usize;
    type Move = usize;
    fn moves(&self, p: &usize, out: &mut Vec<usize>) {
        self.0.moves(p, out);
    }
    fn play(&self, p: &usize, m: &usize) -> usize {
        self.0.play(p, m)
    }
    fn outcome(&self, p: &usize) -> Option<game_core::Outcome> {
        self.0.outcome(p)
    }
}

impl Tiered for TwoTiers {
    fn tiers(&self) -> Vec<u64> {
        vec![0, 1]
    }
    fn tier(&self, p: &usize) -> u64 {
        u64::from(*p < self.1)
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        if t == 1 {
            out.push(0);
        }
    }
    fn tier_size(&self, t: u64) -> u64 {
        if t == 1 {
            self.1 as u64
        } else {
            (self.0.edges.len() - self.1) as u64
        }
    }
    fn tier_index(&self, p: &usize) -> u64 {
        if *p < self.1 {
            *p as u64
        } else {
            (*p - self.1) as u64
        }
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<usize> {
        (i < self.tier_size(t)).then(|| {
            if t == 1 {
                i as usize
            } else {
                i as usize + self.1
            }
        })
    }
}

impl Unmoves for TwoTiers {
    fn unmoves(&self, p: &usize, out: &mut Vec<usize>) {
        self.0.unmoves(p, out);
    }
}

#[test]
fn a_tier_whose_outside_children_pass_the_limit_is_stopped_naming_its_events() {
    use game_core::Outcome::{Lose, Tie};
    // Tier 1: 0 ↔ 1 ↔ 2 loop, each with a move down; tier 0: 3 → 4 (lost
    // end), 5 (tied end).
    let graph = game_core::fixtures::Graph {
        edges: vec![
            vec![1, 3],
            vec![0, 2, 4],
            vec![1, 5],
            vec![4],
            vec![],
            vec![],
        ],
        ends: vec![None, None, None, None, Some(Lose), Some(Tie)],
    };
    let game = TwoTiers(graph, 3);
    let single =
        solver_retro::solve_tiers_unmoves(&game, &Default::default(), &mut solver_retro::NoStore)
            .expect("solved");
    let sol = solver_cluster::solve_tiers_unmoves(game.clone(), &config(2), None).expect("solved");
    for t in [0, 1] {
        let (a, b) = (sol.table(t).expect("held"), single.table(t).expect("held"));
        for i in 0..a.len() as u64 {
            assert_eq!(a.value(i), b.value(i), "tier {t} index {i}");
        }
    }
    // Room for the tables and the levels, none for the events tier 1's
    // moves down make.
    let held = solver_cluster::held_bytes(&game) + config(2).channel_bytes();
    let e = solver_cluster::solve_tiers_unmoves(game, &config(2).memory_limit(held), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("events") && e.contains("tier 1"), "{e}");
}

mod two_tiers {
    use super::{config, TwoTiers};
    use game_core::fixtures::graphs;
    use game_core::Tiered;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]
        /// Random games cut in two tiers (the upper one's moves stay in it
        /// or go down; the lower one's stay in it), with loops and tied
        /// ends in both: the events of the upper tier's moves down, listed
        /// or scanned levels, 1 to 3 workers — the cluster equals
        /// solver-retro's tier engine index by index.
        #[test]
        fn the_cluster_equals_the_tier_engine(
            g in graphs(12, false),
            cut in 0.0f64..1.0,
            workers in 1usize..4,
            cap in prop_oneof![Just(None), (0u64..3).prop_map(Some)],
        ) {
            let n = g.edges.len();
            let split = ((n as f64 * cut) as usize).clamp(1, n);
            let mut g = g;
            for (p, e) in g.edges.iter_mut().enumerate() {
                if p >= split {
                    e.retain(|&c| c >= split);
                }
            }
            let game = TwoTiers(g, split);
            let single = solver_retro::solve_tiers_unmoves(
                &game,
                &Default::default(),
                &mut solver_retro::NoStore,
            )
            .expect("solved");
            let c = match cap {
                Some(cap) => config(workers).level_list_cap(cap),
                None => config(workers),
            };
            let sol = solver_cluster::solve_tiers_unmoves(game.clone(), &c, None).expect("solved");
            for t in game.tiers() {
                let (a, b) = (sol.table(t).expect("cluster held"), single.table(t).expect("retro held"));
                prop_assert_eq!(a.len(), b.len());
                for i in 0..a.len() as u64 {
                    prop_assert_eq!(a.value(i), b.value(i), "tier {} index {}", t, i);
                }
            }
        }
    }
}
