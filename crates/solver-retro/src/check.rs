//! An independent certificate checker.
//!
//! It looks only at the game's forward moves and the solution's values —
//! none of the propagation code — and checks every position locally:
//!
//! * a terminal position has the value the rules give it, remoteness 0;
//! * a win in `r` has a child lost in exactly `r − 1` and none lost sooner;
//! * a loss in `r` has only won children, the slowest in exactly `r − 1`;
//! * a tie in `r` has no lost child and its fastest tied child in `r − 1`;
//! * a draw has no lost or tied child and at least one drawn child;
//! * every child has a value.
//!
//! Why that proves the table: a win or loss labelled with remoteness `r` is
//! correct by induction on `r` (the winner follows the lost child; every
//! move of the loser reaches a proven win). Ties likewise. A position
//! labelled a draw cannot really be a forced win: its winning move would
//! reach a position that is really lost, which the table either labels lost
//! (but a draw has no lost child) or labels a draw — and following such
//! mislabelled losses down their true remoteness reaches a contradiction.
//! So a table that passes is correct.
//!
//! # One certificate, one count
//!
//! Whatever holds the table — a [`Solution`](crate::Solution) or an
//! [`IndexedSolution`] in memory, a [`TieredSolution`] read from a store,
//! the cluster's solution (any [`HoldsTiers`]) — a successful check is one
//! [`Certificate`]: the **positions** checked (every position the solution
//! holds a value for, once) and their **distinct children** (for each of
//! them that is not over, the number of different positions its moves
//! reach: two moves to one child are one child, as the engine's counters
//! count them), with the positions by outcome. The three entry points are
//! the same check reached three ways and give the same certificate for the
//! same table: [`certify`] plays each position's moves (any [`Solved`]),
//! [`certify_indexed`] finds the children by index, and [`certify_tiers`]
//! by tier index. Which positions a table holds is the solve's choice: a
//! reachable-first solve holds those reachable from its start, a whole
//! solve (a database's, the cluster's) every position of the index.

use std::fmt;

use game_core::{ChildIndices, Game, IndexedChildren, Outcome, Tiered, Value};

use crate::cell::{Cell, Inner};
use crate::solution::{Counts, IndexedSolution, Solved};
use crate::tier_solution::HoldsTiers;
#[cfg(doc)]
use crate::tier_solution::TieredSolution;

/// What the checker found wrong with a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Flaw {
    /// A terminal position with the wrong value; holds the right one.
    Terminal(Value),
    /// A child of the position has no value in the solution.
    UnknownChild,
    /// The game's index gives the position (or a child) the id of another
    /// position: the table cannot tell them apart; or the solution visits
    /// the position with a value other than the one it answers for it (a
    /// game that visits it at another's index).
    Index,
    /// A win without a lost child one ply closer, or with a faster one.
    Win,
    /// A loss with a child that is not won, or whose slowest won child is
    /// not one ply closer.
    Lose,
    /// A tie with a lost child, or without a tied child one ply closer, or
    /// with a faster one.
    Tie,
    /// A draw with a lost or tied child, or without a drawn child.
    Draw,
    /// The position has a value in the solution, but the game's
    /// [`Tiered::visit_tier`] did not give
    /// it where it was asked to (it left it out, or gave indices out of
    /// order): its value would go unchecked.
    Unvisited,
}

/// A position the checker rejects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection<P> {
    /// The position.
    pub position: P,
    /// The value the solution gives it.
    pub value: Value,
    /// What is wrong.
    pub flaw: Flaw,
}

impl fmt::Display for Flaw {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Flaw::Terminal(v) => write!(f, "the game is over there and the rules say {v}"),
            Flaw::UnknownChild => f.write_str("a child has no value"),
            Flaw::Index => {
                f.write_str("the game's index maps it or a child to another position's id")
            }
            Flaw::Win => f.write_str("no lost child is exactly one ply closer"),
            Flaw::Lose => f.write_str("not every child is won with the slowest one ply closer"),
            Flaw::Tie => f.write_str("no tied child one ply closer, or a lost child"),
            Flaw::Draw => f.write_str("a lost or tied child, or no drawn child"),
            Flaw::Unvisited => {
                f.write_str("the game's visit_tier left it out, so its value would go unchecked")
            }
        }
    }
}

impl<P: fmt::Debug> fmt::Display for Rejection<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "certificate rejected at {:?} (solution says {}): {}",
            self.position, self.value, self.flaw
        )
    }
}

impl<P: fmt::Debug> std::error::Error for Rejection<P> {}

/// What a successful check covered: the same figures for the same table
/// from every checker (see the module docs, *One certificate, one count*).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Certificate {
    /// Positions checked: each position the solution holds a value for,
    /// once.
    pub positions: u64,
    /// Their distinct children: for each position checked that is not
    /// over, the number of different positions its moves reach (two moves
    /// to one child count once). The edges of the game's graph among the
    /// positions checked.
    pub children: u64,
    /// The positions by outcome.
    pub counts: Counts,
}

impl Certificate {
    /// Counts one position checked, of `value`, with `children` distinct
    /// children: every checker counts through here.
    fn add(&mut self, value: Value, children: u64) {
        self.positions += 1;
        self.children += children;
        self.counts.add(value.outcome());
    }
}

impl std::ops::AddAssign for Certificate {
    fn add_assign(&mut self, other: Certificate) {
        self.positions += other.positions;
        self.children += other.children;
        self.counts += other.counts;
    }
}

impl std::iter::Sum for Certificate {
    fn sum<I: Iterator<Item = Certificate>>(iter: I) -> Certificate {
        iter.fold(Certificate::default(), |mut a, b| {
            a += b;
            a
        })
    }
}

/// Checks a solution position by position (see the module docs for the
/// rules and why they suffice), playing each position's moves: the
/// certificate of any [`Solved`]. O(positions + moves), spread over all
/// cores with rayon ([`Solved::for_each_part`]). The children a position's
/// moves reach are made distinct before they are counted (by equality,
/// with a hash to sort long lists), so that the [`Certificate`] is the one
/// [`certify_indexed`] and [`certify_tiers`] give for the same table.
///
/// # Errors
/// The first position (in the solution's order) that breaks a rule, as a
/// [`Rejection`].
pub fn certify<S>(solution: &S) -> Result<Certificate, Rejection<<S::Game as Game>::Position>>
where
    S: Solved + Sync,
    <S::Game as Game>::Position: Send,
{
    use rayon::prelude::*;
    let parts = rayon::current_num_threads() * 8;
    let results: Vec<_> = (0..parts)
        .into_par_iter()
        .map(|part| certify_part(solution, part, parts))
        .collect();
    results.into_iter().sum()
}

fn certify_part<S: Solved>(
    solution: &S,
    part: usize,
    parts: usize,
) -> Result<Certificate, Rejection<<S::Game as Game>::Position>> {
    let game = solution.game();
    let mut cert = Certificate::default();
    let mut scratch = Scratch::default();
    let mut failure = None;
    solution.for_each_part(part, parts, |pos, value| {
        if failure.is_some() {
            return;
        }
        // The value judged must be the one the solution answers for the
        // position: a game that visits a position at another's index
        // would have that index's value judged in its place.
        let checked = if !solution.keyed(pos) || solution.value(pos) != Some(value) {
            Err(Flaw::Index)
        } else {
            check_one(game, solution, pos, value, &mut scratch)
        };
        match checked {
            Ok(children) => cert.add(value, children),
            Err(flaw) => {
                failure = Some(Rejection {
                    position: pos.clone(),
                    value,
                    flaw,
                });
            }
        }
    });
    match failure {
        Some(r) => Err(r),
        None => Ok(cert),
    }
}

/// A task's buffers in [`certify`]: a position's moves, the children they
/// reach, and the keys that make long lists of children distinct.
struct Scratch<G: Game> {
    moves: Vec<G::Move>,
    children: Vec<G::Position>,
    keys: Vec<(u64, usize)>,
    repeat: Vec<bool>,
}

impl<G: Game> Default for Scratch<G> {
    fn default() -> Self {
        Scratch {
            moves: Vec::new(),
            children: Vec::new(),
            keys: Vec::new(),
            repeat: Vec::new(),
        }
    }
}

/// Checks `pos` of `value` by its moves; its number of distinct children.
fn check_one<S: Solved>(
    game: &S::Game,
    solution: &S,
    pos: &<S::Game as Game>::Position,
    value: Value,
    scratch: &mut Scratch<S::Game>,
) -> Result<u64, Flaw> {
    let Scratch {
        moves,
        children,
        keys,
        repeat,
    } = scratch;
    moves.clear();
    children.clear();
    let over = game.outcome(pos);
    if over.is_none() {
        game.moves(pos, moves);
        children.extend(moves.iter().map(|m| game.play(pos, m)));
        distinct(children, keys, repeat);
    }
    judge_position(
        game,
        pos,
        value,
        over,
        children.iter().map(|child| {
            if !solution.keyed(child) {
                return Err(Flaw::Index);
            }
            solution.value(child).ok_or(Flaw::UnknownChild)
        }),
    )?;
    Ok(children.len() as u64)
}

/// Lists longer than this are made distinct through sorted hashes rather
/// than by comparing each child with those kept before it.
const SHORT: usize = 16;

/// Drops the repeats of `v` in place, keeping the first of each (in
/// order): by comparison for a short list, else by sorting the children's
/// hashes and comparing only children of one hash. `keys` and `repeat`
/// are scratch; nothing is allocated once they have grown.
fn distinct<P: Eq + std::hash::Hash>(
    v: &mut Vec<P>,
    keys: &mut Vec<(u64, usize)>,
    repeat: &mut Vec<bool>,
) {
    use std::hash::BuildHasher;
    if v.len() <= SHORT {
        let mut kept = 0;
        for i in 0..v.len() {
            if !v[..kept].contains(&v[i]) {
                v.swap(kept, i);
                kept += 1;
            }
        }
        v.truncate(kept);
        return;
    }
    let hasher = rustc_hash::FxBuildHasher;
    keys.clear();
    keys.extend(v.iter().enumerate().map(|(i, p)| (hasher.hash_one(p), i)));
    keys.sort_unstable();
    repeat.clear();
    repeat.resize(v.len(), false);
    let mut from = 0;
    while from < keys.len() {
        let to = from
            + keys[from..]
                .iter()
                .take_while(|k| k.0 == keys[from].0)
                .count();
        // One hash: a child equal to an earlier one (by index) repeats it.
        for a in from..to {
            let i = keys[a].1;
            repeat[i] = keys[from..to]
                .iter()
                .any(|&(_, j)| j < i && !repeat[j] && v[j] == v[i]);
        }
        from = to;
    }
    let mut k = 0;
    v.retain(|_| {
        k += 1;
        !repeat[k - 1]
    });
}

/// Checks one position's `value` by the rules of the module docs, given
/// its `children`: for each of the game's moves from `pos`, in order, the
/// value of the position it reaches, or the flaw that child shows (a
/// child with no value is [`Flaw::UnknownChild`]). `children` is not read
/// when the game is over at `pos`. The checker applies it to every
/// position of a solution; on its own it checks a value read from
/// elsewhere — one answer of a database, say — against its children's.
///
/// ```
/// use game_core::fixtures::Graph;
/// use game_core::Value;
/// use solver_retro::{check_position, Flaw};
///
/// // 0 moves to 1 and to 2; 1 and 2 have no move, so they are lost.
/// let g = Graph { edges: vec![vec![1, 2], vec![], vec![]], ends: vec![None; 3] };
/// let children = [Ok(Value::lose(0)), Ok(Value::lose(0))];
/// assert_eq!(check_position(&g, &0, Value::win(1), children), Ok(()));
/// assert_eq!(check_position(&g, &0, Value::win(3), children), Err(Flaw::Win));
/// assert_eq!(check_position(&g, &1, Value::lose(0), []), Ok(()));
/// let unknown = [Ok(Value::lose(0)), Err(Flaw::UnknownChild)];
/// assert_eq!(check_position(&g, &0, Value::win(1), unknown), Err(Flaw::UnknownChild));
/// ```
///
/// # Errors
/// The rule `value` breaks; the first child's flaw, if a child shows one.
pub fn check_position<G: Game>(
    game: &G,
    pos: &G::Position,
    value: Value,
    children: impl IntoIterator<Item = Result<Value, Flaw>>,
) -> Result<(), Flaw> {
    judge_position(game, pos, value, game.outcome(pos), children)
}

/// A value read from elsewhere (a database, say) that held against its
/// children's by [`check_position`]: what [`look_up_checked`] gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Looked<M> {
    /// The position's value.
    pub value: Value,
    /// Each of the game's moves from the position, in order, with the
    /// value read for the child it reaches (none for a position over by
    /// the rules; a child without a value fails the check).
    pub moves: Vec<(M, Value)>,
}

/// Looks up `pos` by `lookup` and checks the value against its
/// children's, read by `lookup` too, by the certificate's rule for one
/// position ([`check_position`]): records whose checksums hold can still
/// be wrong, so every command that answers from stored records answers
/// through this. `Ok(None)` when `lookup` has no value for `pos`.
///
/// ```
/// use game_core::fixtures::Graph;
/// use game_core::Value;
/// use solver_retro::{look_up_checked, Flaw};
///
/// // 0 moves to 1 and to 2; 1 and 2 have no move, so they are lost.
/// let g = Graph { edges: vec![vec![1, 2], vec![], vec![]], ends: vec![None; 3] };
/// let mut stored = vec![Some(Value::win(1)), Some(Value::lose(0)), Some(Value::lose(0))];
/// let said = |v, f| format!("{v}: {f}");
/// let looked = look_up_checked(&g, &0, |&p| Ok(stored[p]), said)?.expect("stored");
/// assert_eq!(looked.value, Value::win(1));
/// assert_eq!(looked.moves.len(), 2);
/// stored[0] = Some(Value::win(3));
/// assert!(look_up_checked(&g, &0, |&p| Ok(stored[p]), said).is_err());
/// stored[2] = None;
/// assert!(look_up_checked(&g, &2, |&p| Ok(stored[p]), said)?.is_none());
/// # Ok::<(), String>(())
/// ```
///
/// # Errors
/// `lookup`'s; `contradicted(value, flaw)` when the value breaks the rule
/// (a child with no value is [`Flaw::UnknownChild`]).
pub fn look_up_checked<G: Game, E>(
    game: &G,
    pos: &G::Position,
    mut lookup: impl FnMut(&G::Position) -> Result<Option<Value>, E>,
    contradicted: impl FnOnce(Value, Flaw) -> E,
) -> Result<Option<Looked<G::Move>>, E> {
    let Some(value) = lookup(pos)? else {
        return Ok(None);
    };
    let mut moves = Vec::new();
    let mut children = Vec::new();
    if game.outcome(pos).is_none() {
        game.moves(pos, &mut moves);
        for m in &moves {
            children.push(lookup(&game.play(pos, m))?.ok_or(Flaw::UnknownChild));
        }
    }
    check_position(game, pos, value, children.iter().copied())
        .map_err(|flaw| contradicted(value, flaw))?;
    let moves = moves
        .into_iter()
        .zip(children)
        .filter_map(|(m, c)| c.ok().map(|c| (m, c)))
        .collect();
    Ok(Some(Looked { value, moves }))
}

/// [`check_position`] for a position whose outcome by the rules, `over`,
/// the caller already has (the checker asks it once a position).
fn judge_position<G: Game>(
    game: &G,
    pos: &G::Position,
    value: Value,
    over: Option<Outcome>,
    children: impl IntoIterator<Item = Result<Value, Flaw>>,
) -> Result<(), Flaw> {
    if let Some(o) = over {
        let want = Value::new(o, 0);
        return if value == want {
            Ok(())
        } else {
            Err(Flaw::Terminal(want))
        };
    }
    let mut seen = Seen::default();
    for child in children {
        seen.add(child?);
    }
    if !seen.any {
        let want = Value::new(game.stalemate(pos), 0);
        return if value == want {
            Ok(())
        } else {
            Err(Flaw::Terminal(want))
        };
    }
    judge(value, &seen)
}

/// What a position's children are, as far as the rules need.
#[derive(Default)]
struct Seen {
    fastest_loss: Option<u32>,
    slowest_win: Option<u32>,
    fastest_tie: Option<u32>,
    all_won: bool,
    any_draw: bool,
    any: bool,
}

impl Seen {
    #[inline]
    fn add(&mut self, child: Value) {
        if !self.any {
            self.all_won = true;
            self.any = true;
        }
        let r = child.remoteness().unwrap_or(0);
        match child.outcome() {
            Outcome::Lose => self.fastest_loss = Some(self.fastest_loss.map_or(r, |x| x.min(r))),
            Outcome::Win => self.slowest_win = Some(self.slowest_win.map_or(r, |x| x.max(r))),
            Outcome::Tie => self.fastest_tie = Some(self.fastest_tie.map_or(r, |x| x.min(r))),
            Outcome::Draw => self.any_draw = true,
        }
        self.all_won &= child.outcome() == Outcome::Win;
    }
}

/// The rules of the module docs for a position that is not over, given
/// its children.
fn judge(value: Value, seen: &Seen) -> Result<(), Flaw> {
    let Seen {
        fastest_loss,
        slowest_win,
        fastest_tie,
        all_won,
        any_draw,
        ..
    } = *seen;
    let r = value.remoteness();
    let one_closer = |x: Option<u32>| matches!((x, r), (Some(x), Some(r)) if x + 1 == r);
    let ok = match value.outcome() {
        Outcome::Win => one_closer(fastest_loss),
        Outcome::Lose => all_won && one_closer(slowest_win),
        Outcome::Tie => fastest_loss.is_none() && one_closer(fastest_tie),
        Outcome::Draw => fastest_loss.is_none() && fastest_tie.is_none() && any_draw,
    };
    if ok {
        Ok(())
    } else {
        Err(match value.outcome() {
            Outcome::Win => Flaw::Win,
            Outcome::Lose => Flaw::Lose,
            Outcome::Tie => Flaw::Tie,
            Outcome::Draw => Flaw::Draw,
        })
    }
}

/// Checks every position of an [`IndexedSolution`] like [`certify`], with
/// the children found by index ([`IndexedChildren::child_indices`]) instead
/// of moves played and indexed one by one: the same rules, much less work
/// for games whose children form runs of the index (which list each
/// distinct child once: [`GameCheck::indexed_children`](crate::GameCheck::indexed_children)
/// checks that promise). Each position's index is checked to decode back
/// to it. The same [`Certificate`] as [`certify`] on the same table. Runs on the current thread pool in
/// blocks of consecutive indices (children of nearby positions tend to be
/// nearby in memory).
///
/// # Errors
/// The first position, in index order, that breaks a rule.
pub fn certify_indexed<G>(
    solution: &IndexedSolution<'_, G>,
) -> Result<Certificate, Rejection<G::Position>>
where
    G: IndexedChildren + Sync,
    G::Position: Send,
    G::Move: Send,
{
    certify_table(solution.game(), &solution.table)
}

/// [`certify_indexed`] over `table`, a table of `game`'s dense index
/// (what the tier solver's dense plan holds as its one tier's:
/// [`crate::TierSolve::certify_by_index`]).
pub(crate) fn certify_table<G>(
    game: &G,
    table: &crate::Table,
) -> Result<Certificate, Rejection<G::Position>>
where
    G: IndexedChildren + Sync,
    G::Position: Send,
    G::Move: Send,
{
    use rayon::prelude::*;
    let size = table.len() as u64;
    const BLOCK: u64 = 1 << 14;
    let results: Vec<Result<Certificate, Rejection<G::Position>>> = (0..size.div_ceil(BLOCK))
        .into_par_iter()
        .map(|b| {
            let range = b * BLOCK..size.min((b + 1) * BLOCK);
            match &table.0 {
                Inner::Byte(cells) => certify_block(game, cells, range),
                Inner::Narrow(cells) => certify_block(game, cells, range),
                Inner::Wide(cells) => certify_block(game, cells, range),
            }
        })
        .collect();
    results.into_iter().sum()
}

/// [`certify_indexed`] on one block of indices, for one cell width.
fn certify_block<G: IndexedChildren, C: Cell>(
    game: &G,
    cells: &[C],
    range: std::ops::Range<u64>,
) -> Result<Certificate, Rejection<G::Position>> {
    let mut cert = Certificate::default();
    let mut moves = Vec::new();
    let mut kids = vec![ChildIndices::default(); BATCH];
    let mut batch: Vec<(Value, G::Position, Ahead)> = Vec::with_capacity(BATCH);
    let read = |k: u64| usize::try_from(k).ok().and_then(|k| cells.get(k)?.value());
    let mut next = range.start;
    while next < range.end {
        // A batch's children are found first and their cells read in one
        // tight pass, so that the cache misses of a whole batch overlap
        // (one position at a time, the processor waits for its few
        // scattered children before it starts the next).
        batch.clear();
        while batch.len() < BATCH && next < range.end {
            let i = next;
            next += 1;
            // An index without a value is not decoded (a sparse table).
            let Some(value) = read(i) else {
                continue;
            };
            let Some(pos) = game.position(i) else {
                continue;
            };
            let ahead = if game.index(&pos) != i {
                Ahead::BadIndex
            } else if let Some(o) = game.outcome(&pos) {
                Ahead::Over(o)
            } else {
                let k = &mut kids[batch.len()];
                k.clear();
                game.child_indices(i, k, &mut moves);
                if k.is_empty() {
                    Ahead::Over(game.stalemate(&pos))
                } else {
                    Ahead::Children
                }
            };
            batch.push((value, pos, ahead));
        }
        let mut known = 0usize;
        for ((.., ahead), k) in batch.iter().zip(&kids) {
            if *ahead == Ahead::Children {
                known += k.singles.iter().filter(|&&c| read(c).is_some()).count();
            }
        }
        std::hint::black_box(known);
        // Then each position in index order, as one by one.
        for ((value, pos, ahead), kids) in batch.iter().zip(&kids) {
            let value = *value;
            let reject = |flaw| Rejection {
                position: pos.clone(),
                value,
                flaw,
            };
            if *ahead == Ahead::BadIndex {
                return Err(reject(Flaw::Index));
            }
            if let Ahead::Over(o) = *ahead {
                let want = Value::new(o, 0);
                if value != want {
                    return Err(reject(Flaw::Terminal(want)));
                }
                cert.add(value, 0);
                continue;
            }
            let mut seen = Seen::default();
            for &k in &kids.singles {
                seen.add(read(k).ok_or_else(|| reject(Flaw::UnknownChild))?);
            }
            for run in &kids.runs {
                // A run past the table, or one child repeated, names
                // children the table does not hold as such.
                if !run.within(cells.len() as u64) {
                    return Err(reject(Flaw::UnknownChild));
                }
                // Piece by piece: a plain loop each, no hole to test.
                for piece in run.pieces() {
                    for k in piece.iter() {
                        seen.add(read(k).ok_or_else(|| reject(Flaw::UnknownChild))?);
                    }
                }
            }
            judge(value, &seen).map_err(reject)?;
            cert.add(value, kids.len());
        }
    }
    Ok(cert)
}

/// Positions [`certify_block`] finds the children of before it judges
/// any.
const BATCH: usize = 32;

/// What [`certify_block`] found of a position before judging it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ahead {
    /// Its index does not decode back to it.
    BadIndex,
    /// It is over, with this outcome for the player to move.
    Over(Outcome),
    /// It has children (listed in the batch's slot).
    Children,
}

/// Checks every position held by a tiered solution — a [`TieredSolution`],
/// the cluster's, any [`HoldsTiers`] — like [`certify`], tier by tier: each position's children come from
/// [`Tiered::child_tier_indices`]
/// and their values from the tables of their tiers; each position's own
/// tier index is checked to be the one it was visited at, and an index
/// with a value that [`Tiered::visit_tier`]
/// passes over is decoded and rejected ([`Flaw::Unvisited`]) when it is a
/// position. Blocks of each tier run on the current thread pool. The
/// children are the distinct (tier, index) pairs of each position's moves:
/// the same [`Certificate`] as [`certify`] on the same tables.
///
/// # Errors
/// The first position (by tier, then index) that breaks a rule; a child in
/// a tier the solution does not hold is [`Flaw::UnknownChild`].
pub fn certify_tiers<S>(solution: &S) -> Result<Certificate, Rejection<<S::Game as Game>::Position>>
where
    S: HoldsTiers + Sync,
    S::Game: Sync,
    <S::Game as Game>::Position: Send,
    <S::Game as Game>::Move: Send,
{
    certify_tiers_with(solution, &crate::Config::default())
}

/// [`certify_tiers`], its progress reported to `config`'s callback
/// ([`crate::Config::progress`]) as [`Progress::Work`](crate::Progress::Work):
/// the indices of the tables held checked so far, of all of them, once a
/// block of 16,384 (from the thread that checked it, so reports may come
/// out of order: the largest counts).
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use game_core::{Game, Indexed, OneTier, Value};
/// use solver_retro::{Config, HoldsTiers, Progress, Table, TierTables};
///
/// /// Take one from a pile of up to 2, solved by hand.
/// struct Pile;
/// impl Game for Pile {
///     type Position = u64;
///     type Move = ();
///     fn moves(&self, n: &u64, out: &mut Vec<()>) { if *n > 0 { out.push(()) } }
///     fn play(&self, n: &u64, _: &()) -> u64 { n - 1 }
/// }
/// impl Indexed for Pile {
///     fn size(&self) -> u64 { 3 }
///     fn index(&self, n: &u64) -> u64 { *n }
///     fn position(&self, i: u64) -> Option<u64> { (i < 3).then_some(i) }
/// }
/// struct Solved(OneTier<Pile>, TierTables);
/// impl HoldsTiers for Solved {
///     type Game = OneTier<Pile>;
///     fn tiered_game(&self) -> &OneTier<Pile> { &self.0 }
///     fn tier_tables(&self) -> &TierTables { &self.1 }
/// }
/// let mut table = Table::new(3, false)?;
/// for (n, v) in [Value::lose(0), Value::win(1), Value::lose(2)].into_iter().enumerate() {
///     table.set(n as u64, Some(v))?;
/// }
/// let sol = Solved(OneTier(Pile), TierTables::new(vec![0], [(0, table)]));
///
/// let seen = Arc::new(Mutex::new(Vec::new()));
/// let log = Arc::clone(&seen);
/// let config = Config::default().progress(move |p| {
///     if let Progress::Work { done, total } = p {
///         log.lock().unwrap().push((done, total));
///     }
/// });
/// let cert = solver_retro::certify_tiers_with(&sol, &config)?;
/// assert_eq!(cert, solver_retro::certify_tiers(&sol)?);
/// assert_eq!(*seen.lock().unwrap(), [(3, 3)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`certify_tiers`].
pub fn certify_tiers_with<S>(
    solution: &S,
    config: &crate::Config,
) -> Result<Certificate, Rejection<<S::Game as Game>::Position>>
where
    S: HoldsTiers + Sync,
    S::Game: Sync,
    <S::Game as Game>::Position: Send,
    <S::Game as Game>::Move: Send,
{
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    let game = solution.tiered_game();
    let held = solution.tier_tables();
    let all: u64 = held
        .tiers()
        .iter()
        .filter_map(|&t| held.table(t))
        .map(|table| table.len() as u64)
        .sum();
    let checked = AtomicU64::new(0);
    let mut total = Certificate::default();
    for &t in held.tiers() {
        let Some(table) = held.table(t) else {
            continue;
        };
        let size = table.len() as u64;
        const BLOCK: u64 = 1 << 14;
        let results: Vec<Result<Certificate, Rejection<_>>> = (0..size.div_ceil(BLOCK))
            .into_par_iter()
            .map(|b| {
                let mut cert = Certificate::default();
                let (mut kids, mut moves) = (Vec::new(), Vec::new());
                let mut failure = None;
                let block = b * BLOCK..size.min((b + 1) * BLOCK);
                // The next index visit_tier should give: one it passes
                // over that holds a value and decodes to a position is
                // rejected, so that no value the solution answers goes
                // unchecked.
                let mut next = block.start;
                game.visit_tier(t, block.clone(), &mut |i, pos| {
                    if failure.is_some() {
                        return;
                    }
                    if i < next {
                        failure = table.value(i).map(|value| Rejection {
                            position: pos.clone(),
                            value,
                            flaw: Flaw::Unvisited,
                        });
                        return;
                    }
                    failure = passed_over(game, t, table, next..i.min(block.end));
                    next = i.saturating_add(1);
                    if failure.is_some() {
                        return;
                    }
                    let Some(value) = table.value(i) else {
                        return;
                    };
                    let mut reject = |flaw| {
                        failure = Some(Rejection {
                            position: pos.clone(),
                            value,
                            flaw,
                        });
                    };
                    if game.tier(&pos) != t || game.tier_index(&pos) != i {
                        return reject(Flaw::Index);
                    }
                    kids.clear();
                    let terminal = match game.outcome(&pos) {
                        Some(o) => Some(o),
                        None => {
                            game.child_tier_indices(&pos, &mut kids, &mut moves);
                            kids.is_empty().then(|| game.stalemate(&pos))
                        }
                    };
                    if let Some(o) = terminal {
                        let want = Value::new(o, 0);
                        if value != want {
                            return reject(Flaw::Terminal(want));
                        }
                        cert.add(value, 0);
                        return;
                    }
                    let mut seen = Seen::default();
                    kids.sort_unstable();
                    kids.dedup();
                    for &(ct, ci) in &kids {
                        match held.value_at(ct, ci) {
                            Some(v) => seen.add(v),
                            None => return reject(Flaw::UnknownChild),
                        }
                    }
                    match judge(value, &seen) {
                        Ok(()) => cert.add(value, kids.len() as u64),
                        Err(flaw) => reject(flaw),
                    }
                });
                if failure.is_none() && next < block.end {
                    failure = passed_over(game, t, table, next..block.end);
                }
                let done = checked.fetch_add(block.end - block.start, Ordering::Relaxed)
                    + (block.end - block.start);
                config.report(crate::Progress::Work { done, total: all });
                match failure {
                    Some(r) => Err(r),
                    None => Ok(cert),
                }
            })
            .collect();
        total += results.into_iter().sum::<Result<Certificate, _>>()?;
    }
    Ok(total)
}

/// The first index of `range` in `tier` that holds a value in `table` and
/// decodes to a position, which `visit_tier` passed over: its rejection.
/// (An index that decodes to none is no position's: no query reads it.)
fn passed_over<G: Tiered>(
    game: &G,
    tier: game_core::Tier,
    table: &crate::Table,
    range: std::ops::Range<u64>,
) -> Option<Rejection<G::Position>> {
    range.into_iter().find_map(|k| {
        let value = table.value(k)?;
        Some(Rejection {
            position: game.tier_position(tier, k)?,
            value,
            flaw: Flaw::Unvisited,
        })
    })
}

#[cfg(test)]
mod tests;
