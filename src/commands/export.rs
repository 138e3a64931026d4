//! `export`: the model as a lavaan or semopy script.

use super::output;
use super::shared::{identified, load_panel, output_target};
use crate::error::Error;

/// `export`: the model as a lavaan or semopy script, on stdout or into `-o FILE` (atomically;
/// an existing file only with `--force`).
pub(super) fn export_cmd(a: &crate::cli::ExportArgs) -> Result<(), Error> {
    if a.panel.opts.long.is_some() {
        return Err(Error::Usage(
            "export reads wide panel files; the script cannot reshape --long tables (write the wide table first)".into(),
        ));
    }
    if !std::fs::metadata(&a.panel.panel).is_ok_and(|m| m.is_file()) && a.panel.panel.exists()
        || a.panel.panel.as_os_str() == "-"
    {
        return Err(Error::Usage(format!(
            "{}: export writes a script that reads the panel file again; give a regular file, not standard input, a pipe or a device",
            crate::error::sanitize(&a.panel.panel.display().to_string())
        )));
    }
    let out = output_target(a.output.as_deref(), a.force)?;
    let loaded = load_panel(&a.panel, 2)?;
    identified(&a.panel.panel, &loaded.panel)?;
    let path = a.panel.panel.display().to_string();
    let src = crate::export::Source {
        path: &path,
        delimiter: loaded.delimiter,
        columns: &loaded.raw_names,
    };
    let syntax = match a.syntax {
        crate::cli::Syntax::Lavaan => crate::export::Syntax::Lavaan,
        crate::cli::Syntax::Semopy => crate::export::Syntax::Semopy,
    };
    let text = crate::export::script(&loaded.panel, &src, syntax);
    output::write(&out, |w| w.write_all(text.as_bytes()))
}
