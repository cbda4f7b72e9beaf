//! Unit tests: the rare/common method against the plain one under any
//! mask, and the generic Grundy table against heap formulas.

use game_core::{Game, Impartial};
use proptest::prelude::*;

use crate::{grundy, Computer, GrundyTable, OctalCode, SubtractionSet};

fn code() -> impl Strategy<Value = OctalCode> {
    (
        prop_oneof![Just(0u8), Just(4u8)],
        prop::collection::vec(0u8..8, 1..4),
    )
        .prop_filter_map("some move", |(d0, rest)| {
            let s = format!(
                "{d0}.{}",
                rest.iter().map(|d| d.to_string()).collect::<String>()
            );
            s.parse().ok()
        })
}

proptest! {
    #[test]
    fn sparse_equals_plain_for_any_mask(
        c in code(),
        mask in prop_oneof![1u32..64, Just(0), Just(1 << 20), Just(1 << 31)],
        at in 0usize..300,
    ) {
        let plain = c.values_plain(900).unwrap();
        let mut comp = Computer::new(&c);
        comp.extend_to(at);
        comp.use_mask(mask);
        comp.extend_to(901);
        prop_assert_eq!(comp.values(), &plain[..]);
        prop_assert_eq!(c.values(900).unwrap(), plain);
    }

    #[test]
    fn subtraction_values_match_the_generic_table(set in prop::collection::btree_set(1u64..80, 1..70)) {
        let s = SubtractionSet::new(set.iter().copied()).unwrap();
        let fast = s.values(300).unwrap();
        let game = Heap(set.into_iter().collect());
        let mut t = GrundyTable::new(&game);
        for (n, &v) in fast.iter().enumerate() {
            prop_assert_eq!(t.grundy(&(n as u64)).unwrap(), u64::from(v));
        }
    }

    #[test]
    fn proven_periods_hold_far_beyond_the_proof(c in code()) {
        if let Ok(p) = c.period(3000) {
            let g = c.values_plain((p.heaps as usize + 600).min(4000)).unwrap();
            let (l, per) = (p.preperiod as usize, p.period as usize);
            for n in l..g.len() - per {
                prop_assert_eq!(g[n], g[n + per], "{} at {}", c, n);
            }
            if l > 0 {
                prop_assert_ne!(g[l - 1], g[l - 1 + per]);
            }
        }
    }
}

struct Heap(Vec<u64>);
impl Game for Heap {
    type Position = u64;
    type Move = u64;
    fn moves(&self, n: &u64, out: &mut Vec<u64>) {
        out.extend(self.0.iter().copied().filter(|s| s <= n));
    }
    fn play(&self, n: &u64, s: &u64) -> u64 {
        n - s
    }
}
impl Impartial for Heap {}

#[test]
fn a_cycle_is_an_error() {
    struct Loop;
    impl Game for Loop {
        type Position = u8;
        type Move = u8;
        fn moves(&self, p: &u8, out: &mut Vec<u8>) {
            out.push((p + 1) % 3);
        }
        fn play(&self, _: &u8, to: &u8) -> u8 {
            *to
        }
    }
    impl Impartial for Loop {}
    assert_eq!(grundy(&Loop, &0), Err(crate::Error::Cycle { depth: 3 }));
}

/// After a failed search the table counts only the values it knows: the
/// positions left open are forgotten (it counted their slots too, 4 known
/// where 1 was, and `is_empty` was false with nothing known).
#[test]
fn a_failed_search_leaves_only_known_values_counted() {
    /// 0 -> 3 (no move) and 0 -> 1 -> 2 -> 1.
    struct Lasso;
    impl Game for Lasso {
        type Position = u8;
        type Move = u8;
        fn moves(&self, p: &u8, out: &mut Vec<u8>) {
            match p {
                0 => out.extend([3, 1]),
                1 => out.push(2),
                2 => out.push(1),
                _ => {}
            }
        }
        fn play(&self, _: &u8, to: &u8) -> u8 {
            *to
        }
    }
    impl Impartial for Lasso {}
    let mut table = GrundyTable::new(&Lasso);
    assert_eq!(table.grundy(&0), Err(crate::Error::Cycle { depth: 2 }));
    assert_eq!((table.len(), table.get(&3)), (1, Some(0)));
    let mut table = GrundyTable::new(&Lasso);
    assert!(table.grundy(&1).is_err());
    assert!(table.is_empty());
    assert_eq!(table.len(), 0);
}

#[test]
fn bad_codes_and_sets_are_errors() {
    for bad in ["77", "0.8", "1.7", "0.", "0.000", "x.7"] {
        assert!(bad.parse::<OctalCode>().is_err(), "{bad}");
    }
    assert_eq!("0.770".parse::<OctalCode>().unwrap().to_string(), "0.77");
    assert_eq!(SubtractionSet::new([]), Err(crate::Error::EmptySet));
    assert_eq!(SubtractionSet::new([0, 1]), Err(crate::Error::ZeroInSet));
    assert_eq!(SubtractionSet::new(1..=255).unwrap().max(), 255);
    assert!(matches!(
        SubtractionSet::new(1..=256),
        Err(crate::Error::BadSet { .. })
    ));
    assert_eq!(SubtractionSet::new(0..=300), Err(crate::Error::ZeroInSet));
    // A huge iterator is refused once it passes 255 elements: it was
    // collected whole (1..u64::MAX panicked with a capacity overflow).
    assert!(matches!(
        SubtractionSet::new(1..u64::MAX),
        Err(crate::Error::BadSet { .. })
    ));
    assert_eq!(
        SubtractionSet::new((1..u64::MAX).rev()).unwrap_err(),
        crate::Error::BadSet {
            why: "it has more than 255 elements, the most supported".into()
        }
    );
    assert!(matches!(
        "0.7".parse::<OctalCode>().unwrap().period(10),
        Ok(_) | Err(crate::Error::NotProven { max: 10 })
    ));
}

#[test]
fn unproven_is_reported_not_guessed() {
    // Officers (0.6): no period is known even after 2^47 heaps were
    // computed, so none can be proven within 5000.
    let c: OctalCode = "0.6".parse().unwrap();
    assert_eq!(c.period(5000), Err(crate::Error::NotProven { max: 5000 }));
    // 0.16 has period 149459 (Gangolli–Plambeck): far beyond 20000 heaps.
    let c: OctalCode = "0.16".parse().unwrap();
    assert_eq!(c.period(20000), Err(crate::Error::NotProven { max: 20000 }));
}

/// Values read off a period proven on the way equal the plain method's,
/// which computes every split of every heap.
#[test]
fn values_past_a_proven_period_equal_the_plain_values() {
    for code in ["0.77", "0.07", "0.137", "4.7", "0.51", "0.35"] {
        let c: OctalCode = code.parse().unwrap();
        let fast = c
            .values_with(6000, &game_core::Budget::available())
            .unwrap();
        assert_eq!(fast, c.values_plain(6000).unwrap(), "{code}");
    }
}

/// A work budget stops a search without a wrong answer, and a budget
/// that suffices gives the same answer as no budget.
#[test]
fn work_budgets_stop_searches_and_change_no_answer() {
    let kayles: OctalCode = "0.77".parse().unwrap();
    let tiny = game_core::Budget::available().with_work(1000);
    assert!(matches!(
        kayles.period_with(100_000, &tiny),
        Err(crate::Error::WorkSpent { steps: 1000, .. })
    ));
    let enough = game_core::Budget::available().with_work(100_000_000);
    assert_eq!(kayles.period_with(100_000, &enough), kayles.period(100_000));
    let s = SubtractionSet::new([3, 5, 17]).unwrap();
    assert!(matches!(
        s.period_with(&game_core::Budget::available().with_work(100)),
        Err(crate::Error::WorkSpent { .. })
    ));
    assert_eq!(
        s.period_with(&game_core::Budget::available().with_work(1 << 30)),
        s.period()
    );
    // Refused before any work: the values' table, or the work, is too large.
    assert!(matches!(
        s.values_with(u64::MAX - 1, &game_core::Budget::available()),
        Err(crate::Error::TooLarge(_))
    ));
    assert!(matches!(
        s.values_with(1_000_000, &game_core::Budget::available().with_work(1000)),
        Err(crate::Error::TooLarge(_))
    ));
}

/// 4.0 — a move splits a heap into two non-empty heaps, nothing taken —
/// is a game (it was refused as "no move is allowed"): its values by a
/// direct mex over every split, and its period (1 on even heaps, 0 on
/// odd ones and the empty heap). 0.0 is no game.
#[test]
fn splitting_alone_is_a_game() {
    let c: OctalCode = "4.0".parse().unwrap();
    assert_eq!(c.to_string(), "4.0");
    assert_eq!(c.max_take(), 0);
    let mut direct = vec![0u32];
    for n in 1..200usize {
        let seen: Vec<u32> = (1..n).map(|a| direct[a] ^ direct[n - a]).collect();
        direct.push((0..).find(|m| !seen.contains(m)).unwrap());
    }
    assert_eq!(c.values(199).unwrap(), direct);
    assert!(direct[1..]
        .iter()
        .enumerate()
        .all(|(k, &g)| g == u32::from(k % 2 == 1)));
    let p = c.period(1000).unwrap();
    assert_eq!((p.preperiod, p.period), (1, 2));
    assert!("0.0".parse::<OctalCode>().is_err());
    assert!("4.".parse::<OctalCode>().is_ok());
}

/// A search whose path holds many moves a position: a pile of `n` goes
/// to `n − 1` by 100 moves, 10,000 deep, so the moves listed on the way
/// (800 KB) dwarf the memo. The budget counts the path beside the memo
/// (a pile 2 million deep with 600 moves took 9.6 GB and aborted the
/// process before), and the memo stays usable after the refusal.
#[test]
fn a_search_path_outgrowing_the_budget_is_refused() {
    struct Wide;
    impl Game for Wide {
        type Position = u32;
        type Move = u8;
        fn moves(&self, n: &u32, out: &mut Vec<u8>) {
            if *n > 0 {
                out.extend(0..100);
            }
        }
        fn play(&self, n: &u32, _: &u8) -> u32 {
            n - 1
        }
    }
    impl Impartial for Wide {}
    let budget = game_core::Budget::unlimited().with_memory(512 << 10);
    let mut table = GrundyTable::with_budget(&Wide, budget);
    let Err(crate::Error::TooLarge(t)) = table.grundy(&10_000) else {
        panic!("expected TooLarge");
    };
    assert!(t.what.starts_with("the search path"), "{t}");
    // Shallower piles fit, and their values alternate 0, 1, 0, …
    assert_eq!(table.grundy(&1_000).unwrap(), 0);
    assert_eq!(table.grundy(&1_001).unwrap(), 1);
    let mut roomy = GrundyTable::with_budget(&Wide, game_core::Budget::unlimited());
    assert_eq!(roomy.grundy(&10_000).unwrap(), 0);
}

/// Take 1 or 2 from a pile, marked impartial, but ending otherwise than
/// by normal play: `stalemate` wins (misère), or `outcome` ends it at a
/// pile of 3. Grundy values would answer normal play instead, silently:
/// g(0) was 0 though the player to move at 0 wins.
#[test]
fn an_impartial_game_not_played_to_normal_play_is_refused() {
    struct Ends {
        misere: bool,
    }
    impl Game for Ends {
        type Position = u32;
        type Move = u32;
        fn moves(&self, n: &u32, out: &mut Vec<u32>) {
            out.extend((1..=2).filter(|t| t <= n));
        }
        fn play(&self, n: &u32, t: &u32) -> u32 {
            n - t
        }
        fn outcome(&self, n: &u32) -> Option<game_core::Outcome> {
            (!self.misere && *n == 3).then_some(game_core::Outcome::Win)
        }
        fn stalemate(&self, _: &u32) -> game_core::Outcome {
            if self.misere {
                game_core::Outcome::Win
            } else {
                game_core::Outcome::Lose
            }
        }
    }
    impl Impartial for Ends {}
    let misere = Ends { misere: true };
    let err = GrundyTable::new(&misere).grundy(&0).unwrap_err();
    assert_eq!(
        err,
        crate::Error::NotNormalPlay {
            what: "its stalemate() does not lose"
        }
    );
    let ends = Ends { misere: false };
    let mut table = GrundyTable::new(&ends);
    // Below 3 the game is normal play: g(n) = n mod 3.
    assert_eq!(table.grundy(&2).unwrap(), 2);
    let err = table.grundy(&5).unwrap_err();
    assert!(err.to_string().contains("outcome() ends it"), "{err}");
    assert!(crate::winning_move(&mut GrundyTable::new(&ends), &[1, 5]).is_err());
}

/// A component whose moves change between calls: the winning move its
/// Grundy value promised is not there. A typed error (it was an
/// `unreachable!` panic).
#[test]
fn a_game_whose_moves_change_is_an_error_not_a_panic() {
    use std::cell::Cell;
    /// Take 1 or 2 from a pile; after its first listing a pile lists no
    /// move.
    struct Fickle(
        std::cell::RefCell<std::collections::HashSet<u64>>,
        Cell<u32>,
    );
    impl Game for Fickle {
        type Position = u64;
        type Move = u64;
        fn moves(&self, n: &u64, out: &mut Vec<u64>) {
            self.1.set(self.1.get() + 1);
            if self.0.borrow_mut().insert(*n) {
                out.extend((1..=2).filter(|t| t <= n));
            }
        }
        fn play(&self, n: &u64, t: &u64) -> u64 {
            n - t
        }
    }
    impl Impartial for Fickle {}
    let game = Fickle(Default::default(), Cell::new(0));
    let mut table = GrundyTable::new(&game);
    let err = crate::winning_move(&mut table, &[4, 0]).unwrap_err();
    assert!(matches!(err, crate::Error::Inconsistent { .. }), "{err}");
}

/// A game whose `moves` clears the buffer before listing (it must only
/// append): the table hands it an empty buffer of its own, so the moves
/// of the positions below it on the path are untouched. Given the shared
/// arena, it wiped them: take 1 to 3 from 11 had the value 1, not 3,
/// with nothing reported.
#[test]
fn a_game_that_clears_its_move_buffer_gets_the_right_values() {
    struct Clearing;
    impl Game for Clearing {
        type Position = u64;
        type Move = u64;
        fn moves(&self, n: &u64, out: &mut Vec<u64>) {
            out.clear();
            out.extend((1..=3).filter(|t| t <= n));
        }
        fn play(&self, n: &u64, t: &u64) -> u64 {
            n - t
        }
    }
    impl Impartial for Clearing {}
    let mut table = GrundyTable::new(&Clearing);
    assert_eq!(table.grundy(&11), Ok(3));
    for n in 0..=11 {
        assert_eq!(table.get(&n), Some(n % 4), "pile {n}");
    }
}
