//! A game declares itself once ([`CliGame`]) and gets every shared
//! command: `solve [--db DIR] [--cluster …]`, `value [--db DIR]`,
//! `analyze --db DIR`, `check` and `play` ([`GameCmd`]), in a user's own
//! binary ([`main_for`]); `gamesolve`'s Connect Four, Teeko and Dobutsu
//! shogi run the same commands under their own flags.

use std::fmt::Debug;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use game_core::{Canonical, TieredSymmetric};
use game_db::Database;
use solver_cluster::{ClusterConfig, ClusterSolution};
use solver_retro::{TierSolver, TierUnmoves};

use super::args::{Samples, SolveFlags};
use super::play_tiered::Seat;
use super::tiered;
use super::{Ctx, Error, Report};

/// A game declared once for the command line: from it the shared
/// commands — `solve [--db DIR] [--cluster …]`, `value [--db DIR]`,
/// `analyze --db DIR`, `check` and `play` — serve the game: `gamesolve`'s
/// own, and a user's in their own binary ([`main_for`]). With `--db DIR`,
/// `value`, `analyze` and `play` read the rules from the database
/// ([`from_rules_key`](Self::from_rules_key)): no option is repeated, and
/// options that contradict it are refused naming its own.
///
/// Required: the name, the rules both ways (a rules key a database
/// records, and the options of the command line), the start, and the
/// notation of positions and moves. The rest has defaults. A game says
/// what it has, never how to solve it: one with unmoves says so with
/// [`unmoves`](Self::unmoves) (`Some(HasUnmoves::new())`), and the tier
/// solver ([`solver_retro::TierSolver`]) then chooses to find a loopy
/// tier's parents by them; it chooses reachable-first, a whole solve
/// into a database, and the tables it keeps, from what the command gives
/// it.
pub trait CliGame: TieredSymmetric + Clone + Send + Sync + Sized + 'static
where
    Self::Position: Send + Sync + Debug,
    Self::Move: Send,
{
    /// The game's name: its command, and its name in a database.
    const NAME: &'static str;
    /// The command-line options that choose the rules (none: [`NoOptions`]).
    type Options: clap::Args + Debug + Clone + Send;
    /// The game `options` choose, the options not given taken from
    /// `base` (the game a database holds, with `--db`) or their defaults.
    ///
    /// # Errors
    /// Rules the game refuses.
    fn from_options(options: &Self::Options, base: Option<&Self>) -> Result<Self, Error>;
    /// The game and its rules in words.
    fn title(&self) -> String;
    /// What tells one database's rules from another's: the rules key a
    /// database records ([`Database::rules_key`]), which
    /// [`from_rules_key`](Self::from_rules_key) reads back.
    fn rules(&self) -> String;
    /// The [`rules`](Self::rules) in words, for messages; by default the
    /// key itself (a key that is not words, a `Debug` form say, is named
    /// here in words).
    fn rules_words(&self) -> String {
        self.rules()
    }
    /// The game whose [`rules`](Self::rules) are `key` (from a database's
    /// manifest); `None` for a key no game of this kind writes.
    fn from_rules_key(key: &str) -> Option<Self>;
    /// The options that choose this game's rules on the command line
    /// (` --width 5 --height 4`), for advice to type; by default none.
    fn options(&self) -> String {
        String::new()
    }
    /// The start position.
    fn start(&self) -> Self::Position;
    /// A position from the command line.
    ///
    /// # Errors
    /// A one-line description of what is wrong.
    fn parse(&self, text: &str) -> Result<Self::Position, Error>;
    /// A position for people (may span lines).
    fn show(&self, pos: &Self::Position) -> String;
    /// A position on one line.
    fn line(&self, pos: &Self::Position) -> String {
        self.show(pos).replace('\n', " / ")
    }
    /// A move for people.
    fn show_move(&self, pos: &Self::Position, mv: &Self::Move) -> String;
    /// The board drawn for someone playing, the first player to move when
    /// `first_to_move` (for games whose positions are seen by the player
    /// to move); by default [`show`](Self::show).
    fn picture(&self, pos: &Self::Position, first_to_move: bool) -> String {
        let _ = first_to_move;
        self.show(pos)
    }
    /// A move as a player types it, made by the first player when
    /// `first_to_move`; by default [`show_move`](Self::show_move).
    fn move_text(&self, pos: &Self::Position, mv: &Self::Move, first_to_move: bool) -> String {
        let _ = first_to_move;
        self.show_move(pos, mv)
    }
    /// Whether the first player is to move at the position written
    /// `text` (one [`parse`](Self::parse) reads), for games whose
    /// positions are seen by the player to move and so do not say who it
    /// is; by default `true`. `value` names the position and its moves
    /// with it as `play` and the server do.
    fn first_to_move(&self, text: &str) -> bool {
        let _ = text;
        true
    }
    /// A move for people, made by the first player when `first_to_move`;
    /// by default [`show_move`](Self::show_move).
    fn show_move_at(&self, pos: &Self::Position, mv: &Self::Move, first_to_move: bool) -> String {
        let _ = first_to_move;
        self.show_move(pos, mv)
    }
    /// Words for how the game ended at `pos`, a position without moves
    /// (`value` prints them where it would name the best move); by
    /// default none, and `value` says "the game is over".
    fn over_words(&self, pos: &Self::Position) -> Option<String> {
        let _ = pos;
        None
    }
    /// A position on one line with the player to move, the first when
    /// `first_to_move`; by default [`show`](Self::show).
    fn show_at(&self, pos: &Self::Position, first_to_move: bool) -> String {
        let _ = first_to_move;
        self.show(pos)
    }
    /// The game's unmoves, if it has them ([`game_core::IndexedUnmoves`]
    /// and [`game_core::IndexedChildren`], whose methods all have
    /// defaults): `Some(HasUnmoves::new())`. With them
    /// the engine finds a loopy tier's parents without a stored graph, on
    /// one machine and on the cluster, and `check` checks the index and
    /// the unmoves. By default none.
    ///
    /// (A method, not a bound the code detects: stable Rust cannot ask
    /// whether a type implements a trait, so a game that has the
    /// capability hands over the proof, [`HasUnmoves`], made where the
    /// bound is known.)
    fn unmoves() -> Option<HasUnmoves<Self>> {
        None
    }
    /// Checks on `samples` positions the promises of the capabilities the
    /// game has beyond tiers and symmetry (an index, unmoves), for `check`;
    /// the positions checked (the most one check looked at, as
    /// [`solver_retro::GameCheck::widest`] counts them). By default those its
    /// [`unmoves`](Self::unmoves) declare, if any: the index and the
    /// unmoves.
    ///
    /// # Errors
    /// The first broken promise, in words.
    fn check_capabilities(&self, samples: u64) -> Result<u64, Error> {
        match Self::unmoves() {
            Some(u) => (u.check)(self, samples),
            None => Ok(0),
        }
    }
    /// Steps of work (see `--max-work`) a solve takes an index of the
    /// game's tiers, on all cores of the 2-core reference machine; the
    /// walk of the positions reachable from the start takes half as much
    /// again, the certificate three quarters (the budget's check before a
    /// solve).
    const SOLVE_STEPS: u64;
    /// How many positions the canonical `pos` stands for; by default
    /// [`game_core::orbit_size`] (a game whose walks are long computes it
    /// without a buffer: it is called for every position reached).
    fn weight(&self, pos: &Self::Position) -> u64 {
        game_core::orbit_size(self, pos, &mut Vec::new())
    }
}

/// The proof that a [`CliGame`] has unmoves ([`game_core::IndexedUnmoves`],
/// with [`game_core::IndexedChildren`]), for [`CliGame::unmoves`]: what the
/// generic commands need of the bound they cannot name — the tier
/// solver's parents (the cluster's too), and their check.
pub struct HasUnmoves<G: CliGame>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    /// The tier solver's unmoves (the dense index's fast paths among them).
    pub(super) tiers: TierUnmoves<Canonical<G>>,
    /// The cluster's solve with these unmoves
    /// ([`solver_cluster::solve_tiers_indexed`]: by the index where the
    /// game is one tier indexed as a whole).
    cluster: ClusterSolve<G>,
    check: fn(&G, u64) -> Result<u64, Error>,
}

/// [`HasUnmoves::cluster`].
type ClusterSolve<G> = fn(
    Canonical<G>,
    &ClusterConfig,
    Option<Arc<Database>>,
) -> Result<ClusterSolution<Canonical<G>>, solver_cluster::Error>;

impl<G> HasUnmoves<G>
where
    G: CliGame + game_core::IndexedUnmoves + game_core::IndexedChildren,
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    /// The unmoves of `G`, over its index
    /// ([`TierUnmoves::indexed`]): a game of one loopy tier indexed as a
    /// whole whose symmetry is the identity (Magic Fingers) is then solved
    /// and walked by its index's fast paths; any other tier by tier.
    #[must_use]
    pub fn new() -> Self {
        HasUnmoves {
            tiers: TierUnmoves::indexed(),
            cluster: solver_cluster::solve_tiers_indexed::<Canonical<G>>,
            check: check_indexed_unmoves::<G>,
        }
    }
}

impl<G> Default for HasUnmoves<G>
where
    G: CliGame + game_core::IndexedUnmoves + game_core::IndexedChildren,
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    fn default() -> Self {
        Self::new()
    }
}

/// The tier solver of the canonical `game`, given the unmoves the game
/// declares ([`CliGame::unmoves`]); the command adds its store, start and
/// tables, and the solver chooses the strategy.
pub fn tier_solver<'g, 's, G: CliGame>(game: &'g Canonical<G>) -> TierSolver<'g, 's, Canonical<G>>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    TierSolver::new(game).unmoves(G::unmoves().map(|u| u.tiers))
}

/// Solves the canonical `game` on the cluster `config` describes, given
/// the unmoves the game declares ([`CliGame::unmoves`]): the cluster
/// chooses the strategy ([`solver_cluster::solve_tiers_indexed`] with
/// unmoves, [`solver_cluster::solve_tiers`] without).
///
/// # Errors
/// The cluster's.
pub fn solve_on_cluster<G: CliGame>(
    game: Canonical<G>,
    config: &ClusterConfig,
    db: Option<Arc<Database>>,
) -> Result<ClusterSolution<Canonical<G>>, solver_cluster::Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    match G::unmoves() {
        Some(u) => (u.cluster)(game, config, db),
        None => solver_cluster::solve_tiers(game, config, db),
    }
}

/// No options: a game of fixed rules.
#[derive(Debug, Clone, Copy, Default, clap::Args)]
pub struct NoOptions {}

/// The commands of a game declared by [`CliGame`], its rules chosen by
/// the options `O` ([`CliGame::Options`]).
#[derive(Debug, clap::Subcommand)]
pub enum GameCmd<O: clap::Args> {
    /// Solve every position; the start's value, counts of the positions
    /// reachable from the start, the certificate.
    Solve {
        #[command(flatten)]
        rules: O,
        #[command(flatten)]
        flags: SolveFlags,
    },
    /// The value of a position (in the game's notation; the start by
    /// default), its best move and every move's value.
    Value {
        /// The position.
        #[arg(default_value = "")]
        position: String,
        #[command(flatten)]
        rules: O,
        /// Answer from this database (written by `solve --db`, whose rules
        /// it records) instead of solving.
        #[arg(long, value_name = "DIR")]
        db: Option<PathBuf>,
    },
    /// Statistics of a solved database (its rules read from it).
    Analyze {
        #[command(flatten)]
        rules: O,
        /// The database written by `solve --db`.
        #[arg(long, value_name = "DIR")]
        db: PathBuf,
    },
    /// Check the game's implementation on sampled positions.
    Check {
        #[command(flatten)]
        rules: O,
        #[command(flatten)]
        samples: Samples,
    },
    /// Play against the perfect player.
    Play {
        #[command(flatten)]
        rules: O,
        #[command(flatten)]
        seat: Seat,
    },
}

/// Runs a [`GameCmd`] for `G`: the report to print, or `None` for `play`
/// (which printed as it went).
///
/// # Errors
/// The command's, in one line.
pub fn run_game<G: CliGame>(cmd: GameCmd<G::Options>, ctx: &Ctx) -> Result<Option<Report>, Error>
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    // The commands are the program's own (`PROGRAM value 51`).
    let at = tiered::command_line;
    let game = |rules: &G::Options| G::from_options(rules, None);
    let in_db = |rules: &G::Options, dir: &std::path::Path, command: &str| {
        tiered::game_in_db(dir, |base| G::from_options(rules, base), command)
    };
    Ok(Some(match cmd {
        GameCmd::Solve { rules, flags } => flags.solve(game(&rules)?, ctx)?,
        GameCmd::Value {
            position,
            rules,
            db: Some(db),
        } => {
            let game = in_db(&rules, &db, &at(&["value", &position]))?;
            tiered::value(game, &position, Some(&db), ctx)?
        }
        GameCmd::Value {
            position, rules, ..
        } => tiered::value(game(&rules)?, &position, None, ctx)?,
        GameCmd::Analyze { rules, db } => {
            tiered::analyze_db(in_db(&rules, &db, &at(&["analyze"]))?, &db, ctx)?
        }
        // Tiers, symmetry, and at most an index and unmoves.
        GameCmd::Check { rules, samples } => samples.check(game(&rules)?, 4, ctx)?,
        GameCmd::Play { rules, seat } => {
            let game = match seat.db() {
                Some(dir) => in_db(&rules, dir, &at(&["play"]))?,
                None => game(&rules)?,
            };
            super::play_tiered::run(game, &seat, ctx)?;
            return Ok(None);
        }
    }))
}

/// The promises of an index and unmoves on `samples` positions (what
/// `check` checks of a game that declares [`CliGame::unmoves`]); the
/// positions checked.
///
/// # Errors
/// The first broken promise, in words.
pub fn check_indexed_unmoves<G>(game: &G, samples: u64) -> Result<u64, Error>
where
    G: game_core::Indexed + game_core::Unmoves,
    G::Position: Debug,
{
    let mut check = solver_retro::GameCheck::new(game, samples);
    check
        .indexed()
        .and_then(|c| c.unmoves())
        .map_err(|e| Error::Usage(e.to_string()))?;
    Ok(check.widest())
}

/// The command line of a user's game `G`: `NAME [--json] [--threads N]
/// [--memory BYTES] [--max-work STEPS] COMMAND …`, one of [`GameCmd`].
#[derive(Debug, clap::Parser)]
struct GameCli<O: clap::Args> {
    #[command(flatten)]
    globals: super::Globals,
    #[command(subcommand)]
    command: GameCmd<O>,
}

/// The whole program of a user's game, for their `main`: parses
/// `PROGRAM solve|value|analyze|check|play …` (with `gamesolve`'s `--json`, `--threads`,
/// `--memory` and `--max-work`), runs it, prints the report, and returns
/// the exit code (an error is one line on stderr, `{"error": …}` with
/// `--json`).
///
/// ```text
/// fn main() -> std::process::ExitCode {
///     gamesolve::cli::main_for::<MyGame>()
/// }
/// ```
///
/// `examples/tiered_tic_tac_toe.rs` is a whole game so declared.
pub fn main_for<G: CliGame>() -> ExitCode
where
    G::Position: Send + Sync + Debug,
    G::Move: Send,
{
    use clap::{CommandFactory, FromArgMatches};
    super::mark_start();
    // The program's name in its messages and usage (`PROGRAM: …`); clap
    // keeps it for the process's life.
    let name: &'static str = Box::leak(tiered::program().into_boxed_str());
    let command = || GameCli::<G::Options>::command().name(name);
    super::exit::main_with(command, |matches| {
        let cli = GameCli::<G::Options>::from_arg_matches(&matches)
            .map_err(|e| Error::Usage(e.to_string()))?;
        super::run_with(&cli.globals, |ctx| run_game::<G>(cli.command, ctx))
    })
}

#[cfg(test)]
mod tests {
    use super::CliGame;
    use games::{ConnectFour, Dobutsu, Teeko};

    /// Each built-in game reads back the rules key it writes, and no other
    /// game's: the key a database records names one game.
    #[test]
    fn every_game_reads_back_its_own_rules_key_and_no_other() {
        let boards = [(4, 4), (5, 4), (7, 6), (8, 7), (1, 1)];
        let mut keys = Vec::new();
        for (w, h) in boards {
            let g = ConnectFour::new(w, h).unwrap();
            let back = ConnectFour::from_rules_key(&g.rules()).expect("its own key");
            assert_eq!((back.width(), back.height()), (w, h));
            keys.push(g.rules());
        }
        assert_eq!(
            Teeko::from_rules_key(&Teeko::new().rules()).map(|g| g.rules()),
            Some(Teeko::new().rules())
        );
        assert!(Dobutsu::from_rules_key(&Dobutsu::new().rules()).is_some());
        keys.push(Teeko::new().rules());
        keys.push(Dobutsu::new().rules());
        // Another game's key, a board no game of this kind has, another
        // spelling of a board: none reads as a game.
        for key in keys.iter().map(String::as_str).chain([
            "9x9, mirror-canonical, tiers by pieces, v1",
            "05x4, mirror-canonical, tiers by pieces, v1",
            "5x4, mirror-canonical, tiers by pieces, v2",
            "",
        ]) {
            let c4 = ConnectFour::from_rules_key(key).is_some();
            let teeko = Teeko::from_rules_key(key).is_some();
            let dobutsu = Dobutsu::from_rules_key(key).is_some();
            assert!(
                u8::from(c4) + u8::from(teeko) + u8::from(dobutsu) <= 1,
                "{key}"
            );
            assert_eq!(
                c4 || teeko || dobutsu,
                keys.iter().any(|k| k == key),
                "{key}"
            );
        }
    }
}
