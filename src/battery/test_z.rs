//! A throwaway test, registered only in the crate's own tests; `crate::throwaway` watches it
//! reach every output that lists tests.

use super::types::{
    Diagnostic, Layout, NotApplicable, NullKind, OnOrdinal, Observation, Sample, Scales, Violation,
};

/// Runs on every panel.
#[allow(clippy::unnecessary_wraps)]
fn applicable(_: &Layout) -> Result<(), NotApplicable> {
    Ok(())
}

/// The judges' mean variance: cheap, and defined on every panel.
fn statistic(sample: &Sample<'_>, layout: &Layout) -> f64 {
    let variances: Vec<f64> = (0..layout.p).map(|j| sample.cov[(j, j)]).collect();
    crate::stats::mean(&variances)
}

/// Test Z's entry in the registry.
pub const SPEC: Diagnostic = Diagnostic {
    name: "Z",
    title: "a throwaway test",
    target: "nothing",
    unguarded: "nothing (a throwaway test)",
    uses_anchors: false,
    applicable,
    scales: Scales {
        ordinal_judges: OnOrdinal::Latent,
        ordinal_anchors: OnOrdinal::NotRead,
    },
    statistic,
    null: NullKind::SingleFactor,
    meaning: |r: &Observation<'_>| format!("Test Z {}.", if r.fires { "fired" } else { "passed" }),
    violation: Violation {
        name: "test-z",
        short: "no violation at all",
        describe: "the base design unchanged",
        three_anchors: false,
        inject: |_, _| {},
    },
};
