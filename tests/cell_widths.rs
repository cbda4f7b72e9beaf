//! One-byte cells against two- and four-byte ones (issue 49, item 2): a
//! game solved where the solver chooses 1-byte cells gives, at every index
//! of every tier, the values of the same solve forced into 2-byte and
//! 4-byte cells ([`Config::narrowest_cells`]), each table passes the
//! certificate (every value checked against its children's, move by
//! move), and the widths chosen are the ones the rule gives: 1 byte where
//! the remoteness is known to fit (Connect Four: a tier of `p` pieces
//! lasts at most `W·H − p` plies; a loopy game: fewer plies than it has
//! positions), else 2.

use game_core::{Indexed, Tiered};
use games::{ConnectFour, Fingers, FingersRules};
use solver_retro::{Config, NoStore, Solved, Table, TieredSolution};

/// Every index of every tier of `a` and `b` holds the same value.
fn same_tiers<G: Tiered>(game: &G, a: &TieredSolution<'_, G>, b: &TieredSolution<'_, G>) {
    for t in game.tiers() {
        let (x, y) = (a.table(t).expect("held"), b.table(t).expect("held"));
        same_table(x, y, &format!("tier {t}"));
    }
}

fn same_table(x: &Table, y: &Table, what: &str) {
    assert_eq!(x.len(), y.len(), "{what}");
    for i in 0..x.len() as u64 {
        assert_eq!(x.value(i), y.value(i), "{what}, index {i}");
    }
}

/// Connect Four `w`×`h` solved tier by tier: every table in 1 byte by
/// choice, equal to the 2- and 4-byte solves index by index, certified;
/// the start's value is Tromp's (`start`).
fn connect4(w: u32, h: u32, start: game_core::Value) {
    let game = ConnectFour::new(w, h).expect("a board");
    let solve = |bytes: u64| {
        let config = Config::default().narrowest_cells(bytes);
        solver_retro::solve_tiers_with(&game, &config, &mut NoStore).expect("solved")
    };
    let (one, two, four) = (solve(1), solve(2), solve(4));
    for t in game.tiers() {
        let bytes = |s: &TieredSolution<'_, ConnectFour>| s.table(t).unwrap().bytes_per_position();
        assert_eq!(
            (bytes(&one), bytes(&two), bytes(&four)),
            (1, 2, 4),
            "tier {t}"
        );
    }
    same_tiers(&game, &one, &two);
    same_tiers(&game, &one, &four);
    assert_eq!(one.value(&game.start()), Some(start));
    assert!(solver_retro::certify_tiers(&one).is_ok());
}

/// 4×4: a draw by exhaustive search (Tromp's table), a tie on the full
/// board in 16 plies.
#[test]
fn connect4_4x4_in_one_byte_cells_equals_two_and_four() {
    connect4(4, 4, game_core::Value::tie(16));
}

/// 5×4: a tie in 20 (Tromp).
#[test]
fn connect4_5x4_in_one_byte_cells_equals_two_and_four() {
    connect4(5, 4, game_core::Value::tie(20));
}

/// The tiers solved on the cluster (two workers) choose the same widths
/// and give the same values as solver-retro's.
#[test]
fn connect4_4x4_on_the_cluster_in_one_byte_cells() {
    let game = ConnectFour::new(4, 4).expect("a board");
    let single = solver_retro::solve_tiers(&game).expect("solved");
    let config = solver_cluster::ClusterConfig::from_args(["-w", "2"]).expect("flags");
    let sol = solver_cluster::solve_tiers(game.clone(), &config, None).expect("solved");
    for t in game.tiers() {
        let (a, b) = (sol.table(t).expect("held"), single.table(t).expect("held"));
        assert_eq!(a.bytes_per_position(), 1, "tier {t}");
        same_table(a, b, &format!("tier {t}"));
    }
}

/// Every rule variant of Magic Fingers with 3 fingers a hand (36
/// indices, loopy): solved in 1-byte cells (a remoteness is below the 36
/// positions), the same as in 2 and 4 bytes at every index, certified —
/// by the graph-free preset and as one loopy tier; 4 fingers (100
/// indices) stay in 2 bytes, no bound fitting one.
#[test]
fn fingers_3_in_one_byte_cells_equals_two_and_four() {
    for m in 0..64u32 {
        let rules = FingersRules {
            fingers: 3,
            rollover: m & 1 != 0,
            transfers: m & 2 != 0,
            revive: m & 4 != 0,
            empty: m & 8 != 0,
            allow_swap: m & 16 != 0,
            allow_transfer_overflow: m & 32 != 0,
        };
        let game = Fingers::new(rules).expect("rules");
        assert_eq!(game.size(), 36);
        let solve = |bytes: u64| {
            let config = Config::default().narrowest_cells(bytes);
            solver_retro::solve_unmoves_with(&game, &config).expect("solved")
        };
        let (one, two, four) = (solve(1), solve(2), solve(4));
        assert_eq!(
            (
                one.bytes_per_position(),
                two.bytes_per_position(),
                four.bytes_per_position()
            ),
            (1, 2, 4),
            "{rules:?}"
        );
        let tiered = solver_retro::solve_tiers_unmoves(&game, &Config::default(), &mut NoStore)
            .expect("solved");
        assert_eq!(tiered.table(0).expect("held").bytes_per_position(), 1);
        for i in 0..game.size() {
            let Some(p) = game.position(i) else { continue };
            let v = one.value(&p);
            assert_eq!(v, two.value(&p), "{rules:?} at {p:?}");
            assert_eq!(v, four.value(&p), "{rules:?} at {p:?}");
            assert_eq!(v, tiered.value(&p), "{rules:?} at {p:?}");
        }
        assert!(solver_retro::certify(&one).is_ok(), "{rules:?}");
        assert!(solver_retro::certify_tiers(&tiered).is_ok(), "{rules:?}");
    }
    let four = Fingers::new(FingersRules {
        fingers: 4,
        ..FingersRules::default()
    })
    .expect("rules");
    let sol = solver_retro::solve_unmoves(&four).expect("solved");
    assert_eq!(sol.bytes_per_position(), 2);
}
