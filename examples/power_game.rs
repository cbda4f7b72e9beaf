//! PowerGame (SRM 384): two piles, remove a square from each.
//!
//! Run with `cargo run --example power_game -- [SIZE0 SIZE1]`.

use gamesolve::games::{power_game, PowerGame};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse())
        .collect::<Result<_, _>>()?;
    let pairs: Vec<(u64, u64)> = match args[..] {
        [a, b] => vec![(a, b)],
        _ => vec![(10000, 10000), (4, 9), (4, 3), (2, 3), (7, 13)],
    };
    println!("Per-pile method (the pile that ends first decides):");
    for &(a, b) in &pairs {
        println!("  ({a}, {b}): {}", power_game::winner(a, b)?);
    }
    // The same answers from the generic solver on the two-pile game.
    let n = 40;
    let game = PowerGame::new(n);
    let solution = gamesolve::dp::solve_indexed(&game)?;
    let agree = (0..=n)
        .flat_map(|a| (0..=n).map(move |b| (a, b)))
        .all(|(a, b)| {
            let v = solution.value(&(a, b)).expect("solved");
            power_game::verdict_of(v) == power_game::winner(a, b).expect("small")
        });
    println!("\nsolver-dp on the two-pile game agrees for every pair up to {n} x {n}: {agree}");
    Ok(())
}
