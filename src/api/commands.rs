//! Each JSON subcommand's body from `commands`, run on a console that collects its notes
//! and polls a cancel hook, returning its `--json` document instead of printing it. The
//! panel is read as a typed [`PanelRequest`] says, never from panel flags on the command
//! line, and every message names settings as Python's keyword arguments.

use std::ffi::OsString;

use serde_json::Value;

use super::options::Call;
use super::wording::Keywords;
use crate::cli::{Command, PanelArgs, PanelOptions};
use crate::commands::{Console, Meter, Rendered, Steps, threads};
use crate::data::{self, Loaded, PanelRequest};
use crate::error::Error;
use crate::progress::{Flow, Progress};
use crate::wording::{reword, reword_json};

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
/// `request` says how to read the panel the command line names (its panel flags, if any,
/// are ignored); `shown` names an in-memory panel in the document instead of its path.
///
/// # Errors
/// The command's [`Error`] ([`Error::worded`] with [`Keywords`] says it as Python does);
/// [`Error::Signal`] when cancelled.
pub fn json(
    args: Vec<OsString>,
    request: Option<PanelRequest>,
    shown: Option<&str>,
    cancel: Cancel<'_>,
) -> Result<Outcome, Error> {
    let cli = super::entry::parse(args)?;
    let Some(mut command) = cli.command else {
        return Err(not_json());
    };
    give(&mut command, request);
    report(command, cli.threads, shown, cancel)
}

/// Runs a typed reporting call (`estimate`, `battery`, `identify`, `validate`, `power`,
/// `plan`) on `threads` workers, every value checked and no command line parsed; `shown`
/// names an in-memory panel in the document instead of its path.
///
/// # Errors
/// As [`json`], and [`Error::Usage`] naming the keyword of a value out of range.
pub fn call(
    call: &Call,
    threads: Option<i64>,
    shown: Option<&str>,
    cancel: Cancel<'_>,
) -> Result<Outcome, Error> {
    let threads = super::options::threads(threads)?;
    report(call.command()?, threads, shown, cancel)
}

/// Runs a typed file-writing call (`simulate`, `export`, `plot`) on `threads` workers;
/// returns the notes the command would print (the "wrote FILE" line among them), collected
/// from this call alone, never through the process's stderr, which other threads share.
///
/// # Errors
/// As [`files`], and [`Error::Usage`] naming the keyword of a value out of range.
pub fn write(call: &Call, threads: Option<i64>) -> Result<Vec<String>, Error> {
    let threads = super::options::threads(threads)?;
    match call.command()? {
        c @ (Command::Simulate(_) | Command::Export(_) | Command::Plot(_)) => {
            threads::scoped(threads, || {
                let (done, notes) = crate::commands::collecting(|| crate::commands::dispatch(c));
                done.map(|()| {
                    notes
                        .iter()
                        .map(|l| {
                            reword(l, &Keywords)
                                .trim_start_matches("note: ")
                                .to_string()
                        })
                        .collect()
                })
            })
        }
        _ => Err(Error::Usage("write runs simulate, export and plot".into())),
    }
}

/// A reporting command's document, its notes and its trailing error.
fn report(
    mut command: Command,
    threads: Option<u16>,
    shown: Option<&str>,
    cancel: Cancel<'_>,
) -> Result<Outcome, Error> {
    crate::commands::imply_json(&mut command);
    let mut console = Api {
        shown,
        cancel,
        notes: Vec::new(),
    };
    let out = threads::scoped(threads, || {
        crate::commands::report(&command, &mut console).unwrap_or_else(|| Err(not_json()))
    })?;
    let Rendered::Json(mut doc) = out.rendered else {
        // Every estimator asked for was refused: that refusal is the answer.
        return Err(out.error.unwrap_or_else(not_json));
    };
    reword_json(&mut doc, &Keywords);
    Ok(Outcome {
        doc,
        notes: console.notes,
        error: out.error.map(|e| (e.exit_code(), e.worded(&Keywords))),
    })
}

fn not_json() -> Error {
    Error::Usage("the API runs estimate, battery, identify, validate, power and plan".into())
}

/// Runs a file-writing subcommand (`simulate`, `export`, `plot`) through the library's
/// command dispatch, on `threads` workers as `--threads` would; `request` as for [`json`].
///
/// # Errors
/// The command's [`Error`].
pub fn files(args: Vec<OsString>, request: Option<PanelRequest>) -> Result<(), Error> {
    let cli = super::entry::parse(args)?;
    match cli.command {
        Some(mut c @ (Command::Simulate(_) | Command::Export(_) | Command::Plot(_))) => {
            give(&mut c, request);
            threads::scoped(cli.threads, || crate::commands::dispatch(c))
        }
        _ => Err(Error::Usage("files runs simulate, export and plot".into())),
    }
}

/// Puts `request` in the place of the command's panel flags.
fn give(command: &mut Command, request: Option<PanelRequest>) {
    let Some(request) = request else {
        return;
    };
    let opts: Option<&mut PanelOptions> = match command {
        Command::Estimate(a) => Some(&mut a.panel.opts),
        Command::Battery(a) => Some(&mut a.panel.opts),
        Command::Validate(a) => Some(&mut a.panel.opts),
        Command::Export(a) => Some(&mut a.panel.opts),
        Command::Identify(a) => Some(&mut a.opts),
        Command::Plot(a) => Some(&mut a.opts),
        _ => None,
    };
    if let Some(opts) = opts {
        *opts = PanelOptions {
            given: Some(request),
            ..PanelOptions::default()
        };
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
        let line = reword(line, &Keywords);
        self.notes
            .push(line.trim_start_matches("note: ").to_string());
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

/// `commands::load_panel`, with its notes collected instead of printed: each a sentence of
/// its own, with no program name and no "note:" before it.
fn load(a: &PanelArgs, min_anchors: usize, notes: &mut Vec<String>) -> Result<Loaded, Error> {
    let loaded = data::load(&a.panel, &a.opts.request(min_anchors)?)?;
    notes.extend(
        loaded
            .notes
            .iter()
            .map(|l| l.worded(&Keywords).trim_start_matches("note: ").to_string()),
    );
    notes.extend(loaded.drop_note.iter().map(|n| n.worded(&Keywords)));
    Ok(loaded)
}

fn source(a: &PanelArgs, shown: Option<&str>) -> String {
    shown.map_or_else(|| a.panel.display().to_string(), String::from)
}
