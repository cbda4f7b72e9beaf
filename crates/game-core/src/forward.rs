//! Forwarding every capability through a wrapper, written once.
//!
//! A wrapper that changes nothing about a capability — [`Misere`](crate::Misere)
//! changes only how the game ends, `&G` nothing at all — must pass on every
//! method of it, the optional fast paths included: a wrapper that forgot
//! one would silently fall back to the slow default. `forward!` (below) holds the
//! list of methods of each capability in one place, so a method added to a
//! trait is added here once and reaches every wrapper.
//!
//! (`Symmetric`'s tiered hooks, `visit_canonical_tier` and
//! `canonical_child_tier_indices`, are bounded by `Self: Tiered`, a bound a
//! generic wrapper cannot pass down to the game it holds; they keep their
//! defaults, which are correct, only slower.)

/// Implements a capability trait for a wrapper type, each method calling
/// the same method of the game `|s| inner` gives.
///
/// `forward!(Tiered impl[G: Tiered] for Misere<G>, |s| s.0);`
macro_rules! forward {
    ($cap:ident impl[$($gen:tt)*] for $ty:ty, |$s:ident| $inner:expr) => {
        forward!(@one $cap [$($gen)*] $ty, $s, $inner);
    };
    (@one Indexed [$($gen:tt)*] $ty:ty, $s:ident, $inner:expr) => {
        impl<$($gen)*> $crate::Indexed for $ty {
            fn size(&self) -> u64 {
                let $s = self;
                $inner.size()
            }
            fn index(&self, pos: &Self::Position) -> u64 {
                let $s = self;
                $inner.index(pos)
            }
            fn position(&self, index: u64) -> Option<Self::Position> {
                let $s = self;
                $inner.position(index)
            }
        }
    };
    (@one IndexedChildren [$($gen:tt)*] $ty:ty, $s:ident, $inner:expr) => {
        impl<$($gen)*> $crate::IndexedChildren for $ty {
            fn child_indices(
                &self,
                index: u64,
                out: &mut $crate::ChildIndices,
                moves: &mut Vec<Self::Move>,
            ) {
                let $s = self;
                $inner.child_indices(index, out, moves);
            }
        }
    };
    (@one Unmoves [$($gen:tt)*] $ty:ty, $s:ident, $inner:expr) => {
        impl<$($gen)*> $crate::Unmoves for $ty {
            fn unmoves(&self, pos: &Self::Position, out: &mut Vec<Self::Position>) {
                let $s = self;
                $inner.unmoves(pos, out);
            }
            fn child_count(
                &self,
                pos: &Self::Position,
                moves: &mut Vec<Self::Move>,
                children: &mut Vec<Self::Position>,
            ) -> usize {
                let $s = self;
                $inner.child_count(pos, moves, children)
            }
        }
    };
    (@one IndexedUnmoves [$($gen:tt)*] $ty:ty, $s:ident, $inner:expr) => {
        impl<$($gen)*> $crate::IndexedUnmoves for $ty {
            fn terminal_indices(&self, out: &mut Vec<u64>) -> bool {
                let $s = self;
                $inner.terminal_indices(out)
            }
            fn child_counts(&self, first: u64, out: &mut [u32]) -> bool {
                let $s = self;
                $inner.child_counts(first, out)
            }
            fn child_counts_narrow(&self, first: u64, out: &mut [u16]) -> bool {
                let $s = self;
                $inner.child_counts_narrow(first, out)
            }
            fn unmove_indices(
                &self,
                index: u64,
                out: &mut $crate::ParentIndices,
                scratch: &mut Vec<Self::Position>,
            ) {
                let $s = self;
                $inner.unmove_indices(index, out, scratch);
            }
            fn visit_unmove_indices<V: $crate::ParentVisitor>(
                &self,
                index: u64,
                buf: &mut $crate::ParentIndices,
                scratch: &mut Vec<Self::Position>,
                visit: &mut V,
            ) {
                let $s = self;
                $inner.visit_unmove_indices(index, buf, scratch, visit);
            }
        }
    };
    (@one Symmetric [$($gen:tt)*] $ty:ty, $s:ident, $inner:expr) => {
        impl<$($gen)*> $crate::Symmetric for $ty {
            fn symmetric(&self, pos: &Self::Position, out: &mut Vec<Self::Position>) {
                let $s = self;
                $inner.symmetric(pos, out);
            }
            fn canonical(&self, pos: &Self::Position) -> Self::Position {
                let $s = self;
                $inner.canonical(pos)
            }
        }
    };
    (@one Tiered [$($gen:tt)*] $ty:ty, $s:ident, $inner:expr) => {
        impl<$($gen)*> $crate::Tiered for $ty {
            fn tiers(&self) -> Vec<$crate::Tier> {
                let $s = self;
                $inner.tiers()
            }
            fn tier(&self, pos: &Self::Position) -> $crate::Tier {
                let $s = self;
                $inner.tier(pos)
            }
            fn child_tiers(&self, tier: $crate::Tier, out: &mut Vec<$crate::Tier>) {
                let $s = self;
                $inner.child_tiers(tier, out);
            }
            fn tier_size(&self, tier: $crate::Tier) -> u64 {
                let $s = self;
                $inner.tier_size(tier)
            }
            fn tier_index(&self, pos: &Self::Position) -> u64 {
                let $s = self;
                $inner.tier_index(pos)
            }
            fn tier_position(&self, tier: $crate::Tier, index: u64) -> Option<Self::Position> {
                let $s = self;
                $inner.tier_position(tier, index)
            }
            fn leaves_tier(&self, tier: $crate::Tier) -> bool {
                let $s = self;
                $inner.leaves_tier(tier)
            }
            fn tier_name(&self, tier: $crate::Tier) -> String {
                let $s = self;
                $inner.tier_name(tier)
            }
            fn visit_tier(
                &self,
                tier: $crate::Tier,
                range: std::ops::Range<u64>,
                f: &mut dyn FnMut(u64, Self::Position),
            ) {
                let $s = self;
                $inner.visit_tier(tier, range, f);
            }
            fn child_tier_indices(
                &self,
                pos: &Self::Position,
                out: &mut Vec<($crate::Tier, u64)>,
                moves: &mut Vec<Self::Move>,
            ) {
                let $s = self;
                $inner.child_tier_indices(pos, out, moves);
            }
        }
    };
}

// References: a game lent to a solver keeps every capability.
forward!(Indexed impl[G: crate::Indexed + ?Sized] for &G, |s| (**s));
forward!(IndexedChildren impl[G: crate::IndexedChildren + ?Sized] for &G, |s| (**s));
forward!(Unmoves impl[G: crate::Unmoves + ?Sized] for &G, |s| (**s));
// (Sized: the visiting fast path is for sized games.)
forward!(IndexedUnmoves impl[G: crate::IndexedUnmoves] for &G, |s| (**s));
forward!(Symmetric impl[G: crate::Symmetric + ?Sized] for &G, |s| (**s));
forward!(Tiered impl[G: crate::Tiered + ?Sized] for &G, |s| (**s));

// Misère play changes how a game ends, nothing else.
forward!(Indexed impl[G: crate::Indexed] for crate::Misere<G>, |s| s.0);
forward!(IndexedChildren impl[G: crate::IndexedChildren] for crate::Misere<G>, |s| s.0);
forward!(Unmoves impl[G: crate::Unmoves] for crate::Misere<G>, |s| s.0);
forward!(IndexedUnmoves impl[G: crate::IndexedUnmoves] for crate::Misere<G>, |s| s.0);
forward!(Symmetric impl[G: crate::Symmetric] for crate::Misere<G>, |s| s.0);
forward!(Tiered impl[G: crate::Tiered] for crate::Misere<G>, |s| s.0);

#[cfg(test)]
mod tests {
    use crate::{
        ChildIndices, Game, Indexed, IndexedChildren, IndexedUnmoves, Misere, ParentIndices,
        ParentVisitor, Tiered, Unmoves,
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
        fn child_counts(&self, _: u64, out: &mut [u32]) -> bool {
            out.fill(5);
            true
        }
        fn child_counts_narrow(&self, _: u64, out: &mut [u16]) -> bool {
            out.fill(6);
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
            visit.run(66..68);
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

    fn fast_paths<G>(g: &G)
    where
        G: IndexedChildren<Position = u64, Move = u64> + IndexedUnmoves + Tiered,
    {
        let mut ends = Vec::new();
        assert!(g.terminal_indices(&mut ends));
        assert_eq!(ends, [0]);
        let (mut wide, mut narrow) = ([0u32; 2], [0u16; 2]);
        assert!(g.child_counts(0, &mut wide) && g.child_counts_narrow(0, &mut narrow));
        assert_eq!((wide, narrow), ([5, 5], [6, 6]));
        let mut parents = ParentIndices::default();
        g.unmove_indices(3, &mut parents, &mut Vec::new());
        assert_eq!(parents.singles, [55]);
        let mut seen = ParentIndices::default();
        g.visit_unmove_indices(3, &mut parents, &mut Vec::new(), &mut seen);
        assert_eq!(seen.iter().collect::<Vec<_>>(), [66, 67]);
        assert!(seen.singles.is_empty());
        let mut kids = ChildIndices::default();
        g.child_indices(3, &mut kids, &mut Vec::new());
        assert_eq!(kids.singles, [77]);
        let mut out = Vec::new();
        g.child_tier_indices(&3, &mut out, &mut Vec::new());
        assert_eq!(out, [(0, 99)]);
        assert_eq!(g.tier_name(0), "marked");
        assert_eq!(g.size(), 10);
    }

    #[test]
    fn wrappers_keep_the_fast_paths() {
        fast_paths(&Marked);
        fast_paths(&&Marked);
        fast_paths(&Misere(Marked));
        fast_paths(&&Misere(&Marked));
    }
}
