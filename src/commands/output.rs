//! Where a command's output goes (`-o FILE`, `reproduce --out DIR`): one rule for every writer,
//! so nothing the user owns is replaced without `--force` and no special file is renamed over.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::error::{Error, sanitize};

/// A checked output destination, decided before any work is done.
#[derive(Debug, Clone)]
pub(crate) enum Target {
    /// Standard output (`-`, `/dev/stdout`).
    Stdout,
    /// A regular file, new or (`replace`, with `--force`) replaced atomically; the path is the
    /// link's target when the name given is a symbolic link, so the link itself survives.
    File { path: PathBuf, replace: bool },
    /// A FIFO or character device (or `/dev/fd/N`): opened and written in place, never
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

/// Checks `path` as an output: `-` and `/dev/stdout` are standard output; an existing regular
/// file (or a link to one) is refused without `force`; a FIFO or character device is written
/// through; a folder, a block device, a socket or a dangling link is refused.
///
/// # Errors
/// [`Error::Usage`] for a refused target (exit 2).
pub(crate) fn target(path: &Path, force: bool) -> Result<Target, Error> {
    if path.as_os_str() == "-" || path == Path::new("/dev/stdout") {
        return Ok(Target::Stdout);
    }
    let shown = sanitize(&path.display().to_string());
    let usage = |what: &str| Err(Error::Usage(format!("{shown}: {what}").into()));
    let Ok(meta) = fs::symlink_metadata(path) else {
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
        if !force {
            return Err(Error::Usage(
                format!("{shown} already exists: remove it, or pass --force").into(),
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
            let file = fs::OpenOptions::new()
                .write(true)
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
    if !replace {
        match fs::hard_link(&tmp.0, path) {
            Ok(()) => return Ok(()),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                return Err(Error::Usage(
                    format!(
                        "{} appeared while rhoscope wrote it: remove it, or pass --force",
                        sanitize(&path.display().to_string())
                    )
                    .into(),
                ));
            }
            // No hard links on this file system: rename instead.
            Err(_) => {}
        }
    }
    fs::rename(&tmp.0, path).map_err(|e| err(&e))?;
    tmp.keep();
    Ok(())
}

/// A temporary file deleted on drop unless kept.
struct TempPath(PathBuf);

impl TempPath {
    fn keep(self) {
        std::mem::forget(self);
    }
}

impl Drop for TempPath {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

/// A new, exclusively created `.NAME.PID-K.tmp` in `path`'s folder.
fn create_temp_beside(path: &Path) -> io::Result<(File, TempPath)> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?
        .to_string_lossy();
    let mut last = None;
    for k in 0..100 {
        let tmp = dir.join(format!(".{name}.{}-{k}.tmp", std::process::id()));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(file) => return Ok((file, TempPath(tmp))),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no temporary file name free")))
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
/// Any other write failure.
pub fn write_stdout(bytes: &[u8]) -> Result<(), Error> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(output_error(None, &e)),
        _ => Ok(()),
    }
}
