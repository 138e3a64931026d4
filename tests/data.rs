//! Loading real and long-layout panels: the HANNA coherence panel read from its wide file
//! and from the official long-format ratings table must be the same 431 × 3 panel.
#![cfg(feature = "cli")]

mod common;

use std::fmt::Write as _;

use common::{run, shared};
use rhoscope::data::{LoadOptions, load};

const WORKERS: [&str; 3] = ["A1IZ4NX41GKU4X", "A2VE5IV9OD2SK1", "A3CFNUD7VR2E1E"];

#[test]
fn hanna_long_layout_equals_the_wide_panel() {
    let data = shared().join("hanna");
    let judges = Some(WORKERS.iter().map(|s| (*s).to_string()).collect::<Vec<_>>());
    let wide = load(
        &data.join("hanna_coherence_panel.csv"),
        &LoadOptions {
            judges: judges.clone(),
            min_anchors: 0,
            ..LoadOptions::default()
        },
    )
    .unwrap()
    .panel;
    let long = load(
        &data.join("hanna_ratings_with_workers.csv"),
        &LoadOptions {
            judges,
            long: Some(vec![
                "Story ID".into(),
                "Worker ID".into(),
                "Coherence".into(),
            ]),
            min_anchors: 0,
            ..LoadOptions::default()
        },
    )
    .unwrap()
    .panel;
    assert_eq!(wide.n, 431);
    assert_eq!(long.n, 431);
    assert_eq!(long.n_dropped, 1056 - 431);
    assert_eq!(wide.data, long.data);
    assert!(wide.scales.iter().all(rhoscope::panel::Scale::is_ordinal));
    // The three off-diagonal covariances give Test A's statistic 0.5888 (SPEC §3): sd with
    // divisor n over their mean.
    let s = wide.covariance();
    let off = [s[(0, 1)], s[(0, 2)], s[(1, 2)]];
    let mean = off.iter().sum::<f64>() / 3.0;
    let sd = (off.iter().map(|c| (c - mean).powi(2)).sum::<f64>() / 3.0).sqrt();
    assert!((sd / mean - 0.5888).abs() < 5e-5, "{}", sd / mean);
}

#[test]
fn long_layout_errors_name_the_rater() {
    let data = shared().join("hanna");
    let r = run(
        &data,
        &[
            "estimate",
            "hanna_ratings_with_workers.csv",
            "--long",
            "Story ID,Worker ID,Coherence",
            "--judges",
            "A1IZ4NX41GKU4X,NOBODY",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no rater 'NOBODY'"), "{}", r.stderr);
}

#[test]
fn long_layout_rejects_a_second_score_for_the_same_item_and_rater() {
    let dir = tempfile::tempdir().unwrap();
    common::write(
        dir.path(),
        "l.csv",
        b"item,rater,score\n1,J1,3\n1,J2,4\n1,J1,5\n",
    );
    let r = run(
        dir.path(),
        &["estimate", "l.csv", "--long", "item,rater,score"],
    );
    assert_eq!(r.code, 65);
    assert!(
        r.stderr.contains("row 4") && r.stderr.contains("second score"),
        "{}",
        r.stderr
    );
}

#[test]
fn long_layout_with_default_roles_matches_wide() {
    let dir = tempfile::tempdir().unwrap();
    let wide = "J1,J2,A1,A2\n1,2,3,4\n2,1,4,2\n3,3,1,1\n0,5,2,3\n";
    common::write(dir.path(), "w.csv", wide.as_bytes());
    let mut long = String::from("item\trater\tscore\n");
    for (i, line) in wide.lines().skip(1).enumerate() {
        for (name, v) in ["J1", "J2", "A1", "A2"].iter().zip(line.split(',')) {
            writeln!(long, "it{i}\t{name}\t{v}").unwrap();
        }
    }
    common::write(dir.path(), "l.tsv", long.as_bytes());
    let a = run(dir.path(), &["estimate", "w.csv", "--json"]);
    let b = run(
        dir.path(),
        &["estimate", "l.tsv", "--long", "item,rater,score", "--json"],
    );
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(b.code, 0, "{}", b.stderr);
    let ea: serde_json::Value = serde_json::from_str(&a.stdout).unwrap();
    let eb: serde_json::Value = serde_json::from_str(&b.stdout).unwrap();
    assert_eq!(ea["estimate"], eb["estimate"]);
}
