//! What differs between the command line and the in-memory API around one command's body:
//! where the panel comes from, where notes go, and how progress shows or cancels a run.

use serde_json::Value;

use crate::battery;
use crate::cli::PanelArgs;
use crate::data::Loaded;
use crate::error::Error;
use crate::progress::{Flow, Progress};

/// The steps of a long run, for a progress display.
#[derive(Debug, Clone, Copy)]
pub enum Steps<'a> {
    /// So many steps of one kind.
    Count(u64),
    /// A battery's stages (bootstrap and null calibrations side by side).
    Battery(&'a battery::Options),
}

/// A long run's progress hook: shown by the CLI, polled for cancellation by the API.
pub trait Meter: Sync {
    /// One step taken; [`Flow::Stop`] ends the run early.
    fn tick(&self, p: Progress) -> Flow;
    /// The run is over (a bar leaves the terminal).
    fn finish(&self) {}
}

/// Where a command's body reads its panel and sends what is not its report.
pub trait Console {
    /// Loads a panel as the command's flags say, its notes sent through this console.
    ///
    /// # Errors
    /// Any load error.
    fn load(&mut self, a: &PanelArgs, min_anchors: usize) -> Result<Loaded, Error>;
    /// How the report names the panel.
    fn source(&self, a: &PanelArgs) -> String;
    /// One line for the user beside the report (the CLI prefixes `rhoscope: `).
    fn note(&mut self, line: &str);
    /// The progress hook of a run of `steps`; `show` is false under `--json`.
    fn meter(&self, steps: Steps<'_>, show: bool) -> Box<dyn Meter + '_>;
}

/// A command's report as asked for: a `--json` document or text.
#[derive(Debug)]
pub enum Rendered {
    Json(Value),
    Text(String),
    /// Nothing to print (text asked for, but every requested estimator was refused).
    Nothing,
}

/// What a command's body returns: its report, then its error (a refused estimator the
/// user asked for, an alarm under `--fail-on-diagnostic`), reported after the report.
#[derive(Debug)]
pub struct Output {
    pub rendered: Rendered,
    pub error: Option<Error>,
}

impl Output {
    /// A report with no error after it.
    pub(super) fn ok(rendered: Rendered) -> Self {
        Output {
            rendered,
            error: None,
        }
    }
}

/// The JSON document or the text of a report, as `json` says.
pub(super) fn render(
    json: bool,
    doc: impl FnOnce() -> Value,
    text: impl FnOnce() -> String,
) -> Rendered {
    if json {
        Rendered::Json(doc())
    } else {
        Rendered::Text(text())
    }
}

/// A run stopped by its progress hook, as an interrupt (SIGINT).
pub(super) fn cancelled() -> Error {
    Error::Signal(2)
}
