//! The `plan` report: the smallest N that reaches a target, and every N the search tried.

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::format::{SCHEMA_VERSION, table};
use crate::plan::{Plan, PlanOptions, Target};

/// What the target's quantity is, for headings.
fn quantity(t: Target) -> String {
    match t {
        Target::CiWidth(_) => "widest mean 95% CI of ρ_k".into(),
        Target::Power { test, strength, .. } => {
            format!("power of Test {} at strength {strength}", test.name())
        }
    }
}

/// The `plan --json` document.
#[must_use]
pub fn json(scenario: &str, plan: &Plan, opts: &PlanOptions) -> Value {
    json!({
        "schema_version": SCHEMA_VERSION,
        "scenario": scenario,
        "target": plan.target.describe(),
        "quantity": quantity(plan.target),
        "n": plan.n,
        "reps": opts.reps,
        "null_draws": opts.null_draws,
        "resamples": opts.resamples,
        "seed": opts.seed,
        "max_n": opts.max_n,
        "evaluations": plan.evaluations.iter().map(|e| json!({
            "n": e.n,
            "value": e.value.map_or(Value::Null, super::format::num),
            "mc_se": super::format::num(e.mc_se),
            "reached": e.reached,
        })).collect::<Vec<_>>(),
    })
}

/// The `plan` text report.
#[must_use]
pub fn text(scenario: &str, plan: &Plan, opts: &PlanOptions) -> String {
    let mut out = format!(
        "rhoscope plan — {scenario}\ntarget: {} ({}); {} replicates per N, seed {}\n\n",
        plan.target.describe(),
        quantity(plan.target),
        opts.reps,
        opts.seed
    );
    let _ = match plan.n {
        Some(n) => writeln!(
            out,
            "N = {n} items reach the target (to within 5 % of N).\n"
        ),
        None => writeln!(
            out,
            "Not reached by N = {} ({}): the target needs more items than searched, or is out of reach for this design.\n",
            opts.max_n,
            crate::wording::RunSetting::MaxN.marked()
        ),
    };
    let mut tried = plan.evaluations.clone();
    tried.sort_by_key(|e| e.n);
    let rows: Vec<Vec<String>> = tried
        .iter()
        .map(|e| {
            vec![
                e.n.to_string(),
                e.value
                    .map_or_else(|| "undefined".into(), |v| format!("{v:.3}")),
                if e.mc_se.is_finite() {
                    format!("{:.3}", e.mc_se)
                } else {
                    "undefined".into()
                },
                if e.reached { "yes" } else { "no" }.into(),
            ]
        })
        .collect();
    out.push_str(&table(&["N", "value", "MC SE", "reached"], &rows));
    out.push_str("\nEvery N uses the same replicate streams, so neighbouring rows differ by N, not by luck; a value within 2 MC SE of the target could fall either side on other seeds.\n");
    out
}
