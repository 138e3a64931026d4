//! Opening an input in the format [`super::format`] tells: delimited text (plain,
//! gzip-compressed, or standard input held in memory), JSON records and Parquet.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::OnceLock;

use flate2::bufread::MultiGzDecoder;

use super::DataError;
use super::error::io_reason;
use super::format::looks_utf16;
use super::format::{Format, detect};
use super::limits::MAX_HEADER;
use super::limits::{MAX_JSON_BYTES, MAX_STDIN_BYTES};
use super::records::Opened;
use super::{columnar, json};
use crate::location::Location;

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
        .take(MAX_HEADER)
        .read_to_end(&mut bytes)
        .map_err(unreadable)?;
    if let Some(why) = not_a_panel(&bytes) {
        return Err(Refused::NotAPanel(why.into()));
    }
    // Short of the first MiB, the input has ended: a terminal's one Ctrl-D ends it (reading
    // on would wait for a second).
    if (bytes.len() as u64) < MAX_HEADER {
        return Ok(bytes);
    }
    let rest = u64::try_from(MAX_STDIN_BYTES).unwrap_or(u64::MAX) - MAX_HEADER;
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
    (format == Format::Text && end.is_none() && head.len() as u64 >= MAX_HEADER)
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
        #[cfg(test)]
        Format::Z => Ok(super::format_z::open(buf)),
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
    let bytes = match format {
        Format::Text | Format::Gzip | Format::Json | Format::Parquet => bytes,
        #[cfg(test)]
        Format::Z => super::format_z::head(bytes),
    };
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
        #[cfg(test)]
        Format::Z => Ok(super::format_z::open(buf)),
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

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A terminal: one end of input per Ctrl-D; a read after it would wait for another.
    struct Terminal(Vec<u8>, bool);

    impl Read for Terminal {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            assert!(!self.1, "read again after the end of input");
            let n = self.0.len().min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0.drain(..n);
            self.1 = n == 0;
            Ok(n)
        }
    }

    #[test]
    fn one_end_of_input_ends_a_short_panel() {
        let text = b"J1,J2,A1,A2\n1,2,3,4\n".to_vec();
        let bytes = read_stdin(&mut Terminal(text.clone(), false)).unwrap();
        assert_eq!(bytes, text);
    }
}
