//! The explorer page in a real browser: headless Chromium (Debian's
//! `chromium` and `chromium-driver`) driven over WebDriver by a small
//! client here. A Connect Four game is played by clicking columns; games
//! on Teeko's and Dobutsu shogi's boards (small variants solved here, see
//! `serve_support/fixtures.rs`) by clicking a square, or a piece and then
//! where it goes, or a piece in hand and then a square; and every move's
//! colour on the board is checked against the API's value. Skipped,
//! saying so, only where no browser is installed (`.ci/run` installs it).

#[path = "serve_support/fixtures.rs"]
mod fixtures;
mod serve_support;

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value as Json};
use serve_support::{encode, parse, request, Server};

/// The page's colours: Okabe and Ito's colour-blind-safe palette
/// ("Color Universal Design", 2008): bluish green, yellow, sky blue and
/// vermillion.
fn colour(value: &str) -> &'static str {
    match value {
        "win" => "#009E73",
        "tie" => "#F0E442",
        "draw" => "#56B4E9",
        "lose" => "#D55E00",
        other => panic!("no value {other}"),
    }
}

/// A WebDriver session on a chromedriver of our own.
struct Browser {
    driver: Child,
    addr: String,
    session: String,
}

impl Browser {
    fn start() -> Option<Browser> {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let addr = format!("127.0.0.1:{port}");
        let mut b = Browser {
            driver,
            addr,
            session: String::new(),
        };
        let t = Instant::now();
        while std::net::TcpStream::connect(&b.addr).is_err() {
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "chromedriver does not start"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": "/usr/bin/chromium",
                "args": ["--headless", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1100,760"],
            },
        }}});
        let r = b.call("POST", "/session", &caps)["value"].clone();
        b.session = r["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("no session: {r}"))
            .to_string();
        Some(b)
    }

    fn call(&self, method: &str, path: &str, body: &Json) -> Json {
        let body = body.to_string();
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        let (status, text) = parse(&request(&self.addr, req.as_bytes()));
        let j: Json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}"));
        assert_eq!(status, 200, "{method} {path}: {j}");
        j
    }

    fn session(&self, method: &str, path: &str, body: &Json) -> Json {
        self.call(method, &format!("/session/{}{path}", self.session), body)["value"].clone()
    }

    fn script(&self, script: &str) -> Json {
        self.session(
            "POST",
            "/execute/sync",
            &json!({ "script": script, "args": [] }),
        )
    }

    fn click(&self, css: &str) {
        let e = self.session(
            "POST",
            "/element",
            &json!({ "using": "css selector", "value": css }),
        );
        let id = e
            .as_object()
            .and_then(|o| o.values().next())
            .and_then(Json::as_str)
            .unwrap_or_else(|| panic!("no element {css}: {e}"))
            .to_string();
        self.session("POST", &format!("/element/{id}/click"), &json!({}));
    }

    /// Opens `url`.
    fn open(&self, url: &str) {
        self.session("POST", "/url", &json!({ "url": url }));
    }

    /// A screenshot of the window, as PNG, written to `path`.
    fn screenshot(&self, path: &std::path::Path) {
        let shot = self.session("GET", "/screenshot", &json!({}));
        let png = base64(shot.as_str().expect("base64"));
        assert!(png.starts_with(b"\x89PNG"), "a PNG");
        std::fs::write(path, png).expect("the screenshot is written");
    }

    /// Each move of `answer` has a button in the move list, of its
    /// value's colour.
    fn check_buttons(&self, answer: &Json, pos: &str) {
        let buttons = self.script(
            "return [...document.querySelectorAll('#moves button')].map(b => \
               [b.dataset.move, getComputedStyle(b).backgroundColor]);",
        );
        let moves = answer["moves"].as_array().expect("moves");
        assert_eq!(buttons.as_array().map(Vec::len), Some(moves.len()), "{pos}");
        for m in moves {
            let b = buttons
                .as_array()
                .and_then(|b| b.iter().find(|b| b[0] == m["move"]))
                .unwrap_or_else(|| panic!("{pos}: no button {}", m["move"]));
            let value = m["moveValue"].as_str().expect("a value");
            assert_eq!(b[1], json!(rgb(colour(value))), "{pos} {}", m["move"]);
        }
    }

    /// The value markers drawn on the board (`css` picks them): each
    /// marker's key attribute, value and colour.
    fn markers(&self, css: &str, key: &str) -> Vec<(String, String, String)> {
        let drawn = self.script(&format!(
            "return [...document.querySelectorAll(\"{css}\")].map(g => \
               [g.dataset.{key}, g.dataset.value, \
                g.querySelector('rect, circle').getAttribute('fill').toUpperCase()]);"
        ));
        drawn
            .as_array()
            .expect("a list")
            .iter()
            .map(|d| {
                let s = |i: usize| d[i].as_str().unwrap_or("?").to_string();
                (s(0), s(1), s(2))
            })
            .collect()
    }

    /// Waits (10 s at most) until the page shows position `pos`.
    fn wait_for(&self, pos: &str) {
        let t = Instant::now();
        loop {
            if self.script("return document.body.dataset.ready === undefined ? null : document.body.dataset.ready;")
                == json!(pos)
            {
                return;
            }
            assert!(
                t.elapsed() < Duration::from_secs(10),
                "the page never showed '{pos}'"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let req = format!(
                "DELETE /session/{} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
                self.session, self.addr
            );
            let _ = request(&self.addr, req.as_bytes());
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Whether chromium and chromedriver are here; if not, says that `test`
/// is skipped.
fn have_browser(test: &str) -> bool {
    let have = |c: &str| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    let here = have("chromedriver") && have("chromium");
    if !here {
        eprintln!(
            "SKIPPED {test}: no chromium and chromedriver here \
             (apt-get install chromium chromium-driver; .ci/run installs them)"
        );
    }
    here
}

/// `#RRGGBB` as the browser computes it: `rgb(R, G, B)`.
fn rgb(hex: &str) -> String {
    let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex");
    format!("rgb({}, {}, {})", c(1), c(3), c(5))
}

/// `GET path` of a server at `addr`, answered 200 with JSON.
fn get_json(addr: &str, path: &str) -> Json {
    let raw = request(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes(),
    );
    let (status, body) = parse(&raw);
    assert_eq!(status, 200, "GET {path}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("GET {path}: {e}: {body}"))
}

/// Standard base64 (RFC 4648), as WebDriver sends a screenshot.
fn base64(text: &str) -> Vec<u8> {
    let digit = |c: u8| -> Option<u32> {
        Some(u32::from(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        }))
    };
    let digits: Vec<u32> = text.bytes().filter_map(digit).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, d)| n | (d << (18 - 6 * i)));
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    out
}

#[test]
fn the_explorer_plays_connect_four_by_clicks_with_every_move_coloured_by_its_value() {
    if !have_browser("the_explorer_plays_connect_four_by_clicks…") {
        return;
    }
    let server = Server::start(&[]);
    let browser = Browser::start().expect("chromedriver starts");
    let game = "connect4-4x4";
    browser.session(
        "POST",
        "/url",
        &json!({ "url": format!("http://{}/?game={game}", server.addr) }),
    );
    let mut pos = String::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut plies = 0;
    loop {
        browser.wait_for(&pos);
        let api = server.json(&format!("/api/games/{game}/positions?p={}", encode(&pos)));
        // The board's column markers and the move buttons, as drawn.
        let drawn = browser.script(
            "return [...document.querySelectorAll('#c4 g.move')].map(g => \
               [g.dataset.move, g.dataset.value, g.querySelector('rect').getAttribute('fill')]);",
        );
        let buttons = browser.script(
            "return [...document.querySelectorAll('#moves button')].map(b => \
               [b.dataset.move, getComputedStyle(b).backgroundColor]);",
        );
        let moves = api["moves"].as_array().expect("moves");
        assert_eq!(
            drawn.as_array().map(Vec::len),
            Some(moves.len()),
            "{pos}: {drawn}"
        );
        for m in moves {
            let name = m["move"].as_str().expect("a name");
            let value = m["moveValue"].as_str().expect("a value");
            let d = drawn
                .as_array()
                .and_then(|d| d.iter().find(|d| d[0] == name))
                .unwrap_or_else(|| panic!("{pos}: {name} not drawn"));
            assert_eq!(d[1], value, "{pos} {name}");
            assert_eq!(
                d[2].as_str().map(str::to_uppercase),
                Some(colour(value).to_string()),
                "{pos} {name}"
            );
            let hex = colour(value);
            let rgb = format!(
                "rgb({}, {}, {})",
                u8::from_str_radix(&hex[1..3], 16).expect("hex"),
                u8::from_str_radix(&hex[3..5], 16).expect("hex"),
                u8::from_str_radix(&hex[5..7], 16).expect("hex")
            );
            let b = buttons
                .as_array()
                .and_then(|b| b.iter().find(|b| b[0] == name))
                .unwrap_or_else(|| panic!("{pos}: no button {name}"));
            assert_eq!(b[1], json!(rgb), "{pos} {name}");
        }
        if moves.is_empty() {
            break;
        }
        // A varied game: the best move half the time, else any.
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let k = if seed >> 63 == 0 {
            0
        } else {
            (seed >> 33) as usize % moves.len()
        };
        let next = moves[k]["position"]
            .as_str()
            .expect("a position")
            .to_string();
        let col = &next[next.len() - 1..];
        browser.click(&format!("rect.col[data-col='{col}']"));
        pos = next;
        plies += 1;
    }
    assert!(plies >= 7, "a game of {plies} plies");
    let status = browser.script("return document.getElementById('status').textContent;");
    assert!(
        status.as_str().is_some_and(|s| s.starts_with("Game over")),
        "{status}"
    );
    // The URL holds the position: back returns to the one before.
    browser.session("POST", "/back", &json!({}));
    browser.wait_for(&pos[..pos.len() - 1]);
    let url = browser.session("GET", "/url", &json!({}));
    assert!(
        url.as_str()
            .is_some_and(|u| u.contains(&format!("p={}", &pos[..pos.len() - 1]))),
        "{url}"
    );
    // Undo steps back one more; a point of the value history returns to
    // the start.
    browser.click("#undo");
    browser.wait_for(&pos[..pos.len() - 2]);
    browser.click("#chart circle[data-ply='0']");
    browser.wait_for("");
    // The perfect player takes the second side: after a click on column
    // 1 it answers with the API's best move.
    browser.script(
        "const s = document.getElementById('ai'); s.value = '1'; s.dispatchEvent(new Event('change'));",
    );
    browser.click("rect.col[data-col='1']");
    let best = server.json(&format!("/api/games/{game}/positions?p=1"))["moves"][0]["position"]
        .as_str()
        .expect("a best move")
        .to_string();
    browser.wait_for(&best);
}

/// The generator the tests choose moves with (PCG's LCG step).
fn next(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    *seed >> 33
}

/// The moves of `answer` as markers: (key, value, colour), sorted, with
/// the key `key(move name)` (moves that give none left out).
fn expected(answer: &Json, key: impl Fn(&str) -> Option<String>) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = answer["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(|m| {
            let value = m["moveValue"].as_str()?;
            Some((
                key(m["move"].as_str()?)?,
                value.to_string(),
                colour(value).to_string(),
            ))
        })
        .collect();
    out.sort();
    out
}

/// The best move of each piece (its first move: moves come best first)
/// as a marker on the piece, keyed by `from(move name)`.
fn best_from(
    answer: &Json,
    from: impl Fn(&str) -> Option<String>,
) -> Vec<(String, String, String)> {
    let mut seen = std::collections::BTreeMap::new();
    for m in answer["moves"].as_array().expect("moves") {
        let (Some(name), Some(value)) = (m["move"].as_str(), m["moveValue"].as_str()) else {
            continue;
        };
        if let Some(k) = from(name) {
            seen.entry(k)
                .or_insert_with(|| (value.to_string(), colour(value).to_string()));
        }
    }
    seen.into_iter().map(|(k, (v, c))| (k, v, c)).collect()
}

fn sorted(mut v: Vec<(String, String, String)>) -> Vec<(String, String, String)> {
    v.sort();
    v
}

/// Picks the `k`-th move of `answer` to play: the best half the time,
/// else any; during Teeko's placement, a move that does not end the game
/// at once when there is one, so that the moving phase is reached.
fn choose(answer: &Json, seed: &mut u64, keep_going: bool) -> Json {
    let moves = answer["moves"].as_array().expect("moves");
    let open: Vec<&Json> = moves
        .iter()
        .filter(|m| !keep_going || m["remoteness"] != json!(0))
        .collect();
    let pool = if open.is_empty() {
        moves.iter().collect()
    } else {
        open
    };
    let k = if next(seed) & 1 == 0 {
        0
    } else {
        next(seed) as usize % pool.len()
    };
    pool[k].clone()
}

#[test]
fn the_explorer_plays_teeko_by_clicks_placing_then_sliding() {
    if !have_browser("the_explorer_plays_teeko_by_clicks…") {
        return;
    }
    let server = game_server::spawn("127.0.0.1:0", fixtures::fixtures()).expect("serves");
    let addr = server.addr().to_string();
    let browser = Browser::start().expect("chromedriver starts");
    let game = "teeko-corner";
    let start = get_json(&addr, "/api/games")["games"]
        .as_array()
        .and_then(|g| g.iter().find(|g| g["id"] == game))
        .map(|g| g["start"].as_str().expect("a start").to_string())
        .expect("the game is listed");
    browser.open(&format!("http://{addr}/?game={game}"));
    let mut pos = start;
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let (mut placed, mut slid) = (0, 0);
    let mut shot = false;
    while slid < 6 {
        browser.wait_for(&pos);
        let api = get_json(
            &addr,
            &format!("/api/games/{game}/positions?p={}", encode(&pos)),
        );
        // The men where the position has them: its 25 squares, rank 1 first.
        let drawn = browser.script(
            "return [...document.querySelectorAll('#teeko circle[data-man]')].map(c => \
               [c.dataset.at, c.dataset.man]);",
        );
        let mut want: Vec<Json> = pos
            .bytes()
            .take(25)
            .enumerate()
            .filter(|(_, c)| matches!(c, b'b' | b'r'))
            .map(|(i, c)| {
                let sq = format!("{}{}", char::from(b'a' + (i % 5) as u8), i / 5 + 1);
                json!([sq, char::from(c).to_string()])
            })
            .collect();
        let mut got = drawn.as_array().expect("a list").clone();
        let key = |j: &Json| j.to_string();
        want.sort_by_key(key);
        got.sort_by_key(key);
        assert_eq!(got, want, "{pos}: the men drawn");
        browser.check_buttons(&api, &pos);
        let moves = api["moves"].as_array().expect("moves");
        if moves.is_empty() {
            break;
        }
        let placing = moves[0]["move"].as_str().is_some_and(|m| m.len() == 2);
        let m = choose(&api, &mut seed, placing);
        let name = m["move"].as_str().expect("a name").to_string();
        if placing {
            // Every free square it may place on carries its move's value.
            assert_eq!(
                sorted(browser.markers("#teeko g.move.dest", "move")),
                expected(&api, |n| Some(n.to_string())),
                "{pos}"
            );
            browser.click(&format!("rect.hit[data-square='{name}']"));
            placed += 1;
        } else {
            // Each man that can move carries its best move's value ...
            let from = |n: &str| Some(n[..2].to_string());
            assert_eq!(
                sorted(browser.markers("#teeko g.from", "from")),
                best_from(&api, from),
                "{pos}"
            );
            // ... and, once clicked, each square it can go to carries that
            // move's value: every man in turn, the one to move last.
            let mut men: Vec<String> = best_from(&api, from).into_iter().map(|m| m.0).collect();
            men.retain(|f| *f != name[..2]);
            men.push(name[..2].to_string());
            for f in &men {
                browser.click(&format!("rect.hit[data-square='{f}']"));
                assert_eq!(
                    sorted(browser.markers("#teeko g.move.dest", "move")),
                    expected(&api, |n| n.starts_with(f.as_str()).then(|| n.to_string())),
                    "{pos}: {f} selected"
                );
            }
            if !shot {
                browser.screenshot(
                    &std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("explorer-teeko.png"),
                );
                shot = true;
            }
            browser.click(&format!("rect.hit[data-square='{}']", &name[2..]));
            slid += 1;
        }
        pos = m["position"].as_str().expect("a position").to_string();
    }
    assert!(placed == 8 && slid >= 1, "{placed} men placed, {slid} slid");
    // A link holding moves, not a board: the men are drawn where the
    // moves put them (black first), and the side to move is red.
    browser.open(&format!("http://{addr}/?game={game}&p=a1+b1+c2"));
    browser.wait_for("a1 b1 c2");
    let mut men = browser
        .script(
            "return [...document.querySelectorAll('#teeko circle[data-man]')].map(c => \
               c.dataset.at + c.dataset.man);",
        )
        .as_array()
        .expect("a list")
        .clone();
    men.sort_by_key(|j| j.to_string());
    assert_eq!(men, [json!("a1b"), json!("b1r"), json!("c2b")]);
    let status = browser.script("return document.getElementById('status').textContent;");
    assert!(
        status
            .as_str()
            .is_some_and(|s| s.starts_with("Second player")),
        "{status}"
    );
}

#[test]
fn the_explorer_plays_dobutsu_by_clicks_steps_and_drops_on_a_fixed_board() {
    if !have_browser("the_explorer_plays_dobutsu_by_clicks…") {
        return;
    }
    let server = game_server::spawn("127.0.0.1:0", fixtures::fixtures()).expect("serves");
    let addr = server.addr().to_string();
    let browser = Browser::start().expect("chromedriver starts");
    let game = "dobutsu-lions-chicks";
    browser.open(&format!("http://{addr}/?game={game}"));
    let mut pos = fixtures::LIONS_CHICKS_START.to_string();
    let mut seed = 0x853c_49e6_748f_ea9b_u64;
    let (mut steps, mut drops, mut plies) = (0, 0, 0);
    let mut frame: Option<Json> = None;
    let mut shot = false;
    while plies < 24 {
        browser.wait_for(&pos);
        let api = get_json(
            &addr,
            &format!("/api/games/{game}/positions?p={}", encode(&pos)),
        );
        let words: Vec<&str> = pos.split_whitespace().collect();
        let (board, hand, side) = (words[0], words[1], words[2].to_string());
        // The pieces where the position has them, on the fixed board (rank
        // 1 at the top, as the first player sees it), and the hands.
        let mut want: Vec<Json> = Vec::new();
        for (r, rank) in board.split('/').enumerate() {
            for (f, c) in rank.chars().enumerate() {
                if c != '.' {
                    let sq = format!("{}{}", char::from(b'a' + f as u8), r + 1);
                    want.push(json!([sq, c.to_string()]));
                }
            }
        }
        let mut got = browser
            .script(
                "return [...document.querySelectorAll('#dobutsu [data-at]')].map(g => \
                   [g.dataset.at, g.dataset.piece]);",
            )
            .as_array()
            .expect("a list")
            .clone();
        let key = |j: &Json| j.to_string();
        want.sort_by_key(key);
        got.sort_by_key(key);
        assert_eq!(got, want, "{pos}: the pieces drawn");
        let mut want_hand: Vec<Json> = Vec::new();
        for c in ['G', 'E', 'C', 'g', 'e', 'c'] {
            let n = hand.chars().filter(|&h| h == c).count();
            if n > 0 {
                want_hand.push(json!([c.to_string(), n.to_string()]));
            }
        }
        let mut got_hand = browser
            .script(
                "return [...document.querySelectorAll('#dobutsu [data-hand]')].map(g => \
                   [g.dataset.hand, g.dataset.count]);",
            )
            .as_array()
            .expect("a list")
            .clone();
        want_hand.sort_by_key(key);
        got_hand.sort_by_key(key);
        assert_eq!(got_hand, want_hand, "{pos}: the hands drawn");
        // One frame whoever moves: the board's width, and where ranks 1
        // and 4 are drawn.
        let this = browser.script(
            "const q = (s) => document.querySelector(`#dobutsu rect.sq[data-square='${s}']`); \
             return [document.getElementById('dobutsu').getAttribute('width'), \
                     q('a1').getAttribute('y'), q('a4').getAttribute('y')];",
        );
        let fixed = frame.get_or_insert_with(|| this.clone());
        assert_eq!(*fixed, this, "{pos}: the board moved");
        browser.check_buttons(&api, &pos);
        let moves = api["moves"].as_array().expect("moves");
        if moves.is_empty() {
            break;
        }
        // The chicks meet first (a capture, so that the hands fill); then
        // a drop when there is one (the hands are the point), else any
        // move that does not end the game at once.
        let named = |n: &str| moves.iter().find(|m| m["move"] == n).cloned();
        let drop = moves
            .iter()
            .find(|m| m["move"].as_str().is_some_and(|n| n.contains('*')));
        let m = match (plies, drop) {
            (0, _) if named("b3b2").is_some() => named("b3b2").expect("found"),
            (_, Some(d)) if next(&mut seed) & 1 == 0 || drops == 0 => d.clone(),
            _ => choose(&api, &mut seed, true),
        };
        let name = m["move"].as_str().expect("a name").to_string();
        let from = |n: &str| Some(n[..2].to_string());
        assert_eq!(
            sorted(browser.markers("#dobutsu g.from", "from")),
            best_from(&api, from),
            "{pos}"
        );
        let target = if name.contains('*') {
            format!("rect.hit[data-slot='{}']", &name[..2])
        } else {
            format!("rect.hit[data-square='{}']", &name[..2])
        };
        browser.click(&target);
        assert_eq!(
            sorted(browser.markers("#dobutsu g.move.dest", "move")),
            expected(&api, |n| n.starts_with(&name[..2]).then(|| n.to_string())),
            "{pos}: {} selected",
            &name[..2]
        );
        if !shot && side == "w" && name.contains('*') {
            browser.screenshot(
                &std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("explorer-dobutsu.png"),
            );
            shot = true;
        }
        browser.click(&format!("rect.hit[data-square='{}']", &name[2..]));
        if name.contains('*') {
            drops += 1;
        } else {
            steps += 1;
        }
        plies += 1;
        pos = m["position"].as_str().expect("a position").to_string();
        assert!(
            pos.ends_with(if side == "b" { " w" } else { " b" }),
            "{pos}: the other player moves next"
        );
    }
    assert!(
        steps >= 2 && drops >= 1,
        "{steps} steps and {drops} drops by clicks"
    );
}
