//! The battery's calibration: the null models a panel or scenario implies, and each test's
//! null distribution drawn from them on explicit streams.

use nalgebra::DMatrix;
use rayon::prelude::*;

use super::decision::{Configuration, decide};
use super::inferred::designated_estimator;
use super::null::{NullModel, NullShape};
use super::registry::{PerTest, TestId};
use super::types::{Layout, NullKind, Sample};
use crate::estimate::{BATTERY, Context, Estimate, EstimateError, Estimator, Fits};
use crate::model::Params;
use crate::panel::Panel;
use crate::progress::{Flow, Progress, Stage};
use crate::rng::{Purpose, Streams};
use crate::stats::percentile;

/// Null draws of every test statistic, sorted ascending (non-finite draws dropped).
#[derive(Debug, Clone, PartialEq)]
pub struct NullDistribution {
    pub draws: usize,
    /// Per test; empty when the test was not calibrated.
    pub stats: PerTest<Vec<f64>>,
}

impl NullDistribution {
    /// The 95th percentile of a test's null statistic.
    #[must_use]
    pub fn threshold(&self, t: TestId) -> Option<f64> {
        let v = &self.stats[t];
        (!v.is_empty()).then(|| percentile(v, 0.95))
    }

    /// The Monte-Carlo SD of [`Self::threshold`], so a front end can print the threshold's
    /// own noise beside it: half the gap between the null's quantiles at 0.95 ± √(0.95·0.05/D),
    /// the order statistics one binomial SD of the count of draws below it spans
    /// (docs/method.md §3). `None` under two draws.
    #[must_use]
    pub fn threshold_mc_sd(&self, t: TestId) -> Option<f64> {
        let v = &self.stats[t];
        if v.len() < 2 {
            return None;
        }
        let s = (0.95 * 0.05 / v.len() as f64).sqrt();
        Some((percentile(v, (0.95 + s).min(1.0)) - percentile(v, 0.95 - s)) / 2.0)
    }

    /// Monte-Carlo p-value of an observed statistic (docs/method.md §3).
    #[must_use]
    pub fn p_value(&self, t: TestId, observed: f64) -> Option<f64> {
        let v = &self.stats[t];
        if v.is_empty() {
            return None;
        }
        let at_least = v.len() - v.partition_point(|x| *x < observed);
        Some((1 + at_least) as f64 / (1 + v.len()) as f64)
    }
}

/// Which null draws to make: `count` draws on streams `base..base + count` of `seed`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Draws {
    pub count: usize,
    pub seed: u64,
    pub base: u64,
}

/// Draws null samples at N = `n` and computes the statistics of `tests` on each (with the
/// mixed correlations of every draw when a free-scale test reads them). Draw d
/// uses stream `base + d` of the null purpose, so thresholds are reproducible at any thread
/// count. Returns `None` when `progress` stops the run.
#[must_use]
pub fn calibrate(
    null: &NullModel,
    n: usize,
    layout: &Layout,
    tests: &[TestId],
    draws: Draws,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<NullDistribution> {
    let Draws { count, seed, base } = draws;
    let streams = Streams { seed, base };
    let correlations = tests
        .iter()
        .any(|t| t.null_kind(layout) == NullKind::FreeScale);
    let shared_judge_fit = shares_judge_fit(|t| tests.contains(&t), layout);
    let prepared = null.prepare(n, correlations, streams);
    let rows: Vec<Option<PerTest<f64>>> = (0..count)
        .into_par_iter()
        .map_init(Vec::new, |scratch, d| {
            if progress(Progress::Step) == Flow::Stop {
                return None;
            }
            let mut rng = streams.rng(Purpose::Null, d as u64);
            let (cov, corr) = prepared.draw_sample(&mut rng, scratch);
            let sample = Sample {
                cov: &cov,
                corr: corr.as_ref(),
                judges: None,
            }
            .sharing_judge_fit(shared_judge_fit, layout.p);
            Some(PerTest::from_fn(|t| {
                if tests.contains(&t) {
                    t.statistic_of(&sample, layout)
                } else {
                    f64::NAN
                }
            }))
        })
        .collect();
    let rows: Vec<PerTest<f64>> = rows.into_iter().collect::<Option<_>>()?;
    let stats = PerTest::from_fn(|t| {
        let mut v: Vec<f64> = rows
            .iter()
            .map(|r| r[t])
            .filter(|x| x.is_finite())
            .collect();
        v.sort_by(f64::total_cmp);
        v
    });
    Some(NullDistribution {
        draws: count,
        stats,
    })
}

/// Whether a sample's judge one-factor fit is worth making once for several tests: Tests J
/// and O, and Test C on ordinal judges, start from it (`runs` says which tests run).
pub(crate) fn shares_judge_fit(runs: impl Fn(TestId) -> bool, layout: &Layout) -> bool {
    let c_latent = layout.ordinal_judges > 0 && runs(TestId::C);
    let users = usize::from(runs(TestId::J)) + usize::from(runs(TestId::O)) + usize::from(c_latent);
    users >= 2 && layout.p >= 3
}

/// Which null calibrates the tests.
#[derive(Debug, Clone, PartialEq)]
pub enum NullSpec {
    /// A real panel: the single-factor model fitted to it, at its N, with its marginals.
    Matched,
    /// A simulated scenario: its own parameters with every violation switched off.
    Scenario(Box<Params>),
}

impl NullSpec {
    /// `matched` or `scenario`.
    #[must_use]
    pub fn kind(&self) -> &'static str {
        match self {
            NullSpec::Matched => "matched",
            NullSpec::Scenario(_) => "scenario",
        }
    }
}

/// How the single-factor null draws its samples: Wishart, rows, or not at all.
pub(super) fn method_of(null: &Result<NullModel, EstimateError>, n: usize) -> &'static str {
    match null {
        Ok(m) if m.wishart_ok(n) => "wishart",
        Ok(_) => "rows",
        Err(_) => "none",
    }
}

/// The observed mixed correlations when some column is ordinal (docs/method.md §7); `None` when every
/// column is continuous (Pearson's, from the covariance, are the ones).
pub(super) fn observed_correlations(
    panel: &Panel,
) -> Result<Option<DMatrix<f64>>, crate::ordinal::OrdinalError> {
    if panel.scales.iter().any(crate::panel::Scale::is_ordinal) {
        crate::ordinal::correlation_matrix(panel).map(|c| Some(c.r))
    } else {
        Ok(None)
    }
}

/// The tests of one null slot that run here and that `model` can calibrate (a test reading the
/// anchors needs a null that models them); none unless `defined` (the panel's correlations).
pub(super) fn calibrated(
    slot: Slot,
    layout: &Layout,
    model: &Result<NullModel, EstimateError>,
    defined: bool,
) -> Vec<TestId> {
    TestId::ALL
        .into_iter()
        .filter(|_| defined)
        .filter(|t| Slot::of(*t, layout) == slot && t.applicable(layout).is_ok())
        .filter(|t| !t.spec().uses_anchors || model.as_ref().is_ok_and(|m| m.q() > layout.p))
        .collect()
}

/// Calibrates `tests` against `model` on the null streams from `base` (an empty distribution
/// when there is nothing to calibrate); `None` when `progress` stops the run.
pub(super) fn calibrate_on(
    model: &Result<NullModel, EstimateError>,
    tests: &[TestId],
    n: usize,
    layout: &Layout,
    (draws, stage): (Draws, Stage),
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<NullDistribution> {
    let empty = NullDistribution {
        draws: 0,
        stats: PerTest::default(),
    };
    let Ok(m) = model else {
        return Some(empty);
    };
    if tests.is_empty() {
        return Some(empty);
    }
    let null_layout = Layout {
        m: m.q() - layout.p,
        ..layout.clone()
    };
    calibrate(m, n, &null_layout, tests, draws, &|p| progress(p.of(stage)))
}

/// The null of the free-scale tests (docs/method.md §7), and a sentence on it: for a scenario, the
/// scenario's own null with its judges' scales kept; for a real panel, the
/// fitted free-scale model, or the judges' one-factor fit alone when no free-scale fit of the
/// anchors exists (Test J needs only the judges).
pub(super) fn free_scale_null(
    panel: &Panel,
    s: &DMatrix<f64>,
    corr: Result<&Option<DMatrix<f64>>, &crate::ordinal::OrdinalError>,
    fit: Option<&crate::estimate::free_scale::FreeScaleFit>,
    spec: &NullSpec,
) -> (Result<NullModel, EstimateError>, Option<String>) {
    let p = panel.p();
    if p < 3 {
        return (Err(EstimateError::NullTooFewJudges), None);
    }
    if let NullSpec::Scenario(params) = spec {
        return (NullModel::scenario_free_scale(params), None);
    }
    let ordinal = panel.scales[..p]
        .iter()
        .any(crate::panel::Scale::is_ordinal);
    let marginals = if ordinal {
        ", ordinal judges discretised at their own empirical thresholds"
    } else {
        ""
    };
    if let Some(f) = fit {
        return match NullModel::free_scale(panel, f) {
            Ok(m) => (
                Ok(m),
                Some(format!(
                    "matched free-scale null (the free-scale model fitted to this panel: λ̂, σ̂_t², σ̂_c², β̂) at N = {}{marginals}",
                    panel.n
                )),
            ),
            Err(why) => (Err(why.clone()), Some(format!("not calibrated: {why}"))),
        };
    }
    judges_null(panel, s, corr, spec)
}

/// The null of the free-scale tests that read only the judges (Test J; Test C on Likert
/// judges), and a sentence on it: the judges' own one-factor fit of their correlations (free
/// loadings λ̂), whatever the anchors, so these tests answer the same with any anchors; for a
/// scenario, its own free-scale null restricted to the judges.
pub(super) fn judges_null(
    panel: &Panel,
    s: &DMatrix<f64>,
    corr: Result<&Option<DMatrix<f64>>, &crate::ordinal::OrdinalError>,
    spec: &NullSpec,
) -> (Result<NullModel, EstimateError>, Option<String>) {
    let p = panel.p();
    if p < 3 {
        return (Err(EstimateError::NullTooFewJudges), None);
    }
    if let NullSpec::Scenario(params) = spec {
        return (
            NullModel::scenario_free_scale(params).map(|m| m.judges_only(p)),
            None,
        );
    }
    let marginals = if panel.scales[..p]
        .iter()
        .any(crate::panel::Scale::is_ordinal)
    {
        ", ordinal judges discretised at their own empirical thresholds"
    } else {
        ""
    };
    let r = match corr {
        Ok(Some(r)) => r.clone(),
        Ok(None) => Sample::of_cov(s).correlations().into_owned(),
        Err(why) => return (Err(EstimateError::Correlation(why.to_string())), None),
    };
    let judges = r.view((0, 0), (p, p)).into_owned();
    let built = crate::estimate::free_scale::one_factor_uls(&judges)
        .and_then(|(lambda, _, _)| NullModel::free_scale_judges(panel, &lambda));
    match built {
        Ok(m) => (
            Ok(m),
            Some(format!(
                "matched one-factor null of the judges (free loadings λ̂ of their correlations) at N = {}{marginals}",
                panel.n
            )),
        ),
        Err(why) => (Err(why.clone()), Some(format!("not calibrated: {why}"))),
    }
}

/// The point fits the table allows, plus the designated-clean fit when an anchor is trusted
/// (it is asked for by name, so it runs even where the table refuses the others).
pub(super) fn point_fits(panel: &Panel, s: &DMatrix<f64>, ctx: &Context, allowed: bool) -> Fits {
    let mut fits = if allowed {
        Fits::of(panel, s, ctx, &BATTERY)
    } else {
        Fits::default()
    };
    if ctx.clean.is_some() {
        let extra = Fits::of(panel, s, ctx, &[designated_estimator(panel)]);
        fits.fits.extend(extra.fits);
        fits.refused.extend(extra.refused);
    }
    fits
}

/// Whether some point fit the table allows on `panel` (no anchor trusted) is readable: the
/// answer reads no other, so where none is, no re-run of the battery on `panel` can read a
/// ρ̂ and its nulls need not be drawn (a next step's re-check, cheap side first).
pub(super) fn some_fit_reads(panel: &Panel) -> bool {
    let layout = Layout::of(panel);
    let decision = decide(&Configuration::of(panel));
    let ctx = Context {
        families: layout.families.clone(),
        clean: None,
    };
    let fits = point_fits(panel, &panel.covariance(), &ctx, decision.refusal.is_none());
    fits.fits
        .iter()
        .any(|f| super::answer::readable(&f.estimate))
}

/// What a battery run will resample and draw, read from the same point fits and nulls the
/// run makes, so its cost note ([`crate::cost`]) charges only the work that runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// Polychoric correlations refitted per resample (a free-scale or latent refit on ordinal
    /// columns reads each resample's tally; 0 otherwise).
    pub resample_polychorics: usize,
    /// Each null that has a test to calibrate, and how its draws are made.
    pub nulls: Vec<NullShape>,
    /// Columns of each latent fit (free-scale, one-factor) refitted per resample and per null
    /// draw: on a continuous panel these iterative fits, not the draws, are the run's cost.
    pub resample_fits: Vec<usize>,
    pub draw_fits: Vec<usize>,
    /// The panel's own latent fit ran out of iterations (flag `not_converged`), so each
    /// resample's refit, on nearly the same moments, runs to its cap too.
    pub resample_fits_capped: bool,
}

/// The [`Plan`] of the battery on `panel` (`clean`: the anchor trusted as clean, if any).
#[must_use]
pub fn plan(panel: &Panel, spec: &NullSpec, clean: Option<usize>) -> Plan {
    let layout = Layout::of(panel);
    let decision = decide(&Configuration::of(panel));
    let s = panel.covariance();
    let ctx = Context {
        families: layout.families.clone(),
        clean,
    };
    let fits = point_fits(panel, &s, &ctx, decision.refusal.is_none());
    let (single, _) = null_for(panel, &s, fits.estimate(Estimator::ClosedForm), spec);
    let corr = observed_correlations(panel);
    let (free, _) = free_scale_null(panel, &s, corr.as_ref(), fits.free_scale(), spec);
    let (own, _) = judges_null(panel, &s, corr.as_ref(), spec);
    let slots = [
        (Slot::Single, single),
        (Slot::Free, free),
        (Slot::Judges, own),
    ];
    let (nulls, draw_fits): (Vec<NullShape>, Vec<usize>) = slots
        .iter()
        .filter_map(|(slot, model)| {
            let m = model.as_ref().ok()?;
            let tests = calibrated(*slot, &layout, model, *slot == Slot::Single || corr.is_ok());
            let correlations = tests
                .iter()
                .any(|t| t.null_kind(&layout) == NullKind::FreeScale);
            (!tests.is_empty())
                .then(|| (m.shape(panel.n, correlations), correlations.then(|| m.q())))
        })
        .map(|(shape, fit)| (shape, fit.unwrap_or(0)))
        .unzip();
    let ordinal = panel.scales.iter().filter(|s| s.is_ordinal()).count();
    let mut latent = fits.fits.iter().filter(|f| {
        matches!(
            f.estimator,
            Estimator::FreeScale | Estimator::DesignatedCleanLatent
        )
    });
    let tallied = latent.clone().next().is_some();
    let capped = latent.any(|f| f.estimate.has_flag(crate::estimate::FlagCode::NotConverged));
    Plan {
        resample_polychorics: if tallied {
            ordinal * ordinal.saturating_sub(1) / 2
        } else {
            0
        },
        nulls,
        resample_fits: if tallied {
            vec![panel.p() + panel.m()]
        } else {
            Vec::new()
        },
        draw_fits: draw_fits.into_iter().filter(|&q| q > 0).collect(),
        resample_fits_capped: capped,
    }
}

/// Which of the battery's three nulls calibrates test `t`: the single-factor null, the
/// free-scale null of the whole panel (a latent test that reads the anchors), or the
/// judges' own one-factor null (a latent test that reads only the judges).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Slot {
    Single,
    Free,
    Judges,
}

impl Slot {
    /// The null that calibrates `t` on `layout`.
    pub(super) fn of(t: TestId, layout: &Layout) -> Slot {
        match t.null_kind(layout) {
            NullKind::SingleFactor => Slot::Single,
            NullKind::FreeScale if t.spec().uses_anchors => Slot::Free,
            NullKind::FreeScale => Slot::Judges,
        }
    }

    /// The slot's place in an array of three calibrations.
    pub(super) fn index(self) -> usize {
        self as usize
    }
}

/// The null model for a panel, and a sentence on it.
pub(super) fn null_for(
    panel: &Panel,
    s: &DMatrix<f64>,
    est: Option<&Estimate>,
    spec: &NullSpec,
) -> (Result<NullModel, EstimateError>, String) {
    match spec {
        NullSpec::Scenario(params) => (
            NullModel::scenario(params),
            "scenario null: the simulated design with every violation switched off".into(),
        ),
        NullSpec::Matched => {
            let layout = Layout::of(panel);
            let continuous = layout.continuous_judges();
            if layout.ordinal_judges > 0 && continuous.len() >= 3 {
                // Test A alone reads the single-factor null here, on the continuous judges.
                return (
                    NullModel::matched_continuous_judges(panel, s, &continuous),
                    format!(
                        "matched null for Test A on the {} continuous judges: one common factor of variance K̂ (their mean covariance) with error variances Var(J_j) − K̂, at N = {}",
                        continuous.len(),
                        panel.n
                    ),
                );
            }
            let marginals = if panel.scales.iter().any(crate::panel::Scale::is_ordinal) {
                ", ordinal columns discretised at their own empirical thresholds"
            } else {
                ""
            };
            let judges_only = match est.map(|e| NullModel::matched_full(panel, s, e)) {
                Some(Ok(m)) => {
                    return (
                        Ok(m),
                        format!(
                            "matched null: the single-factor model fitted to this panel (plug-in σ̂_t², σ̂_c², ρ̂, error variances) at N = {}{marginals}",
                            panel.n
                        ),
                    );
                }
                Some(Err(why)) => format!("matched null for the judges only ({why}; Test B is not calibrated)"),
                None => "matched null for the judges: one common factor of variance K̂ with error variances Var(J_j) − K̂,".into(),
            };
            (
                NullModel::matched_judges(panel, s),
                format!("{judges_only} at N = {}{marginals}", panel.n),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_value_counts_null_at_or_above() {
        let nd = NullDistribution {
            draws: 4,
            stats: PerTest::from_fn(|t| {
                if t == TestId::A {
                    vec![1.0, 2.0, 3.0, 4.0]
                } else {
                    Vec::new()
                }
            }),
        };
        assert_eq!(nd.p_value(TestId::A, 3.0), Some(3.0 / 5.0));
        assert_eq!(nd.p_value(TestId::A, 10.0), Some(1.0 / 5.0));
        assert_eq!(nd.p_value(TestId::B, 1.0), None);
    }
}
