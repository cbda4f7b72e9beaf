//! A hostfile line's address, checked before any process connects.
//!
//! timely takes the first `-n` lines of the hostfile as they are, and a
//! process uses only its own line and those of the processes before it:
//! a bad line for a process after it was never read there, so that
//! process failed alone and this one waited the whole connection time
//! (60 s) and then blamed it for not connecting. Every line is checked
//! up front instead, on every process.

use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};

/// Why `addr` (a hostfile line, trimmed) is no `host:port` address that
/// a process can listen at and be reached at, if it is not: a host name
/// or IPv4 address, or an IPv6 address in brackets, then a port from 1 to
/// 65535 (port 0 would listen at a port of the system's choosing, which
/// no other process knows). The host is not looked up here: a name that
/// does not resolve yet may by the time it is reached.
pub(crate) fn fault(addr: &str) -> Option<String> {
    if addr.is_empty() {
        return Some("an empty line, not a host:port address".into());
    }
    if let Ok(a) = addr.parse::<SocketAddr>() {
        return (a.port() == 0).then(|| "port 0, not a port from 1 to 65535".into());
    }
    // An IPv6 address alone ("[::1]", or one without brackets whose last
    // group would otherwise be read as a port).
    let bare = addr.strip_prefix('[').and_then(|a| a.strip_suffix(']'));
    if bare.unwrap_or(addr).parse::<Ipv6Addr>().is_ok() {
        return Some(if bare.is_some() {
            "no :port after the IPv6 address".into()
        } else {
            // "::1:2101" is itself an IPv6 address: which part is the
            // port cannot be told, so say how to write both.
            "an IPv6 address needs brackets, then :PORT (such as [::1]:2101)".into()
        });
    }
    let Some((host, port)) = addr.rsplit_once(':') else {
        return Some("no :port after the host".into());
    };
    if host.parse::<Ipv6Addr>().is_ok() {
        return Some(format!(
            "an IPv6 address needs brackets before its port: [{host}]:{port}"
        ));
    }
    let number = !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit());
    if !number || port.parse::<u16>().map_or(true, |p| p == 0) {
        return Some(format!("the port {port:?} is not a number from 1 to 65535"));
    }
    if let Some(inner) = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        return inner
            .parse::<Ipv6Addr>()
            .is_err()
            .then(|| format!("{host:?} is not an IPv6 address in brackets"));
    }
    let name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_');
    let numeric = host.chars().all(|c| c.is_ascii_digit() || c == '.');
    if host.is_empty() || !host.chars().all(name) || (numeric && host.parse::<Ipv4Addr>().is_err())
    {
        return Some(format!(
            "the host {host:?} is not a host name or IP address"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::fault;

    #[test]
    fn addresses_a_process_can_use_pass_and_others_say_why_not() {
        for good in [
            "localhost:2101",
            "127.0.0.1:1",
            "node-7.example.org:65535",
            "[::1]:4000",
            "[fe80::1]:4000",
            "my_host:80",
        ] {
            assert_eq!(fault(good), None, "{good}");
        }
        for (bad, why) in [
            ("", "empty"),
            ("localhost", "no :port"),
            ("localhost:", "port \"\""),
            ("127.0.0.1:43x2", "port \"43x2\""),
            ("127.0.0.1:0", "port 0"),
            ("127.0.0.1:65536", "port \"65536\""),
            ("127.0.0.1:+80", "port \"+80\""),
            (":2101", "host \"\""),
            ("host name:2101", "host \"host name\""),
            ("# process 1", "no :port"),
            ("999.0.0.1:2101", "host \"999.0.0.1\""),
            ("[::g]:2101", "\"[::g]\" is not an IPv6"),
            ("::1:2101", "needs brackets, then :PORT"),
            (
                "fe80::1:2101x",
                "needs brackets before its port: [fe80::1]:2101x",
            ),
            ("[::1]", "no :port after the IPv6 address"),
            ("fe80::1", "needs brackets"),
        ] {
            let m = fault(bad).unwrap_or_else(|| panic!("{bad:?} passed"));
            assert!(m.contains(why), "{bad:?}: {m}");
        }
    }
}
