//! Connecting the processes: timely's own setup, less its prints to
//! standard output (which would mix with process 0's report) and with a
//! time limit instead of retrying for ever, and a greeting by which the
//! processes check that they run the same solve before timely starts.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::Hooks;
use timely::CommunicationConfig;

use crate::Error;

/// The allocators of this process's workers, the guard of its network
/// threads, and its connections to the other processes.
pub(crate) type Built = (Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>, Links);

/// This process's connections to the other processes (handles of the
/// sockets timely's threads use), to cut when the run fails.
#[derive(Default)]
pub(crate) struct Links(Vec<TcpStream>);

impl Links {
    /// Shuts every connection down, both ways, without timely's clean
    /// end of stream: every peer's network thread sees the connection
    /// closed and fails its run, whether or not this process exits (a
    /// caller may go on after a failed solve, and the failed worker's
    /// thread stays parked).
    pub(crate) fn cut(&self) {
        for s in &self.0 {
            let _ = s.shutdown(std::net::Shutdown::Both);
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
pub(crate) fn build(
    config: CommunicationConfig,
    wait: Duration,
    solve: u64,
) -> Result<Built, Error> {
    let CommunicationConfig::Cluster {
        threads,
        process,
        addresses,
        ..
    } = config
    else {
        return config
            .try_build()
            .map(|(b, g)| (b, g, Links::default()))
            .map_err(Error::Start);
    };
    let hello = Hello {
        process: process as u64,
        processes: addresses.len() as u64,
        threads: threads as u64,
        solve,
    };
    let sockets = connect(&addresses, &hello, wait)?;
    let links = sockets
        .iter()
        .flatten()
        .map(TcpStream::try_clone)
        .collect::<std::io::Result<Vec<_>>>()
        .map(Links)
        .map_err(|e| Error::Start(format!("process {process}: {e}")))?;
    let hooks = Hooks::default();
    let local =
        ProcessBuilder::new_typed_vector(threads, hooks.refill.clone(), hooks.spill.clone());
    let (builders, guard) =
        initialize_networking_from_sockets(local, sockets, process, threads, hooks)
            .map_err(|e| Error::Start(format!("process {process}: {e}")))?;
    Ok((
        builders.into_iter().map(AllocatorBuilder::Tcp).collect(),
        Box::new(guard),
        links,
    ))
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
    let mut missing = addresses.len() - id - 1;
    while missing > 0 {
        match listener.accept() {
            Ok((mut stream, from)) => {
                stream
                    .set_nonblocking(false)
                    .map_err(|e| fail(e.to_string()))?;
                let theirs = read_hello(&mut stream, Some(Duration::from_secs(10)))
                    .map_err(|e| fail(format!("{from} connected but sent no greeting: {e}")))?
                    .ok_or_else(|| {
                        fail(format!(
                            "{from} connected and is not a process of a cluster solve"
                        ))
                    })?;
                let j = usize::try_from(theirs.process).unwrap_or(usize::MAX);
                if j <= id || j >= addresses.len() || out[j].is_some() {
                    return Err(fail(format!(
                        "{from} connected as process {j}, not expected"
                    )));
                }
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
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if late() {
                    let absent: Vec<String> = (id + 1..addresses.len())
                        .filter(|&j| out[j].is_none())
                        .map(|j| j.to_string())
                        .collect();
                    return Err(fail(format!(
                        "process(es) {} did not connect within {} s",
                        absent.join(", "),
                        wait.as_secs()
                    )));
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(e) => return Err(fail(format!("accepting a connection: {e}"))),
        }
    }
    Ok(out)
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

    /// A wait too long for the clock (`Duration::MAX`) panicked adding it
    /// to the start time; it now means no deadline. Two processes on
    /// loopback, as threads, connect with it.
    #[test]
    fn a_wait_past_the_clock_has_no_deadline() {
        let addresses: Vec<String> = (0..2)
            .map(|_| {
                let free = TcpListener::bind("127.0.0.1:0").unwrap();
                free.local_addr().unwrap().to_string()
            })
            .collect();
        let theirs = addresses.clone();
        let one = std::thread::spawn(move || {
            connect(&theirs, &hello(1, 2), Duration::MAX).map(|s| s.len())
        });
        let zero = connect(&addresses, &hello(0, 2), Duration::MAX).map(|s| s.len());
        assert_eq!(zero.unwrap(), 2);
        assert_eq!(one.join().unwrap().unwrap(), 2);
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
