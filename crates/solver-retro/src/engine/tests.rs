//! Tests of the level engine on every preset against the reference solver,
//! on any number of threads, and its refusals of games that break their
//! promises.

use game_core::{Outcome, ParentVisitor, Run};

use super::{clear_watched, post_to, Direct, Inbox, Made, Phase, QUIET_ROUNDS};
use crate::cell::Cell;
use crate::Error;

/// Runs `f` on a direct visitor over `cells` (a won child's parents at
/// level 3), and returns what it made of the next level and its error.
fn direct(cells: &mut [u16], f: impl FnOnce(&mut Direct<'_, u16>)) -> (Vec<u64>, Option<Error>) {
    let (mut next, mut next_scan, mut made) = (Vec::new(), false, 0);
    let mut d = Direct {
        cells,
        made: Made {
            base: 100,
            next: &mut next,
            next_scan: &mut next_scan,
            made: &mut made,
            cap: 16,
        },
        set: None,
        lose: u16::resolved(Outcome::Lose, 3),
        phase: Phase::Decisive,
        broken: None,
    };
    f(&mut d);
    let broken = d.broken.take();
    (next, broken)
}

#[test]
fn a_run_with_a_hole_leaves_the_hole_as_it_was() {
    let lost = u16::resolved(Outcome::Lose, 1);
    let mut cells = [u16::counter(2), lost, u16::counter(1), u16::counter(5)];
    // Ids 100..104, the hole at 101: a loss, which no update may reach.
    let (next, broken) = direct(&mut cells, |d| d.run(Run::range(100..104).except(101)));
    assert!(broken.is_none(), "{broken:?}");
    assert_eq!(
        cells,
        [
            u16::counter(1),
            lost,
            u16::resolved(Outcome::Lose, 3),
            u16::counter(4)
        ]
    );
    assert_eq!(next, [102]);
    // A loss that is not the hole is refused.
    let (_, broken) = direct(&mut cells, |d| d.run(Run::range(100..104).except(103)));
    assert!(matches!(broken, Some(Error::Broken(_))), "{broken:?}");
}

#[test]
fn a_run_with_a_hole_past_the_table_is_refused_at_once() {
    let mut cells = [u16::counter(2); 4];
    // Parent by parent this would take 2^64 steps.
    let (_, broken) = direct(&mut cells, |d| d.run(Run::range(100..u64::MAX).except(101)));
    assert!(matches!(broken, Some(Error::Broken(_))), "{broken:?}");
    let (_, broken) = direct(&mut cells, |d| d.run(Run::range(90..102).except(95)));
    assert!(matches!(broken, Some(Error::Broken(_))), "{broken:?}");
    assert_eq!(cells, [u16::counter(2); 4]);
}

#[test]
fn only_inboxes_posted_to_or_holding_room_are_cleared_and_room_goes_back() {
    let mut out: Vec<Inbox> = (0..4).map(|_| Inbox::default()).collect();
    let mut watch = Vec::new();
    // A post lists its inbox once, however many posts.
    post_to(&mut out, &mut watch, 2).lost.push(7);
    post_to(&mut out, &mut watch, 2).runs.push(9);
    post_to(&mut out, &mut watch, 0).won.push(1);
    assert_eq!(watch, [2, 0]);
    clear_watched(&mut out, &mut watch);
    assert!(out.iter().all(Inbox::is_empty));
    // Small inboxes are idle once cleared: nothing is left to watch.
    assert!(watch.is_empty());
    assert!(out.iter().all(|i| !i.watched));
    // A burst leaves room: its inbox stays watched until that room has
    // been unused for QUIET_ROUNDS rounds, then gives it back.
    post_to(&mut out, &mut watch, 3).won.extend(0..100_000);
    clear_watched(&mut out, &mut watch);
    assert_eq!(watch, [3]);
    assert!(out[3].won.capacity() >= 100_000);
    for _ in 1..QUIET_ROUNDS {
        clear_watched(&mut out, &mut watch);
    }
    assert_eq!(watch, [3]);
    clear_watched(&mut out, &mut watch);
    assert!(
        out[3].won.capacity() <= 4 << 10,
        "{}",
        out[3].won.capacity()
    );
    assert!(watch.is_empty());
}

use crate::fixtures::testing::{big_graph, graph, reference, Capable, Fan};
use crate::fixtures::{Liar, Lie};
use crate::Solved;
use crate::{certify, solve, solve_indexed, solve_unmoves, solve_with, Config};
use game_core::fixtures::Graph;
use game_core::{Game, Indexed, IndexedUnmoves, ParentIndices, Unmoves, Value};
use proptest::prelude::*;

proptest! {
    #[test]
    fn all_paths_agree_with_the_reference(g in graph(false)) {
        let want = reference(&g);
        let flat = solve_indexed(&g).unwrap();
        let fast = solve_unmoves(&g).unwrap();
        let listed = Capable { graph: g.clone(), bulk: false };
        let lazy = solve_unmoves(&listed).unwrap();
        let with_bulk = Capable { graph: g.clone(), bulk: true };
        let bulk = solve_unmoves(&with_bulk).unwrap();
        prop_assert!(certify(&bulk).is_ok());
        prop_assert!(certify(&lazy).is_ok());
        prop_assert!(certify(&flat).is_ok());
        prop_assert!(certify(&fast).is_ok());
        for (p, &w) in want.iter().enumerate() {
            prop_assert_eq!(flat.value(&p), Some(w), "stored indexed at {}", p);
            prop_assert_eq!(fast.value(&p), Some(w), "unmoves at {}", p);
            prop_assert_eq!(lazy.value(&p), Some(w), "lazy unmoves at {}", p);
            prop_assert_eq!(bulk.value(&p), Some(w), "bulk counts and runs at {}", p);
            let from = solve(&g, p).unwrap();
            prop_assert_eq!(from.value(&p), Some(w), "hash from {}", p);
            prop_assert!(certify(&from).is_ok());
        }
    }
}

proptest! {
    /// Any number of threads (and so of owners, down to one id each) gives
    /// the same value and best move everywhere, on every path.
    #[test]
    fn threads_do_not_change_the_table(g in big_graph()) {
        let want = reference(&g);
        let bulk = Capable { graph: g.clone(), bulk: true };
        let listed = Capable { graph: g.clone(), bulk: false };
        for threads in [1, 2, 4] {
            let config = Config::default().threads(threads);
            let fast = crate::solve_unmoves_with(&g, &config).unwrap();
            let runs = crate::solve_unmoves_with(&bulk, &config).unwrap();
            let lazy = crate::solve_unmoves_with(&listed, &config).unwrap();
            let flat = crate::solve_indexed_with(&g, &config).unwrap();
            let from = solve_with(&g, 0, &config).unwrap();
            for (p, &w) in want.iter().enumerate() {
                prop_assert_eq!(fast.value(&p), Some(w), "{} threads, unmoves at {}", threads, p);
                prop_assert_eq!(runs.value(&p), Some(w), "{} threads, runs at {}", threads, p);
                prop_assert_eq!(lazy.value(&p), Some(w), "{} threads, lazy at {}", threads, p);
                prop_assert_eq!(flat.value(&p), Some(w), "{} threads, stored at {}", threads, p);
                prop_assert_eq!(runs.best_move(&p), fast.best_move(&p));
                if let Some(v) = from.value(&p) {
                    prop_assert_eq!(v, w, "{} threads, from the start at {}", threads, p);
                }
            }
            prop_assert!(crate::certify_indexed(&runs).is_ok());
        }
    }
}

proptest! {
    #[test]
    fn acyclic_games_agree_with_solver_dp(g in graph(true)) {
        let dp = solver_dp::solve_indexed(&g).unwrap();
        let retro = solve_unmoves(&g).unwrap();
        for p in 0..g.edges.len() {
            prop_assert_eq!(retro.value(&p), dp.value(&p));
            let (a, b) = (retro.best_move(&p), dp.best_move(&p));
            prop_assert_eq!(a, b);
        }
    }
}

#[test]
fn long_remoteness_widens_the_cells() {
    // A chain 0 <- 1 <- ... <- 9999 with a loop at the top: remoteness up
    // to 9999 does not fit 13 bits, so the unmoves path switches to u32.
    let n = 10_000;
    let mut edges: Vec<Vec<usize>> = (0..n)
        .map(|i| if i == 0 { vec![] } else { vec![i - 1] })
        .collect();
    edges[n - 1].push(n - 1);
    let g = Graph {
        edges,
        ends: vec![None; n],
    };
    let sol = solve_unmoves(&g).unwrap();
    assert_eq!(sol.bytes_per_position(), 4);
    assert_eq!(sol.value(&9000), Some(Value::lose(9000)));
    assert_eq!(sol.value(&(n - 1)), Some(Value::win(n as u32 - 1)));
    assert!(certify(&sol).is_ok());
}

#[test]
fn many_children_counted_in_bulk_widen_the_cells() {
    // More children than a 2-byte cell counts (2^15 - 1), counted in
    // bulk: 40,000 comes through the 16-bit counts as it is, 70,000
    // saturated at 65,535; either way the solve moves to 4-byte cells.
    for kids in [40_000usize, 70_000] {
        let g = Fan { kids };
        let mut narrow = [0u16; 2];
        assert!(g.child_counts(0, &mut narrow));
        assert_eq!(narrow, [kids.min(65_535) as u16, 0]);
        let sol = solve_unmoves(&g).unwrap();
        assert_eq!(sol.bytes_per_position(), 4, "{kids} children");
        assert_eq!(sol.value(&0), Some(Value::win(1)));
        assert_eq!(sol.value(&(kids + 1)), Some(Value::lose(2)));
        assert_eq!(sol.value(&kids), Some(Value::lose(0)));
        assert!(certify(&sol).is_ok());
    }
    // Fewer, and the cells stay 2 bytes.
    let sol = solve_unmoves(&Fan { kids: 30_000 }).unwrap();
    assert_eq!(sol.bytes_per_position(), 2);
    assert_eq!(sol.value(&30_001), Some(Value::lose(2)));
}

#[test]
fn a_broken_promise_is_an_error_on_every_path() {
    let says = |e: &Error, lie: Lie| match (lie, e) {
        (Lie::CountTooLow, Error::Broken(m)) => m.contains("more parents' updates than children"),
        (Lie::ParentIsNoPosition | Lie::RunThroughNoPosition, Error::Broken(m)) => {
            m.contains("which is no position")
        }
        (Lie::ParentPastTheEnd, e) => matches!(e, Error::BadIndex { index: 7, size: 5 }),
        _ => false,
    };
    for lie in Lie::ALL {
        // One thread updates parents as they come or in batches; more
        // threads post them to each other.
        for (threads, direct) in [(1, true), (1, false), (2, false), (3, false)] {
            let mut config = Config::default().threads(threads);
            config.direct = Some(direct);
            let err = crate::solve_unmoves_with(&Liar { lie }, &config).unwrap_err();
            assert!(says(&err, lie), "{threads} threads, direct {direct}: {err}");
        }
    }
}

/// A table past the cache (9·2²⁰ ids, 18 MiB of cells) with four
/// positions: 3 → 2 → 1 → 0, 0 has no move. Records the threads that
/// count its children and find its parents.
struct Recorded {
    threads: std::sync::Mutex<std::collections::HashSet<std::thread::ThreadId>>,
}

impl Recorded {
    fn saw(&self) {
        self.threads
            .lock()
            .unwrap()
            .insert(std::thread::current().id());
    }
}

impl Game for Recorded {
    type Position = u64;
    type Move = ();
    fn moves(&self, p: &u64, out: &mut Vec<()>) {
        if (1..4).contains(p) {
            out.push(());
        }
    }
    fn play(&self, p: &u64, _: &()) -> u64 {
        p - 1
    }
}

impl Indexed for Recorded {
    fn size(&self) -> u64 {
        9 << 20
    }
    fn index(&self, p: &u64) -> u64 {
        *p
    }
    fn position(&self, i: u64) -> Option<u64> {
        (i < 4).then_some(i)
    }
}

impl Unmoves for Recorded {
    fn unmoves(&self, c: &u64, out: &mut Vec<u64>) {
        if *c < 3 {
            out.push(c + 1);
        }
    }
}

impl IndexedUnmoves for Recorded {
    fn child_counts<T: game_core::ChildCount>(&self, first: u64, out: &mut [T]) -> bool {
        self.saw();
        for (k, o) in out.iter_mut().enumerate() {
            *o = T::from(u16::from((1..4).contains(&(first + k as u64))));
        }
        true
    }
    fn unmove_indices(&self, index: u64, out: &mut ParentIndices, _: &mut Vec<u64>) {
        self.saw();
        if index < 3 {
            out.singles.push(index + 1);
        }
    }
}

#[test]
fn a_one_thread_solve_runs_on_the_callers_thread() {
    let game = Recorded {
        threads: Default::default(),
    };
    // Inside a pool of two: a parallel loop anywhere in the solve would
    // hand work to the other thread.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let (sol, caller) = pool.install(|| {
        let config = Config::default().threads(1);
        let sol = crate::solve_unmoves_with(&game, &config).unwrap();
        (sol.value(&3), std::thread::current().id())
    });
    assert_eq!(sol, Some(Value::win(3)));
    let seen = game.threads.lock().unwrap().clone();
    assert_eq!(seen, [caller].into_iter().collect());
}

/// A scanned level whose positions sit in the first chunks of a long
/// table: 100 wins at remoteness 1 (each moving to the lost end 0), then
/// 500 positions in a loop that never ends (draws), then 100 positions
/// each moving only to one of the wins (losses at 2). Level 1 is longer
/// than an owner's list under test, so it is found by a scan that skips
/// the loop's chunks whole; a win it missed would leave its parent
/// drawn. Every path and thread count gives the same table.
#[test]
fn a_sparse_scanned_level_is_found_whole() {
    let (loop_end, n) = (601, 701);
    let mut edges = vec![Vec::new()];
    edges.extend((1..=100).map(|_| vec![0]));
    edges.extend((101..loop_end).map(|i| vec![if i + 1 == loop_end { 101 } else { i + 1 }]));
    edges.extend((loop_end..n).map(|i| vec![i - 600]));
    let mut ends = vec![None; n];
    ends[0] = Some(Outcome::Lose);
    let g = Graph { edges, ends };
    for (threads, direct) in [(1, true), (1, false), (2, false)] {
        let mut config = Config::default().threads(threads);
        config.direct = Some(direct);
        let sol = crate::solve_unmoves_with(&g, &config).unwrap();
        for p in 0..n {
            let want = match p {
                0 => Value::lose(0),
                1..=100 => Value::win(1),
                101..=600 => Value::DRAW,
                _ => Value::lose(2),
            };
            assert_eq!(
                sol.value(&p),
                Some(want),
                "node {p}, {threads} threads, direct {direct}"
            );
        }
    }
}

/// The [`crate::Progress::Expanded`] reports of one solve on `config`
/// (`solve` runs it), in the order they came.
fn expanded_reports(config: &Config, solve: impl FnOnce(&Config)) -> Vec<(u64, u64)> {
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let config = config.clone().progress(move |p| {
        if let crate::Progress::Expanded {
            expanded,
            positions,
        } = p
        {
            log.lock().unwrap().push((expanded, positions));
        }
    });
    solve(&config);
    let seen = seen.lock().unwrap().clone();
    seen
}

/// A solve on a configuration, for [`expanded_reports`].
type Solve<'a> = &'a dyn Fn(&Config);

/// What every solve's expansion reports must show, against `resolved`
/// (the positions not drawn, counted from outside the engine) and the
/// `positions` of the table: a first report of none expanded, the same
/// table size throughout, no report above what is resolved, and the
/// last (sent by the leader once the last level is done) the largest,
/// every position resolved.
fn check_expanded(seen: &[(u64, u64)], resolved: u64, positions: u64) -> Result<(), String> {
    let (first, last) = match (seen.first(), seen.last()) {
        (Some(f), Some(l)) => (f, l),
        _ => return Err("no report".into()),
    };
    if first.0 != 0 {
        return Err(format!(
            "the first report is not of none expanded: {seen:?}"
        ));
    }
    if seen.iter().any(|&(e, p)| p != positions || e > resolved) {
        return Err(format!(
            "a report past {resolved} resolved or not of {positions}: {seen:?}"
        ));
    }
    if last.0 != resolved {
        return Err(format!(
            "the last report is {}, not the {resolved} positions resolved",
            last.0
        ));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Every path's levels report the positions they expand, and in the
    /// end every position resolved — the positions the reference sweep
    /// finds won, lost or tied — for any number of threads; the table's
    /// `positions` is its cells (these paths do not count the open ones).
    #[test]
    fn expansion_reports_count_every_position_resolved(g in big_graph()) {
        let resolved = reference(&g).iter().filter(|v| **v != Value::DRAW).count() as u64;
        let n = g.edges.len() as u64;
        let bulk = Capable { graph: g.clone(), bulk: true };
        let listed = Capable { graph: g.clone(), bulk: false };
        for threads in [1, 2, 4] {
            let config = Config::default().threads(threads);
            let runs: [(&str, Solve<'_>); 4] = [
                ("unmoves", &|c: &Config| { crate::solve_unmoves_with(&g, c).unwrap(); }),
                ("runs", &|c: &Config| { crate::solve_unmoves_with(&bulk, c).unwrap(); }),
                ("lazy", &|c: &Config| { crate::solve_unmoves_with(&listed, c).unwrap(); }),
                ("stored", &|c: &Config| { crate::solve_indexed_with(&g, c).unwrap(); }),
            ];
            for (path, solve) in runs {
                let seen = expanded_reports(&config, solve);
                let checked = check_expanded(&seen, resolved, n);
                prop_assert!(checked.is_ok(), "{} threads, {}: {:?}", threads, path, checked);
            }
        }
    }
}

/// A level of 200,000 positions (the dead ends of [`Fan`], lost at level
/// 0) is reported from inside: its reports, sorted (threads send them in
/// any order), are never more than [`crate::Progress::EXPANDED_EVERY`]
/// and a batch apart, and on one thread they come in order. Every
/// position of the fan is resolved (the dead ends, the fan's root won at
/// 1, its one parent lost at 2), so the last report counts them all.
#[test]
fn a_large_level_is_reported_from_inside() {
    let kids = 200_000;
    let g = Fan { kids };
    let all = kids as u64 + 2;
    let every = crate::Progress::EXPANDED_EVERY;
    for threads in [1, 2, 3] {
        let config = Config::default().threads(threads);
        let seen = expanded_reports(&config, |c| {
            let sol = crate::solve_unmoves_with(&g, c).unwrap();
            assert_eq!(sol.value(&(kids + 1)), Some(Value::lose(2)));
        });
        check_expanded(&seen, all, all).unwrap();
        let mut counts: Vec<u64> = seen.iter().map(|&(e, _)| e).collect();
        if threads == 1 {
            assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
        }
        counts.sort_unstable();
        assert!(counts.len() as u64 > all / every, "{counts:?}");
        assert!(
            counts.windows(2).all(|w| w[1] - w[0] <= every + 64),
            "{threads} threads: {counts:?}"
        );
    }
}
