//! One-line errors with distinct exit codes for designs and flags the issue tracker found
//! mishandled: too many families, negative flag values, and output that cannot be written.

#![cfg(feature = "cli")]

mod common;

use std::process::{Command, Stdio};

use common::run;

#[test]
fn more_families_than_judges_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    for k in ["7", "8", "9"] {
        let set = format!("families={k}");
        let runs = [
            vec![
                "simulate", "--preset", "families", "--set", &set, "--n", "5", "--seed", "1",
            ],
            vec![
                "plot", "rho", "--preset", "families", "--set", &set, "-o", "f.svg",
            ],
            vec![
                "plan",
                "--preset",
                "families",
                "--set",
                &set,
                "--target",
                "ci-width=0.5",
            ],
        ];
        for args in runs {
            let r = run(dir.path(), &args);
            assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
            assert!(
                r.stderr
                    .contains(&format!("families = {k} exceeds p = 6 judges")),
                "{args:?}: {}",
                r.stderr
            );
            assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        }
    }
    let r = run(
        dir.path(),
        &[
            "simulate",
            "--preset",
            "families",
            "--set",
            "families=6",
            "--n",
            "5",
            "--seed",
            "1",
            "-o",
            "six.csv",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let fam = std::fs::read_to_string(dir.path().join("six.families.csv")).unwrap();
    for k in 1..=6 {
        assert!(fam.contains(&format!("F{k}")), "{fam}");
    }
}

#[test]
fn negative_numbers_are_flag_values() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &[
            "power",
            "--design",
            "test-a",
            "--strength",
            "-1",
            "--n",
            "100",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("--strength: '-1' is out of range"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("unexpected argument"), "{}", r.stderr);
    let r = run(
        dir.path(),
        &["plot", "power", "--strength", "-0.5", "-o", "p.svg"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("--strength: '-0.5' is out of range"),
        "{}",
        r.stderr
    );
    let r = run(dir.path(), &["simulate", "--n", "5", "--seed", "-1"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("--seed: -1 is out of range"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("unexpected argument"), "{}", r.stderr);
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_of_any_output_is_exit_74() {
    for args in [
        &["--help"][..],
        &["simulate", "--help"],
        &["--version"],
        &["simulate", "--n", "5", "--seed", "1"],
        &["completions", "bash"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_rhoscope"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(74), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}
