//! Serve solved games over HTTP: a JSON API with GamesmanOne's and
//! GamesmanUni's field names, and an embedded web explorer (plain HTML,
//! SVG and JavaScript; nothing fetched from elsewhere).
//!
//! A served game is anything implementing [`ServedGame`] (object-safe,
//! positions in the game's text notation); [`Served`] implements it for
//! any game with a [`Notation`] and a source of [`Values`] — a solution in
//! memory or a database on disk.
//!
//! ```
//! # fn main() -> Result<(), game_server::Error> {
//! use game_server::{Games, Served, notation::SubtractionNotation, values::Solution};
//!
//! // Take 1 or 2 coins from a pile of up to 10; who cannot move loses.
//! let game = games::Subtraction::finite([1, 2])?.with_limit(10);
//! let solved = solver_retro::solve_indexed(&game)?;
//! let served = Served::new("take-1-2", "Take 1 or 2", "take 1 or 2",
//!     SubtractionNotation::new(game.clone(), 10), Solution(solved), false);
//! let games = Games::new(vec![Box::new(served)])?;
//!
//! // GET /api/games/take-1-2/positions?p=7 answers this:
//! let answer = games.answer("take-1-2", "7")?;
//! assert_eq!((answer.position_value, answer.remoteness), ("win", Some(5)));
//! // Best move first: take 1, to 6, a loss for the player to move there.
//! assert_eq!(answer.moves[0].name, "take 1");
//! assert_eq!((answer.moves[0].move_value, answer.moves[0].position_value), ("win", "lose"));
//! assert_eq!(answer.moves[1].move_value, "lose");
//! // A pile the game does not hold is a 400, an unknown game a 404.
//! assert_eq!(games.answer("take-1-2", "11").unwrap_err().status(), 400);
//! assert_eq!(games.answer("nim", "7").unwrap_err().status(), 404);
//! # Ok(()) }
//! ```
//!
//! # Layout
//!
//! * [`ServedGame`], [`Served`], [`Answer`] — `served.rs`.
//! * [`notation`] — each game's positions and moves in text.
//! * [`values`] — solutions in memory and databases on disk.
//! * [`catalog`] — the embedded default games and opening a database.
//! * [`mod@router`] — routes, limits, the explorer page, the run loop.

mod error;
mod served;

pub mod catalog;
pub mod notation;
pub mod router;
pub mod values;

pub use error::Error;
pub use notation::Notation;
pub use router::{router, run, serve, spawn, Games, Running};
pub use served::{
    value_name, Answer, AnswerMove, Board, Explored, ExploredMove, GameInfo, Served, ServedGame,
};
pub use values::Values;
