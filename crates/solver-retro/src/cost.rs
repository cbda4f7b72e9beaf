//! What a whole tier solve of a game costs, estimated before anything is
//! solved: the bytes of its tables ([`tables_bytes`]) and the steps of
//! work of the solve, the walk of the positions reachable from the start
//! and the certificate ([`work`]). A command compares them with its
//! budget and words the refusal.

use game_core::{Tier, Tiered};

/// The bytes a table takes a position (one [`crate::Cell`]).
pub const TABLE_BYTES_AN_INDEX: u64 = 2;

/// The indices of every tier of `game`.
pub fn indices<G: Tiered>(game: &G) -> u64 {
    indices_of(game, |_| true)
}

/// The indices of the tiers of `game` that `which` picks (saturating).
pub fn indices_of<G: Tiered>(game: &G, which: impl Fn(Tier) -> bool) -> u64 {
    game.tiers()
        .iter()
        .filter(|&&t| which(t))
        .map(|&t| game.tier_size(t))
        .fold(0u64, u64::saturating_add)
}

/// The bytes of every tier's table of `game` held at once, in the cells
/// a solve starts each tier in: one byte a position where the tier's
/// remoteness is known to fit one ([`crate::Depths`]: Connect Four's
/// tiers), else two ([`TABLE_BYTES_AN_INDEX`]) — what a solve kept whole
/// in memory (no store to hand tiers to) holds at its end, unless a tier
/// turns out too wide for its cells (the engine checks its own memory
/// again as it widens one).
pub fn tables_bytes<G: Tiered>(game: &G) -> u64 {
    let mut depths = crate::Depths::default();
    let mut kids = Vec::new();
    let mut bytes = 0u64;
    // `tiers()` lists every tier after its child tiers.
    for t in game.tiers() {
        kids.clear();
        game.child_tiers(t, &mut kids);
        let size = game.tier_size(t);
        depths.add(t, size, game.leaves_tier(t), &kids);
        let cell = if depths.fits::<u8>(t) {
            1
        } else {
            TABLE_BYTES_AN_INDEX
        };
        bytes = bytes.saturating_add(size.saturating_mul(cell));
    }
    bytes
}

/// What part of a whole solve is estimated ([`work`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Work {
    /// The solve alone (to answer a query or play).
    Solve,
    /// The solve, the walk of the positions reachable from the start,
    /// and the certificate when `certify`; the solve of all but the
    /// `finished` indices (of tiers a store holds finished: a resumed
    /// solve does not solve them again, while the walk and the
    /// certificate read every tier).
    Whole {
        /// Whether the certificate is checked too.
        certify: bool,
        /// Indices already solved.
        finished: u64,
    },
}

/// The estimated work of [`work`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkEstimate {
    /// Indices of every tier.
    pub indices: u64,
    /// Indices left to solve (all less those finished).
    pub left: u64,
    /// Steps in all: `steps_an_index` for each index left to solve; the
    /// walk half a whole solve's, the certificate three quarters.
    pub steps: u64,
}

/// The work of `what` of a whole solve of `game`, at `steps_an_index`
/// steps an index solved (saturating).
///
/// ```
/// use game_core::{Game, Tier, Tiered};
/// use solver_retro::cost::{work, Work};
///
/// /// Take 1 from a pile of at most 3; the tier is the pile.
/// struct Take1;
/// impl Game for Take1 {
///     type Position = u64;
///     type Move = ();
///     fn moves(&self, &n: &u64, out: &mut Vec<()>) { if n > 0 { out.push(()) } }
///     fn play(&self, &n: &u64, _: &()) -> u64 { n - 1 }
/// }
/// impl Tiered for Take1 {
///     fn tiers(&self) -> Vec<Tier> { (0..=3).collect() }
///     fn tier(&self, &n: &u64) -> Tier { n }
///     fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>) { out.extend(t.checked_sub(1)) }
///     fn tier_size(&self, _: Tier) -> u64 { 1 }
///     fn tier_index(&self, _: &u64) -> u64 { 0 }
///     fn tier_position(&self, t: Tier, _: u64) -> Option<u64> { Some(t) }
///     fn leaves_tier(&self, _: Tier) -> bool { true }
/// }
/// let game = Take1; // 4 tiers of one index
/// assert_eq!(work(&game, 100, Work::Solve).steps, 400);
/// let whole = work(&game, 100, Work::Whole { certify: true, finished: 1 });
/// assert_eq!((whole.indices, whole.left), (4, 3));
/// assert_eq!(whole.steps, 300 + 200 + 300);
/// ```
pub fn work<G: Tiered>(game: &G, steps_an_index: u64, what: Work) -> WorkEstimate {
    let n = indices(game);
    // The walk and the certificate are counted in steps of a whole solve.
    let whole = n.saturating_mul(steps_an_index);
    let finished = match what {
        Work::Solve => 0,
        Work::Whole { finished, .. } => finished.min(n),
    };
    let solve = (n - finished).saturating_mul(steps_an_index);
    let steps = match what {
        Work::Solve => solve,
        Work::Whole { certify: false, .. } => solve.saturating_add(whole / 2),
        Work::Whole { certify: true, .. } => solve
            .saturating_add(whole / 2)
            .saturating_add(whole / 4 * 3),
    };
    WorkEstimate {
        indices: n,
        left: n - finished,
        steps,
    }
}

/// The work after a solve — the walk of the positions reachable from the
/// start when `walk`, the certificate when `certify` — in the model of
/// [`work`], as a share of a whole solve's (a half and three quarters):
/// what a progress estimate adds to the solve's time.
///
/// ```
/// assert_eq!(solver_retro::cost::after_share(true, true), 1.25);
/// assert_eq!(solver_retro::cost::after_share(false, false), 0.0);
/// ```
#[must_use]
pub fn after_share(walk: bool, certify: bool) -> f64 {
    let walk = if walk { 0.5 } else { 0.0 };
    let certify = if certify { 0.75 } else { 0.0 };
    walk + certify
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::Game;

    /// Tiers of the sizes given, with no moves; every move leaves its
    /// tier unless the flag says the tiers are loopy.
    struct Sized(Vec<u64>, bool);
    impl Game for Sized {
        type Position = (Tier, u64);
        type Move = ();
        fn moves(&self, _: &(Tier, u64), _: &mut Vec<()>) {}
        fn play(&self, &p: &(Tier, u64), (): &()) -> (Tier, u64) {
            p
        }
    }
    impl Tiered for Sized {
        fn tiers(&self) -> Vec<Tier> {
            (0..self.0.len() as Tier).collect()
        }
        fn tier(&self, p: &(Tier, u64)) -> Tier {
            p.0
        }
        fn child_tiers(&self, _: Tier, _: &mut Vec<Tier>) {}
        fn tier_size(&self, t: Tier) -> u64 {
            self.0[t as usize]
        }
        fn tier_index(&self, p: &(Tier, u64)) -> u64 {
            p.1
        }
        fn tier_position(&self, t: Tier, i: u64) -> Option<(Tier, u64)> {
            Some((t, i))
        }
        fn leaves_tier(&self, _: Tier) -> bool {
            !self.1
        }
    }

    /// The tables of a game are one byte a position where the remoteness
    /// is known to fit one (tiers every move leaves, with no child tiers:
    /// all ends), else two (loopy tiers of 100 and 1,000 indices may have
    /// a remoteness of 99 and 999), its indices counted from its tiers'
    /// sizes; a huge count saturates rather than wraps.
    #[test]
    fn tables_and_indices() {
        let game = Sized(vec![3, 10, 1, 6], false);
        let by_hand = 20;
        assert_eq!(indices(&game), by_hand);
        assert_eq!(tables_bytes(&game), by_hand);
        // Loopy: 2 bytes past 78 moves inside a tier, 1 below.
        assert_eq!(tables_bytes(&Sized(vec![50, 100, 1_000], true)), 50 + 2_200);
        assert_eq!(indices_of(&game, |t| t == 0), game.tier_size(0));
        let huge = work(
            &game,
            u64::MAX,
            Work::Whole {
                certify: true,
                finished: 0,
            },
        );
        assert_eq!(huge.steps, u64::MAX);
        // More finished than there are indices counts as all of them.
        let done = work(
            &game,
            7,
            Work::Whole {
                certify: false,
                finished: 99,
            },
        );
        assert_eq!((done.left, done.steps), (0, by_hand * 7 / 2));
        // Sizes whose sum passes u64 saturate.
        let vast = Sized(vec![u64::MAX, 5], false);
        assert_eq!(indices(&vast), u64::MAX);
        assert_eq!(tables_bytes(&vast), u64::MAX);
    }
}
