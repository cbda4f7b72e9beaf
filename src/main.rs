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
/// (docs/benchmark-history.md, the s15 rows). Only the binary chooses: the libraries leave the
/// allocator to whoever links them (`--no-default-features` builds the
/// binary with the system's).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // The run's time, in a solve's last line, is measured from here.
    gamesolve::cli::mark_start();
    #[cfg(all(feature = "mimalloc", target_os = "linux"))]
    small_arenas_under_a_limit();
    gamesolve::cli::main()
}

/// The environment variable that sets mimalloc's arena size.
#[cfg(all(feature = "mimalloc", target_os = "linux"))]
const ARENA_RESERVE: &str = "MIMALLOC_ARENA_RESERVE";

/// Under an address-space limit (`ulimit -v`) of less than 8 GiB, runs
/// this program again with mimalloc's arenas an eighth of the limit (at
/// least 32 MiB): mimalloc reserves 1 GiB of address space at a time,
/// and when that does not fit, 128 MiB, whatever the limit. Under
/// `ulimit -v 150000` (KB) that arena took all but 2.6 MiB of the space
/// and could not serve a 1.7 MiB table (issue 46: a Connect Four 5×4
/// solve ran under 140,000 and 160,000 KB, and was refused between).
/// Done once: the variable set (by this or by the user) is left alone,
/// and a program that cannot be run again carries on as it is.
#[cfg(all(feature = "mimalloc", target_os = "linux"))]
fn small_arenas_under_a_limit() {
    use std::os::unix::process::CommandExt;
    if std::env::var_os(ARENA_RESERVE).is_some() {
        return;
    }
    let Some(limit) = game_core::budget::address_space_limit_now() else {
        return;
    };
    if limit >= 8 << 30 {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let kib = (limit / 8).clamp(32 << 20, 1 << 30) >> 10;
    let mut args = std::env::args_os();
    let mut again = std::process::Command::new(exe);
    if let Some(name) = args.next() {
        again.arg0(name);
    }
    // Returns only if the program could not be run again.
    let _ = again
        .args(args)
        .env(ARENA_RESERVE, format!("{kib}KiB"))
        .exec();
}
