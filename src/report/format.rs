//! Number and table formatting every report shares: finite numbers or JSON `null`, the
//! text table, intervals.

use serde_json::{Value, json};

use crate::bootstrap::Interval;

/// JSON schema version of `estimate --json` (and of the objects later commands extend).
pub const SCHEMA_VERSION: u32 = 1;

/// A finite number, or JSON `null` (never NaN).
#[must_use]
pub fn num(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

pub use crate::stats::fmt_num;

/// Left-aligned text table with a header row and two-space gaps.
#[must_use]
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let ncol = header.len();
    let mut width: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: Vec<&str>, out: &mut String| {
        let mut s = String::from("  ");
        for (i, c) in cells.iter().enumerate() {
            s.push_str(c);
            if i + 1 < ncol {
                s.push_str(&" ".repeat(width[i] - c.chars().count() + 2));
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(header.to_vec(), &mut out);
    for row in rows {
        line(row.iter().map(String::as_str).collect(), &mut out);
    }
    out
}

#[must_use]
pub fn fmt_interval(i: Option<Interval>) -> String {
    i.map_or_else(
        || "[undefined]".into(),
        |i| format!("[{}, {}]", fmt_num(i.lo), fmt_num(i.hi)),
    )
}

#[must_use]
pub fn interval_json(i: Option<Interval>) -> Value {
    i.map_or(Value::Null, |i| json!([num(i.lo), num(i.hi)]))
}

#[cfg(test)]
mod tests {

    #[test]
    fn huge_numbers_print_in_scientific_notation() {
        assert_eq!(fmt_num(1e100), "1.0000e100");
        assert_eq!(fmt_num(-2.5e7), "-2.5000e7");
        assert_eq!(fmt_num(0.12345), "0.1235");
        assert_eq!(fmt_num(f64::NAN), "undefined");
    }

    use super::*;

    #[test]
    fn non_finite_numbers_become_null() {
        assert_eq!(num(f64::NAN), Value::Null);
        assert_eq!(num(f64::INFINITY), Value::Null);
        assert_eq!(num(0.5), json!(0.5));
    }

    #[test]
    fn table_aligns_columns() {
        let t = table(&["a", "bb"], &[vec!["xxx".into(), "y".into()]]);
        assert_eq!(t, "  a    bb\n  xxx  y\n");
    }
}
