//! The diagnostic battery (Sections 5–6): the estimates with bootstrap CIs and the
//! weak-identification screen, then every registered test against a null-calibrated 95th
//! percentile, each with a verdict and what it means for this panel. The tests themselves
//! live one per file and are listed in [`registry`]; this module only orchestrates.

#[macro_use]
pub mod registry;

mod answer;
pub mod calibration;
mod conventions;
pub mod decision;
mod inferred;
pub mod null;
mod options;
pub mod phrase;
pub mod reading;
mod remedy;
pub mod types;
pub mod verdict;

pub use conventions::Conventions;
use conventions::codes_as_numbers;
pub use inferred::{Inferred, RhoInterval, designated_estimator};
pub use options::{DEFAULT_NULL_DRAWS, Options};

// The registered tests, in report order: a new one is its file here plus one line.
registry! {
    A => test_a,
    B => test_b,
    C => test_c,
    J => test_j,
    O => test_o,
    #[cfg(test)]
    Z => test_z,
}

use nalgebra::DMatrix;

use crate::bootstrap::{BootstrapResult, WeakId, bootstrap_with_neff};
use crate::estimate::{Context, Estimate, EstimateError, Estimator};
use crate::panel::Panel;
use crate::progress::{Flow, Progress, Stage};
use crate::rng::Streams;
pub(crate) use calibration::shares_judge_fit;
pub use calibration::{Draws, NullDistribution, NullSpec, calibrate};
use calibration::{
    Slot, calibrate_on, calibrated, free_scale_null, judges_null, method_of, null_for,
    observed_correlations, point_fits,
};
use decision::{Configuration, Decision, Route, decide};
use null::NullModel;
pub use reading::{Reading, Room};
pub use registry::{COUNT, PerTest};
pub use types::{
    Diagnostic, Layout, NotApplicable, NullKind, Observation, OnOrdinal, Sample, Scales, Violation,
};
use verdict::judge_all;
pub use verdict::{TestResult, Verdict};

/// The estimators the battery fits and bootstraps: the registry's battery list.
pub use crate::estimate::BATTERY as ESTIMATORS;

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
    /// One sentence on the latent nulls (docs/method.md §7): the judges' own one-factor null
    /// of Test J, the free-scale null of Test O, each when one was built or why not.
    pub free_scale: Option<String>,
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
    /// Which estimate to read, and why (docs/method.md §5 and §7).
    pub route: Route,
    /// The effective number of judges with its interval on the same resamples
    /// ([`crate::neff`]).
    pub n_eff: crate::neff::Neff,
    /// The panel's reading: the answer, its evidence and the next steps, decided once
    /// ([`reading::read`]); front ends word it.
    pub reading: reading::Reading,
    /// Each calibrated test's null statistics, sorted (what the battery figure draws; empty
    /// for a test that was not calibrated).
    pub null_stats: PerTest<Vec<f64>>,
    /// The anchor the run was asked to trust as clean ([`Conventions::designated_clean`]).
    pub designated: Option<usize>,
}

impl BatteryReport {
    /// Whether any test fires, the weak-identification flag is raised, or no estimate can be
    /// read (ρ not identified, or every estimate undefined or flagged): `--fail-on-diagnostic`.
    #[must_use]
    pub fn any_alarm(&self) -> bool {
        self.reading.any_alarm()
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
    run_in(panel, &Room::default(), spec, opts, conventions, progress)
}

/// Each point fit joined with its bootstrap, in the fits' order.
fn with_intervals(fits: Vec<crate::estimate::Fit>, boots: Vec<BootstrapResult>) -> Vec<Inferred> {
    fits.into_iter()
        .zip(boots)
        .map(|(f, boot)| Inferred {
            estimator: f.estimator,
            estimate: f.estimate,
            detail: f.detail,
            boot,
        })
        .collect()
}

/// [`run_with`] on a panel whose source could still give `room` (spare columns), which the
/// reading's next steps may offer. Returns `None` when `progress` stops the run.
#[must_use]
pub fn run_in(
    panel: &Panel,
    room: &Room,
    spec: &NullSpec,
    opts: &Options,
    conventions: Conventions,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<BatteryReport> {
    let mut report = run_unchecked(panel, room, spec, opts, conventions, progress)?;
    check_steps(&mut report, panel, room, opts, conventions, &|_| {
        Flow::Continue
    })?;
    Some(report)
}

/// [`run_in`]'s verdicts, fits and answer, without re-running the battery on the roles each
/// role-changing next step leads to: those steps are left out and `reading.checking` is set
/// until [`check_steps`] settles them, so a front end can show the verdicts first.
#[must_use]
pub fn run_unchecked(
    panel: &Panel,
    room: &Room,
    spec: &NullSpec,
    opts: &Options,
    conventions: Conventions,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<BatteryReport> {
    let mut report = run_checked(panel, (room, spec), opts, conventions, progress, None)?;
    report.reading.checking = true;
    Some(report)
}

/// Settles the next steps of a [`run_unchecked`] report as [`run_in`] gives them: a step that
/// changes the roles is offered only if the battery on the roles it leads to reads a ρ̂ (that
/// run, on the matched null with the same seed and null draws, is the check; its bootstrap,
/// which only the weak-ID screen reads here, is cut to 100 resamples). `None` when `progress`
/// stops a re-run; the report is then left as it was.
pub fn check_steps(
    report: &mut BatteryReport,
    panel: &Panel,
    room: &Room,
    opts: &Options,
    conventions: Conventions,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<()> {
    let plain = Conventions {
        designated_clean: None,
        ..conventions
    };
    let quick = Options {
        resamples: opts.resamples.min(100),
        ..*opts
    };
    let stopped = std::sync::atomic::AtomicBool::new(false);
    let confirm = |changed: &Panel| {
        // The point fits first: with none readable no verdict can make one read.
        if !calibration::some_fit_reads(changed) {
            return None;
        }
        let (none, s) = (Room::default(), NullSpec::Matched);
        let run = run_checked(changed, (&none, &s), &quick, plain, progress, None);
        if run.is_none() {
            stopped.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        run.and_then(|r| r.reading.answer.read)
    };
    let reading = reading::read(&reading::Inputs {
        panel,
        tests: &report.tests,
        fits: &report.fits,
        weak_id: report.weak_id.as_ref(),
        refused: &report.refused,
        room,
        designated: report.designated,
        confirm: Some(&confirm),
    });
    if stopped.load(std::sync::atomic::Ordering::SeqCst) {
        return None;
    }
    report.route = reading.route(&panel.anchors);
    report.reading = reading;
    Some(())
}

/// [`run_in`], with the next steps confirmed by `confirm` (the reading on a changed panel).
fn run_checked(
    panel: &Panel,
    (room, spec): (&Room, &NullSpec),
    opts: &Options,
    conventions: Conventions,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
    confirm: Option<&reading::Confirm<'_>>,
) -> Option<BatteryReport> {
    let layout = Layout::of(panel);
    let config = Configuration::of(panel);
    let decision = decide(&config);
    let s = panel.covariance();
    let ctx = Context {
        families: layout.families.clone(),
        clean: conventions.designated_clean,
    };
    let fits = point_fits(panel, &s, &ctx, decision.refusal.is_none());
    let estimate = fits.estimate(Estimator::ClosedForm);
    let (null_model, null_note) = null_for(panel, &s, estimate, spec);
    let corr = observed_correlations(panel);
    let (fs_null, fs_note) = free_scale_null(panel, &s, corr.as_ref(), fits.free_scale(), spec);
    let (own_null, own_note) = judges_null(panel, &s, corr.as_ref(), spec);
    let single = calibrated(Slot::Single, &layout, &null_model, true);
    let free = calibrated(Slot::Free, &layout, &fs_null, corr.is_ok());
    let own = calibrated(Slot::Judges, &layout, &own_null, corr.is_ok());
    let codes = conventions.codes_as_numbers && conventions.refusal(panel).is_none();
    let (null_note, fs_note) = notes(
        &layout,
        (&single, [(&own, own_note), (&free, fs_note)], codes),
        null_note,
    );
    let which: Vec<Estimator> = fits.fits.iter().map(|f| f.estimator).collect();
    let calibrations = [
        (&null_model, &single[..]),
        (&fs_null, &free[..]),
        (&own_null, &own[..]),
    ];
    let ((boots, n_eff), [nulls, fs_nulls, own_nulls]) =
        resample_and_calibrate(panel, &layout, &ctx, &which, calibrations, opts, progress)?;
    let inferred = with_intervals(fits.fits, boots);
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
        own: (&own_nulls, &own_null),
    };
    let (tests, null_stats) = results(
        panel,
        &layout,
        (&sample, &corr),
        estimate,
        &calibrations,
        (opts, codes),
    );
    let decision = decision.settled(&tests);
    let reading = reading::read(&reading::Inputs {
        panel,
        tests: &tests,
        fits: &inferred,
        weak_id: weak_id.as_ref(),
        refused: &fits.refused,
        room,
        designated: conventions.designated_clean,
        confirm,
    });
    let route = reading.route(&panel.anchors);
    Some(BatteryReport {
        decision,
        reading,
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
        designated: conventions.designated_clean,
    })
}

/// Each fit's bootstrap and the effective number of judges, on the same resamples.
type Resampled = (Vec<BootstrapResult>, crate::neff::Neff);

/// The tests a latent null calibrates, and the sentence on that null.
type LatentNote<'a> = (&'a Vec<TestId>, Option<String>);

/// The bootstrap and the three null calibrations (single-factor, free-scale, the judges'
/// own), run side by side; `None` when `progress` stops the run.
fn resample_and_calibrate(
    panel: &Panel,
    layout: &Layout,
    ctx: &Context,
    which: &[Estimator],
    nulls: [(&Result<NullModel, EstimateError>, &[TestId]); 3],
    opts: &Options,
    progress: &(dyn Fn(Progress) -> Flow + Sync),
) -> Option<(Resampled, [NullDistribution; 3])> {
    let boot = |p: Progress| progress(p.of(Stage::Bootstrap)); // stages run side by side
    // Each null has its own block of streams: the single-factor null's first, then the
    // free-scale null's, then the judges' own, so Test J draws the same whatever the anchors.
    let stages = [Stage::Null, Stage::FreeScaleNull, Stage::JudgeNull];
    let one = |i: usize| {
        let (model, tests) = nulls[i];
        let draws = opts.draws(i as u64 * opts.null_draws as u64);
        calibrate_on(model, tests, panel.n, layout, (draws, stages[i]), progress)
    };
    let (boots, (single, (free, own))) = rayon::join(
        || {
            let streams = Streams::of(opts.seed);
            bootstrap_with_neff(panel, which, ctx, opts.resamples, streams, true, &boot)
        },
        || rayon::join(|| one(0), || rayon::join(|| one(1), || one(2))),
    );
    Some((boots?, [single?, free?, own?]))
}

/// The null draws and null model of the single-factor tests, and of the latent ones.
struct Calibrations<'a> {
    single: (&'a NullDistribution, &'a Result<NullModel, EstimateError>),
    free: (&'a NullDistribution, &'a Result<NullModel, EstimateError>),
    own: (&'a NullDistribution, &'a Result<NullModel, EstimateError>),
}

/// Every test's result and its null statistics; with `codes` (and Likert judges), Test A read
/// as the paper's codes-as-numbers convention ([`Conventions::codes_as_numbers`]).
fn results(
    panel: &Panel,
    layout: &Layout,
    (sample, corr): (
        &Sample<'_>,
        &Result<Option<DMatrix<f64>>, crate::ordinal::OrdinalError>,
    ),
    estimate: Option<&Estimate>,
    c: &Calibrations<'_>,
    (opts, codes): (&Options, bool),
) -> (PerTest<TestResult>, PerTest<Vec<f64>>) {
    let mut tests = judge_all(
        layout,
        sample,
        corr,
        estimate,
        [
            (Some(c.single.0), c.single.1),
            (Some(c.free.0), c.free.1),
            (Some(c.own.0), c.own.1),
        ],
    );
    let mut null_stats = PerTest::from_fn(|t| match Slot::of(t, layout) {
        Slot::Single => c.single.0.stats[t].clone(),
        Slot::Free => c.free.0.stats[t].clone(),
        Slot::Judges => c.own.0.stats[t].clone(),
    });
    if codes
        && let Some((a, stats)) =
            codes_as_numbers(panel, layout, sample, estimate, c.single.1, opts)
    {
        (tests[TestId::A], null_stats[TestId::A]) = (a, stats);
    }
    (tests, null_stats)
}

/// The null notes as the report shows them: the single-factor null's (a sentence on Likert
/// judges when no test reads it), and the latent nulls' (the judges' own, then the
/// free-scale one), each with the tests it calibrates.
fn notes(
    layout: &Layout,
    (single, latent, codes): (&[TestId], [LatentNote<'_>; 2], bool),
    null_note: String,
) -> (String, Option<String>) {
    let named: Vec<String> = latent
        .into_iter()
        .filter_map(|(tests, note)| {
            note.filter(|_| !tests.is_empty())
                .map(|n| name_tests(tests, &n))
        })
        .collect();
    let fs_note = (!named.is_empty()).then(|| named.join("; "));
    if layout.ordinal_judges > 0 && codes {
        return (
            format!("Test A with codes as numbers (the paper's convention): {null_note}"),
            fs_note,
        );
    }
    if layout.ordinal_judges > 0 && single.is_empty() {
        return ("Likert judges: Tests A and B are N/A on them (docs/method.md §3); every test that runs is calibrated on the latent null".into(), fs_note);
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
