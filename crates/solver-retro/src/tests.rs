//! Unit tests: three solver paths against a reference computed by a
//! different method, against solver-dp on acyclic games, and the checker
//! against tampered tables.

// The random games: nodes `0..n` with arbitrary edges (cycles allowed),
// some of them ending the game with a given outcome.
use game_core::fixtures::{graphs, Graph};
use game_core::{Game, Indexed, IndexedUnmoves, Outcome, ParentIndices, Unmoves, Value};
use proptest::prelude::*;

use crate::fixtures::{Liar, Lie};
use crate::{certify, solve, solve_indexed, solve_unmoves, solve_with, Config, Error, Solved};

impl game_core::IndexedChildren for Capable {}

/// The same graph with the optional capabilities switched on: terminals
/// listed (each twice: the solver must queue a terminal once), and with
/// `bulk` also children counted in bulk and parents given as runs of
/// consecutive indices where they are consecutive.
#[derive(Debug, Clone)]
struct Capable {
    graph: Graph,
    bulk: bool,
}

impl Game for Capable {
    type Position = usize;
    type Move = usize;
    fn moves(&self, p: &usize, out: &mut Vec<usize>) {
        self.graph.moves(p, out);
    }
    fn play(&self, p: &usize, to: &usize) -> usize {
        self.graph.play(p, to)
    }
    fn outcome(&self, p: &usize) -> Option<Outcome> {
        self.graph.outcome(p)
    }
}

impl Indexed for Capable {
    fn size(&self) -> u64 {
        self.graph.size()
    }
    fn index(&self, p: &usize) -> u64 {
        *p as u64
    }
    fn position(&self, i: u64) -> Option<usize> {
        Some(i as usize)
    }
}

impl Unmoves for Capable {
    fn unmoves(&self, c: &usize, out: &mut Vec<usize>) {
        self.graph.unmoves(c, out);
    }
}

impl IndexedUnmoves for Capable {
    fn terminal_indices(&self, out: &mut Vec<u64>) -> bool {
        let g = &self.graph;
        let ends = (0..g.edges.len()).filter(|&p| g.ends[p].is_some() || g.edges[p].is_empty());
        out.extend(ends.flat_map(|p| [p as u64, p as u64]));
        true
    }
    fn child_counts(&self, first: u64, out: &mut [u32]) -> bool {
        if !self.bulk {
            return false;
        }
        for (k, o) in out.iter_mut().enumerate() {
            let mut kids = self.graph.edges[first as usize + k].clone();
            kids.sort_unstable();
            kids.dedup();
            *o = kids.len() as u32;
        }
        true
    }
    fn unmove_indices(&self, index: u64, out: &mut ParentIndices, scratch: &mut Vec<usize>) {
        if !self.bulk {
            out.singles.extend(self.graph.parents(index as usize));
            return;
        }
        scratch.clear();
        self.unmoves(&(index as usize), scratch);
        scratch.sort_unstable();
        let mut i = 0;
        while i < scratch.len() {
            let mut j = i + 1;
            while j < scratch.len() && scratch[j] == scratch[j - 1] + 1 {
                j += 1;
            }
            if j - i == 1 {
                out.singles.push(scratch[i] as u64);
            } else {
                out.runs.push(scratch[i] as u64..scratch[j - 1] as u64 + 1);
            }
            i = j;
        }
    }
}

/// The reference: values by sweeping all positions level by level (no
/// queue, no counters): at level k a position is won if a child was lost
/// by level k−1, lost if every child was won by level k−1; then ties the
/// same way; the rest are draws.
fn reference(g: &Graph) -> Vec<Value> {
    let n = g.edges.len();
    let mut val: Vec<Option<Value>> = (0..n)
        .map(|p| match g.ends[p] {
            Some(o) => Some(Value::new(o, 0)),
            None if g.edges[p].is_empty() => Some(Value::lose(0)),
            None => None,
        })
        .collect();
    let decisive = |v: Option<Value>| v.filter(|v| v.outcome() != Outcome::Tie);
    for k in 1..=n as u32 + 1 {
        let prev = val.clone();
        for p in 0..n {
            if prev[p].is_some() {
                continue;
            }
            let kids: Vec<Option<Value>> = g.edges[p].iter().map(|&c| decisive(prev[c])).collect();
            if kids
                .iter()
                .any(|v| v.is_some_and(|v| v.outcome() == Outcome::Lose))
            {
                val[p] = Some(Value::win(k));
            } else if kids
                .iter()
                .all(|v| v.is_some_and(|v| v.outcome() == Outcome::Win))
            {
                val[p] = Some(Value::lose(k));
            }
        }
    }
    for k in 1..=n as u32 + 1 {
        let prev = val.clone();
        for p in 0..n {
            if prev[p].is_none()
                && g.edges[p]
                    .iter()
                    .any(|&c| prev[c].is_some_and(|v| v.outcome() == Outcome::Tie))
            {
                val[p] = Some(Value::tie(k));
            }
        }
    }
    val.into_iter().map(|v| v.unwrap_or(Value::DRAW)).collect()
}

/// Random games of up to 11 nodes, cyclic or not ([`graphs`]).
fn graph(acyclic: bool) -> impl Strategy<Value = Graph> {
    graphs(12, acyclic)
}

/// Larger random games (up to 300 positions), so that tables split among
/// many owners.
fn big_graph() -> impl Strategy<Value = Graph> {
    (1usize..300).prop_flat_map(move |n| {
        let edges = (0..n)
            .map(move |_| prop::collection::vec(0..n, 0..5))
            .collect::<Vec<_>>();
        let ends = prop::collection::vec(
            prop_oneof![
                8 => Just(None),
                1 => Just(Some(Outcome::Win)),
                2 => Just(Some(Outcome::Lose)),
                1 => Just(Some(Outcome::Tie)),
            ],
            n,
        );
        (edges, ends).prop_map(|(edges, ends)| Graph { edges, ends })
    })
}

proptest! {
    #[test]
    fn all_paths_agree_with_the_reference(g in graph(false)) {
        let want = reference(&g);
        let flat = solve_indexed(&g).unwrap();
        let fast = solve_unmoves(&g).unwrap();
        let listed = Capable { graph: g.clone(), bulk: false };
        let lazy = solve_unmoves(&listed).unwrap();
        let with_bulk = Capable { graph: g.clone(), bulk: true };
        let bulk = solve_unmoves(&with_bulk).unwrap();
        prop_assert!(certify(&bulk).is_ok());
        prop_assert!(certify(&lazy).is_ok());
        prop_assert!(certify(&flat).is_ok());
        prop_assert!(certify(&fast).is_ok());
        for (p, &w) in want.iter().enumerate() {
            prop_assert_eq!(flat.value(&p), Some(w), "stored indexed at {}", p);
            prop_assert_eq!(fast.value(&p), Some(w), "unmoves at {}", p);
            prop_assert_eq!(lazy.value(&p), Some(w), "lazy unmoves at {}", p);
            prop_assert_eq!(bulk.value(&p), Some(w), "bulk counts and runs at {}", p);
            let from = solve(&g, p).unwrap();
            prop_assert_eq!(from.value(&p), Some(w), "hash from {}", p);
            prop_assert!(certify(&from).is_ok());
        }
    }

    /// Any number of threads (and so of owners, down to one id each) gives
    /// the same value and best move everywhere, on every path.
    #[test]
    fn threads_do_not_change_the_table(g in big_graph()) {
        let want = reference(&g);
        let bulk = Capable { graph: g.clone(), bulk: true };
        let listed = Capable { graph: g.clone(), bulk: false };
        for threads in [1, 2, 4] {
            let config = Config::default().threads(threads);
            let fast = crate::solve_unmoves_with(&g, &config).unwrap();
            let runs = crate::solve_unmoves_with(&bulk, &config).unwrap();
            let lazy = crate::solve_unmoves_with(&listed, &config).unwrap();
            let flat = crate::solve_indexed_with(&g, &config).unwrap();
            let from = solve_with(&g, 0, &config).unwrap();
            for (p, &w) in want.iter().enumerate() {
                prop_assert_eq!(fast.value(&p), Some(w), "{} threads, unmoves at {}", threads, p);
                prop_assert_eq!(runs.value(&p), Some(w), "{} threads, runs at {}", threads, p);
                prop_assert_eq!(lazy.value(&p), Some(w), "{} threads, lazy at {}", threads, p);
                prop_assert_eq!(flat.value(&p), Some(w), "{} threads, stored at {}", threads, p);
                prop_assert_eq!(runs.best_move(&p), fast.best_move(&p));
                if let Some(v) = from.value(&p) {
                    prop_assert_eq!(v, w, "{} threads, from the start at {}", threads, p);
                }
            }
            prop_assert!(crate::certify_indexed(&runs).is_ok());
        }
    }

    #[test]
    fn acyclic_games_agree_with_solver_dp(g in graph(true)) {
        let dp = solver_dp::solve_indexed(&g).unwrap();
        let retro = solve_unmoves(&g).unwrap();
        for p in 0..g.edges.len() {
            prop_assert_eq!(retro.value(&p), dp.value(&p));
            let (a, b) = (retro.best_move(&p), dp.best_move(&p));
            prop_assert_eq!(a, b);
        }
    }

    /// Changing any one value makes the checker reject the table.
    #[test]
    fn tampered_tables_are_rejected(g in graph(false), at in 0usize..12, pick in 0usize..7) {
        let sol = solve_indexed(&g).unwrap();
        let at = at % g.edges.len();
        let truth = sol.value(&at).unwrap();
        let choices = [
            Value::win(1), Value::win(3), Value::lose(0), Value::lose(2),
            Value::tie(1), Value::DRAW, Value::win(0),
        ];
        let fake = choices[pick];
        prop_assume!(fake != truth);
        let tampered = Tampered { inner: &sol, at, fake };
        let rejection = certify(&tampered);
        prop_assert!(rejection.is_err(), "accepted {fake} for {truth} at {at}");
    }
}

struct Tampered<'a, S> {
    inner: &'a S,
    at: usize,
    fake: Value,
}

impl<S: Solved<Game = Graph>> Solved for Tampered<'_, S> {
    type Game = Graph;
    fn game(&self) -> &Graph {
        self.inner.game()
    }
    fn value(&self, p: &usize) -> Option<Value> {
        if *p == self.at {
            Some(self.fake)
        } else {
            self.inner.value(p)
        }
    }
    fn len(&self) -> u64 {
        self.inner.len()
    }
    fn for_each(&self, mut f: impl FnMut(&usize, Value)) {
        self.inner.for_each(|p, _| f(p, self.value(p).unwrap()));
    }
}

#[test]
fn a_game_with_no_end_is_all_draws() {
    let g = Graph {
        edges: vec![vec![1], vec![2], vec![0, 1]],
        ends: vec![None; 3],
    };
    let sol = solve_unmoves(&g).unwrap();
    for p in 0..3 {
        assert_eq!(sol.value(&p), Some(Value::DRAW));
    }
    assert_eq!(sol.counts().draw, 3);
    assert!(certify(&sol).is_ok());
}

#[test]
fn a_graph_over_the_memory_limit_is_refused() {
    let g = Graph {
        edges: vec![vec![1, 2], vec![0, 2], vec![0, 1]],
        ends: vec![None; 3],
    };
    let err = solve_with(&g, 0, &Config::default().memory_limit(40)).unwrap_err();
    assert!(matches!(err, Error::TooLarge(_)), "{err:?}");
    assert!(err.to_string().contains("does not fit"));
    let err = crate::solve_indexed_with(&g, &Config::default().memory_limit(40)).unwrap_err();
    assert!(matches!(err, Error::TooLarge(_)));
}

#[test]
fn long_remoteness_widens_the_cells() {
    // A chain 0 <- 1 <- ... <- 9999 with a loop at the top: remoteness up
    // to 9999 does not fit 13 bits, so the unmoves path switches to u32.
    let n = 10_000;
    let mut edges: Vec<Vec<usize>> = (0..n)
        .map(|i| if i == 0 { vec![] } else { vec![i - 1] })
        .collect();
    edges[n - 1].push(n - 1);
    let g = Graph {
        edges,
        ends: vec![None; n],
    };
    let sol = solve_unmoves(&g).unwrap();
    assert_eq!(sol.bytes_per_position(), 4);
    assert_eq!(sol.value(&9000), Some(Value::lose(9000)));
    assert_eq!(sol.value(&(n - 1)), Some(Value::win(n as u32 - 1)));
    assert!(certify(&sol).is_ok());
}

/// Position 0 moves to any of `kids` dead ends (lost for the mover
/// there); position `kids + 1` moves only to 0. Children counted in bulk.
struct Fan {
    kids: usize,
}

impl Game for Fan {
    type Position = usize;
    type Move = usize;
    fn moves(&self, p: &usize, out: &mut Vec<usize>) {
        match *p {
            0 => out.extend(1..=self.kids),
            p if p == self.kids + 1 => out.push(0),
            _ => {}
        }
    }
    fn play(&self, _: &usize, m: &usize) -> usize {
        *m
    }
}

impl Indexed for Fan {
    fn size(&self) -> u64 {
        self.kids as u64 + 2
    }
    fn index(&self, p: &usize) -> u64 {
        *p as u64
    }
    fn position(&self, i: u64) -> Option<usize> {
        (i < self.size()).then_some(i as usize)
    }
}

impl Unmoves for Fan {
    fn unmoves(&self, c: &usize, out: &mut Vec<usize>) {
        match *c {
            0 => out.push(self.kids + 1),
            c if c <= self.kids => out.push(0),
            _ => {}
        }
    }
}

impl IndexedUnmoves for Fan {
    fn child_counts(&self, first: u64, out: &mut [u32]) -> bool {
        for (k, o) in out.iter_mut().enumerate() {
            let mut kids = Vec::new();
            self.moves(&(first as usize + k), &mut kids);
            *o = kids.len() as u32;
        }
        true
    }
}

#[test]
fn many_children_counted_in_bulk_widen_the_cells() {
    // More children than a 2-byte cell counts (2^15 - 1), counted in
    // bulk: 40,000 comes through the 16-bit counts as it is, 70,000
    // saturated at 65,535; either way the solve moves to 4-byte cells.
    for kids in [40_000usize, 70_000] {
        let g = Fan { kids };
        let mut narrow = [0u16; 2];
        assert!(g.child_counts_narrow(0, &mut narrow));
        assert_eq!(narrow, [kids.min(65_535) as u16, 0]);
        let sol = solve_unmoves(&g).unwrap();
        assert_eq!(sol.bytes_per_position(), 4, "{kids} children");
        assert_eq!(sol.value(&0), Some(Value::win(1)));
        assert_eq!(sol.value(&(kids + 1)), Some(Value::lose(2)));
        assert_eq!(sol.value(&kids), Some(Value::lose(0)));
        assert!(certify(&sol).is_ok());
    }
    // Fewer, and the cells stay 2 bytes.
    let sol = solve_unmoves(&Fan { kids: 30_000 }).unwrap();
    assert_eq!(sol.bytes_per_position(), 2);
    assert_eq!(sol.value(&30_001), Some(Value::lose(2)));
}

#[test]
fn dot_export_colours_values() {
    let g = Graph {
        edges: vec![vec![], vec![0], vec![1, 2]],
        ends: vec![None; 3],
    };
    let sol = solve(&g, 2).unwrap();
    let dot = crate::to_dot(&sol, &2, 10, |p| format!("n{p}"), |m| format!("to {m}"));
    assert!(dot.contains("lightcoral"), "{dot}"); // 0 is lost
    assert!(dot.contains("palegreen")); // 1 is won
    assert!(dot.contains("khaki")); // 2: stay (draw) rather than lose
    assert!(dot.contains("to 1"));
}

/// One edge a distinct child, however many moves lead there (a position
/// with 30 million moves to itself made 30 million edges and aborted the
/// process); a position the solution does not hold is drawn as unknown,
/// not as a draw.
#[test]
fn dot_draws_an_edge_a_child_and_unknown_positions_as_such() {
    let mut edges = vec![1; 1000];
    edges.extend([2; 5]);
    let g = Graph {
        edges: vec![edges, vec![], vec![1]],
        ends: vec![None; 3],
    };
    let sol = solve(&g, 0).unwrap();
    let drawn = crate::graph(&sol, &0, 10, |p| format!("n{p}"), |m| format!("to {m}"));
    assert_eq!((drawn.node_count(), drawn.edge_count()), (3, 3));
    let labels: Vec<&String> = drawn.edge_weights().collect();
    assert!(
        labels.contains(&&"to 1, to 1, to 1 (+997 more)".to_string()),
        "{labels:?}"
    );
    assert!(
        labels.contains(&&"to 2, to 2, to 2 (+2 more)".to_string()),
        "{labels:?}"
    );
    // Solved from 2, drawn from 0: 0 is not in the solution.
    let part = solve(&g, 2).unwrap();
    let dot = crate::to_dot(&part, &0, 10, |p| format!("n{p}"), |m| format!("to {m}"));
    assert!(
        dot.contains("n0\\nunknown") && dot.contains("lightgrey"),
        "{dot}"
    );
    assert!(!dot.contains("khaki"), "{dot}");
}

#[test]
fn a_corrupted_table_is_rejected_whichever_part_holds_it() {
    // A chain 0 <- 1 <- ... <- 999: i is lost in i plies when even.
    let n = 1000;
    let g = Graph {
        edges: (0..n)
            .map(|i| if i == 0 { vec![] } else { vec![i - 1] })
            .collect(),
        ends: vec![None; n],
    };
    for at in [3usize, 500, 998] {
        let mut sol = solve_unmoves(&g).unwrap();
        assert!(certify(&sol).is_ok());
        let wrong = if at % 2 == 0 {
            Outcome::Win
        } else {
            Outcome::Lose
        };
        match &mut sol.table.0 {
            crate::cell::Inner::Narrow(c) => {
                c[at] = <u16 as crate::cell::Cell>::resolved(wrong, at as u64)
            }
            crate::cell::Inner::Wide(c) => {
                c[at] = <u32 as crate::cell::Cell>::resolved(wrong, at as u64)
            }
        }
        let err = certify(&sol).unwrap_err();
        // The corrupted position, or its parent, is the first rejected.
        assert!(err.position == at || err.position == at + 1, "{err:?}");
    }
}

/// A random graph game cut into tiers: node `p` lies in tier `tier[p]`,
/// moves go to the same tier or a lower one; tiers whose moves all leave
/// them say so (or not, when `declare` is off for them).
#[derive(Debug, Clone)]
struct TieredGraph {
    graph: Graph,
    tier: Vec<u64>,
    /// Nodes of each tier in index order.
    members: Vec<Vec<usize>>,
    leaves: Vec<bool>,
}

impl Game for TieredGraph {
    type Position = usize;
    type Move = usize;
    fn moves(&self, p: &usize, out: &mut Vec<usize>) {
        self.graph.moves(p, out);
    }
    fn play(&self, p: &usize, to: &usize) -> usize {
        self.graph.play(p, to)
    }
    fn outcome(&self, p: &usize) -> Option<Outcome> {
        self.graph.outcome(p)
    }
}

impl Unmoves for TieredGraph {
    fn unmoves(&self, c: &usize, out: &mut Vec<usize>) {
        self.graph.unmoves(c, out);
    }
}

impl game_core::Tiered for TieredGraph {
    fn tiers(&self) -> Vec<u64> {
        (0..self.members.len() as u64).collect()
    }
    fn tier(&self, p: &usize) -> u64 {
        self.tier[*p]
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        out.extend(0..t);
    }
    fn tier_size(&self, t: u64) -> u64 {
        // One unused index at the end of every tier.
        self.members[t as usize].len() as u64 + 1
    }
    fn tier_index(&self, p: &usize) -> u64 {
        let t = self.tier[*p] as usize;
        self.members[t].iter().position(|q| q == p).unwrap() as u64
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<usize> {
        self.members.get(t as usize)?.get(i as usize).copied()
    }
    fn leaves_tier(&self, t: u64) -> bool {
        self.leaves[t as usize]
    }
}

fn tiered_graph() -> impl Strategy<Value = TieredGraph> {
    (1usize..60, 1u64..6).prop_flat_map(|(n, tiers)| {
        (
            prop::collection::vec(0..tiers, n),
            prop::collection::vec(prop::collection::vec(0..n, 0..4), n),
            prop::collection::vec(
                prop_oneof![
                    6 => Just(None),
                    1 => Just(Some(Outcome::Win)),
                    2 => Just(Some(Outcome::Lose)),
                    1 => Just(Some(Outcome::Tie)),
                ],
                n,
            ),
            prop::collection::vec(any::<bool>(), tiers as usize),
            prop::collection::vec(any::<bool>(), tiers as usize),
        )
            .prop_map(move |(tier, raw, ends, loopy, declare)| {
                // Tiers marked loop-free keep only moves that leave them.
                let edges: Vec<Vec<usize>> = raw
                    .iter()
                    .enumerate()
                    .map(|(p, e)| {
                        e.iter()
                            .copied()
                            .filter(|&c| {
                                tier[c] < tier[p] || (tier[c] == tier[p] && loopy[tier[p] as usize])
                            })
                            .collect()
                    })
                    .collect();
                let mut members = vec![Vec::new(); tiers as usize];
                for (p, &t) in tier.iter().enumerate() {
                    members[t as usize].push(p);
                }
                let leaves = (0..tiers as usize)
                    .map(|t| !loopy[t] && declare[t])
                    .collect();
                TieredGraph {
                    graph: Graph { edges, ends },
                    tier,
                    members,
                    leaves,
                }
            })
    })
}

proptest! {
    /// Tier by tier (stored inside graph, or unmoves; 1 or 3 threads)
    /// equals the whole-graph solve position by position.
    #[test]
    fn tiers_equal_the_whole_graph(g in tiered_graph()) {
        let want = reference(&g.graph);
        for threads in [1, 3] {
            let config = Config::default().threads(threads);
            let stored = crate::solve_tiers_with(&g, &config, &mut crate::NoStore).unwrap();
            let unmoves = crate::solve_tiers_unmoves(&g, &config, &mut crate::NoStore).unwrap();
            for (p, &w) in want.iter().enumerate() {
                prop_assert_eq!(stored.value(&p), Some(w), "stored, {} threads, at {}", threads, p);
                prop_assert_eq!(unmoves.value(&p), Some(w), "unmoves, {} threads, at {}", threads, p);
            }
            prop_assert!(certify(&stored).is_ok());
            prop_assert_eq!(
                crate::certify_tiers(&unmoves).map(|c| c.positions).ok(),
                Some(g.graph.edges.len() as u64)
            );
            prop_assert_eq!(stored.len(), g.graph.edges.len() as u64);
        }
    }
}

/// The nodes reachable from `start` by a plain search (a node that is over
/// is reached but not left).
fn reached_from(g: &Graph, start: usize) -> Vec<bool> {
    let mut seen = vec![false; g.edges.len()];
    let mut stack = vec![start];
    seen[start] = true;
    while let Some(p) = stack.pop() {
        if g.ends[p].is_some() {
            continue;
        }
        for &c in &g.edges[p] {
            if !seen[c] {
                seen[c] = true;
                stack.push(c);
            }
        }
    }
    seen
}

proptest! {
    /// The fast path checks its table and its working memory (two levels'
    /// lists) against the limit before it starts, as
    /// [`crate::solve_unmoves_bytes`] says: refused one byte below, solved
    /// at the figure.
    #[test]
    fn the_fast_path_is_refused_below_its_memory_and_solves_at_it(g in big_graph()) {
        let needed = crate::solve_unmoves_bytes(g.size(), &Config::default());
        // Two bytes a cell, and two lists of at least two 8-byte ids (under
        // test) or an eighth of the cells.
        prop_assert_eq!(needed, 2 * g.size() + 2 * 8 * (g.size() / 8).max(2));
        let tight = Config::default().memory_limit(needed - 1);
        prop_assert!(matches!(
            crate::solve_unmoves_with(&g, &tight),
            Err(Error::TooLarge(_))
        ));
        let want = reference(&g);
        let sol = crate::solve_unmoves_with(&g, &Config::default().memory_limit(needed)).unwrap();
        for (p, &w) in want.iter().enumerate() {
            prop_assert_eq!(sol.value(&p), Some(w), "at {}", p);
        }
    }
}

proptest! {
    /// The stored reverse graph over an index takes, at its peak,
    /// [`crate::INDEXED_BYTES`] an index and 4 bytes a distinct move, as
    /// its docs say: refused one byte below, solved at the figure. (The
    /// cursor of 8 bytes an index while the edges are written, and the
    /// seeds' lists, were left out of the count: a limit of 12 bytes an
    /// index let the solve take 20, or 28 when every position was over.)
    #[test]
    fn the_stored_index_path_is_refused_below_its_memory_and_solves_at_it(g in big_graph()) {
        let moves: u64 = (0..g.edges.len())
            .filter(|&p| g.ends[p].is_none())
            .map(|p| {
                let mut kids = g.edges[p].clone();
                kids.sort_unstable();
                kids.dedup();
                kids.len() as u64
            })
            .sum();
        // 4 bytes a cell, 8 an offset (one more offset than cells), 4 a
        // move; then 8 an index of cursor, or the engine's two lists of at
        // least two 8-byte ids (under test) or an eighth of the cells.
        let n = g.size();
        let needed = 12 * n + 8 + 4 * moves + (8 * n).max(2 * 8 * (n / 8).max(2));
        prop_assert!(needed >= crate::INDEXED_BYTES * n + 4 * moves);
        let tight = Config::default().memory_limit(needed - 1);
        prop_assert!(matches!(
            crate::solve_indexed_with(&g, &tight),
            Err(Error::TooLarge(_))
        ));
        let want = reference(&g);
        let sol = crate::solve_indexed_with(&g, &Config::default().memory_limit(needed)).unwrap();
        for (p, &w) in want.iter().enumerate() {
            prop_assert_eq!(sol.value(&p), Some(w), "at {}", p);
        }
    }
}

/// The depth (levels) of a plain breadth-first search from `start` and
/// the number of distinct moves out of the nodes it reaches that are not
/// over.
fn plain_levels_and_moves(g: &Graph, start: usize) -> (u64, u64) {
    let mut seen = vec![false; g.edges.len()];
    seen[start] = true;
    let (mut level, mut levels, mut moves) = (vec![start], 0, 0);
    while !level.is_empty() {
        levels += 1;
        let mut next = Vec::new();
        for p in level {
            if g.ends[p].is_some() {
                continue;
            }
            let mut kids = g.edges[p].clone();
            kids.sort_unstable();
            kids.dedup();
            moves += kids.len() as u64;
            for c in kids {
                if !std::mem::replace(&mut seen[c], true) {
                    next.push(c);
                }
            }
        }
        level = next;
    }
    (levels, moves)
}

proptest! {
    /// The walk of the positions reachable from a start — its levels
    /// listed, or kept as bitmaps past three ids under test — finds the
    /// nodes a plain search finds, their distinct moves and the depth of a
    /// plain breadth-first search, on one thread and on three; with less
    /// memory than it says it needs it is refused.
    #[test]
    fn the_reachable_walk_equals_a_plain_search(g in big_graph(), pick in any::<usize>()) {
        let start = pick % g.edges.len();
        let seen = reached_from(&g, start);
        let (levels, moves) = plain_levels_and_moves(&g, start);
        let needed = crate::reachable_bytes(g.size());
        for threads in [1, 3] {
            let config = Config::default().threads(threads).memory_limit(needed);
            let r = crate::reachable(&g, &start, &config).unwrap();
            let found: Vec<bool> = (0..g.size()).map(|i| r.contains(i)).collect();
            prop_assert_eq!(&found, &seen);
            prop_assert_eq!(r.count(), seen.iter().filter(|&&s| s).count() as u64);
            prop_assert_eq!(r.indices().count() as u64, r.count());
            prop_assert_eq!(r.moves(), moves);
            prop_assert_eq!(r.levels(), levels);
        }
        let tight = Config::default().memory_limit(needed - 1);
        prop_assert!(matches!(crate::reachable(&g, &start, &tight), Err(Error::TooLarge(_))));
    }
}

proptest! {
    /// Reachable-first (every tier loop-free) and the fallback (a loopy
    /// tier: solved whole, walked after) equal the reference on every
    /// position reachable from the start; the counts equal the
    /// reference's outcomes of the nodes a plain search reaches; with
    /// every tier loop-free the others are left unsolved, and
    /// [`crate::Keep::Start`] keeps the start's value.
    #[test]
    fn reachable_first_equals_the_whole_graph(g in tiered_graph(), pick in any::<usize>(), all_leave in any::<bool>()) {
        let mut g = g;
        if all_leave {
            // Keep only the moves that leave a tier, and declare it.
            for p in 0..g.graph.edges.len() {
                let t = g.tier[p];
                g.graph.edges[p].retain(|&c| g.tier[c] < t);
            }
            g.leaves.iter_mut().for_each(|l| *l = true);
        }
        let loop_free = g.leaves.iter().all(|&l| l);
        let want = reference(&g.graph);
        let start = pick % g.graph.edges.len();
        let seen = reached_from(&g.graph, start);
        let mut counts = crate::Counts::default();
        for (p, &w) in want.iter().enumerate() {
            if seen[p] {
                counts.add(w.outcome());
            }
        }
        for threads in [1, 3] {
            let config = Config::default().threads(threads);
            for keep in [crate::Keep::All, crate::Keep::Start] {
                let (sol, reach) =
                    crate::solve_tiers_reachable(&g, &start, &|_| 1, &config, keep).unwrap();
                prop_assert_eq!(reach.counts, counts, "{} threads", threads);
                prop_assert_eq!(reach.count, seen.iter().filter(|&&s| s).count() as u64);
                prop_assert_eq!(sol.value(&start), Some(want[start]));
                if keep == crate::Keep::Start && loop_free {
                    continue;
                }
                for (p, &w) in want.iter().enumerate() {
                    let expect = (seen[p] || !loop_free).then_some(w);
                    prop_assert_eq!(sol.value(&p), expect, "{} threads, at {}", threads, p);
                }
                prop_assert!(crate::certify_tiers(&sol).is_ok());
            }
        }
    }
}

#[test]
fn a_tier_that_breaks_its_promise_is_an_error() {
    // Node 1 (tier 1) moves to node 0 (tier 0) and to itself, but tier 1
    // is declared to be left by every move.
    let g = TieredGraph {
        graph: Graph {
            edges: vec![vec![], vec![0, 1]],
            ends: vec![None, None],
        },
        tier: vec![0, 1],
        members: vec![vec![0], vec![1]],
        leaves: vec![true, true],
    };
    let err = crate::solve_tiers(&g).unwrap_err();
    assert!(
        matches!(err, Error::Broken(ref m) if m.contains("stays inside tier 1")),
        "{err}"
    );
    // The walk of the reachable positions finds the same broken promise.
    let config = Config::default();
    let err = crate::reachable_tiers(&g, &1, &mut |_, _| Ok(None), &|_| 1, &config).unwrap_err();
    assert!(
        matches!(err, Error::Broken(ref m) if m.contains("stays inside tier 1")),
        "{err}"
    );
    let err = crate::solve_tiers_reachable(&g, &1, &|_| 1, &config, crate::Keep::All).unwrap_err();
    assert!(matches!(err, Error::Broken(_)), "{err}");
}

#[test]
fn a_broken_promise_is_an_error_on_every_path() {
    let says = |e: &Error, lie: Lie| match (lie, e) {
        (Lie::CountTooLow, Error::Broken(m)) => m.contains("more parents' updates than children"),
        (Lie::ParentIsNoPosition | Lie::RunThroughNoPosition, Error::Broken(m)) => {
            m.contains("which is no position")
        }
        (Lie::ParentPastTheEnd, e) => matches!(e, Error::BadIndex { index: 7, size: 5 }),
        _ => false,
    };
    for lie in Lie::ALL {
        // One thread updates parents as they come or in batches; more
        // threads post them to each other.
        for (threads, direct) in [(1, true), (1, false), (2, false), (3, false)] {
            let mut config = Config::default().threads(threads);
            config.direct = Some(direct);
            let err = crate::solve_unmoves_with(&Liar { lie }, &config).unwrap_err();
            assert!(says(&err, lie), "{threads} threads, direct {direct}: {err}");
        }
    }
}

/// A table past the cache (9·2²⁰ ids, 18 MiB of cells) with four
/// positions: 3 → 2 → 1 → 0, 0 has no move. Records the threads that
/// count its children and find its parents.
struct Recorded {
    threads: std::sync::Mutex<std::collections::HashSet<std::thread::ThreadId>>,
}

impl Recorded {
    fn saw(&self) {
        self.threads
            .lock()
            .unwrap()
            .insert(std::thread::current().id());
    }
}

impl Game for Recorded {
    type Position = u64;
    type Move = ();
    fn moves(&self, p: &u64, out: &mut Vec<()>) {
        if (1..4).contains(p) {
            out.push(());
        }
    }
    fn play(&self, p: &u64, _: &()) -> u64 {
        p - 1
    }
}

impl Indexed for Recorded {
    fn size(&self) -> u64 {
        9 << 20
    }
    fn index(&self, p: &u64) -> u64 {
        *p
    }
    fn position(&self, i: u64) -> Option<u64> {
        (i < 4).then_some(i)
    }
}

impl Unmoves for Recorded {
    fn unmoves(&self, c: &u64, out: &mut Vec<u64>) {
        if *c < 3 {
            out.push(c + 1);
        }
    }
}

impl IndexedUnmoves for Recorded {
    fn child_counts(&self, first: u64, out: &mut [u32]) -> bool {
        self.saw();
        for (k, o) in out.iter_mut().enumerate() {
            *o = u32::from((1..4).contains(&(first + k as u64)));
        }
        true
    }
    fn unmove_indices(&self, index: u64, out: &mut ParentIndices, _: &mut Vec<u64>) {
        self.saw();
        if index < 3 {
            out.singles.push(index + 1);
        }
    }
}

#[test]
fn a_one_thread_solve_runs_on_the_callers_thread() {
    let game = Recorded {
        threads: Default::default(),
    };
    // Inside a pool of two: a parallel loop anywhere in the solve would
    // hand work to the other thread.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let (sol, caller) = pool.install(|| {
        let config = Config::default().threads(1);
        let sol = crate::solve_unmoves_with(&game, &config).unwrap();
        (sol.value(&3), std::thread::current().id())
    });
    assert_eq!(sol, Some(Value::win(3)));
    let seen = game.threads.lock().unwrap().clone();
    assert_eq!(seen, [caller].into_iter().collect());
}

/// A scanned level whose positions sit in the first chunks of a long
/// table: 100 wins at remoteness 1 (each moving to the lost end 0), then
/// 500 positions in a loop that never ends (draws), then 100 positions
/// each moving only to one of the wins (losses at 2). Level 1 is longer
/// than an owner's list under test, so it is found by a scan that skips
/// the loop's chunks whole; a win it missed would leave its parent
/// drawn. Every path and thread count gives the same table.
#[test]
fn a_sparse_scanned_level_is_found_whole() {
    let (loop_end, n) = (601, 701);
    let mut edges = vec![Vec::new()];
    edges.extend((1..=100).map(|_| vec![0]));
    edges.extend((101..loop_end).map(|i| vec![if i + 1 == loop_end { 101 } else { i + 1 }]));
    edges.extend((loop_end..n).map(|i| vec![i - 600]));
    let mut ends = vec![None; n];
    ends[0] = Some(Outcome::Lose);
    let g = Graph { edges, ends };
    for (threads, direct) in [(1, true), (1, false), (2, false)] {
        let mut config = Config::default().threads(threads);
        config.direct = Some(direct);
        let sol = crate::solve_unmoves_with(&g, &config).unwrap();
        for p in 0..n {
            let want = match p {
                0 => Value::lose(0),
                1..=100 => Value::win(1),
                101..=600 => Value::DRAW,
                _ => Value::lose(2),
            };
            assert_eq!(
                sol.value(&p),
                Some(want),
                "node {p}, {threads} threads, direct {direct}"
            );
        }
    }
}

#[test]
fn a_scan_finds_every_cell_of_the_level_and_skips_the_rest() {
    use crate::cell::Cell;
    use crate::next_in_level;
    let (lose, win) = (
        u16::resolved(Outcome::Lose, 3),
        u16::resolved(Outcome::Win, 3),
    );
    let mut cells = vec![u16::counter(2); 300];
    // Before a chunk's start, in the middle of one, on a chunk's last
    // cell, two in a row, and in the tail shorter than a chunk.
    let at = [5, 130, 191, 192, 193, 299];
    for (k, &i) in at.iter().enumerate() {
        cells[i] = if k % 2 == 0 { win } else { lose };
    }
    cells[200] = u16::resolved(Outcome::Lose, 4); // another level
    let pair = [lose, win];
    let mut got = Vec::new();
    let mut from = 0;
    while let Some(i) = next_in_level(&cells, from, pair) {
        got.push(i);
        from = i + 1;
    }
    assert_eq!(got, at);
    // From inside a chunk, and past the end.
    assert_eq!(next_in_level(&cells, 6, pair), Some(130));
    assert_eq!(next_in_level(&cells, 194, pair), Some(299));
    assert_eq!(next_in_level(&cells, 300, pair), None);
    assert_eq!(next_in_level(&cells, 301, pair), None);
    let other = [
        u16::resolved(Outcome::Lose, 9),
        u16::resolved(Outcome::Win, 9),
    ];
    assert_eq!(next_in_level(&cells, 0, other), None);
}

/// Pile `0..10`, take 1 to `takes`, whose `child_indices` gives each
/// child `n − t` as a strided run from it with the step and count it was
/// built with.
struct Strides {
    step: u64,
    count: u64,
    takes: u64,
}

impl Game for Strides {
    type Position = u64;
    type Move = u64;
    fn moves(&self, n: &u64, out: &mut Vec<u64>) {
        out.extend((1..=self.takes).filter(|t| t <= n));
    }
    fn play(&self, n: &u64, t: &u64) -> u64 {
        n - t
    }
}

impl Indexed for Strides {
    fn size(&self) -> u64 {
        10
    }
    fn index(&self, n: &u64) -> u64 {
        *n
    }
    fn position(&self, i: u64) -> Option<u64> {
        (i < 10).then_some(i)
    }
}

impl game_core::IndexedChildren for Strides {
    fn child_indices(&self, i: u64, out: &mut game_core::ChildIndices, _: &mut Vec<u64>) {
        if i < 10 {
            for t in (1..=self.takes).filter(|&t| t <= i) {
                out.strided.push(game_core::Strided {
                    start: i - t,
                    step: self.step,
                    count: self.count,
                });
            }
        }
    }
}

/// A run that repeats one child `u64::MAX` times (step 0) hung the
/// reachable walk and the certificate, and made the checker panic; a step
/// that overflows panicked in the walk. Each is now the broken promise.
#[test]
fn a_run_of_children_that_breaks_its_promise_is_an_error() {
    let honest = Strides {
        step: 1,
        count: 1,
        takes: 1,
    };
    let config = Config::default().threads(1);
    assert_eq!(crate::reachable(&honest, &9, &config).unwrap().count(), 10);
    let solved = solve_indexed(&honest).unwrap();
    assert!(crate::certify_indexed(&solved).is_ok());
    // The last runs past the size from 9 only (8, 9, 10); from 1 it lists
    // two children too many, which the certificate and the checker catch
    // as what they are.
    for (step, count) in [(0, u64::MAX), (0, 2), (u64::MAX, 3), (1, 3)] {
        let liar = Strides {
            step,
            count,
            takes: 1,
        };
        let err = crate::reachable(&liar, &9, &config).unwrap_err();
        assert!(
            matches!(&err, Error::Broken(m) if m.contains("repeats a child or passes")),
            "{err}"
        );
        let mut table = crate::Table::new(10, false).unwrap();
        for i in 0..10 {
            table.set(i, solved.value_at(i)).unwrap();
        }
        let lied = crate::IndexedSolution::from_table(&liar, table).unwrap();
        let rejection = crate::certify_indexed(&lied).unwrap_err();
        let broken = crate::GameCheck::new(&liar, 100)
            .indexed_children()
            .map(|_| ())
            .unwrap_err();
        if step != 1 {
            assert_eq!(rejection.flaw, crate::Flaw::UnknownChild);
            assert!(broken.detail.contains("repeats a child"), "{broken}");
        }
    }
}

/// Take one from a pile of at most 3, the pile its tier (one index each),
/// with one lie at a time: `visit_tier` also gives an index outside the
/// range it was asked for, the start's index is past its tier, or `tiers`
/// lists the tiers in the order given.
struct TieredPile {
    visit_outside: bool,
    start_index: u64,
    order: Vec<u64>,
}

impl TieredPile {
    fn honest() -> Self {
        TieredPile {
            visit_outside: false,
            start_index: 0,
            order: vec![0, 1, 2, 3],
        }
    }
}

impl Game for TieredPile {
    type Position = u64;
    type Move = ();
    fn moves(&self, n: &u64, out: &mut Vec<()>) {
        if *n > 0 {
            out.push(());
        }
    }
    fn play(&self, n: &u64, (): &()) -> u64 {
        n - 1
    }
}

impl game_core::Tiered for TieredPile {
    fn tiers(&self) -> Vec<u64> {
        self.order.clone()
    }
    fn tier(&self, n: &u64) -> u64 {
        *n
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        if t > 0 {
            out.push(t - 1);
        }
    }
    fn tier_size(&self, _: u64) -> u64 {
        1
    }
    fn tier_index(&self, n: &u64) -> u64 {
        if *n == 3 {
            self.start_index
        } else {
            0
        }
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<u64> {
        (i == 0 && t <= 3).then_some(t)
    }
    fn leaves_tier(&self, _: u64) -> bool {
        true
    }
    fn visit_tier(&self, t: u64, range: std::ops::Range<u64>, f: &mut dyn FnMut(u64, u64)) {
        if self.visit_outside {
            f(range.end + 4, t);
        }
        if range.contains(&0) && t <= 3 {
            f(0, t);
        }
    }
}

/// Tiered games that break a promise the tier solve and the tier walk
/// rely on: each is a typed error. Before, the first two panicked (an
/// index out of bounds) and the last two counted 1 and 2 positions of 4
/// with `Ok`.
#[test]
fn a_tiered_game_that_breaks_a_promise_is_an_error() {
    let config = Config::default().threads(1);
    let walk =
        |g: &TieredPile| crate::reachable_tiers(g, &3, &mut |_, _| Ok(None), &|_| 1, &config);
    let honest = TieredPile::honest();
    assert_eq!(walk(&honest).unwrap().count, 4);
    let sol = crate::solve_tiers_with(&honest, &config, &mut crate::NoStore).unwrap();
    assert_eq!(sol.value(&3), Some(Value::win(3)));

    let outside = TieredPile {
        visit_outside: true,
        ..TieredPile::honest()
    };
    let err = crate::solve_tiers_with(&outside, &config, &mut crate::NoStore).unwrap_err();
    assert!(
        matches!(&err, Error::Broken(m) if m.contains("outside the range")),
        "{err}"
    );
    let past = TieredPile {
        start_index: 64,
        ..TieredPile::honest()
    };
    assert!(matches!(
        walk(&past),
        Err(Error::BadIndex { index: 64, size: 1 })
    ));
    for order in [vec![3, 2, 1, 0], vec![0, 2, 3]] {
        let g = TieredPile {
            order,
            ..TieredPile::honest()
        };
        let err = walk(&g).unwrap_err();
        assert!(
            matches!(&err, Error::Broken(m) if m.contains("was reached after it was walked")),
            "{err}"
        );
    }
}

/// Take one from a pile of at most 3, the pile its tier; from a pile of 2
/// a second move leads to index 1 of the same tier, which `tier_position`
/// says is no position (`Some(true)` there, for the test to name it).
struct Phantom;

impl Game for Phantom {
    type Position = (u64, bool);
    type Move = bool;
    fn moves(&self, &(n, ghost): &(u64, bool), out: &mut Vec<bool>) {
        if n > 0 && !ghost {
            out.push(false);
        }
        if n == 2 && !ghost {
            out.push(true);
        }
    }
    fn play(&self, &(n, _): &(u64, bool), &to_ghost: &bool) -> (u64, bool) {
        if to_ghost {
            (n, true)
        } else {
            (n - 1, false)
        }
    }
}

impl game_core::Tiered for Phantom {
    fn tiers(&self) -> Vec<u64> {
        vec![0, 1, 2, 3]
    }
    fn tier(&self, p: &(u64, bool)) -> u64 {
        p.0
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        if t > 0 {
            out.push(t - 1);
        }
    }
    fn tier_size(&self, _: u64) -> u64 {
        2
    }
    fn tier_index(&self, p: &(u64, bool)) -> u64 {
        u64::from(p.1)
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, bool)> {
        (i == 0 && t <= 3).then_some((t, false))
    }
    fn leaves_tier(&self, _: u64) -> bool {
        false
    }
}

/// A move to an index that is no position: its parents would wait for it
/// for ever and come out drawn with `Ok` (pile 3, honestly lost in 3, was
/// a draw). The stored paths see the child's index as they store the
/// edge and stop; the checker names the child.
#[test]
fn a_child_that_is_no_position_is_an_error() {
    let config = Config::default().threads(1);
    let err = crate::solve_tiers_with(&Phantom, &config, &mut crate::NoStore).unwrap_err();
    assert!(
        matches!(&err, Error::Broken(m) if m.contains("which is no position")),
        "{err}"
    );
    let broken = crate::GameCheck::new(&Phantom, 100)
        .tiered()
        .map(|_| ())
        .unwrap_err();
    assert!(broken.detail.contains("decodes to None"), "{broken}");
    // The same through a dense index: pile 0 is no position, piles 1 and
    // 2 move to it.
    let g = Graph {
        edges: vec![vec![], vec![0], vec![0], vec![1, 2]],
        ends: vec![None; 4],
    };
    struct Hole(Graph);
    impl Game for Hole {
        type Position = usize;
        type Move = usize;
        fn moves(&self, p: &usize, out: &mut Vec<usize>) {
            self.0.moves(p, out);
        }
        fn play(&self, p: &usize, m: &usize) -> usize {
            self.0.play(p, m)
        }
    }
    impl Indexed for Hole {
        fn size(&self) -> u64 {
            4
        }
        fn index(&self, p: &usize) -> u64 {
            *p as u64
        }
        fn position(&self, i: u64) -> Option<usize> {
            (1..4).contains(&i).then_some(i as usize)
        }
    }
    assert_eq!(solve_indexed(&g).unwrap().value(&3), Some(Value::lose(2)));
    let err = solve_indexed(&Hole(g)).unwrap_err();
    assert!(
        matches!(&err, Error::Broken(m) if m.contains("leads to index 0, which is no position")),
        "{err}"
    );
}

/// A store holding tiers 0 and 1 of [`TieredPile`] (pile 0 lost at 0,
/// pile 1 won in 1), giving them as tables of `len` cells.
struct Holding {
    len: u64,
}

impl crate::TierStore for Holding {
    fn is_done(&self, tier: u64) -> bool {
        tier <= 1
    }
    fn load(&mut self, tier: u64, _size: u64) -> Result<Option<crate::Table>, Error> {
        let mut table = crate::Table::new(self.len, false)?;
        for i in 0..self.len {
            let v = if tier == 0 {
                Value::lose(0)
            } else {
                Value::win(1)
            };
            table.set(i, Some(v))?;
        }
        Ok(Some(table))
    }
}

/// A table a store gives for a tier must have the tier's length: a longer
/// one was taken as it was (values at indices the tier does not have), a
/// shorter one blamed the game ("a move reaches an index which is no
/// position").
#[test]
fn a_stored_table_of_another_length_is_the_stores_error() {
    let config = Config::default().threads(1);
    let g = TieredPile::honest();
    let sol = crate::solve_tiers_with(&g, &config, &mut Holding { len: 1 }).unwrap();
    assert_eq!(sol.value(&3), Some(Value::win(3)));
    for len in [0, 2, 1000] {
        let err = crate::solve_tiers_with(&g, &config, &mut Holding { len }).unwrap_err();
        assert!(
            matches!(&err, Error::Store(m) if m.contains(&format!("a table of {len} cells"))),
            "{err}"
        );
    }
}

/// A table of another length than the game is refused as such (it was
/// reported as a position's index outside the game).
#[test]
fn a_table_of_another_length_is_refused_by_its_size() {
    let g = Graph {
        edges: vec![vec![]; 5],
        ends: vec![None; 5],
    };
    for cells in [3, 8] {
        let table = crate::Table::new(cells, false).unwrap();
        let err = crate::IndexedSolution::from_table(&g, table).unwrap_err();
        assert_eq!(err, Error::TableSize { cells, size: 5 });
    }
    let table = crate::Table::new(5, true).unwrap();
    assert!(crate::IndexedSolution::from_table(&g, table).is_ok());
}

/// A start with 100,000 children, each a new position, under a limit of
/// 64 KiB: refused after a few thousand of them are played, not after all
/// (a start with 20 million children took 1.2 GB against a 1 MB limit
/// before it was refused).
#[test]
fn a_stored_graph_is_refused_as_its_positions_come() {
    struct Fan {
        played: std::cell::Cell<u64>,
    }
    impl Game for Fan {
        type Position = u64;
        type Move = u64;
        fn moves(&self, n: &u64, out: &mut Vec<u64>) {
            if *n == 0 {
                out.extend(1..=100_000);
            }
        }
        fn play(&self, _: &u64, to: &u64) -> u64 {
            self.played.set(self.played.get() + 1);
            *to
        }
    }
    let fan = Fan {
        played: std::cell::Cell::new(0),
    };
    let err = solve_with(&fan, 0, &Config::default().memory_limit(64 << 10)).unwrap_err();
    assert!(matches!(err, Error::TooLarge(_)), "{err}");
    assert!(
        fan.played.get() < 10_000,
        "{} children played",
        fan.played.get()
    );
    // With room, the same game: every child is lost (no move), so the
    // start is won in 1.
    let sol = solve_with(&fan, 0, &Config::default()).unwrap();
    assert_eq!(sol.value(&0), Some(Value::win(1)));
}

/// A chain of 100 nodes, `n` → `n − 1` (the shared graph fixture): wins
/// and losses whose cells a test can break one by one.
fn chain() -> Graph {
    Graph {
        edges: (0..100)
            .map(|n: usize| n.checked_sub(1).into_iter().collect())
            .collect(),
        ends: vec![None; 100],
    }
}

/// The certificate by index looks ahead at a batch of positions' children
/// before it judges them, and still rejects the first position in index
/// order that breaks a rule: broken cells in one batch, in two, and a
/// broken cell whose parent comes first.
#[test]
fn the_indexed_certificate_rejects_the_first_broken_position() {
    let chain = chain();
    let solved = solve_indexed(&chain).unwrap();
    assert_eq!(solved.value(&99), Some(Value::win(99)));
    assert!(crate::certify_indexed(&solved).is_ok());
    // Pile n is won in n for odd n, lost in n for even n: a cell set to
    // the other outcome breaks its own rule (and its parent's), first at
    // its own index.
    let broken = |cells: &[u64]| {
        let mut table = crate::Table::new(100, false).unwrap();
        for i in 0..100 {
            let v = solved.value_at(i).unwrap();
            let v = if cells.contains(&i) {
                let flipped = match v.outcome() {
                    Outcome::Win => Outcome::Lose,
                    _ => Outcome::Win,
                };
                Value::new(flipped, i as u32)
            } else {
                v
            };
            table.set(i, Some(v)).unwrap();
        }
        let lied = crate::IndexedSolution::from_table(&chain, table).unwrap();
        crate::certify_indexed(&lied).unwrap_err().position
    };
    // Cells without a value in the middle of a batch are skipped; the
    // first position with such a child is rejected for it, before a
    // broken cell later in the batch.
    let mut table = crate::Table::new(100, false).unwrap();
    for i in (0..100).filter(|i| !(33..=40).contains(i)) {
        let v = solved.value_at(i).unwrap();
        let v = if i == 45 {
            Value::new(Outcome::Lose, 45)
        } else {
            v
        };
        table.set(i, Some(v)).unwrap();
    }
    let sparse = crate::IndexedSolution::from_table(&chain, table).unwrap();
    let rejection = crate::certify_indexed(&sparse).unwrap_err();
    assert_eq!(
        (rejection.position, rejection.flaw),
        (41, crate::Flaw::UnknownChild)
    );
    assert_eq!(broken(&[40, 35]), 35);
    assert_eq!(broken(&[70, 40]), 40);
    assert_eq!(broken(&[63, 64]), 63);
    assert_eq!(broken(&[0]), 0);
    assert_eq!(broken(&[99]), 99);
}

/// Runs of one index with a step near `u64::MAX` are walked like any
/// (the walk's memory of runs overflowed joining them, a panic in debug
/// builds).
#[test]
fn single_runs_with_a_huge_step_are_walked() {
    // Take 1 or 2: two such runs a position, side by side.
    let huge = Strides {
        step: u64::MAX,
        count: 1,
        takes: 2,
    };
    let r = crate::reachable(&huge, &9, &Config::default().threads(1)).unwrap();
    assert_eq!((r.count(), r.moves()), (10, 17));
}

/// [`chain`], counting the positions it decodes.
struct Counted(Graph, std::sync::atomic::AtomicU64);

impl Game for Counted {
    type Position = usize;
    type Move = usize;
    fn moves(&self, n: &usize, out: &mut Vec<usize>) {
        self.0.moves(n, out);
    }
    fn play(&self, n: &usize, m: &usize) -> usize {
        self.0.play(n, m)
    }
}

impl Indexed for Counted {
    fn size(&self) -> u64 {
        self.0.size()
    }
    fn index(&self, n: &usize) -> u64 {
        self.0.index(n)
    }
    fn position(&self, i: u64) -> Option<usize> {
        self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.0.position(i)
    }
}

impl game_core::IndexedChildren for Counted {}

/// The certificate decodes only the indices whose cells hold a value: a
/// table of 100 cells with one known decodes two positions (that one, and
/// once more to list its moves), not all 100.
#[test]
fn the_certificate_decodes_only_known_cells() {
    use std::sync::atomic::Ordering;
    let g = Counted(chain(), std::sync::atomic::AtomicU64::new(0));
    let mut table = crate::Table::new(100, false).unwrap();
    table.set(0, Some(Value::lose(0))).unwrap();
    let sol = crate::IndexedSolution::from_table(&g, table).unwrap();
    g.1.store(0, Ordering::Relaxed);
    assert!(crate::certify_indexed(&sol).is_ok());
    assert_eq!(g.1.load(Ordering::Relaxed), 2);
}

/// The tiered certificate, like the indexed one, finds a batch's
/// children before it judges any and still rejects the first broken
/// position in index order: [`chain`] as one tier, with broken cells in
/// one batch, in two, and cells without a value mid-batch.
#[test]
fn the_tiered_certificate_rejects_the_first_broken_position() {
    let game = game_core::OneTier(chain());
    let solved = solve_indexed(&game.0).unwrap();
    let tiered = |cells: &[u64], none: std::ops::Range<u64>| {
        let mut table = crate::Table::new(100, false).unwrap();
        for i in (0..100).filter(|i| !none.contains(i)) {
            let v = solved.value_at(i).unwrap();
            let v = if cells.contains(&i) {
                let flipped = match v.outcome() {
                    Outcome::Win => Outcome::Lose,
                    _ => Outcome::Win,
                };
                Value::new(flipped, i as u32)
            } else {
                v
            };
            table.set(i, Some(v)).unwrap();
        }
        crate::TieredSolution {
            game: &game,
            tables: crate::TierTables::new(vec![0], [(0, table)]),
        }
    };
    let first = |cells: &[u64], none| {
        let r = crate::certify_tiers(&tiered(cells, none)).unwrap_err();
        (r.position, r.flaw)
    };
    let certificate = crate::certify_tiers(&tiered(&[], 0..0)).unwrap();
    assert_eq!(certificate.positions, 100);
    assert_eq!(first(&[40, 35], 0..0), (35, crate::Flaw::Lose));
    assert_eq!(first(&[70, 40], 0..0), (40, crate::Flaw::Win));
    assert_eq!(first(&[63, 64], 0..0), (63, crate::Flaw::Lose));
    assert_eq!(first(&[0], 0..0).0, 0);
    assert_eq!(first(&[45], 33..41), (41, crate::Flaw::UnknownChild));
}

/// A part past the last holds no position, and any number of parts
/// together hold every position once, on every solution type (a
/// `Solution` sliced its positions past their end: part 3 of 2 panicked,
/// and part `usize::MAX` overflowed the start of its range).
#[test]
fn a_part_past_the_last_holds_no_position() {
    fn visited<S: Solved>(sol: &S, part: usize, parts: usize) -> Vec<String>
    where
        <S::Game as Game>::Position: std::fmt::Debug,
    {
        let mut seen = Vec::new();
        sol.for_each_part(part, parts, |p, _| seen.push(format!("{p:?}")));
        seen
    }
    fn check<S: Solved>(sol: &S)
    where
        <S::Game as Game>::Position: std::fmt::Debug,
    {
        for (part, parts) in [(2, 2), (3, 2), (usize::MAX, 2), (usize::MAX, usize::MAX)] {
            assert_eq!(
                visited(sol, part, parts),
                Vec::<String>::new(),
                "{part} of {parts}"
            );
        }
        for parts in [1, 2, 5] {
            let mut all: Vec<String> = (0..parts).flat_map(|k| visited(sol, k, parts)).collect();
            all.sort();
            assert_eq!(all, ["0", "1", "2"], "{parts} parts");
        }
        let last = visited(sol, usize::MAX - 1, usize::MAX);
        assert_eq!(last, ["2"]);
    }
    let g = Graph {
        edges: vec![vec![1], vec![2], vec![0]],
        ends: vec![None; 3],
    };
    check(&solve(&g, 0).unwrap());
    check(&solve_indexed(&g).unwrap());
    let tiered = game_core::OneTier(g.clone());
    check(&crate::solve_tiers(&tiered).unwrap());
}

/// A cycle through 2⁵⁰ indices whose children and parents by index come
/// as runs of 2⁴⁰ indices, all within the size (with `visit`, only the
/// parents sent to a visitor; those listed are honest): what
/// [`crate::GameCheck`] must refuse by their count, never by listing them.
struct Sprawl {
    visit: bool,
}

impl Sprawl {
    const SIZE: u64 = 1 << 50;
    const RUN: u64 = 1 << 40;
}

impl Game for Sprawl {
    type Position = u64;
    type Move = ();
    fn moves(&self, _: &u64, out: &mut Vec<()>) {
        out.push(());
    }
    fn play(&self, p: &u64, (): &()) -> u64 {
        (p + 1) % Self::SIZE
    }
}

impl Indexed for Sprawl {
    fn size(&self) -> u64 {
        Self::SIZE
    }
    fn index(&self, p: &u64) -> u64 {
        *p
    }
    fn position(&self, i: u64) -> Option<u64> {
        (i < Self::SIZE).then_some(i)
    }
}

impl game_core::IndexedChildren for Sprawl {
    fn child_indices(&self, _: u64, out: &mut game_core::ChildIndices, _: &mut Vec<()>) {
        out.strided.push(game_core::Strided {
            start: 0,
            step: 1,
            count: Self::RUN,
        });
    }
}

impl Unmoves for Sprawl {
    fn unmoves(&self, p: &u64, out: &mut Vec<u64>) {
        out.push((p + Self::SIZE - 1) % Self::SIZE);
    }
}

impl IndexedUnmoves for Sprawl {
    fn unmove_indices(&self, i: u64, out: &mut ParentIndices, _: &mut Vec<u64>) {
        if self.visit {
            out.singles.push((i + Self::SIZE - 1) % Self::SIZE);
        } else {
            out.runs.push(0..Self::RUN);
        }
    }
    fn visit_unmove_indices<V: game_core::ParentVisitor>(
        &self,
        i: u64,
        buf: &mut ParentIndices,
        scratch: &mut Vec<u64>,
        visit: &mut V,
    ) {
        buf.clear();
        self.unmove_indices(i, buf, scratch);
        if self.visit {
            buf.runs.push(0..Self::RUN);
        }
        buf.send_to(visit);
    }
}

/// A game check refuses children or parents by index that are too many
/// by their count, before it lists them: runs of 2⁴⁰ indices were
/// collected into a vector (8 TiB) to be compared with the one child and
/// parent the moves give.
#[test]
fn the_game_check_counts_runs_before_it_lists_them() {
    let lists = Sprawl { visit: false };
    let err = crate::GameCheck::new(&lists, 4)
        .indexed_children()
        .unwrap_err();
    assert_eq!(
        err.promise,
        "IndexedChildren: child_indices lists each distinct child once"
    );
    assert_eq!(err.detail, "listed 1099511627776 children, moves give 1");
    let err = crate::GameCheck::new(&lists, 4)
        .indexed_unmoves()
        .unwrap_err();
    assert_eq!(
        err.promise,
        "IndexedUnmoves: unmove_indices lists each parent's index once"
    );
    assert_eq!(err.detail, "listed 1099511627776 parents, unmoves give 1");
    let err = crate::GameCheck::new(&Sprawl { visit: true }, 4)
        .indexed_unmoves()
        .unwrap_err();
    assert_eq!(
        err.promise,
        "IndexedUnmoves: visit_unmove_indices sends the parents unmove_indices lists"
    );
    assert_eq!(err.detail, "sent 1099511627777 parents, listed 1");
}

/// Index 1 moves to 0 the first time its moves are asked for, and to 0
/// and 2 every time after (with `fewer`, the other way round): moves that
/// are not a function of the position.
struct Fickle {
    asked: std::cell::Cell<u32>,
    fewer: bool,
}

impl Game for Fickle {
    type Position = u64;
    type Move = u64;
    fn moves(&self, p: &u64, out: &mut Vec<u64>) {
        match p {
            1 => {
                self.asked.set(self.asked.get() + 1);
                out.push(0);
                if (self.asked.get() > 1) != self.fewer {
                    out.push(2);
                }
            }
            2 => out.push(0),
            _ => {}
        }
    }
    fn play(&self, _: &u64, to: &u64) -> u64 {
        *to
    }
}

impl Indexed for Fickle {
    fn size(&self) -> u64 {
        3
    }
    fn index(&self, p: &u64) -> u64 {
        *p
    }
    fn position(&self, i: u64) -> Option<u64> {
        (i < 3).then_some(i)
    }
}

/// The stored-graph preset fills the reverse graph in a second pass over
/// the moves; a move that the first pass did not count is an error (it
/// was written past the parents counted: an index out of bounds here, or
/// silently into another child's parents), and so is one it counted but
/// the second pass does not make (its slot kept parent 0, silently).
#[test]
fn moves_that_change_between_the_passes_are_an_error() {
    let fickle = |fewer| Fickle {
        asked: std::cell::Cell::new(0),
        fewer,
    };
    let err = crate::solve_indexed(&fickle(false)).unwrap_err();
    assert_eq!(
        err,
        Error::Broken(
            "index 2 has more parents than were counted (a move from index 1 to it is new: \
             the game's moves changed between two passes)"
                .into()
        )
    );
    let err = crate::solve_indexed(&fickle(true)).unwrap_err();
    assert_eq!(
        err,
        Error::Broken(
            "index 2 has fewer parents than were counted (the game's moves changed \
             between two passes)"
                .into()
        )
    );
}

/// Tiers `0..=TOP`: tier 0 holds one position, lost (no move); every
/// other tier `n` holds [`Countdown::WIDTH`] positions, each moving to
/// tier `n - 1` (its position 0 for tier 1). Position `(n, k)` is lost in
/// `n` for even `n` and won in `n` for odd: past 2¹³ - 1 the tiers need
/// 4-byte cells.
struct Countdown;

impl Countdown {
    const TOP: u64 = 8200;
    const WIDTH: u64 = 512;
}

impl Game for Countdown {
    type Position = (u64, u64);
    type Move = ();
    fn moves(&self, &(n, _): &(u64, u64), out: &mut Vec<()>) {
        if n > 0 {
            out.push(());
        }
    }
    fn play(&self, &(n, k): &(u64, u64), (): &()) -> (u64, u64) {
        (n - 1, if n == 1 { 0 } else { k })
    }
}

impl game_core::Tiered for Countdown {
    fn tiers(&self) -> Vec<u64> {
        (0..=Self::TOP).collect()
    }
    fn tier(&self, p: &(u64, u64)) -> u64 {
        p.0
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        if t > 0 {
            out.push(t - 1);
        }
    }
    fn tier_size(&self, t: u64) -> u64 {
        if t == 0 {
            1
        } else {
            Self::WIDTH
        }
    }
    fn tier_index(&self, p: &(u64, u64)) -> u64 {
        p.1
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, u64)> {
        (t <= Self::TOP && i < self.tier_size(t)).then_some((t, i))
    }
    fn leaves_tier(&self, _: u64) -> bool {
        true
    }
}

/// A tier retried in 4-byte cells is checked against the memory limit
/// before they are taken: the check before the solve counts 2-byte
/// cells, and tier 8192 of [`Countdown`] (remoteness 8192) with its
/// child tier took 6 bytes an index under a limit of 4 and a little
/// (solved, silently over the limit). At 8 bytes an index it fits. (A
/// store that keeps the tables, [`Dropped`], lets the solve drop the
/// ones no tier reads.)
#[test]
fn a_tier_widened_past_the_memory_limit_is_refused() {
    let w = Countdown::WIDTH;
    let tight = Config::default().threads(1).memory_limit(4 * w + 64);
    let err = crate::solve_tiers_with(&Countdown, &tight, &mut Dropped).unwrap_err();
    let Error::TooLarge(e) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        e.what,
        "tier 8192 with the tables held beside it, in 4-byte cells"
    );
    assert_eq!((e.needed, e.available), (6 * w, 4 * w + 64));
    let room = Config::default().threads(1).memory_limit(8 * w + 64);
    let sol = crate::solve_tiers_with(&Countdown, &room, &mut Dropped).unwrap();
    let top = u32::try_from(Countdown::TOP).unwrap();
    assert_eq!(sol.value(&(Countdown::TOP, 7)), Some(Value::lose(top)));
}

/// Five tiers, children first: tier 0 is one lost position; tiers 1 and 2
/// hold [`Skip::N`] positions each, every one moving to it; tier 3's one
/// position moves into tier 1, tier 4's into tier 2. Tier 1's table is
/// held while tier 2 is solved, for tier 3 to read.
struct Skip;

impl Skip {
    const N: u64 = 1000;
}

impl Game for Skip {
    type Position = (u64, u64);
    type Move = ();
    fn moves(&self, &(t, _): &(u64, u64), out: &mut Vec<()>) {
        if t > 0 {
            out.push(());
        }
    }
    fn play(&self, &(t, _): &(u64, u64), (): &()) -> (u64, u64) {
        (if t < 3 { 0 } else { t - 2 }, 0)
    }
}

impl game_core::Tiered for Skip {
    fn tiers(&self) -> Vec<u64> {
        (0..5).collect()
    }
    fn tier(&self, p: &(u64, u64)) -> u64 {
        p.0
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        match t {
            0 => {}
            1 | 2 => out.push(0),
            _ => out.push(t - 2),
        }
    }
    fn tier_size(&self, t: u64) -> u64 {
        if t == 1 || t == 2 {
            Self::N
        } else {
            1
        }
    }
    fn tier_index(&self, p: &(u64, u64)) -> u64 {
        p.1
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, u64)> {
        (t < 5 && i < self.tier_size(t)).then_some((t, i))
    }
    fn leaves_tier(&self, _: u64) -> bool {
        true
    }
}

/// A solved tier that a later tier reads stays in memory while the tiers
/// between are solved, and is counted there: tier 2 of [`Skip`] is solved
/// beside tier 1's table (and tier 0's), 4N + 2 bytes, which the check
/// before the solve left out (it counted each tier with its own child
/// tiers only, at most 2N + 2 bytes here), and the tier's own check too:
/// the solve took twice the limit it was given. Under a limit tier 1
/// does not fit either, the refusal still names tier 2, the group that
/// needs the most, so that the figure it gives is enough for every tier
/// (it named the first group over the limit, whose figure was not).
#[test]
fn a_table_held_for_a_later_tier_is_counted_while_others_are_solved() {
    let n = Skip::N;
    for limit in [n, 2 * n + 2, 4 * n + 1] {
        let tight = Config::default().threads(1).memory_limit(limit);
        let err = crate::solve_tiers_with(&Skip, &tight, &mut Saved::default()).unwrap_err();
        let Error::TooLarge(e) = &err else {
            panic!("{err:?}")
        };
        assert_eq!(e.what, "tier 2 with its child tiers");
        assert_eq!(e.needed, 4 * n + 2);
    }
    // At the figure it is solved; tables no tier reads any more are
    // dropped to stay under it, so the answers are read from a store.
    let room = Config::default().threads(1).memory_limit(4 * n + 2);
    let mut saved = Saved::default();
    crate::solve_tiers_with(&Skip, &room, &mut saved).unwrap();
    assert_eq!(saved.0[&0], [Some(Value::lose(0))]);
    for t in [1, 2] {
        assert!(saved.0[&t].iter().all(|&v| v == Some(Value::win(1))));
        assert_eq!(saved.0[&t].len() as u64, n);
    }
    for t in [3, 4] {
        assert_eq!(saved.0[&t], [Some(Value::lose(2))]);
    }
}

/// A store that keeps every tier's values.
#[derive(Default)]
struct Saved(rustc_hash::FxHashMap<u64, Vec<Option<Value>>>);

/// A store that says it keeps the tables (as a database does), so that
/// the solver may drop those no tier reads, and throws them away: for
/// the tests of that dropping, which read no dropped table.
struct Dropped;

impl crate::TierStore for Dropped {
    fn keeps_tables(&self) -> bool {
        true
    }
}

/// [`crate::NoStore`] keeps nothing, so the solver holds every table to
/// the end: every tier of [`Skip`] answers. It dropped tables no tier
/// reads once they passed half the limit (tiers 0 to 2 at 4N + 6 bytes),
/// and those tiers then answered nothing (the command line's whole
/// solve skipped its certificate, saying a database held them). A limit
/// that cannot hold every table beside the last tier is refused before
/// any tier is solved, naming what is held.
#[test]
fn without_a_store_every_table_is_held_or_the_solve_refused() {
    let n = Skip::N;
    let all = 2 * (2 * n + 3);
    let room = Config::default().threads(1).memory_limit(all);
    let sol = crate::solve_tiers_with(&Skip, &room, &mut crate::NoStore).unwrap();
    assert_eq!(sol.value(&(0, 0)), Some(Value::lose(0)));
    for t in [1, 2] {
        for i in [0, n / 2, n - 1] {
            assert_eq!(sol.value(&(t, i)), Some(Value::win(1)), "tier {t}");
        }
    }
    for t in [3, 4] {
        assert_eq!(sol.value(&(t, 0)), Some(Value::lose(2)));
    }
    assert!(crate::certify_tiers(&sol).is_ok());
    let solved = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let seen = solved.clone();
    let tight = Config::default()
        .threads(1)
        .memory_limit(all - 1)
        .progress(move |p| {
            if let crate::Progress::Tier { .. } = p {
                seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        });
    let err = crate::solve_tiers_with(&Skip, &tight, &mut crate::NoStore).unwrap_err();
    let Error::TooLarge(e) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(e.what, "tier 4 with every tier solved before it");
    assert_eq!(e.needed, all);
    assert_eq!(solved.load(std::sync::atomic::Ordering::Relaxed), 0);
    // A store that keeps the tables lets the solve drop them instead.
    assert!(crate::solve_tiers_with(&Skip, &tight, &mut Dropped).is_ok());
}

/// The reachable-first solve with [`crate::Keep::All`] holds every table
/// too (it dropped them past half the limit like a solve with a store):
/// from tier 4's position every reached position answers.
#[test]
fn the_reachable_solve_keeping_all_holds_every_table() {
    let n = Skip::N;
    let config = Config::default().threads(1).memory_limit(8 * n);
    let (sol, reach) =
        crate::solve_tiers_reachable(&Skip, &(4, 0), &|_| 1, &config, crate::Keep::All).unwrap();
    // (4, 0) moves to (2, 0), which moves to (0, 0).
    assert_eq!(reach.count, 3);
    assert_eq!(sol.value(&(4, 0)), Some(Value::lose(2)));
    assert_eq!(sol.value(&(2, 0)), Some(Value::win(1)));
    assert_eq!(sol.value(&(0, 0)), Some(Value::lose(0)));
    assert_eq!(sol.value(&(2, 1)), None); // not reached: not solved
    assert!(crate::certify_tiers(&sol).is_ok());
}

impl crate::TierStore for Saved {
    fn keeps_tables(&self) -> bool {
        true
    }
    fn save(&mut self, tier: u64, table: &crate::Table) -> Result<(), Error> {
        let values = (0..table.len() as u64).map(|i| table.value(i)).collect();
        self.0.insert(tier, values);
        Ok(())
    }
}

/// [`Countdown`] to tier 8192 (the first that needs 4-byte cells), with
/// one more tier, [`Island::ISLAND`] of [`Island::SIZE`] lost positions
/// that no tier reads, solved just before tier 8192.
struct Island;

impl Island {
    const TOP: u64 = 8192;
    const ISLAND: u64 = 1 << 20;
    const SIZE: u64 = Countdown::WIDTH / 2;
}

impl Game for Island {
    type Position = (u64, u64);
    type Move = ();
    fn moves(&self, p: &(u64, u64), out: &mut Vec<()>) {
        if p.0 != Self::ISLAND {
            Countdown.moves(p, out);
        }
    }
    fn play(&self, p: &(u64, u64), m: &()) -> (u64, u64) {
        Countdown.play(p, m)
    }
}

impl game_core::Tiered for Island {
    fn tiers(&self) -> Vec<u64> {
        let mut t: Vec<u64> = (0..Self::TOP).collect();
        t.extend([Self::ISLAND, Self::TOP]);
        t
    }
    fn tier(&self, p: &(u64, u64)) -> u64 {
        p.0
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        if t != Self::ISLAND {
            Countdown.child_tiers(t, out);
        }
    }
    fn tier_size(&self, t: u64) -> u64 {
        if t == Self::ISLAND {
            Self::SIZE
        } else {
            Countdown.tier_size(t)
        }
    }
    fn tier_index(&self, p: &(u64, u64)) -> u64 {
        p.1
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, u64)> {
        (i < self.tier_size(t) && (t <= Self::TOP || t == Self::ISLAND)).then_some((t, i))
    }
    fn leaves_tier(&self, _: u64) -> bool {
        true
    }
}

/// A table no tier still reads, kept because it fitted beside the next
/// tier by the estimate before its solve (2-byte cells, no seeds), is
/// dropped when that tier does not fit beside it after all, and the tier
/// solved again, rather than the solve refused. With W = 512, [`Island`]
/// fits from about 11W bytes once such tables go; before, it was refused
/// at every limit from 11W to 17W but 15W-16W (the island's listed seeds
/// beside tiers 8190 and 8191, or tier 8192 in 4-byte cells beside the
/// island's table).
#[test]
fn a_table_no_tier_reads_gives_way_to_a_tier_that_does_not_fit_beside_it() {
    let w = Countdown::WIDTH;
    let config = Config::default().threads(1).memory_limit(12 * w);
    let sol = crate::solve_tiers_with(&Island, &config, &mut Dropped).unwrap();
    let top = u32::try_from(Island::TOP).unwrap();
    assert_eq!(sol.value(&(Island::TOP, 7)), Some(Value::lose(top)));
}

/// The tiered certificate checks every table a solution holds, each once:
/// a table held for a tier missing from the solution's order answered
/// queries unchecked (pile 1 given as lost, truly won in 1, and both
/// certificates said `Ok`), and a tier listed twice was counted twice.
#[test]
fn the_tiered_certificate_checks_every_held_table_once() {
    let game = TieredPile::honest();
    let one = |v: Value| {
        let mut t = crate::Table::new(1, false).unwrap();
        t.set(0, Some(v)).unwrap();
        t
    };
    let forged = crate::TieredSolution {
        game: &game,
        tables: crate::TierTables::new(
            vec![0],
            [(0, one(Value::lose(0))), (1, one(Value::lose(0)))],
        ),
    };
    assert_eq!(forged.value(&1), Some(Value::lose(0)));
    let r = crate::certify_tiers(&forged).unwrap_err();
    assert_eq!((r.position, r.flaw), (1, crate::Flaw::Lose));
    let r = certify(&forged).unwrap_err();
    assert_eq!((r.position, r.flaw), (1, crate::Flaw::Lose));

    let twice = crate::TieredSolution {
        game: &game,
        tables: crate::TierTables::new(
            vec![0, 1, 0],
            [(0, one(Value::lose(0))), (1, one(Value::win(1)))],
        ),
    };
    assert_eq!(twice.tiers(), &[0, 1]);
    assert_eq!(crate::certify_tiers(&twice).unwrap().positions, 2);
    assert_eq!(certify(&twice).unwrap().positions, 2);
    assert_eq!(twice.len(), 2);
}

/// A count from 0 up to 5, where 5 is lost, all in one loopy tier of
/// `size` indices whose `tier_position` decodes any index (as a lazy game
/// may); `twice` makes `visit_tier` give every position twice.
struct Climb {
    size: u64,
    twice: bool,
}

impl Game for Climb {
    type Position = u64;
    type Move = ();
    fn moves(&self, n: &u64, out: &mut Vec<()>) {
        if *n < 5 {
            out.push(());
        }
    }
    fn play(&self, n: &u64, (): &()) -> u64 {
        n + 1
    }
}

impl game_core::Tiered for Climb {
    fn tiers(&self) -> Vec<u64> {
        vec![0]
    }
    fn tier(&self, _: &u64) -> u64 {
        0
    }
    fn child_tiers(&self, _: u64, _: &mut Vec<u64>) {}
    fn tier_size(&self, _: u64) -> u64 {
        self.size
    }
    fn tier_index(&self, n: &u64) -> u64 {
        *n
    }
    fn tier_position(&self, _: u64, i: u64) -> Option<u64> {
        Some(i)
    }
    fn visit_tier(&self, _: u64, range: std::ops::Range<u64>, f: &mut dyn FnMut(u64, u64)) {
        for i in range.start..range.end.min(self.size) {
            f(i, i);
            if self.twice {
                f(i, i);
            }
        }
    }
}

/// The tier walk refuses a move inside a tier to an index past the
/// tier's size: before, an index below the bitmap's last word was marked,
/// decoded and counted (6 positions reached in a tier of 3 indices, `Ok`).
#[test]
fn the_tier_walk_refuses_an_index_past_the_tier() {
    let config = Config::default().threads(1);
    let walk = |g: &Climb| crate::reachable_tiers(g, &0, &mut |_, _| Ok(None), &|_| 1, &config);
    let honest = Climb {
        size: 6,
        twice: false,
    };
    assert_eq!(walk(&honest).unwrap().count, 6);
    let short = Climb {
        size: 3,
        twice: false,
    };
    assert_eq!(
        walk(&short).unwrap_err(),
        Error::BadIndex { index: 3, size: 3 }
    );
}

/// A `visit_tier` that gives a position twice is an error of the tier
/// walk naming it: before, the walk subtracted the positions it was given
/// from those it reached and overflowed (a panic in a debug build; in a
/// release build an error that named some 2⁶⁴ indices, or none when the
/// repeat made up for an index left out, and the position was counted
/// twice).
#[test]
fn a_tier_visited_twice_is_an_error_of_the_walk() {
    let config = Config::default().threads(1);
    let twice = Climb {
        size: 6,
        twice: true,
    };
    let err =
        crate::reachable_tiers(&twice, &0, &mut |_, _| Ok(None), &|_| 1, &config).unwrap_err();
    assert!(
        matches!(&err, Error::Broken(m) if m.contains("visit_tier of tier 0 gave index 0 after index 0")),
        "{err}"
    );
}

/// The tier walk counts a position's weight at once, whatever it is:
/// before, it added the outcome once for each unit of weight, so a class
/// of 2⁶⁰ positions (a weight the caller may give) did not finish.
#[test]
fn the_tier_walk_counts_a_heavy_position_at_once() {
    let config = Config::default().threads(1);
    let heavy = 1u64 << 60;
    let reach = crate::reachable_tiers(
        &TieredPile::honest(),
        &3,
        &mut |_, _| Ok(None),
        &|_| heavy,
        &config,
    )
    .unwrap();
    assert_eq!((reach.count, reach.canonical), (4 * heavy, 4));
    assert_eq!(reach.counts.draw, 4 * heavy);
}

/// A table the tier walk's loader refuses within the room the walk
/// leaves it is refused in the figures the caller gave: what the walk
/// needs in all (its bitmaps and the table) against the memory limit,
/// with the loader's advice. Before, it was the loader's refusal against
/// the room, which the caller never gave ("more than the 68639 bytes
/// available" under a limit of 68640).
#[test]
fn a_table_refused_within_the_walks_room_names_the_memory_limit() {
    let limit = 600;
    let config = Config::default().threads(1).memory_limit(limit);
    let mut rooms = Vec::new();
    let err = crate::reachable_tiers(
        &TieredPile::honest(),
        &3,
        &mut |t, room| {
            rooms.push(room);
            game_core::Budget::unlimited()
                .with_memory(room)
                .with_advice("raise it with --memory", "")
                .check_memory(&format!("tier {t} of the store"), 1000)?;
            Ok(None)
        },
        &|_| 1,
        &config,
    )
    .unwrap_err();
    let Error::TooLarge(e) = &err else {
        panic!("{err:?}")
    };
    let room = rooms[0];
    assert!(room < limit, "{room}");
    assert_eq!(
        (e.needed, e.available),
        (limit - room + 1000, limit),
        "{err}"
    );
    assert_eq!(e.raise, "raise it with --memory", "{err}");
    assert!(e.what.contains("tier 3 of the store"), "{err}");
    let text = err.to_string();
    assert!(text.contains("more than the 600 B available"), "{text}");
}

/// Countdowns in tiers of their own: position `(tier, count)`, a move
/// takes one off the count and stays in the tier; tier `t` has
/// `sizes[t]` counts and, when `chained`, declares tier `t - 1` its child
/// tier (which no move reaches).
pub(crate) struct Countdowns {
    pub(crate) sizes: Vec<u64>,
    pub(crate) chained: bool,
}

impl Countdowns {
    /// Two tiers of 100 counts, neither declaring the other.
    fn two() -> Self {
        Countdowns {
            sizes: vec![100, 100],
            chained: false,
        }
    }
}

impl Game for Countdowns {
    type Position = (u64, u64);
    type Move = ();
    fn moves(&self, p: &(u64, u64), out: &mut Vec<()>) {
        if p.1 > 0 {
            out.push(());
        }
    }
    fn play(&self, &(t, n): &(u64, u64), (): &()) -> (u64, u64) {
        (t, n - 1)
    }
}

impl game_core::Tiered for Countdowns {
    fn tiers(&self) -> Vec<u64> {
        (0..self.sizes.len() as u64).collect()
    }
    fn tier(&self, p: &(u64, u64)) -> u64 {
        p.0
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        if self.chained {
            out.extend(t.checked_sub(1));
        }
    }
    fn tier_size(&self, t: u64) -> u64 {
        usize::try_from(t)
            .ok()
            .and_then(|t| self.sizes.get(t))
            .copied()
            .unwrap_or(0)
    }
    fn tier_index(&self, p: &(u64, u64)) -> u64 {
        p.1
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, u64)> {
        (i < self.tier_size(t)).then_some((t, i))
    }
}

/// The certificate of a tiered solution names the first broken position
/// in the solution's order whatever the number of threads: before, each
/// part held a slice of every tier, so with 2 threads (16 parts) it named
/// count 5 of tier 1, with 1 thread (8 parts) count 10 of tier 0.
#[test]
fn a_tiered_rejection_is_the_first_in_order_on_any_threads() {
    let game = Countdowns::two();
    let table = |wrong: u64| {
        let mut t = crate::Table::new(100, false).unwrap();
        for n in 0..100u64 {
            let v = if (n % 2 == 1) != (n == wrong) {
                Value::win(n as u32)
            } else {
                Value::lose(n as u32)
            };
            t.set(n, Some(v)).unwrap();
        }
        t
    };
    let sol = crate::TieredSolution {
        game: &game,
        tables: crate::TierTables::new(vec![0, 1], [(0, table(10)), (1, table(5))]),
    };
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let r = pool.install(|| certify(&sol)).unwrap_err();
        assert_eq!(r.position, (0, 10), "{threads} threads");
        let r = pool.install(|| crate::certify_tiers(&sol)).unwrap_err();
        assert_eq!(r.position, (0, 10), "{threads} threads");
    }
}

/// A store (as a database is) that holds tier 0 finished and keeps what
/// it is given.
struct FirstDone(Saved);

impl crate::TierStore for FirstDone {
    fn keeps_tables(&self) -> bool {
        true
    }
    fn is_done(&self, tier: u64) -> bool {
        tier == 0
    }
    fn save(&mut self, tier: u64, table: &crate::Table) -> Result<(), Error> {
        self.0.save(tier, table)
    }
}

/// A resumed solve checks only the groups of the tiers still to solve: a
/// limit that holds tier 1 but not tier 0 solves tier 1 when the store
/// holds tier 0 finished (the check before the solve counted tier 0's
/// group too and refused, naming tier 0, a tier it would never solve).
#[test]
fn a_resumed_solve_checks_only_the_tiers_still_to_solve() {
    let config = Config::default().threads(1).memory_limit(64 << 10);
    let mut saved = Saved(rustc_hash::FxHashMap::default());
    let uneven = Countdowns {
        sizes: vec![100_000, 100],
        chained: false,
    };
    let err = crate::solve_tiers_with(&uneven, &config, &mut saved).unwrap_err();
    let Error::TooLarge(e) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(e.what, "tier 0 with its child tiers");
    assert!(saved.0.is_empty(), "refused before any tier is solved");
    let mut store = FirstDone(Saved(rustc_hash::FxHashMap::default()));
    crate::solve_tiers_with(&uneven, &config, &mut store).unwrap();
    // Tier 1's countdown alone: an odd count wins, an even one loses.
    let tier1 = &store.0 .0[&1];
    assert_eq!(tier1.len(), 100);
    for (n, v) in tier1.iter().enumerate() {
        let n = n as u32;
        let want = if n % 2 == 1 {
            Value::win(n)
        } else {
            Value::lose(n)
        };
        assert_eq!(*v, Some(want), "count {n}");
    }
    assert!(!store.0 .0.contains_key(&0), "tier 0 is not solved again");
}

/// A countdown in one tier of `size` counts whose `visit_tier`, asked for
/// more than one index, gives at index `i` the count `step(i)` (none:
/// left out); asked for one index at a time it gives the index's own.
struct Stepping {
    size: u64,
    step: fn(u64) -> Option<u64>,
}

/// A countdown from 7 to 0 whose `visit_tier` leaves out count 7 when
/// asked for more than one index (a fast stepping that stops short).
const STOPS_SHORT: Stepping = Stepping {
    size: 8,
    step: |i| (i != 7).then_some(i),
};

/// A countdown from 63 to 0 whose `visit_tier`, asked for more than one
/// index, gives count 63 at index 62 and count 62 at index 63.
const SWAPPED: Stepping = Stepping {
    size: 64,
    step: |i| Some(if i >= 62 { 125 - i } else { i }),
};

impl Game for Stepping {
    type Position = u64;
    type Move = ();
    fn moves(&self, n: &u64, out: &mut Vec<()>) {
        if *n > 0 {
            out.push(());
        }
    }
    fn play(&self, n: &u64, (): &()) -> u64 {
        n - 1
    }
}

impl game_core::Tiered for Stepping {
    fn tiers(&self) -> Vec<u64> {
        vec![0]
    }
    fn tier(&self, _: &u64) -> u64 {
        0
    }
    fn child_tiers(&self, _: u64, _: &mut Vec<u64>) {}
    fn tier_size(&self, _: u64) -> u64 {
        self.size
    }
    fn tier_index(&self, n: &u64) -> u64 {
        *n
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<u64> {
        (t == 0 && i < self.size).then_some(i)
    }
    fn visit_tier(&self, _: u64, range: std::ops::Range<u64>, f: &mut dyn FnMut(u64, u64)) {
        let wide = range.end - range.start > 1;
        for i in range.start..range.end.min(self.size) {
            let p = if wide { (self.step)(i) } else { Some(i) };
            if let Some(p) = p {
                f(i, p);
            }
        }
    }
}

/// [`STOPS_SHORT`]'s solution with count 7 given as lost at once (truly
/// won in 7), every other count right.
fn stops_short_forged() -> crate::TieredSolution<'static, Stepping> {
    let mut table = crate::Table::new(8, false).unwrap();
    for n in 0..8u64 {
        let v = match (n, n % 2) {
            (7, _) => Value::lose(0),
            (_, 1) => Value::win(n as u32),
            _ => Value::lose(n as u32),
        };
        table.set(n, Some(v)).unwrap();
    }
    crate::TieredSolution {
        game: &STOPS_SHORT,
        tables: crate::TierTables::new(vec![0], [(0, table)]),
    }
}

/// The tiered certificate checks a position with a value that
/// `visit_tier` left out: before, count 7 given as lost at once (truly
/// won in 7) was never looked at, and the certificate said `Ok` while
/// the solution answered it.
#[test]
fn the_tiered_certificate_checks_what_visit_tier_leaves_out() {
    let sol = stops_short_forged();
    assert_eq!(sol.value(&7), Some(Value::lose(0)));
    let r = crate::certify_tiers(&sol).unwrap_err();
    assert_eq!((r.position, r.flaw), (7, crate::Flaw::Unvisited));
}

/// Every held position is visited by a tiered solution's `for_each`, so
/// the plain certificate checks it too: before, count 7 of [`STOPS_SHORT`],
/// which its `visit_tier` leaves out, was never visited, and `certify`
/// said `Ok` to it given as lost at once (truly won in 7).
#[test]
fn a_tiered_solution_visits_what_visit_tier_leaves_out() {
    let sol = stops_short_forged();
    assert_eq!(sol.counts().total(), 8);
    let r = certify(&sol).unwrap_err();
    assert_eq!((r.position, r.flaw), (7, crate::Flaw::Lose));
}

/// The plain certificate judges a position with the value the solution
/// answers for it: before, it took the value of the index `for_each` gave
/// the position at, so with [`SWAPPED`] count 63 was judged with index
/// 62's value and count 62 with index 63's, and a table answering a draw
/// for 62 (truly lost in 62) and lost in 62 for 63 (truly won in 63) was
/// certified.
#[test]
fn the_certificate_judges_the_value_the_solution_answers() {
    let mut table = crate::Table::new(64, false).unwrap();
    for n in 0..64u64 {
        let v = match (n, n % 2) {
            (62, _) => Value::DRAW,
            (63, _) => Value::lose(62),
            (_, 1) => Value::win(n as u32),
            _ => Value::lose(n as u32),
        };
        table.set(n, Some(v)).unwrap();
    }
    let sol = crate::TieredSolution {
        game: &SWAPPED,
        tables: crate::TierTables::new(vec![0], [(0, table)]),
    };
    assert_eq!(sol.value(&63), Some(Value::lose(62)));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let r = pool.install(|| certify(&sol)).unwrap_err();
        assert_eq!((r.position, r.flaw), (63, crate::Flaw::Index));
        let r = pool.install(|| crate::certify_tiers(&sol)).unwrap_err();
        assert_eq!((r.position, r.flaw), (63, crate::Flaw::Index));
    }
}

/// `GameCheck::tiered` asks `visit_tier` for a few indices around each
/// sampled one: before, it asked for the index alone, and passed games
/// whose stepping goes wrong only over wider ranges ([`STOPS_SHORT`],
/// [`SWAPPED`]).
#[test]
fn the_game_check_finds_a_visit_tier_wrong_over_wider_ranges() {
    for err in [
        crate::GameCheck::new(&STOPS_SHORT, 100)
            .tiered()
            .map(|_| ()),
        crate::GameCheck::new(&SWAPPED, 100).tiered().map(|_| ()),
    ] {
        let err = err.unwrap_err();
        assert!(err.detail.contains("visit_tier over"), "{err}");
    }
    crate::GameCheck::new(&Countdowns::two(), 1000)
        .tiered()
        .unwrap();
}

/// Tiers 0 and 1 of [`Ends::N`] lost positions each; tier 2's one
/// position moves into tier 0, tier 3's into tier 1: tier 0's table is
/// held while tier 1 is seeded.
struct Ends;

impl Ends {
    const N: u64 = 1000;
}

impl Game for Ends {
    type Position = (u64, u64);
    type Move = ();
    fn moves(&self, &(t, _): &(u64, u64), out: &mut Vec<()>) {
        if t >= 2 {
            out.push(());
        }
    }
    fn play(&self, &(t, _): &(u64, u64), (): &()) -> (u64, u64) {
        (t - 2, 0)
    }
}

impl game_core::Tiered for Ends {
    fn tiers(&self) -> Vec<u64> {
        (0..4).collect()
    }
    fn tier(&self, p: &(u64, u64)) -> u64 {
        p.0
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        if t >= 2 {
            out.push(t - 2);
        }
    }
    fn tier_size(&self, t: u64) -> u64 {
        if t < 2 {
            Self::N
        } else {
            1
        }
    }
    fn tier_index(&self, p: &(u64, u64)) -> u64 {
        p.1
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, u64)> {
        (t < 4 && i < self.tier_size(t)).then_some((t, i))
    }
    fn leaves_tier(&self, _: u64) -> bool {
        true
    }
}

/// A tier refused for its seeds names what it needed in all, the tables
/// held beside it included: tier 1 of [`Ends`], seeded beside tier 0's
/// table under a limit of 19N, was said to need 18N or so (its seeds
/// twice and its own table), less than the limit it was refused under.
#[test]
fn a_refusal_for_seeds_counts_the_tables_held() {
    let n = Ends::N;
    let config = Config::default().threads(1).memory_limit(19 * n);
    let err = crate::solve_tiers_with(&Ends, &config, &mut crate::NoStore).unwrap_err();
    let Error::TooLarge(e) = &err else {
        panic!("{err:?}")
    };
    assert!(e.what.starts_with("the seeds and events"), "{err}");
    assert!(e.needed > e.available, "{err}");
}

/// [`Skip`] whose decoding of tier 1 swaps indices 0 and 1 (and, with
/// `tier`, puts index 3 of tier 1 in tier 2): its positions' own
/// `tier_index` and `tier` place them elsewhere.
struct Misdecoded {
    tier: bool,
}

impl Game for Misdecoded {
    type Position = (u64, u64);
    type Move = ();
    fn moves(&self, p: &(u64, u64), out: &mut Vec<()>) {
        Skip.moves(p, out);
    }
    fn play(&self, p: &(u64, u64), m: &()) -> (u64, u64) {
        Skip.play(p, m)
    }
}

impl game_core::Tiered for Misdecoded {
    fn tiers(&self) -> Vec<u64> {
        Skip.tiers()
    }
    fn tier(&self, p: &(u64, u64)) -> u64 {
        Skip.tier(p)
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        Skip.child_tiers(t, out);
    }
    fn tier_size(&self, t: u64) -> u64 {
        Skip.tier_size(t)
    }
    fn tier_index(&self, p: &(u64, u64)) -> u64 {
        p.1
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, u64)> {
        match (t, i) {
            (1, 3) if self.tier => Some((2, 3)),
            (1, 0 | 1) if !self.tier => Some((1, i ^ 1)),
            _ => Skip.tier_position(t, i),
        }
    }
    fn leaves_tier(&self, _: u64) -> bool {
        true
    }
}

/// A tier index that decodes to a position the game's own `tier` and
/// `tier_index` put elsewhere is a broken promise, refused when the tier
/// is seeded (on a sample: the first 64 positions of each block, then
/// one in 64): the cell was filled from the position decoded, while its
/// parents read the cell the game places it at — here Skip's values hid
/// it, in general a silently wrong table.
#[test]
fn a_decoding_that_the_index_does_not_give_back_is_refused() {
    for (tier, says) in [
        (false, "index 0 of tier 1 decodes to a position that tier() and tier_index() put at index 1 of tier 1"),
        (true, "index 3 of tier 1 decodes to a position that tier() and tier_index() put at index 3 of tier 2"),
    ] {
        let game = Misdecoded { tier };
        for threads in [1, 2] {
            let config = Config::default().threads(threads);
            let err = crate::solve_tiers_with(&game, &config, &mut crate::NoStore).unwrap_err();
            assert!(matches!(&err, Error::Broken(m) if m.contains(says)), "{err:?}");
        }
    }
}

/// Tier 1 holds the start, which moves to either position of tier 0
/// (both lost), or, `one_child`, to the first only.
struct Fork {
    one_child: bool,
}

impl Game for Fork {
    type Position = (u64, u64);
    type Move = u64;
    fn moves(&self, &(t, _): &(u64, u64), out: &mut Vec<u64>) {
        if t == 1 {
            out.push(0);
            if !self.one_child {
                out.push(1);
            }
        }
    }
    fn play(&self, _: &(u64, u64), &i: &u64) -> (u64, u64) {
        (0, i)
    }
}

impl game_core::Tiered for Fork {
    fn tiers(&self) -> Vec<u64> {
        vec![0, 1]
    }
    fn tier(&self, p: &(u64, u64)) -> u64 {
        p.0
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        if t == 1 {
            out.push(0);
        }
    }
    fn tier_size(&self, t: u64) -> u64 {
        2 - t
    }
    fn tier_index(&self, p: &(u64, u64)) -> u64 {
        p.1
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, u64)> {
        (t < 2 && i < 2 - t).then_some((t, i))
    }
    fn leaves_tier(&self, _: u64) -> bool {
        true
    }
}

/// The reachable-first solve counts its weighted positions in checked
/// sums: weights of 2⁶³ pass 2⁶⁴ − 1 inside a tier (the two positions of
/// tier 0) or across tiers (the start and one child), and the solve is
/// `Error::CountOverflow` (it panicked in debug builds and wrapped in
/// release). Weights that sum to `u64::MAX - 1` are counted exactly.
#[test]
fn the_reachable_solve_refuses_weighted_counts_past_u64() {
    let config = Config::default().threads(1);
    let big = |_: &(u64, u64)| 1u64 << 63;
    for one_child in [false, true] {
        let game = Fork { one_child };
        let r = crate::solve_tiers_reachable(&game, &(1, 0), &big, &config, crate::Keep::All);
        assert!(
            matches!(r, Err(Error::CountOverflow { .. })),
            "one child: {one_child}: {:?}",
            r.map(|(_, reach)| reach.count)
        );
    }
    let fits = |p: &(u64, u64)| if p.0 == 1 { 1u64 << 63 } else { (1 << 62) - 1 };
    let fork = Fork { one_child: false };
    let (_, reach) =
        crate::solve_tiers_reachable(&fork, &(1, 0), &fits, &config, crate::Keep::All).unwrap();
    assert_eq!(reach.count, u64::MAX - 1);
    assert_eq!(reach.counts.win, 1 << 63);
    assert_eq!(reach.counts.lose, (1 << 63) - 2);
}
