//! The data layer's errors: each names the file, and the row, column and value where known,
//! in one line; [`crate::error::Error`] takes them with the same message and exit code.

use std::path::{Path, PathBuf};

use crate::error::{
    EXIT_DATA, EXIT_NO_INPUT, EXIT_USAGE, Error, Location, located, location_parts, sanitize,
};
use crate::wording::{Described, Said, Wording};

/// Why a panel (or its families) could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataError {
    /// A request (roles, families, scales) that does not fit the file (exit 2).
    #[error("{}", self.worded(&Described))]
    Usage(Said),
    /// The input is missing or unreadable (exit 66).
    #[error("{}: cannot read: {}", show_path(.path), sanitize(.reason))]
    NoInput { path: PathBuf, reason: String },
    /// The contents are unusable (exit 65).
    #[error("{}", self.worded(&Described))]
    Data {
        path: PathBuf,
        at: Location,
        message: Said,
    },
}

impl DataError {
    /// A data error in `path` with no location.
    pub fn data(path: &Path, message: impl Into<Said>) -> Self {
        DataError::Data {
            path: path.to_path_buf(),
            at: Location::default(),
            message: message.into(),
        }
    }

    /// A data error in `path` at a given place.
    pub fn data_at(path: &Path, at: Location, message: impl Into<Said>) -> Self {
        DataError::Data {
            path: path.to_path_buf(),
            at,
            message: message.into(),
        }
    }

    /// The one-line message, each setting it refers to named by a front end's `wording`.
    #[must_use]
    pub fn worded(&self, wording: &dyn Wording) -> String {
        match self {
            DataError::Usage(m) => sanitize(&m.worded(wording)),
            DataError::NoInput { path, reason } => {
                format!("{}: cannot read: {}", show_path(path), sanitize(reason))
            }
            DataError::Data { path, at, message } => located(path, at, &message.worded(wording)),
        }
    }

    /// The one-line message as a sentence a front end words (a note's text).
    #[must_use]
    pub fn said(&self) -> Said {
        match self {
            DataError::Usage(m) => m.clone(),
            DataError::NoInput { .. } => Said::new(self.worded(&Described)),
            DataError::Data { path, at, message } => {
                let (head, tail) = location_parts(path, at);
                let said = message.clone().map_text(sanitize).after(head);
                if tail.is_empty() {
                    said
                } else {
                    said.text(tail)
                }
            }
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
