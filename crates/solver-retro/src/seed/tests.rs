//! Tests of the seeding rules.

use game_core::{Game, Indexed, IndexedUnmoves, Unmoves};

use crate::Error;

/// Counts in bulk (one child each) for the first block only.
struct Fickle;

impl Game for Fickle {
    type Position = u64;
    type Move = ();
    fn moves(&self, _: &u64, _: &mut Vec<()>) {}
    fn play(&self, p: &u64, _: &()) -> u64 {
        *p
    }
}

impl Indexed for Fickle {
    fn size(&self) -> u64 {
        1 << 16
    }
    fn index(&self, p: &u64) -> u64 {
        *p
    }
    fn position(&self, i: u64) -> Option<u64> {
        Some(i)
    }
}

impl Unmoves for Fickle {
    fn unmoves(&self, _: &u64, _: &mut Vec<u64>) {}
}

impl IndexedUnmoves for Fickle {
    fn child_counts<T: game_core::ChildCount>(&self, first: u64, out: &mut [T]) -> bool {
        out.fill(T::from(1));
        first < super::BULK as u64
    }
}

#[test]
fn a_game_that_stops_counting_in_bulk_is_an_error() {
    let mut narrow = vec![0u16; 1 << 13];
    let mut wide = vec![0u32; 1 << 13];
    for err in [
        super::count_children(&Fickle, 0, &mut narrow),
        super::count_children(&Fickle, 0, &mut wide),
    ] {
        assert!(matches!(err, Err(Error::Broken(_))), "{err:?}");
    }
    // One block is fine.
    super::count_children(&Fickle, 0, &mut wide[..super::BULK]).unwrap();
    assert!(wide[..super::BULK].iter().all(|&c| c == 1));
}

use game_core::Outcome;

#[test]
fn a_scan_finds_every_cell_of_the_level_and_skips_the_rest() {
    use crate::cell::Cell;
    use crate::next_in_level;
    let (lose, win) = (
        u16::resolved(Outcome::Lose, 3),
        u16::resolved(Outcome::Win, 3),
    );
    let mut cells = vec![u16::counter(2); 300];
    // Before a chunk's start, in the middle of one, on a chunk's last
    // cell, two in a row, and in the tail shorter than a chunk.
    let at = [5, 130, 191, 192, 193, 299];
    for (k, &i) in at.iter().enumerate() {
        cells[i] = if k % 2 == 0 { win } else { lose };
    }
    cells[200] = u16::resolved(Outcome::Lose, 4); // another level
    let pair = [lose, win];
    let mut got = Vec::new();
    let mut from = 0;
    while let Some(i) = next_in_level(&cells, from, pair) {
        got.push(i);
        from = i + 1;
    }
    assert_eq!(got, at);
    // From inside a chunk, and past the end.
    assert_eq!(next_in_level(&cells, 6, pair), Some(130));
    assert_eq!(next_in_level(&cells, 194, pair), Some(299));
    assert_eq!(next_in_level(&cells, 300, pair), None);
    assert_eq!(next_in_level(&cells, 301, pair), None);
    let other = [
        u16::resolved(Outcome::Lose, 9),
        u16::resolved(Outcome::Win, 9),
    ];
    assert_eq!(next_in_level(&cells, 0, other), None);
}
