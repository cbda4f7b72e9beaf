//! [`Misere`]: misère play as a wrapper around any game.

use crate::{Game, Outcome};

/// The misère version of a game: whoever cannot move *wins*, and a game that
/// decides its own end has the result turned round (win ↔ lose).
///
/// Misère play is a wrapper rather than a flag every game must honour: any
/// [`Game`] gets it for free.
///
/// ```
/// use game_core::{Game, Misere, Outcome};
///
/// struct Pile; // take 1 stone; no stone left = no move
/// impl Game for Pile {
///     type Position = u8;
///     type Move = ();
///     fn moves(&self, n: &u8, out: &mut Vec<()>) { if *n > 0 { out.push(()) } }
///     fn play(&self, n: &u8, _: &()) -> u8 { n - 1 }
/// }
/// assert_eq!(Pile.stalemate(&0), Outcome::Lose);
/// assert_eq!(Misere(Pile).stalemate(&0), Outcome::Win);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Misere<G>(pub G);

// Misère play changes how a game ends, nothing else: the moves are
// forwarded, the ending turned round.
forward!(game_methods impl[G: Game] for Misere<G> => G, |s| s.0, own {
    fn outcome(&self, pos: &Self::Position) -> Option<Outcome> {
        self.0.outcome(pos).map(Outcome::flip)
    }
    fn stalemate(&self, pos: &Self::Position) -> Outcome {
        self.0.stalemate(pos).flip()
    }
});

// Every other capability passes through unchanged: `forward.rs`.

// A misère impartial game is not `Impartial`: that trait promises normal
// play, which Sprague–Grundy values need.
