//! Test C, the family-block test (Section 5): with a family-level residual
//! J_j = t + c + f_b(j) + e_j, within-family judge covariances exceed cross-family ones by
//! σ_f², so the gap (mean within − mean cross) estimates the pair-weighted mean σ_f².

use nalgebra::DMatrix;

use super::Layout;
use super::registry::{Diagnostic, NullKind, Reading, Violation};
use crate::model::{Families, Params};

/// Test C needs ≥ 2 families and one family with ≥ 2 judges.
///
/// # Errors
/// Why it cannot run.
pub fn applicable(layout: &Layout) -> Result<(), String> {
    let Some(fam) = &layout.families else {
        return Err("needs judge families".into());
    };
    if fam.count() >= 2 && fam.largest() >= 2 {
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
            if fam.index[j] == fam.index[l] {
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

/// Test C's entry in the registry.
pub const SPEC: Diagnostic = Diagnostic {
    name: "C",
    title: "family block",
    target: "family-level shared judge residuals",
    unguarded: "family-level shared judge residual (no family metadata to test)",
    uses_anchors: false,
    applicable,
    statistic: |x, l| statistic(x.cov, l),
    null: NullKind::SingleFactor,
    meaning,
    violation: Violation {
        name: "test-c",
        describe: "base design with three families of two judges and a family residual of SD σ_f = s",
        three_anchors: false,
        inject,
    },
};

/// What Test C's verdict means (Sections 5 and 8).
fn meaning(r: &Reading<'_>) -> String {
    if r.fires {
        return format!(
            "Judges within a family covary more than across families (gap σ̂_f² ≈ {:.3}): a family-level shared residual pulls the naive ρ̂ toward a false \"clean\". Use the family-blocked estimate, which removes it exactly.",
            r.observed
        );
    }
    let single_family = r.layout.families.as_ref().is_none_or(|f| !f.blockable());
    let small_rho = r
        .estimate
        .is_some_and(|e| e.rho().iter().flatten().any(|x| x.abs() < 0.2));
    let mut s = String::from(
        "No family-level residual detected. A panel-wide residual (one prompt template shared by every judge) stays invisible to every test; on such panels the estimator should not be used at all.",
    );
    if single_family || small_rho {
        s.push_str(" A small ρ̂ on a panel like this is unverified, not clearance.");
    }
    s
}

/// Family residuals of SD s (three families of two judges unless families are given).
fn inject(pm: &mut Params, s: f64) {
    let v = &mut pm.violations;
    if v.families == Families::None {
        v.families = Families::Blocks(3);
    }
    v.sigma_f = s;
}
