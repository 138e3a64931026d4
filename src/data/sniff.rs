//! Delimited text opened for reading: its header line, sniffed delimiter and checked names,
//! and the rows, through the `csv` crate or from records (JSON, Parquet).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};

use csv::{ByteRecord, ReaderBuilder, Trim};

use super::DataError;
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

pub(super) const MAX_HEADER: u64 = 1 << 20;

impl Source {
    pub(super) fn open(path: &Path) -> Result<Source, DataError> {
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

    pub(super) fn text(
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
        if first.contains(&0) || std::str::from_utf8(&first).is_err() {
            return Err(DataError::data(
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

pub(super) fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        std::io::ErrorKind::NotADirectory => "a folder in the path is a file".into(),
        std::io::ErrorKind::IsADirectory => "is a directory".into(),
        _ => e.to_string(),
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
pub(super) fn sniff(header: &[u8]) -> u8 {
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
                "the header has an empty column name",
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
