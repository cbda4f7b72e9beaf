//! Connecting the processes: timely's own setup, less its prints to
//! standard output (which would mix with process 0's report) and with a
//! time limit instead of retrying for ever.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::Hooks;
use timely::CommunicationConfig;

use crate::Error;

/// The allocators of this process's workers and the guard of its network
/// threads.
pub(crate) type Built = (Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>);

/// Builds the communication `config` asks for, connecting to every other
/// process within `wait`.
pub(crate) fn build(config: CommunicationConfig, wait: Duration) -> Result<Built, Error> {
    let CommunicationConfig::Cluster {
        threads,
        process,
        addresses,
        ..
    } = config
    else {
        return config.try_build().map_err(Error::Start);
    };
    let sockets = connect(&addresses, process, wait)?;
    let hooks = Hooks::default();
    let local =
        ProcessBuilder::new_typed_vector(threads, hooks.refill.clone(), hooks.spill.clone());
    let (builders, guard) =
        initialize_networking_from_sockets(local, sockets, process, threads, hooks)
            .map_err(|e| Error::Start(format!("process {process}: {e}")))?;
    Ok((
        builders.into_iter().map(AllocatorBuilder::Tcp).collect(),
        Box::new(guard),
    ))
}

/// One connection to every other process: process `me` connects to the
/// processes before it and accepts the ones after it; each side first
/// sends its id.
fn connect(
    addresses: &[String],
    me: usize,
    wait: Duration,
) -> Result<Vec<Option<TcpStream>>, Error> {
    // A wait too long to add to the clock (Duration::MAX) has no deadline.
    let deadline = Instant::now().checked_add(wait);
    let late = || deadline.is_some_and(|d| Instant::now() >= d);
    let fail = |what: String| Error::Start(format!("process {me}: {what}"));
    let listener = TcpListener::bind(&addresses[me])
        .map_err(|e| fail(format!("cannot listen at {}: {e}", addresses[me])))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| fail(e.to_string()))?;
    let mut out: Vec<Option<TcpStream>> = (0..addresses.len()).map(|_| None).collect();
    for (j, addr) in addresses.iter().enumerate().take(me) {
        let mut stream = loop {
            match TcpStream::connect(addr) {
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
            .and_then(|()| stream.write_all(&(me as u64).to_le_bytes()))
            .map_err(|e| fail(format!("connecting to process {j}: {e}")))?;
        out[j] = Some(stream);
    }
    let mut missing = addresses.len() - me - 1;
    while missing > 0 {
        match listener.accept() {
            Ok((mut stream, _)) => {
                stream
                    .set_nonblocking(false)
                    .and_then(|()| stream.set_read_timeout(Some(Duration::from_secs(10))))
                    .map_err(|e| fail(e.to_string()))?;
                let mut id = [0u8; 8];
                stream
                    .read_exact(&mut id)
                    .map_err(|e| fail(format!("a peer connected but sent no id: {e}")))?;
                let _ = stream.set_read_timeout(None);
                let j = u64::from_le_bytes(id) as usize;
                if j <= me || j >= addresses.len() || out[j].is_some() {
                    return Err(fail(format!(
                        "a peer connected as process {j}, not expected"
                    )));
                }
                stream.set_nodelay(true).map_err(|e| fail(e.to_string()))?;
                out[j] = Some(stream);
                missing -= 1;
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if late() {
                    let absent: Vec<String> = (me + 1..addresses.len())
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

#[cfg(test)]
mod tests {
    use super::*;

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
        let one = std::thread::spawn(move || connect(&theirs, 1, Duration::MAX).map(|s| s.len()));
        let zero = connect(&addresses, 0, Duration::MAX).map(|s| s.len());
        assert_eq!(zero.unwrap(), 2);
        assert_eq!(one.join().unwrap().unwrap(), 2);
    }
}
