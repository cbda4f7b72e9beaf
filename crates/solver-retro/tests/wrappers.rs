//! Wrappers lose no fast path or hook: a probe game counts the calls to
//! each of its optional methods, and the solvers run on it bare and
//! through every wrapper (`&G`, `Misere`, `OneTier`, `Canonical`). A
//! wrapper that dropped a method would send the solver down the
//! default (the probe counts those too: the fallbacks), and the values
//! are checked against an independent solve by the rules alone.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use game_core::{
    Canonical, ChildCount, ChildIndices, Game, Indexed, IndexedChildren, IndexedUnmoves, Misere,
    OneTier, Outcome, ParentIndices, ParentVisitor, Run, Symmetric, Tier, Tiered, TieredSymmetric,
    Unmoves, Value,
};
use solver_retro::{certify_indexed, solve_tiers, solve_unmoves, Config, Solved};

/// Piles `0..N`.
const N: u64 = 40;

/// The optional methods the probe counts.
#[derive(Debug, Clone, Copy)]
enum Hook {
    // Fast paths.
    TerminalIndices,
    ChildCounts,
    VisitUnmoveIndices,
    ChildIndices,
    VisitTier,
    ChildTierIndices,
    VisitCanonicalTier,
    CanonicalChildTierIndices,
    // What a solver falls back on without them.
    ChildCount,
    UnmoveIndices,
    Moves,
}

const HOOKS: usize = 11;

/// Take one or two from a pile (`n` in `0..N`); the player who cannot
/// move loses. Every optional method is given, and counted. Tier `n`
/// holds pile `n` alone (every move leaves its tier); the one symmetry
/// is the identity.
#[derive(Default)]
struct Probe {
    calls: [AtomicU64; HOOKS],
}

impl Probe {
    fn saw(&self, h: Hook) {
        self.calls[h as usize].fetch_add(1, Relaxed);
    }
    fn count(&self, h: Hook) -> u64 {
        self.calls[h as usize].load(Relaxed)
    }
    fn counts(&self) -> [u64; HOOKS] {
        std::array::from_fn(|k| self.calls[k].load(Relaxed))
    }
    fn reset(&self) {
        self.calls.iter().for_each(|c| c.store(0, Relaxed));
    }
}

impl Game for Probe {
    type Position = u64;
    type Move = u64;
    fn moves(&self, n: &u64, out: &mut Vec<u64>) {
        self.saw(Hook::Moves);
        out.extend((1..=2).filter(|t| t <= n));
    }
    fn play(&self, n: &u64, t: &u64) -> u64 {
        n - t
    }
}

impl Indexed for Probe {
    fn size(&self) -> u64 {
        N
    }
    fn index(&self, n: &u64) -> u64 {
        *n
    }
    fn position(&self, i: u64) -> Option<u64> {
        (i < N).then_some(i)
    }
}

impl IndexedChildren for Probe {
    /// Pile 1: child 0; pile `n >= 2`: the run `n-2..=n` less `n`.
    fn child_indices(&self, n: u64, out: &mut ChildIndices, _: &mut Vec<u64>) {
        self.saw(Hook::ChildIndices);
        match n {
            0 => {}
            1 => out.singles.push(0),
            n if n < N => out.runs.push(Run::strided(n - 2, 1, 3).except(n)),
            _ => {}
        }
    }
}

impl Unmoves for Probe {
    fn unmoves(&self, c: &u64, out: &mut Vec<u64>) {
        out.extend((c + 1..(c + 3).min(N)).filter(|&p| p > 0));
    }
    fn child_count(&self, n: &u64, _: &mut Vec<u64>, _: &mut Vec<u64>) -> usize {
        self.saw(Hook::ChildCount);
        (*n).min(2) as usize
    }
}

impl Probe {
    /// The parents of pile `c`: `c+1` and `c+2` below `N`, as the run
    /// `c+1..c+4` (cut at `N`) less `c+3`.
    fn parents(&self, c: u64, out: &mut impl ParentVisitor) {
        if c < N {
            out.run(Run::range(c + 1..(c + 4).min(N)).except(c + 3));
        }
    }
}

impl IndexedUnmoves for Probe {
    fn terminal_indices(&self, out: &mut Vec<u64>) -> bool {
        self.saw(Hook::TerminalIndices);
        out.push(0);
        true
    }
    fn child_counts<T: ChildCount>(&self, first: u64, out: &mut [T]) -> bool {
        self.saw(Hook::ChildCounts);
        for (k, o) in out.iter_mut().enumerate() {
            *o = T::from((first + k as u64).min(2) as u16);
        }
        true
    }
    fn unmove_indices(&self, c: u64, out: &mut ParentIndices, _: &mut Vec<u64>) {
        self.saw(Hook::UnmoveIndices);
        self.parents(c, out);
    }
    fn visit_unmove_indices<V: ParentVisitor>(
        &self,
        c: u64,
        _: &mut ParentIndices,
        _: &mut Vec<u64>,
        visit: &mut V,
    ) {
        self.saw(Hook::VisitUnmoveIndices);
        self.parents(c, visit);
    }
}

impl Tiered for Probe {
    fn tiers(&self) -> Vec<Tier> {
        (0..N).collect()
    }
    fn tier(&self, n: &u64) -> Tier {
        *n
    }
    fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>) {
        out.extend((1..=2).filter(|k| *k <= t).map(|k| t - k));
    }
    fn tier_size(&self, _: Tier) -> u64 {
        1
    }
    fn tier_index(&self, _: &u64) -> u64 {
        0
    }
    fn tier_position(&self, t: Tier, i: u64) -> Option<u64> {
        (i == 0 && t < N).then_some(t)
    }
    fn leaves_tier(&self, _: Tier) -> bool {
        true
    }
    fn visit_tier(&self, t: Tier, range: std::ops::Range<u64>, f: &mut dyn FnMut(u64, u64)) {
        self.saw(Hook::VisitTier);
        if range.contains(&0) && t < N {
            f(0, t);
        }
    }
    fn child_tier_indices(&self, n: &u64, out: &mut Vec<(Tier, u64)>, _: &mut Vec<u64>) {
        self.saw(Hook::ChildTierIndices);
        out.extend((1..=2).filter(|t| t <= n).map(|t| (n - t, 0)));
    }
}

impl Symmetric for Probe {
    fn symmetric(&self, n: &u64, out: &mut Vec<u64>) {
        out.push(*n);
    }
    fn canonical(&self, n: &u64) -> u64 {
        *n
    }
}

impl TieredSymmetric for Probe {
    fn visit_canonical_tier(
        &self,
        t: Tier,
        range: std::ops::Range<u64>,
        f: &mut dyn FnMut(u64, u64),
    ) {
        self.saw(Hook::VisitCanonicalTier);
        if range.contains(&0) && t < N {
            f(0, t);
        }
    }
    fn canonical_child_tier_indices(&self, n: &u64, out: &mut Vec<(Tier, u64)>, _: &mut Vec<u64>) {
        self.saw(Hook::CanonicalChildTierIndices);
        out.extend((1..=2).filter(|t| t <= n).map(|t| (n - t, 0)));
    }
}

/// The value of every pile by the rules alone: a pile's value is the
/// best of its children's, seen from above; no move loses (wins in
/// misère play).
fn by_the_rules(misere: bool) -> Vec<Value> {
    let mut v: Vec<Value> = Vec::new();
    for n in 0..N {
        let best = (1..=2u64)
            .filter(|&t| t <= n)
            .map(|t| v[(n - t) as usize].parent())
            .max();
        let stuck = if misere { Outcome::Win } else { Outcome::Lose };
        v.push(best.unwrap_or(Value::new(stuck, 0)));
    }
    v
}

/// The graph-free solve and its certificate on `g`: the values by the
/// rules, and the calls it made to each of `probe`'s hooks.
fn solve_indexed<G>(g: &G, probe: &Probe, misere: bool) -> [u64; HOOKS]
where
    G: IndexedUnmoves<Position = u64> + IndexedChildren + Sync,
    G::Move: Send,
{
    probe.reset();
    let sol = solve_unmoves(g).unwrap();
    let want = by_the_rules(misere);
    for n in 0..N {
        assert_eq!(sol.value(&n), Some(want[n as usize]), "pile {n}");
    }
    certify_indexed(&sol).unwrap();
    let reach = solver_retro::reachable(g, &(N - 1), &Config::default()).unwrap();
    assert_eq!(reach.count(), N);
    probe.counts()
}

#[test]
fn the_graph_free_solve_takes_the_fast_paths_through_every_wrapper() {
    let probe = Probe::default();
    let bare = solve_indexed(&probe, &probe, false);
    for h in [
        Hook::TerminalIndices,
        Hook::ChildCounts,
        Hook::VisitUnmoveIndices,
        Hook::ChildIndices,
    ] {
        assert!(bare[h as usize] > 0, "{h:?} not called: {bare:?}");
    }
    for h in [Hook::ChildCount, Hook::Moves] {
        assert_eq!(bare[h as usize], 0, "{h:?} called: {bare:?}");
    }
    // The same calls, one for one, through a reference and one tier.
    assert_eq!(solve_indexed(&&probe, &probe, false), bare, "&G");
    assert_eq!(
        solve_indexed(&OneTier(&probe), &probe, false),
        bare,
        "OneTier"
    );
    // Misère play: other values, so other levels, but the same paths.
    let misere = solve_indexed(&Misere(&probe), &probe, true);
    for h in [
        Hook::TerminalIndices,
        Hook::ChildCounts,
        Hook::VisitUnmoveIndices,
        Hook::ChildIndices,
    ] {
        assert!(misere[h as usize] > 0, "Misere lost {h:?}: {misere:?}");
    }
    for h in [Hook::ChildCount, Hook::Moves] {
        assert_eq!(misere[h as usize], 0, "Misere fell back on {h:?}");
    }
    assert_eq!(
        solve_indexed(&Misere(&&probe), &probe, true),
        misere,
        "Misere(&G)"
    );
}

/// The tier solve on `g`: the values by the rules, and the calls.
fn solve_tiered<G>(g: &G, probe: &Probe, misere: bool) -> [u64; HOOKS]
where
    G: Tiered<Position = u64> + Sync,
    G::Move: Send,
{
    probe.reset();
    let sol = solve_tiers(g).unwrap();
    let want = by_the_rules(misere);
    for n in 0..N {
        assert_eq!(sol.value(&n), Some(want[n as usize]), "pile {n}");
    }
    probe.counts()
}

#[test]
fn the_tier_solve_takes_the_hooks_through_every_wrapper() {
    let probe = Probe::default();
    let bare = solve_tiered(&probe, &probe, false);
    for h in [Hook::VisitTier, Hook::ChildTierIndices] {
        assert!(bare[h as usize] > 0, "{h:?} not called: {bare:?}");
    }
    assert_eq!(bare[Hook::Moves as usize], 0, "moves generated: {bare:?}");
    assert_eq!(solve_tiered(&&probe, &probe, false), bare, "&G");
    let misere = solve_tiered(&Misere(&probe), &probe, true);
    for h in [Hook::VisitTier, Hook::ChildTierIndices] {
        assert!(misere[h as usize] > 0, "Misere lost {h:?}: {misere:?}");
    }
    assert_eq!(misere[Hook::Moves as usize], 0, "Misere fell back on moves");
    // The canonical game walks and plays through the symmetric hooks,
    // through any wrapper of the game it holds.
    for (name, counts) in [
        ("Canonical", solve_tiered(&Canonical(&probe), &probe, false)),
        (
            "Canonical(Misere)",
            solve_tiered(&Canonical(Misere(&probe)), &probe, true),
        ),
    ] {
        for h in [Hook::VisitCanonicalTier, Hook::CanonicalChildTierIndices] {
            assert!(counts[h as usize] > 0, "{name} lost {h:?}: {counts:?}");
        }
        for h in [Hook::VisitTier, Hook::ChildTierIndices, Hook::Moves] {
            assert_eq!(counts[h as usize], 0, "{name} fell back on {h:?}");
        }
    }
    assert!(probe.count(Hook::Moves) == 0);
}
