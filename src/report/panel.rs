//! The panel header every command prints first: source, roles, scales, loader notes.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use super::format::SCHEMA_VERSION;
use crate::location::sanitize;
use crate::panel::Panel;

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
    // No anchors: the count alone, with no trailing ": ".
    if panel.m() == 0 {
        let _ = writeln!(out, "anchors (0)");
    } else {
        let _ = writeln!(out, "anchors ({}): {}", panel.m(), panel.anchors.join(", "));
    }
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
