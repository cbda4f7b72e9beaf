//! The legal moves at a position, and the refusal of a move in a line of
//! moves typed from the start.

use game_core::Game;

use crate::Error;

/// `e`, the refusal of `word` (the `k`-th move of `line`) at `pos`, the
/// position the moves before it reach in `game`: an illegal move is said
/// again by [`illegal_in_line`], with the legal moves there (none once
/// it is over) named by `name`; any other error stays as it is.
pub(crate) fn in_line<G: Game>(
    e: Error,
    game: &G,
    pos: &G::Position,
    line: &str,
    word: &str,
    k: usize,
    name: impl Fn(&G::Move) -> String,
) -> Error {
    if !matches!(e, Error::Core(game_core::Error::IllegalMove(_))) {
        return e;
    }
    illegal_in_line(line, word, k, legal_moves(game, pos).iter().map(name))
}

/// The legal moves at `pos`: none once the game is over there.
pub(crate) fn legal_moves<G: Game>(game: &G, pos: &G::Position) -> Vec<G::Move> {
    let mut legal = Vec::new();
    if game.outcome(pos).is_none() {
        game.moves(pos, &mut legal);
    }
    legal
}

/// `mv` where it is legal at `pos`, else an illegal move, said by `what`.
pub(crate) fn legal<G: Game>(
    game: &G,
    pos: &G::Position,
    mv: G::Move,
    what: impl FnOnce() -> String,
) -> Result<G::Move, Error>
where
    G::Move: PartialEq,
{
    if legal_moves(game, pos).contains(&mv) {
        Ok(mv)
    } else {
        Err(game_core::Error::IllegalMove(what()).into())
    }
}

/// The error for `word`, the `k`-th move (from 1) of `line`, which is not
/// legal after the moves before it; `legal` are the moves that are, in
/// the game's notation (none when the game is over there). It names the
/// position by the moves typed, where the games named it by their board
/// code (Teeko `............b............ r`).
pub(crate) fn illegal_in_line(
    line: &str,
    word: &str,
    k: usize,
    legal: impl Iterator<Item = String>,
) -> Error {
    // `word` is a slice of `line`: the moves before it end where it starts.
    let at = (word.as_ptr() as usize).saturating_sub(line.as_ptr() as usize);
    let before = line.get(..at).unwrap_or_default().trim();
    let after = if before.is_empty() {
        "from the start".to_string()
    } else {
        // The moves just before it are the ones the reader needs.
        format!("after {:?}", game_core::echo_tail(before))
    };
    let legal: Vec<String> = legal.collect();
    let there = if legal.is_empty() {
        "the game is over there".to_string()
    } else {
        format!("the legal moves there: {}", legal.join(" "))
    };
    game_core::Error::IllegalMove(format!(
        "move {k}, {:?}, {after}; {there}",
        game_core::echo(word)
    ))
    .into()
}

#[cfg(test)]
mod tests {
    use super::illegal_in_line;

    /// In a long line the moves just before the illegal one are kept, the
    /// first ones cut (they were cut from the end, dropping exactly the
    /// moves that matter).
    #[test]
    fn a_long_line_keeps_the_moves_before_the_illegal_one() {
        let line = format!("{}b2 c3 zz", "a1 ".repeat(60));
        let word = &line[line.len() - 2..];
        let e = illegal_in_line(&line, word, 63, ["d4".to_string()].into_iter()).to_string();
        assert!(e.contains("b2 c3\""), "{e}");
        assert!(e.contains("after \"…"), "{e}");
        assert!(e.len() < 200, "{e}");
    }
}
