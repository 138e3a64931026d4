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
                "a number beyond 2^53 that a double cannot hold: it would read as {x:.0}; an id or a timestamp is not a score (leave its column out of the roles), and a score this large can be rescaled (ρ does not depend on its units)"
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

/// 2^53: from it on not every integer is a double, so a number written there (an id, a
/// timestamp in nanoseconds) may read as a neighbour.
const EXACT_INTEGERS: f64 = 9_007_199_254_740_992.0;

/// Whether `s`, read as `x`, is a number from 2^53 on whose digits the double does not keep:
/// refused, never rounded. Its significant digits (all written before any exponent, leading
/// zeros aside) are compared with `x` correctly rounded to as many, so `9007199254740993`,
/// `9.007199254740993e15` and `90071992547409930.0` are refused, while any writer's correctly
/// rounded form of a double (`1e300`, Python's `1.2345678901234566e+25`) reads.
fn inexact_integer(s: &str, x: f64) -> bool {
    if !x.is_finite() || x.abs() < EXACT_INTEGERS {
        return false;
    }
    let body = s.strip_prefix(['+', '-']).unwrap_or(s);
    let mantissa = body.split(['e', 'E']).next().unwrap_or(body);
    let written: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let written = written.trim_start_matches('0');
    let Some(precision) = written.len().checked_sub(1) else {
        return false;
    };
    let rounded = format!("{:.precision$e}", x.abs());
    let kept = rounded
        .split('e')
        .next()
        .unwrap_or(&rounded)
        .replace('.', "");
    kept != written
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
        // From 2^53 on a number is checked for what a double can hold.
        Some(x) if x.abs() < EXACT_INTEGERS && (x != 0.0 || zero_literal(field)) => Ok(x),
        _ => Ok(parse_cell(path, field, row, column)?.unwrap_or(f64::NAN)),
    }
}

#[cfg(test)]
mod tests {
    use super::cell_value;
    use std::path::Path;

    fn read(text: &str) -> Result<f64, String> {
        cell_value(Path::new("p.csv"), text.as_bytes(), 2, "J1").map_err(|e| e.to_string())
    }

    #[test]
    fn a_number_a_double_cannot_hold_is_refused_however_it_is_spelled() {
        // 2^53 + 1 reads as 2^53 (a neighbour), in any spelling of that integer.
        for s in [
            "9007199254740993",
            "-9007199254740993",
            "+9007199254740993",
            "9.007199254740993e15",
            "90071992547409930.0",
            "90071992547409930",
            "100000000000000000000000",
        ] {
            let e = read(s).expect_err(s);
            assert!(e.contains("beyond 2^53"), "{s}: {e}");
        }
    }

    #[test]
    fn a_double_written_by_any_correctly_rounding_writer_reads() {
        for (s, x) in [
            ("9007199254740992", 9_007_199_254_740_992.0),
            ("9007199254740992.0", 9_007_199_254_740_992.0),
            ("-9007199254740994", -9_007_199_254_740_994.0),
            ("4611686018427387904", 4_611_686_018_427_387_904.0),
            ("1e300", 1e300),
            ("1e23", 1e23),
            ("1.2345678901234566e+25", 1.234_567_890_123_456_6e25),
            ("9007199254740991", 9_007_199_254_740_991.0),
        ] {
            assert_eq!(read(s), Ok(x), "{s}");
        }
    }
}
