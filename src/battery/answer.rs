//! The answer of a panel's reading (docs/method.md §5 and §7): which estimate to read, or the
//! typed obstacles that leave none. The only routing rule: it never names an estimate whose
//! ρ̂ are undefined or flagged, nor one a firing test guards against (Tests A and B guard the
//! closed form, C too, which the blocked estimate answers; Tests J and O the free-scale
//! estimate; the weak-identification screen every point estimate of the closed form).

use super::decision::Configuration;
use super::reading::{Obstacle, ReadBecause, Unidentified, WeakIdVerdict};
use super::registry::{PerTest, TestId};
use super::verdict::Verdict;
use crate::estimate::{Estimate, Estimator};

/// What the answer reads: every fit's estimate and every estimator's refusal.
pub(super) struct Fitted<'a> {
    /// The fits that ran.
    pub estimates: Vec<(Estimator, &'a Estimate)>,
    /// Estimators that did not run, and why.
    pub refused: &'a [(Estimator, String)],
}

impl Fitted<'_> {
    fn get(&self, e: Estimator) -> Option<&Estimate> {
        self.estimates
            .iter()
            .find(|(k, _)| *k == e)
            .map(|(_, f)| *f)
    }

    /// Why estimator `e` cannot be read as points, or `None` when it can.
    fn obstacle(&self, e: Estimator) -> Option<Obstacle> {
        match self.get(e) {
            None => Some(Obstacle::DidNotRun {
                estimator: e,
                refusal: self
                    .refused
                    .iter()
                    .find(|(k, _)| *k == e)
                    .map_or_else(|| "not applicable".into(), |(_, why)| why.clone()),
            }),
            Some(f) if readable(f) => None,
            Some(f) => Some(Obstacle::Flagged {
                estimator: e,
                flags: f.flags.iter().map(|f| f.code).collect(),
            }),
        }
    }
}

/// Whether an estimate can be read as points: every ρ̂ defined and no flag on the points.
pub(super) fn readable(e: &Estimate) -> bool {
    !e.flagged() && e.anchors.iter().all(|a| a.rho.is_some())
}

/// Whether an estimate gives some ρ̂ at all.
pub(super) fn some_rho(e: &Estimate) -> bool {
    e.anchors.iter().any(|a| a.rho.is_some())
}

/// The answer's estimator, why, and the obstacles met on the way (in the order decided).
pub(super) struct Routed {
    pub read: Option<Estimator>,
    pub because: Option<ReadBecause>,
    pub obstacles: Vec<Obstacle>,
}

impl Routed {
    fn none(obstacles: Vec<Obstacle>) -> Routed {
        Routed {
            read: None,
            because: None,
            obstacles,
        }
    }

    fn read(e: Estimator, because: ReadBecause, obstacles: Vec<Obstacle>) -> Routed {
        Routed {
            read: Some(e),
            because: Some(because),
            obstacles,
        }
    }
}

/// Why ρ is not identified on `c`, or `None` when it is (the decision table's rule).
pub(super) fn unidentified(c: &Configuration) -> Option<Unidentified> {
    let (p, m) = (c.layout.p, c.layout.m);
    if m < 2 {
        Some(Unidentified::TooFewAnchors { anchors: m })
    } else if c.ordinal_judges == p && c.continuous_anchors == 0 {
        Some(Unidentified::AllOrdinal)
    } else if c.ordinal_judges > 0 && c.continuous_anchors < 3 {
        Some(Unidentified::OrdinalJudgesFewContinuous {
            continuous_anchors: c.continuous_anchors,
        })
    } else {
        None
    }
}

/// Routes a panel to the estimate to read from its configuration, the tests' verdicts, the
/// weak-identification verdict and every fit (the one rule; docs/method.md §5).
pub(super) fn route(
    c: &Configuration,
    ordinal_anchors: &[usize],
    tests: &PerTest<Verdict>,
    weak_id: WeakIdVerdict,
    fits: &Fitted<'_>,
) -> Routed {
    if let Some(why) = unidentified(c) {
        return Routed::none(vec![Obstacle::NotIdentified(why)]);
    }
    let fires = |t: TestId| tests[t] == Verdict::Fires;
    // The free-scale estimate, if nothing guards against it.
    let free = match fits.obstacle(Estimator::FreeScale) {
        Some(o) if !ordinal_anchors.is_empty() && matches!(o, Obstacle::DidNotRun { .. }) => {
            Err(Obstacle::OrdinalAnchors(ordinal_anchors.to_vec()))
        }
        Some(o) => Err(o),
        None => match [TestId::J, TestId::O].into_iter().find(|&t| fires(t)) {
            Some(test) => Err(Obstacle::Guarded {
                estimator: Estimator::FreeScale,
                test,
            }),
            None => Ok(()),
        },
    };
    if c.ordinal_judges > 0 {
        return match free {
            Ok(()) => Routed::read(
                Estimator::FreeScale,
                ReadBecause::FreeScaleOrdinalJudges,
                Vec::new(),
            ),
            Err(o) => Routed::none(vec![o]),
        };
    }
    if !ordinal_anchors.is_empty() {
        return Routed::none(vec![Obstacle::OrdinalAnchors(ordinal_anchors.to_vec())]);
    }
    let guard = [TestId::A, TestId::B].into_iter().find(|&t| fires(t));
    let guarded = |test| Obstacle::Guarded {
        estimator: Estimator::ClosedForm,
        test,
    };
    // Only Test A's alarm (the judges' scales differ) is answered by freeing the scales.
    let closed = match (fits.obstacle(Estimator::ClosedForm), guard) {
        (_, Some(TestId::A)) => Err((true, guarded(TestId::A))),
        (Some(o), _) => Err((false, o)),
        (None, Some(t)) => Err((false, guarded(t))),
        (None, None) if weak_id.alarm() => Err((
            false,
            Obstacle::WeaklyIdentified {
                no_interval: Vec::new(),
            },
        )),
        (None, None) => Ok(()),
    };
    match closed {
        Ok(()) if fires(TestId::C) => match fits.obstacle(Estimator::Blocked) {
            None => Routed::read(
                Estimator::Blocked,
                ReadBecause::BlockedTestC,
                vec![guarded(TestId::C)],
            ),
            Some(o) => Routed::none(vec![guarded(TestId::C), o]),
        },
        Ok(()) => Routed::read(
            Estimator::ClosedForm,
            ReadBecause::ClosedForm {
                test_a: tests[TestId::A],
                free_scale_beside: free.is_ok(),
            },
            Vec::new(),
        ),
        // Freeing the scales answers Test A only where Test J, which it rests on, passes.
        Err((true, o)) => match free {
            Ok(()) if tests[TestId::J] == Verdict::Pass => {
                Routed::read(Estimator::FreeScale, ReadBecause::FreeScaleTestA, vec![o])
            }
            Ok(()) => Routed::none(vec![o, no_test_j()]),
            Err(f) => Routed::none(blocked_too(vec![o, f], tests)),
        },
        Err((false, o)) => Routed::none(blocked_too(vec![o], tests)),
    }
}

/// The free-scale estimate's obstacle where Test J, which it rests on, does not run.
fn no_test_j() -> Obstacle {
    Obstacle::DidNotRun {
        estimator: Estimator::FreeScale,
        refusal: "it answers Test A only where Test J, which it rests on, runs and passes, and Test J does not run here".into(),
    }
}

/// The obstacles with the family-blocked estimate's named too when Test C fires (Test C
/// points to it): a test guarding the closed form guards it as well (it is the closed form
/// with K from cross-family pairs).
fn blocked_too(mut obstacles: Vec<Obstacle>, tests: &PerTest<Verdict>) -> Vec<Obstacle> {
    if tests[TestId::C] != Verdict::Fires {
        return obstacles;
    }
    let guard = [TestId::A, TestId::B]
        .into_iter()
        .find(|&t| tests[t] == Verdict::Fires);
    if let Some(test) = guard {
        obstacles.push(Obstacle::Guarded {
            estimator: Estimator::Blocked,
            test,
        });
    }
    obstacles
}

/// The answer when the user designates anchor `d` clean: the designated-clean estimate `e`
/// when it is readable and no test guards it (Test J the latent fit, whose first step is the
/// judges' one factor; Tests A and B the common-scale one); else the panel's own answer with
/// the reason the designated estimate cannot be read first among its obstacles.
pub(super) fn designated(
    routed: Routed,
    e: Estimator,
    d: usize,
    tests: &PerTest<Verdict>,
    fits: &Fitted<'_>,
) -> Routed {
    let guards: &[TestId] = if e == Estimator::DesignatedCleanLatent {
        &[TestId::J]
    } else {
        &[TestId::A, TestId::B]
    };
    let guard = guards.iter().find(|&&t| tests[t] == Verdict::Fires);
    let obstacle = match (fits.obstacle(e), guard) {
        (Some(o), _) => o,
        (None, Some(&test)) => Obstacle::Guarded { estimator: e, test },
        (None, None) => {
            let obstacles = if routed.read.is_none() {
                routed.obstacles
            } else {
                Vec::new()
            };
            let because = ReadBecause::Designated {
                estimator: e,
                anchor: d,
            };
            return Routed::read(e, because, obstacles);
        }
    };
    let mut obstacles = vec![obstacle];
    // A flagged fit that a firing test guards as well: both reasons, the test's too.
    if let Some(&test) = guard.filter(|_| !matches!(obstacles[0], Obstacle::Guarded { .. })) {
        obstacles.push(Obstacle::Guarded { estimator: e, test });
    }
    obstacles.extend(routed.obstacles);
    Routed {
        obstacles,
        ..routed
    }
}
