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
            let shown = crate::error::sanitize(&dir.display().to_string());
            let refuse = |what: String| Err(Error::Usage(format!("--out {shown}: {what}").into()));
            match std::fs::metadata(dir) {
                Ok(m) if m.is_dir() => Some((
                    output::target(&dir.join("report.md"), a.force)?,
                    output::target(&dir.join("results.json"), a.force)?,
                    false,
                )),
                Ok(m) => {
                    return refuse(format!(
                        "is {}; --out names a folder for report.md and results.json",
                        if m.is_file() {
                            "a file"
                        } else {
                            "not a folder (a device, FIFO or socket)"
                        }
                    ));
                }
                // Made only when the files are written, so a refused or interrupted run leaves
                // nothing; one level, as every -o needs its folder to exist.
                Err(_) => {
                    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty());
                    if let Some(p) = parent.filter(|p| !p.is_dir()) {
                        return refuse(format!(
                            "the folder {} does not exist (or is not a folder): create it first",
                            crate::error::sanitize(&p.display().to_string())
                        ));
                    }
                    Some((
                        new_file(dir, "report.md"),
                        new_file(dir, "results.json"),
                        true,
                    ))
                }
            }
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
    if let (Some((report_md, results_json, make)), Some(dir)) = (&outs, &a.out) {
        if *make {
            std::fs::create_dir(dir).map_err(|e| output_error(Some(dir), &e))?;
        }
        let md = report::reproduce::markdown(&tables, a.quick, seconds);
        let mut js =
            serde_json::to_string_pretty(&report::reproduce::json(&tables, a.quick, seconds))
                .expect("JSON values always serialise");
        js.push('\n');
        // Both files or neither.
        let written =
            output::write_together(&[(report_md, md.as_bytes()), (results_json, js.as_bytes())]);
        if written.is_err() && *make {
            let _ = std::fs::remove_dir(dir);
        }
        written?;
    }
    if a.json {
        write_json(&report::reproduce::json(&tables, a.quick, seconds))
    } else {
        write_stdout(report::reproduce::text(&tables, a.quick, seconds).as_bytes())
    }
}

/// A file in the folder this run will make: new, so nothing to check yet.
fn new_file(dir: &std::path::Path, name: &str) -> output::Target {
    output::Target::File {
        path: dir.join(name),
        replace: false,
    }
}
