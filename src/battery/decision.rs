//! "What your configuration buys you" (Section 6, docs/method.md §5) as data. The paper's decision
//! table and the ordinal hierarchy (Section 7) are kept here: from a panel's configuration
//! this finds the matching row, the estimators and diagnostics available, and the failure
//! modes left unguarded.

use super::reading::Evidence;
use super::registry::{PerTest, TestId};
use super::types::Layout;
use super::verdict::{TestResult, Verdict};

use crate::estimate::Estimator;
use crate::estimate::scale::not_identified;
use crate::families::JudgeFamilies;
use crate::panel::Panel;

/// One row of the paper's table, verbatim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    pub configuration: &'static str,
    pub estimate: &'static str,
    pub diagnostics: &'static str,
    pub unguarded: &'static str,
}

/// The decision table of Section 6, in order of increasing protection.
pub const TABLE: [Row; 4] = [
    Row {
        configuration: "2 judges, 2 anchors",
        estimate: "yes",
        diagnostics: "weak-ID screen only",
        unguarded: "all misspecification",
    },
    Row {
        configuration: "≥ 3 judges, 2 anchors",
        estimate: "yes",
        diagnostics: "+ Test A",
        unguarded: "anchor-side; shared residual",
    },
    Row {
        configuration: "≥ 3 judges (≥ 2 families), 2 anchors",
        estimate: "yes",
        diagnostics: "+ Test C, blocked estimator",
        unguarded: "anchor-side; panel-wide residual",
    },
    Row {
        configuration: "≥ 3 judges (≥ 2 fam.), ≥ 3 anchors, N ≳ 10⁴",
        estimate: "yes",
        diagnostics: "full battery",
        unguarded: "panel-wide residual; uniform factor (harmless for ρ)",
    },
];

/// Rows the paper's table does not list, completing it for ≥ 3 anchors without families.
pub const EXTRA: [Row; 2] = [
    Row {
        configuration: "2 judges, ≥ 3 anchors (not in the paper's table)",
        estimate: "yes",
        diagnostics: "weak-ID screen + Test B",
        unguarded: "judge-side loadings; shared residual",
    },
    Row {
        configuration: "≥ 3 judges, ≥ 3 anchors, no families (not in the paper's table)",
        estimate: "yes",
        diagnostics: "+ Test A, Test B",
        unguarded: "shared residual (Test B sees a judge-side one only near N ≈ 10⁴); panel-wide residual",
    },
];

/// The row of a panel with fewer than two anchors, which no row of the paper's table covers:
/// Theorem 1 identifies nothing, and only the tests that read the judges alone run.
pub const TOO_FEW_ANCHORS: Row = Row {
    configuration: "fewer than 2 anchors (not in the paper's table)",
    estimate: "no: Theorem 1 needs ≥ 2 anchors",
    diagnostics: "judge-side tests only",
    unguarded: "ρ itself",
};

/// The ordinal hierarchy of Section 7.
pub const ORDINAL: [Row; 3] = [
    Row {
        configuration: "all columns ordinal",
        estimate: "no: ρ is not identified at any number of anchors",
        diagnostics: "judge-side tests only",
        unguarded: "ρ itself",
    },
    Row {
        configuration: "ordinal judges, < 3 continuous anchors",
        estimate: "no: needs ≥ 3 continuous anchors",
        diagnostics: "judge-side tests only",
        unguarded: "ρ itself",
    },
    Row {
        configuration: "ordinal judges, ≥ 3 continuous anchors",
        estimate: "mixed-scale estimator (Section 7)",
        diagnostics: "as the continuous rows",
        unguarded: "finite-sample upward bias near ρ = 0 at small N",
    },
];

/// A panel's configuration: the facts the table depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Configuration {
    /// Judges, anchors and families, as the tests see them.
    pub layout: Layout,
    pub n: usize,
    /// Judges observed on an ordinal scale.
    pub ordinal_judges: usize,
    /// Anchors observed on a continuous scale.
    pub continuous_anchors: usize,
}

impl Configuration {
    /// The configuration of a loaded panel.
    #[must_use]
    pub fn of(panel: &Panel) -> Configuration {
        let p = panel.p();
        Configuration {
            layout: Layout::of(panel),
            n: panel.n,
            ordinal_judges: panel.scales[..p].iter().filter(|s| s.is_ordinal()).count(),
            continuous_anchors: panel.scales[p..].iter().filter(|s| !s.is_ordinal()).count(),
        }
    }
}

/// The table's answer for one configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Decision {
    /// The matching row of the paper's table (or of the ordinal hierarchy).
    pub row: Row,
    /// Estimators and diagnostics this panel can run.
    pub available: Vec<String>,
    /// Failure modes no available diagnostic guards against.
    pub unguarded: Vec<String>,
    /// Why ρ must not be reported at all, if so.
    pub refusal: Option<String>,
}

/// The ordinal hierarchy of Section 7 as one rule for every command (`estimate`, `battery`,
/// `export`, the explorer): why ρ must not be estimated on this panel, or `None`.
#[must_use]
pub fn refusal(panel: &Panel) -> Option<String> {
    decide(&Configuration::of(panel))
        .refusal
        .map(|r| format!("{r}; `rhoscope identify` shows why"))
}

/// Looks a configuration up in the table.
#[must_use]
pub fn decide(c: &Configuration) -> Decision {
    let (p, m) = (c.layout.p, c.layout.m);
    let all_ordinal = c.ordinal_judges == p && c.continuous_anchors == 0;
    // The family rows are those where Test C can run (≥ 2 families, one with ≥ 2 judges): a
    // family named for one judge alone blocks nothing.
    let has_fam = c
        .layout
        .families
        .as_ref()
        .is_some_and(JudgeFamilies::blockable)
        && (TestId::C.spec().applicable)(&c.layout).is_ok();
    let (row, refusal) = if m < 2 {
        (TOO_FEW_ANCHORS, None)
    } else if all_ordinal {
        (
            ORDINAL[0],
            not_identified(p, c.ordinal_judges, c.continuous_anchors),
        )
    } else if c.ordinal_judges > 0 && c.continuous_anchors < 3 {
        (
            ORDINAL[1],
            not_identified(p, c.ordinal_judges, c.continuous_anchors),
        )
    } else if c.ordinal_judges > 0 {
        (ORDINAL[2], None)
    } else if p >= 3 && has_fam && m >= 3 {
        (TABLE[3], None)
    } else if p >= 3 && has_fam {
        (TABLE[2], None)
    } else if p >= 3 && m >= 3 {
        (EXTRA[1], None)
    } else if p >= 3 {
        (TABLE[1], None)
    } else if m >= 3 {
        (EXTRA[0], None)
    } else {
        (TABLE[0], None)
    };
    // Too few anchors is the first reason to give: nothing else could identify ρ.
    let refusal = if m < 2 {
        Some(format!(
            "{m} anchor(s): Theorem 1 needs ≥ 2 anchors, so σ_t² and every ρ are not identified"
        ))
    } else {
        refusal
    };
    let identified = refusal.is_none();
    let mut available = Vec::new();
    if identified {
        available.push("closed-form ρ̂ with bootstrap CIs".to_string());
        available.push("weak-identification screen".to_string());
        available.push("designated-clean comparison".to_string());
    }
    let mut unguarded = Vec::new();
    for t in TestId::ALL {
        let spec = t.spec();
        if t.applicable(&c.layout).is_ok() {
            if identified || !spec.uses_anchors {
                available.push(format!("Test {} ({})", spec.name, spec.title));
            }
        } else if let (Ok(()), Err(why)) = ((spec.applicable)(&c.layout), t.applicable(&c.layout)) {
            // Enough columns; the scales rule it out, for the reason the test gives.
            let head = spec
                .unguarded
                .split_once(" (no ")
                .map_or(spec.unguarded, |(h, _)| h);
            unguarded.push(format!("{head} (no Test {}: {})", spec.name, why.0));
        } else {
            unguarded.push(spec.unguarded.to_string());
        }
    }
    let ctx = crate::estimate::Context {
        families: c.layout.families.clone(),
        clean: None,
    };
    if identified && Estimator::Blocked.applicable(&ctx, m).is_ok() {
        available.push("family-blocked estimator".to_string());
    }
    let test_c = TestId::C.applicable(&c.layout).is_ok();
    if m >= 3 && !test_c && c.n < 10_000 {
        unguarded.push("judge-side shared residual: Test B sees it only near N ≈ 10⁴".to_string());
    }
    unguarded.push(
        "panel-wide shared residual (e.g. one prompt template): invisible to every test"
            .to_string(),
    );
    unguarded
        .push("uniform second factor: invisible, harmless for ρ, but inflates σ_t²".to_string());
    Decision {
        row,
        available,
        unguarded,
        refusal,
    }
}

impl Decision {
    /// The table's answer settled by the battery's run: a test the layout allows but the run
    /// could not calibrate (no matched null, say) is not available but unguarded, with the
    /// run's reason, and a test the run did read (Test A on codes as numbers, a convention the
    /// user asked for) is available, not unguarded, so every front end lists what this panel
    /// actually ran.
    #[must_use]
    pub fn settled(mut self, tests: &PerTest<TestResult>) -> Decision {
        for t in TestId::ALL {
            let r = &tests[t];
            let name = format!("Test {} (", t.name());
            let spec = t.spec();
            let head = spec
                .unguarded
                .split_once(" (no ")
                .map_or(spec.unguarded, |(h, _)| h);
            let listed = self.available.iter().position(|a| a.starts_with(&name));
            let ran = r.verdict != Verdict::NotApplicable;
            let i = match (listed, ran) {
                (Some(_), true) | (None, false) => continue,
                (None, true) => {
                    self.unguarded.retain(|u| !u.starts_with(head));
                    self.available
                        .push(format!("Test {} ({})", spec.name, spec.title));
                    continue;
                }
                (Some(i), false) => i,
            };
            self.available.remove(i);
            let why = r.message.split(". ").next().unwrap_or(&r.message);
            self.unguarded
                .insert(0, format!("{head} (no Test {}: {why})", t.name()));
        }
        self
    }

    /// The checks the table's row names that do not run on this panel ("Test B",
    /// "weak-ID screen"), from the run's evidence; every one of them when none runs.
    #[must_use]
    pub fn idle(&self, evidence: &Evidence) -> Idle {
        let d = self.row.diagnostics;
        let mut named = 0;
        let mut idle = Vec::new();
        // "full battery" names every test.
        let every = d.contains("full battery");
        for t in TestId::ALL {
            if every || d.contains(&format!("Test {}", t.name())) {
                named += 1;
                if evidence.tests[t] == Verdict::NotApplicable {
                    idle.push(format!("Test {}", t.name()));
                }
            }
        }
        if d.contains("weak-ID") {
            named += 1;
            if evidence.weak_id.verdict() == Verdict::NotApplicable {
                idle.push("weak-ID screen".to_string());
            }
        }
        let every_test_idle = evidence
            .tests
            .values()
            .all(|v| *v == Verdict::NotApplicable);
        if (named == 0 && every_test_idle) || (named > 0 && idle.len() == named) {
            Idle::All
        } else if idle.is_empty() {
            Idle::None
        } else {
            Idle::Some(idle)
        }
    }
}

/// Which of a row's checks do not run on a panel ([`Decision::idle`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Idle {
    /// Every check the row names runs.
    None,
    /// These do not (named as the row names them).
    Some(Vec<String>),
    /// None of them runs.
    All,
}

/// Which estimate to read on a panel, and why: the reading's answer
/// ([`super::reading::Reading::route`]) in the older shape, kept for its callers.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    /// The estimator whose ρ̂ to read; `None` when no ρ̂ may be read.
    pub read: Option<Estimator>,
    /// One or two sentences a practitioner can act on.
    pub why: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `families` families, the first holding `largest` judges and the rest one or more each.
    fn config(p: usize, m: usize, families: usize, largest: usize) -> Configuration {
        let families = (families > 0).then(|| {
            let index = (0..p)
                .map(|j| {
                    if j < largest {
                        0
                    } else {
                        1 + (j - largest) % (families - 1)
                    }
                })
                .collect();
            JudgeFamilies::from_index(index)
        });
        Configuration {
            layout: Layout {
                p,
                m,
                families,
                ordinal_anchors: 0,
                ordinal_judges: 0,
                judge_ordinal: Vec::new(),
            },
            n: 500,
            ordinal_judges: 0,
            continuous_anchors: m,
        }
    }

    #[test]
    fn paper_rows_match_their_configurations() {
        assert_eq!(decide(&config(2, 2, 0, 0)).row, TABLE[0]);
        assert_eq!(decide(&config(6, 2, 0, 0)).row, TABLE[1]);
        assert_eq!(decide(&config(6, 2, 3, 2)).row, TABLE[2]);
        assert_eq!(decide(&config(6, 3, 3, 2)).row, TABLE[3]);
        assert_eq!(decide(&config(6, 3, 0, 0)).row, EXTRA[1]);
        assert_eq!(decide(&config(2, 3, 0, 0)).row, EXTRA[0]);
        let full = decide(&config(6, 3, 3, 2));
        assert!(full.available.iter().any(|a| a.starts_with("Test B")));
        assert!(full.unguarded.iter().any(|u| u.starts_with("panel-wide")));
    }

    #[test]
    fn ordinal_rows_refuse_with_reasons() {
        let mut c = config(3, 2, 0, 0);
        c.ordinal_judges = 3;
        c.continuous_anchors = 0;
        let d = decide(&c);
        assert_eq!(d.row, ORDINAL[0]);
        assert!(d.refusal.unwrap().contains("every column is ordinal"));
        let mut c = config(6, 2, 0, 0);
        c.ordinal_judges = 6;
        assert_eq!(decide(&c).row, ORDINAL[1]);
        let mut c = config(6, 3, 0, 0);
        c.ordinal_judges = 6;
        let d = decide(&c);
        assert_eq!(d.row, ORDINAL[2]);
        assert!(d.refusal.is_none());
    }

    /// A panel's row is its own (trial 42 findings 10, 12): no anchors is not a "2 anchors"
    /// row, and a family named for one judge alone (the rest each their own) is not a family
    /// row, since Test C cannot run on it.
    #[test]
    fn the_row_is_the_panels_own() {
        for m in [0, 1] {
            assert_eq!(decide(&config(3, m, 0, 0)).row, TOO_FEW_ANCHORS);
            assert_eq!(decide(&config(5, m, 2, 2)).row, TOO_FEW_ANCHORS);
        }
        let lone = config(5, 3, 5, 1);
        assert!(lone.layout.families.as_ref().unwrap().blockable());
        assert_eq!(decide(&lone).row, EXTRA[1]);
        assert!(
            !decide(&lone)
                .available
                .iter()
                .any(|a| a.starts_with("Test C"))
        );
    }

    #[test]
    fn too_few_anchors_is_not_identified_but_test_a_runs() {
        let d = decide(&config(3, 1, 0, 0));
        assert!(d.refusal.unwrap().contains("not identified"));
        assert!(d.available.iter().any(|a| a.starts_with("Test A")));
    }
}
