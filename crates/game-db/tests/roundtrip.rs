//! Random tables written and read back: every record, every block, every
//! chunking, both record widths.

use game_core::{Outcome, Value, MAX_REMOTENESS};
use game_db::{Database, Error, Options, RecordWidth, MAX_NARROW_REMOTENESS};
use proptest::prelude::*;

fn record(max_r: u32) -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        2 => Just(None),
        6 => Just(Some(Value::DRAW)),
        1 => (0..=max_r).prop_map(|r| Some(Value::win(r))),
        1 => (0..=max_r).prop_map(|r| Some(Value::lose(r))),
        1 => (0..=max_r).prop_map(|r| Some(Value::tie(r))),
    ]
}

/// Tables of 0 to 3000 records; one in four may hold remoteness that only
/// 32-bit records can hold.
fn table() -> impl Strategy<Value = Vec<Option<Value>>> {
    prop_oneof![
        3 => prop::collection::vec(record(MAX_NARROW_REMOTENESS), 0..3000),
        1 => prop::collection::vec(record(MAX_REMOTENESS), 0..3000),
    ]
}

fn needs_wide(t: &[Option<Value>]) -> bool {
    t.iter()
        .flatten()
        .filter_map(|v| v.remoteness())
        .any(|r| r >= 1 << 14)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn tables_round_trip(
        t in table(),
        block_records in 16usize..400,
        chunk in 1usize..700,
        fixed_wide in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let width = fixed_wide.then_some(RecordWidth::Wide);
        let opts = Options::default().with_block_bytes(block_records * 4).with_width(width);
        let rules = format!("rules {chunk}");
        {
            let db = Database::create_with(dir.path(), "random", &rules, opts.clone()).unwrap();
            let mut w = db.writer(5).unwrap();
            for c in t.chunks(chunk) {
                w.write(c).unwrap();
            }
            prop_assert_eq!(w.records(), t.len() as u64);
            let info = w.finish().unwrap();
            prop_assert_eq!(info.records, t.len() as u64);
            let expect_wide = fixed_wide || needs_wide(&t);
            prop_assert_eq!(info.width, if expect_wide { RecordWidth::Wide } else { RecordWidth::Narrow });
            let per_block = (block_records * 4 / info.width.bytes()) as u64;
            prop_assert_eq!(info.block_records as u64, per_block);
            prop_assert_eq!(info.blocks, (t.len() as u64).div_ceil(per_block));
            prop_assert_eq!(info.file_bytes, std::fs::metadata(&info.path).unwrap().len());
        }
        // A fresh handle, with and without a cache.
        for cache in [0, 1 << 20] {
            let db = Database::open_with(dir.path(), "random", &rules, opts.clone().with_cache_bytes(cache)).unwrap();
            prop_assert_eq!(db.finished_tiers(), vec![5]);
            prop_assert_eq!(db.records(5).unwrap(), t.len() as u64);
            // Backwards, so that the cache is not simply filled in order.
            for (i, want) in t.iter().enumerate().rev() {
                prop_assert_eq!(db.lookup(5, i as u64).unwrap(), *want, "index {}", i);
            }
            let out_of_range = matches!(
                db.lookup(5, t.len() as u64),
                Err(Error::IndexOutOfRange { index, records, .. }) if index == t.len() as u64 && records == t.len() as u64
            );
            prop_assert!(out_of_range);
            let mut streamed = Vec::new();
            db.for_each_block(5, |first, recs| {
                assert_eq!(first, streamed.len() as u64);
                streamed.extend_from_slice(recs);
            }).unwrap();
            prop_assert_eq!(&streamed, &t);
            db.verify(5).unwrap();
        }
    }
}

#[test]
fn empty_tier_has_no_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), "empty", "").unwrap();
    let info = db.write_tier(0, std::iter::empty()).unwrap();
    assert_eq!((info.records, info.blocks), (0, 0));
    drop(db);
    let db = Database::open(dir.path(), "empty", "").unwrap();
    assert!(db.is_finished(0));
    assert_eq!(db.records(0).unwrap(), 0);
    assert!(matches!(
        db.lookup(0, 0),
        Err(Error::IndexOutOfRange { .. })
    ));
    let mut calls = 0;
    db.for_each_block(0, |_, _| calls += 1).unwrap();
    assert_eq!(calls, 0);
    db.verify(0).unwrap();
}

#[test]
fn exact_multiple_of_the_block_size() {
    let dir = tempfile::tempdir().unwrap();
    let opts = Options::default().with_block_bytes(64);
    let db = Database::create_with(dir.path(), "g", "r", opts).unwrap();
    let t: Vec<_> = (0..96u32).map(|i| Some(Value::tie(i))).collect();
    let info = db.write_tier(3, t.iter().copied()).unwrap();
    assert_eq!((info.block_records, info.blocks), (32, 3));
    for (i, v) in t.iter().enumerate() {
        assert_eq!(db.lookup(3, i as u64).unwrap(), *v);
    }
}

#[test]
fn fixed_narrow_width_refuses_large_remoteness() {
    let dir = tempfile::tempdir().unwrap();
    let opts = Options::default().with_width(Some(RecordWidth::Narrow));
    let db = Database::create_with(dir.path(), "g", "r", opts).unwrap();
    let mut w = db.writer(0).unwrap();
    w.push(Some(Value::win(MAX_NARROW_REMOTENESS))).unwrap();
    let e = w
        .push(Some(Value::win(MAX_NARROW_REMOTENESS + 1)))
        .unwrap_err();
    assert!(
        matches!(e, Error::RemotenessTooLarge { bits: 16, .. }),
        "{e}"
    );
}

#[test]
fn widening_midway_keeps_earlier_blocks() {
    // Several narrow blocks are written before the first large remoteness.
    let dir = tempfile::tempdir().unwrap();
    let opts = Options::default().with_block_bytes(128);
    let db = Database::create_with(dir.path(), "g", "r", opts).unwrap();
    let mut t: Vec<_> = (0..1000u32)
        .map(|i| (i % 5 != 0).then_some(Value::lose(i)))
        .collect();
    t.push(Some(Value::win(100_000)));
    t.extend((0..77).map(|_| Some(Value::DRAW)));
    let mut w = db.writer(0).unwrap();
    w.write(&t[..1000]).unwrap();
    assert_eq!(w.width(), RecordWidth::Narrow);
    w.write(&t[1000..]).unwrap();
    assert_eq!(w.width(), RecordWidth::Wide);
    let info = w.finish().unwrap();
    assert_eq!(info.width, RecordWidth::Wide);
    assert_eq!(info.block_records, 32);
    for (i, v) in t.iter().enumerate() {
        assert_eq!(db.lookup(0, i as u64).unwrap(), *v, "index {i}");
    }
    // Nothing but the manifest and the tier file is left in the directory.
    let mut names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["manifest.gsdb", "tier-0.gsdb"]);
}

#[test]
fn threads_share_one_database() {
    let dir = tempfile::tempdir().unwrap();
    let opts = Options::default()
        .with_block_bytes(256)
        .with_cache_bytes(2048);
    let db = Database::create_with(dir.path(), "g", "r", opts).unwrap();
    let table = |t: u64| -> Vec<Option<Value>> {
        (0..5000u64)
            .map(|i| match (i * 7 + t) % 4 {
                0 => None,
                1 => Some(Value::DRAW),
                2 => Some(Value::win((i % 300) as u32)),
                _ => Some(Value::lose((i % 200) as u32)),
            })
            .collect()
    };
    // Four tiers written by four threads at once.
    std::thread::scope(|s| {
        for t in 0..4u64 {
            let db = &db;
            s.spawn(move || db.write_tier(t, table(t)).unwrap());
        }
    });
    assert_eq!(db.finished_tiers(), [0, 1, 2, 3]);
    let reopened = Database::open_with(
        dir.path(),
        "g",
        "r",
        Options::default().with_cache_bytes(4096),
    )
    .unwrap();
    std::thread::scope(|s| {
        for th in 0..4u64 {
            let db = &reopened;
            s.spawn(move || {
                for t in 0..4u64 {
                    let want = table(t);
                    for k in 0..2000u64 {
                        let i = (k * 2_654_435_761 + th * 977) % 5000;
                        assert_eq!(db.lookup(t, i).unwrap(), want[i as usize]);
                    }
                }
            });
        }
    });
}

#[test]
fn one_writer_per_tier() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create(dir.path(), "g", "r").unwrap();
    let w = db.writer(2).unwrap();
    assert!(matches!(db.writer(2), Err(Error::TierBusy { tier: 2, .. })));
    let other = db.writer(3).unwrap();
    drop(w);
    drop(other);
    db.write_tier(2, [Some(Value::DRAW)]).unwrap();
    assert_eq!(
        db.lookup(2, 0).unwrap().map(Value::outcome),
        Some(Outcome::Draw)
    );
}

#[test]
fn database_is_send_and_sync() {
    fn assert_sync<T: Send + Sync>() {}
    fn assert_send<T: Send>() {}
    assert_sync::<Database>();
    assert_send::<game_db::TierWriter<'static>>();
}

#[test]
fn few_open_files_serve_many_tiers() {
    let dir = tempfile::tempdir().unwrap();
    let opts = Options::default()
        .with_block_bytes(64)
        .with_open_files(2)
        .with_cache_bytes(0);
    let db = Database::create_with(dir.path(), "g", "r", opts.clone()).unwrap();
    let value = |t: u64, i: u64| Some(Value::win((t * 1000 + i) as u32 % 5000));
    for t in 0..10u64 {
        db.write_tier(t, (0..100).map(|i| value(t, i))).unwrap();
    }
    drop(db);
    let db = Database::open_with(dir.path(), "g", "r", opts).unwrap();
    for round in 0..3u64 {
        for t in 0..10u64 {
            let i = (round * 37 + t * 11) % 100;
            assert_eq!(db.lookup(t, i).unwrap(), value(t, i));
        }
    }
}

#[test]
fn a_rewritten_tier_serves_its_new_records() {
    let dir = tempfile::tempdir().unwrap();
    let db = Database::create_with(
        dir.path(),
        "g",
        "r",
        Options::default().with_block_bytes(64),
    )
    .unwrap();
    db.write_tier(0, (0..500u32).map(|i| Some(Value::lose(i))))
        .unwrap();
    for i in 0..500 {
        assert_eq!(db.lookup(0, i).unwrap(), Some(Value::lose(i as u32)));
    }
    // Every block is cached now; the rewrite must not be answered from it.
    db.write_tier(0, (0..300u32).map(|i| Some(Value::tie(i + 1))))
        .unwrap();
    assert_eq!(db.records(0).unwrap(), 300);
    for i in 0..300 {
        assert_eq!(db.lookup(0, i).unwrap(), Some(Value::tie(i as u32 + 1)));
    }
    assert!(db.lookup(0, 300).is_err());
}
