//! The next steps of a panel's reading: remedies generated from the answer's obstacles, each
//! checked against the panel (one it cannot take is not offered). A change to the roles is
//! re-decided cheaply first (the fits redone and routed with the tests it changes taken as
//! passing), and offered only if the battery re-run on the roles it leads to reads a ρ̂; new
//! data to collect is offered only where no firing test it cannot change rules the estimate
//! it would give out.

mod changed;

use super::answer::{Routed, some_rho};
use super::reading::{
    Column, Confirm, Evidence, NextStep, Obstacle, Outcome, Plan, Remedy, Room, Unidentified,
    WeakIdVerdict,
};
use super::registry::TestId;
use super::verdict::Verdict;
use crate::bootstrap::WEAK_ID_T;
use crate::estimate::free_scale::one_factor_uls;
use crate::estimate::{Context, Estimator, Fits, FlagCode};
use crate::panel::{Panel, Scale};
use changed::{confirmed, continuous, redecide, without};

/// What the next steps are worked out from.
pub(super) struct About<'a> {
    pub panel: &'a Panel,
    pub room: &'a Room,
    pub routed: &'a Routed,
    pub evidence: &'a Evidence,
    /// The judges' one-factor RMS threshold of Test J, when it ran.
    pub j_threshold: Option<f64>,
    /// The battery re-run on a changed panel: what it reads.
    pub confirm: Option<&'a Confirm<'a>>,
    /// The anchor the user already trusts as clean: no other trust is offered beside it.
    pub designated: Option<usize>,
}

/// The next steps, most useful first: those whose panel the battery reads a ρ̂ on, then new
/// data to collect (not checked here); none that leaves no ρ̂ to read, and none the panel
/// cannot take.
pub(super) fn next_steps(a: &About<'_>) -> Vec<NextStep> {
    let mut steps: Vec<NextStep> = Vec::new();
    let judges_block = judges_block_every_estimate(a);
    let mut offer = |remedy: Remedy, outcome: Outcome| {
        let outcome = confirmed(a.panel, a.confirm, &remedy, outcome);
        // Trusting an anchor is the one step Likert anchors leave (issue 38): offered where
        // its fit gives a ρ̂, even one still flagged, so the user can weigh its cost.
        let trust = matches!(remedy, Remedy::TrustAnchor(_));
        if (trust
            || matches!(outcome, Outcome::Reads(_) | Outcome::Unchecked)
                && (!judges_block || touches_judges(&remedy)))
            && !steps.iter().any(|s| s.remedy == remedy)
        {
            steps.push(NextStep { remedy, outcome });
        }
    };
    for o in &a.routed.obstacles {
        for (remedy, outcome) in for_obstacle(a, o) {
            offer(remedy, outcome);
        }
    }
    // Test J guards the free-scale estimate even when another obstacle is met first.
    if a.routed.read.is_none() && a.evidence.tests[TestId::J] == Verdict::Fires {
        for (remedy, outcome) in aside_for_j(a) {
            offer(remedy, outcome);
        }
    }
    if a.routed.read.is_some() {
        for (remedy, outcome) in strengthen(a) {
            offer(remedy, outcome);
        }
    }
    // Stable: within a rank, the order the obstacles were met.
    steps.sort_by_key(|s| match s.outcome {
        Outcome::Reads(_) => 0,
        Outcome::DefinedButGuarded { .. } | Outcome::StillFlagged(_) => 1,
        Outcome::Unchecked => 2,
        Outcome::NothingReadable => 3,
    });
    steps
}

/// The anchors to collect so that a ρ̂ could be read, or `None` when a firing test that new
/// anchors cannot change rules out every estimate they would give: two for the closed form,
/// three for the free-scale estimate when Test A fires against the closed form (and then only
/// when Test J, which the free-scale estimate rests on, runs and passes).
fn anchors_to_collect(a: &About<'_>) -> Option<usize> {
    let m = a.panel.m();
    let target = if a.evidence.tests[TestId::A] == Verdict::Fires {
        if a.evidence.tests[TestId::J] != Verdict::Pass {
            return None;
        }
        crate::estimate::free_scale::MIN_ANCHORS
    } else {
        2
    };
    (target > m).then(|| target - m)
}

/// Whether the free-scale estimate that continuous anchors would give could be read: Test J,
/// which it rests on, does not fire.
fn free_scale_could_read(a: &About<'_>) -> bool {
    a.evidence.tests[TestId::J] != Verdict::Fires
}

/// Whether a remedy changes the judges (which judge-side tests read).
fn touches_judges(remedy: &Remedy) -> bool {
    match remedy {
        Remedy::SetJudgeAside(_) | Remedy::GiveFamilies => true,
        Remedy::MarkContinuous(cs) | Remedy::MarkOrdinal(cs) => {
            cs.iter().any(|c| matches!(c, Column::Judge(_)))
        }
        _ => false,
    }
}

/// Whether firing judge-side tests guard every estimate the answer could read, whatever the
/// anchors: Test A against the closed form (and so the blocked estimate) and Test J against
/// the free-scale estimate (on Likert judges, the only one). Then only a change to the judges
/// can make a ρ̂ readable.
fn judges_block_every_estimate(a: &About<'_>) -> bool {
    let fires = |t: TestId| a.evidence.tests[t] == Verdict::Fires;
    let likert_judges = (0..a.panel.p()).any(|j| a.panel.scales[j].is_ordinal());
    a.routed.read.is_none() && fires(TestId::J) && (fires(TestId::A) || likert_judges)
}

/// Remedies aimed at one obstacle, with what each gives.
fn for_obstacle(a: &About<'_>, o: &Obstacle) -> Vec<(Remedy, Outcome)> {
    let p = a.panel.p();
    let mut out = Vec::new();
    match o {
        Obstacle::NotIdentified(why) => out.extend(unidentified_remedies(a, *why)),
        Obstacle::OrdinalAnchors(idx) => {
            let cols: Vec<Column> = idx.iter().map(|&k| Column::Anchor(k)).collect();
            out.push((
                Remedy::MarkContinuous(cols.clone()),
                redecide(a.evidence, &continuous(a.panel, &cols), false),
            ));
            if a.panel.m() - idx.len() >= 2 {
                out.push((
                    Remedy::LeaveOutAnchors(idx.clone()),
                    redecide(a.evidence, &without(a.panel, &[], idx), false),
                ));
            }
            out.extend(trust_anchor(a));
            if free_scale_could_read(a) {
                out.push((Remedy::CollectContinuousAnchors(3), Outcome::Unchecked));
            }
        }
        Obstacle::Guarded {
            estimator: Estimator::FreeScale,
            test: TestId::J,
        } => out.extend(aside_for_j(a)),
        Obstacle::Guarded {
            estimator: Estimator::ClosedForm,
            test: TestId::A,
        } => {
            // The free-scale estimate answers Test A, and needs three anchors and Test J.
            if let Some(more) = anchors_to_collect(a) {
                out.push((Remedy::CollectAnchors(more), Outcome::Unchecked));
            }
        }
        Obstacle::Flagged { estimator, flags } => {
            for j in heywood_judges(a.panel, *estimator, flags) {
                if p > 3 {
                    out.push((
                        Remedy::SetJudgeAside(j),
                        redecide(a.evidence, &without(a.panel, &[j], &[]), true),
                    ));
                }
            }
            let common_scale_guarded = [TestId::A, TestId::B]
                .into_iter()
                .any(|t| a.evidence.tests[t] == Verdict::Fires);
            if *estimator == Estimator::ClosedForm && !common_scale_guarded {
                out.extend(clean_anchor(a));
            }
            if *estimator == Estimator::FreeScale && flags.contains(&FlagCode::AnchorsMisfit) {
                out.extend(drop_misfit_anchor(a));
            }
        }
        Obstacle::WeaklyIdentified { .. } => out.extend(more_items(a)),
        Obstacle::Guarded { .. } | Obstacle::DidNotRun { .. } => {}
    }
    out
}

/// Remedies when ρ is not identified: spare columns or new anchors, or reading Likert codes
/// as numbers when that is what identifies it.
fn unidentified_remedies(a: &About<'_>, why: Unidentified) -> Vec<(Remedy, Outcome)> {
    let mut out = Vec::new();
    let m = a.panel.m();
    let ordinal_judges: Vec<Column> = (0..a.panel.p())
        .filter(|&j| a.panel.scales[j].is_ordinal())
        .map(Column::Judge)
        .collect();
    let ordinal_anchors: Vec<Column> = (0..m)
        .filter(|&k| a.panel.scales[a.panel.p() + k].is_ordinal())
        .map(Column::Anchor)
        .collect();
    match why {
        Unidentified::TooFewAnchors { .. } => {
            // Likert judges need three continuous anchors, whatever the ordinal ones.
            let continuous = m - ordinal_anchors.len();
            let more = if ordinal_judges.is_empty() {
                anchors_to_collect(a)
            } else {
                free_scale_could_read(a).then(|| 3usize.saturating_sub(continuous))
            };
            let Some(more) = more.filter(|&k| k > 0) else {
                return out;
            };
            if a.room.spare.len() >= more {
                let take = a.room.spare.iter().take(more).cloned().collect();
                out.push((Remedy::UseAsAnchors(take), Outcome::Unchecked));
            }
            if ordinal_judges.is_empty() {
                out.push((Remedy::CollectAnchors(more), Outcome::Unchecked));
            } else {
                out.push((Remedy::CollectContinuousAnchors(more), Outcome::Unchecked));
            }
        }
        Unidentified::AllOrdinal | Unidentified::OrdinalJudgesFewContinuous { .. } => {
            let all: Vec<Column> = ordinal_judges
                .iter()
                .chain(&ordinal_anchors)
                .copied()
                .collect();
            out.push((
                Remedy::MarkContinuous(all.clone()),
                redecide(a.evidence, &continuous(a.panel, &all), false),
            ));
            if !ordinal_anchors.is_empty() {
                out.push((
                    Remedy::MarkContinuous(ordinal_anchors.clone()),
                    redecide(a.evidence, &continuous(a.panel, &ordinal_anchors), false),
                ));
            }
            if !ordinal_anchors.is_empty() {
                out.extend(trust_anchor(a));
            }
            let continuous_anchors = m - ordinal_anchors.len();
            if free_scale_could_read(a) {
                out.push((
                    Remedy::CollectContinuousAnchors(
                        3usize.saturating_sub(continuous_anchors).max(1),
                    ),
                    Outcome::Unchecked,
                ));
            }
        }
    }
    out
}

/// Steps that add protection to a readable answer: families for Test C and the blocked
/// estimate, when none are given.
fn strengthen(a: &About<'_>) -> Vec<(Remedy, Outcome)> {
    let blockable = a.panel.judge_families().is_some_and(|f| f.blockable());
    if a.panel.p() >= 3 && !blockable {
        vec![(Remedy::GiveFamilies, Outcome::Unchecked)]
    } else {
        Vec::new()
    }
}

/// Setting aside the judge whose absence leaves the judges' one-factor fit closest to one
/// factor, when Test J fires and four judges remain to run it; offered only when its RMS then
/// falls below Test J's threshold.
fn aside_for_j(a: &About<'_>) -> Vec<(Remedy, Outcome)> {
    let p = a.panel.p();
    let (Some(threshold), true) = (a.j_threshold, p > 4) else {
        return Vec::new();
    };
    let Ok(r) = judge_correlations(a.panel) else {
        return Vec::new();
    };
    let rms_without = |j: usize| {
        let keep: Vec<usize> = (0..p).filter(|&i| i != j).collect();
        let sub = nalgebra::DMatrix::from_fn(keep.len(), keep.len(), |x, y| r[(keep[x], keep[y])]);
        one_factor_uls(&sub).map_or(f64::INFINITY, |(_, rms, _)| rms)
    };
    let best = (0..p)
        .map(|j| (j, rms_without(j)))
        .min_by(|x, y| x.1.total_cmp(&y.1));
    match best {
        Some((j, rms)) if rms <= threshold => vec![(
            Remedy::SetJudgeAside(j),
            redecide(a.evidence, &without(a.panel, &[j], &[]), true),
        )],
        _ => Vec::new(),
    }
}

/// Leaving out the one anchor whose absence lets the free-scale fit read (or, failing that,
/// give some ρ̂), when the anchors misfit and three would remain.
fn drop_misfit_anchor(a: &About<'_>) -> Vec<(Remedy, Outcome)> {
    let m = a.panel.m();
    if m <= crate::estimate::free_scale::MIN_ANCHORS {
        return Vec::new();
    }
    let tried: Vec<(usize, Outcome)> = (0..m)
        .map(|k| (k, redecide(a.evidence, &without(a.panel, &[], &[k]), false)))
        .collect();
    let best = tried
        .iter()
        .find(|(_, o)| matches!(o, Outcome::Reads(_)))
        .or_else(|| {
            tried
                .iter()
                .find(|(_, o)| matches!(o, Outcome::DefinedButGuarded { .. }))
        });
    best.map(|(k, o)| vec![(Remedy::LeaveOutAnchors(vec![*k]), *o)])
        .unwrap_or_default()
}

/// The judges' correlations as Test J reads them (mixed when some judge is ordinal).
fn judge_correlations(panel: &Panel) -> Result<nalgebra::DMatrix<f64>, ()> {
    let p = panel.p();
    let r = if panel.scales.iter().any(Scale::is_ordinal) {
        crate::ordinal::correlation_matrix(panel).map_err(|_| ())?.r
    } else {
        super::types::Sample::of_cov(&panel.covariance())
            .correlations()
            .into_owned()
    };
    Ok(r.view((0, 0), (p, p)).into_owned())
}

/// Judges a fit flags as Heywood cases (a loading |λ_j| ≥ 1).
fn heywood_judges(panel: &Panel, _e: Estimator, flags: &[FlagCode]) -> Vec<usize> {
    if !flags.contains(&FlagCode::HeywoodJudge) {
        return Vec::new();
    }
    judge_correlations(panel)
        .ok()
        .and_then(|r| one_factor_uls(&r).ok())
        .map(|(lambda, _, _)| {
            lambda
                .iter()
                .enumerate()
                .filter(|(_, l)| l.abs() >= 1.0)
                .map(|(j, _)| j)
                .collect()
        })
        .unwrap_or_default()
}

/// Designating as clean the first anchor with which the designated-clean estimate reads.
fn clean_anchor(a: &About<'_>) -> Vec<(Remedy, Outcome)> {
    if a.designated.is_some() {
        return Vec::new();
    }
    let s = a.panel.covariance();
    (0..a.panel.m())
        .find(|&k| {
            let ctx = Context {
                families: a.panel.judge_families(),
                clean: Some(k),
            };
            let fits = Fits::of_points(a.panel, &s, &ctx, &[Estimator::DesignatedClean]);
            fits.estimate(Estimator::DesignatedClean)
                .is_some_and(super::answer::readable)
        })
        .map(|k| {
            vec![(
                Remedy::DesignateClean(k),
                Outcome::Reads(Estimator::DesignatedClean),
            )]
        })
        .unwrap_or_default()
}

/// Trusting as clean the first anchor with which the latent designated-clean estimate gives a
/// ρ̂ (docs/method.md §7b): Likert anchors, m ≥ 3, none trusted yet, and only where the trusted
/// fit can read ([`trust_cannot_read`]); offered with what it gives (a fit still flagged says so),
/// never where every ρ̂ stays undefined.
fn trust_anchor(a: &About<'_>) -> Vec<(Remedy, Outcome)> {
    let e = Estimator::DesignatedCleanLatent;
    let s = a.panel.covariance();
    let fit = |k: usize| {
        let ctx = Context {
            families: None,
            clean: Some(k),
        };
        Fits::of_points(a.panel, &s, &ctx, &[e])
            .estimate(e)
            .cloned()
    };
    // A second trusted anchor would contradict the one the user already trusts.
    if a.designated.is_some()
        || a.panel.m() < crate::estimate::latent::MIN_ANCHORS
        || trust_cannot_read(&a.evidence.tests).is_some()
    {
        return Vec::new();
    }
    let fits: Vec<_> = (0..a.panel.m()).map(fit).collect();
    let readable = fits
        .iter()
        .position(|f| f.as_ref().is_some_and(super::answer::readable));
    let step = match readable {
        Some(k) => (k, Outcome::Reads(e)),
        None => match fits.iter().position(|f| f.as_ref().is_some_and(some_rho)) {
            Some(k) => (k, Outcome::StillFlagged(e)),
            None => return Vec::new(),
        },
    };
    vec![(Remedy::TrustAnchor(step.0), step.1)]
}

/// Why no trusted anchor's fit can be read whatever the data, when that is so: the latent
/// designated-clean estimate's first step is the judges' one factor, which a firing Test J
/// rules out. One rule for the offer and for the "none found" sentence.
#[must_use]
pub(crate) fn trust_cannot_read(tests: &super::registry::PerTest<Verdict>) -> Option<TestId> {
    (tests[TestId::J] == Verdict::Fires).then_some(TestId::J)
}

/// More items when the closed form is weakly identified: T grows as √N, so the planner's
/// scaling N · (T₀ / T)² (rounded up to a hundred, and at least doubling N) reaches T₀ = 4.
fn more_items(a: &About<'_>) -> Vec<(Remedy, Outcome)> {
    let WeakIdVerdict::Weak { t } = a.evidence.weak_id else {
        return Vec::new();
    };
    let n = a.panel.n as f64;
    let want = if t.is_finite() && t > 0.0 {
        (n * (WEAK_ID_T / t).powi(2) * 1.1).max(2.0 * n)
    } else {
        4.0 * n
    };
    // A positive, finite count of items well inside usize.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let n = ((want / 100.0).ceil() * 100.0).min(1e12) as usize;
    vec![(
        Remedy::MoreItems(Plan {
            n,
            judges: a.panel.p(),
            anchors: a.panel.m(),
        }),
        Outcome::Unchecked,
    )]
}
