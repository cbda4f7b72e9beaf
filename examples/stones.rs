//! Stones: the solver plays a game against a naive player, and shows the
//! period of the table of winners.
//!
//! Run with `cargo run --example stones -- [STONES] [MAX_TAKE]`
//! (default: 101 stones, takes of 1..=5).

use gamesolve::games::{Player, StonesTable};

fn main() -> Result<(), gamesolve::games::Error> {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<u64>());
    let total = args.next().transpose().ok().flatten().unwrap_or(101);
    let max_take = args.next().transpose().ok().flatten().unwrap_or(5);
    if total % 2 == 0 {
        eprintln!("stones: the game needs an odd number of stones, not {total}");
        std::process::exit(2);
    }
    let table = StonesTable::new(max_take)?;
    let p = table.period();
    println!(
        "Stones with takes of 1..={max_take}: the table of winners repeats every {} rows from row {}",
        p.period, p.preperiod
    );
    println!("(proven: {max_take} consecutive rows repeat, and each row depends only on the {max_take} below it)\n");

    // The naive player takes as many as it may; the solver moves first.
    let (mut pile, mut mine, mut his) = (total, 0u64, 0u64);
    let mut turn = Player::Me;
    println!("{pile} stones on the table; the solver moves first.");
    while pile > 0 {
        let take = match turn {
            Player::Me => gamesolve::games::stones::take(mine, his, pile, max_take)?,
            Player::Him => max_take.min(pile),
        };
        pile -= take;
        match turn {
            Player::Me => mine += take,
            Player::Him => his += take,
        }
        let who = if turn == Player::Me {
            "solver"
        } else {
            "naive "
        };
        println!("  {who} takes {take:>2}  (pile {pile:>3}, solver {mine:>3}, naive {his:>3})");
        turn = turn.other();
    }
    let winner = if mine % 2 == 1 {
        "the solver"
    } else {
        "the naive player"
    };
    println!("\n{winner} holds an odd number of stones and wins.");
    println!(
        "Before the first move the solver {} a forced win.",
        if table.i_win(total, Player::Me, false) {
            "had"
        } else {
            "did not have"
        }
    );
    Ok(())
}
