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
    // The three off-diagonal covariances give Test A's statistic 0.5888 (docs/method.md §3): sd with
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
    // Integer codes would be all ordinal (ρ not identified): read them as numbers.
    let a = run(
        dir.path(),
        &["estimate", "w.csv", "--continuous", "all", "--json"],
    );
    let b = run(
        dir.path(),
        &[
            "estimate",
            "l.tsv",
            "--long",
            "item,rater,score",
            "--continuous",
            "all",
            "--json",
        ],
    );
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(b.code, 0, "{}", b.stderr);
    let ea: serde_json::Value = serde_json::from_str(&a.stdout).unwrap();
    let eb: serde_json::Value = serde_json::from_str(&b.stdout).unwrap();
    assert_eq!(ea["estimate"], eb["estimate"]);
}

/// Bits of every value, so that -0.0 and NaN payloads count too.
fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn a_simulated_panel_reads_back_bit_identical_in_every_dialect() {
    // 30,000 rows (about 4.5 MB): many parallel chunks of the fast reader. The same text with
    // BOM + CRLF + semicolons, and with a quoted header (which takes the csv reader), must give
    // the same bits as the panel that was written.
    let pm = rhoscope::scenario::preset("families").unwrap();
    let panel = rhoscope::simulate::simulate(&pm, 30_000, 9).unwrap();
    let mut text = Vec::new();
    panel.write_csv(&mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut odd = b"\xEF\xBB\xBF".to_vec();
    odd.extend(text.replace(',', ";").replace('\n', "\r\n").bytes());
    let quoted = text.replacen("J1,", "\"J1\",", 1);
    let opts = LoadOptions::default();
    for (name, bytes) in [
        ("plain.csv", text.as_bytes()),
        ("odd.csv", &odd[..]),
        ("quoted.csv", quoted.as_bytes()),
    ] {
        let path = common::write(dir.path(), name, bytes);
        let loaded = load(&path, &opts).unwrap();
        assert_eq!(loaded.panel.n, 30_000, "{name}");
        assert_eq!(loaded.panel.judges, panel.judges, "{name}");
        assert_eq!(bits(&loaded.panel.data), bits(&panel.data), "{name}");
        assert_eq!(loaded.header.len(), 8, "{name}");
    }
}

#[test]
fn missing_markers_drop_the_same_items_in_both_readers() {
    // NA, NaN, null and empty cells, with blank lines between rows: the fast reader (no
    // quotes) and the csv reader (a quote in one cell) must drop the same items and name the
    // same first dropped row.
    let mut s = String::from("J1,J2,J3,A1,A2\n");
    for i in 0..2_000u32 {
        let cell = match i % 11 {
            0 => "NA",
            3 => "nan",
            5 => "null",
            7 => "",
            _ => ["1.5", "2.5", "4"][i as usize % 3],
        };
        let x = f64::from(i) * 0.37;
        writeln!(
            s,
            "{x},{},{cell},{},{}",
            x.sin(),
            f64::from(i % 13),
            x.cos()
        )
        .unwrap();
        if i % 100 == 0 {
            s.push_str("\n  \n");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let fast = common::write(dir.path(), "fast.csv", s.as_bytes());
    let slow = common::write(
        dir.path(),
        "slow.csv",
        s.replacen(",4,", ",\"4\",", 1).as_bytes(),
    );
    assert!(std::fs::read(&slow).unwrap().contains(&b'"'));
    let a = load(&fast, &LoadOptions::default()).unwrap();
    let b = load(&slow, &LoadOptions::default()).unwrap();
    let dropped = (0..2_000)
        .filter(|i| [0, 3, 5, 7].contains(&(i % 11)))
        .count();
    assert_eq!(a.panel.n_dropped, dropped);
    assert_eq!(bits(&a.panel.data), bits(&b.panel.data));
    assert_eq!(a.panel.missing, b.panel.missing);
    assert_eq!(a.first_dropped, b.first_dropped);
    assert_eq!(a.first_dropped.unwrap().row, Some(2));
}
