//! `power`: each test's size and power across sample sizes and strengths.

use super::console::{Console, Output, Rendered, Steps, cancelled};
use super::shared::{check_simulated, warn_cost};
use crate::cli::PowerArgs;
use crate::error::Error;
use crate::power::{self, PowerOptions};
use crate::report;

/// `power`: its report on a design (no panel).
pub(super) fn report(a: &PowerArgs, console: &mut dyn Console) -> Result<Output, Error> {
    let design = a.design;
    let opts = PowerOptions {
        ns: a
            .n
            .iter()
            .map(|n| usize::try_from(*n).unwrap_or(usize::MAX))
            .collect(),
        strengths: a.strength.clone(),
        reps: a.reps as usize,
        null_draws: a.null_draws as usize,
        seed: a.seed,
        coverage: a.coverage.map(|b| b as usize),
    };
    let base = match a.ordinal {
        Some(l) => power::with_ordinal_judges(&design.base(), l as usize, a.skewed),
        None => design.base(),
    };
    let largest = opts.ns.iter().copied().max().unwrap_or(0);
    check_simulated("power", largest, design.apply(&base, 0.0).q())?;
    let cells = (opts.strengths.len() + 1) * opts.reps;
    let shape = crate::cost::StudyShape {
        replicates: (cells * opts.ns.len()) as f64,
        items: opts.ns.iter().map(|&n| (cells as f64) * n as f64).sum(),
        columns: base.p + base.rho.len(),
        resamples: opts.coverage.unwrap_or(0),
        null_draws: (opts.null_draws * opts.ns.len()) as f64,
    };
    let what = format!(
        "power ({} × {} cells of {} replicates, N up to {})",
        opts.ns.len(),
        opts.strengths.len() + 1,
        opts.reps,
        opts.ns.iter().max().copied().unwrap_or(0)
    );
    warn_cost(console, crate::cost::study_seconds(&shape), &what);
    let meter = console.meter(Steps::Count(power::total_steps(&opts)), !a.json);
    let cells = power::characteristics_on(design, &base, &opts, &|p| meter.tick(p));
    meter.finish();
    let cells = cells
        .map_err(|e| Error::Usage(format!("power: {e}").into()))?
        .ok_or_else(cancelled)?;
    let rendered = if a.json {
        let mut doc = report::power::json(design, &opts, &cells);
        if let Some(l) = a.ordinal {
            doc["ordinal_judges"] = serde_json::json!({"levels": l, "skewed": a.skewed});
        }
        Rendered::Json(doc)
    } else {
        let mut out = report::power::text(design, &opts, &cells);
        if let Some(l) = a.ordinal {
            out.push_str(&report::power::ordinal_line(l, a.skewed));
            out.push_str(&report::power::all_tests_text(&cells));
        }
        Rendered::Text(out)
    };
    Ok(Output::ok(rendered))
}
