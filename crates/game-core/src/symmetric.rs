//! [`Symmetric`]: games whose positions come in classes of equal value.

use crate::Game;

/// A game with symmetries: maps of positions to positions that keep the
/// rules (Connect Four's left–right mirror, the 8 symmetries of Teeko's
/// square), so symmetric positions have the same value.
///
/// Solvers that see this trait store one position of each class, the
/// canonical one, and look any other up through [`Symmetric::canonical`].
///
/// The promises (checked by `solver_retro::check_game`):
/// * `canonical(p)` is among `symmetric(p)`;
/// * `canonical(q) == canonical(p)` for every `q` in `symmetric(p)`;
/// * with [`crate::Tiered`], `canonical(p)` lies in the tier of `p`.
///
/// ```
/// use game_core::{Game, Symmetric};
///
/// /// A token on squares -3..=3 that moves one square either way; the
/// /// mirror x → -x keeps the rules.
/// struct Line;
/// impl Game for Line {
///     type Position = i8;
///     type Move = i8;
///     fn moves(&self, x: &i8, out: &mut Vec<i8>) { out.extend([-1, 1].into_iter().filter(|d| (x + d).abs() <= 3)) }
///     fn play(&self, x: &i8, d: &i8) -> i8 { x + d }
/// }
/// impl Symmetric for Line {
///     fn symmetric(&self, x: &i8, out: &mut Vec<i8>) { out.extend([*x, -x]) }
///     fn canonical(&self, x: &i8) -> i8 { x.abs() }
/// }
/// assert_eq!(Line.canonical(&-2), 2);
/// assert_eq!(game_core::orbit_size(&Line, &0, &mut Vec::new()), 1);
/// assert_eq!(game_core::orbit_size(&Line, &-2, &mut Vec::new()), 2);
/// ```
pub trait Symmetric: Game {
    /// Appends to `out` every position symmetric to `pos`, `pos` itself
    /// included (repeats are allowed).
    fn symmetric(&self, pos: &Self::Position, out: &mut Vec<Self::Position>);

    /// The canonical position of `pos`'s class: the same for every position
    /// of the class, and one of them.
    fn canonical(&self, pos: &Self::Position) -> Self::Position;
}

impl<G: Symmetric + ?Sized> Symmetric for &G {
    fn symmetric(&self, pos: &Self::Position, out: &mut Vec<Self::Position>) {
        (**self).symmetric(pos, out);
    }
    fn canonical(&self, pos: &Self::Position) -> Self::Position {
        (**self).canonical(pos)
    }
}

/// The number of distinct positions symmetric to `pos` (itself included),
/// using `scratch` as a buffer: how many positions a canonical one stands
/// for when counting all positions.
pub fn orbit_size<G: Symmetric + ?Sized>(
    game: &G,
    pos: &G::Position,
    scratch: &mut Vec<G::Position>,
) -> u64 {
    scratch.clear();
    game.symmetric(pos, scratch);
    let mut n = 0u64;
    for i in 0..scratch.len() {
        if !scratch[..i].contains(&scratch[i]) {
            n += 1;
        }
    }
    n
}
