//! [`Misere`]: misère play as a wrapper around any game.

use crate::{Game, Indexed, Outcome};

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

impl<G: Game> Game for Misere<G> {
    type Position = G::Position;
    type Move = G::Move;

    fn moves(&self, pos: &Self::Position, out: &mut Vec<Self::Move>) {
        self.0.moves(pos, out);
    }

    fn play(&self, pos: &Self::Position, mv: &Self::Move) -> Self::Position {
        self.0.play(pos, mv)
    }

    fn outcome(&self, pos: &Self::Position) -> Option<Outcome> {
        self.0.outcome(pos).map(Outcome::flip)
    }

    fn stalemate(&self, pos: &Self::Position) -> Outcome {
        self.0.stalemate(pos).flip()
    }
}

impl<G: Indexed> Indexed for Misere<G> {
    fn size(&self) -> u64 {
        self.0.size()
    }
    fn index(&self, pos: &Self::Position) -> u64 {
        self.0.index(pos)
    }
    fn position(&self, index: u64) -> Option<Self::Position> {
        self.0.position(index)
    }
}

impl<G: crate::Unmoves> crate::Unmoves for Misere<G> {
    fn unmoves(&self, pos: &Self::Position, out: &mut Vec<Self::Position>) {
        self.0.unmoves(pos, out);
    }
    fn child_count(
        &self,
        pos: &Self::Position,
        moves: &mut Vec<Self::Move>,
        children: &mut Vec<Self::Position>,
    ) -> usize {
        self.0.child_count(pos, moves, children)
    }
}

impl<G: crate::IndexedUnmoves> crate::IndexedUnmoves for Misere<G> {
    fn terminal_indices(&self, out: &mut Vec<u64>) -> bool {
        self.0.terminal_indices(out)
    }
    fn child_counts(&self, first: u64, out: &mut [u32]) -> bool {
        self.0.child_counts(first, out)
    }
    fn unmove_indices(
        &self,
        index: u64,
        out: &mut crate::ParentIndices,
        scratch: &mut Vec<Self::Position>,
    ) {
        self.0.unmove_indices(index, out, scratch);
    }
}

impl<G: crate::IndexedChildren> crate::IndexedChildren for Misere<G> {
    fn child_indices(
        &self,
        index: u64,
        out: &mut crate::ChildIndices,
        moves: &mut Vec<Self::Move>,
    ) {
        self.0.child_indices(index, out, moves);
    }
}

impl<G: crate::Symmetric> crate::Symmetric for Misere<G> {
    fn symmetric(&self, pos: &Self::Position, out: &mut Vec<Self::Position>) {
        self.0.symmetric(pos, out);
    }
    fn canonical(&self, pos: &Self::Position) -> Self::Position {
        self.0.canonical(pos)
    }
}

impl<G: crate::Tiered> crate::Tiered for Misere<G> {
    fn tiers(&self) -> Vec<crate::Tier> {
        self.0.tiers()
    }
    fn tier(&self, pos: &Self::Position) -> crate::Tier {
        self.0.tier(pos)
    }
    fn child_tiers(&self, tier: crate::Tier, out: &mut Vec<crate::Tier>) {
        self.0.child_tiers(tier, out);
    }
    fn tier_size(&self, tier: crate::Tier) -> u64 {
        self.0.tier_size(tier)
    }
    fn tier_index(&self, pos: &Self::Position) -> u64 {
        self.0.tier_index(pos)
    }
    fn tier_position(&self, tier: crate::Tier, index: u64) -> Option<Self::Position> {
        self.0.tier_position(tier, index)
    }
    fn leaves_tier(&self, tier: crate::Tier) -> bool {
        self.0.leaves_tier(tier)
    }
    fn tier_name(&self, tier: crate::Tier) -> String {
        self.0.tier_name(tier)
    }
    fn visit_tier(
        &self,
        tier: crate::Tier,
        range: std::ops::Range<u64>,
        f: &mut dyn FnMut(u64, Self::Position),
    ) {
        self.0.visit_tier(tier, range, f);
    }
    fn child_tier_indices(
        &self,
        pos: &Self::Position,
        out: &mut Vec<(crate::Tier, u64)>,
        moves: &mut Vec<Self::Move>,
    ) {
        self.0.child_tier_indices(pos, out, moves);
    }
}

// A misère impartial game is not `Impartial`: that trait promises normal
// play, which Sprague–Grundy values need.
