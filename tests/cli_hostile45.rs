//! The command line's edges from the s45 hostile pass: each test failed before its fix.
#![cfg(feature = "cli")]

mod common;

use common::{run, write};

#[test]
fn a_parquet_page_whose_dictionary_is_corrupt_is_refused_not_a_panic() {
    let fixture = common::root().join("tests/fixtures/pipeline_snappy.parquet");
    let mut bytes = std::fs::read(&fixture).unwrap();
    // One byte of a dictionary-encoded page: the parquet crate's decoder panics on it.
    bytes[4746] = 0o210;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.parquet", &bytes);
    let r = run(dir.path(), &["estimate", "p.parquet"]);
    let err = r.stderr.trim_end();
    assert_eq!(r.code, 65, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("p.parquet") && err.contains("Parquet file is corrupt"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn a_simulated_panel_with_values_beyond_2_pow_53_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    let sim = [
        "simulate",
        "--preset",
        "mid",
        "--n",
        "30",
        "--seed",
        "1",
        "--set",
        "sigma_t2=1e34",
        "-o",
        "m.csv",
    ];
    assert_eq!(run(dir.path(), &sim).code, 0);
    let r = run(dir.path(), &["estimate", "m.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The export's data file (written for a source R cannot read, here JSON) must read back too.
    let text = std::fs::read_to_string(dir.path().join("m.csv")).unwrap();
    let mut lines = text.lines();
    let names: Vec<&str> = lines.next().unwrap().split(',').collect();
    let records: Vec<String> = lines
        .map(|l| {
            let kv: Vec<String> = names
                .iter()
                .zip(l.split(','))
                .map(|(n, v)| format!("\"{n}\": {v}"))
                .collect();
            format!("{{{}}}", kv.join(", "))
        })
        .collect();
    write(
        dir.path(),
        "m.json",
        format!("[{}]", records.join(",\n")).as_bytes(),
    );
    let e = run(dir.path(), &["export", "m.json", "-o", "m.R"]);
    assert_eq!(e.code, 0, "{}", e.stderr);
    let r = run(dir.path(), &["estimate", "m.data.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}
