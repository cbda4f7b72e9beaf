//! A game that breaks its promises stops a cluster solve with a typed
//! error naming what broke — on one worker and on several, never a panic,
//! a hang or a table solved wrong (the same lies as solver-retro's unit
//! test `a_broken_promise_is_an_error_on_every_path`).

use game_core::{Game, Indexed, IndexedUnmoves, ParentIndices, Unmoves};
use solver_cluster::{ClusterConfig, Error};
use solver_retro::Error as RetroError;

/// Positions 0..4 (index 4 is no position): 3 moves to 1 and 2, which
/// move to 0, where the mover has no move (lost). Each lie breaks one
/// promise about that graph.
#[derive(Clone, Copy, Debug)]
enum Liar {
    /// Position 3 claims one child, and gets two updates.
    CountTooLow,
    /// Position 0's parents include index 4, no position.
    ParentIsNoPosition,
    /// Position 1's parents include a run past the last index.
    ParentPastTheEnd,
    /// Won children's parents come as a run over 3 and 4 (no position).
    RunThroughNoPosition,
}

impl Game for Liar {
    type Position = usize;
    type Move = usize;
    fn moves(&self, p: &usize, out: &mut Vec<usize>) {
        match p {
            3 => out.extend([1, 2]),
            1 | 2 => out.push(0),
            _ => {}
        }
    }
    fn play(&self, _: &usize, to: &usize) -> usize {
        *to
    }
}

impl Indexed for Liar {
    fn size(&self) -> u64 {
        5
    }
    fn index(&self, p: &usize) -> u64 {
        *p as u64
    }
    fn position(&self, i: u64) -> Option<usize> {
        (i < 4).then_some(i as usize)
    }
}

impl Unmoves for Liar {
    fn unmoves(&self, c: &usize, out: &mut Vec<usize>) {
        match c {
            0 => out.extend([1, 2]),
            1 | 2 => out.push(3),
            _ => {}
        }
    }
}

impl IndexedUnmoves for Liar {
    fn child_counts(&self, first: u64, out: &mut [u32]) -> bool {
        for (k, o) in out.iter_mut().enumerate() {
            *o = match (first + k as u64, self) {
                (3, Liar::CountTooLow) => 1,
                (3, _) => 2,
                (1 | 2, _) => 1,
                _ => 0,
            };
        }
        true
    }
    fn unmove_indices(&self, index: u64, out: &mut ParentIndices, _: &mut Vec<usize>) {
        match (index, self) {
            (0, Liar::ParentIsNoPosition) => out.singles.extend([1, 2, 4]),
            (0, _) => out.runs.push(1..3),
            (1, Liar::ParentPastTheEnd) => {
                out.singles.push(3);
                out.runs.push(5..8);
            }
            (1 | 2, Liar::RunThroughNoPosition) => out.runs.push(3..5),
            (1 | 2, _) => out.singles.push(3),
            _ => {}
        }
    }
}

#[test]
fn a_broken_promise_stops_the_cluster_with_an_error() {
    for lie in [
        Liar::CountTooLow,
        Liar::ParentIsNoPosition,
        Liar::ParentPastTheEnd,
        Liar::RunThroughNoPosition,
    ] {
        for workers in [1, 2, 3] {
            let config =
                ClusterConfig::from_args(["-w".to_string(), workers.to_string()]).expect("flags");
            let err = match solver_cluster::solve_unmoves(lie, &config, None) {
                Ok(_) => panic!("{lie:?}, {workers} workers: solved a lying game"),
                Err(e) => e,
            };
            let named = match (lie, &err) {
                (Liar::CountTooLow, Error::Retro(RetroError::Broken(m))) => {
                    m.contains("position id 3 has more parents' updates than children")
                }
                (
                    Liar::ParentIsNoPosition | Liar::RunThroughNoPosition,
                    Error::Retro(RetroError::Broken(m)),
                ) => m.contains("parent id 4, which is no position"),
                (Liar::ParentPastTheEnd, e) => {
                    matches!(e, Error::Retro(RetroError::BadIndex { index: 7, size: 5 }))
                }
                _ => false,
            };
            assert!(named, "{lie:?}, {workers} workers: {err:?}");
        }
    }
}

/// The honest game, for contrast: the same graph solves (3 wins in 3).
#[test]
fn the_honest_graph_solves() {
    #[derive(Clone)]
    struct Honest;
    impl Game for Honest {
        type Position = usize;
        type Move = usize;
        fn moves(&self, p: &usize, out: &mut Vec<usize>) {
            Liar::CountTooLow.moves(p, out);
        }
        fn play(&self, _: &usize, to: &usize) -> usize {
            *to
        }
    }
    impl Indexed for Honest {
        fn size(&self) -> u64 {
            5
        }
        fn index(&self, p: &usize) -> u64 {
            *p as u64
        }
        fn position(&self, i: u64) -> Option<usize> {
            (i < 4).then_some(i as usize)
        }
    }
    impl Unmoves for Honest {
        fn unmoves(&self, c: &usize, out: &mut Vec<usize>) {
            Liar::CountTooLow.unmoves(c, out);
        }
    }
    impl IndexedUnmoves for Honest {}
    for workers in [1, 2, 3] {
        let config =
            ClusterConfig::from_args(["-w".to_string(), workers.to_string()]).expect("flags");
        let sol = solver_cluster::solve_unmoves(Honest, &config, None).expect("solved");
        let table = sol.table(0).expect("held");
        use game_core::Value;
        let want = [Value::lose(0), Value::win(1), Value::win(1), Value::lose(2)];
        for (i, v) in want.into_iter().enumerate() {
            assert_eq!(table.value(i as u64), Some(v), "{workers} workers, {i}");
        }
    }
}
