//! `rhoscope._rhoscope`: the extension the Python package calls. Each function hands the
//! library's in-memory entry (`rhoscope::api`) a typed call: the panel request and the
//! command's options, no command line. The work runs with the GIL released on a worker
//! thread, and Ctrl-C in Python cancels it.

use std::ffi::OsString;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rhoscope::api;
use rhoscope::api::options::{
    BatteryOptions, Call, EstimateOptions, ExportOptions, Panel as Read, PlanOptions, PlotOptions,
    PowerOptions, SimulateOptions, ValidateOptions,
};
use rhoscope::data::{ColumnRef, Columns, Families, LongColumns, PanelRequest};
use rhoscope::error::Error;

create_exception!(
    _rhoscope,
    Failure,
    PyException,
    "A command's error: (exit code, message)."
);

/// A library error as `Failure(exit code, message)`, its settings named as keyword
/// arguments; an interrupt as `KeyboardInterrupt`.
fn failure(e: &Error) -> PyErr {
    if matches!(e, Error::Signal(_)) {
        return PyKeyboardInterrupt::new_err("");
    }
    Failure::new_err((e.exit_code(), e.worded(&api::Keywords)))
}

/// A column as Python names it: a name, or a number read by the command's rule (a
/// column's name if it is one, as integer labels of a frame are, else a 1-based position).
#[derive(FromPyObject)]
enum Pick {
    Name(String),
    Number(i128),
}

impl From<Pick> for ColumnRef {
    fn from(p: Pick) -> Self {
        match p {
            Pick::Name(n) => ColumnRef::Name(n),
            Pick::Number(i) => ColumnRef::NameOrPosition(i.to_string()),
        }
    }
}

/// `panel[key]`, extracted as `T`; a wrong type names the keyword argument.
fn field<'py, T>(panel: &Bound<'py, PyDict>, key: &str) -> PyResult<Option<T>>
where
    T: for<'a> FromPyObject<'a, 'py>,
{
    match panel.get_item(key)? {
        None => Ok(None),
        Some(v) if v.is_none() => Ok(None),
        Some(v) => v.extract::<T>().map(Some).map_err(|_| {
            let shown = key.trim_end_matches("_file").trim_end_matches("_all");
            Failure::new_err((2, format!("{shown}= has a value of the wrong type")))
        }),
    }
}

/// The typed panel request the package built from its keyword arguments.
fn panel_request(panel: Option<&Bound<'_, PyDict>>) -> PyResult<Option<PanelRequest>> {
    let Some(panel) = panel else {
        return Ok(None);
    };
    let picks = |key: &str| -> PyResult<Option<Vec<ColumnRef>>> {
        Ok(field::<Vec<Pick>>(panel, key)?.map(|v| v.into_iter().map(ColumnRef::from).collect()))
    };
    let long =
        field::<(String, String, String)>(panel, "long")?.map(|(item, rater, score)| LongColumns {
            item: ColumnRef::Name(item),
            rater: ColumnRef::Name(rater),
            score: ColumnRef::Name(score),
        });
    let families = match (
        field::<Vec<(String, String)>>(panel, "families")?,
        field::<String>(panel, "families_file")?,
    ) {
        (Some(pairs), _) => Some(Families::Pairs(pairs)),
        (None, Some(path)) => Some(Families::File(path.into())),
        (None, None) => None,
    };
    let continuous = if field::<bool>(panel, "continuous_all")?.unwrap_or(false) {
        Some(Columns::All)
    } else {
        field::<Vec<String>>(panel, "continuous")?
            .map(|v| Columns::Listed(v.into_iter().map(ColumnRef::Name).collect()))
    };
    Ok(Some(PanelRequest {
        judges: picks("judges")?,
        anchors: picks("anchors")?,
        set_aside: picks("set_aside")?.unwrap_or_default(),
        id: field::<Pick>(panel, "id")?.map(ColumnRef::from),
        long,
        families,
        continuous,
        min_anchors: 0,
    }))
}

/// Runs `work` on a thread with the GIL released, checking Python's signals every 50 ms; a
/// pending signal (Ctrl-C) sets the cancel flag and is raised.
/// The document's JSON text, its notes, and its trailing (exit code, message) or None.
type Outcome = (String, Vec<String>, Option<(i32, String)>);

fn detached<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send + 'static,
) -> PyResult<T> {
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let rx = std::sync::Mutex::new(rx);
    let flag = Arc::clone(&cancel);
    std::thread::Builder::new()
        .name("rhoscope-work".into())
        .spawn(move || {
            let _ = tx.send(work(&flag));
        })
        .map_err(|e| Failure::new_err((71, format!("cannot start a worker thread: {e}"))))?;
    loop {
        match py.detach(|| {
            rx.lock()
                .map_err(|_| mpsc::RecvTimeoutError::Disconnected)
                .and_then(|r| r.recv_timeout(Duration::from_millis(50)))
        }) {
            Ok(v) => return Ok(v),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Err(e) = py.check_signals() {
                    cancel.store(true, Ordering::Relaxed);
                    return Err(e);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(Failure::new_err((
                    70,
                    "the computation panicked".to_string(),
                )));
            }
        }
    }
}

/// A usage error naming what the user typed.
fn usage(message: String) -> PyErr {
    Failure::new_err((2, message))
}

/// `options[key]` as a flag (absent: false).
fn flag(options: &Bound<'_, PyDict>, key: &str) -> PyResult<bool> {
    Ok(field::<bool>(options, key)?.unwrap_or(false))
}

/// The panel a call reads: its path and typed request.
fn panel_of(path: Option<String>, request: Option<&Bound<'_, PyDict>>) -> PyResult<Option<Read>> {
    let Some(path) = path else {
        return Ok(None);
    };
    Ok(Some(Read {
        path: path.into(),
        request: panel_request(request)?.unwrap_or_default(),
    }))
}

/// The typed call of `command`, from the options the package checked by type.
fn typed_call(command: &str, panel: Option<Read>, o: &Bound<'_, PyDict>) -> PyResult<Call> {
    let need = |p: Option<Read>| p.ok_or_else(|| usage(format!("{command} needs data")));
    let set = || Ok::<_, PyErr>(field::<Vec<(String, String)>>(o, "set")?.unwrap_or_default());
    let output = || {
        Ok::<_, PyErr>(PathBuf::from(
            field::<String>(o, "output")?.unwrap_or_default(),
        ))
    };
    Ok(match command {
        "estimate" => Call::Estimate(
            need(panel)?,
            EstimateOptions {
                method: field(o, "method")?,
                blocked: flag(o, "blocked")?,
                designated_clean: field(o, "designated_clean")?,
                bias_correct: flag(o, "bias_correct")?,
                bias_reps: field(o, "bias_reps")?,
                seed: field(o, "seed")?,
            },
        ),
        "battery" => Call::Battery(
            need(panel)?,
            BatteryOptions {
                bootstrap: field(o, "bootstrap")?,
                null_draws: field(o, "null_draws")?,
                seed: field(o, "seed")?,
                codes_as_numbers: flag(o, "codes_as_numbers")?,
                fail_on_diagnostic: flag(o, "fail_on_diagnostic")?,
                designated_clean: field(o, "designated_clean")?,
            },
        ),
        "identify" => Call::Identify(panel),
        "validate" => Call::Validate(
            need(panel)?,
            ValidateOptions {
                inject: field(o, "inject")?,
                n: field(o, "n")?.unwrap_or_default(),
                reps: field(o, "reps")?,
                seed: field(o, "seed")?,
                bootstrap: field(o, "bootstrap")?,
                null_draws: field(o, "null_draws")?,
                balanced: flag(o, "balanced")?,
            },
        ),
        "power" => Call::Power(PowerOptions {
            design: field(o, "design")?.unwrap_or_default(),
            strength: field(o, "strength")?.unwrap_or_default(),
            n: field(o, "n")?.unwrap_or_default(),
            reps: field(o, "reps")?,
            null_draws: field(o, "null_draws")?,
            coverage: field(o, "coverage")?,
            seed: field(o, "seed")?,
            ordinal: field(o, "ordinal")?,
            skewed: flag(o, "skewed")?,
        }),
        "plan" => Call::Plan(PlanOptions {
            target: field(o, "target")?.unwrap_or_default(),
            preset: field(o, "preset")?,
            set: set()?,
            reps: field(o, "reps")?,
            null_draws: field(o, "null_draws")?,
            bootstrap: field(o, "bootstrap")?,
            max_n: field(o, "max_n")?,
            seed: field(o, "seed")?,
        }),
        "simulate" => Call::Simulate(SimulateOptions {
            preset: field(o, "preset")?,
            set: set()?,
            n: field(o, "n")?.unwrap_or_default(),
            seed: field(o, "seed")?.unwrap_or_default(),
            output: output()?,
        }),
        "export" => Call::Export(
            need(panel)?,
            ExportOptions {
                syntax: field(o, "syntax")?,
                output: output()?,
                force: flag(o, "force")?,
            },
        ),
        "plot" => Call::Plot(
            panel,
            PlotOptions {
                kind: field(o, "kind")?.unwrap_or_default(),
                preset: field(o, "preset")?,
                set: set()?,
                n: field(o, "n")?,
                ns: field(o, "ns")?,
                strength: field(o, "strength")?,
                reps: field(o, "reps")?,
                bootstrap: field(o, "bootstrap")?,
                null_draws: field(o, "null_draws")?,
                seed: field(o, "seed")?,
                output: output()?,
            },
        ),
        other => return Err(usage(format!("no command {other:?}"))),
    })
}

/// A reporting command's document (JSON text), its notes, and its trailing (exit code,
/// message) or None: `path` and `panel` are the panel and its typed request (None: no
/// panel), `options` the command's options, each already checked by its Python type.
#[pyfunction]
#[pyo3(signature = (command, path, panel, options, threads=None, shown=None))]
fn report(
    py: Python<'_>,
    command: &str,
    path: Option<String>,
    panel: Option<Bound<'_, PyDict>>,
    options: Bound<'_, PyDict>,
    threads: Option<i64>,
    shown: Option<String>,
) -> PyResult<Outcome> {
    let call = typed_call(command, panel_of(path, panel.as_ref())?, &options)?;
    let out = detached(py, move |cancel| {
        api::call(&call, threads, shown.as_deref(), &|| {
            cancel.load(Ordering::Relaxed)
        })
        .map(|o| {
            let mut text = serde_json::to_string_pretty(&o.doc).unwrap_or_default();
            text.push('\n');
            (text, o.notes, o.error)
        })
    })?;
    out.map_err(|e| failure(&e))
}

/// A file-writing command (`simulate`, `export`, `plot`), its arguments as for [`report`];
/// returns the notes it would print.
#[pyfunction]
#[pyo3(signature = (command, path, panel, options, threads=None))]
fn write(
    py: Python<'_>,
    command: &str,
    path: Option<String>,
    panel: Option<Bound<'_, PyDict>>,
    options: Bound<'_, PyDict>,
    threads: Option<i64>,
) -> PyResult<Vec<String>> {
    let call = typed_call(command, panel_of(path, panel.as_ref())?, &options)?;
    detached(py, move |_| api::write(&call, threads))?.map_err(|e| failure(&e))
}

/// The `rhoscope` command itself, on `sys.argv`; returns its exit code.
#[pyfunction]
fn run_cli(py: Python<'_>, argv: Vec<String>) -> i32 {
    let args: Vec<OsString> = argv.into_iter().map(OsString::from).collect();
    py.detach(move || api::run_cli(args))
}

/// A panel held in memory and registered with the library under a path of its own; the
/// registration goes when this object does.
#[pyclass(frozen)]
struct Panel {
    registered: api::input::Registered,
}

#[pymethods]
impl Panel {
    #[getter]
    fn path(&self) -> String {
        self.registered.path().display().to_string()
    }
}

/// A float64 array's values, copied while the GIL is held: the library reads them later with
/// the GIL released, when another Python thread could be writing the array, so reading the
/// buffer in place would race; one copy of the column is the price of a sound read.
/// An array another extension holds writeable is refused rather than read mid-write.
fn copied(array: &Bound<'_, PyArray1<f64>>) -> PyResult<Vec<f64>> {
    let view = array
        .try_readonly()
        .map_err(|e| Failure::new_err((2, format!("a column is being written elsewhere: {e}"))))?;
    Ok(match view.as_slice() {
        Ok(slice) => slice.to_vec(),
        Err(_) => view.as_array().iter().copied().collect(),
    })
}

/// A column as the extension holds it: a float64 array's values, text cells, or the labels
/// of a categorical whose order was never declared.
enum Held {
    Numbers(Vec<f64>),
    Text(Vec<Option<String>>),
    Unordered(Vec<Option<String>>),
}

/// A data frame's columns, as the library's loader reads them.
struct Frame {
    names: Vec<String>,
    columns: Vec<Held>,
}

impl api::input::TableSource for Frame {
    fn table(&self) -> api::input::Table<'_> {
        api::input::Table {
            names: &self.names,
            columns: self
                .columns
                .iter()
                .map(|c| match c {
                    Held::Numbers(v) => api::Column::Numbers(v),
                    Held::Text(t) => api::Column::Text(t),
                    Held::Unordered(t) => api::Column::Unordered(t),
                })
                .collect(),
        }
    }
}

fn hold(column: &Bound<'_, PyAny>) -> PyResult<Held> {
    match column.cast::<PyArray1<f64>>() {
        Ok(a) => copied(a).map(Held::Numbers),
        Err(_) => column.extract::<Vec<Option<String>>>().map(Held::Text),
    }
}

fn register(names: Vec<String>, columns: Vec<Held>) -> Panel {
    Panel {
        registered: api::input::register(Arc::new(Frame { names, columns })),
    }
}

/// Text cells held as an undeclared-order categorical's labels, when `unordered` says so.
fn labels(held: Held, unordered: bool) -> Held {
    match held {
        Held::Text(t) if unordered => Held::Unordered(t),
        h => h,
    }
}

/// A panel from named columns: float64 arrays (NaN missing), copied once as the GIL is held,
/// or lists of text cells (None missing); the columns at positions `unordered` are
/// categoricals whose order was never declared, refused where a role reads their scores.
#[pyfunction]
#[pyo3(signature = (names, columns, unordered=Vec::new()))]
fn wide_panel(
    names: Vec<String>,
    columns: Vec<Bound<'_, PyAny>>,
    unordered: Vec<usize>,
) -> PyResult<Panel> {
    let held = columns
        .iter()
        .enumerate()
        .map(|(j, c)| Ok(labels(hold(c)?, unordered.contains(&j))))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(register(names, held))
}

/// A long panel (item, rater, score rows): ids as text, scores as float64 copied once or
/// as text cells (read with a file's checks, e.g. an integer beyond 2^53), or an
/// undeclared-order categorical's labels (`unordered`), refused as scores.
#[pyfunction]
#[pyo3(signature = (header, items, raters, scores, unordered=false))]
fn long_panel(
    header: (String, String, String),
    items: Vec<Option<String>>,
    raters: Vec<Option<String>>,
    scores: Bound<'_, PyAny>,
    unordered: bool,
) -> PyResult<Panel> {
    let scores = labels(hold(&scores)?, unordered);
    Ok(register(
        vec![header.0, header.1, header.2],
        vec![Held::Text(items), Held::Text(raters), scores],
    ))
}

/// The scenario's parameter keys, from the core's own list: the package tells a misplaced
/// scenario parameter from a keyword no function takes.
#[pyfunction]
fn scenario_keys() -> Vec<&'static str> {
    rhoscope::scenario::KEYS.iter().map(|(k, _)| *k).collect()
}

#[pymodule]
fn _rhoscope(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Failure", m.py().get_type::<Failure>())?;
    m.add_class::<Panel>()?;
    m.add_function(wrap_pyfunction!(report, m)?)?;
    m.add_function(wrap_pyfunction!(write, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(wide_panel, m)?)?;
    m.add_function(wrap_pyfunction!(long_panel, m)?)?;
    m.add_function(wrap_pyfunction!(scenario_keys, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
