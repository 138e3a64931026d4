//! The diagnostic battery (Sections 5–6): the estimates with bootstrap CIs and the
//! weak-identification screen, then every registered test against a null-calibrated 95th
//! percentile, each with a verdict and what it means for this panel. The tests themselves
//! live one per file and are listed in [`registry`]; this module only orchestrates.

pub mod null;
pub mod registry;
pub mod test_a;
pub mod test_b;
pub mod test_c;
pub mod test_j;
pub mod test_o;

use nalgebra::DMatrix;
use rayon::prelude::*;

use crate::bootstrap::{BootstrapResult, WeakId, bootstrap_with_neff};
use crate::decision::{Configuration, Decision, Route, decide, route};
use crate::estimate::free_scale::{JudgeFit, one_factor_uls};
use crate::estimate::{Context, Estimate, Estimator, Fits};
use crate::families::JudgeFamilies;
use crate::model::Params;
use crate::panel::Panel;
use crate::progress::{Flow, Progress, Stage};
use crate::rng::{Purpose, Streams};
use crate::stats::percentile;
use null::NullModel;
pub use registry::{
    COUNT, Diagnostic, NullKind, OnOrdinal, PerTest, Reading, Scales, TestId, Violation,
};

/// Default number of null draws per test (SPEC §3).
pub const DEFAULT_NULL_DRAWS: usize = 1000;

/// The estimators the battery fits and bootstraps: the closed form, the family-blocked
/// estimate where families allow it, and the free-scale estimate (SPEC §7) where ≥ 3 judges
/// and ≥ 3 continuous anchors allow it.
pub const ESTIMATORS: [Estimator; 3] = [
    Estimator::ClosedForm,
    Estimator::Blocked,
    Estimator::FreeScale,
];

/// The shape a test looks at: p judges, m anchors (judges first), the judges' families.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub p: usize,
    pub m: usize,
    pub families: Option<JudgeFamilies>,
    /// Anchors observed on an ordinal scale (the free-scale fit needs none).
    pub ordinal_anchors: usize,
    /// Judges observed on an ordinal scale (Likert): their scales are not observed, so each
    /// test answers for them only as its registry entry says ([`Scales`]).
    pub ordinal_judges: usize,
}

impl Layout {
    #[must_use]
    pub fn of(panel: &Panel) -> Layout {
        let p = panel.p();
        Layout {
            p,
            m: panel.m(),
            families: panel.judge_families(),
            ordinal_anchors: panel.scales[p..].iter().filter(|s| s.is_ordinal()).count(),
            ordinal_judges: panel.scales[..p].iter().filter(|s| s.is_ordinal()).count(),
        }
    }

    /// The layout of the panels a scenario simulates.
    #[must_use]
    pub fn of_params(pm: &Params) -> Layout {
        Layout {
            p: pm.p,
            m: pm.m(),
            families: pm.family_index().map(|(f, _)| JudgeFamilies::from_index(f)),
            ordinal_anchors: pm
                .violations
                .ordinal
                .iter()
                .filter(|(c, _)| *c >= pm.p)
                .count(),
            ordinal_judges: pm
                .violations
                .ordinal
                .iter()
                .filter(|(c, _)| *c < pm.p)
                .count(),
        }
    }
}

/// A sample's second moments as the tests read them (judges first, then anchors).
#[derive(Debug, Clone)]
pub struct Sample<'a> {
    /// The covariance matrix (divisor N − 1).
    pub cov: &'a DMatrix<f64>,
    /// The mixed correlation matrix (Pearson, polychoric or polyserial by each column's
    /// scale, SPEC §7) when some column is ordinal; `None` when every column is continuous,
    /// so that Pearson's correlations of `cov` are the ones.
    pub corr: Option<&'a DMatrix<f64>>,
    /// The judges' one-factor fit of these correlations when it was made once for several
    /// tests (a null draw of Tests J and O); `None`: each test fits it itself.
    pub judges: Option<Result<JudgeFit, String>>,
}

impl<'a> Sample<'a> {
    /// A sample of continuous columns, known by its covariance.
    #[must_use]
    pub fn of_cov(cov: &'a DMatrix<f64>) -> Sample<'a> {
        Sample {
            cov,
            corr: None,
            judges: None,
        }
    }

    /// The correlations the free-scale model reads: the mixed matrix, or Pearson's.
    #[must_use]
    pub fn correlations(&self) -> std::borrow::Cow<'a, DMatrix<f64>> {
        if let Some(r) = self.corr {
            return std::borrow::Cow::Borrowed(r);
        }
        let d: Vec<f64> = (0..self.cov.nrows())
            .map(|i| self.cov[(i, i)].sqrt())
            .collect();
        std::borrow::Cow::Owned(DMatrix::from_fn(
            self.cov.nrows(),
            self.cov.ncols(),
            |i, j| {
                if i == j {
                    1.0
                } else {
                    self.cov[(i, j)] / (d[i] * d[j])
                }
            },
        ))
    }

    /// The judges' one-factor ULS fit of [`Sample::correlations`] (SPEC §7): the shared one
    /// when given, else fitted here.
    #[must_use]
    pub fn judge_fit(&self, p: usize) -> std::borrow::Cow<'_, Result<JudgeFit, String>> {
        if let Some(f) = &self.judges {
            return std::borrow::Cow::Borrowed(f);
        }
        let r = self.correlations();
        std::borrow::Cow::Owned(one_factor_uls(&r.view((0, 0), (p, p)).into_owned()))
    }

    /// The sample with the judges' one-factor fit made once, when `share` says several tests
    /// start from it ([`shares_judge_fit`]: Tests J and O), so they do not each fit it.
    #[must_use]
    pub fn sharing_judge_fit(mut self, share: bool, p: usize) -> Sample<'a> {
        if share && self.judges.is_none() {
            self.judges = Some(self.judge_fit(p).into_owned());
        }
        self
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

impl TestResult {
    /// A test that cannot run here, and why.
    #[must_use]
    pub fn not_applicable(test: TestId, message: String) -> TestResult {
        TestResult {
            test,
            applicable: false,
            statistic: None,
            threshold: None,
            p_value: None,
            verdict: Verdict::NotApplicable,
            message,
        }
    }
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
    let rows: Vec<Option<PerTest<f64>>> = (0..count)
        .into_par_iter()
        .map_init(Vec::new, |scratch, d| {
            if progress(Progress::Step) == Flow::Stop {
                return None;
            }
            let mut rng = streams.rng(Purpose::Null, d as u64);
            let (cov, corr) = null.draw_sample(n, &mut rng, scratch, correlations);
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
    /// One sentence on the free-scale null that calibrates Tests J and O (SPEC §7), when one
    /// was built or why not.
    pub free_scale: Option<String>,
}

/// One estimator's fit with its bootstrap intervals.
#[derive(Debug, Clone, PartialEq)]
pub struct Inferred {
    pub estimator: Estimator,
    pub estimate: Estimate,
    /// What the estimator reports beyond the estimate (λ and misfit for the free scale).
    pub detail: crate::estimate::Detail,
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
    /// Estimators of [`ESTIMATORS`] that could not run on this panel, and why.
    pub refused: Vec<(Estimator, String)>,
    /// Which estimate to read, and why (SPEC §5 and §7).
    pub route: Route,
    /// The effective number of judges with its interval on the same resamples
    /// ([`crate::neff`]).
    pub n_eff: crate::neff::Neff,
    /// Each calibrated test's null statistics, sorted (what the battery figure draws; empty
    /// for a test that was not calibrated).
    pub null_stats: PerTest<Vec<f64>>,
}

impl BatteryReport {
    /// Whether any test fires, the weak-identification flag is raised, or no estimate can be
    /// read (ρ not identified, or every estimate undefined or flagged): `--fail-on-diagnostic`.
    #[must_use]
    pub fn any_alarm(&self) -> bool {
        self.tests.values().any(|t| t.verdict == Verdict::Fires)
            || self.weak_id.is_some_and(|w| w.flag)
            || self.route.read.is_none()
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

/// Conventions a run may be asked to follow besides the model's own rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Conventions {
    /// Test A on ordinal judges with their codes read as numbers, calibrated by the plug-in
    /// null of the paper's HANNA computation (Section 7): a labelled convention, since on
    /// Likert judges Test A has no testable content (SPEC §3) and is otherwise N/A.
    pub codes_as_numbers: bool,
}

/// Runs the whole battery on a panel. Returns `None` when `progress` stops the run.
#[must_use]
pub fn run(
    panel: &Panel,
    spec: &NullSpec,
    opts: &Options,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<BatteryReport> {
    run_with(panel, spec, opts, Conventions::default(), progress)
}

/// [`run`], following `conventions`. Returns `None` when `progress` stops the run.
#[must_use]
pub fn run_with(
    panel: &Panel,
    spec: &NullSpec,
    opts: &Options,
    conventions: Conventions,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<BatteryReport> {
    let layout = Layout::of(panel);
    let config = Configuration::of(panel);
    let decision = decide(&config);
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
    let corr = observed_correlations(panel);
    let (fs_null, fs_note) = free_scale_null(panel, &s, corr.as_ref(), fits.free_scale(), spec);
    let single = calibrated(NullKind::SingleFactor, &layout, &null_model, true);
    let free = calibrated(NullKind::FreeScale, &layout, &fs_null, corr.is_ok());
    let codes = conventions.codes_as_numbers && single.is_empty();
    let (null_note, fs_note) = notes(&layout, (&single, &free, codes), null_note, fs_note);
    let which: Vec<Estimator> = fits.fits.iter().map(|f| f.estimator).collect();
    let free_refused = fits.refusal(Estimator::FreeScale).map(String::from);
    let boot = |p: Progress| progress(p.of(Stage::Bootstrap)); // stages run side by side
    let (boots, (nulls, fs_nulls)) = rayon::join(
        || {
            let streams = Streams::of(opts.seed);
            bootstrap_with_neff(panel, &which, &ctx, opts.resamples, streams, true, &boot)
        },
        || {
            rayon::join(
                || calibrate_on(&null_model, &single, panel.n, &layout, opts, 0, progress),
                // Its own block of streams, after the single-factor null's.
                || {
                    let base = opts.null_draws as u64;
                    calibrate_on(&fs_null, &free, panel.n, &layout, opts, base, progress)
                },
            )
        },
    );
    let ((boots, n_eff), nulls, fs_nulls) = (boots?, nulls?, fs_nulls?);
    let inferred: Vec<Inferred> = fits
        .fits
        .into_iter()
        .zip(boots)
        .map(|(f, boot)| Inferred {
            estimator: f.estimator,
            estimate: f.estimate,
            detail: f.detail,
            boot,
        })
        .collect();
    let closed = inferred
        .iter()
        .find(|f| f.estimator == Estimator::ClosedForm);
    let weak_id = closed.map(|f| WeakId::new(&f.estimate, &f.boot));
    let estimate = closed.map(|f| &f.estimate);
    let sample = Sample {
        cov: &s,
        corr: corr.as_ref().ok().and_then(Option::as_ref),
        judges: None,
    };
    let calibrations = Calibrations {
        single: (&nulls, &null_model),
        free: (&fs_nulls, &fs_null),
    };
    let (tests, null_stats) = results(
        panel,
        &layout,
        (&sample, &corr),
        estimate,
        &calibrations,
        (opts, codes),
    );
    let route = route_of(
        &config,
        &decision,
        &tests,
        &inferred,
        weak_id,
        free_refused.as_deref(),
    );
    Some(BatteryReport {
        decision,
        fits: inferred,
        weak_id,
        tests,
        n_eff,
        null: NullInfo {
            kind: spec.kind(),
            method: method_of(&null_model, panel.n),
            draws: opts.null_draws,
            note: null_note,
            free_scale: fs_note,
        },
        refused: fits.refused,
        route,
        null_stats,
    })
}

/// The null draws and null model of the single-factor tests, and of the latent ones.
struct Calibrations<'a> {
    single: (&'a NullDistribution, &'a Result<NullModel, String>),
    free: (&'a NullDistribution, &'a Result<NullModel, String>),
}

/// Every test's result and its null statistics; with `codes` (and Likert judges), Test A read
/// as the paper's codes-as-numbers convention ([`Conventions::codes_as_numbers`]).
fn results(
    panel: &Panel,
    layout: &Layout,
    (sample, corr): (&Sample<'_>, &Result<Option<DMatrix<f64>>, String>),
    estimate: Option<&Estimate>,
    c: &Calibrations<'_>,
    (opts, codes): (&Options, bool),
) -> (PerTest<TestResult>, PerTest<Vec<f64>>) {
    let mut tests = judge_all(
        layout,
        sample,
        corr,
        estimate,
        [(Some(c.single.0), c.single.1), (Some(c.free.0), c.free.1)],
    );
    let mut null_stats = PerTest::from_fn(|t| match t.null_kind(layout) {
        NullKind::SingleFactor => c.single.0.stats[t].clone(),
        NullKind::FreeScale => c.free.0.stats[t].clone(),
    });
    if codes
        && let Some((a, stats)) =
            codes_as_numbers(panel, layout, sample, estimate, c.single.1, opts)
    {
        (tests[TestId::A], null_stats[TestId::A]) = (a, stats);
    }
    (tests, null_stats)
}

/// The two null notes as the report shows them: the single-factor null's (a sentence on
/// Likert judges when no test reads it), and the latent null's with the tests it calibrates.
fn notes(
    layout: &Layout,
    (single, free, codes): (&[TestId], &[TestId], bool),
    null_note: String,
    fs_note: Option<String>,
) -> (String, Option<String>) {
    let fs_note = fs_note
        .filter(|_| !free.is_empty())
        .map(|n| name_tests(free, &n));
    if layout.ordinal_judges > 0 && codes {
        return (
            format!("Test A with codes as numbers (the paper's convention): {null_note}"),
            fs_note,
        );
    }
    if layout.ordinal_judges > 0 && single.is_empty() {
        return ("Likert judges: Tests A and B are N/A on them (SPEC §3); every test that runs is calibrated on the latent null".into(), fs_note);
    }
    (null_note, fs_note)
}

/// "Tests J and O: …" (or "Test J not calibrated: …") for the tests a null calibrates.
fn name_tests(tests: &[TestId], note: &str) -> String {
    let names: Vec<&str> = tests.iter().map(|t| t.name()).collect();
    let who = match names.as_slice() {
        [] => return note.to_string(),
        [one] => format!("Test {one}"),
        [init @ .., last] => format!("Tests {} and {last}", init.join(", ")),
    };
    if note.starts_with("not calibrated") {
        format!("{who} {note}")
    } else {
        format!("{who}: {note}")
    }
}

/// Test A on ordinal judges with their codes read as numbers (the paper's HANNA
/// computation, [`Conventions::codes_as_numbers`]), calibrated by the plug-in null of SPEC
/// §3's first rule on its own null streams; the result says it is a convention and states
/// the null's latent judge correlations. `None` when no judge is ordinal.
fn codes_as_numbers(
    panel: &Panel,
    layout: &Layout,
    sample: &Sample<'_>,
    estimate: Option<&Estimate>,
    null_model: &Result<NullModel, String>,
    opts: &Options,
) -> Option<(TestResult, Vec<f64>)> {
    if layout.ordinal_judges == 0 {
        return None;
    }
    let codes = Layout {
        ordinal_judges: 0,
        ..layout.clone()
    };
    let silent = |_: Progress| Flow::Continue;
    let nd = calibrate_on(null_model, &[TestId::A], panel.n, &codes, opts, 0, &silent)?;
    let mut a = judge(TestId::A, &codes, sample, estimate, Some(&nd), null_model);
    if let Ok(m) = null_model {
        let p = layout.p;
        let mut r: Vec<f64> = Vec::new();
        for i in 0..p {
            for j in i + 1..p {
                r.push(m.cov[(i, j)] / (m.cov[(i, i)] * m.cov[(j, j)]).sqrt());
            }
        }
        let (lo, hi) = r
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| {
                (l.min(*x), h.max(*x))
            });
        a.message = format!(
            "Codes as numbers (the paper's convention, not a test of the latent model: {}). {} The threshold comes from the plug-in null (one common factor of variance K̂ on the codes' scale, error variances Var(J_j) − K̂, each judge cut at its own empirical thresholds), whose latent judge correlations are {lo:.3}–{hi:.3}; a null with other latent correlations gives another threshold (the paper reports 0.247 on HANNA without stating its null's), so read the verdict as the paper's convention.",
            test_a::ORDINAL_JUDGES.split(';').next().unwrap_or_default(),
            a.message
        );
    }
    Some((a, nd.stats[TestId::A].clone()))
}

/// [`route`] from the fits with their intervals and the weak-identification screen.
fn route_of(
    config: &Configuration,
    decision: &Decision,
    tests: &PerTest<TestResult>,
    inferred: &[Inferred],
    weak_id: Option<WeakId>,
    free_refused: Option<&str>,
) -> Route {
    let estimates: Vec<_> = inferred
        .iter()
        .map(|f| (f.estimator, &f.estimate))
        .collect();
    let weak = weak_id.is_some_and(|w| w.flag);
    route(config, decision, tests, &estimates, weak, free_refused)
}

/// How the single-factor null draws its samples: Wishart, rows, or not at all.
fn method_of(null: &Result<NullModel, String>, n: usize) -> &'static str {
    match null {
        Ok(m) if m.wishart_ok(n) => "wishart",
        Ok(_) => "rows",
        Err(_) => "none",
    }
}

/// The observed mixed correlations when some column is ordinal (SPEC §7); `None` when every
/// column is continuous (Pearson's, from the covariance, are the ones).
fn observed_correlations(panel: &Panel) -> Result<Option<DMatrix<f64>>, String> {
    if panel.scales.iter().any(crate::panel::Scale::is_ordinal) {
        crate::ordinal::correlation_matrix(panel)
            .map(|c| Some(c.r))
            .map_err(String::from)
    } else {
        Ok(None)
    }
}

/// Every test's result: `calibrations` holds the null draws and the null model of the
/// single-factor tests, then of the free-scale tests.
fn judge_all(
    layout: &Layout,
    sample: &Sample<'_>,
    corr: &Result<Option<DMatrix<f64>>, String>,
    estimate: Option<&Estimate>,
    calibrations: [(Option<&NullDistribution>, &Result<NullModel, String>); 2],
) -> PerTest<TestResult> {
    PerTest::from_fn(|t| {
        let (nulls, model) = match t.null_kind(layout) {
            NullKind::SingleFactor => calibrations[0],
            NullKind::FreeScale => calibrations[1],
        };
        match (corr, t.null_kind(layout)) {
            (Err(why), NullKind::FreeScale) if t.applicable(layout).is_ok() => {
                TestResult::not_applicable(
                    t,
                    format!("the panel's correlations are undefined: {why}"),
                )
            }
            _ => judge(t, layout, sample, estimate, nulls, model),
        }
    })
}

/// The tests of one null kind that run here and that `model` can calibrate (a test reading the
/// anchors needs a null that models them); none unless `defined` (the panel's correlations).
fn calibrated(
    kind: NullKind,
    layout: &Layout,
    model: &Result<NullModel, String>,
    defined: bool,
) -> Vec<TestId> {
    TestId::ALL
        .into_iter()
        .filter(|_| defined)
        .filter(|t| t.null_kind(layout) == kind && t.applicable(layout).is_ok())
        .filter(|t| !t.spec().uses_anchors || model.as_ref().is_ok_and(|m| m.q() > layout.p))
        .collect()
}

/// Calibrates `tests` against `model` on the null streams from `base` (an empty distribution
/// when there is nothing to calibrate); `None` when `progress` stops the run.
fn calibrate_on(
    model: &Result<NullModel, String>,
    tests: &[TestId],
    n: usize,
    layout: &Layout,
    opts: &Options,
    base: u64,
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
    let draws = Draws {
        count: opts.null_draws,
        seed: opts.seed,
        base,
    };
    let stage = if base == 0 {
        Stage::Null
    } else {
        Stage::FreeScaleNull
    };
    calibrate(m, n, &null_layout, tests, draws, &|p| progress(p.of(stage)))
}

/// The null of the free-scale tests (SPEC §7), and a sentence on it: for a scenario, the
/// scenario's own null with its judges' scales kept; for a real panel, the
/// fitted free-scale model, or the judges' one-factor fit alone when no free-scale fit of the
/// anchors exists (Test J needs only the judges).
fn free_scale_null(
    panel: &Panel,
    s: &DMatrix<f64>,
    corr: Result<&Option<DMatrix<f64>>, &String>,
    fit: Option<&crate::estimate::free_scale::FreeScaleFit>,
    spec: &NullSpec,
) -> (Result<NullModel, String>, Option<String>) {
    let p = panel.p();
    if p < 3 {
        return (Err("fewer than 3 judges".into()), None);
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
    let r = match corr {
        Ok(Some(r)) => r.clone(),
        Ok(None) => Sample::of_cov(s).correlations().into_owned(),
        Err(why) => return (Err(why.clone()), None),
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
    sample: &Sample<'_>,
    est: Option<&Estimate>,
    nulls: Option<&NullDistribution>,
    null_model: &Result<NullModel, String>,
) -> TestResult {
    let na = |message: String| TestResult::not_applicable(t, message);
    if let Err(why) = t.applicable(layout) {
        return na(why);
    }
    if let Err(why) = null_model {
        return na(format!("no null to calibrate against: {why}"));
    }
    let observed = t.statistic_of(sample, layout);
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
