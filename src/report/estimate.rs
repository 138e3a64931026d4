//! The `estimate` report: every fit the user asked for, in text or JSON.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::fit::{estimate_json, estimate_text};
use super::format::{fmt_num, num};
use super::panel::{panel_json, panel_text};
use crate::estimate::bias::BiasCorrection;
use crate::estimate::free_scale::FreeScaleFit;
use crate::estimate::ml::MlFit;
use crate::estimate::{Context, Detail, Estimator, Fits};
use crate::panel::Panel;

/// Everything `rhoscope estimate` reports.
#[derive(Debug, Clone, Copy)]
pub struct EstimateReport<'a> {
    /// How the input is named in the report (the path as given).
    pub source: &'a str,
    pub panel: &'a Panel,
    pub families_source: Option<&'a Path>,
    /// Every fit asked for, in report order.
    pub fits: &'a Fits,
    pub ctx: &'a Context,
    /// Whether the closed form is shown in text (JSON always carries it).
    pub closed: bool,
    /// The free-scale fit's bias correction, when asked for (or why it could not run).
    pub bias: Option<&'a Result<BiasCorrection, String>>,
    /// The latent designated-clean fit's item-bootstrap intervals, when it ran.
    pub intervals: Option<&'a crate::bootstrap::BootstrapResult>,
}

/// The full `estimate --json` document (schema in docs/json.md): one object per fit, under
/// its estimator's key.
#[must_use]
pub fn json(r: &EstimateReport<'_>) -> Value {
    let panel = r.panel;
    let mut doc = panel_json(r.source, panel, r.families_source);
    for fit in &r.fits.fits {
        let obj = match &fit.detail {
            Detail::Ml(ml) => ml_json(ml, (&panel.anchors, &panel.judges)),
            Detail::FreeScale(fs) => {
                let mut obj = estimate_json(&fit.estimate, &panel.anchors, &panel.judges);
                obj["lambda"] = json!(fs.lambda.iter().map(|x| num(*x)).collect::<Vec<_>>());
                obj["q"] = json!(fs.q.iter().map(|x| num(*x)).collect::<Vec<_>>());
                obj["misfit"] = num(fs.misfit);
                obj["judge_rms"] = num(fs.judge_rms);
                obj["converged"] = json!(fs.converged);
                obj["identified_set"] = identified_json(&panel.anchors, fs);
                if let Some(b) = r.bias {
                    obj["bias_correction"] = bias_json(b);
                }
                obj
            }
            Detail::None => {
                let obj = estimate_json(&fit.estimate, &panel.anchors, &panel.judges);
                let latent = fit.estimator == Estimator::DesignatedCleanLatent;
                let mut obj = match r.intervals.filter(|_| latent) {
                    Some(b) => super::fit::estimate_with_ci_json(
                        &fit.estimate,
                        b,
                        (&panel.anchors, &panel.judges),
                    ),
                    None => obj,
                };
                if let (Estimator::DesignatedClean | Estimator::DesignatedCleanLatent, Some(d)) =
                    (fit.estimator, r.ctx.clean)
                {
                    obj["clean_anchor"] = json!(panel.anchors[d]);
                    // Its 0 is assumed, not measured: the bootstrap's [0, 0] is no interval.
                    if let Some(ci) = obj["anchors"][d].get_mut("ci") {
                        *ci = Value::Null;
                    }
                }
                if latent {
                    obj["assumption"] = json!(crate::estimate::latent::ASSUMPTION);
                    obj["bootstrap"] = r.intervals.map_or(
                        Value::Null,
                        |b| json!({"resamples": b.resamples, "seed": b.seed, "dropped": b.dropped}),
                    );
                }
                obj
            }
        };
        doc[fit.estimator.key()] = obj;
    }
    doc["n_eff"] = super::neff::json(&crate::neff::of_panel(panel), &panel.judges);
    doc
}

/// Which of ρ̂ and ρ̃ to read, said once: the text under the bias-correction table prints it
/// and the JSON's `bias_correction.advice` carries it, so every front end words it alike.
pub const BIAS_READ_ADVICE: &str = "Read ρ̃ when the question is whether an anchor is clean; otherwise read ρ̂: the correction removes most of the upward bias near ρ = 0 at the cost of variance.";

/// The `bias_correction` object of the free-scale fit.
fn bias_json(b: &Result<BiasCorrection, String>) -> Value {
    match b {
        Err(why) => json!({"error": why}),
        Ok(b) => {
            let opt = |v: &[Option<f64>]| {
                v.iter()
                    .map(|x| x.map_or(Value::Null, num))
                    .collect::<Vec<_>>()
            };
            json!({
                "reps": b.reps,
                "seed": b.seed,
                "admissible": b.admissible,
                "bias": opt(&b.bias),
                "bias_se": opt(&b.bias_se),
                "corrected": opt(&b.corrected),
                "advice": BIAS_READ_ADVICE,
            })
        }
    }
}

/// The bias-correction block under the free-scale fit (Section 7).
fn bias_text(
    b: &Result<BiasCorrection, String>,
    e: &crate::estimate::Estimate,
    anchors: &[String],
) -> String {
    let b = match b {
        Err(why) => return format!("  bias correction not possible: {why}\n"),
        Ok(b) => b,
    };
    let rows: Vec<Vec<String>> = anchors
        .iter()
        .enumerate()
        .map(|(k, a)| {
            let undefined = || format!("undefined ({} of {} admissible)", b.admissible[k], b.reps);
            vec![
                crate::location::sanitize(a),
                e.rho()[k].map_or_else(|| "undefined".into(), fmt_num),
                b.bias[k]
                    .zip(b.bias_se[k])
                    .map_or_else(undefined, |(x, se)| {
                        format!("{} ± {}", fmt_num(x), fmt_num(se))
                    }),
                b.corrected[k].map_or_else(
                    || "—".into(),
                    |c| {
                        if c.abs() > 1.0 {
                            format!("{} (outside [−1, 1]: overshoots; read ρ̂)", fmt_num(c))
                        } else {
                            fmt_num(c)
                        }
                    },
                ),
            ]
        })
        .collect();
    format!(
        "  bias correction (Section 7; {} refits simulated from this fit at the panel's N, seed {}):\n{}  {BIAS_READ_ADVICE}\n",
        b.reps,
        b.seed,
        super::format::table(&["anchor", "ρ̂", "bias ± MC SE", "ρ̃ corrected"], &rows)
            .lines()
            .fold(String::new(), |mut acc, l| {
                let _ = writeln!(acc, "  {l}");
                acc
            })
    )
}

/// The free-scale fit's own lines: λ per judge, the least-squares anchor misfit (named as the
/// fit's criterion, since Test O reads a different, weighted statistic), the judge RMS and the
/// identified set.
#[must_use]
pub fn free_scale_lines(judges: &[String], anchors: &[String], fs: &FreeScaleFit) -> String {
    let lambda: Vec<String> = judges
        .iter()
        .zip(&fs.lambda)
        .map(|(j, l)| format!("{j} {}", fmt_num(*l)))
        .collect();
    format!(
        "  judge loadings λ: {}\n  anchor least-squares misfit {} (the fit's criterion, unweighted; not Test O's statistic) · judge one-factor RMS {}{}\n{}",
        lambda.join(", "),
        fmt_num(fs.misfit),
        fmt_num(fs.judge_rms),
        if fs.converged {
            ""
        } else {
            " · NOT converged"
        },
        identified_text(anchors, fs)
    )
}

/// The identified-set line: each anchor's range of ρ the data cannot reject.
fn identified_text(anchors: &[String], fs: &FreeScaleFit) -> String {
    let Some(set) = &fs.identified else {
        return "  identified set: not computed (no admissible judge loadings, or a jackknife sample could not be fitted)\n".into();
    };
    if set.is_empty() {
        return "  identified set: empty at 95 % — no (σ_t², σ_c²) fits the anchors' covariances within sampling error\n".into();
    }
    let rows: Vec<String> = anchors
        .iter()
        .zip(&set.rho)
        .map(|(a, r)| {
            let (lo, hi) = r.unwrap_or((f64::NAN, f64::NAN));
            format!(
                "{} [{}, {}]",
                crate::location::sanitize(a),
                fmt_num(lo),
                fmt_num(hi)
            )
        })
        .collect();
    let (slo, shi) = set.sigma_t2.unwrap_or((f64::NAN, f64::NAN));
    format!(
        "  identified set of ρ (95 %, {}): {}; σ_t² in [{}, {}]{}\n",
        if set.is_point() {
            "a point is reported: the set is bounded"
        } else if set.unbounded {
            "NOT a point: no ρ̂ is reported"
        } else {
            "ρ̂ only where an anchor's set is narrower than 1"
        },
        rows.join(", "),
        fmt_num(slo),
        fmt_num(shi),
        if set.unbounded {
            ", reaching the edge of the parameter space"
        } else {
            ""
        }
    )
}

/// The `identified_set` object of a free-scale fit (`null` when it was not computed).
#[must_use]
pub fn identified_json(anchors: &[String], fs: &FreeScaleFit) -> Value {
    fs.identified.as_ref().map_or(Value::Null, |set| {
        let pair = |r: Option<(f64, f64)>| r.map_or(Value::Null, |(lo, hi)| json!([num(lo), num(hi)]));
        json!({
            "level": crate::estimate::identified::LEVEL,
            "jackknife_groups": set.groups,
            "point": set.is_point(),
            "empty": set.is_empty(),
            "unbounded": set.unbounded,
            "sigma_t2": pair(set.sigma_t2),
            "rho": anchors.iter().zip(&set.rho).enumerate().map(|(k, (a, r))| json!({"name": a, "set": pair(*r), "point": set.is_point_for(k)})).collect::<Vec<_>>(),
        })
    })
}

/// The `ml` object: the estimate's shape plus convergence and standard errors.
#[must_use]
pub fn ml_json(fit: &MlFit, (anchors, judges): (&[String], &[String])) -> Value {
    let mut obj = estimate_json(&fit.estimate, anchors, judges);
    obj["converged"] = json!(fit.converged);
    obj["iterations"] = json!(fit.iterations);
    obj["start"] = json!(fit.start);
    obj["discrepancy"] = num(fit.discrepancy);
    obj["psi"] = json!(fit.psi.iter().map(|x| num(*x)).collect::<Vec<_>>());
    obj["omega"] = json!(fit.omega.iter().map(|x| num(*x)).collect::<Vec<_>>());
    obj["se"] = json!({
        "sigma_t2": num(fit.se.sigma_t2),
        "sigma_c2": num(fit.se.sigma_c2),
        "beta": fit.se.beta.iter().map(|x| num(*x)).collect::<Vec<_>>(),
        "rho": fit.se.rho.iter().map(|x| num(*x)).collect::<Vec<_>>(),
    });
    obj
}

/// The whole `estimate` text report: the panel, then one block per fit.
#[must_use]
pub fn text(r: &EstimateReport<'_>) -> String {
    let panel = r.panel;
    let anchors = &panel.anchors;
    let mut out = panel_text("estimate", r.source, panel, r.families_source);
    for fit in &r.fits.fits {
        if fit.estimator == Estimator::ClosedForm && !r.closed {
            continue;
        }
        out.push('\n');
        let title = fit.estimator.title(r.ctx, anchors);
        match &fit.detail {
            Detail::None => {
                let latent = fit.estimator == Estimator::DesignatedCleanLatent;
                out.push_str(&estimate_text(
                    &format!("{title} ({})", fit.estimator.basis()),
                    &fit.estimate,
                    r.intervals.filter(|_| latent),
                    (anchors, &panel.judges),
                ));
                if latent {
                    let _ = writeln!(
                        out,
                        "  the assumption: {}",
                        crate::estimate::latent::ASSUMPTION
                    );
                }
            }
            Detail::Ml(ml) => ml_text(&mut out, &title, ml, (anchors, &panel.judges)),
            Detail::FreeScale(fs) => {
                out.push_str(&estimate_text(
                    &format!("{title} ({})", fit.estimator.basis()),
                    &fit.estimate,
                    None,
                    (anchors, &panel.judges),
                ));
                out.push_str(&free_scale_lines(&panel.judges, &panel.anchors, fs));
                if let Some(b) = r.bias {
                    out.push_str(&bias_text(b, &fit.estimate, &panel.anchors));
                }
            }
        }
    }
    out.push_str(&super::neff::text(
        &crate::neff::of_panel(panel),
        &panel.judges,
    ));
    out
}

/// The ML block: convergence in the heading, standard errors below.
fn ml_text(out: &mut String, title: &str, fit: &MlFit, (anchors, judges): (&[String], &[String])) {
    out.push_str(&estimate_text(
        &format!(
            "{title} ({}, {} iterations from the {} start; K = implied σ_t² + σ_c²)",
            if fit
                .estimate
                .has_flag(crate::estimate::FlagCode::NoMlSolution)
            {
                "no maximum-likelihood solution"
            } else if fit.converged {
                "converged"
            } else {
                "NOT converged"
            },
            fit.iterations,
            fit.start
        ),
        &fit.estimate,
        None,
        (anchors, judges),
    ));
    let se: Vec<String> = anchors
        .iter()
        .zip(&fit.se.rho)
        .map(|(a, s)| format!("{a} {}", fmt_num(*s)))
        .collect();
    let _ = writeln!(
        out,
        "  standard errors (information matrix; ρ by the delta method): σ_t² {}, σ_c² {}, ρ: {}",
        fmt_num(fit.se.sigma_t2),
        fmt_num(fit.se.sigma_c2),
        se.join(", ")
    );
}
