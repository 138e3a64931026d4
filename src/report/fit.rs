//! The text and JSON of one fit, with its bootstrap intervals when it has them.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::format::{fmt_interval, fmt_num, interval_json, num, table};
use crate::battery::RhoInterval;
use crate::bootstrap::BootstrapResult;
use crate::estimate::Estimate;

/// The `estimate` JSON object of one fit (the shape shared by `blocked` and
/// `designated_clean`).
#[must_use]
pub fn estimate_json(est: &Estimate, anchors: &[String], judges: &[String]) -> Value {
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
            "anchor": f.anchor.and_then(|i| anchors.get(i).cloned()),
            "message": f.message(est, anchors, judges),
        })).collect::<Vec<_>>(),
    })
}

/// A fit's JSON with its bootstrap intervals: `ci` on each anchor, and `sigma_t2_ci`,
/// `sigma_c2_ci`.
#[must_use]
pub fn estimate_with_ci_json(
    est: &Estimate,
    boot: &BootstrapResult,
    (anchors, judges): (&[String], &[String]),
) -> Value {
    let mut v = estimate_json(est, anchors, judges);
    v["sigma_t2_ci"] = interval_json(boot.sigma_t2);
    v["sigma_c2_ci"] = interval_json(boot.sigma_c2);
    if let Some(list) = v["anchors"].as_array_mut() {
        for (k, a) in list.iter_mut().enumerate() {
            let rho = est.anchors.get(k).and_then(|x| x.rho);
            a["ci"] = interval_json(RhoInterval::of(rho, boot, k).interval());
            a["dropped"] = json!(boot.dropped_per_anchor[k]);
            a["admissible"] = json!(boot.resamples - boot.dropped_per_anchor[k]);
        }
    }
    v
}

/// The anchor-pair table (when the fit has pairs) and the per-anchor table, with the
/// bootstrap's intervals and dropped resamples when `boot` is given.
fn estimate_tables(est: &Estimate, boot: Option<&BootstrapResult>, anchors: &[String]) -> String {
    let mut out = String::new();
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
                match a.rho {
                    _ if a.assumed => "0 (assumed)".into(),
                    Some(r) => fmt_num(r),
                    None => "undefined (see flags)".into(),
                },
            ];
            if let Some(b) = boot {
                row.push(match RhoInterval::of(a.rho, b, k) {
                    // An assumption has no sampling interval (trial 45 finding 9).
                    _ if a.assumed => "none: assumed".into(),
                    RhoInterval::Shown { interval, .. } => fmt_interval(Some(interval)),
                    RhoInterval::PointUndefined => "none: ρ̂ undefined".into(),
                    RhoInterval::TooFewAdmissible {
                        admissible,
                        resamples,
                    } => format!("undefined ({admissible} of {resamples} admissible)"),
                });
                row.push(b.dropped_per_anchor[k].to_string());
            }
            row
        })
        .collect();
    if let Some(b) = boot {
        out.push_str(&table(
            &["anchor", "β", "σ_a²", "ρ", "95% CI", "dropped"],
            &rows,
        ));
        for (k, (a, name)) in est.anchors.iter().zip(anchors).enumerate() {
            if let RhoInterval::Shown {
                past_unit: true, ..
            } = RhoInterval::of(a.rho, b, k)
            {
                let _ = writeln!(out, "  note: {name}'s interval {}.", RhoInterval::PAST_UNIT);
            }
        }
    } else {
        out.push_str(&table(&["anchor", "β", "σ_a²", "ρ"], &rows));
    }
    out
}

/// The text block of one fit, with bootstrap intervals when `boot` is given.
#[must_use]
pub fn estimate_text(
    title: &str,
    est: &Estimate,
    boot: Option<&BootstrapResult>,
    (anchors, judges): (&[String], &[String]),
) -> String {
    let mut out = format!("{title}\n");
    let failed = est
        .flags
        .iter()
        .find(|f| crate::estimate::latent::fails(f.code))
        .filter(|_| est.sigma_t2.is_nan());
    if let Some(f) = failed {
        // A failed latent fit: no σ_t² and no interval to print, only why.
        let _ = writeln!(
            out,
            "  K = {}   σ_t², σ_c², β and σ_a² undefined, because the fit failed (flag {}, below)",
            fmt_num(est.k),
            f.code.as_str()
        );
    }
    match boot {
        _ if failed.is_some() => {}
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
    out.push_str(&estimate_tables(est, boot, anchors));
    if est.flags.is_empty() {
        out.push_str("  flags: none\n");
    } else {
        for f in &est.flags {
            let _ = writeln!(
                out,
                "  FLAG {}: {}",
                f.code.as_str(),
                f.message(est, anchors, judges)
            );
        }
    }
    out
}
