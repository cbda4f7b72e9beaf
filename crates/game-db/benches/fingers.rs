//! Lookups in the database of Magic Fingers F = 128 (68,161,536 indices):
//! random single lookups, and opening the database plus 50 lookups.
//!
//! ```text
//! cargo bench -p game-db --features bench --bench fingers
//! ```

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use game_core::{Indexed, Value};
use game_db::{Database, Options};

const GAME: &str = "Magic Fingers";

fn build(dir: &std::path::Path) -> (String, u64) {
    let rules = games::FingersRules {
        fingers: 128,
        ..Default::default()
    };
    let g = games::Fingers::new(rules).expect("F = 128 is valid");
    let s = solver_retro::solve_unmoves(&g).expect("solves");
    let rules = format!("{rules:?}");
    let db = Database::create(dir, GAME, &rules).expect("creates");
    let mut w = db.writer(0).expect("writer");
    let mut chunk: Vec<Option<Value>> = Vec::with_capacity(1 << 16);
    for i in 0..g.size() {
        chunk.push(s.value_at(i));
        if chunk.len() == chunk.capacity() {
            w.write(&chunk).expect("writes");
            chunk.clear();
        }
    }
    w.write(&chunk).expect("writes");
    w.finish().expect("finishes");
    (rules, g.size())
}

fn lookups(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (rules, n) = build(dir.path());
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let db = Database::open(dir.path(), GAME, &rules).expect("opens");
    c.bench_function("fingers128/random lookup (4 MiB cache)", |b| {
        b.iter(|| db.lookup(0, next()).expect("looks up"));
    });
    let uncached = Database::open_with(
        dir.path(),
        GAME,
        &rules,
        Options::default().with_cache_bytes(0),
    )
    .expect("opens");
    c.bench_function("fingers128/random lookup (no cache)", |b| {
        b.iter(|| uncached.lookup(0, next()).expect("looks up"));
    });
    let idx: Vec<u64> = (0..50).map(|_| next()).collect();
    c.bench_function("fingers128/open + 50 lookups", |b| {
        b.iter(|| {
            let db = Database::open(dir.path(), GAME, &rules).expect("opens");
            for &i in &idx {
                black_box(db.lookup(0, i).expect("looks up"));
            }
        });
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = lookups
}
criterion_main!(benches);
