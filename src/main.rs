//! The `gamesolve` command: verdicts, tables and proofs from the terminal
//! (the commands are the library's, [`gamesolve::cli`]).

use std::process::ExitCode;

/// The binary's allocator: mimalloc. Its per-thread heaps reuse the pages
/// they have touched and take fresh memory in large segments (huge pages
/// where the kernel allows), where the system allocator grew the solver's
/// level lists and its threads' post boxes by `realloc` into fresh 4 KiB
/// pages, a page fault each: a fresh `fingers solve --fingers 128
/// --no-certify` on two threads took ~20,000 page faults with it and
/// ~800 with mimalloc, and its solve 93–101 ms instead of 100–168 ms
/// (BENCHMARKS.md). Only the binary chooses: the libraries leave the
/// allocator to whoever links them (`--no-default-features` builds the
/// binary with the system's).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    gamesolve::cli::main()
}
