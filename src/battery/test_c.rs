//! Test C, the family-block test (Section 5): with a family-level residual
//! J_j = t + c + f_b(j) + e_j, within-family judge covariances exceed cross-family ones by
//! σ_f², so the gap (mean within − mean cross) estimates the pair-weighted mean σ_f².

use nalgebra::DMatrix;

use super::Layout;
use crate::estimate::blocked::{family_sizes, n_families};

/// Test C needs ≥ 2 families and one family with ≥ 2 judges.
///
/// # Errors
/// Why it cannot run.
pub fn applicable(layout: &Layout) -> Result<(), String> {
    let Some(fam) = &layout.families else {
        return Err("needs judge families (give --families NAME=FAMILY,...)".into());
    };
    let sizes = family_sizes(fam);
    let biggest = sizes.iter().copied().max().unwrap_or(0);
    if n_families(fam) >= 2 && biggest >= 2 {
        Ok(())
    } else {
        Err("needs ≥ 2 families and one family with ≥ 2 judges".into())
    }
}

/// Mean within-family pair covariance minus mean cross-family pair covariance (SPEC §1).
#[must_use]
pub fn statistic(s: &DMatrix<f64>, layout: &Layout) -> f64 {
    let Some(fam) = &layout.families else {
        return f64::NAN;
    };
    let (mut within, mut nw, mut cross, mut nc) = (0.0, 0usize, 0.0, 0usize);
    for j in 0..layout.p {
        for l in j + 1..layout.p {
            if fam[j] == fam[l] {
                within += s[(j, l)];
                nw += 1;
            } else {
                cross += s[(j, l)];
                nc += 1;
            }
        }
    }
    if nw == 0 || nc == 0 {
        return f64::NAN;
    }
    within / nw as f64 - cross / nc as f64
}
