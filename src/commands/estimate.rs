//! `estimate`: every requested estimator's ρ on one panel, refusals shown after the numbers.

use super::console::{Console, Output, Rendered, Steps, cancelled};
use super::shared::identified;
use crate::cli::{EstimateArgs, Method};
use crate::data::Loaded;
use crate::error::Error;
use crate::estimate::{Context, Estimator, Fits};
use crate::report::{self, estimate::EstimateReport};
use crate::wording::{Said, Setting};

/// The anchor `--designated-clean` names, noting when a number named it rather than a position.
pub(super) fn designated_clean(
    name: Option<&String>,
    anchors: &[String],
    console: &mut dyn Console,
) -> Result<Option<usize>, Error> {
    let Some(name) = name else {
        return Ok(None);
    };
    let c = anchor_index(anchors, name, Setting::DesignatedClean)?;
    note_name_over_position(console, anchors, name, c);
    Ok(Some(c))
}

/// `estimate` on a loaded panel: its report, and a refused estimator the user asked for.
pub(super) fn report(
    a: &EstimateArgs,
    loaded: &Loaded,
    console: &mut dyn Console,
) -> Result<Output, Error> {
    let panel = &loaded.panel;
    let clean = designated_clean(a.designated_clean.as_ref(), &panel.anchors, console)?;
    let (flagged, which) = asked(a, panel, clean)?;
    let s = panel.covariance();
    let ctx = Context {
        families: panel.judge_families(),
        clean,
    };
    if which.contains(&Estimator::Ml) && panel.p() + panel.m() <= crate::estimate::ml::MAX_VARIABLES
    {
        let what = format!(
            "maximum likelihood on {} judges and {} anchors",
            panel.p(),
            panel.m()
        );
        // The steps a start takes depend on the data: the note is a bound.
        if let Some(w) =
            crate::cost::warning_up_to(crate::cost::ml_seconds(panel.p(), panel.m()), &what)
        {
            console.note(&w);
        }
    }
    if a.bias_correct && !which.contains(&Estimator::FreeScale) {
        return Err(Error::Usage(
            Said::new("")
                .setting(Setting::BiasCorrect)
                .text(" corrects the free-scale estimate: add ")
                .setting(Setting::FreeScale),
        ));
    }
    let fits = Fits::of(panel, &s, &ctx, &which);
    let bias = match fits.free_scale().filter(|_| a.bias_correct) {
        Some(fs) => {
            let reps = a.bias_reps as usize;
            let meter = console.meter(Steps::Count(reps as u64), !a.json);
            let streams = crate::rng::Streams::of(a.seed);
            let b = crate::estimate::bias::correct(panel, fs, reps, streams, &|p| meter.tick(p));
            meter.finish();
            match b {
                Ok(None) => return Err(cancelled()),
                Ok(Some(b)) => Some(Ok(b)),
                Err(e) => Some(Err(String::from(e))),
            }
        }
        None => None,
    };
    let intervals = latent_intervals(a, panel, &ctx, &fits, console)?;
    // A refused comparison the user asked for is an error; anything else that ran is still
    // shown first, so one estimator's trouble never hides another's numbers. `--method all`
    // asks for every estimator that can run: one that cannot is a note, not a failure.
    let (named, notes) = note_what_all_cannot_run(a, &flagged, &fits, console);
    let refused = named.first().map(|(e, why)| refusal(a, *e, why));
    if let Some(Error::Usage(_)) = refused {
        return Err(refused.expect("matched Some"));
    }
    let source = console.source(&a.panel);
    let r = EstimateReport {
        source: &source,
        panel,
        families_source: loaded.families_source.as_deref(),
        fits: &fits,
        ctx: &ctx,
        closed: !matches!(a.method, Method::Ml | Method::FreeScale)
            && which.contains(&Estimator::ClosedForm),
        bias: bias.as_ref(),
        intervals: intervals.as_ref(),
    };
    let something_to_show = r.closed
        || fits
            .fits
            .iter()
            .any(|f| f.estimator != Estimator::ClosedForm);
    // Nothing ran that was asked for: no report (a closed-form JSON would pass for one).
    let rendered = if !something_to_show {
        Rendered::Nothing
    } else if a.json {
        let mut doc = report::estimate::json(&r);
        // The estimators `--method all` could not run: the reasons stderr gives, here too.
        if let Some(list) = doc["notes"].as_array_mut() {
            list.extend(notes.into_iter().map(serde_json::Value::String));
        }
        Rendered::Json(doc)
    } else {
        Rendered::Text(report::estimate::text(&r))
    };
    Ok(Output {
        rendered,
        error: refused,
    })
}

/// The error for an estimator the user asked for that cannot run: a family-blocked estimate
/// without families is a setting to give (exit 2), any other refusal is the data's (exit 65).
fn refusal(a: &EstimateArgs, e: Estimator, why: &str) -> Error {
    match e {
        Estimator::Ml => Error::data(&a.panel.panel, format!("maximum likelihood: {why}")),
        Estimator::FreeScale => Error::data(&a.panel.panel, format!("free-scale: {why}")),
        Estimator::Blocked => Error::Usage(
            Said::new(format!("the family-blocked estimate {why} (give "))
                .setting(Setting::Families)
                .text(")"),
        ),
        _ => Error::data(&a.panel.panel, why.to_string()),
    }
}

/// The estimators asked for by their own options, and every one to fit. On Likert columns a
/// designated-clean anchor is read on latent scales (docs/method.md §7b), which identifies the
/// others' ρ even where the common-scale estimators are refused: it then runs alone.
fn asked(
    a: &EstimateArgs,
    panel: &crate::panel::Panel,
    clean: Option<usize>,
) -> Result<(Vec<Estimator>, Vec<Estimator>), Error> {
    let latent = clean.is_some() && crate::estimate::latent::wanted(panel);
    let refused_panel = identified(&a.panel.panel, panel);
    // On a panel ρ is not identified on, the latent fit answers only where it applies; else
    // the panel's own reason (exit 3) is the answer, not the fit's narrower refusal.
    let latent_applies = latent && panel.m() >= crate::estimate::latent::MIN_ANCHORS;
    if refused_panel.is_err() && !latent_applies {
        return refused_panel.map(|()| (Vec::new(), Vec::new()));
    }
    let flagged = [
        (Estimator::Blocked, a.blocked),
        (Estimator::DesignatedClean, clean.is_some() && !latent),
        (Estimator::DesignatedCleanLatent, latent),
    ];
    let flagged: Vec<Estimator> = flagged.iter().filter(|f| f.1).map(|f| f.0).collect();
    let which = if refused_panel.is_err() {
        vec![Estimator::DesignatedCleanLatent]
    } else {
        a.method.estimators(&flagged)
    };
    Ok((flagged, which))
}

/// The latent designated-clean fit's item-bootstrap intervals, when it ran (docs/method.md §7b).
fn latent_intervals(
    a: &EstimateArgs,
    panel: &crate::panel::Panel,
    ctx: &Context,
    fits: &Fits,
    console: &mut dyn Console,
) -> Result<Option<crate::bootstrap::BootstrapResult>, Error> {
    if fits.get(Estimator::DesignatedCleanLatent).is_none() {
        return Ok(None);
    }
    let reps = crate::bootstrap::DEFAULT_RESAMPLES;
    let meter = console.meter(Steps::Count(reps as u64), !a.json);
    let b = crate::bootstrap::bootstrap(
        panel,
        &[Estimator::DesignatedCleanLatent],
        ctx,
        reps,
        crate::rng::Streams::of(a.seed),
        &|p| meter.tick(p),
    );
    meter.finish();
    Ok(Some(b.ok_or_else(cancelled)?.remove(0)))
}

/// `--method all` asks for every estimator that can run: each one that cannot (and was not
/// asked for by its own flag) is a note; the refusals left are the user's to see as errors.
fn note_what_all_cannot_run<'f>(
    a: &EstimateArgs,
    flagged: &[Estimator],
    fits: &'f Fits,
    console: &mut dyn Console,
) -> (Vec<&'f (Estimator, String)>, Vec<String>) {
    let (noted, named): (Vec<_>, Vec<_>) = fits
        .refused
        .iter()
        .partition(|(e, _)| matches!(a.method, Method::All) && !flagged.contains(e));
    let mut notes = Vec::new();
    for (e, why) in noted {
        let name = match e {
            Estimator::Ml => "maximum likelihood",
            Estimator::FreeScale => "free-scale",
            other => other.key(),
        };
        let what =
            format!("note: {name} cannot run on this panel ({why}); the other estimators ran");
        console.note(&Error::data(&a.panel.panel, what.clone()).to_string());
        notes.push(what.trim_start_matches("note: ").to_string());
    }
    (named, notes)
}

/// A note when `tok`, the name of anchor `c`, would pick another anchor as a position.
fn note_name_over_position(console: &mut dyn Console, anchors: &[String], tok: &str, c: usize) {
    let by_position = tok
        .parse::<usize>()
        .ok()
        .and_then(|i| anchors.get(i.wrapping_sub(1)));
    if let Some(other) = by_position
        && *other != anchors[c]
    {
        let show = crate::error::sanitize;
        console.note(&format!(
            "note: {} {} picks the anchor named {} by name; by position among the anchors it would pick {}",
            Setting::DesignatedClean.marked(),
            show(tok),
            show(&anchors[c]),
            show(other)
        ));
    }
}

/// An anchor by name or 1-based position among the anchors.
fn anchor_index(anchors: &[String], tok: &str, setting: Setting) -> Result<usize, Error> {
    anchors
        .iter()
        .position(|n| n == tok)
        .or_else(|| {
            tok.parse::<usize>()
                .ok()
                .filter(|i| (1..=anchors.len()).contains(i))
                .map(|i| i - 1)
        })
        .ok_or_else(|| {
            Error::Usage(Said::new("").setting(setting).text(format!(
                ": '{}' is not an anchor (anchors: {})",
                crate::error::sanitize(tok),
                anchors.join(", ")
            )))
        })
}
