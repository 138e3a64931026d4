//! Advice and flag sentences that are one core fact: the battery's "collect more items" step
//! is a planner request that runs as given, flags are worded by their kind, and an anchor
//! trusted as clean is worded as the assumption it is.

mod common;

use rhoscope::battery::phrase::{flag_counts, flagged, rho_entries};
use rhoscope::estimate::FlagCode as C;

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
