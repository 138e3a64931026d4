//! Assumption 1's common scale, checked where the data can show it. Judges and anchors must
//! score on one scale for every estimator but the free-scale one; two ways a panel breaks it
//! are visible without a model: judges on ordinal codes (whose numbers share no scale with
//! anything, Section 7) and judges and anchors coded on different integer ranges (1–10
//! against 1–5). With two anchors a common rescaling of the judges is not visible in the
//! covariances at all, so these checks are all there is.

use super::{Flag, FlagCode};
use crate::panel::{Panel, Scale};

/// Integer ranges differing by this factor or more are different scales.
pub const RANGE_RATIO: f64 = 1.5;

/// The common-scale flags of a fit that reads judges and anchors on one scale.
#[must_use]
pub fn flags(panel: &Panel) -> Vec<Flag> {
    let p = panel.p();
    let mut out = Vec::new();
    if panel.scales[..p].iter().any(Scale::is_ordinal) {
        out.push(Flag::new(FlagCode::OrdinalCodes, f64::NAN));
    }
    if let Some(ratio) = range_ratio(panel) {
        out.push(Flag::new(FlagCode::ScaleMismatch, ratio));
    }
    out
}

/// The judges' widest integer range over the anchors' widest, when every column holds
/// integers and the two differ by [`RANGE_RATIO`] or more.
#[must_use]
pub fn range_ratio(panel: &Panel) -> Option<f64> {
    let p = panel.p();
    let range = |c: usize| -> Option<f64> {
        let col = panel.col(c);
        if col.iter().any(|x| x.fract() != 0.0) {
            return None;
        }
        let lo = col.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = col.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        Some(hi - lo)
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
    (ratio >= RANGE_RATIO || ratio <= 1.0 / RANGE_RATIO).then_some(ratio)
}
