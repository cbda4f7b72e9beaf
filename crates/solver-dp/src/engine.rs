//! The iterative depth-first backward induction shared by both solvers.
//!
//! One explicit stack of frames and one shared arena of moves: no recursion
//! (a game a million plies deep is fine) and no allocation per position once
//! the buffers have grown.
//!
//! The game lists each position's moves into a buffer of its own, empty,
//! and they are then moved onto the arena: a game that clears (or sorts)
//! the buffer it is given cannot touch the moves of the positions below
//! it on the path, which the arena holds.

use game_core::{Budget, Game, Value};

use crate::fold::{fold, terminal_value};
use crate::Error;

/// What a store knows about a position.
pub(crate) enum Slot {
    /// Solved.
    Done(Value),
    /// On the current search path: reaching it again closes a cycle.
    OnPath,
    /// Not seen before; it now has this id and is marked as on the path.
    New(u64),
}

/// Where the engine keeps values: a hash map or a flat array.
pub(crate) trait Store<G: Game> {
    /// Looks `pos` up; a new position is registered and marked on-path.
    fn visit(&mut self, pos: &G::Position) -> Result<Slot, Error>;
    /// Records the value of the position with id `id`.
    fn set(&mut self, id: u64, value: Value);
    /// Bytes the store holds: what the search path must fit beside.
    fn bytes(&self) -> u64;
}

struct Frame<P> {
    id: u64,
    pos: P,
    moves_start: usize,
    next: usize,
    best: Option<Value>,
}

/// Reusable buffers for [`Engine::solve_from`], and the budget they and
/// the store share.
pub(crate) struct Engine<G: Game> {
    stack: Vec<Frame<G::Position>>,
    arena: Vec<G::Move>,
    /// The buffer the game lists one position's moves into: always empty
    /// when handed over.
    fresh: Vec<G::Move>,
    budget: Budget,
}

impl<G: Game> Engine<G> {
    pub(crate) fn new(budget: &Budget) -> Self {
        Engine {
            stack: Vec::new(),
            arena: Vec::new(),
            fresh: Vec::new(),
            budget: budget.clone(),
        }
    }

    /// Solves `root` and everything reachable from it that `store` does not
    /// know yet; returns the root's value.
    pub(crate) fn solve_from<S: Store<G>>(
        &mut self,
        game: &G,
        store: &mut S,
        root: &G::Position,
    ) -> Result<Value, Error> {
        let id = match store.visit(root)? {
            Slot::Done(v) => return Ok(v),
            Slot::OnPath => unreachable!("the stack is empty between searches"),
            Slot::New(id) => id,
        };
        if let Some(v) = self.open(game, store, id, root.clone())? {
            return Ok(v);
        }
        loop {
            let top = self.stack.last_mut().expect("non-empty while searching");
            if top.next < self.arena.len() {
                let child = game.play(&top.pos, &self.arena[top.next]);
                top.next += 1;
                match store.visit(&child)? {
                    Slot::Done(v) => top.best = fold(top.best, v)?,
                    Slot::OnPath => return Err(self.cycle(store, &child)),
                    Slot::New(cid) => {
                        if let Some(v) = self.open(game, store, cid, child)? {
                            let top = self.stack.last_mut().expect("parent frame");
                            top.best = fold(top.best, v)?;
                        }
                    }
                }
                continue;
            }
            // All children done: close the frame.
            let frame = self.stack.pop().expect("non-empty");
            self.arena.truncate(frame.moves_start);
            let v = frame.best.expect("a frame is opened only with moves");
            store.set(frame.id, v);
            match self.stack.last_mut() {
                Some(parent) => parent.best = fold(parent.best, v)?,
                None => return Ok(v),
            }
        }
    }

    /// Starts work on a new position: returns its value at once if it is
    /// terminal, else pushes a frame.
    fn open<S: Store<G>>(
        &mut self,
        game: &G,
        store: &mut S,
        id: u64,
        pos: G::Position,
    ) -> Result<Option<Value>, Error> {
        let start = self.arena.len();
        let room = self.moves_room();
        let over = game.outcome(&pos).is_some();
        if !over {
            // An empty buffer of its own (see the module's note): a game
            // that clears `out` gave wrong values when it was the arena.
            game.moves(&pos, &mut self.fresh);
        }
        let terminal = terminal_value(game, &pos, !self.fresh.is_empty()).inspect_err(|_| {
            self.reset();
        })?;
        if let Some(v) = terminal {
            // Empty unless the game's outcome changed its mind.
            self.fresh.clear();
            store.set(id, v);
            return Ok(Some(v));
        }
        self.arena.append(&mut self.fresh);
        // The path grows with depth times moves, which no table size
        // foretells: it is checked beside the store each time a buffer
        // grows (the stack before, the moves as the game listed them).
        let full = self.stack.len() == self.stack.capacity();
        let moves = self.moves_room();
        if full || moves != room {
            let fits = self
                .budget
                .reserve_search_path::<Frame<G::Position>, G::Move>(
                    store.bytes(),
                    &mut self.stack,
                    moves,
                );
            if let Err(e) = fits {
                self.reset();
                return Err(e.into());
            }
        }
        self.stack.push(Frame {
            id,
            pos,
            moves_start: start,
            next: start,
            best: None,
        });
        Ok(None)
    }

    /// Moves the path's two buffers have room for.
    fn moves_room(&self) -> usize {
        self.arena.capacity().saturating_add(self.fresh.capacity())
    }

    /// Empties the path after an error, giving its memory back.
    fn reset(&mut self) {
        self.stack = Vec::new();
        self.arena = Vec::new();
        self.fresh = Vec::new();
    }

    /// Builds the cycle error and resets the engine.
    fn cycle<S: Store<G>>(&mut self, _store: &mut S, child: &G::Position) -> Error {
        let depth = self
            .stack
            .iter()
            .rev()
            .position(|f| f.pos == *child)
            .map_or(0, |d| d as u64 + 1);
        self.reset();
        Error::Cycle { depth }
    }
}
