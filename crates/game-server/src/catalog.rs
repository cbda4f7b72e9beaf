//! The games a server can be started with: the embedded defaults, solved
//! at start-up, and the databases `solve --db` writes.

use std::path::Path;

use game_core::Canonical;
use game_db::Database;
use games::{ConnectFour, Fingers, FingersRules, Subtraction};

use crate::notation::{
    ConnectFourNotation, DobutsuNotation, FingersNotation, SubtractionNotation, TeekoNotation,
};
use crate::values::{CanonicalSolution, IndexedDatabase, Solution, TieredDatabase};
use crate::{Error, Served, ServedGame};

/// The name Connect Four's databases are written under (the CLI's).
pub const CONNECT4: &str = "connect4";

/// Connect Four's rules key in a database, as `connect4 solve --db`
/// writes it.
#[must_use]
pub fn connect4_rules(width: u32, height: u32) -> String {
    format!("{width}x{height}, mirror-canonical, tiers by pieces, v1")
}

/// Teeko's database name and rules key, as `teeko solve --db` writes them.
pub const TEEKO: (&str, &str) = (
    "teeko",
    "Teeko 5x5, 4 men, lines and 2x2 squares win, 8 symmetries, GamesmanOne tiers, v1",
);

/// Dobutsu shogi's database name and rules key, as `dobutsu solve --db`
/// writes them.
pub const DOBUTSU: (&str, &str) = (
    "dobutsu",
    "Dobutsu shogi, GamesmanOne's try rule, mirror-canonical, v1",
);

/// Magic Fingers' database name, as `fingers solve --db` writes it.
pub const FINGERS: &str = "fingers";

/// Magic Fingers' rules key in a database, as `fingers solve --db` writes
/// it (the rules' `Debug` form, then the index's version).
#[must_use]
pub fn fingers_rules(rules: &FingersRules) -> String {
    format!("{rules:?}, index v1")
}

/// Every rule set of Magic Fingers that `fingers solve` can be asked for
/// (2 to 255 fingers a hand, cutoff or rollover, transfers and their four
/// switches): the candidates for a database's rules key.
fn every_fingers_rules() -> impl Iterator<Item = FingersRules> {
    (2..=255u8).flat_map(|fingers| {
        (0..64u32).map(move |bits| {
            let bit = |k: u32| bits & (1 << k) != 0;
            FingersRules {
                fingers,
                rollover: bit(0),
                transfers: bit(1),
                revive: bit(2),
                empty: bit(3),
                allow_swap: bit(4),
                allow_transfer_overflow: bit(5),
            }
        })
    })
}

/// The rules of a Magic Fingers database: those whose key the manifest
/// records (or, for a manifest naming only the key's hash, whose key
/// hashes to it).
fn fingers_rules_of(db: &Database) -> Option<FingersRules> {
    every_fingers_rules().find(|r| {
        let key = fingers_rules(r);
        match db.rules_key() {
            Some(k) => k == key,
            None => game_db::rules_hash(key.as_bytes()) == db.rules_hash(),
        }
    })
}

/// The board of a Connect Four rules key (`5x4, mirror-canonical, …`).
fn connect4_board(key: &str) -> Option<(u32, u32)> {
    let (w, rest) = key.split_once('x')?;
    let (h, _) = rest.split_once(',')?;
    let (w, h) = (w.parse().ok()?, h.parse().ok()?);
    (connect4_rules(w, h) == key).then_some((w, h))
}

/// The largest pile of the embedded subtraction game.
pub const SUBTRACTION_PILE: u64 = 100;

/// The games served when no database is given, each solved here (about a
/// second in all): Magic Fingers under the quiz's rules, Connect Four 4×4
/// and 5×4, and the subtraction game take 1, 3 or 4 from a pile of up to
/// [`SUBTRACTION_PILE`].
///
/// The solved games are kept for the rest of the process (a solution
/// borrows its game): call this once.
///
/// # Errors
/// A solver's refusal.
pub fn defaults() -> Result<Vec<Box<dyn ServedGame>>, Error> {
    let mut out: Vec<Box<dyn ServedGame>> = Vec::new();
    let fingers: &'static Fingers = Box::leak(Box::new(Fingers::new(FingersRules::default())?));
    let sol = solver_retro::solve_indexed(fingers)?;
    out.push(Box::new(Served::new(
        "fingers",
        "Magic Fingers (Ruby Quiz #120's rules)",
        "5 fingers a hand, cutoff, transfers (revive, empty, no swaps, no overflow)",
        FingersNotation(fingers.clone()),
        Solution(sol),
        false,
    )));
    for (w, h) in [(4, 4), (5, 4)] {
        let game: &'static Canonical<ConnectFour> =
            Box::leak(Box::new(Canonical(ConnectFour::new(w, h)?)));
        let sol = solver_retro::solve_tiers(game)?;
        out.push(Box::new(Served::new(
            format!("connect4-{w}x{h}"),
            format!("Connect Four {w}×{h}"),
            connect4_rules(w, h),
            ConnectFourNotation(game.0.clone()),
            CanonicalSolution(sol),
            false,
        )));
    }
    let sub: &'static Subtraction = Box::leak(Box::new(
        Subtraction::finite([1, 3, 4])?.with_limit(SUBTRACTION_PILE),
    ));
    let sol = solver_retro::solve_indexed(sub)?;
    out.push(Box::new(Served::new(
        "subtraction-1-3-4",
        "Subtraction game: take 1, 3 or 4 coins; who cannot move loses",
        "take 1, 3 or 4, normal play",
        SubtractionNotation::new(sub.clone(), SUBTRACTION_PILE),
        Solution(sol),
        false,
    )));
    Ok(out)
}

/// The rules key of a database written by `gamesolve`, where the manifest
/// names only its hash: the first of `candidates` whose hash it is.
fn rules_of<'a>(db: &Database, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .find(|k| game_db::rules_hash(k.as_bytes()) == db.rules_hash())
}

/// Opens the database in `dir` read-only and serves it as the game it was
/// written for, with the rules its manifest names: Connect Four of any
/// board, Magic Fingers of any rules `fingers solve` takes, Teeko and
/// Dobutsu shogi.
///
/// # Errors
/// [`Error::Unservable`] for a game or rules not known here, or a tier
/// missing or of another length; the database's own errors.
pub fn open_database(dir: &Path) -> Result<Box<dyn ServedGame>, Error> {
    let db = Database::open_any(dir)?;
    let unservable = |why: String| Error::Unservable {
        dir: dir.to_path_buf(),
        why,
    };
    match db.game() {
        CONNECT4 => {
            let (w, h) = match db.rules_key() {
                Some(key) => connect4_board(key).ok_or_else(|| {
                    unservable(format!(
                        "Connect Four of rules '{}', which the server does not know",
                        game_core::echo(key)
                    ))
                })?,
                // Written before manifests recorded the key: the board
                // whose key hashes to the manifest's hash.
                None => {
                    let keys: Vec<(u32, u32, String)> = (1..=32)
                        .flat_map(|w| (1..=32).map(move |h| (w, h, connect4_rules(w, h))))
                        .collect();
                    let key = rules_of(&db, keys.iter().map(|(_, _, k)| k.as_str())).ok_or_else(
                        || unservable("Connect Four of a board not known here".into()),
                    )?;
                    keys.iter()
                        .find(|(_, _, k)| k == key)
                        .map(|&(w, h, _)| (w, h))
                        .ok_or_else(|| unservable("no board".into()))?
                }
            };
            let game = ConnectFour::new(w, h)?;
            let name = dir
                .file_name()
                .map_or_else(|| format!("{w}x{h}"), |n| n.to_string_lossy().into_owned());
            Ok(Box::new(Served::new(
                format!("connect4-{w}x{h}-{}", slug(&name)),
                format!("Connect Four {w}×{h} (database {name})"),
                connect4_rules(w, h),
                ConnectFourNotation(game.clone()),
                TieredDatabase::new(game, db)?,
                true,
            )))
        }
        FINGERS => {
            let rules = fingers_rules_of(&db).ok_or_else(|| {
                unservable(format!(
                    "Magic Fingers of rules '{}', which the server does not know",
                    game_core::echo(db.rules_key().unwrap_or("(a hash only)"))
                ))
            })?;
            let game = Fingers::new(rules)?;
            let dir_name = dir
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            Ok(Box::new(Served::new(
                format!("fingers-{}", slug(&dir_name)),
                format!("Magic Fingers (database {dir_name})"),
                fingers_rules(&rules),
                FingersNotation(game.clone()),
                IndexedDatabase::new(game, db)?,
                true,
            )))
        }
        name @ ("teeko" | "dobutsu") => {
            let key = if name == TEEKO.0 { TEEKO.1 } else { DOBUTSU.1 };
            if rules_of(&db, [key]).is_none() {
                return Err(unservable(format!(
                    "{name} of other rules than this version's ({key})"
                )));
            }
            let dir_name = dir
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let id = format!("{name}-{}", slug(&dir_name));
            Ok(if name == TEEKO.0 {
                Box::new(Served::new(
                    id,
                    format!("Teeko (database {dir_name})"),
                    key,
                    TeekoNotation(games::Teeko::new()),
                    TieredDatabase::new(games::Teeko::new(), db)?,
                    true,
                ))
            } else {
                Box::new(Served::new(
                    id,
                    format!("Dobutsu shogi (database {dir_name})"),
                    key,
                    DobutsuNotation(games::Dobutsu::new()),
                    TieredDatabase::new(games::Dobutsu::new(), db)?,
                    true,
                ))
            })
        }
        other => Err(unservable(format!(
            "a database of '{}', which the server does not know how to serve",
            game_core::echo(other)
        ))),
    }
}

/// `name` with every character other than a letter, digit or `-` as `-`:
/// a part of a URL path.
fn slug(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '-'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Games;

    #[test]
    fn the_defaults_answer_known_results() {
        let games = Games::new(defaults().expect("the defaults solve")).expect("distinct ids");
        // Take 1, 3 or 4: the player to move loses exactly at piles 0 and
        // 2 mod 7 (Berlekamp, Conway and Guy, Winning Ways, ch. 4).
        for n in 0..=SUBTRACTION_PILE {
            let a = games
                .answer("subtraction-1-3-4", &n.to_string())
                .expect("a pile");
            let lose = matches!(n % 7, 0 | 2);
            assert_eq!(
                a.position_value,
                if lose { "lose" } else { "win" },
                "pile {n}"
            );
            // Best first: a winning pile's first move wins, and leads to a
            // losing pile.
            if !lose {
                assert_eq!(a.moves[0].move_value, "win");
                let child: u64 = a.moves[0].position.parse().expect("a pile");
                assert!(matches!(child % 7, 0 | 2), "{n} -> {child}");
            }
        }
        // Connect Four 4×4 is a draw with perfect play (a full board: a
        // tie here), as every published table of small boards says.
        let a = games.answer("connect4-4x4", "").expect("the start");
        assert_eq!((a.position_value, a.remoteness), ("tie", Some(16)));
        assert_eq!(a.moves.len(), 4);
        assert_eq!(a.moves[0].move_value, "tie");
        // Moves best first, and each move's value the child's seen from
        // above.
        for g in ["connect4-5x4", "fingers"] {
            let start = games.get(g).expect("served").info().start.clone();
            let a = games.answer(g, &start).expect("the start");
            let rank = |v: &str| ["win", "tie", "draw", "lose"].iter().position(|x| *x == v);
            assert!(a
                .moves
                .windows(2)
                .all(|w| rank(w[0].move_value) <= rank(w[1].move_value)));
            for m in &a.moves {
                let child = games.answer(g, &m.position).expect("a child");
                assert_eq!(child.position_value, m.position_value);
                assert_eq!(child.remoteness, m.remoteness);
            }
        }
    }

    #[test]
    fn bad_positions_are_400_and_unknown_games_404() {
        let games = Games::new(defaults().expect("the defaults solve")).expect("distinct ids");
        for (g, p) in [
            ("connect4-4x4", "5"),
            ("connect4-4x4", "11111"),
            ("connect4-4x4", "x"),
            ("fingers", "1,1"),
            ("fingers", "5,1 1,1"),
            ("fingers", "0,0 0,0"),
            ("subtraction-1-3-4", "101"),
            ("subtraction-1-3-4", "-1"),
        ] {
            let e = games.answer(g, p).expect_err(p);
            assert_eq!(e.status(), 400, "{g} {p}: {e}");
        }
        assert_eq!(
            games.answer("chess", "").expect_err("unknown").status(),
            404
        );
    }
}

#[cfg(test)]
mod key_tests {
    use super::*;

    #[test]
    fn a_connect4_rules_key_names_its_board() {
        assert_eq!(connect4_board(&connect4_rules(5, 4)), Some((5, 4)));
        assert_eq!(
            connect4_board("5x4, mirror-canonical, tiers by pieces, v2"),
            None
        );
        assert_eq!(connect4_board("5x"), None);
    }
}
