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

use joint::fit_anchor_block;
#[cfg(test)]
use joint::*;
pub use judges::one_factor_uls;

use super::identified::{self, IdentifiedSet};
use super::registry::{Entry, Fitter, MethodValue, Shown};
use super::{Context, Detail, Estimate, EstimateError, Flag, FlagCode, PairEstimate, Parts};
use crate::ordinal::{Correlations, correlation_matrix};
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

/// A free-scale fit and its own checks (docs/method.md §7).
#[derive(Debug, Clone, PartialEq)]
pub struct FreeScaleFit {
    /// σ̂_t², σ̂_c², β̂, σ̂_a², ρ̂ and flags (K = σ̂_t² + σ̂_c²; pairs carry Corollary 1's
    /// denominators (σ̂_c² − β̂_k)(σ̂_c² − β̂_l)/σ̂_c² at the joint σ̂_t²).
    pub estimate: Estimate,
    /// One-factor ULS loadings of the judge correlations.
    pub lambda: Vec<f64>,
    /// q_k = SD(A_k) Σ_j λ_j r_jk / Σ_j λ_j².
    pub q: Vec<f64>,
    /// The minimised misfit: the anchor over-identification statistic (m ≥ 3).
    pub misfit: f64,
    /// RMS of the off-diagonal residuals R − λλᵀ: the judge one-factor statistic (p ≥ 4;
    /// zero by construction at p = 3).
    pub judge_rms: f64,
    /// Whether both optimisers met their gradient tolerance.
    pub converged: bool,
    /// The set of ρ the data identify ([`identified`]); computed on a panel's own fit, not
    /// on resamples or null draws.
    pub identified: Option<IdentifiedSet>,
}

/// Fewest judges and continuous anchors the estimator accepts (docs/method.md §7).
pub const MIN_JUDGES: usize = 3;
pub const MIN_ANCHORS: usize = 3;

/// The free-scale fit from correlations: `r_judges` (p × p judge correlations),
/// `r_ja` (p × m judge–anchor correlations) and `anchor_cov` (m × m anchor covariances P,
/// divisor N − 1; its diagonal gives V_k and SD(A_k)).
///
/// # Errors
/// Shapes that disagree, p < 3, m < 3, non-finite entries, a non-positive anchor variance,
/// or judges with no common factor (Σ λ_j² = 0).
pub fn fit(
    r_judges: &DMatrix<f64>,
    r_ja: &DMatrix<f64>,
    anchor_cov: &DMatrix<f64>,
) -> Result<FreeScaleFit, EstimateError> {
    fit_with_judges(r_judges, None, r_ja, anchor_cov)
}

/// The judges' one-factor ULS fit ([`one_factor_uls`]): loadings λ, RMS of the off-diagonal
/// residuals, and whether Newton converged.
pub type JudgeFit = (Vec<f64>, f64, bool);

/// [`fit`], reusing the judges' one-factor fit of `r_judges` when it is given (a null draw
/// of Tests J and O fits it once for both tests, not once per test).
///
/// # Errors
/// As [`fit`].
pub fn fit_with_judges(
    r_judges: &DMatrix<f64>,
    judges: Option<&Result<JudgeFit, EstimateError>>,
    r_ja: &DMatrix<f64>,
    anchor_cov: &DMatrix<f64>,
) -> Result<FreeScaleFit, EstimateError> {
    let (p, m) = (r_judges.nrows(), anchor_cov.nrows());
    check_shapes(r_judges, r_ja, anchor_cov)?;
    let (lambda, judge_rms, ok_l) = match judges {
        Some(fit) => fit.clone()?,
        None => one_factor_uls(r_judges)?,
    };
    let ll: f64 = lambda.iter().map(|l| l * l).sum();
    if lambda.iter().filter(|l| l.abs() > 1e-8).count() < 2 || !ll.is_finite() {
        return Err(EstimateError::FreeScale(
            "the judges share no common factor (their correlations are all about 0), so λ and q are undefined"
                .into(),
        ));
    }
    let q: Vec<f64> = (0..m)
        .map(|k| {
            let s: f64 = (0..p).map(|j| lambda[j] * r_ja[(j, k)]).sum();
            anchor_cov[(k, k)].sqrt() * s / ll
        })
        .collect();
    let (theta, misfit, ok_f) = fit_anchor_block(&q, anchor_cov);
    let (sigma_t2, sigma_c2) = (theta[0].exp(), theta[1].exp());
    let beta: Vec<f64> = theta.iter().skip(2).copied().collect();
    let mut pairs = Vec::with_capacity(m * (m - 1) / 2);
    for k in 0..m {
        for l in k + 1..m {
            pairs.push(PairEstimate {
                anchors: (k, l),
                sigma_t2,
                denominator: (sigma_c2 - beta[k]) * (sigma_c2 - beta[l]) / sigma_c2,
            });
        }
    }
    let denominator = pairs.iter().map(|x| x.denominator).sum::<f64>() / pairs.len() as f64;
    let mut estimate = Estimate::from_parts(Parts {
        sigma_t2,
        sigma_c2,
        k: sigma_t2 + sigma_c2,
        denominator,
        pairs,
        sigma_a2: (0..m).map(|k| anchor_cov[(k, k)] - sigma_t2).collect(),
        beta,
        clean: None,
        flags: Vec::new(),
    });
    let converged = ok_l && ok_f;
    for flag in admissibility(&lambda, sigma_t2, sigma_c2, converged) {
        estimate.undefine(flag);
    }
    Ok(FreeScaleFit {
        estimate,
        lambda,
        q,
        misfit,
        judge_rms,
        converged,
        identified: None,
    })
}

/// A variance below this share of K is on the boundary of the model.
pub const BOUNDARY: f64 = 1e-6;

/// The flags that leave no admissible free-scale solution: a judge loading |λ_j| ≥ 1
/// (Heywood), σ_t² or σ_c² at the boundary, or an optimiser that did not converge.
fn admissibility(lambda: &[f64], sigma_t2: f64, sigma_c2: f64, converged: bool) -> Vec<Flag> {
    let mut flags: Vec<Flag> = lambda
        .iter()
        .enumerate()
        .filter(|(_, l)| l.abs() >= 1.0)
        // A judge is not an anchor: its index rides in `pair`, as ML's judge flags do.
        .map(|(j, &l)| Flag {
            pair: Some((j, j)),
            ..Flag::new(FlagCode::HeywoodJudge, l)
        })
        .collect();
    let k = sigma_t2 + sigma_c2;
    if sigma_c2 < BOUNDARY * k {
        flags.push(Flag::new(FlagCode::Boundary, sigma_c2 / k));
    } else if sigma_t2 < BOUNDARY * k {
        flags.push(Flag::new(FlagCode::Boundary, -sigma_t2 / k));
    }
    if !converged {
        flags.push(Flag::new(FlagCode::NotConverged, f64::NAN));
    }
    flags
}

/// Whether a flag of this code leaves the fit without a readable ρ̂ as a whole.
#[must_use]
pub fn undefines(code: FlagCode) -> bool {
    matches!(
        code,
        FlagCode::NotConverged
            | FlagCode::HeywoodJudge
            | FlagCode::Boundary
            | FlagCode::Ridge
            | FlagCode::AnchorsMisfit
    )
}

fn check_shapes(
    r_judges: &DMatrix<f64>,
    r_ja: &DMatrix<f64>,
    anchor_cov: &DMatrix<f64>,
) -> Result<(), EstimateError> {
    let (p, m) = (r_judges.nrows(), anchor_cov.nrows());
    if r_judges.ncols() != p || anchor_cov.ncols() != m {
        return Err(EstimateError::FreeScale(
            "the judge correlation and anchor covariance matrices must be square".into(),
        ));
    }
    if r_ja.nrows() != p || r_ja.ncols() != m {
        return Err(EstimateError::FreeScale(format!(
            "judge–anchor correlations are {} × {}, expected {p} × {m}",
            r_ja.nrows(),
            r_ja.ncols()
        )));
    }
    if p < MIN_JUDGES {
        return Err(EstimateError::FreeScale(format!(
            "the free-scale estimator needs at least {MIN_JUDGES} judges to fit their one-factor loadings (got {p})"
        )));
    }
    if m < MIN_ANCHORS {
        return Err(EstimateError::FreeScale(format!(
            "the free-scale estimator needs at least {MIN_ANCHORS} continuous anchors: m + m(m−1)/2 moments for m + 2 unknowns (got {m})"
        )));
    }
    if r_judges
        .iter()
        .chain(r_ja.iter())
        .chain(anchor_cov.iter())
        .any(|x| !x.is_finite())
    {
        return Err(EstimateError::FreeScale(
            "a correlation or anchor covariance is not finite".into(),
        ));
    }
    if let Some(k) = (0..m).find(|&k| anchor_cov[(k, k)] <= 0.0) {
        return Err(EstimateError::FreeScale(format!(
            "anchor {} has variance ≤ 0",
            k + 1
        )));
    }
    Ok(())
}

/// The free-scale fit of a panel: judge correlations Pearson/polychoric/polyserial by scale
/// ([`correlation_matrix`]), anchors' covariances with divisor N − 1.
///
/// # Errors
/// Fewer than 3 judges, fewer than 3 anchors, an ordinal anchor (its covariances need its own
/// scale), or a correlation error (a column with one level, a constant column).
pub fn fit_panel(panel: &Panel) -> Result<(FreeScaleFit, Correlations), EstimateError> {
    fit_panel_with_cov(panel).map(|(fit, corr, _)| (fit, corr))
}

/// [`fit_panel`] and the anchor covariance it was fitted to, which the identified set reads.
fn fit_panel_with_cov(
    panel: &Panel,
) -> Result<(FreeScaleFit, Correlations, DMatrix<f64>), EstimateError> {
    let (p, m) = (panel.p(), panel.m());
    if p < MIN_JUDGES {
        return Err(EstimateError::FreeScaleJudges(p));
    }
    if let Some(k) = (0..m).find(|&k| panel.scales[p + k].is_ordinal()) {
        return Err(EstimateError::OrdinalAnchor(panel.anchors[k].clone()));
    }
    if m < MIN_ANCHORS {
        return Err(EstimateError::FreeScaleAnchors(m));
    }
    let corr = correlation_matrix(panel).map_err(correlation_error)?;
    let r_judges = corr.r.view((0, 0), (p, p)).into_owned();
    let r_ja = corr.r.view((0, p), (p, m)).into_owned();
    let anchor_cov =
        crate::moments::covariance(&panel.data[p * panel.n..], panel.n, m, &mut Vec::new());
    let fit = fit(&r_judges, &r_ja, &anchor_cov)?;
    Ok((fit, corr, anchor_cov))
}

/// Why the judge correlations could not be formed, whatever the correlation layer's error type.
fn correlation_error(e: impl std::fmt::Display) -> EstimateError {
    EstimateError::Correlation(e.to_string())
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
    let mom = identified::moments_of(fit, anchor_cov);
    let Some(set) = identified::of_panel(panel, &mom) else {
        return;
    };
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

/// The free-scale estimate of one bootstrap resample: `data` holds the resampled items in
/// `panel`'s column layout, and every column keeps `panel`'s scale, so an ordinal judge stays
/// ordinal even when a level is missing from the resample. `None` when the fit is undefined
/// on the resample (a judge left with one level, say): an inadmissible resample.
#[must_use]
pub fn fit_resample(panel: &Panel, data: Vec<f64>) -> Option<Estimate> {
    let n = data.len() / panel.q().max(1);
    let resample = Panel {
        n,
        data,
        judges: panel.judges.clone(),
        anchors: panel.anchors.clone(),
        families: None,
        scales: panel.scales.clone(),
        missing: vec![0; panel.q()],
        n_dropped: 0,
    };
    fit_panel(&resample).ok().map(|(f, _)| f.estimate)
}

/// The free-scale estimate from a covariance matrix of p judges then m continuous anchors
/// (the bootstrap's path when every column is continuous: Pearson's correlations are the
/// covariance's). `None` when the fit is undefined (a column without variance, say).
#[must_use]
pub fn fit_covariance(p: usize, m: usize, cov: &DMatrix<f64>) -> Option<Estimate> {
    let (r_judges, r_ja, anchor_cov) = inputs_of_covariance(p, m, cov)?;
    fit(&r_judges, &r_ja, &anchor_cov).ok().map(|f| f.estimate)
}

/// The fit's inputs from a covariance of p judges then m continuous anchors: the judge
/// correlations, the judge–anchor correlations and the anchor covariances. `None` when a
/// column has no variance.
#[must_use]
pub fn inputs_of_covariance(
    p: usize,
    m: usize,
    cov: &DMatrix<f64>,
) -> Option<(DMatrix<f64>, DMatrix<f64>, DMatrix<f64>)> {
    let sd: Vec<f64> = (0..p + m).map(|c| cov[(c, c)].sqrt()).collect();
    if sd.iter().any(|s| !(s.is_finite() && *s > 0.0)) {
        return None;
    }
    let r = DMatrix::from_fn(p + m, p + m, |a, b| {
        if a == b {
            1.0
        } else {
            cov[(a, b)] / (sd[a] * sd[b])
        }
    });
    Some((
        r.view((0, 0), (p, p)).into_owned(),
        r.view((0, p), (p, m)).into_owned(),
        cov.view((p, p), (m, m)).into_owned(),
    ))
}

/// Iteration limits and tolerances of the Newton / Levenberg–Marquardt loops.
const MAX_ITER: usize = 500;
/// Gauss–Newton iterations before Newton steps are tried.
const GN_ITERS: usize = 25;
/// Two runs within this distance (in ln σ², β) are in one basin.
const SAME_BASIN: f64 = 1e-2;
const MAX_DAMP: usize = 12;
const GRAD_TOL: f64 = 1e-14;
const STEP_TOL: f64 = 1e-13;
/// A run that can no longer decrease the misfit is at a minimum when its gradient is below
/// this: a θ moved by 1e-7 changes ρ far below its sampling error at any N.
const STALL_TOL: f64 = 1e-7;

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
