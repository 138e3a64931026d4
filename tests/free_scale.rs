//! The free-scale estimator of SPEC §7: exact inversion of population moments (any judge
//! scales), agreement with Theorem 1 at unit scales, and recovery by simulation.

use nalgebra::DMatrix;
use proptest::prelude::*;
use rhoscope::estimate::closed_form;
use rhoscope::estimate::free_scale::{FreeScaleFit, fit};
use rhoscope::model::Params;
use rhoscope::moments::{JudgePairs, Moments};

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
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// SPEC §7: with any judge scales a_j the estimator inverts the population moments.
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
            .contains("at least 3 judges")
    );
}
