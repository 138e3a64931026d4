//! Assumption 1's common scale, checked where the data can show it. Judges and anchors must
//! score on one scale for every estimator but the free-scale one; two ways a panel breaks it
//! are visible without a model: judges or anchors on ordinal codes (whose numbers share no
//! scale with anything, Section 7) and judges and anchors coded on different integer ranges (1–10
//! against 1–5). With two anchors a common rescaling of the judges is not visible in the
//! covariances at all, so these checks are all there is.

use super::shape::Estimate;
use super::{Flag, FlagCode};
use crate::panel::{Panel, Scale};

/// Integer ranges differing by this factor or more are different scales.
pub const RANGE_RATIO: f64 = 1.5;

/// Section 7's ordinal hierarchy: why ρ is not identified when `ordinal_judges` of `p`
/// judges are ordinal and `continuous_anchors` anchors are continuous, or `None`. The
/// decision table and the estimators share this one rule.
#[must_use]
pub fn not_identified(
    p: usize,
    ordinal_judges: usize,
    continuous_anchors: usize,
) -> Option<String> {
    if ordinal_judges == p && continuous_anchors == 0 {
        Some("every column is ordinal, and with all variables ordinal ρ is not identified at any number of anchors (Section 7): thresholds absorb the scale ρ needs".to_string())
    } else if ordinal_judges > 0 && continuous_anchors < 3 {
        Some(format!(
            "the judges are ordinal and only {continuous_anchors} anchor(s) are continuous; ρ needs ≥ 3 continuous anchors when judges are ordinal (Section 7)"
        ))
    } else {
        None
    }
}

/// [`not_identified`] for a panel's columns.
#[must_use]
pub fn panel_not_identified(panel: &Panel) -> Option<String> {
    let p = panel.p();
    let ordinal_judges = panel.scales[..p].iter().filter(|s| s.is_ordinal()).count();
    let continuous_anchors = panel.scales[p..].iter().filter(|s| !s.is_ordinal()).count();
    not_identified(p, ordinal_judges, continuous_anchors)
}

/// The common-scale flags of a fit that reads judges and anchors on one scale: ordinal
/// judges, else ordinal anchors; a range mismatch.
#[must_use]
pub fn flags(panel: &Panel) -> Vec<Flag> {
    let p = panel.p();
    let mut out = Vec::new();
    if panel.scales[..p].iter().any(Scale::is_ordinal) {
        out.push(Flag::new(FlagCode::OrdinalCodes, f64::NAN));
    } else if panel.scales[p..].iter().any(Scale::is_ordinal) {
        // The whole fit's flag: every anchor's ρ̂ is undefined, not the ordinal one's alone.
        out.push(Flag::new(FlagCode::OrdinalAnchor, f64::NAN));
    }
    if let Some(ratio) = range_ratio(panel) {
        out.push(Flag::new(FlagCode::ScaleMismatch, ratio));
    }
    out
}

/// Whether a common-scale fit of this panel reads ordinal codes as numbers, which leaves
/// every ρ̂ undefined (the scales are the panel's, the same in every bootstrap resample).
#[must_use]
pub fn reads_codes(panel: &Panel) -> bool {
    panel.scales.iter().any(Scale::is_ordinal)
}

/// Continuous columns whose central spans differ by this factor or more are on different
/// scales: a judge's own error widens its span beside an anchor's (about 1.4× on the recovery
/// harness's clean designs), so the bar sits above what one scale explains.
pub const SPAN_RATIO: f64 = 2.0;

/// The percent of items cut from each end of a continuous column's span, so the span does not
/// grow with N as the range does.
const SPAN_TAIL_PERCENT: usize = 1;

/// The judges' widest range over the anchors' widest, when the two differ by
/// [`RANGE_RATIO`] or more on integer codes, or by [`SPAN_RATIO`] or more on the central 98 %
/// of any column that holds a non-integer.
#[must_use]
pub fn range_ratio(panel: &Panel) -> Option<f64> {
    let p = panel.p();
    // Past 1e15 every double is a whole number: integer codes there are an artefact of units.
    let integers = (0..panel.q()).all(|c| {
        panel
            .col(c)
            .iter()
            .all(|x| x.fract() == 0.0 && x.abs() <= 1e15)
    });
    let tail = if integers { 0 } else { SPAN_TAIL_PERCENT };
    let range = |c: usize| -> Option<f64> {
        let mut col: Vec<f64> = panel
            .col(c)
            .iter()
            .copied()
            .filter(|x| x.is_finite())
            .collect();
        if col.is_empty() {
            return None;
        }
        col.sort_by(f64::total_cmp);
        let at = |percent: usize| col[(col.len() - 1) * percent / 100];
        Some(at(100 - tail) - at(tail))
    };
    let widest = |cols: std::ops::Range<usize>| -> Option<f64> {
        cols.map(range)
            .try_fold(0.0f64, |acc, r| r.map(|r| acc.max(r)))
    };
    let (j, a) = (widest(0..p)?, widest(p..panel.q())?);
    if j <= 0.0 || a <= 0.0 {
        return None;
    }
    let ratio = j / a;
    let bar = if integers { RANGE_RATIO } else { SPAN_RATIO };
    (ratio >= bar || ratio <= 1.0 / bar).then_some(ratio)
}

/// Assumption 1's common scale on a fit that needs it (the checks above): ordinal judges or
/// an ordinal anchor leave every ρ̂ undefined; a range mismatch is flagged beside the numbers.
pub(super) fn common_scale(estimate: &mut Estimate, panel: &Panel) {
    for flag in flags(panel) {
        if matches!(flag.code, FlagCode::OrdinalCodes | FlagCode::OrdinalAnchor) {
            estimate.undefine(flag);
        } else {
            estimate.flags.push(flag);
        }
    }
}
