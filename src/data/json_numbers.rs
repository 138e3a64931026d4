//! The text of a JSON record's numbers as written: serde_json reads a number into a double
//! (`1e-400` as 0, `9.007199254740993e15` as 2^53), so the cell reader is handed the digits
//! themselves and refuses them as it refuses the same text in a CSV (docs/file-formats.md
//! "Missing values").

/// The numbers written as member values at nesting `depth` of one JSON value (1: a record's
/// fields; 2: the cells of pandas' column layout), in the order written. The text is valid
/// JSON (serde_json has read it), so a number starts with `-` or a digit outside a string.
pub(super) fn numbers_at(text: &[u8], depth: usize) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let (mut d, mut i) = (0usize, 0usize);
    while i < text.len() {
        match text[i] {
            b'"' => i = string_end(text, i + 1),
            b'{' | b'[' => {
                d += 1;
                i += 1;
            }
            b'}' | b']' => {
                d = d.saturating_sub(1);
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let end = text[i..]
                    .iter()
                    .position(|b| !matches!(b, b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E'))
                    .map_or(text.len(), |n| i + n);
                if d == depth {
                    out.push(&text[i..end]);
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    out
}

/// Where a string that opens before `i` ends (just past its closing quote).
fn string_end(text: &[u8], mut i: usize) -> usize {
    while i < text.len() {
        match text[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::numbers_at;

    #[test]
    fn a_records_numbers_are_its_fields_as_written() {
        let r = br#"{"a\"1": 1e-400, "b": "2.5", "c": [3, 4], "d": {"x": 5}, "e": -9.007199254740993e15, "f": null}"#;
        assert_eq!(
            numbers_at(r, 1),
            vec![&b"1e-400"[..], &b"-9.007199254740993e15"[..]]
        );
        let cols = br#"{"J1": {"0": 1.0E-400, "1": 2}, "J2": {"0": 3}}"#;
        assert_eq!(
            numbers_at(cols, 2),
            vec![&b"1.0E-400"[..], &b"2"[..], &b"3"[..]]
        );
    }
}
