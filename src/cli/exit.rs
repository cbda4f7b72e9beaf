//! The program around a command line: parsing it, running it, and one
//! line on stderr and an exit code for whatever is refused (the
//! `gamesolve` binary's, and a user's game's through
//! [`main_for`](super::main_for)).

use std::process::ExitCode;

use super::Error;

/// Parses the command line by the command `command` makes, runs `run` on
/// it, and returns the exit code: 0, 2 for a command line refused, 1 for a
/// command that failed; every refusal one line on stderr ([`fail`]). The
/// command is made again only to name a missing subcommand's choices (it
/// is not kept while `run` runs: memory may be short, as under `ulimit -v`).
pub fn main_with(
    command: impl Fn() -> clap::Command,
    run: impl FnOnce(clap::ArgMatches) -> Result<(), Error>,
) -> ExitCode {
    let parser = command();
    let name = parser.get_name().to_string();
    let fail = |message: &str, code| fail(&name, message, code);
    let matches = match parser.try_get_matches() {
        Ok(matches) => matches,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                return help(&name, &e);
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                // One line: which command needs a subcommand, and the choices.
                let mut cmd = command();
                let mut path = vec![name.clone()];
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
            if let Some(similar) = suggestion(&e) {
                line.push_str(&similar);
            }
            return fail(line.trim_start_matches("error: "), ExitCode::from(2));
        }
    };
    match run(matches) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e.to_string(), ExitCode::FAILURE),
    }
}

/// What clap suggests for a mistyped command or flag, as the end of the
/// one line: "; did you mean `connect4`?" (clap's tip is on a line of its
/// own, which the one-line error dropped, so `gamesolve conect4` got no
/// word of `connect4`).
fn suggestion(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    let names = [ContextKind::SuggestedSubcommand, ContextKind::SuggestedArg]
        .into_iter()
        .find_map(|kind| match e.get(kind)? {
            ContextValue::String(s) => Some(vec![s.clone()]),
            ContextValue::Strings(v) if !v.is_empty() => Some(v.clone()),
            _ => None,
        })?;
    let names: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    Some(format!("; did you mean {}?", names.join(" or ")))
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
fn help(program: &str, e: &clap::Error) -> ExitCode {
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
        Err(e) => fail(
            program,
            &format!("cannot write output: {e}"),
            ExitCode::FAILURE,
        ),
    }
}

/// Prints the one line of an error on stderr and exits with `code`: with
/// `--json`, the JSON object `{"error": MESSAGE}` (it printed the text
/// line under `--json` too), else `PROGRAM: MESSAGE` with its control
/// characters escaped (a path holding a newline printed three lines).
/// A stderr that cannot be written (`2>/dev/full`) leaves the exit code
/// to say it: `eprintln!` panicked there, and exited 101.
fn fail(program: &str, message: &str, code: ExitCode) -> ExitCode {
    use std::io::Write;
    let message = cut_echoes(message);
    let mut err = std::io::stderr().lock();
    let _ = if json_asked() {
        writeln!(err, "{}", serde_json::json!({ "error": message }))
    } else {
        writeln!(err, "{program}: {}", game_core::escape_controls(&message))
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
