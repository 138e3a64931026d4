//! The free-scale estimator of docs/method.md §7: exact inversion of population moments (any judge
//! scales), agreement with Theorem 1 at unit scales, and recovery by simulation.

use nalgebra::DMatrix;
use proptest::prelude::*;
use rhoscope::estimate::closed_form;
use rhoscope::estimate::free_scale::{FreeScaleFit, fit, fit_panel};
use rhoscope::model::{Discretise, Params};
use rhoscope::moments::{JudgePairs, Moments};
use rhoscope::panel::Panel;
use rhoscope::simulate::{Design, replicates};

/// (R, r_JA, P) from the population covariance: correlations for the judges, covariances for
/// the anchors.
fn population_input(pm: &Params) -> (DMatrix<f64>, DMatrix<f64>, DMatrix<f64>) {
    let s = pm.population_cov();
    let (p, m) = (pm.p, pm.m());
    let sd: Vec<f64> = (0..p + m).map(|i| s[(i, i)].sqrt()).collect();
    let corr = DMatrix::from_fn(p + m, p + m, |i, j| s[(i, j)] / (sd[i] * sd[j]));
    (
        corr.view((0, 0), (p, p)).into_owned(),
        corr.view((0, p), (p, m)).into_owned(),
        s.view((p, p), (m, m)).into_owned(),
    )
}

fn population_fit(pm: &Params) -> FreeScaleFit {
    let (r, rja, pa) = population_input(pm);
    fit(&r, &rja, &pa).unwrap()
}

fn params_strategy() -> impl Strategy<Value = Params> {
    (3usize..=10, 3usize..=6).prop_flat_map(|(p, m)| {
        (
            0.5f64..2.0,
            0.3f64..1.5,
            prop::collection::vec(0.4f64..1.8, p),
            prop::collection::vec(0.3f64..1.5, p),
            prop::collection::vec(-0.8f64..0.85, m),
            prop::collection::vec(0.4f64..1.0, m),
        )
            .prop_map(move |(st, sc, a, jv, rho, sa)| {
                let mut pm = Params {
                    sigma_t2: st,
                    sigma_c2: sc,
                    p,
                    judge_var: jv,
                    rho,
                    sigma_a: sa,
                    ..Params::default()
                };
                pm.violations.judge_scale = a;
                pm
            })
    })
}

proptest! {
    // Fixed seed: the same 64 cases every run (stress-tested at 2000 random-seed cases ×
    // several runs while developing).
    #![proptest_config(ProptestConfig {
        cases: 64,
        rng_seed: proptest::test_runner::RngSeed::Fixed(2026),
        ..ProptestConfig::default()
    })]

    /// docs/method.md §7: with any judge scales a_j the estimator inverts the population moments.
    #[test]
    fn inverts_population_moments_for_any_judge_scales(pm in params_strategy()) {
        pm.validate().unwrap();
        let f = population_fit(&pm);
        let e = &f.estimate;
        prop_assert!(f.misfit < 1e-20, "misfit {}", f.misfit);
        prop_assert!((e.sigma_t2 - pm.sigma_t2).abs() < 1e-9, "σ_t² {} vs {}", e.sigma_t2, pm.sigma_t2);
        prop_assert!((e.sigma_c2 - pm.sigma_c2).abs() < 1e-9, "σ_c² {} vs {}", e.sigma_c2, pm.sigma_c2);
        for (k, b) in pm.beta().iter().enumerate() {
            prop_assert!((e.anchors[k].beta - b).abs() < 1e-9, "β_{k}");
            let rho = e.anchors[k].rho.unwrap();
            prop_assert!((rho - pm.rho[k]).abs() < 1e-9, "ρ_{k}: {rho} vs {}", pm.rho[k]);
        }
        prop_assert!(f.judge_rms < 1e-9);
        prop_assert!(e.flags.is_empty(), "{:?}", e.flags);
    }

    /// With a_j = 1 the free-scale estimate equals Theorem 1's on population moments.
    #[test]
    fn unit_scales_agree_with_theorem_1(mut pm in params_strategy()) {
        pm.violations.judge_scale.clear();
        let f = population_fit(&pm);
        let mom = Moments::from_cov(&pm.population_cov(), pm.p, JudgePairs::All).unwrap();
        let cf = closed_form(&mom);
        prop_assert!((f.estimate.sigma_t2 - cf.sigma_t2).abs() < 1e-9);
        prop_assert!((f.estimate.k - cf.k).abs() < 1e-9);
        for (a, b) in f.estimate.rho().iter().zip(cf.rho()) {
            prop_assert!((a.unwrap() - b.unwrap()).abs() < 1e-9);
        }
    }
}

#[test]
fn refuses_too_few_judges_or_anchors() {
    let pm = Params {
        rho: vec![0.3, 0.7],
        ..Params::default()
    };
    let (r, rja, pa) = population_input(&pm);
    assert!(
        fit(&r, &rja, &pa)
            .unwrap_err()
            .to_string()
            .contains("at least 3 continuous anchors")
    );
    let pm = Params {
        p: 2,
        rho: vec![0.3, 0.7, 0.5],
        sigma_a: vec![0.5, 0.6, 0.7],
        ..Params::default()
    };
    let (r, rja, pa) = population_input(&pm);
    assert!(
        fit(&r, &rja, &pa)
            .unwrap_err()
            .to_string()
            .contains("at least 3 judges")
    );
}

/// Mean and Monte-Carlo standard error (SD/√reps, SD with divisor reps − 1) of one anchor's ρ̂.
fn mean_se(values: &[f64]) -> (f64, f64) {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

fn three_anchor(scales: Vec<f64>) -> Params {
    let mut pm = Params {
        rho: vec![0.3, 0.7, 0.5],
        sigma_a: vec![0.5, 0.6, 0.7],
        ..Params::default()
    };
    pm.violations.judge_scale = scales;
    pm
}

/// Runs `reps` replicates of `pm` at `n` items and returns, per replicate, the free-scale
/// and the closed-form ρ̂ (both defined in every replicate of these designs).
fn replicate_fits(pm: &Params, n: usize, seed: u64, reps: u64) -> Vec<(Vec<f64>, Vec<f64>)> {
    let design = Design::new(pm).unwrap();
    let names = pm.column_names();
    let (jn, an) = names.split_at(pm.p);
    replicates(&design, n, seed, reps, |_, data| {
        let panel = Panel::new(n, data.to_vec(), jn.to_vec(), an.to_vec());
        let (f, _) = fit_panel(&panel).unwrap();
        let mom = Moments::from_data(data, n, pm.p, JudgePairs::All, &mut Vec::new()).unwrap();
        let cf = closed_form(&mom);
        (
            f.estimate.rho().iter().map(|r| r.unwrap()).collect(),
            cf.rho().iter().map(|r| r.unwrap_or(f64::NAN)).collect(),
        )
    })
}

/// Continuous judges on unequal scales a = (0.5, 0.7, 1.0, 1.0, 1.4, 1.8): Theorem 1 is
/// biased (its K and M_k mix the scales), the free-scale estimate is not. N = 4000, 100
/// replicates, seed 2026; the tolerance is 4 Monte-Carlo SEs of the mean (SE = SD/√100 from
/// the replicates themselves), so a correct estimator fails it with probability < 1e-4 per
/// anchor. Measured: free-scale (0.291, 0.693, 0.497) ± (0.011, 0.005, 0.006); Theorem 1
/// (0.509, 0.803, 0.631) ± (0.003, 0.002, 0.002).
#[test]
fn unequal_continuous_scales_free_scale_recovers_theorem_1_does_not() {
    let pm = three_anchor(vec![0.5, 0.7, 1.0, 1.0, 1.4, 1.8]);
    let fits = replicate_fits(&pm, 4000, 2026, 100);
    for k in 0..3 {
        let fs: Vec<f64> = fits.iter().map(|f| f.0[k]).collect();
        let cf: Vec<f64> = fits.iter().map(|f| f.1[k]).collect();
        let (m_fs, se_fs) = mean_se(&fs);
        let (m_cf, se_cf) = mean_se(&cf);
        let truth = pm.rho[k];
        eprintln!(
            "unequal scales ρ_{k} = {truth}: free-scale {m_fs:.4} ± {se_fs:.4}, Theorem 1 {m_cf:.4} ± {se_cf:.4}"
        );
        assert!(
            (m_fs - truth).abs() <= 4.0 * se_fs,
            "free-scale ρ̂_{k}: mean {m_fs:.4} ± {se_fs:.4} vs {truth}"
        );
        // Theorem 1's bias at these scales is far outside its own MC error.
        assert!(
            (m_cf - truth).abs() > 10.0 * se_cf,
            "closed-form ρ̂_{k}: mean {m_cf:.4} ± {se_cf:.4} vs {truth} — expected a bias"
        );
    }
}

/// Ordinal judges: six 5-level judges (equal-probability cuts of a_j (t + c) + e_j, scales
/// as above) and three continuous anchors, the design of Section 7's positive result.
/// `n` items, `reps` replicates, seed 7; tolerance 4 MC SEs of the mean (SD/√reps).
fn ordinal_recovery(n: usize, reps: u64) {
    let mut pm = three_anchor(vec![0.5, 0.7, 1.0, 1.0, 1.4, 1.8]);
    pm.violations.ordinal = (0..6)
        .map(|j| (j, Discretise::equal_probability(5)))
        .collect();
    let fits = replicate_fits(&pm, n, 7, reps);
    for k in 0..3 {
        let fs: Vec<f64> = fits.iter().map(|f| f.0[k]).collect();
        let (m, se) = mean_se(&fs);
        let sd = se * (fs.len() as f64).sqrt();
        eprintln!(
            "ordinal judges N = {n}: ρ_{k} = {}: {m:.4} ± {se:.4} (SD {sd:.4})",
            pm.rho[k]
        );
        assert!(
            (m - pm.rho[k]).abs() <= 4.0 * se,
            "ordinal judges, N = {n}: ρ̂_{k} mean {m:.4} ± {se:.4} vs {}",
            pm.rho[k]
        );
    }
}

/// Section 7's size, N = 4000 (measured: (0.328, 0.711, 0.517) ± (0.015, 0.006, 0.008),
/// replicate SDs (0.114, 0.049, 0.063) against the paper's (0.129, 0.078, 0.103)).
#[test]
fn ordinal_judges_recover_rho_at_n_4000() {
    ordinal_recovery(4000, 60);
}

/// N = 40 000, 100 replicates (about 1.5 s in the dev profile). Measured:
/// (0.297, 0.699, 0.499) ± (0.004, 0.002, 0.002).
#[test]
fn ordinal_judges_recover_rho_at_n_40000() {
    ordinal_recovery(40_000, 100);
}

/// The simulator's judge scales match `population_cov`: N = 20 000, seed 3, a = (0.5, 1, 1.8).
/// Each sample covariance has SD √((σ_ii σ_jj + σ_ij²)/(N − 1)) under normality; every entry
/// must lie within 5 of them.
#[test]
fn simulated_judge_scales_match_population_cov() {
    let mut pm = three_anchor(vec![0.5, 1.0, 1.8]);
    pm.p = 3;
    let n = 20_000;
    let panel = rhoscope::simulate::simulate(&pm, n, 3).unwrap();
    let (s, pop) = (panel.covariance(), pm.population_cov());
    for i in 0..6 {
        for j in 0..6 {
            let sd = ((pop[(i, i)] * pop[(j, j)] + pop[(i, j)].powi(2)) / (n as f64 - 1.0)).sqrt();
            assert!(
                (s[(i, j)] - pop[(i, j)]).abs() <= 5.0 * sd,
                "({i}, {j}): sample {} vs population {}",
                s[(i, j)],
                pop[(i, j)]
            );
        }
    }
    // a_1 = 0.5 scales the judge's t + c part: Cov(J_1, J_3) = a_1 a_3 K.
    assert!((pop[(0, 2)] - 0.5 * 1.8 * 1.8).abs() < 1e-12);
}

#[test]
fn fit_panel_refuses_ordinal_anchors_and_small_panels() {
    let mut pm = three_anchor(Vec::new());
    pm.violations.ordinal = vec![(7, Discretise::equal_probability(5))];
    let panel = rhoscope::simulate::simulate(&pm, 500, 1).unwrap();
    let e = fit_panel(&panel).unwrap_err().to_string();
    assert!(e.contains("'A2' is ordinal"), "{e}");
    let mut pm = three_anchor(Vec::new());
    pm.p = 2;
    let panel = rhoscope::simulate::simulate(&pm, 500, 1).unwrap();
    assert!(
        fit_panel(&panel)
            .unwrap_err()
            .to_string()
            .contains("at least 3 judges")
    );
    let pm = Params::default();
    let panel = rhoscope::simulate::simulate(&pm, 500, 1).unwrap();
    assert!(
        fit_panel(&panel)
            .unwrap_err()
            .to_string()
            .contains("at least 3 continuous anchors")
    );
}
