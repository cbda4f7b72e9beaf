//! A game given by its graph, and random ones, for the tests of solvers
//! (feature `fixtures`): solver-dp's and solver-retro's tests solve random
//! graphs against a reference.

use proptest::prelude::*;

use crate::{Game, Indexed, IndexedChildren, IndexedUnmoves, Outcome, Unmoves};

/// A game on the nodes `0..n`: node `p` moves to each node of `edges[p]`
/// (a repeated edge is two moves to one child), and the game is over at
/// `p` with `ends[p]` for the player to move when that is `Some`. A node
/// with no edge and no end is over too, lost for the player to move
/// (normal play). Positions are the nodes, and so are the moves (a move
/// names the node it goes to).
///
/// Parents are found by scanning every node ([`Unmoves`]): a fixture for
/// small graphs, not a fast game. It trusts its fields: `ends` holds one
/// entry a node and every edge names a node below `edges.len()` (a graph
/// built otherwise panics when a solver asks about the missing node).
///
/// ```
/// use game_core::fixtures::Graph;
/// use game_core::{Outcome, Unmoves};
///
/// // 0 moves to 1, which has no move: 1 is lost, so 0 is won.
/// let g = Graph { edges: vec![vec![1], vec![]], ends: vec![None, None] };
/// let mut parents = Vec::new();
/// g.unmoves(&1, &mut parents);
/// assert_eq!(parents, [0]);
/// // A node over by its end has no parent through its edges.
/// let g = Graph { edges: vec![vec![1], vec![]], ends: vec![Some(Outcome::Win), None] };
/// parents.clear();
/// g.unmoves(&1, &mut parents);
/// assert!(parents.is_empty());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    /// The nodes each node moves to.
    pub edges: Vec<Vec<usize>>,
    /// The outcome for the player to move at each node where the game is
    /// over by its rules (`None` where play goes on, or ends by running
    /// out of moves).
    pub ends: Vec<Option<Outcome>>,
}

impl Graph {
    /// Every node, not over, with a move to `child`, in order.
    pub fn parents(&self, child: usize) -> impl Iterator<Item = u64> + '_ {
        (0..self.edges.len())
            .filter(move |&p| self.ends[p].is_none() && self.edges[p].contains(&child))
            .map(|p| p as u64)
    }
}

impl Game for Graph {
    type Position = usize;
    type Move = usize;
    fn moves(&self, p: &usize, out: &mut Vec<usize>) {
        out.extend_from_slice(&self.edges[*p]);
    }
    fn play(&self, _: &usize, to: &usize) -> usize {
        *to
    }
    fn outcome(&self, p: &usize) -> Option<Outcome> {
        self.ends[*p]
    }
}

impl Indexed for Graph {
    fn size(&self) -> u64 {
        self.edges.len() as u64
    }
    fn index(&self, p: &usize) -> u64 {
        *p as u64
    }
    fn position(&self, i: u64) -> Option<usize> {
        usize::try_from(i).ok().filter(|&p| p < self.edges.len())
    }
}

impl Unmoves for Graph {
    fn unmoves(&self, c: &usize, out: &mut Vec<usize>) {
        out.extend(self.parents(*c).map(|p| p as usize));
    }
}

impl IndexedUnmoves for Graph {}

impl IndexedChildren for Graph {}

/// Random graphs of 1 to `max_nodes` − 1 nodes, each with up to three
/// edges (to higher nodes only when `acyclic`, so that play always ends;
/// to any node otherwise, self-loops included), and about a third of the
/// nodes over by their rules, won, lost or tied alike.
///
/// ```
/// use game_core::fixtures::graphs;
/// use proptest::strategy::{Strategy, ValueTree};
/// use proptest::test_runner::TestRunner;
///
/// let mut runner = TestRunner::deterministic();
/// for _ in 0..100 {
///     let g = graphs(8, true).new_tree(&mut runner).unwrap().current();
///     let n = g.edges.len();
///     assert!((1..8).contains(&n));
///     assert!(g.edges.iter().enumerate().all(|(p, e)| e.iter().all(|&c| p < c && c < n)));
/// }
/// ```
pub fn graphs(max_nodes: usize, acyclic: bool) -> impl Strategy<Value = Graph> {
    (1..max_nodes.max(2)).prop_flat_map(move |n| {
        let edges = (0..n)
            .map(move |i| {
                let lo = if acyclic { i + 1 } else { 0 };
                prop::collection::vec(lo..n.max(lo + 1), 0..4)
            })
            .collect::<Vec<_>>();
        let ends = prop::collection::vec(
            prop_oneof![
                6 => Just(None),
                1 => Just(Some(Outcome::Win)),
                1 => Just(Some(Outcome::Lose)),
                1 => Just(Some(Outcome::Tie)),
            ],
            n,
        );
        (edges, ends).prop_map(move |(mut edges, ends)| {
            // The last node's range reaches past it when acyclic.
            for e in &mut edges {
                e.retain(|&c| c < n);
            }
            Graph { edges, ends }
        })
    })
}
