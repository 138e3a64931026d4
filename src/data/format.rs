//! Which format an input holds, told by its name and first bytes (the bytes decide when they
//! carry a signature); every other format recognised is refused in one line that names it and
//! says what to do.

use std::path::Path;

/// The formats rhoscope reads: the one list that the loader, `export`'s check of what its
/// script can read, the explorer's file list and `--help` derive from. A new format is its
/// reader's file and a variant here; the compiler names every match that must open it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Comma, tab or semicolon separated text.
    Text,
    /// gzip-compressed input (whatever it holds, told once decompressed).
    Gzip,
    /// A JSON array of records, or JSON Lines (one record a line).
    Json,
    Parquet,
    /// A throwaway format, registered only in the crate's own tests (`data/format_z.rs`).
    #[cfg(test)]
    Z,
}

impl Format {
    /// Every format rhoscope reads, in the order `--help` lists them.
    #[cfg(not(test))]
    pub const ALL: &'static [Format] = &[Format::Text, Format::Gzip, Format::Json, Format::Parquet];
    /// Every format rhoscope reads, in the order `--help` lists them.
    #[cfg(test)]
    pub const ALL: &'static [Format] = &[
        Format::Text,
        Format::Gzip,
        Format::Json,
        Format::Parquet,
        Format::Z,
    ];

    /// The file name extensions (lower case) that name the format: the explorer's file list
    /// offers the files that bear one.
    #[must_use]
    pub const fn extensions(self) -> &'static [&'static str] {
        match self {
            Format::Text => &["csv", "tsv", "txt"],
            Format::Gzip => &["gz"],
            Format::Json => &["json", "jsonl", "ndjson"],
            Format::Parquet => &["parquet", "pq"],
            #[cfg(test)]
            Format::Z => super::format_z::EXTENSIONS,
        }
    }

    /// What the format is, in one line (`--help`'s list of the formats read).
    #[must_use]
    pub const fn about(self) -> &'static str {
        match self {
            Format::Text => "delimited text: comma, tab or semicolon separated, a header row first",
            Format::Gzip => "gzip-compressed text, JSON or Parquet, told once decompressed",
            Format::Json => {
                "JSON records: an array of objects, JSON Lines, or pandas' to_json column layout"
            }
            Format::Parquet => "Apache Parquet",
            #[cfg(test)]
            Format::Z => super::format_z::ABOUT,
        }
    }

    /// The first bytes that mark the format whatever the file's name, if it has any.
    #[must_use]
    pub const fn signature(self) -> Option<&'static [u8]> {
        match self {
            Format::Text | Format::Json => None,
            Format::Gzip => Some(b"\x1F\x8B"),
            Format::Parquet => Some(b"PAR1"),
            #[cfg(test)]
            Format::Z => Some(super::format_z::SIGNATURE),
        }
    }

    /// The format as `export` names it when its script, which reads uncompressed delimited
    /// text, cannot read it (the panel's data is then written beside the script as CSV);
    /// `None` for delimited text.
    #[must_use]
    pub const fn unscripted(self) -> Option<&'static str> {
        match self {
            Format::Text => None,
            Format::Gzip => Some("a gzip-compressed file"),
            Format::Json => Some("JSON records"),
            Format::Parquet => Some("a Parquet file"),
            #[cfg(test)]
            Format::Z => Some(super::format_z::ABOUT),
        }
    }

    /// The format a file name's extension names (any case), if any.
    #[must_use]
    pub fn of_extension(ext: &str) -> Option<Format> {
        Format::ALL
            .iter()
            .copied()
            .find(|f| f.extensions().iter().any(|x| ext.eq_ignore_ascii_case(x)))
    }

    /// The format of an input from its file name and first bytes, as the loader tells it;
    /// `None` for a format it refuses.
    #[must_use]
    pub fn of(name: &str, head: &[u8]) -> Option<Format> {
        detect(&name.to_lowercase(), head).ok()
    }
}

/// Formats recognised only to be named: first bytes, the format, and what to do.
const REFUSED_MAGIC: [(&[u8], &str); 9] = [
    (b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1", EXCEL),
    (b"ARROW1", ARROW),
    (b"FEA1", ARROW),
    (
        b"BZh",
        "bzip2-compressed: decompress it (bunzip2) or compress it with gzip instead",
    ),
    (
        b"\xFD7zXZ\x00",
        "xz-compressed: decompress it (unxz) or compress it with gzip instead",
    ),
    (
        b"\x28\xB5\x2F\xFD",
        "zstd-compressed: decompress it (unzstd) or compress it with gzip instead",
    ),
    (b"SQLite format 3\x00", SQLITE),
    (b"%PDF-", "a PDF document: export the table as CSV"),
    (b"\xFF\xFF\xFF\xFF", ARROW),
];

const EXCEL: &str = "an Excel workbook: save it as CSV";
const ARROW: &str =
    "a Feather/Arrow IPC file: write it as Parquet or CSV (e.g. df.to_parquet or df.to_csv)";
const SQLITE: &str =
    "an SQLite database: export the table as CSV (sqlite3 -header -csv DB 'select * from TABLE')";
const ZIP: &str = "a ZIP archive: unzip it and load the CSV inside";
const ODS: &str = "an OpenDocument spreadsheet: save it as CSV";

/// Extensions recognised only to be named.
const REFUSED_EXT: [(&str, &str); 14] = [
    ("xlsx", EXCEL),
    ("xlsm", EXCEL),
    ("xls", EXCEL),
    ("ods", ODS),
    ("feather", ARROW),
    ("arrow", ARROW),
    ("ipc", ARROW),
    ("zip", ZIP),
    (
        "bz2",
        "bzip2-compressed: decompress it (bunzip2) or compress it with gzip instead",
    ),
    (
        "xz",
        "xz-compressed: decompress it (unxz) or compress it with gzip instead",
    ),
    (
        "zst",
        "zstd-compressed: decompress it (unzstd) or compress it with gzip instead",
    ),
    ("sqlite", SQLITE),
    ("db", SQLITE),
    ("pdf", "a PDF document: export the table as CSV"),
];

/// The format of an input from its lower-case file name and first bytes (the bytes decide
/// when they carry a signature), or the one-line refusal of a format rhoscope does not read.
pub(super) fn detect(name: &str, head: &[u8]) -> Result<Format, &'static str> {
    let signed = |f: &&Format| f.signature().is_some_and(|s| head.starts_with(s));
    if let Some(&format) = Format::ALL.iter().find(signed) {
        return Ok(format);
    }
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Err(zip_kind(name, head));
    }
    if let Some((_, what)) = REFUSED_MAGIC.iter().find(|(m, _)| head.starts_with(m)) {
        return Err(what);
    }
    if let Some((_, what)) = REFUSED_EXT.iter().find(|(e, _)| ext_is(name, &[*e])) {
        return Err(what);
    }
    if ext_is(name, Format::Gzip.extensions()) {
        return Err("named .gz but not gzip-compressed: check the file");
    }
    if ext_is(name, Format::Parquet.extensions()) {
        return Err("named .parquet but not a Parquet file (no PAR1 signature): check the file");
    }
    if looks_utf16(head) {
        return Ok(Format::Text);
    }
    if ext_is(name, Format::Json.extensions()) || looks_json(head) {
        return Ok(Format::Json);
    }
    Ok(Format::Text)
}

/// Whether the name's last extension is one of `exts` (any case).
fn ext_is(name: &str, exts: &[&str]) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|e| exts.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// A ZIP container: an Excel or OpenDocument workbook, or a plain archive.
fn zip_kind(name: &str, head: &[u8]) -> &'static str {
    let has = |s: &[u8]| head.windows(s.len()).any(|w| w == s);
    if ext_is(name, &["xlsx", "xlsm"]) || has(b"xl/") || has(b"[Content_Types]") {
        EXCEL
    } else if ext_is(name, &["ods"]) || has(b"opendocument.spreadsheet") {
        ODS
    } else {
        ZIP
    }
}

/// Text that opens with `{`, or with `[` and then `{` or `]` (a JSON array of records); no
/// delimited header starts so.
fn looks_json(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let mut rest = head.iter().copied().skip_while(u8::is_ascii_whitespace);
    match rest.next() {
        Some(b'{') => true,
        Some(b'[') => matches!(
            rest.find(|b| !b.is_ascii_whitespace()),
            Some(b'{' | b']') | None
        ),
        _ => false,
    }
}

/// A byte-order mark of UTF-16, or ASCII text with a zero byte beside every character.
pub(super) fn looks_utf16(start: &[u8]) -> bool {
    if start.starts_with(b"\xFF\xFE") || start.starts_with(b"\xFE\xFF") {
        return true;
    }
    let pairs = start.len().min(64) / 2;
    pairs >= 2
        && ((0..pairs).all(|i| start[2 * i + 1] == 0 && start[2 * i] != 0)
            || (0..pairs).all(|i| start[2 * i] == 0 && start[2 * i + 1] != 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_formats_by_signature_then_name() {
        assert_eq!(detect("p.csv", b"J1,J2\n"), Ok(Format::Text));
        assert_eq!(detect("p.csv", b"\x1F\x8B\x08"), Ok(Format::Gzip));
        assert_eq!(detect("", b"PAR1\x15"), Ok(Format::Parquet));
        assert_eq!(detect("p.txt", b"{\"J1\": 1}"), Ok(Format::Json));
        assert_eq!(detect("", b" [\n {\"J1\": 1}]"), Ok(Format::Json));
        assert_eq!(detect("p.csv", b"[J1],[J2]\n"), Ok(Format::Text));
        assert_eq!(detect("p.jsonl", b""), Ok(Format::Json));
        assert_eq!(detect("p.xlsx", b"PK\x03\x04"), Err(EXCEL));
        assert_eq!(
            detect("p.bin", b"PK\x03\x04..[Content_Types].xml"),
            Err(EXCEL)
        );
        assert_eq!(detect("p.bin", b"PK\x03\x04..data.csv"), Err(ZIP));
        assert_eq!(
            detect("p.csv", b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1"),
            Err(EXCEL)
        );
        assert_eq!(detect("p.feather", b"ARROW1"), Err(ARROW));
        assert_eq!(detect("p.csv", b"SQLite format 3\x00"), Err(SQLITE));
        assert!(detect("p.csv.gz", b"J1,J2\n").is_err());
        assert_eq!(detect("P.XLSX", b"PK\x03\x04"), Err(EXCEL));
    }
}
