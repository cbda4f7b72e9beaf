//! Every wrapper that changes nothing about a capability passes all of it
//! on: each impl here is generated from the capability's own declaration
//! (see `capability.rs`), so no method, fast path or hook is left behind.

// The types the capabilities' signatures name.
use crate::{ChildCount, ChildIndices, ParentIndices, ParentVisitor, Tier};

// References: a game lent to a solver keeps every capability.
forward!(indexed_methods impl[G: crate::Indexed + ?Sized] for &G => G, |s| (**s));
forward!(indexed_children_methods impl[G: crate::IndexedChildren + ?Sized] for &G => G, |s| (**s));
forward!(unmoves_methods impl[G: crate::Unmoves + ?Sized] for &G => G, |s| (**s));
// (Sized: the visiting fast path is for sized games.)
forward!(indexed_unmoves_methods impl[G: crate::IndexedUnmoves] for &G => G, |s| (**s));
forward!(symmetric_methods impl[G: crate::Symmetric + ?Sized] for &G => G, |s| (**s));
forward!(tiered_methods impl[G: crate::Tiered + ?Sized] for &G => G, |s| (**s));
forward!(tiered_symmetric_methods impl[G: crate::TieredSymmetric + ?Sized] for &G => G, |s| (**s));

// Misère play changes how a game ends, nothing else.
forward!(indexed_methods impl[G: crate::Indexed] for crate::Misere<G> => G, |s| s.0);
forward!(indexed_children_methods impl[G: crate::IndexedChildren] for crate::Misere<G> => G, |s| s.0);
forward!(unmoves_methods impl[G: crate::Unmoves] for crate::Misere<G> => G, |s| s.0);
forward!(indexed_unmoves_methods impl[G: crate::IndexedUnmoves] for crate::Misere<G> => G, |s| s.0);
forward!(symmetric_methods impl[G: crate::Symmetric] for crate::Misere<G> => G, |s| s.0);
forward!(tiered_methods impl[G: crate::Tiered] for crate::Misere<G> => G, |s| s.0);
forward!(tiered_symmetric_methods impl[G: crate::TieredSymmetric] for crate::Misere<G> => G, |s| s.0);

// One tier of an indexed game: its positions, indices, children, parents
// and symmetries are the game's.
forward!(indexed_methods impl[G: crate::Indexed] for crate::OneTier<G> => G, |s| s.0);
forward!(indexed_children_methods impl[G: crate::IndexedChildren] for crate::OneTier<G> => G, |s| s.0);
forward!(unmoves_methods impl[G: crate::Indexed + crate::Unmoves] for crate::OneTier<G> => G, |s| s.0);
forward!(indexed_unmoves_methods impl[G: crate::IndexedUnmoves] for crate::OneTier<G> => G, |s| s.0);
forward!(symmetric_methods impl[G: crate::Indexed + crate::Symmetric] for crate::OneTier<G> => G, |s| s.0);

// The canonical game's canonical positions and children are its game's.
forward!(tiered_symmetric_methods impl[G: crate::TieredSymmetric] for crate::Canonical<G> => G, |s| s.0);

#[cfg(test)]
mod tests {
    use crate::{
        ChildIndices, Game, Indexed, IndexedChildren, IndexedUnmoves, Misere, ParentIndices,
        ParentVisitor, Symmetric, Tiered, TieredSymmetric, Unmoves,
    };

    /// A game whose fast paths answer differently from the defaults, so a
    /// wrapper that dropped one is seen.
    struct Marked;

    impl Game for Marked {
        type Position = u64;
        type Move = u64;
        fn moves(&self, n: &u64, out: &mut Vec<u64>) {
            if *n > 0 {
                out.push(1);
            }
        }
        fn play(&self, n: &u64, t: &u64) -> u64 {
            n - t
        }
    }

    impl Indexed for Marked {
        fn size(&self) -> u64 {
            10
        }
        fn index(&self, n: &u64) -> u64 {
            *n
        }
        fn position(&self, i: u64) -> Option<u64> {
            (i < 10).then_some(i)
        }
    }

    impl IndexedChildren for Marked {
        fn child_indices(&self, _: u64, out: &mut ChildIndices, _: &mut Vec<u64>) {
            out.singles.push(77);
        }
    }

    impl Unmoves for Marked {
        fn unmoves(&self, n: &u64, out: &mut Vec<u64>) {
            if *n < 9 {
                out.push(n + 1);
            }
        }
    }

    impl IndexedUnmoves for Marked {
        fn terminal_indices(&self, out: &mut Vec<u64>) -> bool {
            out.push(0);
            true
        }
        fn child_counts<T: crate::ChildCount>(&self, _: u64, out: &mut [T]) -> bool {
            out.fill(T::saturating(5));
            true
        }
        fn unmove_indices(&self, _: u64, out: &mut ParentIndices, _: &mut Vec<u64>) {
            out.singles.push(55);
        }
        fn visit_unmove_indices<V: ParentVisitor>(
            &self,
            _: u64,
            _: &mut ParentIndices,
            _: &mut Vec<u64>,
            visit: &mut V,
        ) {
            visit.run(crate::Run::range(66..69).except(67));
        }
    }

    impl Tiered for Marked {
        fn tiers(&self) -> Vec<crate::Tier> {
            vec![0]
        }
        fn tier(&self, _: &u64) -> crate::Tier {
            0
        }
        fn child_tiers(&self, _: crate::Tier, _: &mut Vec<crate::Tier>) {}
        fn tier_size(&self, _: crate::Tier) -> u64 {
            10
        }
        fn tier_index(&self, n: &u64) -> u64 {
            *n
        }
        fn tier_position(&self, _: crate::Tier, i: u64) -> Option<u64> {
            (i < 10).then_some(i)
        }
        fn tier_name(&self, _: crate::Tier) -> String {
            "marked".into()
        }
        fn child_tier_indices(&self, _: &u64, out: &mut Vec<(crate::Tier, u64)>, _: &mut Vec<u64>) {
            out.push((0, 99));
        }
    }

    impl Symmetric for Marked {
        fn symmetric(&self, n: &u64, out: &mut Vec<u64>) {
            out.push(*n);
        }
        fn canonical(&self, n: &u64) -> u64 {
            *n
        }
        fn is_identity(&self) -> bool {
            true
        }
    }

    impl TieredSymmetric for Marked {
        fn visit_canonical_tier(
            &self,
            _: crate::Tier,
            _: std::ops::Range<u64>,
            f: &mut dyn FnMut(u64, u64),
        ) {
            f(88, 88);
        }
        fn canonical_child_tier_indices(
            &self,
            _: &u64,
            out: &mut Vec<(crate::Tier, u64)>,
            _: &mut Vec<u64>,
        ) {
            out.push((0, 44));
        }
    }

    fn fast_paths<G>(g: &G)
    where
        G: IndexedChildren<Position = u64, Move = u64> + IndexedUnmoves + Tiered + TieredSymmetric,
    {
        let mut ends = Vec::new();
        assert!(g.terminal_indices(&mut ends));
        assert_eq!(ends, [0]);
        let (mut wide, mut narrow) = ([0u32; 2], [0u16; 2]);
        assert!(g.child_counts(0, &mut wide) && g.child_counts(0, &mut narrow));
        assert_eq!((wide, narrow), ([5, 5], [5, 5]));
        let mut parents = ParentIndices::default();
        g.unmove_indices(3, &mut parents, &mut Vec::new());
        assert_eq!(parents.singles, [55]);
        let mut seen = ParentIndices::default();
        g.visit_unmove_indices(3, &mut parents, &mut Vec::new(), &mut seen);
        assert_eq!(seen.iter().collect::<Vec<_>>(), [66, 68]);
        assert!(seen.singles.is_empty());
        let mut kids = ChildIndices::default();
        g.child_indices(3, &mut kids, &mut Vec::new());
        assert_eq!(kids.singles, [77]);
        let mut out = Vec::new();
        g.child_tier_indices(&3, &mut out, &mut Vec::new());
        assert_eq!(out, [(0, 99)]);
        assert_eq!(g.tier_name(0), "marked");
        assert_eq!(g.size(), 10);
        // The tiered hooks of a symmetric game, which the hand-written
        // forwarding lost (they were methods of `Symmetric` bounded by
        // `Self: Tiered`).
        let mut seen = Vec::new();
        g.visit_canonical_tier(0, 0..10, &mut |i, _| seen.push(i));
        assert_eq!(seen, [88]);
        out.clear();
        g.canonical_child_tier_indices(&3, &mut out, &mut Vec::new());
        assert_eq!(out, [(0, 44)]);
    }

    #[test]
    fn wrappers_keep_the_fast_paths() {
        fast_paths(&Marked);
        fast_paths(&&Marked);
        fast_paths(&Misere(Marked));
        fast_paths(&&Misere(&Marked));
        // `Canonical` reads its tiers and children through the hooks.
        let canonical = crate::Canonical(Marked);
        fast_hooks(&canonical);
        fast_hooks(&crate::Canonical(Misere(&Marked)));
        // One tier keeps the game's indexed fast paths.
        indexed_paths(&crate::OneTier(Marked));
        indexed_paths(&crate::OneTier(Misere(&Marked)));
        // The canonical game of an identity symmetry is the game: its
        // indexed fast paths are passed on.
        indexed_paths(&crate::Canonical(Marked));
        indexed_paths(&crate::Canonical(Misere(&Marked)));
    }

    fn indexed_paths<G>(g: &G)
    where
        G: IndexedChildren<Position = u64, Move = u64> + IndexedUnmoves + Symmetric,
    {
        let mut ends = Vec::new();
        assert!(g.terminal_indices(&mut ends));
        let mut narrow = [0u16; 3];
        assert!(g.child_counts(0, &mut narrow));
        assert_eq!(narrow, [5; 3]);
        let mut seen = ParentIndices::default();
        g.visit_unmove_indices(3, &mut ParentIndices::default(), &mut Vec::new(), &mut seen);
        assert_eq!(seen.iter().collect::<Vec<_>>(), [66, 68]);
        let mut kids = ChildIndices::default();
        g.child_indices(3, &mut kids, &mut Vec::new());
        assert_eq!(kids.singles, [77]);
        assert_eq!(g.canonical(&4), 4);
        assert!(g.is_identity());
    }

    fn fast_hooks<G: Tiered<Position = u64>>(g: &G) {
        let mut seen = Vec::new();
        g.visit_tier(0, 0..10, &mut |i, _| seen.push(i));
        assert_eq!(seen, [88]);
        let mut out = Vec::new();
        let mut moves = Vec::new();
        g.child_tier_indices(&3, &mut out, &mut moves);
        assert_eq!(out, [(0, 44)]);
    }
}
