//! A count and its noun, in the singular for one.

/// `n` (written by [`grouped`]) and `word` in the number it takes: `1 move`, `2 moves`, `1 ply`,
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
/// assert_eq!(plural(3_945_711u64, "position"), "3,945,711 positions");
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
        format!("{} indices", grouped(n))
    } else if word.ends_with("child") {
        format!("{} {word}ren", grouped(n))
    } else if consonant_y {
        format!("{} {}ies", grouped(n), &word[..word.len() - 1])
    } else if word.ends_with(['s', 'x']) || word.ends_with("ch") {
        format!("{} {word}es", grouped(n))
    } else {
        format!("{} {word}s", grouped(n))
    }
}

/// `n` as text for people: more than four digits in groups of three
/// with commas (`3,945,711`), four or fewer as they are (`5478`). The one
/// way every count in text output is written; JSON keeps plain numbers.
///
/// ```
/// use game_core::grouped;
/// assert_eq!(grouped(5478), "5478");
/// assert_eq!(grouped(10_000), "10,000");
/// assert_eq!(grouped(3_945_711), "3,945,711");
/// assert_eq!(grouped(u64::MAX), "18,446,744,073,709,551,615");
/// ```
#[must_use]
pub fn grouped(n: u64) -> String {
    grouped_wide(u128::from(n))
}

/// [`grouped()`] for a `u128` (a sum of `u64` counts).
///
/// ```
/// assert_eq!(game_core::grouped_wide(u128::from(u64::MAX) + 1), "18,446,744,073,709,551,616");
/// ```
#[must_use]
pub fn grouped_wide(n: u128) -> String {
    let digits = n.to_string();
    if digits.len() <= 4 {
        return digits;
    }
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every group boundary, read back by removing the commas.
    #[test]
    fn grouped_reads_back_and_groups_by_three() {
        for n in [
            0,
            9,
            9999,
            10_000,
            99_999,
            100_000,
            999_999,
            1_000_000,
            u64::MAX,
        ] {
            let g = grouped(n);
            assert_eq!(g.replace(',', "").parse::<u64>(), Ok(n), "{g}");
            if n >= 10_000 {
                let groups: Vec<&str> = g.split(',').collect();
                assert!(
                    groups[0].len() <= 3 && groups[1..].iter().all(|x| x.len() == 3),
                    "{g}"
                );
            } else {
                assert!(!g.contains(','), "{g}");
            }
        }
    }
}
