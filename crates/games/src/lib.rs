//! Games for gamesolve, each a [`game_core::Game`] with its own fast paths.
//!
//! ```
//! use games::{power_game, stones, Subtraction};
//!
//! // Stones: the seed module's Take.
//! assert_eq!(stones::take(0, 0, 7, 3)?, 2);
//! // Subtraction game {1, 3, 4}, normal play.
//! assert_eq!(Subtraction::finite([1, 3, 4])?.outcome_string(11, false)?, "LWLWWWWLWLWW");
//! // PowerGame.
//! assert_eq!(power_game::winner(2, 3)?.to_string(), "Bob will win after 2 moves");
//! # Ok::<(), games::Error>(())
//! ```
//!
//! # Layout
//!
//! * [`stones`] — the Stones parity game, its periodic table and `take`.
//! * [`subtraction`] — subtraction games with a finite set or the squares.
//! * [`fingers`] — Magic Fingers with rule variants (cyclic: solve it with
//!   `solver-retro`).
//! * [`nim`] — Nim and bounded Nim.
//! * [`knights`] — the seed article's knights game (Grundy table in O(N²)).
//! * [`octal`] — octal games by code, on several heaps.
//! * [`power_game`] — PowerGame, as a two-pile game and by the per-pile
//!   method.
//! * [`connect4`] — Connect Four on W×H boards (bitboards, tiers by pieces).
//! * [`dobutsu`] — Dōbutsu shōgi (cyclic; tiers *over* and *play*).
//! * [`teeko`] — Teeko (cyclic, tiered: 0–7 men placed, then the moving
//!   phase).

pub mod connect4;
pub mod dobutsu;
mod error;
pub mod fingers;
pub mod knights;
mod line;
pub mod nim;
pub mod octal;
pub mod power_game;
pub mod stones;
pub mod subtraction;
pub mod teeko;
#[cfg(test)]
mod testing;

pub use connect4::{ConnectFour, ConnectFourPosition};
pub use dobutsu::{Dobutsu, DobutsuMove, DobutsuPiece, DobutsuPosition, DobutsuSide};
pub use error::Error;
pub use fingers::{Fingers, FingersMove, FingersPosition, FingersRules};
pub use knights::{KnightMove, Knights};
pub use nim::{Nim, NimVerdict};
pub use octal::{OctalGame, OctalMove};
pub use power_game::PowerGame;
pub use stones::{Player, Stones, StonesPosition, StonesTable};
pub use subtraction::{Subtraction, SubtractionSet};
pub use teeko::{Teeko, TeekoColor, TeekoMove, TeekoPosition};
