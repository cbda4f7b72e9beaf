//! The connection to one peer process as timely's network threads use it:
//! a TCP stream that never makes them panic, and a heartbeat.
//!
//! timely's send and receive threads panic when their stream fails or
//! ends without its clean end ("timely communication error"); a panic
//! hook would have to stop them there, before they unwind (their unwinding
//! poisons the process's channels, and the workers' own unwinding then
//! panics again, which aborts the process), and a hook that never returns
//! keeps the standard library's hook lock for good: no later
//! `std::panic::set_hook` or `take_hook` in the process ever returns, nor,
//! once one waits, any later panic. So a [`Link`] never reports a failure
//! to timely: it records it as the run's failure ([`Fault`]), and from
//! then on, as once the run failed for any other reason,
//! * the sending side takes whatever timely writes and sends none of it:
//!   no peer ever sees a clean end of stream from a failed run, only its
//!   connections cut (`net::Links::cut`), and timely's send thread ends
//!   once the workers are gone, as after a clean run;
//! * the receiving side reads nothing more from the peer and, once every
//!   worker of the run has stopped stepping ([`Fault::release`]), hands
//!   timely the rest of the message under way (zeros: nothing reads it)
//!   and a clean end of stream, so timely's receive thread ends too.
//!
//! A failed run so ends every thread of its connections, and closes
//! their sockets, instead of leaving them parked for the life of the
//! process.
//!
//! It also follows timely's framing (a 48-byte header of six big-endian
//! words — channel, source, first and end target worker, payload length,
//! sequence number — then the payload; a header of length 0 ends the
//! stream). That lets it
//! * check every header a peer sends before timely reads it: targets
//!   among this process's workers, a payload length that cannot overflow;
//! * send a heartbeat, a header timely never sees (channel `u64::MAX`,
//!   length 0), between messages whenever the connection has been idle
//!   for [`MAX_BEAT`] or a quarter of the peer timeout
//!   ([`crate::ClusterConfig::peer_timeout`]), whichever is less, and drop
//!   the heartbeats it receives;
//! * fail the run when a peer sends nothing at all for the peer timeout
//!   (a process stopped, a host gone without closing its connections), or
//!   takes none of what is sent to it for as long. The silence is counted
//!   from the last time the peer was heard from; before it is first heard
//!   from (it may still be connecting to a third process, and sends
//!   nothing until its own links are up) it is given the start's wait
//!   instead ([`crate::ClusterConfig::connect_timeout`]), counted from
//!   this link's creation.

use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use timely::communication::allocator::zero_copy::stream::Stream;

use crate::fault::Fault;

/// Bytes of a header.
const HEADER: usize = 48;
/// The channel of a heartbeat.
const HEART: u64 = u64::MAX;
/// The longest payload a header may announce (no message of a solve
/// comes near it; past it the sum with the header could overflow).
const MAX_PAYLOAD: u64 = 1 << 48;
/// The longest a link is idle before it sends a heartbeat: short enough
/// for a peer given a shorter timeout than this process (down to a few
/// seconds), and 48 bytes a second cost nothing.
const MAX_BEAT: Duration = Duration::from_secs(1);
/// Bytes read from the socket at once into a link's own buffer.
const READ: usize = 1 << 16;

/// A header's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Header {
    channel: u64,
    target_lower: u64,
    target_upper: u64,
    length: u64,
}

impl Header {
    fn parse(b: &[u8; HEADER]) -> Header {
        let word = |k: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[8 * k..8 * k + 8]);
            u64::from_be_bytes(w)
        };
        Header {
            channel: word(0),
            target_lower: word(2),
            target_upper: word(3),
            length: word(4),
        }
    }

    /// The heartbeat on the wire.
    fn heartbeat() -> [u8; HEADER] {
        let mut b = [0u8; HEADER];
        b[..8].copy_from_slice(&HEART.to_be_bytes());
        b
    }
}

/// Where a stream of messages is: in a header (bytes of it so far) or in
/// a payload (bytes of it left).
#[derive(Debug)]
struct Framing {
    header: [u8; HEADER],
    have: usize,
    rest: u64,
}

impl Default for Framing {
    fn default() -> Self {
        Framing {
            header: [0; HEADER],
            have: 0,
            rest: 0,
        }
    }
}

impl Framing {
    /// Between two messages?
    fn at_boundary(&self) -> bool {
        self.have == 0 && self.rest == 0
    }

    /// Follows `bytes` written: `true` once they hold the end of stream.
    fn wrote(&mut self, mut bytes: &[u8]) -> bool {
        let mut ended = false;
        while !bytes.is_empty() {
            if self.rest > 0 {
                let n = usize::try_from(self.rest)
                    .unwrap_or(usize::MAX)
                    .min(bytes.len());
                self.rest -= n as u64;
                bytes = &bytes[n..];
                continue;
            }
            let n = (HEADER - self.have).min(bytes.len());
            self.header[self.have..self.have + n].copy_from_slice(&bytes[..n]);
            self.have += n;
            bytes = &bytes[n..];
            if self.have == HEADER {
                self.have = 0;
                let h = Header::parse(&self.header);
                ended |= h.length == 0 && h.channel != HEART;
                self.rest = h.length;
            }
        }
        ended
    }
}

/// What the receiving side keeps.
struct Reading {
    /// Bytes read from the socket and not yet handed on: `buf[at..end]`.
    buf: Vec<u8>,
    at: usize,
    end: usize,
    framing: Framing,
    /// A whole header to hand on, from `emit`.
    emit: Option<usize>,
    /// The end of stream was received.
    ended: bool,
    /// When the link was made.
    made: Instant,
    /// When the peer last sent anything (`None`: not yet).
    heard: Option<Instant>,
    /// The link or its run failed: nothing more is read from the peer.
    closing: bool,
    /// Bytes of the end of stream handed to timely once closing.
    closed: usize,
}

/// What the sending side keeps (shared with the heartbeat).
struct Writing {
    framing: Framing,
    /// The end of stream was sent: no heartbeat may follow.
    ended: bool,
    /// When anything was last sent.
    sent: Instant,
}

/// What the handles of one link share.
struct Shared {
    /// The peer's process id.
    peer: usize,
    /// The targets a peer's message may name: this process's workers.
    workers: std::ops::Range<u64>,
    /// How long the peer may send nothing (or take nothing).
    timeout: Duration,
    /// How long the peer may take to be heard from at all.
    start: Duration,
    fault: Fault,
    reading: Mutex<Reading>,
    writing: Mutex<Writing>,
    /// Wakes the heartbeat when the end of stream is sent or the run
    /// fails.
    ended: std::sync::Condvar,
    /// The heartbeat's thread, until joined.
    heart: Mutex<Option<std::thread::JoinHandle<()>>>,
}

/// A connection to one peer process, for timely's network threads (see
/// the module docs).
pub(crate) struct Link {
    stream: TcpStream,
    shared: Arc<Shared>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Link {
    /// The link to process `peer` over `stream`, for a process whose
    /// workers are `workers`, failing `fault`'s run when the peer is
    /// silent for `timeout` (or, before it is first heard from, for
    /// `start` or `timeout`, whichever is longer); starts its heartbeat.
    pub(crate) fn new(
        stream: TcpStream,
        peer: usize,
        workers: std::ops::Range<u64>,
        timeout: Duration,
        start: Duration,
        fault: Fault,
    ) -> io::Result<Link> {
        let timeout = timeout.max(Duration::from_millis(40));
        let beat = (timeout / 4).min(MAX_BEAT);
        stream.set_read_timeout(Some(beat))?;
        stream.set_write_timeout(Some(timeout))?;
        let now = Instant::now();
        let shared = Arc::new(Shared {
            peer,
            workers,
            timeout,
            start: start.max(timeout),
            fault,
            reading: Mutex::new(Reading {
                buf: vec![0; READ],
                at: 0,
                end: 0,
                framing: Framing::default(),
                emit: None,
                ended: false,
                made: now,
                heard: None,
                closing: false,
                closed: 0,
            }),
            writing: Mutex::new(Writing {
                framing: Framing::default(),
                ended: false,
                sent: now,
            }),
            ended: std::sync::Condvar::new(),
            heart: Mutex::new(None),
        });
        let link = Link { stream, shared };
        let heart = link.try_clone()?;
        let handle = std::thread::Builder::new()
            .name(format!("solver-cluster:heartbeat-{peer}"))
            .spawn(move || heart.beat(beat))?;
        *lock(&link.shared.heart) = Some(handle);
        Ok(link)
    }

    /// Records `what` as the run's failure (and stops the heartbeat).
    fn record(&self, what: &str) {
        self.shared.fault.set(format!(
            "the connection to peer process {} failed ({what}): it died, was killed, stalled or \
             the network broke",
            self.shared.peer
        ));
        self.wake_heart();
    }

    /// Wakes the heartbeat to see that the stream ended or the run failed.
    fn wake_heart(&self) {
        // Under the lock: the heartbeat checks, then waits, holding it.
        let _w = lock(&self.shared.writing);
        self.shared.ended.notify_all();
    }

    /// Cuts the connection, both ways, without the clean end of stream:
    /// the peer sees it close, and this process's network threads reading
    /// or writing it are woken (their run has failed).
    pub(crate) fn cut(&self) {
        let _ = self.stream.shutdown(Shutdown::Both);
        self.wake_heart();
    }

    /// Waits for the heartbeat's thread to end: once the end of stream is
    /// sent or the run failed.
    pub(crate) fn join_heart(&self) {
        let handle = lock(&self.shared.heart).take();
        if let Some(h) = handle {
            let _ = h.join();
        }
    }

    /// Sends a heartbeat whenever nothing was sent for `beat`, until the
    /// end of stream is sent or the run fails.
    fn beat(mut self, beat: Duration) {
        let shared = Arc::clone(&self.shared);
        let mut w = lock(&shared.writing);
        loop {
            if w.ended || shared.fault.failed() {
                return;
            }
            // Until a beat after the last send (a fixed period would let
            // up to two beats pass without one); woken early by the end of
            // stream or the run's failure: the thread ends with it, not a
            // beat later.
            let wait = beat.saturating_sub(w.sent.elapsed()).max(beat / 8);
            w = shared
                .ended
                .wait_timeout(w, wait)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
            if w.ended || shared.fault.failed() {
                return;
            }
            if w.framing.at_boundary() && w.sent.elapsed() >= beat {
                if let Err(e) = self.stream.write_all(&Header::heartbeat()) {
                    drop(w);
                    self.record(&format!("sending a heartbeat: {e}"));
                    return;
                }
                w.sent = Instant::now();
            }
        }
    }

    /// Reads from the socket into `buf`, waiting as long as the peer is
    /// heard from within the timeout (or, before it is first heard from,
    /// the start's wait): 0 only at its end of stream; `Err` names a
    /// failure.
    fn recv(&mut self, r: &mut Reading, buf: &mut [u8]) -> Result<usize, String> {
        loop {
            match self.stream.read(buf) {
                Ok(n) => {
                    r.heard = Some(Instant::now());
                    return Ok(n);
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    match r.heard {
                        Some(t) if t.elapsed() >= self.shared.timeout => {
                            return Err(format!(
                                "it sent nothing, not even a heartbeat, for {:?}",
                                self.shared.timeout
                            ))
                        }
                        None if r.made.elapsed() >= self.shared.start => {
                            return Err(format!(
                                "it sent nothing, not even a heartbeat, in the {:?} since it \
                                 connected",
                                self.shared.start
                            ))
                        }
                        _ => {}
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(format!("reading: {e}")),
            }
        }
    }

    /// Fills the link's own buffer (it is empty): the peer closing its
    /// connection here is a failure.
    fn fill(&mut self, r: &mut Reading) -> Result<(), String> {
        let mut buf = std::mem::take(&mut r.buf);
        let n = self.recv(r, &mut buf);
        r.buf = buf;
        let n = n?;
        if n == 0 {
            return Err("it closed the connection before the end of the run".into());
        }
        (r.at, r.end) = (0, n);
        Ok(())
    }

    /// Checks a header the peer sent: `Some(error)` if timely cannot take
    /// it.
    fn check(&self, h: &Header) -> Option<String> {
        let w = &self.shared.workers;
        if h.length > MAX_PAYLOAD {
            return Some(format!(
                "it sent a message of {} bytes, more than {MAX_PAYLOAD}",
                h.length
            ));
        }
        if h.length > 0
            && (h.target_lower > h.target_upper
                || h.target_lower < w.start
                || h.target_upper > w.end)
        {
            return Some(format!(
                "it sent a message for workers {}..{}, not this process's {}..{}",
                h.target_lower, h.target_upper, w.start, w.end
            ));
        }
        None
    }
}

impl Read for Link {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if out.is_empty() {
            return Ok(0);
        }
        let shared = Arc::clone(&self.shared);
        let mut guard = lock(&shared.reading);
        let r = &mut *guard;
        if !r.closing {
            match self.serve(r, out) {
                Ok(n) => return Ok(n),
                Err(what) => {
                    self.record(&what);
                    r.closing = true;
                }
            }
        }
        // Nothing reads what is handed on once every worker has stopped.
        shared.fault.wait_released();
        Ok(close(r, out))
    }
}

impl Link {
    /// What [`Read::read`] hands timely while the link works: whole
    /// headers it checked, payloads, heartbeats dropped; `Err` names the
    /// link's failure.
    fn serve(&mut self, r: &mut Reading, out: &mut [u8]) -> Result<usize, String> {
        loop {
            if let Some(from) = r.emit {
                let n = (HEADER - from).min(out.len());
                out[..n].copy_from_slice(&r.framing.header[from..from + n]);
                r.emit = (from + n < HEADER).then_some(from + n);
                return Ok(n);
            }
            let buffered = r.end - r.at;
            if r.framing.rest > 0 {
                let rest = usize::try_from(r.framing.rest).unwrap_or(usize::MAX);
                if buffered > 0 {
                    let n = rest.min(buffered).min(out.len());
                    out[..n].copy_from_slice(&r.buf[r.at..r.at + n]);
                    r.at += n;
                    r.framing.rest -= n as u64;
                    return Ok(n);
                }
                if out.len() >= READ {
                    // A long payload goes straight to timely's buffer.
                    let n = rest.min(out.len());
                    let got = self.recv(r, &mut out[..n])?;
                    if got == 0 {
                        return Err("it closed the connection in the middle of a message".into());
                    }
                    r.framing.rest -= got as u64;
                    return Ok(got);
                }
                self.fill(r)?;
                continue;
            }
            if r.ended {
                // Nothing may follow the end of stream.
                if buffered == 0 && self.recv(r, out)? == 0 {
                    return Ok(0);
                }
                return Err("it sent data after its end of stream".into());
            }
            if buffered == 0 {
                self.fill(r)?;
                continue;
            }
            let f = &mut r.framing;
            let n = (HEADER - f.have).min(buffered);
            f.header[f.have..f.have + n].copy_from_slice(&r.buf[r.at..r.at + n]);
            f.have += n;
            r.at += n;
            if f.have < HEADER {
                continue;
            }
            f.have = 0;
            let h = Header::parse(&f.header);
            if h.channel == HEART && h.length == 0 {
                continue;
            }
            if let Some(m) = self.check(&h) {
                return Err(m);
            }
            r.ended = h.length == 0;
            r.framing.rest = h.length;
            r.emit = Some(0);
        }
    }
}

/// What a closing link hands timely into `out`: the rest of the message
/// under way (its header, then zeros for what the peer did not send), a
/// clean end of stream, then nothing (0). A header not yet whole was never
/// handed on, and is dropped.
fn close(r: &mut Reading, out: &mut [u8]) -> usize {
    if let Some(from) = r.emit {
        let n = (HEADER - from).min(out.len());
        out[..n].copy_from_slice(&r.framing.header[from..from + n]);
        r.emit = (from + n < HEADER).then_some(from + n);
        return n;
    }
    if r.framing.rest > 0 {
        let n = usize::try_from(r.framing.rest)
            .unwrap_or(usize::MAX)
            .min(out.len());
        out[..n].fill(0);
        r.framing.rest -= n as u64;
        return n;
    }
    if r.ended || r.closed == HEADER {
        return 0;
    }
    // A header of length 0 on channel 0: timely's own end of stream.
    let n = (HEADER - r.closed).min(out.len());
    out[..n].fill(0);
    r.closed += n;
    n
}

impl Write for Link {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let shared = Arc::clone(&self.shared);
        let mut w = lock(&shared.writing);
        if shared.fault.failed() {
            // The run failed: the peer is to see the connection cut, never
            // a clean end of stream.
            return Ok(buf.len());
        }
        let failed = loop {
            match self.stream.write(buf) {
                Ok(n) => {
                    w.sent = Instant::now();
                    if w.framing.wrote(&buf[..n]) {
                        w.ended = true;
                        shared.ended.notify_all();
                    }
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    break format!("it took nothing sent to it for {:?}", shared.timeout);
                }
                Err(e) => break format!("writing: {e}"),
            }
        };
        // The heartbeat must not wait on this lock for ever.
        drop(w);
        self.record(&failed);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Stream for Link {
    fn try_clone(&self) -> io::Result<Self> {
        Ok(Link {
            stream: self.stream.try_clone()?,
            shared: Arc::clone(&self.shared),
        })
    }

    fn set_nonblocking(&self, nonblocking: bool) -> io::Result<()> {
        self.stream.set_nonblocking(nonblocking)
    }

    fn shutdown(&self, how: Shutdown) -> io::Result<()> {
        if how != Shutdown::Read {
            lock(&self.shared.writing).ended = true;
            self.shared.ended.notify_all();
        }
        // timely panics at an error here: recorded instead (a peer that
        // reset the connection once it was sent everything fails anyway).
        if let Err(e) = self.stream.shutdown(how) {
            if !self.shared.fault.failed() {
                self.record(&format!("shutting the connection down: {e}"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    /// A header of the given words (source and sequence number 0).
    fn header(channel: u64, lower: u64, upper: u64, length: u64) -> Vec<u8> {
        [channel, 0, lower, upper, length, 0]
            .iter()
            .flat_map(|w| w.to_be_bytes())
            .collect()
    }

    /// A link (for the workers `workers` of this process) and the peer's
    /// end of its connection.
    fn pair(workers: std::ops::Range<u64>, timeout: Duration) -> (Link, TcpStream, Fault) {
        pair_started(workers, timeout, timeout)
    }

    /// [`pair`], the peer given `start` to be first heard from.
    fn pair_started(
        workers: std::ops::Range<u64>,
        timeout: Duration,
        start: Duration,
    ) -> (Link, TcpStream, Fault) {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let peer = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (mine, _) = l.accept().unwrap();
        let fault = Fault::new();
        let link = Link::new(mine, 1, workers, timeout, start, fault.clone()).unwrap();
        (link, peer, fault)
    }

    /// Reads `link` to its end in a thread: what it read, when it has
    /// (once the link failed, not before the run is released).
    fn read_all(mut link: Link) -> std::sync::mpsc::Receiver<Vec<u8>> {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut out = Vec::new();
            let mut buf = [0u8; 7];
            loop {
                match link.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => out.extend_from_slice(&buf[..n]),
                    Err(e) => panic!("a link returned an error: {e}"),
                }
            }
            let _ = tx.send(out);
        });
        rx
    }

    /// The waits of a test's failures: the run's failure, once recorded.
    fn failure(fault: &Fault) -> String {
        let t = Instant::now();
        while t.elapsed() < Duration::from_secs(5) {
            if let Some(m) = fault.get() {
                return m;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("no failure recorded");
    }

    /// Two processes given other peer timeouts (60 s and 2 s), idle for
    /// longer than the shorter: neither fails. Before, the heartbeat came
    /// every quarter of the sender's own timeout (15 s), and the peer with
    /// 2 s took the idle connection for a dead one.
    #[test]
    fn heartbeats_serve_a_peer_with_a_shorter_timeout() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let a = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (b, _) = l.accept().unwrap();
        let fault = Fault::new();
        let long = Link::new(
            a,
            1,
            0..1,
            Duration::from_secs(60),
            Duration::ZERO,
            fault.clone(),
        )
        .unwrap();
        let short = Link::new(
            b,
            0,
            0..1,
            Duration::from_secs(2),
            Duration::ZERO,
            fault.clone(),
        )
        .unwrap();
        let (_long, _short) = (read_all(long), read_all(short));
        std::thread::sleep(Duration::from_secs(3));
        assert_eq!(fault.get(), None);
    }

    /// The heartbeat ends with the end of stream. Before, it slept out its
    /// beat first (15 s at the default peer timeout), holding the socket
    /// and a thread after every run.
    #[test]
    fn the_heartbeat_ends_with_the_stream() {
        let (mut link, _peer, fault) = pair(0..1, Duration::from_secs(60));
        assert!(Arc::strong_count(&link.shared) > 1, "a heartbeat runs");
        link.write_all(&header(0, 0, 0, 0)).unwrap();
        let t = Instant::now();
        while Arc::strong_count(&link.shared) > 1 {
            assert!(
                t.elapsed() < Duration::from_secs(2),
                "the heartbeat still runs"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_eq!(fault.get(), None);
    }

    /// A link that sent a message just after its heartbeat woke sends the
    /// next heartbeat a beat (1 s here) after that message. Before, the
    /// heartbeat woke every beat and skipped a wake that came less than a
    /// beat after the message: 1.9 s of silence, close to a peer's 2 s.
    #[test]
    fn a_heartbeat_follows_the_last_message_by_a_beat() {
        let (mut link, mut peer, fault) = pair(0..1, Duration::from_secs(60));
        std::thread::sleep(Duration::from_millis(100));
        let mut message = header(3, 0, 1, 1);
        message.push(7);
        link.write_all(&message).unwrap();
        let sent = Instant::now();
        let mut got = vec![0u8; message.len() + HEADER];
        peer.read_exact(&mut got).unwrap();
        let gap = sent.elapsed();
        assert_eq!(got[..message.len()], message[..]);
        assert_eq!(got[message.len()..], Header::heartbeat()[..]);
        assert!(gap < Duration::from_millis(1500), "{gap:?}");
        assert_eq!(fault.get(), None);
    }

    #[test]
    fn heartbeats_are_dropped_and_messages_pass_whole() {
        let (link, mut peer, fault) = pair(0..2, Duration::from_secs(10));
        let beat = Header::heartbeat().to_vec();
        let mut want = header(3, 0, 2, 5);
        want.extend_from_slice(b"hello");
        want.extend(header(0, 0, 0, 0));
        let mut sent = beat.clone();
        sent.extend_from_slice(&want[..20]);
        sent.extend_from_slice(&want[20..53]);
        sent.extend_from_slice(&beat);
        sent.extend_from_slice(&want[53..]);
        for piece in sent.chunks(11) {
            peer.write_all(piece).unwrap();
            peer.flush().unwrap();
        }
        peer.shutdown(Shutdown::Write).unwrap();
        let got = read_all(link).recv_timeout(Duration::from_secs(5));
        assert_eq!(got.expect("read to the end"), want);
        assert_eq!(fault.get(), None);
    }

    /// A peer's message for workers of another process used to make
    /// timely's receiving thread index past its targets (a panic); now
    /// the run fails naming it, and timely never reads it.
    #[test]
    fn a_message_for_other_workers_fails_the_run() {
        let (link, mut peer, fault) = pair(2..4, Duration::from_secs(10));
        let mut sent = header(3, 2, 4, 1);
        sent.push(7);
        sent.extend(header(3, 5, 6, 1));
        sent.push(7);
        peer.write_all(&sent).unwrap();
        let read = read_all(link);
        let m = failure(&fault);
        assert!(read.try_recv().is_err(), "the reader went on");
        assert!(
            m.contains("peer process 1") && m.contains("for workers 5..6, not this process's 2..4"),
            "{m}"
        );
    }

    #[test]
    fn a_peer_closing_before_its_end_fails_the_run() {
        let (link, mut peer, fault) = pair(0..1, Duration::from_secs(10));
        let mut sent = header(3, 0, 1, 4);
        sent.extend_from_slice(b"ab");
        peer.write_all(&sent).unwrap();
        drop(peer);
        let read = read_all(link);
        assert!(failure(&fault).contains("closed the connection"));
        assert!(read.try_recv().is_err(), "the reader went on");
    }

    /// A link whose peer fails: from the failure on, what timely writes is
    /// dropped (never an error, which would make timely panic; never a
    /// clean end of stream the peer could take for a finished run), the
    /// heartbeat ends, and once the run is released the reader is handed
    /// the rest of the message under way (zeros; a header not yet whole is
    /// dropped) and a clean end of stream, so timely's threads end.
    /// Before, the reader and writer were parked for the life of the
    /// process, holding the socket.
    #[test]
    fn a_failed_link_ends_its_stream_once_released() {
        let mut whole = header(3, 0, 1, 2);
        whole.extend_from_slice(b"ab");
        let mut in_payload = whole.clone();
        in_payload.extend(header(3, 0, 1, 4));
        in_payload.extend_from_slice(b"cd");
        let mut in_header = whole.clone();
        in_header.extend_from_slice(&header(3, 0, 1, 4)[..20]);
        let mut cut_short = in_payload.clone();
        cut_short.extend_from_slice(b"\0\0");
        for (sent, handed) in [(in_payload, cut_short), (in_header, whole)] {
            let (link, mut peer, fault) = pair(0..1, Duration::from_secs(10));
            let mut writer = link.try_clone().unwrap();
            peer.write_all(&sent).unwrap();
            peer.shutdown(Shutdown::Write).unwrap();
            let read = read_all(link.try_clone().unwrap());
            assert!(failure(&fault).contains("closed the connection"));
            let (joined, join) = std::sync::mpsc::channel();
            let heart = link.try_clone().unwrap();
            std::thread::spawn(move || {
                heart.join_heart();
                let _ = joined.send(());
            });
            assert!(
                join.recv_timeout(Duration::from_secs(5)).is_ok(),
                "the heartbeat still runs"
            );
            let mut message = header(5, 0, 1, 3);
            message.extend_from_slice(b"xyz");
            writer.write_all(&message).unwrap();
            writer.write_all(&header(0, 0, 0, 0)).unwrap();
            writer.shutdown(Shutdown::Write).unwrap();
            // The peer gets at most heartbeats sent before the failure,
            // then the connection closed.
            let mut got = Vec::new();
            peer.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            peer.read_to_end(&mut got).unwrap();
            assert!(
                got.chunks(HEADER).all(|h| h == Header::heartbeat()),
                "{got:?}"
            );
            assert!(read.try_recv().is_err(), "the reader went on unreleased");
            fault.release();
            let mut want = handed;
            want.extend(header(0, 0, 0, 0));
            assert_eq!(read.recv_timeout(Duration::from_secs(5)), Ok(want));
        }
    }

    /// A peer not yet heard from is given the start's wait, not the peer
    /// timeout: it may still be connecting to another process, and sends
    /// nothing until its own links are up. Once heard from, its silence
    /// fails the run after the peer timeout. Before, the timeout counted
    /// from this link's creation, and such a peer was taken for silent.
    #[test]
    fn a_peer_is_timed_from_when_it_is_first_heard() {
        let timeout = Duration::from_millis(100);
        let (link, mut peer, fault) = pair_started(0..1, timeout, Duration::from_secs(10));
        let read = read_all(link);
        std::thread::sleep(4 * timeout);
        assert_eq!(fault.get(), None, "a peer still connecting failed the run");
        peer.write_all(&Header::heartbeat()).unwrap();
        let m = failure(&fault);
        assert!(
            m.contains("sent nothing, not even a heartbeat, for 100ms"),
            "{m}"
        );
        assert!(read.try_recv().is_err(), "the reader went on");

        // Never heard from: the run fails after the start's wait.
        let (link, _peer, fault) = pair_started(0..1, timeout, 3 * timeout);
        let _read = read_all(link);
        let m = failure(&fault);
        assert!(m.contains("in the 300ms since it connected"), "{m}");
    }

    /// A peer that sends nothing, not even heartbeats: the run fails
    /// after the timeout; one whose link sends heartbeats does not.
    #[test]
    fn silence_fails_the_run_and_heartbeats_keep_it() {
        let (link, _peer, fault) = pair(0..1, Duration::from_millis(300));
        let read = read_all(link);
        assert!(failure(&fault).contains("sent nothing"));
        assert!(read.try_recv().is_err(), "the reader went on");

        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let a = TcpStream::connect(l.local_addr().unwrap()).unwrap();
        let (b, _) = l.accept().unwrap();
        let fault = Fault::new();
        let timeout = Duration::from_millis(300);
        let mut one = Link::new(a, 1, 0..1, timeout, timeout, fault.clone()).unwrap();
        let mut other = Link::new(b, 0, 0..1, timeout, timeout, fault.clone()).unwrap();
        // Both sides idle for several timeouts; then one ends its stream.
        std::thread::sleep(4 * timeout);
        one.write_all(&header(0, 0, 0, 0)).unwrap();
        one.shutdown(Shutdown::Write).unwrap();
        let mut got = [0u8; HEADER];
        other.read_exact(&mut got).unwrap();
        assert_eq!(got.to_vec(), header(0, 0, 0, 0));
        assert_eq!(other.read(&mut got).unwrap(), 0);
        assert_eq!(fault.get(), None);
    }
}
