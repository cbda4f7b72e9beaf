//! Unit tests: brute force against both solvers, deep games, cycles.

// The random games ([`graph`]): nodes `0..n` whose edges go to higher
// nodes (acyclic unless `back` adds an edge down), some of them ending the
// game with a given outcome.
use game_core::fixtures::{graphs, Graph};
use game_core::{Game, Outcome, Value};
use proptest::prelude::*;

use crate::{solve, solve_indexed, solve_indexed_with_limit, Error};

/// Plain recursive minimax straight from the definitions (no memo, no
/// shared code): the reference.
fn brute(g: &Graph, p: usize) -> Value {
    if let Some(o) = g.ends[p] {
        return Value::new(o, 0);
    }
    if g.edges[p].is_empty() {
        return Value::lose(0);
    }
    let kids: Vec<Value> = g.edges[p].iter().map(|&c| brute(g, c)).collect();
    let r = |v: &Value| v.remoteness().unwrap();
    let lost: Vec<u32> = kids
        .iter()
        .filter(|v| v.outcome() == Outcome::Lose)
        .map(r)
        .collect();
    if let Some(m) = lost.iter().min() {
        return Value::win(m + 1);
    }
    let ties: Vec<u32> = kids
        .iter()
        .filter(|v| v.outcome() == Outcome::Tie)
        .map(r)
        .collect();
    if let Some(m) = ties.iter().min() {
        return Value::tie(m + 1);
    }
    Value::lose(kids.iter().map(r).max().unwrap() + 1)
}

/// Acyclic random games of up to 13 nodes ([`graphs`]).
fn graph() -> impl Strategy<Value = Graph> {
    graphs(14, true)
}

proptest! {
    #[test]
    fn memo_and_indexed_agree_with_brute_force(g in graph()) {
        let flat = solve_indexed(&g).unwrap();
        for p in 0..g.edges.len() {
            let want = brute(&g, p);
            prop_assert_eq!(flat.value(&p), Some(want));
            let memo = solve(&g, p).unwrap();
            prop_assert_eq!(memo.value(&p), Some(want));
            // The best move achieves the value.
            if let Some((mv, v)) = memo.best_move(&p) {
                prop_assert_eq!(v, want);
                prop_assert_eq!(brute(&g, mv).parent(), want);
            } else {
                prop_assert_eq!(want.remoteness(), Some(0));
            }
        }
    }

    #[test]
    fn a_back_edge_is_a_cycle_error(g in graph(), from in 0usize..14, to in 0usize..14) {
        let n = g.edges.len();
        let (from, to) = (from % n, to % n);
        prop_assume!(to <= from && g.ends[from].is_none() && g.ends[to].is_none());
        let mut g = g;
        g.edges[from].push(to);
        // Is `from` reachable from `to`? Then there is a cycle through the new edge.
        let mut seen = vec![false; n];
        let mut stack = vec![to];
        while let Some(p) = stack.pop() {
            if seen[p] { continue; }
            seen[p] = true;
            if g.ends[p].is_none() { stack.extend(g.edges[p].iter().copied()); }
        }
        let reachable_cycle = seen[from];
        let res = solve_indexed(&g);
        prop_assert_eq!(res.is_err(), reachable_cycle);
        if let Err(e) = res {
            prop_assert!(matches!(e, Error::Cycle { .. }), "unexpected error {e:?}");
        }
    }
}

/// A single pile where a move takes exactly one stone: `n` plies deep.
struct Chain;
impl Game for Chain {
    type Position = u64;
    type Move = ();
    fn moves(&self, n: &u64, out: &mut Vec<()>) {
        if *n > 0 {
            out.push(());
        }
    }
    fn play(&self, n: &u64, _: &()) -> u64 {
        n - 1
    }
}

#[test]
fn a_million_plies_do_not_overflow_the_stack() {
    let sol = solve(&Chain, 1_000_000).unwrap();
    // Odd piles are won, in exactly n plies.
    assert_eq!(sol.value(&1_000_000), Some(Value::lose(1_000_000)));
    assert_eq!(sol.value(&999_999), Some(Value::win(999_999)));
}

#[test]
fn a_self_loop_is_reported_not_hung() {
    struct Loop;
    impl Game for Loop {
        type Position = u8;
        type Move = u8;
        fn moves(&self, _: &u8, out: &mut Vec<u8>) {
            out.push(0);
        }
        fn play(&self, _: &u8, to: &u8) -> u8 {
            *to
        }
    }
    let err = solve(&Loop, 0).unwrap_err();
    assert_eq!(err, Error::Cycle { depth: 1 });
    assert!(err.to_string().contains("solver-retro"));
}

#[test]
fn a_table_over_the_limit_is_refused() {
    let g = Graph {
        edges: vec![vec![]; 10],
        ends: vec![None; 10],
    };
    let Error::TooLarge(t) = solve_indexed_with_limit(&g, 39).unwrap_err() else {
        panic!("expected TooLarge");
    };
    assert_eq!((t.needed, t.available), (40, 39));
    assert!(solve_indexed_with_limit(&g, 40).is_ok());
}

/// Counting up forever: every position is new, so the memo grows until
/// the budget refuses it (a game the size of 5×5 Connect Four would do the
/// same, only later).
#[test]
fn a_memo_outgrowing_the_budget_is_refused_before_the_memory_is_taken() {
    struct Up;
    impl Game for Up {
        type Position = u64;
        type Move = ();
        fn moves(&self, n: &u64, out: &mut Vec<()>) {
            if *n < 1 << 40 {
                out.push(());
            }
        }
        fn play(&self, n: &u64, _: &()) -> u64 {
            n + 1
        }
    }
    let budget = game_core::Budget::unlimited().with_memory(4 << 20);
    let Error::TooLarge(t) = crate::solve_with(&Up, 0, &budget).unwrap_err() else {
        panic!("expected TooLarge");
    };
    assert_eq!(t.resource, game_core::budget::Resource::Memory);
    assert!(t.needed > 4 << 20 && t.available == 4 << 20, "{t}");
    // A table that fits is solved: positions 0..=n, n plies.
    struct UpTo(u64);
    impl Game for UpTo {
        type Position = u64;
        type Move = ();
        fn moves(&self, n: &u64, out: &mut Vec<()>) {
            if *n < self.0 {
                out.push(());
            }
        }
        fn play(&self, n: &u64, _: &()) -> u64 {
            n + 1
        }
    }
    let sol = crate::solve_with(&UpTo(10_000), 0, &budget).unwrap();
    assert_eq!(sol.value(&0), Some(Value::lose(10_000)));
}

/// A search whose path holds many moves a position: node `p` moves to
/// `p + 1` by 100 moves (one edge repeated), 10,000 positions deep, so the
/// moves listed on the way (8 MB) dwarf the table. The budget counts the
/// path beside the table, in both solvers; a game 2 million deep with 600
/// moves a position took 9.6 GB and aborted the process before.
#[test]
fn a_search_path_outgrowing_the_budget_is_refused() {
    let n = 10_001;
    let g = Graph {
        edges: (0..n)
            .map(|p| if p + 1 < n { vec![p + 1; 100] } else { vec![] })
            .collect(),
        ends: vec![None; n],
    };
    let small = game_core::Budget::unlimited().with_memory(1 << 20);
    for result in [
        crate::solve_with(&g, 0, &small).map(|_| ()),
        crate::solve_indexed_with(&g, &small).map(|_| ()),
    ] {
        let Err(Error::TooLarge(t)) = result else {
            panic!("expected TooLarge, got {result:?}");
        };
        assert!(t.what.starts_with("the search path"), "{t}");
        assert!(t.needed > 1 << 20 && t.available == 1 << 20, "{t}");
    }
    // With room for the path, the same game is solved: node 0 is 10,000
    // moves from the end, an even number, so it is lost.
    let roomy = game_core::Budget::unlimited().with_memory(64 << 20);
    let sol = crate::solve_with(&g, 0, &roomy).unwrap();
    assert_eq!(sol.value(&0), Some(Value::lose(10_000)));
    let sol = crate::solve_indexed_with(&g, &roomy).unwrap();
    assert_eq!(sol.value(&0), Some(Value::lose(10_000)));
}

/// A finished position scored as a draw is the game's error, whether the
/// game says so through `outcome` or through `stalemate`.
#[test]
fn a_terminal_draw_is_the_games_error() {
    struct DrawEnd(bool);
    impl Game for DrawEnd {
        type Position = u8;
        type Move = ();
        fn moves(&self, n: &u8, out: &mut Vec<()>) {
            if *n > 0 {
                out.push(());
            }
        }
        fn play(&self, n: &u8, _: &()) -> u8 {
            n - 1
        }
        fn outcome(&self, n: &u8) -> Option<Outcome> {
            (self.0 && *n == 0).then_some(Outcome::Draw)
        }
        fn stalemate(&self, _: &u8) -> Outcome {
            Outcome::Draw
        }
    }
    for via_outcome in [true, false] {
        assert_eq!(
            solve(&DrawEnd(via_outcome), 3).unwrap_err(),
            Error::TerminalDraw
        );
    }
}

/// A game whose `moves` clears the buffer before listing (it must only
/// append): the solvers hand it an empty buffer of its own, so the moves
/// of the positions below it on the path are untouched. Given the shared
/// arena, it wiped them: take 1 or 2 from 10 was "won in 1" and 9 "lost
/// at once", with nothing reported.
#[test]
fn a_game_that_clears_its_move_buffer_is_solved_right() {
    struct Clearing(u64);
    impl Game for Clearing {
        type Position = u64;
        type Move = u64;
        fn moves(&self, n: &u64, out: &mut Vec<u64>) {
            out.clear();
            out.extend((1..=2).filter(|t| t <= n));
        }
        fn play(&self, n: &u64, t: &u64) -> u64 {
            n - t
        }
    }
    impl game_core::Indexed for Clearing {
        fn size(&self) -> u64 {
            self.0 + 1
        }
        fn index(&self, n: &u64) -> u64 {
            // Numbered downwards: the indexed solver searches from 10 too.
            self.0 - n
        }
        fn position(&self, i: u64) -> Option<u64> {
            self.0.checked_sub(i)
        }
    }
    let want = |n: u64| {
        let r = 2 * (n / 3) as u32;
        if n.is_multiple_of(3) {
            Value::lose(r)
        } else {
            Value::win(r + 1)
        }
    };
    let memo = solve(&Clearing(10), 10).unwrap();
    let flat = solve_indexed(&Clearing(10)).unwrap();
    for n in 0..=10 {
        assert_eq!(memo.value(&n), Some(want(n)), "memo, pile {n}");
        assert_eq!(flat.value(&n), Some(want(n)), "indexed, pile {n}");
    }
}

/// An [`Indexed`](game_core::Indexed) game whose `position` is not the
/// inverse of its `index`: position(10) is pile 3, though pile 10 has
/// index 10. Index 10 was left unsolved and read as standing for no
/// position (pile 10 had no value), with nothing reported; now the
/// game's error.
#[test]
fn a_position_of_another_index_is_the_games_error() {
    struct Skewed;
    impl Game for Skewed {
        type Position = u64;
        type Move = ();
        fn moves(&self, n: &u64, out: &mut Vec<()>) {
            if *n > 0 {
                out.push(());
            }
        }
        fn play(&self, n: &u64, _: &()) -> u64 {
            n - 1
        }
    }
    impl game_core::Indexed for Skewed {
        fn size(&self) -> u64 {
            11
        }
        fn index(&self, n: &u64) -> u64 {
            *n
        }
        fn position(&self, i: u64) -> Option<u64> {
            Some(if i == 10 { 3 } else { i })
        }
    }
    let err = solve_indexed(&Skewed).unwrap_err();
    assert_eq!(
        err,
        Error::Game(game_core::Error::InvalidPosition(
            "position(10) has index 3, not 10".into()
        ))
    );
}
