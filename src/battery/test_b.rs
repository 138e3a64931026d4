//! Test B, over-identification (Section 5): with m ≥ 3 anchors every anchor pair estimates
//! σ_t² separately, and under Assumption 1 they agree; non-uniform anchor loadings on a
//! second factor make them disagree. It fires where Test A is blind.

use nalgebra::DMatrix;

use super::Layout;
use super::test_a::mean_sd_pop;
use crate::estimate::pair_estimate;
use crate::moments::{JudgePairs, Moments};

/// Test B needs at least 3 anchors (and the 2 judges that any fit needs).
///
/// # Errors
/// Why it cannot run.
pub fn applicable(layout: &Layout) -> Result<(), String> {
    if layout.m >= 3 && layout.p >= 2 {
        Ok(())
    } else {
        Err("needs ≥ 3 anchors (over-identification: with 2 there is one anchor pair)".into())
    }
}

/// SD (divisor n) of the per-pair σ̂_t² values that are defined (SPEC §3).
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
