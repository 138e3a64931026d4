//! The temporary files outputs are written into before they are put in place, and the
//! signal handler that removes them (and ends a progress bar's line) when the process is
//! ended by a signal.

use std::fs::{self, File};
use std::io::{self, IsTerminal as _, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// Held while outputs are put in place: the signal handler waits for it, so a signal never
/// falls between two files written together.
static PUBLISHING: Mutex<()> = Mutex::new(());

pub(super) fn publishing() -> std::sync::MutexGuard<'static, ()> {
    PUBLISHING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A temporary file deleted on drop unless kept.
pub(super) struct TempPath(pub(super) PathBuf);

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
        forget_temp(&self.0);
    }
}

/// The temporary files this process is writing, for the signal handler to remove.
static LIVE_TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Set while the explorer owns the terminating signals (it ends itself, restoring the
/// terminal); the handler then only removes temporary files.
static EXPLORER_SIGNALS: AtomicBool = AtomicBool::new(false);

fn live_temps() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    LIVE_TEMPS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

pub(super) fn forget_temp(path: &Path) {
    live_temps().retain(|p| p != path);
}

/// Tells the signal handler the explorer handles the terminating signals itself.
#[cfg(feature = "tui")]
pub(crate) fn explorer_owns_signals(on: bool) {
    EXPLORER_SIGNALS.store(on, Ordering::SeqCst);
}

/// Set while a progress bar is drawn on the terminal, so a signal finishes its line.
static BAR_DRAWN: AtomicBool = AtomicBool::new(false);

/// Tells the signal handler whether a progress bar is on the terminal.
pub(crate) fn bar_drawn(on: bool) {
    BAR_DRAWN.store(on, Ordering::SeqCst);
}

/// Starts a thread that, on any catchable signal whose default would end the process
/// ([`crate::progress::TERMINATING_SIGNALS`]), waits for files being put in place, removes
/// the temporary files of outputs still being written, ends a progress bar's line and ends
/// the process with exit code 128 + the signal. SIGXFSZ (a file past `ulimit -f`) is caught
/// and ignored, so the write fails with EFBIG and the command exits 74 with its one line;
/// SIGPIPE is ignored by Rust's runtime already (a closed pipe is a failed write). The
/// binary's `main` calls it; a host running the CLI in-process (the Python entry) does not,
/// so its own signal handling is untouched.
///
/// # Errors
/// The signal handlers could not be registered.
pub fn install_signal_cleanup() -> io::Result<()> {
    use signal_hook::consts::SIGXFSZ;
    let caught = crate::progress::TERMINATING_SIGNALS
        .iter()
        .copied()
        .chain([SIGXFSZ]);
    let mut signals = signal_hook::iterator::Signals::new(caught)?;
    std::thread::Builder::new()
        .name("rhoscope-signals".into())
        .spawn(move || {
            for sig in signals.forever() {
                if sig == SIGXFSZ {
                    continue;
                }
                // Held until the process ends: no file is put in place and no temporary
                // file is created after these are removed.
                let publishing = publishing();
                let mut live = live_temps();
                for p in live.drain(..) {
                    let _ = fs::remove_file(p);
                }
                if !EXPLORER_SIGNALS.load(Ordering::SeqCst) {
                    // stderr stays locked until the exit, so a bar's ticker cannot redraw
                    // after the line is ended.
                    let mut err = io::stderr().lock();
                    if BAR_DRAWN.load(Ordering::SeqCst) && io::stderr().is_terminal() {
                        let _ = err.write_all(b"\n");
                    }
                    std::process::exit(128 + sig);
                }
                drop(live);
                drop(publishing);
            }
        })?;
    Ok(())
}

/// Makes a panic end the binary with one line on stderr, never a backtrace: exit 71 when the
/// OS refused a resource (a thread under a memory or process limit), else 70, an internal
/// error to report. Temporary files still being written are removed first. The binary's
/// `main` calls it; a host running the CLI in-process keeps its own panic handling.
pub fn install_panic_line() {
    std::panic::set_hook(Box::new(|info| {
        // A Parquet decode catches its own panics and reports the file as unreadable.
        if crate::data::panic_is_caught() {
            return;
        }
        let payload = info.payload();
        let what = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("a panic");
        let what = crate::location::sanitize(what.lines().next().unwrap_or(what));
        let refused = ["failed to spawn thread", "os error 11", "os error 12"]
            .iter()
            .any(|w| what.contains(w));
        if let Ok(mut live) = LIVE_TEMPS.try_lock() {
            for p in live.drain(..) {
                let _ = fs::remove_file(p);
            }
        }
        let mut err = io::stderr().lock();
        let code = if refused {
            let _ = writeln!(
                err,
                "rhoscope: the operating system refused a resource: {what}"
            );
            crate::error::EXIT_OS
        } else {
            let at = info
                .location()
                .map(|l| format!(" at {}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let _ = writeln!(
                err,
                "rhoscope: internal error: panicked{at}: {what} (please report it)"
            );
            crate::error::EXIT_INTERNAL
        };
        std::process::exit(code);
    }));
}

/// A new, exclusively created `.NAME.PID-K.tmp` in `path`'s folder.
pub(super) fn create_temp_beside(path: &Path) -> io::Result<(File, TempPath)> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
        .to_string_lossy();
    let mut last = None;
    // Created and registered under the lock the signal handler takes, so none escapes it.
    let mut live = live_temps();
    for k in 0..100 {
        let tmp = dir.join(format!(".{name}.{}-{k}.tmp", std::process::id()));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(file) => {
                live.push(tmp.clone());
                return Ok((file, TempPath(tmp)));
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no temporary file name free")))
}
