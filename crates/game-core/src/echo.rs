//! Input quoted back in a message, cut to a readable length.

use std::borrow::Cow;

/// The most characters of a user's input a message repeats: room for a
/// database's path or a whole 7×6 Connect Four game (42 moves), which a
/// reader wants whole, and little enough for one line.
pub const ECHO_CHARS: usize = 80;

/// `text` as a message quotes it back: whole when it is at most
/// [`ECHO_CHARS`] characters, else its first [`ECHO_CHARS`] and `…`.
/// Every error that repeats input goes through it, so that a 100 KB
/// argument gets a one-line refusal, not 100 KB of it back.
///
/// ```
/// assert_eq!(game_core::echo("c3 d4"), "c3 d4");
/// let long = "9".repeat(100_000);
/// assert_eq!(game_core::echo(&long), format!("{}…", "9".repeat(80)));
/// ```
#[must_use]
pub fn echo(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(ECHO_CHARS) {
        None => Cow::Borrowed(text),
        Some((cut, _)) => Cow::Owned(format!("{}…", &text[..cut])),
    }
}

/// `text` quoted back by its end: whole when it is at most
/// [`ECHO_CHARS`] characters, else `…` and its last [`ECHO_CHARS`]. For
/// input whose end is what the reader needs, such as the moves just
/// before an illegal one in a long line of moves.
///
/// ```
/// assert_eq!(game_core::echo_tail("c3 d4"), "c3 d4");
/// let long = format!("{}c3", "a1 ".repeat(100));
/// assert!(game_core::echo_tail(&long).ends_with("a1 c3"));
/// assert!(game_core::echo_tail(&long).starts_with('…'));
/// ```
#[must_use]
pub fn echo_tail(text: &str) -> Cow<'_, str> {
    match text.char_indices().rev().nth(ECHO_CHARS - 1) {
        Some((cut, _)) if cut > 0 => Cow::Owned(format!("…{}", &text[cut..])),
        _ => Cow::Borrowed(text),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_at_a_character_not_a_byte() {
        let most = "é".repeat(ECHO_CHARS);
        assert_eq!(echo(&most), most);
        let more = "é".repeat(ECHO_CHARS + 1);
        assert_eq!(echo(&more), format!("{most}…"));
    }

    #[test]
    fn the_tail_keeps_the_last_characters() {
        let most = "é".repeat(ECHO_CHARS);
        assert_eq!(echo_tail(&most), most);
        let more = format!("ab{most}");
        assert_eq!(echo_tail(&more), format!("…{most}"));
        assert_eq!(echo_tail(""), "");
    }
}
