//! Where in an input a problem sits, and the text guards that print it: the ground floor
//! every layer's error names a file, row, column and value through.

use std::fmt;
use std::path::Path;

/// Where in an input file a problem sits. Rows are 1-based line numbers of the file
/// (the header is line 1), so an editor's "go to line" lands on the culprit.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Location {
    pub row: Option<u64>,
    pub column: Option<String>,
    pub value: Option<String>,
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

/// [`escape`] for bytes that may not be UTF-8: a byte that is not is shown as `\xHH`, never
/// as U+FFFD, so the value printed is the value refused.
#[must_use]
pub fn escape_bytes(bytes: &[u8]) -> String {
    bytes
        .utf8_chunks()
        .map(|c| {
            let mut s = escape(c.valid());
            for b in c.invalid() {
                let _ = std::fmt::Write::write_fmt(&mut s, format_args!("\\x{b:02X}"));
            }
            s
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

/// A path as one safe line of text.
#[must_use]
pub fn show_path(p: &Path) -> String {
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
    fn located_names_row_column_and_value() {
        let at = Location {
            row: Some(4),
            column: Some("J\x072".into()),
            value: Some("abc".into()),
        };
        assert_eq!(
            located(Path::new("x.csv"), &at, "not a number"),
            "x.csv: row 4, column 'J2': not a number (value 'abc')"
        );
    }
}
