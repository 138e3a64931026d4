//! Test C, the family-block test (Section 5): with a family-level residual
//! J_j = t + c + f_b(j) + e_j, within-family judge covariances exceed cross-family ones by
//! σ_f², so the gap (mean within − mean cross) estimates the pair-weighted mean σ_f².
//! On ordinal judges, whose scales are not observed, it asks the same question of the
//! latent residual correlations R − λλᵀ after the judges' one-factor fit (docs/method.md §3).

use nalgebra::DMatrix;

use super::types::{
    Diagnostic, Layout, NotApplicable, NullKind, OnOrdinal, Observation, Sample, Scales, Violation,
};
use crate::model::{Families, Params};

/// Test C needs ≥ 2 families and one family with ≥ 2 judges.
///
/// # Errors
/// Why it cannot run.
pub fn applicable(layout: &Layout) -> Result<(), NotApplicable> {
    let Some(fam) = &layout.families else {
        return Err("needs judge families".into());
    };
    if fam.count() < 2 || fam.largest() < 2 {
        Err("needs ≥ 2 families and one family with ≥ 2 judges".into())
    } else if layout.ordinal_judges > 0 && layout.p < 4 {
        Err("on Likert judges it reads the residuals of the judges' one-factor fit, which fits 3 judges exactly: needs ≥ 4 judges".into())
    } else {
        Ok(())
    }
}

/// Mean within-family minus mean cross-family value of `x(j, l)` over judge pairs.
fn gap(layout: &Layout, x: impl Fn(usize, usize) -> f64) -> f64 {
    let Some(fam) = &layout.families else {
        return f64::NAN;
    };
    let (mut within, mut nw, mut cross, mut nc) = (0.0, 0usize, 0.0, 0usize);
    for j in 0..layout.p {
        for l in j + 1..layout.p {
            if fam.index[j] == fam.index[l] {
                within += x(j, l);
                nw += 1;
            } else {
                cross += x(j, l);
                nc += 1;
            }
        }
    }
    if nw == 0 || nc == 0 {
        return f64::NAN;
    }
    within / nw as f64 - cross / nc as f64
}

/// The gap in the residual correlations R − λλᵀ of the judges' one-factor ULS fit (docs/method.md §3,
/// ordinal judges): a family residual leaves within-family pairs above the fit.
#[must_use]
pub fn latent_statistic(sample: &Sample<'_>, layout: &Layout) -> f64 {
    let fit = sample.judge_fit(layout.p);
    let Ok((lambda, _, _)) = fit.as_ref() else {
        return f64::NAN;
    };
    let r = sample.correlations();
    gap(layout, |j, l| r[(j, l)] - lambda[j] * lambda[l])
}

/// The statistic this layout reads: covariances of continuous judges, latent residual
/// correlations of ordinal ones.
fn statistic_of(sample: &Sample<'_>, layout: &Layout) -> f64 {
    if layout.ordinal_judges > 0 {
        latent_statistic(sample, layout)
    } else {
        statistic(sample.cov, layout)
    }
}

/// Mean within-family pair covariance minus mean cross-family pair covariance (docs/method.md §1).
#[must_use]
pub fn statistic(s: &DMatrix<f64>, layout: &Layout) -> f64 {
    gap(layout, |j, l| s[(j, l)])
}

/// Test C's entry in the registry.
pub const SPEC: Diagnostic = Diagnostic {
    name: "C",
    title: "family block",
    target: "family-level shared judge residuals",
    unguarded: "family-level shared judge residual (no family metadata to test)",
    uses_anchors: false,
    applicable,
    scales: Scales {
        ordinal_judges: OnOrdinal::Latent,
        ordinal_anchors: OnOrdinal::NotRead,
    },
    statistic: statistic_of,
    null: NullKind::SingleFactor,
    meaning,
    violation: Violation {
        name: "test-c",
        short: "three families of two judges with family residual SD s",
        describe: "base design with three families of two judges and a family residual of SD σ_f = s",
        three_anchors: false,
        inject,
    },
};

/// What Test C's verdict means (Sections 5 and 8).
fn meaning(r: &Observation<'_>) -> String {
    if r.fires && r.layout.ordinal_judges > 0 {
        return format!(
            "Judges within a family agree more than one factor allows (within-minus-cross residual correlation {:.3}): a family-level shared residual. The free-scale fit absorbs part of it into the judges' loadings, so its ρ̂ is biased; keep one judge per family, or judges from more families, and rerun.",
            r.observed
        );
    }
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
