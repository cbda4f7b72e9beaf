//! A count and its noun, in the singular for one.

/// `n` and `word` in the number it takes: `1 move`, `2 moves`, `1 ply`,
/// `26 plies`, `1 index`, `9 indices` (messages said "1 moves", "1
/// tiers", "1 heaps"). `word` is the singular; a consonant's `y` becomes
/// `ies`, `s`, `x` and `ch` take `es` (`index` takes `indices`, `child`
/// `children`).
///
/// ```
/// use game_core::plural;
/// assert_eq!(plural(1u64, "move"), "1 move");
/// assert_eq!(plural(0u64, "heap"), "0 heaps");
/// assert_eq!(plural(26u64, "ply"), "26 plies");
/// assert_eq!(plural(3u64, "process"), "3 processes");
/// assert_eq!(plural(2u64, "index"), "2 indices");
/// assert_eq!(plural(546u64, "child"), "546 children");
/// ```
#[must_use]
pub fn plural(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    if n == 1 {
        return format!("1 {word}");
    }
    let consonant_y = word
        .strip_suffix('y')
        .and_then(|stem| stem.chars().last())
        .is_some_and(|c| !"aeiou".contains(c));
    if word == "index" {
        format!("{n} indices")
    } else if word.ends_with("child") {
        format!("{n} {word}ren")
    } else if consonant_y {
        format!("{n} {}ies", &word[..word.len() - 1])
    } else if word.ends_with(['s', 'x']) || word.ends_with("ch") {
        format!("{n} {word}es")
    } else {
        format!("{n} {word}s")
    }
}
