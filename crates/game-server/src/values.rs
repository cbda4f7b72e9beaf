//! Where a served game's values come from: a solution held in memory or a
//! database on disk, opened read-only and shared by every connection.

use game_core::{Canonical, Indexed, Symmetric, Tiered, TieredSymmetric, Value};
use game_db::Database;
use solver_retro::Solved;

use crate::Error;

/// The value of each position, for the player to move.
pub trait Values<P>: Send + Sync {
    /// The value of `pos`; `None` when the source holds none for it (the
    /// solve did not reach it, or the database's index stands for no
    /// position).
    ///
    /// # Errors
    /// A database's read errors.
    fn value(&self, pos: &P) -> Result<Option<Value>, Error>;
    /// How many positions the source holds (a database: its records).
    fn positions(&self) -> u64;
}

/// A solution held in memory, asked position by position.
pub struct Solution<S>(pub S);

impl<S: Solved + Send + Sync> Values<<S::Game as game_core::Game>::Position> for Solution<S> {
    fn value(&self, pos: &<S::Game as game_core::Game>::Position) -> Result<Option<Value>, Error> {
        Ok(self.0.value(pos))
    }
    fn positions(&self) -> u64 {
        self.0.len()
    }
}

/// A solution of a game's canonical positions ([`Canonical`]), asked for
/// any position: the position is made canonical first.
pub struct CanonicalSolution<S>(pub S);

impl<G, S> Values<G::Position> for CanonicalSolution<S>
where
    G: Symmetric,
    S: Solved<Game = Canonical<G>> + Send + Sync,
{
    fn value(&self, pos: &G::Position) -> Result<Option<Value>, Error> {
        Ok(self.0.value(&self.0.game().0.canonical(pos)))
    }
    fn positions(&self) -> u64 {
        self.0.len()
    }
}

/// A database of a tiered game's canonical positions (as `solve --db`
/// writes it), opened read-only: lookups only, shared across threads.
pub struct TieredDatabase<G> {
    game: Canonical<G>,
    db: Database,
    records: u64,
}

impl<G: TieredSymmetric> TieredDatabase<G> {
    /// Serves `db`, written for `game`: every tier of the game must be
    /// finished and hold the game's number of records.
    ///
    /// # Errors
    /// [`Error::Unservable`] for a tier missing or of another length; the
    /// database's read errors.
    pub fn new(game: G, db: Database) -> Result<Self, Error> {
        let game = Canonical(game);
        let mut records = 0u64;
        for t in game.tiers() {
            let unservable = |why: String| Error::Unservable {
                dir: db.dir().to_path_buf(),
                why,
            };
            if !db.is_finished(t) {
                return Err(unservable(format!(
                    "tier {t} is not finished: finish the solve that wrote it"
                )));
            }
            let (n, size) = (db.records(t)?, game.tier_size(t));
            if n != size {
                return Err(unservable(format!(
                    "tier {t} holds {n} records, but the game's tier has {size} indices"
                )));
            }
            records = records.saturating_add(n);
        }
        Ok(TieredDatabase { game, db, records })
    }
}

impl<G> Values<G::Position> for TieredDatabase<G>
where
    G: TieredSymmetric + Send + Sync,
{
    fn value(&self, pos: &G::Position) -> Result<Option<Value>, Error> {
        let c = self.game.0.canonical(pos);
        Ok(self
            .db
            .lookup(self.game.tier(&c), self.game.tier_index(&c))?)
    }
    fn positions(&self) -> u64 {
        self.records
    }
}

/// A database of one tier holding every index of an [`Indexed`] game (as
/// `fingers solve --db` writes it), opened read-only.
pub struct IndexedDatabase<G> {
    game: G,
    db: Database,
    records: u64,
}

impl<G: Indexed> IndexedDatabase<G> {
    /// Serves `db`, written for `game`: its tier 0 must be finished and
    /// hold one record an index of the game.
    ///
    /// # Errors
    /// [`Error::Unservable`] for a tier missing or of another length; the
    /// database's read errors.
    pub fn new(game: G, db: Database) -> Result<Self, Error> {
        let unservable = |why: String| Error::Unservable {
            dir: db.dir().to_path_buf(),
            why,
        };
        if !db.is_finished(0) {
            return Err(unservable(
                "its table is not finished: finish the solve that wrote it".into(),
            ));
        }
        let (records, size) = (db.records(0)?, game.size());
        if records != size {
            return Err(unservable(format!(
                "it holds {records} records, but the game has {size} indices"
            )));
        }
        Ok(IndexedDatabase { game, db, records })
    }
}

impl<G> Values<G::Position> for IndexedDatabase<G>
where
    G: Indexed + Send + Sync,
{
    fn value(&self, pos: &G::Position) -> Result<Option<Value>, Error> {
        // An index past the table stands for no position of the game (a
        // game's index may say so with u64::MAX): none, not a read error.
        let i = self.game.index(pos);
        if i >= self.records {
            return Ok(None);
        }
        Ok(self.db.lookup(0, i)?)
    }
    fn positions(&self) -> u64 {
        self.records
    }
}
