//! The `battery` report: configuration, estimates with intervals, the weak-identification
//! screen and every registered test, in text or JSON.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::{estimate_text, estimate_with_ci_json, fmt_num, num, panel_json, panel_text, table};
use crate::battery::BatteryReport;
use crate::bootstrap::{BootstrapResult, WEAK_ID_T};
use crate::estimate::Context;
use crate::panel::Panel;

fn bootstrap_json(b: &BootstrapResult) -> Value {
    json!({"resamples": b.resamples, "dropped": b.dropped, "seed": b.seed})
}

/// The `battery --json` document (schema in the README).
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
        doc[f.estimator.key()] = estimate_with_ci_json(&f.estimate, &f.boot, anchors);
    }
    doc["weak_id"] = r.weak_id.map_or(Value::Null, |w| {
        json!({"T": num(w.t), "flag": w.flag, "denominator": num(w.denominator), "sd_boot": num(w.sd_boot)})
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
    });
    doc["n_eff"] = super::neff::json(&r.n_eff, &panel.judges);
    doc
}

/// The whole `battery` text report.
#[must_use]
pub fn text(
    source: &str,
    panel: &Panel,
    families_source: Option<&Path>,
    r: &BatteryReport,
) -> String {
    let anchors = &panel.anchors;
    let mut out = panel_text("battery", source, panel, families_source);
    let d = &r.decision;
    let _ = writeln!(
        out,
        "\nConfiguration (decision table, Section 6): {}",
        d.row.configuration
    );
    let _ = writeln!(out, "  available: {}", d.available.join("; "));
    let _ = writeln!(out, "  unguarded: {}", d.unguarded.join("; "));
    if let Some(why) = &d.refusal {
        let _ = writeln!(out, "\nEstimate: {why}.");
    }
    let ctx = Context::default();
    for f in &r.fits {
        out.push('\n');
        out.push_str(&estimate_text(
            &format!(
                "{} ({}; 95% percentile bootstrap CIs, B = {}, seed {}, {} resamples dropped)",
                f.estimator.title(&ctx, anchors),
                f.estimator.basis(),
                f.boot.resamples,
                f.boot.seed,
                f.boot.dropped
            ),
            &f.estimate,
            Some(&f.boot),
            anchors,
        ));
    }
    out.push_str(&super::neff::text(&r.n_eff, &panel.judges));
    if let Some(w) = r.weak_id {
        let _ = writeln!(
            out,
            "\nWeak-identification screen: T = |den| / SD_boot(den) = {} / {} = {} → {}",
            fmt_num(w.denominator.abs()),
            fmt_num(w.sd_boot),
            fmt_num(w.t),
            if w.flag {
                format!(
                    "FLAGGED (T < {WEAK_ID_T}): the data carry little information about σ_t²; report every ρ as its interval only"
                )
            } else {
                format!("ok (T ≥ {WEAK_ID_T})")
            }
        );
    }
    let _ = writeln!(
        out,
        "\nDiagnostic battery ({}; {} draws, {})",
        r.null.note, r.null.draws, r.null.method
    );
    let rows: Vec<Vec<String>> = r
        .tests
        .values()
        .map(|t| {
            let opt = |x: Option<f64>| x.map_or_else(|| "—".into(), fmt_num);
            vec![
                format!("{} {}", t.test.name(), t.test.guards()),
                t.verdict.badge().into(),
                opt(t.statistic),
                opt(t.threshold),
                t.p_value.map_or_else(|| "—".into(), |p| format!("{p:.4}")),
            ]
        })
        .collect();
    out.push_str(&table(
        &["test", "verdict", "statistic", "threshold (95%)", "p-value"],
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
