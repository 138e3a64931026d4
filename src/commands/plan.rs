//! `plan`: the smallest N that meets a target on a scenario.

use super::console::{Console, Output, Steps, cancelled, render};
use crate::cli::PlanArgs;
use crate::error::Error;
use crate::report;
use crate::scenario;

/// `plan`: its report on a scenario (no panel).
pub(super) fn report(a: &PlanArgs, console: &mut dyn Console) -> Result<Output, Error> {
    let mut pm = scenario::preset(&a.preset).map_err(Error::from)?;
    scenario::apply_sets(&mut pm, &a.set).map_err(Error::from)?;
    pm.validate()
        .map_err(|e| Error::Usage(format!("invalid design: {e}").into()))?;
    check_target_numbers(&a.target)?;
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

/// Holds `--target`'s numbers to the rule of every decimal flag (a range, and no nonzero
/// value under 1e-6, which nothing here tells from 0 and which printed in full took
/// hundreds of digits), naming the part that is wrong.
fn check_target_numbers(text: &str) -> Result<(), Error> {
    use crate::cli::values::{decimal, strength};
    let refuse = |part: &str, why: String| {
        Err(Error::Usage(
            crate::wording::Said::new("")
                .setting(crate::wording::Setting::Target)
                .text(format!(" {}: {part} {why}", crate::error::sanitize(text))),
        ))
    };
    if let Some(w) = text.strip_prefix("ci-width=") {
        if let Err(why) = decimal(0.0, 2.0).open_below().open_above().check(w) {
            return refuse("the width W", why);
        }
    } else if let Some((name, rest)) = text.strip_prefix("power=").and_then(|r| r.split_once(':')) {
        if !crate::battery::TestId::ALL
            .into_iter()
            .any(|t| t.spec().violation.name == name.trim())
        {
            return refuse(
                "the test",
                format!(
                    "'{}' is not a test (tests: {})",
                    crate::error::sanitize(name),
                    crate::plan::test_names()
                ),
            );
        }
        let Some((p, st)) = rest.split_once('@') else {
            return Ok(());
        };
        if let Err(why) = decimal(0.0, 1.0).open_below().open_above().check(p) {
            return refuse("the power P", why);
        }
        if let Err(why) = strength().check(st) {
            return refuse("the strength S", why);
        }
    }
    Ok(())
}
