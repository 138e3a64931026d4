//! One cell's value: a finite number or missing (docs/method.md §6), by a fast correctly rounded parser
//! with the general one as its fallback.

use std::path::Path;

use super::DataError;
use crate::location::Location;

/// A parsed cell: a finite number, or missing (empty, NA, NaN, null — docs/method.md §6). The slow,
/// general path; [`cell_value`] tries the fast parser first.
pub(super) fn parse_cell(
    path: &Path,
    field: &[u8],
    row: u64,
    column: &str,
) -> Result<Option<f64>, DataError> {
    let at = || Location {
        row: Some(row),
        column: Some(column.to_string()),
        value: Some(String::from_utf8_lossy(field).into_owned()),
    };
    let Ok(s) = std::str::from_utf8(field) else {
        return Err(DataError::data_at(path, at(), "not a number (binary data)"));
    };
    let s = s.trim();
    if s.is_empty()
        || ["na", "nan", "null"]
            .iter()
            .any(|t| s.eq_ignore_ascii_case(t))
    {
        return Ok(None);
    }
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(Some(x)),
        Ok(x) if x.is_nan() => Ok(None),
        Ok(_) => Err(DataError::data_at(path, at(), "infinite value")),
        Err(_) => Err(DataError::data_at(path, at(), "not a number")),
    }
}

/// A plain finite decimal number, by `fast-float2` (correctly rounded, like `str::parse`, so
/// the bits are the same); `None` sends the field to [`parse_cell`], which decides missing
/// values, infinities and errors exactly as before.
pub(super) fn fast_number(field: &[u8]) -> Option<f64> {
    match field.first() {
        Some(b'0'..=b'9' | b'-' | b'+' | b'.') => {}
        _ => return None,
    }
    fast_float2::parse::<f64, _>(field)
        .ok()
        .filter(|x| x.is_finite())
}

/// A cell's value, `NaN` when missing (docs/method.md §6), or a located error.
pub(super) fn cell_value(
    path: &Path,
    field: &[u8],
    row: u64,
    column: &str,
) -> Result<f64, DataError> {
    match fast_number(field) {
        Some(x) => Ok(x),
        None => Ok(parse_cell(path, field, row, column)?.unwrap_or(f64::NAN)),
    }
}
