//! The `gamesolve` command: verdicts, tables and proofs from the terminal
//! (the commands are the library's, [`gamesolve::cli`]).

use std::process::ExitCode;

/// The binary's allocator: mimalloc, or under an address-space limit
/// the system's ([`oom::Chosen`]). Mimalloc's per-thread heaps reuse the
/// pages they have touched and take fresh memory in large segments (huge
/// pages where the kernel allows), where the system allocator grew the
/// solver's level lists and its threads' post boxes by `realloc` into
/// fresh 4 KiB pages, a page fault each: a fresh `fingers solve --fingers
/// 128 --no-certify` on two threads took ~20,000 page faults with it and
/// ~800 with mimalloc, and its solve 93–101 ms instead of 100–168 ms
/// (docs/benchmark-history.md, the s15 rows). Only the binary chooses:
/// the libraries leave the allocator to whoever links them
/// (`--no-default-features` builds the binary with the system's alone).
#[global_allocator]
static GLOBAL: oom::Refusing<oom::Chosen> = oom::Refusing(oom::Chosen);

fn main() -> ExitCode {
    // The run's time, in a solve's last line, is measured from here.
    gamesolve::cli::mark_start();
    oom::note_json();
    oom::skip_unused_teardown();
    gamesolve::cli::main()
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
    use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};

    /// Failed requests under this many bytes end the program.
    pub const SMALL: usize = 1 << 20;

    /// Whether the command line asked for `--json` (set by [`note_json`]).
    static JSON: AtomicBool = AtomicBool::new(false);

    /// The thread writing the one line ([`this_thread`]), 0 before. Another
    /// thread whose request fails meanwhile waits for the writer's `_exit`
    /// (CI's machine saw the line written and then `SIGABRT` when the
    /// second thread aborted instead); a failure on the writer's own
    /// thread (there is none to expect: nothing is allocated) aborts.
    static WRITER: AtomicUsize = AtomicUsize::new(0);

    /// This thread, as a number other than 0: `pthread_self` (1 where
    /// there is none: any second failure then aborts).
    fn this_thread() -> usize {
        #[cfg(unix)]
        // SAFETY: `pthread_self` has no preconditions.
        return unsafe { libc::pthread_self() } as usize;
        #[cfg(not(unix))]
        1
    }

    /// Reads `--json` off the command line (before a `--`), for the line.
    pub fn note_json() {
        let json = std::env::args_os()
            .skip(1)
            .take_while(|a| a != "--")
            .any(|a| a == "--json");
        JSON.store(json, Ordering::Relaxed);
    }

    /// Mimalloc, or the system's allocator with one arena when the
    /// process runs under an address-space limit (`ulimit -v`, a soft
    /// `RLIMIT_AS` under 8 GiB), chosen at the first request (before any
    /// thread is started) and kept: the answer is read by `getrlimit`,
    /// which allocates nothing.
    ///
    /// Design note (issue 46): under a limit, mimalloc's reservations
    /// made more memory a refusal: it reserves its arena in 1 GiB (or
    /// 128 MiB) steps and aligns fresh segments by mapping more than it
    /// keeps, so a Connect Four 5×4 solve ran under `ulimit -v 83000` and
    /// was refused under 86,000–88,000 ("the system refused 1.7 MiB"),
    /// even with its arena shrunk to an eighth of the limit by running the
    /// program again. The system's allocator maps large tables at their
    /// size; with one arena (`M_ARENA_MAX`) its threads do not each
    /// reserve 64 MiB of address space either (under 90,000 KB one such
    /// reservation left a 4 MiB tier "2.8 MiB available").
    pub struct Chosen;

    /// 0: not chosen yet; 1: mimalloc; 2: the system's.
    static CHOICE: AtomicU8 = AtomicU8::new(0);

    impl Chosen {
        /// Whether requests go to the system's allocator.
        #[inline]
        fn system() -> bool {
            match CHOICE.load(Ordering::Relaxed) {
                0 => Self::choose(),
                c => c == 2,
            }
        }

        #[cold]
        fn choose() -> bool {
            let system = !cfg!(feature = "mimalloc") || limited();
            if system {
                one_arena();
            }
            let c = if system { 2 } else { 1 };
            match CHOICE.compare_exchange(0, c, Ordering::SeqCst, Ordering::SeqCst) {
                Ok(_) => system,
                Err(chosen) => chosen == 2,
            }
        }
    }

    /// Whether the soft address-space limit is under 8 GiB.
    #[cfg(unix)]
    fn limited() -> bool {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `lim` is a valid `rlimit` to write.
        let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &raw mut lim) } == 0;
        ok && lim.rlim_cur != libc::RLIM_INFINITY && lim.rlim_cur < 8 << 30
    }

    #[cfg(not(unix))]
    fn limited() -> bool {
        false
    }

    /// Under the system's allocator, ends the process at `exit` before
    /// the libraries' teardown runs, so that mimalloc's (linked, unused)
    /// cannot crash it.
    ///
    /// Design note (issue 46): mimalloc initialises itself from a loader
    /// constructor, before `main` and before any request, by reserving
    /// its page map (about 2 MiB of address space). Just above the limit
    /// where the loader itself fails (`ulimit -v` ~12,000–14,000 KB for
    /// the release binary here, ~18,000–20,000 for the debug one) that
    /// reservation fails and mimalloc carries on without it; its
    /// destructor then frees its thread-locals slots (a null pointer)
    /// through the missing map at `exit`, a `SIGSEGV` after the answer or
    /// the refusal was printed. Mimalloc has no public switch for its
    /// teardown, and it has nothing to tear down here (the system's
    /// allocator served every request), so an `on_exit` handler,
    /// registered after the loader's own and so run before it, ends the
    /// process with `_exit` and the status `exit` was given. Rust has
    /// flushed stdout by then (`main`'s return and `process::exit` both
    /// do before calling `exit`); no C library buffer is in use.
    pub fn skip_unused_teardown() {
        #[cfg(all(feature = "mimalloc", target_os = "linux", target_env = "gnu"))]
        if Chosen::system() {
            extern "C" {
                /// glibc's `on_exit(3)`: `f(status, arg)` runs at `exit`.
                fn on_exit(
                    f: extern "C" fn(libc::c_int, *mut libc::c_void),
                    arg: *mut libc::c_void,
                ) -> libc::c_int;
            }
            /// Ends the process with `exit`'s status, running nothing more.
            extern "C" fn end_now(status: libc::c_int, _: *mut libc::c_void) {
                // SAFETY: `_exit` takes any status and does not return.
                unsafe { libc::_exit(status) }
            }
            // SAFETY: `end_now` is a valid handler for the whole process
            // and ignores its argument. If registration fails (glibc is out
            // of memory for its list), exit goes on as before.
            let _ = unsafe { on_exit(end_now, std::ptr::null_mut()) };
        }
    }

    /// glibc's malloc with one arena for every thread.
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    fn one_arena() {
        // SAFETY: `mallopt` takes any parameter and value; it is called
        // before any other thread exists (the first request).
        unsafe { libc::mallopt(libc::M_ARENA_MAX, 1) };
    }

    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    fn one_arena() {}

    /// Forwards `$call` to mimalloc or the system's allocator.
    macro_rules! either {
        ($method:ident($($arg:expr),*)) => {{
            #[cfg(feature = "mimalloc")]
            {
                if Chosen::system() {
                    // SAFETY: the caller's promises are the same.
                    unsafe { std::alloc::System.$method($($arg),*) }
                } else {
                    // SAFETY: as above.
                    unsafe { mimalloc::MiMalloc.$method($($arg),*) }
                }
            }
            #[cfg(not(feature = "mimalloc"))]
            {
                let _ = Chosen::system();
                // SAFETY: the caller's promises are the same.
                unsafe { std::alloc::System.$method($($arg),*) }
            }
        }};
    }

    // SAFETY: every request goes to one allocator, chosen once before the
    // first and never changed, so each block is freed by the allocator
    // that gave it.
    unsafe impl GlobalAlloc for Chosen {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            either!(alloc(layout))
        }

        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            either!(alloc_zeroed(layout))
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            either!(dealloc(ptr, layout))
        }

        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            either!(realloc(ptr, layout, new_size))
        }
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
        let me = this_thread();
        if let Err(writer) = WRITER.compare_exchange(0, me, Ordering::SeqCst, Ordering::SeqCst) {
            // Another thread writes: wait for its `_exit` (which ends this
            // thread too).
            #[cfg(unix)]
            if writer != me {
                loop {
                    // SAFETY: `pause` only waits for a signal.
                    unsafe { libc::pause() };
                }
            }
            let _ = writer;
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
