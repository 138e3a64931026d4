//! One cell's value: a finite number or missing (docs/method.md §6), by a fast correctly rounded parser
//! with the general one as its fallback.

use std::path::Path;

use super::DataError;
use crate::location::Location;

/// The words a cell spells a missing value with, besides an empty cell: matched after
/// trimming, in any case (docs/file-formats.md "Missing values"). The one list the loader and
/// `export`'s scripts read (a signed NaN is what the number parser reads as NaN).
pub const MISSING: [&str; 5] = ["na", "nan", "null", "+nan", "-nan"];

/// Whether a cell's text is a missing value: empty or one of [`MISSING`], trimmed, any case.
#[must_use]
pub fn is_missing(text: &str) -> bool {
    let t = text.trim();
    t.is_empty() || MISSING.iter().any(|m| t.eq_ignore_ascii_case(m))
}

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
        // Bytes that are not UTF-8 shown as `\xHH`, not as U+FFFD.
        value: Some(crate::location::escape_bytes(field)),
    };
    let Ok(s) = std::str::from_utf8(field) else {
        return Err(DataError::data_at(path, at(), "not a number (binary data)"));
    };
    if is_missing(s) {
        return Ok(None);
    }
    let s = s.trim();
    match s.parse::<f64>() {
        Ok(x) if inexact_integer(s, x) => Err(DataError::data_at(
            path,
            at(),
            format!(
                "an integer beyond 2^53 that a double cannot hold: it would read as {x:.0}; an id or a timestamp is not a score (leave its column out of the roles), and a score this large can be rescaled (ρ does not depend on its units)"
            ),
        )),
        Ok(x) if x == 0.0 && !zero_literal(s.as_bytes()) => Err(DataError::data_at(
            path,
            at(),
            "a nonzero number too small for a double: it would read as 0; rescale the column (ρ does not depend on its units)",
        )),
        Ok(x) if x.is_finite() => Ok(Some(x)),
        Ok(x) if x.is_nan() => Ok(None),
        Ok(_) => Err(DataError::data_at(path, at(), "infinite value")),
        Err(_) => Err(DataError::data_at(path, at(), "not a number")),
    }
}

/// Whether a number's digits before its exponent are all zeros: a zero it reads as is the
/// number written, not an underflow of `1e-400` (refused, never rounded to 0).
fn zero_literal(s: &[u8]) -> bool {
    s.iter()
        .take_while(|b| !matches!(b, b'e' | b'E'))
        .all(|b| matches!(b, b'0' | b'.' | b'+' | b'-'))
}

/// 2^53: beyond it not every integer is a double, so an integer written there (an id, a
/// timestamp in nanoseconds) may read as a neighbour.
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// Whether `s` is an integer that reads as another number (`x`): refused, never rounded.
fn inexact_integer(s: &str, x: f64) -> bool {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    x.abs() > EXACT_INTEGERS
        && x.is_finite()
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && digits.trim_start_matches('0') != format!("{:.0}", x.abs())
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
        // Beyond 2^53 an integer is checked for what a double can hold.
        Some(x) if x.abs() <= EXACT_INTEGERS && (x != 0.0 || zero_literal(field)) => Ok(x),
        _ => Ok(parse_cell(path, field, row, column)?.unwrap_or(f64::NAN)),
    }
}
