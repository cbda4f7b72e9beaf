//! The `gamesolve` command: verdicts, tables and proofs from the terminal.

mod cmd;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match cmd::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = e.print();
                return if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    ExitCode::from(2)
                } else {
                    ExitCode::SUCCESS
                };
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
