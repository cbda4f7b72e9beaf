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
static GLOBAL: oom::Refusing<mimalloc::MiMalloc> = oom::Refusing(mimalloc::MiMalloc);

/// Without mimalloc, the system's allocator, with the same one-line
/// refusal when memory runs out.
#[cfg(not(feature = "mimalloc"))]
#[global_allocator]
static GLOBAL: oom::Refusing<std::alloc::System> = oom::Refusing(std::alloc::System);

fn main() -> ExitCode {
    oom::note_json();
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

/// Running out of memory as one line and exit 1, not an abort.
///
/// Rust's default answer to a failed allocation is two or three lines
/// ("memory allocation of 2072 bytes failed", then the panic machinery's
/// own failure) and `SIGABRT` (exit 134): under `ulimit -v 25000` on CI's
/// machine `gamesolve --json nim 1 2` ended so, with no JSON (issue 46).
/// Stable Rust has no hook for that answer, so the allocator itself says
/// it: a failed request of less than [`SMALL`] bytes means the process
/// cannot go on at all, and it writes the one line (or, under `--json`,
/// the one object) and exits 1 at once, allocating nothing on the way.
/// A larger request that fails is handed back as a null pointer, as
/// before: the solvers reserve their tables with `try_reserve` and refuse
/// in words of their own (the table, the memory it needs, the limit).
#[allow(unsafe_code)]
mod oom {
    use std::alloc::{GlobalAlloc, Layout};
    use std::sync::atomic::{AtomicBool, Ordering};

    /// Failed requests under this many bytes end the program.
    pub const SMALL: usize = 1 << 20;

    /// Whether the command line asked for `--json` (set by [`note_json`]).
    static JSON: AtomicBool = AtomicBool::new(false);

    /// Set once the one line is being written: a failure while writing it
    /// (there is none to expect: nothing is allocated) aborts.
    static ENDING: AtomicBool = AtomicBool::new(false);

    /// Reads `--json` off the command line (before a `--`), for the line.
    pub fn note_json() {
        let json = std::env::args_os()
            .skip(1)
            .take_while(|a| a != "--")
            .any(|a| a == "--json");
        JSON.store(json, Ordering::Relaxed);
    }

    /// An allocator that ends the program in one line when a small
    /// request fails (see the module).
    pub struct Refusing<A>(pub A);

    // SAFETY: every method forwards to `A`'s with the same arguments and
    // returns what it returned; only a null result is looked at.
    unsafe impl<A: GlobalAlloc> GlobalAlloc for Refusing<A> {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            // SAFETY: the caller's promises are `A::alloc`'s.
            let p = unsafe { self.0.alloc(layout) };
            checked(p, layout.size())
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            // SAFETY: as `alloc`.
            let p = unsafe { self.0.alloc_zeroed(layout) };
            checked(p, layout.size())
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: as `alloc`.
            unsafe { self.0.dealloc(ptr, layout) }
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            // SAFETY: as `alloc`.
            let p = unsafe { self.0.realloc(ptr, layout, new_size) };
            checked(p, new_size)
        }
    }

    /// `p`, unless it is null for a request of less than [`SMALL`] bytes.
    fn checked(p: *mut u8, size: usize) -> *mut u8 {
        if p.is_null() && size < SMALL {
            out_of_memory(size);
        }
        p
    }

    /// Writes the one line on stderr and exits 1, allocating nothing.
    #[cold]
    fn out_of_memory(size: usize) -> ! {
        use std::io::Write;
        if ENDING.swap(true, Ordering::SeqCst) {
            std::process::abort();
        }
        let mut line = Line::default();
        let what = "out of memory: cannot start or go on under this memory limit \
                    (`ulimit -v`)";
        let _ = if JSON.load(Ordering::Relaxed) || json_in_cmdline() {
            writeln!(
                line,
                "{{\"error\":\"{what}: a request of {size} bytes failed\"}}"
            )
        } else {
            writeln!(line, "gamesolve: {what}: a request of {size} bytes failed")
        };
        // `Stderr` is unbuffered: this is one `write` of the stack buffer.
        let _ = std::io::stderr().write_all(line.bytes());
        // `_exit`, not `exit`: no atexit handler (the allocator's own among
        // them) runs while other threads may still be allocating.
        #[cfg(unix)]
        // SAFETY: `_exit` takes any status and does not return.
        unsafe {
            libc::_exit(1)
        }
        #[cfg(not(unix))]
        std::process::exit(1)
    }

    /// Whether `/proc/self/cmdline` holds `--json` before a `--`, read
    /// into a buffer on the stack: a request may fail before `main` has
    /// read the arguments (under `ulimit -v 18000`, one of 4 bytes did).
    #[cfg(target_os = "linux")]
    fn json_in_cmdline() -> bool {
        // SAFETY: a NUL-terminated path; the descriptor is closed below.
        let fd = unsafe { libc::open(c"/proc/self/cmdline".as_ptr(), libc::O_RDONLY) };
        if fd < 0 {
            return false;
        }
        // The arguments, NUL-separated; `word` holds the current one's
        // first bytes (enough to tell `--json` and `--` from the rest).
        let (mut buf, mut word, mut len) = ([0u8; 1024], [0u8; 8], 0usize);
        let (mut first, mut found) = (true, false);
        'read: loop {
            // SAFETY: `buf` is valid for `buf.len()` bytes.
            let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
            if n <= 0 {
                break;
            }
            for &b in &buf[..n as usize] {
                if b != 0 {
                    if len < word.len() {
                        word[len] = b;
                    }
                    len += 1;
                    continue;
                }
                let arg = &word[..len.min(word.len())];
                let whole = len <= word.len();
                if !first && whole && arg == b"--" {
                    break 'read;
                }
                if !first && whole && arg == b"--json" {
                    found = true;
                    break 'read;
                }
                (first, len) = (false, 0);
            }
        }
        // SAFETY: `fd` was opened above and is closed once.
        unsafe { libc::close(fd) };
        found
    }

    #[cfg(not(target_os = "linux"))]
    fn json_in_cmdline() -> bool {
        false
    }

    /// A line formatted on the stack.
    struct Line {
        buf: [u8; 256],
        len: usize,
    }

    impl Default for Line {
        fn default() -> Self {
            Line {
                buf: [0; 256],
                len: 0,
            }
        }
    }

    impl Line {
        fn bytes(&self) -> &[u8] {
            &self.buf[..self.len]
        }
    }

    impl std::io::Write for Line {
        fn write(&mut self, data: &[u8]) -> std::io::Result<usize> {
            let n = data.len().min(self.buf.len() - self.len);
            self.buf[self.len..self.len + n].copy_from_slice(&data[..n]);
            self.len += n;
            Ok(n)
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
}
