//! The free-scale estimator of docs/method.md §7 (Section 7's mixed-scale estimator, generalised):
//! judges on their own scales, `J_j = a_j (t + c) + e_j` (continuous, or ordinal cuts of it),
//! continuous anchors `A_k = t + (β_k/σ_c²) c + u_k` as in Assumption 1.
//!
//! Only judge *correlations* are used, so each judge's scale a_j drops out:
//! 1. λ = one-factor ULS fit of the judge correlation matrix R: minimise
//!    Σ_{i<j} (R_ij − λ_i λ_j)², started from the leading eigenvector and polished by Newton
//!    with Levenberg–Marquardt damping. λ_j estimates a_j √K / SD(J_j), K = σ_t² + σ_c².
//! 2. q_k = SD(A_k) · Σ_j λ_j r_jk / Σ_j λ_j², which estimates (σ_t² + β_k)/√K.
//! 3. (σ_t², σ_c², β) minimise Σ_k (q_k − (σ_t² + β_k)/√(σ_t² + σ_c²))² plus
//!    Σ_{k<l} (P_kl − σ_t² − β_k β_l/σ_c²)² over σ_t², σ_c² > 0: a grid on (σ_t², σ_c²)
//!    with β from the q equations finds the basin, Levenberg–Marquardt (in log σ_t², log σ_c²
//!    and β) polishes; the best of the grid's three lowest local minima wins.
//! 4. σ_ak² = V_k − σ_t², ρ_k = β_k / (σ_ak σ_c) through [`Estimate::from_parts`], so the
//!    out-of-range flags are Theorem 1's (docs/method.md §1).
//!
//! With a_j = 1 and continuous judges it inverts the population moments of Theorem 1 exactly.

use nalgebra::DMatrix;

mod joint;
mod judges;
pub mod point;
mod tolerances;

#[cfg(test)]
use joint::*;
pub use judges::one_factor_uls;
pub use point::*;

use super::identified;
use super::registry::{Entry, Fitter, MethodValue, Shown};
use super::{Context, Detail, EstimateError, Flag, FlagCode};
use super::shape::Estimate;
use crate::ordinal::Correlations;
use crate::panel::Panel;

/// The free-scale estimator's registry entry: `estimate --method free-scale`, bootstrapped by
/// refitting each resample's correlations.
pub const ENTRY: Entry = Entry {
    key: "free_scale",
    title: |_, _| "Free-scale".into(),
    label: |_, _| "free-scale (judge scales free)".into(),
    short: "free",
    basis: "Section 7, docs/method.md §7; judges on their own scales: λ from judge correlations, ULS fit of σ_t², σ_c², β",
    applicable: |_, _| Ok(()),
    fit: Fitter::Panel(fit_entry),
    bootstrapped: true,
    shown: Shown {
        method: Some(MethodValue {
            name: "free-scale",
            help: "The free-scale estimator (judges on their own scales, Section 7)",
        }),
        explorer: true,
        battery: true,
    },
};

/// A panel's fit, with its identified set when `identify` is set.
fn fit_entry(
    panel: &Panel,
    _: &DMatrix<f64>,
    _: &Context,
    identify: bool,
) -> Result<(Estimate, Detail), EstimateError> {
    let (fit, _) = if identify {
        fit_panel_identified(panel)
    } else {
        fit_panel(panel)
    }?;
    Ok((fit.estimate.clone(), Detail::FreeScale(Box::new(fit))))
}

/// [`fit_panel`] with the identified set (docs/method.md §7): what a panel's own fit reports; resamples,
/// refits and null draws use the point fit alone.
///
/// # Errors
/// As [`fit_panel`].
pub fn fit_panel_identified(panel: &Panel) -> Result<(FreeScaleFit, Correlations), EstimateError> {
    let (mut fit, corr, anchor_cov) = fit_panel_with_cov(panel)?;
    identify(&mut fit, panel, &anchor_cov);
    Ok((fit, corr))
}

/// Adds the identified set to a panel's fit and, where the set is not a point, makes every ρ̂
/// undefined with the reason (docs/method.md §7). A Heywood judge leaves q, and so the set, undefined.
fn identify(fit: &mut FreeScaleFit, panel: &Panel, anchor_cov: &DMatrix<f64>) {
    if fit.estimate.has_flag(FlagCode::HeywoodJudge) {
        return;
    }
    // At the anchors' unit scale, as the point fit: Γ holds products of four anchor units,
    // which under- or overflow long before the scores do.
    let unit = crate::moments::unit_scale(anchor_cov);
    let mut mom = identified::moments_of(fit, &(anchor_cov / unit));
    mom.q.iter_mut().for_each(|q| *q /= unit.sqrt());
    let mut at_unit = panel.clone();
    let n = panel.n;
    at_unit.data[panel.p() * n..]
        .iter_mut()
        .for_each(|x| *x /= unit.sqrt());
    let Some(mut set) = identified::of_panel(&at_unit, &mom) else {
        return;
    };
    set.sigma_t2 = set.sigma_t2.map(|(lo, hi)| (lo * unit, hi * unit));
    if set.is_empty() {
        fit.estimate
            .undefine(Flag::new(FlagCode::AnchorsMisfit, f64::NAN));
    } else if set.unbounded {
        fit.estimate
            .undefine(Flag::new(FlagCode::Ridge, f64::INFINITY));
    } else {
        // A bounded set too wide to place one anchor leaves that anchor's ρ̂ undefined only.
        for (k, r) in set.rho.iter().enumerate() {
            let width = r.map_or(f64::INFINITY, |(lo, hi)| hi - lo);
            if width > identified::WIDE_SET {
                fit.estimate.anchors[k].rho = None;
                fit.estimate.flags.push(Flag {
                    anchor: Some(k),
                    ..Flag::new(FlagCode::Ridge, width)
                });
            }
        }
    }
    fit.identified = Some(set);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_factor_is_exact_at_three_judges() {
        // λ = (0.9, 0.8, 0.6): R_ij = λ_i λ_j, three equations, three unknowns.
        let lam = [0.9, 0.8, 0.6];
        let r = DMatrix::from_fn(3, 3, |i, j| if i == j { 1.0 } else { lam[i] * lam[j] });
        let (got, rms, ok) = one_factor_uls(&r).unwrap();
        assert!(ok);
        for (g, w) in got.iter().zip(lam) {
            assert!((g - w).abs() < 1e-12, "{got:?}");
        }
        assert!(rms < 1e-12);
    }

    #[test]
    fn judge_rms_sees_a_two_factor_judge_block() {
        // Two blocks of judges with different correlations: one factor cannot fit.
        let r = DMatrix::from_fn(4, 4, |i, j| match (i == j, i / 2 == j / 2) {
            (true, _) => 1.0,
            (false, true) => 0.8,
            (false, false) => 0.2,
        });
        let (_, rms, _) = one_factor_uls(&r).unwrap();
        assert!(rms > 0.05, "{rms}");
    }

    #[test]
    fn the_exact_hessian_is_the_central_difference_of_jte() {
        let pa = DMatrix::from_row_slice(
            4,
            4,
            &[
                1.5, 0.9, 0.7, 0.8, 0.9, 1.7, 0.75, 0.85, 0.7, 0.75, 1.4, 0.6, 0.8, 0.85, 0.6, 1.6,
            ],
        );
        let q = [0.7, 0.85, 0.5, 0.9];
        for th in [
            vec![0.1f64.ln(), 0.8f64.ln(), 0.2, 0.5, -0.1, 0.3],
            vec![0.9f64.ln(), 0.3f64.ln(), 0.05, 0.06, 0.07, -0.2],
            vec![0.0, -2.0, 0.4, 0.1, 0.3, 0.2],
        ] {
            let (n, n_res) = (th.len(), 4 + 6);
            let (mut e, mut jac) = (vec![0.0; n_res], vec![0.0; n_res * n]);
            residuals(&th, &q, &pa, &mut e, Some(&mut jac));
            let mut jtj = vec![0.0; n * n];
            for r in 0..n {
                for c in 0..n {
                    jtj[r * n + c] = (0..n_res).map(|i| jac[i * n + r] * jac[i * n + c]).sum();
                }
            }
            let mut exact = vec![0.0; n * n];
            exact_hessian(&th, &e, &jtj, &mut exact);
            let mut fd = vec![0.0; n * n];
            newton_hessian(&th, &q, &pa, &mut fd, &mut NewtonScratch::new(n, n_res));
            for (a, b) in exact.iter().zip(&fd) {
                // Central differences with h = 1e-6: error O(h²) plus rounding O(ε/h) ≈ 1e-9.
                assert!((a - b).abs() <= 1e-7 * (1.0 + a.abs()), "{a} vs {b}");
            }
        }
    }

    #[test]
    fn bad_shapes_are_errors() {
        let r = DMatrix::identity(3, 3);
        let pa = DMatrix::identity(3, 3);
        assert!(
            fit(&r, &DMatrix::zeros(3, 2), &pa)
                .unwrap_err()
                .to_string()
                .contains("expected 3 × 3")
        );
        let mut bad = pa.clone();
        bad[(1, 1)] = 0.0;
        assert!(
            fit(&r, &DMatrix::zeros(3, 3), &bad)
                .unwrap_err()
                .to_string()
                .contains("variance ≤ 0")
        );
        assert!(
            fit(&r, &DMatrix::zeros(3, 3), &pa)
                .unwrap_err()
                .to_string()
                .contains("no common factor")
        );
    }
}
