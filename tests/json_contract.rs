//! The `estimate --json` contract: the names the issue fixes, `null` for undefined numbers,
//! anchors in the order given, and agreement with the library's own fit.
#![cfg(feature = "cli")]

mod common;

use common::{root, run};
use serde_json::Value;

fn estimate_json(args: &[&str]) -> Value {
    let r = run(&root(), args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    serde_json::from_str(&r.stdout).unwrap()
}

fn assert_fit_shape(fit: &Value, anchors: &[&str]) {
    for key in [
        "sigma_t2",
        "sigma_c2",
        "K",
        "denominator",
        "pairs",
        "anchors",
        "flags",
    ] {
        assert!(fit.get(key).is_some(), "missing {key} in {fit}");
    }
    let names: Vec<&str> = fit["anchors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, anchors);
    for a in fit["anchors"].as_array().unwrap() {
        for key in ["beta", "sigma_a2", "rho"] {
            assert!(a.get(key).is_some());
        }
    }
}

#[test]
fn estimate_json_has_the_contracted_names() {
    let v = estimate_json(&[
        "estimate",
        "assets/families.csv",
        "--blocked",
        "--designated-clean",
        "A1",
        "--json",
    ]);
    assert_eq!(v["schema_version"], 1);
    assert_eq!(v["n_items"], 500);
    assert_eq!(v["n_dropped"], 0);
    assert_eq!(v["judges"].as_array().unwrap().len(), 6);
    assert_fit_shape(&v["estimate"], &["A1", "A2"]);
    assert_fit_shape(&v["blocked"], &["A1", "A2"]);
    assert_fit_shape(&v["designated_clean"], &["A1", "A2"]);
    assert_eq!(v["designated_clean"]["clean_anchor"], "A1");
    assert_eq!(v["designated_clean"]["anchors"][0]["rho"], 0.0);
    // No denominator exists for the designated-clean fit: null, never NaN.
    assert_eq!(v["designated_clean"]["denominator"], Value::Null);
    let pair = &v["estimate"]["pairs"][0];
    assert_eq!(pair["anchors"], serde_json::json!(["A1", "A2"]));
}

#[test]
fn json_numbers_equal_the_library_fit() {
    let v = estimate_json(&["estimate", "assets/mid.csv", "--json"]);
    let loaded = rhoscope::data::load(
        &root().join("assets/mid.csv"),
        &rhoscope::data::PanelRequest {
            min_anchors: 2,
            ..Default::default()
        },
    )
    .unwrap();
    let s = loaded.panel.covariance();
    let mom =
        rhoscope::moments::Moments::from_cov(&s, 6, rhoscope::moments::JudgePairs::All).unwrap();
    let est = rhoscope::estimate::closed_form(&mom);
    assert_eq!(v["estimate"]["sigma_t2"].as_f64().unwrap(), est.sigma_t2);
    assert_eq!(
        v["estimate"]["anchors"][1]["rho"].as_f64().unwrap(),
        est.anchors[1].rho.unwrap()
    );
}

#[test]
fn anchors_appear_in_the_order_given() {
    let v = estimate_json(&["estimate", "assets/mid.csv", "--anchors", "A2,A1", "--json"]);
    assert_eq!(v["anchors"], serde_json::json!(["A2", "A1"]));
    assert_fit_shape(&v["estimate"], &["A2", "A1"]);
}

#[test]
fn undefined_rho_is_null_with_a_flag() {
    // A panel whose judge-anchor covariances exceed K forces σ̂_c² ≤ 0.
    let dir = tempfile::tempdir().unwrap();
    let rows = "J1,J2,A1,A2\n1,0,1,1\n0,1,1,1\n2,2,2,2.5\n-1,-1,-1,-1.2\n0,0,0.5,0.1\n";
    common::write(dir.path(), "h.csv", rows.as_bytes());
    // Integer judges would be ordinal (ρ then not identified with one continuous anchor).
    let r = run(
        dir.path(),
        &["estimate", "h.csv", "--continuous", "all", "--json"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let flags: Vec<&str> = v["estimate"]["flags"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["code"].as_str().unwrap())
        .collect();
    let rho_nulls = v["estimate"]["anchors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["rho"].is_null())
        .count();
    // By hand: J1 and J2 deviate from their mean 0.4 by (0.6, −0.4, 1.6, −1.4, −0.4) and
    // (−0.4, 0.6, 1.6, −1.4, −0.4); the products sum to 4.2, so K = 4.2/4 = 1.05.
    assert!((v["estimate"]["K"].as_f64().unwrap() - 1.05).abs() < 1e-12);
    assert_eq!(
        flags,
        [
            "sigma_c2_nonpositive",
            "sigma_t2_outside_0_K",
            "sigma_a2_nonpositive"
        ]
    );
    assert_eq!(rho_nulls, 2, "σ̂_c² ≤ 0 leaves every ρ̂ undefined");
    assert!(!r.stdout.contains("NaN"));
}

#[test]
fn method_both_adds_an_ml_object_shaped_like_the_estimate() {
    let v = estimate_json(&["estimate", "assets/mid.csv", "--method", "both", "--json"]);
    assert_fit_shape(&v["ml"], &["A1", "A2"]);
    assert_eq!(v["ml"]["converged"], true);
    assert!(v["ml"]["iterations"].is_u64());
    for key in ["sigma_t2", "sigma_c2", "rho", "beta"] {
        assert!(v["ml"]["se"].get(key).is_some(), "se.{key}");
    }
    assert_eq!(v["ml"]["se"]["rho"].as_array().unwrap().len(), 2);
    let closed = v["estimate"]["anchors"][1]["rho"].as_f64().unwrap();
    let ml = v["ml"]["anchors"][1]["rho"].as_f64().unwrap();
    assert!((closed - ml).abs() < 0.05);
    let only = estimate_json(&["estimate", "assets/mid.csv", "--method", "ml", "--json"]);
    assert!(only.get("ml").is_some() && only.get("estimate").is_some());
    let none = estimate_json(&["estimate", "assets/mid.csv", "--json"]);
    assert!(none.get("ml").is_none());
}

/// Issue 11: a fit that did not converge claims no precision. Ten items of the base design
/// (seed 7) leave Fisher scoring at its 200-step limit; every standard error is then `null`
/// in JSON and "undefined" in text, never 0.0000.
#[test]
fn a_non_converged_ml_fit_has_no_standard_errors() {
    let dir = tempfile::tempdir().unwrap();
    let r = common::run(
        dir.path(),
        &["simulate", "--n", "10", "--seed", "7", "-o", "p.csv"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = common::run(
        dir.path(),
        &["estimate", "p.csv", "--method", "ml", "--json"],
    );
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["ml"]["converged"], false);
    let se = &v["ml"]["se"];
    assert!(se["sigma_t2"].is_null() && se["sigma_c2"].is_null());
    for key in ["beta", "rho"] {
        assert!(
            se[key].as_array().unwrap().iter().all(Value::is_null),
            "{se}"
        );
    }
    let r = common::run(dir.path(), &["estimate", "p.csv", "--method", "ml"]);
    let line = r
        .stdout
        .lines()
        .find(|l| l.contains("standard errors"))
        .unwrap();
    // The likelihood of these ten items has no maximum (lavaan 0.6-14 on `rhoscope export`:
    // "the optimizer warns that a solution has NOT been found"), which ML now says in words.
    assert!(
        r.stdout.contains("NOT converged") || r.stdout.contains("no maximum-likelihood solution"),
        "{}",
        r.stdout
    );
    assert!(
        !line.contains("0.0000") && line.contains("σ_t² undefined"),
        "{line}"
    );
}
