//! Magic Fingers (Ruby Quiz #120), solved — with output meant to convince a
//! sceptic "beyond the shadow of a doubt".
//!
//! Run with `cargo run --release --example magic_fingers -- [FINGERS]`
//! (default 5, the quiz's rules as the thread settled them).

use gamesolve::core::{principal_variation, Game, Indexed, LineEnd, Outcome};
use gamesolve::games::{Fingers, FingersPosition, FingersRules};
use gamesolve::retro::{certify, Solved};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let fingers = std::env::args().nth(1).map_or(Ok(5), |a| a.parse::<u8>())?;
    let game = Fingers::new(FingersRules {
        fingers,
        ..FingersRules::default()
    })?;
    let start = FingersPosition::START;

    // 1. Solve every position (no search depth, no cut-off: retrograde
    //    analysis from the ends of the game, so cycles are handled exactly).
    let solution = gamesolve::retro::solve_unmoves(&game)?;
    let verdict = solution.value(&start).expect("the start is solved");
    println!("Magic Fingers, {fingers} fingers a hand (a hand reaching {fingers} dies).");
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
    }

    // 4. The counts, and the certificate.
    let counts = solution.counts();
    println!(
        "\nAll {} positions of the game (mover's hands, opponent's hands, each pair unordered):",
        game.size() - 1
    );
    println!(
        "  {} won, {} lost, {} drawn for the player to move.",
        counts.win, counts.lose, counts.draw
    );
    let cert = certify(&solution)?;
    println!(
        "\nCERTIFICATE: an independent checker re-generated all {} moves of those {} positions and found\n\
         every claimed value locally consistent: each win has a move to a loss exactly one ply shorter\n\
         (and none shorter), each loss has only moves to wins with the slowest exactly one ply shorter,\n\
         each draw has no move to a loss and a move to another draw, and every end of game is scored by\n\
         the rules. Remoteness strictly decreases along the winner's moves, so no claimed win can be\n\
         an endless loop: the table above is the game's solution, not an estimate.",
        cert.moves, cert.positions
    );
    Ok(())
}
