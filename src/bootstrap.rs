//! Item bootstrap (Section 6, docs/method.md §2): percentile intervals for every ρ_k, σ_t² and σ_c²,
//! and the weak-identification screen T = |den̂| / SD_boot(den̂). Resample b draws its items
//! from its own stream, and results are collected in resample order, so the output is
//! bit-identical at any thread count.

use nalgebra::DMatrix;
use rand::RngExt;
use rayon::prelude::*;

pub mod features;
pub mod oracle;
pub mod second;
mod tallied;
pub mod weighted;

use crate::estimate::{Context, Estimate, Estimator, free_scale};
use crate::panel::Panel;
use crate::progress::{Flow, Progress};
use crate::rng::{Index, Purpose, Streams};
pub use crate::stats::{Interval, MIN_ADMISSIBLE, WEAK_ID_T};
use crate::stats::{percentile, sd};
use features::FeatureSet;
use second::SecondMoments;
use weighted::PerItem;

/// Default number of resamples (docs/method.md §2).
pub const DEFAULT_RESAMPLES: usize = 300;
/// Fewest resamples for a percentile interval or the weak-ID screen: at 100 each 2.5 % tail
/// holds 2.5 resamples and SD_boot(den̂) has a relative SE of about 7 % (1/√(2(B − 1))).
pub const MIN_RESAMPLES: usize = 100;

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
    let centred = crate::neff::centred_judges(panel);
    let blocked = estimators.contains(&Estimator::Blocked);
    let families = ctx
        .families
        .as_ref()
        .filter(|_| blocked)
        .map(|f| f.index.clone());
    // Every column continuous: the free-scale fit reads the resample's covariance, formed
    // from counts like the closed form's moments. Ordinal columns need their polychoric
    // correlations recomputed on the resampled items.
    let second = (estimators.contains(&Estimator::FreeScale)
        && !panel.scales.iter().any(crate::panel::Scale::is_ordinal))
    .then(|| SecondMoments::of(panel));
    // n_eff reads its judge variances from the covariance when there is one, and otherwise
    // from the judges' squares, summed with the closed form's features.
    let set = FeatureSet::new(p, m, families);
    let set = if neff && p >= 2 && second.is_none() {
        set.with_judge_squares()
    } else {
        set
    };
    let features = set.compute(panel);
    // As its point fit, every resample's common-scale fit is undefined on ordinal codes.
    let off_scale = crate::estimate::scale::reads_codes(panel);
    // Ordinal columns: the free-scale refit reads each resample's tally of code patterns.
    let free = tallied::Refit::of(
        panel,
        second.is_none() && estimators.contains(&Estimator::FreeScale),
    );
    let latent = latent_items(panel, estimators, ctx);
    let batch = (BATCH_BYTES / n.max(1)).clamp(1, MAX_BATCH);
    let starts: Vec<usize> = (0..resamples).step_by(batch).collect();
    let draws: Vec<Option<BatchDraws>> = starts
        .into_par_iter()
        .map(|start| {
            let size = batch.min(resamples - start);
            let (counts, overflowed) = draw_counts(streams, start, size, n, progress)?;
            let mut acc = features.weighted_sums(&counts, size);
            let mut acc2 = second.as_ref().map(|s| s.weighted_sums(&counts, size));
            for &r in &overflowed {
                let draws = redraw(streams, start + r, n);
                let sums = features.sum_draws(draws.iter().copied());
                acc.column_mut(r).copy_from_slice(&sums);
                if let (Some(s), Some(a)) = (&second, acc2.as_mut()) {
                    a.column_mut(r)
                        .copy_from_slice(&s.sum_draws(draws.into_iter()));
                }
            }
            let covs: Vec<DMatrix<f64>> = match (&second, &acc2) {
                (Some(s), Some(a)) => a
                    .column_iter()
                    .map(|w| s.covariance(w.as_slice(), n as f64))
                    .collect(),
                _ => Vec::new(),
            };
            let neffs = if neff && p >= 2 {
                batch_neffs(
                    &centred,
                    &features,
                    &acc,
                    &covs,
                    &counts,
                    &overflowed,
                    streams,
                    start,
                )
            } else {
                Vec::new()
            };
            let fitted = acc
                .column_iter()
                .enumerate()
                .map(|(r, w)| {
                    let w = w.as_slice();
                    let (cs, at) = ((&counts[..], &overflowed[..]), (streams, start));
                    let items =
                        |e: Estimator| refit_items(e, latent.as_ref(), &free, panel, (cs, at), r);
                    estimators
                        .iter()
                        .map(|&e| {
                            let est = (!(off_scale && e.from_moments()))
                                .then(|| refit(e, panel, ctx, &features, w, covs.get(r), &items))
                                .flatten();
                            Draw::of(est, m)
                        })
                        .collect()
                })
                .collect();
            Some((fitted, neffs))
        })
        .collect();
    let mut all = Vec::with_capacity(resamples);
    let mut neffs = Vec::with_capacity(if neff { resamples } else { 0 });
    for batch in draws {
        let (d, v) = batch?;
        all.extend(d);
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

/// Each resample's n_eff in the batch of resamples from `start` ([`crate::neff`]). With every
/// second moment at hand (the free-scale refit's covariances `covs`) it is read from the judge
/// block; otherwise from the judge variances in the feature sums `acc` and one O(N·p) pass
/// over the counts (32-bit ones for the resamples that overflowed a byte).
#[expect(
    clippy::too_many_arguments,
    reason = "one batch's sums and counts, passed once"
)]
fn batch_neffs(
    centred: &crate::neff::Centred<'_>,
    features: &features::Features<'_>,
    acc: &DMatrix<f64>,
    covs: &[DMatrix<f64>],
    counts: &[u8],
    overflowed: &[usize],
    streams: Streams,
    start: usize,
) -> Vec<Option<f64>> {
    let (n, p) = (features.n, features.set.p());
    if !covs.is_empty() {
        return covs
            .iter()
            .map(|c| crate::neff::of_covariance(&c.view((0, 0), (p, p)).into_owned()))
            .collect();
    }
    let wide: Vec<(usize, Vec<u32>)> = overflowed
        .iter()
        .map(|&r| {
            let mut full = vec![0u32; n];
            for i in redraw(streams, start + r, n) {
                full[i] += 1;
            }
            (r, full)
        })
        .collect();
    let vars: Option<Vec<Vec<f64>>> = acc
        .column_iter()
        .map(|w| features.set.judge_variances(w.as_slice(), n as f64))
        .collect();
    vars.map_or_else(
        || vec![None; acc.ncols()],
        |v| crate::neff::resample_n_eff(centred, &v, counts, &wide),
    )
}

/// A batch's counts (one byte per item and resample) and the resamples that overflowed a byte.
type Counts<'a> = (&'a [u8], &'a [usize]);

/// The refit of resample `r` from its tally: the designated-clean latent fit's, or the
/// free-scale fit's on ordinal columns.
fn refit_items(
    e: Estimator,
    latent: Option<&(crate::ordinal::Items, usize)>,
    free: &tallied::Refit,
    panel: &Panel,
    (cs, at): (Counts<'_>, (Streams, usize)),
    r: usize,
) -> Option<Estimate> {
    match (e, latent) {
        (Estimator::DesignatedCleanLatent, Some((it, d))) => {
            tallied::latent(it, (panel.n, panel.p(), *d), cs, at, r)
        }
        (Estimator::DesignatedCleanLatent, None) => None,
        _ => free.fit(panel, cs, at, r),
    }
}

/// The items the designated-clean latent refit tallies, and its anchor, when it is asked for.
fn latent_items(
    panel: &Panel,
    estimators: &[Estimator],
    ctx: &Context,
) -> Option<(crate::ordinal::Items, usize)> {
    let d = ctx
        .clean
        .filter(|_| estimators.contains(&Estimator::DesignatedCleanLatent))?;
    crate::ordinal::Items::of(panel)
        .ok()
        .map(|items| (items, d))
}

/// Estimator `e` refitted on one resample: from its feature sums `w`, from its covariance
/// (the free-scale fit on continuous columns) or, for a free-scale fit with ordinal columns,
/// on its resample, as is the designated-clean latent fit (`items`: the tally of its code
/// patterns, [`tallied`]).
fn refit(
    e: Estimator,
    panel: &Panel,
    ctx: &Context,
    features: &features::Features<'_>,
    w: &[f64],
    cov: Option<&DMatrix<f64>>,
    items: &dyn Fn(Estimator) -> Option<Estimate>,
) -> Option<Estimate> {
    let (n, p, m) = (panel.n, panel.p(), panel.m());
    match (e, cov) {
        (Estimator::FreeScale, Some(cov)) => free_scale::fit_covariance(p, m, cov),
        (Estimator::FreeScale, None) | (Estimator::DesignatedCleanLatent, _) => items(e),
        _ if e.from_moments() => features
            .set
            .moments(w, n as f64, e.pairs(ctx))
            .map(|mom| e.on_moments(&mom, ctx)),
        _ => None,
    }
}

/// One batch's fits (per resample, per estimator) and n_eff values (per resample).
type BatchDraws = (Vec<Vec<Draw>>, Vec<Option<f64>>);

/// The counts of resamples `start..start + size` (one byte per item and resample: a
/// resample's histogram stays in cache), and which resamples overflowed a byte. A count over
/// 255 needs N ≥ 256 and one item drawn 256 times (p < 1e−400); such a resample is summed
/// draw by draw instead. `None` when `progress` stops the run.
fn draw_counts(
    streams: Streams,
    start: usize,
    size: usize,
    n: usize,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<(Vec<u8>, Vec<usize>)> {
    let mut counts = vec![0u8; size * n];
    let mut overflowed = Vec::new();
    for r in 0..size {
        if progress(Progress::Step) == Flow::Stop {
            return None;
        }
        let row = &mut counts[r * n..(r + 1) * n];
        let mut overflow = false;
        for i in draws(streams, start + r, n) {
            let (c, o) = row[i].overflowing_add(1);
            row[i] = c;
            overflow |= o;
        }
        if overflow {
            overflowed.push(r);
        }
    }
    Some((counts, overflowed))
}

/// The N indices resample `r` draws, drawn again (for a resample whose counts overflowed a
/// byte): the stream [`draw_counts`] counted.
fn redraw(streams: Streams, r: usize, n: usize) -> Vec<usize> {
    draws(streams, r, n).collect()
}

/// Resample `r`'s N item indices in the order drawn: `random_range(0..n)` on stream `r`
/// ([`Index`] inlines it, number for number).
fn draws(streams: Streams, r: usize, n: usize) -> impl Iterator<Item = usize> {
    let mut rng = streams.rng(Purpose::Bootstrap, r as u64);
    let index = Index::below(n);
    (0..n).map(move |_| match index {
        Some(index) => index.draw(&mut rng),
        None => rng.random_range(0..n),
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
