//! One estimator's fit as the battery reads it: the estimate, what it reports beyond, and its
//! bootstrap intervals.

use crate::bootstrap::BootstrapResult;
use crate::estimate::{Estimate, Estimator};

/// One estimator's fit with its bootstrap intervals.
#[derive(Debug, Clone, PartialEq)]
pub struct Inferred {
    pub estimator: Estimator,
    pub estimate: Estimate,
    /// What the estimator reports beyond the estimate (λ and misfit for the free scale).
    pub detail: crate::estimate::Detail,
    pub boot: BootstrapResult,
}
