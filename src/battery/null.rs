//! Null distributions for the battery (Section 5, SPEC §3): a correctly specified
//! single-common-factor model at the panel's N, from which each test's 95th-percentile
//! threshold and Monte-Carlo p-value come.
//!
//! A Gaussian null's statistics depend on the data only through the sample covariance, which
//! is Wishart distributed, so a draw is made directly by the Bartlett decomposition in O(q³)
//! whatever N is. Ordinal nulls simulate N rows and discretise them.

use nalgebra::DMatrix;
use rand::Rng;
use rand_distr::{ChiSquared, Distribution, StandardNormal};
use statrs::distribution::{ContinuousCDF, Normal};

use crate::model::{Params, Violations};
use crate::moments::covariance;
use crate::panel::{Panel, Scale};

/// Ordinal observation of one null column: absolute cut points and the value of each level.
#[derive(Debug, Clone, PartialEq)]
pub struct Discrete {
    /// Ascending cut points on the column's latent scale (L − 1 of them).
    pub cuts: Vec<f64>,
    /// The observed value of each of the L levels, ascending.
    pub values: Vec<f64>,
}

impl Discrete {
    /// Cuts at the Gaussian quantiles of `cum_probs` for a column of SD `sd`.
    #[must_use]
    pub fn from_probs(sd: f64, cum_probs: &[f64], values: Vec<f64>) -> Discrete {
        let z = Normal::standard();
        Discrete {
            cuts: cum_probs.iter().map(|p| sd * z.inverse_cdf(*p)).collect(),
            values,
        }
    }

    /// The level of latent value `x`.
    #[must_use]
    pub fn observe(&self, x: f64) -> f64 {
        self.values[self.cuts.iter().filter(|c| **c < x).count()]
    }
}

/// A correctly specified null: the covariance of the latent Gaussian model, its Cholesky
/// factor, and which columns are observed on an ordinal scale.
#[derive(Debug, Clone)]
pub struct NullModel {
    pub cov: DMatrix<f64>,
    chol: DMatrix<f64>,
    pub discrete: Vec<Option<Discrete>>,
}

impl NullModel {
    /// A null from its latent covariance.
    ///
    /// # Errors
    /// When `cov` is not positive definite.
    pub fn new(cov: DMatrix<f64>, discrete: Vec<Option<Discrete>>) -> Result<NullModel, String> {
        let chol = cov
            .clone()
            .cholesky()
            .ok_or("the null covariance is not positive definite")?
            .l();
        Ok(NullModel {
            cov,
            chol,
            discrete,
        })
    }

    /// The scenario null (SPEC §3): the scenario's own parameters with every violation
    /// switched off (second factor, shared and family residuals, heteroscedasticity,
    /// non-Gaussian draws). Family labels and ordinal observation are kept: they are
    /// metadata and scale, not violations.
    ///
    /// # Errors
    /// When the parameters are invalid.
    pub fn scenario(params: &Params) -> Result<NullModel, String> {
        let null = Params {
            violations: Violations {
                families: params.violations.families.clone(),
                ordinal: params.violations.ordinal.clone(),
                ..Violations::default()
            },
            ..params.clone()
        };
        null.validate()?;
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

    /// The matched null of a real panel, judges only (SPEC §3): a common factor of variance
    /// K̂ on every judge and error variances Var(J_j) − K̂, each ordinal judge discretised at
    /// its own empirical thresholds so the null has the panel's marginals.
    ///
    /// # Errors
    /// When K̂ ≤ 0 (no single-factor model fits judges that do not covary positively).
    pub fn matched_judges(panel: &Panel, s: &DMatrix<f64>) -> Result<NullModel, String> {
        let k = crate::moments::mean_judge_cov(s, panel.p(), crate::moments::JudgePairs::All)
            .unwrap_or(f64::NAN);
        if k.is_nan() || k <= 0.0 {
            return Err(format!(
                "the judges' mean covariance K = {k:.4} is not positive, so no single-factor null fits them"
            ));
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
    ) -> Result<NullModel, String> {
        let p = panel.p();
        let rho: Option<Vec<f64>> = est.rho().into_iter().collect();
        let rho = rho
            .filter(|r| r.iter().all(|x| x.abs() < 1.0))
            .ok_or("the fit is out of range (see its flags), so no matched null exists")?;
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
        params.validate()?;
        let cov = params.population_cov();
        let discrete = (0..panel.q())
            .map(|c| empirical(panel, c, cov[(c, c)].sqrt()))
            .collect();
        NullModel::new(cov, discrete)
    }

    /// The null restricted to its first `p` columns (the judges).
    #[must_use]
    pub fn judges_only(&self, p: usize) -> NullModel {
        NullModel {
            cov: self.cov.view((0, 0), (p, p)).into_owned(),
            chol: self.chol.view((0, 0), (p, p)).into_owned(),
            discrete: self.discrete[..p].to_vec(),
        }
    }

    /// Number of columns.
    #[must_use]
    pub fn q(&self) -> usize {
        self.cov.nrows()
    }

    /// Whether draws can use the Wishart shortcut (all columns continuous, N − 1 ≥ q).
    #[must_use]
    pub fn wishart_ok(&self, n: usize) -> bool {
        self.discrete.iter().all(Option::is_none) && n > self.q()
    }

    /// One null sample covariance at N = `n`: by Wishart when possible, else by rows.
    pub fn draw_cov<R: Rng + ?Sized>(
        &self,
        n: usize,
        rng: &mut R,
        scratch: &mut Vec<f64>,
    ) -> DMatrix<f64> {
        if self.wishart_ok(n) {
            self.draw_wishart(n, rng)
        } else {
            self.draw_rows(n, rng, scratch)
        }
    }

    /// S = L A Aᵀ Lᵀ / (N − 1) with A lower triangular, A_ii² ~ χ²(N − 1 − i) (0-based i)
    /// and A_ij ~ N(0, 1) below the diagonal (Bartlett decomposition). Same distribution as
    /// the sample covariance of N Gaussian rows.
    ///
    /// # Panics
    /// If N − 1 < q (check [`NullModel::wishart_ok`] first).
    pub fn draw_wishart<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> DMatrix<f64> {
        let q = self.q();
        let dof = n - 1;
        let mut a = DMatrix::<f64>::zeros(q, q);
        for i in 0..q {
            let chi = ChiSquared::new((dof - i) as f64).expect("dof > q keeps χ² valid");
            a[(i, i)] = chi.sample(rng).sqrt();
            for j in 0..i {
                a[(i, j)] = StandardNormal.sample(rng);
            }
        }
        let b = &self.chol * a;
        (&b * b.transpose()) / dof as f64
    }

    /// The sample covariance of N simulated rows (latent Gaussian, then discretised).
    pub fn draw_rows<R: Rng + ?Sized>(
        &self,
        n: usize,
        rng: &mut R,
        scratch: &mut Vec<f64>,
    ) -> DMatrix<f64> {
        let q = self.q();
        let mut z = vec![0.0; q];
        let mut data = vec![0.0; n * q];
        for i in 0..n {
            for zi in &mut z {
                *zi = StandardNormal.sample(rng);
            }
            for c in 0..q {
                let x: f64 = (0..=c).map(|k| self.chol[(c, k)] * z[k]).sum();
                data[c * n + i] = match &self.discrete[c] {
                    Some(d) => d.observe(x),
                    None => x,
                };
            }
        }
        covariance(&data, n, q, scratch)
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
