//! The front ends' error: each layer's typed error becomes one line and a distinct process
//! exit code (sysexits-style) here, the only place exit codes exist.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::data::DataError;
use crate::estimate::EstimateError;
use crate::ordinal::OrdinalError;
use crate::power::PowerError;
use crate::reproduce::ReproduceError;
use crate::scenario::ScenarioError;
use crate::simulate::SimError;
use crate::validate::ValidateError;
use crate::wording::{Described, Said, Wording};

/// The location and text guards live on the ground floor; these paths keep the front
/// ends' `crate::error::…` names working.
pub use crate::location::{Location, clip, escape, located, location_parts, sanitize, show_path};

/// Exit code for bad arguments (clap uses the same).
pub const EXIT_USAGE: i32 = 2;
/// Exit code for bad data in an input file (`EX_DATAERR`).
pub const EXIT_DATA: i32 = 65;
/// Exit code for a missing or unreadable input file (`EX_NOINPUT`).
pub const EXIT_NO_INPUT: i32 = 66;
/// Exit code when `--fail-on-diagnostic` sees a firing test or a weak-ID flag.
pub const EXIT_DIAGNOSTIC: i32 = 1;
/// Exit code for a failure writing output (`EX_IOERR`).
pub const EXIT_IO: i32 = 74;
/// Exit code when the operating system refuses a resource, e.g. worker threads (`EX_OSERR`).
pub const EXIT_OS: i32 = 71;
/// A panic that is not the OS's refusal: a bug (EX_SOFTWARE).
pub const EXIT_INTERNAL: i32 = 70;
/// ρ is not identified on this panel (the ordinal hierarchy of Section 7): nothing to estimate.
pub const EXIT_NOT_IDENTIFIED: i32 = 3;

/// Every way a command can fail. Each variant knows its exit code.
#[derive(Debug)]
pub enum Error {
    /// A setting or argument that cannot be honoured (exit 2).
    Usage(Said),
    /// The input file is missing or unreadable (exit 66).
    NoInput { path: PathBuf, reason: String },
    /// The input file's contents are unusable (exit 65).
    Data {
        path: PathBuf,
        at: Location,
        message: Said,
    },
    /// Writing output failed (exit 74).
    Output {
        path: Option<PathBuf>,
        reason: String,
    },
    /// `--fail-on-diagnostic`: a test fired or the weak-ID flag was raised (exit 1).
    Diagnostic,
    /// ρ is not identified on this panel's configuration, and why (exit 3).
    NotIdentified { path: PathBuf, reason: String },
    /// The operating system refused a resource, such as the worker threads (exit 71).
    System(String),
    /// The explorer was ended by a signal (exit 128 + the signal's number, as a shell
    /// reports a process killed by it), after restoring the terminal.
    Signal(i32),
}

impl Error {
    /// The process exit code for this error.
    #[must_use]
    pub fn exit_code(&self) -> i32 {
        match self {
            Error::Usage(_) => EXIT_USAGE,
            Error::NoInput { .. } => EXIT_NO_INPUT,
            Error::Data { .. } => EXIT_DATA,
            Error::Output { .. } => EXIT_IO,
            Error::Diagnostic => EXIT_DIAGNOSTIC,
            Error::NotIdentified { .. } => EXIT_NOT_IDENTIFIED,
            Error::System(_) => EXIT_OS,
            Error::Signal(n) => 128 + n,
        }
    }

    /// A data error in `path` with no location.
    pub fn data(path: &Path, message: impl Into<Said>) -> Self {
        Error::Data {
            path: path.to_path_buf(),
            at: Location::default(),
            message: message.into(),
        }
    }

    /// A data error in `path` at a given place.
    pub fn data_at(path: &Path, at: Location, message: impl Into<Said>) -> Self {
        Error::Data {
            path: path.to_path_buf(),
            at,
            message: message.into(),
        }
    }
}

impl Error {
    /// The one-line message, each setting it refers to named by a front end's `wording`.
    #[must_use]
    pub fn worded(&self, wording: &dyn Wording) -> String {
        match self {
            Error::Usage(msg) => sanitize(&msg.worded(wording)),
            Error::System(msg) => sanitize(msg),
            Error::NoInput { path, reason } => {
                format!("{}: cannot read: {}", show_path(path), sanitize(reason))
            }
            Error::Data { path, at, message } => located(path, at, &message.worded(wording)),
            Error::Output { path, reason } => match path {
                Some(p) => format!("{}: cannot write: {}", show_path(p), sanitize(reason)),
                None => format!("cannot write output: {}", sanitize(reason)),
            },
            Error::Signal(n) => format!("stopped by signal {n}; the terminal was restored"),
            Error::NotIdentified { path, reason } => format!(
                "{}: ρ is not identified: {}",
                show_path(path),
                sanitize(reason)
            ),
            Error::Diagnostic => format!(
                "a diagnostic fired, weak identification was flagged, or no estimate can be read ({})",
                wording.setting(crate::wording::Setting::FailOnDiagnostic)
            ),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.worded(&Described))
    }
}

impl std::error::Error for Error {}

/// Options the user can change exit 2; the input's contents exit 65; an unreadable input 66.
impl From<DataError> for Error {
    fn from(e: DataError) -> Self {
        match e {
            DataError::Usage(m) => Error::Usage(m),
            DataError::NoInput { path, reason } => Error::NoInput { path, reason },
            DataError::Data { path, at, message } => Error::Data { path, at, message },
        }
    }
}

impl Error {
    /// The error for an estimator's refusal on the panel read from `path`: options it
    /// cannot honour exit 2, data it cannot fit exit 65.
    #[must_use]
    pub fn estimate_at(e: &EstimateError, path: &Path) -> Self {
        if e.is_usage() {
            Error::Usage(e.to_string().into())
        } else {
            Error::data(path, e.to_string())
        }
    }
}

/// As [`Error::estimate_at`], with no file named.
impl From<EstimateError> for Error {
    fn from(e: EstimateError) -> Self {
        Error::estimate_at(&e, Path::new(""))
    }
}

/// A panel's columns are data (exit 65); the identification check's point is a flag (exit 2).
impl From<OrdinalError> for Error {
    fn from(e: OrdinalError) -> Error {
        match e {
            OrdinalError::NotPaperModel
            | OrdinalError::TooSmallModel
            | OrdinalError::NoAnchor
            | OrdinalError::OutOfReach { .. }
            | OrdinalError::Degenerate { .. }
            | OrdinalError::NonPositiveLoading { .. }
            | OrdinalError::Model(_) => Error::Usage(e.to_string().into()),
            _ => Error::data(Path::new(""), e.to_string()),
        }
    }
}

/// The options are flags (exit 2); a panel too small to validate is data (exit 65).
impl From<ValidateError> for Error {
    fn from(e: ValidateError) -> Error {
        match e {
            ValidateError::TooFewJudges(_) | ValidateError::TooFewItems => {
                Error::data(Path::new(""), e.to_string())
            }
            _ => Error::Usage(e.to_string().into()),
        }
    }
}

/// The simulation's settings are the user's (exit 2).
impl From<SimError> for Error {
    fn from(e: SimError) -> Error {
        Error::Usage(e.to_string().into())
    }
}

/// The power study's settings are the user's (exit 2).
impl From<PowerError> for Error {
    fn from(e: PowerError) -> Error {
        Error::Usage(e.to_string().into())
    }
}

/// An unknown preset is a setting (exit 2).
impl From<ScenarioError> for Error {
    fn from(e: ScenarioError) -> Self {
        Error::Usage(e.to_string().into())
    }
}

/// An unknown table is a setting (exit 2).
impl From<ReproduceError> for Error {
    fn from(e: ReproduceError) -> Self {
        Error::Usage(e.to_string().into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_error_names_row_column_and_value() {
        let e = Error::data_at(
            Path::new("x.csv"),
            Location {
                row: Some(4),
                column: Some("J\x072".into()),
                value: Some("abc".into()),
            },
            "not a number",
        );
        assert_eq!(
            e.to_string(),
            "x.csv: row 4, column 'J2': not a number (value 'abc')"
        );
        assert_eq!(e.exit_code(), EXIT_DATA);
    }

    /// Every data-layer error reads as the crate error it becomes, with the exit code its
    /// kind promises (usage 2, unreadable 66, contents 65).
    #[test]
    fn data_errors_keep_their_message_and_take_their_exit_code() {
        let p = Path::new("x\u{1b}.csv");
        let cases = [
            (DataError::Usage("--judges: no column 'Q'".into()), 2),
            (
                DataError::NoInput {
                    path: p.into(),
                    reason: "no such file".into(),
                },
                66,
            ),
            (DataError::data(p, "the file is empty (no header row)"), 65),
            (
                DataError::data_at(
                    p,
                    Location {
                        row: Some(4),
                        column: Some("J\x072".into()),
                        value: Some("abc".repeat(20)),
                    },
                    "not a number",
                ),
                65,
            ),
        ];
        for (e, code) in cases {
            let text = e.to_string();
            let crate_error = Error::from(e);
            assert_eq!(text, crate_error.to_string());
            assert_eq!(crate_error.exit_code(), code, "{text}");
        }
    }
}
