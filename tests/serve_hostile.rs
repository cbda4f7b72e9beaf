//! A flood of malformed requests against `gamesolve serve` on loopback:
//! long, binary, unicode, impossible positions, unknown routes, wrong
//! methods. Every one is answered 4xx with `{"error": ...}`, and the
//! server answers correctly after. Bounded: 10,000 requests, each read
//! for at most 10 s.

mod serve_support;

use serve_support::{encode, parse, request, Server};

/// A small deterministic generator (PCG's LCG step, the high bits).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const GAMES: [&str; 4] = [
    "fingers",
    "connect4-4x4",
    "connect4-5x4",
    "subtraction-1-3-4",
];

/// Positions no game of `GAMES` has (each 400).
const IMPOSSIBLE: [(&str, &str); 12] = [
    ("connect4-4x4", "11111"),
    ("connect4-4x4", "12121212"),
    ("connect4-4x4", "5"),
    ("connect4-5x4", "0"),
    ("connect4-5x4", "1 2"),
    ("fingers", "5,1 1,1"),
    ("fingers", "0,0 0,0"),
    ("fingers", "1,1"),
    ("fingers", "1,1 1,1 1,1"),
    ("subtraction-1-3-4", "101"),
    ("subtraction-1-3-4", "-1"),
    ("subtraction-1-3-4", "18446744073709551616"),
];

/// The `i`-th hostile request, whole (request line and headers).
fn hostile(i: u64, rng: &mut Rng) -> String {
    let game = GAMES[rng.below(GAMES.len() as u64) as usize];
    let get =
        |target: String| format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let bytes = |rng: &mut Rng, n: u64| -> String {
        (0..n).map(|_| format!("%{:02X}", rng.below(256))).collect()
    };
    match i % 10 {
        // Long: a position of thousands of characters (past the target limit, or not).
        0 => {
            let n = 100 + rng.below(16_000) as usize;
            get(format!("/api/games/{game}/positions?p={}", "1".repeat(n)))
        }
        // Binary: random bytes, percent-encoded, as the position or the id.
        1 => {
            let n = 1 + rng.below(64);
            get(format!("/api/games/{game}/positions?p={}", bytes(rng, n)))
        }
        2 => {
            let n = 1 + rng.below(32);
            get(format!("/api/games/{}/positions?p=1", bytes(rng, n)))
        }
        // Unicode: random code points as position and id.
        3 => {
            let s: String = (0..1 + rng.below(20))
                .filter_map(|_| char::from_u32(0x80 + rng.below(0x10_FF00) as u32))
                .collect();
            let s = if s.is_empty() { "é".to_string() } else { s };
            if rng.below(2) == 0 {
                get(format!("/api/games/{game}/positions?p={}", encode(&s)))
            } else {
                get(format!("/api/games/{}/positions", encode(&s)))
            }
        }
        // Positions that cannot occur.
        4 | 5 => {
            let (g, p) = IMPOSSIBLE[rng.below(IMPOSSIBLE.len() as u64) as usize];
            get(format!("/api/games/{g}/positions?p={}", encode(p)))
        }
        // Unknown routes.
        6 => {
            let routes = [
                "/api",
                "/api/games/",
                "/api/games/fingers",
                "/api/games/fingers/positions/1",
                "/api/games/fingers/positionsX",
                "/../../etc/passwd",
                "/index.html",
                "/api/games/%2e%2e/positions",
            ];
            get(routes[rng.below(routes.len() as u64) as usize].to_string())
        }
        // Malformed query strings.
        7 => {
            // Against Magic Fingers, where neither "", "1" nor "2" is a
            // position (an empty one is Connect Four's start).
            let queries = ["p=%ZZ", "p=%", "p=1&p=2", "p=%FF%FE", "p", "p=&x=1"];
            let q = queries[rng.below(queries.len() as u64) as usize];
            get(format!("/api/games/fingers/positions?{q}"))
        }
        // Wrong methods, some with bodies past the limit.
        8 => {
            let methods = ["POST", "PUT", "DELETE", "PATCH"];
            let m = methods[rng.below(methods.len() as u64) as usize];
            let body = "x".repeat(rng.below(4096) as usize);
            format!(
                "{m} /api/games/{game}/positions?p=1 HTTP/1.1\r\nHost: x\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            )
        }
        // Control characters in the position.
        _ => get(format!(
            "/api/games/{game}/positions?p=%00%0A%0D%1B{}",
            rng.below(10)
        )),
    }
}

#[test]
fn ten_thousand_malformed_requests_are_each_a_json_4xx_and_the_server_still_answers() {
    let server = Server::start(&[]);
    let probes = [
        ("connect4-4x4", "23"),
        ("connect4-5x4", "332215"),
        ("fingers", "1,3 2,2"),
        ("subtraction-1-3-4", "100"),
    ];
    let before: Vec<_> = probes
        .iter()
        .map(|(g, p)| server.json(&format!("/api/games/{g}/positions?p={}", encode(p))))
        .collect();
    let mut rng = Rng(0x853c_49e6_748f_ea9b);
    let mut statuses = std::collections::BTreeMap::new();
    for i in 0..10_000 {
        let req = hostile(i, &mut rng);
        let raw = request(&server.addr, req.as_bytes());
        let (status, body) = parse(&raw);
        let shown = &req[..req.len().min(200)];
        assert!((400..500).contains(&status), "{shown:?}: {status} {body}");
        let j: serde_json::Value =
            serde_json::from_str(&body).unwrap_or_else(|e| panic!("{shown:?}: {e}: {body}"));
        assert!(j["error"].is_string(), "{shown:?}: {body}");
        *statuses.entry(status).or_insert(0u32) += 1;
    }
    // Every kind of refusal was met.
    for s in [400, 404, 405, 414] {
        assert!(statuses.contains_key(&s), "{statuses:?}");
    }
    for ((g, p), b) in probes.iter().zip(&before) {
        let after = server.json(&format!("/api/games/{g}/positions?p={}", encode(p)));
        assert_eq!(&after, b, "{g} {p}");
    }
}
