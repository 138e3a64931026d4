//! The command line's edges from the s44 hostile pass (issue 34): each test failed before its
//! fix.
#![cfg(feature = "cli")]

mod common;

use common::{run, write};
use std::fmt::Write as _;

/// A panel of 3 judges and 2 anchors, 40 items, varied values, as CSV rows.
fn rows() -> Vec<[f64; 5]> {
    (0..40u32)
        .map(|i| {
            let x =
                |k: u32| f64::from((i * 7 + k * 5) % 13) / 3.0 + f64::from(i % 4) + f64::from(k);
            [x(1), x(2), x(3), x(4), x(5)]
        })
        .collect()
}

const NAMES: [&str; 5] = ["J1", "J2", "J3", "A1", "A2"];

/// The panel as JSON Lines, record `at` (0-based) field J2 written as `cell`.
fn jsonl(at: usize, cell: &str) -> String {
    let mut s = String::new();
    for (i, r) in rows().iter().enumerate() {
        let f: Vec<String> = NAMES
            .iter()
            .zip(r)
            .map(|(n, x)| {
                let v = if i == at && *n == "J2" {
                    cell.to_string()
                } else {
                    format!("{x:?}")
                };
                format!("\"{n}\": {v}")
            })
            .collect();
        writeln!(s, "{{{}}}", f.join(", ")).unwrap();
    }
    s
}

/// The panel as CSV, data row `at` (0-based) field J2 written as `cell`.
fn csv(at: usize, cell: &str) -> String {
    let mut s = NAMES.join(",") + "\n";
    for (i, r) in rows().iter().enumerate() {
        let f: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(k, x)| {
                if i == at && k == 1 {
                    cell.to_string()
                } else {
                    format!("{x:?}")
                }
            })
            .collect();
        writeln!(s, "{}", f.join(",")).unwrap();
    }
    s
}

#[test]
fn a_json_number_a_double_cannot_hold_is_refused_as_in_a_csv() {
    let dir = tempfile::tempdir().unwrap();
    for (cell, why) in [
        ("1e-400", "too small"),
        ("-4e-330", "too small"),
        ("9.007199254740993e15", "beyond 2^53"),
        ("9007199254740993", "beyond 2^53"),
        ("90071992547409930.0", "beyond 2^53"),
    ] {
        write(dir.path(), "p.jsonl", jsonl(4, cell).as_bytes());
        let r = run(dir.path(), &["estimate", "p.jsonl"]);
        assert_eq!(r.code, 65, "{cell}: {}", r.stderr);
        assert!(
            r.stderr.contains("row 5, column 'J2'"),
            "{cell}: {}",
            r.stderr
        );
        assert!(r.stderr.contains(why), "{cell}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("'{cell}'")),
            "{cell}: {}",
            r.stderr
        );
        write(dir.path(), "p.csv", csv(4, cell).as_bytes());
        let r = run(dir.path(), &["estimate", "p.csv"]);
        assert_eq!(r.code, 65, "{cell}: {}", r.stderr);
        assert!(r.stderr.contains(why), "{cell}: {}", r.stderr);
    }
    // pandas' column layout, and a JSON array of records, are read as written too.
    let cols = r#"{"J1": {"0": 1.0, "1": 2.0, "2": 3.5}, "J2": {"0": 1e-400, "1": 2.5, "2": 1.0}}"#;
    write(dir.path(), "c.json", cols.as_bytes());
    let r = run(dir.path(), &["estimate", "c.json", "--judges", "J1,J2"]);
    assert!(r.stderr.contains("too small"), "{}", r.stderr);
    let arr = format!(
        "[{}]",
        jsonl(2, "1E-999").lines().collect::<Vec<_>>().join(",")
    );
    write(dir.path(), "a.json", arr.as_bytes());
    let r = run(dir.path(), &["estimate", "a.json"]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(r.stderr.contains("row 3, column 'J2'"), "{}", r.stderr);
    // A written zero, and a large double in its shortest form, load.
    write(dir.path(), "z.jsonl", jsonl(4, "0.0e-400").as_bytes());
    assert_eq!(run(dir.path(), &["estimate", "z.jsonl"]).code, 0);
    write(
        dir.path(),
        "b.jsonl",
        jsonl(4, "9007199254740992").as_bytes(),
    );
    let r = run(dir.path(), &["estimate", "b.jsonl"]);
    assert!(!r.stderr.contains("2^53"), "{}", r.stderr);
}

#[test]
fn an_exported_script_selects_columns_by_place_whatever_their_names_carry() {
    // Spaces around a name (quoted or not) and a second BOM: rhoscope trims them, pandas and
    // R keep them, so a script selecting by name missed the column (KeyError).
    let dir = tempfile::tempdir().unwrap();
    let mut body = String::new();
    for (i, l) in csv(0, "1.5").lines().skip(1).enumerate() {
        writeln!(body, "{i},{l}").unwrap();
    }
    for header in [
        "id, J1 ,J2,\" J3\",A1,A2\n",
        "\u{feff}\u{feff}id,J1,J2,J3,A1,A2\n",
    ] {
        write(dir.path(), "p.csv", format!("{header}{body}").as_bytes());
        for (syntax, line) in [
            ("semopy", "d = d.iloc[:, [1, 2, 3, 4, 5]]"),
            ("lavaan", "d <- d[, c(2, 3, 4, 5, 6)]"),
        ] {
            let r = run(
                dir.path(),
                &["export", "p.csv", "--id", "id", "--syntax", syntax],
            );
            assert_eq!(r.code, 0, "{header}: {}", r.stderr);
            assert!(
                r.stdout.lines().any(|l| l == line),
                "{header:?} {syntax}: {}",
                r.stdout
            );
            assert!(!r.stdout.contains("d[["), "{}", r.stdout);
        }
    }
}

/// `rhoscope ARGS` in `dir` under `ulimit -v KB`, with no thread count asked for.
fn run_limited(dir: &std::path::Path, kb: u64, args: &[&str]) -> common::Run {
    let script = format!(
        "ulimit -v {kb} && exec '{}' {}",
        env!("CARGO_BIN_EXE_rhoscope"),
        args.join(" ")
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .current_dir(dir)
        .env_remove("RUST_BACKTRACE")
        .env_remove("RAYON_NUM_THREADS")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh runs");
    common::Run::from(out)
}

#[test]
fn a_thread_pool_refused_without_threads_asked_is_one_line_and_71() {
    // Without --threads the pool was left to rayon's first parallel call, which panicked
    // with a backtrace when the OS refused the workers.
    let ok = std::process::Command::new("sh")
        .args(["-c", "ulimit -v 100000"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: sh with ulimit -v is not available");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", csv(0, "1.5").as_bytes());
    let mut refused = false;
    for kb in (6_000..=40_000).step_by(2_000) {
        let r = run_limited(dir.path(), kb, &["estimate", "p.csv"]);
        // Rust's runtime aborting on a refused allocation cannot be worded (docs: exit 71).
        if r.stderr.contains("memory allocation of")
            || r.stderr.contains("failed to allocate an alternative stack")
        {
            continue;
        }
        assert!(
            !r.stderr.contains("panicked") && !r.stderr.contains("backtrace"),
            "{kb} KiB: {}",
            r.stderr
        );
        if r.code == 71 {
            assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
            assert!(r.stderr.contains("cannot start"), "{}", r.stderr);
            refused = true;
        }
    }
    assert!(refused, "no limit from 6 to 40 MB refused the pool");
}

/// The panel in the long layout (item,rater,score), row `at` (0-based, header excluded)
/// with its item and rater ids replaced where given.
fn long(at: usize, item: Option<&str>, rater: Option<&str>) -> String {
    let mut s = String::from("item,rater,score\n");
    let mut k = 0;
    for (i, r) in rows().iter().enumerate() {
        for (n, x) in NAMES.iter().zip(r) {
            let id = (i + 1).to_string();
            let (it, ra) = if k == at {
                (item.unwrap_or(&id), rater.unwrap_or(n))
            } else {
                (id.as_str(), *n)
            };
            writeln!(s, "{it},{ra},{x:?}").unwrap();
            k += 1;
        }
    }
    s
}

#[test]
fn a_long_row_without_a_rater_or_item_id_is_refused_where_it_stands() {
    // A score with an empty or NA rater was dropped without a word (and the note blamed
    // another row); an empty or NA item id became an item named "" or "NA".
    let dir = tempfile::tempdir().unwrap();
    for (item, rater, column) in [
        (None, Some(""), "rater"),
        (None, Some("NA"), "rater"),
        (Some("NA"), None, "item"),
        (Some(""), None, "item"),
    ] {
        write(dir.path(), "l.csv", long(0, item, rater).as_bytes());
        let r = run(
            dir.path(),
            &["estimate", "l.csv", "--long", "item,rater,score"],
        );
        assert_eq!(r.code, 65, "{item:?} {rater:?}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("row 2, column '{column}'")),
            "{item:?} {rater:?}: {}",
            r.stderr
        );
        assert!(
            r.stderr.contains(&format!("{column} id is missing")),
            "{}",
            r.stderr
        );
    }
    write(dir.path(), "ok.csv", long(0, None, None).as_bytes());
    let r = run(
        dir.path(),
        &["estimate", "ok.csv", "--long", "item,rater,score"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn a_judge_header_with_an_invisible_character_is_named_not_silently_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let body = csv(0, "1.5").split_once('\n').unwrap().1.to_string();
    for (name, shown) in [
        ("J3\u{a0}", "J3\\u{a0}"),
        ("J3\u{feff}", "J3\\u{feff}"),
        ("\u{ff2a}3", "\\u{ff2a}3"),
    ] {
        write(
            dir.path(),
            "p.csv",
            format!("J1,J2,{name},A1,A2\n{body}").as_bytes(),
        );
        let r = run(dir.path(), &["estimate", "p.csv"]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        assert!(
            r.stderr
                .contains(&format!("column '{shown}' takes no role"))
                && r.stderr.contains("'J3'"),
            "{name:?}: {}",
            r.stderr
        );
    }
    // Named in --judges it is a judge, and nothing is said.
    write(
        dir.path(),
        "p.csv",
        format!("J1,J2,J3\u{a0},A1,A2\n{body}").as_bytes(),
    );
    let r = run(dir.path(), &["estimate", "p.csv", "--judges", "1,2,3"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("takes no role"), "{}", r.stderr);
}

#[test]
fn a_repeated_n_in_a_power_study_is_refused_as_a_repeated_strength_is() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &[
            "power",
            "--design",
            "test-a",
            "--strength",
            "0.4",
            "--n",
            "100,100",
            "--reps",
            "2",
            "--null-draws",
            "20",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("N = 100 is listed twice"), "{}", r.stderr);
    let out = dir.path().join("pp.svg");
    let r = run(
        dir.path(),
        &[
            "plot",
            "power",
            "--ns",
            "50,50",
            "--reps",
            "2",
            "--null-draws",
            "20",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("listed twice"), "{}", r.stderr);
    assert!(!out.exists());
}

#[test]
fn validate_refuses_an_injection_with_no_ordering_to_recover() {
    // Equal injected values made "ordered 4/4, yes" true of an estimator with no estimate.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", csv(0, "1.5").as_bytes());
    for inject in ["0,0,0", "0.5,0.5,0.5"] {
        let r = run(
            dir.path(),
            &[
                "validate",
                "p.csv",
                "--reps",
                "2",
                "--null-draws",
                "0",
                "--inject",
                inject,
            ],
        );
        assert_eq!(r.code, 2, "{inject}: {}", r.stderr);
        assert!(r.stderr.contains("no two different values"), "{}", r.stderr);
    }
}

#[test]
fn json_carries_the_loaders_notes_as_stderr_does() {
    // Identical judges (the warning that says the model is ruled out) reached stderr only.
    let dir = tempfile::tempdir().unwrap();
    let mut s = String::from("J1,J2,J3,A1,A2\n");
    for r in rows() {
        writeln!(s, "{:?},{:?},{:?},{:?},{:?}", r[0], r[0], r[2], r[3], r[4]).unwrap();
    }
    write(dir.path(), "jdup.csv", s.as_bytes());
    for args in [
        &["estimate", "jdup.csv", "--json"][..],
        &[
            "battery",
            "jdup.csv",
            "--json",
            "--null-draws",
            "20",
            "--bootstrap",
            "100",
        ],
    ] {
        let cmd = args[0];
        let r = run(dir.path(), args);
        let doc: serde_json::Value = serde_json::from_str(&r.stdout)
            .unwrap_or_else(|e| panic!("{cmd}: {e}: {} {}", r.stdout, r.stderr));
        let notes = doc["notes"].as_array().expect("notes");
        assert!(
            notes
                .iter()
                .any(|n| n.as_str().unwrap_or("").contains("identical judge columns")),
            "{cmd}: {notes:?}"
        );
    }
}

#[test]
fn export_of_a_long_table_writes_the_pivoted_data_beside_the_script() {
    // `export --help` offered --long, and every long table was refused.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "l.csv", long(0, None, None).as_bytes());
    let r = run(
        dir.path(),
        &[
            "export",
            "l.csv",
            "--long",
            "item,rater,score",
            "-o",
            "lg.R",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let data = std::fs::read_to_string(dir.path().join("lg.data.csv")).unwrap();
    assert_eq!(data.lines().next(), Some("J1,J2,J3,A1,A2"), "{data}");
    assert_eq!(data.lines().count(), 41, "{data}");
    let script = std::fs::read_to_string(dir.path().join("lg.R")).unwrap();
    assert!(script.contains("lg.data.csv"), "{script}");
    let r = run(
        dir.path(),
        &["export", "l.csv", "--long", "item,rater,score"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("-o FILE"), "{}", r.stderr);
}

#[test]
fn a_copied_anchor_column_is_warned_about_as_a_copied_judge_is() {
    let dir = tempfile::tempdir().unwrap();
    for (name, a2) in [
        (
            "dup.csv",
            Box::new(|r: &[f64; 5]| r[3]) as Box<dyn Fn(&[f64; 5]) -> f64>,
        ),
        ("aff.csv", Box::new(|r: &[f64; 5]| 2.0 * r[0] + 3.0)),
    ] {
        let mut s = String::from("J1,J2,J3,A1,A2\n");
        for r in rows() {
            writeln!(
                s,
                "{:?},{:?},{:?},{:?},{:?}",
                r[0],
                r[1],
                r[2],
                r[3],
                a2(&r)
            )
            .unwrap();
        }
        write(dir.path(), name, s.as_bytes());
        let r = run(dir.path(), &["estimate", name]);
        assert!(
            r.stderr
                .contains("warning: anchor columns that copy another column"),
            "{name}: {}",
            r.stderr
        );
    }
}

#[test]
fn a_corrupt_parquet_page_is_one_plain_line_without_a_dump_or_a_made_up_row() {
    let fixture = common::root().join("tests/fixtures/pipeline_snappy.parquet");
    let bytes = std::fs::read(&fixture).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut refused = 0;
    // Byte mutations through the file (seeded by position): every refusal is one line with
    // no debug dump and no row the reader cannot know.
    for k in 0..60usize {
        let mut m = bytes.clone();
        let at = 4 + (k * 7919) % (m.len() - 12);
        m[at] ^= 0x5a;
        write(dir.path(), "m.parquet", &m);
        let r = run(dir.path(), &["estimate", "m.parquet"]);
        if r.code == 65 {
            refused += 1;
            let err = r.stderr.trim_end();
            assert_eq!(err.lines().count(), 1, "{err}");
            if err.contains("Parquet") {
                assert!(!err.contains('{') && !err.contains("Bytes:"), "{err}");
                assert!(!err.contains("row 1:"), "{err}");
            }
        }
    }
    assert!(refused > 0, "no mutation was refused");
}

#[test]
fn every_caught_fatal_signal_removes_the_temporary_file() {
    // ABRT, TRAP, SYS (and on Linux STKFLT, PWR) ended the process leaving a hidden
    // `.FILE.PID-K.tmp` of tens of MB.
    let mut signals = vec![("ABRT", 6), ("TRAP", 5), ("SYS", 31)];
    if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        signals.extend([("STKFLT", 16), ("PWR", 30)]);
    }
    for (name, number) in signals {
        let dir = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rhoscope"))
            .args(["simulate", "--n", "3000000", "--seed", "1", "-o", "s.csv"])
            .current_dir(dir.path())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let temp = || {
            std::fs::read_dir(dir.path())
                .unwrap()
                .filter_map(Result::ok)
                .any(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        };
        let started = std::time::Instant::now();
        while !temp() && started.elapsed().as_secs() < 60 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(temp(), "{name}: no temporary file appeared");
        let sent = std::process::Command::new("kill")
            .args(["-s", name, &child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -s {name}");
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(128 + number), "{name}: {status:?}");
        assert!(!temp(), "{name}: the temporary file was left behind");
        assert!(!dir.path().join("s.csv").exists(), "{name}");
    }
}
