//! The settings of a battery run: resamples, null draws and the seed, and the streams each
//! calibration draws on.

use super::calibration::Draws;

/// Default number of null draws per test (docs/method.md §3).
pub const DEFAULT_NULL_DRAWS: usize = 1000;

/// Settings of a battery run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Bootstrap resamples B.
    pub resamples: usize,
    /// Null draws per test.
    pub null_draws: usize,
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            resamples: crate::bootstrap::DEFAULT_RESAMPLES,
            null_draws: DEFAULT_NULL_DRAWS,
            seed: 1,
        }
    }
}

impl Options {
    /// The null draws of one calibration, on the streams from `base`.
    pub(super) fn draws(&self, base: u64) -> Draws {
        Draws {
            count: self.null_draws,
            seed: self.seed,
            base,
        }
    }
}
