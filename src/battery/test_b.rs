//! Test B, over-identification (Section 5): with m ≥ 3 anchors every anchor pair estimates
//! σ_t² separately, and under Assumption 1 they agree; non-uniform anchor loadings on a
//! second factor make them disagree. It fires where Test A is blind.

use nalgebra::DMatrix;

use super::types::{
    Diagnostic, Layout, NotApplicable, NullKind, OnOrdinal, Observation, Scales, Violation,
};
use crate::estimate::pair_estimate;
use crate::model::Params;
use crate::moments::{JudgePairs, Moments};
use crate::stats::mean_sd_pop;

/// Test B needs at least 3 anchors (and the 2 judges that any fit needs).
///
/// # Errors
/// Why it cannot run.
pub fn applicable(layout: &Layout) -> Result<(), NotApplicable> {
    if layout.m >= 3 && layout.p >= 2 {
        Ok(())
    } else {
        Err(match layout.m {
            0 | 1 => format!(
                "needs ≥ 3 anchors (this panel has {}: no anchor pair to compare)",
                layout.m
            ),
            2 => "needs ≥ 3 anchors (over-identification: with 2 there is one anchor pair)".into(),
            _ => "needs ≥ 2 judges".into(),
        }
        .into())
    }
}

/// SD (divisor n) of the per-pair σ̂_t² values that are defined (docs/method.md §3).
#[must_use]
pub fn statistic(s: &DMatrix<f64>, layout: &Layout) -> f64 {
    let Some(mom) = Moments::from_cov(s, layout.p, JudgePairs::All) else {
        return f64::NAN;
    };
    let mut values = Vec::with_capacity(layout.m * (layout.m - 1) / 2);
    for k in 0..layout.m {
        for l in k + 1..layout.m {
            let t = pair_estimate(&mom, k, l).sigma_t2;
            if t.is_finite() {
                values.push(t);
            }
        }
    }
    if values.len() < 2 {
        return f64::NAN;
    }
    mean_sd_pop(&values).1
}

/// Test B's entry in the registry.
pub const SPEC: Diagnostic = Diagnostic {
    name: "B",
    title: "over-identification",
    target: "non-uniform anchor loadings",
    unguarded: "anchor-side violations: non-uniform anchor loadings (no Test B with < 3 anchors)",
    uses_anchors: true,
    applicable,
    scales: Scales {
        ordinal_judges: OnOrdinal::NotApplicable(
            "Test B reads the closed form, which is not the estimator for Likert judges (their scales are not observed); Test O asks its question on the free-scale fit",
        ),
        ordinal_anchors: OnOrdinal::NotApplicable(
            "Test B reads the closed form's anchor moments, which have no scale on ordinal anchors (Section 7); it needs continuous anchor scores and, on them, a closed form in range",
        ),
    },
    statistic: |x, l| statistic(x.cov, l),
    null: NullKind::SingleFactor,
    meaning,
    violation: Violation {
        name: "test-b",
        short: "a second factor on three anchors with loadings (s, s/2, 0)",
        describe: "three-anchor design (p = 6, ρ = (0.3, 0.7, 0.5)) plus a second factor with anchor loadings h = (s, s/2, 0) and no judge loading",
        three_anchors: true,
        inject,
    },
};

/// What Test B's verdict means (Section 5).
fn meaning(r: &Observation<'_>) -> String {
    if r.fires {
        "The anchor pairs disagree about σ_t²: a second factor loads unequally on the anchors (or a judge-side shared residual is strong), and such asymmetry biases ρ̂ in a direction the data cannot tell (Section 5). Do not use the point estimates.".into()
    } else {
        "The anchor pairs agree about σ_t². It sees a judge-side shared residual only weakly below N ≈ 10⁴ (the paper measures power 0.06 at N = 500 and 0.16 at N = 2000 for strength 0.6).".into()
    }
}

/// A second factor on the first three anchors with loadings (s, s/2, 0).
fn inject(pm: &mut Params, s: f64) {
    let m = pm.rho.len();
    pm.violations.anchor_loading = (0..m)
        .map(|k| {
            if k < 3 {
                s * (1.0 - k as f64 / 2.0)
            } else {
                0.0
            }
        })
        .collect();
}
