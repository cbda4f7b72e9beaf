//! The memoised solver: any acyclic [`Game`], positions in a hash map.

use game_core::{best_move, Budget, Game, Value};
use rustc_hash::FxHashMap;

use crate::engine::{Engine, Slot, Store};
use crate::Error;

const ON_PATH: u32 = u32::MAX;

struct MapStore<P> {
    ids: FxHashMap<P, u32>,
    values: Vec<u32>,
    budget: Budget,
}

impl<P: Eq + std::hash::Hash> MapStore<P> {
    /// Bytes of a table for `n` positions ([`game_core::budget::memo_bytes`]).
    fn bytes_for(n: u64) -> u64 {
        game_core::budget::memo_bytes::<P>(n)
    }

    /// Makes room for one more position, checking the doubled table (and
    /// the old one, alive while the map is rebuilt) against the budget
    /// before the memory is taken.
    fn grow(&mut self) -> Result<(), Error> {
        let len = self.values.len();
        if len < self.ids.capacity() && len < self.values.capacity() {
            return Ok(());
        }
        let target = (len as u64).saturating_mul(2).max(64);
        let bytes = Self::bytes_for(target).saturating_add(Self::bytes_for(len as u64));
        let refuse = || {
            self.budget.memory_error(
                format!(
                    "the table of the positions reached (more than {len}, {} bytes a position \
                     or more)",
                    std::mem::size_of::<(P, u32)>() + 5
                ),
                bytes,
            )
        };
        if bytes > self.budget.memory() {
            return Err(refuse().into());
        }
        let more = usize::try_from(target).unwrap_or(usize::MAX) - len;
        if self.ids.try_reserve(more).is_err() || self.values.try_reserve_exact(more).is_err() {
            return Err(refuse().into());
        }
        Ok(())
    }
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
        let id = u32::try_from(self.values.len())
            .ok()
            .filter(|&id| id != ON_PATH)
            .ok_or_else(|| {
                self.budget.memory_error(
                    "a table of more than 2^32 - 1 positions (the most solver_dp::solve numbers)",
                    u64::MAX,
                )
            })?;
        self.grow()?;
        self.ids.insert(pos.clone(), id);
        self.values.push(ON_PATH);
        Ok(Slot::New(u64::from(id)))
    }

    fn set(&mut self, id: u64, value: Value) {
        self.values[id as usize] = value.to_bits();
    }

    fn bytes(&self) -> u64 {
        Self::bytes_for(self.values.capacity() as u64)
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
/// The table is checked against the memory really available
/// ([`Budget::available`]) each time it grows, before the memory is taken;
/// [`solve_with`] sets another budget.
///
/// # Errors
/// * [`Error::Cycle`] if a position can recur: use retrograde analysis
///   (`solver-retro`) for such games.
/// * [`Error::TooDeep`] if a remoteness exceeds [`game_core::MAX_REMOTENESS`].
/// * [`Error::TerminalDraw`] if the game scores a finished position as a draw.
/// * [`Error::TooLarge`] when the table, or the table and the search's
///   path, would outgrow the memory budget (or 2³² − 1 positions).
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
    solve_with(game, start, &Budget::available())
}

/// [`solve`] within `budget`'s memory. The table counts the positions
/// (`size_of::<G::Position>()` bytes each, in the hash map) and 4 bytes of
/// value each; memory a position owns on the heap (a `Vec` inside it) is
/// not seen, so leave room for it.
///
/// # Errors
/// As [`solve`].
///
/// ```
/// use solver_dp::{Budget, Error, Game};
/// /// Counting up forever in steps of one: unbounded, and acyclic.
/// struct Up;
/// impl Game for Up {
///     type Position = u64;
///     type Move = ();
///     fn moves(&self, _: &u64, out: &mut Vec<()>) { out.push(()) }
///     fn play(&self, n: &u64, _: &()) -> u64 { n + 1 }
/// }
/// let small = Budget::unlimited().with_memory(1 << 20);
/// let err = solver_dp::solve_with(&Up, 0, &small).unwrap_err();
/// assert!(matches!(err, Error::TooLarge(_)), "{err}");
/// ```
pub fn solve_with<'g, G: Game>(
    game: &'g G,
    start: G::Position,
    budget: &Budget,
) -> Result<Solution<'g, G>, Error> {
    let mut store = MapStore {
        ids: FxHashMap::default(),
        values: Vec::new(),
        budget: budget.clone(),
    };
    Engine::new(budget).solve_from(game, &mut store, &start)?;
    Ok(Solution { game, store })
}
