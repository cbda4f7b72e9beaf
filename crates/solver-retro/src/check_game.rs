//! Checking a game's implementation: every promise its capabilities make,
//! on sampled positions (all of them when the game is small).
//!
//! The solvers trust a game's capabilities — an index that round-trips,
//! unmoves that invert moves, children in the declared tiers — and the
//! position type's own `Eq` and `Hash`: the hash-map solvers (a stored
//! graph from a start, the reachable set) find a position again only when
//! equal positions hash alike, and an index's round trip means nothing if
//! `==` always says yes. A game that breaks one gets a wrong table or,
//! where the engine notices, an [`Error::Broken`](crate::Error::Broken).
//! [`GameCheck`] finds such faults before solving and names the position
//! that shows them.
//!
//! Every check also holds the positions it looks at to `Eq` and `Hash`
//! (with a fixed hasher): a position equals its clone and hashes alike,
//! children equal by `==` hash alike (the checker's own set of distinct
//! children relies on it, and a lying hash is named as such before any
//! count of children is compared), a child hashes alike with the equal
//! position its index decodes to, and positions at different indices
//! differ.
//!
//! ```
//! use game_core::{Game, Indexed};
//! use solver_retro::GameCheck;
//!
//! struct Take12; // take 1 or 2 from a pile of at most 10
//! impl Game for Take12 {
//!     type Position = u64;
//!     type Move = u64;
//!     fn moves(&self, n: &u64, out: &mut Vec<u64>) { out.extend((1..=2).filter(|t| t <= n)) }
//!     fn play(&self, n: &u64, t: &u64) -> u64 { n - t }
//! }
//! impl Indexed for Take12 {
//!     fn size(&self) -> u64 { 11 }
//!     fn index(&self, n: &u64) -> u64 { *n }
//!     fn position(&self, i: u64) -> Option<u64> { Some(i) }
//! }
//! let mut check = GameCheck::new(&Take12, 1000);
//! check.indexed()?;
//! assert_eq!(check.positions(), 11); // small: every index
//!
//! /// The same game with an index that sends 10 to 9's slot.
//! struct Aliased;
//! impl Game for Aliased {
//!     type Position = u64;
//!     type Move = u64;
//!     fn moves(&self, n: &u64, out: &mut Vec<u64>) { Take12.moves(n, out) }
//!     fn play(&self, n: &u64, t: &u64) -> u64 { n - t }
//! }
//! impl Indexed for Aliased {
//!     fn size(&self) -> u64 { 11 }
//!     fn index(&self, n: &u64) -> u64 { (*n).min(9) }
//!     fn position(&self, i: u64) -> Option<u64> { Some(i) }
//! }
//! let err = GameCheck::new(&Aliased, 1000).indexed().unwrap_err();
//! assert!(err.to_string().contains("index"));
//! # Ok::<(), solver_retro::BrokenPromise>(())
//! ```

use std::fmt::Debug;
use std::hash::{Hash, Hasher};

use game_core::{
    ChildIndices, Game, Indexed, IndexedChildren, IndexedUnmoves, ParentIndices, Symmetric, Tier,
    Tiered, Unmoves,
};

/// A promise a game's implementation broke, with the position that shows
/// it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("broken promise of {promise} at {position}: {detail}")]
pub struct BrokenPromise {
    /// The capability and promise, e.g. "Indexed: position(index(p)) == p".
    pub promise: &'static str,
    /// The position, as `Debug` prints it.
    pub position: String,
    /// What was found.
    pub detail: String,
}

/// Checks a game's capabilities on sampled positions; each method checks
/// one capability and may be called in any order.
pub struct GameCheck<'g, G> {
    game: &'g G,
    samples: u64,
    seed: u64,
    positions: u64,
    /// The check counting now (a number of its own for each method), the
    /// positions it has looked at, and the most any check looked at.
    check: u8,
    this_check: u64,
    widest: u64,
}

impl<G> Debug for GameCheck<'_, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameCheck")
            .field("samples", &self.samples)
            .field("positions", &self.positions)
            .finish_non_exhaustive()
    }
}

type Checked = Result<(), BrokenPromise>;

fn broken<P: Debug>(promise: &'static str, pos: &P, detail: impl Into<String>) -> BrokenPromise {
    BrokenPromise {
        promise,
        position: format!("{pos:?}"),
        detail: detail.into(),
    }
}

/// `p`'s hash by a fixed hasher (the one [`rustc_hash::FxHashSet`] uses):
/// the same for the same input, every time and in every run.
fn hash_of<P: Hash>(p: &P) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    p.hash(&mut h);
    h.finish()
}

/// [`Game::Position`]'s `Clone`, `Eq` and `Hash` on `p`: its clone is
/// equal to it (`==` is reflexive, `clone` keeps what `==` looks at) and
/// hashes alike (`Hash` reads nothing that `clone` changes).
fn sound_copy<P: Clone + Eq + Hash + Debug>(p: &P) -> Checked {
    let q = p.clone();
    if q != *p {
        return Err(broken(
            "Game: a position equals its clone",
            p,
            format!("its clone {q:?} is unequal to it"),
        ));
    }
    hash_alike(p, &q, || "its clone".to_string())
}

/// `p` and `q`, found equal, hash alike; `what` says where `q` came from
/// (a noun, e.g. "position(7) decoded again").
fn hash_alike<P: Hash + Debug>(p: &P, q: &P, what: impl FnOnce() -> String) -> Checked {
    let (a, b) = (hash_of(p), hash_of(q));
    if a == b {
        return Ok(());
    }
    Err(broken(
        "Game: equal positions hash alike",
        p,
        format!(
            "it hashes to {a:#x}, but the equal {q:?} ({}) to {b:#x}",
            what()
        ),
    ))
}

/// The index beside `i` in `0..size` (the next, or at the end the one
/// before) whose position [`GameCheck`] compares with `i`'s, besides the
/// one sampled `before`: none where that was `i - 1` of a sample of every
/// index (`whole`), already the neighbour.
fn neighbour(i: u64, size: u64, whole: bool, before: Option<u64>) -> Option<u64> {
    if whole && before.is_some_and(|b| b.checked_add(1) == Some(i)) {
        return None;
    }
    if i.checked_add(1).is_some_and(|j| j < size) {
        Some(i + 1)
    } else {
        i.checked_sub(1)
    }
}

/// `p`, at index `i`, differs from each of `others` (positions at other
/// indices, with their indices: the one sampled before, one at a
/// neighbouring index) — an `==` that always says yes is found here. An
/// equal one that does not round-trip to its own index is that fault
/// (`round_trip`); else `promise` is broken, the positions named by
/// `name` of their indices.
fn differs_from<'p, P: Eq + Debug + 'p>(
    p: &P,
    i: u64,
    others: impl Iterator<Item = &'p (u64, P)>,
    round_trip: impl Fn(u64, &P) -> Checked,
    promise: &'static str,
    name: impl Fn(u64) -> String,
) -> Checked {
    for (j, q) in others {
        if *j == i || q != p {
            continue;
        }
        round_trip(*j, q)?;
        return Err(broken(
            promise,
            p,
            format!("{} == {}, which is {q:?}", name(i), name(*j)),
        ));
    }
    Ok(())
}

/// Sorted and without repeats.
fn set(mut v: Vec<u64>) -> Vec<u64> {
    v.sort_unstable();
    v.dedup();
    v
}

impl<'g, G: Game> GameCheck<'g, G>
where
    G::Position: Debug,
{
    /// A checker that looks at about `samples` positions for each
    /// capability (all of them where there are fewer).
    #[must_use]
    pub fn new(game: &'g G, samples: u64) -> Self {
        GameCheck {
            game,
            samples: samples.max(1),
            seed: GOLDEN,
            positions: 0,
            check: 0,
            this_check: 0,
            widest: 0,
        }
    }

    /// Counts one position looked at by check number `check`.
    fn looked(&mut self, check: u8) {
        if check != self.check {
            (self.check, self.this_check) = (check, 0);
        }
        self.positions += 1;
        self.this_check += 1;
        self.widest = self.widest.max(self.this_check);
    }

    /// The most positions one check looked at: with every index sampled
    /// (a small game), the game's positions, however many checks ran —
    /// where [`GameCheck::positions`] counts a position once a check.
    #[must_use]
    pub fn widest(&self) -> u64 {
        self.widest
    }

    /// The number of positions looked at so far.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.positions
    }

    /// The indices `0..size` to look at: all of them, or an evenly spread
    /// pseudo-random sample, given one by one (nothing is held, however
    /// many are asked for).
    fn sample(&mut self, size: u64) -> Sample {
        let sample = Sample {
            all: size <= self.samples,
            left: size.min(self.samples),
            size,
            seed: self.seed,
        };
        if !sample.all {
            // Where the sample's generator ends: the next sample goes on.
            self.seed = self.seed.wrapping_add(GOLDEN.wrapping_mul(sample.left));
        }
        sample
    }

    /// The distinct children of `pos` (none when it is over), after
    /// checking that `pos` and each child equal their clones and hash
    /// alike, and that no two children the hash set keeps apart are
    /// equal: the set, and the solvers' hash maps, find a position again
    /// only when equal positions hash alike.
    ///
    /// # Errors
    /// The first broken promise of `Clone`, `Eq` and `Hash`, named before
    /// any check trusts the distinct children.
    fn children(&self, pos: &G::Position) -> Result<Vec<G::Position>, BrokenPromise> {
        sound_copy(pos)?;
        let mut out: Vec<G::Position> = Vec::new();
        if self.game.outcome(pos).is_some() {
            return Ok(out);
        }
        let mut moves = Vec::new();
        self.game.moves(pos, &mut moves);
        // A set, not a search of `out`: a position may have hundreds of
        // moves (Magic Fingers' transfers). Only the children it finds
        // new are searched for by `==`: some hundreds of distinct ones
        // at most.
        let mut seen = rustc_hash::FxHashSet::default();
        seen.reserve(moves.len());
        for m in &moves {
            let c = self.game.play(pos, m);
            sound_copy(&c)?;
            if !seen.insert(c.clone()) {
                continue;
            }
            // New to the set: no child with the same hash is equal to it,
            // so none at all may be.
            if let Some(o) = out.iter().find(|o| **o == c) {
                let (ho, hc) = (hash_of(o), hash_of(&c));
                let (promise, detail) = if ho != hc {
                    (
                        "Game: equal positions hash alike",
                        format!("its children {o:?} and {c:?} are equal but hash to {ho:#x} and {hc:#x}"),
                    )
                } else if c != *o {
                    (
                        "Game: == is symmetric",
                        format!("of its children, {o:?} == {c:?} but not {c:?} == {o:?}"),
                    )
                } else {
                    (
                        "Game: equal positions hash alike",
                        format!("its children {o:?} and {c:?} are equal and hash to {ho:#x} now, yet a hash set kept both (a hash that changes from call to call)"),
                    )
                };
                return Err(broken(promise, pos, detail));
            }
            out.push(c);
        }
        Ok(out)
    }

    /// Whether a move at `pos` reaches `child`, after checking that `pos`
    /// equals its clone and hashes alike. By `==` alone: nothing here
    /// trusts a hash, and the children need not be distinct.
    ///
    /// # Errors
    /// A broken promise of `Clone`, `Eq` and `Hash` on `pos`.
    fn has_child(&self, pos: &G::Position, child: &G::Position) -> Result<bool, BrokenPromise> {
        sound_copy(pos)?;
        if self.game.outcome(pos).is_some() {
            return Ok(false);
        }
        let mut moves = Vec::new();
        self.game.moves(pos, &mut moves);
        Ok(moves.iter().any(|m| self.game.play(pos, m) == *child))
    }
}

/// Indices on each side of a sampled one that [`GameCheck::tiered`] also
/// asks `visit_tier` for.
const WINDOW: u64 = 2;

/// The splitmix64 generator's step.
const GOLDEN: u64 = 0x9e37_79b9_7f4a_7c15;

/// The indices [`GameCheck`] looks at in an index range `0..size`: every
/// one in order (`all`: the next is `size - left`), or `left` more spread
/// pseudo-randomly (splitmix64).
struct Sample {
    all: bool,
    left: u64,
    size: u64,
    seed: u64,
}

impl Iterator for Sample {
    type Item = u64;

    fn next(&mut self) -> Option<u64> {
        if self.left == 0 {
            return None;
        }
        if self.all {
            let i = self.size - self.left;
            self.left -= 1;
            return Some(i);
        }
        self.left -= 1;
        self.seed = self.seed.wrapping_add(GOLDEN);
        let mut z = self.seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        Some(((u128::from(z) * u128::from(self.size)) >> 64) as u64)
    }
}

impl<G: Indexed> GameCheck<'_, G>
where
    G::Position: Debug,
{
    /// [`Indexed`]: `index(position(i)) == i` for sampled indices, and
    /// every child of such a position has an index below `size` that
    /// decodes back to it. And the position type's `Eq` and `Hash` on
    /// them: `position(i)` decoded twice gives equal positions that hash
    /// alike, a position differs from the one at a neighbouring index and
    /// from the one sampled before (an `==` that always says yes), and
    /// equal positions hash alike: a position and its clone, two children
    /// by different moves, a child and what its index decodes to.
    ///
    /// # Errors
    /// The first broken promise.
    pub fn indexed(&mut self) -> Result<&mut Self, BrokenPromise> {
        let game = self.game;
        let size = game.size();
        let round_trip = |i: u64, p: &G::Position| {
            let back = game.index(p);
            if back == i {
                return Ok(());
            }
            Err(broken(
                "Indexed: index(position(i)) == i",
                p,
                format!("position({i}) has index {back}"),
            ))
        };
        let mut before: Option<(u64, G::Position)> = None;
        let sample = self.sample(size);
        let whole = sample.all;
        for i in sample {
            let Some(p) = game.position(i) else {
                continue;
            };
            self.looked(1);
            sound_copy(&p)?;
            round_trip(i, &p)?;
            match game.position(i) {
                Some(q) if q == p => hash_alike(&p, &q, || format!("position({i}) decoded again"))?,
                again => {
                    return Err(broken(
                        "Indexed: position(i) gives equal positions each time",
                        &p,
                        format!("position({i}) decoded again is {again:?}"),
                    ))
                }
            }
            // The position sampled before and one at a neighbouring index
            // differ from this one, or do not have their own index: their
            // round trip is the fault then.
            let next = neighbour(i, size, whole, before.as_ref().map(|b| b.0))
                .and_then(|j| Some((j, game.position(j)?)));
            differs_from(
                &p,
                i,
                next.iter().chain(&before),
                round_trip,
                "Indexed: positions at different indices differ",
                |j| format!("position({j})"),
            )?;
            for c in self.children(&p)? {
                let k = game.index(&c);
                if k >= size {
                    return Err(broken(
                        "Indexed: index < size",
                        &c,
                        format!("index {k} of size {size}"),
                    ));
                }
                match game.position(k) {
                    Some(d) if d == c => hash_alike(&c, &d, || format!("position({k})"))?,
                    d => {
                        return Err(broken(
                            "Indexed: position(index(p)) == p (no two positions share an index)",
                            &c,
                            format!("index {k} decodes to {d:?}"),
                        ))
                    }
                }
            }
            before = Some((i, p));
        }
        Ok(self)
    }
}

impl<G: IndexedChildren> GameCheck<'_, G>
where
    G::Position: Debug,
{
    /// [`IndexedChildren`]: `child_indices` lists the indices of exactly
    /// the distinct children, each once.
    ///
    /// # Errors
    /// The first broken promise.
    pub fn indexed_children(&mut self) -> Result<&mut Self, BrokenPromise> {
        let (mut out, mut moves) = (ChildIndices::default(), Vec::new());
        for i in self.sample(self.game.size()) {
            let Some(p) = self.game.position(i) else {
                continue;
            };
            self.looked(2);
            let kids = self.children(&p)?;
            out.clear();
            self.game.child_indices(i, &mut out, &mut moves);
            let size = self.game.size();
            if let Some(run) = out.runs.iter().find(|r| !r.within(size)) {
                return Err(broken(
                    "IndexedChildren: child_indices lists each distinct child once",
                    &p,
                    format!("the run {run:?} repeats a child or passes the size {size}"),
                ));
            }
            let want = set(kids.iter().map(|c| self.game.index(c)).collect());
            // Counted before they are listed: runs within the size may
            // still promise more children than memory holds.
            if out.len() != want.len() as u64 {
                return Err(broken(
                    "IndexedChildren: child_indices lists each distinct child once",
                    &p,
                    format!("listed {} children, moves give {}", out.len(), want.len()),
                ));
            }
            let listed: Vec<u64> = out.iter().collect();
            if set(listed.clone()) != want {
                return Err(broken(
                    "IndexedChildren: child_indices lists each distinct child once",
                    &p,
                    format!("listed {listed:?}, moves give {want:?}"),
                ));
            }
        }
        Ok(self)
    }
}

impl<G: Indexed + Unmoves> GameCheck<'_, G>
where
    G::Position: Debug,
{
    /// [`Unmoves`]: for sampled positions `p`, `child_count(p)` is the
    /// number of distinct children; `p` is among the unmoves of each of its
    /// children when it is not over; every position in `unmoves(p)` is
    /// distinct, not over, and has `p` among its children. Equal children
    /// hash alike, checked before they are counted: a lying hash is named
    /// as such, not as a wrong `child_count`.
    ///
    /// # Errors
    /// The first broken promise.
    pub fn unmoves(&mut self) -> Result<&mut Self, BrokenPromise> {
        let (mut moves, mut scratch, mut parents) = (Vec::new(), Vec::new(), Vec::new());
        for i in self.sample(self.game.size()) {
            let Some(p) = self.game.position(i) else {
                continue;
            };
            self.looked(3);
            let kids = self.children(&p)?;
            if self.game.outcome(&p).is_none() {
                let n = self.game.child_count(&p, &mut moves, &mut scratch);
                if n != kids.len() {
                    return Err(broken(
                        "Unmoves: child_count is the number of distinct children",
                        &p,
                        format!("child_count {n}, moves give {}", kids.len()),
                    ));
                }
            }
            for c in &kids {
                parents.clear();
                self.game.unmoves(c, &mut parents);
                if !parents.contains(&p) {
                    return Err(broken(
                        "Unmoves: a position is among the unmoves of each child",
                        &p,
                        format!("missing from the unmoves of its child {c:?}"),
                    ));
                }
            }
            parents.clear();
            self.game.unmoves(&p, &mut parents);
            for (k, q) in parents.iter().enumerate() {
                if parents[..k].contains(q) {
                    return Err(broken(
                        "Unmoves: parents are distinct",
                        &p,
                        format!("{q:?} twice"),
                    ));
                }
                if self.game.outcome(q).is_some() {
                    return Err(broken(
                        "Unmoves: parents are not over",
                        &p,
                        format!("{q:?} is over"),
                    ));
                }
                if !self.has_child(q, &p)? {
                    return Err(broken(
                        "Unmoves: every parent has the position among its children",
                        &p,
                        format!("{q:?} has no move to it"),
                    ));
                }
            }
        }
        Ok(self)
    }
}

impl<G: IndexedUnmoves> GameCheck<'_, G>
where
    G::Position: Debug,
{
    /// [`IndexedUnmoves`]: `unmove_indices` lists the indices of the
    /// unmoves, each once, and `visit_unmove_indices` sends the same; bulk
    /// `child_counts` equal `child_count`; the terminal list, where given,
    /// holds every sampled position that is over or has no move, and only
    /// such positions.
    ///
    /// # Errors
    /// The first broken promise.
    pub fn indexed_unmoves(&mut self) -> Result<&mut Self, BrokenPromise> {
        let game = self.game;
        let size = game.size();
        let mut listed = Vec::new();
        let lists = game.terminal_indices(&mut listed);
        let listed = set(listed);
        if lists {
            for &i in &listed {
                let Some(p) = game.position(i) else {
                    return Err(broken(
                        "IndexedUnmoves: terminal_indices lists positions",
                        &i,
                        "no position at this index",
                    ));
                };
                if game.outcome(&p).is_none() && !self.children(&p)?.is_empty() {
                    return Err(broken(
                        "IndexedUnmoves: terminal_indices lists only positions that are over or stuck",
                        &p,
                        format!("index {i} has moves"),
                    ));
                }
            }
        }
        let (mut out, mut scratch, mut parents) =
            (ParentIndices::default(), Vec::new(), Vec::new());
        let (mut buf, mut visited) = (ParentIndices::default(), ParentIndices::default());
        let (mut moves, mut kids) = (Vec::new(), Vec::new());
        let mut bulk = [0u32; 1];
        for i in self.sample(size) {
            let Some(p) = game.position(i) else {
                continue;
            };
            self.looked(4);
            let over = game.outcome(&p).is_some();
            if lists && (over || self.children(&p)?.is_empty()) && listed.binary_search(&i).is_err()
            {
                return Err(broken(
                    "IndexedUnmoves: terminal_indices lists every position that is over or stuck",
                    &p,
                    format!("index {i} is missing"),
                ));
            }
            if !over && game.child_counts(i, &mut bulk) {
                let n = game.child_count(&p, &mut moves, &mut kids) as u32;
                if n > 0 && bulk[0] != n {
                    return Err(broken(
                        "IndexedUnmoves: child_counts equals child_count",
                        &p,
                        format!("bulk {} against {n}", bulk[0]),
                    ));
                }
                let mut narrow = [0u16];
                let want = n.min(u32::from(u16::MAX)) as u16;
                if n > 0 && (!game.child_counts(i, &mut narrow) || narrow[0] != want) {
                    return Err(broken(
                        "IndexedUnmoves: child_counts in 16 bits equals child_count (at most 65535)",
                        &p,
                        format!("narrow {} against {n}", narrow[0]),
                    ));
                }
            }
            out.clear();
            game.unmove_indices(i, &mut out, &mut scratch);
            parents.clear();
            game.unmoves(&p, &mut parents);
            let want = set(parents.iter().map(|q| game.index(q)).collect());
            // Counted before they are listed: a run may promise more
            // parents than memory holds.
            if out.len() != want.len() as u64 {
                return Err(broken(
                    "IndexedUnmoves: unmove_indices lists each parent's index once",
                    &p,
                    format!("listed {} parents, unmoves give {}", out.len(), want.len()),
                ));
            }
            let got: Vec<u64> = out.iter().collect();
            if set(got.clone()) != want {
                return Err(broken(
                    "IndexedUnmoves: unmove_indices lists each parent's index once",
                    &p,
                    format!("listed {got:?}, unmoves give {want:?}"),
                ));
            }
            visited.clear();
            game.visit_unmove_indices(i, &mut buf, &mut scratch, &mut visited);
            if visited.len() != got.len() as u64 {
                return Err(broken(
                    "IndexedUnmoves: visit_unmove_indices sends the parents unmove_indices lists",
                    &p,
                    format!("sent {} parents, listed {}", visited.len(), got.len()),
                ));
            }
            let sent: Vec<u64> = visited.iter().collect();
            if set(sent.clone()) != set(got.clone()) {
                return Err(broken(
                    "IndexedUnmoves: visit_unmove_indices sends the parents unmove_indices lists",
                    &p,
                    format!("sent {sent:?}, listed {got:?}"),
                ));
            }
        }
        Ok(self)
    }
}

impl<G: Tiered> GameCheck<'_, G>
where
    G::Position: Debug,
{
    /// [`Tiered`]: the tiers come children first; for sampled positions of
    /// every tier, the tier and the index round-trip, the index is below the
    /// tier's size, every child lies in the tier or a declared child tier
    /// (never in the tier when it is declared to be left), the fast
    /// `child_tier_indices` and `visit_tier` agree with the plain ones
    /// (`visit_tier` at the index alone and over a few indices around it).
    /// And `Eq` and `Hash` as in [`GameCheck::indexed`]: a position differs
    /// from those at a neighbouring index and at the index sampled before
    /// in its tier, and hashes alike with the equal positions
    /// `tier_position` and `visit_tier` give for it and for its children.
    ///
    /// # Errors
    /// The first broken promise.
    pub fn tiered(&mut self) -> Result<&mut Self, BrokenPromise> {
        let game = self.game;
        let order = game.tiers();
        let mut kids = Vec::new();
        for (k, &t) in order.iter().enumerate() {
            kids.clear();
            game.child_tiers(t, &mut kids);
            if let Some(&late) = kids.iter().find(|c| !order[..k].contains(c)) {
                return Err(broken(
                    "Tiered: tiers() lists every tier after its child tiers",
                    &game.tier_name(t),
                    format!(
                        "child tier {} is not listed before it",
                        game.tier_name(late)
                    ),
                ));
            }
        }
        let per_tier = (self.samples / order.len().max(1) as u64).max(16);
        let (mut fast, mut moves) = (Vec::<(Tier, u64)>::new(), Vec::new());
        for &t in &order {
            kids.clear();
            game.child_tiers(t, &mut kids);
            let size = game.tier_size(t);
            let saved = self.samples;
            self.samples = per_tier;
            let sample = self.sample(size);
            let whole = sample.all;
            self.samples = saved;
            let round_trip = |i: u64, p: &G::Position| {
                if game.tier(p) == t && game.tier_index(p) == i {
                    return Ok(());
                }
                Err(broken(
                    "Tiered: tier_position and tier/tier_index round-trip",
                    p,
                    format!(
                        "tier_position({}, {i}) has tier {} and index {}",
                        game.tier_name(t),
                        game.tier_name(game.tier(p)),
                        game.tier_index(p)
                    ),
                ))
            };
            let mut before: Option<(u64, G::Position)> = None;
            for i in sample {
                let Some(p) = game.tier_position(t, i) else {
                    continue;
                };
                self.looked(5);
                sound_copy(&p)?;
                round_trip(i, &p)?;
                // As in `indexed`: the one sampled before and one at a
                // neighbouring index decode to other positions (or to one
                // that does not round-trip, the fault then).
                let next = neighbour(i, size, whole, before.as_ref().map(|b| b.0))
                    .and_then(|j| Some((j, game.tier_position(t, j)?)));
                differs_from(
                    &p,
                    i,
                    next.iter().chain(&before),
                    round_trip,
                    "Tiered: positions at different indices of a tier differ",
                    |j| format!("tier_position({}, {j})", game.tier_name(t)),
                )?;
                let children = self.children(&p)?;
                let mut plain = Vec::new();
                for c in &children {
                    let (ct, ci) = (game.tier(c), game.tier_index(c));
                    plain.push((ct, ci));
                    let ok = if ct == t {
                        !game.leaves_tier(t)
                    } else {
                        kids.contains(&ct)
                    };
                    if !ok {
                        return Err(broken(
                            "Tiered: children lie in the tier (unless it is left) or a declared child tier",
                            &p,
                            format!("child {c:?} lies in tier {}", game.tier_name(ct)),
                        ));
                    }
                    if ci >= game.tier_size(ct) {
                        return Err(broken(
                            "Tiered: tier_index < tier_size",
                            c,
                            format!("index {ci} of size {}", game.tier_size(ct)),
                        ));
                    }
                    // A child's index is a position: one that is not would
                    // be waited for by its parents for ever.
                    let back = game.tier_position(ct, ci);
                    if let Some(q) = back.as_ref().filter(|q| *q == c) {
                        hash_alike(c, q, || {
                            format!("tier_position({}, {ci})", game.tier_name(ct))
                        })?;
                    }
                    if back
                        .as_ref()
                        .is_none_or(|q| game.tier(q) != ct || game.tier_index(q) != ci)
                    {
                        return Err(broken(
                            "Tiered: tier_position and tier/tier_index round-trip",
                            c,
                            format!(
                                "the child's index {ci} of tier {} decodes to {back:?}",
                                game.tier_name(ct)
                            ),
                        ));
                    }
                }
                if game.outcome(&p).is_none() {
                    fast.clear();
                    game.child_tier_indices(&p, &mut fast, &mut moves);
                    fast.sort_unstable();
                    fast.dedup();
                    plain.sort_unstable();
                    plain.dedup();
                    if fast != plain {
                        return Err(broken(
                            "Tiered: child_tier_indices gives each child's tier and index",
                            &p,
                            format!("fast {fast:?}, plain {plain:?}"),
                        ));
                    }
                }
                let mut visited = Vec::new();
                game.visit_tier(t, i..i + 1, &mut |j, q| visited.push((j, q)));
                if visited != [(i, p.clone())] {
                    return Err(broken(
                        "Tiered: visit_tier visits the positions of tier_position",
                        &p,
                        format!("visit_tier at index {i} gave {visited:?}"),
                    ));
                }
                hash_alike(&p, &visited[0].1, || {
                    format!("visit_tier's position at index {i}")
                })?;
                // And over a few indices around it: a game's own stepping
                // from one position to the next may go wrong only there
                // (stop short, skip, swap).
                let around = i.saturating_sub(WINDOW)..i.saturating_add(WINDOW + 1).min(size);
                visited.clear();
                game.visit_tier(t, around.clone(), &mut |j, q| visited.push((j, q)));
                let decoded: Vec<(u64, G::Position)> = around
                    .clone()
                    .filter_map(|j| Some((j, game.tier_position(t, j)?)))
                    .collect();
                if visited != decoded {
                    return Err(broken(
                        "Tiered: visit_tier visits the positions of tier_position",
                        &p,
                        format!("visit_tier over {around:?} gave {visited:?}, tier_position {decoded:?}"),
                    ));
                }
                before = Some((i, p));
            }
        }
        Ok(self)
    }
}

impl<G: Symmetric + Indexed> GameCheck<'_, G>
where
    G::Position: Debug,
{
    /// [`Symmetric`] (positions sampled by index): the canonical form is
    /// among the symmetric positions, and every symmetric position has the
    /// same canonical form, which hashes alike from each of them (the
    /// solvers key positions by it); each position and canonical form
    /// equals its clone and hashes alike; a game that says its symmetry is
    /// the identity ([`Symmetric::is_identity`]) gives no position but
    /// itself.
    ///
    /// # Errors
    /// The first broken promise.
    pub fn symmetric(&mut self) -> Result<&mut Self, BrokenPromise> {
        let game = self.game;
        let sample = self.sample(game.size());
        self.symmetric_on(sample.filter_map(|i| game.position(i)), |_, _| Ok(()))
    }
}

impl<G: Symmetric> GameCheck<'_, G>
where
    G::Position: Debug,
{
    fn symmetric_on(
        &mut self,
        positions: impl Iterator<Item = G::Position>,
        also: impl Fn(&G::Position, &G::Position) -> Checked,
    ) -> Result<&mut Self, BrokenPromise> {
        let mut images = Vec::new();
        for p in positions {
            let p = &p;
            self.looked(6);
            sound_copy(p)?;
            images.clear();
            self.game.symmetric(p, &mut images);
            let c = self.game.canonical(p);
            sound_copy(&c)?;
            if !images.contains(&c) {
                return Err(broken(
                    "Symmetric: canonical(p) is among symmetric(p)",
                    p,
                    format!("{c:?}"),
                ));
            }
            if !images.contains(p) {
                return Err(broken("Symmetric: symmetric(p) includes p", p, ""));
            }
            if self.game.is_identity() {
                if let Some(q) = images.iter().find(|q| *q != p) {
                    return Err(broken(
                        "Symmetric: is_identity() means symmetric(p) gives only p",
                        p,
                        format!("it gives {q:?}"),
                    ));
                }
            }
            for q in &images {
                let cq = self.game.canonical(q);
                if cq != c {
                    return Err(broken(
                        "Symmetric: symmetric positions share one canonical form",
                        p,
                        format!("{q:?} has canonical form {cq:?}, not {c:?}"),
                    ));
                }
                // The solvers key positions by their canonical form: one
                // form that hashes two ways is two positions to them.
                hash_alike(&c, &cq, || format!("the canonical form of {q:?}"))?;
            }
            also(p, &c)?;
        }
        Ok(self)
    }
}

impl<G: Symmetric + Tiered> GameCheck<'_, G>
where
    G::Position: Debug,
{
    /// [`Symmetric`] on a tiered game (positions sampled in every tier):
    /// as [`GameCheck::symmetric`], and the canonical form lies in the same
    /// tier.
    ///
    /// # Errors
    /// The first broken promise.
    pub fn symmetric_tiers(&mut self) -> Result<&mut Self, BrokenPromise> {
        let game = self.game;
        let order = game.tiers();
        let per_tier = (self.samples / order.len().max(1) as u64).max(16);
        let mut samples = Vec::with_capacity(order.len());
        for &t in &order {
            let saved = self.samples;
            self.samples = per_tier;
            samples.push((t, self.sample(game.tier_size(t))));
            self.samples = saved;
        }
        let positions = samples
            .into_iter()
            .flat_map(|(t, sample)| sample.filter_map(move |i| game.tier_position(t, i)));
        self.symmetric_on(positions, |p, c| {
            if game.tier(p) == game.tier(c) {
                Ok(())
            } else {
                Err(broken(
                    "Symmetric: the canonical form lies in the same tier",
                    p,
                    format!("{c:?}"),
                ))
            }
        })
    }
}

#[cfg(test)]
mod tests;
