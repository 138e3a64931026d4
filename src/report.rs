//! Turns core results into text tables and JSON. Every command prints through here, so the
//! numbers a user sees and the numbers a script reads are the same numbers.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use crate::battery::BatteryReport;
use crate::bootstrap::{BootstrapResult, Interval};
use crate::estimate::Estimate;
use crate::estimate::ml::MlFit;
use crate::panel::Panel;
use crate::power::{PowerCell, PowerDesign, PowerOptions};

/// JSON schema version of `estimate --json` (and of the objects later commands extend).
pub const SCHEMA_VERSION: u32 = 1;

/// Everything `rhoscope estimate` reports.
#[derive(Debug, Clone, Copy)]
pub struct EstimateReport<'a> {
    /// How the input is named in the report (the path as given).
    pub source: &'a str,
    pub panel: &'a Panel,
    pub families_source: Option<&'a Path>,
    pub estimate: &'a Estimate,
    pub blocked: Option<&'a Estimate>,
    /// The designated-clean anchor index and its estimate.
    pub clean: Option<(usize, &'a Estimate)>,
    /// The maximum-likelihood fit, with `--method ml|both`.
    pub ml: Option<&'a MlFit>,
    /// Whether the closed form is shown in text (JSON always carries it).
    pub closed: bool,
}

/// A finite number, or JSON `null` (never NaN).
#[must_use]
pub fn num(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

/// The `estimate` JSON object of one fit (the shape shared by `blocked` and
/// `designated_clean`).
#[must_use]
pub fn estimate_json(est: &Estimate, anchors: &[String]) -> Value {
    json!({
        "sigma_t2": num(est.sigma_t2),
        "sigma_c2": num(est.sigma_c2),
        "K": num(est.k),
        "denominator": num(est.denominator),
        "pairs": est.pairs.iter().map(|p| json!({
            "anchors": [anchors[p.anchors.0], anchors[p.anchors.1]],
            "sigma_t2": num(p.sigma_t2),
            "denominator": num(p.denominator),
        })).collect::<Vec<_>>(),
        "anchors": est.anchors.iter().zip(anchors).map(|(a, name)| json!({
            "name": name,
            "beta": num(a.beta),
            "sigma_a2": num(a.sigma_a2),
            "rho": a.rho.map_or(Value::Null, num),
        })).collect::<Vec<_>>(),
        "flags": est.flags.iter().map(|f| json!({
            "code": f.code.as_str(),
            "anchor": f.anchor.map(|i| anchors[i].clone()),
            "message": f.message(est, anchors),
        })).collect::<Vec<_>>(),
    })
}

/// Notes about the panel that are not fit flags (ordinal columns, dropped items).
#[must_use]
pub fn panel_notes(panel: &Panel) -> Vec<String> {
    let names = panel.names();
    let ordinal: Vec<&str> = names
        .iter()
        .zip(&panel.scales)
        .filter(|(_, s)| s.is_ordinal())
        .map(|(n, _)| n.as_str())
        .collect();
    let mut notes = Vec::new();
    if !ordinal.is_empty() {
        notes.push(format!(
            "ordinal columns ({}): the closed form treats their codes as numbers, which Section 7 finds erratic; with all columns ordinal ρ is not identified at all",
            ordinal.join(", ")
        ));
    }
    notes
}

fn columns_json(panel: &Panel) -> Value {
    let p = panel.p();
    let names = panel.names();
    let cols: Vec<Value> = names
        .iter()
        .enumerate()
        .map(|(c, name)| {
            let (scale, levels) = match &panel.scales[c] {
                crate::panel::Scale::Continuous => ("continuous", Value::Null),
                crate::panel::Scale::Ordinal { levels } => ("ordinal", json!(levels)),
            };
            json!({
                "name": name,
                "role": if c < p { "judge" } else { "anchor" },
                "scale": scale,
                "levels": levels,
                "missing": panel.missing[c],
                "family": panel.families.as_ref().and_then(|f| f.get(c)).cloned(),
            })
        })
        .collect();
    Value::Array(cols)
}

/// The panel part of every report: schema version, source, counts, names and columns.
#[must_use]
pub fn panel_json(source: &str, panel: &Panel, families_source: Option<&Path>) -> Value {
    json!({
        "schema_version": SCHEMA_VERSION,
        "source": source,
        "n_items": panel.n,
        "n_dropped": panel.n_dropped,
        "judges": panel.judges,
        "anchors": panel.anchors,
        "columns": columns_json(panel),
        "families_source": families_source.map(|p| p.display().to_string()),
        "notes": panel_notes(panel),
    })
}

/// The full `estimate --json` document (schema in the README).
#[must_use]
pub fn estimate_report_json(r: &EstimateReport<'_>) -> Value {
    let panel = r.panel;
    let mut doc = panel_json(r.source, panel, r.families_source);
    doc["estimate"] = estimate_json(r.estimate, &panel.anchors);
    if let Some(b) = r.blocked {
        doc["blocked"] = estimate_json(b, &panel.anchors);
    }
    if let Some((d, est)) = r.clean {
        let mut obj = estimate_json(est, &panel.anchors);
        obj["clean_anchor"] = json!(panel.anchors[d]);
        doc["designated_clean"] = obj;
    }
    if let Some(fit) = r.ml {
        doc["ml"] = ml_json(fit, &panel.anchors);
    }
    doc
}

/// The `ml` object: the estimate's shape plus convergence and standard errors.
#[must_use]
pub fn ml_json(fit: &MlFit, anchors: &[String]) -> Value {
    let mut obj = estimate_json(&fit.estimate, anchors);
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

fn interval_json(i: Option<Interval>) -> Value {
    i.map_or(Value::Null, |i| json!([num(i.lo), num(i.hi)]))
}

/// A fit's JSON with its bootstrap intervals: `ci` on each anchor, and `sigma_t2_ci`,
/// `sigma_c2_ci`.
#[must_use]
pub fn estimate_with_ci_json(est: &Estimate, boot: &BootstrapResult, anchors: &[String]) -> Value {
    let mut v = estimate_json(est, anchors);
    v["sigma_t2_ci"] = interval_json(boot.sigma_t2);
    v["sigma_c2_ci"] = interval_json(boot.sigma_c2);
    if let Some(list) = v["anchors"].as_array_mut() {
        for (k, a) in list.iter_mut().enumerate() {
            a["ci"] = interval_json(boot.rho[k]);
            a["dropped"] = json!(boot.dropped_per_anchor[k]);
        }
    }
    v
}

fn bootstrap_json(b: &BootstrapResult) -> Value {
    json!({"resamples": b.resamples, "dropped": b.dropped, "seed": b.seed})
}

/// The `battery --json` document (schema in the README).
#[must_use]
pub fn battery_report_json(
    source: &str,
    panel: &Panel,
    families_source: Option<&Path>,
    r: &BatteryReport,
) -> Value {
    let anchors = &panel.anchors;
    let mut doc = panel_json(source, panel, families_source);
    doc["estimate"] = match (&r.estimate, &r.boot) {
        (Some(e), Some(b)) => estimate_with_ci_json(e, b, anchors),
        _ => Value::Null,
    };
    if let Some((e, b)) = &r.blocked {
        doc["blocked"] = estimate_with_ci_json(e, b, anchors);
    }
    doc["weak_id"] = r.weak_id.map_or(Value::Null, |w| {
        json!({"T": num(w.t), "flag": w.flag, "denominator": num(w.denominator), "sd_boot": num(w.sd_boot)})
    });
    doc["bootstrap"] = r.boot.as_ref().map_or(Value::Null, bootstrap_json);
    let mut tests = serde_json::Map::new();
    for t in &r.tests {
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
    doc
}

fn rate_se(rate: f64, reps: usize) -> f64 {
    (rate * (1.0 - rate) / reps as f64).sqrt()
}

/// The `power --json` document.
#[must_use]
pub fn power_json(design: PowerDesign, opts: &PowerOptions, cells: &[PowerCell]) -> Value {
    let target = design.target();
    json!({
        "schema_version": SCHEMA_VERSION,
        "design": design.name(),
        "description": design.describe(),
        "target_test": target.name(),
        "reps": opts.reps,
        "null_draws": opts.null_draws,
        "seed": opts.seed,
        "cells": cells.iter().map(|c| {
            let rate = c.rates[target as usize];
            json!({
                "n": c.n,
                "strength": c.strength,
                "rate": rate,
                "mc_se": rate.map(|r| rate_se(r, opts.reps)),
                "rates": {"A": c.rates[0], "B": c.rates[1], "C": c.rates[2]},
                "coverage": c.coverage,
                "width": c.width,
            })
        }).collect::<Vec<_>>(),
    })
}

/// The `power` text table: one row per N, the false-positive rate then power per strength.
#[must_use]
pub fn power_text(design: PowerDesign, opts: &PowerOptions, cells: &[PowerCell]) -> String {
    let target = design.target();
    let mut out = format!(
        "rhoscope power — Test {} on design {}: {}\n",
        target.name(),
        design.name(),
        design.describe()
    );
    let worst = (0.25 / opts.reps as f64).sqrt();
    let _ = writeln!(
        out,
        "{} replicates per cell (Monte-Carlo SE of a rate ≤ {worst:.3}); thresholds from {} null draws per N (scenario null, seed {})\n",
        opts.reps, opts.null_draws, opts.seed
    );
    let mut header = vec!["N".to_string(), "FP (s = 0)".to_string()];
    header.extend(opts.strengths.iter().map(|s| format!("power s = {s}")));
    let per_n = opts.strengths.len() + 1;
    let fmt_rate = |r: Option<f64>| r.map_or_else(|| "n/a".into(), |r| format!("{r:.3}"));
    let rows: Vec<Vec<String>> = cells
        .chunks(per_n)
        .map(|chunk| {
            let mut row = vec![chunk[0].n.to_string()];
            row.extend(chunk.iter().map(|c| fmt_rate(c.rates[target as usize])));
            row
        })
        .collect();
    let hdr: Vec<&str> = header.iter().map(String::as_str).collect();
    out.push_str(&table(&hdr, &rows));
    if opts.coverage.is_some() {
        out.push_str("\nBootstrap 95% CI coverage of each ρ_k (mean width):\n");
        let rows: Vec<Vec<String>> = cells
            .iter()
            .map(|c| {
                let mut row = vec![c.n.to_string(), c.strength.to_string()];
                row.extend(
                    c.coverage
                        .iter()
                        .zip(&c.width)
                        .map(|(cv, w)| match (cv, w) {
                            (Some(cv), Some(w)) => format!("{cv:.3} ({w:.3})"),
                            _ => "undefined".into(),
                        }),
                );
                row
            })
            .collect();
        let m = cells.first().map_or(0, |c| c.coverage.len());
        let mut h = vec!["N".to_string(), "s".to_string()];
        h.extend((1..=m).map(|k| format!("ρ_{k}")));
        let h: Vec<&str> = h.iter().map(String::as_str).collect();
        out.push_str(&table(&h, &rows));
    }
    out
}

fn verdict_counts(tables: &[crate::reproduce::Table]) -> (usize, usize) {
    let cells = tables.iter().flat_map(|t| &t.cells);
    let total = cells.clone().count();
    let within = cells
        .filter(|c| c.verdict == crate::reproduce::Verdict::Within)
        .count();
    (within, total)
}

fn run_kind(quick: bool) -> &'static str {
    if quick {
        "quick run (fewer replicates; each table's design says how many)"
    } else {
        "full run"
    }
}

/// The `reproduce --json` document (and results.json).
#[must_use]
pub fn reproduce_json(tables: &[crate::reproduce::Table], quick: bool, seconds: f64) -> Value {
    let (within, total) = verdict_counts(tables);
    json!({
        "schema_version": SCHEMA_VERSION,
        "quick": quick,
        "seconds": seconds,
        "summary": {"cells": total, "within": within, "outside": total - within},
        "tables": tables.iter().map(|t| json!({
            "name": t.name,
            "title": t.title,
            "design": t.design,
            "seconds": t.seconds,
            "cells": t.cells.iter().map(|c| json!({
                "label": c.label,
                "paper": num(c.paper),
                "ours": num(c.ours),
                "mc_se": num(c.mc_se),
                "paper_se": c.paper_se.map_or(Value::Null, num),
                "verdict": c.verdict.as_str(),
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

fn cell_row(c: &crate::reproduce::Cell) -> Vec<String> {
    vec![
        c.label.clone(),
        format!("{:.3}", c.paper),
        fmt_num(c.ours),
        fmt_num(c.mc_se),
        c.paper_se.map_or_else(|| "—".into(), fmt_num),
        c.verdict.as_str().into(),
    ]
}

const REPRO_HEADER: [&str; 6] = ["cell", "paper", "ours", "MC SE", "paper SE", "verdict"];

/// The `reproduce` text report.
#[must_use]
pub fn reproduce_text(tables: &[crate::reproduce::Table], quick: bool, seconds: f64) -> String {
    let mut out = format!(
        "rhoscope reproduce — {} in {seconds:.1} s\n",
        run_kind(quick)
    );
    for t in tables {
        let _ = writeln!(out, "\n== {}: {} [{:.1} s]", t.name, t.title, t.seconds);
        let _ = writeln!(out, "design: {}", t.design);
        let rows: Vec<Vec<String>> = t.cells.iter().map(cell_row).collect();
        out.push_str(&table(&REPRO_HEADER, &rows));
    }
    let (within, total) = verdict_counts(tables);
    let _ = writeln!(
        out,
        "\n{within} of {total} cells within 3 SE (plus half a unit of the paper's last digit); {} outside.",
        total - within
    );
    out
}

/// report.md: the same tables in Markdown.
#[must_use]
pub fn reproduce_markdown(tables: &[crate::reproduce::Table], quick: bool, seconds: f64) -> String {
    let (within, total) = verdict_counts(tables);
    let mut out = format!(
        "# Reproducing the paper\n\n{} in {seconds:.1} s. {within} of {total} cells within 3 SE (plus half a unit of the paper's last printed digit).\n",
        run_kind(quick)
    );
    for t in tables {
        let _ = writeln!(out, "\n## {} — {}\n\n{}\n", t.name, t.title, t.design);
        let _ = writeln!(out, "| {} |", REPRO_HEADER.join(" | "));
        let _ = writeln!(out, "|{}", "---|".repeat(REPRO_HEADER.len()));
        for c in &t.cells {
            let _ = writeln!(out, "| {} |", cell_row(c).join(" | "));
        }
    }
    out
}

/// Fixed-width number for tables; `undefined` for non-finite values.
#[must_use]
pub fn fmt_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.4}")
    } else {
        "undefined".into()
    }
}

/// Left-aligned text table with a header row and two-space gaps.
#[must_use]
pub fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let ncol = header.len();
    let mut width: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in width.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |cells: Vec<&str>, out: &mut String| {
        let mut s = String::from("  ");
        for (i, c) in cells.iter().enumerate() {
            s.push_str(c);
            if i + 1 < ncol {
                s.push_str(&" ".repeat(width[i] - c.chars().count() + 2));
            }
        }
        out.push_str(s.trim_end());
        out.push('\n');
    };
    line(header.to_vec(), &mut out);
    for row in rows {
        line(row.iter().map(String::as_str).collect(), &mut out);
    }
    out
}

fn fmt_interval(i: Option<Interval>) -> String {
    i.map_or_else(
        || "[undefined]".into(),
        |i| format!("[{}, {}]", fmt_num(i.lo), fmt_num(i.hi)),
    )
}

/// The text block of one fit, with bootstrap intervals when `boot` is given.
#[must_use]
pub fn estimate_text(
    title: &str,
    est: &Estimate,
    boot: Option<&BootstrapResult>,
    anchors: &[String],
) -> String {
    let mut out = format!("{title}\n");
    match boot {
        Some(b) => {
            let _ = writeln!(
                out,
                "  K = {}   σ_t² = {} {}   σ_c² = {} {}   denominator = {}",
                fmt_num(est.k),
                fmt_num(est.sigma_t2),
                fmt_interval(b.sigma_t2),
                fmt_num(est.sigma_c2),
                fmt_interval(b.sigma_c2),
                fmt_num(est.denominator)
            );
        }
        None => {
            let _ = writeln!(
                out,
                "  K = {}   σ_t² = {}   σ_c² = {}   denominator = {}",
                fmt_num(est.k),
                fmt_num(est.sigma_t2),
                fmt_num(est.sigma_c2),
                fmt_num(est.denominator)
            );
        }
    }
    if !est.pairs.is_empty() {
        let rows: Vec<Vec<String>> = est
            .pairs
            .iter()
            .map(|p| {
                vec![
                    format!("{} – {}", anchors[p.anchors.0], anchors[p.anchors.1]),
                    fmt_num(p.sigma_t2),
                    fmt_num(p.denominator),
                ]
            })
            .collect();
        out.push_str(&table(&["anchor pair", "σ_t²", "denominator"], &rows));
    }
    let rows: Vec<Vec<String>> = est
        .anchors
        .iter()
        .zip(anchors)
        .enumerate()
        .map(|(k, (a, name))| {
            let mut row = vec![
                name.clone(),
                fmt_num(a.beta),
                fmt_num(a.sigma_a2),
                a.rho
                    .map_or_else(|| "undefined (see flags)".into(), fmt_num),
            ];
            if let Some(b) = boot {
                row.push(fmt_interval(b.rho[k]));
                row.push(b.dropped_per_anchor[k].to_string());
            }
            row
        })
        .collect();
    if boot.is_some() {
        out.push_str(&table(
            &["anchor", "β", "σ_a²", "ρ", "95% CI", "dropped"],
            &rows,
        ));
    } else {
        out.push_str(&table(&["anchor", "β", "σ_a²", "ρ"], &rows));
    }
    if est.flags.is_empty() {
        out.push_str("  flags: none\n");
    } else {
        for f in &est.flags {
            let _ = writeln!(
                out,
                "  FLAG {}: {}",
                f.code.as_str(),
                f.message(est, anchors)
            );
        }
    }
    out
}

/// The whole `battery` text report.
#[must_use]
pub fn battery_report_text(
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
    if let (Some(est), Some(boot)) = (&r.estimate, &r.boot) {
        out.push('\n');
        out.push_str(&estimate_text(
            &format!(
                "Estimate (closed form, Theorem 1; 95% percentile bootstrap CIs, B = {}, seed {}, {} resamples dropped)",
                boot.resamples, boot.seed, boot.dropped
            ),
            est,
            Some(boot),
            anchors,
        ));
    }
    if let Some((est, boot)) = &r.blocked {
        out.push('\n');
        out.push_str(&estimate_text(
            "Family-blocked estimate (Section 5; K from cross-family judge pairs only)",
            est,
            Some(boot),
            anchors,
        ));
    }
    if let Some(w) = r.weak_id {
        let _ = writeln!(
            out,
            "\nWeak-identification screen: T = |den| / SD_boot(den) = {} / {} = {} → {}",
            fmt_num(w.denominator.abs()),
            fmt_num(w.sd_boot),
            fmt_num(w.t),
            if w.flag {
                "FLAGGED (T < 4): the data carry little information about σ_t²; report every ρ as its interval only"
            } else {
                "ok (T ≥ 4)"
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
        .iter()
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
    for t in &r.tests {
        let _ = writeln!(out, "  {}: {}", t.test.name(), t.message);
    }
    out.push_str(
        "\nBlind spots no test can see (Section 5): a uniformly loaded second factor (harmless for ρ, but σ_t² is inflated) and a panel-wide shared residual such as one prompt template (harmful: ρ̂ drifts toward a false \"clean\").\n",
    );
    out
}

/// Columns grouped by detected scale: `continuous: J1, J2; ordinal (5 levels: 1..5): A1`.
#[must_use]
pub fn scales_summary(panel: &Panel) -> String {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (name, scale) in panel.names().into_iter().zip(&panel.scales) {
        let d = scale.describe();
        match groups.iter_mut().find(|(g, _)| *g == d) {
            Some((_, names)) => names.push(name),
            None => groups.push((d, vec![name])),
        }
    }
    if groups.len() == 1 {
        return format!("all {}", groups[0].0);
    }
    groups
        .iter()
        .map(|(d, names)| format!("{d}: {}", names.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The panel header of every text report: source, items, roles, families, scales, notes.
#[must_use]
pub fn panel_text(
    command: &str,
    source: &str,
    panel: &Panel,
    families_source: Option<&Path>,
) -> String {
    let mut out = format!("rhoscope {command} — {source}\n");
    let _ = writeln!(
        out,
        "items: {} used, {} dropped for missing values",
        panel.n, panel.n_dropped
    );
    let _ = writeln!(out, "judges ({}): {}", panel.p(), panel.judges.join(", "));
    let _ = writeln!(out, "anchors ({}): {}", panel.m(), panel.anchors.join(", "));
    if let Some(f) = &panel.families {
        let from = families_source
            .map(|p| format!(" (from {})", p.display()))
            .unwrap_or_default();
        let pairs: Vec<String> = panel
            .judges
            .iter()
            .zip(f)
            .map(|(j, fam)| format!("{j}={fam}"))
            .collect();
        let _ = writeln!(out, "families{from}: {}", pairs.join(", "));
    }
    let _ = writeln!(out, "scales: {}", scales_summary(panel));
    for note in panel_notes(panel) {
        let _ = writeln!(out, "note: {note}");
    }
    out
}

/// The whole `estimate` text report.
#[must_use]
pub fn estimate_report_text(r: &EstimateReport<'_>) -> String {
    let panel = r.panel;
    let mut out = panel_text("estimate", r.source, panel, r.families_source);
    if r.closed {
        out.push('\n');
        out.push_str(&estimate_text(
            "Closed form (Theorem 1; K = mean of all judge-pair covariances)",
            r.estimate,
            None,
            &panel.anchors,
        ));
    }
    if let Some(fit) = r.ml {
        out.push('\n');
        out.push_str(&estimate_text(
            &format!(
                "Maximum likelihood ({}, {} iterations from the {} start; K = implied σ_t² + σ_c²)",
                if fit.converged {
                    "converged"
                } else {
                    "NOT converged"
                },
                fit.iterations,
                fit.start
            ),
            &fit.estimate,
            None,
            &panel.anchors,
        ));
        let se: Vec<String> = panel
            .anchors
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
    if let Some(b) = r.blocked {
        out.push('\n');
        out.push_str(&estimate_text(
            "Family-blocked (Section 5; K from cross-family judge pairs only)",
            b,
            None,
            &panel.anchors,
        ));
    }
    if let Some((d, est)) = r.clean {
        out.push('\n');
        out.push_str(&estimate_text(
            &format!(
                "Designated clean anchor {} (CT-C(M−1)-style comparison; σ_t² = M_d, ρ_d fixed at 0 by assumption)",
                panel.anchors[d]
            ),
            est,
            None,
            &panel.anchors,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_finite_numbers_become_null() {
        assert_eq!(num(f64::NAN), Value::Null);
        assert_eq!(num(f64::INFINITY), Value::Null);
        assert_eq!(num(0.5), json!(0.5));
    }

    #[test]
    fn table_aligns_columns() {
        let t = table(&["a", "bb"], &[vec!["xxx".into(), "y".into()]]);
        assert_eq!(t, "  a    bb\n  xxx  y\n");
    }
}
