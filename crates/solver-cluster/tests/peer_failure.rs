//! A game that breaks its promises, on processes of the cluster: every
//! process stops with an error, one of them naming what broke, never a
//! wait for ever. Before, the process that found the lie kept its
//! connections open (its failed worker parked) and, when it found it
//! applying the updates of the last round, its peers had finished their
//! levels and waited for ever for its clean end of stream in timely's
//! shutdown; as a program, a process would hang the same way on a peer
//! that fails after the last barrier.
//!
//! A plain program (`harness = false` in Cargo.toml): it exits as soon
//! as it is done, whatever threads the failures left parked.

mod common;

use std::time::Duration;

use solver_cluster::Error;
use solver_retro::fixtures::{Liar, Lie};

fn main() {
    for lie in Lie::ALL {
        for each in [&[(2, 1), (2, 1)][..], &[(2, 2), (2, 2)], &[(3, 1); 3]] {
            let (tx, rx) = std::sync::mpsc::channel();
            std::thread::spawn(move || {
                let _ = tx.send(common::cluster_each(each, |_, c| {
                    solver_cluster::solve_unmoves(Liar { lie }, &c, None).map(|_| ())
                }));
            });
            let results = rx
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("{lie:?}, {each:?}: a process still waits"));
            assert!(
                results.iter().all(Result::is_err),
                "{lie:?}, {each:?}: {results:?}"
            );
            assert!(
                results.iter().any(|r| matches!(r, Err(Error::Retro(_)))),
                "{lie:?}, {each:?}: {results:?}"
            );
        }
    }
    println!("test a_broken_promise_stops_every_process ... ok");
    std::process::exit(0);
}
