//! Inputs made of records (JSON, Parquet) seen as rows of text fields, so they go through the
//! same wide and long readers, roles, limits and located errors as delimited text.

use std::io::{BufReader, Read};

use csv::ByteRecord;

use super::DataError;

/// An opened input, ready for its reader.
pub(super) enum Opened {
    /// Delimited text; `regular` when it is a plain file on disk the fast reader may reopen.
    Text {
        buf: BufReader<Box<dyn Read + Send>>,
        regular: bool,
    },
    /// Records (JSON or Parquet): the column names and the rows.
    Records {
        names: Vec<String>,
        rows: Box<dyn Records>,
    },
}

/// Rows of a record input, each as the fields of its columns in header order (empty when
/// missing), with the row number errors name.
pub(super) trait Records {
    /// Fills `rec` with the next row; its row number, or `None` at the end.
    fn next(&mut self, rec: &mut ByteRecord) -> Result<Option<u64>, DataError>;

    /// From now on fills rows with only `cols`' fields, in that order, so a row costs its own
    /// keys rather than every key the input names; `false` when rows stay whole.
    fn keep(&mut self, _cols: &[usize]) -> bool {
        false
    }

    /// From now on refuses a boolean, array or object in `cols` (of `names`, the header): they
    /// hold ids, which are text or numbers.
    fn ids(&mut self, _cols: &[usize], _names: &[String]) -> Result<(), DataError> {
        Ok(())
    }

    /// The number of rows, when the input states it before they are read (Parquet's footer).
    fn rows_stated(&self) -> Option<usize> {
        None
    }
}
