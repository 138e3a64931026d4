//! The CLI's wording of a panel's reading ([`crate::battery::Reading`]): the core's phrases,
//! plus the command-line controls that take each next step (the one place flags are named).

use std::fmt::Write as _;

use serde_json::{Value, json};

use super::format::num;
use crate::battery::BatteryReport;
use crate::battery::TestId;
use crate::battery::phrase;
use crate::battery::reading::{
    AnchorStatus, Column, Obstacle, Outcome, RangeVerdict, ReadBecause, Reading, Remedy, Undefined,
    WeakIdVerdict,
};
use crate::estimate::Estimator;
use crate::panel::Panel;
use crate::wording::{RunSetting, Setting};

/// A number for text at four significant digits.
fn n4(x: f64) -> String {
    if x.is_finite() {
        crate::stats::fmt_num(x)
    } else {
        "undefined".into()
    }
}

/// The "Which estimate to read" block and the next steps, as `battery` prints them.
#[must_use]
pub fn text(panel: &Panel, r: &BatteryReport) -> String {
    let g = &r.reading;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nWhich estimate to read: {}",
        phrase::headline(&g.answer, &panel.anchors)
    );
    if g.answer.obstacles.iter().any(|o| {
        matches!(
            o,
            Obstacle::NotIdentified(crate::battery::reading::Unidentified::AllOrdinal)
        )
    }) {
        out.push_str("  `rhoscope identify` shows the non-identification: two parameter sets with ρ_1 = 0.30 and 0.80 give the same correlations.\n");
    }
    if g.answer.read.is_some() {
        for a in &g.answer.anchors {
            let _ = writeln!(out, "  {}", anchor_line(panel, a));
        }
    }
    for a in g.answer.alarms.iter().filter(|a| !a.answered) {
        let _ = writeln!(
            out,
            "  Test {} fires ({} against a threshold of {}): {}",
            a.test.name(),
            n4(a.statistic),
            n4(a.threshold),
            alarm_clause(a.test, g)
        );
    }
    if g.next.is_empty() && g.answer.read.is_none() {
        let _ = writeln!(out, "\nNext steps: {}", phrase::no_next_step(g, panel));
    }
    if !g.next.is_empty() {
        out.push_str("\nNext steps:\n");
        for (i, s) in g.next.iter().enumerate() {
            let how = cli(&s.remedy, panel, r);
            let _ = writeln!(
                out,
                "  {}. {}{} ({}).",
                i + 1,
                phrase::remedy(&s.remedy, &panel.judges, &panel.anchors),
                how.map_or_else(String::new, |h| format!(": {h}")),
                phrase::outcome(s.outcome)
            );
        }
    }
    out
}

/// What a firing test the answer does not already account for tells the reader.
fn alarm_clause(t: TestId, g: &Reading) -> &'static str {
    let no_estimate = g.answer.read.is_none();
    match t {
        TestId::A if no_estimate => {
            "the judges load unequally, so the closed form would be biased here whatever the anchors"
        }
        TestId::A => "the judges load unequally",
        TestId::J => {
            "the judges need a second factor even on their own scales, so the free-scale estimate would not hold either"
        }
        TestId::B => "the anchors disagree on σ_t²",
        TestId::C => "a family residual inflates K",
        TestId::O => "the anchors' covariances reject the free-scale model",
        #[cfg(test)]
        TestId::Z => "the test's own alarm",
    }
}

/// One anchor's line under the answer.
fn anchor_line(panel: &Panel, a: &crate::battery::reading::AnchorAnswer) -> String {
    let name = phrase::column(Column::Anchor(a.anchor), &[], &panel.anchors);
    let value = match (a.status, a.rho, a.interval) {
        (AnchorStatus::Assumed, ..) => "ρ = 0 (assumed)".into(),
        (_, Some(x), Some(i)) => format!("ρ̂ = {} [{}, {}]", n4(x), n4(i.lo), n4(i.hi)),
        (_, Some(x), None) => format!("ρ̂ = {} [—]", n4(x)),
        _ => "ρ̂ undefined".into(),
    };
    format!("{name}: {value} — {}", status_phrase(a.status))
}

/// An anchor's status in words.
fn status_phrase(s: AnchorStatus) -> &'static str {
    match s {
        AnchorStatus::Contaminated => "contaminated (the interval excludes 0)",
        AnchorStatus::NotDistinguishable => {
            "not distinguishable from clean (the interval covers 0)"
        }
        AnchorStatus::Assumed => "trusted as clean: an assumption, not measured, so no verdict",
        AnchorStatus::Undefined(Undefined::NoEstimate) => "no estimate to read",
        AnchorStatus::Undefined(Undefined::Rho) => "undefined (see the flags)",
        AnchorStatus::Undefined(Undefined::Interval) => {
            "no interval: too few resamples gave it a value"
        }
    }
}

/// The change that takes a remedy, when one does, marked for each front end to word as its
/// user types it (the command line's `--anchors A,B`, Python's `anchors=["A", "B"]`).
fn cli(remedy: &Remedy, panel: &Panel, r: &BatteryReport) -> Option<String> {
    let names = |cs: &[Column]| {
        cs.iter()
            .map(|&c| phrase::column(c, &panel.judges, &panel.anchors))
            .collect::<Vec<_>>()
    };
    let others = |all: &[String], left: usize| -> Vec<String> {
        all.iter()
            .enumerate()
            .filter(|(i, _)| *i != left)
            .map(|(_, a)| a.clone())
            .collect()
    };
    match remedy {
        Remedy::MarkContinuous(cs) => Some(Setting::Continuous.marked_given(&names(cs))),
        Remedy::MarkOrdinal(_) => Some(format!(
            "leave them out of {}",
            Setting::Continuous.marked()
        )),
        Remedy::LeaveOutAnchors(ks) => {
            let keep: Vec<String> = panel
                .anchors
                .iter()
                .enumerate()
                .filter(|(k, _)| !ks.contains(k))
                .map(|(_, a)| a.clone())
                .collect();
            Some(Setting::Anchors.marked_given(&keep))
        }
        Remedy::SetJudgeAside(j) => Some(Setting::Judges.marked_given(&others(&panel.judges, *j))),
        Remedy::UseAsAnchors(extra) => {
            let all: Vec<String> = panel.anchors.iter().chain(extra).cloned().collect();
            Some(Setting::Anchors.marked_given(&all))
        }
        Remedy::GiveFamilies => Some(Setting::Families.marked_given(&["NAME=FAMILY".into()])),
        Remedy::DesignateClean(k) | Remedy::TrustAnchor(k) => Some(
            Setting::DesignatedClean.marked_given(&[panel
                .anchors
                .get(*k)
                .map_or_else(|| "NAME".to_string(), Clone::clone)]),
        ),
        Remedy::CollectAnchors(_) | Remedy::CollectContinuousAnchors(_) => None,
        Remedy::MoreItems(_) => plan_line(panel, r),
    }
}

/// The planner's call for this panel's fitted design, marked for each front end to word
/// ([`crate::wording::Wording::run_given`]: the command line's `rhoscope plan …`, Python's `rhoscope.plan(…)`).
fn plan_line(panel: &Panel, r: &BatteryReport) -> Option<String> {
    let e = r.estimate()?;
    let rho: Option<Vec<String>> = e
        .anchors
        .iter()
        .map(|a| a.rho.map(|x| format!("{x:.2}")))
        .collect();
    (e.sigma_t2 > 0.0 && e.sigma_c2 > 0.0).then_some(())?;
    // One error SD per anchor, so the design has the panel's m anchors whatever the
    // preset's default (python45 finding 10: a 3-anchor panel's call failed on it).
    let sigma_a: Option<Vec<String>> = e
        .anchors
        .iter()
        .map(|a| (a.sigma_a2 > 0.0).then(|| format!("{:.3}", a.sigma_a2.sqrt())))
        .collect();
    let values = [
        "ci-width=0.2".to_string(),
        format!("p={}", panel.p()),
        format!("sigma_t2={:.3}", e.sigma_t2),
        format!("sigma_c2={:.3}", e.sigma_c2),
        format!("rho={}", rho?.join(",")),
        format!("sigma_a={}", sigma_a?.join(",")),
    ];
    Some(RunSetting::Target.marked_given(&values))
}

/// The `reading` object of `battery --json` (docs/json.md).
#[must_use]
pub fn json(panel: &Panel, r: &BatteryReport) -> Value {
    let g = &r.reading;
    let anchors: Vec<Value> = g
        .answer
        .anchors
        .iter()
        .map(|a| {
            let (status, undefined) = match a.status {
                AnchorStatus::Contaminated => ("contaminated", None),
                AnchorStatus::NotDistinguishable => ("not_distinguishable", None),
                AnchorStatus::Assumed => ("assumed", None),
                AnchorStatus::Undefined(u) => (
                    "undefined",
                    Some(match u {
                        Undefined::NoEstimate => "no_estimate",
                        Undefined::Rho => "rho",
                        Undefined::Interval => "interval",
                    }),
                ),
            };
            json!({
                "anchor": panel.anchors.get(a.anchor),
                "rho": a.rho.map_or(Value::Null, num),
                "ci": a.interval.map_or(Value::Null, |i| json!([num(i.lo), num(i.hi)])),
                "status": status,
                "undefined_because": undefined,
            })
        })
        .collect();
    let alarms: Vec<Value> = g
        .answer
        .alarms
        .iter()
        .map(|a| json!({"test": a.test.name(), "statistic": num(a.statistic), "threshold": num(a.threshold), "answered": a.answered, "text": alarm_clause(a.test, g)}))
        .collect();
    let next: Vec<Value> = g
        .next
        .iter()
        .map(|s| {
            let mut v = remedy_json(&s.remedy, panel);
            v["outcome"] = outcome_json(s.outcome);
            v["outcome"]["text"] = json!(phrase::outcome(s.outcome));
            v["text"] = json!(phrase::remedy(&s.remedy, &panel.judges, &panel.anchors));
            v["cli"] = json!(cli(&s.remedy, panel, r));
            v
        })
        .collect();
    json!({
        "read": g.answer.read.map(Estimator::key),
        "because": g.answer.because.map(because_key),
        "headline": phrase::headline(&g.answer, &panel.anchors),
        "obstacles": g.answer.obstacles.iter().map(|o| obstacle_json(o, panel)).collect::<Vec<_>>(),
        "anchors": anchors,
        "alarms": alarms,
        "evidence": evidence_json(g),
        "next": next,
        // Said once here so every front end words the same sentence the text prints.
        "no_next_step": (g.next.is_empty() && g.answer.read.is_none())
            .then(|| phrase::no_next_step(g, panel)),
    })
}

fn because_key(b: ReadBecause) -> &'static str {
    match b {
        ReadBecause::ClosedForm { .. } => "closed_form",
        ReadBecause::FreeScaleOrdinalJudges => "free_scale_ordinal_judges",
        ReadBecause::FreeScaleTestA => "free_scale_test_a",
        ReadBecause::BlockedTestC => "blocked_test_c",
        ReadBecause::Designated { .. } => "designated_clean",
    }
}

fn obstacle_json(o: &Obstacle, panel: &Panel) -> Value {
    let text = phrase::obstacle(o, &panel.anchors);
    match o {
        Obstacle::NotIdentified(_) => json!({"kind": "not_identified", "text": text}),
        Obstacle::OrdinalAnchors(ks) => json!({"kind": "ordinal_anchors",
            "anchors": ks.iter().map(|&k| panel.anchors.get(k)).collect::<Vec<_>>(), "text": text}),
        Obstacle::Guarded { estimator, test } => json!({"kind": "guarded",
            "estimator": estimator.key(), "test": test.name(), "text": text}),
        Obstacle::Flagged { estimator, flags } => json!({"kind": "flagged",
            "estimator": estimator.key(), "flags": flags.iter().map(|f| f.as_str()).collect::<Vec<_>>(), "text": text}),
        Obstacle::DidNotRun { estimator, .. } => json!({"kind": "did_not_run",
            "estimator": estimator.key(), "text": text}),
        Obstacle::WeaklyIdentified { no_interval } => json!({"kind": "weakly_identified",
            "no_interval": no_interval.iter().map(|&k| panel.anchors.get(k)).collect::<Vec<_>>(), "text": text}),
    }
}

fn evidence_json(g: &Reading) -> Value {
    let tests: serde_json::Map<String, Value> = TestId::ALL
        .into_iter()
        .map(|t| (t.name().to_string(), json!(g.evidence.tests[t].as_str())))
        .collect();
    let (weak, t) = match g.evidence.weak_id {
        WeakIdVerdict::NoFit => ("no_fit", f64::NAN),
        WeakIdVerdict::OutOfRange { t } => ("out_of_range", t),
        WeakIdVerdict::Weak { t } => ("weak", t),
        WeakIdVerdict::Ok { t } => ("ok", t),
    };
    let (range, flags) = match &g.evidence.range {
        RangeVerdict::NoFit => ("no_fit", Vec::new()),
        RangeVerdict::InRange => ("in_range", Vec::new()),
        RangeVerdict::OutOfRange(f) => ("out_of_range", f.iter().map(|c| c.as_str()).collect()),
    };
    json!({
        "tests": tests,
        "weak_id": {"verdict": weak, "T": num(t)},
        "range": {"verdict": range, "flags": flags},
    })
}

fn remedy_json(r: &Remedy, panel: &Panel) -> Value {
    let names = |cs: &[Column]| {
        cs.iter()
            .map(|&c| phrase::column(c, &panel.judges, &panel.anchors))
            .collect::<Vec<_>>()
    };
    let anchor = |k: usize| panel.anchors.get(k).cloned();
    match r {
        Remedy::MarkContinuous(cs) => json!({"remedy": "mark_continuous", "columns": names(cs)}),
        Remedy::MarkOrdinal(cs) => json!({"remedy": "mark_ordinal", "columns": names(cs)}),
        Remedy::LeaveOutAnchors(ks) => json!({"remedy": "leave_out_anchors",
            "columns": ks.iter().map(|&k| anchor(k)).collect::<Vec<_>>()}),
        Remedy::SetJudgeAside(j) => {
            json!({"remedy": "set_judge_aside", "columns": [panel.judges.get(*j)]})
        }
        Remedy::UseAsAnchors(c) => json!({"remedy": "use_as_anchors", "columns": c}),
        Remedy::GiveFamilies => json!({"remedy": "give_families"}),
        Remedy::DesignateClean(k) => json!({"remedy": "designate_clean", "columns": [anchor(*k)]}),
        Remedy::TrustAnchor(k) => json!({"remedy": "trust_anchor", "columns": [anchor(*k)],
            "assumption": crate::estimate::latent::ASSUMPTION}),
        Remedy::CollectAnchors(n) => json!({"remedy": "collect_anchors", "count": n}),
        Remedy::CollectContinuousAnchors(n) => {
            json!({"remedy": "collect_continuous_anchors", "count": n})
        }
        Remedy::MoreItems(p) => json!({"remedy": "more_items", "n": p.n}),
    }
}

fn outcome_json(o: Outcome) -> Value {
    match o {
        Outcome::Reads(e) => json!({"kind": "reads", "estimator": e.key()}),
        Outcome::NothingReadable => json!({"kind": "nothing_readable"}),
        Outcome::DefinedButGuarded { estimator, test } => {
            json!({"kind": "defined_but_guarded", "estimator": estimator.key(), "test": test.name()})
        }
        Outcome::StillFlagged(e) => json!({"kind": "still_flagged", "estimator": e.key()}),
        Outcome::Unchecked => json!({"kind": "unchecked"}),
    }
}
