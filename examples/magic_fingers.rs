//! Magic Fingers (Ruby Quiz #120), solved — with output meant to convince a
//! sceptic "beyond the shadow of a doubt".
//!
//! Run with `cargo run --release --example magic_fingers -- [FINGERS]`
//! (default 5, the quiz's rules as the thread settled them).

use gamesolve::core::{principal_variation, Game, Indexed, LineEnd, Outcome, Value};
use gamesolve::games::{Fingers, FingersPosition, FingersRules};
use gamesolve::retro::{certify, Solved};

/// The rules in words, as `gamesolve fingers solve` prints them.
fn describe(r: &FingersRules) -> String {
    let transfers = if r.transfers {
        format!(
            "transfers ({}, {}, {}, {})",
            if r.revive { "revive" } else { "no revive" },
            if r.empty { "empty" } else { "no empty" },
            if r.allow_swap { "swaps" } else { "no swaps" },
            if r.allow_transfer_overflow {
                "overflow"
            } else {
                "no overflow"
            }
        )
    } else {
        "no transfers".into()
    };
    format!(
        "{} fingers a hand, {}, {transfers}",
        r.fingers,
        if r.rollover { "rollover" } else { "cutoff" }
    )
}

/// "the first player loses in 26 plies" and the like.
fn verdict_of(v: Value) -> String {
    match (v.outcome(), v.remoteness()) {
        (Outcome::Win, Some(r)) => format!("the first player wins in {r} plies"),
        (Outcome::Lose, Some(r)) => format!("the first player loses in {r} plies"),
        _ => "a draw: neither player can force a win".into(),
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let fingers = std::env::args().nth(1).map_or(Ok(5), |a| a.parse::<u8>())?;
    let rules = FingersRules {
        fingers,
        ..FingersRules::default()
    };
    let game = Fingers::new(rules)?;
    let start = FingersPosition::START;

    // 1. Solve every position (no search depth, no cut-off: retrograde
    //    analysis from the ends of the game, so cycles are handled exactly).
    let solution = gamesolve::retro::solve_unmoves(&game)?;
    let verdict = solution.value(&start).expect("the start is solved");
    println!("Magic Fingers, {fingers} fingers a hand (a hand reaching {fingers} dies).");
    println!(
        "Rules solved: {} (the rules the quiz thread settled on; `gamesolve fingers solve` \
         prints the same).",
        describe(&rules)
    );
    println!("Both players start with one finger on each hand.\n");
    match verdict.outcome() {
        Outcome::Lose => println!(
            "VERDICT: the FIRST player LOSES. The second player can force a win, and the \
             first can hold out for {} plies at most.",
            verdict.remoteness().unwrap_or(0)
        ),
        Outcome::Win => println!(
            "VERDICT: the FIRST player WINS in {} plies.",
            verdict.remoteness().unwrap_or(0)
        ),
        _ => println!("VERDICT: a DRAW. Neither player can force a win."),
    }

    // 2. Every first move, and what it leads to.
    println!("\nEvery first move, and the value for the opponent who must answer it:");
    let mut moves = Vec::new();
    game.moves(&start, &mut moves);
    for m in &moves {
        let child = game.play(&start, m);
        let v = solution.value(&child).expect("solved");
        println!("  {m:>4}  ({})  ->  opponent {}", m.describe(), v);
    }

    // 3. The line of perfect play, drawn as in the quiz thread.
    println!("\nPerfect play from the start ('*' marks the player to move):\n");
    let gamesolve::core::Line { plies, end } =
        principal_variation(&game, start, |p| solution.value(p), 1000);
    for (i, ply) in plies.iter().enumerate() {
        let (one, two) = if i % 2 == 0 {
            (ply.position.me, ply.position.opp)
        } else {
            (ply.position.opp, ply.position.me)
        };
        let star = |p: usize| if i % 2 + 1 == p { " *" } else { "" };
        println!(
            "1: {}{}\n2: {}{}",
            game.picture(one),
            star(1),
            game.picture(two),
            star(2)
        );
        println!("   player {} plays {} ({})\n", i % 2 + 1, ply.mv, ply.value);
    }
    match end {
        LineEnd::Over(p) => {
            let (one, two) = if plies.len() % 2 == 0 {
                (p.me, p.opp)
            } else {
                (p.opp, p.me)
            };
            println!(
                "1: {}\n2: {}\n   game over after {} plies.",
                game.picture(one),
                game.picture(two),
                plies.len()
            );
        }
        LineEnd::Repeats(_) => {
            println!("   ...and the position repeats: perfect play goes round forever.")
        }
        LineEnd::Cut(_) => println!("   ...(cut)"),
        LineEnd::Unknown(_) => println!("   ...(no value known past here)"),
    }

    // 4. The counts over the positions reachable from the start (those
    //    `gamesolve fingers solve` reports, and here their distinct
    //    children too), and over the whole table.
    let reachable = gamesolve::retro::solve(&game, start)?;
    let counts = reachable.counts();
    println!(
        "\nReachable from the start: {} positions and {} distinct children (mover's hands, \
         opponent's hands, each pair unordered);",
        reachable.len(),
        reachable.moves()
    );
    println!(
        "  {} won, {} lost, {} drawn for the player to move.",
        counts.win,
        counts.lose,
        counts.draw + counts.tie
    );
    for p in reachable.positions() {
        assert_eq!(
            reachable.value(p),
            solution.value(p),
            "the two solves agree"
        );
    }
    let all = solution.counts();
    println!(
        "The whole table holds {} positions ({} won, {} lost, {} drawn): the other {} occur in \
         no game from the start.",
        game.size() - 1,
        all.win,
        all.lose,
        all.draw + all.tie,
        game.size() - 1 - reachable.len()
    );

    // 5. The quiz's own text implies a draw: which rule gives one?
    let no_empty = Fingers::new(FingersRules {
        empty: false,
        ..rules
    })?;
    let v = gamesolve::retro::solve_unmoves(&no_empty)?
        .value(&start)
        .expect("the start is solved");
    println!(
        "\nThe quiz's own text implies a draw. Under the rules above there is none; forbidding a \
         transfer of all the fingers off a hand (`--no-empty`) gives: {}.",
        verdict_of(v)
    );

    let cert = certify(&solution)?;
    println!(
        "\nCERTIFICATE: an independent checker played every move of the table's {1} positions, reaching\n\
         {0} distinct children, and found\n\
         every claimed value locally consistent: each win has a move to a loss exactly one ply shorter\n\
         (and none shorter), each loss has only moves to wins with the slowest exactly one ply shorter,\n\
         each draw has no move to a loss and a move to another draw, and every end of game is scored by\n\
         the rules. Remoteness strictly decreases along the winner's moves, so no claimed win can be\n\
         an endless loop: the values above are the game's solution, not an estimate.",
        cert.children, cert.positions
    );
    Ok(())
}
