//! `export` with hostile header names: the scripts select the judge and anchor columns by
//! their place in the file, so no name has to survive quoting or another reader's trimming;
//! only comments show the names, sanitised.

#![cfg(feature = "cli")]

mod common;

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use common::{run, write};

/// The names as written in the file (after CSV unquoting), judges then anchors.
const NAMES: [&str; 8] = [
    "J\u{7}bell",
    "J\"quote",
    "J\\back",
    "J\u{202E}rtl",
    "J\u{1b}[31mred",
    "J6",
    "A1",
    "A2",
];

/// A simulated panel with the hostile header.
fn hostile(dir: &Path) {
    let r = run(
        dir,
        &["simulate", "--n", "200", "--seed", "3", "-o", "base.csv"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(dir.join("base.csv")).unwrap();
    let body = text.split_once('\n').unwrap().1;
    let header: Vec<String> = NAMES
        .iter()
        .map(|n| format!("\"{}\"", n.replace('"', "\"\"")))
        .collect();
    write(
        dir,
        "h.csv",
        format!("{}\n{body}", header.join(",")).as_bytes(),
    );
}

fn export(dir: &Path, syntax: &str) -> String {
    let r = run(
        dir,
        &[
            "export",
            "h.csv",
            "--judges",
            "1,2,3,4,5,6",
            "--anchors",
            "7,8",
            "--syntax",
            syntax,
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    r.stdout
}

#[test]
fn semopy_and_lavaan_select_the_columns_by_place() {
    let dir = tempfile::tempdir().unwrap();
    hostile(dir.path());
    for (syntax, prefix, places) in [
        ("semopy", "d = d.iloc[:, [", "0, 1, 2, 3, 4, 5, 6, 7]]"),
        ("lavaan", "d <- d[, c(", "1, 2, 3, 4, 5, 6, 7, 8)]"),
    ] {
        let script = export(dir.path(), syntax);
        let line = script
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("{syntax}: no selection line in\n{script}"));
        assert_eq!(line, format!("{prefix}{places}"), "{syntax}");
        for l in script.lines().filter(|l| l.starts_with('#')) {
            assert!(
                !l.chars().any(|c| c.is_control() || c == '\u{202E}'),
                "{syntax}: a comment carries a control character: {l:?}"
            );
        }
        assert!(
            !script.contains('\u{1b}') && !script.contains('\u{7}'),
            "{syntax}"
        );
    }
}

/// Python's csv module (which reads a header as pandas does) finds the file's judge and
/// anchor names at the places the semopy script selects (skipped, with a message, where
/// python3 is not installed).
#[test]
fn python_finds_the_names_at_the_semopy_places() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    hostile(dir.path());
    let script = export(dir.path(), "semopy");
    let line = script
        .lines()
        .find(|l| l.starts_with("d = d.iloc[:, "))
        .unwrap();
    let list = line
        .strip_prefix("d = d.iloc[:, ")
        .and_then(|l| l.strip_suffix(']'))
        .unwrap();
    // Each name as a Python literal, every character escaped.
    let names: Vec<String> = NAMES
        .iter()
        .map(|n| {
            let mut lit = String::from("\"");
            for c in n.chars() {
                write!(lit, "\\U{:08x}", u32::from(c)).unwrap();
            }
            lit + "\""
        })
        .collect();
    let check = format!(
        "import csv, sys\nheader = next(csv.reader(open('h.csv', newline='', encoding='utf-8')))\nwant = [{}]\nsys.exit(0 if [header[i] for i in {list}] == want else 1)\n",
        names.join(", ")
    );
    write(dir.path(), "check.py", check.as_bytes());
    let out = Command::new("python3")
        .arg("check.py")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}\n{line}",
        String::from_utf8_lossy(&out.stderr)
    );
}
