//! Every size limit of rhoscope's inputs, in one place (docs/file-formats.md "Limits"; the files of docs/method.md §6
//! and the simulator designs of docs/method.md §4). Each is checked
//! before the memory it guards is allocated, so a small hostile file or flag cannot take the
//! machine down; each refusal is a one-line error (exit 65 for a file, 2 for a flag).

use std::path::Path;

use super::DataError;
use crate::wording::{Said, Setting};

/// Most judge + anchor columns of one panel (wide layout) or selected raters (long layout),
/// and most judges + anchors `simulate` accepts. Covariance memory grows with the square of
/// this count, and the battery's time faster still (with ordinal judges about the 2.5th
/// power: 128 judges take 3 s, 1024 over two minutes); real panels have dozens.
pub const MAX_COLUMNS: usize = 256;
/// Most cells (items × judge and anchor columns) in a panel's numeric matrix: 2^26, about
/// 67 million values or 512 MiB of `f64`, so a panel at the limit, with the bytes held for
/// it and the reader's growth, loads in 2 GB of address space. Applies to loading and to
/// `simulate`.
pub const MAX_CELLS: usize = 1 << 26;
/// [`MAX_CELLS`] as memory, for messages.
pub const MAX_CELLS_MEMORY: &str = "512 MiB of numbers";
/// Most ordinal levels `simulate --set ordinal=COLS:L` accepts (docs/method.md §6 calls a column with
/// more than 10 levels continuous anyway).
pub const MAX_LEVELS: usize = 100;
/// Most worker threads per available core for `--threads`.
pub const THREADS_PER_CORE: usize = 4;
/// Most worker threads for `--threads`, whatever the core count.
pub const MAX_THREADS: usize = 256;
/// Longest row (bytes) of a wide file read by the fast path.
pub const MAX_ROW_BYTES: usize = 64 << 20;
/// Most bytes of standard input (held in memory, so the explorer can reload it) and of a
/// Parquet file that is not a regular file (decompressed or piped).
pub const MAX_STDIN_BYTES: usize = 1 << 29;
/// Most bytes of a JSON input, whose bytes are held while its records are read one by one.
pub const MAX_JSON_BYTES: usize = 1 << 29;

/// The `--threads` ceiling on this machine: [`THREADS_PER_CORE`] × the available cores,
/// never above [`MAX_THREADS`].
#[must_use]
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    cores.saturating_mul(THREADS_PER_CORE).min(MAX_THREADS)
}

/// Refuses a panel with more than [`MAX_COLUMNS`] judge and anchor columns, before any row
/// is read (a 1.5 MB file with 100,000 `J*` columns would otherwise need an 80 GB covariance).
pub(super) fn check_column_count(path: &Path, count: usize, what: &str) -> Result<(), DataError> {
    if count <= MAX_COLUMNS {
        return Ok(());
    }
    Err(DataError::data(
        path,
        Said::new(format!(
            "{count} {what}; at most {MAX_COLUMNS} are supported (the covariance work grows with the square of the count): select some with "
        ))
        .setting(Setting::Judges)
        .text(" and ")
        .setting(Setting::Anchors),
    ))
}

/// Refuses a matrix of `rows` × `cols` cells over [`MAX_CELLS`], before it is allocated.
pub(super) fn check_cells(
    path: &Path,
    rows: usize,
    cols: usize,
    what: &str,
) -> Result<(), DataError> {
    cells_within(path, (rows, cols), &rows.to_string(), what)
}

/// [`check_cells`] while rows are still being read: `rows` is the row that passed the limit,
/// so the file has more than the rows before it, and the message says so (not a count of
/// the file it never finished).
pub(super) fn check_cells_so_far(
    path: &Path,
    rows: usize,
    cols: usize,
    what: &str,
) -> Result<(), DataError> {
    let count = format!("more than {}", rows.saturating_sub(1));
    cells_within(path, (rows, cols), &count, what)
}

/// The words of the cell-limit refusal that tell it from a refusal of roles (the explorer
/// heads it "too large", not "roles needed").
pub const OVER_LIMIT: &str = "is over the limit of";

/// The one cell-limit check and refusal; `count` words the rows as the caller knows them.
fn cells_within(
    path: &Path,
    (rows, cols): (usize, usize),
    count: &str,
    what: &str,
) -> Result<(), DataError> {
    if rows.saturating_mul(cols) <= MAX_CELLS {
        return Ok(());
    }
    Err(DataError::data(
        path,
        format!(
            "{count} {what} × {cols} judge and anchor columns {OVER_LIMIT} {MAX_CELLS} cells ({MAX_CELLS_MEMORY}): split the file or select fewer columns"
        ),
    ))
}

/// Most bytes of a text header line.
pub(super) const MAX_HEADER: u64 = 1 << 20;
