//! JSON records: an array of objects, JSON Lines (one object a line), or pandas' default
//! `to_json` (one object of columns). Each key is a column, in order of first appearance; a
//! key a record lacks, and `null`, are missing values. Long item/rater/score records are read
//! with `--long`, as long delimited text is.

use std::collections::HashMap;
use std::path::Path;

use csv::ByteRecord;
use serde_json::{Deserializer, Value};

use super::DataError;
use super::records::Opened;
use super::records::Records;
use crate::location::Location;

/// Most distinct keys (columns) of one input: a record naming a new key on every line cannot
/// grow the header without bound.
const MAX_KEYS: usize = 100_000;

/// One record: (column, field) pairs.
type Record = Vec<(usize, Vec<u8>)>;

/// The records of a JSON input, or the located error of its first bad record.
pub(super) fn records(path: &Path, text: &[u8]) -> Result<Opened, DataError> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let Some(start) = text.iter().position(|b| !b.is_ascii_whitespace()) else {
        return Err(DataError::data(path, "the file is empty (no records)"));
    };
    let mut keys = Keys::default();
    let mut rows: Vec<(u64, Record)> = Vec::new();
    if text[start] == b'[' {
        let values: Vec<Strict> = serde_json::from_slice(text).map_err(|e| syntax(path, &e))?;
        for (i, v) in values.into_iter().enumerate() {
            let row = i as u64 + 1;
            rows.push((row, record(path, row, v, &mut keys)?));
        }
    } else {
        let mut stream = Deserializer::from_slice(text).into_iter::<Strict>();
        let (mut pos, mut line) = (0usize, 1u64);
        loop {
            let offset = stream.byte_offset();
            let v = match stream.next() {
                None => break,
                Some(Err(e)) => return Err(syntax(path, &e)),
                Some(Ok(v)) => v,
            };
            let begin = offset
                + text[offset..]
                    .iter()
                    .position(|b| !b.is_ascii_whitespace())
                    .unwrap_or(0);
            line += memchr::memchr_iter(b'\n', &text[pos..begin]).count() as u64;
            pos = begin;
            if rows.is_empty() && keys.names.is_empty() && is_columns(&v.value) {
                return columns(path, v, &mut stream);
            }
            rows.push((line, record(path, line, v, &mut keys)?));
        }
    }
    Ok(table(keys, rows))
}

/// The opened input of parsed records.
fn table(keys: Keys, rows: Vec<(u64, Record)>) -> Opened {
    let width = keys.names.len();
    Opened::Records {
        names: keys.names,
        rows: Box::new(Table {
            rows: rows.into_iter(),
            dense: vec![None; width],
        }),
    }
}

/// Column names by first appearance.
#[derive(Default)]
struct Keys {
    index: HashMap<String, usize>,
    names: Vec<String>,
}

impl Keys {
    fn slot(&mut self, path: &Path, row: u64, key: String) -> Result<usize, DataError> {
        if let Some(&i) = self.index.get(&key) {
            return Ok(i);
        }
        if self.names.len() >= MAX_KEYS {
            return Err(DataError::data_at(
                path,
                Location {
                    row: Some(row),
                    column: Some(key),
                    value: None,
                },
                format!("more than {MAX_KEYS} distinct keys (columns) in the records"),
            ));
        }
        self.index.insert(key.clone(), self.names.len());
        self.names.push(key);
        Ok(self.names.len() - 1)
    }
}

/// A JSON syntax error at its line.
fn syntax(path: &Path, e: &serde_json::Error) -> DataError {
    let text = e.to_string();
    let message = text
        .rsplit_once(" at line ")
        .map_or(text.as_str(), |(m, _)| m);
    DataError::data_at(
        path,
        Location {
            row: Some(e.line() as u64),
            ..Location::default()
        },
        format!("not valid JSON: {message} (character {})", e.column()),
    )
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

/// A record's fields; the record must be an object that names each key once.
fn record(path: &Path, row: u64, v: Strict, keys: &mut Keys) -> Result<Record, DataError> {
    repeated(path, Some(row), None, v.repeated.as_ref())?;
    let Value::Object(map) = v.value else {
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
    map.into_iter()
        .map(|(k, v)| Ok((keys.slot(path, row, k)?, field(v))))
        .collect()
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
fn columns<'a, R: serde_json::de::Read<'a>>(
    path: &Path,
    v: Strict,
    rest: &mut serde_json::StreamDeserializer<'a, R, Strict>,
) -> Result<Opened, DataError> {
    match rest.next() {
        None => {}
        Some(Err(e)) => return Err(syntax(path, &e)),
        Some(Ok(_)) => {
            return Err(DataError::data(
                path,
                "an object of columns (pandas' to_json default) followed by more JSON: write one layout (e.g. df.to_json(orient='records', lines=True))",
            ));
        }
    }
    // A column named twice is refused before the rows are built; a label twice, after (its row).
    let rep = v.repeated;
    if rep.as_ref().is_some_and(|r| r.parent.is_none()) {
        repeated(path, None, None, rep.as_ref())?;
    }
    let Value::Object(cols) = v.value else {
        return Ok(table(Keys::default(), Vec::new()));
    };
    let mut keys = Keys::default();
    let mut labels: HashMap<String, usize> = HashMap::new();
    let mut rows: Vec<(u64, Record)> = Vec::new();
    for (name, cells) in cols {
        let c = keys.slot(path, 1, name)?;
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
    repeated(path, None, Some(&labels), rep.as_ref())?;
    Ok(table(keys, rows))
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
            let Strict { value, repeated: r } = map.next_value::<Strict>()?;
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

/// Parsed records, handed out as rows.
struct Table {
    rows: std::vec::IntoIter<(u64, Record)>,
    dense: Vec<Option<Vec<u8>>>,
}

impl Records for Table {
    fn next(&mut self, rec: &mut ByteRecord) -> Result<Option<u64>, DataError> {
        let Some((row, fields)) = self.rows.next() else {
            return Ok(None);
        };
        self.dense.iter_mut().for_each(|d| *d = None);
        for (c, f) in fields {
            self.dense[c] = Some(f);
        }
        rec.clear();
        for d in &self.dense {
            rec.push_field(d.as_deref().unwrap_or_default());
        }
        Ok(Some(row))
    }
}
