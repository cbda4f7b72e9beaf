//! The knights game of the seed article: the Grundy table of an N × N
//! board, and who wins with several knights (the XOR of their values).
//!
//! Run with `cargo run --example knights -- [N]` (default 8).

use gamesolve::games::Knights;

fn main() -> Result<(), gamesolve::games::Error> {
    let n = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(8);
    let board = Knights::new(n)?;
    let table = board.grundy_table()?;
    println!("Grundy values on a {n} x {n} board (row x, column y, from (1,1)):");
    for row in &table {
        println!(
            "  {}",
            row.iter()
                .map(|g| format!("{g:>2}"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    let knights = [(n, n), (n.div_ceil(2), n), (n, 1)];
    let values: Vec<u8> = knights.iter().map(|&(x, y)| table[x - 1][y - 1]).collect();
    let wins = board.first_player_wins(&knights)?;
    println!(
        "\nKnights on {knights:?} have values {values:?}; XOR {} -> the {} player wins.",
        values.iter().fold(0, |a, b| a ^ b),
        if wins { "first" } else { "second" }
    );
    Ok(())
}
