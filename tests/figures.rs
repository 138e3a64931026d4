//! Figures agree with the reports they illustrate and read well as slides: the battery figure
//! uses `rhoscope battery`'s settings and names them, axis text has no literal underscores,
//! the boundary figure gives each quantity its own axis, and tick labels share one format.

#![cfg(feature = "cli")]

mod common;

use common::{run, shared};
use rhoscope::plot::style::tick_format;

const JUDGES: &str = "beluga_13b,orca_platypus_13b,mistral_7b,llama2_13b_chat,chatgpt";

#[test]
fn the_battery_figure_shows_the_reports_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let data = shared().join("hanna-llm");
    let panel = data.join("hanna_llm_coherence.csv");
    let fam = data.join("families.csv");
    let common = [
        panel.to_str().unwrap(),
        "--judges",
        JUDGES,
        "--anchors",
        "human1,human2,human3",
        "--families",
        fam.to_str().unwrap(),
    ];
    let mut args = vec!["battery"];
    args.extend(common);
    args.push("--json");
    let r = run(dir.path(), &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let report: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    let mut args = vec!["plot", "battery"];
    args.extend(common);
    args.extend(["-o", "b.svg"]);
    let r = run(dir.path(), &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let svg = std::fs::read_to_string(dir.path().join("b.svg")).unwrap();
    assert!(
        svg.contains("1000 draws") && svg.contains("seed 1"),
        "the figure names its draws and seed"
    );
    let tests = report["tests"].as_object().expect("tests in the report");
    let mut seen = 0;
    for (name, t) in tests {
        let Some(p) = t["p_value"].as_f64() else {
            continue;
        };
        let at = svg
            .find(&format!("Test {name}: "))
            .unwrap_or_else(|| panic!("Test {name} has a p-value but no panel"));
        let end = svg[at..].find('<').map_or(svg.len(), |e| at + e);
        let caption = &svg[at..end];
        assert!(
            caption.contains(&format!("p = {}", rhoscope::battery::phrase::p_value(p))),
            "{caption} vs report p = {p}"
        );
        seen += 1;
    }
    assert!(
        seen >= 3,
        "the figure's captions carry the report's p-values ({seen} matched)"
    );
}

#[test]
fn axis_text_has_no_literal_underscores() {
    let dir = tempfile::tempdir().unwrap();
    for (kind, extra) in [
        ("rho", &["--n", "200", "--bootstrap", "100"][..]),
        ("bootstrap", &["--n", "200", "--bootstrap", "100"]),
        ("boundary", &["--reps", "4", "--n", "200"]),
    ] {
        let out = format!("{kind}.svg");
        let mut args = vec!["plot", kind, "-o", &out];
        args.extend(extra);
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 0, "{kind}: {}", r.stderr);
        let svg = std::fs::read_to_string(dir.path().join(&out)).unwrap();
        for bad in ["ρ̂_", "ρ_", "σ_"] {
            assert!(!svg.contains(bad), "{kind}: '{bad}' in the figure's text");
        }
        if kind == "boundary" {
            assert!(!svg.contains(">Cor. 1<"), "no axis is labelled 'Cor. 1'");
            assert!(svg.contains("share of replicates with ρ̂₁ inadmissible"));
            assert!(
                svg.contains("Corollary 1&apos;s denominator")
                    || svg.contains("Corollary 1's denominator")
            );
        }
    }
}

#[test]
fn one_axis_has_one_tick_format() {
    let f = tick_format(0.0, 0.0016);
    let labels: Vec<String> = [0.0, 0.0005, 0.001, 0.0015].iter().map(&f).collect();
    assert_eq!(labels, ["0", "5.0e-4", "1.0e-3", "1.5e-3"]);
    let f = tick_format(-0.03, 0.03);
    let labels: Vec<String> = [-0.02, 0.0, 0.02].iter().map(&f).collect();
    assert_eq!(labels, ["-0.02", "0.00", "0.02"]);
    let f = tick_format(0.0, 0.25);
    assert_eq!(f(&0.1), "0.10");
}
