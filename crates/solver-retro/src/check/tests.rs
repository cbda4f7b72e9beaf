//! Tests of the certificate checkers: tampered and broken tables rejected at
//! the first broken position, and one count from every checker.

use crate::fixtures::testing::{
    chain, graph, stops_short_forged, Capable, Countdowns, Strides, TieredPile, SWAPPED,
};
use crate::{certify, solve_indexed, solve_unmoves, Config, Error, Solved};
use game_core::fixtures::Graph;
use game_core::{Game, Indexed, Outcome, Value};
use proptest::prelude::*;

proptest! {
    /// Changing any one value makes the checker reject the table.
    #[test]
    fn tampered_tables_are_rejected(g in graph(false), at in 0usize..12, pick in 0usize..7) {
        let sol = solve_indexed(&g).unwrap();
        let at = at % g.edges.len();
        let truth = sol.value(&at).unwrap();
        let choices = [
            Value::win(1), Value::win(3), Value::lose(0), Value::lose(2),
            Value::tie(1), Value::DRAW, Value::win(0),
        ];
        let fake = choices[pick];
        prop_assume!(fake != truth);
        let tampered = Tampered { inner: &sol, at, fake };
        let rejection = certify(&tampered);
        prop_assert!(rejection.is_err(), "accepted {fake} for {truth} at {at}");
    }
}

struct Tampered<'a, S> {
    inner: &'a S,
    at: usize,
    fake: Value,
}

impl<S: Solved<Game = Graph>> Solved for Tampered<'_, S> {
    type Game = Graph;
    fn game(&self) -> &Graph {
        self.inner.game()
    }
    fn value(&self, p: &usize) -> Option<Value> {
        if *p == self.at {
            Some(self.fake)
        } else {
            self.inner.value(p)
        }
    }
    fn len(&self) -> u64 {
        self.inner.len()
    }
    fn for_each(&self, mut f: impl FnMut(&usize, Value)) {
        self.inner.for_each(|p, _| f(p, self.value(p).unwrap()));
    }
}

#[test]
fn a_corrupted_table_is_rejected_whichever_part_holds_it() {
    // A chain 0 <- 1 <- ... <- 999: i is lost in i plies when even.
    let n = 1000;
    let g = Graph {
        edges: (0..n)
            .map(|i| if i == 0 { vec![] } else { vec![i - 1] })
            .collect(),
        ends: vec![None; n],
    };
    for at in [3usize, 500, 998] {
        let mut sol = solve_unmoves(&g).unwrap();
        assert!(certify(&sol).is_ok());
        let wrong = if at % 2 == 0 {
            Outcome::Win
        } else {
            Outcome::Lose
        };
        match &mut sol.table.0 {
            crate::cell::Inner::Byte(c) => {
                c[at] = <u8 as crate::cell::Cell>::resolved(wrong, at as u64)
            }
            crate::cell::Inner::Narrow(c) => {
                c[at] = <u16 as crate::cell::Cell>::resolved(wrong, at as u64)
            }
            crate::cell::Inner::Wide(c) => {
                c[at] = <u32 as crate::cell::Cell>::resolved(wrong, at as u64)
            }
        }
        let err = certify(&sol).unwrap_err();
        // The corrupted position, or its parent, is the first rejected.
        assert!(err.position == at || err.position == at + 1, "{err:?}");
    }
}

/// A run that repeats one child `u64::MAX` times (step 0) hung the
/// reachable walk and the certificate, and made the checker panic; a step
/// that overflows panicked in the walk. Each is now the broken promise.
#[test]
fn a_run_of_children_that_breaks_its_promise_is_an_error() {
    let honest = Strides {
        step: 1,
        count: 1,
        takes: 1,
    };
    let config = Config::default().threads(1);
    assert_eq!(crate::reachable(&honest, &9, &config).unwrap().count(), 10);
    let solved = solve_indexed(&honest).unwrap();
    assert!(crate::certify_indexed(&solved).is_ok());
    // The last runs past the size from 9 only (8, 9, 10); from 1 it lists
    // two children too many, which the certificate and the checker catch
    // as what they are.
    for (step, count) in [(0, u64::MAX), (0, 2), (u64::MAX, 3), (1, 3)] {
        let liar = Strides {
            step,
            count,
            takes: 1,
        };
        let err = crate::reachable(&liar, &9, &config).unwrap_err();
        assert!(
            matches!(&err, Error::Broken(m) if m.contains("repeats a child or passes")),
            "{err}"
        );
        let mut table = crate::Table::new(10, false).unwrap();
        for i in 0..10 {
            table.set(i, solved.value_at(i)).unwrap();
        }
        let lied = crate::IndexedSolution::from_table(&liar, table).unwrap();
        let rejection = crate::certify_indexed(&lied).unwrap_err();
        let broken = crate::GameCheck::new(&liar, 100)
            .indexed_children()
            .map(|_| ())
            .unwrap_err();
        if step != 1 {
            assert_eq!(rejection.flaw, crate::Flaw::UnknownChild);
            assert!(broken.detail.contains("repeats a child"), "{broken}");
        }
    }
}

/// The certificate by index looks ahead at a batch of positions' children
/// before it judges them, and still rejects the first position in index
/// order that breaks a rule: broken cells in one batch, in two, and a
/// broken cell whose parent comes first.
#[test]
fn the_indexed_certificate_rejects_the_first_broken_position() {
    let chain = chain();
    let solved = solve_indexed(&chain).unwrap();
    assert_eq!(solved.value(&99), Some(Value::win(99)));
    assert!(crate::certify_indexed(&solved).is_ok());
    // Pile n is won in n for odd n, lost in n for even n: a cell set to
    // the other outcome breaks its own rule (and its parent's), first at
    // its own index.
    let broken = |cells: &[u64]| {
        let mut table = crate::Table::new(100, false).unwrap();
        for i in 0..100 {
            let v = solved.value_at(i).unwrap();
            let v = if cells.contains(&i) {
                let flipped = match v.outcome() {
                    Outcome::Win => Outcome::Lose,
                    _ => Outcome::Win,
                };
                Value::new(flipped, i as u32)
            } else {
                v
            };
            table.set(i, Some(v)).unwrap();
        }
        let lied = crate::IndexedSolution::from_table(&chain, table).unwrap();
        crate::certify_indexed(&lied).unwrap_err().position
    };
    // Cells without a value in the middle of a batch are skipped; the
    // first position with such a child is rejected for it, before a
    // broken cell later in the batch.
    let mut table = crate::Table::new(100, false).unwrap();
    for i in (0..100).filter(|i| !(33..=40).contains(i)) {
        let v = solved.value_at(i).unwrap();
        let v = if i == 45 {
            Value::new(Outcome::Lose, 45)
        } else {
            v
        };
        table.set(i, Some(v)).unwrap();
    }
    let sparse = crate::IndexedSolution::from_table(&chain, table).unwrap();
    let rejection = crate::certify_indexed(&sparse).unwrap_err();
    assert_eq!(
        (rejection.position, rejection.flaw),
        (41, crate::Flaw::UnknownChild)
    );
    assert_eq!(broken(&[40, 35]), 35);
    assert_eq!(broken(&[70, 40]), 40);
    assert_eq!(broken(&[63, 64]), 63);
    assert_eq!(broken(&[0]), 0);
    assert_eq!(broken(&[99]), 99);
}

/// [`chain`], counting the positions it decodes.
struct Counted(Graph, std::sync::atomic::AtomicU64);

impl Game for Counted {
    type Position = usize;
    type Move = usize;
    fn moves(&self, n: &usize, out: &mut Vec<usize>) {
        self.0.moves(n, out);
    }
    fn play(&self, n: &usize, m: &usize) -> usize {
        self.0.play(n, m)
    }
}

impl Indexed for Counted {
    fn size(&self) -> u64 {
        self.0.size()
    }
    fn index(&self, n: &usize) -> u64 {
        self.0.index(n)
    }
    fn position(&self, i: u64) -> Option<usize> {
        self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.0.position(i)
    }
}

impl game_core::IndexedChildren for Counted {}

/// The certificate decodes only the indices whose cells hold a value: a
/// table of 100 cells with one known decodes two positions (that one, and
/// once more to list its moves), not all 100.
#[test]
fn the_certificate_decodes_only_known_cells() {
    use std::sync::atomic::Ordering;
    let g = Counted(chain(), std::sync::atomic::AtomicU64::new(0));
    let mut table = crate::Table::new(100, false).unwrap();
    table.set(0, Some(Value::lose(0))).unwrap();
    let sol = crate::IndexedSolution::from_table(&g, table).unwrap();
    g.1.store(0, Ordering::Relaxed);
    assert!(crate::certify_indexed(&sol).is_ok());
    assert_eq!(g.1.load(Ordering::Relaxed), 2);
}

/// The tiered certificate, like the indexed one, finds a batch's
/// children before it judges any and still rejects the first broken
/// position in index order: [`chain`] as one tier, with broken cells in
/// one batch, in two, and cells without a value mid-batch.
#[test]
fn the_tiered_certificate_rejects_the_first_broken_position() {
    let game = game_core::OneTier(chain());
    let solved = solve_indexed(&game.0).unwrap();
    let tiered = |cells: &[u64], none: std::ops::Range<u64>| {
        let mut table = crate::Table::new(100, false).unwrap();
        for i in (0..100).filter(|i| !none.contains(i)) {
            let v = solved.value_at(i).unwrap();
            let v = if cells.contains(&i) {
                let flipped = match v.outcome() {
                    Outcome::Win => Outcome::Lose,
                    _ => Outcome::Win,
                };
                Value::new(flipped, i as u32)
            } else {
                v
            };
            table.set(i, Some(v)).unwrap();
        }
        crate::TieredSolution {
            game: &game,
            tables: crate::TierTables::new(vec![0], [(0, table)]),
        }
    };
    let first = |cells: &[u64], none| {
        let r = crate::certify_tiers(&tiered(cells, none)).unwrap_err();
        (r.position, r.flaw)
    };
    let certificate = crate::certify_tiers(&tiered(&[], 0..0)).unwrap();
    assert_eq!(certificate.positions, 100);
    assert_eq!(first(&[40, 35], 0..0), (35, crate::Flaw::Lose));
    assert_eq!(first(&[70, 40], 0..0), (40, crate::Flaw::Win));
    assert_eq!(first(&[63, 64], 0..0), (63, crate::Flaw::Lose));
    assert_eq!(first(&[0], 0..0).0, 0);
    assert_eq!(first(&[45], 33..41), (41, crate::Flaw::UnknownChild));
}

/// The tiered certificate checks every table a solution holds, each once:
/// a table held for a tier missing from the solution's order answered
/// queries unchecked (pile 1 given as lost, truly won in 1, and both
/// certificates said `Ok`), and a tier listed twice was counted twice.
#[test]
fn the_tiered_certificate_checks_every_held_table_once() {
    let game = TieredPile::honest();
    let one = |v: Value| {
        let mut t = crate::Table::new(1, false).unwrap();
        t.set(0, Some(v)).unwrap();
        t
    };
    let forged = crate::TieredSolution {
        game: &game,
        tables: crate::TierTables::new(
            vec![0],
            [(0, one(Value::lose(0))), (1, one(Value::lose(0)))],
        ),
    };
    assert_eq!(forged.value(&1), Some(Value::lose(0)));
    let r = crate::certify_tiers(&forged).unwrap_err();
    assert_eq!((r.position, r.flaw), (1, crate::Flaw::Lose));
    let r = certify(&forged).unwrap_err();
    assert_eq!((r.position, r.flaw), (1, crate::Flaw::Lose));

    let twice = crate::TieredSolution {
        game: &game,
        tables: crate::TierTables::new(
            vec![0, 1, 0],
            [(0, one(Value::lose(0))), (1, one(Value::win(1)))],
        ),
    };
    assert_eq!(twice.tiers(), &[0, 1]);
    assert_eq!(crate::certify_tiers(&twice).unwrap().positions, 2);
    assert_eq!(certify(&twice).unwrap().positions, 2);
    assert_eq!(twice.len(), 2);
}

/// The certificate of a tiered solution names the first broken position
/// in the solution's order whatever the number of threads: before, each
/// part held a slice of every tier, so with 2 threads (16 parts) it named
/// count 5 of tier 1, with 1 thread (8 parts) count 10 of tier 0.
#[test]
fn a_tiered_rejection_is_the_first_in_order_on_any_threads() {
    let game = Countdowns::two();
    let table = |wrong: u64| {
        let mut t = crate::Table::new(100, false).unwrap();
        for n in 0..100u64 {
            let v = if (n % 2 == 1) != (n == wrong) {
                Value::win(n as u32)
            } else {
                Value::lose(n as u32)
            };
            t.set(n, Some(v)).unwrap();
        }
        t
    };
    let sol = crate::TieredSolution {
        game: &game,
        tables: crate::TierTables::new(vec![0, 1], [(0, table(10)), (1, table(5))]),
    };
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let r = pool.install(|| certify(&sol)).unwrap_err();
        assert_eq!(r.position, (0, 10), "{threads} threads");
        let r = pool.install(|| crate::certify_tiers(&sol)).unwrap_err();
        assert_eq!(r.position, (0, 10), "{threads} threads");
    }
}

/// The tiered certificate checks a position with a value that
/// `visit_tier` left out: before, count 7 given as lost at once (truly
/// won in 7) was never looked at, and the certificate said `Ok` while
/// the solution answered it.
#[test]
fn the_tiered_certificate_checks_what_visit_tier_leaves_out() {
    let sol = stops_short_forged();
    assert_eq!(sol.value(&7), Some(Value::lose(0)));
    let r = crate::certify_tiers(&sol).unwrap_err();
    assert_eq!((r.position, r.flaw), (7, crate::Flaw::Unvisited));
}

/// The plain certificate judges a position with the value the solution
/// answers for it: before, it took the value of the index `for_each` gave
/// the position at, so with [`SWAPPED`] count 63 was judged with index
/// 62's value and count 62 with index 63's, and a table answering a draw
/// for 62 (truly lost in 62) and lost in 62 for 63 (truly won in 63) was
/// certified.
#[test]
fn the_certificate_judges_the_value_the_solution_answers() {
    let mut table = crate::Table::new(64, false).unwrap();
    for n in 0..64u64 {
        let v = match (n, n % 2) {
            (62, _) => Value::DRAW,
            (63, _) => Value::lose(62),
            (_, 1) => Value::win(n as u32),
            _ => Value::lose(n as u32),
        };
        table.set(n, Some(v)).unwrap();
    }
    let sol = crate::TieredSolution {
        game: &SWAPPED,
        tables: crate::TierTables::new(vec![0], [(0, table)]),
    };
    assert_eq!(sol.value(&63), Some(Value::lose(62)));
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let r = pool.install(|| certify(&sol)).unwrap_err();
        assert_eq!((r.position, r.flaw), (63, crate::Flaw::Index));
        let r = pool.install(|| crate::certify_tiers(&sol)).unwrap_err();
        assert_eq!((r.position, r.flaw), (63, crate::Flaw::Index));
    }
}

/// A plain count of a graph's distinct children: each node not over, its
/// different targets (repeated edges once).
fn distinct_children(g: &Graph) -> u64 {
    (0..g.edges.len())
        .filter(|&p| g.ends[p].is_none())
        .map(|p| {
            let targets: std::collections::HashSet<_> = g.edges[p].iter().collect();
            targets.len() as u64
        })
        .sum()
}

proptest! {
    /// One table, one certificate: by moves (any solution), by index and
    /// by tier index, the same positions and distinct children — a node's
    /// repeated edges counted once — as a plain count of the graph.
    #[test]
    fn every_checker_gives_one_certificate(g in graph(false)) {
        let flat = solve_indexed(&g).unwrap();
        let capable = Capable { graph: g.clone(), bulk: true };
        let indexed = solve_unmoves(&capable).unwrap();
        let one_tier = game_core::OneTier(g.clone());
        let tiered = crate::solve_tiers(&one_tier).unwrap();
        let by_moves = certify(&flat).unwrap();
        prop_assert_eq!(crate::certify_indexed(&indexed).unwrap(), by_moves);
        prop_assert_eq!(certify(&indexed).unwrap(), by_moves);
        prop_assert_eq!(crate::certify_tiers(&tiered).unwrap(), by_moves);
        prop_assert_eq!(certify(&tiered).unwrap(), by_moves);
        prop_assert_eq!(by_moves.positions, g.edges.len() as u64);
        prop_assert_eq!(by_moves.children, distinct_children(&g));
        prop_assert_eq!(by_moves.counts, flat.counts());
    }
}

/// A position with more moves than are compared one by one (40, to 5
/// children): each child is counted once, by moves as by tier index.
#[test]
fn many_moves_to_few_children_count_each_child_once() {
    // 0 moves to 1, 2, 3, 4, 5, 1, 2, …; 1 to 5 have no move.
    let mut edges = vec![(0..40).map(|k| 1 + k % 5).collect::<Vec<usize>>()];
    edges.extend(std::iter::repeat_n(Vec::new(), 5));
    let g = Graph {
        edges,
        ends: vec![None; 6],
    };
    let c = certify(&solve_indexed(&g).unwrap()).unwrap();
    assert_eq!((c.positions, c.children), (6, 5));
    let one_tier = game_core::OneTier(g);
    let tiered = crate::solve_tiers(&one_tier).unwrap();
    assert_eq!(crate::certify_tiers(&tiered).unwrap(), c);
}
