//! The `reproduce` report: each table of the paper beside our numbers, in text, Markdown or
//! JSON.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::format::{SCHEMA_VERSION, fmt_num, num, table};

fn verdict_counts(tables: &[crate::reproduce::Table]) -> (usize, usize) {
    let cells = tables.iter().flat_map(|t| &t.cells);
    // Cells with no published number are shown but not counted.
    let judged = cells.filter(|c| c.verdict != crate::reproduce::Verdict::Unpublished);
    let total = judged.clone().count();
    let within = judged
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
pub fn json(tables: &[crate::reproduce::Table], quick: bool, seconds: f64) -> Value {
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
        if c.paper.is_finite() {
            format!("{:.3}", c.paper)
        } else {
            "—".into()
        },
        fmt_num(c.ours),
        fmt_num(c.mc_se),
        c.paper_se.map_or_else(|| "—".into(), fmt_num),
        c.verdict.as_str().into(),
    ]
}

const REPRO_HEADER: [&str; 6] = ["cell", "paper", "ours", "MC SE", "paper SE", "verdict"];

/// The `reproduce` text report.
#[must_use]
pub fn text(tables: &[crate::reproduce::Table], quick: bool, seconds: f64) -> String {
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
pub fn markdown(tables: &[crate::reproduce::Table], quick: bool, seconds: f64) -> String {
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
