//! The panel's reading as data (docs/method.md §5): the answer (which estimate to read and what
//! it says of each anchor, or why none can be read), the evidence it rests on (each test, the
//! weak-identification and range verdicts, each decided here once), and the next steps, each
//! checked against the panel. Front ends word it; nothing here names a front-end control.

use super::answer::{Fitted, designated, route};
use super::decision::{Configuration, Route};
use super::inferred::Inferred;
use super::registry::{PerTest, TestId};
use super::remedy::{About, next_steps};
use super::verdict::{TestResult, Verdict};
use crate::bootstrap::WeakId;
use crate::estimate::{Estimate, Estimator, FlagCode};
use crate::panel::Panel;
use crate::stats::Interval;

mod next;

pub use next::{Column, NextStep, Outcome, Plan, Remedy, Room};

/// Everything a front end shows of a panel's answer, computed once by [`super::reading::read`].
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    /// Which estimate to read, per anchor, or why none can be read.
    pub answer: Answer,
    /// The verdicts the answer rests on, each decided once.
    pub evidence: Evidence,
    /// What the user could do next, takeable on this panel, most useful first.
    pub next: Vec<NextStep>,
    /// The anchor the user trusts as clean, if any: the designated-clean estimates are its.
    pub designated: Option<usize>,
    /// The steps that change the roles are still being checked (the battery re-run on the
    /// roles each leads to): `next` holds only the others until they are.
    pub checking: bool,
}

/// The answer: the estimator to read (or none), why, and what it says of each anchor.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The estimator whose ρ̂ to read; `None` when no ρ̂ may be read.
    pub read: Option<Estimator>,
    /// Why that estimator is the one to read (`None` when none is read).
    pub because: Option<ReadBecause>,
    /// Why no ρ̂ can be read, or why an estimator was passed over, in the order decided.
    pub obstacles: Vec<Obstacle>,
    /// Per anchor, in panel order: what the read estimate says of it.
    pub anchors: Vec<AnchorAnswer>,
    /// Firing tests the reader must know about beside the answer, in report order.
    pub alarms: Vec<Alarm>,
}

/// Why the answer reads the estimator it names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadBecause {
    /// The closed form (Theorem 1): no test guards against it; `test_a` is Test A's verdict
    /// and `free_scale_beside` whether the free-scale estimate is shown beside it as a check.
    ClosedForm {
        test_a: Verdict,
        free_scale_beside: bool,
    },
    /// The free-scale estimate: the judges are ordinal, so their codes share no scale with
    /// the anchors.
    FreeScaleOrdinalJudges,
    /// The free-scale estimate: Test A fires (the judges load unequally), and freeing every
    /// judge's scale answers it.
    FreeScaleTestA,
    /// The family-blocked estimate: Test C fires (a family residual), and the blocked estimate
    /// takes K from cross-family pairs only.
    BlockedTestC,
    /// The designated-clean estimate the user asked for (`estimator`, with `anchor` trusted
    /// as clean): readable, and no test guards it; it rests on an untestable assumption.
    Designated { estimator: Estimator, anchor: usize },
}

/// One reason an estimate cannot be read (typed; front ends word it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Obstacle {
    /// ρ is not identified on this configuration at all.
    NotIdentified(Unidentified),
    /// Some anchors are ordinal: the closed form would read their codes as numbers and the
    /// free-scale estimate needs continuous anchors (the anchors' panel indices).
    OrdinalAnchors(Vec<usize>),
    /// A firing test guards against this estimator.
    Guarded { estimator: Estimator, test: TestId },
    /// The estimator's fit is flagged (some ρ̂ undefined or out of range).
    Flagged {
        estimator: Estimator,
        flags: Vec<FlagCode>,
    },
    /// The estimator did not run on this panel; the estimator's own refusal.
    DidNotRun {
        estimator: Estimator,
        refusal: String,
    },
    /// The weak-identification screen flags the closed form: report intervals, not points;
    /// `no_interval` holds the anchors (indices) whose ρ̂ has no interval either, for which
    /// nothing can be reported.
    WeaklyIdentified { no_interval: Vec<usize> },
}

/// Why ρ is not identified on a configuration (docs/method.md §5, Section 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unidentified {
    /// Fewer than two anchors (`anchors` of them): Theorem 1 needs two.
    TooFewAnchors { anchors: usize },
    /// Every column is ordinal: ρ is not identified at any number of anchors.
    AllOrdinal,
    /// Ordinal judges with fewer than three continuous anchors.
    OrdinalJudgesFewContinuous { continuous_anchors: usize },
}

/// What the read estimate says of one anchor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnchorAnswer {
    /// The anchor's index among the panel's anchors.
    pub anchor: usize,
    /// ρ̂ of the read estimate, where defined.
    pub rho: Option<f64>,
    /// Its 95% bootstrap interval, where defined.
    pub interval: Option<Interval>,
    /// The verdict on this anchor.
    pub status: AnchorStatus,
}

/// The verdict on one anchor's contamination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnchorStatus {
    /// The interval excludes 0: the anchor is contaminated.
    Contaminated,
    /// The interval covers 0: not distinguishable from clean.
    NotDistinguishable,
    /// The anchor trusted as clean: ρ = 0 by assumption, not measured, so no interval and
    /// no verdict.
    Assumed,
    /// No verdict, for the reason given.
    Undefined(Undefined),
}

/// Why an anchor has no verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Undefined {
    /// No estimate can be read on this panel (the answer's obstacles say why).
    NoEstimate,
    /// The read estimate leaves this anchor's ρ̂ undefined (its flags say why).
    Rho,
    /// ρ̂ is defined but too few resamples gave it a value for an interval.
    Interval,
}

/// A firing test named beside the answer, with its statistic and threshold.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Alarm {
    /// The test that fires.
    pub test: TestId,
    /// Its statistic.
    pub statistic: f64,
    /// Its null's 95th percentile.
    pub threshold: f64,
    /// Whether the answer already accounts for it (it chose another estimator because of it).
    pub answered: bool,
}

/// The verdicts the answer rests on, each decided once in `battery/`.
#[derive(Debug, Clone, PartialEq)]
pub struct Evidence {
    /// Each registered test's verdict.
    pub tests: PerTest<Verdict>,
    /// The weak-identification screen's verdict ([`WeakIdVerdict::of`], the only rule).
    pub weak_id: WeakIdVerdict,
    /// The closed form's range verdict ([`RangeVerdict::of`], the only rule).
    pub range: RangeVerdict,
}

/// The weak-identification screen of the closed form (docs/method.md §2), decided once.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum WeakIdVerdict {
    /// No closed-form fit, so no screen.
    NoFit,
    /// The fit is out of range or gives no ρ̂: T screens only an in-range fit (`t` for show).
    OutOfRange { t: f64 },
    /// T < 4: the denominator is weakly identified; report intervals only.
    Weak { t: f64 },
    /// T ≥ 4: the point estimates can be read.
    Ok { t: f64 },
}

/// The closed form's range flags, decided once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RangeVerdict {
    /// No closed-form fit, so no range check.
    NoFit,
    /// Every value in range.
    InRange,
    /// These flags were raised (codes, in the fit's order).
    OutOfRange(Vec<FlagCode>),
}

/// A check that gives a verdict on a panel ([`Evidence::with_verdict`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The weak-identification screen of the closed form.
    WeakId,
    /// A registered test.
    Test(TestId),
}

impl Evidence {
    /// The checks that give a verdict (pass or alarm) on this panel, in report order: what
    /// "reads" here besides the answer's estimate; a check with no verdict is not among them.
    #[must_use]
    pub fn with_verdict(&self) -> Vec<Check> {
        let weak = (self.weak_id.verdict() != Verdict::NotApplicable).then_some(Check::WeakId);
        weak.into_iter()
            .chain(
                TestId::ALL
                    .into_iter()
                    .filter(|&t| self.tests[t] != Verdict::NotApplicable)
                    .map(Check::Test),
            )
            .collect()
    }
}

impl WeakIdVerdict {
    /// The verdict as a test's badge: weak is an alarm, no fit or out of range is N/A.
    #[must_use]
    pub fn verdict(self) -> Verdict {
        match self {
            WeakIdVerdict::NoFit | WeakIdVerdict::OutOfRange { .. } => Verdict::NotApplicable,
            WeakIdVerdict::Weak { .. } => Verdict::Fires,
            WeakIdVerdict::Ok { .. } => Verdict::Pass,
        }
    }

    /// Whether the screen raises an alarm (only an in-range fit with T < 4 does).
    #[must_use]
    pub fn alarm(self) -> bool {
        matches!(self, WeakIdVerdict::Weak { .. })
    }
}

impl RangeVerdict {
    /// The verdict as a test's badge.
    #[must_use]
    pub fn verdict(&self) -> Verdict {
        match self {
            RangeVerdict::NoFit => Verdict::NotApplicable,
            RangeVerdict::InRange => Verdict::Pass,
            RangeVerdict::OutOfRange(_) => Verdict::Fires,
        }
    }
}

impl WeakIdVerdict {
    /// The only rule for the screen's verdict: no verdict on a fit that is out of range or
    /// gives no ρ̂ (a "pass" would vouch for it); else T < 4 is weak.
    #[must_use]
    pub fn of(weak: Option<&WeakId>, estimate: Option<&Estimate>) -> WeakIdVerdict {
        let Some(w) = weak else {
            return WeakIdVerdict::NoFit;
        };
        let no_rho = estimate.is_some_and(|e| e.anchors.iter().all(|a| a.rho.is_none()));
        if w.out_of_range {
            WeakIdVerdict::OutOfRange { t: w.t }
        } else if w.flag {
            WeakIdVerdict::Weak { t: w.t }
        } else if no_rho {
            WeakIdVerdict::OutOfRange { t: w.t }
        } else {
            WeakIdVerdict::Ok { t: w.t }
        }
    }
}

impl RangeVerdict {
    /// The only rule for the closed form's range verdict: any flag on the points is out of
    /// range (heavy tails question only the intervals).
    #[must_use]
    pub fn of(estimate: Option<&Estimate>) -> RangeVerdict {
        match estimate {
            None => RangeVerdict::NoFit,
            Some(e) if !e.flagged() => RangeVerdict::InRange,
            Some(e) => RangeVerdict::OutOfRange(e.flags.iter().map(|f| f.code).collect()),
        }
    }
}

/// The battery's answer on a changed panel (a next step taken): the estimator it reads.
pub type Confirm<'a> = dyn Fn(&Panel) -> Option<Estimator> + Sync + 'a;

/// What [`read`] reads: the battery's fits and verdicts on one panel.
#[derive(Clone, Copy)]
pub struct Inputs<'a> {
    /// The panel read.
    pub panel: &'a Panel,
    /// Every test's result.
    pub tests: &'a PerTest<TestResult>,
    /// The fits that ran, with their intervals.
    pub fits: &'a [Inferred],
    /// The closed form's weak-identification screen.
    pub weak_id: Option<&'a WeakId>,
    /// Estimators that did not run, and why.
    pub refused: &'a [(Estimator, String)],
    /// What the source could still give.
    pub room: &'a Room,
    /// The anchor the user designated clean, if any: its estimate is read when readable.
    pub designated: Option<usize>,
    /// The battery re-run on the panel a next step leads to; without it, no step that changes
    /// the roles is offered (none is offered unchecked).
    pub confirm: Option<&'a Confirm<'a>>,
}

/// The panel's reading, from its configuration, fits and verdicts: the one place the answer,
/// its evidence and the next steps are decided.
#[must_use]
pub fn read(inputs: &Inputs<'_>) -> Reading {
    let panel = inputs.panel;
    let config = Configuration::of(panel);
    let closed = inputs
        .fits
        .iter()
        .find(|f| f.estimator == Estimator::ClosedForm);
    let evidence = Evidence {
        tests: PerTest::from_fn(|t| inputs.tests[t].verdict),
        weak_id: WeakIdVerdict::of(inputs.weak_id, closed.map(|f| &f.estimate)),
        range: RangeVerdict::of(closed.map(|f| &f.estimate)),
    };
    let ordinal_anchors: Vec<usize> = (0..panel.m())
        .filter(|&k| panel.scales[panel.p() + k].is_ordinal())
        .collect();
    let fitted = Fitted {
        estimates: inputs
            .fits
            .iter()
            .map(|f| (f.estimator, &f.estimate))
            .collect(),
        refused: inputs.refused,
    };
    let routed = route(
        &config,
        &ordinal_anchors,
        &evidence.tests,
        evidence.weak_id,
        &fitted,
    );
    let routed = match inputs.designated {
        Some(d) => designated(
            routed,
            super::inferred::designated_estimator(panel),
            d,
            &evidence.tests,
            &fitted,
        ),
        None => routed,
    };
    let next = next_steps(&About {
        panel,
        room: inputs.room,
        routed: &routed,
        evidence: &evidence,
        j_threshold: inputs.tests[TestId::J].threshold,
        confirm: inputs.confirm,
        designated: inputs.designated,
    });
    let mut routed = routed;
    // The weak-ID obstacle names the anchors with no interval to report either.
    for o in &mut routed.obstacles {
        if let Obstacle::WeaklyIdentified { no_interval } = o {
            *no_interval = closed.map_or_else(Vec::new, |f| {
                (0..panel.m())
                    .filter(|&k| f.boot.rho.get(k).copied().flatten().is_none())
                    .collect()
            });
        }
    }
    let fit = routed
        .read
        .and_then(|e| inputs.fits.iter().find(|f| f.estimator == e));
    let anchors = (0..panel.m())
        .map(|k| anchor_answer(k, fit, routed.because))
        .collect();
    let answered = |t: TestId| {
        routed
            .obstacles
            .iter()
            .any(|o| matches!(o, Obstacle::Guarded { test, .. } if *test == t))
    };
    let alarms = TestId::ALL
        .into_iter()
        .filter_map(|t| {
            let r = &inputs.tests[t];
            (r.verdict == Verdict::Fires).then(|| Alarm {
                test: t,
                statistic: r.statistic.unwrap_or(f64::NAN),
                threshold: r.threshold.unwrap_or(f64::NAN),
                answered: answered(t),
            })
        })
        .collect();
    Reading {
        answer: Answer {
            read: routed.read,
            because: routed.because,
            obstacles: routed.obstacles,
            anchors,
            alarms,
        },
        evidence,
        next,
        designated: inputs.designated,
        checking: false,
    }
}

impl Reading {
    /// An estimator's name with this reading's trusted anchor (the first anchor when none is
    /// trusted, as the comparisons fit it), so no screen names another anchor as trusted.
    #[must_use]
    pub fn label(&self, e: Estimator, anchors: &[String]) -> String {
        e.label(
            &crate::estimate::Context {
                clean: Some(self.designated.unwrap_or(0)),
                ..crate::estimate::Context::default()
            },
            anchors,
        )
    }

    /// The answer as the older [`Route`]: the estimator and a core-level sentence.
    #[must_use]
    pub fn route(&self, anchors: &[String]) -> Route {
        Route {
            read: self.answer.read,
            why: super::phrase::headline(&self.answer, anchors),
        }
    }

    /// The anchor whose ρ the answer assumes (trusted as clean) rather than measures.
    #[must_use]
    pub fn assumed(&self) -> Option<usize> {
        self.answer
            .anchors
            .iter()
            .find(|a| a.status == AnchorStatus::Assumed)
            .map(|a| a.anchor)
    }

    /// Whether the reading raises any alarm: a firing test, a weak-identification flag, or no
    /// estimate to read (`--fail-on-diagnostic`).
    #[must_use]
    pub fn any_alarm(&self) -> bool {
        !self.answer.alarms.is_empty()
            || self.evidence.weak_id.alarm()
            || self.answer.read.is_none()
    }
}
/// What a read fit says of anchor `k`; the `trusted` anchor's ρ is an assumption, not a finding.
fn anchor_answer(k: usize, fit: Option<&Inferred>, why: Option<ReadBecause>) -> AnchorAnswer {
    let trusted = matches!(why, Some(ReadBecause::Designated { anchor, .. }) if anchor == k);
    if fit.is_some() && trusted {
        return AnchorAnswer {
            anchor: k,
            rho: None,
            interval: None,
            status: AnchorStatus::Assumed,
        };
    }
    let Some(f) = fit else {
        return AnchorAnswer {
            anchor: k,
            rho: None,
            interval: None,
            status: AnchorStatus::Undefined(Undefined::NoEstimate),
        };
    };
    let rho = f.estimate.anchors.get(k).and_then(|a| a.rho);
    let interval = f.boot.rho.get(k).copied().flatten();
    let status = match (rho, interval) {
        (None, _) => AnchorStatus::Undefined(Undefined::Rho),
        (Some(_), None) => AnchorStatus::Undefined(Undefined::Interval),
        (Some(_), Some(i)) if i.lo > 0.0 || i.hi < 0.0 => AnchorStatus::Contaminated,
        (Some(_), Some(_)) => AnchorStatus::NotDistinguishable,
    };
    AnchorAnswer {
        anchor: k,
        rho,
        interval,
        status,
    }
}
