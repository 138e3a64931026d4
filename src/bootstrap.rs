//! Item bootstrap (Section 6, docs/method.md §2): percentile intervals for every ρ_k, σ_t² and σ_c²,
//! and the weak-identification screen T = |den̂| / SD_boot(den̂). Resample b draws its items
//! from its own stream, and results are collected in resample order, so the output is
//! bit-identical at any thread count.

use nalgebra::DMatrix;
use rayon::prelude::*;

mod batch;
mod counts;
pub mod features;
pub mod oracle;
pub mod second;
mod summary;
mod tallied;
pub mod weighted;

use crate::estimate::{Context, Estimate, Estimator};
use crate::panel::Panel;
use crate::progress::{Flow, Progress};
use crate::rng::Streams;
pub use crate::stats::{Interval, MIN_ADMISSIBLE, WEAK_ID_T};
use counts::draws;
pub use summary::BootstrapResult;
pub(crate) use summary::{Draw, summarise};

/// Default number of resamples (docs/method.md §2).
pub const DEFAULT_RESAMPLES: usize = 300;
/// Fewest resamples for a percentile interval or the weak-ID screen: at 100 each 2.5 % tail
/// holds 2.5 resamples and SD_boot(den̂) has a relative SE of about 7 % (1/√(2(B − 1))).
pub const MIN_RESAMPLES: usize = 100;

/// The weak-identification screen (docs/method.md §2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WeakId {
    /// T = |den̂| / SD_boot(den̂).
    pub t: f64,
    /// T < 4: report the estimate as an interval only.
    pub flag: bool,
    pub denominator: f64,
    pub sd_boot: f64,
    /// The fit carries a range or identification flag: T then gives no verdict ("ok" would
    /// vouch for an estimate that is already out of range).
    pub out_of_range: bool,
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
            // A zero-denominator pair is left out of the mean; it is what T measures, not a
            // range violation.
            out_of_range: est.flags.iter().any(|f| {
                f.code != crate::estimate::FlagCode::ZeroDenominator && !f.code.leaves_points()
            }),
        }
    }
}

/// Memory for one batch of resample counts (one byte per item and resample).
const BATCH_BYTES: usize = 32 << 20;
/// Most resamples whose sums one pass over the items accumulates.
const MAX_BATCH: usize = 32;

/// Runs the item bootstrap of several estimators on the same resamples. Resample b draws
/// its N items from stream `b` of `streams` — the same indices as ever — and keeps only how
/// often each item was drawn; its moments are count-weighted sums of per-item features
/// ([`features`]), accumulated for a batch of resamples in one sequential pass over the
/// items, and every estimator is refitted on them. Each resample's sums run over the items
/// in a fixed order, so the output is bit-identical at any thread count. The free-scale
/// estimator reads correlations, not moments: it is refitted on the resample's tally of code
/// patterns weighted by the same counts (`tallied`), its correlations recomputed. `progress` is told of each resample and may
/// stop the run, in which case `None` is returned. Estimators that are not bootstrappable
/// get an interval-less result with every resample dropped.
#[must_use]
pub fn bootstrap(
    panel: &Panel,
    estimators: &[Estimator],
    ctx: &Context,
    resamples: usize,
    streams: Streams,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<Vec<BootstrapResult>> {
    bootstrap_with_neff(panel, estimators, ctx, resamples, streams, false, progress).map(|(b, _)| b)
}

/// [`bootstrap`], and with `neff` also the effective number of judges of every resample
/// ([`crate::neff`]) from the same counts, so the battery draws its resamples once.
#[must_use]
pub fn bootstrap_with_neff(
    panel: &Panel,
    estimators: &[Estimator],
    ctx: &Context,
    resamples: usize,
    streams: Streams,
    neff: bool,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<(Vec<BootstrapResult>, crate::neff::Neff)> {
    let (n, p, m) = (panel.n, panel.p(), panel.m());
    let refits = batch::Refits::new(panel, estimators, ctx, streams, neff);
    let batch = (BATCH_BYTES / n.max(1)).clamp(1, MAX_BATCH);
    let starts: Vec<usize> = (0..resamples).step_by(batch).collect();
    let draws: Vec<Option<batch::BatchDraws>> = starts
        .into_par_iter()
        .map(|start| refits.batch(start, batch.min(resamples - start), progress))
        .collect();
    let mut all = Vec::with_capacity(resamples);
    let mut neffs = Vec::with_capacity(if neff { resamples } else { 0 });
    for batch in draws {
        let (d, v) = batch?;
        all.extend(
            d.into_iter()
                .map(|fits| fits.into_iter().map(|e| Draw::of(e, m)).collect::<Vec<_>>()),
        );
        neffs.extend(v);
    }
    let results = (0..estimators.len())
        .map(|e| summarise(&all.iter().map(|d| &d[e]), resamples, streams.seed, m))
        .collect();
    let mut summary = crate::neff::of_panel(panel);
    if neff && p >= 2 && n > 0 && resamples > 0 {
        summary.boot = Some(crate::neff::summarise(&neffs, resamples, streams.seed));
    }
    Some((results, summary))
}

/// [`crate::neff::of_panel`] with the item bootstrap's percentile interval of n_eff: `resamples`
/// resamples on `streams` (the battery's: resample b draws the same items as its resample b;
/// the battery itself gets them from [`bootstrap_with_neff`], which draws
/// each resample once for every estimator and n_eff). Bit-identical at any thread count: each
/// resample's sums run over the items in a fixed order. With one judge there is nothing to
/// resample (n_eff = 1) and no interval.
#[must_use]
pub fn neff_with_bootstrap(panel: &Panel, resamples: usize, streams: Streams) -> crate::neff::Neff {
    bootstrap_with_neff(
        panel,
        &[],
        &crate::estimate::Context::default(),
        resamples,
        streams,
        true,
        &crate::progress::silent,
    )
    .map_or_else(|| crate::neff::of_panel(panel), |(_, n)| n)
}

/// `f` of each resample's mixed correlation matrix (judges first), in resample order: resample
/// b draws the items of [`bootstrap`]'s resample b on `streams`, and its correlations come from
/// the tally of its code patterns. `None` when the panel's items cannot be tallied; an entry is
/// `None` where the resample's correlations are undefined or `f` gives nothing.
#[must_use]
pub fn correlation_resamples<T: Send>(
    panel: &Panel,
    resamples: usize,
    streams: Streams,
    f: &(dyn Fn(&DMatrix<f64>) -> Option<T> + Sync),
) -> Option<Vec<Option<T>>> {
    let items = crate::ordinal::Items::of(panel).ok()?;
    let n = panel.n;
    Some(
        (0..resamples)
            .into_par_iter()
            .map(|r| {
                let mut wide = vec![0u32; n];
                for i in draws(streams, r, n) {
                    wide[i] += 1;
                }
                let (corr, _) = items.tally(&wide).correlations(&items.layout).ok()?;
                f(&corr)
            })
            .collect(),
    )
}
