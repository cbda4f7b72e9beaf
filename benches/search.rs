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
//! The baseline, measured in the same run where it is installed
//! (`scripts/bitbully-setup.sh`: a virtual environment at
//! `target/bitbully`, or `BITBULLY_PYTHON` naming a Python that imports
//! it): BitBully, a specialised C++ solver of 7×6 (PyPI `bitbully`:
//! bitboards, a transposition table, null-window search), each position
//! solved from an empty table without its opening book
//! (`scripts/bitbully-times.py`). Its score of every position is checked
//! against ours, and the summary gives the ratio of the means. Pons'
//! solver publishes means of 4.6 µs (end), 37 µs to 3.2 ms (middle),
//! 255 µs to 5.5 s (start) a position on his machine; it is not on this
//! one.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion};
use game_core::{Canonical, Game, SearchHints, Value};
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
/// none decided by a quick test (no win at once, no forced loss), each
/// with its moves (columns from 1).
fn play_outs(
    g: &ConnectFour,
    plies: u32,
    n: usize,
    seed: u64,
) -> Vec<(String, ConnectFourPosition)> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    let mut line = Vec::new();
    while out.len() < n {
        let mut pos = g.start();
        line.clear();
        while pos.pieces() < plies && g.outcome(&pos).is_none() {
            moves.clear();
            g.moves(&pos, &mut moves);
            let mv = moves[rng.below(moves.len() as u64) as usize];
            line.push(mv);
            pos = g.play(&pos, &mv);
        }
        if g.outcome(&pos).is_none() && g.quick_value(&pos).is_none() {
            out.push((g.format_moves(&line), pos));
        }
    }
    out
}

/// The Python that runs BitBully, if it is installed.
fn bitbully() -> Option<PathBuf> {
    let python = std::env::var_os("BITBULLY_PYTHON").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bitbully/bin/python"),
        PathBuf::from,
    );
    python.exists().then_some(python)
}

/// BitBully's mean and worst time a position over `set`, each solved from
/// an empty table, after checking its score of every position against
/// `ours`; `None` (and a line saying how to install it) where it is not
/// installed.
fn baseline(
    g: &ConnectFour,
    set: &[(String, ConnectFourPosition)],
    ours: &[Value],
) -> Option<(Duration, Duration)> {
    let Some(python) = bitbully() else {
        eprintln!("  (no baseline: run scripts/bitbully-setup.sh to time BitBully beside it)");
        return None;
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/bitbully-times.py");
    let mut child = Command::new(python)
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python runs");
    let mut input = String::new();
    for (moves, _) in set {
        input.push_str(moves);
        input.push('\n');
    }
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "bitbully-times.py failed");
    let lines = String::from_utf8(out.stdout).unwrap();
    let (mut total, mut worst) = (Duration::ZERO, Duration::ZERO);
    let mut n = 0;
    for (((moves, pos), value), line) in set.iter().zip(ours).zip(lines.lines()) {
        let mut words = line.split_whitespace();
        let score: i32 = words.next().unwrap().parse().unwrap();
        let secs: f64 = words.next().unwrap().parse().unwrap();
        assert_eq!(
            g.value_of_score(pos.pieces(), score),
            Some(*value),
            "{moves}: BitBully scores {score}, we find {value:?}"
        );
        let d = Duration::from_secs_f64(secs);
        total += d;
        worst = worst.max(d);
        n += 1;
    }
    assert_eq!(
        n,
        set.len(),
        "BitBully answered {n} of {} positions",
        set.len()
    );
    Some((total / n as u32, worst))
}

/// Ours (one thread) against BitBully, printed.
fn against_baseline(
    g: &ConnectFour,
    label: &str,
    set: &[(String, ConnectFourPosition)],
    ours: (Duration, &[Value]),
) {
    if let Some((mean, worst)) = baseline(g, set, ours.1) {
        eprintln!(
            "  {label}: BitBully mean {mean:?}, worst {worst:?}; every score agrees; \
             ours (1 thread) / BitBully = {:.2}",
            ours.0.as_secs_f64() / mean.as_secs_f64()
        );
    }
}

/// The sets: name, pieces, positions, table bytes.
const SETS: [(&str, u32, usize, u64); 3] = [
    ("end", 32, 200, 4 << 20),
    ("middle", 24, 100, 64 << 20),
    ("start", 18, 100, 256 << 20),
];

/// Searches every position from a fresh table: (mean, worst, nodes/s,
/// the values found).
fn summary<T: game_core::EndgameTable<ConnectFour> + Sync + Copy>(
    g: &ConnectFour,
    set: &[(String, ConnectFourPosition)],
    config: &Config,
    tables: T,
) -> (Duration, Duration, f64, Vec<Value>) {
    let (mut total, mut worst, mut nodes) = (Duration::ZERO, Duration::ZERO, 0u64);
    let mut values = Vec::with_capacity(set.len());
    for (_, pos) in set {
        let search = Searcher::with_tables(g, tables, config.clone()).unwrap();
        let t = Instant::now();
        let found = search.value(pos).unwrap();
        let d = t.elapsed();
        total += d;
        worst = worst.max(d);
        nodes += found.nodes;
        values.push(found.value);
    }
    (
        total / set.len() as u32,
        worst,
        nodes as f64 / total.as_secs_f64(),
        values,
    )
}

fn seven_by_six(c: &mut Criterion) {
    let g = ConnectFour::new(7, 6).unwrap();
    for (name, plies, n, bytes) in SETS {
        let set = play_outs(&g, plies, n, u64::from(plies));
        let label = format!("7x6 {name} ({n} positions of {plies} pieces)");
        for threads in [1, 2] {
            let config = Config::new().with_threads(threads).with_table_bytes(bytes);
            let (mean, worst, rate, values) = summary(&g, &set, &config, game_core::NoTable);
            eprintln!(
                "{label}, {threads} thread(s): mean {mean:?}, worst {worst:?}, {rate:.2e} nodes/s"
            );
            if threads == 1 {
                against_baseline(&g, &label, &set, (mean, &values));
            }
            let mut group = c.benchmark_group(format!("search_7x6_{name}"));
            group.sample_size(10);
            group.bench_function(format!("{threads}_threads"), |b| {
                b.iter(|| {
                    for (_, pos) in &set {
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
    let set: Vec<(String, ConnectFourPosition)> = PONS_L1_R1
        .lines()
        .map(|line| {
            let moves = line.split_whitespace().next().expect("moves");
            let pos = g.position_from_moves(moves).expect("a legal position");
            (moves.to_string(), pos)
        })
        .collect();
    let label = format!("7x6 Pons' Test_L1_R1 ({} positions)", set.len());
    for threads in [1, 2] {
        let config = Config::new()
            .with_threads(threads)
            .with_table_bytes(64 << 20);
        let (mean, worst, rate, values) = summary(&g, &set, &config, game_core::NoTable);
        eprintln!(
            "{label}, {threads} thread(s): mean {mean:?}, worst {worst:?}, {rate:.2e} nodes/s"
        );
        if threads == 1 {
            against_baseline(&g, &label, &set, (mean, &values));
        }
    }
    let mut group = c.benchmark_group("search_7x6_pons_l1_r1");
    group.sample_size(10);
    let config = Config::new().with_table_bytes(64 << 20);
    group.bench_function("first_100_1_thread", |b| {
        b.iter(|| {
            for (_, pos) in &set[..100] {
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
        let (mean, worst, rate, _) = if with {
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
            for (_, pos) in &set {
                let s = Searcher::new(&g, config.clone()).unwrap();
                std::hint::black_box(s.value(pos).unwrap());
            }
        });
    });
    group.bench_function("with_tiers_12_on", |b| {
        b.iter(|| {
            for (_, pos) in &set {
                let s = Searcher::with_tables(&g, tables, config.clone()).unwrap();
                std::hint::black_box(s.value(pos).unwrap());
            }
        });
    });
    group.finish();
}

criterion_group!(benches, pons_begin_easy, seven_by_six, five_by_four_tables);
criterion_main!(benches);
