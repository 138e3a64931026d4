//! Walking a JSON input record by record: an array of objects or a stream of values (JSON
//! Lines), each record's syntax error located at its row and, through its key, its column.

use std::path::Path;

use serde_json::Deserializer;

use super::DataError;
use super::json_strict::{KEY_MARK, Strict};
use crate::location::Location;

/// Where the next record starts, in an array (`[r1, r2, …]`) or a stream of values (JSON
/// Lines); the row errors name is the record's number in an array, its line in a stream.
pub(super) struct Scan {
    pub(super) pos: usize,
    pub(super) array: bool,
    /// Where the record last handed out starts (it ends at `pos`).
    pub(super) record_start: usize,
    /// The array's opening bracket has been passed.
    opened: bool,
    done: bool,
    count: u64,
    line: u64,
    /// How far lines have been counted.
    counted: usize,
}

impl Scan {
    pub(super) fn new(start: usize, array: bool) -> Scan {
        Scan {
            pos: start,
            array,
            record_start: start,
            opened: false,
            done: false,
            count: 0,
            line: 1,
            counted: 0,
        }
    }

    /// The next record with its row, or `None` at the end.
    pub(super) fn next(
        &mut self,
        path: &Path,
        bytes: &[u8],
    ) -> Result<Option<(u64, Strict)>, DataError> {
        if self.done {
            return Ok(None);
        }
        self.skip_space(bytes);
        if self.array {
            if self.opened {
                match bytes.get(self.pos) {
                    Some(b',') => {
                        self.pos += 1;
                        self.skip_space(bytes);
                        if matches!(bytes.get(self.pos), Some(b']') | None) {
                            return Err(self.broken(path, "a comma after the last record"));
                        }
                    }
                    Some(b']') => return self.close(path, bytes),
                    None => return Err(self.broken(path, "the array never closes (no ']')")),
                    _ => return Err(self.broken(path, "expected ',' or ']' after a record")),
                }
            } else {
                self.opened = true;
                self.pos += 1;
                self.skip_space(bytes);
                if bytes.get(self.pos) == Some(&b']') {
                    return self.close(path, bytes);
                }
            }
        } else if self.pos >= bytes.len() {
            self.done = true;
            return Ok(None);
        }
        self.count += 1;
        self.line += memchr::memchr_iter(b'\n', &bytes[self.counted..self.pos]).count() as u64;
        self.counted = self.pos;
        let row = if self.array { self.count } else { self.line };
        let mut stream = Deserializer::from_slice(&bytes[self.pos..]).into_iter::<Strict>();
        match stream.next() {
            Some(Ok(v)) => {
                self.record_start = self.pos;
                self.pos += stream.byte_offset();
                Ok(Some((row, v)))
            }
            Some(Err(e)) => Err(syntax(path, row, &e, &bytes[self.pos..])),
            None => Err(self.broken(path, "the array never closes")),
        }
    }

    fn skip_space(&mut self, bytes: &[u8]) {
        self.pos += bytes[self.pos.min(bytes.len())..]
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(bytes.len().saturating_sub(self.pos));
    }

    /// The array's closing bracket: only whitespace may follow.
    fn close(&mut self, path: &Path, bytes: &[u8]) -> Result<Option<(u64, Strict)>, DataError> {
        self.pos += 1;
        self.skip_space(bytes);
        self.done = true;
        if self.pos < bytes.len() {
            return Err(self.broken(path, "more JSON after the array's closing ']'"));
        }
        Ok(None)
    }

    /// A break in the array's punctuation, at the record reached.
    fn broken(&self, path: &Path, what: &str) -> DataError {
        DataError::data_at(
            path,
            Location {
                row: Some(self.count.max(1)),
                ..Location::default()
            },
            format!("not valid JSON: {what}"),
        )
    }
}

/// A JSON syntax error in the record at `row` whose text starts `rest`: the key it sits
/// under names the column; a bare `NaN` or `Infinity` (Python's `json.dumps` default) is
/// named as the cause.
fn syntax(path: &Path, row: u64, e: &serde_json::Error, rest: &[u8]) -> DataError {
    let text = e.to_string();
    let mut message = text.as_str();
    let mut column = None;
    while let Some(inner) = message.strip_prefix(KEY_MARK) {
        let (key, tail) = inner.split_once(KEY_MARK).unwrap_or((inner, ""));
        column = column.or(Some(key.to_string()));
        message = tail;
    }
    let message = message.split(" at line ").next().unwrap_or(message);
    let at = offset(rest, e.line(), e.column());
    let bare = [at.saturating_sub(1), at].iter().any(|&i| {
        rest.get(i..).is_some_and(|r| {
            [&b"NaN"[..], b"Infinity", b"-Infinity"]
                .iter()
                .any(|w| r.starts_with(w))
        })
    });
    let hint = if bare {
        ": bare NaN and Infinity are not JSON; write null for a missing value"
    } else {
        ""
    };
    DataError::data_at(
        path,
        Location {
            row: Some(row),
            column,
            value: None,
        },
        format!("not valid JSON: {message}{hint}"),
    )
}

/// The byte offset of a (1-based) line and column in `text`.
fn offset(text: &[u8], line: usize, column: usize) -> usize {
    let start = if line <= 1 {
        0
    } else {
        memchr::memchr_iter(b'\n', text)
            .nth(line - 2)
            .map_or(text.len(), |i| i + 1)
    };
    start + column.saturating_sub(1)
}
