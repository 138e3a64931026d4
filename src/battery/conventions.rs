//! The conventions a battery run may be asked to follow besides the model's own rules: the
//! paper's codes-as-numbers reading of Test A on Likert judges, and the anchor trusted as clean.

use super::calibration::calibrate_on;
use super::null::NullModel;
use super::options::Options;
use super::types::{Layout, Sample};
use super::verdict::{TestResult, judge};
use super::{TestId, test_a};
use crate::estimate::{Estimate, EstimateError};
use crate::panel::Panel;
use crate::progress::{Flow, Progress, Stage};

/// Conventions a run may be asked to follow besides the model's own rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Conventions {
    /// Test A on ordinal judges with their codes read as numbers, calibrated by the plug-in
    /// null of the paper's HANNA computation (Section 7): a labelled convention, since on
    /// Likert judges Test A has no testable content (docs/method.md §3) and is otherwise N/A.
    pub codes_as_numbers: bool,
    /// The anchor the user trusts as clean (ρ = 0 by an untestable assumption): the battery
    /// also fits the designated-clean estimate (on latent scales when a column is ordinal,
    /// docs/method.md §7b) and reads it when it is readable.
    pub designated_clean: Option<usize>,
}

impl Conventions {
    /// Why a convention asked for cannot apply to `panel`, in one line, so that every front end
    /// refuses it rather than dropping it: codes as numbers replaces Test A's N/A on Likert
    /// judges, and has nothing to replace where Test A runs on continuous judges.
    #[must_use]
    pub fn refusal(&self, panel: &Panel) -> Option<String> {
        if !self.codes_as_numbers {
            return None;
        }
        let layout = Layout::of(panel);
        let continuous = layout.continuous_judges().len();
        let flag = crate::wording::Setting::CodesAsNumbers.marked();
        if layout.ordinal_judges == 0 {
            Some(format!(
                "{flag} reads Likert judges' codes as numbers, and every judge of this panel is continuous, so Test A already reads their scores: drop it"
            ))
        } else if TestId::A.applicable(&layout).is_ok() {
            Some(format!(
                "{flag} reads every judge's codes as numbers where Test A is otherwise N/A, but {continuous} of this panel's judges are continuous and Test A asks its question of them alone (docs/method.md §3): drop it, or leave those judges out to read every judge's codes"
            ))
        } else {
            None
        }
    }
}

/// Test A on ordinal judges with their codes read as numbers (the paper's HANNA
/// computation, [`Conventions::codes_as_numbers`]), calibrated by the plug-in null of
/// docs/method.md §3's first rule on its own null streams; the result says it is a
/// convention and states
/// the null's latent judge correlations. `None` when no judge is ordinal.
pub(super) fn codes_as_numbers(
    panel: &Panel,
    layout: &Layout,
    sample: &Sample<'_>,
    estimate: Option<&Estimate>,
    null_model: &Result<NullModel, EstimateError>,
    opts: &Options,
) -> Option<(TestResult, Vec<f64>)> {
    if layout.ordinal_judges == 0 {
        return None;
    }
    let codes = Layout {
        ordinal_judges: 0,
        judge_ordinal: Vec::new(),
        ..layout.clone()
    };
    let silent = |_: Progress| Flow::Continue;
    let nd = calibrate_on(
        null_model,
        &[TestId::A],
        panel.n,
        &codes,
        (opts.draws(0), Stage::Null),
        &silent,
    )?;
    let mut a = judge(TestId::A, &codes, sample, estimate, Some(&nd), null_model);
    if let Ok(m) = null_model {
        let p = layout.p;
        let mut r: Vec<f64> = Vec::new();
        for i in 0..p {
            for j in i + 1..p {
                r.push(m.cov[(i, j)] / (m.cov[(i, i)].sqrt() * m.cov[(j, j)].sqrt()));
            }
        }
        let (lo, hi) = r
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
                (l.min(*x), h.max(*x))
            });
        a.message = format!(
            "Codes as numbers (the paper's convention, not a test of the latent model: {}). {} The threshold comes from the plug-in null (one common factor of variance K̂ on the codes' scale, error variances Var(J_j) − K̂, each judge cut at its own empirical thresholds), whose latent judge correlations are {lo:.3}–{hi:.3}; a null with other latent correlations gives another threshold (the paper reports 0.247 on HANNA without stating its null's), so read the verdict as the paper's convention. Scoring the columns as continuous instead ({}) calibrates on continuous scores, a null without the cuts, whose threshold is lower: one statistic, two nulls, each named where its verdict is shown.",
            test_a::ORDINAL_JUDGES.split(';').next().unwrap_or_default(),
            a.message,
            crate::wording::Setting::Continuous.marked()
        );
    }
    Some((a, nd.stats[TestId::A].clone()))
}
