//! Positions reachable from the empty board against published counts
//! (John Tromp's table; OEIS A212693 for 7×6 ply by ply). A position with
//! four in a row is counted but not continued; mirror images are counted
//! apart.

use super::{count_reachable, for_each_ply, game};

#[test]
fn reachable_positions_on_4x4_match_tromp() {
    assert_eq!(count_reachable(&game(4, 4)), 161_029);
}

/// About 1 s in the test profile.
#[test]
fn reachable_positions_on_5x4_match_tromp() {
    assert_eq!(count_reachable(&game(5, 4)), 3_945_711);
}

#[test]
fn reachable_positions_on_4x5_match_tromp() {
    assert_eq!(count_reachable(&game(4, 5)), 1_706_255);
}

/// OEIS A212693: legal 7×6 positions after n plies.
const A212693: [u64; 13] = [
    1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275, 558186, 1662623, 4568683, 12236101,
];

fn check_7x6_plies(max_ply: u32) {
    let mut counts = Vec::new();
    for_each_ply(&game(7, 6), max_ply, |_, ply| counts.push(ply.len() as u64));
    assert_eq!(counts, A212693[..=max_ply as usize]);
}

#[test]
fn first_plies_of_7x6_match_oeis() {
    check_7x6_plies(9);
}

#[test]
#[ignore = "20 s and 1.7 GB in the test profile"]
fn more_plies_of_7x6_match_oeis() {
    check_7x6_plies(12);
}
