//! The backward-induction step shared by the solvers.

use game_core::{Game, Outcome, Value};

use crate::Error;

/// The value of a position that is over, or `None` if the game goes on.
/// `has_moves` is consulted only when the game's own `outcome` is silent.
///
/// # Errors
/// [`Error::TerminalDraw`] if the game scores a finished position as a draw.
pub(crate) fn terminal_value<G: Game>(
    game: &G,
    pos: &G::Position,
    has_moves: bool,
) -> Result<Option<Value>, Error> {
    let o = match game.outcome(pos) {
        Some(o) => o,
        None if has_moves => return Ok(None),
        None => game.stalemate(pos),
    };
    if o == Outcome::Draw {
        return Err(Error::TerminalDraw);
    }
    Ok(Some(Value::new(o, 0)))
}

/// Folds a child's value into the best value so far.
#[inline]
pub(crate) fn fold(best: Option<Value>, child: Value) -> Result<Option<Value>, Error> {
    let v = child.checked_parent().ok_or(Error::TooDeep)?;
    Ok(Some(match best {
        Some(b) if b >= v => b,
        _ => v,
    }))
}
