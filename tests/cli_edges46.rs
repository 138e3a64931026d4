//! The command line's edges from the s45 hostile pass, second part: each test failed before its
//! fix.
#![cfg(feature = "cli")]

mod common;

use std::fmt::Write as _;

use common::{run, write};

/// assets/three-anchor.csv as its header and rows of cells as written.
fn three_anchor() -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(common::root().join("assets/three-anchor.csv")).unwrap();
    let mut lines = text.lines();
    let names = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    (names, rows)
}

/// One row as a JSON object `{"J1": x, …}`, the numbers as the CSV writes them.
fn object(names: &[String], row: &[String]) -> String {
    let kv: Vec<String> = names
        .iter()
        .zip(row)
        .map(|(n, v)| format!("\"{n}\": {v}"))
        .collect();
    format!("{{{}}}", kv.join(", "))
}

/// The report without its first line (which names the file).
fn body(stdout: &str) -> String {
    stdout.lines().skip(1).collect::<Vec<_>>().join("\n")
}

#[test]
fn pandas_orients_index_split_and_table_read_as_the_csv_does() {
    let (names, rows) = three_anchor();
    let dir = tempfile::tempdir().unwrap();
    let index: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| format!("\"{i}\": {}", object(&names, r)))
        .collect();
    write(
        dir.path(),
        "index.json",
        format!("{{{}}}", index.join(", ")).as_bytes(),
    );
    let quoted: Vec<String> = names.iter().map(|n| format!("\"{n}\"")).collect();
    let data: Vec<String> = rows.iter().map(|r| format!("[{}]", r.join(", "))).collect();
    let labels: Vec<String> = (0..rows.len()).map(|i| i.to_string()).collect();
    let split = format!(
        "{{\"columns\": [{}], \"index\": [{}], \"data\": [{}]}}",
        quoted.join(", "),
        labels.join(", "),
        data.join(", ")
    );
    write(dir.path(), "split.json", split.as_bytes());
    let records: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| object(&names, r).replacen('{', &format!("{{\"index\": {i}, "), 1))
        .collect();
    let fields: Vec<String> = names
        .iter()
        .map(|n| format!("{{\"name\": \"{n}\", \"type\": \"number\"}}"))
        .collect();
    let table = format!(
        "{{\"schema\": {{\"fields\": [{{\"name\": \"index\", \"type\": \"integer\"}}, {}], \"primaryKey\": [\"index\"], \"pandas_version\": \"1.4.0\"}}, \"data\": [{}]}}",
        fields.join(", "),
        records.join(", ")
    );
    write(dir.path(), "table.json", table.as_bytes());
    let csv = std::fs::read(common::root().join("assets/three-anchor.csv")).unwrap();
    write(dir.path(), "ta.csv", &csv);
    let want = run(dir.path(), &["estimate", "ta.csv"]);
    assert_eq!(want.code, 0, "{}", want.stderr);
    for f in ["index.json", "split.json", "table.json"] {
        let r = run(dir.path(), &["estimate", f]);
        assert_eq!(r.code, 0, "{f}: {}", r.stderr);
        assert_eq!(body(&r.stdout), body(&want.stdout), "{f}");
    }
}

#[test]
fn pandas_orients_that_cannot_be_told_apart_are_refused_naming_the_orient() {
    let dir = tempfile::tempdir().unwrap();
    // Numbers outside and inside: orient='columns' of integer columns or orient='index'.
    let mut cells = Vec::new();
    for outer in 0..5 {
        let inner: Vec<String> = (0..6).map(|i| format!("\"{i}\": {}", i * outer)).collect();
        cells.push(format!("\"{outer}\": {{{}}}", inner.join(", ")));
    }
    write(
        dir.path(),
        "both.json",
        format!("{{{}}}", cells.join(", ")).as_bytes(),
    );
    write(dir.path(), "values.json", b"[[1, 2, 3], [4, 5, 6]]");
    for (f, orient) in [("both.json", "orient='index'"), ("values.json", "'values'")] {
        let r = run(dir.path(), &["estimate", f]);
        let err = r.stderr.trim_end();
        assert_eq!(r.code, 65, "{f}: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains(orient) && err.contains("orient='records'"),
            "{err}"
        );
    }
}

#[test]
fn pandas_index_column_is_not_taken_as_a_judge_by_position() {
    let (names, rows) = three_anchor();
    let dir = tempfile::tempdir().unwrap();
    let mut text = format!("Unnamed: 0,{}\n", names.join(","));
    for (i, r) in rows.iter().enumerate() {
        let _ = writeln!(text, "{i},{}", r.join(","));
    }
    write(dir.path(), "pd.csv", text.as_bytes());
    let r = run(
        dir.path(),
        &[
            "estimate",
            "pd.csv",
            "--judges",
            "1,2,3",
            "--anchors",
            "8,9",
        ],
    );
    let err = r.stderr.trim_end();
    assert_eq!(r.code, 2, "{err}");
    assert!(err.contains("Unnamed: 0") && err.contains("index"), "{err}");
}

#[test]
fn long_json_refuses_a_boolean_array_or_object_as_an_id() {
    let dir = tempfile::tempdir().unwrap();
    for (i, odd) in ["true", "[1, 2]", "{\"a\": 1}"].iter().enumerate() {
        for key in ["item", "rater"] {
            let mut lines = Vec::new();
            for item in 0..40 {
                for (k, rater) in ["J1", "J2", "J3", "A1", "A2"].iter().enumerate() {
                    let score = ((item * 7 + k * 3) % 11) as f64 / 3.0;
                    let (it, ra) = match (item, k, key) {
                        (2, 1, "item") => (odd.to_string(), format!("\"{rater}\"")),
                        (2, 1, _) => (item.to_string(), odd.to_string()),
                        _ => (item.to_string(), format!("\"{rater}\"")),
                    };
                    lines.push(format!(
                        "{{\"item\": {it}, \"rater\": {ra}, \"score\": {score}}}"
                    ));
                }
            }
            let name = format!("l{i}{key}.jsonl");
            write(dir.path(), &name, lines.join("\n").as_bytes());
            let r = run(
                dir.path(),
                &["estimate", &name, "--long", "item,rater,score"],
            );
            let err = r.stderr.trim_end();
            assert_eq!(r.code, 65, "{name}: {err}");
            // Row 12: item 2's second record.
            assert!(
                err.contains(&format!("row 12, column '{key}'")) && err.contains("id"),
                "{err}"
            );
        }
    }
}

#[test]
fn a_folder_families_file_in_utf16_is_refused_as_the_sidecar_is() {
    let dir = tempfile::tempdir().unwrap();
    let sim = [
        "simulate", "--preset", "mid", "--n", "30", "--seed", "1", "-o", "r.csv",
    ];
    assert_eq!(run(dir.path(), &sim).code, 0);
    let text = "judge,family\nJ1,a\nJ2,a\nJ3,b\nJ4,b\n";
    let mut utf16 = vec![0xFF, 0xFE];
    utf16.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    for name in ["families.csv", "r.families.csv"] {
        let f = write(dir.path(), name, &utf16);
        let r = run(dir.path(), &["estimate", "r.csv"]);
        let err = r.stderr.trim_end();
        assert_eq!(r.code, 65, "{name}: {err}");
        assert!(err.contains(name) && err.contains("UTF-16"), "{err}");
        std::fs::remove_file(f).unwrap();
    }
}

#[test]
fn the_drop_note_is_in_json_notes_and_names_the_long_layouts_item_and_rater() {
    let (names, rows) = three_anchor();
    let dir = tempfile::tempdir().unwrap();
    let mut wide = format!("{}\n", names.join(","));
    let mut long = String::from("item,rater,score\n");
    for (i, r) in rows.iter().enumerate() {
        let mut r = r.clone();
        if i == 3 {
            r[0] = "NA".into();
        }
        let _ = writeln!(wide, "{}", r.join(","));
        for (n, x) in names.iter().zip(&r) {
            // Item 4 has no row for J3.
            if !(i == 4 && n == "J3") {
                let _ = writeln!(long, "{i},{n},{x}");
            }
        }
    }
    write(dir.path(), "na.csv", wide.as_bytes());
    write(dir.path(), "gap.csv", long.as_bytes());
    for cmd in ["estimate", "battery", "identify"] {
        let r = run(dir.path(), &[cmd, "na.csv", "--json"]);
        assert_eq!(r.code, 0, "{cmd}: {}", r.stderr);
        let doc: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        let notes = doc["notes"].as_array().unwrap();
        assert!(
            notes.iter().any(|n| n
                .as_str()
                .unwrap()
                .contains("row 5, column 'J1': note: 1 of 500 items dropped")),
            "{cmd}: {notes:?}"
        );
    }
    let r = run(
        dir.path(),
        &["estimate", "gap.csv", "--long", "item,rater,score"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Item 3's NA (J1) comes first; its first row is 1 + 3 × 9 + 1 = 29.
    assert!(
        r.stderr.contains(
            "item '3' has no score by rater 'J1' in column 'rater'; the item's first row is 29"
        ),
        "{}",
        r.stderr
    );
}

/// `oj.csv` in `dir`: the mid design with five-level judges, a panel `estimate` refuses.
fn ordinal_judges_panel(dir: &std::path::Path) {
    let sim = [
        "simulate",
        "--preset",
        "mid",
        "--n",
        "300",
        "--seed",
        "1",
        "--set",
        "ordinal=judges:5",
        "-o",
        "oj.csv",
    ];
    assert_eq!(run(dir, &sim).code, 0);
}

#[test]
fn plot_rho_and_bootstrap_refuse_up_front_as_estimate_does() {
    let dir = tempfile::tempdir().unwrap();
    let ta = common::root().join("assets/three-anchor.csv");
    let ta = ta.to_str().unwrap();
    ordinal_judges_panel(dir.path());
    let cases: [(&[&str], &[&str]); 2] = [
        (&[ta, "--anchors", "A1"], &[ta, "--anchors", "A1"]),
        (&["oj.csv"], &["oj.csv"]),
    ];
    for (panel, est) in cases {
        let mut e = vec!["estimate"];
        e.extend(est);
        let want = run(dir.path(), &e);
        assert_ne!(want.code, 0, "{}", want.stderr);
        for kind in ["rho", "bootstrap"] {
            let mut p = vec!["plot", kind];
            p.extend(panel);
            p.extend(["--bootstrap", "100", "-o", "f.svg"]);
            let r = run(dir.path(), &p);
            assert_eq!(r.code, want.code, "{kind} {panel:?}: {}", r.stderr);
            assert_eq!(r.stderr, want.stderr, "{kind} {panel:?}");
        }
    }
}

#[test]
fn designated_clean_on_a_panel_rho_is_not_identified_on_gives_estimates_reason() {
    let dir = tempfile::tempdir().unwrap();
    ordinal_judges_panel(dir.path());
    let want = run(dir.path(), &["estimate", "oj.csv"]);
    assert_eq!(want.code, 3, "{}", want.stderr);
    let r = run(
        dir.path(),
        &["estimate", "oj.csv", "--designated-clean", "A1"],
    );
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert_eq!(r.stderr, want.stderr);
    assert!(!r.stderr.contains("ordinal anchors"), "{}", r.stderr);
}

#[test]
fn continuous_naming_a_column_with_no_role_says_it_takes_none() {
    let ta = common::root().join("assets/three-anchor.csv");
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &[
            "estimate",
            ta.to_str().unwrap(),
            "--set-aside",
            "J6",
            "--continuous",
            "J6",
        ],
    );
    let err = r.stderr.trim_end();
    assert_eq!(r.code, 2, "{err}");
    assert!(
        err.contains("'J6', a column of the file that takes no role"),
        "{err}"
    );
}

#[test]
fn scale_notes_print_numbers_with_significant_digits() {
    let (names, rows) = three_anchor();
    let dir = tempfile::tempdir().unwrap();
    let mut text = format!("{}\n", names.join(","));
    for r in &rows {
        let mut r: Vec<String> = r.clone();
        r[6] = format!("{:e}", r[6].parse::<f64>().unwrap() * 1e85);
        r[7] = format!("{:e}", r[7].parse::<f64>().unwrap() * 1e-40);
        let _ = writeln!(text, "{}", r.join(","));
    }
    write(dir.path(), "scaled.csv", text.as_bytes());
    let r = run(dir.path(), &["estimate", "scaled.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let all = format!("{}{}", r.stdout, r.stderr);
    assert!(!all.contains("SD 0.000"), "{all}");
    assert!(!all.contains("000000000000"), "{all}");
    assert!(all.contains("e85"), "{all}");
}

#[test]
fn an_excel_sep_line_is_named_as_such() {
    let ta = std::fs::read(common::root().join("assets/three-anchor.csv")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = b"sep=,\n".to_vec();
    bytes.extend(ta);
    write(dir.path(), "excelsep.csv", &bytes);
    let r = run(dir.path(), &["estimate", "excelsep.csv"]);
    let err = r.stderr.trim_end();
    assert_eq!(r.code, 65, "{err}");
    assert!(err.contains("Excel's 'sep=' hint line"), "{err}");
}

#[cfg(all(unix, feature = "tui"))]
#[test]
fn tab_never_completes_past_a_name_that_is_not_utf8() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"s\xff\xfe.csv");
    std::fs::write(dir.path().join(name), b"J1,J2\n1,2\n").unwrap();
    let typed = format!("{}/s", dir.path().display());
    let (completed, _) = rhoscope::tui::complete(&typed);
    assert_eq!(completed, typed);
}
