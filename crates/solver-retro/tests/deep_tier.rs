//! A loopy tier deeper than the levels a packed event can carry (2²²):
//! the engine must not let a deep level's key wrap onto a shallow level's
//! events. Before the fix the position below came out `Lose(4194306)`.

use game_core::{Game, Outcome, Tier, Tiered, Unmoves, Value};
use solver_retro::Solved;

/// The chain's top index: its value is `Win(N)`.
const N: u64 = (1 << 22) + 1;

/// Tier 0: one terminal position, a tie. Tier 1: a chain where index `k`
/// moves to `k - 1` and index 0 has no move (lost), and one more position
/// `N + 1` with two moves, to the tie of tier 0 and to the chain's top.
struct Chain;

impl Game for Chain {
    type Position = (u64, u64);
    type Move = (u64, u64);
    fn moves(&self, p: &(u64, u64), out: &mut Vec<(u64, u64)>) {
        match *p {
            (1, k) if k == N + 1 => out.extend([(0, 0), (1, N)]),
            (1, k) if k > 0 => out.push((1, k - 1)),
            _ => {}
        }
    }
    fn play(&self, _: &(u64, u64), m: &(u64, u64)) -> (u64, u64) {
        *m
    }
    fn outcome(&self, p: &(u64, u64)) -> Option<Outcome> {
        (p.0 == 0).then_some(Outcome::Tie)
    }
}

impl Unmoves for Chain {
    fn unmoves(&self, p: &(u64, u64), out: &mut Vec<(u64, u64)>) {
        match *p {
            (0, 0) | (1, N) => out.push((1, N + 1)),
            (1, k) if k < N => out.push((1, k + 1)),
            _ => {}
        }
    }
}

impl Tiered for Chain {
    fn tiers(&self) -> Vec<Tier> {
        vec![0, 1]
    }
    fn tier(&self, p: &(u64, u64)) -> Tier {
        p.0
    }
    fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>) {
        if t == 1 {
            out.push(0);
        }
    }
    fn tier_size(&self, t: Tier) -> u64 {
        if t == 0 {
            1
        } else {
            N + 2
        }
    }
    fn tier_index(&self, p: &(u64, u64)) -> u64 {
        p.1
    }
    fn tier_position(&self, t: Tier, i: u64) -> Option<(u64, u64)> {
        (t <= 1 && i < self.tier_size(t)).then_some((t, i))
    }
}

#[test]
fn a_tie_outside_a_tier_deeper_than_the_event_levels() {
    for threads in [1, 2] {
        let config = solver_retro::Config::default().threads(threads);
        let sol = solver_retro::solve_tiers_unmoves(&Chain, &config, &mut solver_retro::NoStore)
            .expect("solves");
        // Independent facts: the chain alternates from a loss at 0.
        assert_eq!(sol.value(&(1, 0)), Some(Value::lose(0)));
        assert_eq!(sol.value(&(1, N)), Some(Value::win(N as u32)));
        // Children Win(N) and Tie(0): the best is the tie, in 1.
        assert_eq!(
            sol.value(&(1, N + 1)),
            Some(Value::tie(1)),
            "{threads} threads"
        );
    }
}
