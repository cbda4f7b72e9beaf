//! [`Impartial`]: both players have the same moves.

use crate::Game;

/// A marker: from every position, both players have the same moves, and the
/// game is played under normal play (no move = you lose).
///
/// Impartial games have Sprague–Grundy values: a sum of impartial games is
/// decided by the XOR of its components' values.
pub trait Impartial: Game {}

impl<G: Impartial + ?Sized> Impartial for &G {}
