//! The explorer's wording of the panel's reading ([`crate::battery::reading`]): the answer,
//! why an estimate is not read, the weak-ID and range verdicts, and the next step, with the
//! explorer's keys from its one key table. Nothing here decides anything: the core did.

use crate::battery::reading::{
    AnchorStatus, NextStep, Obstacle, Outcome, RangeVerdict, Reading, Remedy, Unidentified,
    WeakIdVerdict,
};
use crate::battery::{BatteryReport, TestId};
use crate::estimate::{Context, Estimator};
use crate::panel::Panel;
use crate::tui::action::Action;
use crate::tui::keymap::keys;

/// An estimator's name in a sentence ("the free-scale estimate"), as the battery pane's
/// "read the … estimate" line names it.
#[must_use]
#[allow(
    clippy::match_wildcard_for_single_variants,
    reason = "test builds register more estimators"
)]
pub fn label(e: Estimator, names: &[String], designated: Option<usize>) -> String {
    match e {
        Estimator::ClosedForm => "closed-form estimate".into(),
        Estimator::FreeScale => "free-scale estimate".into(),
        Estimator::Blocked => "family-blocked estimate".into(),
        Estimator::DesignatedClean => "designated-clean estimate".into(),
        other => pane_label(other, names, designated),
    }
}

/// An estimator's name as the estimates pane's lines show it: the designated-clean ones with
/// the anchor the user trusts, else the first anchor, as the explorer's comparisons fit it.
#[must_use]
pub fn pane_label(e: Estimator, names: &[String], designated: Option<usize>) -> String {
    e.label(
        &Context {
            clean: Some(designated.unwrap_or(0)),
            ..Context::default()
        },
        names,
    )
}

/// Anchor `k`'s name, or ρ_k when the panel has none.
#[must_use]
pub fn anchor_name(names: &[String], k: usize) -> String {
    names
        .get(k)
        .map_or_else(|| format!("ρ_{}", k + 1), |n| crate::error::sanitize(n))
}

/// The panel's answer in one sentence: the estimate to read and what it says of each
/// anchor, or that no ρ̂ can be read and why.
#[must_use]
pub fn answer(r: &Reading, names: &[String]) -> String {
    let Some(e) = r.answer.read else {
        let why: Vec<String> = r
            .answer
            .obstacles
            .iter()
            .map(|o| obstacle(o, names, r.designated))
            .collect();
        return if why.is_empty() {
            "Answer: no anchor's ρ can be read from this panel as it stands.".into()
        } else {
            format!(
                "Answer: no anchor's ρ can be read from this panel as it stands: {}.",
                why.join("; ")
            )
        };
    };
    let (mut hit, mut clean, mut undefined, mut assumed) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for a in &r.answer.anchors {
        let name = anchor_name(names, a.anchor);
        match (a.status, a.rho, a.interval) {
            (AnchorStatus::Contaminated, Some(x), Some(c)) => {
                hit.push(format!("{name} (ρ̂ {x:.2} [{:.2}, {:.2}])", c.lo, c.hi));
            }
            (AnchorStatus::Contaminated, ..) => hit.push(name),
            (AnchorStatus::NotDistinguishable, ..) => clean.push(name),
            (AnchorStatus::Assumed, ..) => assumed.push(name),
            (AnchorStatus::Undefined(_), ..) => undefined.push(name),
        }
    }
    let mut parts = Vec::new();
    if hit.is_empty() && undefined.is_empty() {
        parts.push("no anchor is contaminated beyond chance".to_string());
    }
    if !hit.is_empty() {
        parts.push(format!("contaminated: {}", hit.join(", ")));
    }
    let mixed = !hit.is_empty() || !undefined.is_empty();
    if !clean.is_empty() && mixed {
        parts.push(format!(
            "{} not distinguishable from clean",
            clean.join(", ")
        ));
    }
    if !undefined.is_empty() {
        parts.push(format!("{} undefined", undefined.join(", ")));
    }
    if !assumed.is_empty() {
        parts.push(format!("{} clean by assumption", assumed.join(", ")));
    }
    format!(
        "Answer (read the {}): {}.",
        label(e, names, r.designated),
        parts.join("; ")
    )
}

/// One reason an estimate is not read, in a clause.
#[must_use]
pub fn obstacle(o: &Obstacle, names: &[String], designated: Option<usize>) -> String {
    match o {
        Obstacle::NotIdentified(u) => unidentified(*u),
        Obstacle::OrdinalAnchors(k) => format!(
            "{} {} ordinal, and their codes are not numbers",
            list(k.iter().map(|&k| anchor_name(names, k))),
            if k.len() == 1 { "is" } else { "are" }
        ),
        Obstacle::Guarded { estimator, test } => format!(
            "Test {} fires against the {}",
            test.name(),
            label(*estimator, names, designated)
        ),
        Obstacle::Flagged { estimator, flags } => format!(
            "the {} {}",
            label(*estimator, names, designated),
            crate::battery::phrase::flagged(flags)
        ),
        Obstacle::DidNotRun { estimator, refusal } => format!(
            "the {} does not run here ({})",
            label(*estimator, names, designated),
            crate::wording::reword(refusal, &crate::tui::text::Keys).into_owned()
        ),
        Obstacle::WeaklyIdentified { no_interval } if no_interval.is_empty() => {
            "the weak-ID screen flags the closed form (read its intervals only)".into()
        }
        Obstacle::WeaklyIdentified { no_interval } => {
            format!(
                "the weak-ID screen flags the closed form (read its intervals only; {} {} none, so nothing to read there)",
                list(no_interval.iter().map(|&k| anchor_name(names, k))),
                if no_interval.len() == 1 {
                    "has"
                } else {
                    "have"
                }
            )
        }
    }
}

fn unidentified(u: Unidentified) -> String {
    match u {
        Unidentified::TooFewAnchors { anchors } => {
            format!("ρ needs ≥ 2 anchors and this panel has {anchors}")
        }
        Unidentified::AllOrdinal => {
            "every column is ordinal, and then ρ is not identified at any number of anchors".into()
        }
        Unidentified::OrdinalJudgesFewContinuous { continuous_anchors } => format!(
            "ordinal judges need ≥ 3 continuous anchors and this panel has {continuous_anchors}"
        ),
    }
}

/// "a", "a and b", "a, b and c".
fn list(items: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = items.collect();
    match v.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// Every step the reading offers, in its order and worded with the explorer's keys, or why
/// it offers none where no ρ̂ reads; `None` when a ρ̂ reads and no step is offered. The one
/// sentence the walkthrough's last step and the battery overlay both show, so that neither
/// drops a step `battery` prints (trial 44, findings 3 and 6).
#[must_use]
pub fn next_steps(r: &Reading, panel: &Panel) -> Option<String> {
    // The steps that change the roles are re-checked after the verdicts arrive: until then
    // only the others are shown, and none is said to be missing.
    if r.checking {
        let checked: Vec<String> = r.next.iter().map(|s| step(s, panel)).collect();
        let pending = "steps that change the roles are still being checked…";
        return Some(if checked.is_empty() {
            format!("Next: {pending}")
        } else {
            format!("Next: {}; {pending}", checked.join("; "))
        });
    }
    match r.next.as_slice() {
        [] if r.answer.read.is_none() => Some(format!(
            "Next: {}",
            crate::battery::phrase::no_next_step(r, panel)
        )),
        [] => None,
        [one] => Some(format!("Next: {}.", step(one, panel))),
        many => Some(format!(
            "Next: {}.",
            many.iter()
                .enumerate()
                .map(|(i, s)| format!("{}. {}", i + 1, step(s, panel)))
                .collect::<Vec<_>>()
                .join("; ")
        )),
    }
}

/// One next step and what it would give, worded with the explorer's keys.
#[must_use]
pub fn step(s: &NextStep, panel: &Panel) -> String {
    let anchors: Vec<String> = panel
        .anchors
        .iter()
        .map(|a| crate::error::sanitize(a))
        .collect();
    // A trust step's estimate is the one with the anchor it trusts.
    let d = match s.remedy {
        crate::battery::reading::Remedy::TrustAnchor(k)
        | crate::battery::reading::Remedy::DesignateClean(k) => Some(k),
        _ => None,
    };
    let outcome = match s.outcome {
        Outcome::Reads(e) => format!(": the {} can then be read", label(e, &anchors, d)),
        Outcome::NothingReadable => ", though no ρ̂ can be read even then".into(),
        Outcome::DefinedButGuarded { estimator, test } => format!(
            ": the {} then gives ρ̂, though Test {} still fires against it",
            label(estimator, &anchors, d),
            test.name()
        ),
        Outcome::StillFlagged(e) => format!(
            ": the {} then gives ρ̂, though its fit is still flagged",
            label(e, &anchors, d)
        ),
        Outcome::Unchecked => String::new(),
    };
    format!("{}{outcome}", remedy(&s.remedy, panel))
}

/// A remedy as the explorer's user takes it.
#[must_use]
pub fn remedy(r: &Remedy, panel: &Panel) -> String {
    let space = keys(&Action::CycleRole);
    let anchor = |k: usize| {
        panel.anchors.get(k).map_or_else(
            || format!("anchor {}", k + 1),
            |a| crate::error::sanitize(a),
        )
    };
    let judge = |j: usize| {
        panel
            .judges
            .get(j)
            .map_or_else(|| format!("judge {}", j + 1), |a| crate::error::sanitize(a))
    };
    let column = |c: &crate::battery::reading::Column| match *c {
        crate::battery::reading::Column::Judge(j) => judge(j),
        crate::battery::reading::Column::Anchor(k) => anchor(k),
    };
    let each = |n: usize| if n == 1 { "it" } else { "each" };
    match r {
        Remedy::MarkContinuous(c) => format!(
            "score {} as numbers ({} on {} in the data pane)",
            list(c.iter().map(column)),
            keys(&Action::ToggleScale),
            each(c.len())
        ),
        Remedy::MarkOrdinal(c) => format!(
            "read {} as ordinal codes ({} on {} in the data pane)",
            list(c.iter().map(column)),
            keys(&Action::ToggleScale),
            each(c.len())
        ),
        Remedy::LeaveOutAnchors(k) => format!(
            "leave {} out of the anchors ({space} on {} in the data pane until it shows —)",
            list(k.iter().map(|&k| anchor(k))),
            each(k.len())
        ),
        Remedy::SetJudgeAside(j) => format!(
            "set {} aside ({space} on it in the data pane until it shows —)",
            judge(*j)
        ),
        Remedy::UseAsAnchors(c) => format!(
            "make {} {} ({space} on {} in the data pane)",
            list(c.iter().map(|n| crate::error::sanitize(n))),
            if c.len() == 1 { "an anchor" } else { "anchors" },
            each(c.len())
        ),
        Remedy::GiveFamilies => format!(
            "give the judges their families ({} or {} on each judge in the data pane)",
            keys(&Action::TypeFamily),
            keys(&Action::Family(1))
        ),
        Remedy::DesignateClean(0) => format!(
            "if {} is known to be clean, read the estimates pane's designated-clean line, which takes it as the clean one",
            anchor(0)
        ),
        Remedy::DesignateClean(k) => format!(
            "if {} is known to be clean, designating it would identify the others' ρ; the explorer's designated-clean line takes only the first anchor, {}, so this step is the command line's",
            anchor(*k),
            anchor(0)
        ),
        Remedy::TrustAnchor(k) => format!(
            "if {} is known to be clean, trust it ({} on it in the data pane): the others' ρ follows on latent scales if the judges share one factor (Test J passes), at a cost: the assumption is untestable, the data cannot tell whether it is clean",
            anchor(*k),
            keys(&Action::TrustAnchor)
        ),
        Remedy::CollectAnchors(n) => format!(
            "collect {n} more anchor{} (columns of human or reference scores of the same items)",
            if *n == 1 { "" } else { "s" }
        ),
        Remedy::CollectContinuousAnchors(n) => format!(
            "collect {n} more continuous anchor{} (columns of human or reference scores of the same items, not Likert codes)",
            if *n == 1 { "" } else { "s" }
        ),
        Remedy::MoreItems(p) => format!(
            "collect more items: the planner asks for N = {} for a design of {} judges and {} anchors like this one",
            p.n, p.judges, p.anchors
        ),
    }
}

/// The weak-ID screen's two caption lines, from its one verdict.
#[must_use]
pub fn weak_id(r: &BatteryReport, names: &[String]) -> [String; 2] {
    let ev = &r.reading.evidence;
    match ev.weak_id {
        WeakIdVerdict::NoFit => [
            "No weak-ID screen: there is no closed-form fit to screen.".into(),
            read_instead(&r.reading, names),
        ],
        WeakIdVerdict::OutOfRange { t } => [
            if t.is_finite() {
                format!(
                    "No weak-ID verdict: the closed form {}, so its T = {t:.1} screens nothing.",
                    range_words(&ev.range)
                )
            } else {
                format!(
                    "No weak-ID verdict: the closed form {}.",
                    range_words(&ev.range)
                )
            },
            read_instead(&r.reading, names),
        ],
        WeakIdVerdict::Weak { t } => [
            format!(
                "The denominator is only {t:.1} bootstrap SDs from zero (T < {}).",
                crate::bootstrap::WEAK_ID_T
            ),
            "The closed form sits near the identification boundary: report its intervals only."
                .into(),
        ],
        WeakIdVerdict::Ok { t } => [
            format!(
                "The denominator is {t:.1} bootstrap SDs from zero (T ≥ {}).",
                crate::bootstrap::WEAK_ID_T
            ),
            "The closed form is not weakly identified.".into(),
        ],
    }
}

/// What the closed form's flags say about it, as a predicate ("is out of range (…)"), each
/// kind of flag in its own words.
#[must_use]
pub fn range_words(r: &RangeVerdict) -> String {
    match r {
        RangeVerdict::OutOfRange(f) if !f.is_empty() => crate::battery::phrase::flagged(f),
        _ => "is flagged (see its flags)".into(),
    }
}

/// What the answer reads when the closed form is not it.
fn read_instead(r: &Reading, names: &[String]) -> String {
    match r.answer.read {
        Some(Estimator::ClosedForm) | None => String::new(),
        Some(e) => format!(
            "The answer reads the {} instead.",
            label(e, names, r.designated)
        ),
    }
}

/// The alarms the answer rests on, in a clause: "Test A and Test J fire", with the weak-ID
/// screen when it raises one; `None` when nothing fires.
#[must_use]
pub fn alarms(r: &Reading) -> Option<String> {
    let mut fired: Vec<String> = r
        .answer
        .alarms
        .iter()
        .map(|a| format!("Test {}", a.test.name()))
        .collect();
    if r.evidence.weak_id.alarm() {
        fired.push("the weak-ID screen".into());
    }
    let n = fired.len();
    (n > 0).then(|| {
        format!(
            "{} {}",
            list(fired.into_iter()),
            if n == 1 { "fires" } else { "fire" }
        )
    })
}

/// Whether test `t` fires according to the reading's evidence.
#[must_use]
pub fn fires(r: &Reading, t: TestId) -> bool {
    r.evidence.tests[t] == crate::battery::Verdict::Fires
}

/// Why there is no panel to read: the one fact the battery pane, its overlay, `n` and `V`
/// word alike (trial 44 finding 20: with roles set and the panel refused, `n` said "set roles
/// first", `V` "this panel has 0 judges" and the overlay "no battery yet").
#[must_use]
pub fn why_no_panel(app: &crate::tui::app::App) -> &'static str {
    use crate::tui::app::{Mode, Role, Source};
    let talk = matches!(app.mode, Mode::Demo(_));
    match &app.source {
        Source::File(f) if f.loading => "loading…",
        // A talk has no data pane: the caption says why the scene has no panel.
        _ if talk => "no panel in this scene (the caption says why)",
        // Judges enough, and still no panel: the load said why, in the data pane.
        Source::File(f) if f.roles.iter().filter(|r| **r == Role::Judge).count() >= 2 => {
            "no panel: these roles make none (the data pane says why and which column)"
        }
        Source::File(f) if !f.header.is_empty() => {
            "no panel yet: give the file at least 2 judges (Space on a column in the data pane)"
        }
        Source::File(_) => {
            "no panel: this file is not a panel (the data pane says why); open a preset or another file"
        }
        Source::Scenario => "no panel: open a preset or a file in the data pane",
    }
}
