//! One batch of bootstrap resamples (docs/method.md §2): the resample counts, their
//! count-weighted moments, every estimator refitted on them, and n_eff from the same counts.

use nalgebra::DMatrix;

use super::counts::{draw_counts, redraw};
use super::features::{self, FeatureSet};
use super::second::SecondMoments;
use super::tallied;
use super::weighted::PerItem;
use crate::estimate::{Context, Estimate, Estimator, free_scale};
use crate::panel::Panel;
use crate::progress::{Flow, Progress};
use crate::rng::Streams;

/// What every resample of one bootstrap refits, built once: the estimators' per-item
/// features, the second moments of a free-scale fit on continuous columns, and the tallies
/// a fit on ordinal columns reads.
pub(super) struct Refits<'a> {
    panel: &'a Panel,
    estimators: &'a [Estimator],
    ctx: &'a Context,
    streams: Streams,
    /// Whether n_eff is wanted (and defined: two judges or more).
    neff: bool,
    centred: crate::neff::Centred<'a>,
    features: features::Features<'a>,
    second: Option<SecondMoments<'a>>,
    /// Every resample's common-scale fit is undefined on ordinal codes, as its point fit.
    off_scale: bool,
    free: tallied::Refit,
    latent: Option<(crate::ordinal::Items, usize)>,
}

/// One batch's count-weighted moment sums (a column per resample) and, for a free-scale fit
/// on continuous columns, each resample's covariance.
struct Sums {
    acc: DMatrix<f64>,
    covs: Vec<DMatrix<f64>>,
}

impl<'a> Refits<'a> {
    /// The refits of `estimators` on `panel`'s resamples, and with `neff` n_eff's sums.
    pub(super) fn new(
        panel: &'a Panel,
        estimators: &'a [Estimator],
        ctx: &'a Context,
        streams: Streams,
        neff: bool,
    ) -> Refits<'a> {
        let (p, m) = (panel.p(), panel.m());
        let neff = neff && p >= 2;
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
        // n_eff reads its judge variances from the covariance when there is one, and
        // otherwise from the judges' squares, summed with the closed form's features.
        let set = FeatureSet::new(p, m, families);
        let set = if neff && second.is_none() {
            set.with_judge_squares()
        } else {
            set
        };
        // Ordinal columns: the free-scale refit reads each resample's tally of code patterns.
        let free = tallied::Refit::of(
            panel,
            second.is_none() && estimators.contains(&Estimator::FreeScale),
        );
        Refits {
            panel,
            estimators,
            ctx,
            streams,
            neff,
            centred: crate::neff::centred_judges(panel),
            features: set.compute(panel),
            second,
            off_scale: crate::estimate::scale::reads_codes(panel),
            free,
            latent: latent_items(panel, estimators, ctx),
        }
    }

    /// Resamples `start..start + size`: each one's fits and n_eff. `None` when `progress`
    /// stops the run.
    pub(super) fn batch(
        &self,
        start: usize,
        size: usize,
        progress: &(dyn Fn(Progress) -> Flow + Sync),
    ) -> Option<BatchDraws> {
        let n = self.panel.n;
        let (counts, overflowed) = draw_counts(self.streams, start, size, n, progress)?;
        let sums = self.sums(&counts, &overflowed, start, size);
        let neffs = if self.neff {
            self.neffs(&sums, &counts, &overflowed, start)
        } else {
            Vec::new()
        };
        let fitted = (0..size)
            .map(|r| self.fits(&sums, (&counts, &overflowed), start, r))
            .collect();
        Some((fitted, neffs))
    }

    /// The batch's count-weighted sums; a resample whose counts overflowed a byte is summed
    /// draw by draw.
    fn sums(&self, counts: &[u8], overflowed: &[usize], start: usize, size: usize) -> Sums {
        let n = self.panel.n;
        let mut acc = self.features.weighted_sums(counts, size);
        let mut acc2 = self.second.as_ref().map(|s| s.weighted_sums(counts, size));
        for &r in overflowed {
            let draws = redraw(self.streams, start + r, n);
            let sums = self.features.sum_draws(draws.iter().copied());
            acc.column_mut(r).copy_from_slice(&sums);
            if let (Some(s), Some(a)) = (&self.second, acc2.as_mut()) {
                a.column_mut(r)
                    .copy_from_slice(&s.sum_draws(draws.into_iter()));
            }
        }
        let covs = match (&self.second, &acc2) {
            (Some(s), Some(a)) => a
                .column_iter()
                .map(|w| s.covariance(w.as_slice(), n as f64))
                .collect(),
            _ => Vec::new(),
        };
        Sums { acc, covs }
    }

    /// Resample `r` of the batch from `start`, refitted by every estimator.
    fn fits(&self, sums: &Sums, cs: Counts<'_>, start: usize, r: usize) -> Vec<Option<Estimate>> {
        let panel = self.panel;
        let w = sums.acc.column(r);
        let w = w.as_slice();
        let at = (self.streams, start);
        let items =
            |e: Estimator| refit_items(e, self.latent.as_ref(), &self.free, panel, (cs, at), r);
        self.estimators
            .iter()
            .map(|&e| {
                (!(self.off_scale && e.from_moments()))
                    .then(|| {
                        refit(
                            e,
                            panel,
                            self.ctx,
                            &self.features,
                            w,
                            sums.covs.get(r),
                            &items,
                        )
                    })
                    .flatten()
            })
            .collect()
    }

    /// Each resample's n_eff in the batch from `start` ([`crate::neff`]). With every second
    /// moment at hand (the free-scale refit's covariances) it is read from the judge block;
    /// otherwise from the judge variances in the feature sums and one O(N·p) pass over the
    /// counts (32-bit ones for the resamples that overflowed a byte).
    fn neffs(
        &self,
        sums: &Sums,
        counts: &[u8],
        overflowed: &[usize],
        start: usize,
    ) -> Vec<Option<f64>> {
        let (n, p) = (self.features.n, self.features.set.p());
        if !sums.covs.is_empty() {
            return sums
                .covs
                .iter()
                .map(|c| crate::neff::of_covariance(&c.view((0, 0), (p, p)).into_owned()))
                .collect();
        }
        let wide: Vec<(usize, Vec<u32>)> = overflowed
            .iter()
            .map(|&r| {
                let mut full = vec![0u32; n];
                for i in redraw(self.streams, start + r, n) {
                    full[i] += 1;
                }
                (r, full)
            })
            .collect();
        let vars: Option<Vec<Vec<f64>>> = sums
            .acc
            .column_iter()
            .map(|w| self.features.set.judge_variances(w.as_slice(), n as f64))
            .collect();
        vars.map_or_else(
            || vec![None; sums.acc.ncols()],
            |v| crate::neff::resample_n_eff(&self.centred, &v, counts, &wide),
        )
    }
}

/// A batch's counts (one byte per item and resample) and the resamples that overflowed a byte.
pub(super) type Counts<'a> = (&'a [u8], &'a [usize]);

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
/// patterns, [`super::tallied`]).
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
pub(super) type BatchDraws = (Vec<Vec<Option<Estimate>>>, Vec<Option<f64>>);
