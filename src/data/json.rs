//! JSON records: an array of objects, JSON Lines (one object a line), or pandas' default
//! `to_json` (one object of columns). Each key is a column, in order of first appearance; a
//! key a record lacks, and `null`, are missing values. Long item/rater/score records are read
//! with `--long`, as long delimited text is.
//!
//! Memory: the input's bytes are held (up to [`super::limits::MAX_JSON_BYTES`]) and read one
//! record at a time, twice — once for the keys (the header) and every error, once for the
//! rows — so no tree of the whole document is built. pandas' column layout is one document
//! and is parsed whole.

use std::collections::HashMap;
use std::path::Path;

use csv::ByteRecord;
use serde::de::Error as _;
use serde_json::{Deserializer, Value};

use super::DataError;
use super::json_shape::{MAX_COLUMN_LAYOUT_BYTES, column_layout};
use super::records::Opened;
use super::records::Records;
use crate::location::Location;

/// Most distinct keys (columns) of one input: a record naming a new key on every line cannot
/// grow the header without bound.
const MAX_KEYS: usize = 100_000;

/// Marks the key under which a parse error happened, so the error can name its column.
const KEY_MARK: char = '\u{1}';

/// One record: (column, field) pairs.
type Record = Vec<(usize, Vec<u8>)>;

/// The records of a JSON input, or the located error of its first bad record.
pub(super) fn records(path: &Path, mut bytes: Vec<u8>) -> Result<Opened, DataError> {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    let Some(start) = bytes.iter().position(|b| !b.is_ascii_whitespace()) else {
        return Err(DataError::data(path, "the file is empty (no records)"));
    };
    if bytes[start] != b'['
        && bytes.len() > MAX_COLUMN_LAYOUT_BYTES
        && column_layout(&bytes[start..])
    {
        return Err(DataError::data(
            path,
            format!(
                "pandas' column layout ({{\"col\": {{\"index\": value, …}}, …}}) is read whole, so at most {} MiB of it is read (this is {} MiB): write the frame with df.to_json(orient='records', lines=True), which is read record by record, or as CSV or Parquet",
                MAX_COLUMN_LAYOUT_BYTES >> 20,
                bytes.len() >> 20
            ),
        ));
    }
    let mut keys = Keys::default();
    let mut scan = Scan::new(start, bytes[start] == b'[');
    let mut first = true;
    while let Some((row, v)) = scan.next(path, &bytes)? {
        if first && !scan.array && is_columns(&v.value) {
            let rest = &bytes[scan.pos..];
            if rest.iter().any(|b| !b.is_ascii_whitespace()) {
                return Err(DataError::data(
                    path,
                    "an object of columns (pandas' to_json default) followed by more JSON: write one layout (e.g. df.to_json(orient='records', lines=True))",
                ));
            }
            return columns(path, v);
        }
        first = false;
        record_keys(path, row, &v, &mut keys)?;
    }
    let width = keys.names.len();
    Ok(Opened::Records {
        names: keys.names,
        rows: Box::new(Table {
            scan: Scan::new(start, bytes[start] == b'['),
            bytes,
            index: keys.index,
            dense: vec![None; width],
            kept: Kept::default(),
        }),
    })
}

/// The first record's keys, from the first bytes of a JSON input (a prefix may end anywhere):
/// the explorer's file list tells a panel without reading the whole file. pandas' column
/// layout gives the columns seen in the prefix.
pub(super) fn first_keys(path: &Path, bytes: &[u8]) -> Result<Vec<String>, DataError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let Some(start) = bytes.iter().position(|b| !b.is_ascii_whitespace()) else {
        return Err(DataError::data(path, "the file is empty (no records)"));
    };
    let mut scan = Scan::new(start, bytes[start] == b'[');
    if !scan.array {
        let mut seen = Vec::new();
        let mut de = Deserializer::from_slice(&bytes[start..]);
        let _ = serde::Deserializer::deserialize_map(&mut de, KeyList(&mut seen));
        return Ok(seen);
    }
    let mut keys = Keys::default();
    if let Some((row, v)) = scan.next(path, bytes)? {
        record_keys(path, row, &v, &mut keys)?;
    }
    Ok(keys.names)
}

/// Collects an object's keys as they are read, skipping the values; a cut-off object keeps
/// the keys read before the cut.
struct KeyList<'a>(&'a mut Vec<String>);

impl<'de> serde::de::Visitor<'de> for KeyList<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<String>()? {
            self.0.push(key);
            map.next_value::<serde::de::IgnoredAny>()?;
        }
        Ok(())
    }
}

/// Where the next record starts, in an array (`[r1, r2, …]`) or a stream of values (JSON
/// Lines); the row errors name is the record's number in an array, its line in a stream.
struct Scan {
    pos: usize,
    array: bool,
    /// The array's opening bracket has been passed.
    opened: bool,
    done: bool,
    count: u64,
    line: u64,
    /// How far lines have been counted.
    counted: usize,
}

impl Scan {
    fn new(start: usize, array: bool) -> Scan {
        Scan {
            pos: start,
            array,
            opened: false,
            done: false,
            count: 0,
            line: 1,
            counted: 0,
        }
    }

    /// The next record with its row, or `None` at the end.
    fn next(&mut self, path: &Path, bytes: &[u8]) -> Result<Option<(u64, Strict)>, DataError> {
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

/// Column names by first appearance.
#[derive(Default)]
struct Keys {
    index: HashMap<String, usize>,
    names: Vec<String>,
}

impl Keys {
    fn slot(&mut self, path: &Path, row: u64, key: &str) -> Result<usize, DataError> {
        if let Some(&i) = self.index.get(key) {
            return Ok(i);
        }
        if self.names.len() >= MAX_KEYS {
            return Err(DataError::data_at(
                path,
                Location {
                    row: Some(row),
                    column: Some(key.to_string()),
                    value: None,
                },
                format!("more than {MAX_KEYS} distinct keys (columns) in the records"),
            ));
        }
        self.index.insert(key.to_string(), self.names.len());
        self.names.push(key.to_string());
        Ok(self.names.len() - 1)
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

/// What a JSON value is, for errors.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Checks a record (an object that names each key once) and notes its keys.
fn record_keys(path: &Path, row: u64, v: &Strict, keys: &mut Keys) -> Result<(), DataError> {
    repeated(path, Some(row), None, v.repeated.as_ref())?;
    let Value::Object(map) = &v.value else {
        return Err(DataError::data_at(
            path,
            Location {
                row: Some(row),
                ..Location::default()
            },
            format!(
                "a record is {} where an object of column: value pairs is expected",
                kind(&v.value)
            ),
        ));
    };
    for k in map.keys() {
        keys.slot(path, row, k)?;
    }
    Ok(())
}

/// A value as a text field: numbers in their shortest exact form (so they parse back to the
/// same bits), null as missing, nested values as JSON text (refused if the column is used).
fn field(v: Value) -> Vec<u8> {
    match v {
        Value::Null => Vec::new(),
        Value::String(s) => s.into_bytes(),
        other => other.to_string().into_bytes(),
    }
}

/// pandas' default `to_json`: one object whose every value is an object (column → index →
/// value).
fn is_columns(v: &Value) -> bool {
    matches!(v, Value::Object(m) if !m.is_empty() && m.values().all(Value::is_object))
}

/// The rows of pandas' column layout: one per index label, in order of first appearance; the
/// row number is that order (1-based).
fn columns(path: &Path, v: Strict) -> Result<Opened, DataError> {
    // A column named twice is refused before the rows are built; a label twice, after (its row).
    let rep = v.repeated;
    if rep.as_ref().is_some_and(|r| r.parent.is_none()) {
        repeated(path, None, None, rep.as_ref())?;
    }
    let mut keys = Keys::default();
    let mut labels: HashMap<String, usize> = HashMap::new();
    let mut rows: Vec<(u64, Record)> = Vec::new();
    if let Value::Object(cols) = v.value {
        for (name, cells) in cols {
            let c = keys.slot(path, 1, &name)?;
            let Value::Object(cells) = cells else {
                continue;
            };
            for (label, x) in cells {
                let next = labels.len();
                let r = *labels.entry(label).or_insert(next);
                if r == rows.len() {
                    rows.push((r as u64 + 1, Vec::new()));
                }
                rows[r].1.push((c, field(x)));
            }
        }
    }
    repeated(path, None, Some(&labels), rep.as_ref())?;
    let width = keys.names.len();
    Ok(Opened::Records {
        names: keys.names,
        rows: Box::new(Built {
            rows: rows.into_iter(),
            dense: vec![None; width],
            kept: Kept::default(),
        }),
    })
}
/// A repeated key is refused, as a repeated CSV header is: which value was meant is
/// unknowable (serde_json would keep the last). Only the keys that name columns count: a
/// record's own keys (`row` given), or a column layout's columns and index labels (`labels`
/// given: each label's row); a repeat deeper down is inside one column's nested value,
/// ignored with an unused column and refused as nested with a used one.
fn repeated(
    path: &Path,
    row: Option<u64>,
    labels: Option<&HashMap<String, usize>>,
    rep: Option<&Repeat>,
) -> Result<(), DataError> {
    let names = if row.is_some() { 1 } else { 2 };
    let Some(rep) = rep.filter(|r| r.depth <= names) else {
        return Ok(());
    };
    let key = crate::location::sanitize(&rep.key);
    let (at, message) = match (row, &rep.parent) {
        (Some(_), _) => (
            Location {
                row,
                column: Some(rep.key.clone()),
                value: None,
            },
            "this key appears twice in the record; give each column one name".to_string(),
        ),
        // An index label twice in one column: that label's row, in that column.
        (None, Some(column)) => (
            Location {
                row: labels.and_then(|l| l.get(&rep.key)).map(|&r| r as u64 + 1),
                column: Some(column.clone()),
                value: None,
            },
            format!("index label '{key}' appears twice in this column; give each item one label"),
        ),
        (None, None) => (
            Location {
                column: Some(rep.key.clone()),
                ..Location::default()
            },
            "this column appears twice in the object of columns; give each column one name"
                .to_string(),
        ),
    };
    Err(DataError::data_at(path, at, message))
}

/// A JSON value with the first key any of its objects names twice.
struct Strict {
    value: Value,
    repeated: Option<Repeat>,
}

/// A key named twice in one object: the object's depth (1: the value itself is the object;
/// 2: an object inside it; …) and the key under which that object sits one level up, which
/// in pandas' column layout is the column.
struct Repeat {
    key: String,
    depth: usize,
    parent: Option<String>,
}

impl Repeat {
    /// This repeat seen from one level up, inside `under`.
    fn nested(self, under: &str) -> Repeat {
        Repeat {
            parent: self.parent.or_else(|| Some(under.to_string())),
            depth: self.depth + 1,
            key: self.key,
        }
    }
}

impl<'de> serde::Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor)
    }
}

/// Builds a [`Strict`] as serde_json builds a `Value`, noting repeated keys.
struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = Strict;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Strict, E> {
        Ok(Strict::plain(Value::Bool(b)))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Strict, E> {
        Ok(Strict::plain(Value::from(i)))
    }

    fn visit_u64<E>(self, u: u64) -> Result<Strict, E> {
        Ok(Strict::plain(Value::from(u)))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Strict, E> {
        Ok(Strict::plain(
            serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number),
        ))
    }

    fn visit_str<E>(self, s: &str) -> Result<Strict, E> {
        Ok(Strict::plain(Value::String(s.to_owned())))
    }

    fn visit_string<E>(self, s: String) -> Result<Strict, E> {
        Ok(Strict::plain(Value::String(s)))
    }

    fn visit_unit<E>(self) -> Result<Strict, E> {
        Ok(Strict::plain(Value::Null))
    }

    fn visit_none<E>(self) -> Result<Strict, E> {
        Ok(Strict::plain(Value::Null))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Strict, A::Error> {
        let (mut items, mut repeated) = (Vec::new(), None);
        while let Some(Strict { value, repeated: r }) = seq.next_element::<Strict>()? {
            repeated = repeated.or(r.map(|r| Repeat {
                depth: r.depth + 1,
                ..r
            }));
            items.push(value);
        }
        Ok(Strict {
            value: Value::Array(items),
            repeated,
        })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Strict, A::Error> {
        let (mut object, mut repeated) = (serde_json::Map::new(), None);
        while let Some(key) = map.next_key::<String>()? {
            let Strict { value, repeated: r } = map
                .next_value::<Strict>()
                .map_err(|e| A::Error::custom(format!("{KEY_MARK}{key}{KEY_MARK}{e}")))?;
            if object.contains_key(&key) {
                repeated = repeated.or(Some(Repeat {
                    key,
                    depth: 1,
                    parent: None,
                }));
            } else {
                repeated = repeated.or(r.map(|r| r.nested(&key)));
                object.insert(key, value);
            }
        }
        Ok(Strict {
            value: Value::Object(object),
            repeated,
        })
    }
}

impl Strict {
    fn plain(value: Value) -> Self {
        Strict {
            value,
            repeated: None,
        }
    }
}

/// Records read one at a time from the held bytes, handed out as rows.
struct Table {
    bytes: Vec<u8>,
    scan: Scan,
    index: HashMap<String, usize>,
    dense: Vec<Option<Vec<u8>>>,
    kept: Kept,
}

impl Records for Table {
    fn next(&mut self, rec: &mut ByteRecord) -> Result<Option<u64>, DataError> {
        // The path only names errors, and the first pass has found them all.
        let Some((row, v)) = self.scan.next(Path::new(""), &self.bytes)? else {
            return Ok(None);
        };
        self.dense.iter_mut().for_each(|d| *d = None);
        if let Value::Object(map) = v.value {
            for (k, x) in map {
                if let Some(&c) = self.index.get(&k)
                    && let Some(slot) = self.kept.slot(c)
                {
                    self.dense[slot] = Some(field(x));
                }
            }
        }
        fill(rec, &self.dense);
        Ok(Some(row))
    }

    fn keep(&mut self, cols: &[usize]) -> bool {
        self.kept = Kept::of(cols, self.dense.len());
        self.dense = vec![None; cols.len()];
        true
    }
}

/// Which columns a record table hands out, and where (all of them, in order, until
/// [`Records::keep`] narrows them).
#[derive(Default)]
struct Kept {
    slot_of: Option<Vec<Option<usize>>>,
}

impl Kept {
    fn of(cols: &[usize], width: usize) -> Kept {
        let mut slot_of = vec![None; width];
        for (slot, &c) in cols.iter().enumerate() {
            if let Some(s) = slot_of.get_mut(c) {
                *s = Some(slot);
            }
        }
        Kept {
            slot_of: Some(slot_of),
        }
    }

    /// Where column `c` goes in a row, if it is handed out.
    fn slot(&self, c: usize) -> Option<usize> {
        match &self.slot_of {
            None => Some(c),
            Some(s) => s.get(c).copied().flatten(),
        }
    }
}

/// Rows built whole (pandas' column layout), handed out in order.
struct Built {
    rows: std::vec::IntoIter<(u64, Record)>,
    dense: Vec<Option<Vec<u8>>>,
    kept: Kept,
}

impl Records for Built {
    fn next(&mut self, rec: &mut ByteRecord) -> Result<Option<u64>, DataError> {
        let Some((row, fields)) = self.rows.next() else {
            return Ok(None);
        };
        self.dense.iter_mut().for_each(|d| *d = None);
        for (c, f) in fields {
            if let Some(slot) = self.kept.slot(c) {
                self.dense[slot] = Some(f);
            }
        }
        fill(rec, &self.dense);
        Ok(Some(row))
    }

    fn keep(&mut self, cols: &[usize]) -> bool {
        self.kept = Kept::of(cols, self.dense.len());
        self.dense = vec![None; cols.len()];
        true
    }
}

/// A row's fields in header order, empty where missing.
fn fill(rec: &mut ByteRecord, dense: &[Option<Vec<u8>>]) {
    rec.clear();
    for d in dense {
        rec.push_field(d.as_deref().unwrap_or_default());
    }
}
