//! Nim and bounded Nim: who wins, and the move that wins.
//!
//! Run with `cargo run --example nim -- [HEAPS…]` (default 7 4 1).

use gamesolve::games::Nim;

fn main() {
    let heaps: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let heaps = if heaps.is_empty() {
        vec![7, 4, 1]
    } else {
        heaps
    };
    for (name, game) in [
        ("Nim", Nim::new()),
        ("Nim taking 1..=3", Nim::bounded(3).expect("3 > 0")),
    ] {
        let v = game.analyse(&heaps);
        let values: Vec<u64> = heaps.iter().map(|&h| game.heap_value(h)).collect();
        println!(
            "{name}, heaps {heaps:?}: Grundy values {values:?}, nim-sum {}",
            v.nim_sum
        );
        match v.winning_move {
            Some((i, t)) => {
                let mut after = heaps.clone();
                after[i] -= t;
                println!(
                    "  the first player wins: take {t} from heap {i} to leave {after:?} (nim-sum {})",
                    game.analyse(&after).nim_sum
                );
            }
            None => {
                println!("  the second player wins: every move leaves a nim-sum the reply can undo")
            }
        }
    }
}
