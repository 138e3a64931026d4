//! `battery`: the diagnostic tests on one panel, with a bar per stage.

use super::output::{write_json, write_stdout};
use super::shared::{load_panel, warn_cost};
use super::stages;
use crate::battery::{self, NullSpec};
use crate::cli::BatteryArgs;
use crate::error::Error;
use crate::report;

/// What `battery` reports for exit purposes.
pub(super) fn battery_cmd(a: &BatteryArgs) -> Result<(), Error> {
    let loaded = load_panel(&a.panel, 0)?;
    let panel = &loaded.panel;
    let opts = battery::Options {
        resamples: a.bootstrap as usize,
        null_draws: a.null_draws as usize,
        seed: a.seed,
    };
    let shape = crate::cost::BatteryShape {
        n: panel.n,
        judges: panel.p(),
        anchors: panel.m(),
        resamples: opts.resamples,
        null_draws: opts.null_draws,
        ordinal: panel
            .scales
            .iter()
            .any(|s| matches!(s, crate::panel::Scale::Ordinal { .. })),
    };
    let what = format!(
        "the battery (N = {}, {} judges, {} anchors, B = {}, {} null draws)",
        panel.n,
        panel.p(),
        panel.m(),
        opts.resamples,
        opts.null_draws
    );
    warn_cost(crate::cost::battery_seconds(&shape), &what);
    let bars = stages::StageBars::new(&opts, !a.json);
    let conventions = battery::Conventions {
        codes_as_numbers: a.codes_as_numbers,
    };
    let report = battery::run_with(panel, &NullSpec::Matched, &opts, conventions, &|p| {
        bars.tick(p)
    })
    .expect("a progress bar never stops the run");
    bars.finish();
    let source = a.panel.panel.display().to_string();
    let fam = loaded.families_source.as_deref();
    if a.json {
        write_json(&report::battery::json(&source, panel, fam, &report))?;
    } else {
        write_stdout(report::battery::text(&source, panel, fam, &report).as_bytes())?;
    }
    if a.fail_on_diagnostic && report.any_alarm() {
        return Err(Error::Diagnostic);
    }
    Ok(())
}
