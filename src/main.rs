//! rhoscope's entry point: the command line as the library runs it ([`rhoscope::api::run_cli`]),
//! with its exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    // A signal while a file is written removes its temporary file (exit 128 + signal).
    let _ = rhoscope::commands::install_signal_cleanup();
    // A panic (a thread the OS refused, or a bug) is one line and exit 71 or 70.
    rhoscope::commands::install_panic_line();
    let code = rhoscope::api::run_cli(std::env::args_os().collect());
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}
