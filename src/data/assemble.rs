//! The last step of every reader: raw columns become a panel with its header.

use std::path::Path;

use super::checks::finish;
use super::error::DataError;
use super::raw::{Loaded, Raw};
use super::request::PanelRequest;

/// The panel from raw columns (a file's or a table's in memory), with its header.
pub(super) fn assemble(
    path: &Path,
    raw: &mut Raw,
    header: Vec<String>,
    delimiter: u8,
    opts: &PanelRequest,
) -> Result<Loaded, DataError> {
    let mut loaded = finish(path, raw, opts)?;
    loaded.header = header;
    loaded.delimiter = delimiter;
    loaded.raw_names = if raw.written_names.is_empty() {
        loaded.panel.names()
    } else {
        std::mem::take(&mut raw.written_names)
    };
    loaded.raw_places = std::mem::take(&mut raw.written_places);
    Ok(loaded)
}
