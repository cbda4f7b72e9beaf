//! Sprague–Grundy against the seeds, published sequences and periods, and
//! the theorem itself: the XOR of components' values against solver-dp
//! solving the sum directly.

use game_core::{Game, Outcome};
use games::{Knights, Nim, OctalGame, Subtraction};
use proptest::prelude::*;
use sprague_grundy::{winning_move, GrundyTable, OctalCode, SubtractionSet, Sum};

#[test]
fn seed_bounded_nim_3_4_5() {
    // "Grundy(3) = 3, Grundy(4) = 0, Grundy(5) = 1 ... the first player will win."
    let g = SubtractionSet::new([1, 2, 3]).unwrap().values(5).unwrap();
    assert_eq!((g[3], g[4], g[5]), (3, 0, 1));
    let v = Nim::bounded(3).unwrap().analyse(&[3, 4, 5]);
    assert_eq!(v.nim_sum, 2);
    let (i, t) = v.winning_move.unwrap();
    let mut heaps = vec![3, 4, 5];
    heaps[i] -= t;
    assert_eq!(Nim::bounded(3).unwrap().analyse(&heaps).nim_sum, 0);
}

#[test]
fn subtraction_sequences_and_periods() {
    let take3 = SubtractionSet::new([1, 2, 3]).unwrap();
    let g = take3.values(1000).unwrap();
    assert!(g
        .iter()
        .enumerate()
        .all(|(n, &v)| u64::from(v) == n as u64 % 4));
    let p = take3.period().unwrap();
    assert_eq!((p.preperiod, p.period), (0, 4));
    let s134 = SubtractionSet::new([1, 3, 4]).unwrap();
    assert_eq!(&s134.values(13).unwrap()[..7], [0, 1, 0, 1, 2, 3, 2]);
    let p = s134.period().unwrap();
    assert_eq!((p.preperiod, p.period), (0, 7));
    assert_eq!(
        SubtractionSet::new([2, 3, 7])
            .unwrap()
            .period()
            .unwrap()
            .period,
        5
    );
}

#[test]
fn kayles_and_dawsons_kayles() {
    let kayles: OctalCode = "0.77".parse().unwrap();
    assert_eq!(
        kayles.values(11).unwrap(),
        [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
    );
    let p = kayles.period(100_000).unwrap();
    assert_eq!((p.preperiod, p.period), (71, 12));
    assert_eq!(
        "0.07"
            .parse::<OctalCode>()
            .unwrap()
            .period(100_000)
            .unwrap()
            .period,
        34
    );
    // Dawson's chess 0.137 is Dawson's Kayles shifted by one heap.
    let dk = "0.07".parse::<OctalCode>().unwrap().values(300).unwrap();
    let dc = "0.137".parse::<OctalCode>().unwrap().values(299).unwrap();
    assert_eq!(&dk[1..], &dc[..]);
}

/// Periods and last exceptions published in OEIS (A071435, A071434,
/// A071453, A071452, A071464): preperiod = last exception + 1.
#[test]
fn published_octal_periods() {
    let cases = [
        ("0.177", 497, 20),
        ("0.1377", 141, 24),
        ("0.117", 47, 48),
        ("0.11377", 187, 32),
        // Its proof needs about 93,000 heaps.
        ("0.127", 46578, 4),
    ];
    for (code, pre, per) in cases {
        let p = code
            .parse::<OctalCode>()
            .unwrap()
            .period(1_000_000)
            .unwrap();
        assert_eq!((p.preperiod, p.period), (pre, per), "{code}");
    }
}

#[test]
fn nim_examples_from_the_seed() {
    assert_eq!(Nim::new().analyse(&[1, 2, 3]).winning_move, None);
    let v = Nim::new().analyse(&[7, 4, 1]);
    assert_eq!(v.nim_sum, 2);
    let (i, t) = v.winning_move.unwrap();
    let mut heaps = vec![7, 4, 1];
    heaps[i] -= t;
    assert_eq!(Nim::new().analyse(&heaps).nim_sum, 0);
}

#[test]
fn knights_table_matches_the_generic_grundy_table() {
    for n in [1, 2, 8, 15] {
        let k = Knights::new(n).unwrap();
        let table = k.grundy_table().unwrap();
        let mut t = GrundyTable::new(&k);
        for x in 1..=n {
            for y in 1..=n {
                assert_eq!(u64::from(table[x - 1][y - 1]), t.grundy(&(x, y)).unwrap());
            }
        }
    }
}

#[test]
fn knights_verdicts_on_15x15_agree_with_solving_the_sum() {
    let k = Knights::new(15).unwrap();
    let sum = Sum::new(k);
    let mut s = 12345u64;
    for _ in 0..40 {
        let mut square = || {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (1 + (s >> 33) as usize % 15, 1 + (s >> 13) as usize % 15)
        };
        let knights = vec![square(), square()];
        let direct = solver_dp::solve(&sum, knights.clone()).unwrap();
        let wins = direct.value(&knights).unwrap().outcome() == Outcome::Win;
        assert_eq!(k.first_player_wins(&knights).unwrap(), wins, "{knights:?}");
    }
}

fn small_set() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::btree_set(1u64..6, 1..4).prop_map(|s| s.into_iter().collect())
}

proptest! {
    /// The XOR of the components' Grundy values decides the sum exactly as
    /// solver-dp solving the sum as one game; the winning move found with
    /// Grundy values reaches nim-sum 0.
    #[test]
    fn xor_verdict_equals_direct_solve(set in small_set(), heaps in prop::collection::vec(0u64..10, 1..4)) {
        let game = Subtraction::finite(set).unwrap();
        let sum = Sum::new(game.clone());
        let direct = solver_dp::solve(&sum, heaps.clone()).unwrap();
        let mut table = GrundyTable::new(&game);
        let x = sprague_grundy::sum_grundy(&mut table, &heaps).unwrap();
        let outcome = direct.value(&heaps).unwrap().outcome();
        prop_assert_eq!(outcome == Outcome::Win, x != 0);
        match winning_move(&mut table, &heaps).unwrap() {
            None => prop_assert_eq!(x, 0),
            Some(mv) => {
                let after = sum.play(&heaps, &mv);
                prop_assert_eq!(sprague_grundy::sum_grundy(&mut table, &after).unwrap(), 0);
                prop_assert_eq!(direct.value(&after).unwrap().outcome(), Outcome::Lose);
            }
        }
    }

    /// Octal games on several heaps: the generic table on the multi-heap
    /// game equals the XOR of the heap formula's values, and solver-dp
    /// agrees on who wins.
    #[test]
    fn octal_sums(digits in prop::collection::vec(0u8..8, 1..4), split in any::<bool>(), heaps in prop::collection::vec(1u32..9, 1..4)) {
        let code = format!("{}.{}", if split { 4 } else { 0 }, digits.iter().map(|d| d.to_string()).collect::<String>());
        let Ok(code) = code.parse::<OctalCode>() else { return Ok(()) };
        let values = code.values(10).unwrap();
        let game = OctalGame::new(code);
        let mut heaps = heaps;
        heaps.sort_unstable();
        let x = heaps.iter().fold(0, |a, &h| a ^ values[h as usize]);
        let mut table = GrundyTable::new(&game);
        prop_assert_eq!(table.grundy(&heaps).unwrap(), u64::from(x));
        let direct = solver_dp::solve(&game, heaps.clone()).unwrap();
        prop_assert_eq!(direct.value(&heaps).unwrap().outcome() == Outcome::Win, x != 0);
    }
}
