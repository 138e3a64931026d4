//! User-facing errors: one line each, naming file, row, column and value where known,
//! and mapping to a distinct process exit code (sysexits-style).

use std::fmt;
use std::path::{Path, PathBuf};

use crate::wording::{Described, Said, Wording};

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
/// ρ is not identified on this panel (the ordinal hierarchy of Section 7): nothing to estimate.
pub const EXIT_NOT_IDENTIFIED: i32 = 3;

/// Where in an input file a problem sits. Rows are 1-based line numbers of the file
/// (the header is line 1), so an editor's "go to line" lands on the culprit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    pub row: Option<u64>,
    pub column: Option<String>,
    pub value: Option<String>,
}

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

/// `FILE: row R, column 'C': MESSAGE (value 'V')`, each part where known.
#[must_use]
pub fn located(path: &Path, at: &Location, message: &str) -> String {
    let (head, tail) = location_parts(path, at);
    format!("{head}{}{tail}", sanitize(message))
}

/// What [`located`] writes before the message (`FILE: row R, column 'C': `) and after it
/// (` (value 'V')`).
#[must_use]
pub fn location_parts(path: &Path, at: &Location) -> (String, String) {
    use fmt::Write as _;
    let mut head = show_path(path);
    if let Some(row) = at.row {
        let _ = write!(head, ": row {row}");
    }
    if let Some(col) = &at.column {
        let _ = write!(head, ", column '{}'", clip(&sanitize(col), 60));
    }
    head.push_str(": ");
    let tail = at.value.as_ref().map_or_else(String::new, |v| {
        format!(" (value '{}')", clip(&escape(v), 40))
    });
    (head, tail)
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.worded(&Described))
    }
}

impl std::error::Error for Error {}

/// Strips control characters (including ESC and bidi overrides) so that text taken from a
/// file can never drive the user's terminal.
#[must_use]
pub fn sanitize(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control() && !is_bidi_control(*c))
        .collect()
}

/// Shows control characters (and bidi overrides) as `\u{HEX}` escapes, so a value they made
/// unreadable is shown as it is (`'1\u{0}'`, not `'1'`) without driving the terminal.
#[must_use]
pub fn escape(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_control() || is_bidi_control(c) {
                format!("\\u{{{:x}}}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}')
}

/// Shortens `s` to at most `max` characters, marking the cut with an ellipsis.
#[must_use]
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}

fn show_path(p: &Path) -> String {
    sanitize(&p.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_shows_control_characters() {
        assert_eq!(escape("1\0"), "1\\u{0}");
        assert_eq!(escape("\x1b[2J"), "\\u{1b}[2J");
        assert_eq!(escape("A\u{202e}1"), "A\\u{202e}1");
        assert_eq!(escape("plain ρ"), "plain ρ");
    }

    #[test]
    fn sanitize_removes_escape_sequences_and_bidi() {
        assert_eq!(sanitize("a\x1b[31mb\u{202E}c\r\n"), "a[31mbc");
    }

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
}
