//! What every subcommand shares: reading a panel with its notes, progress bars, cost
//! warnings and one-line notes on stderr.

use std::io::{self, Write};
use std::path::Path;

use super::output;
use crate::cli::PanelArgs;
use crate::data::{self, LoadOptions, Loaded};
use crate::error::Error;

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
pub fn identified(path: &std::path::Path, panel: &crate::panel::Panel) -> Result<(), Error> {
    crate::battery::decision::refusal(panel).map_or(Ok(()), |reason| {
        Err(Error::NotIdentified {
            path: path.to_path_buf(),
            reason,
        })
    })
}

/// A progress bar on stderr; hidden when `show` is false or stderr is not a terminal
/// (indicatif checks the latter itself).
pub fn progress_bar(len: u64, show: bool) -> indicatif::ProgressBar {
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
pub fn output_target(path: Option<&Path>, force: bool) -> Result<output::Target, Error> {
    path.map_or(Ok(output::Target::Stdout), |p| output::target(p, force))
}

/// One line on stderr; a stderr that cannot be written is no reason to fail the command.
pub fn note(line: &str) {
    let _ = writeln!(io::stderr(), "rhoscope: {line}");
}

/// Says on stderr, before it starts, that a computation will take more than
/// [`crate::cost::WARN_SECONDS`] (one line; the estimate comes from the panel's shape).
pub fn warn_cost(seconds: f64, what: &str) {
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
