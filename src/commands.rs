//! Runs each subcommand: core calls in, text or JSON out (through [`crate::report`]).

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
mod shared;
mod simulate;
mod stages;
mod validate;

use crate::cli::{Cli, Command};
use crate::data;
use crate::error::Error;
pub use output::{write_json, write_stdout};
pub use shared::{load_options, load_panel};

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
