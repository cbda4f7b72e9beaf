//! A tiered game of your own with every command of `gamesolve`:
//! tic-tac-toe by pieces (a tier = the pieces on the board), normal or
//! misère (`--misere`: whoever completes a line loses), registered once
//! with [`gamesolve::cli::CliGame`]. The registration is the last 74 lines
//! of this file — the options (`Rules`, 7 lines), `impl CliGame` (62) and
//! `main` (3) — beside the game's own 145 (`Game`, `Tiered`, `Symmetric`).
//! Every command then comes from the library, checked against a brute
//! force in `tests/registered_game.rs`.
//!
//! ```text
//! cargo build --example tiered_tic_tac_toe
//! B=target/debug/examples/tiered_tic_tac_toe
//! $B solve                      # a tie; 5,478 positions reachable, 765 up to symmetry
//! $B solve --db ttt             # the same, every tier kept in the database ttt
//! $B value 51 --db ttt          # X in the centre, O in a corner: from the database
//! $B analyze --db ttt           # its statistics (the rules read from it)
//! $B play --db ttt              # against the perfect player
//! $B check                      # every promise of tiers and symmetry
//! $B solve --cluster -w 2       # on two timely workers
//! ```

use std::process::ExitCode;

use gamesolve::cli::{CliGame, Error};
use gamesolve::core::{Game, Outcome, Symmetric, Tier, Tiered, TieredSymmetric};

/// A board: the cells of X and of O as bits 0..9, row by row from the top
/// left. X moves first, so whose turn it is follows from the board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Board {
    x: u16,
    o: u16,
}

/// Tic-tac-toe, normal (a line wins) or misère (a line loses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TicTacToe {
    misere: bool,
}

const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// The square's 8 symmetries, each as the cell every cell goes to.
const SYMMETRIES: [[usize; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [2, 5, 8, 1, 4, 7, 0, 3, 6],
    [8, 7, 6, 5, 4, 3, 2, 1, 0],
    [6, 3, 0, 7, 4, 1, 8, 5, 2],
    [2, 1, 0, 5, 4, 3, 8, 7, 6],
    [6, 7, 8, 3, 4, 5, 0, 1, 2],
    [0, 3, 6, 1, 4, 7, 2, 5, 8],
    [8, 5, 2, 7, 4, 1, 6, 3, 0],
];

impl Board {
    fn pieces(self) -> u32 {
        (self.x | self.o).count_ones()
    }

    fn map(self, to: &[usize; 9]) -> Board {
        let cells = |bits: u16| {
            (0..9)
                .filter(|&c| bits >> c & 1 == 1)
                .fold(0u16, |m, c| m | 1 << to[c])
        };
        Board {
            x: cells(self.x),
            o: cells(self.o),
        }
    }
}

impl Game for TicTacToe {
    type Position = Board;
    type Move = u8; // the cell, 0..9

    fn moves(&self, b: &Board, out: &mut Vec<u8>) {
        out.extend((0..9).filter(|&c| (b.x | b.o) >> c & 1 == 0));
    }

    fn play(&self, b: &Board, &cell: &u8) -> Board {
        match b.pieces() % 2 {
            0 => Board {
                x: b.x | 1 << cell,
                ..*b
            },
            _ => Board {
                o: b.o | 1 << cell,
                ..*b
            },
        }
    }

    fn outcome(&self, b: &Board) -> Option<Outcome> {
        // Only the player who just moved can have completed a line.
        if LINES.iter().any(|&l| b.x & l == l || b.o & l == l) {
            Some(if self.misere {
                Outcome::Win
            } else {
                Outcome::Lose
            })
        } else if b.pieces() == 9 {
            Some(Outcome::Tie)
        } else {
            None
        }
    }
}

impl Tiered for TicTacToe {
    fn tiers(&self) -> Vec<Tier> {
        (0..=9).rev().collect()
    }
    fn tier(&self, b: &Board) -> Tier {
        u64::from(b.pieces())
    }
    fn child_tiers(&self, tier: Tier, out: &mut Vec<Tier>) {
        out.extend((tier < 9).then_some(tier + 1));
    }
    /// A cell a base-3 digit (empty, X, O): 3^9 indices a tier.
    fn tier_size(&self, _tier: Tier) -> u64 {
        19_683
    }
    fn tier_index(&self, b: &Board) -> u64 {
        (0..9).rev().fold(0, |i, c| {
            i * 3 + u64::from(b.x >> c & 1) + 2 * u64::from(b.o >> c & 1)
        })
    }
    fn tier_position(&self, tier: Tier, mut index: u64) -> Option<Board> {
        let mut b = Board::default();
        for c in 0..9 {
            match index % 3 {
                1 => b.x |= 1 << c,
                2 => b.o |= 1 << c,
                _ => {}
            }
            index /= 3;
        }
        let x_ok = u64::from(b.x.count_ones()) == tier.div_ceil(2);
        (index == 0 && x_ok && u64::from(b.pieces()) == tier).then_some(b)
    }
    fn leaves_tier(&self, _tier: Tier) -> bool {
        true
    }
}

impl Symmetric for TicTacToe {
    fn symmetric(&self, b: &Board, out: &mut Vec<Board>) {
        out.extend(SYMMETRIES.iter().map(|s| b.map(s)));
    }
    fn canonical(&self, b: &Board) -> Board {
        let images = SYMMETRIES.iter().map(|s| b.map(s));
        images.min_by_key(|i| self.tier_index(i)).unwrap_or(*b)
    }
}

/// Tiers and symmetry together: the defaults (canonical positions found
/// by [`Symmetric::canonical`]).
impl TieredSymmetric for TicTacToe {}

/// The rules on the command line.
#[derive(Debug, Clone, clap::Args)]
pub struct Rules {
    /// Whoever completes a line loses [default: wins, or the database's].
    #[arg(long)]
    misere: bool,
}

impl CliGame for TicTacToe {
    const NAME: &'static str = "tic-tac-toe";
    const SOLVE_STEPS: u64 = 30;
    type Options = Rules;

    fn from_options(rules: &Rules, base: Option<&Self>) -> Result<Self, Error> {
        let misere = rules.misere || base.is_some_and(|b| b.misere);
        Ok(TicTacToe { misere })
    }
    fn rules(&self) -> String {
        let play = if self.misere { "misere" } else { "normal" };
        format!("3x3, {play}, tiers by pieces, v1")
    }
    fn from_rules_key(key: &str) -> Option<Self> {
        [false, true]
            .map(|misere| TicTacToe { misere })
            .into_iter()
            .find(|g| g.rules() == key)
    }
    fn title(&self) -> String {
        let misere = if self.misere { "Misère t" } else { "T" };
        format!("{misere}ic-tac-toe")
    }
    fn start(&self) -> Board {
        Board::default()
    }
    /// The cells played from the start, 1 to 9 row by row (`51`: X in the
    /// centre, O in the top left corner).
    fn parse(&self, text: &str) -> Result<Board, Error> {
        let mut b = Board::default();
        for ch in text.chars().filter(|c| !c.is_whitespace()) {
            let cell = ch.to_digit(10).filter(|d| (1..=9).contains(d));
            let cell = cell.ok_or_else(|| Error::Usage(format!("{ch:?} is not a cell 1 to 9")))?;
            let (cell, mut moves) = (cell as u8 - 1, Vec::new());
            if self.outcome(&b).is_none() {
                self.moves(&b, &mut moves);
            }
            if !moves.contains(&cell) {
                return Err(Error::Usage(format!(
                    "cell {ch} cannot be played in {text:?}"
                )));
            }
            b = self.play(&b, &cell);
        }
        Ok(b)
    }
    fn show(&self, b: &Board) -> String {
        let cell = |c: usize| match (b.x >> c & 1, b.o >> c & 1) {
            (1, _) => 'X',
            (_, 1) => 'O',
            _ => '.',
        };
        let row = |r: usize| format!("{} {} {}", cell(3 * r), cell(3 * r + 1), cell(3 * r + 2));
        format!("{}\n{}\n{}", row(0), row(1), row(2))
    }
    fn show_move(&self, _b: &Board, &cell: &u8) -> String {
        format!("cell {}", cell + 1)
    }
    fn move_text(&self, _b: &Board, &cell: &u8, _first: bool) -> String {
        (cell + 1).to_string()
    }
}

fn main() -> ExitCode {
    gamesolve::cli::main_for::<TicTacToe>()
}
