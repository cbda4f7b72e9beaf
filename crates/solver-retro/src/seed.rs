//! The one terminal-outcome routine every path seeds with.

use game_core::{Game, Outcome};

use crate::Error;

/// The terminal outcome at `pos` given whether it has moves, or `None` when
/// play goes on: [`Game::outcome`] where the game decides its own end, else
/// [`Game::stalemate`] for a position with no move. A declared draw is an
/// error (a draw is found, never declared).
pub(crate) fn terminal<G: Game>(
    game: &G,
    pos: &G::Position,
    has_moves: bool,
) -> Result<Option<Outcome>, Error> {
    let o = match game.outcome(pos) {
        Some(o) => Some(o),
        None if !has_moves => Some(game.stalemate(pos)),
        None => None,
    };
    if o == Some(Outcome::Draw) {
        return Err(Error::TerminalDraw);
    }
    Ok(o)
}
