//! Inputs made of records (JSON, Parquet) seen as rows of text fields, so they go through the
//! same wide and long readers, roles, limits and located errors as delimited text.

use csv::ByteRecord;

use super::DataError;

/// Rows of a record input, each as the fields of its columns in header order (empty when
/// missing), with the row number errors name.
pub(super) trait Records {
    /// Fills `rec` with the next row; its row number, or `None` at the end.
    fn next(&mut self, rec: &mut ByteRecord) -> Result<Option<u64>, DataError>;
}
