//! No quiet wrong numbers: each case where a real panel used to get a confident wrong ρ̂ now
//! gets the true answer or a named refusal, through the built binary.

#![cfg(feature = "cli")]

mod common;

use common::{run, write};
use serde_json::Value;
use std::fmt::Write as _;

fn json(dir: &std::path::Path, args: &[&str]) -> Value {
    let r = run(dir, args);
    assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
    serde_json::from_str(&r.stdout).expect("JSON")
}

fn simulate(dir: &std::path::Path, name: &str, sets: &[&str], n: &str, seed: &str) {
    let mut args = vec![
        "simulate",
        "--preset",
        "three-anchor",
        "--n",
        n,
        "--seed",
        seed,
    ];
    for s in sets {
        args.extend(["--set", s]);
    }
    args.extend(["-o", name]);
    let r = run(dir, &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

fn codes(est: &Value) -> Vec<String> {
    est["flags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn clean_anchors_give_an_identified_set_not_a_free_scale_point() {
    let dir = tempfile::tempdir().unwrap();
    simulate(dir.path(), "clean.csv", &["rho=0,0,0"], "100000", "4");
    let doc = json(
        dir.path(),
        &["estimate", "clean.csv", "--method", "all", "--json"],
    );
    let fs = &doc["free_scale"];
    assert!(codes(fs).contains(&"ridge".to_string()), "{:?}", codes(fs));
    for a in fs["anchors"].as_array().unwrap() {
        assert!(a["rho"].is_null(), "{a}");
    }
    let set = &fs["identified_set"];
    assert_eq!(set["point"], false);
    for r in set["rho"].as_array().unwrap() {
        let (lo, hi) = (r["set"][0].as_f64().unwrap(), r["set"][1].as_f64().unwrap());
        assert!(lo <= 0.0 && 0.0 <= hi, "{r}");
    }
    // The closed form still answers, and near 0.
    for a in doc["estimate"]["anchors"].as_array().unwrap() {
        assert!(a["rho"].as_f64().unwrap().abs() < 0.05, "{a}");
    }
    let id = run(dir.path(), &["identify", "clean.csv"]);
    assert_eq!(id.code, 0, "{}", id.stderr);
    assert!(id.stdout.contains("NOT point-identified"), "{}", id.stdout);
    // The ridge is traced as a family, each range with its identified set.
    assert!(
        id.stdout.contains("the free-scale equal-β ridge")
            && id.stdout.contains("95 % identified set"),
        "{}",
        id.stdout
    );
    let idj = json(dir.path(), &["identify", "clean.csv", "--json"]);
    assert_eq!(
        idj["ridge_family"]["traced"], true,
        "{}",
        idj["ridge_family"]
    );
    let bias = run(
        dir.path(),
        &[
            "estimate",
            "clean.csv",
            "--method",
            "free-scale",
            "--bias-correct",
        ],
    );
    assert!(
        bias.stdout.contains("bias correction not possible"),
        "{}",
        bias.stdout
    );
}

#[test]
fn unequal_judge_scales_with_clean_anchors_never_route_to_a_number() {
    let dir = tempfile::tempdir().unwrap();
    for seed in ["1", "2", "3"] {
        let name = format!("u{seed}.csv");
        simulate(
            dir.path(),
            &name,
            &["rho=0,0,0", "judge_scale=0.6,0.8,1,1.2,1.5,1.8"],
            "5000",
            seed,
        );
        let doc = json(
            dir.path(),
            &[
                "battery",
                &name,
                "--json",
                "--bootstrap",
                "100",
                "--null-draws",
                "200",
            ],
        );
        // Test A guards the closed form; the free-scale fit sits on the ridge.
        assert_eq!(doc["tests"]["A"]["verdict"], "fires", "seed {seed}");
        assert!(
            doc["read"]["estimator"].is_null(),
            "seed {seed}: {}",
            doc["read"]
        );
        for a in doc["free_scale"]["anchors"].as_array().unwrap() {
            assert!(a["rho"].is_null(), "seed {seed}: {a}");
        }
    }
}

/// Three judges correlating .85/.85/.60 and three continuous anchors: the one-factor fit
/// needs a loading above 1.
fn heywood_panel(n: usize) -> String {
    use rand::SeedableRng;
    use rand_distr::{Distribution, StandardNormal};
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
    let mut z = || -> f64 { StandardNormal.sample(&mut rng) };
    let mut out = String::from("J1,J2,J3,A1,A2,A3\n");
    for _ in 0..n {
        let (t, c, d) = (z(), 0.9 * z(), z());
        let f = t + c;
        let j = [
            f + 0.3 * z(),
            f + 0.6 * d + 0.7 * z(),
            f - 0.6 * d + 0.7 * z(),
        ];
        let a = [
            t + 0.5 * z(),
            t + 0.4 * c + 0.5 * z(),
            t + 0.2 * c + 0.6 * z(),
        ];
        let row: Vec<String> = j.iter().chain(&a).map(|x| format!("{x:.5}")).collect();
        out.push_str(&row.join(","));
        out.push('\n');
    }
    out
}

#[test]
fn a_heywood_judge_leaves_the_free_scale_fit_undefined_and_unrouted() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "hey.csv", heywood_panel(2000).as_bytes());
    let doc = json(
        dir.path(),
        &["estimate", "hey.csv", "--method", "free-scale", "--json"],
    );
    let lambda = doc["free_scale"]["lambda"][0].as_f64().unwrap();
    assert!(
        lambda >= 1.0,
        "the design must be a Heywood case: λ1 = {lambda}"
    );
    assert!(codes(&doc["free_scale"]).contains(&"heywood_judge".to_string()));
    assert!(doc["free_scale"]["anchors"][0]["rho"].is_null());
    let b = json(
        dir.path(),
        &[
            "battery",
            "hey.csv",
            "--json",
            "--bootstrap",
            "100",
            "--null-draws",
            "200",
        ],
    );
    assert_ne!(b["read"]["estimator"], "free_scale", "{}", b["read"]);
}

#[test]
fn a_tiny_common_mode_never_reads_as_clean() {
    // True σ_c² = 0.02 with ρ = (0.3, 0.7, 0.5): every free-scale ρ̂ is undefined or its
    // identified set holds the truth.
    let dir = tempfile::tempdir().unwrap();
    for seed in ["1", "2", "3"] {
        let name = format!("c{seed}.csv");
        simulate(dir.path(), &name, &["sigma_c2=0.02", "p=4"], "400", seed);
        let doc = json(
            dir.path(),
            &["estimate", &name, "--method", "free-scale", "--json"],
        );
        let fs = &doc["free_scale"];
        for (k, truth) in [0.3, 0.7, 0.5].into_iter().enumerate() {
            if let Some(r) = fs["anchors"][k]["rho"].as_f64() {
                let set = &fs["identified_set"]["rho"][k]["set"];
                let (lo, hi) = (set[0].as_f64().unwrap(), set[1].as_f64().unwrap());
                assert!(
                    lo <= truth && truth <= hi,
                    "seed {seed} A{k}: ρ̂ {r}, set {set}"
                );
            }
        }
    }
}

#[test]
fn estimate_refuses_where_the_ordinal_hierarchy_does() {
    let dir = tempfile::tempdir().unwrap();
    // Every column a 7-level code.
    simulate(dir.path(), "ord.csv", &["ordinal=all:7"], "2000", "1");
    let r = run(dir.path(), &["estimate", "ord.csv"]);
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("every column is ordinal"), "{}", r.stderr);
    assert!(r.stderr.contains("rhoscope identify"), "{}", r.stderr);
    assert!(r.stdout.is_empty(), "no numbers: {}", r.stdout);
    // Ordinal judges with two continuous anchors.
    let r = run(
        dir.path(),
        &["estimate", "ord.csv", "--continuous", "A1,A2"],
    );
    assert_eq!(r.code, 3, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("≥ 3 continuous anchors"), "{}", r.stderr);
    let r = run(dir.path(), &["export", "ord.csv", "--syntax", "lavaan"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    // With three continuous anchors the closed form on codes is undefined, not a number.
    let doc = json(
        dir.path(),
        &["estimate", "ord.csv", "--continuous", "A1,A2,A3", "--json"],
    );
    assert!(codes(&doc["estimate"]).contains(&"ordinal_codes".to_string()));
    assert!(doc["estimate"]["anchors"][0]["rho"].is_null());
}

#[test]
fn judges_on_another_range_than_the_anchors_are_flagged_and_not_routed() {
    // Judges on about 1–10, anchors on about 1–5, read as numbers (`--continuous all`).
    use rand::SeedableRng;
    use rand_distr::{Distribution, StandardNormal};
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
    let mut z = || -> f64 { StandardNormal.sample(&mut rng) };
    let mut csv = String::from("J1,J2,J3,A1,A2\n");
    for _ in 0..3000 {
        let (t, c) = (z(), 0.9 * z());
        let j: Vec<f64> = (0..3)
            .map(|_| (5.5 + 1.6 * (t + c + 0.6 * z())).round().clamp(1.0, 10.0))
            .collect();
        let a1 = (3.0 + 0.8 * (t + 0.1 * c + 0.5 * z()))
            .round()
            .clamp(1.0, 5.0);
        let a2 = (3.0 + 0.8 * (t + 0.5 * c + 0.5 * z()))
            .round()
            .clamp(1.0, 5.0);
        writeln!(csv, "{},{},{},{a1},{a2}", j[0], j[1], j[2]).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "scale.csv", csv.as_bytes());
    let doc = json(
        dir.path(),
        &["estimate", "scale.csv", "--continuous", "all", "--json"],
    );
    assert!(codes(&doc["estimate"]).contains(&"scale_mismatch".to_string()));
    let b = json(
        dir.path(),
        &[
            "battery",
            "scale.csv",
            "--continuous",
            "all",
            "--json",
            "--bootstrap",
            "100",
            "--null-draws",
            "200",
        ],
    );
    assert!(b["read"]["estimator"].is_null(), "{}", b["read"]);
}

#[test]
fn a_firing_test_b_is_never_contradicted_by_the_route() {
    let dir = tempfile::tempdir().unwrap();
    simulate(dir.path(), "b.csv", &["h=0,0.3,-0.3"], "5000", "2");
    let doc = json(
        dir.path(),
        &[
            "battery",
            "b.csv",
            "--json",
            "--bootstrap",
            "100",
            "--null-draws",
            "200",
        ],
    );
    assert_eq!(doc["tests"]["B"]["verdict"], "fires");
    assert_ne!(doc["read"]["estimator"], "estimate", "{}", doc["read"]);
}

#[test]
fn the_gate_fails_when_nothing_can_be_read() {
    let dir = tempfile::tempdir().unwrap();
    simulate(dir.path(), "c0.csv", &["sigma_c2=0.0001"], "2000", "1");
    let r = run(
        dir.path(),
        &[
            "battery",
            "c0.csv",
            "--fail-on-diagnostic",
            "--bootstrap",
            "100",
            "--null-draws",
            "200",
        ],
    );
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("No ρ̂ to read"), "{}", r.stdout);
}

#[test]
fn a_heywood_judge_after_the_anchors_count_is_named_without_a_panic() {
    // Judge 4 (index 3 ≥ m = 3) loads 1.1: R_i4 = 0.6 · 1.1 for the three others.
    use nalgebra::DMatrix;
    let lam = [0.6, 0.6, 0.6, 1.1];
    let r = DMatrix::from_fn(4, 4, |i, j| if i == j { 1.0 } else { lam[i] * lam[j] });
    let r_ja = DMatrix::from_element(4, 3, 0.3);
    let pa = DMatrix::from_fn(3, 3, |i, j| if i == j { 1.5 } else { 0.8 });
    let fit = rhoscope::estimate::free_scale::fit(&r, &r_ja, &pa).unwrap();
    let flag = fit
        .estimate
        .flags
        .iter()
        .find(|f| f.code == rhoscope::estimate::FlagCode::HeywoodJudge)
        .expect("a Heywood flag");
    let anchors: Vec<String> = ["A1", "A2", "A3"].map(String::from).to_vec();
    assert!(
        flag.message(&fit.estimate, &anchors, &[])
            .contains("judge 4")
    );
    let json = rhoscope::report::estimate_json(&fit.estimate, &anchors, &[]);
    assert!(json["flags"][0]["anchor"].is_null(), "{json}");
}

#[test]
fn an_ordinal_anchor_beside_continuous_judges_undefines_the_common_scale_fits() {
    // Five continuous judges J = t + c + e; two clean continuous anchors (ρ = 0) and a crowd
    // anchor A3 = t + 0.5 c + u scored on five integer levels. Read as numbers, the crowd's codes
    // put clean anchors at ρ̂ ≈ 0.19 with intervals excluding 0.
    use rand::SeedableRng;
    use rand_distr::{Distribution, StandardNormal};
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(11);
    let mut z = || -> f64 { StandardNormal.sample(&mut rng) };
    let mut csv = String::from("J1,J2,J3,J4,J5,A1,A2,A3\n");
    for _ in 0..4000 {
        let (t, c) = (z(), 0.7 * z());
        let j: Vec<f64> = (0..5).map(|_| t + c + 0.5 * z()).collect();
        let e1 = t + 0.7 * z();
        let e2 = t + 0.7 * z();
        let crowd = (t + 0.5 * c + 0.5 * z()).round().clamp(-2.0, 2.0);
        writeln!(
            csv,
            "{},{},{},{},{},{e1},{e2},{crowd}",
            j[0], j[1], j[2], j[3], j[4]
        )
        .unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "crowd.csv", csv.as_bytes());
    let doc = json(dir.path(), &["estimate", "crowd.csv", "--json"]);
    let est = &doc["estimate"];
    assert!(codes(est).contains(&"ordinal_anchor".to_string()), "{est}");
    for a in est["anchors"].as_array().unwrap() {
        assert!(a["rho"].is_null(), "{a}");
    }
    let battery = [
        "battery",
        "crowd.csv",
        "--json",
        "--bootstrap",
        "200",
        "--null-draws",
        "200",
    ];
    let b = json(dir.path(), &battery);
    assert!(b["read"]["estimator"].is_null(), "{}", b["read"]);
    // No interval either: every resample reads the same codes as numbers.
    for a in b["estimate"]["anchors"].as_array().unwrap() {
        assert!(a["rho"].is_null() && a["ci"].is_null(), "{a}");
    }
    assert!(b["estimate"]["sigma_t2_ci"].is_null(), "{}", b["estimate"]);
    // Left out, the two clean anchors' intervals cover their true ρ = 0.
    let mut clean = battery.to_vec();
    clean.extend(["--anchors", "A1,A2"]);
    let b = json(dir.path(), &clean);
    assert_eq!(b["read"]["estimator"], "estimate", "{}", b["read"]);
    for a in b["estimate"]["anchors"].as_array().unwrap() {
        let ci = a["ci"].as_array().unwrap();
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(lo <= 0.0 && 0.0 <= hi, "{a}");
    }
}

/// The anchor trusted as clean is clean by assumption: the reading calls it "assumed", with
/// no interval and no verdict, never "not distinguishable from clean" (trial44 #4).
#[test]
fn the_trusted_anchor_is_assumed_not_judged_clean() {
    let dir = common::root();
    let args = [
        "battery",
        "assets/three-anchor.csv",
        "--designated-clean",
        "A1",
        "--null-draws",
        "20",
        "--bootstrap",
        "100",
    ];
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let v = json(&dir, &with_json);
    let a1 = &v["reading"]["anchors"][0];
    assert_eq!(a1["anchor"], "A1", "{a1}");
    assert_eq!(a1["status"], "assumed", "{a1}");
    assert!(a1["ci"].is_null(), "{a1}");
    assert_ne!(v["reading"]["anchors"][1]["status"], "assumed");
    let text = run(&dir, &args).stdout;
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("A1: "))
        .unwrap();
    assert!(line.contains("(assumed)"), "{line}");
    assert!(!line.contains("distinguishable"), "{line}");
}
