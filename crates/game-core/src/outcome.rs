//! Outcomes and values from the point of view of the player to move.

use std::cmp::Ordering;
use std::fmt;

/// The result of a position for the player to move under perfect play.
///
/// Ordered from worst to best for the player to move:
/// `Lose < Draw < Tie < Win`.
///
/// * [`Outcome::Tie`] — the game *ends* and nobody wins.
/// * [`Outcome::Draw`] — the game never ends (play cycles forever).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Outcome {
    /// The player to move loses.
    Lose,
    /// Neither player can force an end: play goes on forever.
    Draw,
    /// The game ends with nobody winning.
    Tie,
    /// The player to move wins.
    Win,
}

impl Outcome {
    /// The outcome for the *other* player: win ↔ lose; tie and draw stay.
    #[must_use]
    pub const fn flip(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Lose,
            Outcome::Lose => Outcome::Win,
            other => other,
        }
    }

    /// A lower-case name: `"win"`, `"lose"`, `"tie"` or `"draw"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Lose => "lose",
            Outcome::Tie => "tie",
            Outcome::Draw => "draw",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The largest remoteness a [`Value`] can hold (2³⁰ − 3 plies).
pub const MAX_REMOTENESS: u32 = (1 << 30) - 3;

/// An [`Outcome`] together with its remoteness: how many plies the game lasts
/// when the winner hurries and the loser stalls (for a tie: when both hurry).
///
/// A draw has no remoteness. Values are ordered by how good they are for the
/// player to move: any win beats any tie beats any draw beats any loss; a
/// faster win beats a slower one, a slower loss beats a faster one, a faster
/// tie beats a slower one.
///
/// A value packs into a `u32` ([`Value::to_bits`]) so solvers can keep flat
/// tables of 4 bytes a position.
///
/// ```
/// use game_core::{Outcome, Value};
/// let child = Value::lose(4);
/// // Moving to a position lost in 4 for the opponent wins in 5.
/// assert_eq!(child.parent(), Value::win(5));
/// assert!(Value::win(1) > Value::win(3));
/// assert!(Value::lose(9) > Value::lose(2));
/// assert_eq!(Value::DRAW.remoteness(), None);
/// assert_eq!(Value::tie(0).outcome(), Outcome::Tie);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Value {
    outcome: Outcome,
    remoteness: u32,
}

impl Value {
    /// A draw: play never ends.
    pub const DRAW: Value = Value {
        outcome: Outcome::Draw,
        remoteness: 0,
    };

    /// A value from its parts. The remoteness is ignored for a draw.
    ///
    /// # Panics
    /// Panics if `remoteness > MAX_REMOTENESS`.
    #[must_use]
    pub const fn new(outcome: Outcome, remoteness: u32) -> Value {
        assert!(remoteness <= MAX_REMOTENESS, "remoteness out of range");
        match outcome {
            Outcome::Draw => Value::DRAW,
            _ => Value {
                outcome,
                remoteness,
            },
        }
    }

    /// A win in `remoteness` plies.
    #[must_use]
    pub const fn win(remoteness: u32) -> Value {
        Value::new(Outcome::Win, remoteness)
    }

    /// A loss in `remoteness` plies.
    #[must_use]
    pub const fn lose(remoteness: u32) -> Value {
        Value::new(Outcome::Lose, remoteness)
    }

    /// A tie reached in `remoteness` plies.
    #[must_use]
    pub const fn tie(remoteness: u32) -> Value {
        Value::new(Outcome::Tie, remoteness)
    }

    /// The outcome for the player to move.
    #[must_use]
    pub const fn outcome(self) -> Outcome {
        self.outcome
    }

    /// Plies to the end under perfect play, or `None` for a draw.
    #[must_use]
    pub const fn remoteness(self) -> Option<u32> {
        match self.outcome {
            Outcome::Draw => None,
            _ => Some(self.remoteness),
        }
    }

    /// The value of a position whose best move leads to a position of value
    /// `self` (seen from the opponent, who moves there): win ↔ lose, one ply
    /// more.
    ///
    /// # Panics
    /// Panics if the remoteness would exceed [`MAX_REMOTENESS`].
    #[must_use]
    pub const fn parent(self) -> Value {
        match self.outcome {
            Outcome::Draw => Value::DRAW,
            o => Value::new(o.flip(), self.remoteness + 1),
        }
    }

    /// Like [`Value::parent`], but `None` instead of a panic when the
    /// remoteness would overflow.
    #[must_use]
    pub const fn checked_parent(self) -> Option<Value> {
        match self.outcome {
            Outcome::Draw => Some(Value::DRAW),
            o if self.remoteness < MAX_REMOTENESS => Some(Value {
                outcome: o.flip(),
                remoteness: self.remoteness + 1,
            }),
            _ => None,
        }
    }

    /// A sort key: larger is better for the player to move.
    const fn rank(self) -> i64 {
        let r = self.remoteness as i64;
        match self.outcome {
            Outcome::Lose => r,
            Outcome::Draw => 1 << 31,
            Outcome::Tie => (2 << 31) + ((1 << 31) - r),
            Outcome::Win => (4 << 31) + ((1 << 31) - r),
        }
    }

    /// Packs the value into 32 bits: outcome in the top two, remoteness
    /// below. Never equal to `u32::MAX` or `u32::MAX - 1`, which solvers
    /// may use as markers.
    #[must_use]
    pub const fn to_bits(self) -> u32 {
        ((self.outcome as u32) << 30) | self.remoteness
    }

    /// Unpacks [`Value::to_bits`]. Returns `None` for bits that no value
    /// packs to.
    #[must_use]
    pub const fn from_bits(bits: u32) -> Option<Value> {
        let remoteness = bits & ((1 << 30) - 1);
        if remoteness > MAX_REMOTENESS {
            return None;
        }
        let outcome = match bits >> 30 {
            0 => Outcome::Lose,
            1 => Outcome::Draw,
            2 => Outcome::Tie,
            _ => Outcome::Win,
        };
        if matches!(outcome, Outcome::Draw) && remoteness != 0 {
            return None;
        }
        Some(Value {
            outcome,
            remoteness,
        })
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Value {
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.remoteness() {
            Some(r) => write!(f, "{} in {r}", self.outcome),
            None => f.write_str("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn any_value() -> impl Strategy<Value = Value> {
        (0u8..4, 0u32..1000).prop_map(|(o, r)| {
            let o = [Outcome::Lose, Outcome::Draw, Outcome::Tie, Outcome::Win][o as usize];
            Value::new(o, r)
        })
    }

    #[test]
    fn outcome_order_is_lose_draw_tie_win() {
        assert!(Outcome::Lose < Outcome::Draw);
        assert!(Outcome::Draw < Outcome::Tie);
        assert!(Outcome::Tie < Outcome::Win);
    }

    #[test]
    fn preference_within_outcomes() {
        assert!(Value::win(1) > Value::win(2));
        assert!(Value::lose(2) > Value::lose(1));
        assert!(Value::tie(1) > Value::tie(2));
        assert!(Value::tie(100) > Value::DRAW);
        assert!(Value::DRAW > Value::lose(100));
        assert!(Value::win(1000) > Value::tie(0));
    }

    proptest! {
        #[test]
        fn bits_round_trip(v in any_value()) {
            prop_assert_eq!(Value::from_bits(v.to_bits()), Some(v));
            prop_assert!(v.to_bits() < u32::MAX - 1);
        }

        #[test]
        fn order_agrees_with_outcome_order(a in any_value(), b in any_value()) {
            if a.outcome() != b.outcome() {
                prop_assert_eq!(a.cmp(&b), a.outcome().cmp(&b.outcome()));
            }
        }

        #[test]
        fn parent_flips_and_adds_one(v in any_value()) {
            let p = v.parent();
            prop_assert_eq!(p.outcome(), v.outcome().flip());
            prop_assert_eq!(p.remoteness(), v.remoteness().map(|r| r + 1));
        }
    }
}
