//! `rhoscope reproduce`: the quick asymmetry table lands within 0.02 of the paper's five
//! cells; the JSON has the contracted shape; --out writes report.md and results.json;
//! unknown tables are refused.
#![cfg(feature = "cli")]

mod common;

use common::{root, run};
use serde_json::Value;

#[test]
fn quick_asymmetry_table_lands_within_0_02_of_the_paper() {
    let r = run(
        &root(),
        &["reproduce", "--quick", "--table", "asymmetry", "--json"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let tables = v["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 1);
    let t = &tables[0];
    assert_eq!(t["name"], "asymmetry");
    assert!(!t["design"].as_str().unwrap().is_empty());
    let cells = t["cells"].as_array().unwrap();
    // The paper's Table 2: ρ̂_2 = 0.701, 0.761, 0.780, 0.769, 0.565 at h = 0.6 … 0.
    let paper = [0.701, 0.761, 0.780, 0.769, 0.565];
    assert_eq!(cells.len(), 5);
    for (c, p) in cells.iter().zip(paper) {
        assert_eq!(c["paper"].as_f64().unwrap(), p);
        let ours = c["ours"].as_f64().unwrap();
        assert!((ours - p).abs() < 0.02, "{}: {ours} vs {p}", c["label"]);
        assert!(c["mc_se"].as_f64().unwrap() > 0.0);
        assert!(["within", "outside"].contains(&c["verdict"].as_str().unwrap()));
    }
    assert_eq!(v["quick"], true);
}

#[test]
fn out_writes_a_markdown_report_and_json_results() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("results");
    let r = run(
        &root(),
        &[
            "reproduce",
            "--quick",
            "--table",
            "ctc",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let md = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(md.contains("quick run") && md.contains("| cell | paper | ours |"));
    let js: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(js["tables"][0]["name"], "ctc");
    assert!(r.stdout.contains("designated-clean ρ̂_2"));
}

#[test]
fn unknown_tables_are_refused_with_the_list() {
    let r = run(&root(), &["reproduce", "--table", "nope"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unknown table 'nope'") && r.stderr.contains("asymmetry"),
        "{}",
        r.stderr
    );
}
