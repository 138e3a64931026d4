//! Handing JSON records out as rows: each record's fields in header order, narrowed to the
//! columns the panel keeps.

use std::collections::HashMap;
use std::path::Path;

use csv::ByteRecord;
use serde_json::Value;

use super::DataError;
use super::json_numbers::numbers_at;
use super::json_scan::Scan;
use super::records::Records;

/// One record: (column, field) pairs.
pub(super) type Record = Vec<(usize, Vec<u8>)>;

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
    pub(super) bytes: Vec<u8>,
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
    pub(super) rows: std::vec::IntoIter<(u64, Record)>,
    pub(super) row: Row,
}

impl Records for Built {
    fn next(&mut self, rec: &mut ByteRecord) -> Result<Option<u64>, DataError> {
        let Some((row, fields)) = self.rows.next() else {
            return Ok(None);
        };
        self.row.clear();
        for (c, f) in fields {
            self.row.set(c, || f);
        }
        self.row.fill(rec);
        Ok(Some(row))
    }

    fn keep(&mut self, cols: &[usize]) -> bool {
        self.row.keep(cols)
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
