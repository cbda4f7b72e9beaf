//! Damaged files, wrong databases and crashes: every fault is an error
//! that names the file, and no lookup ever returns a wrong value.

use std::path::{Path, PathBuf};

use game_core::Value;
use game_db::{Database, Error, Options, MANIFEST_FILE};

const GAME: &str = "Fault test";
const RULES: &str = "rules v1";
const RECORDS: usize = 1000;
/// 128 narrow records a block: 8 blocks, the last one partial.
const BLOCK_BYTES: usize = 256;

fn table() -> Vec<Option<Value>> {
    (0..RECORDS as u32)
        .map(|i| match i % 11 {
            0 => None,
            1..=4 => Some(Value::DRAW),
            5..=7 => Some(Value::win(i % 97 * 2 + 1)),
            8 => Some(Value::tie(i % 13)),
            _ => Some(Value::lose(i % 89 * 2)),
        })
        .collect()
}

fn options() -> Options {
    Options::default().with_block_bytes(BLOCK_BYTES)
}

/// A database with tier 4 written from [`table`].
fn make(dir: &Path) -> PathBuf {
    let db = Database::create_with(dir, GAME, RULES, options()).unwrap();
    db.write_tier(4, table()).unwrap().path
}

fn open(dir: &Path) -> Result<Database, Error> {
    Database::open_with(dir, GAME, RULES, options())
}

/// Writes `byte` at `pos` in place (rewriting the whole file would free
/// and reallocate its disk blocks, which is slow on some file systems).
fn patch(path: &Path, pos: usize, byte: u8) {
    use std::io::{Seek, SeekFrom, Write};
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    f.seek(SeekFrom::Start(pos as u64)).unwrap();
    f.write_all(&[byte]).unwrap();
}

fn names(e: &Error, file: &str) -> bool {
    e.to_string().contains(file)
}

#[test]
fn every_flipped_byte_of_a_tier_file_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let path = make(dir.path());
    let good = std::fs::read(&path).unwrap();
    let t = table();
    let block_records = BLOCK_BYTES / 2;
    let (mut at_open, mut in_lookups) = (0, 0);
    for (pos, &byte) in good.iter().enumerate() {
        for flip in [0x01u8, 0x80, 0xff] {
            patch(&path, pos, byte ^ flip);
            let opened = open(dir.path());
            patch(&path, pos, byte);
            let db = match opened {
                Err(e) => {
                    assert!(names(&e, "tier-4.gsdb"), "byte {pos}: {e}");
                    at_open += 1;
                    continue;
                }
                Ok(db) => db,
            };
            patch(&path, pos, byte ^ flip);
            // The flip is in a block: that block, and only that block, fails.
            let mut failed = Vec::new();
            for (i, want) in t.iter().enumerate() {
                match db.lookup(4, i as u64) {
                    Ok(v) => assert_eq!(v, *want, "byte {pos} ^ {flip:#x}: index {i}"),
                    Err(e) => {
                        assert!(
                            matches!(e, Error::BlockChecksum { .. }) && names(&e, "tier-4.gsdb"),
                            "{e}"
                        );
                        failed.push(i);
                    }
                }
            }
            assert!(!failed.is_empty(), "byte {pos} ^ {flip:#x} went unnoticed");
            let block = failed[0] / block_records;
            let whole_block: Vec<usize> =
                (block * block_records..((block + 1) * block_records).min(RECORDS)).collect();
            assert_eq!(failed, whole_block, "byte {pos} ^ {flip:#x}");
            assert!(db.for_each_block(4, |_, _| {}).is_err());
            assert!(db.verify(4).is_err());
            patch(&path, pos, byte);
            in_lookups += 1;
        }
    }
    // Both kinds happened: the header and index are caught at open, the
    // blocks (most of the file) at lookup.
    assert!(at_open >= 3 * 80, "{at_open}");
    assert!(in_lookups > 0);
    assert_eq!(std::fs::read(&path).unwrap(), good);
    open(dir.path()).unwrap().verify(4).unwrap();
}

#[test]
fn every_flipped_byte_of_the_manifest_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    make(dir.path());
    let path = dir.path().join(MANIFEST_FILE);
    let good = std::fs::read(&path).unwrap();
    for (pos, &byte) in good.iter().enumerate() {
        for flip in [0x01u8, 0x20, 0xff] {
            patch(&path, pos, byte ^ flip);
            let e = open(dir.path()).expect_err(&format!("byte {pos} ^ {flip:#x}"));
            assert!(names(&e, MANIFEST_FILE), "{e}");
            patch(&path, pos, byte);
        }
    }
}

#[test]
fn truncated_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = make(dir.path());
    let good = std::fs::read(&path).unwrap();
    // Shortened step by step in place (see `patch`).
    let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    for len in (0..good.len()).rev() {
        file.set_len(len as u64).unwrap();
        match open(dir.path()) {
            Err(Error::Truncated {
                path: p,
                expected,
                found,
            }) => {
                assert_eq!(p, path);
                assert_eq!((expected, found), (good.len() as u64, len as u64));
            }
            other => panic!("length {len}: {other:?}"),
        }
    }
    // A file that grew is refused too.
    let mut longer = good.clone();
    longer.push(0);
    std::fs::write(&path, &longer).unwrap();
    assert!(matches!(open(dir.path()), Err(Error::Corrupt { .. })));
    // And a truncated manifest.
    std::fs::write(&path, &good).unwrap();
    let m = dir.path().join(MANIFEST_FILE);
    let manifest = std::fs::read(&m).unwrap();
    let file = std::fs::OpenOptions::new().write(true).open(&m).unwrap();
    for len in (0..manifest.len()).rev() {
        file.set_len(len as u64).unwrap();
        let e = open(dir.path()).expect_err(&format!("manifest of {len} bytes"));
        assert!(names(&e, MANIFEST_FILE), "{e}");
    }
}

#[test]
fn another_game_other_rules_or_version_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = make(dir.path());
    let e = Database::open(dir.path(), "Other game", RULES).unwrap_err();
    assert!(
        matches!(&e, Error::WrongGame { found, expected, .. } if found == GAME && expected == "Other game"),
        "{e}"
    );
    let e = Database::open(dir.path(), GAME, "rules v2").unwrap_err();
    assert!(
        matches!(&e, Error::WrongRules { found, expected, .. }
            if *found == game_db::rules_hash(RULES.as_bytes()) && *expected == game_db::rules_hash(b"rules v2")),
        "{e}"
    );
    // create refuses to take over another game's directory as well.
    assert!(matches!(
        Database::create(dir.path(), "Other game", RULES),
        Err(Error::WrongGame { .. })
    ));
    assert!(matches!(
        Database::open(dir.path().join("nothing"), GAME, RULES),
        Err(Error::NoDatabase { .. })
    ));

    // A tier file of the older version 1 (records compressed as they
    // are, not laid out) and of a newer version 4 (bytes 8..12 of the
    // header): refused, naming the version found, before anything else
    // of the file is read. (Version 2, format 3's bitmap layouts, is
    // read: the layout's tests.)
    let good = std::fs::read(&path).unwrap();
    assert_eq!(good[8..12], game_db::FORMAT_VERSION.to_le_bytes());
    for version in [1u32, 4] {
        let mut other = good.clone();
        other[8..12].copy_from_slice(&version.to_le_bytes());
        std::fs::write(&path, &other).unwrap();
        let e = open(dir.path()).unwrap_err();
        assert!(
            matches!(&e, Error::UnsupportedVersion { found, supported: 3, path: p }
                if *found == version && *p == path),
            "{e}"
        );
        assert!(e.to_string().contains(&format!("{version}")), "{e}");
    }
    std::fs::write(&path, &good).unwrap();

    // A manifest of version 3.
    let m = dir.path().join(MANIFEST_FILE);
    let text = std::fs::read_to_string(&m).unwrap();
    std::fs::write(&m, text.replacen("manifest 1\n", "manifest 3\n", 1)).unwrap();
    assert!(matches!(
        open(dir.path()),
        Err(Error::UnsupportedVersion {
            found: 3,
            supported: 2,
            ..
        })
    ));
    std::fs::write(&m, &text).unwrap();

    // Another game's tier file put in place of ours (same length and records).
    let other = tempfile::tempdir().unwrap();
    let other_db = Database::create_with(other.path(), "Fault tesT", RULES, options()).unwrap();
    let other_path = other_db.write_tier(4, table()).unwrap().path;
    std::fs::copy(&other_path, &path).unwrap();
    let e = open(dir.path()).unwrap_err();
    assert!(
        matches!(&e, Error::WrongGame { path: p, .. } if *p == path),
        "{e}"
    );
    // The same game's file written with other rules.
    let other = tempfile::tempdir().unwrap();
    let other_db = Database::create_with(other.path(), GAME, "rules v3", options()).unwrap();
    std::fs::copy(other_db.write_tier(4, table()).unwrap().path, &path).unwrap();
    assert!(matches!(open(dir.path()), Err(Error::WrongRules { .. })));
    // The same game and rules but other records: the manifest notices.
    let other = tempfile::tempdir().unwrap();
    let other_db = Database::create_with(other.path(), GAME, RULES, options()).unwrap();
    let mut changed = table();
    changed[500] = Some(Value::win(1));
    std::fs::copy(other_db.write_tier(4, changed).unwrap().path, &path).unwrap();
    assert!(open(dir.path()).is_err());
}

#[test]
fn a_missing_tier_is_an_error_naming_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = make(dir.path());
    let db = open(dir.path()).unwrap();
    let e = db.lookup(9, 0).unwrap_err();
    assert!(matches!(e, Error::TierNotFinished { tier: 9, .. }), "{e}");
    assert!(names(&e, "tier-9.gsdb"), "{e}");
    assert!(db.records(9).is_err());
    drop(db);
    std::fs::remove_file(&path).unwrap();
    let e = open(dir.path()).unwrap_err();
    assert!(
        matches!(&e, Error::TierFileMissing { tier: 4, path: p } if *p == path),
        "{e}"
    );
}

#[test]
fn a_crash_leaves_unfinished_tiers_that_can_be_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let t = table();
    {
        let db = Database::create_with(dir.path(), GAME, RULES, options()).unwrap();
        // A writer that never finishes: the process "dies" with it.
        let mut w = db.writer(1).unwrap();
        w.write(&t[..700]).unwrap();
        std::mem::forget(w);
    }
    assert!(dir.path().join("tier-1.gsdb.tmp").exists());
    let db = open(dir.path()).unwrap();
    assert!(!db.is_finished(1));
    assert!(matches!(
        db.lookup(1, 0),
        Err(Error::TierNotFinished { tier: 1, .. })
    ));
    let info = db.write_tier(1, t.iter().copied()).unwrap();
    assert!(!dir.path().join("tier-1.gsdb.tmp").exists());
    drop(db);
    let db = open(dir.path()).unwrap();
    assert_eq!(db.finished_tiers(), [1]);
    for (i, v) in t.iter().enumerate() {
        assert_eq!(db.lookup(1, i as u64).unwrap(), *v);
    }
    let finished = std::fs::read(&info.path).unwrap();
    drop(db);

    // A crash after the rename but before the manifest: a complete file
    // the manifest does not list.
    let fresh = tempfile::tempdir().unwrap();
    Database::create_with(fresh.path(), GAME, RULES, options()).unwrap();
    std::fs::write(fresh.path().join("tier-1.gsdb"), &finished).unwrap();
    std::fs::write(fresh.path().join("tier-2.gsdb.tmp"), b"half a file").unwrap();
    let db = open(fresh.path()).unwrap();
    assert!(db.finished_tiers().is_empty());
    assert!(matches!(
        db.lookup(1, 0),
        Err(Error::TierNotFinished { .. })
    ));
    let again = db.write_tier(1, t.iter().copied()).unwrap();
    assert_eq!(std::fs::read(&again.path).unwrap(), finished);
    db.write_tier(2, t.iter().copied()).unwrap();
    assert_eq!(db.finished_tiers(), [1, 2]);

    // A crash while rewriting a finished tier: it is no longer finished.
    let w = db.writer(2).unwrap();
    assert!(!db.is_finished(2));
    std::mem::forget(w);
    drop(db);
    let db = open(fresh.path()).unwrap();
    assert_eq!(db.finished_tiers(), [1]);
}

#[test]
fn a_dropped_writer_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), GAME, RULES).unwrap();
    let mut w = db.writer(0).unwrap();
    w.write(&table()).unwrap();
    drop(w);
    assert!(!db.is_finished(0));
    let n = std::fs::read_dir(dir.path()).unwrap().count();
    assert_eq!(n, 1, "only the manifest");
}

#[test]
fn rewrites_are_byte_identical() {
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    let pa = make(a.path());
    let first = std::fs::read(&pa).unwrap();
    // Written again into the same database, and into another one in chunks.
    let db = open(a.path()).unwrap();
    db.write_tier(4, table()).unwrap();
    assert_eq!(std::fs::read(&pa).unwrap(), first);
    let other = Database::create_with(b.path(), GAME, RULES, options()).unwrap();
    let mut w = other.writer(4).unwrap();
    for c in table().chunks(37) {
        w.write(c).unwrap();
    }
    let pb = w.finish().unwrap().path;
    assert_eq!(std::fs::read(pb).unwrap(), first);
    assert_eq!(
        std::fs::read(a.path().join(MANIFEST_FILE)).unwrap(),
        std::fs::read(b.path().join(MANIFEST_FILE)).unwrap()
    );
}

#[test]
fn bad_names_and_options_are_typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    assert!(matches!(
        Database::create(dir.path(), "two\nlines", RULES),
        Err(Error::InvalidName { .. })
    ));
    for bad in [
        Options::default().with_block_bytes(63),
        Options::default().with_block_bytes(66),
        Options::default().with_level(0),
    ] {
        assert!(matches!(
            Database::create_with(dir.path(), GAME, RULES, bad),
            Err(Error::InvalidOptions(_))
        ));
    }
}

/// A manifest or tier file that is no plain file: a device (`/dev/zero`
/// read whole took 2 GiB before the allocator gave up) or a FIFO (the
/// open waited for a writer for ever). Each is refused before it is read,
/// and so is a manifest too long to be one.
#[cfg(unix)]
#[test]
fn files_that_are_not_plain_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let tier = make(dir.path());
    let manifest = dir.path().join(MANIFEST_FILE);
    let saved = std::fs::read(&manifest).unwrap();
    let fifo = dir.path().join("fifo");
    let fifos = mkfifo(&fifo);
    let mut odd = vec![PathBuf::from("/dev/zero")];
    if fifos {
        odd.push(fifo.clone());
    }
    for target in &odd {
        for path in [&manifest, &tier] {
            let kept = std::fs::read(path).unwrap();
            std::fs::remove_file(path).unwrap();
            std::os::unix::fs::symlink(target, path).unwrap();
            let err = open(dir.path()).unwrap_err();
            assert!(err.to_string().contains("not a regular file"), "{err}");
            std::fs::remove_file(path).unwrap();
            std::fs::write(path, kept).unwrap();
        }
    }
    // A lookup that reopens the tier's file finds a FIFO in its place.
    if fifos {
        let db =
            Database::open_with(dir.path(), GAME, RULES, options().with_open_files(1)).unwrap();
        std::fs::remove_file(&tier).unwrap();
        std::fs::rename(&fifo, &tier).unwrap();
        // Another tier's file takes the one open slot, so tier 4 is reopened.
        db.write_tier(5, table()).unwrap();
        let err = db.lookup(4, 3).unwrap_err();
        assert!(err.to_string().contains("not a regular file"), "{err}");
    }
    // A manifest past the longest one read is refused unread.
    let huge = std::fs::File::create(&manifest).unwrap();
    huge.set_len(65 << 20).unwrap();
    let err = open(dir.path()).unwrap_err();
    assert!(err.to_string().contains("manifest of more than"), "{err}");
    std::fs::write(&manifest, saved).unwrap();
}

/// A tier file of the given header fields with valid header checksums,
/// listed in a fresh manifest of [`GAME`] and [`RULES`]: `body` follows the
/// header, and the file is then made `len` bytes long (sparse past what
/// was written). What a hostile file can be.
fn craft(dir: &Path, records: u64, blocks: u64, block_records: u32, body: &[u8], len: u64) {
    craft_file(dir, records, blocks, block_records, body, &[], len);
}

/// [`craft`] with `index` as the block index, at the end of the file, its
/// checksum in the header.
fn craft_with_index(
    dir: &Path,
    records: u64,
    blocks: u64,
    block_records: u32,
    index: &[u8],
    len: u64,
) {
    craft_file(dir, records, blocks, block_records, &[], index, len);
}

fn craft_file(
    dir: &Path,
    records: u64,
    blocks: u64,
    block_records: u32,
    body: &[u8],
    index: &[u8],
    len: u64,
) {
    let hlen = 68 + GAME.len() + 4;
    let mut h = Vec::new();
    h.extend_from_slice(b"GSDB\r\n\x1a\n");
    h.extend_from_slice(&game_db::FORMAT_VERSION.to_le_bytes());
    h.extend_from_slice(&(hlen as u32).to_le_bytes());
    h.extend_from_slice(&game_db::rules_hash(RULES.as_bytes()).to_le_bytes());
    h.extend_from_slice(&4u64.to_le_bytes());
    h.extend_from_slice(&records.to_le_bytes());
    h.extend_from_slice(&blocks.to_le_bytes());
    h.extend_from_slice(&(len - blocks * 8).to_le_bytes());
    h.extend_from_slice(&crc32fast::hash(index).to_le_bytes());
    h.extend_from_slice(&block_records.to_le_bytes());
    h.push(2);
    h.push(1);
    h.extend_from_slice(&(GAME.len() as u16).to_le_bytes());
    h.extend_from_slice(GAME.as_bytes());
    let header_crc = crc32fast::hash(&h);
    h.extend_from_slice(&header_crc.to_le_bytes());
    h.extend_from_slice(body);
    let path = dir.join("tier-4.gsdb");
    std::fs::write(&path, &h).unwrap();
    let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
    file.set_len(len).unwrap();
    if !index.is_empty() {
        use std::io::{Seek, SeekFrom, Write};
        file.seek(SeekFrom::Start(len - index.len() as u64))
            .unwrap();
        file.write_all(index).unwrap();
    }
    let mut m = format!(
        "gamesolve-db manifest 1\ngame {GAME}\nrules {:016x}\n\
         tier 4 records {records} bytes {len} header-crc32 {header_crc:08x} file-crc32 00000000\n",
        game_db::rules_hash(RULES.as_bytes())
    );
    m += &format!("crc32 {:08x}\n", crc32fast::hash(m.as_bytes()));
    std::fs::write(dir.join(MANIFEST_FILE), m).unwrap();
}

/// A file a few kilobytes on disk whose length and header claim a block
/// index of a terabyte (a sparse file): the index was read whole into
/// memory before any entry was checked, so opening it asked for a
/// terabyte (the allocation aborted the process) or, with a smaller
/// claim, took gigabytes and many seconds. Now its first entry refuses it.
#[test]
fn a_sparse_file_claiming_a_huge_block_index_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let blocks = 1u64 << 37; // 1 TiB of index
    let len = (68 + GAME.len() + 4) as u64 + blocks * 8;
    let t = std::time::Instant::now();
    craft(dir.path(), blocks * 128, blocks, 128, &[], len);
    let e = open(dir.path()).unwrap_err();
    assert!(
        matches!(&e, Error::Corrupt { fault, .. } if fault.contains("a block of 0 bytes")),
        "{e}"
    );
    assert!(names(&e, "tier-4.gsdb"), "{e}");
    // Real entries (the blocks themselves sparse) are read as far as they
    // go: blocks that would run into the index are refused.
    let dir = tempfile::tempdir().unwrap();
    let entry = [&200u32.to_le_bytes()[..], &0u32.to_le_bytes()].concat();
    let blocks = 64u64;
    let index: Vec<u8> = entry.repeat(blocks as usize);
    let hlen = (68 + GAME.len() + 4) as u64;
    craft(
        dir.path(),
        blocks * 128,
        blocks,
        128,
        &[],
        hlen + 100 + blocks * 8,
    );
    {
        use std::io::{Seek, SeekFrom, Write};
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.path().join("tier-4.gsdb"))
            .unwrap();
        f.seek(SeekFrom::Start(hlen + 100)).unwrap();
        f.write_all(&index).unwrap();
    }
    let e = open(dir.path()).unwrap_err();
    assert!(
        matches!(&e, Error::Corrupt { fault, .. } if fault.contains("run into the block index")),
        "{e}"
    );
    assert!(t.elapsed() < std::time::Duration::from_secs(10));
}

/// A file whose blocks are a hole (a sparse file: 16 kilobytes on disk,
/// 64 GiB long) behind a valid header and index: `verify` read all of it
/// for the whole-file checksum before checking the first block, tens of
/// seconds here and hours for the terabytes a file system allows. The
/// first block, all zeros, is no zstd frame: refused at once.
#[test]
fn verify_refuses_a_hole_before_reading_it_all() {
    let dir = tempfile::tempdir().unwrap();
    let block_records = 1u32 << 25; // 64 MiB blocks
    let n = 64u32 << 20; // each block's claimed compressed length
    let blocks = 1024u64;
    let mut index = Vec::new();
    for _ in 0..blocks {
        index.extend_from_slice(&n.to_le_bytes());
        index.extend_from_slice(&0u32.to_le_bytes());
    }
    let hlen = (68 + GAME.len() + 4) as u64;
    let len = hlen + blocks * u64::from(n) + index.len() as u64;
    craft_with_index(
        dir.path(),
        blocks * u64::from(block_records),
        blocks,
        block_records,
        &index,
        len,
    );
    let db = open(dir.path()).unwrap_or_else(|e| panic!("{e}"));
    let t = std::time::Instant::now();
    let e = db.verify(4).unwrap_err();
    assert!(names(&e, "tier-4.gsdb"), "{e}");
    assert!(
        t.elapsed() < std::time::Duration::from_secs(5),
        "{:?}",
        t.elapsed()
    );
}

/// Another handle rewrote a tier after this one opened it, and this one
/// had closed the tier's file for room (one open file, two tiers): the
/// file it opened again held the new tier, and reading it at the old
/// blocks' places failed as a damaged block (`BlockChecksum`, naming a
/// healthy file), and `verify` called the database corrupt. The reopened
/// file is now checked against the one first opened: `FileChanged`.
#[test]
fn a_tier_rewritten_by_another_handle_is_named_as_changed() {
    let dir = tempfile::tempdir().unwrap();
    let path = make(dir.path());
    let writer = open(dir.path()).unwrap();
    writer.write_tier(5, table()).unwrap();
    let reader = Database::open_with(
        dir.path(),
        GAME,
        RULES,
        options().with_open_files(1).with_cache_bytes(0),
    )
    .unwrap();
    // Tier 5 was opened last and holds the one open file: tier 4's is closed.
    assert_eq!(reader.lookup(5, 7).unwrap(), table()[7]);
    writer
        .write_tier(4, (0..RECORDS as u32).map(|i| Some(Value::tie(i % 50))))
        .unwrap();
    let changed = |e: &Error| matches!(e, Error::FileChanged { tier: 4, path: p } if *p == path);
    let e = reader.lookup(4, 3).unwrap_err();
    assert!(changed(&e), "{e}");
    let e = reader.for_each_block(4, |_, _| {}).unwrap_err();
    assert!(changed(&e), "{e}");
    let e = reader.verify(4).unwrap_err();
    assert!(changed(&e), "{e}");
    // Opened again, the database reads the new tier.
    let again = open(dir.path()).unwrap();
    assert_eq!(again.lookup(4, 3).unwrap(), Some(Value::tie(3)));
    again.verify(4).unwrap();
}

/// Widening (the first remoteness past 16,383 in a tier written narrow so
/// far) writes a second temporary file, `tier-N.gsdb.tmp.wide`, from the
/// first. When it failed (here the first is gone: removed by someone else
/// in the directory), the push returned the error but the half-written
/// wide file stayed behind after the writer was dropped. Now it is
/// removed with the failure.
#[test]
fn a_failed_widening_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create_with(dir.path(), GAME, RULES, options()).unwrap();
    let mut w = db.writer(0).unwrap();
    w.write(&table()[..300]).unwrap(); // two blocks written, 44 records pending
    let tmp = dir.path().join("tier-0.gsdb.tmp");
    std::fs::remove_file(&tmp).unwrap();
    let e = w.push(Some(Value::win(20_000))).unwrap_err();
    assert!(matches!(&e, Error::Io { path, .. } if *path == tmp), "{e}");
    drop(w);
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, [MANIFEST_FILE], "only the manifest");
}

/// Widening reads back the blocks it wrote to the first temporary file.
/// It decompressed them unchecked: a block changed on disk since it was
/// written (by someone else in the directory, or the disk) was rewritten
/// into the tier with fresh checksums, a silently wrong table (a byte
/// flipped in 280 of the first 300 positions of this file went through
/// `finish` and read back as other records). Each block is now checked
/// against the checksum and size it was written with.
#[test]
fn widening_checks_the_blocks_it_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    // Records that barely compress, so that the writer's buffer has
    // reached the file before the widening.
    let mut x = 1u64;
    let t: Vec<Option<Value>> = (0..60_000)
        .map(|_| {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            Some(Value::lose((x >> 40) as u32 % 16_000))
        })
        .collect();
    let db = Database::create_with(dir.path(), GAME, RULES, options()).unwrap();
    let mut w = db.writer(0).unwrap();
    w.write(&t).unwrap();
    let tmp = dir.path().join("tier-0.gsdb.tmp");
    let at = 68 + GAME.len() + 280;
    assert!(std::fs::metadata(&tmp).unwrap().len() > at as u64 + 1000);
    let byte = std::fs::read(&tmp).unwrap()[at];
    patch(&tmp, at, byte ^ 0x01);
    let e = w.push(Some(Value::win(20_000))).unwrap_err();
    assert!(
        matches!(&e, Error::BlockChecksum { path, .. } if *path == tmp),
        "{e}"
    );
}

/// A symbolic link at a temporary file's path (`tier-0.gsdb.tmp` pointing
/// to a file elsewhere) had that file truncated and overwritten by the
/// tier's bytes: `File::create` follows links. The link is now removed and
/// the temporary file created afresh.
#[cfg(unix)]
#[test]
fn a_link_at_a_temporary_path_is_replaced_not_followed() {
    let dir = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    let victim = outside.path().join("precious");
    std::fs::write(&victim, b"not a tier").unwrap();
    let db = Database::create_with(dir.path(), GAME, RULES, options()).unwrap();
    let tmp = dir.path().join("tier-0.gsdb.tmp");
    std::os::unix::fs::symlink(&victim, &tmp).unwrap();
    let path = db.write_tier(0, table()).unwrap().path;
    assert!(
        std::fs::read(&victim).unwrap() == b"not a tier",
        "the file the link points to was overwritten"
    );
    assert!(std::fs::symlink_metadata(&path).unwrap().is_file());
    assert!(!tmp.exists());
    assert_eq!(open(dir.path()).unwrap().lookup(0, 5).unwrap(), table()[5]);
}

/// Makes a FIFO at `path` with the system's `mkfifo`; false where there
/// is none (the test is then skipped).
#[cfg(unix)]
fn mkfifo(path: &std::path::Path) -> bool {
    std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

/// A FIFO at the manifest's temporary path made a writer wait for a
/// reader for ever (`File::create` opens what it finds). It is now removed
/// and the temporary file created afresh.
#[cfg(unix)]
#[test]
fn a_fifo_at_a_temporary_path_is_replaced_not_opened() {
    let dir = tempfile::tempdir().unwrap();
    Database::create_with(dir.path(), GAME, RULES, options()).unwrap();
    let fifo = dir.path().join(format!("{MANIFEST_FILE}.tmp"));
    if !mkfifo(&fifo) {
        return;
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let d = dir.path().to_owned();
    std::thread::spawn(move || {
        let db = Database::open_with(&d, GAME, RULES, options()).unwrap();
        let _ = tx.send(db.write_tier(1, table()).map(|i| i.records));
    });
    match rx.recv_timeout(std::time::Duration::from_secs(10)) {
        Ok(written) => assert_eq!(written.unwrap(), RECORDS as u64),
        Err(_) => {
            // Let the writer go (it waits for a reader), then fail.
            let _ = std::fs::File::open(&fifo);
            panic!("the writer waited on the FIFO at {}", fifo.display());
        }
    }
    assert_eq!(open(dir.path()).unwrap().finished_tiers(), [1]);
}

/// Widening opens the narrow temporary file again by its path. A FIFO put
/// in its place meanwhile made the push wait for a writer for ever; it is
/// now refused as no plain file, and nothing is left behind.
#[cfg(unix)]
#[test]
fn widening_refuses_a_fifo_in_place_of_its_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tier-0.gsdb.tmp");
    let d = dir.path().to_owned();
    let fifo = tmp.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    let (made_tx, made_rx) = std::sync::mpsc::channel();
    let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        let db = Database::create_with(&d, GAME, RULES, options()).unwrap();
        let mut w = db.writer(0).unwrap();
        w.write(&table()[..300]).unwrap();
        made_tx.send(()).unwrap();
        go_rx.recv().unwrap();
        let e = w.push(Some(Value::win(20_000))).map_err(|e| e.to_string());
        drop(w);
        let _ = tx.send(e);
    });
    made_rx.recv().unwrap();
    std::fs::remove_file(&tmp).unwrap();
    if !mkfifo(&fifo) {
        return;
    }
    go_tx.send(()).unwrap();
    match rx.recv_timeout(std::time::Duration::from_secs(10)) {
        Ok(pushed) => {
            let e = pushed.unwrap_err();
            assert!(e.contains("not a regular file"), "{e}");
        }
        Err(_) => {
            // Let the writer go (it waits for a writer), then fail.
            let _ = std::fs::OpenOptions::new().write(true).open(&fifo);
            panic!("widening waited on the FIFO at {}", fifo.display());
        }
    }
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, [MANIFEST_FILE], "only the manifest");
}

/// A push that failed (here widening could not create its second
/// temporary file: a directory stands at its path) left the writer as it
/// was, without the record, and the writer kept taking records: the next
/// push and `finish` succeeded, and the tier was listed one record short,
/// every index past the failed one reading its successor's value. The
/// writer now remembers the failure: every later call is `WriterFailed`
/// naming the cause, and the tier is not finished. The same for a shard.
#[test]
fn a_writer_takes_nothing_after_a_failed_push() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create_with(dir.path(), GAME, RULES, options()).unwrap();
    let t = table();
    for shard in [None, Some(2)] {
        let name = match shard {
            None => "tier-0.gsdb".to_string(),
            Some(k) => format!("tier-0.shard-{k}.gsdb"),
        };
        let path = dir.path().join(&name);
        let wide = dir.path().join(format!("{name}.tmp.wide"));
        let failed_earlier = |e: &Error| {
            matches!(e, Error::WriterFailed { path: p, tier: 0, cause }
                if *p == path && cause.contains(".tmp.wide"))
        };
        let push_fails = |push: &mut dyn FnMut(Option<Value>) -> Result<(), Error>| {
            for &r in &t[..300] {
                push(r).unwrap();
            }
            std::fs::create_dir(&wide).unwrap();
            let e = push(Some(Value::win(20_000))).unwrap_err();
            assert!(matches!(&e, Error::Io { path: p, .. } if *p == wide), "{e}");
            let e = push(Some(Value::DRAW)).unwrap_err();
            assert!(failed_earlier(&e), "{e}");
            std::fs::remove_dir(&wide).unwrap();
            let e = push(Some(Value::DRAW)).unwrap_err();
            assert!(failed_earlier(&e), "{e}");
        };
        let e = match shard {
            None => {
                let mut w = db.writer(0).unwrap();
                push_fails(&mut |r| w.push(r));
                let e = w.write(&t[301..]).unwrap_err();
                assert!(failed_earlier(&e), "{e}");
                w.finish().unwrap_err()
            }
            Some(k) => {
                let mut w = db.shard_writer(0, k, 0).unwrap();
                push_fails(&mut |r| w.push(r));
                w.finish().unwrap_err()
            }
        };
        assert!(failed_earlier(&e), "{e}");
        assert!(!db.is_finished(0));
        assert!(!path.exists(), "{name}");
    }
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, [MANIFEST_FILE], "only the manifest");
}
