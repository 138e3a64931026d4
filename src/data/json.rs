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

use serde_json::{Deserializer, Value};

use super::DataError;
use super::json_numbers::numbers_at;
use super::json_pandas::{self, Orient};
use super::json_rows::{Built, Record, Row, Table, cell};
use super::json_scan::Scan;
use super::json_shape::{MAX_COLUMN_LAYOUT_BYTES, column_layout};
use super::json_strict::{Strict, repeated};
use super::records::Opened;
use crate::location::Location;

/// Most distinct keys (columns) of one input: a record naming a new key on every line cannot
/// grow the header without bound.
const MAX_KEYS: usize = 100_000;

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
        if first && !scan.array {
            let rest = bytes[scan.pos..].iter().any(|b| !b.is_ascii_whitespace());
            let orient = if rest && !is_columns(&v.value) {
                None
            } else {
                json_pandas::orient(path, &v.value)?
            };
            if let Some(orient) = orient {
                if rest {
                    return Err(DataError::data(
                        path,
                        "an object of columns (pandas' to_json default) followed by more JSON: write one layout (e.g. df.to_json(orient='records', lines=True))",
                    ));
                }
                let text = &bytes[scan.record_start..scan.pos];
                if let Orient::Columns = orient {
                    return columns(path, v, numbers_at(text, 2));
                }
                repeated(path, None, None, v.repeated.as_ref())?;
                return json_pandas::rows(path, &orient, v.value, text);
            }
        }
        first = false;
        record_keys(path, row, &v, &mut keys)?;
    }
    let width = keys.names.len();
    Ok(Opened::Records {
        names: keys.names,
        rows: Box::new(Table {
            path: path.to_path_buf(),
            ids: Vec::new(),
            scan: Scan::new(start, bytes[start] == b'['),
            bytes,
            index: keys.index,
            row: Row::new(width),
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
    if v.value.is_array() {
        return Err(json_pandas::values_refused(path, row));
    }
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

/// pandas' default `to_json`: one object whose every value is an object (column → index →
/// value).
fn is_columns(v: &Value) -> bool {
    matches!(v, Value::Object(m) if !m.is_empty() && m.values().all(Value::is_object))
}

/// The rows of pandas' column layout: one per index label, in order of first appearance; the
/// row number is that order (1-based).
/// `raw` holds the cells' numbers as written, in order.
fn columns(path: &Path, v: Strict, raw: Vec<&[u8]>) -> Result<Opened, DataError> {
    // A column named twice is refused before the rows are built; a label twice, after (its row).
    let rep = v.repeated;
    if rep.as_ref().is_some_and(|r| r.parent.is_none()) {
        repeated(path, None, None, rep.as_ref())?;
    }
    let mut keys = Keys::default();
    let mut labels: HashMap<String, usize> = HashMap::new();
    let mut rows: Vec<(u64, Record)> = Vec::new();
    let mut raw = raw.into_iter();
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
                let text = if x.is_number() { raw.next() } else { None };
                rows[r].1.push(cell(c, x, text));
            }
        }
    }
    repeated(path, None, Some(&labels), rep.as_ref())?;
    let width = keys.names.len();
    Ok(Opened::Records {
        names: keys.names,
        rows: Box::new(Built {
            path: path.to_path_buf(),
            rows: rows.into_iter(),
            row: Row::new(width),
        }),
    })
}
