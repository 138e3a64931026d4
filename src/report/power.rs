//! The `power` report: false-positive rates, power and CI coverage per (N, strength) cell.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::format::{SCHEMA_VERSION, table};
use crate::power::{PowerCell, PowerDesign, PowerOptions};

fn rate_se(rate: f64, reps: usize) -> f64 {
    (rate * (1.0 - rate) / reps as f64).sqrt()
}

/// The `power --json` document.
#[must_use]
pub fn json(design: PowerDesign, opts: &PowerOptions, cells: &[PowerCell]) -> Value {
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
            let rate = c.rates[target];
            json!({
                "n": c.n,
                "strength": c.strength,
                "rate": rate,
                "mc_se": rate.map(|r| rate_se(r, opts.reps)),
                "rates": c.rates.iter().map(|(t, r)| (t.name().to_string(), json!(r))).collect::<serde_json::Map<_, _>>(),
                "coverage": c.coverage,
                "width": c.width,
            })
        }).collect::<Vec<_>>(),
    })
}

/// The `power` text table: one row per N, the false-positive rate then power per strength.
#[must_use]
pub fn text(design: PowerDesign, opts: &PowerOptions, cells: &[PowerCell]) -> String {
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
            row.extend(chunk.iter().map(|c| fmt_rate(c.rates[target])));
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

/// Every running test's firing rate per (N, strength) (the false-positive rate at s = 0): what
/// `power --ordinal` adds, since on Likert judges the tests that run differ from the design's.
#[must_use]
pub fn all_tests_text(cells: &[PowerCell]) -> String {
    let mut out = String::from(
        "\nEvery test that runs (rate of firing; s = 0 is the false-positive rate):\n",
    );
    let running: Vec<crate::battery::TestId> = crate::battery::TestId::ALL
        .into_iter()
        .filter(|t| cells.iter().any(|c| c.rates[*t].is_some()))
        .collect();
    let mut header = vec!["N".to_string(), "s".to_string()];
    header.extend(running.iter().map(|t| format!("Test {}", t.name())));
    let rows: Vec<Vec<String>> = cells
        .iter()
        .map(|c| {
            let mut row = vec![c.n.to_string(), c.strength.to_string()];
            row.extend(
                running
                    .iter()
                    .map(|t| c.rates[*t].map_or_else(|| "n/a".into(), |r| format!("{r:.3}"))),
            );
            row
        })
        .collect();
    let hdr: Vec<&str> = header.iter().map(String::as_str).collect();
    out.push_str(&table(&hdr, &rows));
    let na: Vec<&str> = crate::battery::TestId::ALL
        .into_iter()
        .filter(|t| !running.contains(t))
        .map(crate::battery::TestId::name)
        .collect();
    if !na.is_empty() {
        let _ = writeln!(out, "N/A on this design: Test {}", na.join(", Test "));
    }
    out
}

/// The line that says how `power --ordinal` observes the judges.
#[must_use]
pub fn ordinal_line(levels: u32, skewed: bool) -> String {
    let marginals = if skewed {
        "each judge its own skewed marginals, one category at 1.5 %"
    } else {
        "equal-probability cuts"
    };
    format!("Judges observed on {levels} ordinal levels ({marginals}).\n")
}
