//! `power`: each test's size and power across sample sizes and strengths.

use super::output::{write_json, write_stdout};
use super::shared::progress_bar;
use crate::cli::PowerArgs;
use crate::error::Error;
use crate::power::{self, PowerOptions};
use crate::progress::{Flow, Progress};
use crate::report;

pub(super) fn power_cmd(a: &PowerArgs) -> Result<(), Error> {
    let design = a.design;
    if let Some(bad) = a.strength.iter().find(|s| !s.is_finite() || **s < 0.0) {
        return Err(Error::Usage(format!(
            "--strength {bad}: strengths are finite and ≥ 0"
        )));
    }
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
    let bar = progress_bar(power::total_steps(&opts), !a.json);
    let tick = |_: Progress| {
        bar.inc(1);
        Flow::Continue
    };
    let base = match a.ordinal {
        Some(l) => power::with_ordinal_judges(&design.base(), l as usize, a.skewed),
        None => design.base(),
    };
    let cells = power::characteristics_on(design, &base, &opts, &tick)
        .map_err(|e| Error::Usage(format!("power: {e}")))?
        .expect("a progress bar never stops the run");
    bar.finish_and_clear();
    if a.json {
        let mut doc = report::power::json(design, &opts, &cells);
        if let Some(l) = a.ordinal {
            doc["ordinal_judges"] = serde_json::json!({"levels": l, "skewed": a.skewed});
        }
        write_json(&doc)
    } else if let Some(l) = a.ordinal {
        let mut out = report::power::text(design, &opts, &cells);
        out.push_str(&report::power::ordinal_line(l, a.skewed));
        out.push_str(&report::power::all_tests_text(&cells));
        write_stdout(out.as_bytes())
    } else {
        write_stdout(report::power::text(design, &opts, &cells).as_bytes())
    }
}
