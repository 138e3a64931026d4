//! The `battery` report: configuration, estimates with intervals, the weak-identification
//! screen and every registered test, in text or JSON.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::fit::{estimate_text, estimate_with_ci_json};
use super::format::{fmt_num, num, table};
use super::panel::{panel_json, panel_text};
use crate::battery::BatteryReport;
use crate::battery::reading::WeakIdVerdict;
use crate::bootstrap::{BootstrapResult, WEAK_ID_T};
use crate::estimate::{Context, Detail, Estimator};
use crate::panel::Panel;

fn bootstrap_json(b: &BootstrapResult) -> Value {
    json!({"resamples": b.resamples, "dropped": b.dropped, "seed": b.seed})
}

/// The weak-identification screen's line (Section 6), worded from its one verdict.
fn weak_id_text(w: &crate::bootstrap::WeakId, verdict: WeakIdVerdict) -> String {
    format!(
        "\nWeak-identification screen: T = |den| / SD_boot(den) = {} / {} = {} → {}\n",
        fmt_num(w.denominator.abs()),
        fmt_num(w.sd_boot),
        fmt_num(w.t),
        match verdict {
            WeakIdVerdict::NoFit | WeakIdVerdict::OutOfRange { .. } => "no verdict: the closed form is out of range or gives no ρ̂ (see its flags), and T screens only an in-range fit".to_string(),
            WeakIdVerdict::Weak { .. } => format!(
                "FLAGGED (T < {WEAK_ID_T}): the data carry little information about σ_t²; report every ρ as its interval only, where it has one (\"Which estimate to read\" names any anchor without)"
            ),
            WeakIdVerdict::Ok { .. } => format!("ok (T ≥ {WEAK_ID_T})"),
        }
    )
}

/// The `battery --json` document (schema in docs/json.md).
#[must_use]
pub fn json(
    source: &str,
    panel: &Panel,
    families_source: Option<&Path>,
    r: &BatteryReport,
) -> Value {
    let anchors = &panel.anchors;
    let mut doc = panel_json(source, panel, families_source);
    doc["estimate"] = Value::Null;
    for f in &r.fits {
        let mut obj = estimate_with_ci_json(&f.estimate, &f.boot, (anchors, &panel.judges));
        if let Detail::FreeScale(fs) = &f.detail {
            obj["lambda"] = json!(fs.lambda.iter().map(|x| num(*x)).collect::<Vec<_>>());
            obj["misfit"] = num(fs.misfit);
            obj["judge_rms"] = num(fs.judge_rms);
            obj["converged"] = json!(fs.converged);
            obj["identified_set"] = super::estimate::identified_json(anchors, fs);
            obj["bootstrap"] = bootstrap_json(&f.boot);
        }
        if let (Estimator::DesignatedClean | Estimator::DesignatedCleanLatent, Some(d)) =
            (f.estimator, r.designated)
        {
            obj["clean_anchor"] = json!(anchors.get(d));
            obj["assumption"] = json!(crate::estimate::latent::ASSUMPTION);
            // Its 0 is assumed, not measured: the bootstrap's [0, 0] is no interval.
            if let Some(ci) = obj["anchors"][d].get_mut("ci") {
                *ci = Value::Null;
            }
        }
        doc[f.estimator.key()] = obj;
    }
    doc["designated_clean"] = json!(r.designated.and_then(|d| anchors.get(d)));
    for (e, why) in &r.refused {
        if doc.get(e.key()).is_none_or(Value::is_null) {
            doc[e.key()] = json!({"refused": why});
        }
    }
    doc["read"] = json!({
        "estimator": r.route.read.map(Estimator::key),
        "why": r.route.why,
    });
    doc["reading"] = super::reading::json(panel, r);
    doc["weak_id"] = r.weak_id.map_or(Value::Null, |w| {
        json!({"T": num(w.t), "flag": w.flag, "denominator": num(w.denominator), "sd_boot": num(w.sd_boot), "out_of_range": w.out_of_range})
    });
    doc["bootstrap"] = r.boot().map_or(Value::Null, bootstrap_json);
    let mut tests = serde_json::Map::new();
    for t in r.tests.values() {
        tests.insert(
            t.test.name().into(),
            json!({
                "applicable": t.applicable,
                "statistic": t.statistic.map_or(Value::Null, num),
                "threshold": t.threshold.map_or(Value::Null, num),
                "threshold_mc_sd": t.threshold_mc_sd.map_or(Value::Null, num),
                "p_value": t.p_value.map_or(Value::Null, num),
                "verdict": t.verdict.as_str(),
                "message": t.message,
            }),
        );
    }
    doc["tests"] = Value::Object(tests);
    doc["configuration"] = json!({
        "row": r.decision.row.configuration,
        "available": r.decision.available,
        "unguarded": r.decision.unguarded,
        "not_identified": r.decision.refusal,
    });
    doc["null"] = json!({
        "kind": r.null.kind, "method": r.null.method, "draws": r.null.draws, "note": r.null.note,
        "free_scale": r.null.free_scale,
    });
    doc["n_eff"] = super::neff::json(&r.n_eff, &panel.judges);
    doc
}

/// Each fit's block: its estimate with intervals, the assumption a designated-clean fit
/// rests on, and the free-scale fit's own lines.
fn fits_text(out: &mut String, panel: &Panel, r: &BatteryReport, ctx: &Context) {
    let anchors = &panel.anchors;
    for f in &r.fits {
        out.push('\n');
        out.push_str(&estimate_text(
            &format!(
                "{} ({}; 95% percentile bootstrap CIs, B = {}, seed {}, {} resamples dropped)",
                f.estimator.title(ctx, anchors),
                f.estimator.basis(),
                f.boot.resamples,
                f.boot.seed,
                f.boot.dropped
            ),
            &f.estimate,
            Some(&f.boot),
            (anchors, &panel.judges),
        ));
        if matches!(
            f.estimator,
            Estimator::DesignatedClean | Estimator::DesignatedCleanLatent
        ) {
            let _ = writeln!(
                out,
                "  the assumption: {}",
                crate::estimate::latent::ASSUMPTION
            );
        }
        if let Detail::FreeScale(fs) = &f.detail {
            out.push_str(&super::estimate::free_scale_lines(
                &panel.judges,
                &panel.anchors,
                fs,
            ));
        }
    }
}

/// The whole `battery` text report.
#[must_use]
pub fn text(
    source: &str,
    panel: &Panel,
    families_source: Option<&Path>,
    r: &BatteryReport,
) -> String {
    let mut out = panel_text("battery", source, panel, families_source);
    let d = &r.decision;
    let _ = writeln!(
        out,
        "\nConfiguration (decision table, Section 6): {}",
        d.row.configuration
    );
    let _ = writeln!(
        out,
        "  {}",
        crate::battery::phrase::row_and_panel(&d.available, &r.reading, &panel.anchors)
    );
    let _ = writeln!(out, "  unguarded: {}", d.unguarded.join("; "));
    if let Some(why) = &d.refusal {
        let _ = writeln!(out, "\nEstimate: {why}.");
    }
    out.push_str(&super::reading::text(panel, r));
    let ctx = Context {
        clean: r.designated,
        ..Context::default()
    };
    for (e, why) in &r.refused {
        if *e == Estimator::FreeScale && d.refusal.is_none() {
            let _ = writeln!(out, "  free-scale estimate not available: {why}");
        }
    }
    fits_text(&mut out, panel, r, &ctx);
    out.push_str(&super::neff::text(&r.n_eff, &panel.judges));
    if let Some(w) = r.weak_id {
        out.push_str(&weak_id_text(&w, r.reading.evidence.weak_id));
    }
    let _ = writeln!(
        out,
        "\nDiagnostic battery ({}; {} draws, {})",
        r.null.note, r.null.draws, r.null.method
    );
    if let Some(note) = &r.null.free_scale {
        let _ = writeln!(out, "  {note}");
    }
    let rows: Vec<Vec<String>> = r
        .tests
        .values()
        .map(|t| {
            // Small statistics (a misfit of 2e-5) keep their digits in scientific notation.
            let stat = |x: f64| {
                if x != 0.0 && x.abs() < 1e-3 {
                    format!("{x:.3e}")
                } else {
                    fmt_num(x)
                }
            };
            let opt = |x: Option<f64>| x.map_or_else(|| "—".into(), stat);
            vec![
                format!("{} {}", t.test.name(), t.test.guards()),
                t.verdict.badge().into(),
                opt(t.statistic),
                match (t.threshold, t.threshold_mc_sd) {
                    (Some(th), Some(sd)) => format!("{} ± {} MC", stat(th), stat(sd)),
                    (th, _) => opt(th),
                },
                t.p_value
                    .map_or_else(|| "—".into(), crate::battery::phrase::p_value),
            ]
        })
        .collect();
    out.push_str(&table(
        &[
            "test",
            "verdict",
            "statistic",
            "threshold (95%, ± its Monte-Carlo SD)",
            "p-value",
        ],
        &rows,
    ));
    for t in r.tests.values() {
        let _ = writeln!(out, "  {}: {}", t.test.name(), t.message);
    }
    out.push_str(
        "\nBlind spots no test can see (Section 5): a uniformly loaded second factor (harmless for ρ, but σ_t² is inflated) and a panel-wide shared residual such as one prompt template (harmful: ρ̂ drifts toward a false \"clean\").\n",
    );
    out
}
