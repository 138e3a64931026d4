//! The effective number of judges: its bootstrap interval against an independent gather
//! oracle at a fixed seed, bit-identity at any thread count, and its place in the reports.

mod common;

use rand::RngExt;
use rhoscope::model::Params;
use rhoscope::neff::Neff;
use rhoscope::rng::{Purpose, Streams, stream_rng};

fn panel(n: usize, seed: u64) -> rhoscope::panel::Panel {
    rhoscope::simulate::simulate(&Params::default(), n, seed).expect("the base design is valid")
}

/// Pearson correlation of two columns, written out (not the library's moments).
fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    sxy / (sxx * syy).sqrt()
}

/// The bootstrap as the definition says it: resample b gathers the items that stream b of
/// `Purpose::Bootstrap` draws, r̄ is the mean pairwise Pearson correlation of the gathered
/// judge columns, n_eff = p / (1 + (p − 1) r̄); the interval is the 2.5 % and 97.5 %
/// percentiles with linear interpolation (numpy's default), written out here.
fn oracle(panel: &rhoscope::panel::Panel, b: usize, seed: u64) -> (f64, f64) {
    let (n, p) = (panel.n, panel.p());
    let mut values: Vec<f64> = (0..b)
        .map(|r| {
            let mut rng = stream_rng(seed, Purpose::Bootstrap, r as u64);
            let idx: Vec<usize> = (0..n).map(|_| rng.random_range(0..n)).collect();
            let cols: Vec<Vec<f64>> = (0..p)
                .map(|j| idx.iter().map(|&i| panel.col(j)[i]).collect())
                .collect();
            let mut sum = 0.0;
            for j in 0..p {
                for k in j + 1..p {
                    sum += pearson(&cols[j], &cols[k]);
                }
            }
            let r_bar = sum / (p * (p - 1) / 2) as f64;
            p as f64 / (1.0 + (p as f64 - 1.0) * r_bar)
        })
        .collect();
    values.sort_by(f64::total_cmp);
    let q = |q: f64| {
        let h = (values.len() - 1) as f64 * q;
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "0 ≤ h < len"
        )]
        let lo = h.floor() as usize;
        let hi = (lo + 1).min(values.len() - 1);
        values[lo] + (h - lo as f64) * (values[hi] - values[lo])
    };
    (q(0.025), q(0.975))
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
        .install(f)
}

#[test]
fn the_interval_at_a_fixed_seed_is_the_gathered_bootstraps_at_any_thread_count() {
    let panel = panel(400, 5);
    let run = |t| {
        in_pool(t, || {
            rhoscope::bootstrap::neff_with_bootstrap(&panel, 200, Streams::of(17))
        })
    };
    let one: Neff = run(1);
    assert_eq!(one, run(3), "bit-identical at 1 and 3 threads");
    let boot = one.boot.as_ref().unwrap();
    assert_eq!((boot.resamples, boot.dropped, boot.seed), (200, 0, 17));
    let ci = boot.ci.unwrap();
    let (lo, hi) = oracle(&panel, 200, 17);
    // Sums of products in another order: agreement to rounding.
    assert!(
        (ci.lo - lo).abs() < 1e-10 && (ci.hi - hi).abs() < 1e-10,
        "{ci:?} vs {lo} {hi}"
    );
    // The point estimate is the oracle's formula on the whole panel.
    let p = panel.p();
    let mut sum = 0.0;
    for j in 0..p {
        for k in j + 1..p {
            sum += pearson(panel.col(j), panel.col(k));
        }
    }
    let r_bar = sum / 15.0;
    assert!((one.r_bar.unwrap() - r_bar).abs() < 1e-12);
    assert!((one.n_eff.unwrap() - 6.0 / (1.0 + 5.0 * r_bar)).abs() < 1e-12);
    // Another seed draws other resamples.
    let other = rhoscope::bootstrap::neff_with_bootstrap(&panel, 200, Streams::of(18));
    assert_ne!(other.boot.unwrap().ci, boot.ci);
}

#[test]
fn a_large_panel_interval_covers_the_population_value_at_a_fixed_seed() {
    // Base design: judge variance σ_t² + σ_c² + 1 = 2.8, covariance σ_t² + σ_c² = 1.8, so
    // r = 1.8/2.8 and n_eff = 6 / (1 + 5r) = 1.4237 (a fixed seed: this is a sanity check of
    // one 95 % interval, not a coverage study).
    let r: f64 = 1.8 / 2.8;
    let truth = 6.0 / (1.0 + 5.0 * r);
    let n = rhoscope::bootstrap::neff_with_bootstrap(&panel(4000, 3), 300, Streams::of(1));
    let ci = n.boot.unwrap().ci.unwrap();
    assert!(ci.contains(truth), "{ci:?} ∌ {truth}");
    assert!(ci.width() < 0.1, "{ci:?}");
}

#[test]
fn one_judge_has_no_interval() {
    // The base panel's first judge and its two anchors.
    let base = panel(50, 1);
    let mut data = base.col(0).to_vec();
    data.extend_from_slice(&base.data[6 * 50..]);
    let panel = rhoscope::panel::Panel {
        data,
        judges: vec!["J1".into()],
        scales: vec![rhoscope::panel::Scale::Continuous; 3],
        missing: vec![0; 3],
        families: None,
        ..base
    };
    assert_eq!((panel.p(), panel.m()), (1, 2));
    let n = rhoscope::bootstrap::neff_with_bootstrap(&panel, 50, Streams::of(1));
    assert_eq!(
        (n.n_eff, n.r_bar, n.boot.is_none()),
        (Some(1.0), None, true)
    );
    assert_eq!(
        rhoscope::report::neff::sentence(&n),
        "1 judge ≈ 1.00 independent vote"
    );
}

#[cfg(feature = "cli")]
#[test]
fn estimate_and_battery_report_it_in_text_and_json() {
    let root = common::root();
    let r = common::run(&root, &["estimate", "assets/mid.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("Effective number of judges: 6 judges ≈ "),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("squared one-factor loading): J1 "));
    let r = common::run(&root, &["battery", "assets/mid.csv", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let o = &v["n_eff"];
    assert_eq!(o["p"], 6);
    let (value, ci) = (o["value"].as_f64().unwrap(), o["ci"].as_array().unwrap());
    assert!(ci[0].as_f64().unwrap() < value && value < ci[1].as_f64().unwrap());
    assert_eq!(o["bootstrap"]["seed"], 1);
    assert_eq!(o["shares"].as_array().unwrap().len(), 6);
    assert_eq!(o["shares"][0]["judge"], "J1");
    let r = common::run(&root, &["battery", "assets/mid.csv"]);
    assert!(r.stdout.contains("independent votes ["), "{}", r.stdout);
}
