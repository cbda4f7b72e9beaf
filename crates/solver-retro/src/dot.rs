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
/// graph whose nodes carry (label, value) and edges the move label.
///
/// Stops adding positions after `max_positions` (their moves out are
/// left out), so a huge game cannot make a huge picture by accident.
pub fn graph<S: Solved>(
    solution: &S,
    start: &<S::Game as Game>::Position,
    max_positions: usize,
    node_label: impl Fn(&<S::Game as Game>::Position) -> String,
    move_label: impl Fn(&<S::Game as Game>::Move) -> String,
) -> DiGraph<(String, Value), String> {
    let game = solution.game();
    let mut g = DiGraph::new();
    let mut ids: FxHashMap<<S::Game as Game>::Position, NodeIndex> = FxHashMap::default();
    let mut queue = vec![start.clone()];
    let v0 = solution.value(start).unwrap_or(Value::DRAW);
    ids.insert(start.clone(), g.add_node((node_label(start), v0)));
    let mut moves = Vec::new();
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
        for m in &moves {
            let child = game.play(&pos, m);
            let to = match ids.get(&child) {
                Some(&to) => to,
                None if ids.len() < max_positions => {
                    let v = solution.value(&child).unwrap_or(Value::DRAW);
                    let to = g.add_node((node_label(&child), v));
                    ids.insert(child.clone(), to);
                    queue.push(child);
                    to
                }
                None => continue,
            };
            g.add_edge(from, to, move_label(m));
        }
    }
    g
}

/// The solved graph reachable from `start` in Graphviz DOT: one node a
/// position, labelled with `node_label` and its value, filled by value
/// (win green, loss red, tie blue, draw yellow, for the player to move);
/// one edge a move, labelled with `move_label`. At most `max_positions`
/// nodes.
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
        &|_, (_, (label, v))| {
            format!(
                "label = {:?}, style = filled, fillcolor = {}",
                format!("{label}\n{v}"),
                colour(*v)
            )
        },
    );
    let mut out = String::new();
    let _ = write!(out, "{dot:?}");
    out
}
