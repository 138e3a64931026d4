//! Full-information ML against the closed form: both recover the truth from population
//! moments to 1e-6; they agree within Monte-Carlo error on simulated data; ML recovers the
//! truth from a start far from it.

use nalgebra::DMatrix;
use rhoscope::estimate::{closed_form, ml};
use rhoscope::model::Params;
use rhoscope::moments::{JudgePairs, Moments, covariance};
use rhoscope::scenario::preset;
use rhoscope::simulate::{Design, replicates};

fn assert_truth(pm: &Params, est: &rhoscope::estimate::Estimate, tol: f64, what: &str) {
    assert!(
        (est.sigma_t2 - pm.sigma_t2).abs() < tol,
        "{what}: σ_t² {}",
        est.sigma_t2
    );
    assert!((est.sigma_c2 - pm.sigma_c2).abs() < tol, "{what}: σ_c²");
    for (a, r) in est.anchors.iter().zip(&pm.rho) {
        assert!(
            (a.rho.unwrap() - r).abs() < tol,
            "{what}: ρ {:?} vs {r}",
            a.rho
        );
    }
}

#[test]
fn both_recover_the_truth_from_population_moments() {
    for name in ["mid", "boundary", "three-anchor"] {
        let pm = preset(name).unwrap();
        let s = pm.population_cov();
        let cf = closed_form(&Moments::from_cov(&s, pm.p, JudgePairs::All).unwrap());
        assert_truth(&pm, &cf, 1e-6, name);
        let fit = ml::fit(&s, pm.p, 2000).unwrap();
        assert!(fit.converged, "{name}");
        assert_truth(&pm, &fit.estimate, 1e-6, name);
        assert!(
            fit.discrepancy.abs() < 1e-10,
            "{name}: F = {}",
            fit.discrepancy
        );
    }
}

#[test]
fn ml_recovers_the_truth_from_a_start_far_away() {
    let pm = Params::default();
    let s = pm.population_cov();
    let start = ml::Start {
        sigma_t2: 3.0,
        sigma_c2: 0.2,
        beta: vec![-0.1, 0.05],
        psi: vec![3.0; 6],
        omega: vec![2.0, 2.0],
    };
    let fit = ml::fit_from(&s, 6, 2000, &start).unwrap();
    assert!(fit.converged);
    assert_truth(&pm, &fit.estimate, 1e-6, "far start");
}

#[test]
fn ml_and_closed_form_agree_within_monte_carlo_error() {
    // Mid design, N = 2000, 64 replicates: the mean difference in ρ̂_2 must be within
    // 4·SD(diff)/√64 of zero, and each method's mean within 4·SD/√64 of the truth.
    let pm = Params::default();
    let design = Design::new(&pm).unwrap();
    let n = 2000;
    let reps = 64;
    let pairs: Vec<(f64, f64)> = replicates(&design, n, 99, reps, |_, data| {
        let s: DMatrix<f64> = covariance(data, n, 8, &mut Vec::new());
        let cf = closed_form(&Moments::from_cov(&s, 6, JudgePairs::All).unwrap());
        let fit = ml::fit(&s, 6, n).unwrap();
        assert!(fit.converged);
        (
            cf.anchors[1].rho.unwrap(),
            fit.estimate.anchors[1].rho.unwrap(),
        )
    });
    let r = reps as f64;
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let sd = |v: &[f64]| {
        let m = mean(v);
        (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0)).sqrt()
    };
    let cf: Vec<f64> = pairs.iter().map(|p| p.0).collect();
    let mlv: Vec<f64> = pairs.iter().map(|p| p.1).collect();
    let diff: Vec<f64> = pairs.iter().map(|p| p.1 - p.0).collect();
    eprintln!(
        "ρ̂_2: closed {:.4} ± {:.4}, ML {:.4} ± {:.4}",
        mean(&cf),
        sd(&cf),
        mean(&mlv),
        sd(&mlv)
    );
    assert!(
        mean(&diff).abs() <= 4.0 * sd(&diff) / r.sqrt(),
        "mean diff {}",
        mean(&diff)
    );
    for v in [&cf, &mlv] {
        assert!((mean(v) - 0.7).abs() <= 4.0 * sd(v) / r.sqrt());
    }
}

#[test]
fn ml_standard_errors_match_the_spread_across_replicates() {
    // The information-matrix SE of ρ̂_2 should match the replicate SD: with 64 replicates the
    // sample SD has relative SE ≈ 1/√(2·63) ≈ 0.09, so the ratio must lie within 1 ± 4·0.09.
    let pm = Params::default();
    let design = Design::new(&pm).unwrap();
    let n = 2000;
    let out: Vec<(f64, f64)> = replicates(&design, n, 7, 64, |_, data| {
        let s = covariance(data, n, 8, &mut Vec::new());
        let fit = ml::fit(&s, 6, n).unwrap();
        (fit.estimate.anchors[1].rho.unwrap(), fit.se.rho[1])
    });
    let rhos: Vec<f64> = out.iter().map(|o| o.0).collect();
    let m = rhos.iter().sum::<f64>() / 64.0;
    let sd = (rhos.iter().map(|x| (x - m).powi(2)).sum::<f64>() / 63.0).sqrt();
    let se = out.iter().map(|o| o.1).sum::<f64>() / 64.0;
    let tol = 4.0 / (2.0f64 * 63.0).sqrt();
    assert!(
        (se / sd - 1.0).abs() < tol,
        "SE {se:.4} vs replicate SD {sd:.4}"
    );
}

/// Issue 11: ML reports σ̂_t² ≤ 0 with the same flag as the closed form (one rule set for
/// every estimator). Σ is the implied covariance (the formulas of `estimate::ml`'s module
/// doc) of θ with σ_t² = −0.4, σ_c² = 1.5, β = (0.3, 0.6), ψ_j = 1, ω_k = 1, which is
/// positive definite, so ML reaches F = 0 at θ itself: a "converged" Heywood fit.
#[test]
fn ml_raises_the_closed_forms_out_of_range_flags() {
    use rhoscope::estimate::FlagCode;
    let (p, st, sc, beta, psi, omega) = (4, -0.4, 1.5, [0.3, 0.6], 1.0, 1.0);
    let q = p + 2;
    let s = DMatrix::from_fn(q, q, |r, c| match (r < p, c < p) {
        (true, true) => st + sc + if r == c { psi } else { 0.0 },
        (true, false) => st + beta[c - p],
        (false, true) => st + beta[r - p],
        (false, false) => st + beta[r - p] * beta[c - p] / sc + if r == c { omega } else { 0.0 },
    });
    assert!(s.clone().cholesky().is_some(), "Σ is positive definite");
    let fit = ml::fit(&s, p, 1000).expect("ML runs");
    assert!(fit.converged);
    assert!(
        (fit.estimate.sigma_t2 - st).abs() < 1e-6,
        "{}",
        fit.estimate.sigma_t2
    );
    assert!(
        fit.estimate.has_flag(FlagCode::SigmaT2Outside0K),
        "{:?}",
        fit.estimate.flags
    );
}

/// The sample covariance (divisor N − 1) of `../shared/data/hanna-llm/hanna_llm_coherence.csv`,
/// judges beluga_13b, orca_platypus_13b, mistral_7b, llama2_13b_chat, chatgpt and anchors
/// human1–3, complete cases (N = 1040).
fn hanna_llm_coherence() -> (DMatrix<f64>, usize, usize) {
    #[rustfmt::skip]
    #[allow(clippy::unreadable_literal)]
    let s = [
        [0.6721830011203864, 0.45819272012186896, 0.36037329746946994, 0.27260424159669633, 0.43329808887514115, 0.3553406065743686, 0.28082336899385424, 0.35140363549455933],
        [0.45819272012186896, 0.5542865318215359, 0.36613851453540935, 0.2773038103452777, 0.4110176180519938, 0.288563801436292, 0.2912008817650108, 0.32506631805730374],
        [0.36037329746946994, 0.36613851453540935, 0.4692829186745903, 0.21662647590932987, 0.3708655987800616, 0.26353511897534604, 0.26699727400607204, 0.24687769497297773],
        [0.27260424159669633, 0.2773038103452777, 0.21662647590932987, 0.48819750895267516, 0.24997891217311505, 0.2240320457540517, 0.20431394536166358, 0.20938826726882453],
        [0.43329808887514115, 0.4110176180519938, 0.3708655987800616, 0.24997891217311505, 0.6975558987973444, 0.35246789723846866, 0.36233680017768016, 0.3105846972125571],
        [0.3553406065743686, 0.288563801436292, 0.26353511897534604, 0.2240320457540517, 0.35246789723846866, 1.8674168949433714, -0.04323684015695534, -0.11652476493669942],
        [0.28082336899385424, 0.2912008817650108, 0.26699727400607204, 0.20431394536166358, 0.36233680017768016, -0.04323684015695534, 1.973495224698281, -0.16757977345080427],
        [0.35140363549455933, 0.32506631805730374, 0.24687769497297773, 0.20938826726882453, 0.3105846972125571, -0.11652476493669942, -0.16757977345080427, 1.8538896498111996],
    ];
    (DMatrix::from_fn(8, 8, |r, c| s[r][c]), 5, 1040)
}

/// Issue 23: on the HANNA-LLM coherence panel the likelihood has no maximum; ML used to print
/// "converged" with σ̂_t² = −161 794, σ̂_c² = +161 794 and ρ̂ = 1.0000 × 3. lavaan 0.6-14 on
/// `rhoscope export hanna_llm_coherence.csv --judges … --anchors human1,human2,human3
/// --continuous all` (`sem(model, data = d, likelihood = "wishart")`) warns "the optimizer warns
/// that a solution has NOT been found!" and stops at σ_t² = −27 655, σ_c² = 27 655, ρ = 1 × 3.
#[test]
fn ml_says_there_is_no_solution_where_the_likelihood_has_no_maximum() {
    use rhoscope::estimate::FlagCode;
    let (s, p, n) = hanna_llm_coherence();
    let fit = ml::fit(&s, p, n).expect("ML runs");
    assert!(!fit.converged);
    assert!(
        fit.estimate.has_flag(FlagCode::NoMlSolution),
        "{:?}",
        fit.estimate.flags
    );
    assert!(fit.estimate.rho().iter().all(Option::is_none));
    assert!(!fit.estimate.has_flag(FlagCode::RhoOutsideUnit));
}

/// A fit at a variance below zero is a Heywood case: flagged, and no ρ̂ is read off it.
#[test]
fn ml_heywood_fit_leaves_every_rho_undefined() {
    use rhoscope::estimate::FlagCode;
    let (p, st, sc, beta, psi, omega) = (4, -0.4, 1.5, [0.3, 0.6], 1.0, 1.0);
    let q = p + 2;
    let s = DMatrix::from_fn(q, q, |r, c| match (r < p, c < p) {
        (true, true) => st + sc + if r == c { psi } else { 0.0 },
        (true, false) => st + beta[c - p],
        (false, true) => st + beta[r - p],
        (false, false) => st + beta[r - p] * beta[c - p] / sc + if r == c { omega } else { 0.0 },
    });
    let fit = ml::fit(&s, p, 1000).expect("ML runs");
    assert!(fit.estimate.has_flag(FlagCode::HeywoodVariance));
    assert!(fit.estimate.rho().iter().all(Option::is_none));
}

/// A judge whose residual variance comes out negative (it correlates with the others beyond
/// what one factor allows) is named by the Heywood flag.
#[test]
fn ml_flags_a_negative_judge_residual_variance() {
    use rhoscope::estimate::FlagCode;
    let pm = Params::default();
    let mut s = pm.population_cov();
    // Judge 1 with ψ_1 = 1 − 1.05 < 0, still positive definite: the model fits it exactly.
    s[(0, 0)] -= 1.05;
    assert!(s.clone().cholesky().is_some());
    let fit = ml::fit(&s, pm.p, 2000).expect("ML runs");
    assert!(fit.converged, "{:?}", fit.estimate.flags);
    let f = fit
        .estimate
        .flags
        .iter()
        .find(|f| f.code == FlagCode::HeywoodVariance)
        .expect("Heywood flag");
    assert_eq!(f.pair, Some((0, 0)));
    assert!(fit.estimate.rho().iter().all(Option::is_none));
}
