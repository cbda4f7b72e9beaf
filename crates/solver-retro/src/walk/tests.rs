//! Tests of the reachable walks.

use game_core::{Game, Indexed, IndexedChildren, OneTier, Tier, Tiered};

use crate::{Config, Error};

/// A game of 2⁶⁰ indices where nothing moves: its bitmaps (2⁵⁷ bytes
/// each) are more than any system gives.
struct Vast;

impl Game for Vast {
    type Position = u64;
    type Move = u64;
    fn moves(&self, _: &u64, _: &mut Vec<u64>) {}
    fn play(&self, n: &u64, _: &u64) -> u64 {
        *n
    }
}

impl Indexed for Vast {
    fn size(&self) -> u64 {
        1 << 60
    }
    fn index(&self, n: &u64) -> u64 {
        *n
    }
    fn position(&self, i: u64) -> Option<u64> {
        Some(i)
    }
}

impl IndexedChildren for Vast {}

/// A chain `0 → 1 → … → n - 1`, one tier with moves inside it.
struct Chain(u64);

impl Game for Chain {
    type Position = u64;
    type Move = u64;
    fn moves(&self, n: &u64, out: &mut Vec<u64>) {
        if n + 1 < self.0 {
            out.push(1);
        }
    }
    fn play(&self, n: &u64, step: &u64) -> u64 {
        n + step
    }
}

impl Indexed for Chain {
    fn size(&self) -> u64 {
        self.0
    }
    fn index(&self, n: &u64) -> u64 {
        *n
    }
    fn position(&self, i: u64) -> Option<u64> {
        (i < self.0).then_some(i)
    }
}

/// Walking a tier with moves inside holds its bitmap, a copy of it and
/// the blocks' results: at that limit the walk succeeds, a byte under
/// it the walk is refused before it starts (it checked the bitmap
/// alone, and walked with twice as much).
#[test]
fn a_tier_walk_is_checked_for_all_it_holds() {
    let game = OneTier(Chain(100_000));
    let words = 100_000u64.div_ceil(64);
    let needed = super::tier_walk_bytes(words, false);
    assert!(needed > 2 * words * 8, "{needed}");
    let walk = |limit: u64| {
        let config = Config::default().threads(1).memory_limit(limit);
        crate::reachable_tiers(&game, &0, &mut |_, _| Ok(None), &|_| 1, &config)
    };
    assert_eq!(walk(needed).unwrap().count, 100_000);
    let err = walk(needed - 1).unwrap_err();
    assert!(
        matches!(err, Error::TooLarge(ref e) if e.needed == needed),
        "{err}"
    );
}

/// Two fans in one tier of `n` positions (`n` even): 0 moves to each
/// of 1..n/2, and each of those to the one n/2 on: levels of n/2 − 1
/// and n/2 positions inside the tier.
struct Fans(u64);

impl Game for Fans {
    type Position = u64;
    type Move = u64;
    fn moves(&self, n: &u64, out: &mut Vec<u64>) {
        let half = self.0 / 2;
        match *n {
            0 => out.extend(1..half),
            i if i < half => out.push(i + half),
            _ => {}
        }
    }
    fn play(&self, _: &u64, child: &u64) -> u64 {
        *child
    }
}

impl Indexed for Fans {
    fn size(&self) -> u64 {
        self.0
    }
    fn index(&self, n: &u64) -> u64 {
        *n
    }
    fn position(&self, i: u64) -> Option<u64> {
        (i < self.0).then_some(i)
    }
}

impl IndexedChildren for Fans {}

/// The positions a plain breadth-first search reaches from `start`.
fn plain_count<G: Game>(game: &G, start: G::Position) -> u64 {
    let mut seen = std::collections::HashSet::from([start.clone()]);
    let (mut queue, mut moves) = (std::collections::VecDeque::from([start]), Vec::new());
    while let Some(p) = queue.pop_front() {
        moves.clear();
        game.moves(&p, &mut moves);
        for m in &moves {
            let c = game.play(&p, m);
            if seen.insert(c.clone()) {
                queue.push_back(c);
            }
        }
    }
    seen.len() as u64
}

/// The levels inside a tier with moves inside count against the limit
/// and stay within it: at four of the tier's bitmaps the walk reaches
/// what a plain search and the whole-index walk reach (a level's list
/// of 2¹⁶ ids would take 32 bitmaps), on any threads; at two and a
/// half — less than the positions seen, the level being expanded and
/// the next, each as a bitmap — it is refused before it starts (it
/// walked, holding lists of 8 bytes a position it never counted).
#[test]
fn a_loopy_tiers_levels_are_counted_and_bounded() {
    let n = 1u64 << 17;
    let bitmap = n / 8;
    assert!(8 * (n / 2) > 4 * bitmap);
    let game = OneTier(Fans(n));
    let want = plain_count(&Fans(n), 0);
    // All but n/2, which nothing moves to.
    assert_eq!(want, n - 1);
    let whole = crate::reachable(&Fans(n), &0, &Config::default()).unwrap();
    assert_eq!(whole.count(), want);
    for threads in [1, 3] {
        let walk = |limit: u64| {
            let config = Config::default().threads(threads).memory_limit(limit);
            crate::reachable_tiers(&game, &0, &mut |_, _| Ok(None), &|_| 1, &config)
        };
        let reach = walk(4 * bitmap).unwrap();
        assert_eq!((reach.count, reach.canonical), (want, want), "{threads}");
        assert_eq!(reach.tiers, [(0, want, reach.counts)]);
        let err = walk(5 * bitmap / 2).unwrap_err();
        assert!(matches!(err, Error::TooLarge(_)), "{threads}: {err}");
    }
}

/// A declared child tier that no move reaches is not walked: its table
/// is never asked for, and it is not among the tiers reached (the walk
/// loaded tier 1's table, took a bitmap for tier 0 and listed tier 1
/// with no position).
#[test]
fn a_declared_tier_no_move_reaches_is_not_walked() {
    let mut asked = Vec::new();
    // Countdowns in tiers 2, 1 and 0 of ten counts each, each tier
    // declaring the one before as its child tier.
    let declared = crate::fixtures::testing::Countdowns {
        sizes: vec![10; 3],
        chained: true,
    };
    let reach = crate::reachable_tiers(
        &declared,
        &(2, 5),
        &mut |t, _| {
            asked.push(t);
            Ok(None)
        },
        &|_| 1,
        &Config::default().threads(1),
    )
    .unwrap();
    assert_eq!(asked, [2]);
    assert_eq!(reach.count, 6);
    assert_eq!(reach.tiers.len(), 1);
    assert_eq!(reach.tiers[0].0, 2);
    assert_eq!(reach.tiers[0].1, 6);
}

/// A table loaded for a tier (owned) counts beside the bitmaps while
/// the tier is walked: the loader is told the room left, a table
/// within it is walked, and a table past it is refused even from a
/// loader that pays no heed (it was not counted: the walk held the
/// table and its bitmaps over the limit).
#[test]
fn an_owned_table_counts_against_the_limit() {
    let n = 10_000;
    let game = OneTier(Chain(n));
    let walking = super::tier_walk_bytes(n.div_ceil(64), false);
    let table = crate::Table::new(n, false).unwrap().bytes();
    assert!(table >= 2 * n);
    let walk = |limit: u64| {
        let mut rooms = Vec::new();
        let config = Config::default().threads(2).memory_limit(limit);
        let reach = crate::reachable_tiers(
            &game,
            &0,
            &mut |_, room| {
                rooms.push(room);
                // Every position drawn (a table with no value for a
                // position reached is refused).
                let mut t = crate::Table::new(n, false)?;
                for i in 0..n {
                    t.set(i, Some(game_core::Value::DRAW))?;
                }
                Ok(Some(super::Held::Owned(t)))
            },
            &|_| 1,
            &config,
        );
        (reach, rooms)
    };
    let (reach, rooms) = walk(walking + table);
    assert_eq!(reach.unwrap().count, n);
    assert_eq!(rooms, [table]);
    let (reach, rooms) = walk(walking + table - 1);
    assert_eq!(rooms, [table - 1]);
    let err = reach.unwrap_err();
    assert!(
        matches!(err, Error::TooLarge(ref e) if e.needed == walking + table),
        "{err}"
    );
}

/// A table that holds no value for a position the walk reaches (read
/// from a damaged store) is refused naming the position; it was
/// counted as a draw.
#[test]
fn a_position_without_a_value_in_its_table_is_refused() {
    let n = 100;
    let game = OneTier(Chain(n));
    let mut table = crate::Table::new(n, false).unwrap();
    for i in (0..n).filter(|&i| i != 40) {
        table.set(i, Some(game_core::Value::DRAW)).unwrap();
    }
    let err = crate::reachable_tiers(
        &game,
        &0,
        &mut |_, _| Ok(Some(super::Held::Borrowed(&table))),
        &|_| 1,
        &Config::default().threads(2),
    )
    .unwrap_err();
    assert!(matches!(err, Error::Unsolved { index: 40, .. }), "{err}");
}

/// A game of a few positions given by their children.
struct Edges(&'static [&'static [u64]]);

impl Game for Edges {
    type Position = u64;
    type Move = u64;
    fn moves(&self, n: &u64, out: &mut Vec<u64>) {
        out.extend_from_slice(self.0[*n as usize]);
    }
    fn play(&self, _: &u64, child: &u64) -> u64 {
        *child
    }
}

impl Indexed for Edges {
    fn size(&self) -> u64 {
        self.0.len() as u64
    }
    fn index(&self, n: &u64) -> u64 {
        *n
    }
    fn position(&self, i: u64) -> Option<u64> {
        Some(i)
    }
}

/// Two tiers of one position each: tier 1's moves to tier 0's.
struct TwoTiers;

impl Game for TwoTiers {
    type Position = u64;
    type Move = u64;
    fn moves(&self, t: &u64, out: &mut Vec<u64>) {
        if *t == 1 {
            out.push(0);
        }
    }
    fn play(&self, _: &u64, child: &u64) -> u64 {
        *child
    }
}

impl Tiered for TwoTiers {
    fn tiers(&self) -> Vec<Tier> {
        vec![0, 1]
    }
    fn tier(&self, t: &u64) -> Tier {
        *t
    }
    fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>) {
        if t == 1 {
            out.push(0);
        }
    }
    fn tier_size(&self, _: Tier) -> u64 {
        1
    }
    fn tier_index(&self, _: &u64) -> u64 {
        0
    }
    fn tier_position(&self, t: Tier, i: u64) -> Option<u64> {
        (i == 0).then_some(t)
    }
    fn leaves_tier(&self, _: Tier) -> bool {
        true
    }
}

/// Weights that sum past 2⁶⁴ − 1 are [`Error::CountOverflow`] — inside
/// one part of a level, between parts, between tiers — not a panic
/// (debug) or a count wrapped round (release); weights that fit are
/// counted.
#[test]
fn weights_past_u64_are_an_error() {
    let half = &|_: &u64| u64::MAX / 2 + 1;
    let config = Config::default().threads(1);
    let overflows =
        |r: Result<crate::TierReach, Error>| matches!(r, Err(Error::CountOverflow { .. }));
    // Both children of the start in one part of a level.
    let fan = OneTier(Edges(&[&[1, 2], &[], &[]]));
    let r = crate::reachable_tiers(&fan, &0, &mut |_, _| Ok(None), half, &config);
    assert!(overflows(r));
    // One position a level: the parts' sums overflow.
    let chain = OneTier(Edges(&[&[1], &[]]));
    let r = crate::reachable_tiers(&chain, &0, &mut |_, _| Ok(None), half, &config);
    assert!(overflows(r));
    // One position a tier: the tiers' sums overflow.
    let r = crate::reachable_tiers(&TwoTiers, &1, &mut |_, _| Ok(None), half, &config);
    assert!(overflows(r));
    // Up to u64::MAX is counted.
    let fits = &|_: &u64| u64::MAX / 2;
    let r = crate::reachable_tiers(&TwoTiers, &1, &mut |_, _| Ok(None), fits, &config).unwrap();
    assert_eq!(
        (r.count, r.counts.draw, r.canonical),
        (u64::MAX - 1, u64::MAX - 1, 2)
    );
}

/// With no memory limit, a bitmap the system refuses is
/// [`Error::TooLarge`] (it aborted the process: the bitmaps were
/// collected infallibly).
#[test]
fn a_bitmap_the_system_refuses_is_an_error_not_an_abort() {
    let unlimited = Config::default().threads(1).memory_limit(u64::MAX);
    // Said to be the system's refusal, with no advice to raise the
    // limit (it read "needs 128.0 PiB of memory, more than the 16.0
    // EiB available; raise the memory limit").
    let refused = |err: &Error| {
        let text = err.to_string();
        matches!(err, Error::TooLarge(_))
            && text.contains("which the system refused")
            && !text.contains("raise")
    };
    let err = crate::reachable(&Vast, &0, &unlimited).unwrap_err();
    assert!(refused(&err), "{err}");
    let err = crate::reachable_tiers(&OneTier(Vast), &0, &mut |_, _| Ok(None), &|_| 1, &unlimited)
        .unwrap_err();
    assert!(refused(&err), "{err}");
}

use crate::fixtures::testing::{big_graph, reached_from, Strides, TieredPile};
use game_core::fixtures::Graph;
use proptest::prelude::*;

/// The depth (levels) of a plain breadth-first search from `start` and
/// the number of distinct moves out of the nodes it reaches that are not
/// over.
fn plain_levels_and_moves(g: &Graph, start: usize) -> (u64, u64) {
    let mut seen = vec![false; g.edges.len()];
    seen[start] = true;
    let (mut level, mut levels, mut moves) = (vec![start], 0, 0);
    while !level.is_empty() {
        levels += 1;
        let mut next = Vec::new();
        for p in level {
            if g.ends[p].is_some() {
                continue;
            }
            let mut kids = g.edges[p].clone();
            kids.sort_unstable();
            kids.dedup();
            moves += kids.len() as u64;
            for c in kids {
                if !std::mem::replace(&mut seen[c], true) {
                    next.push(c);
                }
            }
        }
        level = next;
    }
    (levels, moves)
}

proptest! {
    /// The walk of the positions reachable from a start — its levels
    /// listed, or kept as bitmaps past three ids under test — finds the
    /// nodes a plain search finds, their distinct moves and the depth of a
    /// plain breadth-first search, on one thread and on three; with less
    /// memory than it says it needs it is refused.
    #[test]
    fn the_reachable_walk_equals_a_plain_search(g in big_graph(), pick in any::<usize>()) {
        let start = pick % g.edges.len();
        let seen = reached_from(&g, start);
        let (levels, moves) = plain_levels_and_moves(&g, start);
        let needed = crate::reachable_bytes(g.size());
        for threads in [1, 3] {
            let config = Config::default().threads(threads).memory_limit(needed);
            let r = crate::reachable(&g, &start, &config).unwrap();
            let found: Vec<bool> = (0..g.size()).map(|i| r.contains(i)).collect();
            prop_assert_eq!(&found, &seen);
            prop_assert_eq!(r.count(), seen.iter().filter(|&&s| s).count() as u64);
            prop_assert_eq!(r.indices().count() as u64, r.count());
            prop_assert_eq!(r.moves(), moves);
            prop_assert_eq!(r.levels(), levels);
        }
        let tight = Config::default().memory_limit(needed - 1);
        prop_assert!(matches!(crate::reachable(&g, &start, &tight), Err(Error::TooLarge(_))));
    }
}

/// Runs of one index with a step near `u64::MAX` are walked like any
/// (the walk's memory of runs overflowed joining them, a panic in debug
/// builds).
#[test]
fn single_runs_with_a_huge_step_are_walked() {
    // Take 1 or 2: two such runs a position, side by side.
    let huge = Strides {
        step: u64::MAX,
        count: 1,
        takes: 2,
    };
    let r = crate::reachable(&huge, &9, &Config::default().threads(1)).unwrap();
    assert_eq!((r.count(), r.moves()), (10, 17));
}

/// A count from 0 up to 5, where 5 is lost, all in one loopy tier of
/// `size` indices whose `tier_position` decodes any index (as a lazy game
/// may); `twice` makes `visit_tier` give every position twice.
struct Climb {
    size: u64,
    twice: bool,
}

impl Game for Climb {
    type Position = u64;
    type Move = ();
    fn moves(&self, n: &u64, out: &mut Vec<()>) {
        if *n < 5 {
            out.push(());
        }
    }
    fn play(&self, n: &u64, (): &()) -> u64 {
        n + 1
    }
}

impl game_core::Tiered for Climb {
    fn tiers(&self) -> Vec<u64> {
        vec![0]
    }
    fn tier(&self, _: &u64) -> u64 {
        0
    }
    fn child_tiers(&self, _: u64, _: &mut Vec<u64>) {}
    fn tier_size(&self, _: u64) -> u64 {
        self.size
    }
    fn tier_index(&self, n: &u64) -> u64 {
        *n
    }
    fn tier_position(&self, _: u64, i: u64) -> Option<u64> {
        Some(i)
    }
    fn visit_tier(&self, _: u64, range: std::ops::Range<u64>, f: &mut dyn FnMut(u64, u64)) {
        for i in range.start..range.end.min(self.size) {
            f(i, i);
            if self.twice {
                f(i, i);
            }
        }
    }
}

/// The tier walk refuses a move inside a tier to an index past the
/// tier's size: before, an index below the bitmap's last word was marked,
/// decoded and counted (6 positions reached in a tier of 3 indices, `Ok`).
#[test]
fn the_tier_walk_refuses_an_index_past_the_tier() {
    let config = Config::default().threads(1);
    let walk = |g: &Climb| crate::reachable_tiers(g, &0, &mut |_, _| Ok(None), &|_| 1, &config);
    let honest = Climb {
        size: 6,
        twice: false,
    };
    assert_eq!(walk(&honest).unwrap().count, 6);
    let short = Climb {
        size: 3,
        twice: false,
    };
    assert_eq!(
        walk(&short).unwrap_err(),
        Error::BadIndex { index: 3, size: 3 }
    );
}

/// A `visit_tier` that gives a position twice is an error of the tier
/// walk naming it: before, the walk subtracted the positions it was given
/// from those it reached and overflowed (a panic in a debug build; in a
/// release build an error that named some 2⁶⁴ indices, or none when the
/// repeat made up for an index left out, and the position was counted
/// twice).
#[test]
fn a_tier_visited_twice_is_an_error_of_the_walk() {
    let config = Config::default().threads(1);
    let twice = Climb {
        size: 6,
        twice: true,
    };
    let err =
        crate::reachable_tiers(&twice, &0, &mut |_, _| Ok(None), &|_| 1, &config).unwrap_err();
    assert!(
        matches!(&err, Error::Broken(m) if m.contains("visit_tier of tier 0 gave index 0 after index 0")),
        "{err}"
    );
}

/// The tier walk counts a position's weight at once, whatever it is:
/// before, it added the outcome once for each unit of weight, so a class
/// of 2⁶⁰ positions (a weight the caller may give) did not finish.
#[test]
fn the_tier_walk_counts_a_heavy_position_at_once() {
    let config = Config::default().threads(1);
    let heavy = 1u64 << 60;
    let reach = crate::reachable_tiers(
        &TieredPile::honest(),
        &3,
        &mut |_, _| Ok(None),
        &|_| heavy,
        &config,
    )
    .unwrap();
    assert_eq!((reach.count, reach.canonical), (4 * heavy, 4));
    assert_eq!(reach.counts.draw, 4 * heavy);
}

/// A table the tier walk's loader refuses within the room the walk
/// leaves it is refused in the figures the caller gave: what the walk
/// needs in all (its bitmaps and the table) against the memory limit,
/// with the loader's advice. Before, it was the loader's refusal against
/// the room, which the caller never gave ("more than the 68639 bytes
/// available" under a limit of 68640).
#[test]
fn a_table_refused_within_the_walks_room_names_the_memory_limit() {
    let limit = 600;
    let config = Config::default().threads(1).memory_limit(limit);
    let mut rooms = Vec::new();
    let err = crate::reachable_tiers(
        &TieredPile::honest(),
        &3,
        &mut |t, room| {
            rooms.push(room);
            game_core::Budget::unlimited()
                .with_memory(room)
                .with_advice("raise it with --memory", "")
                .check_memory(&format!("tier {t} of the store"), 1000)?;
            Ok(None)
        },
        &|_| 1,
        &config,
    )
    .unwrap_err();
    let Error::TooLarge(e) = &err else {
        panic!("{err:?}")
    };
    let room = rooms[0];
    assert!(room < limit, "{room}");
    assert_eq!(
        (e.needed, e.available),
        (limit - room + 1000, limit),
        "{err}"
    );
    assert_eq!(e.raise, "raise it with --memory", "{err}");
    assert!(e.what.contains("tier 3 of the store"), "{err}");
    let text = err.to_string();
    assert!(text.contains("more than the 600 B available"), "{text}");
}
