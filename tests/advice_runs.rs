//! Advice and flag sentences that are one core fact: the battery's "collect more items" step
//! is a planner request that runs as given, flags are worded by their kind, and an anchor
//! trusted as clean is worded as the assumption it is.
#![cfg(feature = "cli")]

mod common;

use rhoscope::battery::phrase::{flag_counts, flagged, rho_entries};
use rhoscope::estimate::FlagCode as C;

/// Python45 finding 10: on a 3-anchor panel the advised `rhoscope plan …` failed ("rho gives
/// 3 anchors, but the preset's sigma_a has 2 values"). The advised request, run as given (the
/// command line, and the library's scenario settings), is accepted on 2-, 3- and 4-anchor panels.
#[test]
fn the_advised_plan_runs_at_every_anchor_count() {
    let dir = std::env::temp_dir().join(format!("rhoscope-advice-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let designs: [(&str, &[&str], usize); 3] = [
        ("boundary", &[], 2),
        ("three-anchor", &[], 3),
        (
            "three-anchor",
            &["--set", "rho=0.25,0.75,0.5,0.3", "--set", "sigma_a=0.8"],
            4,
        ),
    ];
    for (preset, sets, m) in designs {
        let mut advised = Vec::new();
        for seed in 0..8 {
            let mut args = vec!["simulate", "--preset", preset, "--n", "40"];
            let seed_text = seed.to_string();
            args.extend(["--seed", &seed_text]);
            args.extend(sets);
            let sim = common::run(&dir, &args);
            assert_eq!(sim.code, 0, "{}", sim.stderr);
            let file = common::write(&dir, &format!("m{m}s{seed}.csv"), sim.stdout.as_bytes());
            let file = file.to_str().unwrap();
            let bat = common::run(
                &dir,
                &[
                    "battery",
                    file,
                    "--json",
                    "--bootstrap",
                    "100",
                    "--null-draws",
                    "100",
                    "--seed",
                    "2",
                ],
            );
            assert_eq!(bat.code, 0, "{}", bat.stderr);
            let v: serde_json::Value = serde_json::from_str(&bat.stdout).unwrap();
            for step in v["reading"]["next"].as_array().unwrap() {
                if step["remedy"] == "more_items" && step["cli"].is_string() {
                    advised.push(step["cli"].as_str().unwrap().to_string());
                }
            }
        }
        assert!(!advised.is_empty(), "m = {m}: no panel advised more items");
        for line in advised {
            let words: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(&words[..2], ["rhoscope", "plan"], "{line}");
            // The library: the scenario the request names is one the planner accepts.
            let sets: Vec<String> = words
                .windows(2)
                .filter(|w| w[0] == "--set")
                .map(|w| w[1].to_string())
                .collect();
            let mut pm = rhoscope::scenario::preset("mid").unwrap();
            rhoscope::scenario::apply_sets(&mut pm, &sets)
                .unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(pm.rho.len(), m, "{line}");
            rhoscope::simulate::Design::new(&pm).unwrap_or_else(|e| panic!("{line}: {e}"));
            // The command line, as given (kept short by a smaller search).
            let mut args: Vec<&str> = words[1..].to_vec();
            args.extend(["--max-n", "60", "--reps", "4"]);
            let run = common::run(&dir, &args);
            assert_eq!(run.code, 0, "{line}: {}", run.stderr);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Trial 45 finding 3: censoring and Likert codes read as numbers are not range violations;
/// each kind of flag is said in its own words and counted as its own kind.
#[test]
fn flags_are_worded_by_their_kind() {
    let codes = [
        C::SigmaC2Nonpositive,
        C::SigmaT2Outside0K,
        C::OrdinalAnchor,
        C::Censored,
    ];
    let s = flagged(&codes);
    assert!(
        s.starts_with("is out of range (σ̂_c² ≤ 0, σ̂_t² outside (0, K))"),
        "{s}"
    );
    assert!(
        s.ends_with("reads a column on a scale it cannot use (Likert codes read as numbers on an anchor, censored)"),
        "{s}"
    );
    assert_eq!(flag_counts(&codes), "2 range, 2 scale");
    assert_eq!(
        flagged(&[C::Censored]),
        "reads a column on a scale it cannot use (censored)"
    );
}

/// Trial 45 finding 10: a flag raised by two anchors is one fact, said once, in words.
#[test]
fn a_flag_of_two_anchors_is_said_once() {
    let codes = [
        C::SigmaA2Nonpositive,
        C::SigmaA2Nonpositive,
        C::Boundary,
        C::NotConverged,
        C::AnchorsMisfit,
        C::Censored,
    ];
    let s = flagged(&codes);
    assert_eq!(s.matches("σ̂_a² ≤ 0").count(), 1, "{s}");
    assert!(
        s.contains("σ̂_a² ≤ 0 (2 anchors)") && !s.contains("sigma_a2"),
        "{s}"
    );
}

/// The estimates pane's comparison line read "designated clean A1: ρ̂ = (0.000, 0.702)": the
/// trusted anchor is an assumption, worded so, never an estimate 0.000 — there and in the
/// command line's table (no [0.0000, 0.0000] interval).
#[test]
fn a_trusted_anchor_is_worded_as_assumed() {
    use rhoscope::moments::{JudgePairs, Moments, covariance};
    let pm = rhoscope::model::Params::default();
    let n = 500;
    let panel = rhoscope::simulate::simulate(&pm, n, 1).unwrap();
    let q = pm.p + pm.rho.len();
    let s = covariance(&panel.data, n, q, &mut Vec::new());
    let mom = Moments::from_cov(&s, pm.p, JudgePairs::All).unwrap();
    let e = rhoscope::estimate::clean::designated_clean(&mom, 0);
    let names = ["A1".to_string(), "A2".to_string()];
    let entries = rho_entries(&e, &names);
    assert_eq!(entries[0], "A1 assumed 0");
    assert!(entries[1].parse::<f64>().is_ok(), "{entries:?}");

    let dir = std::env::temp_dir().join(format!("rhoscope-assumed-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sim = common::run(&dir, &["simulate", "--n", "500", "--seed", "1"]);
    let file = common::write(&dir, "p.csv", sim.stdout.as_bytes());
    let args = [
        file.to_str().unwrap(),
        "--designated-clean",
        "A1",
        "--bootstrap",
        "100",
        "--null-draws",
        "100",
    ];
    let bat = common::run(&dir, &[&["battery"][..], &args].concat());
    assert_eq!(bat.code, 0, "{}", bat.stderr);
    let row = bat
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("A1 ") && l.contains("0 (assumed)"))
        .unwrap_or_else(|| panic!("{}", bat.stdout));
    assert!(
        !row.contains("[0.0000, 0.0000]") && row.contains("none: assumed"),
        "{row}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 38 on the command line: on HANNA-LLM coherence Test J fires, so `battery` offers no
/// trusted anchor and its "none found" says why; passed anyway, `--designated-clean` gives the
/// reason no ρ̂ reads. On the Likert fixture, where Test J passes, the offered step runs as
/// advised and reads the others' ρ̂ with intervals. On two Likert anchors it is not offered.
#[test]
fn a_trusted_anchor_is_advised_only_where_it_reads() {
    let file = common::shared().join("hanna-llm/hanna_llm_coherence.csv");
    let file = file.to_str().unwrap();
    let dir = std::env::temp_dir();
    let opts = ["--bootstrap", "100", "--null-draws", "100", "--json"];
    let coh = [&["battery", file, "--judges", "3,4,5,6,7"][..], &opts[..]].concat();
    let bat = common::run(&dir, &[&coh[..], &["--anchors", "8,9,10"]].concat());
    assert_eq!(bat.code, 0, "{}", bat.stderr);
    let v: serde_json::Value = serde_json::from_str(&bat.stdout).unwrap();
    assert_eq!(
        v["reading"]["next"],
        serde_json::json!([]),
        "{}",
        v["reading"]
    );
    let why = v["reading"]["no_next_step"].as_str().unwrap();
    assert!(
        why.contains("Test J fires, so no trusted fit can be read"),
        "{why}"
    );
    let args = [
        &coh[..],
        &["--anchors", "8,9,10", "--designated-clean", "human1"],
    ]
    .concat();
    let taken = common::run(&dir, &args);
    assert_eq!(taken.code, 0, "{}", taken.stderr);
    let t: serde_json::Value = serde_json::from_str(&taken.stdout).unwrap();
    let reading = &t["reading"];
    assert!(reading["read"].is_null(), "{reading}");
    let headline = reading["headline"].as_str().unwrap();
    assert!(headline.starts_with("No ρ̂ to read: "), "{headline}");
    assert!(headline.contains("Test J"), "{headline}");
    let two = common::run(&dir, &[&coh[..], &["--anchors", "8,9"]].concat());
    let w: serde_json::Value = serde_json::from_str(&two.stdout).unwrap();
    assert!(
        !w["reading"]["next"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["remedy"] == "trust_anchor"),
        "{}",
        w["reading"]["next"]
    );
    let likert = [
        &["battery", "tests/fixtures/likert_anchors.csv"][..],
        &opts[..],
    ]
    .concat();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let bat = common::run(root, &likert);
    let v: serde_json::Value = serde_json::from_str(&bat.stdout).unwrap();
    let step = v["reading"]["next"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["remedy"] == "trust_anchor")
        .unwrap_or_else(|| panic!("{}", v["reading"]["next"]))
        .clone();
    let name = step["columns"][0].as_str().unwrap();
    let cli = step["cli"].as_str().unwrap();
    assert!(cli.contains(&format!("--designated-clean {name}")), "{cli}");
    assert!(
        step["text"].as_str().unwrap().contains("cannot test"),
        "{step}"
    );
    let taken = common::run(root, &[&likert[..], &["--designated-clean", name]].concat());
    let t: serde_json::Value = serde_json::from_str(&taken.stdout).unwrap();
    assert!(!t["reading"]["read"].is_null(), "{}", t["reading"]);
    for a in t["reading"]["anchors"].as_array().unwrap() {
        assert!(a["anchor"] == name || a["ci"].is_array(), "{a}");
    }
    // The latent path's detail block words the trusted anchor as assumed, with no interval.
    let est = [
        "estimate",
        "tests/fixtures/likert_anchors.csv",
        "--designated-clean",
        name,
    ];
    let est = common::run(root, &est);
    let row = est
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{name} ")) && l.contains("assumed"))
        .unwrap_or_else(|| panic!("{}", est.stdout));
    assert!(
        row.contains("none: assumed") && !row.contains("0.0000]"),
        "{row}"
    );
}
