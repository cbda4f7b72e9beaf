//! `gamesolve serve` from outside: the default games, databases answered
//! as `connect4 value --db` answers them, and Ctrl-C.

mod common;
mod serve_support;

use serde_json::Value as Json;
use serve_support::{encode, Server};

use common::{json as gamesolve, scratch};

#[test]
fn serve_without_arguments_serves_the_embedded_games_and_stops_on_ctrl_c() {
    let mut server = Server::start(&[]);
    let list = server.json("/api/games");
    let ids: Vec<&str> = list["games"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|g| g["id"].as_str().expect("an id"))
        .collect();
    for id in [
        "fingers",
        "connect4-4x4",
        "connect4-5x4",
        "subtraction-1-3-4",
    ] {
        assert!(ids.contains(&id), "{id} in {ids:?}");
    }
    // Magic Fingers from the start, as `fingers value 1,1 1,1` says it
    // (the solver's answer through the CLI, against the server's).
    let cli = gamesolve(&["fingers", "value", "1,1", "1,1"]);
    let api = server.json(&format!(
        "/api/games/fingers/positions?p={}",
        encode("1,1 1,1")
    ));
    same_answer(&cli, &api, "fingers 1,1 1,1");
    // The page is served.
    let (status, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(
        page.contains("<title>gamesolve") && page.contains("<svg"),
        "the explorer page"
    );
    assert!(server.interrupt(), "Ctrl-C stops the server cleanly");
}

/// The CLI's `value --json` and the server's answer agree: the value, the
/// remoteness, and every move's value seen by the mover.
fn same_answer(cli: &Json, api: &Json, what: &str) {
    assert_eq!(cli["outcome"], api["positionValue"], "{what}");
    assert_eq!(cli["remoteness"], api["remoteness"], "{what}");
    let cli_moves = cli["moves"].as_array().expect("moves");
    let api_moves = api["moves"].as_array().expect("moves");
    assert_eq!(cli_moves.len(), api_moves.len(), "{what}: {api}");
    for c in cli_moves {
        let a = api_moves
            .iter()
            .find(|a| a["move"] == c["move"])
            .unwrap_or_else(|| panic!("{what}: {} not served", c["move"]));
        assert_eq!(c["outcome"], a["moveValue"], "{what} {}", c["move"]);
        // The CLI gives the mover's remoteness, one more than the child's.
        let child = a["remoteness"].as_u64();
        assert_eq!(
            c["remoteness"].as_u64(),
            child.map(|r| r + 1),
            "{what} {}",
            c["move"]
        );
    }
    uwapi_delta_remoteness(api, what);
}

/// Each move's `deltaRemoteness` as GamesCrafters' UWAPI (the server
/// behind GamesmanUni, `wrangle_move_objects_2Player`) derives it from
/// the children's own values: a winning move's child's remoteness less
/// the least of the losing children's, a tying move's less the least of
/// the tying children's, the greatest of the winning children's less a
/// losing move's child's; 0 for a draw.
fn uwapi_delta_remoteness(api: &Json, what: &str) {
    let moves = api["moves"].as_array().expect("moves");
    let children = |value: &str| -> Vec<u64> {
        moves
            .iter()
            .filter(|m| m["positionValue"] == value)
            .map(|m| m["remoteness"].as_u64().expect("a remoteness"))
            .collect()
    };
    let (lose, tie, win) = (children("lose"), children("tie"), children("win"));
    for m in moves {
        let r = m["remoteness"].as_u64();
        let want = match m["moveValue"].as_str() {
            Some("win") => r.and_then(|r| Some(r - lose.iter().min()?)),
            Some("tie") => r.and_then(|r| Some(r - tie.iter().min()?)),
            Some("lose") => r.and_then(|r| Some(win.iter().max()? - r)),
            _ => Some(0),
        };
        assert_eq!(
            m["deltaRemoteness"].as_u64(),
            want,
            "{what} {}: {m}",
            m["move"]
        );
    }
}

#[test]
fn a_magic_fingers_database_is_served_with_the_values_of_value_db() {
    let dir = scratch("serve-fingers-6-swap");
    let d = dir.to_str().expect("a UTF-8 path").to_string();
    // Not the quiz's rules, so that the rules are read from the database
    // and not assumed.
    let rules = ["--fingers", "6", "--allow-swap"];
    let mut solve = vec!["fingers", "solve", "--no-certify", "--db", &d];
    solve.extend(rules);
    gamesolve(&solve);
    let server = Server::start(&["--db", &d]);
    let list = server.json("/api/games");
    let game = &list["games"][0];
    assert_eq!(game["board"]["kind"], "fingers", "{list}");
    assert_eq!(game["board"]["fingers"], 6, "{list}");
    let id = game["id"].as_str().expect("an id").to_string();
    let mut seed = 0x853c_49e6_748f_ea9b_u64;
    let mut checked = 0;
    for _ in 0..3 {
        let mut pos = "1,1 1,1".to_string();
        // Fingers can go on for ever: a bounded walk.
        for _ in 0..10 {
            let api = server.json(&format!("/api/games/{id}/positions?p={}", encode(&pos)));
            let (me, opp) = pos.split_once(' ').expect("two hands");
            let mut value = vec!["fingers", "value", me, opp, "--db", &d];
            value.extend(rules);
            same_answer(&gamesolve(&value), &api, &format!("fingers {pos}"));
            checked += 1;
            let moves = api["moves"].as_array().expect("moves");
            if moves.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            pos = moves[(seed >> 33) as usize % moves.len()]["position"]
                .as_str()
                .expect("a position")
                .to_string();
        }
    }
    assert!(checked >= 10, "{checked} positions");
    // A hand of 6 fingers is dead under these rules: no such position.
    let (status, body) = server.get(&format!(
        "/api/games/{id}/positions?p={}",
        encode("6,1 1,1")
    ));
    assert_eq!(status, 400, "{body}");
}

#[test]
fn databases_are_served_with_the_values_of_value_db() {
    let mut dbs = Vec::new();
    for (w, h) in [("4", "4"), ("5", "4")] {
        let dir = scratch(&format!("serve-c4-{w}x{h}"));
        let d = dir.to_str().expect("a UTF-8 path").to_string();
        gamesolve(&[
            "connect4",
            "solve",
            "--width",
            w,
            "--height",
            h,
            "--no-certify",
            "--db",
            &d,
        ]);
        dbs.push((w, h, d));
    }
    let server = Server::start(&["--db", &dbs[0].2, "--db", &dbs[1].2]);
    let list = server.json("/api/games");
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for (w, h, d) in &dbs {
        let id = list["games"]
            .as_array()
            .expect("a list")
            .iter()
            .find(|g| {
                g["board"]["width"].as_str().is_none()
                    && g["board"]["width"] == w.parse::<u64>().expect("a width")
            })
            .map(|g| g["id"].as_str().expect("an id").to_string())
            .expect("the database is served");
        // Random games from the start: every position on the way.
        let mut checked = 0;
        for _ in 0..4 {
            let mut seq = String::new();
            loop {
                let api = server.json(&format!("/api/games/{id}/positions?p={seq}"));
                let cli = gamesolve(&[
                    "connect4", "value", &seq, "--width", w, "--height", h, "--db", d,
                ]);
                same_answer(&cli, &api, &format!("{w}x{h} {seq}"));
                checked += 1;
                let moves = api["moves"].as_array().expect("moves");
                if moves.is_empty() {
                    break;
                }
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let m = &moves[(seed >> 33) as usize % moves.len()];
                seq = m["position"].as_str().expect("a position").to_string();
            }
        }
        assert!(checked >= 20, "{checked} positions of {w}x{h}");
    }
    // An unknown game is a 404 with a JSON error.
    let (status, body) = server.get("/api/games/nonesuch/positions?p=1");
    assert_eq!(status, 404, "{body}");
    assert!(serde_json::from_str::<Json>(&body).is_ok_and(|j| j["error"].is_string()));
}
