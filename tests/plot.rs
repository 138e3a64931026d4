//! `rhoscope plot`: every kind draws an SVG whose bytes are fixed by the seed (identical at
//! any thread count), the renderer's output is snapshotted, the figures carry what they claim
//! (anchors, estimators, truth, the tests that ran), the boundary study is centred where the
//! model is identified, and bad requests get one-line errors with exit code 2.
#![cfg(feature = "cli")]

mod common;

use common::{run, run_env, write};
use rhoscope::bootstrap::Interval;
use rhoscope::model::Params;
use rhoscope::plot::{self, BoundaryOptions, Figure, RhoFigure, RhoSeries};
use rhoscope::progress::Flow;

fn fixed_figure() -> RhoFigure {
    RhoFigure {
        title: "Contamination ρ̂ per anchor: fixed".into(),
        anchors: vec!["A1".into(), "A2".into(), "A3".into()],
        series: vec![
            RhoSeries {
                label: "closed form".into(),
                rho: vec![Some(0.31), Some(0.68), None],
                interval: vec![
                    Some(Interval { lo: 0.1, hi: 0.5 }),
                    None,
                    Some(Interval { lo: 0.2, hi: 0.6 }),
                ],
                draws: vec![vec![0.3, 0.32], vec![0.7], vec![]],
                resamples: 2,
            },
            RhoSeries {
                label: "free-scale".into(),
                rho: vec![Some(0.25), Some(0.74), Some(2.5)],
                interval: vec![Some(Interval { lo: -0.2, hi: 0.6 }), None, None],
                draws: vec![vec![0.2, 0.3], vec![0.7, 0.8], vec![2.4]],
                resamples: 2,
            },
        ],
        truth: Some(vec![0.3, 0.7, 0.5]),
    }
}

#[test]
fn the_rho_figure_is_a_fixed_svg() {
    let svg = Figure::Rho(fixed_figure()).svg().expect("draws");
    assert!(svg.starts_with("<svg"), "an SVG document");
    assert_eq!(svg, Figure::Rho(fixed_figure()).svg().unwrap());
    insta::assert_snapshot!("rho_fixed", svg);
}

#[test]
fn the_rho_figure_names_what_it_draws() {
    let svg = Figure::Rho(fixed_figure()).svg().unwrap();
    for text in [
        "A1",
        "A2",
        "A3",
        "closed form (B = 2)",
        "free-scale (B = 2)",
        "truth (simulated)",
    ] {
        assert!(svg.contains(text), "missing {text}");
    }
    // An undefined interval is drawn hollow and said so; the value beyond ±2 is cut and said so.
    assert!(svg.contains("hollow marker: CI undefined"));
    assert!(svg.contains("undefined: ρ̂ inadmissible"));
    assert!(svg.contains("values beyond ±2 at the frame"));
    // Colour-blind-safe palette: the two series in Okabe–Ito orange and blue.
    assert!(svg.contains("#E69F00"), "orange series");
    assert!(svg.contains("#0072B2"), "blue series");
}

#[test]
fn an_empty_figure_is_an_error_not_a_blank_file() {
    let mut f = fixed_figure();
    f.anchors.clear();
    assert!(Figure::Rho(f.clone()).svg().is_err());
    f.anchors = vec!["A1".into()];
    f.series.iter_mut().for_each(|s| s.draws = vec![vec![]]);
    assert!(Figure::Bootstrap(f).svg().is_err());
}

#[test]
fn every_kind_is_the_same_bytes_at_one_and_two_threads() {
    let dir = tempfile::tempdir().unwrap();
    let quick: &[(&str, &[&str])] = &[
        (
            "rho",
            &[
                "--preset",
                "three-anchor",
                "--n",
                "300",
                "--bootstrap",
                "100",
            ],
        ),
        ("bootstrap", &["--n", "300", "--bootstrap", "100"]),
        (
            "battery",
            &[
                "--preset",
                "families",
                "--n",
                "300",
                "--bootstrap",
                "100",
                "--null-draws",
                "60",
            ],
        ),
        (
            "power",
            &["--ns", "100,300", "--reps", "20", "--null-draws", "40"],
        ),
        ("boundary", &["--n", "300", "--reps", "10"]),
    ];
    for (kind, args) in quick {
        let mut outs = Vec::new();
        for threads in ["1", "2"] {
            let mut a = vec!["plot", kind, "--seed", "5", "-o", "-"];
            a.extend_from_slice(args);
            let r = run_env(dir.path(), &a, &[("RAYON_NUM_THREADS", threads)]);
            assert_eq!(r.code, 0, "{kind}: {}", r.stderr);
            assert!(r.stdout.starts_with("<svg"), "{kind}: an SVG on stdout");
            outs.push(r.stdout);
        }
        assert_eq!(
            outs[0], outs[1],
            "{kind}: bytes differ between 1 and 2 threads"
        );
    }
}

#[test]
fn the_battery_figure_has_a_panel_per_test_that_ran() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &[
            "plot",
            "battery",
            "--preset",
            "families",
            "--n",
            "400",
            "--null-draws",
            "50",
            "--bootstrap",
            "100",
            "-o",
            "b.svg",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let svg = std::fs::read_to_string(dir.path().join("b.svg")).unwrap();
    // Families, two anchors: Tests A, C and J run; B and O need three anchors.
    for t in ["Test A:", "Test C:", "Test J:"] {
        assert!(svg.contains(t), "missing {t}");
    }
    assert!(!svg.contains("Test B:") && !svg.contains("Test O:"));
    assert!(svg.contains("95th percentile (threshold)"));
}

#[test]
fn the_figure_reads_a_panel_file() {
    let dir = tempfile::tempdir().unwrap();
    let s = run(
        dir.path(),
        &[
            "simulate",
            "--preset",
            "three-anchor",
            "--n",
            "300",
            "--seed",
            "2",
            "-o",
            "p.csv",
        ],
    );
    assert_eq!(s.code, 0, "{}", s.stderr);
    let r = run(
        dir.path(),
        &["plot", "rho", "p.csv", "--bootstrap", "100", "-o", "r.svg"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let svg = std::fs::read_to_string(dir.path().join("r.svg")).unwrap();
    assert!(svg.contains("p.csv"), "the title names the file");
    assert!(
        !svg.contains("truth (simulated)"),
        "no truth for a real file"
    );
}

#[test]
fn bad_requests_are_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let png = run(dir.path(), &["plot", "rho", "-o", "fig.png"]);
    assert_eq!(png.code, 2);
    assert!(png.stderr.contains("SVG only"), "{}", png.stderr);
    write(dir.path(), "old.svg", b"keep me");
    let exists = run(
        dir.path(),
        &[
            "plot",
            "rho",
            "--n",
            "200",
            "--bootstrap",
            "100",
            "-o",
            "old.svg",
        ],
    );
    assert_eq!(exists.code, 2);
    assert!(exists.stderr.contains("--force"), "{}", exists.stderr);
    assert_eq!(
        std::fs::read(dir.path().join("old.svg")).unwrap(),
        b"keep me"
    );
    let forced = run(
        dir.path(),
        &[
            "plot",
            "rho",
            "--n",
            "200",
            "--bootstrap",
            "100",
            "-o",
            "old.svg",
            "--force",
        ],
    );
    assert_eq!(forced.code, 0, "{}", forced.stderr);
    write(dir.path(), "p.csv", b"J1,J2,J3,A1,A2\n1,2,3,4,5\n");
    let scenario_only = run(dir.path(), &["plot", "power", "p.csv", "-o", "x.svg"]);
    assert_eq!(scenario_only.code, 2);
    assert!(
        scenario_only.stderr.contains("scenario"),
        "{}",
        scenario_only.stderr
    );
    let kind = run(dir.path(), &["plot", "pie", "-o", "x.svg"]);
    assert_eq!(kind.code, 2);
    let strength = run(
        dir.path(),
        &["plot", "power", "--strength", "0", "-o", "x.svg"],
    );
    assert_eq!(strength.code, 2);
    for r in [&png, &exists, &scenario_only, &strength] {
        assert_eq!(
            r.stderr.trim_end().lines().count(),
            1,
            "one line: {}",
            r.stderr
        );
    }
}

#[test]
fn the_boundary_denominator_is_corollary_one() {
    // σ_c² = 0.8, σ_a = (0.9, 0.6), ρ = (0.95, 0.5): β_k = ρ_k σ_ak σ_c, by hand.
    let pm = Params {
        rho: vec![0.95, 0.5],
        sigma_a: vec![0.9, 0.6],
        ..Params::default()
    };
    let sc = 0.8f64.sqrt();
    let (b1, b2) = (0.95 * 0.9 * sc, 0.5 * 0.6 * sc);
    let want = (0.8 - b1) * (0.8 - b2) / 0.8;
    assert!((plot::boundary_denominator(&pm) - want).abs() < 1e-12);
}

#[test]
fn far_from_the_boundary_the_median_is_the_truth() {
    let opts = BoundaryOptions {
        base: Params {
            rho: vec![0.4, 0.5],
            sigma_a: vec![0.9, 0.6],
            ..Params::default()
        },
        rho1: vec![0.4, 0.99],
        n: 2000,
        reps: 100,
        seed: 11,
    };
    let pts = plot::boundary_study(&opts, &|_| Flow::Continue)
        .unwrap()
        .unwrap();
    let far = &pts[0];
    // The sample median's SE is about 1.2533 SD/√reps; allow 4 of them.
    let tol = 4.0 * 1.2533 * far.sd / (opts.reps as f64).sqrt();
    assert!(
        (far.quantiles[2] - 0.4).abs() < tol,
        "median {} vs 0.4 ± {tol}",
        far.quantiles[2]
    );
    assert_eq!(far.undefined, 0);
    // At ρ_1 = 0.99 the denominator has nearly vanished.
    assert!(pts[1].denominator.abs() < 0.01 * far.denominator.abs());
}
