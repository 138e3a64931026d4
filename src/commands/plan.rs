//! `plan`: the smallest N that meets a target on a scenario.

use super::output::{write_json, write_stdout};
use super::shared::progress_bar;
use crate::cli::PlanArgs;
use crate::error::Error;
use crate::progress::{Flow, Progress};
use crate::report;
use crate::scenario;

pub(super) fn plan_cmd(a: &PlanArgs) -> Result<(), Error> {
    let mut pm = scenario::preset(&a.preset).map_err(Error::from)?;
    for s in &a.set {
        scenario::apply_set(&mut pm, s).map_err(Error::from)?;
    }
    pm.validate()
        .map_err(|e| Error::Usage(format!("invalid design: {e}")))?;
    let target = crate::plan::Target::parse(&a.target).map_err(|e| Error::Usage(e.to_string()))?;
    let opts = crate::plan::PlanOptions {
        reps: a.reps as usize,
        null_draws: a.null_draws as usize,
        resamples: a.bootstrap as usize,
        seed: a.seed,
        max_n: usize::try_from(a.max_n).unwrap_or(usize::MAX),
    };
    let per_eval = match target {
        crate::plan::Target::CiWidth(_) => opts.reps,
        crate::plan::Target::Power { .. } => opts.null_draws + 2 * opts.reps,
    };
    let bar = progress_bar((crate::plan::MAX_EVALUATIONS * per_eval) as u64, !a.json);
    let tick = |_: Progress| {
        bar.inc(1);
        Flow::Continue
    };
    let plan = crate::plan::plan(&pm, target, &opts, &tick)
        .map_err(|e| Error::Usage(format!("plan: {e}")))?
        .expect("a progress bar never stops the run");
    bar.finish_and_clear();
    let scenario = format!(
        "preset {}{}",
        a.preset,
        a.set.iter().fold(String::new(), |mut acc, s| {
            let _ = std::fmt::Write::write_fmt(
                &mut acc,
                format_args!(" --set {}", crate::error::sanitize(s)),
            );
            acc
        })
    );
    if a.json {
        write_json(&report::plan::json(&scenario, &plan, &opts))
    } else {
        write_stdout(report::plan::text(&scenario, &plan, &opts).as_bytes())
    }
}
