//! Where a database cannot be: a path that is a file, or that runs
//! through one. Each is refused with an error that says so, naming the
//! file.

use game_db::{Database, Error};

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
