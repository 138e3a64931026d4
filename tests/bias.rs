//! The free-scale estimate's parametric-bootstrap bias correction (Section 7): deterministic
//! and identical at any thread count, ρ̃ = ρ̂ − bias, a bias within Monte-Carlo error of zero
//! where the estimator is consistent (large N), and the command line.

use rhoscope::estimate::bias::correct;
use rhoscope::estimate::free_scale::fit_panel;
use rhoscope::model::{Discretise, Params};
use rhoscope::progress::silent;
use rhoscope::rng::Streams;

fn panel(pm: &Params, n: usize, seed: u64) -> rhoscope::panel::Panel {
    rhoscope::simulate::simulate(pm, n, seed).unwrap()
}

#[test]
fn the_correction_is_identical_at_one_and_two_threads() {
    let mut pm = Params::three_anchor();
    pm.p = 3;
    pm.rho = vec![0.0, 0.4, 0.7];
    pm.violations.ordinal = (0..3)
        .map(|j| (j, Discretise::equal_probability(5)))
        .collect();
    let p = panel(&pm, 431, 5);
    let (fit, _) = fit_panel(&p).unwrap();
    let at = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                correct(&p, &fit, 40, Streams::of(3), &silent)
                    .unwrap()
                    .unwrap()
            })
    };
    let (one, two) = (at(1), at(2));
    assert_eq!(one, two);
    let raw = fit.estimate.rho();
    for (k, r) in raw.iter().enumerate() {
        let (r, b, c) = (r.unwrap(), one.bias[k].unwrap(), one.corrected[k].unwrap());
        assert_eq!(c, r - b);
        assert!(one.admissible[k] >= 32, "{one:?}");
    }
}

#[test]
fn at_large_n_the_measured_bias_is_zero_within_monte_carlo_error() {
    // Judges on unequal scales (the free-scale model holds), N = 20 000: the estimator is
    // consistent, so the bias over 100 refits is 0 up to its stated MC SE (4 SE allowed).
    let mut pm = Params::three_anchor();
    pm.violations.judge_scale = vec![0.6, 0.8, 1.0, 1.2, 1.5, 1.8];
    let p = panel(&pm, 20_000, 11);
    let (fit, _) = fit_panel(&p).unwrap();
    let b = correct(&p, &fit, 100, Streams::of(2027), &silent)
        .unwrap()
        .unwrap();
    for k in 0..3 {
        let (bias, se) = (b.bias[k].unwrap(), b.bias_se[k].unwrap());
        assert!(se > 0.0 && se < 0.01, "anchor {k}: SE {se}");
        assert!(bias.abs() <= 4.0 * se, "anchor {k}: bias {bias} ± {se}");
    }
}

#[cfg(feature = "cli")]
#[test]
fn the_command_line_reports_the_correction_and_refuses_it_without_free_scale() {
    let dir = std::env::temp_dir().join(format!("rhoscope-bias-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("p.csv");
    let mut pm = Params::three_anchor();
    pm.violations.judge_scale = vec![0.6, 0.8, 1.0, 1.2, 1.5, 1.8];
    let mut out = Vec::new();
    // N = 20 000 identifies the free-scale point; at N = 800 only a set is identified.
    panel(&pm, 20_000, 3).write_csv(&mut out).unwrap();
    std::fs::write(&file, out).unwrap();
    let bin = env!("CARGO_BIN_EXE_rhoscope");
    let run = |args: &[&str]| {
        std::process::Command::new(bin)
            .arg("estimate")
            .arg(&file)
            .args(args)
            .output()
            .unwrap()
    };
    let ok = run(&[
        "--method",
        "free-scale",
        "--bias-correct",
        "--bias-reps",
        "20",
        "--json",
    ]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let doc: serde_json::Value = serde_json::from_slice(&ok.stdout).unwrap();
    let bc = &doc["free_scale"]["bias_correction"];
    assert_eq!(bc["reps"], 20);
    assert_eq!(bc["corrected"].as_array().unwrap().len(), 3);
    // Which of ρ̂ and ρ̃ to read is one constant, carried by the JSON and printed by the text.
    let advice = rhoscope::report::estimate::BIAS_READ_ADVICE;
    assert!(advice.starts_with("Read ρ̃ when") && advice.contains("otherwise read ρ̂"));
    assert_eq!(bc["advice"], advice);
    let text = run(&[
        "--method",
        "free-scale",
        "--bias-correct",
        "--bias-reps",
        "20",
    ]);
    assert!(String::from_utf8_lossy(&text.stdout).contains(advice));
    let mut small = Vec::new();
    panel(&pm, 800, 3).write_csv(&mut small).unwrap();
    std::fs::write(&file, small).unwrap();
    let ridge = run(&[
        "--method",
        "free-scale",
        "--bias-correct",
        "--bias-reps",
        "20",
    ]);
    assert!(ridge.status.success());
    let text = String::from_utf8_lossy(&ridge.stdout);
    assert!(text.contains("bias correction not possible"), "{text}");
    let bad = run(&["--bias-correct"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--method free-scale"));
    std::fs::remove_dir_all(&dir).ok();
}
