//! Subtraction games against the seed article's tables, OEIS, and the
//! generic solver.

use game_core::{Misere, Outcome};
use games::Subtraction;
use proptest::prelude::*;

#[test]
fn seed_tables_for_1_3_4() {
    let g = Subtraction::finite([1, 3, 4]).unwrap();
    // "Table 1: Game with 11 coins and subtraction set {1, 3, 4}", and the
    // misère version beneath it.
    assert_eq!(g.outcome_string(11, false).unwrap(), "LWLWWWWLWLWW");
    assert_eq!(g.outcome_string(11, true).unwrap(), "WLWLWWWWLWLW");
}

#[test]
fn subtract_a_square_losing_positions_are_oeis_a030193() {
    const A030193: [u64; 49] = [
        0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39, 44, 52, 57, 62, 65, 67, 72, 85, 95, 109, 119,
        124, 127, 130, 132, 137, 142, 147, 150, 170, 177, 180, 182, 187, 192, 197, 204, 210, 215,
        238, 243, 249, 255, 257, 260, 262, 267,
    ];
    let wins = Subtraction::squares().outcomes(267, false).unwrap();
    let losses: Vec<u64> = (0..=267).filter(|&n| !wins[n as usize]).collect();
    assert_eq!(losses, A030193);
}

#[test]
fn empty_set_and_zero_are_errors() {
    assert_eq!(Subtraction::finite([]).unwrap_err(), games::Error::EmptySet);
    assert_eq!(
        Subtraction::finite([0, 2]).unwrap_err(),
        games::Error::ZeroInSet
    );
}

fn set() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(1u64..9, 1..4)
}

proptest! {
    /// The fast table, the generic memo solver, the indexed solver and the
    /// misère wrapper all agree.
    #[test]
    fn table_agrees_with_solver_dp(s in set(), misere: bool) {
        let g = Subtraction::finite(s).unwrap().with_limit(80);
        let table = g.outcomes(80, misere).unwrap();
        let check = |v: Option<game_core::Value>| v.unwrap().outcome() == Outcome::Win;
        if misere {
            let m = Misere(g.clone());
            let flat = solver_dp::solve_indexed(&m).unwrap();
            for n in 0..=80u64 {
                let memo = solver_dp::solve(&m, n).unwrap();
                prop_assert_eq!(table[n as usize], check(memo.value(&n)));
                prop_assert_eq!(table[n as usize], check(flat.value(&n)));
            }
        } else {
            let flat = solver_dp::solve_indexed(&g).unwrap();
            for n in 0..=80u64 {
                let memo = solver_dp::solve(&g, n).unwrap();
                prop_assert_eq!(table[n as usize], check(memo.value(&n)));
                prop_assert_eq!(table[n as usize], check(flat.value(&n)));
            }
        }
    }

    /// The proven period really is one, and is minimal, on a long table.
    #[test]
    fn proven_period_holds_far_out(s in set(), misere: bool) {
        let g = Subtraction::finite(s).unwrap();
        let p = g.outcome_period(misere).unwrap().unwrap();
        let t = g.outcomes(2000, misere).unwrap();
        let (l, per) = (p.preperiod as usize, p.period as usize);
        for n in l..t.len() - per {
            prop_assert_eq!(t[n], t[n + per]);
        }
        if l > 0 {
            prop_assert_ne!(t[l - 1], t[l - 1 + per]);
        }
        for d in 1..per {
            prop_assert!((l..t.len() - d).any(|n| t[n] != t[n + d]), "period {} not minimal", per);
        }
    }
}
