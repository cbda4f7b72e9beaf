//! Where a database cannot be: a path that is a file, or that runs
//! through one, or a directory holding other things. Each is refused with
//! an error that says so, naming the file or directory.

use game_core::Value;
use game_db::{Database, Error, MANIFEST_FILE};

/// A database path naming a file was refused with the system's words for
/// the directory it tried to make: "File exists (os error 17)", and for
/// a path inside the file "Not a directory (os error 20)"; opening one
/// said "Not a directory" of the manifest's path. Each now says the file
/// is a file, not a directory.
#[test]
fn a_path_that_is_or_runs_through_a_file_is_not_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("regfile");
    std::fs::write(&file, b"not a database").unwrap();
    for path in [file.clone(), file.join("x"), file.join("x").join("y")] {
        for err in [
            Database::create(&path, "g", "r").unwrap_err(),
            Database::open(&path, "g", "r").unwrap_err(),
        ] {
            match &err {
                Error::NotADirectory { path: found } => assert_eq!(found, &file, "{path:?}"),
                other => panic!("{path:?}: {other}"),
            }
            let text = err.to_string();
            assert!(text.contains("a file, not a directory"), "{text}");
        }
    }
    assert_eq!(
        std::fs::read(&file).unwrap(),
        b"not a database",
        "untouched"
    );
}

/// A directory holding no manifest but files was written into as if
/// empty: a database whose manifest was lost had its `tier-0.gsdb`
/// replaced by a new solve's, silently, and anything else there was left
/// among the new files. It is now refused, naming what is there; an empty
/// directory, or one holding only the manifest's temporary file (a crash
/// while the database was being created), is still a new database, and an
/// existing database of the game is opened as it is.
#[test]
fn a_directory_holding_other_files_is_not_written_into() {
    let root = tempfile::tempdir().unwrap();
    let lost = root.path().join("lost");
    Database::create(&lost, "g", "r")
        .unwrap()
        .write_tier(0, [Some(Value::win(1))])
        .unwrap();
    std::fs::remove_file(lost.join(MANIFEST_FILE)).unwrap();
    std::fs::write(lost.join("notes.txt"), b"mine").unwrap();
    let tier = std::fs::read(lost.join("tier-0.gsdb")).unwrap();
    match Database::create(&lost, "g", "r") {
        Err(Error::NotEmpty { path, found }) => {
            assert_eq!(path, lost);
            assert_eq!(found, r#"2 entries ("notes.txt", "tier-0.gsdb")"#);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(std::fs::read(lost.join("tier-0.gsdb")).unwrap(), tier);
    assert!(!lost.join(MANIFEST_FILE).exists());

    let many = root.path().join("many");
    std::fs::create_dir(&many).unwrap();
    for name in ["e", "d", "c", "b", "a"] {
        std::fs::write(many.join(name), b"").unwrap();
    }
    let err = Database::create(&many, "g", "r").unwrap_err().to_string();
    assert!(err.contains(r#"5 entries ("a", "b", "c", …)"#), "{err}");

    let crashed = root.path().join("crashed");
    std::fs::create_dir(&crashed).unwrap();
    std::fs::write(crashed.join("manifest.gsdb.tmp"), b"half").unwrap();
    let db = Database::create(&crashed, "g", "r").unwrap();
    db.write_tier(0, [None]).unwrap();
    drop(db);
    let db = Database::create(&crashed, "g", "r").unwrap();
    assert_eq!(db.finished_tiers(), [0], "opened, not created again");
}
