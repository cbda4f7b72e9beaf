//! The `gamesolve` command: verdicts, tables and proofs from the terminal.

mod cmd;

use std::process::ExitCode;

use clap::Parser;

/// The binary's allocator: mimalloc. Its per-thread heaps reuse the pages
/// they have touched and take fresh memory in large segments (huge pages
/// where the kernel allows), where the system allocator grew the solver's
/// level lists and its threads' post boxes by `realloc` into fresh 4 KiB
/// pages, a page fault each: a fresh `fingers solve --fingers 128
/// --no-certify` on two threads took ~20,000 page faults with it and
/// ~800 with mimalloc, and its solve 93–101 ms instead of 100–168 ms
/// (BENCHMARKS.md). Only the binary chooses: the libraries leave the
/// allocator to whoever links them (`--no-default-features` builds the
/// binary with the system's).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    #[cfg(all(feature = "mimalloc", target_os = "linux"))]
    small_arenas_under_a_limit();
    let cli = match cmd::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                return help(&e);
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                // One line: which command needs a subcommand, and the choices.
                use clap::CommandFactory;
                let mut cmd = cmd::Cli::command();
                let mut path = vec!["gamesolve".to_string()];
                for a in std::env::args().skip(1) {
                    if let Some(sub) = cmd.find_subcommand(&a).cloned() {
                        path.push(a);
                        cmd = sub;
                    }
                }
                let names: Vec<&str> = cmd
                    .get_subcommands()
                    .map(clap::Command::get_name)
                    .filter(|&n| n != "help")
                    .collect();
                let path = path.join(" ");
                return fail(
                    &format!(
                        "`{path}` needs a command, one of: {}; see `{path} --help`",
                        names.join(", ")
                    ),
                    ExitCode::from(2),
                );
            }
            if let Some(word) = negative_number(&e) {
                return fail(
                    &format!("'{word}' is negative: every number gamesolve takes is 0 or more"),
                    ExitCode::from(2),
                );
            }
            // One line: clap's first line and the indented names under it
            // (the missing arguments), without the usage block.
            // Control characters and long values of the command line
            // escaped and cut first: a newline in a value would end the
            // line here.
            let msg = cut_echoes(&e.render().to_string());
            let mut lines = msg.lines();
            let mut line = lines.next().unwrap_or("error: bad arguments").to_string();
            for more in lines.take_while(|l| l.starts_with("  ")) {
                line.push(' ');
                line.push_str(more.trim());
            }
            return fail(line.trim_start_matches("error: "), ExitCode::from(2));
        }
    };
    match cmd::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e.to_string(), ExitCode::FAILURE),
    }
}

/// The environment variable that sets mimalloc's arena size.
#[cfg(all(feature = "mimalloc", target_os = "linux"))]
const ARENA_RESERVE: &str = "MIMALLOC_ARENA_RESERVE";

/// Under an address-space limit (`ulimit -v`) of less than 8 GiB, runs
/// this program again with mimalloc's arenas an eighth of the limit (at
/// least 32 MiB): mimalloc reserves 1 GiB of address space at a time,
/// and when that does not fit, 128 MiB, whatever the limit. Under
/// `ulimit -v 150000` (KB) that arena took all but 2.6 MiB of the space
/// and could not serve a 1.7 MiB table (issue 46: a Connect Four 5×4
/// solve ran under 140,000 and 160,000 KB, and was refused between).
/// Done once: the variable set (by this or by the user) is left alone,
/// and a program that cannot be run again carries on as it is.
#[cfg(all(feature = "mimalloc", target_os = "linux"))]
fn small_arenas_under_a_limit() {
    use std::os::unix::process::CommandExt;
    if std::env::var_os(ARENA_RESERVE).is_some() {
        return;
    }
    let Some(limit) = game_core::budget::address_space_limit_now() else {
        return;
    };
    if limit >= 8 << 30 {
        return;
    }
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let kib = (limit / 8).clamp(32 << 20, 1 << 30) >> 10;
    let mut args = std::env::args_os();
    let mut again = std::process::Command::new(exe);
    if let Some(name) = args.next() {
        again.arg0(name);
    }
    // Returns only if the program could not be run again.
    let _ = again
        .args(args)
        .env(ARENA_RESERVE, format!("{kib}KiB"))
        .exec();
}

/// The word typed, if clap refused it as an unknown flag but it is a
/// negative number ("-1", or "-1,1" for the "-1" clap names): clap said
/// only "unexpected argument '-1' found".
fn negative_number(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(flag)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    let negative = |w: &str| {
        w.strip_prefix('-')
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
    };
    if !negative(flag) {
        return None;
    }
    std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .map(|a| a.to_string_lossy().into_owned())
        .find(|a| a.starts_with(flag.as_str()))
}

/// Prints `--help` or `--version` on stdout: clap's text, or under
/// `--json` the one object `{"help": TEXT}` or `{"version": TEXT}`.
/// A stdout that cannot take it is a failure (exit 1), said on stderr.
fn help(e: &clap::Error) -> ExitCode {
    use std::io::Write;
    let text = e.render().to_string();
    let mut out = std::io::stdout().lock();
    let written = if json_asked() {
        let key = match e.kind() {
            clap::error::ErrorKind::DisplayVersion => "version",
            _ => "help",
        };
        let text = text.trim_end();
        writeln!(out, "{}", serde_json::json!({ key: text }))
    } else {
        write!(out, "{text}")
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stopped early (`| head`) is not an error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(&format!("cannot write output: {e}"), ExitCode::FAILURE),
    }
}

/// Prints the one line of an error on stderr and exits with `code`: with
/// `--json`, the JSON object `{"error": MESSAGE}` (it printed the text
/// line under `--json` too), else `gamesolve: MESSAGE` with its control
/// characters escaped (a path holding a newline printed three lines).
/// A stderr that cannot be written (`2>/dev/full`) leaves the exit code
/// to say it: `eprintln!` panicked there, and exited 101.
fn fail(message: &str, code: ExitCode) -> ExitCode {
    use std::io::Write;
    let message = cut_echoes(message);
    let mut err = std::io::stderr().lock();
    let _ = if json_asked() {
        writeln!(err, "{}", serde_json::json!({ "error": message }))
    } else {
        writeln!(err, "gamesolve: {}", game_core::escape_controls(&message))
    };
    code
}

/// Whether the command line asks for `--json` (read from the arguments
/// themselves, so that a line clap refuses is answered in JSON as well):
/// `--json` anywhere before a `--`.
fn json_asked() -> bool {
    std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

/// `line` with every long argument of the command line in it (or the
/// value of a long `--flag=value`) cut by [`game_core::echo`]: clap's
/// messages repeat a bad value whole, and so did a database's path, so
/// that a 100 KB argument came back as 100 KB of error. An argument
/// holding a control character (a newline in a path) is escaped as well
/// ([`game_core::escape_controls`]).
fn cut_echoes(line: &str) -> String {
    let mut long: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .flat_map(|a| {
            let value = a.split_once('=').map(|(_, v)| v.to_string());
            std::iter::once(a).chain(value)
        })
        .filter(|a| a.chars().nth(game_core::ECHO_CHARS).is_some() || a.contains(char::is_control))
        .collect();
    // The longest first: an argument's value is part of the argument.
    long.sort_by_key(|a| std::cmp::Reverse(a.len()));
    let mut line = line.to_string();
    for a in &long {
        if line.contains(a.as_str()) {
            let cut = game_core::echo(a);
            line = line.replace(a.as_str(), &game_core::escape_controls(&cut));
        }
    }
    line
}
