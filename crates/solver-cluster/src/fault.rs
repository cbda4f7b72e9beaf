//! Turning a failure into an error on every process, and a failed run
//! into one that leaves nothing behind.
//!
//! A run's failure is recorded once, in the run's [`Fault`]: by a worker
//! that fails, and by the connection to a peer that closes, fails, falls
//! silent or sends what timely cannot take (`link.rs`). Workers check the
//! record between steps and stop; the caller sees it within a tenth of a
//! second, cuts the run's connections (every peer sees them close, whether
//! or not this process exits) and returns [`crate::Error::Failed`].
//!
//! A failed run ends every thread it started before it returns: a worker
//! that stops drops its dataflows and ends, so timely neither steps it nor
//! waits for it again; a connection that failed, or whose run failed,
//! sends nothing more (what timely writes to it is dropped, so no peer
//! ever sees a clean end of stream from a failed process), and its reading
//! side, once every worker of the run has stopped stepping
//! ([`Fault::release`]), ends the stream timely reads as if the peer had
//! ended it, so timely's network threads end too. A library that runs
//! many solves in one process keeps no thread nor socket of a failed one.
//!
//! A panic in a worker's solve, its own code (a game that panics, or a
//! bug) or one of timely's steps it runs (an operator), unwinds to the
//! worker's [`catching`] and fails its run alone, as an error; the worker
//! then stops as for any error and steps no more. What is left to the
//! panic hook is a panic in timely's own threads outside a worker's solve
//! (its network threads, a worker's setup and teardown, which nothing of
//! this crate runs in): the hook records it for every run under way, which
//! cannot say whose it is, and parks that thread, so that it never unwinds
//! (timely's unwinding there poisons the process's channels, and a second
//! panic while unwinding aborts the process). A thread parked in the hook
//! keeps the standard library's hook lock: after such a panic,
//! `std::panic::set_hook` and `take_hook` never return in that process.
//!
//! But for one: a network thread that timely started for a run that then
//! failed to start (the next network thread could not be spawned) panics
//! at once, waiting for the workers' ends of its channels, which timely
//! dropped with the error ([`STARTS`]). It holds nothing yet but its own
//! end of the connection, so it unwinds and ends, closing it; the run has
//! failed already, with `Error::Start` (see `net.rs`).
//!
//! Each run has a record of its own, so runs side by side in one process
//! (tests) do not fail each other, but for such a panic.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError, Weak};

/// What a run's [`Fault`] handles share.
#[derive(Default)]
struct Record {
    state: Mutex<State>,
    /// A failure is recorded: read without the lock, as often as every
    /// write to a connection.
    failed: AtomicBool,
    /// Wakes those waiting for [`State::released`].
    changed: Condvar,
}

/// A run's failure and whether its workers stopped.
#[derive(Default)]
struct State {
    failure: Option<String>,
    /// Every worker of the run has stopped stepping.
    released: bool,
}

/// The records of the runs under way (for the panic hook).
static LIVE: Mutex<Vec<Weak<Record>>> = Mutex::new(Vec::new());

type Hook = Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static>;

/// A run's failure record, shared by its workers and connections.
#[derive(Clone)]
pub(crate) struct Fault(Arc<Record>);

impl Fault {
    /// A record for a new run (and the panic hook, once a process).
    pub(crate) fn new() -> Fault {
        install();
        let f = Fault(Arc::default());
        let mut live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
        live.retain(|w| w.strong_count() > 0);
        live.push(Arc::downgrade(&f.0));
        f
    }

    /// Records `msg` as the run's failure, unless one is recorded.
    pub(crate) fn set(&self, msg: String) {
        record(&self.0, msg);
    }

    /// The failure recorded, if any.
    pub(crate) fn get(&self) -> Option<String> {
        lock(&self.0.state).failure.clone()
    }

    /// Whether a failure is recorded (without taking a lock).
    pub(crate) fn failed(&self) -> bool {
        self.0.failed.load(Ordering::Acquire)
    }

    /// Says that every worker of the run has stopped stepping (so that
    /// nothing reads what a failed connection hands timely from now on).
    pub(crate) fn release(&self) {
        lock(&self.0.state).released = true;
        self.0.changed.notify_all();
    }

    /// Waits until [`Fault::release`].
    pub(crate) fn wait_released(&self) {
        let mut s = lock(&self.0.state);
        while !s.released {
            s = self
                .0
                .changed
                .wait(s)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn record(r: &Record, msg: String) {
    let mut s = lock(&r.state);
    if s.failure.is_none() {
        s.failure = Some(msg);
        r.failed.store(true, Ordering::Release);
    }
}

/// Records `msg` as the failure of every run under way.
fn set_all(msg: &str) {
    let live = LIVE.lock().unwrap_or_else(PoisonError::into_inner);
    for r in live.iter().filter_map(Weak::upgrade) {
        record(&r, msg.to_string());
    }
}

std::thread_local! {
    /// This worker thread runs its solve inside [`catching`]: a panic here
    /// may unwind to it.
    static CATCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// What the hook made of the last panic caught on this thread.
    static CAUGHT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs `f` (a worker's solve, with the timely steps it takes) so that a
/// panic inside it comes back as its message: the hook lets it unwind
/// instead of parking the thread (and keeping the hook's lock), and
/// records it for no run (the caller's run fails with it, and its worker
/// steps no more: timely's state may be left half-changed).
pub(crate) fn catching<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    let was = CATCHING.with(|c| c.replace(true));
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(was));
    r.map_err(|payload| {
        CAUGHT
            .with(|c| c.borrow_mut().take())
            .unwrap_or_else(|| format!("a worker thread panicked: {}", message(payload.as_ref())))
    })
}

/// A panic's payload as words.
pub(crate) fn message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a thread panicked".into())
}

/// What timely's network threads panic with when the allocators of a
/// run that failed to start are dropped before they were built: the send
/// thread (`timely:send-…`) cannot hand a worker its queue, the receive
/// thread (`timely:recv-…`) gets none (timely_communication's
/// `send_loop` and `recv_loop`, first thing).
const STARTS: [(&str, &str); 2] = [
    ("timely:send-", "failed to send MergeQueue"),
    ("timely:recv-", "Failed to receive MergeQueue"),
];

/// Whether the panic `payload` of thread `name` is a network thread's at
/// its start, for a run that failed to start ([`STARTS`]).
fn at_start(name: &str, payload: &str) -> bool {
    STARTS
        .iter()
        .any(|(thread, msg)| name.starts_with(thread) && payload.starts_with(msg))
}

/// Parks the calling thread for good.
fn park_forever() -> ! {
    loop {
        std::thread::park();
    }
}

/// Installs the panic hook (once a process): a panic on one of timely's
/// threads (named `timely:…`) inside a worker's solve ([`catching`]) is
/// noted for it and unwinds to it; outside one, it is recorded for every
/// run under way and its thread parked; any other thread's panic goes to
/// the hook that was there before.
fn install() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous: Hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let thread = std::thread::current();
            let Some(name) = thread.name().filter(|n| n.starts_with("timely:")) else {
                previous(info);
                return;
            };
            let payload = message(info.payload());
            if at_start(name, &payload) {
                // Nothing to poison yet, and the run failed already: the
                // thread unwinds and ends.
                return;
            }
            let msg = if payload.starts_with("timely communication error") {
                format!(
                    "the connection to a peer process failed (it died, was killed or the \
                     network broke): {payload}"
                )
            } else {
                let at = info
                    .location()
                    .map(|l| format!(" at {}:{}", l.file(), l.line()))
                    .unwrap_or_default();
                let who = if name.starts_with("timely:work") {
                    "a worker thread".to_string()
                } else {
                    format!("timely's thread {name}")
                };
                format!("{who} panicked{at}: {payload}")
            };
            if CATCHING.with(std::cell::Cell::get) {
                // A worker's solve (its own code or a timely step it
                // takes): it unwinds to `catching`, which fails the
                // worker's run alone.
                CAUGHT.with(|c| *c.borrow_mut() = Some(msg));
                return;
            }
            set_all(&msg);
            park_forever();
        }));
    });
}
