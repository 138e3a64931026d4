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

/// The designated-clean estimator a designation asks for on `panel`: on latent scales when a
/// column is ordinal (its codes share no scale), else on the common scale.
#[must_use]
pub fn designated_estimator(panel: &crate::panel::Panel) -> crate::estimate::Estimator {
    if crate::estimate::latent::wanted(panel) {
        crate::estimate::Estimator::DesignatedCleanLatent
    } else {
        crate::estimate::Estimator::DesignatedClean
    }
}
