//! Panels held in memory (a data frame's columns) reach the library's own loader through a
//! private temporary file, so roles, missing values, ordinal detection and every check are
//! the CLI's to the bit: the text holds each `f64` in its shortest round-trip form.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::error::Error;

/// A temporary panel file, removed when dropped.
#[derive(Debug)]
pub struct TempPanel {
    path: PathBuf,
}

impl TempPanel {
    /// Where the panel was written.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempPanel {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// A fresh file in the temporary folder, created so that no other process holds it.
fn create(ext: &str) -> Result<(File, TempPanel), Error> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = std::env::temp_dir();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    for _ in 0..100 {
        let k = COUNTER.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("rhoscope-{}-{nanos}-{k}.{ext}", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(f) => return Ok((f, TempPanel { path })),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => {
                return Err(Error::System(format!(
                    "cannot write a temporary panel in {}: {e}",
                    dir.display()
                )));
            }
        }
    }
    Err(Error::System(format!(
        "cannot create a temporary panel in {}",
        dir.display()
    )))
}

fn io_error(e: &std::io::Error) -> Error {
    Error::System(format!("cannot write a temporary panel: {e}"))
}

/// One cell: empty for a missing value, else the shortest text that parses back to `x`.
fn cell(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else {
        x.to_string()
    }
}

/// One column of an in-memory panel: numbers (NaN missing), or text that the loader reads
/// as the CLI reads a file's cells (an id column, or a value it refuses with its message).
#[derive(Debug, Clone, Copy)]
pub enum Column<'a> {
    Numbers(&'a [f64]),
    Text(&'a [Option<String>]),
}

impl Column<'_> {
    fn len(&self) -> usize {
        match self {
            Column::Numbers(x) => x.len(),
            Column::Text(x) => x.len(),
        }
    }

    /// Appends row `i`'s cell as CSV text.
    fn write_cell(&self, i: usize, out: &mut Vec<u8>) {
        match self {
            Column::Numbers(x) => write_number(x[i], out),
            Column::Text(x) => write_text(x[i].as_deref().unwrap_or_default(), out),
        }
    }
}

/// A number in its shortest round-trip text (serde_json's float printer, several times
/// faster than `Display`); nothing for a missing value (NaN).
fn write_number(x: f64, out: &mut Vec<u8>) {
    if x.is_finite() {
        let _ = serde_json::to_writer(&mut *out, &x);
    } else if !x.is_nan() {
        let _ = write!(out, "{x}");
    }
}

/// A text cell, quoted when it holds a delimiter, a quote or a line break.
fn write_text(t: &str, out: &mut Vec<u8>) {
    if t.contains([',', '"', '\n', '\r']) {
        out.push(b'"');
        out.extend_from_slice(t.replace('"', "\"\"").as_bytes());
        out.push(b'"');
    } else {
        out.extend_from_slice(t.as_bytes());
    }
}

/// Rows rendered per parallel block.
const BLOCK_ROWS: usize = 4096;

/// The CSV text of `rows` (row-major, from column-major data).
fn render_rows(columns: &[Column<'_>], rows: std::ops::Range<usize>) -> Vec<u8> {
    let mut out = Vec::with_capacity(rows.len() * columns.len() * 20);
    for i in rows {
        for (c, col) in columns.iter().enumerate() {
            if c > 0 {
                out.push(b',');
            }
            col.write_cell(i, &mut out);
        }
        out.push(b'\n');
    }
    out
}

/// A wide panel of named columns, written for [`crate::data::load`].
///
/// # Errors
/// [`Error::Usage`] when the columns differ in length or in number from the names;
/// [`Error::System`] when the file cannot be written.
pub fn wide_panel(names: &[String], columns: &[Column<'_>]) -> Result<TempPanel, Error> {
    if names.len() != columns.len() {
        return Err(Error::Usage(format!(
            "{} column names for {} columns",
            names.len(),
            columns.len()
        )));
    }
    let rows = columns.first().map_or(0, Column::len);
    if columns.iter().any(|c| c.len() != rows) {
        return Err(Error::Usage("the columns differ in length".into()));
    }
    let (file, temp) = create("csv")?;
    let mut w = csv::WriterBuilder::new().from_writer(BufWriter::with_capacity(1 << 16, file));
    w.write_record(names).map_err(|e| io_error(&e.into()))?;
    let mut file = w.into_inner().map_err(|e| io_error(e.error()))?;
    let blocks: Vec<Vec<u8>> = (0..rows.div_ceil(BLOCK_ROWS))
        .into_par_iter()
        .map(|b| render_rows(columns, b * BLOCK_ROWS..rows.min((b + 1) * BLOCK_ROWS)))
        .collect();
    for block in &blocks {
        file.write_all(block).map_err(|e| io_error(&e))?;
    }
    file.flush().map_err(|e| io_error(&e))?;
    Ok(temp)
}

/// A long panel (one score per row): item and rater ids as text, scores as `f64`.
///
/// # Errors
/// As [`wide_panel`].
pub fn long_panel(
    header: [&str; 3],
    items: &[String],
    raters: &[String],
    scores: &[f64],
) -> Result<TempPanel, Error> {
    if items.len() != raters.len() || items.len() != scores.len() {
        return Err(Error::Usage(
            "the item, rater and score columns differ in length".into(),
        ));
    }
    let (file, temp) = create("csv")?;
    let mut w = csv::WriterBuilder::new().from_writer(BufWriter::with_capacity(1 << 16, file));
    w.write_record(header).map_err(|e| io_error(&e.into()))?;
    for ((item, rater), score) in items.iter().zip(raters).zip(scores) {
        w.write_record([item.as_str(), rater.as_str(), &cell(*score)])
            .map_err(|e| io_error(&e.into()))?;
    }
    w.into_inner()
        .map_err(|e| io_error(e.error()))?
        .flush()
        .map_err(|e| io_error(&e))?;
    Ok(temp)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{LoadOptions, load};

    #[test]
    fn a_wide_panel_loads_bit_for_bit() {
        let names: Vec<String> = ["J1", "J2", "A1", "A2"].map(String::from).to_vec();
        let cols: Vec<Vec<f64>> = (0..4)
            .map(|c| {
                (0..50)
                    .map(|i| f64::from(i * (c + 2)).sin() / 3.0)
                    .collect()
            })
            .collect();
        let refs: Vec<Column<'_>> = cols.iter().map(|c| Column::Numbers(c)).collect();
        let t = wide_panel(&names, &refs).unwrap();
        let loaded = load(t.path(), &LoadOptions::default()).unwrap();
        assert_eq!(loaded.panel.data, cols.concat());
        let p = t.path().to_path_buf();
        drop(t);
        assert!(!p.exists());
    }

    #[test]
    fn text_cells_are_quoted_when_they_must_be() {
        let mut out = Vec::new();
        write_text("a,\"b\"", &mut out);
        assert_eq!(out, b"\"a,\"\"b\"\"\"");
    }

    #[test]
    fn nan_is_missing() {
        assert_eq!(cell(f64::NAN), "");
        assert_eq!(cell(3.0), "3");
        assert_eq!(cell(0.1).parse::<f64>().unwrap(), 0.1);
        for x in [
            1e300,
            -2.5e-310,
            0.1 + 0.2,
            1.0 / 3.0,
            f64::MAX,
            f64::MIN_POSITIVE,
        ] {
            let mut out = Vec::new();
            write_number(x, &mut out);
            assert_eq!(
                std::str::from_utf8(&out).unwrap().parse::<f64>().unwrap(),
                x
            );
        }
    }
}
