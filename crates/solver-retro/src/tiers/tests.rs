//! Tests of the tier solver: tiers against the whole graph, stores, the
//! memory limit, and games that break their promises.

use crate::fixtures::testing::{
    reference, tiered_graph, Countdowns, Skip, TieredGraph, TieredPile,
};
use crate::Solved;
use crate::{certify, solve_indexed, Config, Error};
use game_core::fixtures::Graph;
use game_core::{Game, Indexed, Value};
use proptest::prelude::*;

proptest! {
    /// Tier by tier (stored inside graph, or unmoves; 1 or 3 threads)
    /// equals the whole-graph solve position by position.
    #[test]
    fn tiers_equal_the_whole_graph(g in tiered_graph()) {
        let want = reference(&g.graph);
        for threads in [1, 3] {
            let config = Config::default().threads(threads);
            let stored = crate::solve_tiers_with(&g, &config, &mut crate::NoStore).unwrap();
            let unmoves = crate::solve_tiers_unmoves(&g, &config, &mut crate::NoStore).unwrap();
            for (p, &w) in want.iter().enumerate() {
                prop_assert_eq!(stored.value(&p), Some(w), "stored, {} threads, at {}", threads, p);
                prop_assert_eq!(unmoves.value(&p), Some(w), "unmoves, {} threads, at {}", threads, p);
            }
            prop_assert!(certify(&stored).is_ok());
            prop_assert_eq!(
                crate::certify_tiers(&unmoves).map(|c| c.positions).ok(),
                Some(g.graph.edges.len() as u64)
            );
            prop_assert_eq!(stored.len(), g.graph.edges.len() as u64);
        }
    }
}

#[test]
fn a_tier_that_breaks_its_promise_is_an_error() {
    // Node 1 (tier 1) moves to node 0 (tier 0) and to itself, but tier 1
    // is declared to be left by every move.
    let g = TieredGraph {
        graph: Graph {
            edges: vec![vec![], vec![0, 1]],
            ends: vec![None, None],
        },
        tier: vec![0, 1],
        members: vec![vec![0], vec![1]],
        leaves: vec![true, true],
    };
    let err = crate::solve_tiers(&g).unwrap_err();
    assert!(
        matches!(err, Error::Broken(ref m) if m.contains("stays inside tier 1")),
        "{err}"
    );
    // The walk of the reachable positions finds the same broken promise.
    let config = Config::default();
    let err = crate::reachable_tiers(&g, &1, &mut |_, _| Ok(None), &|_| 1, &config).unwrap_err();
    assert!(
        matches!(err, Error::Broken(ref m) if m.contains("stays inside tier 1")),
        "{err}"
    );
    let err = crate::solve_tiers_reachable(&g, &1, &|_| 1, &config, crate::Keep::All).unwrap_err();
    assert!(matches!(err, Error::Broken(_)), "{err}");
}

/// Tiered games that break a promise the tier solve and the tier walk
/// rely on: each is a typed error. Before, the first two panicked (an
/// index out of bounds) and the last two counted 1 and 2 positions of 4
/// with `Ok`.
#[test]
fn a_tiered_game_that_breaks_a_promise_is_an_error() {
    let config = Config::default().threads(1);
    let walk =
        |g: &TieredPile| crate::reachable_tiers(g, &3, &mut |_, _| Ok(None), &|_| 1, &config);
    let honest = TieredPile::honest();
    assert_eq!(walk(&honest).unwrap().count, 4);
    let sol = crate::solve_tiers_with(&honest, &config, &mut crate::NoStore).unwrap();
    assert_eq!(sol.value(&3), Some(Value::win(3)));

    let outside = TieredPile {
        visit_outside: true,
        ..TieredPile::honest()
    };
    let err = crate::solve_tiers_with(&outside, &config, &mut crate::NoStore).unwrap_err();
    assert!(
        matches!(&err, Error::Broken(m) if m.contains("outside the range")),
        "{err}"
    );
    let past = TieredPile {
        start_index: 64,
        ..TieredPile::honest()
    };
    assert!(matches!(
        walk(&past),
        Err(Error::BadIndex { index: 64, size: 1 })
    ));
    for order in [vec![3, 2, 1, 0], vec![0, 2, 3]] {
        let g = TieredPile {
            order,
            ..TieredPile::honest()
        };
        let err = walk(&g).unwrap_err();
        assert!(
            matches!(&err, Error::Broken(m) if m.contains("was reached after it was walked")),
            "{err}"
        );
    }
}

/// Take one from a pile of at most 3, the pile its tier; from a pile of 2
/// a second move leads to index 1 of the same tier, which `tier_position`
/// says is no position (`Some(true)` there, for the test to name it).
struct Phantom;

impl Game for Phantom {
    type Position = (u64, bool);
    type Move = bool;
    fn moves(&self, &(n, ghost): &(u64, bool), out: &mut Vec<bool>) {
        if n > 0 && !ghost {
            out.push(false);
        }
        if n == 2 && !ghost {
            out.push(true);
        }
    }
    fn play(&self, &(n, _): &(u64, bool), &to_ghost: &bool) -> (u64, bool) {
        if to_ghost {
            (n, true)
        } else {
            (n - 1, false)
        }
    }
}

impl game_core::Tiered for Phantom {
    fn tiers(&self) -> Vec<u64> {
        vec![0, 1, 2, 3]
    }
    fn tier(&self, p: &(u64, bool)) -> u64 {
        p.0
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        if t > 0 {
            out.push(t - 1);
        }
    }
    fn tier_size(&self, _: u64) -> u64 {
        2
    }
    fn tier_index(&self, p: &(u64, bool)) -> u64 {
        u64::from(p.1)
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, bool)> {
        (i == 0 && t <= 3).then_some((t, false))
    }
    fn leaves_tier(&self, _: u64) -> bool {
        false
    }
}

/// A move to an index that is no position: its parents would wait for it
/// for ever and come out drawn with `Ok` (pile 3, honestly lost in 3, was
/// a draw). The stored paths see the child's index as they store the
/// edge and stop; the checker names the child.
#[test]
fn a_child_that_is_no_position_is_an_error() {
    let config = Config::default().threads(1);
    let err = crate::solve_tiers_with(&Phantom, &config, &mut crate::NoStore).unwrap_err();
    assert!(
        matches!(&err, Error::Broken(m) if m.contains("which is no position")),
        "{err}"
    );
    let broken = crate::GameCheck::new(&Phantom, 100)
        .tiered()
        .map(|_| ())
        .unwrap_err();
    assert!(broken.detail.contains("decodes to None"), "{broken}");
    // The same through a dense index: pile 0 is no position, piles 1 and
    // 2 move to it.
    let g = Graph {
        edges: vec![vec![], vec![0], vec![0], vec![1, 2]],
        ends: vec![None; 4],
    };
    struct Hole(Graph);
    impl Game for Hole {
        type Position = usize;
        type Move = usize;
        fn moves(&self, p: &usize, out: &mut Vec<usize>) {
            self.0.moves(p, out);
        }
        fn play(&self, p: &usize, m: &usize) -> usize {
            self.0.play(p, m)
        }
    }
    impl Indexed for Hole {
        fn size(&self) -> u64 {
            4
        }
        fn index(&self, p: &usize) -> u64 {
            *p as u64
        }
        fn position(&self, i: u64) -> Option<usize> {
            (1..4).contains(&i).then_some(i as usize)
        }
    }
    assert_eq!(solve_indexed(&g).unwrap().value(&3), Some(Value::lose(2)));
    let err = solve_indexed(&Hole(g)).unwrap_err();
    assert!(
        matches!(&err, Error::Broken(m) if m.contains("leads to index 0, which is no position")),
        "{err}"
    );
}

/// A store holding tiers 0 and 1 of [`TieredPile`] (pile 0 lost at 0,
/// pile 1 won in 1), giving them as tables of `len` cells.
struct Holding {
    len: u64,
}

impl crate::TierStore for Holding {
    fn is_done(&self, tier: u64) -> bool {
        tier <= 1
    }
    fn load(&mut self, tier: u64, _size: u64) -> Result<Option<crate::Table>, Error> {
        let mut table = crate::Table::new(self.len, false)?;
        for i in 0..self.len {
            let v = if tier == 0 {
                Value::lose(0)
            } else {
                Value::win(1)
            };
            table.set(i, Some(v))?;
        }
        Ok(Some(table))
    }
}

/// A table a store gives for a tier must have the tier's length: a longer
/// one was taken as it was (values at indices the tier does not have), a
/// shorter one blamed the game ("a move reaches an index which is no
/// position").
#[test]
fn a_stored_table_of_another_length_is_the_stores_error() {
    let config = Config::default().threads(1);
    let g = TieredPile::honest();
    let sol = crate::solve_tiers_with(&g, &config, &mut Holding { len: 1 }).unwrap();
    assert_eq!(sol.value(&3), Some(Value::win(3)));
    for len in [0, 2, 1000] {
        let err = crate::solve_tiers_with(&g, &config, &mut Holding { len }).unwrap_err();
        assert!(
            matches!(&err, Error::Store(m) if m.contains(&format!("a table of {len} cells"))),
            "{err}"
        );
    }
}

/// Tiers `0..=TOP`: tier 0 holds one position, lost (no move); every
/// other tier `n` holds [`Countdown::WIDTH`] positions, each moving to
/// tier `n - 1` (its position 0 for tier 1). Position `(n, k)` is lost in
/// `n` for even `n` and won in `n` for odd: past 2¹³ - 1 the tiers need
/// 4-byte cells.
struct Countdown;

impl Countdown {
    const TOP: u64 = 8200;
    const WIDTH: u64 = 512;
}

impl Game for Countdown {
    type Position = (u64, u64);
    type Move = ();
    fn moves(&self, &(n, _): &(u64, u64), out: &mut Vec<()>) {
        if n > 0 {
            out.push(());
        }
    }
    fn play(&self, &(n, k): &(u64, u64), (): &()) -> (u64, u64) {
        (n - 1, if n == 1 { 0 } else { k })
    }
}

impl game_core::Tiered for Countdown {
    fn tiers(&self) -> Vec<u64> {
        (0..=Self::TOP).collect()
    }
    fn tier(&self, p: &(u64, u64)) -> u64 {
        p.0
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        if t > 0 {
            out.push(t - 1);
        }
    }
    fn tier_size(&self, t: u64) -> u64 {
        if t == 0 {
            1
        } else {
            Self::WIDTH
        }
    }
    fn tier_index(&self, p: &(u64, u64)) -> u64 {
        p.1
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, u64)> {
        (t <= Self::TOP && i < self.tier_size(t)).then_some((t, i))
    }
    fn leaves_tier(&self, _: u64) -> bool {
        true
    }
}

/// A tier retried in 4-byte cells is checked against the memory limit
/// before they are taken: the check before the solve counts 2-byte
/// cells, and tier 8192 of [`Countdown`] (remoteness 8192) with its
/// child tier took 6 bytes an index under a limit of 4 and a little
/// (solved, silently over the limit). At 8 bytes an index it fits. (A
/// store that keeps the tables, [`Dropped`], lets the solve drop the
/// ones no tier reads.)
#[test]
fn a_tier_widened_past_the_memory_limit_is_refused() {
    let w = Countdown::WIDTH;
    let tight = Config::default().threads(1).memory_limit(4 * w + 64);
    let err = crate::solve_tiers_with(&Countdown, &tight, &mut Dropped).unwrap_err();
    let Error::TooLarge(e) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(
        e.what,
        "tier 8192 with the tables held beside it, in 4-byte cells"
    );
    assert_eq!((e.needed, e.available), (6 * w, 4 * w + 64));
    let room = Config::default().threads(1).memory_limit(8 * w + 64);
    let sol = crate::solve_tiers_with(&Countdown, &room, &mut Dropped).unwrap();
    let top = u32::try_from(Countdown::TOP).unwrap();
    assert_eq!(sol.value(&(Countdown::TOP, 7)), Some(Value::lose(top)));
}

/// A solved tier that a later tier reads stays in memory while the tiers
/// between are solved, and is counted there: tier 2 of [`Skip`] is solved
/// beside tier 1's table (and tier 0's), 4N + 2 bytes, which the check
/// before the solve left out (it counted each tier with its own child
/// tiers only, at most 2N + 2 bytes here), and the tier's own check too:
/// the solve took twice the limit it was given. Under a limit tier 1
/// does not fit either, the refusal still names tier 2, the group that
/// needs the most, so that the figure it gives is enough for every tier
/// (it named the first group over the limit, whose figure was not). In
/// 2-byte cells, as the figures count them.
#[test]
fn a_table_held_for_a_later_tier_is_counted_while_others_are_solved() {
    let n = Skip::N;
    for limit in [n, 2 * n + 2, 4 * n + 1] {
        let tight = Config::default()
            .threads(1)
            .narrowest_cells(2)
            .memory_limit(limit);
        let err = crate::solve_tiers_with(&Skip, &tight, &mut Saved::default()).unwrap_err();
        let Error::TooLarge(e) = &err else {
            panic!("{err:?}")
        };
        assert_eq!(e.what, "tier 2 with its child tiers");
        assert_eq!(e.needed, 4 * n + 2);
    }
    // At the figure it is solved; tables no tier reads any more are
    // dropped to stay under it, so the answers are read from a store.
    let room = Config::default()
        .threads(1)
        .narrowest_cells(2)
        .memory_limit(4 * n + 2);
    let mut saved = Saved::default();
    crate::solve_tiers_with(&Skip, &room, &mut saved).unwrap();
    assert_eq!(saved.0[&0], [Some(Value::lose(0))]);
    for t in [1, 2] {
        assert!(saved.0[&t].iter().all(|&v| v == Some(Value::win(1))));
        assert_eq!(saved.0[&t].len() as u64, n);
    }
    for t in [3, 4] {
        assert_eq!(saved.0[&t], [Some(Value::lose(2))]);
    }
}

/// A store that keeps every tier's values.
#[derive(Default)]
struct Saved(rustc_hash::FxHashMap<u64, Vec<Option<Value>>>);

/// A store that says it keeps the tables (as a database does), so that
/// the solver may drop those no tier reads, and throws them away: for
/// the tests of that dropping, which read no dropped table.
struct Dropped;

impl crate::TierStore for Dropped {
    fn keeps_tables(&self) -> bool {
        true
    }
}

/// [`crate::NoStore`] keeps nothing, so the solver holds every table to
/// the end: every tier of [`Skip`] answers. It dropped tables no tier
/// reads once they passed half the limit (tiers 0 to 2 at 4N + 6 bytes),
/// and those tiers then answered nothing (the command line's whole
/// solve skipped its certificate, saying a database held them). A limit
/// that cannot hold every table beside the last tier is refused before
/// any tier is solved, naming what is held.
#[test]
fn without_a_store_every_table_is_held_or_the_solve_refused() {
    let n = Skip::N;
    let all = 2 * (2 * n + 3);
    let room = Config::default()
        .threads(1)
        .narrowest_cells(2)
        .memory_limit(all);
    let sol = crate::solve_tiers_with(&Skip, &room, &mut crate::NoStore).unwrap();
    assert_eq!(sol.value(&(0, 0)), Some(Value::lose(0)));
    for t in [1, 2] {
        for i in [0, n / 2, n - 1] {
            assert_eq!(sol.value(&(t, i)), Some(Value::win(1)), "tier {t}");
        }
    }
    for t in [3, 4] {
        assert_eq!(sol.value(&(t, 0)), Some(Value::lose(2)));
    }
    assert!(crate::certify_tiers(&sol).is_ok());
    let solved = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let seen = solved.clone();
    let tight = Config::default()
        .threads(1)
        .narrowest_cells(2)
        .memory_limit(all - 1)
        .progress(move |p| {
            if let crate::Progress::Tier { .. } = p {
                seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        });
    let err = crate::solve_tiers_with(&Skip, &tight, &mut crate::NoStore).unwrap_err();
    let Error::TooLarge(e) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(e.what, "tier 4 with every tier solved before it");
    assert_eq!(e.needed, all);
    assert_eq!(solved.load(std::sync::atomic::Ordering::Relaxed), 0);
    // A store that keeps the tables lets the solve drop them instead.
    assert!(crate::solve_tiers_with(&Skip, &tight, &mut Dropped).is_ok());
}

impl crate::TierStore for Saved {
    fn keeps_tables(&self) -> bool {
        true
    }
    fn save(&mut self, tier: u64, table: &crate::Table) -> Result<(), Error> {
        let values = (0..table.len() as u64).map(|i| table.value(i)).collect();
        self.0.insert(tier, values);
        Ok(())
    }
}

/// [`Countdown`] to tier 8192 (the first that needs 4-byte cells), with
/// one more tier, [`Island::ISLAND`] of [`Island::SIZE`] lost positions
/// that no tier reads, solved just before tier 8192.
struct Island;

impl Island {
    const TOP: u64 = 8192;
    const ISLAND: u64 = 1 << 20;
    const SIZE: u64 = Countdown::WIDTH / 2;
}

impl Game for Island {
    type Position = (u64, u64);
    type Move = ();
    fn moves(&self, p: &(u64, u64), out: &mut Vec<()>) {
        if p.0 != Self::ISLAND {
            Countdown.moves(p, out);
        }
    }
    fn play(&self, p: &(u64, u64), m: &()) -> (u64, u64) {
        Countdown.play(p, m)
    }
}

impl game_core::Tiered for Island {
    fn tiers(&self) -> Vec<u64> {
        let mut t: Vec<u64> = (0..Self::TOP).collect();
        t.extend([Self::ISLAND, Self::TOP]);
        t
    }
    fn tier(&self, p: &(u64, u64)) -> u64 {
        p.0
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        if t != Self::ISLAND {
            Countdown.child_tiers(t, out);
        }
    }
    fn tier_size(&self, t: u64) -> u64 {
        if t == Self::ISLAND {
            Self::SIZE
        } else {
            Countdown.tier_size(t)
        }
    }
    fn tier_index(&self, p: &(u64, u64)) -> u64 {
        p.1
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, u64)> {
        (i < self.tier_size(t) && (t <= Self::TOP || t == Self::ISLAND)).then_some((t, i))
    }
    fn leaves_tier(&self, _: u64) -> bool {
        true
    }
}

/// A table no tier still reads, kept because it fitted beside the next
/// tier by the estimate before its solve (2-byte cells, no seeds), is
/// dropped when that tier does not fit beside it after all, and the tier
/// solved again, rather than the solve refused. With W = 512, [`Island`]
/// fits from about 11W bytes once such tables go; before, it was refused
/// at every limit from 11W to 17W but 15W-16W (the island's listed seeds
/// beside tiers 8190 and 8191, or tier 8192 in 4-byte cells beside the
/// island's table).
#[test]
fn a_table_no_tier_reads_gives_way_to_a_tier_that_does_not_fit_beside_it() {
    let w = Countdown::WIDTH;
    let config = Config::default().threads(1).memory_limit(12 * w);
    let sol = crate::solve_tiers_with(&Island, &config, &mut Dropped).unwrap();
    let top = u32::try_from(Island::TOP).unwrap();
    assert_eq!(sol.value(&(Island::TOP, 7)), Some(Value::lose(top)));
}

/// A store (as a database is) that holds tier 0 finished and keeps what
/// it is given.
struct FirstDone(Saved);

impl crate::TierStore for FirstDone {
    fn keeps_tables(&self) -> bool {
        true
    }
    fn is_done(&self, tier: u64) -> bool {
        tier == 0
    }
    fn save(&mut self, tier: u64, table: &crate::Table) -> Result<(), Error> {
        self.0.save(tier, table)
    }
}

/// A resumed solve checks only the groups of the tiers still to solve: a
/// limit that holds tier 1 but not tier 0 solves tier 1 when the store
/// holds tier 0 finished (the check before the solve counted tier 0's
/// group too and refused, naming tier 0, a tier it would never solve).
#[test]
fn a_resumed_solve_checks_only_the_tiers_still_to_solve() {
    let config = Config::default().threads(1).memory_limit(64 << 10);
    let mut saved = Saved(rustc_hash::FxHashMap::default());
    let uneven = Countdowns {
        sizes: vec![100_000, 100],
        chained: false,
    };
    let err = crate::solve_tiers_with(&uneven, &config, &mut saved).unwrap_err();
    let Error::TooLarge(e) = &err else {
        panic!("{err:?}")
    };
    assert_eq!(e.what, "tier 0 with its child tiers");
    assert!(saved.0.is_empty(), "refused before any tier is solved");
    let mut store = FirstDone(Saved(rustc_hash::FxHashMap::default()));
    crate::solve_tiers_with(&uneven, &config, &mut store).unwrap();
    // Tier 1's countdown alone: an odd count wins, an even one loses.
    let tier1 = &store.0 .0[&1];
    assert_eq!(tier1.len(), 100);
    for (n, v) in tier1.iter().enumerate() {
        let n = n as u32;
        let want = if n % 2 == 1 {
            Value::win(n)
        } else {
            Value::lose(n)
        };
        assert_eq!(*v, Some(want), "count {n}");
    }
    assert!(!store.0 .0.contains_key(&0), "tier 0 is not solved again");
}

/// Tiers 0 and 1 of [`Ends::N`] lost positions each; tier 2's one
/// position moves into tier 0, tier 3's into tier 1: tier 0's table is
/// held while tier 1 is seeded.
struct Ends;

impl Ends {
    const N: u64 = 1000;
}

impl Game for Ends {
    type Position = (u64, u64);
    type Move = ();
    fn moves(&self, &(t, _): &(u64, u64), out: &mut Vec<()>) {
        if t >= 2 {
            out.push(());
        }
    }
    fn play(&self, &(t, _): &(u64, u64), (): &()) -> (u64, u64) {
        (t - 2, 0)
    }
}

impl game_core::Tiered for Ends {
    fn tiers(&self) -> Vec<u64> {
        (0..4).collect()
    }
    fn tier(&self, p: &(u64, u64)) -> u64 {
        p.0
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        if t >= 2 {
            out.push(t - 2);
        }
    }
    fn tier_size(&self, t: u64) -> u64 {
        if t < 2 {
            Self::N
        } else {
            1
        }
    }
    fn tier_index(&self, p: &(u64, u64)) -> u64 {
        p.1
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, u64)> {
        (t < 4 && i < self.tier_size(t)).then_some((t, i))
    }
    fn leaves_tier(&self, _: u64) -> bool {
        true
    }
}

/// A tier refused for its seeds names what it needed in all, the tables
/// held beside it included: tier 1 of [`Ends`], seeded beside tier 0's
/// table under a limit of 19N, was said to need 18N or so (its seeds
/// twice and its own table), less than the limit it was refused under.
#[test]
fn a_refusal_for_seeds_counts_the_tables_held() {
    let n = Ends::N;
    // In 2-byte cells, as the figures here count them (1-byte ones
    // leave the seeds more room).
    let config = Config::default()
        .threads(1)
        .narrowest_cells(2)
        .memory_limit(19 * n);
    let err = crate::solve_tiers_with(&Ends, &config, &mut crate::NoStore).unwrap_err();
    let Error::TooLarge(e) = &err else {
        panic!("{err:?}")
    };
    assert!(e.what.starts_with("the seeds and events"), "{err}");
    assert!(e.needed > e.available, "{err}");
}

/// [`Skip`] whose decoding of tier 1 swaps indices 0 and 1 (and, with
/// `tier`, puts index 3 of tier 1 in tier 2): its positions' own
/// `tier_index` and `tier` place them elsewhere.
struct Misdecoded {
    tier: bool,
}

impl Game for Misdecoded {
    type Position = (u64, u64);
    type Move = ();
    fn moves(&self, p: &(u64, u64), out: &mut Vec<()>) {
        Skip.moves(p, out);
    }
    fn play(&self, p: &(u64, u64), m: &()) -> (u64, u64) {
        Skip.play(p, m)
    }
}

impl game_core::Tiered for Misdecoded {
    fn tiers(&self) -> Vec<u64> {
        Skip.tiers()
    }
    fn tier(&self, p: &(u64, u64)) -> u64 {
        Skip.tier(p)
    }
    fn child_tiers(&self, t: u64, out: &mut Vec<u64>) {
        Skip.child_tiers(t, out);
    }
    fn tier_size(&self, t: u64) -> u64 {
        Skip.tier_size(t)
    }
    fn tier_index(&self, p: &(u64, u64)) -> u64 {
        p.1
    }
    fn tier_position(&self, t: u64, i: u64) -> Option<(u64, u64)> {
        match (t, i) {
            (1, 3) if self.tier => Some((2, 3)),
            (1, 0 | 1) if !self.tier => Some((1, i ^ 1)),
            _ => Skip.tier_position(t, i),
        }
    }
    fn leaves_tier(&self, _: u64) -> bool {
        true
    }
}

/// A tier index that decodes to a position the game's own `tier` and
/// `tier_index` put elsewhere is a broken promise, refused when the tier
/// is seeded (on a sample: the first 64 positions of each block, then
/// one in 64): the cell was filled from the position decoded, while its
/// parents read the cell the game places it at — here Skip's values hid
/// it, in general a silently wrong table.
#[test]
fn a_decoding_that_the_index_does_not_give_back_is_refused() {
    for (tier, says) in [
        (false, "index 0 of tier 1 decodes to a position that tier() and tier_index() put at index 1 of tier 1"),
        (true, "index 3 of tier 1 decodes to a position that tier() and tier_index() put at index 3 of tier 2"),
    ] {
        let game = Misdecoded { tier };
        for threads in [1, 2] {
            let config = Config::default().threads(threads);
            let err = crate::solve_tiers_with(&game, &config, &mut crate::NoStore).unwrap_err();
            assert!(matches!(&err, Error::Broken(m) if m.contains(says)), "{err:?}");
        }
    }
}

/// A tier reports its seeding a block at a time, between the tier
/// reports: a loopy tier of 40,000 counts (three blocks of 2¹⁴) says so
/// three times, the last with every index seeded, then its levels count
/// its positions resolved up to all of them (a countdown has no draw);
/// a tier of 100 says it once. The reports are in the order the work is
/// done: each tier's seeding before its levels, both before its `Tier`.
/// The long countdown is too deep for 2-byte cells: its seeding starts
/// again for 4-byte ones (the count starts from nothing) after levels up
/// to remoteness 2¹³. Between the seeding and the tier's end its levels
/// report the positions they expand, of at most the tier's (every index
/// is a position, seeded or left open), up to every one by the tier's
/// end (a countdown has no draw); a try in narrow cells that fails at
/// remoteness 2¹³ has expanded the positions of every level but that
/// last one (levels 0 to 2¹³ − 2, a position each).
#[test]
fn a_tier_reports_its_seeding_a_block_at_a_time() {
    let game = Countdowns {
        sizes: vec![100, 40_000],
        chained: true,
    };
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    let config = Config::default().threads(1).progress(move |p| {
        if let Ok(mut l) = log.lock() {
            l.push(p);
        }
    });
    let sol = crate::solve_tiers_with(&game, &config, &mut crate::NoStore).unwrap();
    assert_eq!(sol.value(&(1, 39_999)), Some(Value::win(39_999)));
    let seen = seen.lock().unwrap().clone();
    use crate::Progress::{Expanded, Level, Seeded, Tier};
    let mut tier = 0usize;
    let (mut seeds, mut seeded, mut resolved, mut tries) = (0, 0, 0, 1);
    let mut expanded = None;
    for p in seen {
        match p {
            Seeded {
                seeded: s,
                positions,
                levels,
            } => {
                assert_eq!(positions, game.sizes[tier]);
                assert!(levels);
                if resolved > 0 {
                    // The tier again, in wider cells.
                    assert_eq!(resolved, 1 << 13);
                    assert_eq!(expanded, Some((1 << 13) - 1));
                    (seeds, seeded, resolved, expanded) = (0, 0, 0, None);
                    tries += 1;
                }
                assert!(s > seeded);
                seeded = s;
                seeds += 1;
            }
            Level { positions, .. } => {
                assert_eq!(seeded, game.sizes[tier], "a level before the seeding ended");
                resolved = positions;
            }
            Expanded {
                expanded: e,
                positions,
            } => {
                assert_eq!(seeded, game.sizes[tier], "levels before the seeding ended");
                assert_eq!(positions, game.sizes[tier]);
                assert!(e >= expanded.unwrap_or(0) && e <= positions);
                assert!(expanded.is_some() || e == 0, "the first report is of none");
                expanded = Some(e);
            }
            Tier {
                done, positions, ..
            } => {
                assert_eq!(positions, game.sizes[tier]);
                assert_eq!(done, tier as u64 + 1);
                assert_eq!(resolved, positions);
                assert_eq!(expanded, Some(positions));
                assert_eq!((seeds, tries), [(1, 1), (3, 2)][tier]);
                tier += 1;
                (seeds, seeded, resolved, tries, expanded) = (0, 0, 0, 1, None);
            }
            _ => {}
        }
    }
    assert_eq!(tier, 2);
}
