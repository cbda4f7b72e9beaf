//! The explorer page in a real browser: headless Chromium (Debian's
//! `chromium` and `chromium-driver`) driven over WebDriver by a small
//! client here. A Connect Four game is played by clicking columns, and
//! every move's colour on the board is checked against the API's value.
//! Skipped, saying so, only where no browser is installed (`.ci/run`
//! installs it).

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

#[test]
fn the_explorer_plays_connect_four_by_clicks_with_every_move_coloured_by_its_value() {
    let have = |c: &str| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    if !have("chromedriver") || !have("chromium") {
        eprintln!(
            "SKIPPED the_explorer_plays_connect_four_by_clicks…: no chromium and chromedriver here \
             (apt-get install chromium chromium-driver; .ci/run installs them)"
        );
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
