//! [`Symmetric`]: games whose positions come in classes of equal value.

use crate::{Game, Outcome, Tier, Tiered};

capability! {
    macro symmetric_methods;
    /// A game with symmetries: maps of positions to positions that keep the
    /// rules (Connect Four's left–right mirror, the 8 symmetries of Teeko's
    /// square), so symmetric positions have the same value.
    ///
    /// Solvers that see this trait store one position of each class, the
    /// canonical one, and look any other up through [`Symmetric::canonical`].
    ///
    /// The promises (checked by `solver_retro::check_game`):
    /// * `canonical(p)` is among `symmetric(p)`;
    /// * `canonical(q) == canonical(p)` for every `q` in `symmetric(p)`;
    /// * with [`crate::Tiered`], `canonical(p)` lies in the tier of `p`.
    ///
    /// ```
    /// use game_core::{Game, Symmetric};
    ///
    /// /// A token on squares -3..=3 that moves one square either way; the
    /// /// mirror x → -x keeps the rules.
    /// struct Line;
    /// impl Game for Line {
    ///     type Position = i8;
    ///     type Move = i8;
    ///     fn moves(&self, x: &i8, out: &mut Vec<i8>) { out.extend([-1, 1].into_iter().filter(|d| (x + d).abs() <= 3)) }
    ///     fn play(&self, x: &i8, d: &i8) -> i8 { x + d }
    /// }
    /// impl Symmetric for Line {
    ///     fn symmetric(&self, x: &i8, out: &mut Vec<i8>) { out.extend([*x, -x]) }
    ///     fn canonical(&self, x: &i8) -> i8 { x.abs() }
    /// }
    /// assert_eq!(Line.canonical(&-2), 2);
    /// assert_eq!(game_core::orbit_size(&Line, &0, &mut Vec::new()), 1);
    /// assert_eq!(game_core::orbit_size(&Line, &-2, &mut Vec::new()), 2);
    /// ```
    pub trait Symmetric: Game {
        /// Appends to `out` every position symmetric to `pos`, `pos` itself
        /// included (repeats are allowed).
        fn symmetric(&self, pos: &Self::Position, out: &mut Vec<Self::Position>);

        /// The canonical position of `pos`'s class: the same for every position
        /// of the class, and one of them.
        fn canonical(&self, pos: &Self::Position) -> Self::Position;

        /// Whether the symmetry is the identity: every position is its
        /// class's only member (`symmetric(p)` gives only `p`, and
        /// `canonical(p) == p`). Then [`Canonical`] of the game is the game
        /// itself and passes on its fast paths (children and parents by
        /// index, bulk counts, the terminal list) instead of rebuilding
        /// them from moves. By default `false`; a promise checked by
        /// `solver_retro::GameCheck::symmetric`.
        fn is_identity(&self) -> bool {
            false
        }
    }
}

capability! {
    macro tiered_symmetric_methods;
    /// The fast paths of a game both [`Tiered`] and [`Symmetric`]: how
    /// [`Canonical`] walks a tier's canonical positions and finds the
    /// canonical children of a position. Every method has a default, so
    /// `impl TieredSymmetric for G {}` is enough; a game whose index lets
    /// it skip non-canonical positions, or canonicalize children as it
    /// makes them, overrides them.
    ///
    /// (A capability of its own, not methods of [`Symmetric`] bounded by
    /// `Self: Tiered`: a wrapper such as [`Misere`](crate::Misere) passes a
    /// capability on only when it can name it as a bound on the game it
    /// holds.)
    pub trait TieredSymmetric: Tiered + Symmetric {
        /// For a tiered game: calls `f` with the canonical positions of `tier`
        /// whose index lies in `range`, in index order. The default filters
        /// [`Tiered::visit_tier`] by
        /// [`Symmetric::canonical`]; a game that can skip whole blocks of
        /// non-canonical positions overrides it. [`Canonical`] walks its tiers
        /// with it.
        fn visit_canonical_tier(
            &self,
            tier: Tier,
            range: std::ops::Range<u64>,
            f: &mut dyn FnMut(u64, Self::Position),
        ) {
            self.visit_tier(tier, range, &mut |i, p| {
                if self.canonical(&p) == p {
                    f(i, p);
                }
            });
        }

        /// For a tiered game: appends the tier and tier index of the canonical
        /// form of the child reached by each move at `pos` (not over). The
        /// default plays each move and canonicalizes the child once.
        /// [`Canonical`] gives its children with it.
        fn canonical_child_tier_indices(
            &self,
            pos: &Self::Position,
            out: &mut Vec<(Tier, u64)>,
            moves: &mut Vec<Self::Move>,
        ) {
            moves.clear();
            self.moves(pos, moves);
            for m in moves.iter() {
                let c = self.canonical(&self.play(pos, m));
                out.push((self.tier(&c), self.tier_index(&c)));
            }
        }
    }
}

/// The number of distinct positions symmetric to `pos` (itself included),
/// using `scratch` as a buffer: how many positions a canonical one stands
/// for when counting all positions.
pub fn orbit_size<G: Symmetric + ?Sized>(
    game: &G,
    pos: &G::Position,
    scratch: &mut Vec<G::Position>,
) -> u64 {
    scratch.clear();
    game.symmetric(pos, scratch);
    let mut n = 0u64;
    for i in 0..scratch.len() {
        if !scratch[..i].contains(&scratch[i]) {
            n += 1;
        }
    }
    n
}

/// A symmetric game seen through its canonical positions: every move leads
/// to the canonical form of the position it reaches, and only canonical
/// positions have an index. Any solver run on `Canonical(game)` stores one
/// position of each class; look any position up by its
/// [`Symmetric::canonical`] form.
///
/// It is sound because symmetric positions have the same value: a class's
/// children are the classes of one member's children, and its parents
/// (through [`crate::Unmoves`]) the classes of one member's parents,
/// counted once each.
///
/// The game's [`Symmetric`] is trusted, as the game's moves are: a
/// `canonical` that is not one fixed member of the class (one that gives
/// another member for each member, or a position outside the class) makes
/// the solvers' values wrong, and they cannot tell — found on a small game,
/// `solver_retro::solve_unmoves` called every position a draw. Check a
/// new implementation with `solver_retro::GameCheck` (`gamesolve <game>
/// check` for the built-in games), which tests both promises.
///
/// ```
/// use game_core::{Canonical, Game, Symmetric};
///
/// struct Line; // squares -3..=3, step one either way; mirror x → -x
/// impl Game for Line {
///     type Position = i8;
///     type Move = i8;
///     fn moves(&self, x: &i8, out: &mut Vec<i8>) { out.extend([-1, 1].into_iter().filter(|d| (x + d).abs() <= 3)) }
///     fn play(&self, x: &i8, d: &i8) -> i8 { x + d }
/// }
/// impl Symmetric for Line {
///     fn symmetric(&self, x: &i8, out: &mut Vec<i8>) { out.extend([*x, -x]) }
///     fn canonical(&self, x: &i8) -> i8 { x.abs() }
/// }
/// assert_eq!(Canonical(Line).play(&0, &-1), 1);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Canonical<G>(pub G);

// Moves lead to canonical positions; the rest of the game is its game's.
forward!(game_methods impl[G: Symmetric] for Canonical<G> => G, |s| s.0, own {
    fn play(&self, pos: &Self::Position, mv: &Self::Move) -> Self::Position {
        self.0.canonical(&self.0.play(pos, mv))
    }
});

forward!(symmetric_methods impl[G: Symmetric] for Canonical<G> => G, |s| s.0);

// Indices, children and parents are the canonical positions' own: the
// defaults, built on the canonical moves above, not the game's (whose
// counts and parents speak of every position of a class) — except with
// the identity symmetry, where the canonical game is the game and its fast
// paths are passed on.
impl<G: Symmetric + crate::Indexed> crate::Indexed for Canonical<G> {
    fn size(&self) -> u64 {
        self.0.size()
    }
    fn index(&self, pos: &Self::Position) -> u64 {
        self.0.index(&self.0.canonical(pos))
    }
    fn position(&self, index: u64) -> Option<Self::Position> {
        self.0.position(index).filter(|p| self.0.canonical(p) == *p)
    }
}

impl<G: Symmetric + crate::Unmoves> crate::Unmoves for Canonical<G> {
    fn unmoves(&self, pos: &Self::Position, out: &mut Vec<Self::Position>) {
        let first = out.len();
        self.0.unmoves(pos, out);
        if self.0.is_identity() {
            // The game's own parents: canonical and distinct already.
            return;
        }
        // The game's parents are distinct, so two can meet only where
        // canonicalizing changed one: those are moved to the end and each
        // kept if it meets none before it — a pass, and a comparison for
        // each changed parent with the rest, not one for every pair.
        let mut end = out.len();
        let mut k = first;
        while k < end {
            let c = self.0.canonical(&out[k]);
            if c == out[k] {
                k += 1;
            } else {
                out[k] = c;
                end -= 1;
                out.swap(k, end);
            }
        }
        let mut keep = end;
        for j in end..out.len() {
            if !out[first..keep].contains(&out[j]) {
                out.swap(keep, j);
                keep += 1;
            }
        }
        out.truncate(keep);
    }

    fn child_count(
        &self,
        pos: &Self::Position,
        moves: &mut Vec<Self::Move>,
        children: &mut Vec<Self::Position>,
    ) -> usize {
        if self.0.is_identity() {
            return self.0.child_count(pos, moves, children);
        }
        // The distinct canonical children (the trait's default, over the
        // canonical moves).
        moves.clear();
        children.clear();
        self.moves(pos, moves);
        for m in moves.iter() {
            let c = self.play(pos, m);
            if !children.contains(&c) {
                children.push(c);
            }
        }
        children.len()
    }
}

/// With the identity symmetry ([`Symmetric::is_identity`]) the game's own
/// children by index; otherwise from the canonical moves.
impl<G: Symmetric + crate::IndexedChildren> crate::IndexedChildren for Canonical<G> {
    fn child_indices(
        &self,
        index: u64,
        out: &mut crate::ChildIndices,
        moves: &mut Vec<Self::Move>,
    ) {
        if self.0.is_identity() {
            self.0.child_indices(index, out, moves);
        } else {
            crate::child_indices_by_moves(self, index, out, moves);
        }
    }
}

/// With the identity symmetry ([`Symmetric::is_identity`]) the game's own
/// fast paths: the terminal list, bulk counts, parents by index; otherwise
/// the defaults, built on the canonical moves and unmoves.
impl<G: Symmetric + crate::IndexedUnmoves> crate::IndexedUnmoves for Canonical<G> {
    fn terminal_indices(&self, out: &mut Vec<u64>) -> bool {
        self.0.is_identity() && self.0.terminal_indices(out)
    }

    fn child_counts<T: crate::ChildCount>(&self, first: u64, out: &mut [T]) -> bool {
        self.0.is_identity() && self.0.child_counts(first, out)
    }

    fn unmove_indices(
        &self,
        index: u64,
        out: &mut crate::ParentIndices,
        scratch: &mut Vec<Self::Position>,
    ) {
        if self.0.is_identity() {
            self.0.unmove_indices(index, out, scratch);
            return;
        }
        let Some(pos) = crate::Indexed::position(self, index) else {
            return;
        };
        scratch.clear();
        crate::Unmoves::unmoves(self, &pos, scratch);
        out.singles
            .extend(scratch.iter().map(|p| crate::Indexed::index(self, p)));
    }

    fn visit_unmove_indices<V: crate::ParentVisitor>(
        &self,
        index: u64,
        buf: &mut crate::ParentIndices,
        scratch: &mut Vec<Self::Position>,
        visit: &mut V,
    ) {
        if self.0.is_identity() {
            self.0.visit_unmove_indices(index, buf, scratch, visit);
            return;
        }
        buf.clear();
        self.unmove_indices(index, buf, scratch);
        buf.send_to(visit);
    }
}

// The tiers are the game's; a tier's positions, indices and children are
// its canonical ones, through the game's hooks.
forward!(tiered_methods impl[G: TieredSymmetric] for Canonical<G> => G, |s| s.0, own {
    fn tier_index(&self, pos: &Self::Position) -> u64 {
        self.0.tier_index(&self.0.canonical(pos))
    }
    fn tier_position(&self, tier: crate::Tier, index: u64) -> Option<Self::Position> {
        self.0
            .tier_position(tier, index)
            .filter(|p| self.0.canonical(p) == *p)
    }
    fn visit_tier(
        &self,
        tier: crate::Tier,
        range: std::ops::Range<u64>,
        f: &mut dyn FnMut(u64, Self::Position),
    ) {
        self.0.visit_canonical_tier(tier, range, f);
    }
    fn child_tier_indices(
        &self,
        pos: &Self::Position,
        out: &mut Vec<(crate::Tier, u64)>,
        moves: &mut Vec<Self::Move>,
    ) {
        self.0.canonical_child_tier_indices(pos, out, moves);
    }
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Unmoves;

    /// A token on squares -3..=3 stepping one square either way, mirrored
    /// x → -x; `identity` says the symmetry is the identity (a lie here,
    /// to see that `Canonical` then trusts the game).
    struct Line {
        identity: bool,
    }
    impl Game for Line {
        type Position = i8;
        type Move = i8;
        fn moves(&self, x: &i8, out: &mut Vec<i8>) {
            out.extend([-1, 1].into_iter().filter(|d| (x + d).abs() <= 3));
        }
        fn play(&self, x: &i8, d: &i8) -> i8 {
            x + d
        }
    }
    impl Symmetric for Line {
        fn symmetric(&self, x: &i8, out: &mut Vec<i8>) {
            out.extend([*x, -x]);
        }
        fn canonical(&self, x: &i8) -> i8 {
            x.abs()
        }
        fn is_identity(&self) -> bool {
            self.identity
        }
    }
    impl Unmoves for Line {
        fn unmoves(&self, x: &i8, out: &mut Vec<i8>) {
            out.extend([x - 1, x + 1].into_iter().filter(|p| p.abs() <= 3));
        }
    }

    /// The canonical parents are the classes of the game's parents, each
    /// once, in a buffer that already holds others (left as they were);
    /// and the distinct canonical children are counted.
    #[test]
    fn canonical_parents_meet_once_and_children_are_counted_by_class() {
        let g = Canonical(Line { identity: false });
        // 0's parents -1 and 1 are one class; 2's are 1 and 3; 1's are 0
        // and 2.
        for (x, want) in [(0, vec![1]), (2, vec![1, 3]), (1, vec![0, 2]), (3, vec![2])] {
            let mut out = vec![9, 9];
            g.unmoves(&x, &mut out);
            let mut got = out[2..].to_vec();
            got.sort_unstable();
            assert_eq!(out[..2], [9, 9]);
            assert_eq!(got, want, "parents of {x}");
        }
        // 0's children -1 and 1 are one class; 1's are 0 and 2.
        let (mut moves, mut kids) = (Vec::new(), Vec::new());
        assert_eq!(g.child_count(&0, &mut moves, &mut kids), 1);
        assert_eq!(g.child_count(&1, &mut moves, &mut kids), 2);
        // Said to be the identity, the game's own parents and counts pass
        // on untouched.
        let trusted = Canonical(Line { identity: true });
        let mut out = Vec::new();
        trusted.unmoves(&0, &mut out);
        assert_eq!(out, [-1, 1]);
        assert_eq!(trusted.child_count(&0, &mut moves, &mut kids), 2);
    }
}
