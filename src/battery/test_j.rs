//! Test J, the judge one-factor test (docs/method.md §7): with judges on their own scales
//! (J_j = a_j (t + c) + e_j) the judge correlations are λλᵀ off the diagonal, one factor with
//! free loadings. The statistic is the RMS of the off-diagonal residuals R − λλᵀ of the
//! one-factor ULS fit; a judge-side second factor whose loadings are not proportional to the
//! first leaves a residual no choice of λ removes. Unlike Test A it does not fire on judges
//! that merely use different scales, so it is the check the free-scale estimator rests on.

use super::types::{
    Diagnostic, Layout, NotApplicable, NullKind, OnOrdinal, Observation, Sample, Scales, Violation,
};

/// Test J needs at least 4 judges (at p = 3 one factor fits any correlations exactly).
///
/// # Errors
/// Why it cannot run.
pub fn applicable(layout: &Layout) -> Result<(), NotApplicable> {
    if layout.p >= 4 {
        Ok(())
    } else {
        Err(
            "needs ≥ 4 judges (with 3, one factor with free loadings fits any judge correlations exactly)"
                .into(),
        )
    }
}

/// RMS of the off-diagonal residuals of the judges' one-factor ULS fit (docs/method.md §7), on the
/// sample's mixed correlations (Pearson, polychoric or polyserial by scale).
#[must_use]
pub fn statistic(sample: &Sample<'_>, layout: &Layout) -> f64 {
    sample
        .judge_fit(layout.p)
        .as_ref()
        .as_ref()
        .map_or(f64::NAN, |(_, rms, _)| *rms)
}

/// Test J's entry in the registry.
pub const SPEC: Diagnostic = Diagnostic {
    name: "J",
    title: "judge one-factor fit on free scales",
    target: "a judge-side second factor, even with free loadings",
    unguarded: "a judge-side second factor hidden by free loadings (no Test J with < 4 judges)",
    uses_anchors: false,
    applicable,
    scales: Scales {
        ordinal_judges: OnOrdinal::Latent,
        ordinal_anchors: OnOrdinal::NotRead,
    },
    statistic,
    null: NullKind::FreeScale,
    meaning,
    violation: Violation {
        name: "test-j",
        short: "test-a's second factor, seen with free judge scales",
        describe: "base design (p = 6, m = 2) plus a second factor d ~ N(0, 1) loading s on the first half of the judges and 0 on the rest (loadings not proportional to the first factor's), with no anchor loading",
        three_anchors: false,
        inject,
    },
};

/// What Test J's verdict means (docs/method.md §7, Section 8).
fn meaning(r: &Observation<'_>) -> String {
    let families = r.layout.families.as_ref().is_some_and(crate::families::JudgeFamilies::blockable);
    if r.fires && families {
        "The judges need more than one factor even with each on its own scale: the free-scale estimate does not hold. With families given, the split may be the families' (Test C asks), which the family-blocked estimate answers where the answer names it; else find the judges that split off (their loadings λ) before reading any ρ̂.".into()
    } else if r.fires {
        "The judges need more than one factor even with each on its own scale: they disagree about what they measure, not only in harshness. Neither the closed form nor the free-scale estimate holds on this panel; find the judges that split off (their loadings λ) before reading any ρ̂.".into()
    } else {
        "One factor with free loadings fits the judges: unequal scales (what Test A reacts to) are what the free-scale estimator absorbs. A second factor proportional to the first is invisible here and harmless.".into()
    }
}

/// A second factor loading s on the first half of the judges (Test A's design: the same
/// violation, seen without the unit-loading assumption).
fn inject(pm: &mut crate::model::Params, s: f64) {
    let p = pm.p;
    pm.violations.judge_loading = (0..p).map(|j| if j < p / 2 { s } else { 0.0 }).collect();
}
