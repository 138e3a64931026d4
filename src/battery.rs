//! The diagnostic battery (Sections 5–6): the estimates with bootstrap CIs and the
//! weak-identification screen, then every registered test against a null-calibrated 95th
//! percentile, each with a verdict and what it means for this panel. The tests themselves
//! live one per file and are listed in [`registry`]; this module only orchestrates.

pub mod null;
pub mod registry;
pub mod test_a;
pub mod test_b;
pub mod test_c;

use nalgebra::DMatrix;
use rayon::prelude::*;

use crate::bootstrap::{BootstrapResult, WeakId, bootstrap};
use crate::decision::{Configuration, Decision, decide};
use crate::estimate::{Context, Estimate, Estimator, Fits};
use crate::families::JudgeFamilies;
use crate::model::Params;
use crate::panel::Panel;
use crate::progress::{Flow, Progress};
use crate::rng::{Purpose, Streams};
use crate::stats::percentile;
use null::NullModel;
pub use registry::{COUNT, Diagnostic, PerTest, Reading, TestId, Violation};

/// Default number of null draws per test (SPEC §3).
pub const DEFAULT_NULL_DRAWS: usize = 1000;

/// The estimators the battery fits and bootstraps: the closed form, and the family-blocked
/// estimate where families allow it.
pub const ESTIMATORS: [Estimator; 2] = [Estimator::ClosedForm, Estimator::Blocked];

/// The shape a test looks at: p judges, m anchors (judges first), the judges' families.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub p: usize,
    pub m: usize,
    pub families: Option<JudgeFamilies>,
}

impl Layout {
    #[must_use]
    pub fn of(panel: &Panel) -> Layout {
        Layout {
            p: panel.p(),
            m: panel.m(),
            families: panel.judge_families(),
        }
    }
}

/// A test's verdict. Shown as a word and a symbol, never colour alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Pass,
    Fires,
    NotApplicable,
}

impl Verdict {
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Pass => "pass",
            Verdict::Fires => "fires",
            Verdict::NotApplicable => "n/a",
        }
    }

    /// Word and symbol for text output.
    #[must_use]
    pub fn badge(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS ✓",
            Verdict::Fires => "FIRES ✗",
            Verdict::NotApplicable => "N/A ·",
        }
    }
}

/// One test's outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct TestResult {
    pub test: TestId,
    pub applicable: bool,
    pub statistic: Option<f64>,
    /// The null's 95th percentile.
    pub threshold: Option<f64>,
    /// (1 + #{null ≥ observed}) / (1 + draws).
    pub p_value: Option<f64>,
    pub verdict: Verdict,
    /// What the verdict means for this panel (Sections 5 and 8).
    pub message: String,
}

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

    /// Monte-Carlo p-value of an observed statistic (SPEC §3).
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

/// Draws null covariances at N = `n` and computes the statistics of `tests` on each. Draw d
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
    let rows: Vec<Option<PerTest<f64>>> = (0..count)
        .into_par_iter()
        .map_init(Vec::new, |scratch, d| {
            if progress(Progress::Step) == Flow::Stop {
                return None;
            }
            let mut rng = streams.rng(Purpose::Null, d as u64);
            let s = null.draw_cov(n, &mut rng, scratch);
            Some(PerTest::from_fn(|t| {
                if tests.contains(&t) {
                    t.statistic(&s, layout)
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

/// How the tests were calibrated.
#[derive(Debug, Clone, PartialEq)]
pub struct NullInfo {
    /// `matched` or `scenario`.
    pub kind: &'static str,
    /// `wishart` or `rows`.
    pub method: &'static str,
    pub draws: usize,
    /// One sentence on the null used, and on what it could not cover.
    pub note: String,
}

/// One estimator's fit with its bootstrap intervals.
#[derive(Debug, Clone, PartialEq)]
pub struct Inferred {
    pub estimator: Estimator,
    pub estimate: Estimate,
    pub boot: BootstrapResult,
}

/// Everything `rhoscope battery` reports.
#[derive(Debug, Clone, PartialEq)]
pub struct BatteryReport {
    pub decision: Decision,
    /// The fits of [`ESTIMATORS`] that could run, with their intervals (none when ρ is not
    /// identified or is refused).
    pub fits: Vec<Inferred>,
    /// The weak-identification screen of the closed form.
    pub weak_id: Option<WeakId>,
    pub tests: PerTest<TestResult>,
    pub null: NullInfo,
    /// The effective number of judges with its interval on the same resamples
    /// ([`crate::neff`]).
    pub n_eff: crate::neff::Neff,
}

impl BatteryReport {
    /// Whether any test fires or the weak-identification flag is raised.
    #[must_use]
    pub fn any_alarm(&self) -> bool {
        self.tests.values().any(|t| t.verdict == Verdict::Fires)
            || self.weak_id.is_some_and(|w| w.flag)
    }

    /// One estimator's fit and intervals, if it ran.
    #[must_use]
    pub fn fit(&self, e: Estimator) -> Option<&Inferred> {
        self.fits.iter().find(|f| f.estimator == e)
    }

    /// The closed-form estimate (Theorem 1), if ρ is identified.
    #[must_use]
    pub fn estimate(&self) -> Option<&Estimate> {
        self.fit(Estimator::ClosedForm).map(|f| &f.estimate)
    }

    /// The closed form's bootstrap.
    #[must_use]
    pub fn boot(&self) -> Option<&BootstrapResult> {
        self.fit(Estimator::ClosedForm).map(|f| &f.boot)
    }
}

/// Runs the whole battery on a panel. Returns `None` when `progress` stops the run.
#[must_use]
pub fn run(
    panel: &Panel,
    spec: &NullSpec,
    opts: &Options,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<BatteryReport> {
    let layout = Layout::of(panel);
    let decision = decide(&Configuration::of(panel));
    let s = panel.covariance();
    let ctx = Context {
        families: layout.families.clone(),
        clean: None,
    };
    let fits = if decision.refusal.is_none() {
        Fits::of(panel, &s, &ctx, &ESTIMATORS)
    } else {
        Fits::default()
    };
    let estimate = fits.estimate(Estimator::ClosedForm);
    let (null_model, null_note) = null_for(panel, &s, estimate, spec);
    let calibrated: Vec<TestId> = TestId::ALL
        .into_iter()
        .filter(|t| t.applicable(&layout).is_ok())
        .filter(|t| !t.spec().uses_anchors || null_model.as_ref().is_ok_and(|m| m.q() > layout.p))
        .collect();
    let which: Vec<Estimator> = fits.fits.iter().map(|f| f.estimator).collect();
    let (boots, nulls) = rayon::join(
        || {
            let streams = Streams::of(opts.seed);
            bootstrap(panel, &which, &ctx, opts.resamples, streams, progress)
        },
        || {
            null_model.as_ref().ok().map(|m| {
                let null_layout = Layout {
                    m: m.q() - layout.p,
                    ..layout.clone()
                };
                let draws = Draws {
                    count: opts.null_draws,
                    seed: opts.seed,
                    base: 0,
                };
                calibrate(m, panel.n, &null_layout, &calibrated, draws, progress)
            })
        },
    );
    let boots = boots?;
    let nulls = match nulls {
        Some(n) => Some(n?),
        None => None,
    };
    let fits: Vec<Inferred> = fits
        .fits
        .into_iter()
        .zip(boots)
        .map(|(f, boot)| Inferred {
            estimator: f.estimator,
            estimate: f.estimate,
            boot,
        })
        .collect();
    let closed = fits.iter().find(|f| f.estimator == Estimator::ClosedForm);
    let weak_id = closed.map(|f| WeakId::new(&f.estimate, &f.boot));
    let estimate = closed.map(|f| &f.estimate);
    let tests = PerTest::from_fn(|t| judge(t, &layout, &s, estimate, nulls.as_ref(), &null_model));
    let method = null_model.as_ref().map_or("none", |m| {
        if m.wishart_ok(panel.n) {
            "wishart"
        } else {
            "rows"
        }
    });
    let n_eff = crate::neff::with_bootstrap(panel, opts.resamples, Streams::of(opts.seed));
    Some(BatteryReport {
        decision,
        fits,
        weak_id,
        tests,
        n_eff,
        null: NullInfo {
            kind: spec.kind(),
            method,
            draws: opts.null_draws,
            note: null_note,
        },
    })
}

/// The null model for a panel, and a sentence on it.
fn null_for(
    panel: &Panel,
    s: &DMatrix<f64>,
    est: Option<&Estimate>,
    spec: &NullSpec,
) -> (Result<NullModel, String>, String) {
    match spec {
        NullSpec::Scenario(params) => (
            NullModel::scenario(params),
            "scenario null: the simulated design with every violation switched off".into(),
        ),
        NullSpec::Matched => {
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

/// One test's result with its meaning.
fn judge(
    t: TestId,
    layout: &Layout,
    s: &DMatrix<f64>,
    est: Option<&Estimate>,
    nulls: Option<&NullDistribution>,
    null_model: &Result<NullModel, String>,
) -> TestResult {
    let na = |message: String| TestResult {
        test: t,
        applicable: false,
        statistic: None,
        threshold: None,
        p_value: None,
        verdict: Verdict::NotApplicable,
        message,
    };
    if let Err(why) = t.applicable(layout) {
        return na(why);
    }
    if let Err(why) = null_model {
        return na(format!("no null to calibrate against: {why}"));
    }
    let observed = t.statistic(s, layout);
    let (Some(threshold), Some(nulls)) = (nulls.and_then(|n| n.threshold(t)), nulls) else {
        return na(
            "not calibrated: the fit is out of range, so there is no matched null for the anchors"
                .into(),
        );
    };
    if !observed.is_finite() {
        return na(
            "the statistic is undefined on this panel (no anchor pair has a usable denominator)"
                .into(),
        );
    }
    let verdict = if observed > threshold {
        Verdict::Fires
    } else {
        Verdict::Pass
    };
    TestResult {
        test: t,
        applicable: true,
        statistic: Some(observed),
        threshold: Some(threshold),
        p_value: nulls.p_value(t, observed),
        verdict,
        message: t.meaning(&Reading {
            fires: verdict == Verdict::Fires,
            observed,
            estimate: est,
            layout,
        }),
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
