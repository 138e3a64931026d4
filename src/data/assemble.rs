//! The last step of every reader: raw columns become a panel with its header.

use std::path::Path;

use super::checks::finish;
use super::error::DataError;
use super::raw::{Loaded, Raw};
use super::request::{ColumnRef, Columns, PanelRequest};
use crate::wording::{Said, Setting};

/// The panel from raw columns (a file's or a table's in memory), with its header.
pub(super) fn assemble(
    path: &Path,
    raw: &mut Raw,
    header: Vec<String>,
    delimiter: u8,
    opts: &PanelRequest,
) -> Result<Loaded, DataError> {
    roleless_continuous(raw, &header, opts)?;
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

/// Refuses `--continuous` naming a column the file has but that takes no role (set aside, or
/// neither judge nor anchor): "names no column" would deny a column the user can see.
fn roleless_continuous(raw: &Raw, header: &[String], opts: &PanelRequest) -> Result<(), DataError> {
    let Some(Columns::Listed(cols)) = &opts.continuous else {
        return Ok(());
    };
    let role = |n: &str| raw.judges.iter().chain(&raw.anchors).any(|r| r == n);
    for c in cols {
        let (ColumnRef::Name(n) | ColumnRef::NameOrPosition(n)) = c else {
            continue;
        };
        let n = n.trim();
        if !role(n) && header.iter().any(|h| h == n) {
            return Err(DataError::Usage(
                Said::new("").setting(Setting::Continuous).text(format!(
                    " names '{}', a column of the file that takes no role here (neither a judge nor an anchor): it marks judge and anchor columns, so give this one a role or leave it out",
                    crate::location::escape(n)
                )),
            ));
        }
    }
    Ok(())
}
