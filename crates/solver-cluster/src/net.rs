//! Connecting the processes: timely's own setup, less its prints to
//! standard output (which would mix with process 0's report) and with a
//! time limit instead of retrying for ever, and a greeting by which the
//! processes check that they run the same solve before timely starts.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::zero_copy::stream::Stream;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::Hooks;
use timely::CommunicationConfig;

use crate::fault::Fault;
use crate::link::Link;
use crate::threads::Reserved;
use crate::Error;

/// What a process starts a run with: its threads, the allocators of its
/// workers (one a worker thread), the guard of timely's network threads,
/// and its connections to the other processes.
pub(crate) struct Built {
    /// Every thread the run spawns of its own, waiting for its work.
    pub reserved: Reserved,
    /// The allocators of the process's workers.
    pub builders: Vec<AllocatorBuilder>,
    /// timely's network threads, joined when dropped.
    pub others: Box<dyn std::any::Any + Send>,
    /// The connections to the other processes.
    pub links: Links,
}

/// This process's connections to the other processes (handles of the
/// links timely's threads use), to cut when the run fails and to wait
/// for their heartbeats at its end.
#[derive(Default)]
pub(crate) struct Links(Vec<Link>);

impl Links {
    /// Shuts every connection down, both ways, without timely's clean
    /// end of stream: every peer's network thread sees the connection
    /// closed and fails its run, whether or not this process exits (a
    /// caller may go on after a failed solve); this process's network
    /// threads and heartbeats are woken to see the failure.
    pub(crate) fn cut(&self) {
        for l in &self.0 {
            l.cut();
        }
    }

    /// Waits for every link's heartbeat to end (at the end of stream, or
    /// once the run failed).
    pub(crate) fn join(&self) {
        for l in &self.0 {
            l.join_heart();
        }
    }
}

/// What a process says of itself when it connects to another: the
/// settings every process of a cluster must share. Sent both ways, as
/// [`Hello::WORDS`] little-endian words after [`MAGIC`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Hello {
    /// The sender's process id.
    pub process: u64,
    /// Processes in the cluster (`-n`).
    pub processes: u64,
    /// Worker threads a process (`-w`).
    pub threads: u64,
    /// A hash of the game's shape (its tiers and their sizes) and of the
    /// rules the caller named ([`crate::ClusterConfig::rules`]).
    pub solve: u64,
}

/// The first word of a [`Hello`]: a connection that does not start with
/// it is not a process of a cluster solve.
const MAGIC: u64 = u64::from_le_bytes(*b"gsolve\x01\x00");

impl Hello {
    /// Words on the wire, the magic first.
    const WORDS: usize = 5;

    fn to_bytes(self) -> [u8; 8 * Hello::WORDS] {
        let mut out = [0u8; 8 * Hello::WORDS];
        let words = [
            MAGIC,
            self.process,
            self.processes,
            self.threads,
            self.solve,
        ];
        for (chunk, w) in out.chunks_exact_mut(8).zip(words) {
            chunk.copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The hello in `bytes`, or `None` if they do not start with
    /// [`MAGIC`].
    fn from_bytes(bytes: &[u8; 8 * Hello::WORDS]) -> Option<Hello> {
        let mut words = bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default()));
        if words.next() != Some(MAGIC) {
            return None;
        }
        let mut next = || words.next().unwrap_or_default();
        Some(Hello {
            process: next(),
            processes: next(),
            threads: next(),
            solve: next(),
        })
    }

    /// Why a process that says `theirs` cannot join this one, if it cannot.
    fn mismatch(&self, theirs: &Hello) -> Option<String> {
        let j = theirs.process;
        if theirs.processes != self.processes {
            Some(format!(
                "process {j} was started with -n {}, this one with -n {}",
                theirs.processes, self.processes
            ))
        } else if theirs.threads != self.threads {
            Some(format!(
                "process {j} was started with -w {}, this one with -w {}",
                theirs.threads, self.threads
            ))
        } else if theirs.solve != self.solve {
            Some(format!(
                "process {j} solves another game or other rules than this one (every process \
                 must be started with the same game and options)"
            ))
        } else {
            None
        }
    }
}

/// Builds the communication `config` asks for, connecting to every other
/// process within `wait`; `solve` is [`Hello::solve`] for this process.
/// timely's threads reach each peer through a [`Link`] that fails
/// `fault`'s run when the peer fails or is silent for `peer_timeout`
/// (before it is first heard from, for `wait`: it may still be
/// connecting to others). Every thread of the run's own is spawned
/// ([`Reserved`]) before timely makes the allocators, and so before it
/// spawns its network threads: a failure to start leaves none of the
/// run's threads running, and the peers see the connections cut (but see
/// `threads.rs` for timely's network threads).
pub(crate) fn build(
    config: CommunicationConfig,
    wait: Duration,
    solve: u64,
    peer_timeout: Duration,
    fault: &Fault,
) -> Result<Built, Error> {
    let CommunicationConfig::Cluster {
        threads,
        process,
        addresses,
        ..
    } = config
    else {
        let threads = match config {
            CommunicationConfig::Process(n) | CommunicationConfig::ProcessBinary(n) => n,
            _ => 1,
        };
        let reserved = Reserved::new(threads, 0).map_err(|e| Error::Start(e.to_string()))?;
        let (builders, others) = config.try_build().map_err(Error::Start)?;
        return Ok(Built {
            reserved,
            builders,
            others,
            links: Links::default(),
        });
    };
    let hello = Hello {
        process: process as u64,
        processes: addresses.len() as u64,
        threads: threads as u64,
        solve,
    };
    let sockets = connect(&addresses, &hello, wait)?;
    // timely's threads use the sockets through links: a peer's failure,
    // silence or garbage is recorded as the run's, never a panic.
    let first = (threads * process) as u64;
    let workers = first..first + threads as u64;
    let mut links = Links::default();
    // From here a failure to start must stop the links' heartbeats and cut
    // the connections: the peers, who heard this process greet them,
    // would otherwise keep hearing from it and wait for ever.
    let failed = |e: std::io::Error, links: &Links| {
        let msg = format!("process {process}: {e}");
        fault.set(msg.clone());
        links.cut();
        links.join();
        fault.release();
        Error::Start(msg)
    };
    let mut linked = Vec::with_capacity(sockets.len());
    for (j, s) in sockets.into_iter().enumerate() {
        let Some(s) = s else {
            linked.push(None);
            continue;
        };
        let l = Link::new(s, j, workers.clone(), peer_timeout, wait, fault.clone())
            .map_err(|e| failed(named(e, &format!("the link to process {j}")), &links))?;
        match l.try_clone() {
            Ok(kept) => {
                links.0.push(kept);
                linked.push(Some(l));
            }
            Err(e) => {
                links.0.push(l);
                return Err(failed(e, &links));
            }
        }
    }
    // The run's threads before timely's: once timely has made the
    // allocators, every one of them must be built (see `threads.rs`).
    let reserved = Reserved::new(threads, process).map_err(|e| failed(e, &links))?;
    let hooks = Hooks::default();
    let local =
        ProcessBuilder::new_typed_vector(threads, hooks.refill.clone(), hooks.spill.clone());
    let (builders, guard) =
        initialize_networking_from_sockets(local, linked, process, threads, hooks)
            .map_err(|e| failed(named(e, "timely's network threads"), &links))?;
    Ok(Built {
        reserved,
        builders: builders.into_iter().map(AllocatorBuilder::Tcp).collect(),
        others: Box::new(guard),
        links,
    })
}

/// `e`, an error starting `what`, saying so.
fn named(e: std::io::Error, what: &str) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("cannot start {what}: {e}"))
}

/// One connection to every other process: process `me.process` connects
/// to the processes before it and accepts the ones after it; each side
/// first sends its [`Hello`] and reads the other's, and the two must
/// agree. Connecting and the greetings end by the deadline `wait` from
/// now.
fn connect(
    addresses: &[String],
    me: &Hello,
    wait: Duration,
) -> Result<Vec<Option<TcpStream>>, Error> {
    // A wait too long to add to the clock (Duration::MAX) has no deadline.
    let deadline = Instant::now().checked_add(wait);
    // The time left, `None` for no deadline; past it, `Some(ZERO)`.
    let left = || deadline.map(|d| d.saturating_duration_since(Instant::now()));
    let late = || left().is_some_and(|l| l.is_zero());
    let id = me.process as usize;
    let fail = |what: String| Error::Start(format!("process {id}: {what}"));
    let listener = TcpListener::bind(&addresses[id])
        .map_err(|e| fail(format!("cannot listen at {}: {e}", addresses[id])))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| fail(e.to_string()))?;
    let mut out: Vec<Option<TcpStream>> = (0..addresses.len()).map(|_| None).collect();
    for (j, addr) in addresses.iter().enumerate().take(id) {
        let mut stream = loop {
            match connect_within(addr, deadline) {
                Ok(s) => break s,
                Err(e) if late() => {
                    return Err(fail(format!(
                        "could not reach process {j} at {addr} within {} s: {e}",
                        wait.as_secs()
                    )))
                }
                Err(_) => std::thread::sleep(Duration::from_millis(100)),
            }
        };
        stream
            .set_nodelay(true)
            .and_then(|()| stream.write_all(&me.to_bytes()))
            .map_err(|e| fail(format!("connecting to process {j} at {addr}: {e}")))?;
        // Process j answers once it takes connections, after connecting
        // to the processes before it: up to the deadline.
        let theirs = read_hello(&mut stream, left()).map_err(|e| {
            fail(format!(
                "process {j} at {addr} did not greet this one within {} s ({e}): is it a \
                 process of this cluster?",
                wait.as_secs()
            ))
        })?;
        let theirs = theirs.ok_or_else(|| {
            fail(format!(
                "what answers at {addr} is not process {j} of a cluster solve"
            ))
        })?;
        if theirs.process != j as u64 {
            return Err(fail(format!(
                "what answers at {addr} says it is process {}, not process {j}",
                theirs.process
            )));
        }
        if let Some(m) = me.mismatch(&theirs) {
            return Err(fail(m));
        }
        out[j] = Some(stream);
    }
    // Connections not yet greeted, read as they send: a stranger (a
    // port scanner, a health check) that holds its connection or sends
    // something else is dropped and named only if the cluster does not
    // start, and never holds up the processes that do connect.
    let mut pending: Vec<Pending> = Vec::new();
    let mut strangers = Strangers::default();
    let mut missing = addresses.len() - id - 1;
    while missing > 0 {
        let mut busy = false;
        match listener.accept() {
            Ok((stream, from)) => {
                busy = true;
                stream
                    .set_nonblocking(true)
                    .map_err(|e| fail(e.to_string()))?;
                if pending.len() >= MAX_PENDING {
                    let old = pending.remove(0);
                    strangers.note(format!("{} held its connection", old.from));
                }
                pending.push(Pending {
                    stream,
                    from,
                    since: Instant::now(),
                    got: Vec::with_capacity(8 * Hello::WORDS),
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(fail(format!("accepting a connection: {e}"))),
        }
        let mut k = 0;
        while k < pending.len() {
            let p = &mut pending[k];
            let heard = match p.read_some() {
                Ok(n) => {
                    busy |= n > 0;
                    None
                }
                Err(e) => Some(Err(format!("{} {e}", p.from))),
            }
            .or_else(|| p.hello().map(|h| h.ok_or_else(|| p.stranger())))
            .or_else(|| {
                (p.since.elapsed() >= GREETING).then(|| {
                    Err(format!(
                        "{} sent no greeting within {} s",
                        p.from,
                        GREETING.as_secs()
                    ))
                })
            });
            let Some(heard) = heard else {
                k += 1;
                continue;
            };
            let p = pending.swap_remove(k);
            let theirs = match heard {
                Ok(h) => h,
                Err(m) => {
                    strangers.note(m);
                    continue;
                }
            };
            let (mut stream, from) = (p.stream, p.from);
            let j = usize::try_from(theirs.process).unwrap_or(usize::MAX);
            if j <= id || j >= addresses.len() || out[j].is_some() {
                return Err(fail(format!(
                    "{from} connected as process {j}, not expected"
                )));
            }
            stream
                .set_nonblocking(false)
                .map_err(|e| fail(e.to_string()))?;
            // Answer whatever the peer's settings: it reports the
            // mismatch as this process does.
            stream
                .write_all(&me.to_bytes())
                .map_err(|e| fail(format!("greeting process {j}: {e}")))?;
            if let Some(m) = me.mismatch(&theirs) {
                return Err(fail(m));
            }
            stream.set_nodelay(true).map_err(|e| fail(e.to_string()))?;
            out[j] = Some(stream);
            missing -= 1;
        }
        if missing > 0 && late() {
            let absent: Vec<String> = (id + 1..addresses.len())
                .filter(|&j| out[j].is_none())
                .map(|j| j.to_string())
                .collect();
            for p in &pending {
                strangers.note(format!("{} sent no greeting", p.from));
            }
            let others = strangers.said();
            return Err(fail(format!(
                "process(es) {} did not connect within {} s{others}",
                absent.join(", "),
                wait.as_secs()
            )));
        }
        if !busy {
            std::thread::sleep(Duration::from_millis(20));
        }
    }
    Ok(out)
}

/// How long a connection may take to greet this process before it is
/// dropped as a stranger (a process of the cluster greets at once).
const GREETING: Duration = Duration::from_secs(10);

/// The most connections waited on for their greeting at once: past them
/// the oldest is dropped (strangers connecting in a loop hold no more).
const MAX_PENDING: usize = 64;

/// The names of strangers kept for the error, at most.
const MAX_STRANGERS: usize = 8;

/// The connections dropped as strangers: the first few named, the rest
/// counted.
#[derive(Default)]
struct Strangers {
    named: Vec<String>,
    more: u64,
}

impl Strangers {
    /// Notes a stranger, by what it did.
    fn note(&mut self, what: String) {
        if self.named.len() < MAX_STRANGERS {
            self.named.push(what);
        } else {
            self.more += 1;
        }
    }

    /// What to add to the error when the cluster does not start.
    fn said(&self) -> String {
        if self.named.is_empty() {
            return String::new();
        }
        let more = if self.more > 0 {
            format!(" and {} more", self.more)
        } else {
            String::new()
        };
        format!(
            "; connections dropped, no process of this cluster: {}{more}",
            self.named.join("; ")
        )
    }
}

/// A connection accepted and not yet greeted: what it sent so far.
struct Pending {
    stream: TcpStream,
    from: std::net::SocketAddr,
    since: Instant,
    got: Vec<u8>,
}

impl Pending {
    /// Reads what has come of the greeting (never past it), without
    /// waiting: the bytes read. A connection closed before its greeting is
    /// an error.
    fn read_some(&mut self) -> std::io::Result<usize> {
        let mut buf = [0u8; 8 * Hello::WORDS];
        let want = buf.len() - self.got.len();
        if want == 0 {
            return Ok(0);
        }
        match self.stream.read(&mut buf[..want]) {
            Ok(0) => Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "closed its connection without a greeting",
            )),
            Ok(n) => {
                self.got.extend_from_slice(&buf[..n]);
                Ok(n)
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => Ok(0),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Ok(0),
            Err(e) => Err(e),
        }
    }

    /// The greeting once whole (`Some(None)`: it is not one); as soon as
    /// its first word is not [`MAGIC`], `Some(None)`.
    fn hello(&self) -> Option<Option<Hello>> {
        let magic = MAGIC.to_le_bytes();
        let n = self.got.len().min(magic.len());
        if self.got[..n] != magic[..n] {
            return Some(None);
        }
        let bytes: &[u8; 8 * Hello::WORDS] = self.got.as_slice().try_into().ok()?;
        Some(Hello::from_bytes(bytes))
    }

    /// What to say of this connection once it proved to be no process.
    fn stranger(&self) -> String {
        format!("{} is not a process of a cluster solve", self.from)
    }
}

/// A connection to `addr` (any of the addresses it names) by `deadline`
/// (`None`: within the system's own time limit). A host that drops
/// connection requests would otherwise hold each attempt for minutes,
/// whatever the deadline.
fn connect_within(addr: &str, deadline: Option<Instant>) -> std::io::Result<TcpStream> {
    let Some(deadline) = deadline else {
        return TcpStream::connect(addr);
    };
    let mut last = None;
    for a in addr.to_socket_addrs()? {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        match TcpStream::connect_timeout(&a, left) {
            Ok(s) => return Ok(s),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::TimedOut,
            "no address of it answered in time",
        )
    }))
}

/// Reads a [`Hello`] from `stream` within `left` (`None`: no limit), and
/// leaves the stream without a time limit for timely. `Ok(None)`: what
/// came is not a hello.
fn read_hello(stream: &mut TcpStream, left: Option<Duration>) -> std::io::Result<Option<Hello>> {
    // A zero timeout is refused: a deadline already past waits a moment.
    let limit = left.map(|l| l.max(Duration::from_millis(1)));
    stream.set_read_timeout(limit)?;
    let mut bytes = [0u8; 8 * Hello::WORDS];
    stream.read_exact(&mut bytes)?;
    stream.set_read_timeout(None)?;
    Ok(Hello::from_bytes(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Process `process` of `processes` of one worker each, all solving
    /// the same.
    fn hello(process: u64, processes: u64) -> Hello {
        Hello {
            process,
            processes,
            threads: 1,
            solve: 7,
        }
    }

    /// `n` loopback addresses whose ports were free a moment ago.
    fn free_addresses(n: usize) -> Vec<String> {
        (0..n)
            .map(|_| {
                let free = TcpListener::bind("127.0.0.1:0").unwrap();
                free.local_addr().unwrap().to_string()
            })
            .collect()
    }

    /// A wait too long for the clock (`Duration::MAX`) panicked adding it
    /// to the start time; it now means no deadline. Two processes on
    /// loopback, as threads, connect with it.
    #[test]
    fn a_wait_past_the_clock_has_no_deadline() {
        let addresses = free_addresses(2);
        let theirs = addresses.clone();
        let one = std::thread::spawn(move || {
            connect(&theirs, &hello(1, 2), Duration::MAX).map(|s| s.len())
        });
        let zero = connect(&addresses, &hello(0, 2), Duration::MAX).map(|s| s.len());
        assert_eq!(zero.unwrap(), 2);
        assert_eq!(one.join().unwrap().unwrap(), 2);
    }

    /// Strangers at process 0's port — one that connects and says
    /// nothing, one that sends something else — before process 1
    /// connects. Before, process 0 read the silent one's greeting for 10 s
    /// (no other connection accepted meanwhile) and then refused to start,
    /// as it did at once for the other: now both are dropped and the two
    /// processes connect as if they had not come.
    #[test]
    fn strangers_do_not_stop_the_start() {
        let addresses = free_addresses(2);
        let theirs = addresses.clone();
        let started = Instant::now();
        let zero = std::thread::spawn(move || {
            connect(&theirs, &hello(0, 2), Duration::from_secs(30)).map(|s| s.len())
        });
        let stranger = || loop {
            match TcpStream::connect(&addresses[0]) {
                Ok(s) => break s,
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        };
        let silent = stranger();
        let mut talker = stranger();
        talker.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
        // Both strangers are queued at process 0 before process 1 comes.
        std::thread::sleep(Duration::from_millis(200));
        let one = connect(&addresses, &hello(1, 2), Duration::from_secs(30)).map(|s| s.len());
        assert_eq!(one.unwrap(), 2);
        assert_eq!(zero.join().unwrap().unwrap(), 2);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{:?}",
            started.elapsed()
        );
        drop((silent, talker));
    }

    /// A process waiting for others that never come names the strangers
    /// it dropped meanwhile.
    #[test]
    fn strangers_are_named_when_the_start_fails() {
        let free = TcpListener::bind("127.0.0.1:0").unwrap();
        let addresses = vec![free.local_addr().unwrap().to_string(), "127.0.0.1:1".into()];
        drop(free);
        let theirs = addresses.clone();
        let zero = std::thread::spawn(move || {
            connect(&theirs, &hello(0, 2), Duration::from_millis(1500)).map(|s| s.len())
        });
        let mut talker = loop {
            match TcpStream::connect(&addresses[0]) {
                Ok(s) => break s,
                Err(_) => std::thread::sleep(Duration::from_millis(10)),
            }
        };
        talker.write_all(b"SSH-2.0-OpenSSH_9.6\r\n").unwrap();
        match zero.join().unwrap() {
            Err(Error::Start(m)) => {
                assert!(m.contains("process(es) 1 did not connect"), "{m}");
                assert!(m.contains("is not a process of a cluster solve"), "{m}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// A host that drops connection requests (here a listener whose
    /// queue is full, which drops them as a firewall would) held each
    /// attempt to connect for the system's two minutes of retries,
    /// whatever the deadline: now the deadline ends it.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_host_that_drops_connections_fails_by_the_deadline() {
        let full = TcpListener::bind("127.0.0.1:0").unwrap();
        let at = full.local_addr().unwrap();
        // Fill its queue: the first connection that does not come at once.
        let mut held = Vec::new();
        let filled = (0..20_000).any(|_| {
            match TcpStream::connect_timeout(&at, Duration::from_millis(200)) {
                Ok(s) => {
                    held.push(s);
                    false
                }
                Err(_) => true,
            }
        });
        if !filled {
            eprintln!("the queue never filled: nothing to test here");
            return;
        }
        let free = TcpListener::bind("127.0.0.1:0").unwrap();
        let addresses = vec![at.to_string(), free.local_addr().unwrap().to_string()];
        drop(free);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(connect(&addresses, &hello(1, 2), Duration::from_secs(2)).map(|_| ()));
        });
        match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(Err(Error::Start(m))) => assert!(m.contains("could not reach process 0"), "{m}"),
            Ok(other) => panic!("{other:?}"),
            Err(_) => panic!("a deadline of 2 s, and no answer in 60"),
        }
        drop(held);
    }
}
