//! The backward-induction step shared by the solvers.

use game_core::{Game, Value};

use crate::Error;

/// The value of a position that is over, or `None` if the game goes on.
/// `has_moves` is consulted only when the game's own `outcome` is silent.
pub(crate) fn terminal_value<G: Game>(
    game: &G,
    pos: &G::Position,
    has_moves: bool,
) -> Option<Value> {
    if let Some(o) = game.outcome(pos) {
        return Some(Value::new(o, 0));
    }
    (!has_moves).then(|| Value::new(game.stalemate(pos), 0))
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
