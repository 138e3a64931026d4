//! rhoscope's entry point: parse, dispatch, and print any error after the terminal is
//! restored, with its exit code. Nothing else lives here.

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use rhoscope::cli::Cli;
use rhoscope::error::sanitize;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = u8::try_from(e.exit_code()).unwrap_or(2);
            match e.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    let _ = e.print();
                }
                _ => eprintln!("{}", usage_line(&e)),
            }
            return ExitCode::from(code);
        }
    };
    match rhoscope::commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rhoscope: {e}");
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(1))
        }
    }
}

/// A clap usage error as one self-sufficient line (the README promises one line per error):
/// `rhoscope: error: unexpected argument '--foo' found (see rhoscope estimate --help)`. The
/// text is clap's first paragraph with its lines joined; arguments the user typed pass through
/// [`sanitize`].
fn usage_line(e: &clap::Error) -> String {
    let text = e.render().to_string();
    let first = text.split("\n\n").next().unwrap_or_default();
    let joined = first
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let msg = joined.strip_prefix("error: ").unwrap_or(&joined);
    let command = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Usage: "))
        .map(|usage| {
            usage
                .split_whitespace()
                .take_while(|t| !t.starts_with(['[', '<', '-']))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|c| !c.is_empty())
        .unwrap_or_else(typed_command);
    sanitize(&format!("rhoscope: error: {msg} (see {command} --help)"))
}

/// `rhoscope SUB` when the command line names a subcommand, else `rhoscope` (for errors whose
/// rendering carries no usage line).
fn typed_command() -> String {
    let cmd = Cli::command();
    std::env::args()
        .skip(1)
        .find_map(|a| {
            cmd.get_subcommands()
                .find(|s| s.get_name() == a)
                .map(|s| format!("rhoscope {}", s.get_name()))
        })
        .unwrap_or_else(|| "rhoscope".into())
}
