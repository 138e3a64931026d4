//! The real-panel walkthrough: one or two plain sentences per diagnostic, in the order a
//! careful reader checks them (configuration, estimate, weak-ID, each registered test, overall).

use super::app::{App, Step};
use super::readout;
use crate::battery::reading::WeakIdVerdict;
use crate::battery::{BatteryReport, TestId, Verdict};
use crate::bootstrap::WEAK_ID_T;
use crate::tui::text::Keys;
use crate::wording::reword;

/// The two caption lines of a walkthrough step.
#[must_use]
pub fn explain(app: &App, step: Step) -> [String; 2] {
    if app.panel.is_none() {
        return [
            "Set roles first: Space on a column in the data pane makes it a judge or an anchor."
                .into(),
            "The walkthrough explains the battery of the panel those roles make.".into(),
        ];
    }
    let Some(r) = app.battery.as_ref().filter(|_| !app.battery_stale()) else {
        return [
            "The battery is still running for this panel…".into(),
            "The explanation appears as soon as its results arrive.".into(),
        ];
    };
    let names: Vec<String> = app.panel.as_ref().map_or_else(Vec::new, |p| {
        p.anchors
            .iter()
            .map(|a| crate::error::sanitize(a))
            .collect()
    });
    let n = app.panel.as_ref().map_or(0, |p| p.n);
    let [a, b] = match step {
        Step::Configuration => configuration(r, n),
        Step::Estimate => estimate(r, &names),
        Step::WeakId => weak_id(r),
        Step::Test(t) => test(r, t),
        Step::Overall => overall(r),
    };
    let panel = app.panel.as_deref();
    let mut b = readout::explorer_advice(&b, panel);
    if let Some(p) = panel {
        match step {
            // Step J points at the loadings: they are on screen here.
            Step::Test(TestId::J) if r.tests[TestId::J].verdict == Verdict::Fires => {
                if let Some(l) = readout::loadings(app.fit.as_ref(), Some(r)) {
                    b = format!("{b} Loadings λ: {}.", readout::named_loadings(p, &l));
                }
            }
            // Test A points at the free-scale estimate: only where it would give ρ̂.
            Step::Test(TestId::A) if r.tests[TestId::A].verdict == Verdict::Fires => {
                if let Some(why) = free_scale_gives_nothing(r, p, app.fit.as_ref()) {
                    b = b.replace(FREE_SCALE_CLAUSE, &format!(": {why}."));
                }
            }
            // The last step restates the answer and the step that would change it; with ρ
            // not identified the first line is the answer.
            Step::Overall if r.decision.refusal.is_some() => {
                b = readout::next_step(r, p, app.fit.as_ref());
            }
            Step::Overall => {
                b = format!(
                    "{b} {} {}",
                    readout::answer(r, &names),
                    readout::next_step(r, p, app.fit.as_ref())
                );
            }
            _ => {}
        }
    }
    [readout::explorer_advice(&a, panel), b]
}

fn configuration(r: &BatteryReport, n: usize) -> [String; 2] {
    // A row that needs N ≳ 10⁴ says so when this panel is smaller.
    let row = r.decision.row.configuration;
    let short = if row.contains("10⁴") && n < 10_000 {
        format!(" That row asks for N ≳ 10⁴; this panel has N = {n}, so expect low power.")
    } else {
        String::new()
    };
    [
        format!("This panel (N = {n}) is \"{row}\" in the paper's decision table.{short}"),
        if let Some(why) = &r.decision.refusal {
            format!("No ρ can be reported: {why}.")
        } else {
            // Name what the table offers, less any test this panel could not calibrate.
            let skipped: Vec<String> = r
                .tests
                .values()
                .filter(|t| t.verdict == Verdict::NotApplicable)
                .map(|t| format!("Test {} (", t.test.name()))
                .collect();
            let runs: Vec<&str> = r
                .decision
                .available
                .iter()
                .filter(|a| !skipped.iter().any(|s| a.starts_with(s.as_str())))
                .map(String::as_str)
                .collect();
            format!("It can run: {}.", runs.join(", "))
        },
    ]
}

fn estimate(r: &BatteryReport, names: &[String]) -> [String; 2] {
    let (Some(e), Some(b)) = (r.estimate(), r.boot()) else {
        return [
            "There is no estimate to show.".into(),
            r.decision.refusal.clone().unwrap_or_default(),
        ];
    };
    let parts: Vec<String> = e
        .rho()
        .iter()
        .zip(&b.rho)
        .enumerate()
        .map(|(k, (rho, ci))| match (rho, ci) {
            (Some(x), Some(c)) => {
                format!("{} ρ = {x:.2} [{:.2}, {:.2}]", name(names, k), c.lo, c.hi)
            }
            _ => format!("{} ρ undefined", name(names, k)),
        })
        .collect();
    [
        format!("The closed form gives {}.", parts.join(", ")),
        if e.flags.is_empty() {
            "No out-of-range values; the intervals are 95% percentile bootstrap intervals.".into()
        } else {
            "Some values are out of range (see the flags): misspecification or weak identification."
                .into()
        },
    ]
}

/// Anchor `k`'s name, or ρ_k when the panel has none.
fn name(names: &[String], k: usize) -> String {
    names
        .get(k)
        .cloned()
        .unwrap_or_else(|| format!("ρ_{}", k + 1))
}

fn weak_id(r: &BatteryReport) -> [String; 2] {
    // The one weak-ID verdict (battery::reading): no verdict on a fit out of range or
    // without ρ̂, whatever its T.
    let verdict = r.reading.evidence.weak_id;
    match r.weak_id {
        Some(w) if matches!(verdict, WeakIdVerdict::OutOfRange { .. }) => [
            if w.t.is_finite() && w.denominator.is_finite() {
                format!(
                    "The denominator ({:.3}) is {:.1} bootstrap SDs from zero, but the fit is out of range.",
                    w.denominator, w.t
                )
            } else {
                "No weak-ID verdict: the fit is out of range.".into()
            },
            "T screens only an in-range closed form; its flags say why this one is not.".into(),
        ],
        Some(w) if verdict.alarm() => [
            format!(
                "The denominator is only {:.1} bootstrap SDs from zero (T < {WEAK_ID_T}).",
                w.t
            ),
            "The estimate sits near the identification boundary: report intervals only.".into(),
        ],
        Some(w) => [
            format!(
                "The denominator is {:.1} bootstrap SDs from zero (T ≥ {WEAK_ID_T}).",
                w.t
            ),
            "The estimate is not weakly identified.".into(),
        ],
        None => [
            "Without an estimate there is no weak-ID screen.".into(),
            String::new(),
        ],
    }
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
    [
        format!(
            "Test {} ({}) {}: statistic {stat} against a 95% {} null threshold of {threshold}.",
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

/// Test A's advice to read the free-scale estimate, as the battery words it.
const FREE_SCALE_CLAUSE: &str = ", or read the free-scale estimate, which frees each judge's scale (it needs ≥ 3 continuous anchors), once Test J passes.";

/// Why the free-scale estimate gives no ρ̂ on this panel (nor with its anchors read as
/// numbers), or `None` when it would.
fn free_scale_gives_nothing(
    r: &BatteryReport,
    panel: &crate::panel::Panel,
    fits: Option<&crate::estimate::Fits>,
) -> Option<String> {
    use crate::estimate::Estimator;
    const LEAD: &str =
        "the free-scale estimate, which frees each judge's scale, gives no ρ̂ here either";
    if r.tests[TestId::J].verdict == Verdict::Fires {
        return Some(format!(
            "{LEAD} (Test J fires: the judges need a second factor)"
        ));
    }
    let (p, m) = (panel.p(), panel.m());
    let min = crate::estimate::free_scale::MIN_JUDGES;
    if p < min || m < crate::estimate::free_scale::MIN_ANCHORS {
        return Some(format!("{LEAD} (it needs ≥ {min} judges and ≥ 3 anchors)"));
    }
    if let Some(e) = fits.and_then(|f| f.estimate(Estimator::FreeScale)) {
        return e
            .rho()
            .iter()
            .any(Option::is_none)
            .then(|| format!("{LEAD} (its ρ̂ are undefined)"));
    }
    match readout::free_scale_as_numbers(panel) {
        Some(Ok(())) => None,
        Some(Err(flags)) if flags.is_empty() => Some(format!(
            "{LEAD}: with the anchors read as numbers (c) its ρ̂ are undefined"
        )),
        Some(Err(flags)) => Some(format!(
            "{LEAD}: with the anchors read as numbers (c) its ρ̂ are undefined ({flags})"
        )),
        None => Some(format!("{LEAD} (it does not run on this panel)")),
    }
}

fn overall(r: &BatteryReport) -> [String; 2] {
    if let Some(why) = &r.decision.refusal {
        return [
            format!(
                "Overall: no ρ can be read from this panel as its roles and scales stand: {why}."
            ),
            String::new(),
        ];
    }
    let fired: Vec<&str> = r
        .tests
        .values()
        .filter(|t| t.verdict == Verdict::Fires)
        .map(|t| t.test.name())
        .collect();
    let weak = r.reading.evidence.weak_id.alarm();
    if fired.is_empty() && !weak && r.route.read.is_none() {
        return [
            "Overall: no test fired, yet no ρ̂ can be read.".into(),
            reword(&r.route.why, &Keys).into_owned(),
        ];
    }
    if fired.is_empty() && !weak {
        return [
            "Nothing fired. Passing is necessary, not sufficient:".into(),
            "a panel-wide shared residual is invisible to every test, and power is low for mild violations.".into(),
        ];
    }
    let which = if fired.is_empty() {
        "the weak-ID screen".to_string()
    } else {
        format!("Test {}", fired.join(", Test "))
    };
    let raised = if fired.len() > 1 {
        "each raised"
    } else {
        "raised"
    };
    // An estimate the alarms do not guard is still read: the route says which, and why.
    if let Some(e) = r.route.read
        && e != crate::estimate::Estimator::FreeScale
    {
        return [
            format!("Overall: {which} {raised} an alarm."),
            reword(&r.route.why, &Keys).into_owned(),
        ];
    }
    let any_point = r
        .estimate()
        .is_some_and(|e| e.rho().iter().any(|x| x.is_some_and(f64::is_finite)));
    let free_scale = r.route.read == Some(crate::estimate::Estimator::FreeScale);
    let consequence = match (any_point, free_scale) {
        (true, true) => "so the closed form's point estimates should not be trusted",
        (true, false) => "so the point estimates should not be trusted",
        (false, _) => "and there is no closed-form point estimate to report",
    };
    [
        format!("Overall: {which} {raised} an alarm, {consequence}."),
        if free_scale {
            "Read the free-scale estimate instead: it frees each judge's scale (Enter on the battery says why).".into()
        } else if fired.contains(&TestId::A.name()) {
            "Test A firing means the unit-loading model itself does not fit this panel.".into()
        } else {
            "Report intervals, or fix the panel and rerun.".into()
        },
    ]
}
