//! `reproduce`: the paper's tables, on stdout and optionally into a folder.

use super::output::{self, output_error};
use super::output::{write_json, write_stdout};
use super::shared::progress_bar;
use crate::cli::ReproduceArgs;
use crate::error::Error;
use crate::progress::{Flow, Progress};
use crate::report;

pub(super) fn reproduce_cmd(a: &ReproduceArgs) -> Result<(), Error> {
    let n_tables = if a.tables.is_empty() {
        crate::reproduce::TABLES.len()
    } else {
        a.tables.len()
    };
    // Both files are checked before the tables run, so a refusal costs nothing.
    let outs = match &a.out {
        Some(dir) => {
            if dir.as_os_str() == "-" {
                return Err(Error::Usage(
                    "--out -: --out names a folder for report.md and results.json; the tables are on standard output without it (--json for results.json's document)".into(),
                ));
            }
            if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
                return Err(Error::Usage(
                    format!(
                        "--out {}: is a file; --out names a folder for report.md and results.json",
                        crate::error::sanitize(&dir.display().to_string())
                    )
                    .into(),
                ));
            }
            std::fs::create_dir_all(dir).map_err(|e| output_error(Some(dir), &e))?;
            Some((
                output::target(&dir.join("report.md"), a.force)?,
                output::target(&dir.join("results.json"), a.force)?,
            ))
        }
        None => None,
    };
    let bar = progress_bar(n_tables as u64, !a.json);
    let tick = |_: Progress| {
        bar.inc(1);
        Flow::Continue
    };
    let budget = crate::reproduce::Budget { quick: a.quick };
    let start = std::time::Instant::now();
    let tables = crate::reproduce::run(&a.tables, budget, &tick).map_err(Error::from)?;
    bar.finish_and_clear();
    super::output::bar_drawn(false);
    let seconds = start.elapsed().as_secs_f64();
    if let Some((report_md, results_json)) = &outs {
        let md = report::reproduce::markdown(&tables, a.quick, seconds);
        let mut js =
            serde_json::to_string_pretty(&report::reproduce::json(&tables, a.quick, seconds))
                .expect("JSON values always serialise");
        js.push('\n');
        // Both files or neither.
        output::write_together(&[(report_md, md.as_bytes()), (results_json, js.as_bytes())])?;
    }
    if a.json {
        write_json(&report::reproduce::json(&tables, a.quick, seconds))
    } else {
        write_stdout(report::reproduce::text(&tables, a.quick, seconds).as_bytes())
    }
}
