//! `validate`: the real-texture protocol on a panel's own judges.

use super::console::{Console, Output, Steps, cancelled, render};
use super::shared::{check_simulated, warn_cost};
use crate::cli::ValidateArgs;
use crate::data::Loaded;
use crate::error::Error;
use crate::report;
use crate::validate::{self, Thresholds};

/// `validate`'s options, checked before the panel is read (usage errors first).
pub(super) fn options(a: &ValidateArgs) -> Result<validate::Options, Error> {
    let opts = validate::Options {
        inject: a.inject.clone(),
        ns: vec![10],
        reps: a.reps as usize,
        seed: a.seed,
        bootstrap: a.bootstrap.map_or(0, |b| b as usize),
        null_draws: a.null_draws as usize,
        thresholds: if a.balanced {
            Thresholds::Balanced
        } else {
            Thresholds::Own
        },
    };
    opts.check()
        .map_err(|e| Error::Usage(format!("validate: {e}").into()))?;
    Ok(opts)
}

/// `validate`: Section 7's real-texture protocol on a loaded panel's own judges.
pub(super) fn report(
    a: &ValidateArgs,
    mut opts: validate::Options,
    loaded: &Loaded,
    console: &mut dyn Console,
) -> Result<Output, Error> {
    let panel = &loaded.panel;
    let tex =
        validate::Texture::of(panel).map_err(|e| Error::data(&a.panel.panel, e.to_string()))?;
    let mut ns = vec![panel.n];
    for &n in &a.n {
        let n = usize::try_from(n).unwrap_or(usize::MAX);
        if !ns.contains(&n) {
            ns.push(n);
        }
    }
    opts.ns = ns;
    opts.check()
        .map_err(|e| Error::data(&a.panel.panel, format!("validate: {e}")))?;
    let largest = opts.ns.iter().copied().max().unwrap_or(0);
    check_simulated("validate", largest, panel.p() + opts.inject.len())?;
    let sizes = match opts.ns.len() {
        1 => "one size".to_string(),
        k => format!("each of {k} sizes"),
    };
    let what = format!(
        "validate ({} replicates at {sizes}, N up to {})",
        opts.reps,
        opts.ns.iter().max().copied().unwrap_or(0)
    );
    warn_cost(console, validate::seconds(&tex, &opts), &what);
    let meter = console.meter(Steps::Count(validate::total_steps(&opts)), !a.json);
    let study = validate::run(&tex, &opts, &|p| meter.tick(p));
    meter.finish();
    let study = study
        .map_err(|e| Error::Usage(format!("validate: {e}").into()))?
        .ok_or_else(cancelled)?;
    let source = console.source(&a.panel);
    let fam = loaded.families_source.as_deref();
    Ok(Output::ok(render(
        a.json,
        || report::validate::json(&source, panel, fam, &opts, &study),
        || report::validate::text(&source, panel, fam, &opts, &study),
    )))
}
