//! One estimator's bootstrap summary from its resamples' fits: percentile intervals under
//! one admissibility rule, and the denominator's SD for the weak-identification screen.

use crate::estimate::Estimate;
use crate::stats::{Interval, MIN_ADMISSIBLE, percentile, sd};

/// One resample's fit, reduced to what the intervals need.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Draw {
    sigma_t2: f64,
    sigma_c2: f64,
    denominator: f64,
    rho: Vec<Option<f64>>,
}

/// Bootstrap intervals of one estimator.
#[derive(Debug, Clone, PartialEq)]
pub struct BootstrapResult {
    /// Resamples drawn (B).
    pub resamples: usize,
    pub seed: u64,
    /// Resamples in which some ρ̂_k was undefined (inadmissible).
    pub dropped: usize,
    /// Per anchor: resamples in which that anchor's ρ̂ was undefined.
    pub dropped_per_anchor: Vec<usize>,
    /// 95 % percentile interval of each ρ_k (`None` when fewer than [`MIN_ADMISSIBLE`] of
    /// the resamples gave it a value).
    pub rho: Vec<Option<Interval>>,
    pub sigma_t2: Option<Interval>,
    pub sigma_c2: Option<Interval>,
    /// SD (divisor B − 1) of the denominator over resamples where it is finite.
    pub sd_denominator: f64,
    /// Per anchor: every admissible resample's ρ̂_k, in resample order (what the bootstrap
    /// figure draws; B·m numbers).
    pub rho_draws: Vec<Vec<f64>>,
}

fn interval(mut v: Vec<f64>) -> Option<Interval> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(Interval {
        lo: percentile(&v, 0.025),
        hi: percentile(&v, 0.975),
    })
}

impl Draw {
    pub(crate) fn of(est: Option<Estimate>, m: usize) -> Draw {
        est.map_or_else(
            || Draw {
                sigma_t2: f64::NAN,
                sigma_c2: f64::NAN,
                denominator: f64::NAN,
                rho: vec![None; m],
            },
            |e| Draw {
                sigma_t2: e.sigma_t2,
                sigma_c2: e.sigma_c2,
                denominator: e.denominator,
                rho: e.rho(),
            },
        )
    }
}

/// Percentile intervals and the denominator's SD from one estimator's draws.
pub(crate) fn summarise<'a>(
    draws: &(impl Iterator<Item = &'a Draw> + Clone),
    resamples: usize,
    seed: u64,
    m: usize,
) -> BootstrapResult {
    let finite = |f: &dyn Fn(&Draw) -> f64| -> Vec<f64> {
        draws.clone().map(f).filter(|x| x.is_finite()).collect()
    };
    // One admissibility rule for every interval: none unless ≥ 80 % of resamples give a value.
    let ruled = |v: Vec<f64>| {
        let enough = v.len() as f64 >= MIN_ADMISSIBLE * resamples as f64;
        if enough { interval(v) } else { None }
    };
    let dropped_per_anchor: Vec<usize> = (0..m)
        .map(|k| draws.clone().filter(|d| d.rho[k].is_none()).count())
        .collect();
    BootstrapResult {
        resamples,
        seed,
        dropped: draws
            .clone()
            .filter(|d| d.rho.iter().any(Option::is_none))
            .count(),
        rho: (0..m)
            .map(|k| ruled(draws.clone().filter_map(|d| d.rho[k]).collect()))
            .collect(),
        dropped_per_anchor,
        sigma_t2: ruled(finite(&|d| d.sigma_t2)),
        sigma_c2: ruled(finite(&|d| d.sigma_c2)),
        sd_denominator: sd(&finite(&|d| d.denominator)),
        rho_draws: (0..m)
            .map(|k| draws.clone().filter_map(|d| d.rho[k]).collect())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn draw(rho: Option<f64>) -> Draw {
        Draw {
            sigma_t2: 1.0,
            sigma_c2: 0.5,
            denominator: 0.3,
            rho: vec![rho],
        }
    }

    #[test]
    fn an_interval_needs_eighty_percent_admissible_resamples() {
        // 8 of 10 admissible: reported; 7 of 10: undefined.
        let ok: Vec<Draw> = (0..10).map(|i| draw((i < 8).then_some(0.5))).collect();
        let r = summarise(&ok.iter(), 10, 1, 1);
        assert!(r.rho[0].is_some());
        assert_eq!(r.dropped_per_anchor, vec![2]);
        let few: Vec<Draw> = (0..10).map(|i| draw((i < 7).then_some(0.5))).collect();
        let r = summarise(&few.iter(), 10, 1, 1);
        assert!(r.rho[0].is_none());
        assert_eq!(r.dropped_per_anchor, vec![3]);
    }
}
