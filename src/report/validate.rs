//! The `validate` report: how each estimator recovers injected contamination on synthetic
//! panels built on a real panel's rater textures (Section 7, docs/method.md §7).

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::format::{SCHEMA_VERSION, num, table};
use super::panel::{panel_json, panel_text};
use crate::battery::TestId;
use crate::estimate::{Context, Estimator};
use crate::panel::Panel;
use crate::validate::{self, Cell, Options, Study, Thresholds};

fn opt_num(x: Option<f64>) -> Value {
    x.map_or(Value::Null, num)
}

fn design_sentence(opts: &Options) -> String {
    let sa: Vec<String> = (0..opts.inject.len())
        .map(|k| format!("{:.1}", validate::anchor_sd(k)))
        .collect();
    format!(
        "latent design: σ_t² = {}, σ_c² = {} (the paper's base design); anchor error SDs σ_a = ({}); continuous anchors",
        validate::SIGMA_T2,
        validate::SIGMA_C2,
        sa.join(", ")
    )
}

fn inject_list(inject: &[f64]) -> String {
    inject
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The `validate --json` document.
#[must_use]
pub fn json(
    source: &str,
    panel: &Panel,
    families_source: Option<&Path>,
    opts: &Options,
    study: &Study,
) -> Value {
    json!({
        "schema_version": SCHEMA_VERSION,
        "panel": panel_json(source, panel, families_source),
        "inject": opts.inject,
        "reps": opts.reps,
        "seed": opts.seed,
        "bootstrap": opts.bootstrap,
        "null_draws": opts.null_draws,
        "thresholds": match opts.thresholds { Thresholds::Own => "own", Thresholds::Balanced => "balanced" },
        "design": {
            "sigma_t2": validate::SIGMA_T2,
            "sigma_c2": validate::SIGMA_C2,
            "anchor_sd": (0..opts.inject.len()).map(validate::anchor_sd).collect::<Vec<_>>(),
        },
        "cells": study.cells.iter().map(cell_json).collect::<Vec<_>>(),
    })
}

fn cell_json(c: &Cell) -> Value {
    json!({
        "n": c.n,
        "reps": c.reps,
        "estimators": c.estimators.iter().map(|e| json!({
            "estimator": e.estimator.key(),
            "anchors": e.anchors.iter().map(|a| json!({
                "injected": a.injected,
                "defined": a.defined,
                "mean": opt_num(a.mean),
                "sd": opt_num(a.sd),
                "rmse": opt_num(a.rmse),
                "coverage": opt_num(a.coverage),
            })).collect::<Vec<_>>(),
            "ordered_reps": e.ordered,
            "ordered_means": e.ordered_means,
            "inadmissible": e.inadmissible,
        })).collect::<Vec<_>>(),
        "false_positives": c.false_positives.iter()
            .map(|(t, r)| (t.name().to_string(), r.map_or(Value::Null, |(f, a)| json!({"fired": f, "runs": a}))))
            .collect::<serde_json::Map<_, _>>(),
        "any_fired": c.any_fired,
    })
}

/// `mean ± SD (RMSE r)`, or `undefined`.
fn cell_text(a: &validate::AnchorRecovery, reps: usize) -> String {
    let mut s = match (a.mean, a.sd, a.rmse) {
        (Some(m), Some(sd), Some(r)) => format!("{m:.3} ± {sd:.3} (RMSE {r:.3})"),
        (Some(m), _, _) => format!("{m:.3}"),
        _ => "undefined".into(),
    };
    if a.defined < reps {
        let _ = write!(s, " [{}/{reps}]", a.defined);
    }
    if let Some(cv) = a.coverage {
        let _ = write!(s, " cov {cv:.2}");
    }
    s
}

/// The recovery table of one N, for pasting into a report.
#[must_use]
pub fn cell_table(c: &Cell, inject: &[f64], anchors: &[String]) -> String {
    let mut header = vec!["estimator".to_string()];
    header.extend(
        inject
            .iter()
            .enumerate()
            .map(|(k, r)| format!("ρ_{} = {r}", k + 1)),
    );
    header.extend([
        "ordered (runs)".into(),
        "ordered (means)".into(),
        "inadmissible".into(),
    ]);
    let ctx = Context::default();
    let rows: Vec<Vec<String>> = c
        .estimators
        .iter()
        .map(|e| {
            let mut row = vec![e.estimator.label(&ctx, anchors)];
            row.extend(e.anchors.iter().map(|a| cell_text(a, c.reps)));
            row.push(format!("{}/{}", e.ordered, c.reps));
            row.push(if e.ordered_means { "yes" } else { "no" }.into());
            row.push(format!("{}/{}", e.inadmissible, c.reps));
            row
        })
        .collect();
    let h: Vec<&str> = header.iter().map(String::as_str).collect();
    let mut out = table(&h, &rows);
    if let Some(any) = c.any_fired {
        let per: Vec<String> = c
            .false_positives
            .iter()
            .filter_map(|(t, r)| r.map(|(f, a)| format!("{} {f}/{a}", test_label(t))))
            .collect();
        let _ = writeln!(
            out,
            "  battery false positives (the model holds by construction): {}; any test {any}/{}",
            per.join(", "),
            c.reps
        );
    }
    out
}

fn test_label(t: TestId) -> String {
    format!("Test {}", t.name())
}

/// The `validate` text report.
#[must_use]
pub fn text(
    source: &str,
    panel: &Panel,
    families_source: Option<&Path>,
    opts: &Options,
    study: &Study,
) -> String {
    // The panel's header without what concerns its own anchors and their identification:
    // validate builds continuous anchors of its own.
    let mut out: String = panel_text("validate", source, panel, families_source)
        .lines()
        .filter(|l| !l.starts_with("anchors (0)") && !l.starts_with("note: ordinal columns"))
        .fold(String::new(), |mut acc, l| {
            acc.push_str(l);
            acc.push('\n');
            acc
        });
    let _ = writeln!(
        out,
        "\nSynthetic judges on these {} judges' own textures (item-centred residuals resampled; {}), anchors with injected ρ = ({}).",
        panel.p(),
        if study.any_ordinal {
            match opts.thresholds {
                Thresholds::Own => "ordinal judges cut at their own empirical thresholds",
                Thresholds::Balanced => "ordinal judges cut at balanced thresholds (ablation)",
            }
        } else {
            "continuous judges keep their residual scale"
        },
        inject_list(&opts.inject)
    );
    let _ = writeln!(out, "{}.", design_sentence(opts));
    let mc = 1.0 / (opts.reps as f64).sqrt();
    let _ = writeln!(
        out,
        "{} replicates per N, seed {} (Monte-Carlo SE of a mean = SD × {mc:.3}); {}; {}.",
        opts.reps,
        opts.seed,
        if opts.bootstrap > 0 {
            format!(
                "bootstrap CI coverage from B = {} resamples (cov; an undefined interval is a miss)",
                opts.bootstrap
            )
        } else {
            format!(
                "bootstrap off ({} for CI coverage)",
                crate::wording::RunSetting::Bootstrap.marked()
            )
        },
        if opts.null_draws > 0 {
            format!(
                "battery with {} matched-null draws per test",
                opts.null_draws
            )
        } else {
            "battery off".into()
        }
    );
    let anchors: Vec<String> = (1..=opts.inject.len()).map(|k| format!("A{k}")).collect();
    for c in &study.cells {
        let here = if c.n == study.panel_n {
            " (the panel's N)"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "\nN = {}{here}: mean ± SD (RMSE) of ρ̂ over {} runs",
            c.n, c.reps
        );
        out.push_str(&cell_table(c, &opts.inject, &anchors));
    }
    out.push_str(&texture_note(opts, study));
    if study.estimators.contains(&Estimator::ClosedForm) && study.any_ordinal {
        out.push_str(
            "\nTheorem 1 assumes judges on one scale; on ordinal judges read the free-scale row (Section 7).\n",
        );
    }
    out
}

/// The rejection rate of a 95th-percentile threshold from D null draws: an observation
/// exceeds the interpolated percentile with probability (D − 0.95 (D − 1))/(D + 1).
#[must_use]
pub fn nominal_rate(draws: usize) -> f64 {
    let d = draws as f64;
    (d - 0.95 * (d - 1.0)) / (d + 1.0)
}

/// Each test whose false-alarm rate is above its nominal rate by more than 2 binomial SEs, with
/// the textures that break its null and what to read instead (empty when none is).
fn texture_note(opts: &Options, study: &Study) -> String {
    if opts.null_draws == 0 {
        return String::new();
    }
    let pi = nominal_rate(opts.null_draws);
    let mut over = Vec::new();
    for c in &study.cells {
        for (t, r) in c.false_positives.iter() {
            if let Some((f, a)) = r
                && *a > 0
                && (*f as f64 / *a as f64) > pi + 2.0 * (pi * (1.0 - pi) / *a as f64).sqrt()
            {
                over.push(format!("{} {f}/{a} at N = {}", test_label(t), c.n));
            }
        }
    }
    let residuals = match study.shape {
        Some((skew, kurt)) => {
            format!(": |skewness| up to {skew:.2}, excess kurtosis up to {kurt:.2}")
        }
        None => " do not vary (the judges agree exactly), so they have no shape to read".into(),
    };
    let (skew, kurt) = study.shape.unwrap_or((0.0, 0.0));
    let mut out = format!(
        "\nNominal false-alarm rate with {} null draws: {pi:.3} per test. The judges' residuals{residuals}.\n",
        opts.null_draws
    );
    // A test that applied in no replicate was not tested: no pass to report.
    let ran = study.cells.iter().any(|c| {
        c.false_positives
            .iter()
            .any(|(_, r)| r.is_some_and(|(_, a)| a > 0))
    });
    if !ran {
        out.push_str("No test could run on these replicates (every fit was undefined or inadmissible), so none is checked here.\n");
    } else if over.is_empty() {
        out.push_str("Every test stays within 2 Monte-Carlo SEs of it on these textures.\n");
    } else {
        let _ = writeln!(
            out,
            "Above it by more than 2 Monte-Carlo SEs: {}. The nulls are Gaussian on the latent scale; these judges' residuals are not ({}), and the null understates the spread of the statistics that read their correlations. On a panel with these textures read such a test's alarm against the rate here, not against 5 %, and lean on the estimates' intervals and on `validate` itself.",
            over.join(", "),
            if kurt > 1.0 {
                "heavy tails"
            } else if skew > 0.5 {
                "skewed"
            } else if study.any_ordinal {
                "ties and skewed marginals"
            } else {
                "non-Gaussian"
            }
        );
    }
    out
}
