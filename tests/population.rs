//! Exact checks on population moments: the closed form inverts the model (Theorem 1), the
//! family-blocked estimator is exact under family residuals (Section 5), a uniform second
//! factor only inflates σ_t² (Proposition 1), and the designated-clean estimator's
//! population values match Section 6.

use proptest::prelude::*;
use rhoscope::estimate::{blocked::family_blocked, clean::designated_clean, closed_form};
use rhoscope::model::{Families, Params, Violations};
use rhoscope::moments::{JudgePairs, Moments};

const TOL: f64 = 1e-9;

/// Random valid parameters with p = 2..=10 judges and m = 2..=5 anchors.
fn params() -> impl Strategy<Value = Params> {
    (2usize..=10, 2usize..=5).prop_flat_map(|(p, m)| {
        (
            0.2f64..3.0,
            0.2f64..3.0,
            prop::collection::vec(0.1f64..2.0, p),
            prop::collection::vec(-0.95f64..0.95, m),
            prop::collection::vec(0.2f64..1.5, m),
        )
            .prop_map(
                move |(sigma_t2, sigma_c2, judge_var, rho, sigma_a)| Params {
                    sigma_t2,
                    sigma_c2,
                    p,
                    judge_var,
                    rho,
                    sigma_a,
                    violations: Violations::default(),
                },
            )
    })
}

/// Every pair's denominator (σ_c² − β_k)(σ_c² − β_l)/σ_c² away from zero, so that the
/// inversion is well conditioned; the boundary itself has its own tests.
fn well_conditioned(pm: &Params) -> bool {
    let b = pm.beta();
    b.iter().all(|bk| (pm.sigma_c2 - bk).abs() > 0.05)
}

fn assert_recovers(pm: &Params, est: &rhoscope::estimate::Estimate, sigma_t2: f64) {
    assert!(
        (est.sigma_t2 - sigma_t2).abs() < TOL,
        "σ_t²: {} vs {sigma_t2}",
        est.sigma_t2
    );
    assert!((est.sigma_c2 - pm.sigma_c2).abs() < TOL, "σ_c²");
    let sa = pm.sigma_a_full();
    for (k, a) in est.anchors.iter().enumerate() {
        assert!((a.beta - pm.beta()[k]).abs() < TOL, "β_{k}");
        assert!((a.sigma_a2 - sa[k] * sa[k]).abs() < TOL, "σ_a²_{k}");
        assert!((a.rho.unwrap() - pm.rho[k]).abs() < TOL, "ρ_{k}");
    }
    assert!(est.flags.is_empty(), "{:?}", est.flags);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn closed_form_inverts_population_moments(pm in params()) {
        prop_assume!(well_conditioned(&pm));
        let mom = Moments::from_cov(&pm.population_cov(), pm.p, JudgePairs::All).unwrap();
        let est = closed_form(&mom);
        assert_recovers(&pm, &est, pm.sigma_t2);
        // Corollary 1: each pair's denominator is (σ_c² − β_k)(σ_c² − β_l)/σ_c².
        let b = pm.beta();
        for pair in &est.pairs {
            let (k, l) = pair.anchors;
            let want = (pm.sigma_c2 - b[k]) * (pm.sigma_c2 - b[l]) / pm.sigma_c2;
            prop_assert!((pair.denominator - want).abs() < TOL);
        }
    }

    #[test]
    fn blocked_estimator_is_exact_under_family_residuals(
        pm in params(),
        sigma_f in 0.05f64..1.0,
        seed in any::<u64>(),
    ) {
        prop_assume!(well_conditioned(&pm) && pm.p >= 3);
        // Random family labels with at least two families.
        let mut labels: Vec<String> = (0..pm.p)
            .map(|j| format!("F{}", (seed >> (j % 60)) & 1))
            .collect();
        labels[0] = "F0".into();
        labels[1] = "F1".into();
        let mut pm = pm;
        pm.violations.families = Families::Labels(labels);
        pm.violations.sigma_f = sigma_f;
        let s = pm.population_cov();
        let (fam, _) = pm.family_index().unwrap();
        let est = family_blocked(&s, &fam).unwrap();
        assert_recovers(&pm, &est, pm.sigma_t2);
    }

    #[test]
    fn uniform_second_factor_only_inflates_sigma_t2(pm in params(), g in 0.1f64..1.0) {
        prop_assume!(well_conditioned(&pm));
        // Proposition 1 with g = h and σ_d² = 1: ρ and σ_c² unchanged, σ_t² + g².
        let mut pm = pm;
        pm.violations.judge_loading = vec![g];
        pm.violations.anchor_loading = vec![g];
        let mom = Moments::from_cov(&pm.population_cov(), pm.p, JudgePairs::All).unwrap();
        let est = closed_form(&mom);
        prop_assert!((est.sigma_t2 - (pm.sigma_t2 + g * g)).abs() < TOL);
        prop_assert!((est.sigma_c2 - pm.sigma_c2).abs() < TOL);
        for (a, r) in est.anchors.iter().zip(&pm.rho) {
            prop_assert!((a.rho.unwrap() - r).abs() < TOL);
        }
    }
}

#[test]
fn family_residual_biases_the_naive_estimator() {
    // The blocked estimator's reason to exist: the all-pairs K absorbs σ_f² and ρ̂ drifts.
    let mut pm = Params::default();
    pm.violations.families = Families::Blocks(3);
    pm.violations.sigma_f = 0.7;
    let mom = Moments::from_cov(&pm.population_cov(), pm.p, JudgePairs::All).unwrap();
    let naive = closed_form(&mom);
    assert!((naive.anchors[1].rho.unwrap() - 0.7).abs() > 0.01);
}

#[test]
fn designated_clean_matches_section_6_population_values() {
    // Section 6: σ_a = (0.5, 0.6), ρ_2 = 0.5; trusting anchor 1 gives ρ̂_2 = 0.500, 0.408,
    // 0.267, 0.000 at ρ_1 = 0, 0.2, 0.4, 0.6, while the closed form stays at 0.5.
    for (rho1, want) in [(0.0, 0.500), (0.2, 0.408), (0.4, 0.267), (0.6, 0.000)] {
        let pm = Params {
            rho: vec![rho1, 0.5],
            sigma_a: vec![0.5, 0.6],
            ..Params::default()
        };
        let mom = Moments::from_cov(&pm.population_cov(), pm.p, JudgePairs::All).unwrap();
        let dc = designated_clean(&mom, 0);
        let got = dc.anchors[1].rho.unwrap();
        assert!((got - want).abs() < 5e-4, "ρ_1 = {rho1}: {got} vs {want}");
        assert_eq!(dc.anchors[0].rho, Some(0.0));
        assert!((closed_form(&mom).anchors[1].rho.unwrap() - 0.5).abs() < TOL);
    }
}

#[test]
fn boundary_pair_is_flagged_and_other_pairs_still_identify() {
    // Anchor 1 on the boundary β_1 = σ_c² makes pairs (1, ·) uninformative, but with a third
    // anchor the pair (2, 3) still recovers everything (Corollary 1).
    let sigma_c2: f64 = 0.8;
    let sigma_a1 = 1.0;
    let rho1 = sigma_c2.sqrt() / sigma_a1; // β_1 = ρ_1 σ_a1 σ_c = σ_c²
    let pm = Params {
        sigma_c2,
        rho: vec![rho1, 0.7, 0.5],
        sigma_a: vec![sigma_a1, 0.6, 0.7],
        ..Params::default()
    };
    let mom = Moments::from_cov(&pm.population_cov(), pm.p, JudgePairs::All).unwrap();
    let est = closed_form(&mom);
    let zero = est
        .flags
        .iter()
        .filter(|f| f.code.as_str() == "zero_denominator")
        .count();
    assert_eq!(zero, 2);
    assert!((est.sigma_t2 - 1.0).abs() < 1e-9);
    assert!((est.anchors[0].rho.unwrap() - rho1).abs() < 1e-9);
}
