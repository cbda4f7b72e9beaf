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
    let cli = match cmd::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
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
                eprintln!(
                    "gamesolve: `{path}` needs a command, one of: {}; see `{path} --help`",
                    names.join(", ")
                );
                return ExitCode::from(2);
            }
            // One line: clap's first line and the indented names under it
            // (the missing arguments), without the usage block.
            let msg = e.render().to_string();
            let mut lines = msg.lines();
            let mut line = lines.next().unwrap_or("error: bad arguments").to_string();
            for more in lines.take_while(|l| l.starts_with("  ")) {
                line.push(' ');
                line.push_str(more.trim());
            }
            eprintln!("gamesolve: {}", line.trim_start_matches("error: "));
            return ExitCode::from(2);
        }
    };
    match cmd::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gamesolve: {e}");
            ExitCode::FAILURE
        }
    }
}
