//! The cluster's integration tests, one binary: the seven files share the
//! engine's instantiations and one link (as seven binaries they took some
//! 200 s of CI's two-core build). `peer_failure` and `release` stay
//! programs of their own: they run themselves again as peers, and count
//! the process's threads and descriptors.

#[path = "../common/mod.rs"]
mod common;

mod args;
mod lies;
mod mismatch;
mod processes;
mod resume;
mod threads;
mod wide;
