//! Parquet files, through the `parquet` crate's record API: each top-level column is a
//! column of the panel; numbers keep their exact value, strings are read as text, nulls are
//! missing. Rows are numbered from 1 in errors.

use std::fmt::Write as _;
use std::fs::File;
use std::path::{Path, PathBuf};

use csv::ByteRecord;
use parquet::file::reader::{ChunkReader, FileReader};
use parquet::file::serialized_reader::SerializedFileReader;
use parquet::record::{Field, reader::RowIter};

use super::DataError;
use super::records::Opened;
use super::records::Records;

/// Where a Parquet file's bytes are.
pub(super) enum Input {
    File(File),
    /// Standard input or decompressed bytes, held in memory.
    Memory(Vec<u8>),
}

/// The parquet crate's in-memory buffer type, made from `bytes` (named through the
/// `ChunkReader` of a file, whose chunks have that type).
fn in_memory<T: From<Vec<u8>>>(
    _: fn(&File, u64, usize) -> parquet::errors::Result<T>,
    bytes: Vec<u8>,
) -> T {
    T::from(bytes)
}

/// The parquet crate's error as a short cause, never its debug dump of bytes and inner
/// errors (the crate's own text stops at the first `{`, `[` or "Error:" of a dump).
fn cause(e: &parquet::errors::ParquetError) -> String {
    use parquet::errors::ParquetError as P;
    match e {
        P::EOF(_) | P::NeedMoreData(_) | P::NeedMoreDataRange(_) => {
            "it is cut short (its footer or a page claims more bytes than the file has)".into()
        }
        P::External(_) => "a page does not decompress or decode".into(),
        P::IndexOutOfBound(..) => "a page refers to a value it does not hold".into(),
        P::NYI(what) => format!("a feature this reader lacks ({})", short(what)),
        other => {
            let text = other.to_string();
            let text = text.strip_prefix("Parquet error: ").unwrap_or(&text);
            short(text)
        }
    }
}

/// A message cut before any dump it carries, at most 120 characters.
fn short(text: &str) -> String {
    let end = ["{", "[", " Error:", " Bytes:"]
        .iter()
        .filter_map(|m| text.find(m))
        .min()
        .unwrap_or(text.len());
    let cut: String = text[..end]
        .trim_end_matches([' ', '.', ':'])
        .chars()
        .take(120)
        .collect();
    if cut.is_empty() {
        return "its content does not decode".into();
    }
    crate::location::sanitize(&cut)
}

thread_local! {
    /// Set while this thread decodes Parquet pages, whose decoder panics on some corrupt pages.
    static DECODING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a panic now comes from decoding Parquet and is caught there: the binary's panic
/// hook then lets it unwind instead of ending the process.
pub fn panic_is_caught() -> bool {
    DECODING.with(std::cell::Cell::get)
}

/// `decode` run with its panics caught: the parquet crate panics on some corrupt pages (a
/// dictionary page missing), and a hostile file must be a refusal, not an internal error.
fn guarded<T>(decode: impl FnOnce() -> T) -> Result<T, ()> {
    let before = DECODING.with(|d| d.replace(true));
    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(decode));
    DECODING.with(|d| d.set(before));
    out.map_err(|_| ())
}

/// The rows of a Parquet input, or a one-line error when it cannot be read.
pub(super) fn records(path: &Path, input: Input) -> Result<Opened, DataError> {
    let unreadable = |e: parquet::errors::ParquetError| {
        DataError::data(path, format!("not a readable Parquet file ({})", cause(&e)))
    };
    let panicked = |()| {
        DataError::data(
            path,
            "not a readable Parquet file (its footer does not decode)",
        )
    };
    let reader: Box<dyn FileReader> = match input {
        Input::File(f) => Box::new(
            guarded(|| SerializedFileReader::new(f))
                .map_err(panicked)?
                .map_err(unreadable)?,
        ),
        Input::Memory(bytes) => {
            let bytes = in_memory(<File as ChunkReader>::get_bytes, bytes);
            Box::new(
                guarded(|| SerializedFileReader::new(bytes))
                    .map_err(panicked)?
                    .map_err(unreadable)?,
            )
        }
    };
    let names: Vec<String> = reader
        .metadata()
        .file_metadata()
        .schema_descr()
        .root_schema()
        .get_fields()
        .iter()
        .map(|f| f.name().to_string())
        .collect();
    let stated = usize::try_from(reader.metadata().file_metadata().num_rows()).ok();
    Ok(Opened::Records {
        names,
        rows: Box::new(Rows {
            stated,
            path: path.to_path_buf(),
            iter: RowIter::from_file_into(reader),
            row: 0,
            text: String::new(),
        }),
    })
}

struct Rows {
    /// The footer's row count.
    stated: Option<usize>,
    path: PathBuf,
    iter: RowIter<'static>,
    row: u64,
    text: String,
}

impl Records for Rows {
    fn next(&mut self, rec: &mut ByteRecord) -> Result<Option<u64>, DataError> {
        let iter = &mut self.iter;
        let Some(row) = guarded(|| iter.next()).map_err(|()| {
            DataError::data(
                &self.path,
                format!(
                    "the Parquet file is corrupt after {} rows read: a page does not decode",
                    self.row
                ),
            )
        })?
        else {
            return Ok(None);
        };
        // A page that does not decode is no row's fault: the rows read so far are named.
        let row = row.map_err(|e| {
            DataError::data(
                &self.path,
                format!(
                    "the Parquet file is corrupt after {} rows read: {}",
                    self.row,
                    cause(&e)
                ),
            )
        })?;
        self.row += 1;
        rec.clear();
        for (_, f) in row.get_column_iter() {
            self.text.clear();
            field(f, &mut self.text);
            rec.push_field(self.text.as_bytes());
        }
        Ok(Some(self.row))
    }

    fn rows_stated(&self) -> Option<usize> {
        self.stated
    }
}

/// A value as a text field: numbers in a form that parses back to the same bits, null as
/// missing, strings as they are, anything else as its text (refused if the column is used).
fn field(f: &Field, out: &mut String) {
    let _ = match f {
        Field::Null => Ok(()),
        Field::Str(s) => {
            out.push_str(s);
            Ok(())
        }
        Field::Double(x) => write!(out, "{x:?}"),
        Field::Float(x) => write!(out, "{:?}", f64::from(*x)),
        Field::Float16(x) => write!(out, "{:?}", f64::from(f32::from(*x))),
        Field::Byte(x) => write!(out, "{x}"),
        Field::Short(x) => write!(out, "{x}"),
        Field::Int(x) => write!(out, "{x}"),
        Field::Long(x) => write!(out, "{x}"),
        Field::UByte(x) => write!(out, "{x}"),
        Field::UShort(x) => write!(out, "{x}"),
        Field::UInt(x) => write!(out, "{x}"),
        Field::ULong(x) => write!(out, "{x}"),
        other => write!(out, "{other}"),
    };
}
