//! The refusal of a move in a line of moves typed from the start.

use crate::Error;

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
        format!("after {:?}", game_core::echo(before))
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
