//! Reading and writing positions: move strings, move names, pictures, and
//! values as Pascal Pons' scores.
//!
//! A column is written as one character, counting from 1: `1`–`9`, then
//! `a`–`w` for columns 10–32 of wide boards (upper case is read too). A
//! position is written as the columns played from the empty board, e.g.
//! `"4453"`.

use game_core::{Game, Outcome, Value};

use super::{ConnectFour, ConnectFourPosition};
use crate::Error;

/// The column (from 0) a character names, if any.
fn column_of_char(ch: char) -> Option<u32> {
    let d = ch.to_digit(36)?;
    d.checked_sub(1)
}

/// The character naming column `c` (from 0); `c` < 35.
fn char_of_column(c: u32) -> char {
    char::from_digit(c + 1, 36).unwrap_or('?')
}

impl ConnectFour {
    /// The position reached by playing the columns of `moves` from the empty
    /// board, one character a move, counting from 1 (`"4453"`).
    ///
    /// # Errors
    /// [`game_core::Error::IllegalMove`] (inside [`Error::Core`]), naming the
    /// place of the offending character (from 1), for a character that is
    /// not a column of this board, a move into a full column, or a move
    /// after the game is over (four in a row or a full board).
    pub fn position_from_moves(&self, moves: &str) -> Result<ConnectFourPosition, Error> {
        let mut pos = self.start();
        for (i, ch) in moves.chars().enumerate() {
            let at = i + 1;
            let bad = |why: String| -> Error {
                game_core::Error::IllegalMove(format!(
                    "character {at} ({ch:?}) of {:?}: {why}",
                    game_core::echo(moves)
                ))
                .into()
            };
            let col = column_of_char(ch)
                .filter(|&c| c < self.width)
                .ok_or_else(|| {
                    bad(format!(
                        "not a column of this {}-column board (columns 1 to {})",
                        self.width,
                        char_of_column(self.width - 1)
                    ))
                })?;
            if self.has_four(pos.opponent()) {
                let who = if pos.first_to_move() { 'O' } else { 'X' };
                return Err(bad(format!("the game is over: {who} has four in a row")));
            }
            if self.is_full(&pos) {
                return Err(bad("the game is over: the board is full".to_string()));
            }
            if pos.occupied & self.column_top(col) != 0 {
                return Err(bad(format!("column {ch} is full")));
            }
            pos = self.play(&pos, &(col as u8));
        }
        Ok(pos)
    }

    /// The name of a move: its column counting from 1 (`"4"`; `"a"` for the
    /// tenth column of a wide board), as read by
    /// [`ConnectFour::position_from_moves`].
    #[must_use]
    pub fn format_move(&self, mv: u8) -> String {
        char_of_column(u32::from(mv)).to_string()
    }

    /// The names of the moves of a line, concatenated (`"4453"`).
    #[must_use]
    pub fn format_moves(&self, moves: &[u8]) -> String {
        moves
            .iter()
            .map(|&m| char_of_column(u32::from(m)))
            .collect()
    }

    /// The score of `value` at a position of `pieces` pieces, in the
    /// convention of Pascal Pons' solver and test sets (and of BitBully):
    /// 0 for a tie; for a win of the player to move, the number of cells
    /// still empty after the winning move, plus one, halved
    /// (`(cells + 1 - moves before it) / 2`); for a loss, the opponent's
    /// win as a negative number. `None` for a draw (Connect Four has none)
    /// or a remoteness past the board.
    ///
    /// ```
    /// use game_core::Value;
    /// let game = games::ConnectFour::new(7, 6)?;
    /// // The empty board: the first player wins with its last stone.
    /// assert_eq!(game.score(0, Value::win(41)), Some(1));
    /// // "4455": the player to move wins with its 4th stone.
    /// assert_eq!(game.score(4, Value::win(3)), Some(18));
    /// assert_eq!(game.value_of_score(11, -15), Some(Value::lose(2)));
    /// # Ok::<(), games::Error>(())
    /// ```
    #[must_use]
    pub fn score(&self, pieces: u32, value: Value) -> Option<i32> {
        let r = value.remoteness()?;
        let end = pieces.checked_add(r).filter(|&e| e <= self.cells())?;
        // The win comes on move `end`, after `end - 1` moves.
        let half = i32::try_from((self.cells() + 2 - end) / 2).ok()?;
        match value.outcome() {
            Outcome::Win => Some(half),
            Outcome::Lose => Some(-half),
            Outcome::Tie => Some(0),
            Outcome::Draw => None,
        }
    }

    /// The value a score in Pons' convention ([`ConnectFour::score`])
    /// means at a position of `pieces` pieces: a win's remoteness is odd,
    /// a loss's even, a tie fills the board. `None` for a score no
    /// position of that many pieces can have.
    #[must_use]
    pub fn value_of_score(&self, pieces: u32, score: i32) -> Option<Value> {
        if score == 0 {
            return self.cells().checked_sub(pieces).map(Value::tie);
        }
        let half = score.unsigned_abs();
        // `end` is `cells + 2 - 2·half` or one less: the one whose
        // remoteness has a win's (odd) or a loss's (even) parity.
        let top = (self.cells() + 2)
            .checked_sub(2 * half)?
            .checked_sub(pieces)?;
        let odd = score > 0;
        let r = if (top % 2 == 1) == odd {
            top
        } else {
            top.checked_sub(1)?
        };
        let value = if odd { Value::win(r) } else { Value::lose(r) };
        (self.score(pieces, value) == Some(score)).then_some(value)
    }

    /// A picture of the board for the terminal: one line a row, top row
    /// first, `X` for the first player, `O` for the second, `.` for an
    /// empty cell, and the column names below.
    ///
    /// ```
    /// let game = games::ConnectFour::new(4, 3)?;
    /// let pos = game.position_from_moves("223")?;
    /// assert_eq!(game.picture(&pos), ". . . .\n. O . .\n. X X .\n1 2 3 4\n");
    /// # Ok::<(), games::Error>(())
    /// ```
    #[must_use]
    pub fn picture(&self, pos: &ConnectFourPosition) -> String {
        let first = pos.first_player();
        let mut out = String::with_capacity(((self.height + 1) * self.width * 2) as usize);
        for r in (0..self.height).rev() {
            for c in 0..self.width {
                let cell = self.column_bottom(c) << r;
                let ch = if pos.occupied & cell == 0 {
                    '.'
                } else if first & cell != 0 {
                    'X'
                } else {
                    'O'
                };
                if c > 0 {
                    out.push(' ');
                }
                out.push(ch);
            }
            out.push('\n');
        }
        for c in 0..self.width {
            if c > 0 {
                out.push(' ');
            }
            out.push(char_of_column(c));
        }
        out.push('\n');
        out
    }
}
