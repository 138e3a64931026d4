//! The designated-clean-anchor comparison estimator (CT-C(M−1)-style, Section 6): trust
//! anchor d as clean (β_d = 0), so σ̂_t² = M_d; ρ̂_d is 0 by assumption, not by estimate.

use super::{Estimate, finish};
use crate::moments::Moments;

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
