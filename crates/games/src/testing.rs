//! What the games' tests share: reproducible random numbers, and the check
//! that ties a position's unmoves to its parents' moves and its children's
//! unmoves.

use std::fmt::Display;

use game_core::{Indexed, Tiered, Unmoves};

/// splitmix64: reproducible random numbers without a dependency.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    /// The next 64 random bits.
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

/// Checks the promises between `p`'s unmoves, moves and tiers: its parents
/// are distinct, not over, valid (`valid`), indexed both ways, and each has
/// a move to `p`; unless `p` is over, its children are counted right
/// ([`Unmoves::child_count`]), lie in its tier (one that moves may stay in)
/// or in one of its child tiers, are valid, and each has `p` among its
/// parents. Returns the distinct children (none when `p` is over).
pub(crate) fn check_parents_and_children<G>(
    g: &G,
    p: &G::Position,
    valid: impl Fn(&G::Position),
) -> Vec<G::Position>
where
    G: Indexed + Unmoves + Tiered,
    G::Position: Ord + Display,
{
    let mut parents = Vec::new();
    g.unmoves(p, &mut parents);
    let mut sorted = parents.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), parents.len(), "repeated parent of {p}");
    let mut mv = Vec::new();
    for q in &parents {
        assert_eq!(g.outcome(q), None, "parent {q} of {p} is over");
        valid(q);
        assert!(g.position(g.index(q)).as_ref() == Some(q), "{q}");
        mv.clear();
        g.moves(q, &mut mv);
        assert!(
            mv.iter().any(|m| g.play(q, m) == *p),
            "{q} does not lead to {p}"
        );
    }
    if g.outcome(p).is_some() {
        return Vec::new();
    }
    mv.clear();
    g.moves(p, &mut mv);
    let mut kids: Vec<G::Position> = mv.iter().map(|m| g.play(p, m)).collect();
    kids.sort();
    kids.dedup();
    assert_eq!(
        g.child_count(p, &mut Vec::new(), &mut Vec::new()),
        kids.len(),
        "{p}"
    );
    let t = g.tier(p);
    let mut child_tiers = Vec::new();
    g.child_tiers(t, &mut child_tiers);
    for k in &kids {
        valid(k);
        let kt = g.tier(k);
        assert!(
            (kt == t && !g.leaves_tier(t)) || child_tiers.contains(&kt),
            "{p} -> {k}"
        );
        parents.clear();
        g.unmoves(k, &mut parents);
        assert!(parents.contains(p), "{p} missing from the parents of {k}");
    }
    kids
}
