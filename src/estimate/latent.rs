//! The designated-clean estimate on latent scales (docs/method.md §7b, "Ordinal
//! anchors and one trusted anchor"): with ordinal anchors the data fix every column's
//! standardised loadings on (t, c) only up to one rotation of the plane, along which every
//! anchor's ρ moves together; trusting anchor d as clean (ρ_d = 0, an assumption the data
//! cannot test) removes the rotation at m ≥ 3, and the others' ρ follow.
//!
//! The fit, on the panel's mixed correlation matrix (Pearson, polychoric, polyserial):
//! 1. λ = the judges' one-factor ULS loadings (each judge on its own scale);
//! 2. g_k = Σ_j λ_j r_jk / Σ_j λ_j², each anchor's loading on the judges' direction;
//! 3. h = one-factor ULS of the anchors' residual correlations R_kl − g_k g_l, their loadings
//!    across it (m ≥ 3 needed: at m = 2 one residual correlation cannot give two loadings);
//! 4. the t axis along anchor d (w_d = 0) fixes the angle φ of the judges (tan φ = σ_c/σ_t),
//!    and anchor k's loadings (a_k, w_k) on (t, c) give ρ_k = w_k / √(1 − a_k²).
//!
//! Variances are reported on the judges' common latent scale (K = σ_t² + σ_c² = 1).

use nalgebra::DMatrix;

pub mod family;
pub mod frame;
pub mod ridge;

pub use frame::{Frame, MIN_ANCHORS, MIN_JUDGES, rho_of};

use super::registry::{Entry, Fitter, Shown};
use super::{Context, Detail, EstimateError, Flag, FlagCode};
use super::shape::{Estimate, Parts};
use crate::panel::Panel;

/// The sentence every front end words the assumption with.
pub const ASSUMPTION: &str = "untestable: the data cannot tell whether the designated anchor is clean; every other ρ̂ is read relative to it";

/// The latent designated-clean estimator's registry entry: `estimate --designated-clean NAME`
/// asks for it on a panel with ordinal columns.
pub const ENTRY: Entry = Entry {
    key: "designated_clean_latent",
    title: |ctx, anchors| format!("Designated clean anchor {} on latent scales", name(ctx, anchors)),
    label: |ctx, anchors| format!("designated clean {} (latent)", name(ctx, anchors)),
    short: "clean-lat",
    basis: "Section 7 and docs/method.md §7b; polychoric/polyserial correlations, ρ_d fixed at 0 by an untestable assumption, variances on the judges' latent scale (K = 1)",
    applicable: |ctx, m| match ctx.clean {
        Some(d) if d < m && m < MIN_ANCHORS => Err(EstimateError::LatentAnchors(m)),
        Some(d) if d < m => Ok(()),
        _ => Err(EstimateError::NoCleanAnchor),
    },
    fit: Fitter::Panel(fit_entry),
    bootstrapped: true,
    shown: Shown {
        method: None,
        explorer: false,
        battery: false,
    },
};

/// The designated anchor's name.
fn name<'a>(ctx: &Context, anchors: &'a [String]) -> &'a str {
    ctx.clean
        .and_then(|d| anchors.get(d))
        .map_or("A1", String::as_str)
}

/// Whether `estimate --designated-clean` asks for this estimator on `panel`: any ordinal
/// column, whose codes the common-scale designated-clean estimate cannot read.
#[must_use]
pub fn wanted(panel: &Panel) -> bool {
    super::scale::reads_codes(panel)
}

fn fit_entry(
    panel: &Panel,
    _: &DMatrix<f64>,
    ctx: &Context,
    _: bool,
) -> Result<(Estimate, Detail), EstimateError> {
    let d = ctx.clean.ok_or(EstimateError::NoCleanAnchor)?;
    let corr = crate::ordinal::correlation_matrix(panel)
        .map_err(|e| EstimateError::Correlation(e.to_string()))?;
    Ok((fit(&corr.r, panel.p(), d)?, Detail::None))
}

/// The estimate with anchor `d` designated clean, from a latent correlation matrix `r`
/// (p judges, then the anchors).
///
/// # Errors
/// As [`Frame::of`], and an anchor index out of range.
pub fn fit(r: &DMatrix<f64>, p: usize, d: usize) -> Result<Estimate, EstimateError> {
    let frame = Frame::of(r, p)?;
    if d >= frame.m() {
        return Err(EstimateError::NoCleanAnchor);
    }
    Ok(estimate_of(&frame, d))
}

/// The world of `frame` in which anchor `d` is clean, with the range rules of docs/method.md §1
/// and the latent fit's own flags.
#[must_use]
pub fn estimate_of(frame: &Frame, d: usize) -> Estimate {
    let (s, phi) = frame.clean_at(d);
    let load = frame.world(s, phi);
    let (cos, sin) = (phi.cos(), phi.sin());
    let ct2 = cos * cos;
    let (beta, sigma_a2): (Vec<f64>, Vec<f64>) = load
        .iter()
        .map(|&(a, w)| {
            // V_k = σ_t²/a_k² from the anchor's unit loading on t; a_k ≤ 0 is flagged below.
            let v = ct2 / (a * a);
            (w * v.sqrt() * sin, v - ct2)
        })
        .unzip();
    let mut est = Estimate::from_parts(Parts {
        sigma_t2: cos * cos.abs(),
        sigma_c2: sin * sin,
        k: 1.0,
        denominator: f64::NAN,
        pairs: Vec::new(),
        beta,
        sigma_a2,
        clean: Some(d),
        flags: Vec::new(),
    });
    for (k, &(a, _)) in load.iter().enumerate() {
        if k != d && a <= 0.0 {
            est.anchors[k].rho = None;
            est.flags
                .retain(|f| !(f.code == FlagCode::RhoOutsideUnit && f.anchor == Some(k)));
            est.flags.push(Flag {
                anchor: Some(k),
                ..Flag::new(FlagCode::AgainstQuality, a)
            });
        }
    }
    for (j, &l) in frame.lambda.iter().enumerate() {
        if l.abs() >= 1.0 {
            est.undefine(Flag {
                pair: Some((j, j)),
                ..Flag::new(FlagCode::HeywoodJudge, l)
            });
        }
    }
    if frame.misfits() {
        est.undefine(Flag::new(
            FlagCode::LatentMisfit,
            frame.anchor_rms / frame.residual_rms,
        ));
    }
    if !frame.converged {
        est.undefine(Flag::new(FlagCode::NotConverged, f64::NAN));
    }
    if est.flags.iter().any(|f| fails(f.code)) {
        // No world of the model fits: the rotation's σ_t², β and σ_a² are not estimates.
        est.sigma_t2 = f64::NAN;
        est.sigma_c2 = f64::NAN;
        for a in &mut est.anchors {
            (a.beta, a.sigma_a2) = (f64::NAN, f64::NAN);
        }
    }
    est
}

/// Whether a flag of the latent fit leaves no world to read, so its variances, β and σ_a²
/// are undefined along with every ρ̂.
#[must_use]
pub fn fails(code: FlagCode) -> bool {
    matches!(
        code,
        FlagCode::LatentMisfit | FlagCode::NotConverged | FlagCode::HeywoodJudge
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Params;

    fn latent(pm: &Params) -> DMatrix<f64> {
        crate::ordinal::latent_correlations(pm)
    }

    #[test]
    fn population_correlations_give_back_the_design() {
        let pm = Params {
            p: 5,
            rho: vec![0.0, 0.5, 0.3],
            sigma_a: vec![0.5, 0.6, 0.7],
            ..Params::default()
        };
        let est = fit(&latent(&pm), 5, 0).unwrap();
        assert!(est.flags.is_empty(), "{:?}", est.flags);
        for (g, w) in est.rho().iter().zip(&pm.rho) {
            assert!((g.unwrap() - w).abs() < 1e-9, "{:?}", est.rho());
        }
        // σ_t²/K on the latent scale.
        assert!((est.sigma_t2 - 1.0 / 1.8).abs() < 1e-9);
    }

    #[test]
    fn a_wrong_designation_moves_every_other_rho_the_same_way() {
        // Anchor 2 (truly 0.5) trusted as clean: the others fall below their truths.
        let pm = Params {
            p: 5,
            rho: vec![0.3, 0.5, 0.4],
            sigma_a: vec![0.5, 0.6, 0.7],
            ..Params::default()
        };
        let est = fit(&latent(&pm), 5, 1).unwrap();
        let rho = est.rho();
        assert_eq!(rho[1], Some(0.0));
        assert!(rho[0].unwrap() < 0.3 && rho[2].unwrap() < 0.4, "{rho:?}");
    }

    #[test]
    fn anchors_whose_residuals_share_no_factor_are_a_misfit() {
        // hanna-llm's pattern: each anchor +0.3 with every judge, −0.05 with each other.
        let (p, m) = (4, 3);
        let r = DMatrix::from_fn(p + m, p + m, |i, j| match (i == j, i < p, j < p) {
            (true, _, _) => 1.0,
            (false, true, true) => 0.6,
            (false, false, false) => -0.05,
            _ => 0.3,
        });
        let est = fit(&r, p, 0).unwrap();
        assert!(est.has_flag(FlagCode::LatentMisfit), "{:?}", est.flags);
        assert!(est.rho().iter().enumerate().all(|(k, r)| k == 0 || r.is_none()));
        // A failed fit has no σ_t², β or σ_a² either (not the rotation's "1.0000" and "-0.0000").
        assert!(est.sigma_t2.is_nan() && est.sigma_c2.is_nan());
        assert!(est.anchors.iter().all(|a| a.beta.is_nan() && a.sigma_a2.is_nan()));
    }
}
