//! "Would this work on a panel like mine?": validation on a panel's own rater textures
//! (Section 7, "Validation on real rater textures"; docs/method.md §7, "Real rater textures").
//!
//! The latent scaffolding is synthetic, so the injected contamination is exact by
//! construction, and the noise is real: synthetic judge k resamples real judge k's
//! item-centred residuals (score minus the item's mean over the real judges) with
//! replacement and adds them to the synthetic latent t + c; an ordinal judge is then
//! discretised at that judge's own empirical thresholds (the cumulative proportions of its
//! codes, applied as quantiles of the synthetic score). Anchors are continuous,
//! A_k = t + (β_k/σ_c²) c + u_k with β_k = ρ_k σ_ak σ_c (docs/method.md §4). The model holds by
//! construction, so every firing of the battery is a false positive.
//!
//! Design choices the paper leaves open, fixed here: the latent variances are the paper's
//! base design, σ_t² = 1 and σ_c² = 0.8 (docs/method.md §4); anchor k's total error SD is
//! σ_ak = 0.5 + 0.1 k (the base design's 0.5, 0.6 and third anchor's 0.7, continued); the
//! residuals are added in the judge's own units (a 1–5 Likert judge's residuals on the 1–5
//! scale), so the synthetic judge keeps the real judge's noise level against a latent of
//! variance 1.8; each judge draws its residual indices independently (the model's
//! independent errors; drawing one item's residuals jointly would carry their sum-to-zero
//! dependence into the synthetic judges); the quantile cut gives the k-th level exactly
//! round(N·π_k) − round(N·π_{k−1}) items, by rank of the synthetic score.

use rand::RngExt;
use rayon::prelude::*;

use crate::battery::{self, NullSpec, PerTest, TestId, Verdict};
use crate::bootstrap::bootstrap;
use crate::estimate::{Context, Estimate, Estimator, Fits};
use crate::progress::{Flow, Progress, silent};
use crate::rng::{Purpose, Streams};

mod design;
mod error;
mod texture;

pub use design::{MAX_ANCHORS, SIGMA_C2, SIGMA_T2, Thresholds, anchor_sd};
pub use error::ValidateError;
pub use texture::{JudgeTexture, Texture, synthetic_panel};

/// The paper's injected contamination (Section 7).
pub const DEFAULT_INJECT: [f64; 3] = [0.0, 0.4, 0.7];
/// Default replicates per N: the paper's 24 runs.
pub const DEFAULT_REPS: usize = 24;
/// Default null draws per test in each replicate's battery: few, for speed; the firing rate
/// is then that of a test at 5 % with a threshold estimated from this many draws.
pub const DEFAULT_NULL_DRAWS: usize = 40;

/// The settings of a validation study.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// Injected ρ_k, one per synthetic anchor (3 ≤ m ≤ [`MAX_ANCHORS`], each |ρ| < 1).
    pub inject: Vec<f64>,
    /// Panel sizes N to simulate at.
    pub ns: Vec<usize>,
    /// Replicates per N.
    pub reps: usize,
    pub seed: u64,
    /// Item-bootstrap resamples per replicate for CI coverage (0: off).
    pub bootstrap: usize,
    /// Null draws per test in each replicate's battery (0: the battery is not run).
    pub null_draws: usize,
    pub thresholds: Thresholds,
}

impl Options {
    /// Checks the options, with a one-line reason when they are unusable.
    ///
    /// # Errors
    /// An inject list of the wrong length, with |ρ| ≥ 1 or no two values apart, no N, N < 10, or no replicates.
    pub fn check(&self) -> Result<(), ValidateError> {
        let m = self.inject.len();
        if !(3..=MAX_ANCHORS).contains(&m) {
            return Err(ValidateError::InjectCount(m));
        }
        if let Some(bad) = self.inject.iter().find(|r| r.is_nan() || r.abs() >= 1.0) {
            return Err(ValidateError::InjectRange(*bad));
        }
        if self.inject.iter().all(|r| *r == self.inject[0]) {
            return Err(ValidateError::InjectTies);
        }
        if self.reps == 0 || self.reps >= 1 << 24 {
            return Err(ValidateError::Reps);
        }
        if self.ns.is_empty() || self.ns.len() >= 1 << 16 {
            return Err(ValidateError::Sizes);
        }
        if let Some(n) = self.ns.iter().find(|&&n| n < 10) {
            return Err(ValidateError::SmallN(*n));
        }
        if self.bootstrap == 1 {
            return Err(ValidateError::Bootstrap);
        }
        Ok(())
    }
}

/// The estimators a study fits: Theorem 1, the free-scale estimator and, with families,
/// the blocked one.
#[must_use]
pub fn estimators(tex: &Texture) -> Vec<Estimator> {
    let mut e = vec![Estimator::ClosedForm, Estimator::FreeScale];
    let ctx = Context {
        families: tex
            .families
            .as_deref()
            .map(crate::families::JudgeFamilies::from_labels),
        clean: None,
    };
    if Estimator::Blocked.applicable(&ctx, 3).is_ok() {
        e.insert(1, Estimator::Blocked);
    }
    e
}

/// What one replicate gave one estimator.
#[derive(Debug, Clone, PartialEq)]
struct Fitted {
    /// ρ̂ per anchor (`None`: undefined, or the estimator refused).
    rho: Vec<Option<f64>>,
    /// Any range flag raised, any ρ̂ undefined, or the fit refused.
    inadmissible: bool,
    /// Per anchor: whether the bootstrap interval holds the injected ρ (`None`: no bootstrap).
    covered: Vec<Option<bool>>,
}

/// One replicate.
#[derive(Debug, Clone, PartialEq)]
struct Replicate {
    fits: Vec<Fitted>,
    /// Per test: `Some(fired)` when the test applied.
    fired: PerTest<Option<bool>>,
}

fn inadmissible(e: &Estimate) -> bool {
    e.flagged() || e.anchors.iter().any(|a| a.rho.is_none())
}

fn replicate(
    tex: &Texture,
    opts: &Options,
    which: &[Estimator],
    n: usize,
    index: u64,
) -> Replicate {
    let m = opts.inject.len();
    let mut rng = Streams::of(opts.seed).rng(Purpose::Validate, index);
    // The seed of this replicate's bootstrap and null streams, drawn first from its own stream.
    let inner: u64 = rng.random();
    let panel = synthetic_panel(tex, &opts.inject, n, opts.thresholds, &mut rng);
    let ctx = Context {
        families: panel.judge_families(),
        clean: None,
    };
    // The estimators' own recovery: point fits, without the free-scale identified set.
    let fits = Fits::of_points(&panel, &panel.covariance(), &ctx, which);
    let ran: Vec<Estimator> = fits.fits.iter().map(|f| f.estimator).collect();
    let boots = (opts.bootstrap > 0)
        .then(|| {
            bootstrap(
                &panel,
                &ran,
                &ctx,
                opts.bootstrap,
                Streams::of(inner),
                &silent,
            )
        })
        .flatten();
    let fitted = which
        .iter()
        .map(|&e| match ran.iter().position(|&r| r == e) {
            None => Fitted {
                rho: vec![None; m],
                inadmissible: true,
                covered: vec![None; m],
            },
            Some(i) => {
                let est = &fits.fits[i].estimate;
                let covered = (0..m)
                    .map(|k| {
                        boots
                            .as_ref()
                            .map(|b| b[i].rho[k].is_some_and(|iv| iv.contains(opts.inject[k])))
                    })
                    .collect();
                Fitted {
                    rho: est.rho(),
                    inadmissible: inadmissible(est),
                    covered,
                }
            }
        })
        .collect();
    let fired = if opts.null_draws > 0 {
        let bopts = battery::Options {
            resamples: 0,
            null_draws: opts.null_draws,
            seed: inner,
        };
        let report = battery::run(&panel, &NullSpec::Matched, &bopts, &silent)
            .expect("a silent callback never stops the run");
        report.tests.map(|_, r| {
            r.applicable
                .then_some(r.verdict == Verdict::Fires)
                .filter(|_| r.verdict != Verdict::NotApplicable)
        })
    } else {
        PerTest::from_fn(|_| None)
    };
    Replicate {
        fits: fitted,
        fired,
    }
}

/// One anchor's recovery by one estimator at one N.
#[derive(Debug, Clone, PartialEq)]
pub struct AnchorRecovery {
    pub injected: f64,
    /// Replicates in which ρ̂ was defined; the moments below are over them.
    pub defined: usize,
    pub mean: Option<f64>,
    /// SD with divisor R − 1.
    pub sd: Option<f64>,
    /// √mean((ρ̂ − ρ)²).
    pub rmse: Option<f64>,
    /// Share of replicates whose 95 % interval holds ρ (an undefined interval counts as a
    /// miss); `None` without the bootstrap, and when no replicate gave a ρ̂ at all (a share of
    /// runs that never gave a value would read as intervals that always miss).
    pub coverage: Option<f64>,
}

/// One estimator at one N.
#[derive(Debug, Clone, PartialEq)]
pub struct EstimatorRecovery {
    pub estimator: Estimator,
    pub anchors: Vec<AnchorRecovery>,
    /// Replicates in which every ρ̂ is defined and strictly ordered as the injection (pairs
    /// with equal injected ρ are not compared).
    pub ordered: usize,
    /// Whether the means are so ordered.
    pub ordered_means: bool,
    /// Replicates with a range flag, an undefined ρ̂ or a refused fit.
    pub inadmissible: usize,
}

/// Everything at one N.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub n: usize,
    pub reps: usize,
    pub estimators: Vec<EstimatorRecovery>,
    /// Per test: (firings, replicates in which it applied); `None` when it never applied
    /// or the battery was off.
    pub false_positives: PerTest<Option<(usize, usize)>>,
    /// Replicates in which any test fired (when the battery ran).
    pub any_fired: Option<usize>,
}

/// Whether `rho` is strictly ordered as `inject` on every pair with distinct injected values.
#[must_use]
pub fn ordered_as(inject: &[f64], rho: &[Option<f64>]) -> bool {
    let m = inject.len();
    (0..m).all(|k| {
        (0..m).all(|l| {
            if inject[k] < inject[l] {
                matches!((rho[k], rho[l]), (Some(a), Some(b)) if a < b)
            } else {
                true
            }
        })
    })
}

fn summarise(n: usize, opts: &Options, which: &[Estimator], reps: &[Replicate]) -> Cell {
    let r = reps.len();
    let estimators = which
        .iter()
        .enumerate()
        .map(|(e, &estimator)| {
            let anchors: Vec<AnchorRecovery> = opts
                .inject
                .iter()
                .enumerate()
                .map(|(k, &rho)| {
                    let v: Vec<f64> = reps.iter().filter_map(|x| x.fits[e].rho[k]).collect();
                    let d = v.len();
                    let mean = (d > 0).then(|| v.iter().sum::<f64>() / d as f64);
                    let sd = mean.filter(|_| d > 1).map(|mu| {
                        (v.iter().map(|x| (x - mu).powi(2)).sum::<f64>() / (d - 1) as f64).sqrt()
                    });
                    let rmse = (d > 0).then(|| {
                        (v.iter().map(|x| (x - rho).powi(2)).sum::<f64>() / d as f64).sqrt()
                    });
                    let coverage = (opts.bootstrap > 0 && d > 0).then(|| {
                        reps.iter()
                            .filter(|x| x.fits[e].covered[k] == Some(true))
                            .count() as f64
                            / r as f64
                    });
                    AnchorRecovery {
                        injected: rho,
                        defined: d,
                        mean,
                        sd,
                        rmse,
                        coverage,
                    }
                })
                .collect();
            let means: Vec<Option<f64>> = anchors.iter().map(|a| a.mean).collect();
            EstimatorRecovery {
                estimator,
                ordered: reps
                    .iter()
                    .filter(|x| ordered_as(&opts.inject, &x.fits[e].rho))
                    .count(),
                ordered_means: ordered_as(&opts.inject, &means),
                inadmissible: reps.iter().filter(|x| x.fits[e].inadmissible).count(),
                anchors,
            }
        })
        .collect();
    let battery_on = opts.null_draws > 0;
    let false_positives = PerTest::from_fn(|t: TestId| {
        let applied: Vec<bool> = reps.iter().filter_map(|x| x.fired[t]).collect();
        (battery_on && !applied.is_empty())
            .then(|| (applied.iter().filter(|&&f| f).count(), applied.len()))
    });
    let any_fired = battery_on.then(|| {
        reps.iter()
            .filter(|x| x.fired.values().any(|f| *f == Some(true)))
            .count()
    });
    Cell {
        n,
        reps: r,
        estimators,
        false_positives,
        any_fired,
    }
}

/// The whole study.
#[derive(Debug, Clone, PartialEq)]
pub struct Study {
    pub estimators: Vec<Estimator>,
    /// [`Texture::shape`] of the real judges: largest |skewness|, largest excess kurtosis
    /// (`None`: no judge's residuals vary).
    pub shape: Option<(f64, f64)>,
    pub cells: Vec<Cell>,
    /// The real panel's N.
    pub panel_n: usize,
    /// Whether any judge is ordinal (so the thresholds matter).
    pub any_ordinal: bool,
}

/// Expected seconds of [`run`], for the cost note: every replicate's panel and point fits,
/// its bootstrap and its battery's null draws, at each N.
#[must_use]
pub fn seconds(tex: &Texture, opts: &Options) -> f64 {
    let q = tex.judges.len() + opts.inject.len();
    opts.ns
        .iter()
        .map(|&n| {
            opts.reps as f64
                * crate::cost::validate_replicate_seconds(n, q, opts.bootstrap, opts.null_draws)
        })
        .sum()
}

/// The number of progress steps a study reports (one per replicate).
#[must_use]
pub fn total_steps(opts: &Options) -> u64 {
    (opts.ns.len() * opts.reps) as u64
}

/// Runs the study on `tex`'s textures. Replicate r at the i-th N uses stream
/// `(i << 32) | r` of [`Purpose::Validate`]; replicates run in parallel and are collected in
/// order, so the result is bit-identical at any thread count. `Ok(None)` when `progress`
/// stopped the run.
///
/// # Errors
/// Unusable options ([`Options::check`]); the largest N's panel over the cell limit.
pub fn run(
    tex: &Texture,
    opts: &Options,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Result<Option<Study>, ValidateError> {
    opts.check()?;
    let largest = opts.ns.iter().copied().max().unwrap_or(0);
    Ok(crate::simulate::within_cells(
        largest,
        tex.judges.len() + opts.inject.len(),
        || run_within(tex, opts, progress),
    )?)
}

/// [`run`] once its panels fit the cell limit together.
fn run_within(
    tex: &Texture,
    opts: &Options,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<Study> {
    let which = estimators(tex);
    let mut cells = Vec::with_capacity(opts.ns.len());
    for (i, &n) in opts.ns.iter().enumerate() {
        let reps: Option<Vec<Replicate>> = (0..opts.reps)
            .into_par_iter()
            .map(|r| {
                if progress(Progress::Step) == Flow::Stop {
                    return None;
                }
                Some(replicate(
                    tex,
                    opts,
                    &which,
                    n,
                    ((i as u64) << 32) | r as u64,
                ))
            })
            .collect();
        let reps = reps?;
        cells.push(summarise(n, opts, &which, &reps));
    }
    Some(Study {
        estimators: which,
        cells,
        panel_n: tex.n,
        any_ordinal: tex.any_ordinal(),
        shape: tex.shape(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordering_ignores_ties_and_needs_every_value() {
        assert!(ordered_as(
            &[0.0, 0.4, 0.7],
            &[Some(0.1), Some(0.2), Some(0.9)]
        ));
        assert!(!ordered_as(
            &[0.0, 0.4, 0.7],
            &[Some(0.3), Some(0.2), Some(0.9)]
        ));
        assert!(!ordered_as(&[0.0, 0.4, 0.7], &[Some(0.1), None, Some(0.9)]));
        assert!(ordered_as(
            &[0.4, 0.4, 0.7],
            &[Some(0.5), Some(0.2), Some(0.9)]
        ));
    }
}
