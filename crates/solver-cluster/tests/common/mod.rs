//! What the tests share: several processes on localhost, and games whose
//! cells do not fit 2 bytes.
#![allow(dead_code)]

use std::path::PathBuf;

use game_core::{Game, Indexed, IndexedUnmoves, Outcome, Tier, Tiered, Unmoves};
use solver_cluster::{ClusterConfig, Error};

/// Asserts that `table` holds solver-retro's value from `single` at every
/// index of `game` that stands for a position (`what` names the run in a
/// failure).
pub fn same_values<G: Indexed>(
    game: &G,
    table: &solver_retro::Table,
    single: &solver_retro::IndexedSolution<'_, G>,
    what: &str,
) {
    for i in 0..game.size() {
        if game.position(i).is_some() {
            assert_eq!(table.value(i), single.value_at(i), "{what}, index {i}");
        }
    }
}

/// A host file of `n` free localhost ports.
pub fn hosts(dir: &tempfile::TempDir, n: usize) -> PathBuf {
    let listeners: Vec<std::net::TcpListener> = (0..n)
        .map(|_| std::net::TcpListener::bind("127.0.0.1:0").expect("a free port"))
        .collect();
    let text: String = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}\n", l.local_addr().expect("bound").port()))
        .collect();
    let path = dir.path().join("hosts");
    std::fs::write(&path, text).expect("host file");
    path
}

/// The flags of process `p` of `n`, with `w` workers and the host file at
/// `hosts`.
fn flags(n: usize, w: usize, p: usize, hosts: &std::path::Path) -> Vec<String> {
    let h = hosts.display().to_string();
    [
        "-w",
        &w.to_string(),
        "-n",
        &n.to_string(),
        "-p",
        &p.to_string(),
        "-h",
        &h,
    ]
    .map(String::from)
    .to_vec()
}

/// Runs `solve` as each of `n` processes of `w` workers, at once; their
/// results, process 0 first.
pub fn cluster<T: Send>(
    n: usize,
    w: usize,
    solve: impl Fn(ClusterConfig) -> Result<T, Error> + Sync,
) -> Vec<T> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = hosts(&dir, n);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .map(|p| {
                let args = flags(n, w, p, &path);
                let solve = &solve;
                s.spawn(move || solve(ClusterConfig::from_args(args).expect("flags")))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("process thread").expect("cluster solved"))
            .collect()
    })
}

/// Runs `solve` as one process for each `(n, w)` of `each` (process `p`
/// started with `-n n -w w -p p`, all with one host file of the most
/// processes any names), at once, and returns their results, process 0
/// first: for processes started with settings that do not agree.
pub fn cluster_each<T: Send>(
    each: &[(usize, usize)],
    solve: impl Fn(usize, ClusterConfig) -> Result<T, Error> + Sync,
) -> Vec<Result<T, Error>> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let most = each.iter().map(|&(n, _)| n).max().unwrap_or(1);
    let path = hosts(&dir, most);
    std::thread::scope(|s| {
        let handles: Vec<_> = each
            .iter()
            .enumerate()
            .map(|(p, &(n, w))| {
                let args = flags(n, w, p, &path);
                let solve = &solve;
                s.spawn(move || solve(p, ClusterConfig::from_args(args).expect("flags")))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("process thread"))
            .collect()
    })
}

/// Take 1 or 2 from a pile of up to `0`: remoteness grows with the pile
/// (about two thirds of it), past 2-byte cells' 8191 from some 12,300 on.
#[derive(Clone)]
pub struct Chain(pub u64);

impl Game for Chain {
    type Position = u64;
    type Move = u64;
    fn moves(&self, n: &u64, out: &mut Vec<u64>) {
        out.extend((1..=2).filter(|t| t <= n));
    }
    fn play(&self, n: &u64, t: &u64) -> u64 {
        n - t
    }
}

impl Indexed for Chain {
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

impl Unmoves for Chain {
    fn unmoves(&self, n: &u64, out: &mut Vec<u64>) {
        out.extend((n + 1..=n + 2).filter(|&p| p <= self.0));
    }
}

impl IndexedUnmoves for Chain {}

/// [`Chain`] with a tier a pile: every move leaves its tier.
#[derive(Clone)]
pub struct TieredChain(pub u64);

impl Game for TieredChain {
    type Position = u64;
    type Move = u64;
    fn moves(&self, n: &u64, out: &mut Vec<u64>) {
        Chain(self.0).moves(n, out);
    }
    fn play(&self, n: &u64, t: &u64) -> u64 {
        n - t
    }
}

impl Tiered for TieredChain {
    fn tiers(&self) -> Vec<Tier> {
        (0..=self.0).collect()
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
        (i == 0 && t <= self.0).then_some(t)
    }
    fn leaves_tier(&self, _: Tier) -> bool {
        true
    }
}

/// [`TieredChain`] whose moves panic from a pile of 5.
#[derive(Clone)]
pub struct Boom(pub TieredChain);

impl Game for Boom {
    type Position = u64;
    type Move = u64;
    fn moves(&self, n: &u64, out: &mut Vec<u64>) {
        assert!(*n != 5, "boom at pile 5");
        self.0.moves(n, out);
    }
    fn play(&self, n: &u64, t: &u64) -> u64 {
        self.0.play(n, t)
    }
}

impl Tiered for Boom {
    fn tiers(&self) -> Vec<Tier> {
        self.0.tiers()
    }
    fn tier(&self, n: &u64) -> Tier {
        *n
    }
    fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>) {
        self.0.child_tiers(t, out);
    }
    fn tier_size(&self, t: Tier) -> u64 {
        self.0.tier_size(t)
    }
    fn tier_index(&self, n: &u64) -> u64 {
        self.0.tier_index(n)
    }
    fn tier_position(&self, t: Tier, i: u64) -> Option<u64> {
        self.0.tier_position(t, i)
    }
    fn leaves_tier(&self, _: Tier) -> bool {
        true
    }
}

/// A centre (index 0) with `children` moves, each to a position where the
/// mover has won (so the centre counts every child down to its loss):
/// more children than a 2-byte counter holds past 32,766.
/// With `listed`, the game lists its ends (the solvers count the centre's
/// children only when a child is found lost); else they scan every index.
#[derive(Clone)]
pub struct Star {
    pub children: u64,
    pub listed: bool,
}

impl Game for Star {
    type Position = u64;
    type Move = u64;
    fn moves(&self, p: &u64, out: &mut Vec<u64>) {
        if *p == 0 {
            out.extend(1..=self.children);
        }
    }
    fn play(&self, _: &u64, m: &u64) -> u64 {
        *m
    }
    fn outcome(&self, p: &u64) -> Option<Outcome> {
        (*p != 0).then_some(Outcome::Win)
    }
}

impl Indexed for Star {
    fn size(&self) -> u64 {
        self.children + 1
    }
    fn index(&self, p: &u64) -> u64 {
        *p
    }
    fn position(&self, i: u64) -> Option<u64> {
        (i <= self.children).then_some(i)
    }
}

impl Unmoves for Star {
    fn unmoves(&self, p: &u64, out: &mut Vec<u64>) {
        if *p != 0 {
            out.push(0);
        }
    }
    fn child_count(&self, p: &u64, _: &mut Vec<u64>, _: &mut Vec<u64>) -> usize {
        if *p == 0 {
            self.children as usize
        } else {
            0
        }
    }
}

impl IndexedUnmoves for Star {
    fn terminal_indices(&self, out: &mut Vec<u64>) -> bool {
        if self.listed {
            out.extend(1..=self.children);
        }
        self.listed
    }
}

/// Take one from a pile of at most 3, the pile its tier (one index each).
/// With `outside`, its `visit_tier` of tier 2 also gives an index past
/// the range it was asked for (a broken promise).
#[derive(Clone, Default)]
pub struct Pile {
    pub outside: bool,
}

impl Game for Pile {
    type Position = u64;
    type Move = ();
    fn moves(&self, n: &u64, out: &mut Vec<()>) {
        if *n > 0 {
            out.push(());
        }
    }
    fn play(&self, n: &u64, (): &()) -> u64 {
        n - 1
    }
}

impl Tiered for Pile {
    fn tiers(&self) -> Vec<Tier> {
        vec![0, 1, 2, 3]
    }
    fn tier(&self, n: &u64) -> Tier {
        *n
    }
    fn child_tiers(&self, t: Tier, out: &mut Vec<Tier>) {
        if t > 0 {
            out.push(t - 1);
        }
    }
    fn tier_size(&self, _: Tier) -> u64 {
        1
    }
    fn tier_index(&self, _: &u64) -> u64 {
        0
    }
    fn tier_position(&self, t: Tier, i: u64) -> Option<u64> {
        (i == 0 && t <= 3).then_some(t)
    }
    fn leaves_tier(&self, _: Tier) -> bool {
        true
    }
    fn visit_tier(&self, t: Tier, range: std::ops::Range<u64>, f: &mut dyn FnMut(u64, u64)) {
        if self.outside && t == 2 {
            f(range.end + 4, t);
        }
        if range.contains(&0) && t <= 3 {
            f(0, t);
        }
    }
}
