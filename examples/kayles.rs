//! Kayles (octal game 0.77): Grundy values, the period, and its proof.
//!
//! Run with `cargo run --release --example kayles -- [CODE]` (default 0.77;
//! try 0.07 for Dawson's Kayles, or 0.56, whose proof needs 6.5·10^5 heaps).

use gamesolve::grundy::OctalCode;

fn main() -> Result<(), gamesolve::grundy::Error> {
    let code: OctalCode = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "0.77".into())
        .parse()?;
    let t = code.max_take();
    let shown = code.values(35)?;
    println!("Octal game {code}: g(0..=35) = {shown:?}");
    let p = code.period(10_000_000)?;
    let (l, per) = (p.preperiod as usize, p.period as usize);
    println!("\nPeriodic from heap {l} with period {per}.");
    println!("\nThe proof (the periodicity theorem for octal games, t = {t}):");
    println!(
        "  if g(n + {per}) = g(n) for every n with {l} <= n < 2*{l} + 2*{per} + {t} = {},",
        2 * l + 2 * per + t
    );
    println!("  then g(n + {per}) = g(n) for every n >= {l}.");
    let g = code.values(2 * l + 3 * per + t)?;
    let checked = (l..2 * l + 2 * per + t)
        .filter(|&n| g[n] == g[n + per])
        .count();
    println!(
        "  checked here: {checked} of {} values agree.",
        2 * l + per * 2 + t - l
    );
    if l > 0 {
        println!(
            "  and the preperiod is minimal: g({}) = {} but g({}) = {}.",
            l - 1,
            g[l - 1],
            l - 1 + per,
            g[l - 1 + per]
        );
    }
    println!("  ({} values were computed to find the proof.)", p.heaps);
    println!("\nOne period, from heap {l}: {:?}", &g[l..l + per]);
    Ok(())
}
