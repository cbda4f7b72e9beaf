//! Solved tables kept in a [`Database`]: the tier solver's store
//! ([`DbStore`], solver-retro's [`TierStore`]), and saving or loading one
//! table (the feature `retro`, on by default; the facade re-exports this
//! module as `gamesolve::store`).
//!
//! ```
//! use solver_retro::{solve_tiers_with, Config, Solved};
//! use game_db::store::DbStore;
//! use games::ConnectFour;
//!
//! let dir = std::env::temp_dir().join(format!("gamesolve-doc-{}", std::process::id()));
//! let game = ConnectFour::new(3, 3)?;
//! let db = game_db::Database::create(&dir, "connect4", "3x3")?;
//! let sol = solve_tiers_with(&game, &Config::default(), &mut DbStore::new(&db))?;
//! assert_eq!(db.finished_tiers().len(), 10); // 0..=9 pieces
//! // A second run finds every tier done and solves nothing.
//! let again = solve_tiers_with(&game, &Config::default(), &mut DbStore::new(&db))?;
//! assert!(again.table(0).is_none());
//! assert_eq!(db.lookup(0, 0)?, sol.value(&game.start()));
//! std::fs::remove_dir_all(&dir).ok();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use game_core::{Budget, Tier};

use crate::Database;
use solver_retro::{Error, Table, TierStore};

/// A [`Database`] as the store of the tier solver: tiers it holds finished
/// are not solved again (a crashed solve resumes at the first unfinished
/// tier), and each solved tier is written as soon as it is done.
#[derive(Debug)]
pub struct DbStore<'a> {
    db: &'a Database,
    /// Called with each tier saved.
    saved: Vec<Tier>,
}

impl<'a> DbStore<'a> {
    /// A store writing to `db`.
    #[must_use]
    pub fn new(db: &'a Database) -> Self {
        DbStore {
            db,
            saved: Vec::new(),
        }
    }

    /// The tiers this store wrote, in order.
    #[must_use]
    pub fn saved(&self) -> &[Tier] {
        &self.saved
    }
}

fn store_err(e: crate::Error) -> Error {
    Error::Store(db_message(&e))
}

/// A database's error in one line, and if it is damage to a file what to
/// do: "…: block 0 checksum mismatch; the database is damaged: delete DIR
/// and run solve with --db DIR again" (it named the damage alone).
#[must_use]
pub fn db_message(e: &crate::Error) -> String {
    match e.damaged_file().and_then(std::path::Path::parent) {
        Some(dir) => damaged(dir, e),
        None => e.to_string(),
    }
}

/// `what` was found wrong in the database in `dir`, with what to do:
/// "WHAT; the database is damaged: delete DIR and run solve with --db DIR
/// again" (every refusal of a damaged database says it so).
#[must_use]
pub fn damaged(dir: &std::path::Path, what: impl std::fmt::Display) -> String {
    format!(
        "{what}; the database is damaged: delete {0} and run solve with --db {0} again",
        dir.display()
    )
}

/// Writes `table` as tier `tier` of `db` (crash-safe: the tier is finished
/// only once whole and synced).
///
/// # Errors
/// The database's error, as [`Error::Store`].
pub fn save_table(db: &Database, tier: Tier, table: &Table) -> Result<(), Error> {
    let mut w = db.writer(tier).map_err(store_err)?;
    let mut buf = Vec::with_capacity(1 << 16);
    let n = table.len() as u64;
    let mut i = 0;
    while i < n {
        buf.clear();
        let end = n.min(i + (1 << 16));
        buf.extend((i..end).map(|k| table.value(k)));
        w.write(&buf).map_err(store_err)?;
        i = end;
    }
    w.finish().map_err(store_err)?;
    Ok(())
}

/// Reads tier `tier` of `db` into a [`Table`] (1-byte cells, or 2 or 4
/// where a remoteness needs them), of as many cells as the tier has records
/// (whoever reads it checks that against the game: [`load_tier`]).
///
/// # Errors
/// The database's error (a damaged block included), as [`Error::Store`].
pub fn load_table(db: &Database, tier: Tier) -> Result<Table, Error> {
    let records = db.records(tier).map_err(store_err)?;
    read_table(db, tier, records, &Budget::unlimited())
}

/// [`load_table`] for a tier the game gives `size` indices: a tier of
/// another length is refused before anything is allocated or read (a short
/// one would read its missing indices as "no position"; a long one could
/// ask for any amount of memory).
///
/// # Errors
/// [`Error::Store`] for a tier of another length; as [`load_table`].
pub fn load_tier(db: &Database, tier: Tier, size: u64) -> Result<Table, Error> {
    load_tier_within(db, tier, size, &Budget::unlimited())
}

/// [`load_tier`] within `budget`'s memory: a table that would take more
/// (a byte an index, two or four when the tier's remoteness needs them) is
/// refused before it is allocated, with the budget's advice.
///
/// # Errors
/// [`Error::TooLarge`] for a table over the budget's memory; as
/// [`load_tier`].
pub fn load_tier_within(
    db: &Database,
    tier: Tier,
    size: u64,
    budget: &Budget,
) -> Result<Table, Error> {
    check_records(db, tier, size)?;
    read_table(db, tier, size, budget)
}

/// Checks that tier `tier` of `db` holds `size` records, the game's
/// indices of the tier.
///
/// # Errors
/// [`Error::Store`] naming the tier's file if it holds another number, or
/// the tier is not finished.
pub fn check_records(db: &Database, tier: Tier, size: u64) -> Result<(), Error> {
    let records = db.records(tier).map_err(store_err)?;
    if records != size {
        return Err(Error::Store(format!(
            "{}: tier {tier} holds {records} records, but the game's tier has {size} indices",
            db.tier_path(tier).display()
        )));
    }
    Ok(())
}

fn read_table(db: &Database, tier: Tier, records: u64, budget: &Budget) -> Result<Table, Error> {
    // In the narrowest cells first (1 byte), widened in place the first
    // time a record's remoteness does not fit them: one pass over the
    // tier's blocks, and each width checked against the budget before it
    // is taken.
    let check = |bytes: u64| {
        budget.check_memory(
            &format!("tier {tier} of the database, read into memory"),
            records.saturating_mul(bytes),
        )
    };
    check(1)?;
    let mut table = Table::with_bytes(records, 1)?;
    let mut fault = None;
    db.for_each_block(tier, |first, values| {
        if fault.is_some() {
            return;
        }
        for (k, v) in values.iter().enumerate() {
            let i = first + k as u64;
            let r = match table.set(i, *v) {
                Err(Error::TooDeep { .. }) => check(table.bytes_per_position() * 2)
                    .map_err(Error::from)
                    .and_then(|()| table.put(i, *v)),
                r => r,
            };
            if let Err(e) = r {
                fault = Some(e);
                return;
            }
        }
    })
    .map_err(store_err)?;
    match fault {
        None => Ok(table),
        Some(e) => Err(e),
    }
}

impl TierStore for DbStore<'_> {
    /// A finished tier is in the database: the solver may drop its table.
    fn keeps_tables(&self) -> bool {
        true
    }

    fn is_done(&self, tier: Tier) -> bool {
        self.db.is_finished(tier)
    }

    fn load(&mut self, tier: Tier, size: u64) -> Result<Option<Table>, Error> {
        if !self.db.is_finished(tier) {
            return Ok(None);
        }
        load_tier(self.db, tier, size).map(Some)
    }

    fn save(&mut self, tier: Tier, table: &Table) -> Result<(), Error> {
        save_table(self.db, tier, table)?;
        self.saved.push(tier);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A resumed solve asks the store for a child tier of the game's size:
    /// a database whose tier holds another number of records (a damaged
    /// file could claim any number) is refused before a table is made.
    #[test]
    fn a_stored_tier_of_another_length_is_refused_before_it_is_read() {
        let dir = std::env::temp_dir().join(format!("gamesolve-store-len-{}", std::process::id()));
        let db = Database::create(&dir, "test", "short").unwrap();
        db.write_tier(3, vec![Some(game_core::Value::lose(0)); 10])
            .unwrap();
        let mut store = DbStore::new(&db);
        assert!(store.load(4, 10).unwrap().is_none(), "an unfinished tier");
        assert_eq!(store.load(3, 10).unwrap().map(|t| t.len()), Some(10));
        for size in [9, 11, u64::MAX] {
            match store.load(3, size) {
                Err(Error::Store(m)) => assert!(m.contains("10 records"), "{m}"),
                other => panic!("tier of 10 records as {size}: {other:?}"),
            }
        }
        std::fs::remove_dir_all(&dir).ok();
    }
}
