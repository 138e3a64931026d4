//! Where a command's output goes (`-o FILE`, `reproduce --out DIR`): one rule for every writer,
//! so nothing the user owns is replaced without `--force` and no special file is renamed over.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

pub(crate) use super::temps::bar_drawn;
#[cfg(feature = "tui")]
pub(crate) use super::temps::explorer_owns_signals;
use super::temps::{TempPath, create_temp_beside, publishing};
pub use super::temps::{install_panic_line, install_signal_cleanup};
use crate::error::{Error, sanitize};
use crate::wording::Setting;

/// A checked output destination, decided before any work is done.
#[derive(Debug, Clone)]
pub(crate) enum Target {
    /// Standard output (`-`, `/dev/stdout`, `/dev/fd/1`).
    Stdout,
    /// A regular file, new or (`replace`, with `--force`) replaced atomically; the path is the
    /// link's target when the name given is a symbolic link, so the link itself survives.
    File { path: PathBuf, replace: bool },
    /// A FIFO or character device, or a descriptor (`/dev/fd/N`, `/dev/stderr`) whatever it
    /// points to: opened and written in place (a descriptor's file appended to), never
    /// renamed over.
    Through(PathBuf),
}

impl Target {
    /// Whether the output is a stream (standard output, a FIFO, a device) rather than a file
    /// with a folder of its own, beside which a sidecar could go.
    pub(crate) fn is_stream(&self) -> bool {
        !matches!(self, Target::File { .. })
    }
}

/// Checks `path` as an output: `-`, `/dev/stdout` and `/dev/fd/1` are standard output; any
/// other descriptor path is written through; an existing regular file (or a link to one) is refused without `force`; a FIFO or character
/// device is written through; a folder, a block device, a socket or a dangling link is refused.
///
/// # Errors
/// [`Error::Usage`] for a refused target (exit 2); [`Error::Output`] for a standard stream
/// closed at start (exit 74).
pub(crate) fn target(path: &Path, force: bool) -> Result<Target, Error> {
    target_apart(path, force, &[])
}

/// [`target`], also refusing (with or without `force`) a file that is one of the command's
/// `inputs`: `--force` replaces an old output, never the data being read.
///
/// # Errors
/// As [`target`]; [`Error::Usage`] naming the input when `path` is one.
pub(crate) fn target_apart(path: &Path, force: bool, inputs: &[&Path]) -> Result<Target, Error> {
    let fd = names_descriptor(path);
    if path.as_os_str() == "-" || fd == Some(1) {
        return Ok(Target::Stdout);
    }
    let shown = sanitize(&path.display().to_string());
    let usage = |what: &str| Err(Error::Usage(format!("{shown}: {what}").into()));
    if let Some(fd) = fd {
        // A descriptor is written where it points, whatever that is (a log opened with
        // `2>>log` is a regular file): appended to, never replaced or renamed over.
        if u8::try_from(fd).is_ok_and(was_closed) || fs::metadata(path).is_err() {
            let what =
                io::Error::other(format!("descriptor {fd} is not open (bad file descriptor)"));
            return Err(output_error(Some(path), &what));
        }
        return Ok(Target::Through(path.to_path_buf()));
    }
    let Ok(meta) = fs::symlink_metadata(path) else {
        if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
            return usage("names a folder (it ends in '/'); give a file name");
        }
        let folder = path.parent().filter(|p| !p.as_os_str().is_empty());
        if let Some(folder) = folder.filter(|f| !f.is_dir()) {
            let folder = sanitize(&folder.display().to_string());
            return usage(&format!(
                "the folder {folder} does not exist (or is not a folder): create it first"
            ));
        }
        return Ok(Target::File {
            path: path.to_path_buf(),
            replace: false,
        });
    };
    let (real, followed) = if meta.file_type().is_symlink() {
        match fs::metadata(path) {
            Ok(m) => (fs::canonicalize(path).ok(), m),
            Err(_) => {
                return usage(
                    "is a symbolic link that leads nowhere (a missing target or a loop); rhoscope writes through links, not over them: fix the link or give another name",
                );
            }
        }
    } else {
        (Some(path.to_path_buf()), meta)
    };
    let ft = followed.file_type();
    if ft.is_dir() {
        return usage("is a folder; give a file name");
    }
    if ft.is_file() {
        if let Some(input) = inputs
            .iter()
            .find(|i| super::inputs::same_file(path, &followed, i))
        {
            let input = sanitize(&input.display().to_string());
            return usage(&format!(
                "is the input {input}; rhoscope never writes over the file it reads (not even with {}): give the output another name",
                Setting::Force.marked()
            ));
        }
        if !force {
            return Err(Error::Usage(
                format!(
                    "{shown} already exists: remove it, or pass {}",
                    Setting::Force.marked()
                )
                .into(),
            ));
        }
        return match real {
            Some(p) => Ok(Target::File {
                path: p,
                replace: true,
            }),
            None => Ok(Target::Through(path.to_path_buf())),
        };
    }
    if is_stream(ft) {
        return Ok(Target::Through(path.to_path_buf()));
    }
    usage("is a block device or socket; rhoscope writes regular files, FIFOs and character devices")
}

#[cfg(unix)]
fn is_stream(ft: fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt;
    ft.is_fifo() || ft.is_char_device()
}

#[cfg(not(unix))]
fn is_stream(_: fs::FileType) -> bool {
    false
}

/// Writes to a checked target. A file is written into a new temporary file beside it, then
/// published: linked into place when the name is still free (so a file created meanwhile is
/// never clobbered), renamed over it when `--force` allowed that. A stream is written in place.
///
/// # Errors
/// [`Error::Output`] (exit 74) for any failed write; a file created meanwhile under a new
/// name is [`Error::Usage`].
pub(crate) fn write(
    target: &Target,
    f: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), Error> {
    match target {
        Target::Stdout => {
            let mut buf = Vec::new();
            f(&mut buf).map_err(|e| output_error(None, &e))?;
            write_stdout(&buf)
        }
        Target::Through(path) => {
            let err = |e: &io::Error| output_error(Some(path), e);
            // A descriptor's file is appended to, as the redirection that opened it would
            // (reopened without append it would be overwritten from its start).
            let file = fs::OpenOptions::new()
                .write(true)
                .append(names_descriptor(path).is_some())
                .open(path)
                .map_err(|e| err(&e))?;
            let mut w = io::BufWriter::new(file);
            f(&mut w).and_then(|()| w.flush()).map_err(|e| err(&e))
        }
        Target::File { path, replace } => write_file(path, *replace, f),
    }
}

fn write_file(
    path: &Path,
    replace: bool,
    f: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), Error> {
    let staged = stage(path, replace, f)?;
    let _publishing = publishing();
    staged.publish()
}

/// Writes several outputs as one: every file into its temporary file first, then all
/// published together, so a failure or a signal leaves all of them or none (a file that
/// was published before a later one failed is removed again, unless it replaced an old one).
/// Streams are written in place, before the files.
///
/// # Errors
/// As [`write`], for the first output that fails.
pub(crate) fn write_together(outputs: &[(&Target, &[u8])]) -> Result<(), Error> {
    let mut staged = Vec::new();
    for (target, bytes) in outputs {
        match target {
            Target::File { path, replace } => {
                staged.push(stage(path, *replace, |w| w.write_all(bytes))?);
            }
            stream => write(stream, |w| w.write_all(bytes))?,
        }
    }
    let _publishing = publishing();
    let mut published: Vec<&Path> = Vec::new();
    for s in &staged {
        if let Err(e) = s.publish_keeping() {
            for p in published {
                let _ = fs::remove_file(p);
            }
            return Err(e);
        }
        if !s.replace {
            published.push(&s.path);
        }
    }
    staged.into_iter().for_each(Staged::done);
    Ok(())
}

/// An output written into its temporary file, not yet in place.
struct Staged {
    path: PathBuf,
    replace: bool,
    tmp: TempPath,
}

/// Writes `f`'s output into a new temporary file beside `path`.
fn stage(
    path: &Path,
    replace: bool,
    f: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<Staged, Error> {
    let err = |e: &io::Error| output_error(Some(path), e);
    let (mut file, tmp) = create_temp_beside(path).map_err(|e| err(&e))?;
    let written = {
        let mut w = io::BufWriter::new(&mut file);
        f(&mut w).and_then(|()| w.flush())
    };
    if let Ok(old) = fs::metadata(path) {
        // A replaced file keeps its permissions.
        let _ = file.set_permissions(old.permissions());
    }
    drop(file);
    written.map_err(|e| err(&e))?;
    Ok(Staged {
        path: path.to_path_buf(),
        replace,
        tmp,
    })
}

impl Staged {
    /// Puts the file in place: linked when the name is still free (so a file created
    /// meanwhile is never clobbered), renamed over it when `--force` allowed that.
    fn publish(self) -> Result<(), Error> {
        self.publish_keeping()?;
        self.done();
        Ok(())
    }

    /// [`Staged::publish`], the temporary name left to [`Staged::done`].
    fn publish_keeping(&self) -> Result<(), Error> {
        let err = |e: &io::Error| output_error(Some(&self.path), e);
        if !self.replace {
            match fs::hard_link(&self.tmp.0, &self.path) {
                Ok(()) => return Ok(()),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    return Err(Error::Usage(
                        format!(
                            "{} appeared while rhoscope wrote it: remove it, or pass {}",
                            sanitize(&self.path.display().to_string()),
                            Setting::Force.marked()
                        )
                        .into(),
                    ));
                }
                // No hard links on this file system: rename instead.
                Err(_) => {}
            }
        }
        fs::rename(&self.tmp.0, &self.path).map_err(|e| err(&e))
    }

    /// Drops the temporary name (removed if it was linked; already gone if renamed).
    fn done(self) {
        drop(self.tmp);
    }
}

pub(crate) fn output_error(path: Option<&Path>, e: &io::Error) -> Error {
    Error::Output {
        path: path.map(Path::to_path_buf),
        reason: e.to_string(),
    }
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
/// Any other write failure, and a standard output closed at start (`>&-`).
pub fn write_stdout(bytes: &[u8]) -> Result<(), Error> {
    if let Some(e) = stdout_closed() {
        return Err(output_error(None, &e));
    }
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(output_error(None, &e)),
        _ => Ok(()),
    }
}

/// Which of descriptors 0–2 were closed when [`guard_standard_streams`] ran (bit `fd`): std
/// reports writes to a closed standard stream as done (EBADF is swallowed), so writers ask.
static CLOSED_AT_START: std::sync::OnceLock<u8> = std::sync::OnceLock::new();

/// Whether descriptor `fd` (0–2) was closed at start.
fn was_closed(fd: u8) -> bool {
    CLOSED_AT_START.get().is_some_and(|m| m & (1 << fd) != 0)
}

/// The error of writing to a standard output closed at start, if it was.
pub(crate) fn stdout_closed() -> Option<io::Error> {
    was_closed(1).then(|| io::Error::other("standard output is closed (bad file descriptor)"))
}

/// The descriptor a path names (`/dev/stderr`, `/dev/fd/3`, `/proc/self/fd/2`, …).
fn names_descriptor(path: &Path) -> Option<u32> {
    let s = path.to_str()?;
    match s {
        "/dev/stdin" => Some(0),
        "/dev/stdout" => Some(1),
        "/dev/stderr" => Some(2),
        _ => {
            let n = s
                .strip_prefix("/dev/fd/")
                .or_else(|| s.strip_prefix("/proc/self/fd/"))?;
            n.parse::<u32>().ok()
        }
    }
}

/// Notes which standard streams are closed, then fills closed descriptors 0–2 with
/// /dev/null, so no file opened later (an output's temporary file) takes their number and
/// receives what was meant for standard output or error. Runs once per process.
#[cfg(unix)]
pub fn guard_standard_streams() {
    use std::os::fd::AsFd;
    CLOSED_AT_START.get_or_init(|| {
        let closed = |fd: std::os::fd::BorrowedFd<'_>| {
            fd.try_clone_to_owned()
                .is_err_and(|e| e.raw_os_error() == Some(EBADF))
        };
        let mask = u8::from(closed(io::stdin().as_fd()))
            | u8::from(closed(io::stdout().as_fd())) << 1
            | u8::from(closed(io::stderr().as_fd())) << 2
            | closed_before_runtime();
        if mask != 0 {
            fill_low_descriptors();
        }
        if mask & 1 != 0 {
            crate::data::note_stdin_closed();
        }
        mask
    });
}

/// The streams the program's start-up check (`src/start/streams.c`, linked into the rhoscope
/// program by build.rs) found closed before Rust's runtime reopened them on /dev/null, as a
/// mask like [`CLOSED_AT_START`]'s; 0 in the library and the Python extension.
#[cfg(unix)]
fn closed_before_runtime() -> u8 {
    std::env::var("RHOSCOPE_CLOSED_STREAMS")
        .unwrap_or_default()
        .bytes()
        .filter(|b| (b'0'..=b'2').contains(b))
        .fold(0, |mask, b| mask | 1 << (b - b'0'))
}

/// Elsewhere a closed standard stream is not detected.
#[cfg(not(unix))]
pub fn guard_standard_streams() {}

/// EBADF, the same number on Linux and the BSDs.
#[cfg(unix)]
const EBADF: i32 = 9;

/// Opens /dev/null until the descriptor it gets is above 2, keeping those at 0–2 open.
#[cfg(unix)]
fn fill_low_descriptors() {
    use std::os::fd::{AsRawFd, IntoRawFd};
    for _ in 0..3 {
        let Ok(null) = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/null")
        else {
            return;
        };
        if null.as_raw_fd() > 2 {
            return;
        }
        // Kept open for the life of the process, in the place of a closed standard stream.
        let _ = null.into_raw_fd();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Outputs written together appear together: when the second cannot be written, the
    /// first (new) file is not left behind, and no temporary file is.
    #[test]
    fn files_written_together_appear_together_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let first = target(&dir.path().join("a.txt"), false).unwrap();
        let gone = dir.path().join("gone");
        fs::create_dir(&gone).unwrap();
        let second = target(&gone.join("b.txt"), false).unwrap();
        fs::remove_dir(&gone).unwrap();
        let r = write_together(&[(&first, b"a".as_slice()), (&second, b"b".as_slice())]);
        assert!(matches!(r, Err(Error::Output { .. })), "{r:?}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
        let second = target(&dir.path().join("b.txt"), false).unwrap();
        write_together(&[(&first, b"a".as_slice()), (&second, b"b".as_slice())]).unwrap();
        assert_eq!(fs::read_to_string(dir.path().join("a.txt")).unwrap(), "a");
        assert_eq!(fs::read_to_string(dir.path().join("b.txt")).unwrap(), "b");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
