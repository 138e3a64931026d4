//! Turns core results into text tables and JSON, one file per command. Every command prints
//! through here, so the numbers a user sees and the numbers a script reads are the same
//! numbers. This file holds what the commands share: number and table formatting, the panel
//! header, and the text and JSON of one fit.

pub mod battery;
pub mod estimate;
pub mod family;
pub mod identify;
pub mod neff;
pub mod plan;
pub mod power;
pub mod reading;
pub mod reproduce;
pub mod validate;

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use crate::battery::RhoInterval;
use crate::bootstrap::{BootstrapResult, Interval};
use crate::estimate::Estimate;
use crate::location::sanitize;
use crate::panel::Panel;

/// JSON schema version of `estimate --json` (and of the objects later commands extend).
pub const SCHEMA_VERSION: u32 = 1;

/// A finite number, or JSON `null` (never NaN).
#[must_use]
pub fn num(x: f64) -> Value {
    if x.is_finite() { json!(x) } else { Value::Null }
}

pub use crate::stats::fmt_num;

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

#[must_use]
pub fn fmt_interval(i: Option<Interval>) -> String {
    i.map_or_else(
        || "[undefined]".into(),
        |i| format!("[{}, {}]", fmt_num(i.lo), fmt_num(i.hi)),
    )
}

#[must_use]
pub fn interval_json(i: Option<Interval>) -> Value {
    i.map_or(Value::Null, |i| json!([num(i.lo), num(i.hi)]))
}

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
            "ordinal columns ({}): their codes share no scale with the other columns (Section 7), so the estimators that need one common scale leave ρ̂ undefined (flags ordinal_codes, ordinal_anchor); with ordinal judges read the free-scale estimate (≥ 3 continuous anchors); with all columns ordinal ρ is not identified at all; {} marks a column whose codes are interval-scaled",
            ordinal.join(", "),
            crate::wording::Setting::Continuous.marked()
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
    let source = crate::wording::source_name(Path::new(source));
    let mut out = format!("rhoscope {command} — {}\n", sanitize(&source));
    let _ = writeln!(
        out,
        "items: {} used, {} dropped for missing values",
        panel.n, panel.n_dropped
    );
    let _ = writeln!(out, "judges ({}): {}", panel.p(), panel.judges.join(", "));
    let _ = writeln!(out, "anchors ({}): {}", panel.m(), panel.anchors.join(", "));
    if let Some(f) = &panel.families {
        let from = families_source
            .map(|p| format!(" (from {})", sanitize(&p.display().to_string())))
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

#[cfg(test)]
mod tests {

    #[test]
    fn huge_numbers_print_in_scientific_notation() {
        assert_eq!(fmt_num(1e100), "1.0000e100");
        assert_eq!(fmt_num(-2.5e7), "-2.5000e7");
        assert_eq!(fmt_num(0.12345), "0.1235");
        assert_eq!(fmt_num(f64::NAN), "undefined");
    }

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
