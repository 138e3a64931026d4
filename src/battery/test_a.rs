//! Test A, judge-covariance dispersion (Section 5): under Assumption 1 every off-diagonal
//! judge covariance equals σ_t² + σ_c², so their coefficient of variation is near zero; a
//! second factor with non-uniform judge loadings spreads them.

use nalgebra::DMatrix;

use super::types::{
    Diagnostic, Layout, NotApplicable, NullKind, OnOrdinal, Observation, Scales, Violation,
};
use crate::model::Params;
use crate::stats::mean_sd_pop;

/// Test A needs at least 3 judges.
///
/// # Errors
/// Why it cannot run.
pub fn applicable(layout: &Layout) -> Result<(), NotApplicable> {
    if layout.p >= 3 {
        Ok(())
    } else {
        Err(
            "needs ≥ 3 judges (with 2 there is a single judge covariance, nothing to compare)"
                .into(),
        )
    }
}

/// SD (divisor n) over |mean| of the off-diagonal judge covariances (docs/method.md §3), among
/// the continuous judges when some are Likert, and among cross-family pairs when the judges
/// have families: a family residual lifts the within-family pairs, which is Test C's question,
/// and would make Test A fire on judges that load equally (the blocked estimate reads only the
/// cross-family pairs for K). The absolute value keeps a panel whose judges covary negatively
/// from passing by sign.
#[must_use]
pub fn statistic(s: &DMatrix<f64>, layout: &Layout) -> f64 {
    let off: Vec<f64> = pairs(layout).into_iter().map(|(j, l)| s[(j, l)]).collect();
    let (mean, sd) = mean_sd_pop(&off);
    sd / mean.abs()
}

/// Fewest cross-family pairs Test A reads in place of every pair (fewer have no spread to read).
const MIN_CROSS_PAIRS: usize = 3;

/// The judge pairs Test A reads: continuous judges, and cross-family pairs when families are
/// given and leave at least `MIN_CROSS_PAIRS` of them.
#[must_use]
pub fn pairs(layout: &Layout) -> Vec<(usize, usize)> {
    let judges = layout.continuous_judges();
    let all: Vec<(usize, usize)> = judges
        .iter()
        .enumerate()
        .flat_map(|(a, &j)| judges[a + 1..].iter().map(move |&l| (j, l)))
        .collect();
    let Some(fam) = layout.families.as_ref().filter(|f| f.blockable()) else {
        return all;
    };
    let cross: Vec<(usize, usize)> = all
        .iter()
        .copied()
        .filter(|&(j, l)| fam.index[j] != fam.index[l])
        .collect();
    if cross.len() >= MIN_CROSS_PAIRS && cross.len() < all.len() {
        cross
    } else {
        all
    }
}

/// Why Test A is N/A on Likert judges (docs/method.md §3), and what to read instead.
pub const ORDINAL_JUDGES: &str = "each Likert judge cuts its own categories, so the judges' scales are not observed and 'one shared scale' has no testable content, and fewer than 3 judges are continuous, too few to test among themselves; the free-scale estimator does not need it, and Test J checks the one-factor structure (\u{E000}codes_as_numbers\u{E001} gives the paper's codes-as-numbers computation, a convention, not a test of the latent model)";

/// The clause of [`ORDINAL_JUDGES`] that names Test J, and its wording when Test J cannot
/// run (fewer than 4 judges), so the text never sends the user to a test that is N/A too.
pub const J_CLAUSE: &str = "and Test J checks the one-factor structure";

/// [`J_CLAUSE`] on a panel of `p` judges.
#[must_use]
pub fn j_clause(p: usize) -> String {
    if p >= 4 {
        J_CLAUSE.into()
    } else {
        format!("but Test J, which would check the one-factor structure, needs ≥ 4 judges (this panel has {p}), so that structure stays unchecked")
    }
}

/// Test A's entry in the registry.
pub const SPEC: Diagnostic = Diagnostic {
    name: "A",
    title: "judge-covariance dispersion",
    target: "non-uniform judge loadings",
    unguarded: "non-uniform judge loadings (no Test A with 2 judges)",
    uses_anchors: false,
    applicable,
    scales: Scales {
        ordinal_judges: OnOrdinal::ContinuousOnly(ORDINAL_JUDGES),
        ordinal_anchors: OnOrdinal::NotRead,
    },
    statistic: |x, l| statistic(x.cov, l),
    null: NullKind::SingleFactor,
    meaning,
    violation: Violation {
        name: "test-a",
        short: "half the judges load s on a second factor",
        describe: "base design (p = 6, m = 2) plus a second factor d ~ N(0, 1) loading s on the first half of the judges and 0 on the rest, with no anchor loading",
        three_anchors: false,
        inject,
    },
};

/// What Test A's verdict means (Sections 5 and 8), and on which judges it was asked.
fn meaning(r: &Observation<'_>) -> String {
    let mut verdict = verdict_meaning(r);
    if pairs(r.layout).len() < r.layout.p * r.layout.p.saturating_sub(1) / 2 && r.layout.ordinal_judges == 0 {
        verdict = format!(
            "Asked of the cross-family judge pairs alone, which a family residual does not reach (Test C asks about that). {verdict}"
        );
    }
    if r.layout.ordinal_judges == 0 {
        return verdict;
    }
    format!(
        "Asked of the {} continuous judges alone: the {} Likert judges' scales are not observed, so they cannot share one. {verdict}",
        r.layout.p - r.layout.ordinal_judges,
        r.layout.ordinal_judges
    )
}

/// What Test A's verdict means on the judges it read.
fn verdict_meaning(r: &Observation<'_>) -> String {
    if r.fires {
        let base = "The judges' covariances are unequal beyond chance: they load unequally on what they share, so the unit-loading closed form should not be used on this panel (Section 8); treat every ρ̂ as unverified.";
        // What to do is the reading's next steps, checked against this panel (trial 44,
        // finding 1): a route named here would be offered where the panel cannot take it.
        if r.layout.p < 4 {
            format!(
                "{base} Test J needs ≥ 4 judges; with {} it cannot run, so the judges' one-factor structure stays unchecked.",
                r.layout.p
            )
        } else {
            base.into()
        }
    } else {
        "No dispersion beyond chance in the judge covariances. Passing is necessary, not sufficient: mild spreads are nearly invisible at N ≈ 500–2000 (power at spread 0.2 is at or below the false-positive rate), and a panel-wide residual never shows here.".into()
    }
}

/// A second factor loading s on the first half of the judges. The paper does not state the
/// layout of its "loading spread". Half the judges loading s is the simplest non-uniform
/// layout, and of those compared (evenly spread over [0, s], ±s alternating, one or two loaded
/// judges) it is the one that reproduces the paper's power table; see the README.
fn inject(pm: &mut Params, s: f64) {
    let p = pm.p;
    pm.violations.judge_loading = (0..p).map(|j| if j < p / 2 { s } else { 0.0 }).collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::JudgeFamilies;

    fn layout(families: Option<Vec<usize>>) -> Layout {
        Layout {
            p: 6,
            m: 2,
            families: families.map(JudgeFamilies::from_index),
            ordinal_anchors: 0,
            ordinal_judges: 0,
            judge_ordinal: Vec::new(),
        }
    }

    /// A firing Test A advises nothing of its own: the free-scale route it once named needs
    /// continuous anchors and Test J, which many panels lack; the reading's next steps
    /// offer what this panel can take (trial 44, finding 1).
    #[test]
    fn a_firing_test_a_names_no_route_of_its_own() {
        let l = layout(None);
        let r = Observation {
            fires: true,
            observed: 1.0,
            estimate: None,
            layout: &l,
        };
        let m = verdict_meaning(&r);
        assert!(m.starts_with("The judges' covariances are unequal"), "{m}");
        for route in ["free-scale", "Fix the panel", "continuous anchors"] {
            assert!(!m.contains(route), "{route}: {m}");
        }
    }

    /// Equal loadings (every cross-family covariance 1.0) with a family residual lifting the
    /// within-family pairs to 1.25: Test A reads no dispersion once families are given.
    #[test]
    fn a_family_residual_alone_does_not_spread_the_pairs_test_a_reads() {
        let fam = [0, 0, 1, 1, 2, 2];
        let s = DMatrix::from_fn(8, 8, |i, j| {
            if i == j {
                2.0
            } else if i < 6 && j < 6 && fam[i] == fam[j] {
                1.25
            } else {
                1.0
            }
        });
        assert!(statistic(&s, &layout(Some(fam.to_vec()))).abs() < 1e-12);
        // Without families every pair is read, and the lifted ones spread them.
        assert!(statistic(&s, &layout(None)) > 0.05);
        assert_eq!(pairs(&layout(Some(fam.to_vec()))).len(), 12);
        // One family holds every judge: no cross pair, so every pair is read.
        assert_eq!(pairs(&layout(Some(vec![0; 6]))).len(), 15);
    }
}
