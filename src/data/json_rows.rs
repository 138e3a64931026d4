//! Handing JSON records out as rows: each record's fields in header order, narrowed to the
//! columns the panel keeps.

use std::collections::HashMap;
use std::path::Path;

use csv::ByteRecord;
use serde_json::Value;

use super::DataError;
use super::json_scan::Scan;
use super::records::Records;

/// One record: (column, field) pairs.
pub(super) type Record = Vec<(usize, Vec<u8>)>;

/// A value as a text field: numbers in their shortest exact form (so they parse back to the
/// same bits), null as missing, nested values as JSON text (refused if the column is used).
pub(super) fn field(v: Value) -> Vec<u8> {
    match v {
        Value::Null => Vec::new(),
        Value::String(s) => s.into_bytes(),
        other => other.to_string().into_bytes(),
    }
}

/// Records read one at a time from the held bytes, handed out as rows.
pub(super) struct Table {
    pub(super) bytes: Vec<u8>,
    pub(super) scan: Scan,
    pub(super) index: HashMap<String, usize>,
    pub(super) dense: Vec<Option<Vec<u8>>>,
    pub(super) kept: Kept,
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
pub(super) struct Kept {
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
    pub(super) rows: std::vec::IntoIter<(u64, Record)>,
    pub(super) dense: Vec<Option<Vec<u8>>>,
    pub(super) kept: Kept,
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
