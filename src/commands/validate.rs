//! `validate`: the real-texture protocol on a panel's own judges.

use super::output::{write_json, write_stdout};
use super::shared::{load_panel, progress_bar};
use crate::cli::ValidateArgs;
use crate::error::Error;
use crate::progress::{Flow, Progress};
use crate::report;

/// `validate`: Section 7's real-texture protocol on the panel's own judges.
pub(super) fn validate_cmd(a: &ValidateArgs) -> Result<(), Error> {
    use crate::validate::{self, Thresholds};
    let mut ns = Vec::new();
    let mut opts = validate::Options {
        inject: a.inject.clone(),
        ns: Vec::new(),
        reps: a.reps as usize,
        seed: a.seed,
        bootstrap: a.bootstrap as usize,
        null_draws: a.null_draws as usize,
        thresholds: if a.balanced {
            Thresholds::Balanced
        } else {
            Thresholds::Own
        },
    };
    // Usage errors before the file is read.
    opts.ns = vec![10];
    opts.check()
        .map_err(|e| Error::Usage(format!("validate: {e}")))?;
    let loaded = load_panel(&a.panel, 0)?;
    let panel = &loaded.panel;
    let tex = validate::Texture::of(panel).map_err(|e| Error::data(&a.panel.panel, e))?;
    ns.push(panel.n);
    for &n in &a.n {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if !ns.contains(&n) {
            ns.push(n);
        }
    }
    opts.ns = ns;
    opts.check()
        .map_err(|e| Error::data(&a.panel.panel, format!("validate: {e}")))?;
    let bar = progress_bar(validate::total_steps(&opts), !a.json);
    let tick = |_: Progress| {
        bar.inc(1);
        Flow::Continue
    };
    let study = validate::run(&tex, &opts, &tick)
        .map_err(|e| Error::Usage(format!("validate: {e}")))?
        .expect("a progress bar never stops the run");
    bar.finish_and_clear();
    let source = a.panel.panel.display().to_string();
    let fam = loaded.families_source.as_deref();
    if a.json {
        write_json(&report::validate::json(&source, panel, fam, &opts, &study))
    } else {
        write_stdout(report::validate::text(&source, panel, fam, &opts, &study).as_bytes())
    }
}
