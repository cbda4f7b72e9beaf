//! Measures block layouts and zstd settings on a database's records:
//! `cargo run --release -p game-db --example codecs -- DIR RECORDS_A_BLOCK LEVEL LAYOUT...`
//! with layouts `rows` (16-bit records as written by format 1), `planes`
//! (their high bytes, then their low bytes) and `split` (a class byte a
//! record, then the remoteness bytes of the records that have one).
//! Prints a histogram of the records and, per layout, the compressed bytes.

use game_core::{Outcome, Value};
use game_db::Database;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let db = Database::open_any(&args[0]).expect("a database");
    let per: usize = args[1].parse().expect("records a block");
    let level: i32 = args[2].parse().expect("a zstd level");
    let layouts = &args[3..];
    let mut hist = [0u64; 5];
    let mut max_r = 0u32;
    let mut sizes = vec![0u64; layouts.len()];
    let mut cctx = zstd::bulk::Compressor::new(level).unwrap();
    let mut pending: Vec<Option<Value>> = Vec::with_capacity(per);
    let mut flush = |block: &mut Vec<Option<Value>>, sizes: &mut Vec<u64>| {
        for (k, l) in layouts.iter().enumerate() {
            let bytes = layout(l, block);
            sizes[k] += cctx.compress(&bytes).unwrap().len() as u64;
        }
        block.clear();
    };
    let mut total = 0u64;
    for tier in db.finished_tiers() {
        db.for_each_block(tier, |_, values| {
            for &v in values {
                hist[class(v) as usize] += 1;
                max_r = max_r.max(v.and_then(Value::remoteness).unwrap_or(0));
                pending.push(v);
                if pending.len() == per {
                    flush(&mut pending, &mut sizes);
                }
            }
            total += values.len() as u64;
        })
        .unwrap();
        if !pending.is_empty() {
            flush(&mut pending, &mut sizes);
        }
    }
    println!(
        "records {total}: none {} draw {} lose {} tie {} win {}; max remoteness {max_r}; files {}",
        hist[0],
        hist[1],
        hist[2],
        hist[3],
        hist[4],
        db.total_bytes()
    );
    let positions = total - hist[0];
    println!("separately: bitmaps {MAPS:?}, values {VALS:?}");
    for (l, s) in layouts.iter().zip(&sizes) {
        println!(
            "{l:>8} {per} a block, level {level}: {s} bytes, {:.3} bits a position",
            *s as f64 * 8.0 / positions as f64
        );
    }
}

static MAPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static VALS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn class(v: Option<Value>) -> u8 {
    match v.map(Value::outcome) {
        None => 0,
        Some(Outcome::Draw) => 1,
        Some(Outcome::Lose) => 2,
        Some(Outcome::Tie) => 3,
        Some(Outcome::Win) => 4,
    }
}

fn layout(name: &str, block: &[Option<Value>]) -> Vec<u8> {
    let rec: Vec<u16> = block
        .iter()
        .map(|&v| game_db::encode16(v).unwrap())
        .collect();
    match name {
        "rows" => rec.iter().flat_map(|r| r.to_le_bytes()).collect(),
        "planes" => {
            let mut b: Vec<u8> = rec.iter().map(|r| (r >> 8) as u8).collect();
            b.extend(rec.iter().map(|r| *r as u8));
            b
        }
        "split" | "parity" => {
            let par = name == "parity";
            let mut b: Vec<u8> = block
                .iter()
                .map(|&v| {
                    let r = v.and_then(Value::remoteness).unwrap_or(0);
                    class(v) * 2 + if par { (r & 1) as u8 } else { 0 }
                })
                .collect();
            b.extend(block.iter().filter_map(|&v| {
                v.and_then(Value::remoteness)
                    .map(|r| if par { (r >> 1) as u8 } else { r as u8 })
            }));
            b
        }
        "bitmap" | "bitmap-sep" => {
            let mut b = vec![0u8; block.len().div_ceil(8)];
            for (i, v) in block.iter().enumerate() {
                if v.is_some() {
                    b[i / 8] |= 1 << (i % 8);
                }
            }
            let vals = block.iter().filter_map(|&v| {
                v.map(|v| (class(Some(v)) << 6) | v.remoteness().unwrap_or(0).min(63) as u8)
            });
            if name == "bitmap" {
                b.extend(vals);
                b
            } else {
                // the values compressed on their own: marked by a length
                let vals: Vec<u8> = vals.collect();
                let c = zstd::bulk::compress(&b, level()).unwrap();
                let v = zstd::bulk::compress(&vals, level()).unwrap();
                MAPS.fetch_add(c.len() as u64, std::sync::atomic::Ordering::Relaxed);
                VALS.fetch_add(v.len() as u64, std::sync::atomic::Ordering::Relaxed);
                vec![]
            }
        }
        _ => panic!("unknown layout {name}"),
    }
}

/// The level the command line gave (the third argument).
fn level() -> i32 {
    std::env::args()
        .nth(3)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3)
}
