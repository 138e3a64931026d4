//! `export` with hostile header names: the scripts' string literals carry the names as
//! written in the file (escaped for R and Python), so the scripts select the right columns;
//! only comments show the sanitised names.

#![cfg(feature = "cli")]

mod common;

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

/// Reads back a double-quoted literal as R and Python both do for the escapes rhoscope
/// writes (\\, \", \n, \t, \uXXXX).
fn unquote(lit: &str) -> String {
    let inner = lit
        .strip_prefix('"')
        .and_then(|l| l.strip_suffix('"'))
        .unwrap();
    let mut out = String::new();
    let mut it = inner.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            assert!(c != '"', "an unescaped quote in {lit}");
            out.push(c);
            continue;
        }
        match it.next().unwrap() {
            'n' => out.push('\n'),
            't' => out.push('\t'),
            'u' => {
                let hex: String = it.by_ref().take(4).collect();
                out.push(char::from_u32(u32::from_str_radix(&hex, 16).unwrap()).unwrap());
            }
            other => out.push(other),
        }
    }
    out
}

/// The string literals of a `[...]` or `c(...)` list of plain literals.
fn literals(list: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut inside, mut escaped) = (false, false);
    for c in list.chars() {
        if inside {
            cur.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                inside = false;
                out.push(unquote(&cur));
                cur.clear();
            }
        } else if c == '"' {
            inside = true;
            cur.push(c);
        }
    }
    out
}

#[test]
fn semopy_and_lavaan_select_the_real_names() {
    let dir = tempfile::tempdir().unwrap();
    hostile(dir.path());
    for (syntax, prefix) in [("semopy", "d = d[["), ("lavaan", "d <- d[, c(")] {
        let script = export(dir.path(), syntax);
        let line = script
            .lines()
            .find(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("{syntax}: no selection line in\n{script}"));
        assert_eq!(literals(line), NAMES, "{syntax}: {line}");
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

/// Python reads the selection line's literals back as the file's names (skipped, with a
/// message, where python3 is not installed).
#[test]
fn python_reads_the_semopy_literals_back() {
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipped: python3 is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    hostile(dir.path());
    let script = export(dir.path(), "semopy");
    let line = script.lines().find(|l| l.starts_with("d = d[[")).unwrap();
    let list = line
        .strip_prefix("d = d[")
        .and_then(|l| l.strip_suffix(']'))
        .unwrap();
    // Python's csv module reads the header as pandas does; the script's list must equal it.
    let check = format!(
        "import csv, sys\nheader = next(csv.reader(open('h.csv', newline='', encoding='utf-8')))\ncols = {list}\nsys.exit(0 if all(c in header for c in cols) and len(cols) == 8 else 1)\n"
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
