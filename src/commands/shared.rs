//! What every subcommand shares: reading a panel with its notes, progress bars, cost
//! warnings and one-line notes on stderr.

use std::io::{self, Write};
use std::path::Path;

use super::console::{Console, Meter, Output, Rendered, Steps};
use super::output;
use super::stages::StageBars;
use crate::cli::{Flags, PanelArgs};
use crate::data::{self, Loaded};
use crate::error::Error;
use crate::progress::{Flow, Progress};
use crate::wording::{reword, reword_json};

/// Loads a panel and notes dropped items on stderr (one line).
///
/// # Errors
/// Any load error.
pub fn load_panel(a: &PanelArgs, min_anchors: usize) -> Result<Loaded, Error> {
    if a.panel.as_os_str() == "-" && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        note("note: reading the panel from the terminal: type or paste it, then press Ctrl-D");
    }
    let loaded = data::load(&a.panel, &a.opts.request(min_anchors)?)?;
    print_notes(&loaded);
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
    output::bar_drawn(true);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{spinner} {bar:40} {percent:>3}% {elapsed_precise} (eta {eta})",
    ) {
        bar.set_style(style);
    }
    bar
}

/// The checked target of an optional `-o FILE` (standard output without one), never one of
/// the command's `inputs`.
pub fn output_target(
    path: Option<&Path>,
    force: bool,
    inputs: &[&Path],
) -> Result<output::Target, Error> {
    path.map_or(Ok(output::Target::Stdout), |p| {
        output::target_apart(p, force, inputs)
    })
}

thread_local! {
    /// The notes of a call that collects them (the Python package's file-writing calls):
    /// the process's stderr is shared by every thread, so it is not theirs to print on.
    static COLLECTED: std::cell::RefCell<Option<Vec<String>>> = const { std::cell::RefCell::new(None) };
}

/// One line on stderr, or into the notes this thread collects; a stderr that cannot be
/// written is no reason to fail the command.
pub fn note(line: &str) {
    let kept = COLLECTED.with_borrow_mut(|c| c.as_mut().map(|v| v.push(line.to_string())));
    if kept.is_none() {
        let _ = writeln!(io::stderr(), "rhoscope: {line}");
    }
}

/// Runs `work` with the notes it says on this thread collected instead of printed.
#[must_use]
pub fn collecting<T>(work: impl FnOnce() -> T) -> (T, Vec<String>) {
    let before = COLLECTED.replace(Some(Vec::new()));
    let out = work();
    (out, COLLECTED.replace(before).unwrap_or_default())
}

/// Says through the console, before it starts, that a computation will take more than
/// [`crate::cost::WARN_SECONDS`] (one line; the estimate comes from the panel's shape).
pub(super) fn warn_cost(console: &mut dyn Console, seconds: f64, what: &str) {
    if let Some(w) = crate::cost::warning(seconds, what) {
        console.note(&w);
    }
}

/// Refuses, before the cost note and before anything is drawn, a study whose largest
/// simulated panel (`n` items × `q` columns) is over the cell limit every panel has; the study
/// itself then runs as many panels at once as fit that limit together.
pub(super) fn check_simulated(what: &str, n: usize, q: usize) -> Result<(), Error> {
    crate::simulate::concurrent_panels(n, q)
        .map(drop)
        .map_err(|e| Error::Usage(format!("{what}: {e}").into()))
}

/// Prints the loader's one-line notes (sidecar adopted, identical judges) on stderr.
fn print_notes(loaded: &Loaded) {
    for line in loaded.notes.iter().chain(&loaded.drop_note) {
        note(&line.worded(&Flags));
    }
}

/// The command line's console: panels read from their paths, notes and bars on stderr.
pub(super) struct Terminal;

impl Console for Terminal {
    fn load(&mut self, a: &PanelArgs, min_anchors: usize) -> Result<Loaded, Error> {
        load_panel(a, min_anchors)
    }

    fn source(&self, a: &PanelArgs) -> String {
        a.panel.display().to_string()
    }

    fn note(&mut self, line: &str) {
        note(&reword(line, &Flags));
    }

    fn meter(&self, steps: Steps<'_>, show: bool) -> Box<dyn Meter + '_> {
        match steps {
            Steps::Count(n) => Box::new(Bar(progress_bar(n, show))),
            Steps::Battery(opts) => Box::new(StageBars::new(opts, show)),
        }
    }
}

/// One progress bar, a step a tick.
struct Bar(indicatif::ProgressBar);

impl Meter for Bar {
    fn tick(&self, _: Progress) -> Flow {
        self.0.inc(1);
        Flow::Continue
    }

    fn finish(&self) {
        self.0.finish_and_clear();
        output::bar_drawn(false);
    }
}

impl Meter for StageBars {
    fn tick(&self, p: Progress) -> Flow {
        StageBars::tick(self, p)
    }

    fn finish(&self) {
        StageBars::finish(self);
    }
}

/// Prints a report on stdout, its settings named as flags, then returns the error that
/// follows it.
pub(super) fn print(out: Output) -> Result<(), Error> {
    match out.rendered {
        Rendered::Json(mut doc) => {
            reword_json(&mut doc, &Flags);
            output::write_json(&doc)?;
        }
        Rendered::Text(text) => output::write_stdout(reword(&text, &Flags).as_bytes())?,
        Rendered::Nothing => {}
    }
    out.error.map_or(Ok(()), Err)
}
