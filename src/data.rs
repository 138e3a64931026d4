//! Loads a panel from delimited text (SPEC §6): comma, tab or semicolon (sniffed from the
//! header), wide or long layout, column roles, families, complete-case handling and located
//! errors. Only the numeric matrix of selected columns is kept.
//!
//! Speed (SPEC §6, "Data files"): a wide file whose body holds no quote character and no bare
//! carriage return is read as raw bytes in two passes. The first counts lines, so the matrix is
//! allocated once at its final size — and refused *before* allocation when it would pass
//! [`limits::MAX_CELLS`]; the second parses blocks of rows in parallel (rayon) straight into the
//! column-major matrix with a correctly rounded float parser. Any other file goes through the
//! `csv` crate row by row. Both paths give bit-identical numbers and the same located errors
//! (a unit test runs them against each other).

use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufRead, BufReader, Cursor, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use csv::{ByteRecord, ReaderBuilder, Trim};
use rayon::prelude::*;

use crate::error::{Error, Location, sanitize};
use crate::panel::{Panel, Scale};

/// Fewest complete items a panel may have: two degrees of freedom for every covariance.
pub const MIN_ITEMS: usize = 3;

/// Every size limit of rhoscope's inputs, in one place (README "Limits"; the files of SPEC §6
/// and the simulator designs of SPEC §4). Each is checked
/// before the memory it guards is allocated, so a small hostile file or flag cannot take the
/// machine down; each refusal is a one-line error (exit 65 for a file, 2 for a flag).
pub mod limits {
    /// Most judge + anchor columns of one panel (wide layout) or selected raters (long layout),
    /// and most judges + anchors `simulate` accepts. Covariance memory grows with the square of
    /// this count, and the battery's time faster still (with ordinal judges about the 2.5th
    /// power: 128 judges take 3 s, 1024 over two minutes); real panels have dozens.
    pub const MAX_COLUMNS: usize = 256;
    /// Most cells (items × judge and anchor columns) in a panel's numeric matrix: 2^28, about
    /// 268 million values or 2 GiB of `f64`. Applies to loading and to `simulate`.
    pub const MAX_CELLS: usize = 1 << 28;
    /// Most ordinal levels `simulate --set ordinal=COLS:L` accepts (SPEC §6 calls a column with
    /// more than 10 levels continuous anyway).
    pub const MAX_LEVELS: usize = 100;
    /// Most worker threads per available core for `--threads`.
    pub const THREADS_PER_CORE: usize = 4;
    /// Most worker threads for `--threads`, whatever the core count.
    pub const MAX_THREADS: usize = 256;
    /// Longest row (bytes) of a wide file read by the fast path.
    pub const MAX_ROW_BYTES: usize = 64 << 20;
    /// Most bytes of standard input (held in memory to be sniffed) and of a Parquet file
    /// that is not a regular file (decompressed or piped).
    pub const MAX_STDIN_BYTES: usize = 1 << 31;
    /// Most bytes of a JSON input, which is parsed whole.
    pub const MAX_JSON_BYTES: usize = 1 << 30;

    /// The `--threads` ceiling on this machine: [`THREADS_PER_CORE`] × the available cores,
    /// never above [`MAX_THREADS`].
    #[must_use]
    pub fn max_threads() -> usize {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
        cores.saturating_mul(THREADS_PER_CORE).min(MAX_THREADS)
    }
}

use limits::{MAX_CELLS, MAX_COLUMNS};

/// How to read a panel file. `Default` reads a wide file with roles from the header.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// `--judges`: names or 1-based column indices (rater ids in long layout).
    pub judges: Option<Vec<String>>,
    /// `--anchors`: as `judges`.
    pub anchors: Option<Vec<String>>,
    /// `--id`: an id column (wide layout), which takes no role.
    pub id: Option<String>,
    /// `--long ITEM,RATER,SCORE`: read the long layout with these three columns.
    pub long: Option<Vec<String>>,
    /// `--families`: `NAME=FAMILY,...` or the path of a two-column file.
    pub families: Option<String>,
    /// `--continuous`: columns (judges or anchors, by name) forced to the continuous scale,
    /// or `all`.
    pub continuous: Option<Vec<String>>,
    /// Fewest anchors accepted (2 for `estimate`; the battery accepts 0).
    pub min_anchors: usize,
}

/// A loaded panel and where its families came from.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub panel: Panel,
    /// The sidecar or file families were read from, if any.
    pub families_source: Option<PathBuf>,
    /// The first dropped item's location, for a one-line note.
    pub first_dropped: Option<Location>,
    /// Every column name of the file's header (sanitised), whatever its role; the long
    /// layout's header names its item, rater and score columns.
    pub header: Vec<String>,
    /// One-line notes for the user (sanitised, each naming the file): a families sidecar
    /// adopted without `--families`, judges with identical columns.
    pub notes: Vec<String>,
    /// The delimiter the file was read with (sniffed from its header).
    pub delimiter: u8,
    /// The judge and anchor columns' names as written in the file, not sanitised (panel
    /// order), so a script can select them; the long layout's rater ids.
    pub raw_names: Vec<String>,
}

/// Every column name of a panel file's header (sanitised).
///
/// # Errors
/// As [`load`], for the header only.
pub fn header(path: &Path) -> Result<Vec<String>, Error> {
    Ok(Source::open(path)?.header)
}

/// The families sidecar that `simulate` writes next to a panel: `x.csv` → `x.families.csv`.
#[must_use]
pub fn families_sidecar(panel_path: &Path) -> PathBuf {
    let stem = panel_path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    panel_path.with_file_name(format!("{stem}.families.csv"))
}

/// Loads a panel.
///
/// # Errors
/// [`Error::NoInput`] when the file cannot be read, [`Error::Data`] for unusable contents
/// (with row, column and value) or a panel over a [`limits`] bound, [`Error::Usage`] for role
/// lists that do not fit the file.
pub fn load(path: &Path, opts: &LoadOptions) -> Result<Loaded, Error> {
    input::claim_stdin(path)?;
    load_with(path, opts, Strategy::Auto)
}

/// Which reader a wide file goes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    not(test),
    expect(dead_code, reason = "Sequential is the reference in unit tests")
)]
enum Strategy {
    /// The parallel byte parser when the file allows it, else the `csv` crate.
    Auto,
    /// Always the `csv` crate, row by row (the reference the fast path is tested against).
    Sequential,
}

fn load_with(path: &Path, opts: &LoadOptions, strategy: Strategy) -> Result<Loaded, Error> {
    let mut src = Source::open(path)?;
    let mut raw = if let Some(cols) = &opts.long {
        read_long(&mut src, cols, opts)?
    } else {
        read_wide(&mut src, opts, strategy)?
    };
    let mut loaded = finish(path, &mut raw, opts)?;
    loaded.header = src.header;
    loaded.delimiter = src.delimiter;
    loaded.raw_names = if raw.written_names.is_empty() {
        loaded.panel.names()
    } else {
        std::mem::take(&mut raw.written_names)
    };
    Ok(loaded)
}

mod columnar;
mod input;
mod json;
mod records;

use input::{Opened, is_stdin};
use records::Records;

/// An opened input with its header: delimited text with its sniffed delimiter, or records
/// (JSON, Parquet). The input is opened once (a FIFO, `<(…)` or `-` for standard input can be
/// read only once); only a regular file is opened a second time, by the fast reader.
struct Source {
    path: PathBuf,
    body: Body,
    header: Vec<String>,
    /// The header's names as in the file (not sanitised), for scripts that select them.
    raw_header: Vec<String>,
    delimiter: u8,
    /// Byte offset of the first body line; `None` when the header holds a quote (then only
    /// the `csv` reader knows where the header ends) or the input is no regular file.
    body_offset: Option<u64>,
}

/// Where a [`Source`]'s rows come from.
enum Body {
    Text(Box<csv::Reader<std::io::Chain<Cursor<Vec<u8>>, RowGuard>>>),
    Records(Box<dyn Records>),
}

const MAX_HEADER: u64 = 1 << 20;

impl Source {
    fn open(path: &Path) -> Result<Source, Error> {
        match input::open(path)? {
            Opened::Text { buf, regular } => Source::text(path, buf, regular),
            Opened::Records { names, rows } => {
                let header: Vec<String> = names.iter().map(|f| sanitize(f)).collect();
                check_header(path, &header)?;
                Ok(Source {
                    path: path.to_path_buf(),
                    body: Body::Records(rows),
                    header,
                    raw_header: names,
                    delimiter: b',',
                    body_offset: None,
                })
            }
        }
    }

    fn text(
        path: &Path,
        mut buf: BufReader<Box<dyn Read + Send>>,
        regular: bool,
    ) -> Result<Source, Error> {
        let start = buf
            .fill_buf()
            .map_err(|e| input::gzip_error(path, None, &e))?;
        if looks_utf16(start) {
            return Err(Error::data(
                path,
                "the file is UTF-16: save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)",
            ));
        }
        let (mut first, ended) =
            read_header_line(&mut buf).map_err(|e| input::gzip_error(path, Some(1), &e))?;
        let consumed = first.len() as u64;
        if first.strip_prefix(b"\xEF\xBB\xBF").is_some() {
            first.drain(..3);
        }
        if first.iter().all(u8::is_ascii_whitespace) {
            return Err(Error::data(path, "the file is empty (no header row)"));
        }
        if !ended && first.len() as u64 >= MAX_HEADER - 3 {
            return Err(Error::data(
                path,
                "not a text panel: the header is over 1 MiB",
            ));
        }
        if first.contains(&0) || std::str::from_utf8(&first).is_err() {
            return Err(Error::data(
                path,
                "not a text panel: the header is binary or not UTF-8",
            ));
        }
        let delimiter = sniff(&first);
        let body_offset = (regular && !first.contains(&b'"')).then_some(consumed);
        let mut reader = ReaderBuilder::new()
            .delimiter(delimiter)
            .has_headers(false)
            .flexible(true)
            .trim(Trim::All)
            .from_reader(Cursor::new(first).chain(RowGuard::new(buf)));
        let mut rec = ByteRecord::new();
        reader
            .read_byte_record(&mut rec)
            .map_err(|e| csv_error(path, &e))?;
        if !ended {
            return Err(Error::data_at(
                path,
                Location {
                    row: Some(1),
                    ..Location::default()
                },
                "unterminated quote in the header: a quoted name never closes",
            ));
        }
        let raw_header: Vec<String> = rec
            .iter()
            .map(|f| String::from_utf8_lossy(f).into_owned())
            .collect();
        let header: Vec<String> = raw_header.iter().map(|f| sanitize(f)).collect();
        check_header(path, &header)?;
        Ok(Source {
            path: path.to_path_buf(),
            body: Body::Text(Box::new(reader)),
            header,
            raw_header,
            delimiter,
            body_offset,
        })
    }

    /// The next record, or `None` at the end; the line number comes with it.
    fn next(&mut self, rec: &mut ByteRecord) -> Result<Option<u64>, Error> {
        match &mut self.body {
            Body::Records(rows) => rows.next(rec),
            Body::Text(reader) => match reader.read_byte_record(rec) {
                Ok(true) => Ok(Some(rec.position().map_or(0, csv::Position::line))),
                Ok(false) => Ok(None),
                Err(e) => Err(csv_error(&self.path, &e)),
            },
        }
    }
}

/// A byte-order mark of UTF-16, or ASCII text with a zero byte beside every character.
fn looks_utf16(start: &[u8]) -> bool {
    if start.starts_with(b"\xFF\xFE") || start.starts_with(b"\xFE\xFF") {
        return true;
    }
    let pairs = start.len().min(64) / 2;
    pairs >= 2
        && ((0..pairs).all(|i| start[2 * i + 1] == 0 && start[2 * i] != 0)
            || (0..pairs).all(|i| start[2 * i] == 0 && start[2 * i + 1] != 0))
}

/// The header record's bytes with its line end: up to the first `\n`, `\r\n` or bare `\r`
/// (old Mac files) outside double quotes, so a quoted name may hold a line break. `false` when
/// the input ended inside quotes or the header passed [`MAX_HEADER`].
fn read_header_line(buf: &mut impl BufRead) -> std::io::Result<(Vec<u8>, bool)> {
    let mut line = Vec::new();
    let mut quoted = false;
    loop {
        let chunk = buf.fill_buf()?;
        if chunk.is_empty() {
            return Ok((line, !quoted));
        }
        let mut used = 0;
        let mut end = None;
        for (i, &b) in chunk.iter().enumerate() {
            used = i + 1;
            match b {
                b'"' => quoted = !quoted,
                b'\n' if !quoted => {
                    end = Some(false);
                    break;
                }
                b'\r' if !quoted => {
                    end = Some(true);
                    break;
                }
                _ => {}
            }
            if (line.len() + used) as u64 >= MAX_HEADER {
                break;
            }
        }
        line.extend_from_slice(&chunk[..used]);
        buf.consume(used);
        match end {
            Some(true) => {
                if buf.fill_buf()?.first() == Some(&b'\n') {
                    line.push(b'\n');
                    buf.consume(1);
                }
                return Ok((line, true));
            }
            Some(false) => return Ok((line, true)),
            None if line.len() as u64 >= MAX_HEADER => return Ok((line, false)),
            None => {}
        }
    }
}

/// Refuses a row longer than [`limits::MAX_ROW_BYTES`] as soon as its bytes pass the limit,
/// for the `csv` reader (the fast reader checks the same while it counts lines).
struct RowGuard {
    inner: BufReader<Box<dyn Read + Send>>,
    /// Bytes since the last line end, and the line number being read (the header is line 1).
    since: usize,
    line: u64,
    prev_cr: bool,
}

/// The error [`RowGuard`] raises, carried through the `csv` crate's I/O error.
#[derive(Debug)]
struct RowTooLong(u64);

impl std::fmt::Display for RowTooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a row longer than {} MiB", limits::MAX_ROW_BYTES >> 20)
    }
}

impl std::error::Error for RowTooLong {}

impl RowGuard {
    fn new(inner: BufReader<Box<dyn Read + Send>>) -> Self {
        RowGuard {
            inner,
            since: 0,
            line: 2,
            prev_cr: false,
        }
    }
}

impl Read for RowGuard {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let k = self.inner.read(out)?;
        for &b in &out[..k] {
            match b {
                b'\n' if self.prev_cr => self.since = 0,
                b'\n' | b'\r' => {
                    self.since = 0;
                    self.line += 1;
                }
                _ => self.since += 1,
            }
            self.prev_cr = b == b'\r';
            if self.since > limits::MAX_ROW_BYTES {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    RowTooLong(self.line),
                ));
            }
        }
        Ok(k)
    }
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::NotADirectory => "a folder in the path is a file".into(),
        _ => e.to_string(),
    }
}

fn csv_error(path: &Path, e: &csv::Error) -> Error {
    let row = e.position().map(csv::Position::line);
    let too_long = match e.kind() {
        csv::ErrorKind::Io(io) => io.get_ref().and_then(|r| r.downcast_ref::<RowTooLong>()),
        _ => None,
    };
    if let csv::ErrorKind::Io(io) = e.kind()
        && io
            .get_ref()
            .is_some_and(|r| r.downcast_ref::<input::CorruptGzip>().is_some())
    {
        return input::gzip_error(path, row, io);
    }
    if let Some(RowTooLong(line)) = too_long {
        return Error::data_at(
            path,
            Location {
                row: Some(*line),
                ..Location::default()
            },
            format!("a row longer than {} MiB", limits::MAX_ROW_BYTES >> 20),
        );
    }
    match e.kind() {
        csv::ErrorKind::Io(io) => Error::NoInput {
            path: path.to_path_buf(),
            reason: io_reason(io),
        },
        _ => Error::data_at(
            path,
            Location {
                row,
                ..Location::default()
            },
            "malformed delimited text",
        ),
    }
}

/// The delimiter with the most occurrences in the header outside double quotes: comma, tab
/// or semicolon.
fn sniff(header: &[u8]) -> u8 {
    let mut counts = [0usize; 3];
    let mut quoted = false;
    for &b in header {
        match b {
            b'"' => quoted = !quoted,
            b',' if !quoted => counts[0] += 1,
            b'\t' if !quoted => counts[1] += 1,
            b';' if !quoted => counts[2] += 1,
            _ => {}
        }
    }
    [(b',', counts[0]), (b'\t', counts[1]), (b';', counts[2])]
        .into_iter()
        .max_by_key(|(d, c)| (*c, u8::MAX - *d))
        .filter(|(_, c)| *c > 0)
        .map_or(b',', |(d, _)| d)
}

/// Empty and duplicate names, in one pass (a hash of the names seen, so a header of
/// 100,000 columns is checked in milliseconds).
fn check_header(path: &Path, header: &[String]) -> Result<(), Error> {
    let mut first_seen: HashMap<&str, usize> = HashMap::with_capacity(header.len());
    for (i, name) in header.iter().enumerate() {
        // pandas' default `to_csv` writes its index first, under an empty name: an id column.
        if name.is_empty() && (i > 0 || header.len() == 1) {
            return Err(Error::data_at(
                path,
                Location {
                    row: Some(1),
                    column: Some(format!("#{}", i + 1)),
                    value: None,
                },
                "the header has an empty column name",
            ));
        }
        if let Some(j) = first_seen.insert(name, i) {
            return Err(Error::data_at(
                path,
                Location {
                    row: Some(1),
                    column: Some(name.clone()),
                    value: None,
                },
                format!("duplicate column name (columns {} and {})", j + 1, i + 1),
            ));
        }
    }
    Ok(())
}

/// A parsed cell: a finite number, or missing (empty, NA, NaN, null — SPEC §6). The slow,
/// general path; [`cell_value`] tries the fast parser first.
fn parse_cell(path: &Path, field: &[u8], row: u64, column: &str) -> Result<Option<f64>, Error> {
    let at = || Location {
        row: Some(row),
        column: Some(column.to_string()),
        value: Some(String::from_utf8_lossy(field).into_owned()),
    };
    let Ok(s) = std::str::from_utf8(field) else {
        return Err(Error::data_at(path, at(), "not a number (binary data)"));
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
        Ok(_) => Err(Error::data_at(path, at(), "infinite value")),
        Err(_) => Err(Error::data_at(path, at(), "not a number")),
    }
}

/// A plain finite decimal number, by `fast-float2` (correctly rounded, like `str::parse`, so
/// the bits are the same); `None` sends the field to [`parse_cell`], which decides missing
/// values, infinities and errors exactly as before.
fn fast_number(field: &[u8]) -> Option<f64> {
    match field.first() {
        Some(b'0'..=b'9' | b'-' | b'+' | b'.') => {}
        _ => return None,
    }
    fast_float2::parse::<f64, _>(field)
        .ok()
        .filter(|x| x.is_finite())
}

/// A cell's value, `NaN` when missing (SPEC §6), or a located error.
fn cell_value(path: &Path, field: &[u8], row: u64, column: &str) -> Result<f64, Error> {
    match fast_number(field) {
        Some(x) => Ok(x),
        None => Ok(parse_cell(path, field, row, column)?.unwrap_or(f64::NAN)),
    }
}

/// Columns of selected raters before complete-case filtering (`NaN` = missing).
struct Raw {
    judges: Vec<String>,
    anchors: Vec<String>,
    /// Column-major, `stride` rows per column (judges then anchors).
    data: Vec<f64>,
    stride: usize,
    /// File line of each row (wide: its row; long: the row where the item first appeared);
    /// 0 marks a blank line, which is no item. `lines.len() <= stride`.
    lines: Vec<u64>,
    judges_given: bool,
    anchors_given: bool,
    /// Wide layout: the selected columns' names as written (judges then anchors).
    written_names: Vec<String>,
}

/// SPEC §6 default roles: `judge…` or `J<digits>` is a judge; `anchor…` or `A<digits>` an anchor.
#[must_use]
pub fn default_role(name: &str) -> Option<Role> {
    let lower = name.to_ascii_lowercase();
    let tagged = |word: &str, letter: char| {
        lower.starts_with(word)
            || lower
                .strip_prefix(letter)
                .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
    };
    if tagged("judge", 'j') {
        Some(Role::Judge)
    } else if tagged("anchor", 'a') {
        Some(Role::Anchor)
    } else {
        None
    }
}

/// The role of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Judge,
    Anchor,
}

/// Resolves `--judges`/`--anchors` tokens to indices into `names`: exact name, then a
/// 1-based index (when `by_index`), then a unique case-insensitive name.
fn resolve_list(
    tokens: &[String],
    names: &[String],
    by_index: bool,
    flag: &str,
) -> Result<Vec<usize>, Error> {
    if tokens.len() > MAX_COLUMNS {
        return Err(Error::Usage(format!(
            "{flag} lists {} columns; at most {MAX_COLUMNS} are supported",
            tokens.len()
        )));
    }
    let mut exact: HashMap<&str, usize> = HashMap::with_capacity(names.len());
    let mut folded: HashMap<String, Option<usize>> = HashMap::with_capacity(names.len());
    for (i, n) in names.iter().enumerate() {
        exact.entry(n.as_str()).or_insert(i);
        folded
            .entry(n.to_lowercase())
            .and_modify(|e| *e = None)
            .or_insert(Some(i));
    }
    let mut out = Vec::with_capacity(tokens.len());
    for tok in tokens {
        let tok = tok.trim();
        let found = exact
            .get(tok)
            .copied()
            .or_else(|| {
                by_index
                    .then(|| tok.parse::<usize>().ok())
                    .flatten()
                    .filter(|i| (1..=names.len()).contains(i))
                    .map(|i| i - 1)
            })
            .or_else(|| folded.get(&tok.to_lowercase()).copied().flatten());
        let Some(i) = found else {
            return Err(Error::Usage(format!(
                "{flag}: no column '{}' (columns: {})",
                sanitize(tok),
                preview(names)
            )));
        };
        if out.contains(&i) {
            return Err(Error::Usage(format!(
                "{flag}: column '{}' is listed twice",
                names[i]
            )));
        }
        out.push(i);
    }
    Ok(out)
}

fn preview(names: &[String]) -> String {
    let shown: Vec<&str> = names.iter().take(12).map(String::as_str).collect();
    let more = names.len().saturating_sub(12);
    if more > 0 {
        format!("{}, … {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// Judge and anchor column indices into `names`, from the lists or the default patterns.
fn assign_roles(
    names: &[String],
    excluded: &[usize],
    opts: &LoadOptions,
    by_index: bool,
) -> Result<(Vec<usize>, Vec<usize>), Error> {
    let judges = match &opts.judges {
        Some(t) => resolve_list(t, names, by_index, "--judges")?,
        None => Vec::new(),
    };
    let anchors = match &opts.anchors {
        Some(t) => resolve_list(t, names, by_index, "--anchors")?,
        None => Vec::new(),
    };
    if let Some(i) = judges.iter().find(|i| anchors.contains(i)) {
        return Err(Error::Usage(format!(
            "column '{}' is given as both judge and anchor",
            names[*i]
        )));
    }
    for i in judges.iter().chain(&anchors) {
        if excluded.contains(i) {
            return Err(Error::Usage(format!(
                "column '{}' is the id column and cannot be a judge or anchor",
                names[*i]
            )));
        }
    }
    let by_pattern = |role: Role, taken: &[usize]| -> Vec<usize> {
        let mut skip = vec![false; names.len()];
        for &i in excluded.iter().chain(taken) {
            skip[i] = true;
        }
        (0..names.len())
            .filter(|&i| !skip[i] && default_role(&names[i]) == Some(role))
            .collect()
    };
    let judges = if opts.judges.is_some() {
        judges
    } else {
        by_pattern(Role::Judge, &anchors)
    };
    let anchors = if opts.anchors.is_some() {
        anchors
    } else {
        by_pattern(Role::Anchor, &judges)
    };
    Ok((judges, anchors))
}

/// Refuses a panel with more than [`MAX_COLUMNS`] judge and anchor columns, before any row
/// is read (a 1.5 MB file with 100,000 `J*` columns would otherwise need an 80 GB covariance).
fn check_column_count(path: &Path, count: usize, what: &str) -> Result<(), Error> {
    if count <= MAX_COLUMNS {
        return Ok(());
    }
    Err(Error::data(
        path,
        format!(
            "{count} {what}; at most {MAX_COLUMNS} are supported (the covariance work grows with the square of the count): select some with --judges / --anchors"
        ),
    ))
}

/// Refuses a matrix of `rows` × `cols` cells over [`MAX_CELLS`], before it is allocated.
fn check_cells(path: &Path, rows: usize, cols: usize, what: &str) -> Result<(), Error> {
    if rows.saturating_mul(cols) <= MAX_CELLS {
        return Ok(());
    }
    Err(Error::data(
        path,
        format!(
            "{rows} {what} × {cols} judge and anchor columns is over the limit of {MAX_CELLS} cells (2 GiB of numbers): split the file or select fewer columns"
        ),
    ))
}

/// The columns of a wide file that a row is parsed for.
struct Wide<'a> {
    path: &'a Path,
    names: &'a [String],
    selected: &'a [usize],
    delimiter: u8,
}

fn read_wide(src: &mut Source, opts: &LoadOptions, strategy: Strategy) -> Result<Raw, Error> {
    let names = src.header.clone();
    let id = match &opts.id {
        Some(tok) => resolve_list(std::slice::from_ref(tok), &names, true, "--id")?,
        None => Vec::new(),
    };
    let (judges, anchors) = assign_roles(&names, &id, opts, true)?;
    let selected: Vec<usize> = judges.iter().chain(&anchors).copied().collect();
    let mut raw = Raw {
        judges: judges.iter().map(|&i| names[i].clone()).collect(),
        anchors: anchors.iter().map(|&i| names[i].clone()).collect(),
        data: Vec::new(),
        stride: 0,
        lines: Vec::new(),
        judges_given: opts.judges.is_some(),
        anchors_given: opts.anchors.is_some(),
        written_names: judges
            .iter()
            .chain(&anchors)
            .map(|&i| src.raw_header[i].clone())
            .collect(),
    };
    // Role counts are checked after the rows (as before: a bad row is reported first); the
    // column limit before them, since it guards the allocation.
    check_column_count(&src.path, selected.len(), "judge and anchor columns")?;
    let path = src.path.clone();
    let wide = Wide {
        path: &path,
        names: &names,
        selected: &selected,
        delimiter: src.delimiter,
    };
    if let (Strategy::Auto, Some(offset)) = (strategy, src.body_offset)
        && let Some((data, stride, lines)) = fast::read(&wide, offset)?
    {
        raw.data = data;
        raw.stride = stride;
        raw.lines = lines;
        return Ok(raw);
    }
    let (data, lines) = read_wide_csv(src, &wide)?;
    raw.stride = lines.len();
    raw.data = data;
    raw.lines = lines;
    Ok(raw)
}

/// The reference reader: the `csv` crate, one record at a time (quoted fields, bare carriage
/// returns, a quoted header).
fn read_wide_csv(src: &mut Source, w: &Wide) -> Result<(Vec<f64>, Vec<u64>), Error> {
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); w.selected.len()];
    let mut lines = Vec::new();
    let mut rec = ByteRecord::new();
    while let Some(line) = src.next(&mut rec)? {
        if is_blank(&rec) {
            continue;
        }
        check_width(w.path, &rec, w.names, line)?;
        check_cells(w.path, lines.len() + 1, w.selected.len(), "rows")?;
        for (slot, &c) in w.selected.iter().enumerate() {
            cols[slot].push(cell_value(w.path, &rec[c], line, &w.names[c])?);
        }
        lines.push(line);
    }
    let mut data = Vec::with_capacity(lines.len() * cols.len());
    for c in cols {
        data.extend_from_slice(&c);
    }
    Ok((data, lines))
}

/// The fast reader of wide files (see the module docs).
mod fast {
    use super::{Error, File, Location, Read, Seek, SeekFrom, Wide, check_cells};
    use super::{cell_value, limits::MAX_ROW_BYTES, ragged};
    use rayon::prelude::*;

    /// Bytes read per block: small enough to stay in cache between the read and the parse.
    const BLOCK: usize = 1 << 20;
    /// Bytes per parallel task within a block.
    const CHUNK: usize = 256 << 10;

    /// The matrix (column-major, `stride` rows), its stride and each row's line (0 = blank),
    /// or `None` when the body needs the `csv` reader.
    pub(super) type Matrix = (Vec<f64>, usize, Vec<u64>);

    pub(super) fn read(w: &Wide, offset: u64) -> Result<Option<Matrix>, Error> {
        let io = |e: std::io::Error| Error::NoInput {
            path: w.path.to_path_buf(),
            reason: super::io_reason(&e),
        };
        let mut file = File::open(w.path).map_err(io)?;
        file.seek(SeekFrom::Start(offset)).map_err(io)?;
        // One buffer for both passes.
        let mut buf: Vec<u8> = vec![0u8; BLOCK];
        let Some(rows) = count_lines(w, &mut file, &mut buf)? else {
            return Ok(None);
        };
        let q = w.selected.len();
        check_cells(w.path, rows, q, "rows")?;
        // Zeroed memory is mapped lazily; every item row is written below.
        let mut data = vec![0.0; rows * q];
        let mut lines = vec![0u64; rows];
        file.seek(SeekFrom::Start(offset)).map_err(io)?;
        let used = parse_body(w, &mut file, buf, &mut data, rows, &mut lines)?;
        lines.truncate(used);
        Ok(Some((data, rows, lines)))
    }

    /// Reads until `buf` is full or the file ends; the count of bytes read.
    fn fill(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut got = 0;
        while got < buf.len() {
            match file.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(k) => got += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(got)
    }

    /// Pass 1: the number of lines of the body, or `None` when it holds a quote or a carriage
    /// return that does not end a line (the `csv` reader handles both).
    fn count_lines(w: &Wide, file: &mut File, buf: &mut [u8]) -> Result<Option<usize>, Error> {
        let io = |e: std::io::Error| Error::NoInput {
            path: w.path.to_path_buf(),
            reason: super::io_reason(&e),
        };
        let (mut lines, mut last, mut prev_cr, mut since) = (0usize, b'\n', false, 0usize);
        loop {
            let k = fill(file, buf).map_err(io)?;
            if k == 0 {
                break;
            }
            let b = &buf[..k];
            if memchr::memchr(b'"', b).is_some() || (prev_cr && b[0] != b'\n') {
                return Ok(None);
            }
            if memchr::memchr_iter(b'\r', b).any(|i| i + 1 < k && b[i + 1] != b'\n') {
                return Ok(None);
            }
            // A row over the limit is refused when its bytes pass it, not at the end of the file.
            let first = memchr::memchr(b'\n', b).unwrap_or(k);
            if since + first > MAX_ROW_BYTES {
                return Err(too_long(w, lines as u64 + 2));
            }
            since = memchr::memrchr(b'\n', b).map_or(since + k, |i| k - i - 1);
            prev_cr = b[k - 1] == b'\r';
            last = b[k - 1];
            lines += memchr::memchr_iter(b'\n', b).count();
        }
        if prev_cr {
            return Ok(None);
        }
        if last != b'\n' {
            lines += 1;
        }
        Ok(Some(lines))
    }

    fn too_long(w: &Wide, row: u64) -> Error {
        Error::data_at(
            w.path,
            Location {
                row: Some(row),
                ..Location::default()
            },
            format!("a row longer than {} MiB", MAX_ROW_BYTES >> 20),
        )
    }

    /// One parallel task: a run of whole lines, where its rows start, and how many.
    struct Chunk {
        start: usize,
        end: usize,
        row0: usize,
        rows: usize,
    }

    /// Splits `text` (whole lines; the last may lack its newline only at the end of the file)
    /// into chunks of about [`CHUNK`] bytes at line ends.
    fn chunks(text: &[u8], at_eof: bool) -> Vec<Chunk> {
        let mut out = Vec::new();
        let (mut start, mut row0) = (0, 0);
        while start < text.len() {
            let target = (start + CHUNK).min(text.len());
            let end = if target == text.len() {
                text.len()
            } else {
                memchr::memchr(b'\n', &text[target..]).map_or(text.len(), |i| target + i + 1)
            };
            let piece = &text[start..end];
            let mut rows = memchr::memchr_iter(b'\n', piece).count();
            if end == text.len() && at_eof && !piece.ends_with(b"\n") {
                rows += 1;
            }
            out.push(Chunk {
                start,
                end,
                row0,
                rows,
            });
            row0 += rows;
            start = end;
        }
        out
    }

    /// Pass 2: parses every row into `data` (column-major, `stride` rows) and `lines`; the
    /// number of rows read. Errors come back in file order.
    fn parse_body(
        w: &Wide,
        file: &mut File,
        mut buf: Vec<u8>,
        data: &mut [f64],
        stride: usize,
        lines: &mut [u64],
    ) -> Result<usize, Error> {
        let io = |e: std::io::Error| Error::NoInput {
            path: w.path.to_path_buf(),
            reason: super::io_reason(&e),
        };
        let changed = || Error::NoInput {
            path: w.path.to_path_buf(),
            reason: "the file changed while it was read".into(),
        };
        // `buf[..carry]` holds the unfinished last line of the previous block; each read
        // lands straight after it (no second copy of the block).
        let mut carry = 0usize;
        let (mut row0, mut first_line) = (0usize, 2u64);
        loop {
            if buf.len() < carry + BLOCK {
                buf.resize(carry + BLOCK, 0);
            }
            let k = fill(file, &mut buf[carry..carry + BLOCK]).map_err(io)?;
            let len = carry + k;
            let at_eof = k == 0;
            let end = if at_eof {
                len
            } else if let Some(i) = memchr::memrchr(b'\n', &buf[..len]) {
                i + 1
            } else if len > MAX_ROW_BYTES {
                return Err(too_long(w, first_line));
            } else {
                carry = len;
                continue;
            };
            let parts = chunks(&buf[..end], at_eof);
            let rows: usize = parts.iter().map(|c| c.rows).sum();
            if row0 + rows > stride {
                return Err(changed());
            }
            if rows > 0 {
                parse_block(
                    w,
                    &buf[..end],
                    &parts,
                    first_line,
                    data,
                    stride,
                    &mut lines[row0..row0 + rows],
                    row0,
                )?;
            }
            row0 += rows;
            first_line += rows as u64;
            buf.copy_within(end..len, 0);
            carry = len - end;
            if at_eof {
                return Ok(row0);
            }
        }
    }

    #[expect(clippy::too_many_arguments, reason = "one block's views, passed once")]
    fn parse_block(
        w: &Wide,
        text: &[u8],
        parts: &[Chunk],
        first_line: u64,
        data: &mut [f64],
        stride: usize,
        lines: &mut [u64],
        row0: usize,
    ) -> Result<(), Error> {
        let rows: usize = parts.iter().map(|c| c.rows).sum();
        let mut cols: Vec<Vec<&mut [f64]>> = parts
            .iter()
            .map(|_| Vec::with_capacity(w.selected.len()))
            .collect();
        for col in data.chunks_mut(stride) {
            let mut rest = &mut col[row0..row0 + rows];
            for (k, c) in parts.iter().enumerate() {
                let (a, b) = std::mem::take(&mut rest).split_at_mut(c.rows);
                cols[k].push(a);
                rest = b;
            }
        }
        let mut line_parts: Vec<&mut [u64]> = Vec::with_capacity(parts.len());
        let mut rest = lines;
        for c in parts {
            let (a, b) = std::mem::take(&mut rest).split_at_mut(c.rows);
            line_parts.push(a);
            rest = b;
        }
        let results: Vec<Result<(), Error>> = parts
            .par_iter()
            .zip(cols.into_par_iter())
            .zip(line_parts.into_par_iter())
            .map(|((c, mut cols), lines)| {
                parse_chunk(
                    w,
                    &text[c.start..c.end],
                    first_line + c.row0 as u64,
                    &mut cols,
                    lines,
                )
            })
            .collect();
        results.into_iter().collect()
    }

    /// Parses the rows of one chunk in a single scan for delimiters and line ends. A blank
    /// (or all-whitespace) line is no item: its line stays 0, as the `csv` reader skips it.
    fn parse_chunk(
        w: &Wide,
        text: &[u8],
        first_line: u64,
        cols: &mut [&mut [f64]],
        lines: &mut [u64],
    ) -> Result<(), Error> {
        let mut seps: Vec<usize> = Vec::with_capacity(w.names.len());
        let (mut start, mut r) = (0, 0);
        for i in memchr::memchr2_iter(w.delimiter, b'\n', text) {
            if text[i] == b'\n' {
                parse_row(w, &text[start..i], &seps, first_line, r, cols, lines)?;
                seps.clear();
                start = i + 1;
                r += 1;
            } else {
                seps.push(i - start);
            }
        }
        if r < lines.len() {
            parse_row(w, &text[start..], &seps, first_line, r, cols, lines)?;
        }
        Ok(())
    }

    /// One row: `seps` are the delimiter offsets within `line` (which has no newline).
    fn parse_row(
        w: &Wide,
        line: &[u8],
        seps: &[usize],
        first_line: u64,
        r: usize,
        cols: &mut [&mut [f64]],
        lines: &mut [u64],
    ) -> Result<(), Error> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if seps.is_empty() && line.trim_ascii().is_empty() {
            return Ok(());
        }
        let line_no = first_line + r as u64;
        let width = w.names.len();
        if seps.len() + 1 != width {
            return Err(ragged(w.path, line_no, seps.len() + 1, width));
        }
        for (slot, &c) in w.selected.iter().enumerate() {
            let s = if c == 0 { 0 } else { seps[c - 1] + 1 };
            let e = seps.get(c).copied().unwrap_or(line.len());
            let field = line[s..e].trim_ascii();
            cols[slot][r] = cell_value(w.path, field, line_no, &w.names[c])?;
        }
        lines[r] = line_no;
        Ok(())
    }
}

/// Long layout: which raters are selected, and their scores, kept sparse (one entry per
/// scored (rater, item)) so that a file naming a new rater on every row cannot make a
/// raters × items matrix before the limits are checked. Listed raters keep list order;
/// default-pattern raters are added on first sight, so the file is read once.
struct RaterColumns {
    judges: Vec<String>,
    anchors: Vec<String>,
    listed_judges: bool,
    listed_anchors: bool,
    /// Listed raters by name.
    listed: HashMap<String, (Role, usize)>,
    slot_of: HashMap<Vec<u8>, Option<(Role, usize)>>,
    seen: Vec<String>,
    seen_set: HashSet<String>,
    /// Score of each scored (rater, item), keyed by [`score_key`]; `NaN` when missing.
    /// About 20 bytes an entry, so memory follows the file's rows, not raters × items.
    scores: HashMap<u64, f64>,
}

impl RaterColumns {
    fn new(opts: &LoadOptions) -> Result<Self, Error> {
        let listed = |l: &Option<Vec<String>>| -> Vec<String> {
            l.iter().flatten().map(|s| s.trim().to_string()).collect()
        };
        let (judges, anchors) = (listed(&opts.judges), listed(&opts.anchors));
        if let Some(dup) = judges.iter().find(|j| anchors.contains(j)) {
            return Err(Error::Usage(format!(
                "rater '{}' is given as both judge and anchor",
                sanitize(dup)
            )));
        }
        if judges.len() + anchors.len() > MAX_COLUMNS {
            return Err(Error::Usage(format!(
                "--judges and --anchors list {} raters; at most {MAX_COLUMNS} are supported",
                judges.len() + anchors.len()
            )));
        }
        let mut by_name = HashMap::new();
        for (i, a) in anchors.iter().enumerate() {
            by_name.entry(a.clone()).or_insert((Role::Anchor, i));
        }
        for (i, j) in judges.iter().enumerate() {
            by_name.insert(j.clone(), (Role::Judge, i));
        }
        Ok(RaterColumns {
            judges,
            anchors,
            listed_judges: opts.judges.is_some(),
            listed_anchors: opts.anchors.is_some(),
            listed: by_name,
            slot_of: HashMap::new(),
            seen: Vec::new(),
            seen_set: HashSet::new(),
            scores: HashMap::new(),
        })
    }

    /// The slot of `rater`, deciding its role on first sight; `None` if not selected.
    fn slot(&mut self, rater: &[u8]) -> Option<(Role, usize)> {
        if let Some(s) = self.slot_of.get(rater) {
            return *s;
        }
        let id = sanitize(&String::from_utf8_lossy(rater));
        if self.seen_set.insert(id.clone()) {
            self.seen.push(id.clone());
        }
        let s = self.decide(id);
        self.slot_of.insert(rater.to_vec(), s);
        s
    }

    fn decide(&mut self, id: String) -> Option<(Role, usize)> {
        if let Some(&(role, i)) = self.listed.get(&id) {
            let listed = match role {
                Role::Judge => self.listed_judges,
                Role::Anchor => self.listed_anchors,
            };
            return listed.then_some((role, i));
        }
        match default_role(&id) {
            Some(Role::Judge) if !self.listed_judges => {
                self.judges.push(id);
                Some((Role::Judge, self.judges.len() - 1))
            }
            Some(Role::Anchor) if !self.listed_anchors => {
                self.anchors.push(id);
                Some((Role::Anchor, self.anchors.len() - 1))
            }
            _ => None,
        }
    }

    fn count(&self) -> usize {
        self.judges.len() + self.anchors.len()
    }

    /// Fails when a listed rater never appeared in the file.
    fn check_listed(&self, rater_column: &str) -> Result<(), Error> {
        for (list, listed, flag) in [
            (&self.judges, self.listed_judges, "--judges"),
            (&self.anchors, self.listed_anchors, "--anchors"),
        ] {
            if let Some(unknown) = list.iter().find(|r| listed && !self.seen_set.contains(*r)) {
                return Err(Error::Usage(format!(
                    "{flag}: no rater '{}' in column '{rater_column}' (raters: {})",
                    sanitize(unknown),
                    preview(&self.seen)
                )));
            }
        }
        Ok(())
    }
}

fn read_long(src: &mut Source, spec: &[String], opts: &LoadOptions) -> Result<Raw, Error> {
    if spec.len() != 3 {
        return Err(Error::Usage(
            "--long takes three columns: ITEM,RATER,SCORE".into(),
        ));
    }
    let names = src.header.clone();
    let idx = resolve_list(spec, &names, true, "--long")?;
    let (ci, cr, cs) = (idx[0], idx[1], idx[2]);
    let mut raters = RaterColumns::new(opts)?;
    let mut items: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut lines: Vec<u64> = Vec::new();
    let mut rec = ByteRecord::new();
    while let Some(line) = src.next(&mut rec)? {
        if is_blank(&rec) {
            continue;
        }
        check_width(&src.path, &rec, &names, line)?;
        let before = raters.count();
        let Some((role, slot)) = raters.slot(&rec[cr]) else {
            continue;
        };
        if raters.count() > before && raters.count() > MAX_COLUMNS {
            return Err(Error::data_at(
                &src.path,
                Location {
                    row: Some(line),
                    column: Some(names[cr].clone()),
                    value: Some(String::from_utf8_lossy(&rec[cr]).into_owned()),
                },
                format!(
                    "more than {MAX_COLUMNS} judge and anchor raters; at most {MAX_COLUMNS} are supported: select some with --judges / --anchors"
                ),
            ));
        }
        let next_item = items.len();
        let item = *items.entry(rec[ci].to_vec()).or_insert(next_item);
        if item == lines.len() {
            lines.push(line);
        }
        let score = raters
            .scores
            .entry(score_key(role, slot, item))
            .or_insert(f64::NAN);
        if !score.is_nan() {
            return Err(Error::data_at(
                &src.path,
                Location {
                    row: Some(line),
                    column: Some(names[cr].clone()),
                    value: Some(String::from_utf8_lossy(&rec[cr]).into_owned()),
                },
                format!(
                    "a second score for item '{}' by the same rater",
                    sanitize(&String::from_utf8_lossy(&rec[ci]))
                ),
            ));
        }
        *score = cell_value(&src.path, &rec[cs], line, &names[cs])?;
    }
    raters.check_listed(&names[cr])?;
    let n = lines.len();
    let (p, q) = (raters.judges.len(), raters.count());
    check_cells(&src.path, n, q, "items")?;
    let mut data = vec![f64::NAN; n * q];
    for (&key, &x) in &raters.scores {
        let (role, slot, item) = split_key(key);
        let col = match role {
            Role::Judge => slot,
            Role::Anchor => p + slot,
        };
        data[col * n + item] = x;
    }
    Ok(Raw {
        judges: raters.judges,
        anchors: raters.anchors,
        data,
        stride: n,
        lines,
        judges_given: opts.judges.is_some(),
        anchors_given: opts.anchors.is_some(),
        written_names: Vec::new(),
    })
}

/// Bits of a long-layout score key: the item index takes the low 40 (a file has fewer rows),
/// the rater slot the next 22, the role the top bit.
const ITEM_BITS: u32 = 40;

fn score_key(role: Role, slot: usize, item: usize) -> u64 {
    let role = u64::from(role == Role::Anchor) << 63;
    role | ((slot as u64) << ITEM_BITS) | item as u64
}

fn split_key(key: u64) -> (Role, usize, usize) {
    let role = if key >> 63 == 1 {
        Role::Anchor
    } else {
        Role::Judge
    };
    let (slot, item) = (
        ((key >> ITEM_BITS) & ((1 << 22) - 1)) as usize,
        (key & ((1 << ITEM_BITS) - 1)) as usize,
    );
    (role, slot, item)
}

fn is_blank(rec: &ByteRecord) -> bool {
    rec.len() == 1 && rec.get(0).is_some_and(<[u8]>::is_empty)
}

/// A record whose width is not the header's; when a field spans lines, the cause is a quote
/// that never closed, and the message says so.
fn check_width(path: &Path, rec: &ByteRecord, names: &[String], line: u64) -> Result<(), Error> {
    let width = names.len();
    if rec.len() == width {
        return Ok(());
    }
    if let Some(k) = rec.iter().position(|f| f.contains(&b'\n')) {
        let column = names
            .get(k)
            .cloned()
            .unwrap_or_else(|| format!("#{}", k + 1));
        return Err(Error::data_at(
            path,
            Location {
                row: Some(line),
                column: Some(column),
                value: None,
            },
            format!(
                "unterminated quote: a quoted field opens here and does not close on its line, so the row reads as {} fields where the header has {width}",
                rec.len()
            ),
        ));
    }
    Err(ragged(path, line, rec.len(), width))
}

fn ragged(path: &Path, line: u64, fields: usize, width: usize) -> Error {
    Error::data_at(
        path,
        Location {
            row: Some(line),
            ..Location::default()
        },
        format!("ragged row: {fields} fields where the header has {width}"),
    )
}

/// Role counts, complete-case filtering, constant columns, scales and families.
fn finish(path: &Path, raw: &mut Raw, opts: &LoadOptions) -> Result<Loaded, Error> {
    check_role_counts(path, raw, opts)?;
    let names: Vec<String> = raw.judges.iter().chain(&raw.anchors).cloned().collect();
    check_column_count(path, names.len(), "judge and anchor columns")?;
    let (q, rows, stride) = (names.len(), raw.lines.len(), raw.stride);
    let is_item: Vec<bool> = raw.lines.iter().map(|l| *l != 0).collect();
    let total = is_item.iter().filter(|k| **k).count();
    if total == 0 {
        return Err(Error::data(
            path,
            "no data rows (the file has a header only)",
        ));
    }
    let col = |c: usize| &raw.data[c * stride..c * stride + rows];
    let missing: Vec<usize> = (0..q)
        .into_par_iter()
        .map(|c| {
            col(c)
                .iter()
                .zip(&is_item)
                .filter(|(x, k)| **k && x.is_nan())
                .count()
        })
        .collect();
    let mut complete = is_item;
    for (c, m) in missing.iter().enumerate() {
        if *m > 0 {
            for (k, x) in complete.iter_mut().zip(col(c)) {
                *k &= !x.is_nan();
            }
        }
    }
    let n = complete.iter().filter(|c| **c).count();
    let first_dropped = (0..rows)
        .find(|&i| raw.lines[i] != 0 && !complete[i])
        .map(|i| {
            let c = (0..q).position(|c| col(c)[i].is_nan()).unwrap_or(0);
            Location {
                row: Some(raw.lines[i]),
                column: Some(names[c].clone()),
                value: None,
            }
        });
    if n < MIN_ITEMS {
        return Err(Error::data(
            path,
            format!(
                "only {n} complete items ({} dropped for missing values); at least {MIN_ITEMS} are needed",
                total - n
            ),
        ));
    }
    let mut data = std::mem::take(&mut raw.data);
    compact(&mut data, stride, &complete, q, n);
    check_constant(path, &names, &data, n)?;
    check_magnitude(path, &names, &data, n)?;
    let mut scales: Vec<Scale> = (0..q)
        .into_par_iter()
        .map(|c| Scale::detect(&data[c * n..(c + 1) * n]))
        .collect();
    for c in forced_continuous(&names, opts.continuous.as_deref())? {
        scales[c] = Scale::Continuous;
    }
    let (families, families_source, mut notes) = load_families(path, &raw.judges, opts)?;
    if let Some(note) = identical_judges_note(path, &raw.judges, &data, n) {
        notes.push(note);
    }
    Ok(Loaded {
        panel: Panel {
            n,
            data,
            judges: raw.judges.clone(),
            anchors: raw.anchors.clone(),
            families,
            scales,
            missing,
            n_dropped: total - n,
        },
        families_source,
        first_dropped,
        header: Vec::new(),
        notes,
        delimiter: b',',
        raw_names: Vec::new(),
    })
}

/// Keeps the rows marked in `keep` (the first `keep.len()` of each column of `stride` rows),
/// in place: column c ends at `c * n`. Moving forward never overwrites an unread value, since
/// `c * n + k <= c * stride + i` whenever `k <= i` and `n <= stride`.
fn compact(data: &mut Vec<f64>, stride: usize, keep: &[bool], q: usize, n: usize) {
    if n == stride && keep.len() == stride {
        data.truncate(n * q);
        return;
    }
    for c in 0..q {
        let mut k = c * n;
        for (i, keep) in keep.iter().enumerate() {
            if *keep {
                data[k] = data[c * stride + i];
                k += 1;
            }
        }
    }
    data.truncate(n * q);
    data.shrink_to_fit();
}

/// SPEC §6: a judge column identical to another (every complete item, same value) is a
/// duplicated column or a judge with no independent error; either way Test A cannot see it.
/// One line naming the pairs, or `None`. Columns are compared by a hash, then in full.
fn identical_judges_note(path: &Path, judges: &[String], data: &[f64], n: usize) -> Option<String> {
    let p = judges.len();
    let col = |c: usize| &data[c * n..(c + 1) * n];
    let hashes: Vec<u64> = (0..p)
        .into_par_iter()
        .map(|c| {
            col(c).iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, x| {
                // `+ 0.0` makes -0 and +0 hash alike, as they compare equal.
                (h ^ (x + 0.0).to_bits()).wrapping_mul(0x0100_0000_01b3)
            })
        })
        .collect();
    let mut pairs = Vec::new();
    for a in 0..p {
        for b in a + 1..p {
            if hashes[a] == hashes[b] && col(a) == col(b) {
                pairs.push(format!("'{}' = '{}'", judges[a], judges[b]));
            }
        }
    }
    if pairs.is_empty() {
        return None;
    }
    let more = pairs.len().saturating_sub(3);
    pairs.truncate(3);
    let list = if more > 0 {
        format!("{} and {more} more pairs", pairs.join(", "))
    } else {
        pairs.join(", ")
    };
    Some(
        Error::data(
            path,
            format!(
                "warning: identical judge columns {list}: a duplicated column, or a judge with no independent error, which the single-factor model and Test A cannot detect"
            ),
        )
        .to_string(),
    )
}

/// At least 2 judges and `min_anchors` anchors; a usage error when the user named them.
fn check_role_counts(path: &Path, raw: &Raw, opts: &LoadOptions) -> Result<(), Error> {
    let count_error = |given: bool, msg: String| {
        if given {
            Error::Usage(msg)
        } else {
            Error::data(path, msg)
        }
    };
    if raw.judges.len() < 2 {
        return Err(count_error(
            raw.judges_given,
            format!(
                "fewer than 2 judges ({} found{}); name them with --judges",
                raw.judges.len(),
                found_names(&raw.judges)
            ),
        ));
    }
    if raw.anchors.len() < opts.min_anchors {
        return Err(count_error(
            raw.anchors_given,
            format!(
                "fewer than {} anchors ({} found{}); name them with --anchors",
                opts.min_anchors,
                raw.anchors.len(),
                found_names(&raw.anchors)
            ),
        ));
    }
    Ok(())
}

/// A constant column carries no covariance: an error naming it and its value.
fn check_constant(path: &Path, names: &[String], data: &[f64], n: usize) -> Result<(), Error> {
    for (ci, name) in names.iter().enumerate() {
        let col = &data[ci * n..(ci + 1) * n];
        #[expect(
            clippy::float_cmp,
            reason = "a constant column is exactly equal values"
        )]
        let constant = col.iter().all(|x| *x == col[0]);
        if constant {
            return Err(Error::data_at(
                path,
                Location {
                    column: Some(name.clone()),
                    value: Some(col[0].to_string()),
                    ..Location::default()
                },
                "constant column: every complete item has the same value, so it carries no covariance",
            ));
        }
    }
    Ok(())
}

/// Beyond this magnitude (or spread below its inverse) a column's second moments overflow or
/// underflow double precision, and every statistic would be silently wrong.
pub const MAX_MAGNITUDE: f64 = 1e150;

/// Values so large, or spreads so small, that products of two of them leave the range of a
/// double: refused with the reason, never turned into a quiet NaN or a changed answer.
fn check_magnitude(path: &Path, names: &[String], data: &[f64], n: usize) -> Result<(), Error> {
    for (ci, name) in names.iter().enumerate() {
        let col = &data[ci * n..(ci + 1) * n];
        let (lo, hi) = col
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                (a.min(*x), b.max(*x))
            });
        let biggest = if lo.abs() > hi.abs() { lo } else { hi };
        let located = |value: f64, message: &str| {
            Error::data_at(
                path,
                Location {
                    column: Some(name.clone()),
                    value: Some(format!("{value:e}")),
                    ..Location::default()
                },
                message,
            )
        };
        if biggest.abs() > MAX_MAGNITUDE {
            return Err(located(
                biggest,
                "a value beyond ±1e150 overflows the covariances in double precision; rescale the column (ρ does not depend on its units)",
            ));
        }
        if hi - lo < 1.0 / MAX_MAGNITUDE {
            return Err(located(
                hi - lo,
                "the column's values differ by less than 1e-150, so its covariances underflow double precision; rescale the column (ρ does not depend on its units)",
            ));
        }
    }
    Ok(())
}

/// Column indices named by `--continuous` (`all` names every column).
fn forced_continuous(names: &[String], list: Option<&[String]>) -> Result<Vec<usize>, Error> {
    match list {
        None => Ok(Vec::new()),
        Some([one]) if one.trim().eq_ignore_ascii_case("all") => Ok((0..names.len()).collect()),
        Some(tokens) => resolve_list(tokens, names, false, "--continuous"),
    }
}

fn found_names(names: &[String]) -> String {
    if names.is_empty() {
        String::new()
    } else {
        format!(": {}", preview(names))
    }
}

/// Family labels per judge, the file they came from, and notes for the user.
type Families = (Option<Vec<String>>, Option<PathBuf>, Vec<String>);

/// Where a family assignment came from, for errors that name it.
enum FamilyOrigin {
    /// `--families NAME=FAMILY,...`.
    Inline,
    /// `--families FILE`.
    File(PathBuf),
    /// The sidecar beside the panel, adopted without a flag.
    Sidecar(PathBuf),
}

/// Families from `--families` (a `NAME=FAMILY` list or a file), or from the sidecar; the
/// third value holds the one-line note that says a sidecar was adopted.
fn load_families(
    panel_path: &Path,
    judges: &[String],
    opts: &LoadOptions,
) -> Result<Families, Error> {
    let (pairs, origin) = match &opts.families {
        Some(spec) if spec.contains('=') => {
            let pairs = spec
                .split(',')
                .map(|kv| {
                    kv.split_once('=')
                        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string(), 0))
                        .ok_or_else(|| {
                            Error::Usage(format!(
                                "--families: '{}' is not NAME=FAMILY",
                                sanitize(kv)
                            ))
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            check_inline_families(&pairs)?;
            (pairs, FamilyOrigin::Inline)
        }
        Some(file) => {
            let p = PathBuf::from(file);
            (read_families_file(&p, judges)?, FamilyOrigin::File(p))
        }
        None => {
            let side = families_sidecar(panel_path);
            if is_stdin(panel_path) || !side.is_file() {
                return Ok((None, None, Vec::new()));
            }
            (
                read_families_file(&side, judges)?,
                FamilyOrigin::Sidecar(side),
            )
        }
    };
    let position: HashMap<&str, usize> = judges
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut fam: Vec<Option<String>> = vec![None; judges.len()];
    for (name, family, line) in pairs {
        let Some(&j) = position.get(name.as_str()) else {
            return Err(not_a_judge(panel_path, &origin, &name, line, judges));
        };
        fam[j] = Some(sanitize(&family));
    }
    // A judge left out of the list forms a family of its own.
    let labels = fam
        .into_iter()
        .zip(judges)
        .map(|(f, j)| f.unwrap_or_else(|| format!("{j} (own)")))
        .collect();
    let (source, notes) = match origin {
        FamilyOrigin::Inline => (None, Vec::new()),
        FamilyOrigin::File(p) => (Some(p), Vec::new()),
        FamilyOrigin::Sidecar(p) => {
            let note = Error::data(
                panel_path,
                format!(
                    "note: judge families read from {} beside it (--families overrides)",
                    p.display()
                ),
            )
            .to_string();
            (Some(p), vec![note])
        }
    };
    Ok((Some(labels), source, notes))
}

/// `--families` names each judge once, each with a family: a repeated judge would silently
/// keep its last family, an empty one would form a family named "".
fn check_inline_families(pairs: &[(String, String, u64)]) -> Result<(), Error> {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for (name, family, _) in pairs {
        if name.is_empty() {
            return Err(Error::Usage(format!(
                "--families: '={}' names no judge (write NAME=FAMILY)",
                sanitize(family)
            )));
        }
        if family.is_empty() {
            return Err(Error::Usage(format!(
                "--families: judge '{}' has an empty family (write NAME=FAMILY)",
                sanitize(name)
            )));
        }
        if let Some(before) = seen.insert(name, family) {
            return Err(Error::Usage(format!(
                "--families names judge '{}' twice ({} and {}); give each judge one family",
                sanitize(name),
                sanitize(before),
                sanitize(family)
            )));
        }
    }
    Ok(())
}

/// A family entry naming no judge: a usage error for `--families` lists, a data error naming
/// the file and row for files — and for the sidecar, one that says it does not fit the panel
/// (never blaming a flag the user did not give).
fn not_a_judge(
    panel_path: &Path,
    origin: &FamilyOrigin,
    name: &str,
    line: u64,
    judges: &[String],
) -> Error {
    let at = Location {
        row: Some(line),
        column: None,
        value: Some(name.to_string()),
    };
    match origin {
        FamilyOrigin::Inline => Error::Usage(format!(
            "--families names '{}', which is not a judge (judges: {})",
            sanitize(name),
            preview(judges)
        )),
        FamilyOrigin::File(p) => Error::data_at(
            p,
            at,
            format!(
                "names a judge the panel does not have (judges: {})",
                preview(judges)
            ),
        ),
        FamilyOrigin::Sidecar(p) => Error::data_at(
            p,
            at,
            format!(
                "this families sidecar does not fit {}: it names a judge the panel does not have (judges: {}); remove or fix the sidecar, or pass --families",
                panel_path.display(),
                preview(judges)
            ),
        ),
    }
}

/// A two-column `judge,family` file, with the line of each entry; a first row that names no
/// judge is a header.
fn read_families_file(path: &Path, judges: &[String]) -> Result<Vec<(String, String, u64)>, Error> {
    let mut src = Source::open(path)?;
    let mut out = Vec::new();
    if judges.contains(&src.header[0]) {
        if src.header.len() != 2 {
            return Err(bad_family_row(path, 1));
        }
        out.push((src.header[0].clone(), src.header[1].clone(), 1));
    }
    let mut rec = ByteRecord::new();
    while let Some(line) = src.next(&mut rec)? {
        if is_blank(&rec) {
            continue;
        }
        if rec.len() != 2 {
            return Err(bad_family_row(path, line));
        }
        if out.len() > MAX_COLUMNS {
            return Err(Error::data_at(
                path,
                Location {
                    row: Some(line),
                    ..Location::default()
                },
                format!("more than {MAX_COLUMNS} family entries"),
            ));
        }
        let field = |i: usize| sanitize(&String::from_utf8_lossy(&rec[i]));
        out.push((field(0), field(1), line));
    }
    Ok(out)
}

fn bad_family_row(path: &Path, line: u64) -> Error {
    Error::data_at(
        path,
        Location {
            row: Some(line),
            ..Location::default()
        },
        "a families file has two columns: judge,family",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;

    #[test]
    fn sniffs_each_delimiter() {
        assert_eq!(sniff(b"a,b,c\n"), b',');
        assert_eq!(sniff(b"a\tb\tc\n"), b'\t');
        assert_eq!(sniff(b"a;b;c\n"), b';');
        assert_eq!(sniff(b"abc\n"), b',');
    }

    #[test]
    fn default_roles_follow_spec_patterns() {
        assert_eq!(default_role("J1"), Some(Role::Judge));
        assert_eq!(default_role("judge_gpt"), Some(Role::Judge));
        assert_eq!(default_role("A12"), Some(Role::Anchor));
        assert_eq!(default_role("Anchor-human"), Some(Role::Anchor));
        assert_eq!(default_role("A1IZ4NX41GKU4X"), None);
        assert_eq!(default_role("J"), None);
        assert_eq!(default_role("story_id"), None);
    }

    /// Loads `content` through both readers and requires identical results or errors.
    fn both(content: &[u8], opts: &LoadOptions) -> Result<Loaded, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.csv");
        std::fs::write(&path, content).unwrap();
        let fast = load_with(&path, opts, Strategy::Auto);
        let slow = load_with(&path, opts, Strategy::Sequential);
        match (fast, slow) {
            (Ok(a), Ok(b)) => {
                let bits =
                    |l: &Loaded| l.panel.data.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&a), bits(&b), "{}", String::from_utf8_lossy(content));
                assert_eq!(a.panel, b.panel);
                assert_eq!(a.first_dropped, b.first_dropped);
                assert_eq!(a.header, b.header);
                assert_eq!(a.notes, b.notes);
                Ok(a)
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string());
                Err(a.to_string())
            }
            (a, b) => panic!(
                "the readers disagree on {:?}: fast {:?}, csv {:?}",
                String::from_utf8_lossy(content),
                a.map(|l| l.panel),
                b.map(|l| l.panel)
            ),
        }
    }

    const GOOD: &str = "J1,J2,J3,A1,A2\n1.5,2,3,4,5\n2,1,4.25,2,1\n3,3,1,1,2\n0,5,2,3,-1e-3\n";

    #[test]
    fn fast_and_csv_readers_agree_on_awkward_files() {
        let opts = LoadOptions::default();
        let cases: Vec<String> = vec![
            GOOD.into(),
            GOOD.trim_end().into(),
            GOOD.replace('\n', "\r\n"),
            GOOD.replace("\n3,", "\n\n   \n\t\n3,"),
            GOOD.replace("\n3,3", "\n NA ,nan"),
            GOOD.replace(",4.25,", ",null,").replace(",1,2\n", ",,2\n"),
            GOOD.replace("4.25", "abc"),
            GOOD.replace("4.25", "1e400"),
            GOOD.replace("4.25", "-inf"),
            GOOD.replace("4.25", "+.5"),
            GOOD.replace("4.25", "1_000"),
            GOOD.replace("4.25", "0x10"),
            GOOD.replace("4.25", "5."),
            GOOD.replace("4.25", "\u{a0}7\u{a0}"),
            GOOD.replace("3,3,1,1,2", "3,3,1,1"),
            GOOD.replace("3,3,1,1,2", "3,3,1,1,2,9"),
            GOOD.replace(',', ";"),
            GOOD.replace(',', "\t"),
            GOOD.replace(",4,5\n", ",4,\"5\"\n"),
            GOOD.replace("\n3,3", "\r3,3"),
            format!("{GOOD}\n\n\n"),
            "J1,J2,A1,A2\n1,2,3,4\n1,2,3,4\n2,2,4,4\n3,3,1,7\n".into(),
            "J1,J2,A1\n".into(),
        ];
        for c in &cases {
            let _ = both(c.as_bytes(), &opts);
        }
        let mut bytes = GOOD.as_bytes().to_vec();
        bytes[30] = 0xff;
        let _ = both(&bytes, &opts);
    }

    #[test]
    fn fast_reader_handles_many_blocks_and_chunks() {
        // About 1.2 MB: several parallel chunks, rows spanning chunk boundaries, with missing
        // cells and a late bad cell whose row must be exact.
        let mut s = String::from("id,J1,J2,A1,A2\n");
        for i in 0..40_000u32 {
            let x = f64::from(i).sqrt() * 1.000_000_1;
            let miss = if i % 997 == 0 {
                "NA".to_string()
            } else {
                format!("{}.25", i % 5)
            };
            writeln!(
                s,
                "it{i},{x},{},{},{miss}",
                1.0 / f64::from(i + 1),
                f64::from(i % 7) - 3.3
            )
            .unwrap();
        }
        let ok = both(s.as_bytes(), &LoadOptions::default()).unwrap();
        assert_eq!(ok.panel.n + ok.panel.n_dropped, 40_000);
        let bad = s.replacen("it39000,", "it39000,oops", 1);
        let err = both(bad.as_bytes(), &LoadOptions::default()).unwrap_err();
        assert!(err.contains("row 39002, column 'J1'"), "{err}");
        // A row longer than a read block (1 MiB) grows the buffer and still parses.
        let long = format!(
            "J1,J2,A1,A2\n1,2,3,4\n2,{}5,1,3\n3,1,2,2\n0,4,4,1\n",
            " ".repeat(3 << 19)
        );
        let ok = both(long.as_bytes(), &LoadOptions::default()).unwrap();
        assert_eq!(ok.panel.n, 4);
        assert_eq!(ok.panel.col(1), &[2.0, 5.0, 1.0, 4.0][..]);
    }

    #[test]
    fn identical_judges_are_noted_once() {
        let ok = both(
            b"J1,J2,J3,A1,A2\n1,1,2,3,4\n2,2,1,4,1\n3,3,3,1,2\n0,0,5,2,3\n",
            &LoadOptions::default(),
        )
        .unwrap();
        assert_eq!(ok.notes.len(), 1);
        assert!(ok.notes[0].contains("'J1' = 'J2'"), "{:?}", ok.notes);
        let fine = both(GOOD.as_bytes(), &LoadOptions::default()).unwrap();
        assert!(fine.notes.is_empty());
    }

    #[test]
    fn score_keys_round_trip() {
        for (role, slot, item) in [
            (Role::Judge, 0, 0),
            (Role::Anchor, 255, (1 << 40) - 1),
            (Role::Judge, 17, 123_456_789),
        ] {
            assert_eq!(split_key(score_key(role, slot, item)), (role, slot, item));
        }
    }

    #[test]
    fn duplicate_header_check_is_linear() {
        let names: Vec<String> = (0..100_000).map(|i| format!("X{i}")).collect();
        check_header(Path::new("h.csv"), &names).unwrap();
        let mut dup = names;
        dup.push("X5".into());
        let e = check_header(Path::new("h.csv"), &dup)
            .unwrap_err()
            .to_string();
        assert!(e.contains("columns 6 and 100001"), "{e}");
    }

    proptest::proptest! {
        /// The fast float parser gives std's bits, or defers to it.
        #[test]
        fn fast_number_matches_std(s in "[-+]?[0-9]{0,20}(\\.[0-9]{0,20})?([eE][-+]?[0-9]{1,3})?") {
            if let Some(x) = fast_number(s.as_bytes()) {
                proptest::prop_assert_eq!(Some(x.to_bits()), s.parse::<f64>().ok().map(f64::to_bits));
            }
        }

        #[test]
        fn fast_number_matches_std_on_doubles(x in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL) {
            for s in [format!("{x}"), format!("{x:e}"), format!("{x:.3}")] {
                let got = fast_number(s.as_bytes()).map(f64::to_bits);
                proptest::prop_assert_eq!(got, s.parse::<f64>().ok().map(f64::to_bits));
            }
        }
    }
}
