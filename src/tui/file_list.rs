//! The explorer's file list: the panel files the data pane offers, in the formats the loader
//! reads ([`crate::data::Format`]).

use std::path::PathBuf;

use crate::data::Format;

/// Panel files offered in the data pane: CSV/TSV/TXT in the working directory and assets/.
pub(super) fn scan_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [PathBuf::from("."), PathBuf::from("assets")] {
        let Ok(rd) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<PathBuf> = rd
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| is_panel_file(p))
            .map(|p| p.strip_prefix(".").map(PathBuf::from).unwrap_or(p))
            .collect();
        files.sort();
        out.extend(files);
    }
    out
}

/// Whether the data pane offers `p` as a panel: a file named as a format the loader reads
/// ([`Format::extensions`]) that some choice of columns could make a panel
/// ([`crate::data::could_be_panel`]: a table with a numeric column at the least), and
/// not a families sidecar. Notes such as `assets/commands.txt` and `judge,family` files are not offered.
#[must_use]
pub fn is_panel_file(p: &std::path::Path) -> bool {
    let ext_ok = p.is_file()
        && p.extension()
            .is_some_and(|e| Format::of_extension(&e.to_string_lossy()).is_some());
    let sidecar = p
        .file_stem()
        .is_some_and(|s| s.to_string_lossy().to_lowercase().ends_with(".families"));
    ext_ok && !sidecar && has_rows(p) && crate::data::could_be_panel(p)
}

/// Whether a file's first bytes hold a header and at least two rows: a one-line list of
/// names, or a JSON document that is one object (a report), is not a panel. Compressed and
/// columnar files are left to the header check.
fn has_rows(p: &std::path::Path) -> bool {
    use std::io::Read as _;
    let ext = p
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    match Format::of_extension(&ext) {
        Some(Format::Gzip | Format::Parquet) => return true,
        Some(Format::Text | Format::Json) | None => {}
        #[cfg(test)]
        Some(Format::Z) => {}
    }
    let mut head = Vec::new();
    let Ok(f) = std::fs::File::open(p) else {
        return false;
    };
    if f.take(1 << 16).read_to_end(&mut head).is_err() {
        return false;
    }
    let text = String::from_utf8_lossy(&head);
    if ext == "json" {
        // JSON records are an array of objects; a report is one object.
        return text.trim_start().starts_with('[') && text.matches('{').count() >= 2;
    }
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    // JSON lines have no header line: two records are two rows.
    let needed = if ext == "jsonl" || ext == "ndjson" {
        2
    } else {
        3
    };
    lines >= needed
}
