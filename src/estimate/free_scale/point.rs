//! The free-scale point fit (docs/method.md §7): λ from the judge correlations, then the
//! anchor block, with its admissibility flags; the estimator's entry and its identified set
//! sit above it, in `free_scale` and `identified`.

use nalgebra::DMatrix;

use super::joint::fit_anchor_block;
use super::judges::one_factor_uls;
use crate::estimate::{Estimate, EstimateError, Flag, FlagCode, PairEstimate, Parts};
use crate::ordinal::{Correlations, correlation_matrix};
use crate::panel::Panel;

/// A set wider than half of [−1, 1] says next to nothing about the anchor: no point.
pub const WIDE_SET: f64 = 1.0;
/// The identified set of a free-scale fit.
#[derive(Debug, Clone, PartialEq)]
pub struct IdentifiedSet {
    /// Per anchor, the range of ρ_k over the confidence set (`None` when the set is empty).
    pub rho: Vec<Option<(f64, f64)>>,
    /// The range of σ_t² over the set.
    pub sigma_t2: Option<(f64, f64)>,
    /// The set reaches the edge of the parameter space (σ_t² → 0, σ_c² → 0 or ∞).
    pub unbounded: bool,
    /// Jackknife groups used for Γ.
    pub groups: usize,
}

impl IdentifiedSet {
    /// Whether the data identify a point for every anchor: the set is non-empty, bounded and
    /// narrow.
    #[must_use]
    pub fn is_point(&self) -> bool {
        (0..self.rho.len()).all(|k| self.is_point_for(k))
    }

    /// Whether the data identify anchor k's ρ as a point: a non-empty, bounded set no wider
    /// than [`WIDE_SET`] for it.
    #[must_use]
    pub fn is_point_for(&self, k: usize) -> bool {
        !self.unbounded && self.rho[k].is_some_and(|(lo, hi)| hi - lo <= WIDE_SET)
    }

    /// No (σ_t², σ_c²) passes: the free-scale model is rejected on these moments.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.sigma_t2.is_none()
    }
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
    /// The set of ρ the data identify ([`crate::estimate::identified`]); computed on a panel's own fit, not
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
    // The anchor block is fitted in units of the anchors' mean variance: q (degree ½ in P) and
    // P (degree 1) would otherwise weigh against each other by the anchors' units, and the grid
    // and tolerances would be absolute. The misfit is reported in those units (unit-free).
    let unit = crate::moments::unit_scale(anchor_cov);
    let anchor_unit = anchor_cov / unit;
    let q_unit: Vec<f64> = (0..m)
        .map(|k| {
            let s: f64 = (0..p).map(|j| lambda[j] * r_ja[(j, k)]).sum();
            anchor_unit[(k, k)].sqrt() * s / ll
        })
        .collect();
    let (theta, misfit, ok_f) = fit_anchor_block(&q_unit, &anchor_unit);
    let q: Vec<f64> = q_unit.iter().map(|x| x * unit.sqrt()).collect();
    let (sigma_t2, sigma_c2) = (theta[0].exp() * unit, theta[1].exp() * unit);
    let beta: Vec<f64> = theta.iter().skip(2).map(|b| b * unit).collect();
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
pub(super) fn admissibility(
    lambda: &[f64],
    sigma_t2: f64,
    sigma_c2: f64,
    converged: bool,
) -> Vec<Flag> {
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

/// The codes of a fit's flags that leave it without a readable ρ̂ ([`undefines`]), in order.
#[must_use]
pub fn undefining_codes(e: &Estimate) -> Vec<&'static str> {
    e.flags
        .iter()
        .filter(|f| undefines(f.code))
        .map(|f| f.code.as_str())
        .collect()
}

/// Why a fit's anchor residuals cannot be tested, or `None` when they can: the one rule the
/// `anchors_misfit` flag and Test O (docs/method.md §3) both word. An empty identified set has
/// already rejected the model, so no null can be drawn from the fit and Test O reads that
/// rejection; a boundary fit the set does not reject (the equal-β ridge's valley) keeps its test.
#[must_use]
pub fn untestable(e: &Estimate) -> Option<&'static str> {
    e.has_flag(FlagCode::AnchorsMisfit).then_some(
        "the free-scale model is rejected by the anchors' own moments (flag anchors_misfit: its identified set is empty), so there is no fitted model to draw Test O's null from; that rejection is the answer Test O would give",
    )
}

pub(super) fn check_shapes(
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
pub(super) fn fit_panel_with_cov(
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
pub(super) fn correlation_error(e: impl std::fmt::Display) -> EstimateError {
    EstimateError::Correlation(e.to_string())
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
