//! Delimited text opened for reading: its header line, sniffed delimiter and checked names,
//! and the rows, through the `csv` crate or from records (JSON, Parquet).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};

use csv::{ByteRecord, ReaderBuilder, Trim};

use super::DataError;
use super::error::io_reason;
use super::format::looks_utf16;
use super::limits::MAX_HEADER;
use super::{Opened, Records, input, limits};
use crate::location::{Location, sanitize};

/// An opened input with its header: delimited text with its sniffed delimiter, or records
/// (JSON, Parquet). The input is opened once (a FIFO, `<(…)` or `-` for standard input can be
/// read only once); only a regular file is opened a second time, by the fast reader.
pub(super) struct Source {
    pub(super) path: PathBuf,
    pub(super) body: Body,
    pub(super) header: Vec<String>,
    /// The header's names as in the file (not sanitised), for scripts that select them.
    pub(super) raw_header: Vec<String>,
    pub(super) delimiter: u8,
    /// Byte offset of the first body line; `None` when the header holds a quote (then only
    /// the `csv` reader knows where the header ends) or the input is no regular file.
    pub(super) body_offset: Option<u64>,
}

/// Where a [`Source`]'s rows come from.
pub(super) enum Body {
    Text(Box<csv::Reader<std::io::Chain<Cursor<Vec<u8>>, RowGuard>>>),
    Records(Box<dyn Records>),
}

impl Source {
    pub(super) fn open(path: &Path) -> Result<Source, DataError> {
        let src = Source::open_rows(path)?;
        check_header(path, &src.header)?;
        Ok(src)
    }

    /// [`Source::open`] without the checks of a header (empty or repeated names): for a file
    /// whose first row may be data (a families file).
    pub(super) fn open_rows(path: &Path) -> Result<Source, DataError> {
        match input::open(path)? {
            Opened::Text { buf, regular } => Source::text_rows(path, buf, regular),
            Opened::Records { names, rows } => {
                let header: Vec<String> = names.iter().map(|f| sanitize(f)).collect();
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

    pub(super) fn text(
        path: &Path,
        buf: BufReader<Box<dyn Read + Send>>,
        regular: bool,
    ) -> Result<Source, DataError> {
        let src = Source::text_rows(path, buf, regular)?;
        check_header(path, &src.header)?;
        Ok(src)
    }

    fn text_rows(
        path: &Path,
        mut buf: BufReader<Box<dyn Read + Send>>,
        regular: bool,
    ) -> Result<Source, DataError> {
        let start = buf
            .fill_buf()
            .map_err(|e| input::gzip_error(path, None, &e))?;
        if looks_utf16(start) {
            return Err(DataError::data(
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
            return Err(DataError::data(path, "the file is empty (no header row)"));
        }
        if !ended && first.len() as u64 >= MAX_HEADER - 3 {
            return Err(DataError::data(
                path,
                "not a text panel: the header is over 1 MiB",
            ));
        }
        if first.contains(&0) {
            return Err(DataError::data(
                path,
                "not a text panel: the header is binary or not UTF-8",
            ));
        }
        if std::str::from_utf8(&first).is_err() {
            // Text in a single-byte encoding: Excel on Windows saves CSV as Windows-1252.
            return Err(DataError::data(
                path,
                "not a text panel: the header is not UTF-8 (Excel on Windows saves Windows-1252: convert it, e.g. iconv -f WINDOWS-1252 -t UTF-8)",
            ));
        }
        // The body's first lines keep a delimiter honest that the header alone would get
        // wrong (a comma inside a TSV's column names).
        let following: Vec<u8> = buf
            .fill_buf()
            .map(|b| b[..b.len().min(1 << 16)].to_vec())
            .unwrap_or_default();
        let delimiter = sniff_lines(&first, &following, named_delimiter(path));
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
            return Err(DataError::data_at(
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
    pub(super) fn next(&mut self, rec: &mut ByteRecord) -> Result<Option<u64>, DataError> {
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

/// Where the columns asked of [`Source::keep`] sit in the rows [`Source::next`] fills.
pub(super) struct Kept {
    /// Each asked column's position in a row.
    pub(super) at: Vec<usize>,
    /// Rows hold only the asked columns (records, which are never ragged or blank).
    pub(super) projected: bool,
}

impl Source {
    /// The number of rows, when the input states it before they are read (Parquet's footer).
    pub(super) fn rows_stated(&self) -> Option<usize> {
        match &self.body {
            Body::Records(rows) => rows.rows_stated(),
            Body::Text(_) => None,
        }
    }

    /// Refuses a boolean, array or object in the id columns `cols` of a record input.
    pub(super) fn ids(&mut self, cols: &[usize]) -> Result<(), DataError> {
        match &mut self.body {
            Body::Records(rows) => rows.ids(cols, &self.raw_header),
            Body::Text(_) => Ok(()),
        }
    }

    /// Asks for only `cols` from the rows, so reading a record input with many distinct keys
    /// costs each record its own keys, not the header's width (linear, not records × keys).
    pub(super) fn keep(&mut self, cols: &[usize]) -> Kept {
        let projected = match &mut self.body {
            Body::Records(rows) => rows.keep(cols),
            Body::Text(_) => false,
        };
        Kept {
            at: if projected {
                (0..cols.len()).collect()
            } else {
                cols.to_vec()
            },
            projected,
        }
    }
}

/// The header record's bytes with its line end: up to the first `\n`, `\r\n` or bare `\r`
/// (old Mac files) outside double quotes, so a quoted name may hold a line break. `false` when
/// the input ended inside quotes or the header passed [`MAX_HEADER`].
pub(super) fn read_header_line(buf: &mut impl BufRead) -> std::io::Result<(Vec<u8>, bool)> {
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
pub(super) struct RowGuard {
    inner: BufReader<Box<dyn Read + Send>>,
    /// Bytes since the last line end, and the line number being read (the header is line 1).
    since: usize,
    line: u64,
    prev_cr: bool,
}

/// The error [`RowGuard`] raises, carried through the `csv` crate's I/O error.
#[derive(Debug)]
pub(super) struct RowTooLong(u64);

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

pub(super) fn csv_error(path: &Path, e: &csv::Error) -> DataError {
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
        return DataError::data_at(
            path,
            Location {
                row: Some(*line),
                ..Location::default()
            },
            format!("a row longer than {} MiB", limits::MAX_ROW_BYTES >> 20),
        );
    }
    match e.kind() {
        csv::ErrorKind::Io(io) => DataError::NoInput {
            path: path.to_path_buf(),
            reason: io_reason(io),
        },
        _ => DataError::data_at(
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
#[cfg(test)]
pub(super) fn sniff(header: &[u8]) -> u8 {
    sniff_lines(header, &[], None)
}

/// Comma, tab and semicolon, the delimiters a text panel may use.
const DELIMITERS: [u8; 3] = [b',', b'\t', b';'];

/// How often each of [`DELIMITERS`] occurs in `line` outside double quotes.
fn counts(line: &[u8]) -> [usize; 3] {
    let mut counts = [0usize; 3];
    let mut quoted = false;
    for &b in line {
        match b {
            b'"' => quoted = !quoted,
            _ => {
                if let Some(i) = DELIMITERS.iter().position(|d| *d == b) {
                    counts[i] += usize::from(!quoted);
                }
            }
        }
    }
    counts
}

/// The delimiter, from the header and the lines after it (`following`, the start of the
/// body; its last line may be cut): of those that split the header and every following line
/// into the same number of fields, the one `preferred` names (a `.tsv` file's tab), else the
/// most frequent; when none keeps the count (a ragged file), the header's most frequent.
pub(super) fn sniff_lines(header: &[u8], following: &[u8], preferred: Option<u8>) -> u8 {
    let head = counts(header);
    let whole = following
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(&following[..0], |i| &following[..i]);
    let lines: Vec<[usize; 3]> = whole
        .split(|b| *b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .take(64)
        .map(counts)
        .collect();
    let steady = |i: usize| head[i] > 0 && lines.iter().all(|c| c[i] == head[i]);
    let pick = |ok: &dyn Fn(usize) -> bool| {
        (0..3)
            .filter(|&i| ok(i))
            .max_by_key(|&i| {
                (
                    Some(DELIMITERS[i]) == preferred,
                    head[i],
                    u8::MAX - DELIMITERS[i],
                )
            })
            .map(|i| DELIMITERS[i])
    };
    pick(&steady)
        .or_else(|| pick(&|i| head[i] > 0))
        .unwrap_or(b',')
}

/// The delimiter a file's name asks for: tab for `.tsv` and `.tab` (also under `.gz`).
pub(super) fn named_delimiter(path: &Path) -> Option<u8> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    let name = Path::new(name.strip_suffix(".gz").unwrap_or(&name));
    match name.extension()?.to_str()? {
        "tsv" | "tab" => Some(b'\t'),
        "csv" => Some(b','),
        _ => None,
    }
}

/// Empty and duplicate names, in one pass (a hash of the names seen, so a header of
/// 100,000 columns is checked in milliseconds).
pub(super) fn check_header(path: &Path, header: &[String]) -> Result<(), DataError> {
    let mut first_seen: HashMap<&str, usize> = HashMap::with_capacity(header.len());
    for (i, name) in header.iter().enumerate() {
        // pandas' default `to_csv` writes its index first, under an empty name: an id column.
        if name.is_empty() && (i > 0 || header.len() == 1) {
            return Err(DataError::data_at(
                path,
                Location {
                    row: Some(1),
                    column: Some(format!("#{}", i + 1)),
                    value: None,
                },
                if header.len() == 2 && header[0].to_ascii_lowercase().starts_with("sep=") {
                    "row 1 is Excel's 'sep=' hint line, not a header: delete that line (Excel reads the file the same without it)"
                } else if i + 1 == header.len() {
                    "the header has an empty last column name: likely a delimiter at the end of every line (as some exports write); remove it"
                } else {
                    "the header has an empty column name"
                },
            ));
        }
        if let Some(j) = first_seen.insert(name, i) {
            return Err(DataError::data_at(
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
