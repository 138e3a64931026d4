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
