//! Tests of the checker of a game's promises.

use super::*;

/// Take 1 or 2 from a pile of at most `0`.
struct Take12(u64);

impl Game for Take12 {
    type Position = u64;
    type Move = u64;
    fn moves(&self, n: &u64, out: &mut Vec<u64>) {
        out.extend((1..=2).filter(|t| t <= n));
    }
    fn play(&self, n: &u64, t: &u64) -> u64 {
        n - t
    }
}

impl game_core::IndexedChildren for Take12 {}

impl Indexed for Take12 {
    fn size(&self) -> u64 {
        self.0 + 1
    }
    fn index(&self, n: &u64) -> u64 {
        *n
    }
    fn position(&self, i: u64) -> Option<u64> {
        (i <= self.0).then_some(i)
    }
}

/// What [`Pile`]'s `Eq` and `Hash` get wrong: nothing, `Hash` reads
/// `via` (which `==` ignores), `==` always says yes, or never.
const HONEST: u8 = 0;
const HASHES_VIA: u8 = 1;
const ALWAYS_EQUAL: u8 = 2;
const NEVER_EQUAL: u8 = 3;

/// A pile of `n` stones, and how the last move took them (which hand,
/// how many): `via` is scratch, no part of the position, so `==`
/// looks at `n` alone.
#[derive(Debug, Clone)]
struct Pile<const LIE: u8> {
    n: u64,
    via: u64,
}

impl<const LIE: u8> PartialEq for Pile<LIE> {
    fn eq(&self, other: &Self) -> bool {
        match LIE {
            ALWAYS_EQUAL => true,
            NEVER_EQUAL => false,
            _ => self.n == other.n,
        }
    }
}

impl<const LIE: u8> Eq for Pile<LIE> {}

impl<const LIE: u8> Hash for Pile<LIE> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.n.hash(h);
        if LIE == HASHES_VIA {
            self.via.hash(h);
        }
    }
}

/// Take 1 or 2 from a pile of at most `max`, with either of `hands`
/// hands (two hands: two moves to each child). Where `stamps`, each
/// position `position` decodes has a new `via`.
struct Hands<const LIE: u8> {
    max: u64,
    hands: u64,
    stamps: Option<std::cell::Cell<u64>>,
}

impl<const LIE: u8> Hands<LIE> {
    fn new(max: u64, hands: u64) -> Self {
        Hands {
            max,
            hands,
            stamps: None,
        }
    }
}

impl<const LIE: u8> Game for Hands<LIE> {
    type Position = Pile<LIE>;
    type Move = (u64, u64);
    fn moves(&self, p: &Pile<LIE>, out: &mut Vec<(u64, u64)>) {
        for t in (1..=2).filter(|&t| t <= p.n) {
            out.extend((0..self.hands).map(|hand| (t, hand)));
        }
    }
    fn play(&self, p: &Pile<LIE>, &(t, hand): &(u64, u64)) -> Pile<LIE> {
        Pile {
            n: p.n - t,
            via: 10 * t + hand,
        }
    }
}

impl<const LIE: u8> Indexed for Hands<LIE> {
    fn size(&self) -> u64 {
        self.max + 1
    }
    fn index(&self, p: &Pile<LIE>) -> u64 {
        p.n
    }
    fn position(&self, i: u64) -> Option<Pile<LIE>> {
        let via = self.stamps.as_ref().map_or(0, |s| {
            s.set(s.get() + 1);
            s.get()
        });
        (i <= self.max).then_some(Pile { n: i, via })
    }
}

impl<const LIE: u8> game_core::Unmoves for Hands<LIE> {
    fn unmoves(&self, p: &Pile<LIE>, out: &mut Vec<Pile<LIE>>) {
        out.extend(
            (1..=2)
                .map(|t| p.n + t)
                .filter(|&n| n <= self.max)
                .map(|n| Pile { n, via: 0 }),
        );
    }
}

/// The pile's only symmetry swaps `via` between 0 and 1; the canonical
/// form keeps `via` as it is (`==` ignores it).
impl<const LIE: u8> game_core::Symmetric for Hands<LIE> {
    fn symmetric(&self, p: &Pile<LIE>, out: &mut Vec<Pile<LIE>>) {
        out.push(p.clone());
        out.push(Pile {
            n: p.n,
            via: p.via ^ 1,
        });
    }
    fn canonical(&self, p: &Pile<LIE>) -> Pile<LIE> {
        p.clone()
    }
}

/// Symmetric positions whose canonical forms are equal but hash
/// apart: a solver storing canonical positions keeps both.
#[test]
fn canonical_forms_that_hash_apart_break_the_hash_promise() {
    GameCheck::new(&Hands::<HONEST>::new(30, 2), 1000)
        .symmetric()
        .expect("sound");
    let err = GameCheck::new(&Hands::<HASHES_VIA>::new(30, 2), 1000)
        .symmetric()
        .unwrap_err();
    assert_eq!(err.promise, "Game: equal positions hash alike", "{err}");
    assert!(err.detail.contains("(the canonical form of"), "{err}");
    let err = GameCheck::new(&Hands::<NEVER_EQUAL>::new(30, 2), 1000)
        .symmetric()
        .unwrap_err();
    assert_eq!(err.promise, "Game: a position equals its clone", "{err}");
}

/// The promise `r` says is broken, or "none broken".
fn promise<T>(r: Result<T, BrokenPromise>) -> &'static str {
    r.map_or_else(|e| e.promise, |_| "none broken")
}

#[test]
fn an_honest_pile_keeps_every_promise() {
    let game = Hands::<HONEST>::new(30, 2);
    for samples in [1000, 5] {
        let mut check = GameCheck::new(&game, samples);
        check.indexed().and_then(|c| c.unmoves()).expect("sound");
        GameCheck::new(&game_core::OneTier(&game), samples)
            .tiered()
            .expect("sound");
    }
}

/// Two moves reach the pile one smaller, equal by `==` but hashed
/// apart: the checker's hash set kept both, and `unmoves` said
/// "child_count is the number of distinct children" (2 against 4).
#[test]
fn equal_children_that_hash_apart_break_the_hash_promise() {
    let game = Hands::<HASHES_VIA>::new(30, 2);
    let err = GameCheck::new(&game, 1000).indexed().unwrap_err();
    assert_eq!(err.promise, "Game: equal positions hash alike", "{err}");
    assert!(err.detail.contains("its children"), "{err}");
    for r in [
        GameCheck::new(&game, 1000).unmoves().map(|_| ()),
        GameCheck::new(&game, 5).unmoves().map(|_| ()),
        GameCheck::new(&game_core::OneTier(&game), 1000)
            .tiered()
            .map(|_| ()),
    ] {
        assert_eq!(promise(r), "Game: equal positions hash alike");
    }
    // With one hand no two moves meet; a child still hashes apart
    // from the equal position its index decodes to.
    let one = Hands::<HASHES_VIA>::new(30, 1);
    let err = GameCheck::new(&one, 1000).indexed().unwrap_err();
    assert_eq!(err.promise, "Game: equal positions hash alike", "{err}");
    assert!(err.detail.contains("(position("), "{err}");
    let err = GameCheck::new(&game_core::OneTier(&one), 1000)
        .tiered()
        .unwrap_err();
    assert_eq!(err.promise, "Game: equal positions hash alike", "{err}");
    assert!(err.detail.contains("(tier_position("), "{err}");
    // A position decoded twice: equal, hashed apart.
    let stamped = Hands::<HASHES_VIA> {
        stamps: Some(std::cell::Cell::new(0)),
        ..Hands::new(30, 1)
    };
    let err = GameCheck::new(&stamped, 1000).indexed().unwrap_err();
    assert_eq!(err.promise, "Game: equal positions hash alike", "{err}");
    assert!(err.detail.contains("(position(0) decoded again)"), "{err}");
}

/// An `==` that always says yes: every index round-trips (the index
/// reads the pile), and every child is "the same".
#[test]
fn an_eq_that_always_says_yes_is_found_by_positions_at_two_indices() {
    let game = Hands::<ALWAYS_EQUAL>::new(30, 2);
    // Every index in order (the one before), and a sparse sample
    // (the next index).
    for samples in [1000, 1] {
        let err = GameCheck::new(&game, samples).indexed().unwrap_err();
        assert_eq!(
            err.promise, "Indexed: positions at different indices differ",
            "{err}"
        );
        let err = GameCheck::new(&game_core::OneTier(&game), samples)
            .tiered()
            .unwrap_err();
        assert_eq!(
            err.promise, "Tiered: positions at different indices of a tier differ",
            "{err}"
        );
    }
}

#[test]
fn an_eq_that_is_not_reflexive_breaks_the_clone_promise() {
    let game = Hands::<NEVER_EQUAL>::new(30, 2);
    let err = GameCheck::new(&game, 1000).indexed().unwrap_err();
    assert_eq!(err.promise, "Game: a position equals its clone", "{err}");
    let err = GameCheck::new(&game, 1000).unmoves().unwrap_err();
    assert_eq!(err.promise, "Game: a position equals its clone", "{err}");
}

#[test]
fn any_number_of_samples_checks_a_small_game_whole() {
    // Asking for more samples than an address space holds: every
    // index once, nothing held for the rest.
    let mut check = GameCheck::new(&Take12(10), u64::MAX);
    check.indexed().expect("a sound game");
    assert_eq!(check.positions(), 11);
    assert_eq!(check.widest(), 11);
    // A second check over the same 11 positions: looked at twice,
    // 11 positions still.
    check.indexed_children().expect("a sound game");
    assert_eq!((check.positions(), check.widest()), (22, 11));
}

#[test]
fn a_sample_is_as_many_indices_in_range_and_goes_on_where_it_ended() {
    let game = Take12(u64::MAX - 1);
    let mut check = GameCheck::new(&game, 1000);
    let first: Vec<u64> = check.sample(u64::MAX).collect();
    assert_eq!(first.len(), 1000);
    assert!(first.iter().all(|&i| i < u64::MAX));
    // Spread: no index twice in a thousand out of 2^64.
    let mut sorted = first.clone();
    sorted.sort_unstable();
    sorted.dedup();
    assert_eq!(sorted.len(), 1000);
    // The next sample continues the generator: the same indices as
    // one sample of twice as many, second half.
    let second: Vec<u64> = check.sample(u64::MAX).collect();
    let mut both = GameCheck::new(&game, 2000);
    let whole: Vec<u64> = both.sample(u64::MAX).collect();
    assert_eq!(whole[..1000], first[..]);
    assert_eq!(whole[1000..], second[..]);
    // A range no larger than the sample: every index in order.
    assert_eq!(check.sample(5).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
}

use crate::fixtures::testing::{Countdowns, STOPS_SHORT, SWAPPED};
use game_core::{IndexedUnmoves, ParentIndices};

/// A cycle through 2⁵⁰ indices whose children and parents by index come
/// as runs of 2⁴⁰ indices, all within the size (with `visit`, only the
/// parents sent to a visitor; those listed are honest): what
/// [`crate::GameCheck`] must refuse by their count, never by listing them.
struct Sprawl {
    visit: bool,
}

impl Sprawl {
    const SIZE: u64 = 1 << 50;
    const RUN: u64 = 1 << 40;
}

impl Game for Sprawl {
    type Position = u64;
    type Move = ();
    fn moves(&self, _: &u64, out: &mut Vec<()>) {
        out.push(());
    }
    fn play(&self, p: &u64, (): &()) -> u64 {
        (p + 1) % Self::SIZE
    }
}

impl Indexed for Sprawl {
    fn size(&self) -> u64 {
        Self::SIZE
    }
    fn index(&self, p: &u64) -> u64 {
        *p
    }
    fn position(&self, i: u64) -> Option<u64> {
        (i < Self::SIZE).then_some(i)
    }
}

impl game_core::IndexedChildren for Sprawl {
    fn child_indices(&self, _: u64, out: &mut game_core::ChildIndices, _: &mut Vec<()>) {
        out.runs.push(game_core::Run::range(0..Self::RUN));
    }
}

impl Unmoves for Sprawl {
    fn unmoves(&self, p: &u64, out: &mut Vec<u64>) {
        out.push((p + Self::SIZE - 1) % Self::SIZE);
    }
}

impl IndexedUnmoves for Sprawl {
    fn unmove_indices(&self, i: u64, out: &mut ParentIndices, _: &mut Vec<u64>) {
        if self.visit {
            out.singles.push((i + Self::SIZE - 1) % Self::SIZE);
        } else {
            out.runs.push(game_core::Run::range(0..Self::RUN));
        }
    }
    fn visit_unmove_indices<V: game_core::ParentVisitor>(
        &self,
        i: u64,
        buf: &mut ParentIndices,
        scratch: &mut Vec<u64>,
        visit: &mut V,
    ) {
        buf.clear();
        self.unmove_indices(i, buf, scratch);
        if self.visit {
            buf.runs.push(game_core::Run::range(0..Self::RUN));
        }
        buf.send_to(visit);
    }
}

/// A game check refuses children or parents by index that are too many
/// by their count, before it lists them: runs of 2⁴⁰ indices were
/// collected into a vector (8 TiB) to be compared with the one child and
/// parent the moves give.
#[test]
fn the_game_check_counts_runs_before_it_lists_them() {
    let lists = Sprawl { visit: false };
    let err = crate::GameCheck::new(&lists, 4)
        .indexed_children()
        .unwrap_err();
    assert_eq!(
        err.promise,
        "IndexedChildren: child_indices lists each distinct child once"
    );
    assert_eq!(err.detail, "listed 1099511627776 children, moves give 1");
    let err = crate::GameCheck::new(&lists, 4)
        .indexed_unmoves()
        .unwrap_err();
    assert_eq!(
        err.promise,
        "IndexedUnmoves: unmove_indices lists each parent's index once"
    );
    assert_eq!(err.detail, "listed 1099511627776 parents, unmoves give 1");
    let err = crate::GameCheck::new(&Sprawl { visit: true }, 4)
        .indexed_unmoves()
        .unwrap_err();
    assert_eq!(
        err.promise,
        "IndexedUnmoves: visit_unmove_indices sends the parents unmove_indices lists"
    );
    assert_eq!(err.detail, "sent 1099511627777 parents, listed 1");
}

/// `GameCheck::tiered` asks `visit_tier` for a few indices around each
/// sampled one: before, it asked for the index alone, and passed games
/// whose stepping goes wrong only over wider ranges ([`STOPS_SHORT`],
/// [`SWAPPED`]).
#[test]
fn the_game_check_finds_a_visit_tier_wrong_over_wider_ranges() {
    for err in [
        crate::GameCheck::new(&STOPS_SHORT, 100)
            .tiered()
            .map(|_| ()),
        crate::GameCheck::new(&SWAPPED, 100).tiered().map(|_| ()),
    ] {
        let err = err.unwrap_err();
        assert!(err.detail.contains("visit_tier over"), "{err}");
    }
    crate::GameCheck::new(&Countdowns::two(), 1000)
        .tiered()
        .unwrap();
}

/// A token on squares -3..=3 stepping one square either way, mirrored
/// x → -x, that says its symmetry is the identity.
struct Mirror {
    says_identity: bool,
}

impl Game for Mirror {
    type Position = i64;
    type Move = i64;
    fn moves(&self, x: &i64, out: &mut Vec<i64>) {
        out.extend([-1, 1].into_iter().filter(|d| (x + d).abs() <= 3));
    }
    fn play(&self, x: &i64, d: &i64) -> i64 {
        x + d
    }
}

impl Indexed for Mirror {
    fn size(&self) -> u64 {
        7
    }
    fn index(&self, x: &i64) -> u64 {
        (x + 3) as u64
    }
    fn position(&self, i: u64) -> Option<i64> {
        (i < 7).then(|| i as i64 - 3)
    }
}

impl game_core::Symmetric for Mirror {
    fn symmetric(&self, x: &i64, out: &mut Vec<i64>) {
        out.extend([*x, -x]);
    }
    fn canonical(&self, x: &i64) -> i64 {
        x.abs()
    }
    fn is_identity(&self) -> bool {
        self.says_identity
    }
}

/// A mirror said to be the identity is refused (`Canonical` would pass
/// the game's own index fast paths on, which speak of every position);
/// said to be a mirror, it keeps its promises.
#[test]
fn a_symmetry_said_to_be_the_identity_gives_only_the_position() {
    GameCheck::new(
        &Mirror {
            says_identity: false,
        },
        100,
    )
    .symmetric()
    .expect("sound");
    let err = GameCheck::new(
        &Mirror {
            says_identity: true,
        },
        100,
    )
    .symmetric()
    .unwrap_err();
    assert_eq!(
        err.promise, "Symmetric: is_identity() means symmetric(p) gives only p",
        "{err}"
    );
}
