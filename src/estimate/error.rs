//! Why an estimator cannot run: one typed error for the estimate layer, whose messages are
//! the sentences the command line prints after the estimator's name.

use thiserror::Error;

use super::free_scale::{MIN_ANCHORS, MIN_JUDGES};
use super::ml::MAX_VARIABLES;
use crate::wording::Setting;

/// Every way an estimate can be refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum EstimateError {
    /// The family-blocked estimator was given no family metadata.
    #[error("needs judge families")]
    NoFamilies,
    /// Every judge is in one family, so there is no cross-family pair.
    #[error("needs judges from at least 2 families")]
    OneFamily,
    /// The designated-clean estimator was given no anchor (or one out of range).
    #[error("needs an anchor designated as clean")]
    NoCleanAnchor,
    /// Theorem 1's K needs a judge pair.
    #[error("needs at least 2 judges")]
    TooFewJudges,
    /// The free-scale fit needs more judges than the panel has.
    #[error("the free-scale estimator needs at least {MIN_JUDGES} judges (the panel has {0})")]
    FreeScaleJudges(usize),
    /// The free-scale fit reads anchors' covariances, which an ordinal anchor lacks.
    #[error(
        "anchor '{0}' is ordinal: the free-scale estimator needs continuous anchors, whose covariances carry the scale that identifies ρ (Section 7)"
    )]
    OrdinalAnchor(String),
    /// The free-scale fit needs more continuous anchors than the panel has.
    #[error(
        "the free-scale estimator needs at least {MIN_ANCHORS} continuous anchors (the panel has {0}); with fewer, ρ is not identified once judges have their own scales (Section 7)"
    )]
    FreeScaleAnchors(usize),
    /// The latent fits read the judges' one-factor loadings, which need three judges.
    #[error(
        "the designated-clean estimate on latent scales needs at least 3 judges (the panel has {0}): their one-factor loadings fix the judges' direction"
    )]
    LatentJudges(usize),
    /// With ordinal anchors a clean anchor identifies the others' ρ only at m ≥ 3.
    #[error(
        "with ordinal anchors, trusting one anchor as clean identifies the others' ρ only with at least 3 anchors (the panel has {0}): at 2 the data leave one direction free even with ρ_d = 0 (Section 7)"
    )]
    LatentAnchors(usize),
    /// The judge correlations could not be formed.
    #[error("{0}")]
    Correlation(String),
    /// The free-scale fit of the correlations failed (shapes, a degenerate matrix).
    #[error("{0}")]
    FreeScale(String),
    /// ML is fitted only with two judges and two anchors or more.
    #[error("ML needs ≥ 2 judges and ≥ 2 anchors")]
    MlTooSmall,
    /// ML's cost grows as the fourth power of the column count.
    #[error(
        "{0} judge and anchor columns, and ML is limited to {MAX_VARIABLES} (its cost grows as the fourth power of the count); use the closed form, or select columns with {judges} and {anchors}",
        judges = Setting::Judges.marked(),
        anchors = Setting::Anchors.marked()
    )]
    MlTooManyColumns(usize),
    /// N items span at most N − 1 dimensions, so S is singular.
    #[error(
        "the sample covariance is not positive definite: {items} items for {columns} columns (ML needs more items than columns)"
    )]
    MlTooFewItems { items: usize, columns: usize },
    /// S has no Cholesky factor.
    #[error("the sample covariance is not positive definite")]
    MlNotPositiveDefinite,
    /// Every start left Σ indefinite.
    #[error("no start gives a positive-definite implied covariance")]
    MlNoStart,
    /// The free-scale null needs three judges.
    #[error("fewer than 3 judges")]
    NullTooFewJudges,
    /// A null model's latent covariance has no Cholesky factor.
    #[error("the null covariance is not positive definite")]
    NullNotPositiveDefinite,
    /// A null model's parameters break a model constraint (the model's message).
    #[error("{0}")]
    NullParams(String),
    /// The free-scale ρ̂ is undefined (this flag), so its bias cannot be corrected.
    #[error(
        "the free-scale ρ̂ is undefined ({0}), so there is nothing to correct; read its identified set"
    )]
    NothingToCorrect(String),
    /// No null of the fitted model reproduces the panel, and why.
    #[error("{0}")]
    NoMatchedNull(String),
}

/// Callers that still speak in messages keep working with `?`.
impl From<EstimateError> for String {
    fn from(e: EstimateError) -> String {
        e.to_string()
    }
}

impl EstimateError {
    /// Whether the user's options, not the data, are the trouble (exit 2 rather than 65).
    #[must_use]
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            EstimateError::NoFamilies | EstimateError::OneFamily | EstimateError::NoCleanAnchor
        )
    }
}

impl From<super::blocked::NotApplicable> for EstimateError {
    fn from(e: super::blocked::NotApplicable) -> Self {
        match e {
            super::blocked::NotApplicable::NoFamilies => EstimateError::NoFamilies,
            super::blocked::NotApplicable::OneFamily => EstimateError::OneFamily,
        }
    }
}
