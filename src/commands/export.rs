//! `export`: the model as a lavaan or semopy script. The script reads delimited text; a
//! panel from any other source (Parquet, JSON, gzip, standard input) has its data written
//! beside the script as CSV, which the script reads instead.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use super::output;
use super::shared::{identified, load_panel, output_target};
use crate::error::Error;

/// `export`: the model as a lavaan or semopy script, on stdout or into `-o FILE` (atomically;
/// an existing file only with `--force`), with `FILE`'s data beside it when needed.
pub(super) fn export_cmd(a: &crate::cli::ExportArgs) -> Result<(), Error> {
    let shown = crate::error::sanitize(&a.panel.panel.display().to_string());
    // A long table is pivoted by rhoscope; the script reads the wide table written beside it.
    let cannot = if a.panel.opts.is_long() {
        Some("a --long table (it reads wide tables)")
    } else {
        unreadable(&a.panel.panel)
    };
    let data_path = match cannot {
        None => None,
        Some(what) => match a.output.as_deref() {
            Some(script) => Some(data_beside(script)),
            None => {
                return Err(Error::Usage(format!(
                    "{shown}: the script cannot read {what}: give -o FILE, and the panel's data is written beside the script as CSV"
                ).into()));
            }
        },
    };
    let inputs = super::inputs::input_files(&a.panel);
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    let out = output_target(a.output.as_deref(), a.force, &inputs)?;
    let data_out = match &data_path {
        Some(p) => {
            if out.is_stream() {
                return Err(Error::Usage(format!(
                    "{shown}: the script's data goes beside it: give -o a regular FILE, not a pipe or device"
                ).into()));
            }
            Some(output::target_apart(p, a.force, &inputs)?)
        }
        None => None,
    };
    // The script names the file it reads as text: a path that is not UTF-8 cannot be named
    // (a lossy name would read another file), so it is refused.
    let read_by_script = data_path.as_deref().unwrap_or(&a.panel.panel);
    let Some(path) = read_by_script.to_str().map(str::to_string) else {
        let named = crate::error::sanitize(&read_by_script.display().to_string());
        return Err(Error::Usage(format!(
            "{named}: the path is not valid UTF-8, so the script cannot name the file it reads: rename or copy it to a UTF-8 name"
        ).into()));
    };
    let loaded = load_panel(&a.panel, 2)?;
    identified(&a.panel.panel, &loaded.panel)?;
    let src = crate::export::Source {
        path: &path,
        delimiter: if data_path.is_some() {
            b','
        } else {
            loaded.delimiter
        },
        columns: &loaded.raw_names,
        // The data written beside the script holds the columns in panel order.
        places: if data_path.is_some() {
            &[]
        } else {
            &loaded.raw_places
        },
    };
    let syntax = match a.syntax {
        crate::cli::Syntax::Lavaan => crate::export::Syntax::Lavaan,
        crate::cli::Syntax::Semopy => crate::export::Syntax::Semopy,
    };
    let text = crate::export::script(&loaded.panel, &src, syntax);
    match &data_out {
        // The script and its data appear together or not at all.
        Some(d) => {
            let csv = crate::export::data_csv(&loaded.panel, &loaded.raw_names);
            output::write_together(&[(d, csv.as_bytes()), (&out, text.as_bytes())])
        }
        None => output::write(&out, |w| w.write_all(text.as_bytes())),
    }
}

/// Where the data of a script at `script` goes: `refit.R` → `refit.data.csv`.
fn data_beside(script: &Path) -> PathBuf {
    let stem = script
        .file_stem()
        .map_or_else(|| "panel".into(), |s| s.to_string_lossy().into_owned());
    script.with_file_name(format!("{stem}.data.csv"))
}

/// What the script could not read at `path` (it reads uncompressed delimited text from a
/// regular file), or `None` when it can: the format as the loader tells it
/// ([`crate::data::Format`]).
pub(crate) fn unreadable(path: &Path) -> Option<&'static str> {
    if path.as_os_str() == "-" {
        return Some("standard input");
    }
    let Ok(mut file) = std::fs::File::open(path) else {
        return None; // the loader names the trouble
    };
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Some("a pipe or device");
    }
    let mut head = [0u8; 512];
    let n = file.read(&mut head).unwrap_or(0);
    let head = &head[..n];
    if head.starts_with(b"\xFF\xFE") || head.starts_with(b"\xFE\xFF") {
        return Some("UTF-16 text");
    }
    // A format the loader refuses is named by the loader.
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    crate::data::Format::of(&name, head)?.unscripted()
}
