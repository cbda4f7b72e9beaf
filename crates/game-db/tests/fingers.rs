//! The real table: Magic Fingers with F = 128 (68,161,536 indices, 98 %
//! draws) solved by `solver-retro`, stored, read back and timed. Heavy:
//!
//! ```text
//! cargo test --release -p game-db --test fingers -- --ignored --nocapture
//! ```
//!
//! Environment: `GAME_DB_KEEP=<dir>` keeps the database there (for the
//! `probe` example, which times a fresh process); `GAME_DB_SWEEP=1` also
//! measures other block sizes and levels.

use std::time::{Duration, Instant};

use game_core::{Indexed, Value};
use game_db::{Database, Options};

const GAME: &str = "Magic Fingers";

fn rules() -> games::FingersRules {
    games::FingersRules {
        fingers: 128,
        ..Default::default()
    }
}

/// The solved table, one record per index.
fn solve() -> Vec<Option<Value>> {
    let g = games::Fingers::new(rules()).expect("F = 128 is valid");
    let t = Instant::now();
    let s = solver_retro::solve_unmoves(&g).expect("solves");
    let table: Vec<Option<Value>> = (0..g.size()).map(|i| s.value_at(i)).collect();
    eprintln!("solved {} indices in {:.2?}", table.len(), t.elapsed());
    table
}

struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
    }
}

struct Measured {
    bytes: u64,
    write: Duration,
    lookup: Duration,
    scan: Duration,
    open_50: Duration,
}

fn measure(dir: &std::path::Path, table: &[Option<Value>], opts: Options) -> Measured {
    let rules = format!("{:?} {}", rules(), table.len());
    let t = Instant::now();
    {
        let db = Database::create_with(dir, GAME, &rules, opts.clone()).unwrap();
        let mut w = db.writer(0).unwrap();
        for chunk in table.chunks(1 << 16) {
            w.write(chunk).unwrap();
        }
        w.finish().unwrap();
    }
    let write = t.elapsed();

    // Every record back, streamed.
    let db = Database::open_with(dir, GAME, &rules, opts.clone()).unwrap();
    let t = Instant::now();
    let mut next = 0usize;
    db.for_each_block(0, |first, recs| {
        assert_eq!(first as usize, next);
        assert_eq!(recs, &table[next..next + recs.len()]);
        next += recs.len();
    })
    .unwrap();
    assert_eq!(next, table.len());
    let scan = t.elapsed();

    // 10^5 random lookups on a fresh handle (cold cache).
    let db = Database::open_with(dir, GAME, &rules, opts.clone()).unwrap();
    let n = table.len() as u64;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let idx: Vec<u64> = (0..100_000).map(|_| rng.below(n)).collect();
    let t = Instant::now();
    for &i in &idx {
        let v = db.lookup(0, i).unwrap();
        assert_eq!(v, table[i as usize], "index {i}");
    }
    let lookup = t.elapsed() / idx.len() as u32;

    // Open and 50 lookups.
    let t = Instant::now();
    let db = Database::open_with(dir, GAME, &rules, opts).unwrap();
    for &i in &idx[..50] {
        db.lookup(0, i).unwrap();
    }
    let open_50 = t.elapsed();
    Measured {
        bytes: db.total_bytes(),
        write,
        lookup,
        scan,
        open_50,
    }
}

#[test]
#[ignore = "solves Fingers F = 128 (about a second in release); run with --release -- --ignored"]
fn fingers_128_database() {
    let table = solve();
    assert_eq!(table.len(), 68_161_536);
    let draws = table.iter().filter(|v| **v == Some(Value::DRAW)).count();
    let raw = 2 * table.len() as u64;
    eprintln!(
        "{} records, {:.1} % draws, raw 2-byte table {raw} bytes",
        table.len(),
        100.0 * draws as f64 / table.len() as f64
    );

    let keep = std::env::var_os("GAME_DB_KEEP");
    let tmp = tempfile::tempdir().unwrap();
    let dir = keep
        .as_ref()
        .map_or(tmp.path().to_owned(), std::path::PathBuf::from);
    let _ = std::fs::remove_dir_all(&dir);
    let m = measure(&dir, &table, Options::default());
    report("default (2 MiB, level 12)", raw, &m);
    // The bars: (a) at most 25 % of the raw table, (b) under 20 µs a
    // lookup, (c) well under 50 ms to open and look up 50 times.
    assert!(m.bytes * 4 <= raw, "{} bytes", m.bytes);
    assert!(m.lookup < Duration::from_micros(20), "{:?}", m.lookup);
    assert!(m.open_50 < Duration::from_millis(50), "{:?}", m.open_50);
    if keep.is_some() {
        eprintln!(
            "kept in {}; try: cargo run --release -p game-db --example probe -- {} {GAME:?} {:?} 0 50",
            dir.display(),
            dir.display(),
            format!("{:?} {}", rules(), table.len())
        );
    }

    if std::env::var_os("GAME_DB_SWEEP").is_some() {
        for (kib, level) in [
            (4, 3),
            (16, 1),
            (16, 9),
            (32, 3),
            (64, 3),
            (256, 3),
            (1024, 3),
        ] {
            let d = tempfile::tempdir().unwrap();
            let opts = Options::default()
                .with_block_bytes(kib << 10)
                .with_level(level);
            let m = measure(d.path(), &table, opts);
            report(&format!("{kib} KiB, level {level}"), raw, &m);
        }
    }
}

/// A table far less compressible than Fingers: 2^25 records, each a
/// pseudo-random win, loss or tie at one of 64 remoteness values, or no
/// position (about 8 bits of entropy a record). It shows how the block size
/// trades lookup time against size when blocks do not shrink to almost
/// nothing.
#[test]
#[ignore = "heavy; run with --release -- --ignored"]
fn high_entropy_table() {
    let mut rng = Rng(12345);
    let table: Vec<Option<Value>> = (0..1u64 << 25)
        .map(|_| {
            let r = rng.below(64) as u32;
            match rng.below(10) {
                0 => None,
                1 => Some(Value::tie(r)),
                2..=5 => Some(Value::lose(r)),
                _ => Some(Value::win(r)),
            }
        })
        .collect();
    let raw = 2 * table.len() as u64;
    for kib in [4, 16, 64] {
        let d = tempfile::tempdir().unwrap();
        let m = measure(
            d.path(),
            &table,
            Options::default().with_block_bytes(kib << 10),
        );
        report(&format!("high entropy, {kib} KiB"), raw, &m);
    }
}

fn report(what: &str, raw: u64, m: &Measured) {
    eprintln!(
        "{what:28} {:>9} bytes = {:5.2} % of raw | write {:>8.1?} | scan {:>8.1?} | random lookup {:>7.2?} | open + 50 lookups {:>7.2?}",
        m.bytes,
        100.0 * m.bytes as f64 / raw as f64,
        m.write,
        m.scan,
        m.lookup,
        m.open_50
    );
}
