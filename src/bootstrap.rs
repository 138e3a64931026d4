//! Item bootstrap (Section 6, SPEC §2): percentile intervals for every ρ_k, σ_t² and σ_c²,
//! and the weak-identification screen T = |den̂| / SD_boot(den̂). Resample b draws its items
//! from its own stream, and results are collected in resample order, so the output is
//! bit-identical at any thread count.

use rand::RngExt;
use rayon::prelude::*;

use crate::estimate::{Context, Estimate, Estimator};
use crate::panel::Panel;
use crate::progress::{Flow, Progress};
use crate::rng::{Purpose, Streams};
use crate::stats::{percentile, sd};

/// Default number of resamples (SPEC §2).
pub const DEFAULT_RESAMPLES: usize = 300;
/// The weak-identification screen flags T below this (Section 6).
pub const WEAK_ID_T: f64 = 4.0;

/// A two-sided percentile interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

impl Interval {
    #[must_use]
    pub fn width(&self) -> f64 {
        self.hi - self.lo
    }

    #[must_use]
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
}

/// One resample's fit, reduced to what the intervals need.
#[derive(Debug, Clone, PartialEq)]
struct Draw {
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
    /// 95 % percentile interval of each ρ_k (`None` when every resample dropped it).
    pub rho: Vec<Option<Interval>>,
    pub sigma_t2: Option<Interval>,
    pub sigma_c2: Option<Interval>,
    /// SD (divisor B − 1) of the denominator over resamples where it is finite.
    pub sd_denominator: f64,
}

/// The weak-identification screen (SPEC §2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WeakId {
    /// T = |den̂| / SD_boot(den̂).
    pub t: f64,
    /// T < 4: report the estimate as an interval only.
    pub flag: bool,
    pub denominator: f64,
    pub sd_boot: f64,
}

impl WeakId {
    /// The screen for a fit and its bootstrap.
    #[must_use]
    pub fn new(est: &Estimate, boot: &BootstrapResult) -> WeakId {
        let t = est.denominator.abs() / boot.sd_denominator;
        WeakId {
            t,
            // An undefined T (no finite denominators) is as weak as it gets.
            flag: t.is_nan() || t < WEAK_ID_T,
            denominator: est.denominator,
            sd_boot: boot.sd_denominator,
        }
    }
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

/// Runs the item bootstrap of several estimators on the same resamples: resample b draws its
/// N items from stream `b` of `streams` (so each estimator's intervals are those it would get
/// alone at the same seed), and every estimator is refitted on it. `progress` is told of each
/// finished resample and may stop the run, in which case `None` is returned. Estimators that
/// are not bootstrappable get an interval-less result with every resample dropped.
#[must_use]
pub fn bootstrap(
    panel: &Panel,
    estimators: &[Estimator],
    ctx: &Context,
    resamples: usize,
    streams: Streams,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<Vec<BootstrapResult>> {
    let (n, q, p, m) = (panel.n, panel.q(), panel.p(), panel.m());
    let draws: Vec<Option<Vec<Draw>>> = (0..resamples)
        .into_par_iter()
        .map_init(
            || (vec![0.0; n * q], Vec::new(), vec![0usize; n]),
            |(buf, scratch, idx), b| {
                if progress(Progress::Step) == Flow::Stop {
                    return None;
                }
                let mut rng = streams.rng(Purpose::Bootstrap, b as u64);
                for i in idx.iter_mut() {
                    *i = rng.random_range(0..n);
                }
                for c in 0..q {
                    let col = panel.col(c);
                    for (dst, &i) in buf[c * n..(c + 1) * n].iter_mut().zip(idx.iter()) {
                        *dst = col[i];
                    }
                }
                Some(
                    estimators
                        .iter()
                        .map(|e| Draw::of(e.fit_sample(buf, n, p, ctx, scratch), m))
                        .collect(),
                )
            },
        )
        .collect();
    let draws: Vec<Vec<Draw>> = draws.into_iter().collect::<Option<_>>()?;
    Some(
        (0..estimators.len())
            .map(|e| summarise(&draws.iter().map(|d| &d[e]), resamples, streams.seed, m))
            .collect(),
    )
}

impl Draw {
    fn of(est: Option<Estimate>, m: usize) -> Draw {
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
fn summarise<'a>(
    draws: &(impl Iterator<Item = &'a Draw> + Clone),
    resamples: usize,
    seed: u64,
    m: usize,
) -> BootstrapResult {
    let finite = |f: &dyn Fn(&Draw) -> f64| -> Vec<f64> {
        draws.clone().map(f).filter(|x| x.is_finite()).collect()
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
            .map(|k| interval(draws.clone().filter_map(|d| d.rho[k]).collect()))
            .collect(),
        dropped_per_anchor,
        sigma_t2: interval(finite(&|d| d.sigma_t2)),
        sigma_c2: interval(finite(&|d| d.sigma_c2)),
        sd_denominator: sd(&finite(&|d| d.denominator)),
    }
}
