//! The games' public API on input past what the games hold: each answer
//! is an error, `None` or an index outside the game, never a panic (these
//! run with overflow checks on) or another position's answer.

use game_core::budget::Resource;
use game_core::{Budget, Game, Indexed, IndexedUnmoves, Tiered, Unmoves};
use games::{
    ConnectFour, Error, Fingers, FingersPosition, FingersRules, PowerGame, Subtraction,
    SubtractionSet, Teeko, TeekoMove,
};

/// A square's rank byte far past '5' made `rank * 5` overflow a byte.
#[test]
fn teeko_moves_with_far_off_squares_are_errors() {
    for text in ["a~", "é", "💥", "a\u{7f}", "~~"] {
        assert!(text.parse::<TeekoMove>().is_err(), "{text:?}");
    }
    assert!(Teeko::new().play_line("c3 a~").is_err());
}

/// Hands of F or more are no hands of the game: their index is outside
/// the game (it aliased another position, or read past the pair table),
/// and a picture of them draws every finger.
#[test]
fn fingers_past_the_rules_stay_outside_the_game() {
    let g = Fingers::new(FingersRules::default()).unwrap();
    for bogus in [
        FingersPosition::new([0, 7], [1, 1]),
        FingersPosition::new([1, 1], [255, 255]),
    ] {
        assert!(g.index(&bogus) >= g.size(), "{bogus:?}");
    }
    assert_eq!(g.picture([9, 1]), "||||||||| |----");
    // Counts in bulk past the last index: any number, no panic; the
    // counts inside are those of the one-by-one count.
    let mut out = [u32::MAX; 4];
    assert!(g.child_counts(g.size() - 2, &mut out));
    let (mut moves, mut kids) = (Vec::new(), Vec::new());
    for (k, &n) in out[..2].iter().enumerate() {
        let i = g.size() - 2 + k as u64;
        if let Some(p) = g.position(i) {
            assert_eq!(
                u64::from(n),
                g.child_count(&p, &mut moves, &mut kids) as u64
            );
        }
    }
    let mut narrow = [u16::MAX; 3];
    assert!(g.child_counts(u64::MAX - 1, &mut narrow));
}

/// Past 2³² − 1 stones a pile, a position's index no longer fits 64
/// bits: outside the game, where it overflowed before.
#[test]
fn power_game_positions_past_64_bits_of_index_are_outside() {
    let g = PowerGame::new(1 << 32);
    assert!(g.index(&(1 << 32, 1 << 32)) >= g.size());
    let small = PowerGame::new(10);
    assert_eq!(small.position(small.index(&(7, 3))), Some((7, 3)));
}

/// Every other game's position past the size is `None`.
#[test]
fn subtraction_has_no_position_past_its_size() {
    let s = Subtraction::finite([1, 2]).unwrap().with_limit(10);
    assert_eq!(s.position(s.size() - 1), Some(10));
    assert_eq!(s.position(s.size()), None);
}

/// A finite subtraction set was collected whole before it was looked
/// at: `1..u64::MAX` panicked (capacity overflow). It is read within a
/// memory budget, repeats dropped as they come.
#[test]
fn a_huge_subtraction_set_is_refused_within_the_budget() {
    let budget = Budget::unlimited().with_memory(1 << 20);
    match Subtraction::finite_with(1..u64::MAX, &budget) {
        Err(Error::TooLarge(e)) => {
            assert_eq!(e.resource, Resource::Memory);
            assert!(e.needed > 1 << 20, "{e}");
        }
        other => panic!("{other:?}"),
    }
    // A 0 read before the refusal is named, as for a set read whole.
    assert_eq!(
        Subtraction::finite_with(0..u64::MAX, &budget),
        Err(Error::ZeroInSet)
    );
    // Repeats take no room: 2^20 elements, two distinct, in 1 MiB.
    let g =
        Subtraction::finite_with(std::iter::repeat_n(4, 1 << 20).chain([1, 4]), &budget).unwrap();
    assert_eq!(g.set(), &SubtractionSet::Finite(vec![1, 4]));
    assert_eq!(Subtraction::finite_with([], &budget), Err(Error::EmptySet));
}

/// Positions built past the rules with `FingersPosition::new` (a hand of
/// F or more): unmoves and the closed-form child count underflowed
/// (`F - 6` fingers, `s/2 - lo`), a panic with overflow checks and
/// garbage parents or counts without. Now they have no parent (no move
/// makes such a hand) and count the children their moves give.
#[test]
fn fingers_positions_past_the_rules_have_no_parents_and_true_counts() {
    let (mut moves, mut kids, mut parents) = (Vec::new(), Vec::new(), Vec::new());
    for bits in 0..128u32 {
        let fingers = if bits & (1 << 6) != 0 { 5 } else { 3 };
        let rules = FingersRules::from_switches(fingers, bits);
        let g = Fingers::new(rules).unwrap();
        for (me, opp) in [
            ([0, 1], [0, 6]),
            ([0, 0], [0, 255]),
            ([200, 255], [1, 2]),
            ([1, 7], [9, 2]),
        ] {
            let p = FingersPosition::new(me, opp);
            parents.clear();
            g.unmoves(&p, &mut parents);
            assert!(parents.is_empty(), "{rules:?} {p}: {parents:?}");
            moves.clear();
            g.moves(&p, &mut moves);
            let mut children: Vec<FingersPosition> = moves.iter().map(|m| g.play(&p, m)).collect();
            children.sort_unstable();
            children.dedup();
            assert_eq!(
                g.child_count(&p, &mut moves, &mut kids),
                children.len(),
                "{rules:?} {p}"
            );
        }
    }
}

/// A Connect Four position made on a board of another size: its index
/// read past the tier offsets (20 pieces on a 4×4 board: a panic) or
/// named another position (a 7×6 piece on column 2 sits on the sentinel
/// of column 1 of a 6×7 board). Its index and tier index are now
/// outside the game unless it is a board of this game too, when they
/// are its own.
#[test]
fn connect_four_positions_of_another_board_are_outside() {
    let boards = [(7, 6), (6, 7), (8, 7), (4, 4), (1, 31), (32, 1)];
    let games: Vec<ConnectFour> = boards
        .iter()
        .map(|&(w, h)| ConnectFour::new(w, h).unwrap())
        .collect();
    let mut outside = 0;
    for from in &games {
        for line in [
            "1",
            "12",
            "21",
            "1111",
            "123123",
            "4455667",
            "1212343456565",
            "12345671234567123456",
        ] {
            let Ok(p) = from.position_from_moves(line) else {
                continue;
            };
            for g in &games {
                let i = g.index(&p);
                let t = g.tier(&p);
                let ti = g.tier_index(&p);
                if i >= g.size() {
                    outside += 1;
                    assert!(ti >= g.tier_size(t), "{line}: {ti}");
                } else {
                    assert_eq!(g.position(i), Some(p), "{line} on {g:?}");
                    assert_eq!(g.tier_position(t, ti), Some(p), "{line} on {g:?}");
                }
            }
        }
    }
    assert!(outside > 50, "{outside}");
}

/// Connect Four's column height of a column past the board shifted the
/// bitboard by `c · (H + 1)` bits: 70 for column 10 of a 7×6 board (a
/// panic with overflow checks, another column's bits without), and
/// `u32::MAX · 7` overflowed. A column past the board holds no piece.
#[test]
fn connect_four_columns_past_the_board_hold_nothing() {
    let g = ConnectFour::new(7, 6).unwrap();
    let pos = g.position_from_moves("1234567123").unwrap();
    assert_eq!(g.column_height(&pos, 0), 2);
    assert_eq!(g.column_height(&pos, 6), 1);
    for c in [7, 9, 10, 63, u32::MAX] {
        assert_eq!(g.column_height(&pos, c), 0, "column {c}");
    }
}
