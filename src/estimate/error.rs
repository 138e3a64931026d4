//! Why an estimator cannot run: one typed error for the estimate layer, whose messages are
//! the sentences the command line prints after the estimator's name.

use std::path::Path;

use thiserror::Error;

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
    /// The free-scale fit could not run on this panel.
    #[error("{0}")]
    FreeScale(String),
    /// The maximum-likelihood fit could not run on this panel.
    #[error("{0}")]
    Ml(String),
    /// The bias correction has nothing to simulate from.
    #[error("{0}")]
    Bias(String),
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

    /// The command-line error for a refusal on the panel read from `path`.
    #[must_use]
    pub fn at(self, path: &Path) -> crate::error::Error {
        if self.is_usage() {
            crate::error::Error::Usage(self.to_string())
        } else {
            crate::error::Error::data(path, self.to_string())
        }
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

/// Options the estimator cannot honour exit 2, data it cannot fit exit 65 (with no file
/// named; [`EstimateError::at`] names it).
impl From<EstimateError> for crate::error::Error {
    fn from(e: EstimateError) -> Self {
        e.at(Path::new(""))
    }
}
