//! Re-encodes a database and measures codecs on its records, without
//! solving again:
//!
//! ```text
//! cargo run --release -p game-db --example codecs -- DIR recode OUT KIB [LEVEL]
//! cargo run --release -p game-db --example codecs -- DIR zstd RECORDS LEVEL [DICT_KIB]
//! cargo run --release -p game-db --example codecs -- DIR split|full RECORDS LEVEL
//! cargo run --release -p game-db --example codecs -- DIR dump OUT
//! ```
//!
//! `recode` copies every tier of the database in DIR into a new database
//! in OUT (removed first) written with blocks of KIB KiB (this library's
//! codec), then times lookups in it: 10⁵ at random indices (a fresh
//! handle, the default 4 MiB cache), and the same index again (cached).
//! `zstd` lays every RECORDS records out as format 2 did (a presence
//! bitmap, then one byte a present record: `class << 6 | min(r, 63)`) and
//! compresses each with zstd at LEVEL, with DICT_KIB a dictionary of that
//! size trained per tier on its blocks (its bytes counted), and prints
//! the total: what format 2 would have written, and what dictionaries
//! would recover of small blocks. `split` compresses format 2's bitmap
//! and values of every RECORDS records as two frames, `full` as one
//! dense block (format 3's layout). `dump` writes each tier's presence
//! (`bits-T`, a byte a record: 1 for a position) and values (`vals-T`, a
//! compact byte a position) into OUT, for other compressors.

use std::time::{Duration, Instant};

use game_core::{Outcome, Value};
use game_db::{Database, Options};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let db = Database::open_any(&args[0]).expect("a database");
    let (mut indices, mut positions) = (0u64, 0u64);
    for t in db.finished_tiers() {
        db.for_each_block(t, |_, recs| {
            indices += recs.len() as u64;
            positions += recs.iter().filter(|r| r.is_some()).count() as u64;
        })
        .unwrap();
    }
    println!(
        "{}: {} bytes, {indices} indices, {positions} positions",
        args[0],
        db.total_bytes()
    );
    match args[1].as_str() {
        "recode" => recode(&db, &args[2], args[3].parse().unwrap(), args.get(4)),
        "zstd" => zstd_layout(
            &db,
            args[2].parse().unwrap(),
            args[3].parse().unwrap(),
            args.get(4).map(|s| s.parse().unwrap()),
        ),
        "dump" => dump(&db, &args[2]),
        "split" | "full" => variants(
            &db,
            &args[1],
            args[2].parse().unwrap(),
            args[3].parse().unwrap(),
        ),
        _ => panic!("recode or zstd"),
    }
}

fn recode(db: &Database, out: &str, kib: usize, level: Option<&String>) {
    let _ = std::fs::remove_dir_all(out);
    let mut opts = Options::default().with_block_bytes(kib << 10);
    if let Some(l) = level {
        opts = opts.with_level(l.parse().unwrap());
    }
    let rules = db.rules_key().expect("a rules key").to_owned();
    let t = Instant::now();
    {
        let new = Database::create_with(out, db.game(), &rules, opts.clone()).unwrap();
        for tier in db.finished_tiers() {
            let mut w = new.writer(tier).unwrap();
            db.for_each_block(tier, |_, recs| w.write(recs).unwrap())
                .unwrap();
            w.finish().unwrap();
        }
    }
    let write = t.elapsed();
    let new = Database::open_with(out, db.game(), &rules, opts.clone()).unwrap();
    let t = Instant::now();
    for tier in new.finished_tiers() {
        new.for_each_block(tier, |_, _| {}).unwrap();
    }
    let scan = t.elapsed();
    // Random lookups, a tier chosen in proportion to its records.
    let tiers: Vec<(u64, u64)> = new
        .finished_tiers()
        .into_iter()
        .map(|t| (t, new.records(t).unwrap()))
        .collect();
    let total: u64 = tiers.iter().map(|t| t.1).sum();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut pick = || {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        let mut i = x.wrapping_mul(0x2545_f491_4f6c_dd1d) % total;
        for &(t, n) in &tiers {
            if i < n {
                return (t, i);
            }
            i -= n;
        }
        unreachable!()
    };
    let picks: Vec<(u64, u64)> = (0..100_000).map(|_| pick()).collect();
    let fresh = Database::open_with(out, db.game(), &rules, opts).unwrap();
    let t = Instant::now();
    for &(tier, i) in &picks {
        fresh.lookup(tier, i).unwrap();
    }
    let random = t.elapsed() / picks.len() as u32;
    let t = Instant::now();
    for &(tier, i) in &picks[..1000] {
        for _ in 0..10 {
            fresh.lookup(tier, i).unwrap();
        }
    }
    let cached = t.elapsed() / 10_000;
    let bytes = new.total_bytes();
    println!(
        "recoded, {kib} KiB blocks: {bytes} bytes | write {write:.2?} | scan {scan:.2?} | random lookup {random:.2?} | cached lookup {cached:.2?}"
    );
}

fn class(v: Value) -> u8 {
    match v.outcome() {
        Outcome::Draw => 0,
        Outcome::Lose => 1,
        Outcome::Tie => 2,
        Outcome::Win => 3,
    }
}

/// Format 2's layout of `block`.
fn layout(block: &[Option<Value>]) -> Vec<u8> {
    let mut b = vec![0u8; block.len().div_ceil(8)];
    for (i, v) in block.iter().enumerate() {
        if v.is_some() {
            b[i / 8] |= 1 << (i % 8);
        }
    }
    b.extend(block.iter().flatten().map(|&v| {
        if v == Value::DRAW {
            1
        } else {
            (class(v) << 6) | v.remoteness().unwrap_or(0).min(63) as u8
        }
    }));
    b
}

fn zstd_layout(db: &Database, per: usize, level: i32, dict_kib: Option<usize>) {
    let t = Instant::now();
    let mut total = 0u64;
    let mut dict_bytes = 0u64;
    for tier in db.finished_tiers() {
        let mut blocks: Vec<Vec<u8>> = Vec::new();
        let mut pending = Vec::with_capacity(per);
        db.for_each_block(tier, |_, recs| {
            for &r in recs {
                pending.push(r);
                if pending.len() == per {
                    blocks.push(layout(&pending));
                    pending.clear();
                }
            }
        })
        .unwrap();
        if !pending.is_empty() {
            blocks.push(layout(&pending));
        }
        let dict = dict_kib
            .filter(|_| blocks.len() > 8)
            .and_then(|k| zstd::dict::from_samples(&blocks, k << 10).ok())
            .unwrap_or_default();
        dict_bytes += dict.len() as u64;
        let mut c = zstd::bulk::Compressor::with_dictionary(level, &dict).unwrap();
        for b in &blocks {
            total += c.compress(b).unwrap().len() as u64;
        }
    }
    println!(
        "zstd {level}, format 2's layout, {per} records a block, dictionary {dict_kib:?} KiB: {} bytes ({dict_bytes} of dictionaries) in {:.2?}",
        total + dict_bytes,
        t.elapsed()
    );
}

fn dump(db: &Database, out: &str) {
    std::fs::create_dir_all(out).unwrap();
    for tier in db.finished_tiers() {
        let (mut bits, mut vals) = (Vec::new(), Vec::new());
        db.for_each_block(tier, |_, recs| {
            for &r in recs {
                bits.push(u8::from(r.is_some()));
                if let Some(v) = r {
                    vals.push(if v == Value::DRAW {
                        1
                    } else {
                        (class(v) << 6) | v.remoteness().unwrap_or(0).min(63) as u8
                    });
                }
            }
        })
        .unwrap();
        std::fs::write(format!("{out}/bits-{tier}"), &bits).unwrap();
        std::fs::write(format!("{out}/vals-{tier}"), &vals).unwrap();
    }
}

/// One byte a record (no position 0), as format 3's dense blocks.
fn dense(block: &[Option<Value>]) -> Vec<u8> {
    block
        .iter()
        .map(|r| r.map_or(0, |v| layout(&[Some(v)])[1]))
        .collect()
}

/// Every `per` records compressed at `level` as format 2's layout split
/// in two zstd frames (`split`: the bitmap, then the values) or as one
/// dense block (`full`); the total and the slowest decompression.
fn variants(db: &Database, how: &str, per: usize, level: i32) {
    let t = Instant::now();
    let (mut total, mut slowest) = (0u64, Duration::ZERO);
    let mut c = zstd::bulk::Compressor::new(level).unwrap();
    let mut squeeze = |part: &[u8]| {
        let z = c.compress(part).unwrap();
        let t0 = Instant::now();
        zstd::bulk::decompress(&z, part.len()).unwrap();
        slowest = slowest.max(t0.elapsed());
        total += z.len() as u64;
    };
    let mut flush = |block: &mut Vec<Option<Value>>| {
        if how == "split" {
            let l = layout(block);
            let (map, values) = l.split_at(block.len().div_ceil(8));
            squeeze(map);
            squeeze(values);
        } else {
            squeeze(&dense(block));
        }
        block.clear();
    };
    for tier in db.finished_tiers() {
        let mut pending = Vec::with_capacity(per);
        db.for_each_block(tier, |_, recs| {
            for &r in recs {
                pending.push(r);
                if pending.len() == per {
                    flush(&mut pending);
                }
            }
        })
        .unwrap();
        if !pending.is_empty() {
            flush(&mut pending);
        }
    }
    println!(
        "{how}, {per} records a block, level {level}: {total} bytes in {:.2?}, slowest decompression {slowest:.2?}",
        t.elapsed()
    );
}
