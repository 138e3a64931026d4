//! The fitted nulls (docs/method.md §3, §7): the scenario nulls of a parameter set and the
//! matched nulls of a real panel, each ordinal column at its own empirical thresholds.

use nalgebra::DMatrix;

use super::model::{Discrete, NullModel};
use crate::estimate::EstimateError;
use crate::model::{Params, Violations};
use crate::panel::{Panel, Scale};

impl NullModel {
    /// The scenario null (docs/method.md §3): the scenario's own parameters with every violation
    /// switched off (second factor, shared and family residuals, heteroscedasticity,
    /// non-Gaussian draws). Family labels and ordinal observation are kept: they are
    /// metadata and scale, not violations.
    ///
    /// # Errors
    /// When the parameters are invalid.
    pub fn scenario(params: &Params) -> Result<NullModel, EstimateError> {
        Self::scenario_with(params, Vec::new())
    }

    /// The scenario null of the free-scale tests (docs/method.md §7): as [`NullModel::scenario`], but
    /// the judges keep their own scales a_j, which the free-scale model allows.
    ///
    /// # Errors
    /// When the parameters are invalid.
    pub fn scenario_free_scale(params: &Params) -> Result<NullModel, EstimateError> {
        Self::scenario_with(params, params.violations.judge_scale.clone())
    }

    fn scenario_with(params: &Params, judge_scale: Vec<f64>) -> Result<NullModel, EstimateError> {
        let null = Params {
            violations: Violations {
                families: params.violations.families.clone(),
                ordinal: params.violations.ordinal.clone(),
                judge_scale,
                ..Violations::default()
            },
            ..params.clone()
        };
        null.validate()
            .map_err(|e| EstimateError::NullParams(e.to_string()))?;
        let cov = null.population_cov();
        let mut discrete = vec![None; null.q()];
        for (col, d) in &null.violations.ordinal {
            let values = (1..=d.cum_probs.len() + 1).map(|l| l as f64).collect();
            discrete[*col] = Some(Discrete::from_probs(
                cov[(*col, *col)].sqrt(),
                &d.cum_probs,
                values,
            ));
        }
        NullModel::new(cov, discrete)
    }

    /// The matched null of a real panel, judges only (docs/method.md §3): a common factor of variance
    /// K̂ on every judge and error variances Var(J_j) − K̂, each ordinal judge discretised at
    /// its own empirical thresholds so the null has the panel's marginals.
    ///
    /// # Errors
    /// When K̂ ≤ 0 (no single-factor model fits judges that do not covary positively).
    pub fn matched_judges(panel: &Panel, s: &DMatrix<f64>) -> Result<NullModel, EstimateError> {
        let k = crate::moments::mean_judge_cov(s, panel.p(), crate::moments::JudgePairs::All)
            .unwrap_or(f64::NAN);
        if k.is_nan() || k <= 0.0 {
            return Err(EstimateError::NoMatchedNull(format!(
                "the judges' mean covariance K = {k:.4} is not positive, so no single-factor null fits them"
            )));
        }
        let p = panel.p();
        let cov = DMatrix::from_fn(p, p, |i, j| {
            if i == j {
                s[(i, i)].max(k * (1.0 + 1e-6))
            } else {
                k
            }
        });
        let discrete = (0..p)
            .map(|c| empirical(panel, c, cov[(c, c)].sqrt()))
            .collect();
        NullModel::new(cov, discrete)
    }

    /// The matched null of Test A on the continuous judges of a mixed panel (`continuous`, at
    /// least 2): one common factor with their mean covariance K̂ and error variances
    /// Var(J_j) − K̂ among them; every other judge independent unit noise, which Test A never
    /// reads. All columns continuous, so draws take the Wishart shortcut.
    ///
    /// # Errors
    /// When their mean covariance is not positive.
    pub fn matched_continuous_judges(
        panel: &Panel,
        s: &DMatrix<f64>,
        continuous: &[usize],
    ) -> Result<NullModel, EstimateError> {
        let pairs: Vec<f64> = continuous
            .iter()
            .enumerate()
            .flat_map(|(a, &j)| continuous[a + 1..].iter().map(move |&l| s[(j, l)]))
            .collect();
        let k = pairs.iter().sum::<f64>() / pairs.len() as f64;
        if k.is_nan() || k <= 0.0 {
            return Err(EstimateError::NoMatchedNull(format!(
                "the continuous judges' mean covariance K = {k:.4} is not positive, so no single-factor null fits them"
            )));
        }
        let p = panel.p();
        let cov = DMatrix::from_fn(p, p, |i, j| {
            match (continuous.contains(&i), continuous.contains(&j)) {
                (true, true) if i == j => s[(i, i)].max(k * (1.0 + 1e-6)),
                (true, true) => k,
                _ if i == j => 1.0,
                _ => 0.0,
            }
        });
        NullModel::new(cov, vec![None; p])
    }

    /// The matched null of a real panel with anchors: the fitted model's population
    /// covariance (plug-in σ̂_t², σ̂_c², judge error variances Var(J_j) − K̂, ρ̂_k, σ̂_ak),
    /// with ordinal columns discretised at their empirical thresholds.
    ///
    /// # Errors
    /// When the fit is out of range, so that no valid model reproduces it.
    pub fn matched_full(
        panel: &Panel,
        s: &DMatrix<f64>,
        est: &crate::estimate::Estimate,
    ) -> Result<NullModel, EstimateError> {
        let p = panel.p();
        let rho: Option<Vec<f64>> = est.rho().into_iter().collect();
        let rho = rho
            .filter(|r| r.iter().all(|x| x.abs() < 1.0))
            .ok_or_else(|| {
                EstimateError::NoMatchedNull(
                    "the fit is out of range (see its flags), so no matched null exists".into(),
                )
            })?;
        let params = Params {
            sigma_t2: est.sigma_t2,
            sigma_c2: est.sigma_c2,
            p,
            judge_var: (0..p)
                .map(|j| (s[(j, j)] - est.k).max(1e-6 * s[(j, j)]))
                .collect(),
            sigma_a: est.anchors.iter().map(|a| a.sigma_a2.sqrt()).collect(),
            rho,
            violations: Violations::default(),
        };
        params
            .validate()
            .map_err(|e| EstimateError::NullParams(e.to_string()))?;
        let cov = params.population_cov();
        let discrete = (0..panel.q())
            .map(|c| empirical(panel, c, cov[(c, c)].sqrt()))
            .collect();
        NullModel::new(cov, discrete)
    }

    /// The matched null of the free-scale model (docs/method.md §7) fitted to a panel: judges on a
    /// standardised latent scale with loadings λ̂ (Cov(J_i, J_j) = λ̂_i λ̂_j, error variances
    /// 1 − λ̂_j²), Cov(J_j, A_k) = λ̂_j (σ̂_t² + β̂_k)/√K̂, anchor covariances σ̂_t² + β̂_k β̂_l/σ̂_c²
    /// with the observed variances V_k; ordinal judges discretised at their own empirical
    /// thresholds. Continuous judges need no scale: only their correlations are read.
    ///
    /// # Errors
    /// A judge loading with |λ̂_j| ≥ 1 (a Heywood case), an out-of-range fit, or a model
    /// covariance that is not positive definite.
    pub fn free_scale(
        panel: &Panel,
        fit: &crate::estimate::free_scale::FreeScaleFit,
    ) -> Result<NullModel, EstimateError> {
        let (p, m) = (panel.p(), panel.m());
        let e = &fit.estimate;
        heywood(panel, &fit.lambda)?;
        if let Some(why) = crate::estimate::free_scale::untestable(e) {
            return Err(EstimateError::NoMatchedNull(why.into()));
        }
        if e.sigma_t2 <= 0.0 || e.sigma_c2 <= 0.0 || e.anchors.iter().any(|a| a.sigma_a2 <= 0.0) {
            return Err(EstimateError::NoMatchedNull("the free-scale fit is out of range (see its flags), so no matched free-scale null exists".into()));
        }
        let root_k = (e.sigma_t2 + e.sigma_c2).sqrt();
        let beta: Vec<f64> = e.anchors.iter().map(|a| a.beta).collect();
        let cov = DMatrix::from_fn(p + m, p + m, |i, j| match (i < p, j < p) {
            (true, true) if i == j => 1.0,
            (true, true) => fit.lambda[i] * fit.lambda[j],
            (true, false) => fit.lambda[i] * (e.sigma_t2 + beta[j - p]) / root_k,
            (false, true) => fit.lambda[j] * (e.sigma_t2 + beta[i - p]) / root_k,
            (false, false) if i == j => e.sigma_t2 + e.anchors[i - p].sigma_a2,
            (false, false) => e.sigma_t2 + beta[i - p] * beta[j - p] / e.sigma_c2,
        });
        let discrete = (0..p + m)
            .map(|c| {
                if c < p {
                    empirical(panel, c, 1.0)
                } else {
                    None
                }
            })
            .collect();
        NullModel::new(cov, discrete)
            .map_err(|_| EstimateError::NoMatchedNull("the fitted free-scale model's covariance is not positive definite, so no matched free-scale null exists".into()))
    }

    /// The matched free-scale null of the judges alone: one factor with the loadings λ̂ of
    /// their correlations, error variances 1 − λ̂_j², ordinal judges at their own empirical
    /// thresholds (what Test J needs when no free-scale fit of the anchors exists).
    ///
    /// # Errors
    /// A loading with |λ̂_j| ≥ 1 (a Heywood case).
    pub fn free_scale_judges(panel: &Panel, lambda: &[f64]) -> Result<NullModel, EstimateError> {
        let p = lambda.len();
        heywood(panel, lambda)?;
        let cov = DMatrix::from_fn(
            p,
            p,
            |i, j| {
                if i == j { 1.0 } else { lambda[i] * lambda[j] }
            },
        );
        let discrete = (0..p).map(|c| empirical(panel, c, 1.0)).collect();
        NullModel::new(cov, discrete)
    }
}

/// Refuses a judge loading on or beyond ±1: no error variance 1 − λ² ≥ 0 is left for it.
fn heywood(panel: &Panel, lambda: &[f64]) -> Result<(), EstimateError> {
    match lambda.iter().position(|l| l.abs() >= 1.0) {
        Some(j) => Err(EstimateError::NoMatchedNull(format!(
            "judge '{}' has a one-factor loading λ = {:.4} with |λ| ≥ 1 (a Heywood case: it would need negative error variance), so no free-scale null reproduces the judges",
            crate::location::sanitize(&panel.judges[j]),
            lambda[j]
        ))),
        None => Ok(()),
    }
}

/// A column's empirical thresholds as a [`Discrete`] (ordinal columns only): cut points at
/// the Gaussian quantiles of its cumulative level proportions, for a latent SD `sd`.
fn empirical(panel: &Panel, c: usize, sd: f64) -> Option<Discrete> {
    let Scale::Ordinal { levels } = &panel.scales[c] else {
        return None;
    };
    let col = panel.col(c);
    let n = col.len() as f64;
    let mut cum = 0.0;
    let mut cum_probs = Vec::with_capacity(levels.len() - 1);
    for l in &levels[..levels.len() - 1] {
        cum += col.iter().filter(|x| **x == *l as f64).count() as f64 / n;
        cum_probs.push(cum);
    }
    Some(Discrete::from_probs(
        sd,
        &cum_probs,
        levels.iter().map(|l| *l as f64).collect(),
    ))
}
