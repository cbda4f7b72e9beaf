//! Capabilities for exact search (`solver-search`): a compact key for the
//! transposition table, and optional hints that make the search fast.
//!
//! * [`SearchKey`] — required by the search: a `u64` that tells positions
//!   apart, so the table stores eight bytes of key instead of a position.
//! * [`SearchHints`] — optional, every method with a default: a move order,
//!   a quick exact value ("wins now", "can only lose"), a counter that grows
//!   with every move (a promise that the game cannot repeat, so the search
//!   need not look for repetitions), and a bound on the plies left.
//! * [`EndgameTable`] — exact values read from a solved table (`None`:
//!   the position is not in it), consulted before searching below a
//!   position.
//!
//! ```
//! use game_core::{EndgameTable, Game, NoTable, SearchHints, SearchKey, Value};
//!
//! struct Take12;
//! impl Game for Take12 {
//!     type Position = u32;
//!     type Move = u32;
//!     fn moves(&self, n: &u32, out: &mut Vec<u32>) {
//!         out.extend((1..=2).filter(|t| t <= n));
//!     }
//!     fn play(&self, n: &u32, t: &u32) -> u32 {
//!         n - t
//!     }
//! }
//! impl SearchKey for Take12 {
//!     fn search_key(&self, n: &u32) -> u64 {
//!         u64::from(*n)
//!     }
//! }
//! impl SearchHints for Take12 {
//!     // Taking the last coins wins at once.
//!     fn quick_value(&self, n: &u32) -> Option<Value> {
//!         (1..=2).contains(n).then_some(Value::win(1))
//!     }
//! }
//! assert_eq!(Take12.quick_value(&2), Some(Value::win(1)));
//! assert_eq!(EndgameTable::<Take12>::table_value(&NoTable, &Take12, &5), None);
//! ```

use crate::{Game, Value};

capability! {
    macro search_key_methods;
    /// A compact key for a search's transposition table: two positions with
    /// the same key must be the same position for the search (the same value
    /// and the same moves to the same keys). Keys of symmetric positions may be
    /// equal (a key of the canonical form) when their values are equal.
    pub trait SearchKey: Game {
        /// The key of `pos`.
        fn search_key(&self, pos: &Self::Position) -> u64;
    }
}

capability! {
    macro search_hints_methods;
    /// Optional hints that make a search faster; every default is correct,
    /// only slower. A hint must never change the answer: a move order is any
    /// order, a quick value is the exact value.
    pub trait SearchHints: Game {
        /// Reorders `moves` (the moves of `pos`, in generation order) so that
        /// the likely best come first. The default keeps generation order.
        fn order_moves(&self, _pos: &Self::Position, _moves: &mut [Self::Move]) {}

        /// The moves worth searching: reorders `moves` (the moves of `pos`, a
        /// position not over for which [`SearchHints::quick_value`] gave
        /// `None`, in generation order) as [`SearchHints::order_moves`] would
        /// and returns how many of the first are enough — a count `n ≥ 1`
        /// such that the best value among `moves[..n]` is the value of `pos`
        /// (a move left out is never better, for the player to move, than
        /// the best kept; Connect Four: a move that lets the opponent win at
        /// once is left out while another does not). The search tries only
        /// those; every move's value (an analysis of the position) still
        /// looks at all. The default keeps every move, in the order of
        /// [`SearchHints::order_moves`].
        fn useful_moves(&self, pos: &Self::Position, moves: &mut [Self::Move]) -> usize {
            self.order_moves(pos, moves);
            moves.len()
        }

        /// The exact value of `pos`, a position not over, when a cheap test
        /// tells it ("wins now": a move wins at once, `Value::win(1)`; "can
        /// only lose": every move lets the opponent win at once,
        /// `Value::lose(2)`); `None` when the test does not apply.
        fn quick_value(&self, _pos: &Self::Position) -> Option<Value> {
            None
        }

        /// The value of `child`, a position reached by a move that
        /// [`SearchHints::useful_moves`] kept from a position not over
        /// without a quick value, when it is over or a cheap test tells it:
        /// exactly what [`Game::outcome`] (a game over, remoteness 0) and
        /// then [`SearchHints::quick_value`] say of it, which the default
        /// asks. A game may skip the tests its kept moves rule out
        /// (Connect Four: a kept move never makes four, nor leaves the
        /// opponent a win at once).
        fn kept_child_value(&self, child: &Self::Position) -> Option<Value> {
            match self.outcome(child) {
                Some(o) => Some(Value::new(o, 0)),
                None => self.quick_value(child),
            }
        }

        /// Whether [`SearchHints::quick_value`] is complete: it gives the
        /// value of every position not over that wins in 1 ply or loses in
        /// 2, and every game over is a loss or a tie for the player to move
        /// (so a win takes an odd number of plies and a loss an even one).
        /// Then a position not over without a quick value wins in 3 plies
        /// at the fastest and loses in 4 at the fastest, which the search
        /// uses to cut (Connect Four: yes). The default: `false`.
        fn quick_value_complete(&self) -> bool {
            false
        }

        /// A number that grows with every move (Connect Four: the pieces on
        /// the board): the promise that no position repeats, so the search
        /// skips its check for repetitions (and checks the promise instead,
        /// one comparison a move). `None` (the default): no promise.
        fn progress(&self, _pos: &Self::Position) -> Option<u64> {
            None
        }

        /// An upper bound on the plies left from `pos` in any line of play
        /// (Connect Four: the empty cells), which narrows the remoteness the
        /// search must consider. `None` (the default): no bound known.
        fn plies_left(&self, _pos: &Self::Position) -> Option<u32> {
            None
        }

        /// The remoteness of `pos` if it is a tie, when every line of play
        /// from it that ends in a tie lasts as long (Connect Four: a tie is a
        /// full board). `None` (the default): the search finds the fastest tie.
        fn tie_remoteness(&self, _pos: &Self::Position) -> Option<u32> {
            None
        }
    }
}

/// Exact values read from a solved table: `Some(value)` for a position in
/// the table, `None` for one that is not (the search goes on below it).
///
/// A closure `Fn(&G::Position) -> Option<Value>` is a table.
pub trait EndgameTable<G: Game + ?Sized> {
    /// The value of `pos` for the player to move, if the table holds it.
    fn table_value(&self, game: &G, pos: &G::Position) -> Option<Value>;
}

/// No table: every position is searched.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoTable;

impl<G: Game + ?Sized> EndgameTable<G> for NoTable {
    #[inline]
    fn table_value(&self, _game: &G, _pos: &G::Position) -> Option<Value> {
        None
    }
}

impl<G: Game + ?Sized, F: Fn(&G::Position) -> Option<Value>> EndgameTable<G> for F {
    #[inline]
    fn table_value(&self, _game: &G, pos: &G::Position) -> Option<Value> {
        self(pos)
    }
}

// A game lent to a search keeps its key and hints.
forward!(search_key_methods impl[G: SearchKey + ?Sized] for &G => G, |s| (**s));
forward!(search_hints_methods impl[G: SearchHints + ?Sized] for &G => G, |s| (**s));

// Misère play keeps the positions, so the key, the progress, the bound on
// plies left and when ties end (misère changes who wins, not when the game
// ends: a tie stays a tie); a quick value and a move order speak of how the game
// ends, which misère play changes, so they keep their defaults.
forward!(search_key_methods impl[G: SearchKey] for crate::Misere<G> => G, |s| s.0);
// The hints are passed on one by one, by choice: a hint speaks of how
// the game ends unless shown otherwise, and one passed on wrongly would
// change the answer where one left out only slows the search (the
// opposite of a fast path, which the generated forwarding serves).
impl<G: SearchHints> SearchHints for crate::Misere<G> {
    #[inline]
    fn progress(&self, pos: &Self::Position) -> Option<u64> {
        self.0.progress(pos)
    }
    #[inline]
    fn plies_left(&self, pos: &Self::Position) -> Option<u32> {
        self.0.plies_left(pos)
    }
    #[inline]
    fn tie_remoteness(&self, pos: &Self::Position) -> Option<u32> {
        self.0.tie_remoteness(pos)
    }
}

#[cfg(feature = "fixtures")]
impl SearchKey for crate::fixtures::Graph {
    fn search_key(&self, pos: &usize) -> u64 {
        *pos as u64
    }
}

/// No hints: the fixture graphs test the search's own paths.
#[cfg(feature = "fixtures")]
impl SearchHints for crate::fixtures::Graph {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Misere, Outcome};

    struct Take12;
    impl Game for Take12 {
        type Position = u32;
        type Move = u32;
        fn moves(&self, n: &u32, out: &mut Vec<u32>) {
            out.extend((1..=2).filter(|t| t <= n));
        }
        fn play(&self, n: &u32, t: &u32) -> u32 {
            n - t
        }
    }
    impl SearchKey for Take12 {
        fn search_key(&self, n: &u32) -> u64 {
            u64::from(*n) + 100
        }
    }
    impl SearchHints for Take12 {
        fn quick_value(&self, n: &u32) -> Option<Value> {
            (1..=2).contains(n).then_some(Value::win(1))
        }
        fn progress(&self, n: &u32) -> Option<u64> {
            Some(u64::from(u32::MAX - n))
        }
        fn order_moves(&self, _: &u32, moves: &mut [u32]) {
            moves.reverse();
        }
    }

    #[test]
    fn references_keep_hints_and_misere_keeps_only_what_it_may() {
        let g = &Take12;
        assert_eq!(g.search_key(&3), 103);
        assert_eq!(g.quick_value(&1), Some(Value::win(1)));
        let mut m = [1, 2];
        g.order_moves(&5, &mut m);
        assert_eq!(m, [2, 1]);
        let mis = Misere(Take12);
        assert_eq!(mis.search_key(&3), 103);
        assert_eq!(mis.progress(&3), Take12.progress(&3));
        // Taking the last coin loses in misère play: no quick win there.
        assert_eq!(mis.quick_value(&1), None);
        let mut m = [1, 2];
        mis.order_moves(&5, &mut m);
        assert_eq!(m, [1, 2]);
    }

    #[test]
    fn closures_are_tables() {
        let table = |n: &u32| (*n == 0).then_some(Value::new(Outcome::Lose, 0));
        assert_eq!(table.table_value(&Take12, &0), Some(Value::lose(0)));
        assert_eq!(table.table_value(&Take12, &4), None);
        assert_eq!(NoTable.table_value(&Take12, &0), None);
    }
}
