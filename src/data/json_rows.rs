//! Handing JSON records out as rows: each record's fields in header order, narrowed to the
//! columns the panel keeps.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use csv::ByteRecord;
use serde_json::Value;

use super::DataError;
use super::json_numbers::numbers_at;
use super::json_scan::Scan;
use super::records::Records;
use crate::location::Location;

/// One record: (column, field, whether the value is a boolean, array or object) triples.
pub(super) type Record = Vec<(usize, Vec<u8>, bool)>;

/// A value as one cell of a built record: its column, its field and whether it is a boolean,
/// an array or an object (no id may be one).
pub(super) fn cell(c: usize, v: Value, raw: Option<&[u8]>) -> (usize, Vec<u8>, bool) {
    let odd = odd(&v);
    (c, field(v, raw), odd)
}

/// Whether a value is a boolean, an array or an object: a cell, never an id.
fn odd(v: &Value) -> bool {
    matches!(v, Value::Bool(_) | Value::Array(_) | Value::Object(_))
}

/// The refusal of a boolean, array or object given as an item or rater id.
fn odd_id(path: &Path, row: u64, column: &str, v: &str) -> DataError {
    DataError::data_at(
        path,
        Location {
            row: Some(row),
            column: Some(column.to_string()),
            value: Some(v.to_string()),
        },
        "an id is a string or a number, and this is a boolean, an array or an object: write the id as text",
    )
}

/// A value as a text field: a number as written (`raw`, so the cell reader refuses what a
/// double cannot hold, as in a CSV), null as missing, nested values as JSON text (refused if
/// the column is used).
pub(super) fn field(v: Value, raw: Option<&[u8]>) -> Vec<u8> {
    match (v, raw) {
        (Value::Null, _) => Vec::new(),
        (Value::Number(_), Some(text)) => text.to_vec(),
        (Value::String(s), _) => s.into_bytes(),
        (other, _) => other.to_string().into_bytes(),
    }
}

/// Records read one at a time from the held bytes, handed out as rows.
pub(super) struct Table {
    pub(super) path: PathBuf,
    pub(super) bytes: Vec<u8>,
    /// The id columns ([`Records::ids`]), by name.
    pub(super) ids: Vec<String>,
    pub(super) scan: Scan,
    pub(super) index: HashMap<String, usize>,
    pub(super) row: Row,
}

impl Records for Table {
    fn next(&mut self, rec: &mut ByteRecord) -> Result<Option<u64>, DataError> {
        // The path only names errors, and the first pass has found them all.
        let Some((row, v)) = self.scan.next(Path::new(""), &self.bytes)? else {
            return Ok(None);
        };
        self.row.clear();
        let record = &self.bytes[self.scan.record_start..self.scan.pos];
        let mut raw = numbers_at(record, 1).into_iter();
        if let Value::Object(map) = v.value {
            for (k, x) in map {
                if odd(&x) && self.ids.contains(&k) {
                    return Err(odd_id(&self.path, row, &k, &x.to_string()));
                }
                // Every number takes its text, in order, whether or not its column is kept.
                let text = if x.is_number() { raw.next() } else { None };
                if let Some(&c) = self.index.get(&k) {
                    self.row.set(c, || field(x, text));
                }
            }
        }
        self.row.fill(rec);
        Ok(Some(row))
    }

    fn keep(&mut self, cols: &[usize]) -> bool {
        self.row.keep(cols)
    }

    fn ids(&mut self, cols: &[usize], names: &[String]) -> Result<(), DataError> {
        self.ids = cols.iter().filter_map(|&c| names.get(c).cloned()).collect();
        Ok(())
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
pub(super) struct Built {
    pub(super) path: PathBuf,
    pub(super) rows: std::vec::IntoIter<(u64, Record)>,
    pub(super) row: Row,
}

impl Records for Built {
    fn next(&mut self, rec: &mut ByteRecord) -> Result<Option<u64>, DataError> {
        let Some((row, fields)) = self.rows.next() else {
            return Ok(None);
        };
        self.row.clear();
        for (c, f, _) in fields {
            self.row.set(c, || f);
        }
        self.row.fill(rec);
        Ok(Some(row))
    }

    fn keep(&mut self, cols: &[usize]) -> bool {
        self.row.keep(cols)
    }

    fn ids(&mut self, cols: &[usize], names: &[String]) -> Result<(), DataError> {
        for (row, record) in self.rows.as_slice() {
            if let Some((c, f, _)) = record.iter().find(|(c, _, odd)| *odd && cols.contains(c)) {
                let name = names.get(*c).map_or("", String::as_str);
                return Err(odd_id(&self.path, *row, name, &String::from_utf8_lossy(f)));
            }
        }
        Ok(())
    }
}

/// One row as it is handed out: its fields by slot, and which columns go to which slot.
pub(super) struct Row {
    dense: Vec<Option<Vec<u8>>>,
    kept: Kept,
}

impl Row {
    /// A row of `width` columns, all handed out.
    pub(super) fn new(width: usize) -> Row {
        Row {
            dense: vec![None; width],
            kept: Kept::default(),
        }
    }

    fn clear(&mut self) {
        self.dense.iter_mut().for_each(|d| *d = None);
    }

    /// Column `c`'s field, made only when the column is handed out.
    fn set(&mut self, c: usize, field: impl FnOnce() -> Vec<u8>) {
        if let Some(slot) = self.kept.slot(c) {
            self.dense[slot] = Some(field());
        }
    }

    /// Hands out only `cols`, in that order ([`Records::keep`]).
    fn keep(&mut self, cols: &[usize]) -> bool {
        self.kept = Kept::of(cols, self.dense.len());
        self.dense = vec![None; cols.len()];
        true
    }

    /// The row's fields in header order, empty where missing.
    fn fill(&self, rec: &mut ByteRecord) {
        rec.clear();
        for d in &self.dense {
            rec.push_field(d.as_deref().unwrap_or_default());
        }
    }
}
