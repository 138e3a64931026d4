//! Test O, the free-scale over-identification test (docs/method.md §7): m anchors give m values q_k and
//! m(m−1)/2 anchor covariances for m + 2 unknowns (σ_t², σ_c², β), so at m ≥ 3 the joint
//! fit has m(m−1)/2 − 2 restrictions left over (one at m = 3). Its minimised misfit is
//! the statistic, weighted by the moments' own covariance (Browne's residual statistic,
//! [`residual`]): an anchor-side second factor or anchors that load unequally on what the
//! judges share leave a misfit the model cannot absorb.

use std::borrow::Cow;

use nalgebra::DMatrix;

use super::types::{
    Diagnostic, Layout, NotApplicable, NullKind, OnOrdinal, Observation, Sample, Scales, Violation,
};
use crate::estimate::free_scale::{MIN_ANCHORS, MIN_JUDGES, fit_with_judges};

pub mod residual;

/// Test O needs the free-scale estimator: ≥ 3 judges and ≥ 3 anchors (continuous: its
/// registry scales).
///
/// # Errors
/// Why it cannot run.
pub fn applicable(layout: &Layout) -> Result<(), NotApplicable> {
    if layout.p < MIN_JUDGES {
        Err(format!(
            "needs the free-scale fit: ≥ {MIN_JUDGES} judges (this panel has {})",
            layout.p
        )
        .into())
    } else if layout.m < MIN_ANCHORS {
        Err(format!(
            "needs the free-scale fit: ≥ {MIN_ANCHORS} continuous anchors for an over-identifying restriction (this panel has {})",
            layout.m
        ).into())
    } else {
        Ok(())
    }
}

/// Browne's residual statistic of the free-scale fit (docs/method.md §7), divided by N − 1, on the
/// sample's mixed correlations and the anchors' covariances: its null barely moves with the
/// parameters, so the plug-in null's threshold holds Test O's size where the unweighted misfit's
/// did not. A panel whose fit is [`crate::estimate::free_scale::untestable`] gets no null, so
/// Test O is N/A there.
#[must_use]
pub fn statistic(sample: &Sample<'_>, layout: &Layout) -> f64 {
    let (p, m) = (layout.p, layout.m);
    let r: Cow<'_, DMatrix<f64>> = sample.correlations();
    let r_judges = r.view((0, 0), (p, p)).into_owned();
    let r_ja = r.view((0, p), (p, m)).into_owned();
    let anchor_cov = sample.cov.view((p, p), (m, m)).into_owned();
    fit_with_judges(&r_judges, sample.judges.as_ref(), &r_ja, &anchor_cov)
        .ok()
        .and_then(|f| residual::browne(&r, &anchor_cov, p, &f))
        .unwrap_or(f64::NAN)
}

/// Test O's entry in the registry.
pub const SPEC: Diagnostic = Diagnostic {
    name: "O",
    title: "free-scale over-identification",
    target: "anchor-side violations the free-scale fit cannot absorb",
    unguarded: "anchor-side violations under free judge scales (no Test O without ≥ 3 continuous anchors)",
    uses_anchors: true,
    applicable,
    scales: Scales {
        ordinal_judges: OnOrdinal::Latent,
        ordinal_anchors: OnOrdinal::NotApplicable(
            "needs the free-scale fit, which needs every anchor continuous, and this panel has ordinal anchors",
        ),
    },
    statistic,
    null: NullKind::FreeScale,
    meaning,
    violation: Violation {
        name: "test-o",
        short: "test-b's second factor, seen by the free-scale fit",
        describe: "three-anchor design (p = 6, ρ = (0.3, 0.7, 0.5)) plus a second factor with anchor loadings h = (s, s/2, 0) and no judge loading (Test B's design)",
        three_anchors: true,
        inject: super::test_b::SPEC.violation.inject,
    },
};

/// What Test O's verdict means (docs/method.md §7).
fn meaning(r: &Observation<'_>) -> String {
    if r.fires {
        "No free-scale fit reproduces the anchors' covariances and their correlations with the judges: something loads on the anchors that the judges do not share in the same way (an anchor-side second factor). The free-scale ρ̂ is then biased in an unknown direction; do not use its point estimates.".into()
    } else {
        "The anchors agree with one free-scale fit. With 3 anchors this is a single restriction, so it has modest power; a violation that keeps the anchor covariances consistent passes unseen.".into()
    }
}
