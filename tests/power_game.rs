//! PowerGame: the problem's examples, and three methods that must agree —
//! the per-pile method, `solver-dp` on the two-pile game, and a brute force
//! written here from the rules.

use std::collections::HashMap;

use games::power_game::{verdict_of, winner, Verdict};
use games::PowerGame;

#[test]
fn the_problems_examples() {
    let cases = [
        ((10000, 10000), "Alan will win after 1 moves"),
        ((4, 9), "Alan will win after 1 moves"),
        ((4, 3), "Alan will win after 1 moves"),
        ((2, 3), "Bob will win after 2 moves"),
        ((7, 13), "Bob will win after 4 moves"),
    ];
    for ((a, b), want) in cases {
        assert_eq!(winner(a, b).unwrap().to_string(), want, "({a}, {b})");
    }
}

/// Remoteness of the two-pile game by plain recursion on the rules:
/// win fast, lose slow. Returns (mover wins, plies).
fn brute(a: u64, b: u64, memo: &mut HashMap<(u64, u64), (bool, u64)>) -> (bool, u64) {
    if let Some(&r) = memo.get(&(a, b)) {
        return r;
    }
    let sq = |n: u64| (1u64..).map(|k| k * k).take_while(move |&s| s <= n);
    let mut best_win: Option<u64> = None;
    let mut worst_loss: Option<u64> = None;
    for i in sq(a) {
        for j in sq(b) {
            let (child_wins, plies) = brute(a - i, b - j, memo);
            if child_wins {
                worst_loss = Some(worst_loss.map_or(plies, |w: u64| w.max(plies)));
            } else {
                best_win = Some(best_win.map_or(plies, |w: u64| w.min(plies)));
            }
        }
    }
    let r = match (best_win, worst_loss) {
        (Some(w), _) => (true, w + 1),
        (None, Some(l)) => (false, l + 1),
        (None, None) => (false, 0),
    };
    memo.insert((a, b), r);
    r
}

#[test]
fn per_pile_method_dp_and_brute_force_agree_up_to_60x60() {
    let n = 60;
    let game = PowerGame::new(n);
    let sol = solver_dp::solve_indexed(&game).unwrap();
    let mut memo = HashMap::new();
    for a in 0..=n {
        for b in 0..=n {
            let fast = winner(a, b).unwrap();
            let dp = verdict_of(sol.value(&(a, b)).unwrap());
            let (wins, plies) = brute(a, b, &mut memo);
            let bf = Verdict {
                alan_wins: wins,
                moves: plies,
            };
            assert_eq!(fast, dp, "({a}, {b})");
            assert_eq!(fast, bf, "({a}, {b})");
        }
    }
}

#[test]
fn oversized_piles_are_refused() {
    let Err(games::Error::TooLarge(t)) = winner(u64::MAX, 1) else {
        panic!("expected TooLarge");
    };
    assert!(t.needed > t.available, "{t}");
    // Over the work budget, refused before any table is taken.
    let small = game_core::Budget::available().with_work(1_000_000);
    let Err(games::Error::TooLarge(t)) = games::power_game::winner_with(134_217_728, 1, &small)
    else {
        panic!("expected TooLarge");
    };
    assert_eq!(t.resource, game_core::budget::Resource::Work);
    // (2/3)·n^1.5 squares looked at, two steps each: about 2.1e12 for n = 2^27.
    assert!((2.0e12..2.2e12).contains(&(t.needed as f64)), "{t}");
}
