//! `rhoscope._rhoscope`: the extension the Python package calls. Each function hands a
//! command line to the library's in-memory entry (`rhoscope::api`); the work runs with the
//! GIL released on a worker thread, and Ctrl-C in Python cancels it.

use std::ffi::OsString;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use numpy::PyReadonlyArray1;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyKeyboardInterrupt};
use pyo3::prelude::*;
use rhoscope::api;
use rhoscope::error::Error;

create_exception!(
    _rhoscope,
    Failure,
    PyException,
    "A command's error: (exit code, message)."
);

/// A library error as `Failure(exit code, message)`; an interrupt as `KeyboardInterrupt`.
fn failure(e: &Error) -> PyErr {
    if matches!(e, Error::Signal(_)) {
        return PyKeyboardInterrupt::new_err("");
    }
    Failure::new_err((e.exit_code(), e.to_string()))
}

/// Runs `work` on a thread with the GIL released, checking Python's signals every 50 ms; a
/// pending signal (Ctrl-C) sets the cancel flag and is raised.
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

fn os_args(args: Vec<String>) -> Vec<OsString> {
    std::iter::once(OsString::from("rhoscope"))
        .chain(args.into_iter().map(OsString::from))
        .collect()
}

/// The CLI's `--json` text, its stderr notes, and its trailing (exit code, message) or None.
type JsonOutcome = (String, Vec<String>, Option<(i32, String)>);

/// A JSON subcommand's outcome.
#[pyfunction]
#[pyo3(signature = (args, shown=None))]
fn run_json(py: Python<'_>, args: Vec<String>, shown: Option<String>) -> PyResult<JsonOutcome> {
    let args = os_args(args);
    let out = detached(py, move |cancel| {
        api::json(args, shown.as_deref(), &|| cancel.load(Ordering::Relaxed)).map(|o| {
            let mut text = serde_json::to_string_pretty(&o.doc).unwrap_or_default();
            text.push('\n');
            (text, o.notes, o.error)
        })
    })?;
    out.map_err(|e| failure(&e))
}

/// A file-writing subcommand (`simulate`, `export`, `plot` with `-o FILE`).
#[pyfunction]
fn run_files(py: Python<'_>, args: Vec<String>) -> PyResult<()> {
    let args = os_args(args);
    detached(py, move |_| api::files(args))?.map_err(|e| failure(&e))
}

/// The `rhoscope` command itself, on `sys.argv`; returns its exit code.
#[pyfunction]
fn run_cli(py: Python<'_>, argv: Vec<String>) -> i32 {
    let args: Vec<OsString> = argv.into_iter().map(OsString::from).collect();
    py.detach(move || api::run_cli(args))
}

/// A panel written for the library's loader; the file goes when this object does.
#[pyclass(frozen)]
struct Panel {
    temp: api::TempPanel,
}

#[pymethods]
impl Panel {
    #[getter]
    fn path(&self) -> String {
        self.temp.path().display().to_string()
    }
}

/// A column as the extension holds it: a float64 array (read in place) or text cells.
enum Held<'py> {
    Numbers(PyReadonlyArray1<'py, f64>),
    Text(Vec<Option<String>>),
}

/// A wide panel from named columns: contiguous float64 arrays (NaN missing), read without
/// copying them, or lists of text cells (None missing).
#[pyfunction]
fn wide_panel(names: Vec<String>, columns: Vec<Bound<'_, PyAny>>) -> PyResult<Panel> {
    let held: Vec<Held<'_>> = columns
        .iter()
        .map(|c| match c.extract::<PyReadonlyArray1<'_, f64>>() {
            Ok(a) => Ok(Held::Numbers(a)),
            Err(_) => c.extract::<Vec<Option<String>>>().map(Held::Text),
        })
        .collect::<PyResult<_>>()?;
    let cols: Vec<api::Column<'_>> = held
        .iter()
        .map(|h| match h {
            Held::Numbers(a) => a.as_slice().map(api::Column::Numbers),
            Held::Text(t) => Ok(api::Column::Text(t)),
        })
        .collect::<Result<_, _>>()
        .map_err(|e| Failure::new_err((2, format!("a column is not contiguous: {e}"))))?;
    api::wide_panel(&names, &cols)
        .map(|temp| Panel { temp })
        .map_err(|e| failure(&e))
}

/// A long panel (item, rater, score rows).
#[pyfunction]
fn long_panel(
    header: (String, String, String),
    items: Vec<String>,
    raters: Vec<String>,
    scores: PyReadonlyArray1<'_, f64>,
) -> PyResult<Panel> {
    let scores = scores
        .as_slice()
        .map_err(|e| Failure::new_err((2, format!("the scores are not contiguous: {e}"))))?;
    api::long_panel([&header.0, &header.1, &header.2], &items, &raters, scores)
        .map(|temp| Panel { temp })
        .map_err(|e| failure(&e))
}

#[pymodule]
fn _rhoscope(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("Failure", m.py().get_type::<Failure>())?;
    m.add_class::<Panel>()?;
    m.add_function(wrap_pyfunction!(run_json, m)?)?;
    m.add_function(wrap_pyfunction!(run_files, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(wide_panel, m)?)?;
    m.add_function(wrap_pyfunction!(long_panel, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
