//! The null model itself: the latent covariance, its Cholesky factor and the ordinal
//! observation of each column (what every fitted null is built into and every draw reads).

use nalgebra::DMatrix;
use statrs::distribution::{ContinuousCDF, Normal};

use crate::estimate::EstimateError;

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
    pub(super) chol: DMatrix<f64>,
    pub discrete: Vec<Option<Discrete>>,
    /// Every column ordinal on one factor: draws are tallies of code patterns
    /// ([`crate::ordinal::PatternNull`]), whatever N.
    pub(super) patterns: Option<std::sync::Arc<crate::ordinal::PatternNull>>,
}

impl NullModel {
    /// A null from its latent covariance.
    ///
    /// # Errors
    /// When `cov` is not positive definite.
    pub fn new(
        cov: DMatrix<f64>,
        discrete: Vec<Option<Discrete>>,
    ) -> Result<NullModel, EstimateError> {
        let chol = cov
            .clone()
            .cholesky()
            .ok_or(EstimateError::NullNotPositiveDefinite)?
            .l();
        Ok(NullModel::of_parts(cov, chol, discrete))
    }

    /// The null of these parts, with its pattern draws when every column is ordinal on one
    /// factor.
    pub(super) fn of_parts(
        cov: DMatrix<f64>,
        chol: DMatrix<f64>,
        discrete: Vec<Option<Discrete>>,
    ) -> NullModel {
        let ordinal: Option<Vec<&Discrete>> = discrete.iter().map(Option::as_ref).collect();
        let patterns = ordinal.and_then(|d| {
            let cuts: Vec<&[f64]> = d.iter().map(|d| &d.cuts[..]).collect();
            let values: Vec<&[f64]> = d.iter().map(|d| &d.values[..]).collect();
            crate::ordinal::PatternNull::new(&cov, &cuts, &values).map(std::sync::Arc::new)
        });
        NullModel {
            cov,
            chol,
            discrete,
            patterns,
        }
    }
}
