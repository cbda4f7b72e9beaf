//! The memoised solver: any acyclic [`Game`], positions in a hash map.

use game_core::{best_move, Game, Value};
use rustc_hash::FxHashMap;

use crate::engine::{Engine, Slot, Store};
use crate::Error;

const ON_PATH: u32 = u32::MAX;

struct MapStore<P> {
    ids: FxHashMap<P, u32>,
    values: Vec<u32>,
}

impl<G: Game> Store<G> for MapStore<G::Position> {
    fn visit(&mut self, pos: &G::Position) -> Result<Slot, Error> {
        if let Some(&id) = self.ids.get(pos) {
            let bits = self.values[id as usize];
            return Ok(if bits == ON_PATH {
                Slot::OnPath
            } else {
                Slot::Done(Value::from_bits(bits).expect("stored value"))
            });
        }
        let id = u32::try_from(self.values.len()).map_err(|_| Error::TooLarge {
            positions: self.values.len() as u64 + 1,
            bytes: u64::MAX,
            limit: u64::from(u32::MAX),
        })?;
        self.ids.insert(pos.clone(), id);
        self.values.push(ON_PATH);
        Ok(Slot::New(u64::from(id)))
    }

    fn set(&mut self, id: u64, value: Value) {
        self.values[id as usize] = value.to_bits();
    }
}

/// Every position reachable from a start, with its value.
///
/// Made by [`solve`]. Holds 4 bytes a position plus the hash map from
/// positions to ids.
pub struct Solution<'g, G: Game> {
    game: &'g G,
    store: MapStore<G::Position>,
}

impl<G: Game> std::fmt::Debug for Solution<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solution")
            .field("positions", &self.len())
            .finish_non_exhaustive()
    }
}

impl<'g, G: Game> Solution<'g, G> {
    /// The game this solves.
    #[must_use]
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// The number of positions solved.
    #[must_use]
    pub fn len(&self) -> usize {
        self.store.values.len()
    }

    /// Whether no position was solved (never true for a finished solve).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.store.values.is_empty()
    }

    /// The value of `pos` for the player to move, if it was reached.
    #[must_use]
    pub fn value(&self, pos: &G::Position) -> Option<Value> {
        let &id = self.store.ids.get(pos)?;
        Value::from_bits(self.store.values[id as usize])
    }

    /// A best move at `pos` and the value it achieves: the fastest win, else
    /// the fastest tie, else the slowest loss; among equals, the first move
    /// in [`Game::moves`] order. `None` at a terminal or unknown position.
    #[must_use]
    pub fn best_move(&self, pos: &G::Position) -> Option<(G::Move, Value)> {
        self.value(pos)?;
        best_move(self.game, pos, |c| self.value(c), &mut Vec::new())
    }

    /// Every solved position with its value, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&G::Position, Value)> + '_ {
        self.store.ids.iter().map(|(p, &id)| {
            (
                p,
                Value::from_bits(self.store.values[id as usize]).expect("solved"),
            )
        })
    }
}

/// Solves every position reachable from `start` by depth-first backward
/// induction with memoisation.
///
/// Iterative (an explicit stack), so games millions of plies deep do not
/// overflow the call stack; one shared move buffer, so no allocation per
/// position beyond the table itself. Time O(positions + moves) hash
/// operations; memory: the hash map plus 4 bytes a position.
///
/// # Errors
/// * [`Error::Cycle`] if a position can recur: use retrograde analysis
///   (`solver-retro`) for such games.
/// * [`Error::TooDeep`] if a remoteness exceeds [`game_core::MAX_REMOTENESS`].
/// * [`Error::TooLarge`] past 2³² positions.
///
/// ```
/// use game_core::{Game, Value};
/// struct Take12;
/// impl Game for Take12 {
///     type Position = u32;
///     type Move = u32;
///     fn moves(&self, n: &u32, out: &mut Vec<u32>) { out.extend((1..=2).filter(|t| t <= n)) }
///     fn play(&self, n: &u32, t: &u32) -> u32 { n - t }
/// }
/// let sol = solver_dp::solve(&Take12, 10).unwrap();
/// assert_eq!(sol.len(), 11);
/// assert_eq!(sol.value(&9), Some(Value::lose(6)));
/// assert_eq!(sol.best_move(&10), Some((1, Value::win(7))));
/// ```
pub fn solve<G: Game>(game: &G, start: G::Position) -> Result<Solution<'_, G>, Error> {
    let mut store = MapStore {
        ids: FxHashMap::default(),
        values: Vec::new(),
    };
    Engine::new().solve_from(game, &mut store, &start)?;
    Ok(Solution { game, store })
}
