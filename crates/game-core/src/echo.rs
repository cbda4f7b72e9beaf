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

/// `text` with each control character (a newline, a tab, an escape)
/// written as Rust writes it in a quoted string (`\n`, `\t`, `\u{1b}`),
/// as move strings are quoted back: a message that repeats a path holding
/// a newline stays one line. Everything else is left as it is.
///
/// ```
/// assert_eq!(game_core::escape_controls("new\nline"), "new\\nline");
/// assert_eq!(game_core::escape_controls("é c3"), "é c3");
/// ```
#[must_use]
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.contains(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
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
    fn control_characters_are_escaped_each() {
        assert_eq!(
            escape_controls("a\tb\r\u{1b}[0m\u{7f}"),
            "a\\tb\\r\\u{1b}[0m\\u{7f}"
        );
        assert!(!escape_controls("x\ny").contains('\n'));
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
