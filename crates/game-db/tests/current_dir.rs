//! A database in the current directory, given as the empty path (what
//! `Path::parent` gives for a bare file name). Its own test binary: it
//! changes the process's current directory.

use game_core::Value;
use game_db::Database;

/// Every durable rename synced its file's parent directory, which for
/// `manifest.gsdb` in the directory `""` is `""`, and opening `""` fails:
/// `Database::create("")` wrote its manifest and then returned
/// `": No such file or directory"`, and every tier written after was
/// renamed into place but never listed, with the same error. The empty
/// path is now synced as `.`.
#[test]
fn a_database_in_the_empty_path_is_the_current_directory() {
    let dir = tempfile::tempdir().unwrap();
    std::env::set_current_dir(dir.path()).unwrap();
    let db = Database::create("", "g", "r").unwrap_or_else(|e| panic!("{e}"));
    let info = db
        .write_tier(0, [None, Some(Value::win(3))])
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(info.records, 2);
    drop(db);
    let db = Database::open(dir.path(), "g", "r").unwrap();
    assert_eq!(db.lookup(0, 1).unwrap(), Some(Value::win(3)));
}
