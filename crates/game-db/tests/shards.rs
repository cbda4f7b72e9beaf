//! Tiers stored as shards: random tables cut into random contiguous
//! shards (empty ones included) read back exactly as the whole table,
//! through lookups, whole-tier and ranged block walks, after reopening;
//! shards that do not tile a tier, and damaged shard files, are errors.

use game_core::Value;
use game_db::{Database, Error, Options, ShardEntry, MANIFEST_FILE};
use proptest::prelude::*;

fn record() -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        1 => Just(None),
        3 => Just(Some(Value::DRAW)),
        1 => (0..20_000u32).prop_map(|r| Some(Value::win(r))),
        1 => (0..300u32).prop_map(|r| Some(Value::lose(r))),
        1 => (0..300u32).prop_map(|r| Some(Value::tie(r))),
    ]
}

/// Writes `t` as tier `tier` in shards cut at `cuts` (sorted, in
/// `0..=len`), returning the entries.
fn write_shards(db: &Database, tier: u64, t: &[Option<Value>], cuts: &[usize]) -> Vec<ShardEntry> {
    let mut bounds = vec![0];
    bounds.extend_from_slice(cuts);
    bounds.push(t.len());
    bounds
        .windows(2)
        .enumerate()
        .map(|(k, w)| {
            let mut s = db.shard_writer(tier, k as u32, w[0] as u64).unwrap();
            s.write(&t[w[0]..w[1]]).unwrap();
            assert_eq!(s.records(), (w[1] - w[0]) as u64);
            s.finish().unwrap()
        })
        .collect()
}

fn read_all(db: &Database, tier: u64, range: std::ops::Range<u64>) -> Vec<Option<Value>> {
    let mut out = Vec::new();
    db.for_each_block_in(tier, range.clone(), |first, recs| {
        assert_eq!(first, range.start + out.len() as u64, "in order, no gaps");
        out.extend_from_slice(recs);
    })
    .unwrap();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn sharded_tiers_read_as_whole_ones(
        t in prop::collection::vec(record(), 0..2500),
        mut cuts in prop::collection::vec(0usize..2500, 0..5),
        block_records in 16usize..300,
        lo in 0usize..2500,
        len in 0usize..2500,
    ) {
        for c in &mut cuts {
            *c = (*c).min(t.len());
        }
        cuts.sort_unstable();
        let dir = tempfile::tempdir().unwrap();
        let opts = Options::default().with_block_bytes(block_records * 4);
        {
            let db = Database::create_with(dir.path(), "g", "r", opts.clone()).unwrap();
            let mut shards = write_shards(&db, 3, &t, &cuts);
            prop_assert!(!db.is_finished(3), "not before finish_sharded");
            shards.reverse(); // any order
            let info = db.finish_sharded(3, t.len() as u64, &shards).unwrap();
            prop_assert_eq!(info.records, t.len() as u64);
            prop_assert_eq!(info.shards.len(), cuts.len() + 1);
            prop_assert_eq!(db.file_bytes(3).unwrap(), info.file_bytes);
            // Listed shards are never overwritten.
            let refused = matches!(db.shard_writer(3, 0, 0), Err(Error::TierFinished { .. }));
            prop_assert!(refused);
        }
        for db in [
            Database::open_with(dir.path(), "g", "r", opts.clone()).unwrap(),
            Database::open_any(dir.path()).unwrap(),
        ] {
            prop_assert_eq!(db.records(3).unwrap(), t.len() as u64);
            for (i, want) in t.iter().enumerate() {
                prop_assert_eq!(db.lookup(3, i as u64).unwrap(), *want, "index {}", i);
            }
            let past = matches!(db.lookup(3, t.len() as u64), Err(Error::IndexOutOfRange { .. }));
            prop_assert!(past);
            prop_assert_eq!(&read_all(&db, 3, 0..t.len() as u64), &t);
            let lo = lo.min(t.len());
            let hi = (lo + len).min(t.len());
            prop_assert_eq!(&read_all(&db, 3, lo as u64..hi as u64)[..], &t[lo..hi]);
            db.verify(3).unwrap();
        }
    }
}

fn table(n: u32) -> Vec<Option<Value>> {
    (0..n).map(|i| Some(Value::lose(i % 9))).collect()
}

#[test]
fn shards_that_do_not_tile_the_tier_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), "g", "r").unwrap();
    let t = table(1000);
    let s = write_shards(&db, 1, &t, &[400, 700]);
    let check = |shards: &[ShardEntry]| {
        let e = db.finish_sharded(1, 1000, shards).unwrap_err();
        assert!(matches!(e, Error::InvalidShards { tier: 1, .. }), "{e}");
        assert!(!db.is_finished(1));
    };
    check(&s[..2]); // the last shard missing
    check(&[s[0], s[2]]); // a gap
    check(&[s[1], s[2]]); // no shard 0
    check(&[]);
    let mut wrong = s.clone();
    wrong[1].first = 401;
    check(&wrong);
    let mut other = s.clone();
    other[2].tier = 2;
    check(&other);
    // An entry that does not match its file: the file's checks fail.
    let mut lying = s.clone();
    lying[1].file_crc32 ^= 1;
    lying[1].header_crc32 ^= 1;
    assert!(db.finish_sharded(1, 1000, &lying).is_err());
    assert!(!db.is_finished(1));
    db.finish_sharded(1, 1000, &s).unwrap();
    assert_eq!(db.lookup(1, 999).unwrap(), Some(Value::lose(999 % 9)));
}

#[test]
fn damaged_or_missing_shards_are_typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    let opts = Options::default().with_block_bytes(256);
    {
        let db = Database::create_with(dir.path(), "g", "r", opts.clone()).unwrap();
        let s = write_shards(&db, 0, &table(5000), &[2000]);
        db.finish_sharded(0, 5000, &s).unwrap();
        db.write_tier(1, table(10)).unwrap();
    }
    let text = std::fs::read_to_string(dir.path().join(MANIFEST_FILE)).unwrap();
    assert!(text.starts_with("gamesolve-db manifest 2\n"), "{text}");
    assert!(
        text.contains("\ntier 0 shard 1 first 2000 records 3000 "),
        "{text}"
    );
    assert!(text.contains("\ntier 1 records 10 "), "{text}");
    let db = Database::open(dir.path(), "g", "r").unwrap();
    assert_eq!(db.finished_tiers(), [0, 1]);

    // A flipped byte in a block of shard 1: that block's lookups fail, the
    // rest still read.
    let path = db.shard_path(0, 1);
    let good = std::fs::read(&path).unwrap();
    let mut bad = good.clone();
    let at = bad.len() / 2;
    bad[at] ^= 0x40;
    std::fs::write(&path, &bad).unwrap();
    let db = Database::open_with(dir.path(), "g", "r", opts.clone().with_cache_bytes(0)).unwrap();
    assert!(db.verify(0).is_err());
    let fails = (2000..5000u64)
        .filter(|&i| db.lookup(0, i).is_err())
        .count();
    assert!(fails > 0 && fails < 3000, "{fails}");
    assert_eq!(db.lookup(0, 5).unwrap(), Some(Value::lose(5)));

    // A shard cut short, or gone: the open fails and names the file.
    std::fs::write(&path, &good[..good.len() - 3]).unwrap();
    let e = Database::open(dir.path(), "g", "r").unwrap_err();
    assert!(
        matches!(&e, Error::Truncated { path: p, .. } if *p == path),
        "{e}"
    );
    std::fs::remove_file(&path).unwrap();
    let e = Database::open(dir.path(), "g", "r").unwrap_err();
    assert!(
        matches!(&e, Error::TierFileMissing { path: p, tier: 0 } if *p == path),
        "{e}"
    );
    // Shard 0's file put in place of shard 1's: the manifest's header
    // checksum tells them apart.
    std::fs::copy(db.shard_path(0, 0), &path).unwrap();
    assert!(Database::open(dir.path(), "g", "r").is_err());
    std::fs::write(&path, &good).unwrap();
    Database::open(dir.path(), "g", "r")
        .unwrap()
        .verify(0)
        .unwrap();
}

#[test]
fn rewriting_a_sharded_tier_whole_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), "g", "r").unwrap();
    let s = write_shards(&db, 4, &table(300), &[100]);
    db.finish_sharded(4, 300, &s).unwrap();
    assert_eq!(db.lookup(4, 250).unwrap(), Some(Value::lose(250 % 9)));
    db.write_tier(4, (0..300u32).map(|_| Some(Value::win(1))))
        .unwrap();
    assert_eq!(db.tier_info(4).unwrap().shards.len(), 1);
    assert_eq!(db.lookup(4, 250).unwrap(), Some(Value::win(1)));
    let again = Database::open(dir.path(), "g", "r").unwrap();
    assert_eq!(again.lookup(4, 250).unwrap(), Some(Value::win(1)));
    let text = std::fs::read_to_string(dir.path().join(MANIFEST_FILE)).unwrap();
    assert!(text.starts_with("gamesolve-db manifest 1\n"), "{text}");
}

/// `finish_sharded` checked a shard's length, header and block index
/// against its entry but not its blocks nor the whole file's checksum:
/// a shard whose block was altered between its writer's `finish` and the
/// join (by the disk, or anyone sharing the directory) was listed, with
/// the entry's checksum that its bytes no longer match, and so was an
/// entry whose `file_crc32` no file has. Each shard is now read whole
/// first: the damaged block, or the whole file's checksum, refuses it,
/// and the tier stays unfinished with the manifest untouched.
#[test]
fn a_shard_altered_before_the_join_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let opts = Options::default().with_block_bytes(256);
    let db = Database::create_with(dir.path(), "g", "r", opts).unwrap();
    let t = table(5000);
    let s = write_shards(&db, 2, &t, &[2000]);
    let manifest = std::fs::read(dir.path().join(MANIFEST_FILE)).unwrap();
    let path = db.shard_path(2, 1);
    let good = std::fs::read(&path).unwrap();
    // A byte in the middle of the blocks (the header and the index are
    // checked at open already).
    let mut bad = good.clone();
    let at = bad.len() / 2;
    bad[at] ^= 0x10;
    std::fs::write(&path, &bad).unwrap();
    let e = db.finish_sharded(2, 5000, &s).unwrap_err();
    assert!(
        matches!(&e, Error::BlockChecksum { path: p, .. } if *p == path),
        "{e}"
    );
    assert!(!db.is_finished(2));
    assert_eq!(
        std::fs::read(dir.path().join(MANIFEST_FILE)).unwrap(),
        manifest
    );
    // The file as written, but an entry whose whole-file checksum is not
    // the file's.
    std::fs::write(&path, &good).unwrap();
    let mut lying = s.clone();
    lying[1].file_crc32 ^= 1;
    let e = db.finish_sharded(2, 5000, &lying).unwrap_err();
    assert!(
        matches!(&e, Error::FileChecksum { path: p } if *p == path),
        "{e}"
    );
    assert!(!db.is_finished(2));
    // The shards as written join.
    db.finish_sharded(2, 5000, &s).unwrap();
    db.verify(2).unwrap();
    assert_eq!(db.lookup(2, 4321).unwrap(), t[4321]);
}
