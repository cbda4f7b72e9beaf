//! One certificate, one count: the same table certified by every path —
//! a whole solve in memory, a database read back, the cluster on two
//! workers, the command line with and without `--db` and with
//! `--cluster` — gives the same positions and distinct children, and
//! those equal an independent count (a plain walk of the game by its
//! moves, with a hash set of children a position). A reachable-first
//! solve holds another set, the positions reachable from the start: its
//! certificate equals a plain breadth-first search's count of that set.

use std::collections::{HashSet, VecDeque};

mod common;

use common::scratch;
use game_core::{Game, Tiered};
use games::{ConnectFour, Fingers, FingersPosition, FingersRules};
use solver_cluster::ClusterConfig;
use solver_retro::{
    certify, certify_indexed, certify_tiers, Canonical, Certificate, Config, HoldsTiers, Indexed,
    Keep, NoStore, TierTables,
};

/// Positions and distinct children, counted by a plain walk.
#[derive(Debug, Default, PartialEq, Eq)]
struct Count {
    positions: u64,
    children: u64,
}

impl Count {
    /// Counts `pos` and its distinct children.
    fn add<G: Game>(&mut self, game: &G, pos: &G::Position) -> Vec<G::Position> {
        self.positions += 1;
        if game.outcome(pos).is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        game.moves(pos, &mut moves);
        let children: HashSet<G::Position> = moves.iter().map(|m| game.play(pos, m)).collect();
        self.children += children.len() as u64;
        children.into_iter().collect()
    }
}

fn figures(c: &Certificate) -> Count {
    Count {
        positions: c.positions,
        children: c.children,
    }
}

/// Every position of every tier, once: the indices that decode to a
/// position whose own tier and index are those (a symmetric game's tier
/// holds one position of each class).
fn every_tier_position<G: Tiered>(game: &G) -> Count {
    let mut count = Count::default();
    for t in game.tiers() {
        for i in 0..game.tier_size(t) {
            if let Some(p) = game.tier_position(t, i) {
                if game.tier(&p) == t && game.tier_index(&p) == i {
                    count.add(game, &p);
                }
            }
        }
    }
    count
}

/// The positions reachable from `start`, breadth-first.
fn reachable<G: Game>(game: &G, start: G::Position) -> Count {
    let mut count = Count::default();
    let mut seen = HashSet::from([start.clone()]);
    let mut queue = VecDeque::from([start]);
    while let Some(p) = queue.pop_front() {
        for c in count.add(game, &p) {
            if seen.insert(c.clone()) {
                queue.push_back(c);
            }
        }
    }
    count
}

/// A game with tables read back from somewhere (a database).
struct Loaded<'g, G> {
    game: &'g G,
    tables: TierTables,
}

impl<G: Tiered> HoldsTiers for Loaded<'_, G> {
    type Game = G;
    fn tiered_game(&self) -> &G {
        self.game
    }
    fn tier_tables(&self) -> &TierTables {
        &self.tables
    }
}

/// Both checkers of a tiered table: one certificate.
fn both<S>(sol: &S) -> Count
where
    S: HoldsTiers + Sync,
    S::Game: Sync,
    <S::Game as Game>::Position: Send + std::fmt::Debug,
    <S::Game as Game>::Move: Send,
{
    let by_tiers = certify_tiers(sol).expect("certified by tier index");
    let by_moves = certify(sol).expect("certified by moves");
    assert_eq!(by_tiers, by_moves, "the two checkers count one thing");
    figures(&by_tiers)
}

/// `gamesolve --json ARGS`'s certificate: its figures and the set named.
fn cli_certificate(args: &[&str]) -> (Count, String) {
    let v = common::json(args);
    let c = &v["certificate"];
    let n = |k: &str| c[k].as_u64().unwrap_or_else(|| panic!("{args:?}: {v}"));
    (
        Count {
            positions: n("positions"),
            children: n("children"),
        },
        c["of"].as_str().expect("the set named").to_string(),
    )
}

#[test]
fn connect_four_gives_one_certificate_from_every_path() {
    for (w, h) in [(4, 4), (5, 3)] {
        let game = Canonical(ConnectFour::new(w, h).unwrap());
        let whole = every_tier_position(&game);
        let from_start = reachable(&game, game.0.start());
        assert!(whole.positions > from_start.positions, "{w}x{h}");

        // In memory, every tier.
        let sol = solver_retro::solve_tiers_with(&game, &Config::default(), &mut NoStore).unwrap();
        assert_eq!(both(&sol), whole, "{w}x{h} in memory");

        // Into a database, then read back from it alone.
        let dir = scratch(&format!("c4-{w}x{h}"));
        let db = game_db::Database::create(dir.join("db"), "connect4", "test").unwrap();
        drop(
            solver_retro::solve_tiers_with(
                &game,
                &Config::default(),
                &mut gamesolve::store::DbStore::new(&db),
            )
            .unwrap(),
        );
        let tables = game.tiers().into_iter().map(|t| {
            let table = gamesolve::store::load_tier(&db, t, game.tier_size(t)).unwrap();
            (t, table)
        });
        let loaded = Loaded {
            game: &game,
            tables: TierTables::new(game.tiers(), tables),
        };
        assert_eq!(both(&loaded), whole, "{w}x{h} from the database");

        // The cluster on two workers.
        let config = ClusterConfig::from_args(["-w", "2"]).unwrap();
        let cluster = solver_cluster::solve_tiers(game.clone(), &config, None).unwrap();
        assert_eq!(both(&cluster), whole, "{w}x{h} on the cluster");

        // Reachable-first holds the positions reachable from the start.
        let weight = |_: &games::ConnectFourPosition| 1;
        let (first, _) = solver_retro::solve_tiers_reachable(
            &game,
            &game.0.start(),
            &weight,
            &Config::default(),
            Keep::All,
        )
        .unwrap();
        assert_eq!(both(&first), from_start, "{w}x{h} reachable-first");

        // The command line: the same figures, and the set named.
        let (ws, hs) = (w.to_string(), h.to_string());
        let size = ["connect4", "solve", "--width", &ws, "--height", &hs];
        let db_dir = dir.join("cli");
        let db_arg = db_dir.to_str().unwrap();
        let cases: [(Vec<&str>, &Count, &str); 3] = [
            (vec![], &from_start, "reachable"),
            (vec!["--db", db_arg], &whole, "tiers"),
            (vec!["--cluster", "-w", "2"], &whole, "tiers"),
        ];
        for (extra, want, set) in cases {
            let args: Vec<&str> = size.iter().copied().chain(extra).collect();
            let (got, of) = cli_certificate(&args);
            assert_eq!((&got, of.as_str()), (want, set), "{args:?}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn magic_fingers_gives_one_certificate_from_every_path() {
    let game = Fingers::new(FingersRules::default()).unwrap();
    let mut whole = Count::default();
    for i in 0..game.size() {
        if let Some(p) = game.position(i) {
            whole.add(&game, &p);
        }
    }
    // The table of the default rules: 224 positions (index 0 is none).
    assert_eq!(whole.positions, 224);

    // `fingers solve` (by index) and the example (by moves).
    let sol = solver_retro::solve_unmoves(&game).unwrap();
    let by_index = certify_indexed(&sol).unwrap();
    assert_eq!(by_index, certify(&sol).unwrap());
    assert_eq!(figures(&by_index), whole);

    // The cluster on two workers: one tier.
    let config = ClusterConfig::from_args(["-w", "2"]).unwrap();
    let cluster = solver_cluster::solve_unmoves(game.clone(), &config, None).unwrap();
    assert_eq!(both(&cluster), whole);

    // The command line (the shared solve of every registered game: the
    // positions of its one tier), with `fingers check` looking at each
    // position; on the cluster the same.
    let (got, of) = cli_certificate(&["fingers", "solve"]);
    assert_eq!((&got, of.as_str()), (&whole, "tiers"));
    let (got, of) = cli_certificate(&["fingers", "solve", "--cluster", "-w", "2"]);
    assert_eq!((got, of.as_str()), (whole, "tiers"));
    assert_eq!(common::json(&["fingers", "check"])["positions"], 224);

    // The positions reachable from the start and their distinct
    // children, by the library's walk and by the rules.
    let reach = reachable(&game, FingersPosition::START);
    let walked =
        solver_retro::reachable(&game, &FingersPosition::START, &Config::default()).unwrap();
    assert_eq!(
        (walked.count(), walked.moves()),
        (reach.positions, reach.children)
    );
}
