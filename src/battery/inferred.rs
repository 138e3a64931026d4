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

/// An anchor's 95 % interval as every screen shows it, or why it has none: the one rule, so
/// that no screen prints an interval for a ρ̂ another calls undefined (trial 43, finding 23).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RhoInterval {
    /// The percentile interval; `past_unit` when an end lies beyond ±1, which a percentile
    /// interval can (it is never clipped) though ρ cannot (trial 43, finding 14).
    Shown {
        interval: crate::bootstrap::Interval,
        past_unit: bool,
    },
    /// The point ρ̂ is undefined, so it carries no interval (its flags say why).
    PointUndefined,
    /// Too few resamples gave the anchor a value to place an interval.
    TooFewAdmissible { admissible: usize, resamples: usize },
}

impl RhoInterval {
    /// Anchor `k`'s interval given its point `rho` and the fit's bootstrap.
    #[must_use]
    pub fn of(rho: Option<f64>, boot: &BootstrapResult, k: usize) -> RhoInterval {
        match (rho, boot.rho.get(k).copied().flatten()) {
            (None, _) => RhoInterval::PointUndefined,
            (Some(_), Some(i)) => RhoInterval::Shown {
                interval: i,
                past_unit: i.lo < -1.0 || i.hi > 1.0,
            },
            (Some(_), None) => RhoInterval::TooFewAdmissible {
                admissible: boot.resamples - boot.dropped_per_anchor.get(k).copied().unwrap_or(0),
                resamples: boot.resamples,
            },
        }
    }

    /// The interval, where one is shown.
    #[must_use]
    pub fn interval(self) -> Option<crate::bootstrap::Interval> {
        match self {
            RhoInterval::Shown { interval, .. } => Some(interval),
            _ => None,
        }
    }

    /// The note an interval past ±1 carries, for every screen to print beside it.
    pub const PAST_UNIT: &'static str = "reaches past ±1: a percentile interval is not clipped, but ρ itself lies in [−1, 1], so read the end as 1 (or −1)";
}

#[cfg(test)]
mod tests {
    use super::RhoInterval;
    use crate::bootstrap::{BootstrapResult, Interval};

    fn boot(i: Interval) -> BootstrapResult {
        BootstrapResult {
            resamples: 100,
            seed: 1,
            dropped: 0,
            dropped_per_anchor: vec![0],
            rho: vec![Some(i)],
            sigma_t2: None,
            sigma_c2: None,
            sd_denominator: 1.0,
            rho_draws: vec![Vec::new()],
        }
    }

    /// Trial 43, findings 14 and 23: an undefined point carries no interval, and an interval
    /// past 1 says so.
    #[test]
    fn an_interval_follows_its_point_and_says_when_it_passes_one() {
        let b = boot(Interval { lo: 0.96, hi: 1.02 });
        assert_eq!(RhoInterval::of(None, &b, 0), RhoInterval::PointUndefined);
        assert!(matches!(
            RhoInterval::of(Some(0.98), &b, 0),
            RhoInterval::Shown {
                past_unit: true,
                ..
            }
        ));
        let b = boot(Interval { lo: 0.2, hi: 0.9 });
        assert!(matches!(
            RhoInterval::of(Some(0.5), &b, 0),
            RhoInterval::Shown {
                past_unit: false,
                ..
            }
        ));
    }
}
