//! A families file the user never asked for (the folder's `families.csv`, or the panel's own
//! `FILE.families.csv` sidecar) never blocks a role change: its rows for columns that are not
//! judges here are skipped with one note; a file given with `--families` still refuses.
//! Each test failed before the fix (the adopted file refused the whole panel).
#![cfg(feature = "cli")]

mod common;

use common::{run, write};
use std::fmt::Write as _;
use std::path::Path;

/// A panel of 4 judges and 2 anchors, 60 items, varied values.
fn panel() -> String {
    let mut s = String::from("J1,J2,J3,J4,A1,A2\n");
    for i in 0..60u32 {
        let x = |k: u32| f64::from((i * 7 + k * 5) % 13) / 3.0 + f64::from(i % 4) + f64::from(k);
        writeln!(s, "{},{},{},{},{},{}", x(1), x(2), x(3), x(4), x(5), x(6)).unwrap();
    }
    s
}

const FAMILIES: &[u8] = b"judge,family\nJ1,f\nJ2,f\nJ3,g\nJ4,g\n";

fn folder(dir: &Path, families_name: &str) {
    write(dir, "p.csv", panel().as_bytes());
    write(dir, families_name, FAMILIES);
}

#[test]
fn a_judge_made_an_anchor_skips_the_folder_files_row_with_one_note() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path(), "families.csv");
    for cmd in ["estimate", "battery"] {
        let mut args = vec![
            cmd,
            "p.csv",
            "--judges",
            "J2,J3,J4",
            "--anchors",
            "J1,A1,A2",
        ];
        if cmd == "battery" {
            args.extend(["--null-draws", "20", "--bootstrap", "100"]);
        }
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 0, "{cmd}: {}", r.stderr);
        let notes: Vec<&str> = r
            .stderr
            .lines()
            .filter(|l| l.contains("families.csv beside it"))
            .collect();
        assert_eq!(notes.len(), 1, "{cmd}: {}", r.stderr);
        assert!(
            notes[0].contains("its row for J1 skipped: not a judge in this panel"),
            "{cmd}: {}",
            r.stderr
        );
    }
}

#[test]
fn judges_set_aside_or_left_out_skip_the_own_sidecars_rows() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path(), "p.families.csv");
    let r = run(dir.path(), &["estimate", "p.csv", "--set-aside", "J4"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("its row for J4 skipped"), "{}", r.stderr);
    let r = run(dir.path(), &["estimate", "p.csv", "--judges", "J1,J2"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("its rows for J3, J4 skipped"),
        "{}",
        r.stderr
    );
    // The judges that stay keep their families.
    assert!(r.stdout.contains("J1=f, J2=f"), "{}", r.stdout);
}

#[test]
fn a_families_file_asked_for_still_refuses_a_row_for_an_anchor_or_a_non_judge() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", panel().as_bytes());
    write(dir.path(), "fam.csv", FAMILIES);
    let r = run(
        dir.path(),
        &[
            "estimate",
            "p.csv",
            "--judges",
            "J2,J3,J4",
            "--anchors",
            "J1,A1,A2",
            "--families",
            "fam.csv",
        ],
    );
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(
        r.stderr.contains("names an anchor, not a judge"),
        "{}",
        r.stderr
    );
    let r = run(
        dir.path(),
        &[
            "estimate",
            "p.csv",
            "--set-aside",
            "J4",
            "--families",
            "fam.csv",
        ],
    );
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(
        r.stderr.contains("names a judge the panel does not have"),
        "{}",
        r.stderr
    );
}

#[test]
fn explore_keeps_typed_roles_an_adopted_file_once_refused_and_refuses_roles_that_break() {
    let dir = tempfile::tempdir().unwrap();
    folder(dir.path(), "families.csv");
    // Roles the adopted file used to refuse now reach the explorer (which then wants a terminal).
    let r = run(
        dir.path(),
        &[
            "explore",
            "p.csv",
            "--judges",
            "J2,J3,J4",
            "--anchors",
            "J1,A1,A2",
        ],
    );
    assert!(
        r.stderr.contains("needs an interactive terminal"),
        "{}",
        r.stderr
    );
    // Typed roles the file cannot take are refused in the commands' one line, not dropped inside.
    let mut text = String::from("T,");
    text.push_str(&panel().replace('\n', "\nx,"));
    text.truncate(text.len() - 2);
    write(dir.path(), "t.csv", text.as_bytes());
    let r = run(
        dir.path(),
        &[
            "explore",
            "t.csv",
            "--judges",
            "T,J2,J3",
            "--anchors",
            "A1,A2",
        ],
    );
    assert_ne!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("column 'T'"), "{}", r.stderr);
}
