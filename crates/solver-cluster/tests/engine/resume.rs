//! Resuming from a database: a tier a database holds finished is read
//! back into cells, and a record no cell can hold is an error, never a
//! value changed on the way.

use std::sync::Arc;

use game_core::Value;
use game_db::Database;
use solver_cluster::{ClusterConfig, Error};

use crate::common;
use common::Pile;

/// A database holding tier 0 finished as `v`; the cluster solves the rest.
fn resume(v: Value, workers: usize) -> Result<Option<Value>, Error> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let db = Database::create(dir.path(), "pile", "").expect("a database");
    db.write_tier(0, [Some(v)]).expect("tier 0 written");
    let config = ClusterConfig::from_args(["-w".to_string(), workers.to_string()]).expect("flags");
    let sol = solver_cluster::solve_tiers(Pile::default(), &config, Some(Arc::new(db)))?;
    Ok(sol.value_at(3, 0))
}

/// A database may hold remoteness up to 2³⁰ − 3, a cell up to 2²⁹ − 1.
/// Before, a record of a loss in 2²⁹ was read into a cell with its
/// remoteness spilling into the outcome bits: a tie in 0, and the piles
/// above it solved from that (pile 3 a tie in 3, reported `Ok`). Now the
/// resume stops with `Error::Db` naming the record.
#[test]
fn a_record_past_a_cell_is_refused() {
    for workers in [1, 2] {
        assert_eq!(
            resume(Value::lose(0), workers).expect("resumed"),
            Some(Value::win(3)),
            "{workers} workers"
        );
        let deep = Value::lose(1 << 29);
        match resume(deep, workers) {
            Err(Error::Db(m)) => assert!(
                m.contains("tier 0 holds") && m.contains("at index 0, a remoteness past"),
                "{m}"
            ),
            other => panic!("{workers} workers: {other:?}"),
        }
    }
}
