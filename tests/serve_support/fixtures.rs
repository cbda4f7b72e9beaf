//! Small games on Teeko's and Dobutsu shogi's boards, solved in well under
//! a second, for the browser tests of those boards: a solved database of
//! the whole of either game takes hours to write, far beyond a test.
//!
//! Each is the real game with some of its moves taken away (the same
//! positions, moves, notation and ends), so the explorer draws it as it
//! draws the real one; each is solved here by the stored-graph retrograde
//! solver and served from memory.
#![allow(dead_code)]

use game_core::{Game, Outcome};
use game_server::notation::{DobutsuNotation, Notation, TeekoNotation};
use game_server::values::Solution;
use game_server::{Board, Games, Served, ServedGame};
use games::{DobutsuMove, DobutsuPiece, DobutsuPosition, TeekoMove, TeekoPosition};

/// The squares of files a–d, ranks 1–3 (bit `5 · row + column`).
pub const CORNER: u32 = 0b01111 | (0b01111 << 5) | (0b01111 << 10);

/// Teeko with every man kept to the 4×3 corner a1–d3: men are placed and
/// slid only there. Four in a row along a rank and the 2×2 squares fit in
/// it; no file or diagonal of four does.
pub struct TeekoCorner(pub games::Teeko);

impl TeekoCorner {
    fn allowed(mv: &TeekoMove) -> bool {
        let to = match *mv {
            TeekoMove::Place(s) => s,
            TeekoMove::Slide { to, .. } => to,
        };
        CORNER & (1 << to) != 0
    }
}

impl Game for TeekoCorner {
    type Position = TeekoPosition;
    type Move = TeekoMove;
    fn moves(&self, pos: &TeekoPosition, out: &mut Vec<TeekoMove>) {
        let start = out.len();
        self.0.moves(pos, out);
        let kept: Vec<TeekoMove> = out.drain(start..).filter(Self::allowed).collect();
        out.extend(kept);
    }
    fn play(&self, pos: &TeekoPosition, mv: &TeekoMove) -> TeekoPosition {
        self.0.play(pos, mv)
    }
    fn outcome(&self, pos: &TeekoPosition) -> Option<Outcome> {
        self.0.outcome(pos)
    }
    fn stalemate(&self, pos: &TeekoPosition) -> Outcome {
        self.0.stalemate(pos)
    }
}

/// [`TeekoCorner`] in Teeko's notation.
pub struct TeekoCornerNotation {
    game: TeekoCorner,
    teeko: TeekoNotation,
}

impl Notation for TeekoCornerNotation {
    type Game = TeekoCorner;
    fn game(&self) -> &TeekoCorner {
        &self.game
    }
    fn start(&self) -> String {
        self.teeko.start()
    }
    fn board(&self) -> Board {
        Board::Teeko
    }
    fn parse(&self, text: &str) -> Result<TeekoPosition, String> {
        self.teeko.parse(text)
    }
    fn child(&self, text: &str, pos: &TeekoPosition, mv: &TeekoMove) -> String {
        self.teeko.child(text, pos, mv)
    }
    fn move_name(&self, text: &str, pos: &TeekoPosition, mv: &TeekoMove) -> String {
        self.teeko.move_name(text, pos, mv)
    }
    fn picture(&self, pos: &TeekoPosition) -> String {
        self.teeko.picture(pos)
    }
}

/// Dobutsu shogi with the giraffes and elephants held in hand for good
/// (never dropped): the lions and chicks play alone, capturing, promoting
/// and dropping chicks, with the real game's ends (the lion taken, the
/// try).
pub struct DobutsuLionsChicks(pub games::Dobutsu);

/// Its start: the lions on b4 and b1, the chicks on b3 and b2, a giraffe
/// and an elephant in each hand; the first player to move.
pub const LIONS_CHICKS_START: &str = ".l./.c./.C./.L. GEge b";

impl Game for DobutsuLionsChicks {
    type Position = DobutsuPosition;
    type Move = DobutsuMove;
    fn moves(&self, pos: &DobutsuPosition, out: &mut Vec<DobutsuMove>) {
        let start = out.len();
        self.0.moves(pos, out);
        let kept: Vec<DobutsuMove> = out
            .drain(start..)
            .filter(|m| match m {
                DobutsuMove::Drop { piece, .. } => *piece == DobutsuPiece::Chick,
                DobutsuMove::Step { .. } => true,
            })
            .collect();
        out.extend(kept);
    }
    fn play(&self, pos: &DobutsuPosition, mv: &DobutsuMove) -> DobutsuPosition {
        self.0.play(pos, mv)
    }
    fn outcome(&self, pos: &DobutsuPosition) -> Option<Outcome> {
        self.0.outcome(pos)
    }
    fn stalemate(&self, pos: &DobutsuPosition) -> Outcome {
        self.0.stalemate(pos)
    }
}

/// [`DobutsuLionsChicks`] in Dobutsu shogi's notation.
pub struct LionsChicksNotation {
    game: DobutsuLionsChicks,
    dobutsu: DobutsuNotation,
}

impl Notation for LionsChicksNotation {
    type Game = DobutsuLionsChicks;
    fn game(&self) -> &DobutsuLionsChicks {
        &self.game
    }
    fn start(&self) -> String {
        LIONS_CHICKS_START.into()
    }
    fn board(&self) -> Board {
        Board::Dobutsu
    }
    fn parse(&self, text: &str) -> Result<DobutsuPosition, String> {
        self.dobutsu.parse(text)
    }
    fn child(&self, text: &str, pos: &DobutsuPosition, mv: &DobutsuMove) -> String {
        self.dobutsu.child(text, pos, mv)
    }
    fn move_name(&self, text: &str, pos: &DobutsuPosition, mv: &DobutsuMove) -> String {
        self.dobutsu.move_name(text, pos, mv)
    }
    fn picture(&self, pos: &DobutsuPosition) -> String {
        self.dobutsu.picture(pos)
    }
    fn picture_at(&self, text: &str, pos: &DobutsuPosition) -> String {
        self.dobutsu.picture_at(text, pos)
    }
}

/// Both games, solved and certified (the certificate shares no code with
/// the solver), served as `teeko-corner` and `dobutsu-lions-chicks`.
pub fn fixtures() -> Games<'static> {
    let teeko: &'static TeekoCorner = Box::leak(Box::new(TeekoCorner(games::Teeko::new())));
    let sol = solver_retro::solve(teeko, TeekoPosition::START).expect("the corner game solves");
    solver_retro::certify(&sol).expect("its solution is certified");
    let teeko = Served::new(
        "teeko-corner",
        "Teeko in the corner a1–d3 (a test fixture)",
        "Teeko, men kept to a1-d3",
        TeekoCornerNotation {
            game: TeekoCorner(games::Teeko::new()),
            teeko: TeekoNotation(games::Teeko::new()),
        },
        Solution(sol),
        false,
    );
    let dobutsu: &'static DobutsuLionsChicks =
        Box::leak(Box::new(DobutsuLionsChicks(games::Dobutsu::new())));
    let start: DobutsuPosition = LIONS_CHICKS_START.parse().expect("the start reads");
    let sol = solver_retro::solve(dobutsu, start).expect("lions and chicks solve");
    solver_retro::certify(&sol).expect("its solution is certified");
    let dobutsu = Served::new(
        "dobutsu-lions-chicks",
        "Dobutsu shogi, lions and chicks only (a test fixture)",
        "Dobutsu shogi, giraffes and elephants held in hand",
        LionsChicksNotation {
            game: DobutsuLionsChicks(games::Dobutsu::new()),
            dobutsu: DobutsuNotation(games::Dobutsu::new()),
        },
        Solution(sol),
        false,
    );
    let served: Vec<Box<dyn ServedGame>> = vec![Box::new(teeko), Box::new(dobutsu)];
    Games::new(served).expect("distinct ids")
}
