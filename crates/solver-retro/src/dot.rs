//! Graphviz DOT export of a solved game graph, through petgraph.

use std::fmt::Write as _;

use game_core::{Game, Outcome, Value};
use petgraph::dot::{Config as DotConfig, Dot};
use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashMap;

use crate::solution::Solved;

/// The fill colour of a node by its value for the player to move.
#[must_use]
pub fn colour(v: Value) -> &'static str {
    match v.outcome() {
        Outcome::Win => "palegreen",
        Outcome::Lose => "lightcoral",
        Outcome::Tie => "lightblue",
        Outcome::Draw => "khaki",
    }
}

/// The positions reachable from `start` and their moves, as a petgraph
/// graph whose nodes carry (label, value) — `None` for a position the
/// solution does not hold — and edges the move label.
///
/// Stops adding positions after `max_positions` (their moves out are
/// left out), so a huge game cannot make a huge picture by accident; and
/// draws one edge a distinct child, labelled with its first moves (the
/// rest counted), so a position with millions of moves to a few children
/// draws a few edges.
pub fn graph<S: Solved>(
    solution: &S,
    start: &<S::Game as Game>::Position,
    max_positions: usize,
    node_label: impl Fn(&<S::Game as Game>::Position) -> String,
    move_label: impl Fn(&<S::Game as Game>::Move) -> String,
) -> DiGraph<(String, Option<Value>), String> {
    /// Moves named on one edge; past them the edge says how many more.
    const NAMED: usize = 3;
    let game = solution.game();
    let mut g = DiGraph::new();
    let mut ids: FxHashMap<<S::Game as Game>::Position, NodeIndex> = FxHashMap::default();
    let mut queue = vec![start.clone()];
    ids.insert(
        start.clone(),
        g.add_node((node_label(start), solution.value(start))),
    );
    let mut moves = Vec::new();
    // This position's edges: the child, its named moves, how many more.
    let mut edges: Vec<(NodeIndex, Vec<String>, usize)> = Vec::new();
    let mut edge_of: FxHashMap<NodeIndex, usize> = FxHashMap::default();
    let mut head = 0;
    while head < queue.len() {
        let pos = queue[head].clone();
        head += 1;
        let from = ids[&pos];
        if game.outcome(&pos).is_some() {
            continue;
        }
        moves.clear();
        game.moves(&pos, &mut moves);
        edges.clear();
        edge_of.clear();
        for m in &moves {
            let child = game.play(&pos, m);
            let to = match ids.get(&child) {
                Some(&to) => to,
                None if ids.len() < max_positions => {
                    let to = g.add_node((node_label(&child), solution.value(&child)));
                    ids.insert(child.clone(), to);
                    queue.push(child);
                    to
                }
                None => continue,
            };
            let k = *edge_of.entry(to).or_insert_with(|| {
                edges.push((to, Vec::new(), 0));
                edges.len() - 1
            });
            let (_, named, more) = &mut edges[k];
            if named.len() < NAMED {
                named.push(move_label(m));
            } else {
                *more += 1;
            }
        }
        for (to, named, more) in edges.drain(..) {
            let mut label = named.join(", ");
            if more > 0 {
                let _ = write!(label, " (+{more} more)");
            }
            g.add_edge(from, to, label);
        }
    }
    g
}

/// The solved graph reachable from `start` in Graphviz DOT: one node a
/// position, labelled with `node_label` and its value, filled by value
/// (win green, loss red, tie blue, draw yellow, for the player to move;
/// grey and "unknown" for a position the solution does not hold); one
/// edge a distinct child, labelled with its moves ([`graph`]). At most
/// `max_positions` nodes.
///
/// ```
/// use game_core::{Game, Outcome};
/// struct Walk; // step a counter 0..=2 up or down; reaching 2 wins
/// impl Game for Walk {
///     type Position = u8;
///     type Move = i8;
///     fn moves(&self, n: &u8, out: &mut Vec<i8>) { out.push(1); if *n > 0 { out.push(-1) } }
///     fn play(&self, n: &u8, d: &i8) -> u8 { (*n as i8 + d) as u8 }
///     fn outcome(&self, n: &u8) -> Option<Outcome> { (*n == 2).then_some(Outcome::Lose) }
/// }
/// let sol = solver_retro::solve(&Walk, 0).unwrap();
/// let dot = solver_retro::to_dot(&sol, &0, 100, |n| n.to_string(), |d| format!("{d:+}"));
/// assert!(dot.starts_with("digraph"));
/// assert!(dot.contains("palegreen")); // 1 is won: step up to 2
/// ```
pub fn to_dot<S: Solved>(
    solution: &S,
    start: &<S::Game as Game>::Position,
    max_positions: usize,
    node_label: impl Fn(&<S::Game as Game>::Position) -> String,
    move_label: impl Fn(&<S::Game as Game>::Move) -> String,
) -> String {
    let g = graph(solution, start, max_positions, node_label, move_label);
    let dot = Dot::with_attr_getters(
        &g,
        &[DotConfig::EdgeNoLabel, DotConfig::NodeNoLabel],
        &|_, e| format!("label = {:?}", e.weight()),
        &|_, (_, (label, v))| match v {
            Some(v) => format!(
                "label = {:?}, style = filled, fillcolor = {}",
                format!("{label}\n{v}"),
                colour(*v)
            ),
            None => format!(
                "label = {:?}, style = filled, fillcolor = lightgrey",
                format!("{label}\nunknown")
            ),
        },
    );
    let mut out = String::new();
    let _ = write!(out, "{dot:?}");
    out
}

/// Tests of the Graphviz export.
#[cfg(test)]
mod tests {
    use crate::solve;
    use game_core::fixtures::Graph;

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
}
