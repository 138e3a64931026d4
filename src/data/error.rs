//! The data layer's errors: each names the file, and the row, column and value where known,
//! in one line; the command line's error takes them with the same message.

use std::path::{Path, PathBuf};

use crate::location::{Location, located, location_parts, sanitize, show_path};
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
}

/// An I/O error as the one reason a user reads: the common kinds in plain words.
pub(super) fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::NotADirectory => "a folder in the path is a file".into(),
        std::io::ErrorKind::IsADirectory => "is a directory".into(),
        _ => e.to_string(),
    }
}
