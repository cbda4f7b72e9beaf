//! Stones against the seed: the module's own statements, an independent
//! re-derivation of the table and its period, the generic DP solver, and —
//! where Perl and the seed are at hand — the seed module itself.

use game_core::{Game, Outcome};
use games::{stones, Player, Stones, StonesPosition, StonesTable};
use proptest::prelude::*;

/// The table straight from the seed's definition: O(max_take) a row, four
/// cells a row, cell (turn, mine_odd) = "I win".
fn naive_rows(m: u64, n: usize) -> Vec<[bool; 4]> {
    let mut rows = vec![[false, true, false, true]];
    for p in 1..=n {
        let mut row = [false; 4];
        for pa in 0..2usize {
            let takes = 1..=(m as usize).min(p);
            // Me to move: some take leaves him a position I win.
            row[pa] = takes.clone().any(|t| rows[p - t][2 + (pa ^ (t & 1))]);
            // Him to move: every take leaves me a position I win.
            row[2 + pa] = takes.clone().all(|t| rows[p - t][pa]);
        }
        rows.push(row);
    }
    rows
}

/// Smallest period, then smallest preperiod, read off a long table by the
/// definition (row[n] = row[n + p] for every n >= L that the table holds),
/// demanding that the evidence covers a full window past the preperiod.
fn naive_period(m: u64) -> (u64, u64) {
    let n = 10 * m as usize + 60;
    let rows = naive_rows(m, n);
    for p in 1..n / 2 {
        let mut l = n - p;
        while l > 0 && rows[l - 1] == rows[l - 1 + p] {
            l -= 1;
        }
        if l + p + m as usize <= n - p {
            return (l as u64, p as u64);
        }
    }
    panic!("no period found for m = {m}");
}

#[test]
fn period_is_the_true_minimal_one_for_max_take_1_to_200() {
    for m in 1..=200 {
        let p = StonesTable::new(m).unwrap().period();
        assert_eq!((p.preperiod, p.period), naive_period(m), "max_take {m}");
    }
}

#[test]
fn seed_says_cycles_for_max_take_3_to_9_are_at_most_20() {
    for m in 3..=9 {
        assert!(StonesTable::new(m).unwrap().period().period <= 20);
    }
}

#[test]
fn seed_row_zero_and_accessible_positions() {
    let t = StonesTable::new(3).unwrap();
    // Row 0: A wins iff his pile is odd, whoever's turn.
    for turn in [Player::Me, Player::Him] {
        assert!(t.i_win(0, turn, true));
        assert!(!t.i_win(0, turn, false));
    }
    // The seed's accessible positions from (5, A, 1) with maxTake 3.
    let g = Stones::new(3).unwrap();
    let from = StonesPosition {
        pile: 5,
        turn: Player::Me,
        mine_odd: true,
    };
    let mut moves = Vec::new();
    g.moves(&from, &mut moves);
    let reached: Vec<_> = moves
        .iter()
        .map(|m| {
            let p = g.play(&from, m);
            (p.pile, p.turn, p.mine_odd)
        })
        .collect();
    assert_eq!(
        reached,
        [
            (4, Player::Him, false),
            (3, Player::Him, true),
            (2, Player::Him, false)
        ]
    );
}

#[test]
fn bad_input_is_a_typed_error() {
    assert_eq!(stones::take(0, 0, 7, 0), Err(games::Error::ZeroMaxTake));
    assert_eq!(stones::take(1, 1, 0, 3), Err(games::Error::EmptyPile));
    assert!(matches!(
        stones::take(u64::MAX, u64::MAX, 2, 3),
        Err(games::Error::EvenTotal { .. })
    ));
    assert!(matches!(
        StonesTable::new(u64::MAX),
        Err(games::Error::TooLarge(_))
    ));
}

proptest! {
    /// The table agrees cell by cell with the generic DP solver on the game,
    /// and `take` is the largest winning take by the solver's values.
    #[test]
    fn table_agrees_with_solver_dp(m in 1u64..9, pile in 1u64..60, mine_odd: bool) {
        let g = Stones::new(m).unwrap();
        let t = StonesTable::new(m).unwrap();
        let start = StonesPosition { pile, turn: Player::Me, mine_odd };
        let sol = solver_dp::solve(&g, start).unwrap();
        for (pos, v) in sol.iter() {
            let me_wins = (v.outcome() == Outcome::Win) == (pos.turn == Player::Me);
            prop_assert_eq!(t.i_win(pos.pile, pos.turn, pos.mine_odd), me_wins);
        }
        let winning = (1..=m.min(pile)).rev().find(|&k| {
            let child = g.play(&start, &k);
            sol.value(&child).unwrap().outcome() == Outcome::Lose
        });
        prop_assert_eq!(t.take(mine_odd, pile), winning.unwrap_or(1));
    }

    /// Huge piles are answered through the period: the same as the pile
    /// reduced by a multiple of the period.
    #[test]
    fn huge_piles_go_through_the_period(m in 1u64..50, pile in 1u64..u64::MAX, mine_odd: bool) {
        let t = StonesTable::new(m).unwrap();
        let p = t.period();
        let small = p.reduce(pile);
        prop_assume!(small >= m);
        prop_assert_eq!(t.take(mine_odd, pile), t.take(mine_odd, small));
        prop_assert_eq!(t.i_win(pile, Player::Me, mine_odd), t.i_win(small, Player::Me, mine_odd));
    }
}

/// The seed module itself, run by Perl, on random inputs (max_take 1..50,
/// piles up to 10^15). Skipped, with a note, where Perl or the seeds are
/// missing.
#[test]
fn take_equals_the_seed_module() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let seed = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/seeds/000_194ee9d812374974.txt");
    let Ok(text) = std::fs::read_to_string(&seed) else {
        eprintln!("skipped: {} not found", seed.display());
        return;
    };
    let module: String = text
        .lines()
        .take_while(|l| !l.starts_with("__END__"))
        .map(|l| format!("{l}\n"))
        .collect();
    let dir = std::env::temp_dir().join(format!("gamesolve-stones-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("Stones.pm"), module).unwrap();
    let script = "require './Stones.pm'; while (<STDIN>) { my @a = split; print Game::Stones::Take(@a), \"\\n\"; }";
    let child = Command::new("perl")
        .arg("-e")
        .arg(script)
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("skipped: perl not available");
        return;
    };
    // A small deterministic generator (xorshift) for the inputs.
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let mut cases = Vec::new();
    for i in 0..2000 {
        let m = 1 + next() % 50;
        let pile = 1 + match i % 3 {
            0 => next() % 100,
            1 => next() % 1_000_000,
            _ => next() % 1_000_000_000_000_000,
        };
        let mine = next() % 1000;
        let his = next() % 1000;
        let his = if (mine + his + pile) % 2 == 0 {
            his + 1
        } else {
            his
        };
        cases.push((mine, his, pile, m));
    }
    {
        let mut stdin = child.stdin.take().unwrap();
        for (a, b, c, d) in &cases {
            writeln!(stdin, "{a} {b} {c} {d}").unwrap();
        }
    }
    let out = child.wait_with_output().unwrap();
    let answers: Vec<u64> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect();
    assert_eq!(answers.len(), cases.len(), "perl answered every case");
    for ((mine, his, pile, m), want) in cases.iter().zip(answers) {
        assert_eq!(
            stones::take(*mine, *his, *pile, *m).unwrap(),
            want,
            "Take({mine}, {his}, {pile}, {m})"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
