//! rhoscope's entry point: parse, dispatch, and print any error after the terminal is
//! restored, with its exit code. Nothing else lives here.

use std::io::Write as _;
use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use rhoscope::cli::Cli;
use rhoscope::error::sanitize;

fn main() -> ExitCode {
    let cli = match Cli::try_parse_from(with_explore_for_a_file(std::env::args_os().collect())) {
        Ok(cli) => cli,
        Err(e) => {
            let code = u8::try_from(e.exit_code()).unwrap_or(2);
            match e.kind() {
                ErrorKind::DisplayHelp
                | ErrorKind::DisplayVersion
                | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    // Help goes to stdout (stderr when shown for a missing subcommand); a
                    // failed write of it is a failed command (EX_IOERR), as for any output.
                    let written = e.print().and_then(|()| {
                        std::io::stdout().flush()?;
                        std::io::stderr().flush()
                    });
                    if let Err(w) = written
                        && w.kind() != std::io::ErrorKind::BrokenPipe
                    {
                        let _ = writeln!(std::io::stderr(), "rhoscope: cannot write output: {w}");
                        return ExitCode::from(74); // EX_IOERR, as rhoscope::error::EXIT_IO
                    }
                }
                _ => {
                    let _ = writeln!(std::io::stderr(), "{}", usage_line(&e));
                }
            }
            return ExitCode::from(code);
        }
    };
    match rhoscope::commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "rhoscope: {e}");
            ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(1))
        }
    }
}

/// `rhoscope FILE` is `rhoscope explore FILE`: a first argument that is no subcommand and no
/// flag but an existing path opens the explorer on it.
fn with_explore_for_a_file(mut args: Vec<std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    let opens_a_file = args.get(1).is_some_and(|a| {
        let is_sub = a.to_str().is_some_and(|s| {
            s.starts_with('-') || Cli::command().get_subcommands().any(|c| c.get_name() == s)
        });
        !is_sub && std::path::Path::new(a).exists()
    });
    if opens_a_file {
        args.insert(1, "explore".into());
    }
    args
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
