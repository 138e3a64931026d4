//! Runs each subcommand: core calls in, text or JSON out (through [`crate::report`]).

use clap::CommandFactory;

mod battery;
pub mod console;
mod estimate;
mod explore;
mod export;
mod identify;
mod inputs;
mod output;
mod plan;
mod plot;
mod power;
mod reproduce;
mod shared;
mod simulate;
mod stages;
mod temps;
pub mod threads;
mod validate;

use crate::cli::{Cli, Command};
use crate::error::Error;
pub use console::{Console, Meter, Output, Rendered, Steps};
#[cfg(test)]
pub(crate) use export::unreadable as export_unreadable;
pub(crate) use output::stdout_closed;
pub use output::{
    guard_standard_streams, install_panic_line, install_signal_cleanup, write_json, write_stdout,
};
pub use shared::{collecting, load_panel};

/// Runs a parsed command line.
///
/// # Errors
/// Any [`Error`], to be printed by `main` with its exit code.
pub fn run(cli: Cli) -> Result<(), Error> {
    threads::start_global(cli.threads)?;
    match cli.command {
        // The explorer's own flag before its subcommand counts as after it.
        Some(Command::Explore(mut a)) => {
            a.no_mouse |= cli.no_mouse;
            dispatch(Command::Explore(a))
        }
        Some(Command::Demo(mut a)) => {
            a.no_mouse |= cli.no_mouse;
            dispatch(Command::Demo(a))
        }
        Some(_) if cli.no_mouse => Err(Error::Usage(
            "--no-mouse is the explorer's: give it to `rhoscope`, `rhoscope explore` or `rhoscope demo`"
                .into(),
        )),
        Some(command) => dispatch(command),
        None => explore::explore(
            None,
            &crate::cli::PanelOptions::default(),
            !cli.no_mouse,
            None,
        ),
    }
}

/// Runs a subcommand on the current rayon pool (the caller has chosen its threads).
///
/// # Errors
/// Any [`Error`], to be printed by `main` with its exit code.
pub fn dispatch(command: Command) -> Result<(), Error> {
    match command {
        Command::Simulate(a) => simulate::simulate_cmd(&a),
        Command::Export(a) => export::export_cmd(&a),
        Command::Plot(a) => plot::plot_cmd(&a),
        Command::Reproduce(a) => reproduce::reproduce_cmd(&a),
        Command::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "rhoscope", &mut out);
            write_stdout(&out)
        }
        Command::Explore(a) => explore::explore(a.panel.as_deref(), &a.opts, !a.no_mouse, None),
        Command::Demo(a) => explore::demo(a.hanna.clone(), !a.no_mouse, usize::from(a.scene) - 1),
        reporting => report(&reporting, &mut shared::Terminal)
            .unwrap_or_else(|| Err(Error::Usage("no such subcommand".into())))
            .and_then(shared::print),
    }
}

/// Runs a reporting subcommand (`estimate`, `battery`, `identify`, `validate`, `power`,
/// `plan`) on `console`; `None` for any other subcommand.
pub fn report(command: &Command, console: &mut dyn Console) -> Option<Result<Output, Error>> {
    Some(match command {
        Command::Estimate(a) => console
            .load(&a.panel, 2)
            .and_then(|l| with_load_notes(estimate::report(a, &l, console), &l)),
        Command::Battery(a) => console
            .load(&a.panel, 0)
            .and_then(|l| with_load_notes(battery::report(a, &l, console), &l)),
        Command::Identify(a) => identify::panel_args(a).and_then(|args| match args {
            Some(p) => console
                .load(&p, 1)
                .and_then(|l| with_load_notes(identify::report(a, Some((&p, &l)), console), &l)),
            None => identify::report(a, None, console),
        }),
        Command::Validate(a) => validate::options(a).and_then(|opts| {
            let l = console.load(&a.panel, 0)?;
            with_load_notes(validate::report(a, opts, &l, console), &l)
        }),
        Command::Power(a) => power::report(a, console),
        Command::Plan(a) => plan::report(a, console),
        _ => return None,
    })
}

/// The loader's notes (identical judges, a number read as a name, a families file adopted, a
/// column that takes no role) put first in a JSON document's `notes`, as stderr gives them:
/// a pipeline reading `--json` (or the Python API) learns them too. Marked, so each front end
/// words their settings.
fn with_load_notes(out: Result<Output, Error>, l: &crate::data::Loaded) -> Result<Output, Error> {
    out.map(|mut o| {
        if let Rendered::Json(doc) = &mut o.rendered
            && let Some(list) = doc.get_mut("notes").and_then(|n| n.as_array_mut())
        {
            let load = l
                .notes
                .iter()
                .chain(&l.drop_note)
                .map(|n| serde_json::Value::String(n.marked()));
            let rest = std::mem::take(list);
            list.extend(load.chain(rest));
        }
        o
    })
}

/// Asks a reporting subcommand for its `--json` document (the API's results are documents).
pub fn imply_json(command: &mut Command) {
    match command {
        Command::Estimate(a) => a.json = true,
        Command::Battery(a) => a.json = true,
        Command::Identify(a) => a.json = true,
        Command::Validate(a) => a.json = true,
        Command::Power(a) => a.json = true,
        Command::Plan(a) => a.json = true,
        _ => {}
    }
}
