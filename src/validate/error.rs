//! Why a validation study cannot run: its options or the panel it reads.

use super::design::MAX_ANCHORS;
use crate::wording::Setting;

/// A validation failure; its message is the one the command line shows.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ValidateError {
    #[error(
        "{inject} needs between 3 and {max} values (one per synthetic anchor; the free-scale estimator needs m ≥ 3), got {0}",
        inject = Setting::Inject.marked(),
        max = MAX_ANCHORS
    )]
    InjectCount(usize),
    #[error("{inject} {0}: every ρ must satisfy |ρ| < 1", inject = Setting::Inject.marked())]
    InjectRange(f64),
    /// With no two injected values apart there is no ordering to recover, and "ordered in
    /// every run" would be true of an estimator that gave no estimate.
    #[error(
        "{inject} gives no two different values: validate checks that the injected ordering is recovered, which needs two (e.g. 0,0.4,0.7)",
        inject = Setting::Inject.marked()
    )]
    InjectTies,
    #[error("{} must be between 1 and 16777215", crate::wording::RunSetting::Reps.marked())]
    Reps,
    #[error("give between 1 and 65535 panel sizes")]
    Sizes,
    #[error("N = {0}: at least 10 items are needed")]
    SmallN(usize),
    #[error(
        "{} needs at least 2 resamples (or 0 for off)",
        crate::wording::RunSetting::Bootstrap.marked()
    )]
    Bootstrap,
    #[error(
        "validate needs at least 3 judges (the free-scale estimator's p ≥ 3); the panel has {0}"
    )]
    TooFewJudges(usize),
    #[error("validate needs at least 2 complete items")]
    TooFewItems,
    /// A synthetic panel over the cell limit, or its workers not started.
    #[error(transparent)]
    Cells(#[from] crate::simulate::SimError),
}

impl From<ValidateError> for String {
    fn from(e: ValidateError) -> String {
        e.to_string()
    }
}
