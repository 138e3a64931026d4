//! The data layer's errors: each names the file, and the row, column and value where known,
//! in one line; [`crate::error::Error`] takes them with the same message and exit code.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::error::{EXIT_DATA, EXIT_NO_INPUT, EXIT_USAGE, Error, Location, clip, sanitize};

/// Why a panel (or its families) could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    /// Role lists or flags that do not fit the file (exit 2).
    #[error("{}", sanitize(.0))]
    Usage(String),
    /// The input is missing or unreadable (exit 66).
    #[error("{}: cannot read: {}", show_path(.path), sanitize(.reason))]
    NoInput { path: PathBuf, reason: String },
    /// The contents are unusable (exit 65).
    #[error("{}", located(.path, .at, .message))]
    Data {
        path: PathBuf,
        at: Location,
        message: String,
    },
}

impl DataError {
    /// A data error in `path` with no location.
    pub fn data(path: &Path, message: impl Into<String>) -> Self {
        DataError::Data {
            path: path.to_path_buf(),
            at: Location::default(),
            message: message.into(),
        }
    }

    /// A data error in `path` at a given place.
    pub fn data_at(path: &Path, at: Location, message: impl Into<String>) -> Self {
        DataError::Data {
            path: path.to_path_buf(),
            at,
            message: message.into(),
        }
    }

    /// The process exit code, as [`Error::exit_code`] gives it.
    #[must_use]
    pub fn exit_code(&self) -> i32 {
        match self {
            DataError::Usage(_) => EXIT_USAGE,
            DataError::NoInput { .. } => EXIT_NO_INPUT,
            DataError::Data { .. } => EXIT_DATA,
        }
    }
}

impl From<DataError> for Error {
    fn from(e: DataError) -> Self {
        match e {
            DataError::Usage(m) => Error::Usage(m),
            DataError::NoInput { path, reason } => Error::NoInput { path, reason },
            DataError::Data { path, at, message } => Error::Data { path, at, message },
        }
    }
}

fn show_path(p: &Path) -> String {
    sanitize(&p.display().to_string())
}

/// `FILE: row R, column 'C': MESSAGE (value 'V')`, each part where known.
fn located(path: &Path, at: &Location, message: &str) -> String {
    let mut out = show_path(path);
    if let Some(row) = at.row {
        let _ = write!(out, ": row {row}");
    }
    if let Some(col) = &at.column {
        let _ = write!(out, ", column '{}'", clip(&sanitize(col), 60));
    }
    let _ = write!(out, ": {}", sanitize(message));
    if let Some(v) = &at.value {
        let _ = write!(out, " (value '{}')", clip(&sanitize(v), 40));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every variant reads as the crate error it becomes, with its exit code.
    #[test]
    fn display_and_exit_code_match_the_crate_error() {
        let p = Path::new("x\u{1b}.csv");
        let cases = [
            DataError::Usage("--judges: no column 'Q'".into()),
            DataError::NoInput {
                path: p.into(),
                reason: "no such file".into(),
            },
            DataError::data(p, "the file is empty (no header row)"),
            DataError::data_at(
                p,
                Location {
                    row: Some(4),
                    column: Some("J\x072".into()),
                    value: Some("abc".repeat(20)),
                },
                "not a number",
            ),
        ];
        for e in cases {
            let (text, code) = (e.to_string(), e.exit_code());
            let crate_error = Error::from(e);
            assert_eq!(text, crate_error.to_string());
            assert_eq!(code, crate_error.exit_code());
        }
    }
}
