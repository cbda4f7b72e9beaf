//! The search against solver-dp's backward induction, an independent
//! solver: every position of random acyclic graphs and subtraction games.

use game_core::fixtures::{graphs, Graph};
use game_core::{Budget, Game, Misere, Outcome, SearchHints, SearchKey, Value};
use proptest::prelude::*;
use solver_retro::Solved;

use crate::{Config, Error, Searcher};

/// Every node of `g` searched, against solver-dp from that node.
fn agrees(g: &Graph, config: &Config) -> Result<(), TestCaseError> {
    let search = Searcher::new(g, config.clone()).unwrap();
    for p in 0..g.edges.len() {
        let want = solver_dp::solve(g, p).unwrap().value(&p).unwrap();
        prop_assert_eq!(search.value(&p).unwrap().value, want, "node {}", p);
        let a = search.analyze(&p).unwrap();
        prop_assert_eq!(a.value, want, "node {} analysed", p);
        if g.outcome(&p).is_none() {
            let kids: Vec<_> = g.edges[p]
                .iter()
                .map(|&c| solver_dp::solve(g, c).unwrap().value(&c).unwrap().parent())
                .collect();
            let got: Vec<_> = a.moves.iter().map(|(_, v)| *v).collect();
            prop_assert_eq!(got, kids, "moves of node {}", p);
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn random_dags_agree_with_dp(g in graphs(14, true)) {
        agrees(&g, &Config::new().with_table_bytes(1 << 12))?;
    }

    /// One slot: every key fights for it, and what it keeps stays true.
    #[test]
    fn a_table_of_one_slot_agrees(g in graphs(14, true)) {
        agrees(&g, &Config::new().with_table_bytes(1))?;
    }

    #[test]
    fn threads_give_the_same_answer(g in graphs(14, true)) {
        for t in [2, 4] {
            agrees(&g, &Config::new().with_threads(t).with_table_bytes(1 << 10))?;
        }
    }

    #[test]
    fn misere_agrees(g in graphs(12, true)) {
        let m = Misere(g.clone());
        let search = Searcher::new(&m, Config::new().with_table_bytes(1 << 10)).unwrap();
        for p in 0..g.edges.len() {
            let want = solver_dp::solve(&m, p).unwrap().value(&p).unwrap();
            prop_assert_eq!(search.value(&p).unwrap().value, want);
        }
    }

    /// A loopy graph: the search refuses it (naming a repetition it met),
    /// or answers as the retrograde solver does (a proof that met no
    /// repetition holds in the loopy game too).
    #[test]
    fn loopy_games_are_refused_or_answered(g in graphs(10, false)) {
        let search = Searcher::new(&g, Config::new().with_table_bytes(1 << 10)).unwrap();
        for p in 0..g.edges.len() {
            let retro = solver_retro::solve(&g, p).unwrap();
            match (search.value(&p), solver_dp::solve(&g, p)) {
                (Ok(f), _) => prop_assert_eq!(Some(f.value), retro.value(&p)),
                (Err(Error::Loopy { .. }), Err(solver_dp::Error::Cycle { .. })) => {}
                (a, b) => prop_assert!(false, "search {:?}, dp {:?}", a, b.map(|_| ())),
            }
        }
    }
}

/// Subtraction game: take one of `set` from a pile; whoever cannot move
/// loses. The bound on plies left and the progress are hints to check.
struct Subtraction(&'static [u32]);

impl Game for Subtraction {
    type Position = u32;
    type Move = u32;
    fn moves(&self, n: &u32, out: &mut Vec<u32>) {
        out.extend(self.0.iter().copied().filter(|t| t <= n));
    }
    fn play(&self, n: &u32, t: &u32) -> u32 {
        n - t
    }
}
impl SearchKey for Subtraction {
    fn search_key(&self, n: &u32) -> u64 {
        u64::from(*n)
    }
}
impl SearchHints for Subtraction {
    fn progress(&self, n: &u32) -> Option<u64> {
        Some(u64::from(u32::MAX - n))
    }
    fn plies_left(&self, n: &u32) -> Option<u32> {
        Some(*n / self.0.iter().min().copied().unwrap_or(1))
    }
    fn order_moves(&self, _: &u32, moves: &mut [u32]) {
        moves.reverse();
    }
}

#[test]
fn subtraction_games_agree_with_dp() {
    for set in [&[1u32, 2][..], &[1, 3, 4], &[2, 5, 7], &[3]] {
        let g = Subtraction(set);
        let search = Searcher::new(&g, Config::new().with_table_bytes(1 << 12)).unwrap();
        for n in 0..=200 {
            let dp = solver_dp::solve(&g, n).unwrap().value(&n).unwrap();
            assert_eq!(search.value(&n).unwrap().value, dp, "{set:?} {n}");
        }
    }
}

/// A pile that only shrinks by one, a million deep: the explicit stack
/// holds the path on the heap (the call stack would overflow).
#[test]
fn a_long_game_does_not_overflow() {
    let g = Subtraction(&[1]);
    let search = Searcher::new(&g, Config::new().with_table_bytes(1 << 10)).unwrap();
    assert_eq!(
        search.value(&1_000_000).unwrap().value,
        Value::lose(1_000_000)
    );
}

#[test]
fn the_work_budget_stops_the_search() {
    let g = Subtraction(&[1]);
    let budget = Budget::unlimited().with_work(100_000);
    let search = Searcher::new(
        &g,
        Config::new().with_table_bytes(1 << 10).with_budget(budget),
    )
    .unwrap();
    match search.value(&1_000_000) {
        Err(Error::TooLarge(t)) => assert_eq!(t.resource, game_core::budget::Resource::Work),
        other => panic!("{other:?}"),
    }
    // A small position still fits.
    assert_eq!(search.value(&10).unwrap().value, Value::lose(10));
}

#[test]
fn a_table_over_the_memory_budget_is_refused() {
    let g = Subtraction(&[1]);
    let config = Config::new()
        .with_table_bytes(1 << 30)
        .with_budget(Budget::unlimited().with_memory(1 << 20));
    assert!(matches!(
        Searcher::new(&g, config).err(),
        Some(Error::TooLarge(_))
    ));
}

#[test]
fn a_cycle_is_refused_naming_the_retrograde_solver() {
    let g = Graph {
        edges: vec![vec![1], vec![2], vec![0]],
        ends: vec![None; 3],
    };
    let search = Searcher::new(&g, Config::new()).unwrap();
    let err = search.value(&0).unwrap_err();
    assert_eq!(err, Error::Loopy { depth: 3 });
    assert!(err.to_string().contains("solver-retro"));
}

/// Ties: the fastest tie is found, whichever children tie slower.
#[test]
fn the_fastest_tie_is_found() {
    // 0 → 1 (a tie in 3 through 2, 3) or 4 (tied now); 4 is a tie at once.
    let g = Graph {
        edges: vec![vec![1, 4], vec![2], vec![3], vec![], vec![]],
        ends: vec![None, None, None, Some(Outcome::Tie), Some(Outcome::Tie)],
    };
    let search = Searcher::new(&g, Config::new()).unwrap();
    assert_eq!(search.value(&0).unwrap().value, Value::tie(1));
    assert_eq!(search.value(&1).unwrap().value, Value::tie(2));
}

/// A game whose progress does not grow breaks its promise: an error, not
/// a wrong answer or a hang.
#[test]
fn a_broken_progress_is_an_error() {
    struct Liar;
    impl Game for Liar {
        type Position = u32;
        type Move = u32;
        fn moves(&self, n: &u32, out: &mut Vec<u32>) {
            out.push((n + 1) % 3);
        }
        fn play(&self, _: &u32, t: &u32) -> u32 {
            *t
        }
    }
    impl SearchKey for Liar {
        fn search_key(&self, n: &u32) -> u64 {
            u64::from(*n)
        }
    }
    impl SearchHints for Liar {
        fn progress(&self, _: &u32) -> Option<u64> {
            Some(1)
        }
    }
    let search = Searcher::new(&Liar, Config::new()).unwrap();
    assert!(matches!(search.value(&0), Err(Error::Broken(_))));
}
