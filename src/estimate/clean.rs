//! The designated-clean-anchor comparison estimator (CT-C(M−1)-style, Section 6): trust
//! anchor d as clean (β_d = 0), so σ̂_t² = M_d; ρ̂_d is 0 by assumption, not by estimate.

use super::registry::{Entry, Fitter, OnMoments, Shown, all_pairs};
use super::{Context, EstimateError, closed_form, finish};
use super::shape::Estimate;
use crate::moments::Moments;

/// The designated-clean estimator's registry entry; `estimate --designated-clean` asks for it.
pub const ENTRY: Entry = Entry {
    key: "designated_clean",
    title: |ctx, anchors| {
        format!(
            "Designated clean anchor {}",
            ctx.clean
                .and_then(|d| anchors.get(d))
                .map_or("", String::as_str)
        )
    },
    label: |ctx, anchors| {
        format!(
            "designated clean {}",
            ctx.clean
                .and_then(|d| anchors.get(d))
                .map_or("A1", String::as_str)
        )
    },
    short: "clean",
    basis: "CT-C(M−1)-style comparison; σ_t² = M_d, ρ_d fixed at 0 by assumption",
    applicable: |ctx, m| match ctx.clean {
        Some(d) if d < m => Ok(()),
        _ => Err(EstimateError::NoCleanAnchor),
    },
    fit: Fitter::Moments(OnMoments {
        pairs: all_pairs,
        estimate: on_moments,
        undefined: EstimateError::TooFewJudges,
    }),
    bootstrapped: true,
    shown: Shown {
        method: None,
        explorer: true,
        battery: false,
    },
};

/// The estimate with the context's clean anchor (the closed form when none is designated,
/// which [`ENTRY`]'s applicability rules out before a fit).
fn on_moments(mom: &Moments, ctx: &Context) -> Estimate {
    match ctx.clean {
        Some(d) => designated_clean(mom, d),
        None => closed_form(mom),
    }
}

/// The estimate that designates anchor `d` as clean. There is no denominator and no pair
/// structure: `denominator` is `NaN` and `pairs` is empty.
///
/// # Panics
/// If `d` is not an anchor index (callers resolve names first).
#[must_use]
pub fn designated_clean(mom: &Moments, d: usize) -> Estimate {
    assert!(d < mom.n_anchors(), "designated anchor out of range");
    finish(mom, mom.m[d], f64::NAN, Vec::new(), Some(d), Vec::new())
}
