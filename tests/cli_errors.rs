//! Every bad-input case of the core issue, through the built binary: one line on stderr
//! naming file, row, column and value where known; exit 65 (bad data), 66 (missing file)
//! or 2 (bad arguments); never a panic.
#![cfg(feature = "cli")]

mod common;

use common::{run, write};
use std::fmt::Write as _;

/// A small valid panel: 2 anchors, 3 judges, 6 items.
const GOOD: &str = "J1,J2,J3,A1,A2\n\
1.0,2.0,1.5,0.3,0.1\n\
2.0,2.5,2.0,0.9,0.4\n\
0.5,1.0,0.2,0.1,-0.3\n\
3.0,2.0,2.5,1.2,0.8\n\
1.5,1.9,1.1,0.2,0.6\n\
2.2,3.1,2.6,1.0,0.9\n";

/// GOOD with every data row rewritten by `f` (the header kept).
fn map_rows(f: impl Fn(&str) -> String) -> String {
    let mut lines = GOOD.lines();
    let mut out = format!("{}\n", lines.next().unwrap());
    for l in lines {
        out.push_str(&f(l));
        out.push('\n');
    }
    out
}

/// Runs estimate on `content` and checks the exit code and that stderr is one clean line
/// containing every `needle`.
fn expect_error(content: &[u8], extra: &[&str], code: i32, needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", content);
    let mut args = vec!["estimate", "p.csv"];
    args.extend_from_slice(extra);
    let r = run(dir.path(), &args);
    assert_eq!(r.code, code, "args {args:?}\nstderr: {}", r.stderr);
    let err = r.stderr.trim_end();
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(!err.contains("panicked") && !err.contains('\x1b'), "{err}");
    for n in needles {
        assert!(err.contains(n), "'{n}' missing from: {err}");
    }
    assert!(r.stdout.is_empty());
}

#[test]
fn empty_file() {
    expect_error(b"", &[], 65, &["p.csv", "empty"]);
}

#[test]
fn header_only() {
    expect_error(b"J1,J2,J3,A1,A2\n", &[], 65, &["p.csv", "header only"]);
}

#[test]
fn a_nonzero_number_that_underflows_is_refused_where_it_stands() {
    // `1e-400` would read as 0, as `1e400` would read as ∞: refused, naming row and column,
    // in the fast reader and in the general one (a quoted cell); a written zero loads.
    let bad = GOOD.replace("2.0,2.5,2.0,0.9", "2.0,1e-400,2.0,0.9");
    expect_error(
        bad.as_bytes(),
        &[],
        65,
        &["p.csv", "row 3", "'J2'", "too small"],
    );
    let quoted = GOOD.replace("2.0,2.5,2.0,0.9", "2.0,\"-1.5E-999\",2.0,0.9");
    expect_error(quoted.as_bytes(), &[], 65, &["row 3", "'J2'", "too small"]);
    let dir = tempfile::tempdir().unwrap();
    let zero = GOOD.replace("2.0,2.5,2.0,0.9", "2.0,0.0e-400,2.0,0.9");
    write(dir.path(), "z.csv", zero.as_bytes());
    assert_eq!(run(dir.path(), &["estimate", "z.csv"]).code, 0);
}

#[test]
fn the_designated_clean_anchor_reads_as_assumed_and_its_contradiction_is_said() {
    // On GOOD, A1 trusted as clean is left σ̂_a² = −0.1161: its ρ is 0 by assumption, not
    // an estimate, and the data contradict that assumption.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", GOOD.as_bytes());
    let r = run(
        dir.path(),
        &["estimate", "p.csv", "--designated-clean", "A1"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let block = r.stdout.split("Designated clean").nth(1).unwrap();
    let row = block.lines().find(|l| l.starts_with("  A1 ")).unwrap();
    assert!(row.ends_with("0 (assumed)"), "{row}");
    assert!(
        block.contains("FLAG clean_anchor_contradicted: σ̂_a² = -0.1161 ≤ 0 for anchor A1, the anchor designated as clean"),
        "{block}"
    );
    assert!(
        !block.contains("for anchor A1: its error variance"),
        "{block}"
    );
}

#[test]
fn long_ids_that_are_numbers_compare_as_numbers() {
    // pandas writes item 1 as `1.0` once its column holds a missing value: one item, not two.
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::from("item,rater,score\n");
    let mut state = 3u64;
    for i in 0..20 {
        for r in ["J1", "J2", "J3", "A1", "A2"] {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            let item = if i == 1 && r == "J1" {
                "1.0".to_string()
            } else {
                i.to_string()
            };
            let _ = writeln!(text, "{item},{r},{}", (state >> 40) % 100);
        }
    }
    write(dir.path(), "l.csv", text.as_bytes());
    let r = run(
        dir.path(),
        &["estimate", "l.csv", "--long", "item,rater,score"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.contains("items: 20 used, 0 dropped"),
        "{}",
        r.stdout
    );
    assert!(!r.stderr.contains("dropped"), "{}", r.stderr);
}

#[test]
fn role_count_refusals_say_what_is_needed_and_no_advice_already_taken() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", GOOD.as_bytes());
    let r = run(dir.path(), &["estimate", "p.csv", "--anchors", "A1"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("fewer than 2 anchors (1 found: A1)"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("name them with"), "{}", r.stderr);
    let judges_only = map_rows(|l| l.rsplitn(3, ',').nth(2).unwrap().to_string()).replacen(
        "J1,J2,J3,A1,A2",
        "J1,J2,J3",
        1,
    );
    write(dir.path(), "j.csv", judges_only.as_bytes());
    let r = run(dir.path(), &["identify", "j.csv"]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("j.csv: needs at least 1 anchor (0 found)"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_delimiter_ending_every_line_and_a_row_of_another_delimiter_are_named() {
    let trailing = map_rows(|l| format!("{l},")).replacen("A2\n", "A2,\n", 1);
    expect_error(
        trailing.as_bytes(),
        &[],
        65,
        &["'#6'", "a delimiter at the end of every line"],
    );
    let mixed = GOOD.replacen("1.0,2.0,1.5,0.3,0.1", "1.0;2.0;1.5;0.3;0.1", 1);
    expect_error(
        mixed.as_bytes(),
        &[],
        65,
        &["1 field where", "another delimiter"],
    );
}

#[test]
fn ragged_row() {
    let bad = GOOD.replacen("2.0,2.5,2.0,0.9,0.4", "2.0,2.5,2.0,0.9", 1);
    expect_error(
        bad.as_bytes(),
        &[],
        65,
        &["p.csv: row 3", "ragged", "4 fields"],
    );
}

#[test]
fn non_numeric_cell() {
    let bad = GOOD.replacen("2.5", "abc", 1);
    expect_error(
        bad.as_bytes(),
        &[],
        65,
        &["p.csv: row 3, column 'J2'", "not a number", "value 'abc'"],
    );
}

#[test]
fn infinite_cell() {
    for inf in ["inf", "-Infinity"] {
        let bad = GOOD.replacen("0.9", inf, 1);
        expect_error(
            bad.as_bytes(),
            &[],
            65,
            &["row 3, column 'A1'", "infinite", inf],
        );
    }
}

#[test]
fn nan_is_missing_per_spec_and_dropped_with_a_located_note() {
    // docs/method.md §6 lists NaN among the missing-value markers: the item is dropped (complete-case)
    // and a one-line note names file, row and column; the fit still runs.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "p.csv",
        GOOD.replacen("0.9", "NaN", 1).as_bytes(),
    );
    let r = run(dir.path(), &["estimate", "p.csv", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("p.csv: row 3, column 'A1'"),
        "{}",
        r.stderr
    );
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["n_dropped"], 1);
    assert_eq!(v["n_items"], 5);
}

#[test]
fn nan_everywhere_leaves_too_few_items() {
    let bad = map_rows(|l| format!("{},NaN", l.rsplit_once(',').unwrap().0));
    expect_error(
        bad.as_bytes(),
        &[],
        65,
        &["only 0 complete items", "6 dropped"],
    );
}

#[test]
fn constant_column() {
    let bad = map_rows(|l| format!("4,{}", l.split_once(',').unwrap().1));
    expect_error(
        bad.as_bytes(),
        &[],
        65,
        &["column 'J1'", "constant", "value '4'"],
    );
}

#[test]
fn fewer_than_two_judges() {
    let one = GOOD.replacen("J2,J3", "X2,X3", 1);
    expect_error(one.as_bytes(), &[], 65, &["fewer than 2 judges", "J1"]);
    expect_error(
        GOOD.as_bytes(),
        &["--judges", "J1"],
        2,
        &["fewer than 2 judges"],
    );
}

#[test]
fn fewer_than_two_anchors() {
    let one = GOOD.replacen("A2", "B2", 1);
    expect_error(one.as_bytes(), &[], 65, &["fewer than 2 anchors", "A1"]);
}

#[test]
fn unknown_name_in_judges() {
    expect_error(
        GOOD.as_bytes(),
        &["--judges", "J1,J9"],
        2,
        &["--judges", "no column 'J9'", "J1, J2, J3"],
    );
    expect_error(
        GOOD.as_bytes(),
        &["--judges", "1,99"],
        2,
        &[
            "--judges: 99 is no column's name or position",
            "(positions count from 1: 1 to 5)",
        ],
    );
}

#[test]
fn column_as_both_judge_and_anchor() {
    expect_error(
        GOOD.as_bytes(),
        &["--judges", "J1,J2,A1", "--anchors", "A1,A2"],
        2,
        &["'A1'", "named by both --judges and --anchors"],
    );
}

#[test]
fn duplicate_header_names() {
    let dup = GOOD.replacen("J3", "J2", 1);
    expect_error(
        dup.as_bytes(),
        &[],
        65,
        &["row 1, column 'J2'", "duplicate", "2 and 3"],
    );
}

#[test]
fn too_few_complete_items() {
    let short: String = GOOD.lines().take(3).flat_map(|l| [l, "\n"]).collect();
    expect_error(
        short.as_bytes(),
        &[],
        65,
        &["only 2 complete items", "at least 3"],
    );
}

#[test]
fn families_naming_an_unknown_judge() {
    expect_error(
        GOOD.as_bytes(),
        &["--families", "J1=a,J7=b"],
        2,
        &["--families", "'J7'", "not a judge"],
    );
}

#[test]
fn binary_garbage() {
    let mut junk = vec![0x7f, b'E', b'L', b'F', 0, 1, 2, 3, 0xff, 0xfe];
    junk.extend((0..2000u32).map(|i| u8::try_from(i * 7919 % 251).unwrap()));
    expect_error(&junk, &[], 65, &["p.csv", "not a text panel"]);
}

#[test]
fn missing_and_unreadable_files() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(dir.path(), &["estimate", "nope.csv"]);
    assert_eq!(r.code, 66);
    assert!(
        r.stderr.contains("nope.csv: cannot read: no such file"),
        "{}",
        r.stderr
    );
    let r = run(dir.path(), &["estimate", "."]);
    assert_eq!(r.code, 66);
    assert!(r.stderr.contains("is a directory"));
    // A file used as a folder: said in words, not as an OS error number.
    std::fs::write(dir.path().join("p.csv"), GOOD).unwrap();
    let r = run(dir.path(), &["estimate", "p.csv/x.csv"]);
    assert_eq!(r.code, 66);
    assert!(
        r.stderr
            .contains("cannot read: a folder in the path is a file"),
        "{}",
        r.stderr
    );
}

#[test]
fn wrong_flags_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", GOOD.as_bytes());
    for args in [
        vec!["estimate"],
        vec!["estimate", "p.csv", "--bogus"],
        vec!["simulate", "--n", "10"],
        vec!["simulate", "--n", "2", "--seed", "1"],
        vec!["simulate", "--n", "10", "--seed", "1", "--preset", "nope"],
        vec![
            "simulate",
            "--n",
            "10",
            "--seed",
            "1",
            "--set",
            "rho=1.0,0.5",
        ],
        vec!["simulate", "--n", "10", "--seed", "1", "--set", "zzz=1"],
        vec!["estimate", "p.csv", "--blocked"],
        vec!["estimate", "p.csv", "--designated-clean", "A9"],
        vec!["--threads", "0", "estimate", "p.csv"],
    ] {
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"));
    }
}

#[test]
fn bom_crlf_and_semicolons_load_like_plain_csv() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "plain.csv", GOOD.as_bytes());
    let mut odd = b"\xEF\xBB\xBF".to_vec();
    odd.extend(GOOD.replace(',', ";").replace('\n', "\r\n").bytes());
    write(dir.path(), "odd.csv", &odd);
    write(dir.path(), "tabs.tsv", GOOD.replace(',', "\t").as_bytes());
    let est = |name: &str| {
        let r = run(dir.path(), &["estimate", name, "--json"]);
        assert_eq!(r.code, 0, "{name}: {}", r.stderr);
        let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
        v["estimate"].clone()
    };
    assert_eq!(est("plain.csv"), est("odd.csv"));
    assert_eq!(est("plain.csv"), est("tabs.tsv"));
}

#[test]
fn control_characters_from_files_never_reach_the_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let evil = GOOD
        .replacen("J1", "J1\x1b[2J\x07", 1)
        .replacen("A1", "A\u{202e}1", 1);
    write(dir.path(), "p.csv", evil.as_bytes());
    let r = run(
        dir.path(),
        &["estimate", "p.csv", "--judges", "1,2,3", "--anchors", "4,5"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains('\x1b') && !r.stdout.contains('\x07'));
    assert!(!r.stdout.contains('\u{202e}'));
    assert!(r.stdout.contains("J1[2J"));
    let bad = evil.replacen("2.5", "\x1b]0;pwned\x07", 1);
    write(dir.path(), "q.csv", bad.as_bytes());
    let r = run(
        dir.path(),
        &["estimate", "q.csv", "--judges", "1,2,3", "--anchors", "4,5"],
    );
    assert_eq!(r.code, 65);
    assert!(
        !r.stderr.contains('\x1b') && !r.stderr.contains('\x07'),
        "{:?}",
        r.stderr
    );
}

#[test]
fn integer_columns_can_be_forced_continuous() {
    let dir = tempfile::tempdir().unwrap();
    let ints = "J1,J2,J3,A1,A2\n1,2,1,3,1\n2,1,2,1,2\n3,3,2,2,2\n1,1,1,2,3\n2,3,3,3,1\n";
    write(dir.path(), "i.csv", ints.as_bytes());
    let json = |extra: &[&str]| {
        let mut args = vec!["estimate", "i.csv", "--json"];
        args.extend_from_slice(extra);
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 0, "{}", r.stderr);
        serde_json::from_str::<serde_json::Value>(&r.stdout).unwrap()
    };
    // Every column ordinal: ρ is not identified, so estimate refuses (exit 3) and names why.
    let r = run(dir.path(), &["estimate", "i.csv"]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("every column is ordinal"), "{}", r.stderr);
    let all = json(&["--continuous", "all"]);
    assert!(
        all["columns"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["scale"] == "continuous")
    );
    let one = json(&["--continuous", "J1,J2,J3,A1"]);
    assert_eq!(one["columns"][3]["scale"], "continuous");
    assert_eq!(one["columns"][4]["scale"], "ordinal");
    expect_error(
        ints.as_bytes(),
        &["--continuous", "Z9"],
        2,
        &["--continuous", "no column 'Z9'"],
    );
}

#[test]
fn unterminated_quote_is_named() {
    let bad = GOOD.replacen("2.0,2.5,2.0,0.9,0.4", "2.0,\"2.5,2.0,0.9,0.4", 1);
    expect_error(
        bad.as_bytes(),
        &[],
        65,
        &["p.csv: row 3, column 'J2'", "unterminated quote"],
    );
}

#[test]
fn usage_errors_are_one_self_sufficient_line() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", GOOD.as_bytes());
    for (args, needles) in [
        (
            vec!["estimate", "p.csv", "--foo"],
            vec![
                "rhoscope: error: unexpected argument '--foo'",
                "rhoscope estimate --help",
            ],
        ),
        (
            vec!["estimate"],
            vec![
                "required arguments were not provided: <PANEL>",
                "estimate --help",
            ],
        ),
        (
            vec!["estimate", "p.csv", "--method", "zz"],
            vec!["invalid value 'zz'", "estimate --help"],
        ),
        (
            vec!["bogus"],
            vec!["unrecognized subcommand 'bogus'", "rhoscope --help"],
        ),
        (
            vec!["estimate", "p.csv", "--f\x1b]0;x\x07oo"],
            vec!["unexpected argument '--f"],
        ),
    ] {
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        let err = r.stderr.trim_end();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains('\x1b') && !err.contains('\x07'), "{err:?}");
        for n in needles {
            assert!(err.contains(n), "'{n}' missing from: {err}");
        }
    }
    // Help and version still print normally, with exit 0.
    let r = run(dir.path(), &["estimate", "--help"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("Usage:"));
}

#[test]
fn extreme_simulation_knobs_are_refused_not_written_as_nan() {
    let dir = tempfile::tempdir().unwrap();
    for (set, needle) in [
        ("lognormal_sd=1000", "lognormal_sd"),
        ("sigma_a=1e200", "out of range"),
        ("families=a,b\x1b,c,d,e,f", "plain text"),
    ] {
        let r = run(
            dir.path(),
            &[
                "simulate", "--n", "20", "--seed", "1", "--set", set, "-o", "x.csv",
            ],
        );
        assert_eq!(r.code, 2, "{set}: {}", r.stderr);
        assert!(r.stderr.contains(needle), "{set}: {}", r.stderr);
        assert!(!r.stderr.contains('\x1b'));
        assert!(!dir.path().join("x.csv").exists(), "{set} wrote a file");
    }
    let r = run(
        dir.path(),
        &[
            "simulate",
            "--n",
            "20",
            "--seed",
            "1",
            "--set",
            "lognormal_sd=3",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains("NaN"));
}

#[test]
fn identical_judges_are_warned_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let dup = map_rows(|l| {
        let f: Vec<&str> = l.split(',').collect();
        format!("{},{},{},{},{}", f[0], f[1], f[1], f[3], f[4])
    });
    write(dir.path(), "p.csv", dup.as_bytes());
    let r = run(dir.path(), &["estimate", "p.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let err = r.stderr.trim_end();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("p.csv: warning: identical judge columns 'J2' = 'J3'"),
        "{err}"
    );
    write(dir.path(), "q.csv", GOOD.as_bytes());
    let r = run(dir.path(), &["estimate", "q.csv"]);
    assert!(r.stderr.is_empty(), "{}", r.stderr);
}

#[test]
fn affine_copies_of_a_judge_are_warned_like_identical_ones() {
    let dir = tempfile::tempdir().unwrap();
    // J3 = 2·J2 + 1, and J3 = −J2: a rescaled re-export of one judge has no error of its own.
    for (name, f, said) in [
        (
            "a.csv",
            (|x: f64| 2.0 * x + 1.0) as fn(f64) -> f64,
            "'J3' = 2·'J2' + 1",
        ),
        ("b.csv", |x: f64| -x, "'J3' = -1·'J2'"),
    ] {
        let copy = map_rows(|l| {
            let v: Vec<&str> = l.split(',').collect();
            let j2: f64 = v[1].parse().unwrap();
            format!("{},{},{},{},{}", v[0], v[1], f(j2), v[3], v[4])
        });
        write(dir.path(), name, copy.as_bytes());
        let r = run(dir.path(), &["estimate", name]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        let err = r.stderr.trim_end();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.contains("warning: judge columns that are exact affine copies"),
            "{err}"
        );
        assert!(err.contains(said), "{err}");
    }
}

#[test]
fn blank_lines_after_the_data_are_no_rows_in_a_file_as_on_stdin() {
    // 40 columns × 12 items, then 1.7 million blank lines: counted as rows they would make
    // 68 million cells, over the limit; they are none, on standard input or in a file.
    let dir = tempfile::tempdir().unwrap();
    let names: Vec<String> = (1..=38)
        .map(|j| format!("J{j}"))
        .chain(["A1".into(), "A2".into()])
        .collect();
    let mut text = names.join(",") + "\n";
    let mut state = 7u64;
    for _ in 0..12 {
        let row: Vec<String> = (0..names.len())
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1);
                format!("{}", (state >> 40) % 1000)
            })
            .collect();
        text += &(row.join(",") + "\n");
    }
    text += &"\n".repeat(1_700_000);
    write(dir.path(), "blanks.csv", text.as_bytes());
    let file = run(dir.path(), &["estimate", "blanks.csv"]);
    let stdin = common::run_redirected(dir.path(), &["estimate", "-"], "<blanks.csv");
    assert!(!file.stderr.contains("over the limit"), "{}", file.stderr);
    assert_eq!(file.code, stdin.code, "{}\n{}", file.stderr, stdin.stderr);
    assert_eq!(
        file.stdout.replace("blanks.csv", "standard input"),
        stdin.stdout
    );
}

/// `simulate -o x.csv` with x.csv itself removed first: these runs test the sidecar rule
/// (an existing x.csv is refused on its own without --force).
fn simulate_to(dir: &std::path::Path, extra: &[&str]) -> common::Run {
    let _ = std::fs::remove_file(dir.join("x.csv"));
    let mut args = vec!["simulate", "--n", "30", "--seed", "4", "-o", "x.csv"];
    args.extend_from_slice(extra);
    run(dir, &args)
}

#[test]
fn simulate_never_touches_a_sidecar_it_was_not_told_to() {
    let dir = tempfile::tempdir().unwrap();
    let side = dir.path().join("x.families.csv");
    let r = simulate_to(dir.path(), &["--preset", "families"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let first = std::fs::read(&side).unwrap();
    std::fs::write(&side, b"judge,family\nJ1,mine\n").unwrap();
    // A families design would overwrite the sidecar: refused without --force.
    let r = simulate_to(dir.path(), &["--preset", "families"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("x.families.csv already exists") && r.stderr.contains("--force"));
    assert_eq!(std::fs::read(&side).unwrap(), b"judge,family\nJ1,mine\n");
    let r = simulate_to(dir.path(), &["--preset", "families", "--force"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(std::fs::read(&side).unwrap(), first);
    // A design without families would leave the sidecar for estimate to adopt: refused,
    // and --force deletes it.
    let r = simulate_to(dir.path(), &[]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("would adopt it"), "{}", r.stderr);
    assert!(side.exists());
    let r = simulate_to(dir.path(), &["--force"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!side.exists());
    // Only x.csv is left: no temporary files.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names, vec!["x.csv".to_string()]);
}

#[test]
fn an_adopted_sidecar_is_announced_and_a_stale_one_is_named() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(simulate_to(dir.path(), &["--preset", "families"]).code, 0);
    let r = run(dir.path(), &["estimate", "x.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("x.csv: note: judge families read from x.families.csv"),
        "{}",
        r.stderr
    );
    // A sidecar from a bigger panel: adopted, not asked for, so it never blocks the panel;
    // the note names the rows it skipped and how to override it.
    let r = run(
        dir.path(),
        &[
            "simulate", "--n", "30", "--seed", "4", "--set", "p=3", "-o", "y.csv",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    std::fs::copy(
        dir.path().join("x.families.csv"),
        dir.path().join("y.families.csv"),
    )
    .unwrap();
    let r = run(dir.path(), &["estimate", "y.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let err = r.stderr.trim_end();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("judge families read from y.families.csv")
            && err.contains("its rows for J4, J5, J6 skipped: not a judge in this panel"),
        "{err}"
    );
}

#[test]
fn a_failed_write_leaves_no_file_behind() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &[
            "simulate",
            "--n",
            "30",
            "--seed",
            "4",
            "-o",
            "no/such/dir/x.csv",
        ],
    );
    // A folder that does not exist is a bad output path (exit 2), named, before any work.
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(r.stderr.trim_end().lines().count(), 1);
    assert!(
        r.stderr
            .contains("no/such/dir/x.csv: the folder no/such/dir does not exist"),
        "{}",
        r.stderr
    );
    // Writing over an existing output (with --force) replaces it whole.
    std::fs::write(
        dir.path().join("x.csv"),
        "old contents that are longer than the new ones ".repeat(1000),
    )
    .unwrap();
    let r = run(
        dir.path(),
        &[
            "simulate", "--n", "3", "--seed", "4", "-o", "x.csv", "--force",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let text = std::fs::read_to_string(dir.path().join("x.csv")).unwrap();
    assert!(text.starts_with("J1,") && !text.contains("old contents"));
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn values_whose_products_leave_double_precision_are_refused_not_turned_into_nan() {
    // One finite cell of 1e200: its square overflows, so the covariances would be NaN or ∞.
    let huge = map_rows(|l| {
        if l.starts_with("2.0,2.5") {
            l.replacen("0.9", "1e200", 1)
        } else {
            l.to_string()
        }
    });
    expect_error(
        huge.as_bytes(),
        &[],
        65,
        &["column 'A1'", "beyond ±1e150", "rescale"],
    );
    // A column scaled by 1e-200: its covariances underflow to zero.
    let tiny = map_rows(|l| {
        let mut cells: Vec<String> = l.split(',').map(String::from).collect();
        let x: f64 = cells[4].parse().unwrap();
        cells[4] = format!("{:e}", x * 1e-200);
        cells.join(",")
    });
    expect_error(
        tiny.as_bytes(),
        &[],
        65,
        &["column 'A2'", "less than 1e-150"],
    );
}

#[test]
fn a_hostile_file_name_never_reaches_the_terminal_raw() {
    // OSC 52 (clipboard write), a title change and a clear-screen in the file name.
    let dir = tempfile::tempdir().unwrap();
    let name = "p\u{1b}]52;c;cHduZWQ=\u{7}\u{1b}]0;title\u{7}\u{1b}[2J.csv";
    write(dir.path(), name, GOOD.as_bytes());
    let families = "p\u{1b}[31m.families.csv";
    write(dir.path(), families, b"judge,family\nJ1,a\nJ2,a\nJ3,b\n");
    for args in [
        vec!["estimate", name],
        vec!["estimate", name, "--families", families, "--blocked"],
        vec!["battery", name, "--bootstrap", "100", "--null-draws", "20"],
        vec![
            "battery",
            name,
            "--json",
            "--bootstrap",
            "100",
            "--null-draws",
            "20",
        ],
        vec!["estimate", name, "--designated-clean", "\u{1b}[2Jnope"],
        vec!["simulate", "--n", "10", "-o", name],
        vec!["export", name],
        vec!["export", name, "--syntax", "semopy", "-o", name],
    ] {
        let r = run(dir.path(), &args);
        for (what, out) in [("stdout", &r.stdout), ("stderr", &r.stderr)] {
            assert!(
                !out.contains('\u{1b}') && !out.contains('\u{7}'),
                "{args:?} leaked an escape on {what}: {out:?}"
            );
        }
    }
}

#[test]
fn method_both_shows_the_closed_form_when_ml_cannot_run() {
    // Five items for eight columns: the sample covariance is singular, so ML refuses (six
    // used to slip through Cholesky by rounding and "fit"); the closed form still has its
    // numbers, and they are printed before the one-line error.
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &["simulate", "--n", "5", "--seed", "3", "-o", "few.csv"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(dir.path(), &["estimate", "few.csv", "--method", "both"]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(r.stderr.contains("5 items for 8 columns"), "{}", r.stderr);
    assert!(r.stdout.contains("anchor  β"), "{}", r.stdout);
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("maximum likelihood: the sample covariance is not positive definite"),
        "{}",
        r.stderr
    );
}

/// Issue 23: two resamples gave "95 % CIs" that excluded the estimate and a weak-ID "ok" from
/// two values. Below `bootstrap::MIN_RESAMPLES` every command that prints a percentile
/// interval or the weak-ID screen refuses the count (exit 2, one line saying why).
#[test]
fn too_few_resamples_for_an_interval_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", GOOD.as_bytes());
    let floor = rhoscope::bootstrap::MIN_RESAMPLES.to_string();
    for args in [
        vec!["battery", "p.csv", "--bootstrap", "2"],
        vec!["battery", "p.csv", "--bootstrap", "99"],
        vec![
            "power",
            "--design",
            "test-a",
            "--strength",
            "0.4",
            "--n",
            "500",
            "--coverage",
            "2",
        ],
        vec!["validate", "p.csv", "--bootstrap", "2"],
        vec!["plot", "rho", "--bootstrap", "2", "-o", "x.svg"],
        vec!["plan", "--target", "ci-width=0.3", "--bootstrap", "20"],
    ] {
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        let err = r.stderr.trim_end();
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(err.contains(&floor) && err.contains("resamples"), "{err}");
    }
}

/// `RAYON_NUM_THREADS` is held to the rule of `--threads`: 1 … min(4 × cores, 256), a whole
/// number; anything else exits 2 naming it (rayon itself would quietly use every core). An
/// empty value is unset, as in rayon; `--threads` wins over the variable.
#[test]
fn rayon_num_threads_out_of_range_or_not_a_number_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", GOOD.as_bytes());
    let above = (rhoscope::data::limits::max_threads() + 1).to_string();
    for bad in ["0", "abc", "-1", "1.5", above.as_str()] {
        let r = common::run_env(
            dir.path(),
            &["estimate", "p.csv"],
            &[("RAYON_NUM_THREADS", bad)],
        );
        assert_eq!(r.code, 2, "RAYON_NUM_THREADS={bad}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("RAYON_NUM_THREADS: {bad} is ")),
            "{}",
            r.stderr
        );
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stdout.is_empty());
        let r = common::run_env(
            dir.path(),
            &["--threads", "1", "estimate", "p.csv"],
            &[("RAYON_NUM_THREADS", bad)],
        );
        assert_eq!(r.code, 0, "--threads wins over ={bad}: {}", r.stderr);
    }
    for fine in ["1", " 2 ", ""] {
        let r = common::run_env(
            dir.path(),
            &["estimate", "p.csv"],
            &[("RAYON_NUM_THREADS", fine)],
        );
        assert_eq!(r.code, 0, "RAYON_NUM_THREADS='{fine}': {}", r.stderr);
    }
}

/// `validate --bootstrap B` follows every other `--bootstrap`: B below 100 is refused, 0
/// included; leaving the flag out is what switches the coverage off.
#[test]
fn validate_bootstrap_below_100_is_refused_zero_included() {
    let dir = tempfile::tempdir().unwrap();
    for b in ["0", "1", "99"] {
        let r = run(dir.path(), &["validate", "p.csv", "--bootstrap", b]);
        assert_eq!(r.code, 2, "--bootstrap {b}: {}", r.stderr);
        assert!(r.stderr.contains("resamples"), "{}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    }
}

/// `--method all` runs every estimator that can run on the panel: one that cannot (the
/// free-scale fit on two anchors) says why in a note, and the report is a success. A method
/// named on its own that cannot run still exits 65 after what did run.
#[test]
fn method_all_on_two_anchors_is_a_success_with_the_reason_noted() {
    let dir = tempfile::tempdir().unwrap();
    let mid = common::root().join("assets/mid.csv");
    let mid = mid.to_str().unwrap();
    for json in [false, true] {
        let mut args = vec!["estimate", mid, "--method", "all"];
        if json {
            args.push("--json");
        }
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 0, "{args:?}: {}", r.stderr);
        assert!(!r.stdout.is_empty());
        assert!(r.stderr.contains("free-scale"), "{}", r.stderr);
        assert!(r.stderr.contains("note"), "{}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    }
    let r = run(dir.path(), &["estimate", mid, "--method", "free-scale"]);
    assert_eq!(r.code, 65, "{}", r.stderr);
}

/// `validate --null-draws` follows every other command: 1–19 null draws exit 2 (0 still turns
/// its battery off), and a resample count past u32 is out of range, not "not a number".
#[test]
fn validate_refuses_too_few_null_draws_and_huge_resamples() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", GOOD.as_bytes());
    for d in ["1", "19"] {
        let r = run(dir.path(), &["validate", "p.csv", "--null-draws", d]);
        assert_eq!(r.code, 2, "{d}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!(
                "--null-draws: {d} is out of range; use 0 (off) or 20 to "
            )),
            "{}",
            r.stderr
        );
    }
    for cmd in ["validate", "battery"] {
        let r = run(dir.path(), &[cmd, "p.csv", "--bootstrap", "4294967296"]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(
            r.stderr.contains("--bootstrap: 4294967296 is out of range"),
            "{}",
            r.stderr
        );
    }
}

/// A closed standard input is an unreadable input (66), not an empty file (65), for every
/// command that reads `-`.
#[test]
fn a_closed_standard_input_is_unreadable() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [&[&str]; 4] = [
        &["estimate", "-"],
        &["battery", "-", "--null-draws", "20"],
        &["validate", "-"],
        &["export", "-", "--syntax", "lavaan", "-o", "x.R"],
    ];
    for args in cases {
        let r = common::run_redirected(dir.path(), args, "<&-");
        assert_eq!(r.code, 66, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("standard input is closed"),
            "{args:?}: {}",
            r.stderr
        );
    }
    // An empty standard input is still an empty file.
    let r = common::run_redirected(dir.path(), &["estimate", "-"], "</dev/null");
    assert_eq!(r.code, 65, "{}", r.stderr);
}

/// Standard input can be read once: two inputs that both name it (the panel and a families
/// file, by `-` or a device path) are a usage error in one line, before anything is read.
#[test]
fn standard_input_named_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", GOOD.as_bytes());
    for (panel, families) in [
        ("-", "-"),
        ("-", "/dev/stdin"),
        ("/dev/stdin", "-"),
        ("/dev/fd/0", "/proc/self/fd/0"),
    ] {
        for cmd in ["estimate", "battery", "export"] {
            let mut args = vec![cmd, panel, "--families", families];
            if cmd == "export" {
                args.extend(["-o", "x.R"]);
            }
            let r = common::run_redirected(dir.path(), &args, "<p.csv");
            assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
            assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
            assert!(
                r.stderr.contains("standard input") && r.stderr.contains("--families"),
                "{}",
                r.stderr
            );
        }
    }
}

/// Every whole-number flag says, in one line, the flag, the value as given and the range
/// it allows, for values too large for any integer, negative values and `-0`; never clap's
/// "number too large to fit" or "invalid digit".
#[test]
fn whole_number_flags_name_flag_value_and_range() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "p.csv", GOOD.as_bytes());
    let p = p.to_str().unwrap();
    let huge = "99999999999999999999";
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--threads", huge, "estimate", p], "--threads"),
        (vec!["estimate", p, "--threads", "-0"], "--threads"),
        (vec!["--threads", "-0", "estimate", p], "--threads"),
        (vec!["estimate", p, "--seed", huge], "--seed"),
        (vec!["estimate", p, "--bias-reps", huge], "--bias-reps"),
        (vec!["simulate", "--seed", "1", "--n", huge], "--n"),
        (vec!["simulate", "--seed", "1", "--n", "-1"], "--n"),
        (vec!["simulate", "--seed", huge], "--seed"),
        (vec!["battery", p, "--null-draws", huge], "--null-draws"),
        (vec!["battery", p, "--bootstrap", huge], "--bootstrap"),
        (vec!["battery", p, "--seed", "-1"], "--seed"),
        (vec!["power", "--reps", huge], "--reps"),
        (vec!["power", "--null-draws", "-5"], "--null-draws"),
        (vec!["power", "--n", huge], "--n"),
        (vec!["plan", "--reps", huge], "--reps"),
        (vec!["plan", "--max-n", huge], "--max-n"),
        (vec!["plan", "--bootstrap", huge], "--bootstrap"),
        (vec!["validate", p, "--reps", huge], "--reps"),
        (vec!["validate", p, "--null-draws", huge], "--null-draws"),
        (vec!["validate", p, "--bootstrap", huge], "--bootstrap"),
        (vec!["validate", p, "--n", huge], "--n"),
        (vec!["plot", "power", "--reps", huge], "--reps"),
        (vec!["plot", "power", "--n", huge], "--n"),
        (vec!["demo", "--scene", huge], "--scene"),
    ];
    for (args, flag) in cases {
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        let value = args[args.iter().position(|a| *a == flag).unwrap() + 1];
        assert!(
            r.stderr.contains(&format!("{flag}: {value} is ")),
            "{args:?}: {}",
            r.stderr
        );
        assert!(
            r.stderr.contains(" to "),
            "{args:?}: no range: {}",
            r.stderr
        );
        for clap in ["too large to fit", "invalid digit", "unexpected argument"] {
            assert!(!r.stderr.contains(clap), "{args:?}: {}", r.stderr);
        }
    }
    let r = common::run_env(dir.path(), &["estimate", p], &[("RAYON_NUM_THREADS", huge)]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!(
            "RAYON_NUM_THREADS: {huge} is out of range; use 1 to "
        )),
        "{}",
        r.stderr
    );
    let r = common::run_env(
        dir.path(),
        &["estimate", p],
        &[("RAYON_NUM_THREADS", "abc")],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("RAYON_NUM_THREADS: abc is not a whole number; use 1 to "),
        "{}",
        r.stderr
    );
}

/// A global flag given twice (before and after the subcommand) is refused in one line,
/// not silently settled for one of the two.
#[test]
fn a_global_flag_given_twice_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "p.csv", GOOD.as_bytes());
    let p = p.to_str().unwrap();
    for args in [
        vec!["--threads", "2", "estimate", p, "--threads", "1"],
        vec!["--threads", "1", "--threads", "1", "estimate", p],
        vec!["estimate", p, "--threads=1", "--threads", "2"],
    ] {
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("--threads"), "{}", r.stderr);
        assert!(r.stderr.contains("once"), "{}", r.stderr);
    }
    let r = run(dir.path(), &["estimate", p, "--threads", "1"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// `simulate` writes only designs the readers take back: each `--set` key is held to its
/// range (a scale no reader can hold, one judge where every command needs two) in one line
/// naming the key and the range, and nothing is written.
#[test]
fn simulate_refuses_designs_no_command_reads_back() {
    let dir = tempfile::tempdir().unwrap();
    for set in [
        "sigma_t2=1e308",
        "sigma_t2=1e-300",
        "sigma_c2=1e250",
        "judge_var=1e250",
        "sigma_a=1e-200",
        "g=1e120",
        "h=-1e120",
        "judge_scale=1e-120",
        "shared_residual=1e120",
        "sigma_f=1e120",
        "p=1",
        "p=0",
    ] {
        let key = set.split('=').next().unwrap();
        let r = run(
            dir.path(),
            &[
                "simulate", "--n", "20", "--seed", "1", "--set", set, "-o", "x.csv",
            ],
        );
        assert_eq!(r.code, 2, "{set}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{set}: {}", r.stderr);
        assert!(r.stderr.contains(&format!("{key}=")), "{set}: {}", r.stderr);
        assert!(r.stderr.contains(" to "), "{set}: no range: {}", r.stderr);
        assert!(!dir.path().join("x.csv").exists(), "{set} wrote a file");
    }
}

/// A negative value of a decimal list flag is a value, not a flag (`-0.5` is not `-0`,
/// `-inf` not `-i`): an in-range one is run, an out-of-range one refused by its range
/// (hostile34 #6, #2).
#[test]
fn negative_decimal_values_are_values_not_flags() {
    let dir = tempfile::tempdir().unwrap();
    let panel = common::root().join("assets/three-anchor.csv");
    let panel = panel.to_str().unwrap();
    let r = run(
        dir.path(),
        &["validate", panel, "--inject", "-0.5,0.1,0.2", "--reps", "2"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    for args in [
        &[
            "power",
            "--design",
            "test-b",
            "--strength",
            "-inf",
            "--n",
            "500",
        ][..],
        &[
            "power",
            "--design",
            "test-b",
            "--strength",
            "-0.5",
            "--n",
            "500",
        ],
        &["plot", "power", "--strength", "-inf", "-o", "p.svg"],
        &["validate", panel, "--inject", "-1.5,0.1,0.2"],
    ] {
        let r = run(dir.path(), args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(
            !r.stderr.contains("unexpected argument"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(r.stderr.contains("out of range"), "{args:?}: {}", r.stderr);
    }
}

/// Every decimal flag refuses a value in one line naming the flag, the value as typed (quoted,
/// so an empty one shows) and the range, never Rust's float-parse text (hostile34 #1, #3, #4).
#[test]
fn decimal_flags_name_the_flag_the_value_and_the_range() {
    let dir = tempfile::tempdir().unwrap();
    let panel = common::root().join("assets/three-anchor.csv");
    let panel = panel.to_str().unwrap();
    let power =
        |s: &'static str| vec!["power", "--design", "test-b", "--strength", s, "--n", "500"];
    for (args, needle) in [
        (
            power(""),
            "--strength: '' is not a decimal number; use a number above 0, up to 1000000",
        ),
        (power(","), "--strength: '' is not a decimal number"),
        (power("0.4,,0.6"), "--strength: '' is not a decimal number"),
        (power("0x10"), "--strength: '0x10' is not a decimal number"),
        (
            power("1e999"),
            "--strength: '1e999' is out of range; use a number above 0, up to 1000000",
        ),
        (power("1e300"), "--strength: '1e300' is out of range"),
        (
            vec!["plot", "power", "--strength", "0", "-o", "p.svg"],
            "--strength: '0' is out of range; use a number above 0, up to 1000000",
        ),
        (
            vec!["validate", panel, "--inject", ""],
            "--inject: '' is not a decimal number; use a number strictly between -1 and 1",
        ),
    ] {
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("float"), "{args:?}: {}", r.stderr);
    }
    let r = run(
        dir.path(),
        &[
            "power",
            "--design",
            "test-b",
            "--strength",
            " 0.4",
            "--n",
            "50",
            "--reps",
            "2",
            "--null-draws",
            "20",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// `--set` whole-number keys say their range for text, negative and overflowing values alike,
/// and a `families` value that is no count is refused as a count, not read as one label
/// (hostile34 #11, #12).
#[test]
fn set_counts_say_their_range() {
    let dir = tempfile::tempdir().unwrap();
    for (set, needle) in [
        ("p=99999999999999999999999", "at most 256 judges"),
        ("p=-1", "p=-1: out of range; use 2 to 256"),
        ("p=x", "p: 'x' is not a whole number; use 2 to 256"),
        (
            "ordinal=judges:99999999999999999999999",
            "at most 100 levels",
        ),
        (
            "ordinal=judges:1.5",
            "ordinal: '1.5' is not a whole number; use 2 to 100",
        ),
        ("ordinal=judges:1", "out of range; use 2 to 100"),
        ("families=18446744073709551616", "at most 256 families"),
        ("families=-1", "families=-1: out of range; use 0 to 256"),
        (
            "families=1.5",
            "families: '1.5' is not a count; give a count of families (0 to 256)",
        ),
    ] {
        let r = run(
            dir.path(),
            &[
                "simulate", "--n", "20", "--seed", "1", "--set", set, "-o", "x.csv",
            ],
        );
        assert_eq!(r.code, 2, "{set}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{set}: {}", r.stderr);
        assert!(r.stderr.contains(needle), "{set}: {}", r.stderr);
        assert!(!r.stderr.contains("labels"), "{set}: {}", r.stderr);
        assert!(!dir.path().join("x.csv").exists(), "{set} wrote a file");
    }
}

/// A flag that cannot apply to the command as given is refused in one line naming it and
/// why, as `plot power FILE` is, never silently dropped (hostile34 #13).
#[test]
fn flags_that_cannot_apply_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "s.csv", GOOD.as_bytes());
    for (args, needle) in [
        (
            &[
                "plot", "rho", "s.csv", "--preset", "boundary", "-o", "r.svg",
            ][..],
            "--preset does not apply to plot rho on a panel file",
        ),
        (
            &[
                "plot",
                "rho",
                "s.csv",
                "--set",
                "rho=0.1,0.2",
                "-o",
                "r.svg",
            ],
            "--set does not apply to plot rho on a panel file",
        ),
        (
            &["plot", "rho", "s.csv", "--n", "99", "-o", "r.svg"],
            "--n does not apply to plot rho on a panel file",
        ),
        (
            &["plot", "rho", "s.csv", "--ns", "10,20", "-o", "r.svg"],
            "--ns does not apply to plot rho",
        ),
        (
            &["plot", "rho", "s.csv", "--strength", "3", "-o", "r.svg"],
            "--strength does not apply to plot rho",
        ),
        (
            &["plot", "rho", "s.csv", "--reps", "5", "-o", "r.svg"],
            "--reps does not apply to plot rho",
        ),
        (
            &["plot", "boundary", "--ns", "10,20", "-o", "b.svg"],
            "--ns does not apply to plot boundary",
        ),
        (
            &["plot", "boundary", "--strength", "9", "-o", "b.svg"],
            "--strength does not apply to plot boundary",
        ),
        (
            &["estimate", "s.csv", "--bias-reps", "50"],
            "--bias-reps sets the refits of --bias-correct, which is not given",
        ),
        (
            &["estimate", "s.csv", "--seed", "5"],
            "--seed seeds the --bias-correct simulations",
        ),
    ] {
        let r = run(dir.path(), args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(!dir.path().join("r.svg").exists() && !dir.path().join("b.svg").exists());
    }
    // Defaults never count as given, and a flag that applies is taken.
    let r = run(
        dir.path(),
        &[
            "estimate",
            "s.csv",
            "--bias-correct",
            "--method",
            "free-scale",
            "--seed",
            "5",
            "--bias-reps",
            "10",
        ],
    );
    assert_ne!(r.code, 2, "{}", r.stderr);
    let r = run(dir.path(), &["estimate", "s.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

/// `-o .svg` is an SVG name (a dotfile, but it ends in .svg), and an empty whole-number value
/// is quoted so the message shows it (hostile34 #14).
#[test]
fn a_dot_svg_output_is_an_svg_name_and_an_empty_value_shows() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &[
            "plot",
            "rho",
            "--n",
            "60",
            "--bootstrap",
            "100",
            "-o",
            ".svg",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        std::fs::read_to_string(dir.path().join(".svg"))
            .unwrap()
            .contains("<svg")
    );
    let r = run(dir.path(), &["plot", "power", "--ns", "", "-o", "p.svg"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("--ns: '' is not a whole number"),
        "{}",
        r.stderr
    );
}

/// A flag value that is not UTF-8 names its flag and shows the bad byte escaped, where clap
/// said only "invalid UTF-8 was detected in one or more arguments"; a non-UTF-8 path is
/// still a path.
#[cfg(unix)]
#[test]
fn a_non_utf8_flag_value_names_its_flag() {
    use std::os::unix::ffi::OsStrExt as _;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", GOOD.as_bytes());
    let bad = std::ffi::OsStr::from_bytes(b"J\xff");
    for args in [
        vec![
            "estimate".as_ref(),
            "p.csv".as_ref(),
            "--judges".as_ref(),
            bad,
        ],
        vec![
            "estimate".as_ref(),
            "p.csv".as_ref(),
            std::ffi::OsStr::from_bytes(b"--judges=J\xff"),
        ],
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rhoscope"))
            .args(&args)
            .current_dir(dir.path())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains("--judges: 'J\\xFF' is not valid UTF-8"),
            "{err}"
        );
    }
}

/// Decimal flags refuse a nonzero value too small to tell from 0 (a subnormal printed in
/// full took 320 digits of a table header), naming the flag and the smallest size.
#[test]
fn a_subnormal_decimal_flag_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", GOOD.as_bytes());
    for (args, flag) in [
        (
            vec![
                "power",
                "--design",
                "test-b",
                "--strength",
                "1e-320",
                "--n",
                "500",
            ],
            "--strength: '1e-320'",
        ),
        (
            vec!["validate", "p.csv", "--inject", "1e-320,0,0"],
            "--inject: '1e-320'",
        ),
    ] {
        let r = run(dir.path(), &args);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(flag), "{}", r.stderr);
        assert!(
            r.stderr.contains("too small to tell from 0"),
            "{}",
            r.stderr
        );
        assert!(r.stderr.contains("1e-6"), "{}", r.stderr);
    }
}

/// `power`, `validate` and `plan` say how long a long run will take before it starts, as
/// `battery` does (a run of 10^6 replicates at N = 10^7 went quiet for days).
#[test]
fn long_study_runs_announce_their_cost_first() {
    use std::io::BufRead as _;
    let dir = tempfile::tempdir().unwrap();
    let runs: [(&[&str], &str); 2] = [
        (
            &[
                "power",
                "--design",
                "test-a",
                "--strength",
                "0.4",
                "--n",
                "5000000",
                "--reps",
                "1000000",
            ],
            "rhoscope: note: power (1 × 2 cells of 1000000 replicates, N up to 5000000) will take about ",
        ),
        (
            &[
                "plan",
                "--preset",
                "mid",
                "--target",
                "ci-width=0.01",
                "--max-n",
                "1000000",
            ],
            "rhoscope: note: plan (at most 24 evaluations of 100 replicates, N up to 1000000) may take up to about ",
        ),
    ];
    for (args, note) in runs {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_rhoscope"))
            .args(args)
            .current_dir(dir.path())
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufReader::new(child.stderr.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        assert!(line.starts_with(note), "{line}");
        // Weeks of work, said in days (or a bound in minutes and more), not "36000000 min".
        assert!(
            line.trim_end().ends_with(" days") || line.contains(" min") || line.contains(" h"),
            "{line}"
        );
    }
    // A short run says nothing.
    let r = run(
        dir.path(),
        &[
            "power",
            "--design",
            "test-a",
            "--strength",
            "0.4",
            "--n",
            "200",
            "--reps",
            "20",
            "--null-draws",
            "50",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("note:"), "{}", r.stderr);
}
/// `--codes-as-numbers` replaces Test A's N/A on Likert judges; where Test A runs on
/// continuous judges (a mixed panel with three of them, or no Likert judge at all) it has
/// nothing to replace, so it is refused in one line saying why, never dropped in silence.
#[test]
fn codes_as_numbers_is_refused_where_test_a_reads_continuous_judges() {
    let dir = tempfile::tempdir().unwrap();
    let mut mixed = String::from("J1,J2,J3,J4,A1,A2,A3\n");
    let mut continuous = String::from("J1,J2,J3,A1,A2,A3\n");
    for i in 0..40u32 {
        let x = |k: u32| f64::from((i * 37 + k * 11) % 23) / 7.0 + f64::from(k) * 0.01;
        let code = 1 + (i * 7) % 3;
        let _ = writeln!(
            mixed,
            "{:.3},{:.3},{:.3},{code},{:.3},{:.3},{:.3}",
            x(1),
            x(2),
            x(3),
            x(4),
            x(5),
            x(6)
        );
        let _ = writeln!(
            continuous,
            "{:.3},{:.3},{:.3},{:.3},{:.3},{:.3}",
            x(1),
            x(2),
            x(3),
            x(4),
            x(5),
            x(6)
        );
    }
    write(dir.path(), "mixed.csv", mixed.as_bytes());
    write(dir.path(), "cont.csv", continuous.as_bytes());
    for (file, why) in [
        (
            "mixed.csv",
            "3 of this panel's judges are continuous and Test A asks its question of them alone",
        ),
        ("cont.csv", "every judge of this panel is continuous"),
    ] {
        let r = run(
            dir.path(),
            &["battery", file, "--codes-as-numbers", "--null-draws", "20"],
        );
        assert_eq!(r.code, 2, "{file}: {}", r.stderr);
        assert!(
            r.stderr.contains("--codes-as-numbers reads"),
            "{}",
            r.stderr
        );
        assert!(r.stderr.contains(why), "{}", r.stderr);
        assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
    }
}
