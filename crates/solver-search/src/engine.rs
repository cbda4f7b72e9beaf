//! One thread's search: null-window negamax with alpha-beta on an explicit
//! stack, the driver that narrows a position's score to its exact value,
//! and the search for a tie's remoteness.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use game_core::{Budget, EndgameTable, Game, Outcome, SearchHints, SearchKey, Value};
use rustc_hash::FxHashMap;

use crate::score::{child_beta, score, up, BIG};
use crate::table::Table;
use crate::Error;

/// Steps of the work budget one node of the search costs (a node takes
/// some tens of nanoseconds; a step is a few).
pub const STEPS_A_NODE: u64 = 16;

/// Nodes counted before the shared counter is told.
const FLUSH: u64 = 1024;

/// The plies below a root where a helper thread rotates its move order.
const ROTATE_PLIES: usize = 3;

/// How far helper `helper` (from 1) rotates the moves kept at `depth`
/// plies below the root (`depth < ROTATE_PLIES`): helpers start on
/// other moves than the main search, so that together they fill the
/// shared table with what the main search needs next.
#[inline]
fn rotation(helper: usize, depth: usize) -> usize {
    // Helper h rotates by the digits of h in base 2, one a ply from ply 1
    // (the root last: its first move is the likely best, which the main
    // search proves), then the root by what is left.
    match depth {
        0 => helper >> (ROTATE_PLIES - 1),
        d => (helper >> (d - 1)) & 1,
    }
}

/// What every thread of one query shares.
pub(crate) struct Shared<'a, G, T> {
    pub(crate) game: &'a G,
    pub(crate) tables: &'a T,
    pub(crate) tt: &'a Table,
    pub(crate) tt_bytes: u64,
    pub(crate) budget: &'a Budget,
    /// Nodes searched by every thread so far.
    pub(crate) nodes: &'a AtomicU64,
    /// Set when the work budget is spent: every thread stops.
    pub(crate) stop: &'a AtomicBool,
    /// Set when the main search of a root has its answer (or failed): the
    /// helpers searching the same root stop.
    pub(crate) done: &'a AtomicBool,
}

impl<G, T> Clone for Shared<'_, G, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<G, T> Copy for Shared<'_, G, T> {}

/// A position on the search's path.
struct Frame<P> {
    pos: P,
    key: u64,
    /// The threshold this node is tested against.
    beta: i64,
    /// The best `up(child)` so far (an upper bound while all fail low).
    best: i64,
    /// The table's upper bound when the node was entered.
    hi: i64,
    /// This node's moves: `moves[next..end]` are still to be tried.
    first: usize,
    next: usize,
    end: usize,
    progress: Option<u64>,
    /// The engine's nodes when the node was entered.
    start: u64,
    /// Whether its moves are those the game's `useful_moves` kept.
    kept: bool,
}

/// A tie on the path of the search for a tie's remoteness.
struct TieFrame<P> {
    pos: P,
    key: u64,
    best: u32,
    first: usize,
    next: usize,
    end: usize,
    progress: Option<u64>,
}

enum Step {
    /// The node's result, found without searching below it.
    Done(i64),
    /// The node was pushed on the stack.
    Pushed,
}

/// A child's tie remoteness, as far as known without searching below it.
enum TieChild<P> {
    /// Not a tie, or a tie of this remoteness.
    Known(Option<u32>),
    /// A tie to search below.
    Search(P, u64, Option<u64>),
}

/// A lower bound `lo` raised to the least score at least `lo` that a value
/// can have in a game whose quick value is complete (a win in an odd
/// number of plies, a loss in an even one, a tie 0).
#[inline]
pub(crate) fn snap_lo(lo: i64) -> i64 {
    match lo {
        1..=4 => 5 + i64::from((BIG - 5) % 2 == 0),
        -4..=-1 => 0,
        // A win in `BIG − lo` plies or fewer; an even count is one less.
        l if l >= 5 => l + i64::from((BIG - l) % 2 == 0),
        // A loss in `BIG + lo` plies or more; an odd count is one more.
        l => match l + i64::from((BIG + l) % 2 != 0) {
            -4..=-1 => 0,
            l => l,
        },
    }
}

/// An upper bound `hi` lowered to the greatest score at most `hi` that a
/// value can have in a game whose quick value is complete.
#[inline]
pub(crate) fn snap_hi(hi: i64) -> i64 {
    match hi {
        1..=4 => 0,
        -4..=-1 => -5 - i64::from((BIG - 5) % 2 != 0),
        h if h >= 5 => match h - i64::from((BIG - h) % 2 == 0) {
            1..=4 => 0,
            h => h,
        },
        h => h - i64::from((BIG + h) % 2 != 0),
    }
}

/// One thread's search and its reusable buffers.
pub(crate) struct Engine<'a, G: Game, T> {
    s: Shared<'a, G, T>,
    stack: Vec<Frame<G::Position>>,
    moves: Vec<G::Move>,
    ties: Vec<TieFrame<G::Position>>,
    tie_moves: Vec<G::Move>,
    /// Exact tie remoteness of the ties searched.
    tie_memo: FxHashMap<u64, u32>,
    unflushed: u64,
    /// Nodes this engine visited.
    visited: u64,
    /// The fewest plies of a win and of a loss of a position pushed (not
    /// over, no quick value): 1 and 1, or 3 and 4 when the game's quick
    /// value is complete.
    fastest_win: i64,
    fastest_loss: i64,
    /// 0 for the main search of a root; from 1, a helper that searches the
    /// same root in another move order, stops when the main search is
    /// done, and whose answer is not used.
    helper: usize,
}

impl<'a, G, T> Engine<'a, G, T>
where
    G: SearchKey + SearchHints,
    T: EndgameTable<G>,
{
    pub(crate) fn new(s: Shared<'a, G, T>) -> Self {
        Engine {
            s,
            stack: Vec::new(),
            moves: Vec::new(),
            ties: Vec::new(),
            tie_moves: Vec::new(),
            tie_memo: FxHashMap::default(),
            unflushed: 0,
            visited: 0,
            fastest_win: if s.game.quick_value_complete() { 3 } else { 1 },
            fastest_loss: if s.game.quick_value_complete() { 4 } else { 1 },
            helper: 0,
        }
    }

    /// A helper search (`helper` from 1): the same search, its move order
    /// rotated in the first plies below a root, stopping (with an error
    /// no one reads) once [`Shared::done`] is set.
    pub(crate) fn helper(s: Shared<'a, G, T>, helper: usize) -> Self {
        Engine {
            helper,
            ..Engine::new(s)
        }
    }

    /// Counts a node; tells the shared counter every [`FLUSH`] nodes and
    /// stops when the budget is spent (by any thread).
    #[inline]
    fn count(&mut self) -> Result<(), Error> {
        self.unflushed += 1;
        self.visited += 1;
        if self.unflushed >= FLUSH {
            self.flush()?;
        }
        Ok(())
    }

    /// Tells the shared counter the nodes not yet told.
    pub(crate) fn flush(&mut self) -> Result<(), Error> {
        let n = std::mem::take(&mut self.unflushed);
        let total = self.s.nodes.fetch_add(n, Ordering::Relaxed) + n;
        if total.saturating_mul(STEPS_A_NODE) > self.s.budget.work() {
            self.s.stop.store(true, Ordering::Relaxed);
        }
        // A helper whose main search is done stops; what it returns is
        // dropped unread.
        let cancelled = self.helper > 0 && self.s.done.load(Ordering::Relaxed);
        if cancelled || self.s.stop.load(Ordering::Relaxed) {
            return Err(self.s.budget.spent_error("the search of this position"))?;
        }
        Ok(())
    }

    /// The score of a value the game or a table gave.
    fn given(v: Value) -> Result<i64, Error> {
        score(v).ok_or(Error::TerminalDraw)
    }

    /// The score of `pos` when it is known without a move: over, in a
    /// table, or told by a quick test (`kept`: `pos` is the child of a
    /// kept move, [`SearchHints::kept_child_value`]).
    #[inline]
    fn known(&self, pos: &G::Position, kept: bool) -> Result<Option<i64>, Error> {
        let g = self.s.game;
        if kept {
            if let Some(v) = self.s.tables.table_value(g, pos) {
                return Self::given(v).map(Some);
            }
            return g.kept_child_value(pos).map(Self::given).transpose();
        }
        if let Some(o) = g.outcome(pos) {
            if o == Outcome::Win && self.fastest_win > 1 {
                return Err(Error::Broken(
                    "a game over won by the player to move, in a game whose quick value is complete",
                ));
            }
            return Self::given(Value::new(o, 0)).map(Some);
        }
        if let Some(v) = self.s.tables.table_value(g, pos) {
            return Self::given(v).map(Some);
        }
        match g.quick_value(pos) {
            Some(v) => Self::given(v).map(Some),
            None => Ok(None),
        }
    }

    /// The progress of `pos`, checked to have grown from its parent's.
    #[inline]
    fn progress(&self, pos: &G::Position, parent: Option<u64>) -> Result<Option<u64>, Error> {
        let p = self.s.game.progress(pos);
        match (parent, p) {
            (Some(a), Some(b)) if b <= a => Err(Error::Broken("a move did not increase progress")),
            (Some(_), None) => Err(Error::Broken("a move lost the progress of a position")),
            _ => Ok(p),
        }
    }

    /// Room on the path for one more frame, checked against the budget.
    fn reserve(&mut self) -> Result<(), Error> {
        if self.stack.len() == self.stack.capacity() {
            self.s
                .budget
                .reserve_search_path::<Frame<G::Position>, G::Move>(
                    self.s.tt_bytes,
                    &mut self.stack,
                    self.moves.capacity() + self.tie_moves.capacity(),
                )?;
        }
        Ok(())
    }

    /// Enters `pos`, tested against `beta`: its result when known at once,
    /// else a frame pushed.
    #[inline]
    fn enter(
        &mut self,
        pos: G::Position,
        beta: i64,
        parent: Option<u64>,
        kept: bool,
    ) -> Result<Step, Error> {
        self.count()?;
        let g = self.s.game;
        // The table is read first: its line (most often a miss of the
        // caches) comes in while the quick tests run.
        let key = g.search_key(&pos);
        let (lo, hi) = self.s.tt.probe(key);
        if let Some(s) = self.known(&pos, kept)? {
            return Ok(Step::Done(s));
        }
        let progress = self.progress(&pos, parent)?;
        if lo >= beta {
            return Ok(Step::Done(lo));
        }
        if hi < beta {
            return Ok(Step::Done(hi));
        }
        let first = self.moves.len();
        let room = self.moves.capacity();
        g.moves(&pos, &mut self.moves);
        if self.moves.capacity() != room {
            self.s
                .budget
                .check_search_path::<Frame<G::Position>, G::Move>(
                    self.s.tt_bytes,
                    self.stack.capacity() + self.ties.capacity(),
                    self.moves.capacity() + self.tie_moves.capacity(),
                )?;
        }
        let end = self.moves.len();
        if end == first {
            return Self::given(Value::new(g.stalemate(&pos), 0)).map(Step::Done);
        }
        // With a move, the value is between a loss in one and a win in one;
        // with a complete quick value, between a loss in 4 and a win in 3,
        // and a win takes an odd number of plies, a loss an even one.
        let (lo, hi) = (
            lo.max(self.fastest_loss - BIG),
            hi.min(BIG - self.fastest_win),
        );
        let (lo, hi) = if self.fastest_win > 1 {
            (snap_lo(lo), snap_hi(hi))
        } else {
            (lo, hi)
        };
        if lo >= beta || hi < beta {
            self.moves.truncate(first);
            return Ok(Step::Done(if lo >= beta { lo } else { hi }));
        }
        if progress.is_none() {
            if let Some(i) = self.stack.iter().rposition(|f| f.key == key) {
                return Err(Error::Loopy {
                    depth: (self.stack.len() - i) as u64,
                });
            }
        }
        // The game may leave out moves never better than those it keeps.
        let keep = g.useful_moves(&pos, &mut self.moves[first..end]);
        let end = if keep == 0 || keep >= end - first {
            end
        } else {
            first + keep
        };
        self.moves.truncate(end);
        if self.helper > 0 && self.stack.len() < ROTATE_PLIES && end - first > 1 {
            let r = rotation(self.helper, self.stack.len()) % (end - first);
            self.moves[first..end].rotate_left(r);
        }
        // The children's entries in the table, all read before the first
        // is searched (their loads overlap): one that already falls below
        // the child's threshold ends this node at once.
        let cb = child_beta(beta);
        let tt = self.s.tt;
        let cut = self.moves[first..end]
            .iter()
            .map(|m| tt.probe(g.search_key(&g.play(&pos, m))).1)
            .find(|&c| c < cb);
        if let Some(c) = cut {
            let r = up(c);
            tt.store(key, r, BIG, 1);
            self.moves.truncate(first);
            return Ok(Step::Done(r));
        }
        self.reserve()?;
        self.stack.push(Frame {
            pos,
            key,
            beta,
            best: i64::MIN,
            hi,
            first,
            next: first,
            end,
            progress,
            start: self.visited,
            kept: keep > 0,
        });
        Ok(Step::Pushed)
    }

    /// Null-window search: a score `r` with `score ≥ r` when `r ≥ beta`,
    /// and `score ≤ r` when `r < beta` (fail-soft).
    pub(crate) fn search(&mut self, root: &G::Position, beta: i64) -> Result<i64, Error> {
        let result = self.search_inner(root, beta);
        if result.is_err() {
            self.stack.clear();
            self.moves.clear();
        }
        result
    }

    fn search_inner(&mut self, root: &G::Position, beta: i64) -> Result<i64, Error> {
        let mut ret = match self.enter(root.clone(), beta, None, false)? {
            Step::Done(s) => return Ok(s),
            Step::Pushed => None,
        };
        let g = self.s.game;
        loop {
            let top = self.stack.last_mut().expect("a frame is on the path");
            let finished = match ret.take() {
                // The child fell below its threshold: this node reaches beta.
                Some(c) if c < child_beta(top.beta) => Some((up(c), true)),
                Some(c) => {
                    top.best = top.best.max(up(c));
                    None
                }
                None => None,
            };
            let finished =
                finished.or_else(|| (top.next == top.end).then(|| (top.best.min(top.hi), false)));
            if let Some((r, high)) = finished {
                let work = self.visited - top.start;
                if high {
                    self.s.tt.store(top.key, r, BIG, work);
                } else {
                    self.s.tt.store(top.key, -BIG, r, work);
                }
                let first = top.first;
                self.stack.pop();
                self.moves.truncate(first);
                if self.stack.is_empty() {
                    return Ok(r);
                }
                ret = Some(r);
                continue;
            }
            let mv = self.moves[top.next].clone();
            top.next += 1;
            let child = g.play(&top.pos, &mv);
            let (cb, progress, kept) = (child_beta(top.beta), top.progress, top.kept);
            if let Step::Done(c) = self.enter(child, cb, progress, kept)? {
                ret = Some(c);
            }
        }
    }

    /// The exact value of `pos`.
    pub(crate) fn exact(&mut self, pos: &G::Position) -> Result<Value, Error> {
        let g = self.s.game;
        if let Some(o) = g.outcome(pos) {
            Self::given(Value::new(o, 0))?;
            return Ok(Value::new(o, 0));
        }
        if let Some(v) = self
            .s
            .tables
            .table_value(g, pos)
            .or_else(|| g.quick_value(pos))
        {
            Self::given(v)?;
            return Ok(v);
        }
        let s = self.exact_score(pos)?;
        let tie = if s == 0 { self.tie_remoteness(pos)? } else { 0 };
        crate::score::value(s, tie)
    }

    /// The exact score of `pos` (not over): null-window tests, first of
    /// the outcome, then of the remoteness from the bound the outcome's
    /// test proved (a win's slowest, a loss's fastest), galloping away
    /// from it and then halving.
    fn exact_score(&mut self, pos: &G::Position) -> Result<i64, Error> {
        let (mut lo, mut hi) = (-BIG, BIG);
        // Not over, no quick value: with a complete quick value, a loss in
        // 4 plies at the fastest, a win in 3.
        let complete = self.fastest_win > 1;
        if complete {
            (lo, hi) = (
                snap_lo(self.fastest_loss - BIG),
                snap_hi(BIG - self.fastest_win),
            );
        }
        let plies = self.s.game.plies_left(pos).map(i64::from);
        let mut gap = 0i64;
        // Fast wins and losses first: a test of a short distance searches
        // a shallow tree, and a position won (or lost) quickly is found so
        // without the deep outcome test, whose proof may follow a slow
        // win. Then the value is between two proven bounds: halve.
        let mut halving = self.deepen(pos, plies, &mut lo, &mut hi)?;
        while lo < hi {
            let (beta, region) = if lo >= -4 && hi <= 4 {
                // Between the outcomes only a tie scores.
                return Ok(0);
            } else if lo < 2 && hi >= 2 {
                (2, None)
            } else if lo < -2 && hi >= -2 {
                (-2, None)
            } else if lo >= 2 {
                if let Some(n) = plies {
                    lo = lo.max(BIG - n);
                    if complete {
                        lo = snap_lo(lo);
                    }
                }
                if lo >= hi {
                    break;
                }
                let b = if halving {
                    lo + (hi - lo + 1) / 2
                } else {
                    // From the slowest win, which the outcome's test
                    // proved: a failure ends the galloping.
                    (lo + 1 + gap).min(hi)
                };
                (b, Some(false))
            } else {
                if let Some(n) = plies {
                    hi = hi.min(n - BIG);
                    if complete {
                        hi = snap_hi(hi);
                    }
                }
                if lo >= hi {
                    break;
                }
                let b = if halving {
                    lo + (hi - lo + 1) / 2
                } else {
                    // From the fastest loss, which the outcome's test
                    // proved: a success ends the galloping.
                    (hi - gap).max(lo + 1)
                };
                (b, Some(true))
            };
            let reached = self.narrow(pos, beta, &mut lo, &mut hi)?;
            match region {
                // From the top, a success ends the galloping; from the
                // bottom, a failure does.
                Some(top) if top == reached => halving = true,
                Some(_) => gap = gap * 2 + 1,
                None => {}
            }
        }
        Ok(lo)
    }

    /// One null-window test of `pos` against `beta`, narrowing `lo ≤
    /// score ≤ hi` by its fail-soft result (snapped to the parities a
    /// complete quick value fixes); whether the score reached `beta`.
    fn narrow(
        &mut self,
        pos: &G::Position,
        beta: i64,
        lo: &mut i64,
        hi: &mut i64,
    ) -> Result<bool, Error> {
        let r = self.search(pos, beta)?;
        let reached = r >= beta;
        if reached {
            *lo = (*lo).max(r);
        } else {
            *hi = (*hi).min(r);
        }
        if self.fastest_win > 1 {
            (*lo, *hi) = (snap_lo(*lo), snap_hi(*hi));
        }
        Ok(reached)
    }

    /// Tests whether `pos` wins within `d` plies and whether it loses
    /// within `d + 1`, for `d` = 3, 7, 15, … (1, 3, 7, … without a complete
    /// quick value) up to half the plies left (16 when unknown), narrowing
    /// `lo ≤ score ≤ hi`; whether one succeeded (then the score is
    /// bracketed between the last two distances).
    fn deepen(
        &mut self,
        pos: &G::Position,
        plies: Option<i64>,
        lo: &mut i64,
        hi: &mut i64,
    ) -> Result<bool, Error> {
        let reach = plies.map_or(16, |n| n / 2);
        let mut d = self.fastest_win;
        while d <= reach && *lo < *hi {
            // A win within `d` plies: a score of at least BIG − d; a loss
            // within `d + 1`: a score below d + 2 − BIG.
            for (beta, found_if_reached) in [(BIG - d, true), (d + 2 - BIG, false)] {
                if *lo < beta && beta <= *hi && self.narrow(pos, beta, lo, hi)? == found_if_reached
                {
                    return Ok(true);
                }
            }
            d = 2 * d + 1;
        }
        Ok(false)
    }

    /// Whether `pos` (not over, not in a table) is a tie, by two tests.
    fn is_tie(&mut self, pos: &G::Position) -> Result<bool, Error> {
        Ok(self.search(pos, 2)? < 2 && self.search(pos, -2)? >= -2)
    }

    /// What is known of `child`'s tie remoteness before searching below it.
    fn tie_child(
        &mut self,
        child: G::Position,
        parent: Option<u64>,
    ) -> Result<TieChild<G::Position>, Error> {
        self.count()?;
        let g = self.s.game;
        if let Some(o) = g.outcome(&child) {
            return Ok(TieChild::Known((o == Outcome::Tie).then_some(0)));
        }
        if let Some(v) = self
            .s
            .tables
            .table_value(g, &child)
            .or_else(|| g.quick_value(&child))
        {
            Self::given(v)?;
            return Ok(TieChild::Known(if v.outcome() == Outcome::Tie {
                v.remoteness()
            } else {
                None
            }));
        }
        let progress = self.progress(&child, parent)?;
        let key = g.search_key(&child);
        if let Some(&r) = self.tie_memo.get(&key) {
            return Ok(TieChild::Known(Some(r)));
        }
        if !self.is_tie(&child)? {
            return Ok(TieChild::Known(None));
        }
        if let Some(r) = g.tie_remoteness(&child) {
            return Ok(TieChild::Known(Some(r)));
        }
        Ok(TieChild::Search(child, key, progress))
    }

    /// Pushes a tie to search below; its remoteness at once when it has
    /// no moves (a stalemate that is a tie).
    fn push_tie(
        &mut self,
        pos: G::Position,
        key: u64,
        progress: Option<u64>,
    ) -> Result<Option<u32>, Error> {
        if progress.is_none() {
            if let Some(i) = self.ties.iter().rposition(|f| f.key == key) {
                return Err(Error::Loopy {
                    depth: (self.ties.len() - i) as u64,
                });
            }
        }
        let first = self.tie_moves.len();
        self.s.game.moves(&pos, &mut self.tie_moves);
        let end = self.tie_moves.len();
        if end == first {
            return Ok(Some(0));
        }
        if self.ties.len() == self.ties.capacity() {
            self.s
                .budget
                .reserve_search_path::<TieFrame<G::Position>, G::Move>(
                    self.s.tt_bytes,
                    &mut self.ties,
                    self.moves.capacity() + self.tie_moves.capacity(),
                )?;
        }
        self.ties.push(TieFrame {
            pos,
            key,
            best: u32::MAX,
            first,
            next: first,
            end,
            progress,
        });
        Ok(None)
    }

    /// The remoteness of `root`, a tie not over: one more than the least of
    /// its tied children's, searched depth first on an explicit stack and
    /// kept for every tie searched.
    pub(crate) fn tie_remoteness(&mut self, root: &G::Position) -> Result<u32, Error> {
        let result = self.tie_inner(root);
        self.ties.clear();
        self.tie_moves.clear();
        result
    }

    fn tie_inner(&mut self, root: &G::Position) -> Result<u32, Error> {
        let g = self.s.game;
        if let Some(r) = g.tie_remoteness(root) {
            return Ok(r);
        }
        let key = g.search_key(root);
        if let Some(r) = self.push_tie(root.clone(), key, g.progress(root))? {
            return Ok(r);
        }
        let mut ret: Option<u32> = None;
        loop {
            let top = self.ties.last_mut().expect("a tie is on the path");
            if let Some(c) = ret.take() {
                top.best = top.best.min(c.checked_add(1).ok_or(Error::TooDeep)?);
            }
            if top.next == top.end {
                let r = top.best;
                if r == u32::MAX {
                    return Err(Error::Broken("a tie has no move to a tie"));
                }
                if r > game_core::MAX_REMOTENESS {
                    return Err(Error::TooDeep);
                }
                let (key, first) = (top.key, top.first);
                self.ties.pop();
                self.tie_moves.truncate(first);
                if self.tie_memo.len() == self.tie_memo.capacity() {
                    let bytes = (self.tie_memo.capacity() as u64 * 2 + 16) * 16;
                    self.s.budget.check_memory(
                        "the ties' remoteness kept by the search",
                        self.s.tt_bytes + bytes,
                    )?;
                }
                self.tie_memo.insert(key, r);
                if self.ties.is_empty() {
                    return Ok(r);
                }
                ret = Some(r);
                continue;
            }
            let mv = self.tie_moves[top.next].clone();
            top.next += 1;
            let child = g.play(&top.pos, &mv);
            let progress = top.progress;
            match self.tie_child(child, progress)? {
                TieChild::Known(r) => ret = r,
                TieChild::Search(child, key, progress) => {
                    ret = self.push_tie(child, key, progress)?;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{score, value};
    use game_core::Value;

    /// The snapped bounds are the nearest scores of values of the right
    /// parity: checked against every such value near the ends and the
    /// middle, by brute force.
    #[test]
    fn snapping_keeps_every_value_of_the_right_parity() {
        let max = game_core::MAX_REMOTENESS;
        let vals: Vec<i64> = (0..260u32)
            .chain(max - 30..=max)
            .flat_map(|r| {
                let mut v = vec![];
                if r % 2 == 1 {
                    v.push(score(Value::win(r)).unwrap());
                }
                if r % 2 == 0 {
                    v.push(score(Value::lose(r)).unwrap());
                }
                v
            })
            .chain([0])
            .collect();
        let bounds = (-BIG..-BIG + 220).chain(-10..10).chain(BIG - 220..=BIG);
        for b in bounds {
            let want_lo = vals.iter().filter(|&&v| v >= b).min().copied();
            let want_hi = vals.iter().filter(|&&v| v <= b).max().copied();
            if let Some(w) = want_lo {
                assert_eq!(snap_lo(b), w, "lo {b}");
            }
            if let Some(w) = want_hi {
                assert_eq!(snap_hi(b), w, "hi {b}");
            }
        }
        // 5 and -6 are the slowest win and loss.
        assert_eq!(value(5, 0).unwrap(), Value::win(game_core::MAX_REMOTENESS));
        assert_eq!(
            value(-6, 0).unwrap(),
            Value::lose(game_core::MAX_REMOTENESS - 1)
        );
    }
}
