//! The `rhoscope` command, run by the binary's `main` and in-process by the Python package's
//! console script, so both are the library and say the same.

use std::ffi::OsString;
use std::io::Write as _;

use clap::CommandFactory;
use clap::error::ErrorKind;

use crate::cli::Cli;
use crate::error::{Error, sanitize};

/// Runs the command line `args` (the program name first) as the `rhoscope` binary does:
/// output on stdout, errors on stderr, and the binary's exit code returned.
#[must_use]
pub fn run_cli(args: Vec<OsString>) -> i32 {
    crate::commands::guard_standard_streams();
    let args = with_explore_for_a_file(args);
    if let Some(path) = missing_file(&args) {
        let _ = writeln!(
            std::io::stderr(),
            "rhoscope: error: {path}: no such file (rhoscope FILE opens the explorer on a file that exists; rhoscope --help lists the commands)"
        );
        return crate::error::EXIT_NO_INPUT;
    }
    let typed = typed_command(&args);
    if let Err(e) = crate::cli::once_each_global(&args) {
        let _ = writeln!(
            std::io::stderr(),
            "rhoscope: error: {e} (see {typed} --help)"
        );
        return crate::error::EXIT_USAGE;
    }
    let cli = match crate::cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e, &typed),
    };
    match crate::commands::run(cli) {
        Ok(()) => 0,
        Err(e) => {
            let _ = writeln!(
                std::io::stderr(),
                "rhoscope: {}",
                e.worded(&crate::cli::Flags)
            );
            e.exit_code()
        }
    }
}

/// Parses a command line as the CLI does; a clap refusal is a usage error with its one-line
/// message (help and version requests too).
pub(crate) fn parse(args: Vec<OsString>) -> Result<Cli, Error> {
    let typed = typed_command(&args);
    crate::cli::once_each_global(&args).map_err(|e| Error::Usage(e.into()))?;
    crate::cli::try_parse_from(args).map_err(|e| match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            Error::Usage(e.render().to_string().trim_end().to_string().into())
        }
        _ => Error::Usage(
            usage_line(&e, &typed)
                .trim_start_matches("rhoscope: ")
                .to_string()
                .into(),
        ),
    })
}

/// Prints clap's help, version or one-line error and returns its exit code.
fn clap_exit(e: &clap::Error, typed: &str) -> i32 {
    let code = e.exit_code();
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            // clap prints help and version through std's stdout, which calls a write to a
            // closed descriptor done.
            let closed = match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    crate::commands::stdout_closed()
                }
                _ => None,
            };
            let written = closed.map_or_else(|| e.print(), Err).and_then(|()| {
                std::io::stdout().flush()?;
                std::io::stderr().flush()
            });
            if let Err(w) = written
                && w.kind() != std::io::ErrorKind::BrokenPipe
            {
                let _ = writeln!(std::io::stderr(), "rhoscope: cannot write output: {w}");
                return crate::error::EXIT_IO;
            }
        }
        _ => {
            let _ = writeln!(std::io::stderr(), "{}", usage_line(e, typed));
        }
    }
    code
}

/// `rhoscope FILE` is `rhoscope explore FILE`: a first argument that is no subcommand and no
/// flag but an existing path opens the explorer on it.
fn with_explore_for_a_file(mut args: Vec<OsString>) -> Vec<OsString> {
    // The explorer's `--no-mouse` may come first: `rhoscope --no-mouse FILE`.
    let at = if args.get(1).is_some_and(|a| a == "--no-mouse") {
        2
    } else {
        1
    };
    let opens_a_file = args.get(at).is_some_and(|a| {
        let is_sub = a.to_str().is_some_and(|s| {
            s.starts_with('-') || Cli::command().get_subcommands().any(|c| c.get_name() == s)
        });
        !is_sub && std::path::Path::new(a).exists()
    });
    if opens_a_file {
        args.insert(at, "explore".into());
    }
    args
}

/// The first argument when it is neither a subcommand nor a flag but reads as a file name
/// (a folder or an extension in it) that does not exist: `rhoscope FILE` with a typo.
fn missing_file(args: &[OsString]) -> Option<String> {
    let a = args.get(1)?.to_str()?;
    let is_sub = a.starts_with('-') || Cli::command().get_subcommands().any(|c| c.get_name() == a);
    let looks_like_a_file =
        a.contains(['/', '\\']) || std::path::Path::new(a).extension().is_some();
    (!is_sub && looks_like_a_file && !std::path::Path::new(a).exists()).then(|| sanitize(a))
}

/// A clap usage error as one self-sufficient line: clap's first paragraph joined, with the
/// subcommand to ask for help.
fn usage_line(e: &clap::Error, typed: &str) -> String {
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
        .unwrap_or_else(|| typed.to_string());
    sanitize(&format!("rhoscope: error: {msg} (see {command} --help)"))
}

/// `rhoscope SUB` when the command line names a subcommand, else `rhoscope`.
fn typed_command(args: &[OsString]) -> String {
    let cmd = Cli::command();
    args.iter()
        .skip(1)
        .filter_map(|a| a.to_str())
        .find_map(|a| {
            cmd.get_subcommands()
                .find(|s| s.get_name() == a)
                .map(|s| format!("rhoscope {}", s.get_name()))
        })
        .unwrap_or_else(|| "rhoscope".into())
}
