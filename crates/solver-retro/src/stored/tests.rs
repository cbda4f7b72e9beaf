//! Tests of the stored-graph presets (`solve`, `solve_indexed`).

use crate::fixtures::testing::{big_graph, reference};
use crate::Solved;
use crate::{solve_with, Config, Error};
use game_core::fixtures::Graph;
use game_core::{Game, Indexed, Value};
use proptest::prelude::*;

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
