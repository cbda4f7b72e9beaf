//! What the command-line tests share: running `gamesolve` as a user does.
// Each test file uses only some of these.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// The built `gamesolve`, without backtraces (errors stay one line).
pub fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gamesolve"));
    c.env("RUST_BACKTRACE", "0");
    c
}

/// `gamesolve args…` to the end, with no input.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("the binary runs")
}

/// `gamesolve --json args…`, which must succeed: its report, one JSON
/// object on one line.
pub fn json(args: &[&str]) -> serde_json::Value {
    json_of(bin(), args)
}

/// `program --json args…` ([`json`] for another program: an example's
/// binary).
pub fn json_of(mut program: Command, args: &[&str]) -> serde_json::Value {
    let out = program
        .arg("--json")
        .args(args)
        .output()
        .expect("the program runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    assert_eq!(
        text.trim().lines().count(),
        1,
        "{args:?}: exactly one JSON object: {text}"
    );
    serde_json::from_str(&text).expect("one JSON object")
}

/// `gamesolve args…` refused: a non-zero exit, one line on stderr (no
/// panic), nothing on stdout; the line.
pub fn fails(args: &[&str]) -> String {
    let out = run(args);
    assert!(!out.status.success(), "{args:?} should fail");
    let err = String::from_utf8(out.stderr).expect("UTF-8 errors");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(out.stdout.is_empty(), "{args:?}: nothing on stdout");
    err
}

/// A fresh empty directory for this test process, `name` under the
/// target directory's space for tests.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// `gamesolve args…` with `script` on its standard input, to the end.
/// The input is written from a thread while the output is read (neither
/// pipe fills and stops the other), and a program that ends before it has
/// read all its input (a game over before the script is) is no fault.
pub fn with_input(args: &[&str], script: &str) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("piped");
    let script = script.to_string();
    let writer = std::thread::spawn(move || match stdin.write_all(script.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        r => r,
    });
    let out = child.wait_with_output().expect("the binary ends");
    writer
        .join()
        .expect("the writer ends")
        .expect("the binary reads its input");
    out
}

/// [`with_input`] that must succeed: its standard output.
pub fn script(args: &[&str], script: &str) -> String {
    let out = with_input(args, script);
    assert!(
        out.status.success(),
        "{args:?} {script:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// `gamesolve args…` with its standard output and error on a pseudo-terminal
/// (util-linux's `script`), as a user at a terminal runs it: each line it
/// drew (a progress bar's redraws split at their carriage returns, its
/// terminal codes taken out, trailing blanks trimmed), once each in turn.
pub fn on_a_terminal(args: &[&str]) -> Vec<String> {
    let quoted: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_gamesolve"))
        .chain(args.iter().copied())
        .map(|a| format!("'{}'", a.replace('\'', r"'\''")))
        .collect();
    let out = Command::new("script")
        .args(["-qec", &quoted.join(" "), "/dev/null"])
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::null())
        .output()
        .expect("util-linux's `script` runs (it gives the command a terminal)");
    assert!(out.status.success(), "{args:?} on a terminal: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines: Vec<String> = Vec::new();
    for line in text.split(['\r', '\n']) {
        // Terminal codes: ESC [ parameters, then one letter.
        let mut plain = String::new();
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                for d in chars.by_ref() {
                    if d.is_ascii_alphabetic() {
                        break;
                    }
                }
            } else {
                plain.push(c);
            }
        }
        let plain = plain.trim_end().to_string();
        if !plain.is_empty() && lines.last() != Some(&plain) {
            lines.push(plain);
        }
    }
    lines
}

/// The grouped number (`1,234,567`) just before `word` in `line`, if any.
pub fn number_before(line: &str, word: &str) -> Option<u64> {
    let head = line[..line.find(word)?].trim_end();
    let digits: String = head
        .chars()
        .rev()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(|c| *c != ',')
        .collect();
    digits.chars().rev().collect::<String>().parse().ok()
}
