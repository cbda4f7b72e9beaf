//! The exact search (solver-search) on Connect Four 7×6: sets of positions
//! near the end, in the middle and nearer the start, made from our own
//! random play-outs (seeded: the same sets on every run), each searched
//! from a fresh transposition table, on one and two threads; and on 5×4
//! with and without endgame tables (the solved tiers of 12 pieces and
//! more: 7×6's last tiers do not fit this machine — tier 41 alone has
//! C(41, 20) · 7 indices).
//!
//! Run: `cargo bench --features bench --bench search` (or `-- end` for one
//! set). Before the criterion groups, a summary is printed for each set:
//! the mean and worst time a position, and nodes a second.
//!
//! Pons' solver publishes means of 4.6 µs (end), 37 µs to 3.2 ms
//! (middle), 255 µs to 5.5 s (start) a position on his machine; it is not
//! built here (its source is not on this machine).

use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use game_core::{Canonical, Game, SearchHints};
use games::{ConnectFour, ConnectFourPosition};
use gamesolve::answer::SolvedTiers;
use solver_search::{Config, Searcher};

#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// splitmix64.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (((z ^ (z >> 31)) as u128 * u128::from(n)) >> 64) as u64
    }
}

/// `n` positions of `plies` pieces from random play-outs, none over and
/// none decided by a quick test (no win at once, no forced loss).
fn play_outs(g: &ConnectFour, plies: u32, n: usize, seed: u64) -> Vec<ConnectFourPosition> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < n {
        let mut pos = g.start();
        while pos.pieces() < plies && g.outcome(&pos).is_none() {
            moves.clear();
            g.moves(&pos, &mut moves);
            pos = g.play(&pos, &moves[rng.below(moves.len() as u64) as usize]);
        }
        if g.outcome(&pos).is_none() && g.quick_value(&pos).is_none() {
            out.push(pos);
        }
    }
    out
}

/// The sets: name, pieces, positions, table bytes.
const SETS: [(&str, u32, usize, u64); 3] = [
    ("end", 32, 200, 4 << 20),
    ("middle", 24, 20, 64 << 20),
    ("start", 18, 3, 256 << 20),
];

/// Searches every position from a fresh table: (mean, worst, nodes/s).
fn summary<T: game_core::EndgameTable<ConnectFour> + Sync + Copy>(
    g: &ConnectFour,
    set: &[ConnectFourPosition],
    config: &Config,
    tables: T,
) -> (Duration, Duration, f64) {
    let (mut total, mut worst, mut nodes) = (Duration::ZERO, Duration::ZERO, 0u64);
    for pos in set {
        let search = Searcher::with_tables(g, tables, config.clone()).unwrap();
        let t = Instant::now();
        let found = search.value(pos).unwrap();
        let d = t.elapsed();
        total += d;
        worst = worst.max(d);
        nodes += found.nodes;
    }
    (
        total / set.len() as u32,
        worst,
        nodes as f64 / total.as_secs_f64(),
    )
}

fn seven_by_six(c: &mut Criterion) {
    let g = ConnectFour::new(7, 6).unwrap();
    for (name, plies, n, bytes) in SETS {
        let set = play_outs(&g, plies, n, u64::from(plies));
        for threads in [1, 2] {
            let config = Config::new().with_threads(threads).with_table_bytes(bytes);
            let (mean, worst, rate) = summary(&g, &set, &config, game_core::NoTable);
            eprintln!(
                "7x6 {name} ({n} positions of {plies} pieces), {threads} thread(s): mean {mean:?}, \
                 worst {worst:?}, {:.2e} nodes/s",
                rate
            );
            let mut group = c.benchmark_group(format!("search_7x6_{name}"));
            group.sample_size(10);
            group.bench_function(format!("{threads}_threads"), |b| {
                b.iter(|| {
                    for pos in &set {
                        let search = Searcher::new(&g, config.clone()).unwrap();
                        std::hint::black_box(search.value(pos).unwrap());
                    }
                });
            });
            group.finish();
        }
    }
}

/// Pascal Pons' `Test_L1_R1` (1,000 positions near the start, chosen by
/// his program, not ours; "moves score" lines), searched as the other
/// sets: a fresh table a position, its clearing not timed.
const PONS_L1_R1: &str = include_str!("../tests/data/Test_L1_R1");

fn pons_begin_easy(c: &mut Criterion) {
    let g = ConnectFour::new(7, 6).unwrap();
    let set: Vec<ConnectFourPosition> = PONS_L1_R1
        .lines()
        .map(|line| {
            let moves = line.split_whitespace().next().expect("moves");
            g.position_from_moves(moves).expect("a legal position")
        })
        .collect();
    for threads in [1, 2] {
        let config = Config::new()
            .with_threads(threads)
            .with_table_bytes(64 << 20);
        let (mean, worst, rate) = summary(&g, &set, &config, game_core::NoTable);
        eprintln!(
            "7x6 Pons' Test_L1_R1 ({} positions), {threads} thread(s): mean {mean:?}, \
             worst {worst:?}, {rate:.2e} nodes/s",
            set.len()
        );
    }
    let mut group = c.benchmark_group("search_7x6_pons_l1_r1");
    group.sample_size(10);
    let config = Config::new().with_table_bytes(64 << 20);
    group.bench_function("first_100_1_thread", |b| {
        b.iter(|| {
            for pos in &set[..100] {
                let search = Searcher::new(&g, config.clone()).unwrap();
                std::hint::black_box(search.value(pos).unwrap());
            }
        });
    });
    group.finish();
}

fn five_by_four_tables(c: &mut Criterion) {
    let g = ConnectFour::new(5, 4).unwrap();
    let canonical = Canonical(g.clone());
    let sol = solver_retro::solve_tiers(&canonical).unwrap();
    let tables = SolvedTiers::new(&sol).from_tier(12);
    let set = play_outs(&g, 6, 50, 54);
    let config = Config::new().with_table_bytes(1 << 20);
    for (label, with) in [("without tables", false), ("with tiers 12+", true)] {
        let (mean, worst, rate) = if with {
            summary(&g, &set, &config, tables)
        } else {
            summary(&g, &set, &config, game_core::NoTable)
        };
        eprintln!(
            "5x4 (50 positions of 6 pieces) {label}: mean {mean:?}, worst {worst:?}, {rate:.2e} nodes/s"
        );
    }
    let mut group = c.benchmark_group("search_5x4_endgame_tables");
    group.sample_size(10);
    group.bench_function("without", |b| {
        b.iter(|| {
            for pos in &set {
                let s = Searcher::new(&g, config.clone()).unwrap();
                std::hint::black_box(s.value(pos).unwrap());
            }
        });
    });
    group.bench_function("with_tiers_12_on", |b| {
        b.iter(|| {
            for pos in &set {
                let s = Searcher::with_tables(&g, tables, config.clone()).unwrap();
                std::hint::black_box(s.value(pos).unwrap());
            }
        });
    });
    group.finish();
}

criterion_group!(benches, pons_begin_easy, seven_by_six, five_by_four_tables);
criterion_main!(benches);
