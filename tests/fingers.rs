//! Magic Fingers against the Ruby Quiz thread: counts of positions and
//! moves, the final verdict, and every cell of the final move table; plus
//! the game's unmoves and child counts against its own forward moves under
//! every rule switch.

use game_core::{Game, Indexed, IndexedUnmoves, Outcome, Unmoves, Value};
use games::{Fingers, FingersPosition, FingersRules};
use solver_retro::{certify, Solved};

fn rules(f: u8) -> FingersRules {
    FingersRules {
        fingers: f,
        ..FingersRules::default()
    }
}

/// Every combination of the six switches.
fn all_rules(f: u8) -> impl Iterator<Item = FingersRules> {
    (0..64u32).map(move |m| FingersRules {
        fingers: f,
        rollover: m & 1 != 0,
        transfers: m & 2 != 0,
        revive: m & 4 != 0,
        empty: m & 8 != 0,
        allow_swap: m & 16 != 0,
        allow_transfer_overflow: m & 32 != 0,
    })
}

#[test]
fn thread_counts_of_positions_and_moves() {
    // The thread (Jesse's Graphviz dot files, whose turn kept in the state):
    // F: nodes, edges = 2: 4, 3; 3: 46, 64; 4: 156, 316; 5: 382, 1000;
    // 6: 784, 2444. Without whose turn, F = 3..6 halve exactly; F = 2 is a
    // single line of play and stays 4, 3.
    let thread = [
        (2, 4, 3),
        (3, 46, 64),
        (4, 156, 316),
        (5, 382, 1000),
        (6, 784, 2444),
    ];
    for (f, nodes, edges) in thread {
        let g = Fingers::new(rules(f)).unwrap();
        let sol = solver_retro::solve(&g, FingersPosition::START).unwrap();
        let (n, m) = if f == 2 {
            (nodes, edges)
        } else {
            (nodes / 2, edges / 2)
        };
        assert_eq!((sol.len(), sol.moves()), (n, m), "F = {f}");
    }
}

#[test]
fn default_rules_first_player_loses_in_26() {
    let g = Fingers::new(FingersRules::default()).unwrap();
    let sol = solver_retro::solve_unmoves(&g).unwrap();
    assert_eq!(sol.value(&FingersPosition::START), Some(Value::lose(26)));
    certify(&sol).expect("certified");
    let from_start = solver_retro::solve(&g, FingersPosition::START).unwrap();
    assert_eq!(
        from_start.value(&FingersPosition::START),
        Some(Value::lose(26))
    );
}

/// Eric's final move table from the thread (rows: the mover's hands,
/// columns: the opponent's; `+` a win, `-` a loss, no sign a draw).
const TABLE: &str = "
01: -1T1 -1T2 -1T3 +1T4 -1T1 -1T2 -1T1 +1T4 -1T2 -1T2 -1T4 -1T3 -1T4 -1T4
02: +C11 -C11 +2T3 +2T4 +C11 -C11 +2T3 +2T4 -C11 +2T3 +2T4 -C11 -C11 -C11
03: +C21 +3T2 +3T3 +3T4 -C21 +3T2 +3T3 +3T4 -C21 -C21 -C21 -C21 -C21 -C21
04: +4T1 +4T2 +4T3 +4T4 +C31 +C22 C22 +C22 C22 +C22 C22 -C22 -C22 -C22
11: +C02 +1T2 -1T3 +1T4 -1T1 +C02 -1T3 +1T4 C02 -1T2 -1T4 -1T3 +1T4 -1T4
12: +C03 -2T2 +2T3 +2T4 +C03 +2T2 +2T3 +2T4 -1T2 +2T3 +2T4 -1T3 -2T3 -1T4
13: +C22 +3T2 +3T3 +3T4 +3T1 +C22 +3T3 +1T4 C22 +C22 C22 -C22 3T3 1T4
14: +4T1 +4T2 +4T3 +4T4 +C32 -C32 -C32 +C32 -C32 -4T3 -4T2 -1T3 -4T3 -1T4
22: +C13 2T2 +2T3 +2T4 +C13 +2T2 +2T3 +2T4 2T2 +2T3 +2T4 +2T3 +2T4 2T4
23: +2T1 +3T2 +3T3 +3T4 +3T1 +3T2 +3T3 +3T4 -3T2 +3T2 -3T2 +3T3 +3T4 -2T4
24: +4T1 +4T2 +2T3 +2T4 +4T1 +4T2 +2T3 +2T4 2T2 +4T2 4T2 +4T3 +4T4 2T4
33: +C24 +3T2 +3T3 +3T4 +3T1 +3T2 +3T3 +3T4 +3T2 +3T2 +3T4 +3T3 +3T4 +3T4
34: +4T1 +4T2 +4T3 +4T4 +4T1 +4T2 +4T3 +4T4 +4T2 +4T3 +4T4 +4T3 +4T4 +4T4
44: +4T1 +4T2 +4T3 +4T4 +4T1 +4T2 +4T3 +4T4 +4T2 +4T3 +4T4 +4T3 +4T4 +4T4";

const COLUMNS: [&str; 14] = [
    "01", "02", "03", "04", "11", "12", "13", "14", "22", "23", "24", "33", "34", "44",
];

fn hands(s: &str) -> [u8; 2] {
    let b = s.as_bytes();
    [b[0] - b'0', b[1] - b'0']
}

#[test]
fn every_cell_of_the_threads_final_table() {
    let g = Fingers::new(FingersRules::default()).unwrap();
    let sol = solver_retro::solve_unmoves(&g).unwrap();
    let mut disagree = Vec::new();
    let mut cells = 0;
    for line in TABLE.trim().lines() {
        let (row, rest) = line.split_once(": ").unwrap();
        let entries: Vec<&str> = rest.split_whitespace().collect();
        assert_eq!(entries.len(), 14, "{line}");
        for (col, cell) in COLUMNS.iter().zip(entries) {
            let pos = g.position_from(hands(row), hands(col)).unwrap();
            let want = match cell.as_bytes()[0] {
                b'+' => Outcome::Win,
                b'-' => Outcome::Lose,
                _ => Outcome::Draw,
            };
            let got = sol.value(&pos).unwrap().outcome();
            cells += 1;
            if got != want {
                disagree.push(format!("{row} vs {col}: thread {cell}, solver {got}"));
            }
        }
    }
    assert_eq!(cells, 196);
    assert!(disagree.is_empty(), "{disagree:#?}");
}

/// For every rule combination and F = 2..=6: `unmoves` and
/// `unmove_indices` list exactly the positions, not over, with a move to
/// the child; `child_count` is the number of distinct children; and the
/// listed terminal indices are exactly the positions that are over.
#[test]
fn unmoves_and_child_counts_match_forward_moves() {
    for f in 2..=6u8 {
        for r in all_rules(f) {
            let g = Fingers::new(r).unwrap();
            let n = g.size();
            let mut parents: Vec<Vec<u64>> = vec![Vec::new(); n as usize];
            let mut ends = Vec::new();
            assert!(g.terminal_indices(&mut ends));
            ends.sort_unstable();
            let over: Vec<u64> = (0..n)
                .filter(|&i| g.position(i).is_some_and(|p| g.outcome(&p).is_some()))
                .collect();
            assert_eq!(ends, over, "{r:?}");
            let mut moves = Vec::new();
            let (mut m2, mut c2) = (Vec::new(), Vec::new());
            for i in 0..n {
                let Some(p) = g.position(i) else { continue };
                if g.outcome(&p).is_some() {
                    continue;
                }
                moves.clear();
                g.moves(&p, &mut moves);
                let mut kids: Vec<u64> = moves.iter().map(|m| g.index(&g.play(&p, m))).collect();
                kids.sort_unstable();
                kids.dedup();
                assert_eq!(g.child_count(&p, &mut m2, &mut c2), kids.len(), "{r:?} {p}");
                let mut bulk = [0u32];
                assert!(g.child_counts(i, &mut bulk));
                assert_eq!(bulk[0] as usize, kids.len(), "bulk count, {r:?} {p}");
                let mut narrow = [0u16];
                assert!(g.child_counts(i, &mut narrow));
                assert_eq!(
                    usize::from(narrow[0]),
                    kids.len(),
                    "narrow count, {r:?} {p}"
                );
                for k in kids {
                    parents[k as usize].push(i);
                }
            }
            // Counted in bulk across rows (from an odd start), in both
            // widths: what one index at a time gives.
            let one = |i: u64| {
                let mut k = [0u32];
                assert!(g.child_counts(i, &mut k));
                k[0]
            };
            let mut wide = vec![0u32; n as usize - 1];
            let mut narrow = vec![0u16; n as usize - 1];
            assert!(g.child_counts(1, &mut wide));
            assert!(g.child_counts(1, &mut narrow));
            for (k, (&w, &m)) in wide.iter().zip(&narrow).enumerate() {
                let i = k as u64 + 1;
                assert_eq!(w, one(i), "bulk row count of index {i}, {r:?}");
                assert_eq!(u32::from(m), w, "narrow row count of index {i}, {r:?}");
            }
            let (mut buf, mut by_index, mut scratch) =
                (Vec::new(), game_core::ParentIndices::default(), Vec::new());
            for i in 0..n {
                let Some(c) = g.position(i) else { continue };
                buf.clear();
                g.unmoves(&c, &mut buf);
                let mut got: Vec<u64> = buf.iter().map(|p| g.index(p)).collect();
                by_index.clear();
                g.unmove_indices(i, &mut by_index, &mut scratch);
                let mut by_index: Vec<u64> = by_index.iter().collect();
                by_index.sort_unstable();
                let len = got.len();
                got.sort_unstable();
                got.dedup();
                assert_eq!(got.len(), len, "duplicate parents of {c} under {r:?}");
                assert_eq!(got, parents[i as usize], "parents of {c} under {r:?}");
                assert_eq!(by_index, got, "parents by index of {c} under {r:?}");
            }
        }
    }
}

/// Under the default rules the parents come from the index arithmetic
/// (touches one by one, transfers as runs): for larger hands too, they
/// are exactly the parents `unmoves` builds, each once, however they are
/// asked for (a list, or sent one by one).
#[test]
fn default_rule_parents_by_index_are_the_unmoves() {
    for f in [9u8, 17, 31] {
        let g = Fingers::new(rules(f)).unwrap();
        let (mut buf, mut scratch) = (Vec::new(), Vec::new());
        let (mut listed, mut sent) = (
            game_core::ParentIndices::default(),
            game_core::ParentIndices::default(),
        );
        for i in 0..g.size() {
            let Some(c) = g.position(i) else { continue };
            buf.clear();
            g.unmoves(&c, &mut buf);
            let mut want: Vec<u64> = buf.iter().map(|p| g.index(p)).collect();
            want.sort_unstable();
            listed.clear();
            g.unmove_indices(i, &mut listed, &mut scratch);
            sent.clear();
            g.visit_unmove_indices(i, &mut listed.clone(), &mut scratch, &mut sent);
            for got in [&listed, &sent] {
                let mut got: Vec<u64> = got.iter().collect();
                got.sort_unstable();
                assert_eq!(got, want, "parents of {c}, F = {f}");
            }
        }
    }
}

#[test]
fn impossible_positions_are_errors() {
    let g = Fingers::new(FingersRules::default()).unwrap();
    assert!(g.position_from([5, 1], [1, 1]).is_err());
    assert!(g.position_from([1, 1], [0, 9]).is_err());
    assert!(g.position_from([0, 0], [0, 0]).is_err());
    assert!(Fingers::new(rules(1)).is_err());
    assert!(Fingers::new(rules(0)).is_err());
}

/// Every rule switch for F = 2..=8: the graph-free path, the stored
/// reverse graph and the hash-map path from the start agree position by
/// position, and the checker certifies each.
#[test]
fn all_rule_variants_agree_across_solver_paths() {
    for f in 2..=8u8 {
        for r in all_rules(f) {
            let g = Fingers::new(r).unwrap();
            let fast = solver_retro::solve_unmoves(&g).unwrap();
            let stored = solver_retro::solve_indexed(&g).unwrap();
            let reach = solver_retro::solve(&g, FingersPosition::START).unwrap();
            certify(&fast).unwrap_or_else(|e| panic!("{r:?}: {e}"));
            certify(&reach).unwrap_or_else(|e| panic!("{r:?}: {e}"));
            for i in 0..g.size() {
                assert_eq!(fast.value_at(i), stored.value_at(i), "{r:?} index {i}");
            }
            for p in reach.positions() {
                assert_eq!(reach.value(p), fast.value(p), "{r:?} {p}");
            }
        }
    }
}

/// Every rule switch for F = 2..=8: 1, 2 and 4 threads give the same
/// value, remoteness and best move everywhere; children by index
/// (`certify_indexed`) certify the table; every promise of the game's
/// capabilities holds on every position (`GameCheck`).
#[test]
fn threads_never_change_a_fingers_table() {
    for f in 2..=8u8 {
        for r in all_rules(f) {
            let g = Fingers::new(r).unwrap();
            let one =
                solver_retro::solve_unmoves_with(&g, &solver_retro::Config::default().threads(1))
                    .unwrap();
            for threads in [2, 4] {
                let config = solver_retro::Config::default().threads(threads);
                let many = solver_retro::solve_unmoves_with(&g, &config).unwrap();
                for i in 0..g.size() {
                    assert_eq!(
                        one.value_at(i),
                        many.value_at(i),
                        "{r:?}, {threads} threads, index {i}"
                    );
                    if let Some(p) = g.position(i) {
                        assert_eq!(
                            one.best_move(&p),
                            many.best_move(&p),
                            "{r:?}, {threads} threads, {p}"
                        );
                    }
                }
            }
            solver_retro::certify_indexed(&one).unwrap_or_else(|e| panic!("{r:?}: {e}"));
            let mut check = solver_retro::GameCheck::new(&g, 1 << 20);
            check
                .indexed()
                .and_then(|c| c.indexed_children())
                .and_then(|c| c.unmoves())
                .and_then(|c| c.indexed_unmoves())
                .unwrap_or_else(|e| panic!("{r:?}: {e}"));
        }
    }
}

/// Counts over the whole canonical table agree with the hand-written C++
/// solver in `../shared/baselines/` (`fingers F --sorted` prints W, L, D;
/// it also scores the both-dead state, which no game reaches and which we
/// leave out, as one more loss).
#[test]
fn whole_table_counts_match_the_cpp_baseline() {
    for (f, win, lose, draw) in [
        (32u8, 24_808, 1_193 - 1, 252_783),
        (64, 187_088, 4_441 - 1, 4_134_871),
    ] {
        let g = Fingers::new(rules(f)).unwrap();
        let c = solver_retro::solve_unmoves(&g).unwrap().counts();
        assert_eq!(
            (c.win, c.lose, c.tie, c.draw),
            (win, lose, 0, draw),
            "F = {f}"
        );
    }
}

/// Positions, distinct moves and breadth-first levels reachable from the
/// start by playing every move (positions that are over not continued),
/// and the indices reached in increasing order.
fn forward_search(g: &Fingers) -> ((u64, u64, u64), Vec<u64>) {
    let mut seen = vec![false; g.size() as usize];
    seen[g.index(&FingersPosition::START) as usize] = true;
    let (mut level, mut count, mut moves, mut levels) = (vec![FingersPosition::START], 1, 0, 0);
    let mut ms = Vec::new();
    while !level.is_empty() {
        levels += 1;
        let mut next = Vec::new();
        for pos in &level {
            if g.outcome(pos).is_some() {
                continue;
            }
            ms.clear();
            g.moves(pos, &mut ms);
            let mut kids: Vec<u64> = ms.iter().map(|m| g.index(&g.play(pos, m))).collect();
            kids.sort_unstable();
            kids.dedup();
            moves += kids.len() as u64;
            for k in kids {
                if !std::mem::replace(&mut seen[k as usize], true) {
                    count += 1;
                    next.push(g.position(k).unwrap());
                }
            }
        }
        level = next;
    }
    let reached = (0..g.size()).filter(|&i| seen[i as usize]).collect();
    ((count, moves, levels), reached)
}

/// The reachable walk (children by index: under the default rules the
/// transfers are strided runs less the mover's own hands, which the walk
/// remembers run by run) finds the positions, moves and levels of a
/// forward search that plays every move, under every rule switch, and
/// for the default rules up to F = 40 (many levels, many runs met again).
#[test]
fn the_reachable_walk_equals_the_forward_search() {
    let variants = (2..=6).flat_map(all_rules).chain([20, 40].map(rules));
    for r in variants {
        let g = Fingers::new(r).unwrap();
        let (plain, reached) = forward_search(&g);
        for threads in [1, 3] {
            let config = solver_retro::Config::default().threads(threads);
            let walk = solver_retro::reachable(&g, &FingersPosition::START, &config).unwrap();
            assert_eq!(
                (walk.count(), walk.moves(), walk.levels()),
                plain,
                "{r:?}, {threads} threads"
            );
            assert!(walk.indices().eq(reached.iter().copied()), "{r:?}");
        }
    }
}

/// What the shared commands run (`CliGame`: the tier solver on the
/// canonical game, which plans the dense index's solve and walk for
/// Fingers' one tier, identity symmetry and indexed unmoves) and the tier
/// solver by unmoves with the tier walk, against the indexed engine on
/// the game itself and its walk, under every rule switch for F = 2..=5
/// and the default rules at F = 12: the same value at every index, the
/// same reachable counts, and a certificate for both solves.
#[test]
fn the_shared_commands_tier_solve_agrees_with_the_indexed_engine() {
    use game_core::{Canonical, Tiered};
    use solver_retro::{Parents, TierSolver, TierUnmoves};
    let variants = (2..=5).flat_map(all_rules).chain([rules(12)]);
    for r in variants {
        let Ok(g) = Fingers::new(r) else { continue };
        let fast = solver_retro::solve_unmoves(&g).unwrap();
        let canon = Canonical(g.clone());
        assert_eq!(canon.tiers(), vec![0]);
        let weight = |_: &FingersPosition| 1u64;
        let config = solver_retro::Config::default();
        let walk = solver_retro::reachable(&g, &FingersPosition::START, &config).unwrap();
        let c = walk.counts(&fast);
        let shared = gamesolve::cli::tier_solver(&canon).start(FingersPosition::START, &weight);
        let by_tier = TierSolver::new(&canon)
            .start(FingersPosition::START, &weight)
            .unmoves(Some(TierUnmoves::of()));
        for (solver, parents) in [(shared, Parents::Indexed), (by_tier, Parents::Unmoves)] {
            assert_eq!(solver.plan().parents, parents, "{r:?}");
            let done = solver.solve().unwrap_or_else(|e| panic!("{r:?}: {e}"));
            let sol = &done.solution;
            // Every index that is a position (two dead pairs of hands are not).
            for p in (0..g.size()).filter_map(|i| g.position(i)) {
                assert_eq!(sol.value(&p), fast.value(&p), "{r:?} {p}");
            }
            solver_retro::certify_tiers(sol).unwrap_or_else(|e| panic!("{r:?}: {e}"));
            let tiers = solver_retro::reachable_tiers(
                &canon,
                &FingersPosition::START,
                &mut |t, _| Ok(sol.table(t).map(solver_retro::Held::Borrowed)),
                &weight,
                &config,
            )
            .unwrap();
            let by_index = done.reach_by_index(&FingersPosition::START, &weight, &config);
            assert_eq!(by_index.is_some(), parents == Parents::Indexed, "{r:?}");
            for reach in [Some(tiers), by_index.map(Result::unwrap)]
                .into_iter()
                .flatten()
            {
                assert_eq!((reach.count, reach.canonical), (walk.count(), walk.count()));
                assert_eq!(
                    (
                        reach.counts.win,
                        reach.counts.lose,
                        reach.counts.tie,
                        reach.counts.draw
                    ),
                    (c.win, c.lose, c.tie, c.draw),
                    "{r:?}"
                );
            }
        }
    }
}

/// The one tier and the (trivial) symmetry keep their promises, and the
/// rules key a database records reads back as the same rules and no
/// other (every switch at F = 2..=6; the default rules at 255).
#[test]
fn the_one_tier_and_the_rules_key_keep_their_promises() {
    use gamesolve::cli::CliGame;
    let mut keys = std::collections::HashSet::new();
    for r in (2..=6).flat_map(all_rules).chain([rules(255)]) {
        let Ok(g) = Fingers::new(r) else { continue };
        if r.fingers <= 4 {
            let mut check = solver_retro::GameCheck::new(&g, 1_000);
            check
                .tiered()
                .and_then(|c| c.symmetric_tiers())
                .unwrap_or_else(|e| panic!("{r:?}: {e}"));
        }
        // The rules key (the game's own `rules()` is its switches).
        let key = CliGame::rules(&g);
        let back = Fingers::from_rules_key(&key).unwrap_or_else(|| panic!("{key}"));
        assert_eq!(back.rules(), g.rules(), "{key}");
        assert!(keys.insert(key.clone()), "two rules, one key: {key}");
        assert!(Fingers::from_rules_key(&key.replace("v1", "v2")).is_none());
    }
    for foreign in [
        "",
        "5x4, mirror-canonical, tiers by pieces, v1",
        "FingersRules { fingers: 1, ",
    ] {
        assert!(Fingers::from_rules_key(foreign).is_none(), "{foreign}");
    }
}

/// The shared commands' path (the tier solver on the canonical game,
/// which plans Fingers' dense index, and its walk by the index) against
/// the indexed engine and walk on the game itself, timed on one thread
/// at `FINGERS_TIMED` fingers a hand (128 by default): run in release
/// with `--ignored --nocapture`. It prints the times and checks only that
/// both give the same counts (a time is the machine's, not a fact).
#[test]
#[ignore]
fn timed_shared_path_against_the_indexed_engine() {
    use game_core::Canonical;
    use std::time::Instant;
    let f = std::env::var("FINGERS_TIMED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(128u8);
    let g = Fingers::new(rules(f)).unwrap();
    let config = solver_retro::Config::default().threads(1);
    let canon = Canonical(g.clone());
    let weight = |_: &FingersPosition| 1u64;
    for round in 0..3 {
        let t = Instant::now();
        let fast = solver_retro::solve_unmoves_with(&g, &config).unwrap();
        let solve_dense = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let walk = solver_retro::reachable(&g, &FingersPosition::START, &config).unwrap();
        let c = walk.counts(&fast);
        let walk_dense = t.elapsed().as_secs_f64();
        drop(fast);
        let t = Instant::now();
        let done = gamesolve::cli::tier_solver(&canon)
            .config(&config)
            .start(FingersPosition::START, &weight)
            .solve()
            .unwrap();
        let solve_shared = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let reach = done
            .reach_by_index(&FingersPosition::START, &weight, &config)
            .expect("walked by the index")
            .unwrap();
        let walk_shared = t.elapsed().as_secs_f64();
        assert_eq!(reach.count, walk.count());
        assert_eq!(
            (reach.counts.win, reach.counts.lose, reach.counts.draw),
            (c.win, c.lose, c.draw)
        );
        println!(
            "F = {f}, round {round}: indexed engine solve {solve_dense:.3} s, walk {walk_dense:.3} s; \
             shared path solve {solve_shared:.3} s ({:.3}×), walk {walk_shared:.3} s ({:.3}×)",
            solve_shared / solve_dense,
            walk_shared / walk_dense
        );
    }
}
