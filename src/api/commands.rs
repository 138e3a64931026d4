//! Each JSON subcommand's body from `commands`, run on a console that collects its notes
//! and polls a cancel hook, returning its `--json` document instead of printing it.

use std::ffi::OsString;

use serde_json::Value;

use crate::cli::{Command, PanelArgs};
use crate::commands::{Console, Meter, Rendered, Steps, threads};
use crate::data::{self, Loaded};
use crate::error::Error;
use crate::progress::{Flow, Progress};

/// A command's `--json` document and the notes the CLI would print on stderr.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub doc: Value,
    pub notes: Vec<String>,
    /// The command's error after its document (a refused estimator the user asked for, a
    /// diagnostic with `--fail-on-diagnostic`): exit code and message.
    pub error: Option<(i32, String)>,
}

/// Whether long work should stop (Ctrl-C in the caller).
type Cancel<'a> = &'a (dyn Fn() -> bool + Sync);

/// Runs a JSON subcommand (`estimate`, `battery`, `identify`, `validate`, `power`, `plan`)
/// from its command line (`--json` implied), on `threads` workers as `--threads` would.
/// `shown` names an in-memory panel in the document instead of its temporary file.
///
/// # Errors
/// The command's [`Error`], as the CLI reports it; [`Error::Signal`] when cancelled.
pub fn json(
    args: Vec<OsString>,
    shown: Option<&str>,
    cancel: Cancel<'_>,
) -> Result<Outcome, Error> {
    let cli = super::entry::parse(args)?;
    let Some(mut command) = cli.command else {
        return Err(not_json());
    };
    crate::commands::imply_json(&mut command);
    let mut console = Api {
        shown,
        cancel,
        notes: Vec::new(),
    };
    let out = threads::scoped(cli.threads, || {
        crate::commands::report(&command, &mut console).unwrap_or_else(|| Err(not_json()))
    })?;
    let Rendered::Json(doc) = out.rendered else {
        return Err(not_json());
    };
    Ok(Outcome {
        doc,
        notes: console.notes,
        error: out.error.map(|e| (e.exit_code(), e.to_string())),
    })
}

fn not_json() -> Error {
    Error::Usage("the API runs estimate, battery, identify, validate, power and plan".into())
}

/// Runs a file-writing subcommand (`simulate`, `export`, `plot`) through the library's
/// command dispatch, on `threads` workers as `--threads` would.
///
/// # Errors
/// The command's [`Error`].
pub fn files(args: Vec<OsString>) -> Result<(), Error> {
    let cli = super::entry::parse(args)?;
    match cli.command {
        Some(c @ (Command::Simulate(_) | Command::Export(_) | Command::Plot(_))) => {
            threads::scoped(cli.threads, || crate::commands::dispatch(c))
        }
        _ => Err(Error::Usage("files runs simulate, export and plot".into())),
    }
}

/// The API's console: notes collected, progress polling the cancel hook, an in-memory
/// panel named by what it was.
struct Api<'a> {
    shown: Option<&'a str>,
    cancel: Cancel<'a>,
    notes: Vec<String>,
}

impl Console for Api<'_> {
    fn load(&mut self, a: &PanelArgs, min_anchors: usize) -> Result<Loaded, Error> {
        load(a, min_anchors, &mut self.notes)
    }

    fn source(&self, a: &PanelArgs) -> String {
        source(a, self.shown)
    }

    fn note(&mut self, line: &str) {
        self.notes.push(format!("rhoscope: {line}"));
    }

    fn meter(&self, _: Steps<'_>, _: bool) -> Box<dyn Meter + '_> {
        Box::new(Ticker(self.cancel))
    }
}

/// A progress hook that only watches the cancel hook.
struct Ticker<'a>(Cancel<'a>);

impl Meter for Ticker<'_> {
    fn tick(&self, _: Progress) -> Flow {
        if (self.0)() {
            Flow::Stop
        } else {
            Flow::Continue
        }
    }
}

/// `commands::load_panel`, with its notes collected instead of printed.
fn load(a: &PanelArgs, min_anchors: usize, notes: &mut Vec<String>) -> Result<Loaded, Error> {
    let loaded = data::load(
        &a.panel,
        &crate::commands::load_options(&a.opts, min_anchors),
    )?;
    notes.extend(loaded.notes.iter().map(|l| format!("rhoscope: {l}")));
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
        notes.push(format!("rhoscope: {e}"));
    }
    Ok(loaded)
}

fn source(a: &PanelArgs, shown: Option<&str>) -> String {
    shown.map_or_else(|| a.panel.display().to_string(), String::from)
}
