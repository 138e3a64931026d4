//! `plan`: the smallest N that meets a target on a scenario.

use super::console::{Console, Output, Steps, cancelled, render};
use crate::cli::PlanArgs;
use crate::error::Error;
use crate::report;
use crate::scenario;

/// `plan`: its report on a scenario (no panel).
pub(super) fn report(a: &PlanArgs, console: &mut dyn Console) -> Result<Output, Error> {
    let mut pm = scenario::preset(&a.preset).map_err(Error::from)?;
    for s in &a.set {
        scenario::apply_set(&mut pm, s).map_err(Error::from)?;
    }
    pm.validate()
        .map_err(|e| Error::Usage(format!("invalid design: {e}").into()))?;
    let target =
        crate::plan::Target::parse(&a.target).map_err(|e| Error::Usage(e.to_string().into()))?;
    let opts = crate::plan::PlanOptions {
        reps: a.reps as usize,
        null_draws: a.null_draws as usize,
        resamples: a.bootstrap as usize,
        seed: a.seed,
        max_n: usize::try_from(a.max_n).unwrap_or(usize::MAX),
    };
    super::shared::check_simulated("plan", opts.max_n, pm.q())?;
    let per_eval = match target {
        crate::plan::Target::CiWidth(_) => opts.reps,
        crate::plan::Target::Power { .. } => opts.null_draws + 2 * opts.reps,
    };
    let evaluations = crate::plan::MAX_EVALUATIONS as f64;
    let shape = crate::cost::StudyShape {
        replicates: evaluations * per_eval as f64,
        items: evaluations * per_eval as f64 * opts.max_n as f64,
        columns: pm.p + pm.rho.len(),
        resamples: match target {
            crate::plan::Target::CiWidth(_) => opts.resamples,
            crate::plan::Target::Power { .. } => 0,
        },
        null_draws: 0.0,
        refits: false,
    };
    let what = format!(
        "plan (at most {} evaluations of {per_eval} replicates, N up to {})",
        crate::plan::MAX_EVALUATIONS,
        opts.max_n
    );
    if let Some(w) = crate::cost::warning_up_to(crate::cost::study_seconds(&shape), &what) {
        console.note(&w);
    }
    let steps = (crate::plan::MAX_EVALUATIONS * per_eval) as u64;
    let meter = console.meter(Steps::Count(steps), !a.json);
    let plan = crate::plan::plan(&pm, target, &opts, &|p| meter.tick(p));
    meter.finish();
    let plan = plan
        .map_err(|e| Error::Usage(format!("plan: {e}").into()))?
        .ok_or_else(cancelled)?;
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
    Ok(Output::ok(render(
        a.json,
        || report::plan::json(&scenario, &plan, &opts),
        || report::plan::text(&scenario, &plan, &opts),
    )))
}
