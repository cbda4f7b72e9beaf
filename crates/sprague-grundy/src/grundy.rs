//! Grundy values of any impartial game, memoised and iterative.

use game_core::{Budget, Game, Impartial};
use rustc_hash::FxHashMap;

use crate::{Error, MexSet};

const ON_PATH: u32 = u32::MAX;

/// A memo of Grundy values for one impartial game.
///
/// [`GrundyTable::grundy`] evaluates a position and everything below it
/// with an explicit stack (no recursion, so deep games are fine) and one
/// shared move buffer; values are remembered across calls. A position that
/// can repeat is reported as [`Error::Cycle`].
///
/// ```
/// use game_core::{Budget, Game, Impartial};
/// use sprague_grundy::GrundyTable;
///
/// /// Take 1, 2 or 3 from a pile: g(n) = n mod 4.
/// struct Take123;
/// impl Game for Take123 {
///     type Position = u32;
///     type Move = u32;
///     fn moves(&self, n: &u32, out: &mut Vec<u32>) { out.extend((1..=3).filter(|t| t <= n)) }
///     fn play(&self, n: &u32, t: &u32) -> u32 { n - t }
/// }
/// impl Impartial for Take123 {}
///
/// let mut table = GrundyTable::new(&Take123);
/// assert_eq!(table.grundy(&10)?, 2);
/// assert_eq!(table.get(&7), Some(3)); // remembered on the way
/// # Ok::<(), sprague_grundy::Error>(())
/// ```
pub struct GrundyTable<'g, G: Game> {
    game: &'g G,
    ids: FxHashMap<G::Position, u32>,
    values: Vec<u32>,
    stack: Vec<Frame<G::Position>>,
    arena: Vec<G::Move>,
    /// The buffer the game lists one position's moves into, empty when
    /// handed over; they are then moved onto `arena`. A game that clears
    /// (or sorts) the buffer it is given cannot touch the moves of the
    /// positions below it on the path.
    fresh: Vec<G::Move>,
    kids: Vec<u64>,
    set: MexSet,
    budget: Budget,
}

struct Frame<P> {
    id: u32,
    pos: P,
    moves_start: usize,
    next: usize,
    kids_start: usize,
}

impl<G: Game> std::fmt::Debug for GrundyTable<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GrundyTable")
            .field("positions", &self.ids.len())
            .finish_non_exhaustive()
    }
}

impl<'g, G: Impartial> GrundyTable<'g, G> {
    /// An empty memo for `game`, whose growth is checked against the memory
    /// really available ([`Budget::available`]).
    pub fn new(game: &'g G) -> Self {
        Self::with_budget(game, Budget::available())
    }

    /// An empty memo for `game` that may grow to `budget`'s memory.
    pub fn with_budget(game: &'g G, budget: Budget) -> Self {
        GrundyTable {
            budget,
            game,
            ids: FxHashMap::default(),
            values: Vec::new(),
            stack: Vec::new(),
            arena: Vec::new(),
            fresh: Vec::new(),
            kids: Vec::new(),
            set: MexSet::new(),
        }
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> &'g G {
        self.game
    }

    /// The Grundy value of `pos`, if already computed.
    #[must_use]
    pub fn get(&self, pos: &G::Position) -> Option<u64> {
        let v = *self.values.get(*self.ids.get(pos)? as usize)?;
        (v != ON_PATH).then_some(u64::from(v))
    }

    /// The number of positions whose value is known.
    #[must_use]
    pub fn len(&self) -> usize {
        // Not `values`: a failed search leaves its open positions' slots
        // there, forgotten by `ids`.
        self.ids.len()
    }

    /// Whether nothing was computed yet.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The Grundy value of `pos`: the mex of its children's values (0 when
    /// it has no move). O(positions + moves) over what is not yet known.
    ///
    /// # Errors
    /// [`Error::Cycle`] if a position can recur; [`Error::TooLarge`] when
    /// the memo, or the memo and the search's path, would outgrow its
    /// memory budget (or 2³² − 1 positions); [`Error::ValueTooLarge`] for
    /// a value past 2³² − 2; [`Error::NotNormalPlay`] for a game that
    /// ends otherwise than by running out of moves.
    pub fn grundy(&mut self, pos: &G::Position) -> Result<u64, Error> {
        if let Some(v) = self.get(pos) {
            return Ok(v);
        }
        let result = self.search(pos);
        if result.is_err() {
            // Forget the positions left open, so the memo stays usable.
            self.stack.clear();
            self.arena.clear();
            self.fresh.clear();
            self.kids.clear();
            self.ids
                .retain(|_, id| self.values[*id as usize] != ON_PATH);
        }
        result
    }

    fn search(&mut self, pos: &G::Position) -> Result<u64, Error> {
        self.open(pos.clone())?;
        loop {
            let top = self.stack.last_mut().expect("searching");
            if top.next < self.arena.len() {
                let child = self.game.play(&top.pos, &self.arena[top.next]);
                top.next += 1;
                match self.ids.get(&child) {
                    Some(&id) if self.values[id as usize] == ON_PATH => {
                        let depth = self
                            .stack
                            .iter()
                            .rev()
                            .position(|f| f.id == id)
                            .map_or(0, |d| d as u64 + 1);
                        return Err(Error::Cycle { depth });
                    }
                    Some(&id) => self.kids.push(u64::from(self.values[id as usize])),
                    None => self.open(child)?,
                }
                continue;
            }
            let frame = self.stack.pop().expect("searching");
            self.arena.truncate(frame.moves_start);
            self.set.clear();
            for &k in &self.kids[frame.kids_start..] {
                self.set.insert(k);
            }
            self.kids.truncate(frame.kids_start);
            let g = self.set.mex();
            let Some(v) = u32::try_from(g).ok().filter(|&v| v != ON_PATH) else {
                return Err(Error::ValueTooLarge { value: g });
            };
            self.values[frame.id as usize] = v;
            if self.stack.is_empty() {
                return Ok(g);
            }
            self.kids.push(g);
        }
    }

    /// Bytes of a memo of `n` positions ([`game_core::budget::memo_bytes`]).
    fn memo_bytes(n: u64) -> u64 {
        game_core::budget::memo_bytes::<G::Position>(n)
    }

    /// Moves the path's two buffers have room for.
    fn moves_room(&self) -> usize {
        self.arena.capacity().saturating_add(self.fresh.capacity())
    }

    /// Makes room for one more position, checking the doubled memo (and
    /// the old one, alive while the map is rebuilt) against the budget.
    fn grow(&mut self) -> Result<(), Error> {
        let len = self.values.len();
        if len < self.ids.capacity() && len < self.values.capacity() {
            return Ok(());
        }
        let bytes_for = Self::memo_bytes;
        let target = (len as u64).saturating_mul(2).max(64);
        let bytes = bytes_for(target).saturating_add(bytes_for(len as u64));
        let refuse = |budget: &Budget| {
            Error::from(
                budget.memory_error(format!("a Grundy memo of more than {len} positions"), bytes),
            )
        };
        if bytes > self.budget.memory() {
            return Err(refuse(&self.budget));
        }
        let more = usize::try_from(target).unwrap_or(usize::MAX) - len;
        if self.ids.try_reserve(more).is_err() || self.values.try_reserve_exact(more).is_err() {
            return Err(refuse(&self.budget));
        }
        Ok(())
    }

    fn open(&mut self, pos: G::Position) -> Result<(), Error> {
        let id = u32::try_from(self.values.len())
            .ok()
            .filter(|&id| id != ON_PATH)
            .ok_or_else(|| {
                self.budget.memory_error(
                    "a Grundy memo of more than 2^32 - 1 positions (the most it numbers)",
                    u64::MAX,
                )
            })?;
        self.grow()?;
        self.ids.insert(pos.clone(), id);
        self.values.push(ON_PATH);
        // Impartial promises normal play: the game ends only when the
        // player to move has no move, and that player loses.
        if self.game.outcome(&pos).is_some() {
            return Err(Error::NotNormalPlay {
                what: "its outcome() ends it at a position",
            });
        }
        let start = self.arena.len();
        let room = self.moves_room();
        // An empty buffer of its own: a game that clears `out` gave wrong
        // values when it was the arena.
        self.game.moves(&pos, &mut self.fresh);
        if self.fresh.is_empty() && self.game.stalemate(&pos) != game_core::Outcome::Lose {
            return Err(Error::NotNormalPlay {
                what: "its stalemate() does not lose",
            });
        }
        // The path grows with depth times moves, which no memo size
        // foretells: it is checked beside the memo each time a buffer
        // grows (the stack before, the moves as the game listed them).
        self.arena.append(&mut self.fresh);
        let full = self.stack.len() == self.stack.capacity();
        let moves = self.moves_room();
        if full || moves != room {
            let held = Self::memo_bytes(self.values.capacity() as u64)
                .saturating_add((self.kids.capacity() as u64).saturating_mul(8));
            let fits = self
                .budget
                .reserve_search_path::<Frame<G::Position>, G::Move>(held, &mut self.stack, moves);
            if let Err(e) = fits {
                // Give the path's memory back: the memo stays usable.
                self.arena = Vec::new();
                self.fresh = Vec::new();
                self.stack = Vec::new();
                return Err(e.into());
            }
        }
        self.stack.push(Frame {
            id,
            pos,
            moves_start: start,
            next: start,
            kids_start: self.kids.len(),
        });
        Ok(())
    }
}

/// The Grundy value of one position of an impartial game (see
/// [`GrundyTable`] to keep values between calls).
///
/// # Errors
/// As [`GrundyTable::grundy`].
pub fn grundy<G: Impartial>(game: &G, pos: &G::Position) -> Result<u64, Error> {
    GrundyTable::new(game).grundy(pos)
}
