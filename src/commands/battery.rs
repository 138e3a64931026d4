//! `battery`: the diagnostic tests on one panel, with a bar per stage.

use super::console::{Console, Output, Steps, cancelled, render};
use super::shared::warn_cost;
use crate::battery::{self, NullSpec};
use crate::cli::BatteryArgs;
use crate::data::Loaded;
use crate::error::Error;
use crate::report;

/// `battery` on a loaded panel: its report, and [`Error::Diagnostic`] after it when an
/// alarm fires under `--fail-on-diagnostic`.
pub(super) fn report(
    a: &BatteryArgs,
    loaded: &Loaded,
    console: &mut dyn Console,
) -> Result<Output, Error> {
    let panel = &loaded.panel;
    let opts = battery::Options {
        resamples: a.bootstrap as usize,
        null_draws: a.null_draws as usize,
        seed: a.seed,
    };
    let conventions = battery::Conventions {
        codes_as_numbers: a.codes_as_numbers,
        designated_clean: super::estimate::designated_clean(
            a.designated_clean.as_ref(),
            &panel.anchors,
            console,
        )?,
    };
    if let Some(why) = conventions.refusal(panel) {
        return Err(Error::Usage(why.into()));
    }
    let plan = battery::calibration::plan(panel, &NullSpec::Matched, conventions.designated_clean);
    let shape = crate::cost::BatteryShape {
        n: panel.n,
        judges: panel.p(),
        anchors: panel.m(),
        resamples: opts.resamples,
        null_draws: opts.null_draws,
        resample_polychorics: plan.resample_polychorics,
        nulls: plan.nulls,
        resample_fits: plan.resample_fits,
        draw_fits: plan.draw_fits,
        resample_fits_capped: plan.resample_fits_capped,
    };
    let what = format!(
        "the battery (N = {}, {} judges, {} anchors, B = {}, {} null draws)",
        panel.n,
        panel.p(),
        panel.m(),
        opts.resamples,
        opts.null_draws
    );
    warn_cost(console, crate::cost::battery_seconds(&shape), &what);
    let meter = console.meter(Steps::Battery(&opts), !a.json);
    let report = battery::run_with(panel, &NullSpec::Matched, &opts, conventions, &|p| {
        meter.tick(p)
    });
    meter.finish();
    let report = report.ok_or_else(cancelled)?;
    let source = console.source(&a.panel);
    let fam = loaded.families_source.as_deref();
    let rendered = render(
        a.json,
        || report::battery::json(&source, panel, fam, &report),
        || report::battery::text(&source, panel, fam, &report),
    );
    let error = (a.fail_on_diagnostic && report.any_alarm()).then_some(Error::Diagnostic);
    Ok(Output { rendered, error })
}
