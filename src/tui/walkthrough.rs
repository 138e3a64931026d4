//! The real-panel walkthrough: one or two plain sentences per diagnostic, in the order a
//! careful reader checks them (configuration, estimate, weak-ID, each registered test, overall).

use super::app::{App, Step};
use super::{reading, readout};
use crate::battery::reading::{AnchorStatus, Check, RangeVerdict};
use crate::battery::{BatteryReport, TestId, Verdict};
use crate::estimate::Estimator;
use crate::panel::Panel;
use crate::tui::text::Keys;
use crate::wording::reword;

/// The two caption lines of a walkthrough step: a rendering of the panel's reading
/// ([`crate::battery::reading`]), so that no step says other than a pane; every setting a
/// library sentence names is worded with the explorer's keys.
#[must_use]
pub fn explain(app: &App, step: Step) -> [String; 2] {
    explain_marked(app, step).map(|l| reword(&l, &Keys).into_owned())
}

/// [`explain`] with the library's settings still marked.
fn explain_marked(app: &App, step: Step) -> [String; 2] {
    let Some(panel) = app.panel.as_deref() else {
        return [
            "Set roles first: Space on a column in the data pane makes it a judge or an anchor."
                .into(),
            "The walkthrough explains the battery of the panel those roles make.".into(),
        ];
    };
    let Some(r) = app.battery.as_ref().filter(|_| !app.battery_stale()) else {
        return [
            "The battery is still running for this panel…".into(),
            "The explanation appears as soon as its results arrive.".into(),
        ];
    };
    let names: Vec<String> = panel
        .anchors
        .iter()
        .map(|a| crate::error::sanitize(a))
        .collect();
    match step {
        Step::Configuration => configuration(r, panel),
        Step::Estimate => estimate(r, &names),
        Step::WeakId => reading::weak_id(r, &names),
        Step::Test(t) => {
            let [a, mut b] = test(r, t);
            // Step J points at the loadings: they are on screen here.
            if t == TestId::J
                && r.tests[TestId::J].verdict == Verdict::Fires
                && let Some(l) = readout::loadings(app.fit.as_ref(), Some(r))
            {
                b = format!("{b} Loadings λ: {}.", readout::named_loadings(panel, &l));
            }
            if let Some(then) = answered(&r.reading, t, &names) {
                b = format!("{b} {then}");
            }
            [a, b]
        }
        Step::Overall => overall(r, panel, &names),
    }
}

fn configuration(r: &BatteryReport, panel: &Panel) -> [String; 2] {
    let (p, m, n) = (panel.p(), panel.m(), panel.n);
    let this = format!(
        "This panel: {p} judge{}, {m} anchor{}, N = {n}.",
        if p == 1 { "" } else { "s" },
        if m == 1 { "" } else { "s" }
    );
    // What reads here, from the reading the later steps render: the estimate the answer
    // reads and each check that gives a verdict.
    let checks: Vec<String> = r
        .reading
        .evidence
        .with_verdict()
        .into_iter()
        .map(|c| match c {
            Check::WeakId => "the weak-ID screen".to_string(),
            Check::Test(t) => format!("Test {}", t.name()),
        })
        .collect();
    let checks = if checks.is_empty() {
        "no check gives a verdict".to_string()
    } else {
        format!("verdicts from {}", checks.join(", "))
    };
    let estimate = match r.reading.answer.read {
        Some(e) => format!(
            "it reads the {} (step 2)",
            reading::label(e, &panel.anchors, r.reading.designated)
        ),
        None => "no estimate can be read (step 2)".to_string(),
    };
    let row = r.decision.row.configuration;
    // The row refuses on its own; a trusted anchor can still identify ρ, and the caption
    // says which of the two holds here rather than both (trial 43, finding 9).
    if let Some(why) = &r.decision.refusal {
        let first = if r.reading.answer.read.is_some() {
            format!(
                "{this} Row \"{row}\": the table alone reports no ρ ({why}), but an anchor trusted as clean identifies one."
            )
        } else {
            format!("{this} Row \"{row}\": no ρ can be reported ({why}).")
        };
        return [first, format!("On this panel: {estimate}; {checks}.")];
    }
    // A row that needs N ≳ 10⁴ says so when this panel is smaller.
    let short = if row.contains("10⁴") && n < 10_000 {
        " (expect low power below N ≈ 10⁴)"
    } else {
        ""
    };
    [
        format!("{this} The paper's decision table reads it on the row \"{row}\"{short}."),
        format!("On this panel: {estimate}; {checks}."),
    ]
}

/// The estimate the reading names, with its intervals, and why the closed form is not it.
fn estimate(r: &BatteryReport, names: &[String]) -> [String; 2] {
    let read = &r.reading.answer;
    let Some(e) = read.read else {
        return ["There is no estimate to read.".into(), answer(r, names)];
    };
    let parts: Vec<String> = read
        .anchors
        .iter()
        .map(|a| match (a.rho, a.interval) {
            // The trusted anchor's 0 is an assumption, not an estimate with an interval.
            _ if a.status == AnchorStatus::Assumed => {
                format!("{} assumed 0 (trusted as clean)", name(names, a.anchor))
            }
            (Some(x), Some(c)) => format!(
                "{} ρ = {x:.2} [{:.2}, {:.2}]",
                name(names, a.anchor),
                c.lo,
                c.hi
            ),
            (Some(x), None) => format!("{} ρ = {x:.2} (no interval)", name(names, a.anchor)),
            _ => format!("{} ρ undefined", name(names, a.anchor)),
        })
        .collect();
    let first = format!(
        "The {} gives {}.",
        reading::label(e, names, r.reading.designated),
        parts.join(", ")
    );
    let second = if e == Estimator::ClosedForm {
        match &r.reading.evidence.range {
            RangeVerdict::OutOfRange(_) => format!(
                "The closed form {} (see the flags on this pane).",
                reading::range_words(&r.reading.evidence.range)
            ),
            _ => "No out-of-range values; the intervals are 95% percentile bootstrap intervals."
                .into(),
        }
    } else {
        let why: Vec<String> = read
            .obstacles
            .iter()
            .filter(|o| about_closed_form(o))
            .map(|o| reading::obstacle(o, names, r.reading.designated))
            .collect();
        if why.is_empty() {
            "The answer reads it, not the closed form; the intervals are 95% percentile bootstrap intervals.".into()
        } else {
            format!("The closed form is not read: {}.", why.join("; "))
        }
    };
    [first, second]
}

/// Whether an obstacle is about the closed form.
fn about_closed_form(o: &crate::battery::reading::Obstacle) -> bool {
    use crate::battery::reading::Obstacle;
    match o {
        Obstacle::Guarded { estimator, .. }
        | Obstacle::Flagged { estimator, .. }
        | Obstacle::DidNotRun { estimator, .. } => *estimator == Estimator::ClosedForm,
        Obstacle::OrdinalAnchors(_) | Obstacle::WeaklyIdentified { .. } => true,
        Obstacle::NotIdentified(_) => false,
    }
}

/// Anchor `k`'s name, or ρ_k when the panel has none.
fn name(names: &[String], k: usize) -> String {
    names
        .get(k)
        .cloned()
        .unwrap_or_else(|| format!("ρ_{}", k + 1))
}

fn test(r: &BatteryReport, id: TestId) -> [String; 2] {
    let t = &r.tests[id];
    if t.verdict == Verdict::NotApplicable {
        return [
            format!("Test {} cannot run here: {}", t.test.name(), t.message),
            String::new(),
        ];
    }
    let (stat, threshold) = crate::tui::widgets::versus(
        t.statistic.unwrap_or(f64::NAN),
        t.threshold.unwrap_or(f64::NAN),
    );
    let mc = t.threshold_mc_sd.map_or(String::new(), |sd| {
        format!(" ± {} MC", crate::tui::widgets::sig(sd, 2))
    });
    [
        format!(
            "Test {} ({}) {}: statistic {stat} against a 95% {} null threshold of {threshold}{mc}.",
            t.test.name(),
            t.test.guards(),
            if t.verdict == Verdict::Fires {
                "fires"
            } else {
                "passes"
            },
            r.null.kind,
        ),
        t.message.clone(),
    ]
}

/// What the reading does about a firing test: the estimate it guards is not read, and
/// which one is; `None` when the test does not fire.
fn answered(r: &crate::battery::reading::Reading, t: TestId, names: &[String]) -> Option<String> {
    use crate::battery::reading::Obstacle;
    if !reading::fires(r, t) {
        return None;
    }
    let guarded: Vec<String> = r
        .answer
        .obstacles
        .iter()
        .filter_map(|o| match o {
            Obstacle::Guarded { estimator, test } if *test == t => {
                Some(reading::label(*estimator, names, r.designated))
            }
            _ => None,
        })
        .collect();
    let read = r.answer.read.map_or_else(
        || "No estimate can be read (the last step says why).".to_string(),
        |e| {
            format!(
                "The answer reads the {}.",
                reading::label(e, names, r.designated)
            )
        },
    );
    Some(if guarded.is_empty() {
        read
    } else {
        format!("So the {} is not read. {read}", guarded.join(" and the "))
    })
}

/// The answer; where the reading reads nothing and names no obstacle, the battery's own
/// reason (the full view's "Which estimate to read") says why.
fn answer(r: &BatteryReport, names: &[String]) -> String {
    let a = reading::answer(&r.reading, names);
    if r.reading.answer.read.is_some() || !r.reading.answer.obstacles.is_empty() {
        return a;
    }
    let why = r
        .decision
        .refusal
        .as_ref()
        .map_or_else(|| r.route.why.clone(), |why| format!("{why}."));
    format!("{a} {why}")
}

/// The last step: what fired, the answer, and every next step the reading offers.
fn overall(r: &BatteryReport, panel: &Panel, names: &[String]) -> [String; 2] {
    let ran = r
        .reading
        .evidence
        .tests
        .values()
        .any(|v| *v != Verdict::NotApplicable);
    let first = match reading::alarms(&r.reading) {
        // The range check fires with the same badge as the tests: counted with them.
        Some(fired) if r.reading.evidence.range.verdict() == Verdict::Fires => format!(
            "Overall: {fired}, and the closed form's range check fires (it {}).",
            reading::range_words(&r.reading.evidence.range)
        ),
        Some(fired) => format!("Overall: {fired}."),
        None if !ran => "Overall: no test can run on this panel, so none vouches for it.".into(),
        // The range flags are the closed form's: said, when the answer reads another.
        None if r.reading.evidence.range.verdict() == Verdict::Fires => format!(
            "Overall: no test fires; the closed form {}, and the answer {}.",
            reading::range_words(&r.reading.evidence.range),
            if r.reading.answer.read.is_some() {
                "reads another estimate"
            } else {
                "reads none"
            }
        ),
        None => "Overall: nothing fires. Passing is necessary, not sufficient: a panel-wide shared residual is invisible to every test.".into(),
    };
    let answer = answer(r, names);
    let second = match reading::next_steps(&r.reading, panel) {
        Some(next) => format!("{answer} {next}"),
        None => answer,
    };
    [first, second]
}
