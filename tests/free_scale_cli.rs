//! The free-scale estimator through the command line: `estimate --method free-scale|all`
//! carries a `free_scale` object of the estimate's shape plus λ and the misfit, and refuses
//! with a one-line reason (exit 65) when the anchors are ordinal, after showing what ran.
#![cfg(feature = "cli")]

mod common;

use common::{root, run};
use serde_json::Value;

#[test]
fn free_scale_recovers_rho_where_unequal_judge_scales_bias_theorem_1() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("scales.csv");
    let csv = csv.to_str().unwrap();
    let r = run(
        &root(),
        &[
            "simulate",
            "--preset",
            "three-anchor",
            "--set",
            "judge_scale=0.5,0.7,1,1,1.4,1.8",
            "--n",
            "40000",
            "--seed",
            "4",
            "-o",
            csv,
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(&root(), &["estimate", csv, "--method", "all", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let fs = &v["free_scale"];
    assert_eq!(fs["lambda"].as_array().unwrap().len(), 6);
    assert!(fs["misfit"].is_number());
    // Truth ρ = (0.3, 0.7, 0.5). At N = 4000 the free-scale ρ̂ has a replicate SD of about
    // 0.11 for ρ_1 (0.05–0.06 for the others), so about 0.035 at N = 40 000: 0.14 is 4 SDs.
    for (k, truth) in [0.3, 0.7, 0.5].into_iter().enumerate() {
        let got = fs["anchors"][k]["rho"].as_f64().unwrap();
        assert!((got - truth).abs() < 0.14, "free-scale ρ_{k}: {got}");
    }
    // Theorem 1 is biased here (its mean ρ̂_1 is about 0.51, SD about 0.02 at N = 40 000).
    let closed = v["estimate"]["anchors"][0]["rho"].as_f64().unwrap();
    assert!(
        closed > 0.4,
        "Theorem 1's ρ̂_1 = {closed} should be biased upward"
    );
}

#[test]
fn ordinal_anchors_are_refused_with_the_reason_after_the_closed_form() {
    let panel = root().join("../shared/data/hanna-llm/hanna_llm_coherence.csv");
    let r = run(
        &root(),
        &[
            "estimate",
            panel.to_str().unwrap(),
            "--judges",
            "beluga_13b,orca_platypus_13b,mistral_7b,llama2_13b_chat,chatgpt",
            "--anchors",
            "human1,human2,human3",
            "--method",
            "all",
        ],
    );
    // `--method all` asks for every estimator that can run: one that cannot is a note.
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Closed form (Theorem 1"), "{}", r.stdout);
    assert!(
        r.stderr
            .contains("free-scale cannot run on this panel (anchor 'human1' is ordinal"),
        "{}",
        r.stderr
    );
}

/// `--method free-scale --json` on a panel it cannot fit (two anchors) prints nothing on
/// stdout and exits 65, as the text form does; it printed the closed-form JSON before.
#[test]
fn free_scale_json_refused_prints_no_report() {
    let mid = root().join("assets/mid.csv");
    let mid = mid.to_str().unwrap();
    for extra in [None, Some("--json")] {
        let mut args = vec!["estimate", mid, "--method", "free-scale"];
        args.extend(extra);
        let r = run(&root(), &args);
        assert_eq!(r.code, 65, "{extra:?}: {}", r.stderr);
        assert!(r.stdout.trim().is_empty(), "{extra:?}: {}", r.stdout);
        assert!(r.stderr.contains("3 continuous anchors"), "{}", r.stderr);
    }
}

/// `--method all --json` carries the reason an estimator could not run in `notes`, as
/// stderr does (the JSON's notes were empty).
#[test]
fn method_all_json_notes_why_free_scale_did_not_run() {
    let mid = root().join("assets/mid.csv");
    let args = [
        "estimate",
        mid.to_str().unwrap(),
        "--method",
        "all",
        "--json",
    ];
    let r = run(&root(), &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let doc: Value = serde_json::from_str(&r.stdout).unwrap();
    let notes = doc["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n
            .as_str()
            .is_some_and(|s| s.contains("free-scale cannot run"))),
        "{notes:?}"
    );
}

/// Trial 43, finding 23: `battery` printed a 95 % interval beside a free-scale ρ̂ it called
/// undefined (the ridge's A1), where the explorer prints none: one rule, no interval.
#[test]
fn an_undefined_free_scale_rho_has_no_interval() {
    let r = run(&root(), &["battery", "assets/three-anchor.csv"]);
    let undefined: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.contains("undefined (see flags)"))
        .collect();
    assert!(!undefined.is_empty(), "{}", r.stdout);
    for l in undefined {
        assert!(!l.contains('['), "{l}");
        assert!(l.contains("none: ρ̂ undefined"), "{l}");
    }
}
