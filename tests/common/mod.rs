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

/// `gamesolve args…` with `script` on its standard input, to the end.
pub fn with_input(args: &[&str], script: &str) -> Output {
    let mut child = bin()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("piped")
        .write_all(script.as_bytes())
        .expect("the binary reads its input");
    child.wait_with_output().expect("the binary ends")
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
