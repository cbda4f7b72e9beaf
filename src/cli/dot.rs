//! Graphviz DOT of a chosen set of solved positions: the picture a person
//! can read, with a note in the graph when it leaves positions out.
//!
//! `solver_retro::to_dot` draws everything reachable in breadth-first order
//! up to a count; this draws exactly the positions it is given (the
//! positions near the start and on the line of perfect play, say), marks
//! the ones with moves leading out of the picture, and writes the DOT text
//! directly, without building a graph first.

use std::fmt::Write as _;

use game_core::{Game, Value};
use std::collections::HashMap;

/// Bytes of DOT text a node and an edge take, about (for budget checks).
pub const BYTES_PER_NODE: u64 = 160;
/// See [`BYTES_PER_NODE`].
pub const BYTES_PER_EDGE: u64 = 48;

/// What to draw and how to label it.
pub struct Picture<'a, G: Game> {
    /// The game.
    pub game: &'a G,
    /// The positions to draw, in the order their nodes are numbered.
    pub nodes: &'a [G::Position],
    /// A title and, when the picture leaves positions out, what it shows.
    pub note: String,
}

/// The DOT text of `pic`: one node a position (filled by its value for the
/// player to move: win green, loss red, tie blue, draw yellow), one edge a
/// move between drawn positions; a node whose moves lead out of the picture
/// has a double border and says how many.
pub fn render<G: Game>(
    pic: &Picture<'_, G>,
    value_of: impl Fn(&G::Position) -> Option<Value>,
    node_label: impl Fn(&G::Position) -> String,
    move_label: impl Fn(&G::Move) -> String,
) -> String {
    let ids: HashMap<&G::Position, usize> =
        pic.nodes.iter().enumerate().map(|(i, p)| (p, i)).collect();
    let mut out = String::from("digraph {\n");
    let _ = writeln!(
        out,
        "    graph [ label = {:?}, labelloc = t ]\n    node [ shape = box ]",
        pic.note
    );
    let mut moves = Vec::new();
    let mut edges = String::new();
    for (i, pos) in pic.nodes.iter().enumerate() {
        let v = value_of(pos);
        let mut hidden = 0usize;
        if pic.game.outcome(pos).is_none() {
            moves.clear();
            pic.game.moves(pos, &mut moves);
            for m in &moves {
                match ids.get(&pic.game.play(pos, m)) {
                    Some(&to) => {
                        let _ = writeln!(edges, "    {i} -> {to} [ label = {:?} ]", move_label(m));
                    }
                    None => hidden += 1,
                }
            }
        }
        let value = v.map_or("unknown".into(), |v| v.to_string());
        let mut label = format!("{}\n{value}", node_label(pos));
        if hidden > 0 {
            let _ = write!(
                label,
                "\n+{hidden} move{} not drawn",
                if hidden == 1 { "" } else { "s" }
            );
        }
        let colour = v.map_or("white", solver_retro::colour);
        let _ = writeln!(
            out,
            "    {i} [ label = {label:?}, style = filled, fillcolor = {colour}{} ]",
            if hidden > 0 { ", peripheries = 2" } else { "" }
        );
    }
    out.push_str(&edges);
    out.push_str("}\n");
    out
}

/// Positions reachable from `start` within `depth` plies, breadth first,
/// at most `max` of them; `true` if some were left out for `max`.
pub fn near<G: Game>(
    game: &G,
    start: &G::Position,
    depth: usize,
    max: usize,
) -> (Vec<G::Position>, bool) {
    let mut seen: HashMap<G::Position, usize> = HashMap::new();
    seen.insert(start.clone(), 0);
    let mut order = vec![start.clone()];
    let mut moves = Vec::new();
    let mut head = 0;
    let mut cut = false;
    while head < order.len() {
        let pos = order[head].clone();
        head += 1;
        let d = seen[&pos];
        if d >= depth || game.outcome(&pos).is_some() {
            continue;
        }
        moves.clear();
        game.moves(&pos, &mut moves);
        for m in &moves {
            let child = game.play(&pos, m);
            if seen.contains_key(&child) {
                continue;
            }
            if order.len() >= max {
                cut = true;
                continue;
            }
            seen.insert(child.clone(), d + 1);
            order.push(child);
        }
    }
    (order, cut)
}
