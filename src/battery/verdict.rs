//! A test's verdict: its statistic judged against its null's 95th percentile, with what
//! that means for the panel. The decision and the reports read these.

use nalgebra::DMatrix;

use super::calibration::{NullDistribution, Slot};
use super::null::NullModel;
use super::registry::{PerTest, TestId};
use super::types::{Layout, NullKind, Observation, Sample};
use crate::estimate::{Estimate, EstimateError};

/// A test's verdict. Shown as a word and a symbol, never colour alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    Fires,
    NotApplicable,
}

impl Verdict {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fires => "fires",
            Verdict::NotApplicable => "n/a",
        }
    }

    /// Word and symbol for text output.
    #[must_use]
    pub fn badge(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS ✓",
            Verdict::Fires => "FIRES ✗",
            Verdict::NotApplicable => "N/A ·",
        }
    }
}

/// One test's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct TestResult {
    pub test: TestId,
    pub applicable: bool,
    pub statistic: Option<f64>,
    /// The null's 95th percentile.
    pub threshold: Option<f64>,
    /// The threshold's Monte-Carlo SD over null draws of other seeds
    /// ([`NullDistribution::threshold_mc_sd`]).
    pub threshold_mc_sd: Option<f64>,
    /// (1 + #{null ≥ observed}) / (1 + draws).
    pub p_value: Option<f64>,
    pub verdict: Verdict,
    /// What the verdict means for this panel (Sections 5 and 8).
    pub message: String,
}

impl TestResult {
    /// A test that cannot run here, and why: the reason as a sentence, with its full stop,
    /// so every screen that prints it whole ends it (trial 43, finding 5).
    #[must_use]
    pub fn not_applicable(test: TestId, mut message: String) -> TestResult {
        if !message.is_empty() && !message.ends_with(['.', '!', '?']) {
            message.push('.');
        }
        TestResult {
            test,
            applicable: false,
            statistic: None,
            threshold: None,
            threshold_mc_sd: None,
            p_value: None,
            verdict: Verdict::NotApplicable,
            message,
        }
    }
}

/// Every test's result: `calibrations` holds the null draws and the null model of each
/// [`Slot`]: the single-factor tests, the free-scale tests that read the anchors, then those
/// that read only the judges.
pub(super) fn judge_all(
    layout: &Layout,
    sample: &Sample<'_>,
    corr: &Result<Option<DMatrix<f64>>, crate::ordinal::OrdinalError>,
    estimate: Option<&Estimate>,
    calibrations: [(Option<&NullDistribution>, &Result<NullModel, EstimateError>); 3],
) -> PerTest<TestResult> {
    PerTest::from_fn(|t| {
        let (nulls, model) = calibrations[Slot::of(t, layout).index()];
        match (corr, t.null_kind(layout)) {
            (Err(why), NullKind::FreeScale) if t.applicable(layout).is_ok() => {
                TestResult::not_applicable(
                    t,
                    format!("the panel's correlations are undefined: {why}"),
                )
            }
            _ => judge(t, layout, sample, estimate, nulls, model),
        }
    })
}

/// One test's result with its meaning.
pub(super) fn judge(
    t: TestId,
    layout: &Layout,
    sample: &Sample<'_>,
    est: Option<&Estimate>,
    nulls: Option<&NullDistribution>,
    null_model: &Result<NullModel, EstimateError>,
) -> TestResult {
    let na = |message: String| TestResult::not_applicable(t, message);
    if let Err(why) = t.applicable(layout) {
        return na(why.into());
    }
    if let Err(why) = null_model {
        return na(format!("no null to calibrate against: {why}"));
    }
    let observed = t.statistic_of(sample, layout);
    let (Some(threshold), Some(nulls)) = (nulls.and_then(|n| n.threshold(t)), nulls) else {
        return na(
            "not calibrated: the fit is out of range, so there is no matched null for the anchors"
                .into(),
        );
    };
    if !observed.is_finite() {
        return na(
            "the statistic is undefined on this panel (no anchor pair has a usable denominator)"
                .into(),
        );
    }
    let verdict = if observed > threshold {
        Verdict::Fires
    } else {
        Verdict::Pass
    };
    TestResult {
        test: t,
        applicable: true,
        statistic: Some(observed),
        threshold: Some(threshold),
        threshold_mc_sd: nulls.threshold_mc_sd(t),
        p_value: nulls.p_value(t, observed),
        verdict,
        message: t.meaning(&Observation {
            fires: verdict == Verdict::Fires,
            observed,
            estimate: est,
            layout,
        }),
    }
}
