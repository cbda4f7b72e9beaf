//! The flat-array solver for games with a dense position index.

use game_core::{best_move, Budget, Indexed, Value};

use crate::engine::{Engine, Slot, Store};
use crate::Error;

const UNSEEN: u32 = u32::MAX;
const ON_PATH: u32 = u32::MAX - 1;

/// The memory assumed where the system tells nothing about the memory
/// available (8 GiB); [`solve_indexed`] otherwise uses what is really
/// available (see [`game_core::budget::available_memory`]).
pub const DEFAULT_MEMORY_LIMIT: u64 = game_core::budget::FALLBACK_MEMORY;

struct FlatStore<'g, G> {
    game: &'g G,
    values: Vec<u32>,
}

impl<G: Indexed> Store<G> for FlatStore<'_, G> {
    fn visit(&mut self, pos: &G::Position) -> Result<Slot, Error> {
        let i = self.game.index(pos);
        let slot = self.values.get_mut(i as usize).ok_or_else(|| {
            Error::Game(game_core::Error::InvalidPosition(format!(
                "index {i} is outside 0..{}",
                self.game.size()
            )))
        })?;
        Ok(match *slot {
            UNSEEN => {
                *slot = ON_PATH;
                Slot::New(i)
            }
            ON_PATH => Slot::OnPath,
            bits => Slot::Done(Value::from_bits(bits).expect("stored value")),
        })
    }

    fn set(&mut self, id: u64, value: Value) {
        self.values[id as usize] = value.to_bits();
    }

    fn bytes(&self) -> u64 {
        (self.values.capacity() as u64).saturating_mul(4)
    }
}

/// Every position of an [`Indexed`] game with its value, in a flat array of
/// 4 bytes a position.
pub struct IndexedSolution<'g, G> {
    store: FlatStore<'g, G>,
}

impl<G: Indexed> std::fmt::Debug for IndexedSolution<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("IndexedSolution")
            .field("size", &self.store.values.len())
            .finish_non_exhaustive()
    }
}

impl<'g, G: Indexed> IndexedSolution<'g, G> {
    /// The game this solves.
    #[must_use]
    pub fn game(&self) -> &'g G {
        self.store.game
    }

    /// The value of the position with index `index` (`None` for an index
    /// that stands for no position).
    #[must_use]
    pub fn value_at(&self, index: u64) -> Option<Value> {
        Value::from_bits(*self.store.values.get(usize::try_from(index).ok()?)?)
    }

    /// The value of `pos` for the player to move.
    #[must_use]
    pub fn value(&self, pos: &G::Position) -> Option<Value> {
        self.value_at(self.store.game.index(pos))
    }

    /// A best move at `pos` and the value it achieves (see
    /// [`game_core::best_move`] for the rule); `None` at a terminal position.
    #[must_use]
    pub fn best_move(&self, pos: &G::Position) -> Option<(G::Move, Value)> {
        best_move(self.store.game, pos, |c| self.value(c), &mut Vec::new())
    }

    /// The raw table: `Value::to_bits` per index, `u32::MAX` for indices
    /// that stand for no position.
    #[must_use]
    pub fn table(&self) -> &[u32] {
        &self.store.values
    }
}

/// Solves every position of an [`Indexed`] acyclic game, with a flat table
/// of 4 bytes a position and no hash map, checked against the memory really
/// available ([`Budget::available`]) before it is taken.
///
/// Indices are visited in increasing order; each unsolved one starts an
/// iterative depth-first search. When moves lead to smaller indices (piles
/// that shrink), every child is already solved when its parent is reached,
/// so the solve is one bottom-up pass. Time O(size + moves); no allocation
/// per position.
///
/// # Errors
/// [`Error::Cycle`], [`Error::TooDeep`], [`Error::TerminalDraw`] as for
/// [`crate::solve`]; [`Error::TooLarge`] if the table, or the table and
/// the search's path, exceeds the memory budget; an invalid position error if the game maps a position outside
/// `0..size`, or if [`Indexed::position`] gives for an index a position
/// whose [`Indexed::index`] is another.
///
/// ```
/// use game_core::{Game, Indexed, Outcome};
/// struct Take12(u64);
/// impl Game for Take12 {
///     type Position = u64;
///     type Move = u64;
///     fn moves(&self, n: &u64, out: &mut Vec<u64>) { out.extend((1..=2).filter(|t| t <= n)) }
///     fn play(&self, n: &u64, t: &u64) -> u64 { n - t }
/// }
/// impl Indexed for Take12 {
///     fn size(&self) -> u64 { self.0 + 1 }
///     fn index(&self, n: &u64) -> u64 { *n }
///     fn position(&self, i: u64) -> Option<u64> { Some(i) }
/// }
/// let sol = solver_dp::solve_indexed(&Take12(1000)).unwrap();
/// assert_eq!(sol.value(&999).unwrap().outcome(), Outcome::Lose);
/// ```
pub fn solve_indexed<G: Indexed>(game: &G) -> Result<IndexedSolution<'_, G>, Error> {
    solve_indexed_with(game, &Budget::available())
}

/// [`solve_indexed`] with an explicit memory limit in bytes for the table.
///
/// # Errors
/// As [`solve_indexed`].
pub fn solve_indexed_with_limit<G: Indexed>(
    game: &G,
    limit: u64,
) -> Result<IndexedSolution<'_, G>, Error> {
    solve_indexed_with(game, &Budget::available().with_memory(limit))
}

/// [`solve_indexed`] within `budget`'s memory.
///
/// # Errors
/// As [`solve_indexed`].
pub fn solve_indexed_with<'g, G: Indexed>(
    game: &'g G,
    budget: &Budget,
) -> Result<IndexedSolution<'g, G>, Error> {
    let size = game.size();
    let values = budget.vec(
        &format!("a table of {size} positions (4 bytes each)"),
        size,
        UNSEEN,
    )?;
    let mut store = FlatStore { game, values };
    let mut engine = Engine::new(budget);
    for i in 0..size {
        if store.values[i as usize] != UNSEEN {
            continue;
        }
        if let Some(pos) = game.position(i) {
            engine.solve_from(game, &mut store, &pos)?;
            // The search filled the slot of `pos`'s index: if that is not
            // `i`, index `i` would read as standing for no position.
            if store.values[i as usize] == UNSEEN {
                return Err(Error::Game(game_core::Error::InvalidPosition(format!(
                    "position({i}) has index {}, not {i}",
                    game.index(&pos)
                ))));
            }
        }
    }
    Ok(IndexedSolution { store })
}
