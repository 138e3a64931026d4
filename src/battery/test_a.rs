//! Test A, judge-covariance dispersion (Section 5): under Assumption 1 every off-diagonal
//! judge covariance equals σ_t² + σ_c², so their coefficient of variation is near zero; a
//! second factor with non-uniform judge loadings spreads them.

use nalgebra::DMatrix;

use super::Layout;
use crate::moments::judge_offdiag;

/// Test A needs at least 3 judges.
///
/// # Errors
/// Why it cannot run.
pub fn applicable(layout: &Layout) -> Result<(), String> {
    if layout.p >= 3 {
        Ok(())
    } else {
        Err(
            "needs ≥ 3 judges (with 2 there is a single judge covariance, nothing to compare)"
                .into(),
        )
    }
}

/// SD (divisor n) over |mean| of the off-diagonal judge covariances (SPEC §3). The
/// absolute value keeps a panel whose judges covary negatively from passing by sign.
#[must_use]
pub fn statistic(s: &DMatrix<f64>, layout: &Layout) -> f64 {
    let off = judge_offdiag(s, layout.p);
    let (mean, sd) = mean_sd_pop(&off);
    sd / mean.abs()
}

/// Mean and population SD (divisor n).
#[must_use]
pub fn mean_sd_pop(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let mean = v.iter().sum::<f64>() / n;
    let var = v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
    (mean, var.sqrt())
}
