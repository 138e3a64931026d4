//! Which format an input holds, told by its name and first bytes, and its opening: delimited
//! text (plain, gzip-compressed, or standard input held in memory), JSON records and Parquet.
//! Every other format recognised is refused in one line that names it and says what to do.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::OnceLock;

use flate2::bufread::MultiGzDecoder;

use super::DataError;
use super::limits::{MAX_JSON_BYTES, MAX_STDIN_BYTES};
use super::records::Opened;
use super::{columnar, io_reason, json, looks_utf16};
use crate::location::Location;

/// The formats rhoscope reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Format {
    /// Comma, tab or semicolon separated text.
    Text,
    /// gzip-compressed input (whatever it holds, told once decompressed).
    Gzip,
    /// A JSON array of records, or JSON Lines (one record a line).
    Json,
    Parquet,
}

/// Whether `path` names standard input.
pub(super) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Whether `path` names standard input by any of its names (`-`, `/dev/stdin`, `/dev/fd/0`,
/// `/proc/self/fd/0`): two inputs that both do cannot both be read.
pub(super) fn names_stdin(path: &Path) -> bool {
    is_stdin(path)
        || ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]
            .iter()
            .any(|n| path.as_os_str() == *n)
}

/// Records that standard input was closed when the program started (the command line finds
/// out; the runtime has since put /dev/null there), so `-` is an unreadable input rather
/// than an empty one.
pub fn note_stdin_closed() {
    let _ = STDIN.set(Err(Refused::Unreadable(
        "standard input is closed (bad file descriptor)".into(),
    )));
}

/// Why standard input gives no bytes: it cannot be read, or what arrived is no panel.
#[derive(Debug)]
enum Refused {
    Unreadable(String),
    NotAPanel(String),
}

/// Standard input, read once into memory and kept for the rest of the process, so the
/// explorer can reload `-` after a role or scale change.
static STDIN: OnceLock<Result<Vec<u8>, Refused>> = OnceLock::new();

/// The bytes of standard input (read on first use).
fn stdin_bytes(path: &Path) -> Result<&'static [u8], DataError> {
    match STDIN.get_or_init(|| read_stdin(&mut std::io::stdin().lock())) {
        Ok(bytes) => Ok(bytes),
        Err(Refused::NotAPanel(m)) => Err(DataError::data(path, m.clone())),
        Err(Refused::Unreadable(reason)) => Err(DataError::NoInput {
            path: path.to_path_buf(),
            reason: reason.clone(),
        }),
    }
}

/// Reads standard input, judging its first MiB as soon as it has arrived: binary bytes, a
/// format rhoscope does not read or a text header over 1 MiB are refused then, not after
/// [`MAX_STDIN_BYTES`] have been held.
fn read_stdin(input: &mut impl Read) -> Result<Vec<u8>, Refused> {
    let unreadable = |e: std::io::Error| Refused::Unreadable(io_reason(&e));
    let mut bytes = Vec::new();
    input
        .take(super::sniff::MAX_HEADER)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if let Some(why) = not_a_panel(&bytes) {
        return Err(Refused::NotAPanel(why.into()));
    }
    let rest = u64::try_from(MAX_STDIN_BYTES).unwrap_or(u64::MAX) - super::sniff::MAX_HEADER;
    input
        .take(rest + 1)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if bytes.len() > MAX_STDIN_BYTES {
        return Err(Refused::NotAPanel(format!(
            "standard input is over {} MiB: write it to a file and load that",
            MAX_STDIN_BYTES >> 20
        )));
    }
    Ok(bytes)
}

/// Why the first bytes of standard input cannot begin a panel, if they cannot: compressed and
/// Parquet data are told later; text and JSON must be UTF-8 without zero bytes, and a text
/// header must end within 1 MiB.
fn not_a_panel(head: &[u8]) -> Option<&'static str> {
    let format = match detect("", head) {
        Err(why) => return Some(why),
        Ok(f) => f,
    };
    if matches!(format, Format::Gzip | Format::Parquet) || head.is_empty() {
        return None;
    }
    if looks_utf16(head) {
        return Some("the input is UTF-16: save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8)");
    }
    let end = memchr::memchr2(b'\n', b'\r', head).filter(|_| format == Format::Text);
    let line = &head[..end.unwrap_or(head.len())];
    let utf8 = match std::str::from_utf8(line) {
        Ok(_) => true,
        // A character cut by the end of the first MiB is not an error.
        Err(e) => e.error_len().is_none(),
    };
    if line.contains(&0) || !utf8 {
        return Some("not a text panel: the bytes are binary or not UTF-8");
    }
    (format == Format::Text && end.is_none() && head.len() as u64 >= super::sniff::MAX_HEADER)
        .then_some("not a text panel: the header is over 1 MiB")
}

/// Opens `path` (or standard input for `-`) and tells its format.
pub(super) fn open(path: &Path) -> Result<Opened, DataError> {
    let no_input = |reason: String| DataError::NoInput {
        path: path.to_path_buf(),
        reason,
    };
    let (input, regular): (Box<dyn Read + Send>, bool) = if is_stdin(path) {
        (Box::new(stdin_bytes(path)?), false)
    } else {
        if path.is_dir() {
            return Err(no_input("is a directory".into()));
        }
        let file = File::open(path).map_err(|e| no_input(io_reason(&e)))?;
        let regular = file.metadata().is_ok_and(|m| m.is_file());
        (Box::new(file), regular)
    };
    let name = if is_stdin(path) {
        String::new()
    } else {
        path.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().to_lowercase())
    };
    let mut buf = BufReader::with_capacity(1 << 16, input);
    let head = buf.fill_buf().map_err(|e| no_input(io_reason(&e)))?;
    match detect(&name, head).map_err(|m| DataError::data(path, m))? {
        Format::Text => Ok(Opened::Text { buf, regular }),
        Format::Json => json::records(path, read_all(path, buf, MAX_JSON_BYTES, "JSON")?),
        Format::Parquet if regular => {
            let file = File::open(path).map_err(|e| no_input(io_reason(&e)))?;
            columnar::records(path, columnar::Input::File(file))
        }
        Format::Parquet => {
            let bytes = read_all(path, buf, MAX_STDIN_BYTES, "Parquet")?;
            columnar::records(path, columnar::Input::Memory(bytes))
        }
        Format::Gzip => open_gzip(path, &name, buf),
    }
}

/// Most bytes (decompressed) read to tell a file's header for the explorer's file list: a
/// header line is at most 1 MiB, and a first JSON record fits beside it.
pub(super) const SNIFF_BYTES: u64 = 2 << 20;

/// The format and first [`SNIFF_BYTES`] bytes (decompressed for gzip) of a file, so its
/// header can be told without reading, decompressing or parsing the rest.
pub(super) fn head(path: &Path) -> Result<(Format, Vec<u8>), DataError> {
    let no_input = |reason: String| DataError::NoInput {
        path: path.to_path_buf(),
        reason,
    };
    if is_stdin(path) || path.is_dir() {
        return Err(no_input("not a file".into()));
    }
    let file = File::open(path).map_err(|e| no_input(io_reason(&e)))?;
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().to_lowercase());
    let mut buf = BufReader::with_capacity(1 << 16, file);
    let first = buf.fill_buf().map_err(|e| no_input(io_reason(&e)))?;
    let mut format = detect(&name, first).map_err(|m| DataError::data(path, m))?;
    let mut reader: Box<dyn BufRead> = Box::new(buf);
    if format == Format::Gzip {
        let inner = name.strip_suffix(".gz").unwrap_or(&name);
        let mut unzipped = BufReader::with_capacity(1 << 16, Gunzip(MultiGzDecoder::new(reader)));
        let first = unzipped
            .fill_buf()
            .map_err(|e| gzip_error(path, None, &e))?;
        format = match detect(inner, first).map_err(|m| DataError::data(path, m))? {
            Format::Gzip | Format::Parquet => {
                return Err(DataError::data(path, "not told from its first bytes"));
            }
            f => f,
        };
        reader = Box::new(unzipped);
    }
    let mut bytes = Vec::new();
    reader
        .take(SNIFF_BYTES)
        .read_to_end(&mut bytes)
        .map_err(|e| gzip_error(path, None, &e))?;
    Ok((format, bytes))
}

/// A gzip-compressed input: its content's format is told again from the decompressed bytes
/// and the name without `.gz`.
fn open_gzip(
    path: &Path,
    name: &str,
    buf: BufReader<Box<dyn Read + Send>>,
) -> Result<Opened, DataError> {
    let inner = name.strip_suffix(".gz").unwrap_or(name);
    let decoder: Box<dyn Read + Send> = Box::new(Gunzip(MultiGzDecoder::new(buf)));
    let mut buf = BufReader::with_capacity(1 << 16, decoder);
    let head = match buf.fill_buf() {
        Ok(head) => head,
        Err(e) => return Err(gzip_error(path, None, &e)),
    };
    match detect(inner, head).map_err(|m| DataError::data(path, m))? {
        Format::Text => Ok(Opened::Text {
            buf,
            regular: false,
        }),
        Format::Json => json::records(path, read_all(path, buf, MAX_JSON_BYTES, "JSON")?),
        Format::Parquet => {
            let bytes = read_all(path, buf, MAX_STDIN_BYTES, "Parquet")?;
            columnar::records(path, columnar::Input::Memory(bytes))
        }
        Format::Gzip => Err(DataError::data(
            path,
            "gzip-compressed twice: decompress it once (gunzip) and load the result",
        )),
    }
}

/// The whole input, refused past `limit` bytes (JSON and in-memory Parquet are read whole).
fn read_all(
    path: &Path,
    buf: BufReader<Box<dyn Read + Send>>,
    limit: usize,
    what: &str,
) -> Result<Vec<u8>, DataError> {
    let mut bytes = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX);
    if let Err(e) = buf.take(cap + 1).read_to_end(&mut bytes) {
        return Err(gzip_error(path, None, &e));
    }
    if bytes.len() > limit {
        return Err(DataError::data(
            path,
            format!(
                "{what} input over {} MiB; at most that is read into memory: split the file or write it as CSV",
                limit >> 20
            ),
        ));
    }
    Ok(bytes)
}

/// A decompression failure, carried through the readers as an I/O error.
#[derive(Debug)]
pub(super) struct CorruptGzip(pub String);

impl std::fmt::Display for CorruptGzip {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the gzip data is corrupt or truncated ({})", self.0)
    }
}

impl std::error::Error for CorruptGzip {}

/// A gzip decoder whose format errors are marked [`CorruptGzip`], so they are reported as bad
/// data (with the row reached) rather than as an unreadable file.
struct Gunzip<R>(R);

impl<R: Read> Read for Gunzip<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(out).map_err(|e| match e.kind() {
            std::io::ErrorKind::InvalidInput
            | std::io::ErrorKind::InvalidData
            | std::io::ErrorKind::UnexpectedEof => {
                std::io::Error::new(std::io::ErrorKind::InvalidData, CorruptGzip(e.to_string()))
            }
            _ => e,
        })
    }
}

/// The error for an I/O failure while reading: bad data when the gzip stream is corrupt,
/// else an unreadable input.
pub(super) fn gzip_error(path: &Path, row: Option<u64>, e: &std::io::Error) -> DataError {
    match e.get_ref().and_then(|r| r.downcast_ref::<CorruptGzip>()) {
        Some(c) => DataError::data_at(
            path,
            Location {
                row,
                ..Location::default()
            },
            c.to_string(),
        ),
        None => DataError::NoInput {
            path: path.to_path_buf(),
            reason: io_reason(e),
        },
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
    if head.starts_with(b"\x1F\x8B") {
        return Ok(Format::Gzip);
    }
    if head.starts_with(b"PAR1") {
        return Ok(Format::Parquet);
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
    if ext_is(name, &["gz"]) {
        return Err("named .gz but not gzip-compressed: check the file");
    }
    if ext_is(name, &["parquet", "pq"]) {
        return Err("named .parquet but not a Parquet file (no PAR1 signature): check the file");
    }
    if looks_utf16(head) {
        return Ok(Format::Text);
    }
    if ext_is(name, &["json", "jsonl", "ndjson"]) || looks_json(head) {
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

    #[test]
    fn standard_input_reloads_from_memory() {
        STDIN
            .set(Ok(b"J1,J2,A1,A2\n1,2,3,4\n2,3,4,5\n".to_vec()))
            .unwrap();
        // Binary bytes are refused after the first MiB, however long the input.
        let mut zeros = std::io::Read::take(std::io::repeat(0), 1 << 40);
        let Err(Refused::NotAPanel(why)) = read_stdin(&mut zeros) else {
            panic!("zeros read as a panel")
        };
        assert!(why.contains("binary"), "{why}");
        let first = stdin_bytes(Path::new("-")).unwrap();
        let second = stdin_bytes(Path::new("-")).unwrap();
        assert_eq!(first, second);
        assert!(open(Path::new("-")).is_ok());
    }
}
