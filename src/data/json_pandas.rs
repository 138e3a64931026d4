//! pandas' `to_json` orients met as one JSON document: which one it is, and the rows of the
//! ones that say unambiguously what a row and a column are. pandas' index is a row's label,
//! never a column, so it can never take a judge's or an anchor's role.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use serde_json::{Map, Value};

use super::DataError;
use super::json_numbers::numbers_at;
use super::json_rows::{Built, Record, Row, cell};
use super::records::Opened;
use super::roles::default_role;
use crate::location::Location;

/// Which of pandas' orients one JSON document is.
pub(super) enum Orient {
    /// `{"col": {"label": value}}` (pandas' default).
    Columns,
    /// `{"label": {"col": value}}`: the default's transpose.
    Index,
    /// `{"columns": [...], "index": [...], "data": [[...]]}`.
    Split,
    /// `{"schema": {...}, "data": [{...}]}`.
    Table,
}

/// The orient of an object read as one whole document, if it is one of pandas'.
pub(super) fn orient(path: &Path, v: &Value) -> Result<Option<Orient>, DataError> {
    let Value::Object(m) = v else { return Ok(None) };
    let keys: HashSet<&str> = m.keys().map(String::as_str).collect();
    let data_rows = matches!(m.get("data"), Some(Value::Array(_)));
    let split = keys
        .iter()
        .all(|k| matches!(*k, "columns" | "index" | "data"));
    if data_rows && keys.contains("columns") && split {
        return Ok(Some(Orient::Split));
    }
    if data_rows && matches!(m.get("schema"), Some(Value::Object(s)) if s.contains_key("fields")) {
        return Ok(Some(Orient::Table));
    }
    if m.is_empty() || !m.values().all(Value::is_object) {
        return Ok(None);
    }
    let outer: Vec<&str> = keys.iter().copied().collect();
    let inner: Vec<&str> = m
        .values()
        .filter_map(Value::as_object)
        .flat_map(|o| o.keys().map(String::as_str))
        .collect();
    let roles = |k: &[&str]| k.iter().any(|n| default_role(n).is_some());
    let numbers = |k: &[&str]| !k.is_empty() && k.iter().all(|n| is_label(n));
    let (outer_roles, inner_roles) = (roles(&outer), roles(&inner));
    if inner_roles && !outer_roles || numbers(&outer) && !numbers(&inner) && !outer_roles {
        return Ok(Some(Orient::Index));
    }
    if numbers(&outer) && numbers(&inner) && !outer_roles {
        return Err(DataError::data(
            path,
            "an object of objects whose outer and inner keys are all numbers: pandas' orient='columns' and orient='index' both write this, so which keys are the columns cannot be told; write the frame with df.to_json(orient='records'), or as CSV",
        ));
    }
    Ok(Some(Orient::Columns))
}

/// Whether a key is a number as pandas writes a default index label (`0`, `-3`).
fn is_label(k: &str) -> bool {
    let d = k.strip_prefix('-').unwrap_or(k);
    !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
}

/// The rows of a document in orient `o` (not [`Orient::Columns`], which json.rs reads); `text`
/// is the document as written, for its numbers' digits.
pub(super) fn rows(path: &Path, o: &Orient, v: Value, text: &[u8]) -> Result<Opened, DataError> {
    let Value::Object(m) = v else {
        return Err(DataError::data(path, "pandas' layout is not an object"));
    };
    let mut names = Names::default();
    let rows = match o {
        Orient::Index => index_rows(m, numbers_at(text, 2), &mut names),
        Orient::Split => split_rows(path, m, text, &mut names)?,
        // json.rs reads the column layout itself, cell by cell as written.
        Orient::Columns => Vec::new(),
        Orient::Table => table_rows(path, m, text, &mut names)?,
    };
    let width = names.names.len();
    Ok(Opened::Records {
        names: names.names,
        rows: Box::new(Built {
            path: path.to_path_buf(),
            rows: rows.into_iter(),
            row: Row::new(width),
        }),
    })
}

/// Column names by first appearance.
#[derive(Default)]
struct Names {
    index: HashMap<String, usize>,
    names: Vec<String>,
}

impl Names {
    fn slot(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.index.insert(name.to_string(), self.names.len());
        self.names.push(name.to_string());
        self.names.len() - 1
    }
}

/// orient='index': one row per outer key, in order.
fn index_rows(m: Map<String, Value>, raw: Vec<&[u8]>, names: &mut Names) -> Vec<(u64, Record)> {
    let mut raw = raw.into_iter();
    let mut rows = Vec::with_capacity(m.len());
    for (r, (_, cells)) in m.into_iter().enumerate() {
        let mut record = Vec::new();
        if let Value::Object(cells) = cells {
            for (name, x) in cells {
                let text = if x.is_number() { raw.next() } else { None };
                record.push(cell(names.slot(&name), x, text));
            }
        }
        rows.push((r as u64 + 1, record));
    }
    rows
}

/// The digits of the numbers under top-level key `key` that sit three containers deep (a
/// cell of a row of `data`), skipping those of the keys written before it.
fn data_numbers<'a>(m: &Map<String, Value>, key: &str, text: &'a [u8]) -> Vec<&'a [u8]> {
    let before: usize = m
        .iter()
        .take_while(|(k, _)| k.as_str() != key)
        .map(|(_, v)| numbers_in(v, 2))
        .sum();
    let count = m.get(key).map_or(0, |v| numbers_in(v, 2));
    numbers_at(text, 3)
        .into_iter()
        .skip(before)
        .take(count)
        .collect()
}

/// How many numbers sit `depth` containers inside `v`.
fn numbers_in(v: &Value, depth: usize) -> usize {
    match v {
        Value::Number(_) if depth == 0 => 1,
        Value::Array(a) if depth > 0 => a.iter().map(|x| numbers_in(x, depth - 1)).sum(),
        Value::Object(o) if depth > 0 => o.values().map(|x| numbers_in(x, depth - 1)).sum(),
        _ => 0,
    }
}

/// A refusal at a row of pandas' `data`.
fn at_row(path: &Path, row: u64, message: String) -> DataError {
    let at = Location {
        row: Some(row),
        ..Location::default()
    };
    DataError::data_at(path, at, message)
}

/// orient='split': `columns` names the cells of each row of `data`; `index` is the rows' labels.
fn split_rows(
    path: &Path,
    m: Map<String, Value>,
    text: &[u8],
    names: &mut Names,
) -> Result<Vec<(u64, Record)>, DataError> {
    let mut raw = data_numbers(&m, "data", text).into_iter();
    let mut cols = Vec::new();
    for c in m
        .get("columns")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = match c {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => {
                return Err(DataError::data(
                    path,
                    "pandas' orient='split' with a column name that is not a name (a MultiIndex?): write the frame with df.to_json(orient='records') after flattening its columns",
                ));
            }
        };
        cols.push(names.slot(&name));
    }
    let Some(Value::Array(data)) = m.into_iter().find(|(k, _)| k == "data").map(|(_, v)| v) else {
        return Ok(Vec::new());
    };
    let mut rows = Vec::with_capacity(data.len());
    for (r, cells) in data.into_iter().enumerate() {
        let row = r as u64 + 1;
        let Value::Array(cells) = cells else {
            return Err(at_row(
                path,
                row,
                "pandas' orient='split' has a row of data that is not an array".into(),
            ));
        };
        if cells.len() != cols.len() {
            return Err(at_row(
                path,
                row,
                format!(
                    "pandas' orient='split' has a row of {} values for {} columns",
                    cells.len(),
                    cols.len()
                ),
            ));
        }
        let record = cols
            .iter()
            .zip(cells)
            .map(|(&c, x)| {
                let t = if x.is_number() { raw.next() } else { None };
                cell(c, x, t)
            })
            .collect();
        rows.push((row, record));
    }
    Ok(rows)
}

/// orient='table': `data` holds records; the fields `schema.primaryKey` names (pandas' index,
/// `index` when it has no name) are the rows' labels, not columns.
fn table_rows(
    path: &Path,
    m: Map<String, Value>,
    text: &[u8],
    names: &mut Names,
) -> Result<Vec<(u64, Record)>, DataError> {
    let mut raw = data_numbers(&m, "data", text).into_iter();
    let schema = m.get("schema").and_then(Value::as_object);
    let mut index: HashSet<String> = match schema.and_then(|s| s.get("primaryKey")) {
        Some(Value::String(k)) => HashSet::from([k.clone()]),
        Some(Value::Array(ks)) => ks
            .iter()
            .filter_map(Value::as_str)
            .map(String::from)
            .collect(),
        _ => HashSet::new(),
    };
    index.insert("index".to_string());
    let fields = schema
        .and_then(|s| s.get("fields"))
        .and_then(Value::as_array);
    for f in fields.into_iter().flatten() {
        if let Some(n) = f
            .get("name")
            .and_then(Value::as_str)
            .filter(|n| !index.contains(*n))
        {
            names.slot(n);
        }
    }
    let Some(Value::Array(data)) = m.into_iter().find(|(k, _)| k == "data").map(|(_, v)| v) else {
        return Ok(Vec::new());
    };
    let mut rows = Vec::with_capacity(data.len());
    for (r, rec) in data.into_iter().enumerate() {
        let row = r as u64 + 1;
        let Value::Object(rec) = rec else {
            return Err(at_row(
                path,
                row,
                "pandas' orient='table' has a row of data that is not an object".into(),
            ));
        };
        let mut record = Vec::with_capacity(rec.len());
        for (k, x) in rec {
            let t = if x.is_number() { raw.next() } else { None };
            if !index.contains(&k) {
                record.push(cell(names.slot(&k), x, t));
            }
        }
        rows.push((row, record));
    }
    Ok(rows)
}

/// The refusal of pandas' orient='values' (rows without column names), at its first row.
pub(super) fn values_refused(path: &Path, row: u64) -> DataError {
    at_row(
        path,
        row,
        "a record is an array: pandas' orient='values' writes rows without column names; write the frame with df.to_json(orient='records')".into(),
    )
}
