//! The files a command reads, so that no output is ever one of them (`-o` naming the panel,
//! also by another spelling or through a link).

use std::fs;
use std::path::{Path, PathBuf};

/// The files a command on `panel` reads: the panel and a families file (named or beside it).
pub(super) fn input_files(panel: &crate::cli::PanelArgs) -> Vec<PathBuf> {
    let mut files = vec![panel.panel.clone()];
    match panel.opts.families.as_deref() {
        Some(spec) if !spec.contains('=') => files.push(PathBuf::from(spec)),
        Some(_) => {}
        None => files.extend(crate::data::families_beside(&panel.panel).map(|(p, _)| p)),
    }
    files
}

/// Whether `out` (an existing file's metadata) is the file at `input`, by device and inode, so
/// a link or another spelling of the same file is caught.
#[cfg(unix)]
pub(super) fn same_file(_: &Path, out: &fs::Metadata, input: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(input).is_ok_and(|m| m.is_file() && m.dev() == out.dev() && m.ino() == out.ino())
}

/// Whether the file at `out` is the file at `input`, by canonical path.
#[cfg(not(unix))]
pub(super) fn same_file(out: &Path, _: &fs::Metadata, input: &Path) -> bool {
    match (fs::canonicalize(out), fs::canonicalize(input)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
