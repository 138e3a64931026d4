//! The panel a remedy leads to, and what the answer reads on it: re-decided cheaply from the
//! point fits, then settled by the battery re-run on the changed roles.

use crate::battery::answer::{Fitted, route, some_rho, unidentified};
use crate::battery::decision::Configuration;
use crate::battery::reading::{
    Column, Confirm, Evidence, Obstacle, Outcome, Remedy, WeakIdVerdict,
};
use crate::battery::registry::PerTest;
use crate::battery::verdict::Verdict;
use crate::estimate::{Context, Estimator, Fits};
use crate::panel::{Panel, Scale};

/// A role change's outcome as the battery re-run on the panel it leads to gives it: what
/// that run reads, or nothing readable (also when no re-run is at hand). Other outcomes (a
/// convention's fit, data not yet collected) are kept.
pub(super) fn confirmed(
    panel: &Panel,
    confirm: Option<&Confirm<'_>>,
    remedy: &Remedy,
    outcome: Outcome,
) -> Outcome {
    let changed = match remedy {
        Remedy::MarkContinuous(cs) => continuous(panel, cs),
        Remedy::LeaveOutAnchors(ks) => without(panel, &[], ks),
        Remedy::SetJudgeAside(j) => without(panel, &[*j], &[]),
        _ => return outcome,
    };
    if !matches!(outcome, Outcome::Reads(_)) {
        return Outcome::NothingReadable;
    }
    confirm
        .and_then(|run| run(&changed))
        .map_or(Outcome::NothingReadable, Outcome::Reads)
}

/// The panel with `cols` read as continuous.
pub(super) fn continuous(panel: &Panel, cols: &[Column]) -> Panel {
    let mut out = panel.clone();
    for c in cols {
        let i = match *c {
            Column::Judge(j) => j,
            Column::Anchor(k) => panel.p() + k,
        };
        out.scales[i] = Scale::Continuous;
    }
    out
}

/// The panel without the judges `judges` and the anchors `anchors` (indices in their roles).
pub(super) fn without(panel: &Panel, judges: &[usize], anchors: &[usize]) -> Panel {
    let (n, p) = (panel.n, panel.p());
    let keep: Vec<usize> = (0..panel.p() + panel.m())
        .filter(|&c| {
            if c < p {
                !judges.contains(&c)
            } else {
                !anchors.contains(&(c - p))
            }
        })
        .collect();
    let mut data = Vec::with_capacity(keep.len() * n);
    for &c in &keep {
        data.extend_from_slice(&panel.data[c * n..(c + 1) * n]);
    }
    let names = |v: &[String], gone: &[usize]| -> Vec<String> {
        v.iter()
            .enumerate()
            .filter(|(i, _)| !gone.contains(i))
            .map(|(_, s)| s.clone())
            .collect()
    };
    Panel {
        n,
        data,
        judges: names(&panel.judges, judges),
        anchors: names(&panel.anchors, anchors),
        families: panel.families.as_ref().map(|f| names(f, judges)),
        scales: keep.iter().map(|&c| panel.scales[c].clone()).collect(),
        missing: keep.iter().map(|&c| panel.missing[c]).collect(),
        n_dropped: panel.n_dropped,
    }
}

/// The answer re-decided cheaply on `changed` (the remedy applied): the fits redone and routed
/// with the tests' verdicts, those that cannot run on the new layout N/A and those the change
/// touches (every test when `judges_changed`, else those reading the anchors) taken as
/// passing — an upper bound that [`confirmed`] settles by re-running the battery.
pub(super) fn redecide(evidence: &Evidence, changed: &Panel, judges_changed: bool) -> Outcome {
    let c = Configuration::of(changed);
    if unidentified(&c).is_some() {
        return Outcome::NothingReadable;
    }
    let s = changed.covariance();
    let ctx = Context {
        families: changed.judge_families(),
        clean: None,
    };
    let fits = Fits::of_points(changed, &s, &ctx, &crate::battery::ESTIMATORS);
    let tests = PerTest::from_fn(|t| {
        if t.applicable(&c.layout).is_err() {
            Verdict::NotApplicable
        } else if judges_changed || t.spec().uses_anchors {
            Verdict::Pass
        } else {
            evidence.tests[t]
        }
    });
    let ordinal_anchors: Vec<usize> = (0..changed.m())
        .filter(|&k| changed.scales[changed.p() + k].is_ordinal())
        .collect();
    let fitted = Fitted {
        estimates: fits
            .fits
            .iter()
            .map(|f| (f.estimator, &f.estimate))
            .collect(),
        refused: &fits.refused,
    };
    let routed = route(&c, &ordinal_anchors, &tests, WeakIdVerdict::NoFit, &fitted);
    if let Some(e) = routed.read {
        return Outcome::Reads(e);
    }
    // "Gives ρ̂ but guarded" only when the guarded estimate itself gives some ρ̂.
    let defined = |e: Estimator| fits.estimate(e).is_some_and(some_rho);
    match routed.obstacles.first() {
        Some(Obstacle::Guarded { estimator, test }) if defined(*estimator) => {
            Outcome::DefinedButGuarded {
                estimator: *estimator,
                test: *test,
            }
        }
        _ => fits
            .fits
            .iter()
            .find(|f| some_rho(&f.estimate))
            .map_or(Outcome::NothingReadable, |f| {
                Outcome::StillFlagged(f.estimator)
            }),
    }
}
