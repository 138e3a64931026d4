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
use crate::location::Location;

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

/// The rows of a Parquet input, or a one-line error when it cannot be read.
pub(super) fn records(path: &Path, input: Input) -> Result<Opened, DataError> {
    let unreadable = |e: parquet::errors::ParquetError| {
        DataError::data(path, format!("not a readable Parquet file ({e})"))
    };
    let reader: Box<dyn FileReader> = match input {
        Input::File(f) => Box::new(SerializedFileReader::new(f).map_err(unreadable)?),
        Input::Memory(bytes) => {
            let bytes = in_memory(<File as ChunkReader>::get_bytes, bytes);
            Box::new(SerializedFileReader::new(bytes).map_err(unreadable)?)
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
        let Some(row) = self.iter.next() else {
            return Ok(None);
        };
        self.row += 1;
        let row = row.map_err(|e| {
            DataError::data_at(
                &self.path,
                Location {
                    row: Some(self.row),
                    ..Location::default()
                },
                format!("the Parquet file cannot be read here ({e})"),
            )
        })?;
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
