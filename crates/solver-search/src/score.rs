//! Values as integer scores, so that a null-window search can compare them.
//!
//! A win in `r` plies scores `BIG − r`, a loss in `r` plies `−(BIG − r)`,
//! any tie 0: larger is better for the player to move, and a move's score
//! for the parent is `up(child)` — negated, one ply further from the end.
//! Ties keep their remoteness out of the score: a faster tie is better for
//! *both* players, which no negation orders, so the search finds a tie's
//! remoteness apart (`engine::Engine::tie_remoteness`).
//!
//! Every win scores at least `BIG − MAX_REMOTENESS` = 5 and every loss at
//! most −5, so the scores ±1 to ±4 name no value: the thresholds 2 ("wins")
//! and −2 ("does not lose") fall between outcomes.

use game_core::{Outcome, Value, MAX_REMOTENESS};

use crate::Error;

/// The score of a win in no plies (a game over, won by the player to move).
pub(crate) const BIG: i64 = MAX_REMOTENESS as i64 + 5;

/// The score of a value; `None` for a draw, which no acyclic game has.
#[inline]
pub(crate) fn score(v: Value) -> Option<i64> {
    let r = i64::from(v.remoteness()?);
    Some(match v.outcome() {
        Outcome::Win => BIG - r,
        Outcome::Lose => r - BIG,
        _ => 0,
    })
}

/// The value of an exact score (a tie without its remoteness: `tie` is
/// given).
pub(crate) fn value(s: i64, tie: u32) -> Result<Value, Error> {
    let r = |x: i64| u32::try_from(x).ok().filter(|&r| r <= MAX_REMOTENESS);
    match s {
        0 => Ok(Value::tie(tie)),
        s if s > 0 => r(BIG - s).map(Value::win).ok_or(Error::TooDeep),
        s => r(BIG + s).map(Value::lose).ok_or(Error::TooDeep),
    }
}

/// The parent's score of a move to a child of score `s`: negated, and one
/// ply further from the end. Non-increasing on every integer.
#[inline]
pub(crate) fn up(s: i64) -> i64 {
    match s {
        0 => 0,
        s if s > 0 => 1 - s,
        s => -1 - s,
    }
}

/// The threshold a child must be tested against when its parent is
/// tested against `beta`: the parent scores at least `beta` exactly when
/// some child scores *below* `child_beta(beta)` (the least score whose
/// `up` is below `beta`).
#[inline]
pub(crate) fn child_beta(beta: i64) -> i64 {
    match beta {
        0 => 2,
        b if b > 0 => -b,
        b => 2 - b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_is_the_parent_value() {
        for v in [
            Value::win(0),
            Value::win(7),
            Value::lose(0),
            Value::lose(3),
            Value::tie(4),
        ] {
            let p = value(up(score(v).unwrap()), 5).unwrap();
            let want = v.parent();
            if want.outcome() == Outcome::Tie {
                assert_eq!(p.outcome(), Outcome::Tie);
            } else {
                assert_eq!(p, want);
            }
        }
    }

    #[test]
    fn child_beta_is_the_least_score_below_beta() {
        // up(s) >= beta exactly when s < child_beta(beta), for every pair.
        for beta in -20..20 {
            for s in -30..30 {
                assert_eq!(up(s) >= beta, s < child_beta(beta), "beta {beta} s {s}");
            }
        }
        for beta in [BIG - 3, BIG, 3 - BIG, -BIG] {
            for s in [BIG - 5, BIG - 2, BIG, 2 - BIG, -BIG, 0, 5, -5] {
                assert_eq!(up(s) >= beta, s < child_beta(beta));
            }
        }
    }

    #[test]
    fn order_of_scores_is_the_order_of_values() {
        let vs = [
            Value::lose(0),
            Value::lose(9),
            Value::tie(3),
            Value::win(9),
            Value::win(1),
        ];
        for w in vs.windows(2) {
            assert!(score(w[0]) <= score(w[1]) && w[0] < w[1]);
        }
        assert_eq!(score(Value::DRAW), None);
    }
}
