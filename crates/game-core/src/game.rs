//! The [`Game`] trait: the one thing a new game implements.

use std::hash::Hash;

use crate::Outcome;

capability! {
    macro game_methods;
    /// A two-player game of perfect information.
    ///
    /// Positions must say everything that decides the future, *including whose
    /// turn it is* when the two players' moves differ. All methods take `&self`,
    /// so rule variants live in the game value.
    ///
    /// By default the game is played under the *normal play* convention: a
    /// position that is not over ([`Game::outcome`] returns `None`) and has no
    /// moves is lost for the player to move ([`Game::stalemate`]). A game whose
    /// end is decided otherwise (Stones: the holder of an odd number of stones
    /// wins) overrides [`Game::outcome`].
    ///
    /// # Example
    ///
    /// A one-pile subtraction game where a move takes one or two stones:
    ///
    /// ```
    /// use game_core::Game;
    ///
    /// struct TakeOneOrTwo;
    ///
    /// impl Game for TakeOneOrTwo {
    ///     type Position = u32;
    ///     type Move = u32;
    ///     fn moves(&self, pile: &u32, out: &mut Vec<u32>) {
    ///         out.extend((1..=2).filter(|t| t <= pile));
    ///     }
    ///     fn play(&self, pile: &u32, take: &u32) -> u32 {
    ///         pile - take
    ///     }
    /// }
    ///
    /// let mut buf = Vec::new();
    /// TakeOneOrTwo.moves(&5, &mut buf);
    /// assert_eq!(buf, [1, 2]);
    /// ```
    pub trait Game {
        /// A position: everything that decides the rest of the game.
        type Position: Clone + Eq + Hash;
        /// A move, as played from a position.
        type Move: Clone;

        /// Appends the legal moves from `pos` to `out`.
        ///
        /// The caller owns the buffer (and clears it when it wants), so solvers
        /// reuse one buffer instead of allocating per position. Positions for which
        /// [`Game::outcome`] is `Some` are never asked for moves by the solvers.
        fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>);

        /// The position reached by playing `mv` (one of [`Game::moves`]) at `pos`.
        fn play(&self, pos: &Self::Position, mv: &Self::Move) -> Self::Position;

        /// `Some(outcome)` for the player to move when the game is over at `pos`,
        /// `None` when play goes on (or the game ends only by running out of
        /// moves). The default is `None` everywhere: pure normal play.
        ///
        /// Only [`Outcome::Win`], [`Outcome::Lose`] and [`Outcome::Tie`] make
        /// sense here; a draw is what solvers find, never a terminal result.
        fn outcome(&self, _pos: &Self::Position) -> Option<Outcome> {
            None
        }

        /// The outcome for the player to move at a position that is not over by
        /// [`Game::outcome`] but has no moves. Normal play: [`Outcome::Lose`].
        fn stalemate(&self, _pos: &Self::Position) -> Outcome {
            Outcome::Lose
        }
    }
}

// A game lent to a solver is the game.
forward!(game_methods impl[G: Game + ?Sized] for &G => G, |s| (**s));
