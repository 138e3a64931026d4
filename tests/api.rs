//! The in-memory entry (`rhoscope::api`) against the binary: the same `--json` bytes, from a
//! path and from columns held in memory.

#![cfg(feature = "cli")]

use std::ffi::OsString;
use std::process::Command;

use rhoscope::api::{self, Column};

const MID: &str = "assets/mid.csv";

fn binary(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rhoscope"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn api_text(args: &[&str], shown: Option<&str>) -> String {
    let argv: Vec<OsString> = std::iter::once("rhoscope")
        .chain(args.iter().copied())
        .map(OsString::from)
        .collect();
    let o = api::json(argv, None, shown, &|| false).unwrap();
    let mut s = serde_json::to_string_pretty(&o.doc).unwrap();
    s.push('\n');
    s
}

#[test]
fn estimate_and_battery_are_the_binarys_json() {
    for args in [
        vec!["estimate", MID, "--json"],
        vec![
            "estimate",
            "assets/three-anchor.csv",
            "--method",
            "all",
            "--json",
        ],
        vec![
            "battery",
            MID,
            "--bootstrap",
            "100",
            "--null-draws",
            "100",
            "--json",
        ],
        vec!["identify", "--json"],
    ] {
        // A next step's change is the one string each front end words as code of its own
        // (Python: `families={…}`); the rest is the binary's document byte for byte.
        let api = api_text(&args, None);
        assert!(!api.contains("\"cli\": \"--"), "{args:?}");
        // The loader's notes lead `notes` too, their settings worded by each front end.
        let api = api.replace("(families= overrides)", "(--families overrides)");
        assert_eq!(
            without_changes(&api),
            without_changes(&binary(&args)),
            "{args:?}"
        );
    }
}

/// A pretty-printed document without its `"cli"` lines.
fn without_changes(doc: &str) -> String {
    doc.lines()
        .filter(|l| !l.trim_start().starts_with("\"cli\": "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn columns_in_memory_load_as_the_file() {
    let text = std::fs::read_to_string(MID).unwrap();
    let mut lines = text.lines();
    let names: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let mut cols = vec![Vec::new(); names.len()];
    for line in lines {
        for (c, x) in line.split(',').enumerate() {
            cols[c].push(x.parse::<f64>().unwrap());
        }
    }
    let refs: Vec<Column<'_>> = cols.iter().map(|c| Column::Numbers(c)).collect();
    let temp = api::wide_panel(&names, &refs).unwrap();
    let path = temp.path().to_str().unwrap();
    let got = api_text(&["estimate", path, "--json"], Some(MID));
    assert_eq!(got, binary(&["estimate", MID, "--json"]));
}

#[test]
fn a_cancelled_battery_stops_as_an_interrupt() {
    let argv: Vec<OsString> = ["rhoscope", "battery", MID]
        .into_iter()
        .map(OsString::from)
        .collect();
    let e = api::json(argv, None, None, &|| true).unwrap_err();
    assert_eq!(e.exit_code(), 130);
}

#[test]
fn each_call_has_its_own_threads_and_the_same_numbers() {
    let quick = ["--bootstrap", "100", "--null-draws", "100", "--seed", "3"];
    let docs: Vec<String> = ["1", "2", "1"]
        .iter()
        .map(|t| {
            let mut args = vec!["--threads", t, "battery", MID];
            args.extend(quick);
            api_text(&args, None)
        })
        .collect();
    assert!(
        docs.iter().all(|d| *d == docs[0]),
        "equal at any thread count"
    );
    let dir = tempfile::tempdir().unwrap();
    for (k, t) in ["2", "1"].iter().enumerate() {
        let out = dir.path().join(format!("sim{k}.csv"));
        let argv: Vec<OsString> = [
            "rhoscope",
            "--threads",
            t,
            "simulate",
            "--n",
            "100",
            "--seed",
            "5",
            "-o",
        ]
        .iter()
        .map(OsString::from)
        .chain(std::iter::once(out.into_os_string()))
        .collect();
        api::files(argv, None).unwrap();
    }
    let read = |k: usize| std::fs::read(dir.path().join(format!("sim{k}.csv"))).unwrap();
    assert_eq!(read(0), read(1));
}
