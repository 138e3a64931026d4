//! Runs each subcommand: core calls in, text or JSON out (through [`crate::report`]).

use std::io::{self, Write};
use std::path::Path;

use output::output_error;

use clap::CommandFactory;

mod battery;
mod estimate;
mod explore;
mod export;
mod identify;
mod output;
mod plan;
mod plot;
mod power;
mod reproduce;
mod simulate;
mod stages;
mod validate;

use crate::cli::{Cli, Command, PanelArgs};
use crate::data::{self, LoadOptions, Loaded};
use crate::error::Error;

/// Runs a parsed command line.
///
/// # Errors
/// Any [`Error`], to be printed by `main` with its exit code.
pub fn run(cli: Cli) -> Result<(), Error> {
    if let Some(t) = cli.threads {
        start_thread_pool(usize::from(t), "--threads")?;
    } else if let Some(t) = env_threads() {
        start_thread_pool(t, "RAYON_NUM_THREADS=")?;
    }
    match cli.command {
        Some(Command::Estimate(a)) => estimate::estimate(&a),
        Some(Command::Simulate(a)) => simulate::simulate_cmd(&a),
        Some(Command::Export(a)) => export::export_cmd(&a),
        Some(Command::Plan(a)) => plan::plan_cmd(&a),
        Some(Command::Plot(a)) => plot::plot_cmd(&a),
        Some(Command::Battery(a)) => battery::battery_cmd(&a),
        Some(Command::Identify(a)) => identify::identify_cmd(&a),
        Some(Command::Power(a)) => power::power_cmd(&a),
        Some(Command::Validate(a)) => validate::validate_cmd(&a),
        Some(Command::Reproduce(a)) => reproduce::reproduce_cmd(&a),
        Some(Command::Completions { shell }) => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "rhoscope", &mut out);
            write_stdout(&out)
        }
        Some(Command::Explore(a)) => {
            explore::explore(a.panel.as_deref(), &a.opts, !a.no_mouse, None)
        }
        Some(Command::Demo(a)) => {
            explore::demo(a.hanna.clone(), !a.no_mouse, usize::from(a.scene) - 1)
        }
        None => explore::explore(None, &crate::cli::PanelOptions::default(), true, None),
    }
}

/// The loader options of a panel's flags.
#[must_use]
pub fn load_options(a: &crate::cli::PanelOptions, min_anchors: usize) -> LoadOptions {
    LoadOptions {
        judges: a.judges.clone(),
        anchors: a.anchors.clone(),
        id: a.id.clone(),
        long: a.long.clone(),
        families: a.families.clone(),
        continuous: a.continuous.clone(),
        min_anchors,
    }
}

/// Loads a panel and notes dropped items on stderr (one line).
///
/// # Errors
/// Any load error.
pub fn load_panel(a: &PanelArgs, min_anchors: usize) -> Result<Loaded, Error> {
    let loaded = data::load(&a.panel, &load_options(&a.opts, min_anchors))?;
    print_notes(&loaded);
    if let Some(at) = &loaded.first_dropped {
        let e = Error::data_at(
            &a.panel,
            at.clone(),
            format!(
                "note: {} of {} items dropped for missing values (first here)",
                loaded.panel.n_dropped,
                loaded.panel.n + loaded.panel.n_dropped
            ),
        );
        note(&e.to_string());
    }
    Ok(loaded)
}

/// Refuses a panel on which ρ is not identified (Section 7's ordinal hierarchy).
pub(super) fn identified(path: &std::path::Path, panel: &crate::panel::Panel) -> Result<(), Error> {
    crate::decision::refusal(panel).map_or(Ok(()), |reason| {
        Err(Error::NotIdentified {
            path: path.to_path_buf(),
            reason,
        })
    })
}

/// A progress bar on stderr; hidden when `show` is false or stderr is not a terminal
/// (indicatif checks the latter itself).
pub(super) fn progress_bar(len: u64, show: bool) -> indicatif::ProgressBar {
    if !show {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(len);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {bar:40} {percent:>3}% {elapsed_precise} (eta {eta})",
    ) {
        bar.set_style(style);
    }
    bar
}

/// The checked target of an optional `-o FILE` (standard output without one).
pub(super) fn output_target(path: Option<&Path>, force: bool) -> Result<output::Target, Error> {
    path.map_or(Ok(output::Target::Stdout), |p| output::target(p, force))
}

/// One line on stderr; a stderr that cannot be written is no reason to fail the command.
pub(crate) fn note(line: &str) {
    let _ = writeln!(io::stderr(), "rhoscope: {line}");
}

/// Writes pretty JSON and a newline to stdout.
///
/// # Panics
/// Never: a `serde_json::Value` always serialises.
///
/// # Errors
/// A write failure other than a closed pipe.
pub fn write_json(v: &serde_json::Value) -> Result<(), Error> {
    let mut s = serde_json::to_string_pretty(v).expect("JSON values always serialise");
    s.push('\n');
    write_stdout(s.as_bytes())
}

/// Writes to stdout; a closed pipe (`rhoscope … | head`) is not an error.
///
/// # Errors
/// Any other write failure.
pub fn write_stdout(bytes: &[u8]) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(output_error(None, &e)),
        _ => Ok(()),
    }
}

/// Says on stderr, before it starts, that a computation will take more than
/// [`crate::cost::WARN_SECONDS`] (one line; the estimate comes from the panel's shape).
pub(super) fn warn_cost(seconds: f64, what: &str) {
    if let Some(w) = crate::cost::warning(seconds, what) {
        note(&w);
    }
}

/// Prints the loader's one-line notes (sidecar adopted, identical judges) on stderr.
fn print_notes(loaded: &Loaded) {
    for line in &loaded.notes {
        note(line);
    }
}

/// A positive `RAYON_NUM_THREADS`, which rayon would otherwise honour unchecked.
fn env_threads() -> Option<usize> {
    std::env::var("RAYON_NUM_THREADS")
        .ok()?
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|t| *t > 0)
}

/// Builds the global rayon pool with `threads` workers (from `source`: the flag or the
/// environment), refusing counts above [`data::limits::max_threads`] (usage error) and
/// reporting a pool the OS will not start (instead of a later panic in the first parallel
/// call).
fn start_thread_pool(threads: usize, source: &str) -> Result<(), Error> {
    let max = data::limits::max_threads();
    if threads > max {
        let sep = if source.ends_with('=') { "" } else { " " };
        return Err(Error::Usage(format!(
            "{source}{sep}{threads}: at most {max} threads on this machine ({} per core, never above {})",
            data::limits::THREADS_PER_CORE,
            data::limits::MAX_THREADS
        )));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global()
        .map_err(|e| Error::System(format!("cannot start {threads} worker threads: {e}")))
}
