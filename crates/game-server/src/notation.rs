//! Positions in text: each served game's notation (the CLI's `value`
//! notation), its moves' names and its picture.

use game_core::Game;
use games::{ConnectFour, Fingers, Subtraction};

use crate::Board;

/// How a game's positions and moves are written.
pub trait Notation: Send + Sync {
    /// The game.
    type Game: Game;
    /// The game.
    fn game(&self) -> &Self::Game;
    /// The start position, written.
    fn start(&self) -> String;
    /// How the page draws the game.
    fn board(&self) -> Board;
    /// Reads a position.
    ///
    /// # Errors
    /// What is wrong with it, in one line.
    fn parse(&self, text: &str) -> Result<<Self::Game as Game>::Position, String>;
    /// The text of the child that `mv` leads to from `pos`, written `text`
    /// (a notation of moves played appends the move).
    fn child(
        &self,
        text: &str,
        pos: &<Self::Game as Game>::Position,
        mv: &<Self::Game as Game>::Move,
    ) -> String;
    /// A move's name at `pos`, written `text` (as the CLI names it).
    fn move_name(
        &self,
        text: &str,
        pos: &<Self::Game as Game>::Position,
        mv: &<Self::Game as Game>::Move,
    ) -> String;
    /// A picture of a position for people (may span lines).
    fn picture(&self, pos: &<Self::Game as Game>::Position) -> String;
    /// The picture of `pos`, written `text` (a notation whose positions
    /// do not say everything the text does, such as who is to move, draws
    /// it from the text); [`Notation::picture`] unless overridden.
    fn picture_at(&self, text: &str, pos: &<Self::Game as Game>::Position) -> String {
        let _ = text;
        self.picture(pos)
    }
}

/// Connect Four: a position is the columns played from the empty board,
/// one character a move (`4453`).
pub struct ConnectFourNotation(pub ConnectFour);

impl Notation for ConnectFourNotation {
    type Game = ConnectFour;
    fn game(&self) -> &ConnectFour {
        &self.0
    }
    fn start(&self) -> String {
        String::new()
    }
    fn board(&self) -> Board {
        Board::Connect4 {
            width: self.0.width(),
            height: self.0.height(),
        }
    }
    fn parse(&self, text: &str) -> Result<games::ConnectFourPosition, String> {
        self.0.position_from_moves(text).map_err(|e| e.to_string())
    }
    fn child(&self, text: &str, _pos: &games::ConnectFourPosition, mv: &u8) -> String {
        format!("{text}{}", self.0.format_move(*mv))
    }
    fn move_name(&self, _text: &str, _pos: &games::ConnectFourPosition, mv: &u8) -> String {
        format!("column {}", self.0.format_move(*mv))
    }
    fn picture(&self, pos: &games::ConnectFourPosition) -> String {
        self.0.picture(pos).trim_end().to_string()
    }
}

/// Magic Fingers: a position is the player to move's hands, then the
/// opponent's (`1,3 2,2`, as `gamesolve fingers value 1,3 2,2`).
pub struct FingersNotation(pub Fingers);

impl Notation for FingersNotation {
    type Game = Fingers;
    fn game(&self) -> &Fingers {
        &self.0
    }
    fn start(&self) -> String {
        "1,1 1,1".into()
    }
    fn board(&self) -> Board {
        Board::Fingers {
            fingers: self.0.rules().fingers,
        }
    }
    fn parse(&self, text: &str) -> Result<games::FingersPosition, String> {
        let bad = || {
            format!(
                "'{}' is not two pairs of hands such as '1,3 2,2' (yours, then the opponent's)",
                game_core::echo(text)
            )
        };
        let hands = |s: &str| -> Result<[u8; 2], String> {
            let (a, b) = s.split_once(',').ok_or_else(bad)?;
            let n = |x: &str| x.trim().parse::<u8>().map_err(|_| bad());
            Ok([n(a)?, n(b)?])
        };
        let mut parts = text.split_whitespace();
        let (Some(me), Some(opp), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad());
        };
        self.0
            .position_from(hands(me)?, hands(opp)?)
            .map_err(|e| e.to_string())
    }
    fn child(&self, _text: &str, pos: &games::FingersPosition, mv: &games::FingersMove) -> String {
        let c = self.0.play(pos, mv);
        format!("{},{} {},{}", c.me[0], c.me[1], c.opp[0], c.opp[1])
    }
    fn move_name(
        &self,
        _text: &str,
        _pos: &games::FingersPosition,
        mv: &games::FingersMove,
    ) -> String {
        mv.to_string()
    }
    fn picture(&self, pos: &games::FingersPosition) -> String {
        format!(
            "to move:  {}\nopponent: {}",
            self.0.picture(pos.me),
            self.0.picture(pos.opp)
        )
    }
}

/// A subtraction game on one pile: a position is the pile's size.
pub struct SubtractionNotation {
    game: Subtraction,
    start: u64,
}

impl SubtractionNotation {
    /// `game` played from a pile of `start`, which bounds the piles read.
    #[must_use]
    pub fn new(game: Subtraction, start: u64) -> Self {
        SubtractionNotation { game, start }
    }
}

impl Notation for SubtractionNotation {
    type Game = Subtraction;
    fn game(&self) -> &Subtraction {
        &self.game
    }
    fn start(&self) -> String {
        self.start.to_string()
    }
    fn board(&self) -> Board {
        Board::Text
    }
    fn parse(&self, text: &str) -> Result<u64, String> {
        text.trim()
            .parse::<u64>()
            .ok()
            .filter(|&n| n <= self.start)
            .ok_or_else(|| {
                format!(
                    "'{}' is not a pile of 0 to {} coins",
                    game_core::echo(text),
                    self.start
                )
            })
    }
    fn child(&self, _text: &str, pos: &u64, mv: &u64) -> String {
        (pos - mv).to_string()
    }
    fn move_name(&self, _text: &str, _pos: &u64, mv: &u64) -> String {
        format!("take {mv}")
    }
    fn picture(&self, pos: &u64) -> String {
        let shown = usize::try_from(*pos).unwrap_or(usize::MAX).min(60);
        let more = if *pos > 60 { " …" } else { "" };
        format!("{}{more}\n{pos} coins", "●".repeat(shown))
    }
}

/// Teeko: a position is a line of moves from the start (as `teeko value`
/// reads it) or a board, `25 squares` and the side to move
/// (`b....r.... b`); children are written as boards.
pub struct TeekoNotation(pub games::Teeko);

impl Notation for TeekoNotation {
    type Game = games::Teeko;
    fn game(&self) -> &games::Teeko {
        &self.0
    }
    fn start(&self) -> String {
        games::TeekoPosition::START.to_string()
    }
    fn board(&self) -> Board {
        Board::Teeko
    }
    fn parse(&self, text: &str) -> Result<games::TeekoPosition, String> {
        let text = text.trim();
        // As the CLI reads it: a first word of 25 squares is a board.
        if text
            .split_whitespace()
            .next()
            .is_some_and(|w| w.len() >= 25)
        {
            return text.parse().map_err(|e: games::Error| e.to_string());
        }
        self.0.play_line(text).map_err(|e| e.to_string())
    }
    fn child(&self, _text: &str, pos: &games::TeekoPosition, mv: &games::TeekoMove) -> String {
        self.0.play(pos, mv).to_string()
    }
    fn move_name(&self, _text: &str, _pos: &games::TeekoPosition, mv: &games::TeekoMove) -> String {
        mv.to_string()
    }
    fn picture(&self, pos: &games::TeekoPosition) -> String {
        let s = pos.to_string();
        let (board, side) = s.split_at(25.min(s.len()));
        let mut out = String::new();
        for rank in (0..5).rev() {
            out += &format!("{}", rank + 1);
            for c in board.chars().skip(rank * 5).take(5) {
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out += &format!("  a b c d e\nto move:{side}");
        out
    }
}

/// Dobutsu shogi: a position is a line of moves from the start (as
/// `dobutsu value` reads it) or a board with ranks between slashes and the
/// player to move (`gle/.c./.C./ELG - b`: `b` the first player, `w` the
/// second). The board is always written as the first player sees it (home
/// rank 4, capitals theirs), and so are moves (`b3b2`, `C*b2`, on the
/// fixed board, whoever makes them); children are written as boards with
/// the player to move there.
pub struct DobutsuNotation(pub games::Dobutsu);

impl DobutsuNotation {
    /// The player to move at a position written `text` (read as
    /// [`Notation::parse`] reads it; the first player if it does not read).
    fn side(&self, text: &str) -> games::DobutsuSide {
        self.0
            .read(text)
            .map_or(games::DobutsuSide::First, |(_, s)| s)
    }
}

impl Notation for DobutsuNotation {
    type Game = games::Dobutsu;
    fn game(&self) -> &games::Dobutsu {
        &self.0
    }
    fn start(&self) -> String {
        games::DobutsuPosition::START.board_string(games::DobutsuSide::First)
    }
    fn board(&self) -> Board {
        Board::Dobutsu
    }
    fn parse(&self, text: &str) -> Result<games::DobutsuPosition, String> {
        self.0.read(text).map(|(p, _)| p).map_err(|e| e.to_string())
    }
    fn child(&self, text: &str, pos: &games::DobutsuPosition, mv: &games::DobutsuMove) -> String {
        self.0.play(pos, mv).board_string(self.side(text).other())
    }
    fn move_name(
        &self,
        text: &str,
        _pos: &games::DobutsuPosition,
        mv: &games::DobutsuMove,
    ) -> String {
        mv.notation(self.side(text))
    }
    fn picture(&self, pos: &games::DobutsuPosition) -> String {
        // Without the text the side is not known: the board as the player
        // to move sees it. `Served` pictures through `picture_at`.
        format!("{pos} (seen by the player to move)")
    }
    fn picture_at(&self, text: &str, pos: &games::DobutsuPosition) -> String {
        let side = self.side(text);
        format!(
            "{} ({} player to move)",
            pos.board_string(side),
            side.name()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every child's text reads back as the child, two plies deep.
    fn children_read_back<N: Notation>(n: &N)
    where
        <N::Game as Game>::Position: std::fmt::Debug,
    {
        let g = n.game();
        let start = n.parse(&n.start()).expect("the start reads");
        let mut level = vec![(n.start(), start)];
        for _ in 0..2 {
            let mut next = Vec::new();
            for (text, pos) in &level {
                let mut mv = Vec::new();
                g.moves(pos, &mut mv);
                for m in &mv {
                    let child = n.child(text, pos, m);
                    assert_eq!(n.parse(&child), Ok(g.play(pos, m)), "{child}");
                    next.push((child, g.play(pos, m)));
                }
            }
            level = next;
        }
        assert!(!level.is_empty());
    }

    /// A Dobutsu move is named on the fixed board by whoever makes it:
    /// the line of moves that names it reaches the child written, with
    /// the other player to move (`play_line`, which reads moves as the
    /// CLI's `play` writes them, is the judge).
    #[test]
    fn dobutsu_moves_are_named_on_the_fixed_board_by_their_mover() {
        let n = DobutsuNotation(games::Dobutsu::new());
        let g = n.game();
        let mut level = vec![String::new()];
        for ply in 0..3 {
            let mut next = Vec::new();
            for line in &level {
                let text = if line.is_empty() {
                    n.start()
                } else {
                    line.clone()
                };
                let pos = n.parse(&text).expect("a position");
                let mut mv = Vec::new();
                g.moves(&pos, &mut mv);
                for m in &mv {
                    let name = n.move_name(&text, &pos, m);
                    let child = n.child(&text, &pos, m);
                    let line = format!("{line} {name}");
                    let (want, side) = g.play_line(&line).expect("the named move is legal");
                    assert_eq!(
                        games::DobutsuPosition::parse_with_side(&child).ok(),
                        Some((want, side)),
                        "{line}: {child}"
                    );
                    assert_eq!(child.ends_with(" w"), ply % 2 == 0, "{child}");
                    next.push(line);
                }
            }
            level = next;
        }
        assert!(level.len() > 20);
    }

    /// Text that is no Teeko or Dobutsu position is refused with a
    /// message, never a panic: the server answers it 400.
    #[test]
    fn teeko_and_dobutsu_refuse_what_is_no_position() {
        let teeko = TeekoNotation(games::Teeko::new());
        let dobutsu = DobutsuNotation(games::Dobutsu::new());
        let long = "c3 ".repeat(2000);
        let slashes = "/".repeat(500);
        for bad in [
            "x",
            "c3 c3",
            "z9",
            "ééé",
            "\u{0}",
            long.as_str(),
            slashes.as_str(),
            "bbbbb.................... r",
            "......................... x",
            "gle/.c./.C./ELG - x",
            "gle/.c./.C./ELG",
            "gle/.c./.C./ELGG - b",
            "lle/.c./.C./ELG - b",
            "gle/.c./.C./ELG GG b",
            "b3b2 b3b2",
            "C*b2",
        ] {
            let t = teeko.parse(bad);
            let d = dobutsu.parse(bad);
            assert!(t.is_err(), "teeko read {bad:?}");
            assert!(d.is_err(), "dobutsu read {bad:?}");
            assert!(t.err().is_some_and(|e| !e.is_empty()));
            // What the side of unreadable text is does not matter, but it
            // must not fail.
            let _ = dobutsu.side(bad);
        }
    }

    #[test]
    fn every_notation_reads_its_own_children() {
        children_read_back(&ConnectFourNotation(
            ConnectFour::new(5, 4).expect("a board"),
        ));
        children_read_back(&FingersNotation(
            Fingers::new(games::FingersRules::default()).expect("rules"),
        ));
        children_read_back(&SubtractionNotation::new(
            Subtraction::finite([1, 3, 4])
                .expect("a set")
                .with_limit(20),
            20,
        ));
        children_read_back(&TeekoNotation(games::Teeko::new()));
        children_read_back(&DobutsuNotation(games::Dobutsu::new()));
    }
}
