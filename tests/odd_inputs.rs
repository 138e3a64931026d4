//! Inputs that are not plain files or not plain text: FIFOs and standard input read once,
//! old Mac line ends, UTF-16, quoted header names, and rows over the length limit refused
//! as soon as they are seen.

#![cfg(all(feature = "cli", unix))]

mod common;

use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{run, write};

/// A panel of 300 rows from the simulator, as bytes.
fn base_csv(dir: &Path) -> Vec<u8> {
    let r = run(
        dir,
        &["simulate", "--n", "300", "--seed", "1", "-o", "base.csv"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    std::fs::read(dir.join("base.csv")).unwrap()
}

fn mkfifo(path: &Path) {
    assert!(Command::new("mkfifo").arg(path).status().unwrap().success());
}

/// Waits for `child`, killing it (and failing) if it has not ended after a minute: a watchdog
/// that turns a hang into a failure, not a timing assertion.
fn finish(mut child: Child, what: &str) -> (i32, String, String) {
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            let out = child.wait_with_output().unwrap();
            return (
                out.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&out.stdout).into_owned(),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            );
        }
        if start.elapsed() > Duration::from_mins(1) {
            let _ = child.kill();
            panic!("{what} hung");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn spawn(dir: &Path, args: &[&str], stdin: Stdio) -> Child {
    Command::new(env!("CARGO_BIN_EXE_rhoscope"))
        .args(args)
        .current_dir(dir)
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn a_fifo_is_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = base_csv(dir.path());
    let fifo = dir.path().join("p.csv");
    mkfifo(&fifo);
    let child = spawn(dir.path(), &["estimate", "p.csv", "--json"], Stdio::null());
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
        let _ = f.write_all(&bytes);
    });
    let (code, out, err) = finish(child, "estimate on a FIFO");
    writer.join().unwrap();
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"n\": 300") || out.contains("300"), "{out}");
}

#[test]
fn a_dash_reads_standard_input() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = base_csv(dir.path());
    let mut child = spawn(dir.path(), &["estimate", "-"], Stdio::piped());
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
    });
    let (code, out, err) = finish(child, "estimate -");
    writer.join().unwrap();
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("items: 300 used"), "{out}");
}

#[test]
fn cr_only_line_ends_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = base_csv(dir.path());
    let cr: Vec<u8> = bytes
        .iter()
        .map(|&b| if b == b'\n' { b'\r' } else { b })
        .collect();
    write(dir.path(), "mac.csv", &cr);
    let r = run(dir.path(), &["estimate", "mac.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("items: 300 used"), "{}", r.stdout);
}

#[test]
fn utf16_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let text = "J1,J2,J3,A1,A2\n1,2,3,4,5\n";
    for (name, bom) in [("le.csv", vec![0xFF, 0xFE]), ("bare.csv", vec![])] {
        let mut bytes = bom;
        for u in text.encode_utf16() {
            bytes.extend_from_slice(&u.to_le_bytes());
        }
        write(dir.path(), name, &bytes);
        let r = run(dir.path(), &["estimate", name]);
        assert_eq!(r.code, 65, "{}", r.stderr);
        assert!(
            r.stderr.contains("UTF-16: save it as UTF-8"),
            "{}",
            r.stderr
        );
        assert_eq!(r.stderr.lines().count(), 1);
    }
}

#[test]
fn a_quoted_header_name_with_a_line_break_and_semicolons_is_not_sniffed() {
    let dir = tempfile::tempdir().unwrap();
    let bytes = base_csv(dir.path());
    let text = String::from_utf8(bytes).unwrap();
    let body = text.split_once('\n').unwrap().1;
    let header = "\"note; a\nb; c; d; e; f; g\",J1,J2,J3,J4,J5,J6,A1,A2\n";
    let rows: String = body.lines().flat_map(|l| ["x,", l, "\n"]).collect();
    write(dir.path(), "q.csv", format!("{header}{rows}").as_bytes());
    let r = run(dir.path(), &["estimate", "q.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("items: 300 used"), "{}", r.stdout);
}

#[test]
fn a_header_quote_that_never_closes_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "u.csv", b"\"J1,J2,A1,A2\n1,2,3,4\n");
    let r = run(dir.path(), &["estimate", "u.csv"]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(
        r.stderr.contains("unterminated quote in the header"),
        "{}",
        r.stderr
    );
}

/// A row of 65 MiB with no line end, then a quote further on: the row is refused when its
/// bytes pass the limit (the file's later quote would send it to the slow reader first).
#[test]
fn a_long_row_is_refused_where_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = b"J1,J2,J3,A1,A2\n1,2,3,4,5\n".to_vec();
    bytes.resize(bytes.len() + (65 << 20), b'7');
    bytes.extend_from_slice(b"\n\"1\",2,3,4,5\n");
    write(dir.path(), "long.csv", &bytes);
    let r = run(dir.path(), &["estimate", "long.csv"]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(
        r.stderr.contains("row 3") && r.stderr.contains("a row longer than 64 MiB"),
        "{}",
        r.stderr
    );
}

/// Through a FIFO whose writer never finishes: refused while the writer is still writing.
#[test]
fn a_long_row_from_a_pipe_is_refused_before_its_end() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("endless.csv");
    mkfifo(&fifo);
    let child = spawn(dir.path(), &["estimate", "endless.csv"], Stdio::null());
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
        f.write_all(b"J1,J2,J3,A1,A2\n").unwrap();
        let block = vec![b'7'; 1 << 20];
        // Stops when the reader goes away (a broken pipe), which is the point.
        for _ in 0..4096 {
            if f.write_all(&block).is_err() {
                return true;
            }
        }
        false
    });
    let (code, _, err) = finish(child, "estimate on an endless row");
    assert_eq!(code, 65, "{err}");
    assert!(err.contains("a row longer than 64 MiB"), "{err}");
    assert!(writer.join().unwrap(), "refused before the writer finished");
}

#[test]
fn family_lists_name_each_judge_once_with_a_family() {
    let dir = tempfile::tempdir().unwrap();
    base_csv(dir.path());
    for (spec, says) in [
        ("J1=F1,J1=F2", "names judge 'J1' twice"),
        ("J1=", "gives judge 'J1' an empty family"),
        ("=F1", "to no judge"),
    ] {
        let r = run(dir.path(), &["estimate", "base.csv", "--families", spec]);
        assert_eq!(r.code, 2, "{spec}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{spec}: {}", r.stderr);
    }
}

/// Six items of three judges and two anchors, as (name, value) pairs per record.
const ROWS: [[f64; 5]; 6] = [
    [1.0, 2.0, 1.5, 0.3, 0.1],
    [2.0, 2.5, 2.0, 0.9, 0.4],
    [0.5, 1.0, 0.2, 0.1, -0.3],
    [3.0, 2.0, 2.5, 1.2, 0.8],
    [1.5, 1.9, 1.1, 0.2, 0.6],
    [2.2, 3.1, 2.6, 1.0, 0.9],
];
const KEYS: [&str; 5] = ["J1", "J2", "J3", "A1", "A2"];

/// One JSON object of `row`, with `extra` (`"key": value`) appended when given.
fn object(row: &[f64; 5], extra: Option<&str>) -> String {
    let mut pairs: Vec<String> = KEYS
        .iter()
        .zip(row)
        .map(|(k, v)| format!("\"{k}\": {v}"))
        .collect();
    pairs.extend(extra.map(str::to_string));
    format!("{{{}}}", pairs.join(", "))
}

/// A JSON record that names a key twice is refused, as a CSV header naming a column twice
/// is: which value was meant is unknowable. One line naming file, record and key, in every
/// JSON layout (array, JSON Lines, pandas' columns).
#[test]
fn a_repeated_key_in_a_json_record_is_refused_naming_record_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let rec = |i: usize| object(&ROWS[i], (i == 3).then_some("\"J2\": 9.5"));
    let lines: Vec<String> = (0..6).map(rec).collect();
    write(dir.path(), "lines.jsonl", lines.join("\n").as_bytes());
    write(
        dir.path(),
        "array.json",
        format!("[\n{}\n]", lines.join(",\n")).as_bytes(),
    );
    for name in ["lines.jsonl", "array.json"] {
        let r = run(dir.path(), &["estimate", name]);
        assert_eq!(r.code, 65, "{name}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        for part in [name, "row 4", "'J2'", "twice"] {
            assert!(r.stderr.contains(part), "{name}: no {part}: {}", r.stderr);
        }
    }
    // pandas' column layout: a column named twice, and an index label twice in one column.
    let col = |k: &str, c: usize| {
        let cells: Vec<String> = (0..6).map(|i| format!("\"{i}\": {}", ROWS[i][c])).collect();
        format!("\"{k}\": {{{}}}", cells.join(", "))
    };
    let mut cols: Vec<String> = KEYS.iter().enumerate().map(|(c, k)| col(k, c)).collect();
    let twice = format!("{{{}, {}}}", cols.join(", "), col("J1", 1));
    write(dir.path(), "cols.json", twice.as_bytes());
    cols[2] = cols[2].replacen("\"1\":", "\"0\":", 1);
    write(
        dir.path(),
        "labels.json",
        format!("{{{}}}", cols.join(", ")).as_bytes(),
    );
    // Named like every other data error: file, then the row (the label's, in order of first
    // appearance) and the column the repeat sits in.
    let cases: [(&str, &[&str]); 2] = [
        ("cols.json", &["column 'J1'", "twice"]),
        ("labels.json", &["row 1", "column 'J3'", "'0'", "twice"]),
    ];
    for (name, parts) in cases {
        let r = run(dir.path(), &["estimate", name]);
        assert_eq!(r.code, 65, "{name}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(name), "{}", r.stderr);
        for part in parts {
            assert!(r.stderr.contains(part), "{name}: no {part}: {}", r.stderr);
        }
    }
    // The same records without the repeat load.
    let clean: Vec<String> = (0..6).map(|i| object(&ROWS[i], None)).collect();
    write(dir.path(), "clean.jsonl", clean.join("\n").as_bytes());
    let r = run(dir.path(), &["estimate", "clean.jsonl"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// Numeric column names (a frame pivoted from integer rater ids): a token that is a
/// column's name picks that column; when by position it would pick another, a note says so.
#[test]
fn numeric_headers_pick_by_name_and_note_what_positions_would_pick() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("3,4,5,1,2\n");
    for r in ROWS {
        let cells: Vec<String> = r.iter().map(f64::to_string).collect();
        csv.push_str(&cells.join(","));
        csv.push('\n');
    }
    write(dir.path(), "ids.csv", csv.as_bytes());
    let args = [
        "estimate",
        "ids.csv",
        "--judges",
        "1,2,3",
        "--anchors",
        "4,5",
        "--json",
    ];
    let r = run(dir.path(), &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["judges"], serde_json::json!(["1", "2", "3"]));
    assert_eq!(
        r.stderr.lines().count(),
        2,
        "one note per flag: {}",
        r.stderr
    );
    for flag in ["--judges", "--anchors"] {
        let line = r.stderr.lines().find(|l| l.contains(flag)).unwrap();
        assert!(line.contains("ids.csv"), "{line}");
        assert!(line.contains("by name"), "{line}");
        assert!(line.contains("position"), "{line}");
    }
    let line = r.stderr.lines().find(|l| l.contains("--judges")).unwrap();
    assert!(line.contains("3, 4, 5"), "{line}");
    // `--designated-clean` reads a number among the anchors the same way.
    let args = [
        "estimate",
        "ids.csv",
        "--judges",
        "3,4,5",
        "--anchors",
        "2,1",
        "--designated-clean",
        "1",
    ];
    let r = run(dir.path(), &args);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = r
        .stderr
        .lines()
        .find(|l| l.contains("--designated-clean"))
        .unwrap_or_else(|| panic!("no note: {}", r.stderr));
    assert!(line.contains("named 1 by name"), "{line}");
    assert!(line.contains("would pick 2"), "{line}");
    // Where names and positions agree there is nothing to say.
    let agree = csv.replacen("3,4,5,1,2", "1,2,3,4,5", 1);
    write(dir.path(), "agree.csv", agree.as_bytes());
    let r = run(
        dir.path(),
        &[
            "estimate",
            "agree.csv",
            "--judges",
            "1,2,3",
            "--anchors",
            "4,5",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
}

/// One rule for numbers in a column list: a token that is a column's name is that name, else
/// digits alone are a 1-based position. A signed number is neither; a padded header (`01`)
/// picked by position gets a note; with --long a number is a rater id, and refusals name the
/// token as typed.
#[test]
fn numbers_in_column_lists_follow_one_rule_said_in_every_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let table = |header: &str| {
        let mut csv = format!("{header}\n");
        for r in ROWS {
            let cells: Vec<String> = r.iter().map(f64::to_string).collect();
            csv.push_str(&cells.join(","));
            csv.push('\n');
        }
        csv
    };
    write(dir.path(), "ids.csv", table("3,4,5,1,2").as_bytes());
    write(dir.path(), "padded.csv", table("03,04,05,01,02").as_bytes());
    // '+1' is no column's name and not digits alone: refused, named as typed.
    let r = run(
        dir.path(),
        &[
            "estimate",
            "ids.csv",
            "--judges",
            "+1,2,3",
            "--anchors",
            "4,5",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("+1 is no column's name"), "{}", r.stderr);
    assert!(!r.stderr.contains("twice"), "{}", r.stderr);
    // A position and a name reaching one column: both tokens named.
    let r = run(
        dir.path(),
        &[
            "estimate",
            "ids.csv",
            "--judges",
            "4,1,3",
            "--anchors",
            "2,5",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(
        dir.path(),
        &[
            "estimate",
            "padded.csv",
            "--judges",
            "1,03,2",
            "--anchors",
            "4,5",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("'1' and '03'"), "{}", r.stderr);
    // Padded names picked by position: a note names both columns.
    let r = run(
        dir.path(),
        &[
            "estimate",
            "padded.csv",
            "--judges",
            "1,2,3",
            "--anchors",
            "4,5",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let line = r
        .stderr
        .lines()
        .find(|l| l.contains("--judges"))
        .unwrap_or_else(|| panic!("no note: {}", r.stderr));
    assert!(line.contains("padded.csv"), "{line}");
    assert!(line.contains("named 03 by position"), "{line}");
    assert!(line.contains("named 01"), "{line}");
    // With --long a number is a rater id; the refusal says positions do not apply.
    let mut long = String::from("item,rater,score\n");
    for (i, r) in ROWS.iter().enumerate() {
        for (j, v) in r.iter().enumerate() {
            writeln!(long, "{i},{},{v}", j + 10).unwrap();
        }
    }
    write(dir.path(), "long.csv", long.as_bytes());
    let r = run(
        dir.path(),
        &[
            "estimate",
            "long.csv",
            "--long",
            "item,rater,score",
            "--judges",
            "1,2,3",
            "--anchors",
            "13,14",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("'1'"), "{}", r.stderr);
    assert!(r.stderr.contains("not a position"), "{}", r.stderr);
    // --help says the rule.
    let r = run(dir.path(), &["estimate", "--help"]);
    assert!(r.stdout.contains("digits alone"), "{}", r.stdout);
}

/// Wide with `--id`: an item id on a second row (a merge gone wrong) is refused as the long
/// layout refuses a second score, naming both rows; distinct ids load.
#[test]
fn a_repeated_item_id_in_the_wide_layout_is_refused_naming_both_rows() {
    let dir = tempfile::tempdir().unwrap();
    let mut dup = String::from("id,J1,J2,J3,A1,A2\n");
    let mut clean = dup.clone();
    for (i, r) in ROWS.iter().enumerate() {
        let cells: Vec<String> = r.iter().map(f64::to_string).collect();
        writeln!(dup, "s{},{}", i / 2, cells.join(",")).unwrap();
        writeln!(clean, "s{i},{}", cells.join(",")).unwrap();
    }
    write(dir.path(), "dupid.csv", dup.as_bytes());
    write(dir.path(), "clean.csv", clean.as_bytes());
    let r = run(dir.path(), &["estimate", "dupid.csv", "--id", "id"]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    for part in [
        "dupid.csv",
        "row 3",
        "column 'id'",
        "a second row for item 's0'",
        "row 2",
    ] {
        assert!(r.stderr.contains(part), "no {part}: {}", r.stderr);
    }
    let r = run(dir.path(), &["estimate", "clean.csv", "--id", "id"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// `validate` on judges that agree exactly (identical integer columns, or identical decimals
/// whose item means round) has no residual spread to read a shape from: it says so, never
/// "-inf" or a kurtosis of rounding noise.
#[test]
fn validate_on_identical_judges_says_their_residuals_do_not_vary() {
    let dir = tempfile::tempdir().unwrap();
    let mut ints = String::from("J1,J2,J3,A1,A2\n");
    let mut decimals = ints.clone();
    for i in 0..40u32 {
        let s = 1 + (i * 7) % 5;
        let (a1, a2) = (f64::from(i % 9) * 0.37, f64::from((i * 5) % 11) * 0.21);
        let _ = writeln!(ints, "{s},{s},{s},{a1},{a2}");
        let d = f64::from(s) / 10.0 + 0.01 * f64::from(i % 3);
        let _ = writeln!(decimals, "{d},{d},{d},{a1},{a2}");
    }
    write(dir.path(), "ints.csv", ints.as_bytes());
    write(dir.path(), "decimals.csv", decimals.as_bytes());
    for name in ["ints.csv", "decimals.csv"] {
        let args = ["validate", name, "--reps", "2", "--null-draws", "20"];
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        assert!(!r.stdout.contains("inf"), "{name}: {}", r.stdout);
        assert!(!r.stdout.contains("NaN"), "{name}: {}", r.stdout);
        assert!(
            r.stdout.contains("residuals do not vary"),
            "{name}: {}",
            r.stdout
        );
    }
}

/// Only a record's top-level keys are columns: a key repeated inside a nested value belongs
/// to that value's column, and an unused column with a nested value is ignored, so the
/// panel loads (it was refused as "column 'J1': this key appears twice").
#[test]
fn a_repeated_key_inside_a_nested_json_value_is_not_a_column() {
    let dir = tempfile::tempdir().unwrap();
    let extra = "\"meta\": {\"J1\": 1, \"J1\": 2}";
    let lines: Vec<String> = (0..6).map(|i| object(&ROWS[i], Some(extra))).collect();
    write(dir.path(), "nested.jsonl", lines.join("\n").as_bytes());
    let r = run(dir.path(), &["estimate", "nested.jsonl"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("twice"), "{}", r.stderr);
}

/// Every setting that takes columns by name or position notes a number that names a column
/// its position would not pick: --set-aside and --long's three columns too.
#[test]
fn set_aside_and_long_columns_note_names_that_positions_would_not_pick() {
    use std::fmt::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let mut wide = String::from("3,4,5,1,2,9,6\n");
    let mut long = String::from("3,1,2\n");
    for (i, r) in ROWS.iter().enumerate() {
        let cells: Vec<String> = r.iter().map(f64::to_string).collect();
        let _ = writeln!(wide, "{},0.5,0.25", cells.join(","));
        for (k, x) in r.iter().enumerate() {
            let _ = writeln!(long, "{x},{i},{}", KEYS[k]);
        }
    }
    write(dir.path(), "aside.csv", wide.as_bytes());
    write(dir.path(), "long.csv", long.as_bytes());
    let cases: [(&[&str], &str, &str); 2] = [
        (
            &[
                "aside.csv",
                "--judges",
                "1,2,3",
                "--anchors",
                "4,5",
                "--set-aside",
                "6",
            ],
            "--set-aside",
            "named 9",
        ),
        (&["long.csv", "--long", "1,2,3"], "--long", "named 3, 1, 2"),
    ];
    for (extra, flag, by_position) in cases {
        let mut args = vec!["estimate"];
        args.extend(extra);
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        let line = r.stderr.lines().find(|l| l.contains(flag));
        let line = line.unwrap_or_else(|| panic!("{args:?}: no {flag} note: {}", r.stderr));
        assert!(line.contains("by name"), "{line}");
        assert!(line.contains(by_position), "{line}");
    }
}

/// A control character in a cell is shown escaped in the error, so the value printed is the
/// value refused (`'1\u{0}'`, never `'1'`), and no raw control byte reaches the terminal
/// (hostile34 #10).
#[test]
fn a_control_character_in_a_value_is_shown_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let base = String::from_utf8(base_csv(dir.path())).unwrap();
    let mut lines: Vec<String> = base.lines().map(String::from).collect();
    let (first, rest) = lines[5].split_once(',').unwrap();
    lines[5] = format!("{first}\0,{rest}");
    let (first, rest) = lines[7].split_once(',').unwrap();
    lines[7] = format!("\x1b[2J{first},{rest}");
    write(
        dir.path(),
        "nul.csv",
        format!("{}\n", lines.join("\n")).as_bytes(),
    );
    let r = run(dir.path(), &["estimate", "nul.csv"]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("\\u{0}'"), "{}", r.stderr);
    assert!(
        !r.stderr.contains('\0') && !r.stderr.contains('\x1b'),
        "{:?}",
        r.stderr
    );
    let r = run(dir.path(), &["simulate", "--n", "\x07", "--seed", "1"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("--n: \\u{7} is not a whole number"),
        "{:?}",
        r.stderr
    );
}

/// One clean stderr line with exit `code` and every part.
fn one_line(r: &common::Run, code: i32, parts: &[&str]) {
    assert_eq!(r.code, code, "{}", r.stderr);
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
    for part in parts {
        assert!(r.stderr.contains(part), "no {part}: {}", r.stderr);
    }
}

/// A JSON number out of range, or a bare NaN (Python's `json.dumps` default), names the
/// record (array) or line (JSON Lines) and the key it sits under, with no parser jargon
/// about characters.
#[test]
fn a_bad_json_number_names_its_record_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let mut recs: Vec<String> = (0..6).map(|i| object(&ROWS[i], None)).collect();
    recs[1] = recs[1].replacen("\"J2\": 2.5", "\"J2\": 1e999", 1);
    write(
        dir.path(),
        "big.json",
        format!("[{}]", recs.join(",")).as_bytes(),
    );
    write(dir.path(), "big.jsonl", recs.join("\n").as_bytes());
    one_line(
        &run(dir.path(), &["estimate", "big.json"]),
        65,
        &["big.json: row 2, column 'J2'", "number out of range"],
    );
    one_line(
        &run(dir.path(), &["estimate", "big.jsonl"]),
        65,
        &["big.jsonl: row 2, column 'J2'", "number out of range"],
    );
    let mut nan: Vec<String> = (0..6).map(|i| object(&ROWS[i], None)).collect();
    nan[4] = nan[4].replacen("\"A1\": 0.2", "\"A1\": NaN", 1);
    write(
        dir.path(),
        "nan.json",
        format!("[{}]", nan.join(",")).as_bytes(),
    );
    let r = run(dir.path(), &["estimate", "nan.json"]);
    one_line(&r, 65, &["nan.json: row 5, column 'A1'", "NaN", "null"]);
    assert!(!r.stderr.contains("character"), "{}", r.stderr);
}

/// A families file is held to the inline spec's rules: a judge listed twice is refused
/// (row and column named), a header with no entries is refused, and a path holding `=`
/// is a file when the file exists.
#[test]
fn families_files_refuse_repeats_and_emptiness_and_may_hold_an_equals_sign() {
    let dir = tempfile::tempdir().unwrap();
    let panel = "J1,J2,J3,J4,A1,A2,A3\n1.5,2.25,1,2,3.5,1,2.75\n2,1.5,2.5,3,1,2.25,1\n3.25,3,1.75,1,2,2.5,3\n0.5,5,2,2.5,3.25,1,1.5\n4,1.25,3,0.5,2,4,2.25\n2.5,2,0.25,1.5,1.75,3,0.5\n";
    write(dir.path(), "p.csv", panel.as_bytes());
    write(dir.path(), "dup.csv", b"judge,family\nJ1,a\nJ2,a\nJ1,b\n");
    write(dir.path(), "head.csv", b"judge,family\n");
    write(dir.path(), "fam=1.csv", b"judge,family\nJ1,a\nJ2,a\n");
    one_line(
        &run(dir.path(), &["estimate", "p.csv", "--families", "dup.csv"]),
        65,
        &[
            "dup.csv: row 4, column 'judge'",
            "'J1' is listed twice",
            "row 2",
        ],
    );
    one_line(
        &run(dir.path(), &["estimate", "p.csv", "--families", "head.csv"]),
        65,
        &["head.csv", "no families"],
    );
    let r = run(
        dir.path(),
        &["estimate", "p.csv", "--families", "fam=1.csv"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("fam=1.csv"), "{}", r.stdout);
    // Without such a file, `=` still means inline pairs.
    one_line(
        &run(
            dir.path(),
            &["estimate", "p.csv", "--families", "J1=a,J1=b"],
        ),
        2,
        &["twice"],
    );
}

/// A JSON array's punctuation errors name the record they follow, in words.
#[test]
fn a_broken_json_array_names_the_record_it_breaks_after() {
    let dir = tempfile::tempdir().unwrap();
    let recs: Vec<String> = (0..6).map(|i| object(&ROWS[i], None)).collect();
    let body = recs.join(",");
    for (name, text, parts) in [
        (
            "comma.json",
            format!("[{body},]"),
            &["row 6", "a comma after the last record"][..],
        ),
        (
            "open.json",
            format!("[{body}"),
            &["row 6", "never closes"][..],
        ),
        (
            "after.json",
            format!("[{body}] x"),
            &["more JSON after"][..],
        ),
        (
            "space.json",
            format!("[{} {}]", recs[0], recs[1]),
            &["row 1", "expected ',' or ']'"][..],
        ),
    ] {
        write(dir.path(), name, text.as_bytes());
        let r = run(dir.path(), &["estimate", name]);
        let mut all = vec![name];
        all.extend_from_slice(parts);
        one_line(&r, 65, &all);
    }
}
