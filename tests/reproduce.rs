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

/// Section 7's simulation: six ordinal judges, three continuous anchors, N = 4000, seeds
/// 11…88. Every published cell (the 5-level means and SDs of ρ̂ and σ̂_t², and the 3- and
/// 7-level means the paper calls essentially unchanged) lands within its stated slack: 3 SE
/// (ours and the paper's sd/√8) plus half a unit of the last printed digit. The codes-as-numbers
/// closed form has no published number and is shown unjudged.
#[test]
fn ordinal_table_lands_within_its_slack_of_section_7() {
    let r = run(
        &root(),
        &["reproduce", "--quick", "--table", "ordinal", "--json"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let t = &v["tables"][0];
    assert_eq!(t["name"], "ordinal");
    let design = t["design"].as_str().unwrap();
    assert!(design.contains("equal-probability") && design.contains("SD over the eight seeds"));
    let cells = t["cells"].as_array().unwrap();
    let published: Vec<&Value> = cells.iter().filter(|c| !c["paper"].is_null()).collect();
    // 5 levels: three means, three SDs, σ̂_t²; 3 and 7 levels: three means each.
    assert_eq!(published.len(), 13);
    for c in &published {
        let (paper, ours) = (c["paper"].as_f64().unwrap(), c["ours"].as_f64().unwrap());
        let se = c["mc_se"]
            .as_f64()
            .unwrap()
            .hypot(c["paper_se"].as_f64().unwrap_or(0.0));
        assert!(
            (ours - paper).abs() <= 3.0 * se + 0.0005,
            "{}: {ours} vs {paper} (SE {se})",
            c["label"]
        );
        assert_eq!(c["verdict"], "within", "{}", c["label"]);
    }
    // The paper's numbers are the ones it prints.
    let paper: Vec<f64> = published
        .iter()
        .map(|c| c["paper"].as_f64().unwrap())
        .collect();
    assert_eq!(
        &paper[..7],
        &[0.282, 0.129, 0.670, 0.078, 0.484, 0.103, 0.996]
    );
    let codes: Vec<&Value> = cells.iter().filter(|c| c["paper"].is_null()).collect();
    assert_eq!(codes.len(), 9);
    assert!(codes.iter().all(|c| c["verdict"] == "unpublished"));
    // "Erratic across discretisations": the codes-as-numbers ρ̂_1 moves by more than 0.3
    // between 3, 5 and 7 levels (its MC SEs are below 0.07); the free-scale rows above are
    // all held to the same 5-level numbers.
    let codes_rho1: Vec<f64> = codes
        .iter()
        .filter(|c| c["label"].as_str().unwrap().contains("ρ̂_1"))
        .map(|c| c["ours"].as_f64().unwrap())
        .collect();
    let spread = |v: &[f64]| {
        v.iter().copied().fold(f64::MIN, f64::max) - v.iter().copied().fold(f64::MAX, f64::min)
    };
    assert_eq!(codes_rho1.len(), 3);
    assert!(spread(&codes_rho1) > 0.3, "{codes_rho1:?}");
    // The summary counts only cells with a published number.
    assert_eq!(v["summary"]["cells"], 13);
}

/// The ordinal table's cells are bit-identical at one and two threads (only timings differ).
#[test]
fn ordinal_table_is_identical_at_any_thread_count() {
    let cells = |threads: &str| {
        let r = common::run_env(
            &root(),
            &["reproduce", "--table", "ordinal", "--json"],
            &[("RAYON_NUM_THREADS", threads)],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        v["tables"][0]["cells"].clone()
    };
    assert_eq!(cells("1"), cells("2"));
}

/// The bias-correction row runs in quick mode, sets the paper's four numbers beside ours
/// (our estimator's bias near 0 is reported, not assumed), and is identical at one and two
/// threads although every replicate runs its own parallel refits.
#[test]
fn bias_correction_table_is_complete_and_identical_at_any_thread_count() {
    let cells = |threads: &str| {
        let r = common::run_env(
            &root(),
            &[
                "reproduce",
                "--table",
                "bias-correction",
                "--quick",
                "--json",
            ],
            &[("RAYON_NUM_THREADS", threads)],
        );
        assert_eq!(r.code, 0, "{}", r.stderr);
        let v: Value = serde_json::from_str(&r.stdout).unwrap();
        v["tables"][0]["cells"].clone()
    };
    let one = cells("1");
    assert_eq!(one, cells("2"));
    let cells = one.as_array().unwrap();
    assert_eq!(cells.len(), 4);
    let papers: Vec<f64> = cells.iter().map(|c| c["paper"].as_f64().unwrap()).collect();
    assert_eq!(papers, vec![0.248, 0.092, 0.128, 0.210]);
    assert!(
        cells
            .iter()
            .all(|c| c["ours"].as_f64().is_some_and(f64::is_finite))
    );
}

/// Section 7's HANNA table through `validate`: the rows the paper prints, each beside ours,
/// with the high-contamination anchor (ρ = 0.7) recovered as the paper reports it, and the
/// ablation's claim checked against our own runs: balanced marginals give the same means
/// as the raters' own thresholds (difference within 4 combined Monte-Carlo SEs).
#[test]
fn hanna_real_texture_table_sets_the_paper_beside_ours() {
    assert!(common::shared().join("hanna").is_dir());
    let r = run(&root(), &["reproduce", "--table", "hanna", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let t = &v["tables"][0];
    assert_eq!(t["name"], "hanna");
    let design = t["design"].as_str().unwrap();
    assert!(design.contains("σ_t² = 1") && design.contains("independently"));
    let cells = t["cells"].as_array().unwrap();
    let find = |label: &str| {
        cells
            .iter()
            .find(|c| c["label"].as_str().unwrap() == label)
            .unwrap_or_else(|| panic!("no cell {label}"))
    };
    // The paper's numbers (Section 7).
    for (n, paper) in [(431, [0.372, 0.661, 0.712]), (2000, [0.242, 0.562, 0.714])] {
        for (k, (p, inj)) in paper.iter().zip(["0", "0.4", "0.7"]).enumerate() {
            let own = find(&format!(
                "N = {n}, own thresholds: free-scale ρ̂_{} (injected {inj})",
                k + 1
            ));
            assert_eq!(own["paper"].as_f64().unwrap(), *p);
            let bal = find(&format!(
                "N = {n}, balanced marginals (paper: the same numbers): free-scale ρ̂_{} (injected {inj})",
                k + 1
            ));
            let (a, b) = (own["ours"].as_f64().unwrap(), bal["ours"].as_f64().unwrap());
            let se = own["mc_se"]
                .as_f64()
                .unwrap()
                .hypot(bal["mc_se"].as_f64().unwrap());
            assert!(
                (a - b).abs() <= 4.0 * se,
                "N = {n}, ρ_{}: {a} vs {b}",
                k + 1
            );
        }
        let high = find(&format!(
            "N = {n}, own thresholds: free-scale ρ̂_3 (injected 0.7)"
        ));
        assert_eq!(high["verdict"], "within");
    }
    let ordered =
        find("N = 431, own thresholds: runs with strict ordering ρ̂_1 < ρ̂_2 < ρ̂_3 (paper 8/24)");
    assert!((ordered["paper"].as_f64().unwrap() - 8.0 / 24.0).abs() < 1e-12);
    // Test A on the raters' codes (the paper's convention), and where its threshold stands.
    let stat = find(
        "Test A on the real panel, codes as numbers: statistic (sd/mean of the rater covariances)",
    );
    assert_eq!(format!("{:.3}", stat["ours"].as_f64().unwrap()), "0.589");
    let th = find(
        "Test A on the real panel, codes as numbers: 95th-percentile threshold of the plug-in null (latent correlations unstated in the paper)",
    );
    assert_eq!(th["paper"].as_f64().unwrap(), 0.247);
    assert!(design.contains("latent rater correlations are 0.288–0.362"));
}
