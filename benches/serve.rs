//! A load generator for `gamesolve serve` (loopback only, bounded in
//! time): position queries against a Connect Four 5×5 database, from
//! client threads on keep-alive connections. Prints queries/s, latency
//! percentiles, errors, and the server's resident memory over the run.
//!
//! Run: `cargo bench --features bench --bench serve`. Settings (env):
//! `SERVE_BENCH_DB` a 5×5 database (default `target/bench-c4-5x5`,
//! solved by the bench's own `gamesolve` when missing: half a minute),
//! `SERVE_BENCH_SECS` the measured time (default 60), `SERVE_BENCH_CLIENTS`
//! the client threads (default 4).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use game_core::Game;

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `count` positions of random games on 5×5, as column strings: each a
/// random game cut at a random ply.
fn positions(count: usize) -> Vec<String> {
    let game = games::ConnectFour::new(5, 5).expect("5x5");
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (seed >> 33) as usize
    };
    let mut out = Vec::with_capacity(count);
    let mut moves = Vec::new();
    while out.len() < count {
        let stop = next() % 26;
        let mut pos = game.start();
        let mut text = String::new();
        for _ in 0..stop {
            if game.outcome(&pos).is_some() {
                break;
            }
            moves.clear();
            game.moves(&pos, &mut moves);
            let Some(&m) = moves.get(next() % moves.len().max(1)) else {
                break;
            };
            pos = game.play(&pos, &m);
            text += &game.format_move(m);
        }
        out.push(text);
    }
    out
}

/// Sends a GET on a keep-alive connection and reads the answer: its status.
fn get(conn: &mut BufReader<TcpStream>, path: &str, body: &mut Vec<u8>) -> u16 {
    let req = format!("GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n");
    if conn.get_mut().write_all(req.as_bytes()).is_err() {
        return 0;
    }
    let mut line = String::new();
    let mut status = 0;
    let mut len = 0usize;
    loop {
        line.clear();
        if conn.read_line(&mut line).unwrap_or(0) == 0 {
            return 0;
        }
        if status == 0 {
            status = line
                .split(' ')
                .nth(1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
        } else if line == "\r\n" {
            break;
        } else if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            len = v.trim().parse().unwrap_or(0);
        }
    }
    body.resize(len, 0);
    if conn.read_exact(body).is_err() {
        return 0;
    }
    status
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    // `cargo bench` passes `--bench`; a filter that names another bench
    // skips this one.
    if std::env::args()
        .skip(1)
        .any(|a| !a.starts_with('-') && !"serve".contains(a.as_str()))
    {
        return;
    }
    let bin = env!("CARGO_BIN_EXE_gamesolve");
    let secs = env("SERVE_BENCH_SECS", 60);
    let clients = env("SERVE_BENCH_CLIENTS", 4) as usize;
    let db = std::env::var_os("SERVE_BENCH_DB").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/bench-c4-5x5"),
        PathBuf::from,
    );
    if !db.join("manifest.gsdb").exists() {
        eprintln!("solving Connect Four 5x5 into {} (once)…", db.display());
        let ok = Command::new(bin)
            .args([
                "--max-work",
                "1e11",
                "connect4",
                "solve",
                "--width",
                "5",
                "--height",
                "5",
                "--no-certify",
                "--db",
            ])
            .arg(&db)
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "the 5x5 solve failed");
    }
    let mut server = Command::new(bin)
        .args(["serve", "--addr", "127.0.0.1:0", "--db"])
        .arg(&db)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let mut line = String::new();
    BufReader::new(server.stdout.take().expect("piped"))
        .read_line(&mut line)
        .expect("the address");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|s| s.split('/').next())
        .expect("an address")
        .to_string();
    let id = {
        let mut c = BufReader::new(TcpStream::connect(&addr).expect("connect"));
        let mut body = Vec::new();
        assert_eq!(get(&mut c, "/api/games", &mut body), 200);
        let j: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
        j["games"][0]["id"].as_str().expect("an id").to_string()
    };
    let paths: Arc<Vec<String>> = Arc::new(
        positions(20_000)
            .into_iter()
            .map(|p| format!("/api/games/{id}/positions?p={p}"))
            .collect(),
    );
    let stop = Arc::new(AtomicBool::new(false));
    let measuring = Arc::new(AtomicBool::new(false));
    let workers: Vec<_> = (0..clients)
        .map(|t| {
            let (paths, stop, measuring, addr) =
                (paths.clone(), stop.clone(), measuring.clone(), addr.clone());
            std::thread::spawn(move || {
                // Latency buckets of 10 µs up to 1 s.
                let mut hist = vec![0u64; 100_001];
                let (mut n, mut errors) = (0u64, 0u64);
                let mut conn = BufReader::new(TcpStream::connect(&addr).expect("connect"));
                conn.get_mut().set_nodelay(true).expect("nodelay");
                let mut body = Vec::new();
                let mut i = t * 7919;
                while !stop.load(Ordering::Relaxed) {
                    i = (i + 104_729) % paths.len();
                    let t0 = Instant::now();
                    let status = get(&mut conn, &paths[i], &mut body);
                    let us = t0.elapsed().as_micros() as usize;
                    if !measuring.load(Ordering::Relaxed) {
                        continue;
                    }
                    n += 1;
                    hist[(us / 10).min(100_000)] += 1;
                    if status != 200 {
                        errors += 1;
                        conn = BufReader::new(TcpStream::connect(&addr).expect("connect"));
                    }
                }
                (n, errors, hist)
            })
        })
        .collect();
    // Two seconds of warm-up, then the measured run.
    std::thread::sleep(Duration::from_secs(2));
    measuring.store(true, Ordering::Relaxed);
    let t0 = Instant::now();
    let mut rss = Vec::new();
    while t0.elapsed() < Duration::from_secs(secs) {
        rss.push(rss_kib(server.id()));
        std::thread::sleep(Duration::from_secs(1));
    }
    stop.store(true, Ordering::Relaxed);
    let elapsed = t0.elapsed().as_secs_f64();
    let (mut n, mut errors, mut hist) = (0u64, 0u64, vec![0u64; 100_001]);
    for w in workers {
        let (a, b, h) = w.join().expect("a client");
        n += a;
        errors += b;
        hist.iter_mut().zip(h).for_each(|(x, y)| *x += y);
    }
    let pct = |q: f64| {
        let want = (n as f64 * q).ceil() as u64;
        let mut seen = 0;
        hist.iter()
            .position(|&c| {
                seen += c;
                seen >= want.max(1)
            })
            .map_or(0.0, |b| (b as f64 + 1.0) * 0.01)
    };
    let _ = server.kill();
    let _ = server.wait();
    println!(
        "serve/connect4-5x5: {clients} clients, {elapsed:.1} s: {n} queries, {:.0} q/s, errors {errors}; latency p50 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms (10 µs buckets, upper bounds)",
        n as f64 / elapsed,
        pct(0.5),
        pct(0.99),
        pct(0.999)
    );
    println!(
        "server RSS: first {} MiB, min {} MiB, max {} MiB, last {} MiB ({} samples, one a second)",
        rss.first().copied().unwrap_or(0) / 1024,
        rss.iter().min().copied().unwrap_or(0) / 1024,
        rss.iter().max().copied().unwrap_or(0) / 1024,
        rss.last().copied().unwrap_or(0) / 1024,
        rss.len()
    );
}
