//! The readers' edges from the hostile pass: what a file says is read as it says it, and a
//! refusal names the file, row and column. Each test failed before its fix.
#![cfg(feature = "cli")]

mod common;

use common::{run, write};
use std::fmt::Write as _;

/// A panel of 3 judges and 2 anchors, 40 items, varied values.
fn panel() -> String {
    let mut s = String::from("J1,J2,J3,A1,A2\n");
    for i in 0..40u32 {
        let x = |k: u32| f64::from((i * 7 + k * 5) % 13) / 3.0 + f64::from(i % 4) + f64::from(k);
        writeln!(s, "{},{},{},{},{}", x(1), x(2), x(3), x(4), x(5)).unwrap();
    }
    s
}

/// `panel()` with data row `row` (1-based, the header excluded) field `col` replaced.
fn with_cell(row: usize, col: usize, cell: &str) -> String {
    let mut lines: Vec<String> = panel().lines().map(str::to_string).collect();
    let mut fields: Vec<String> = lines[row].split(',').map(str::to_string).collect();
    fields[col] = cell.to_string();
    lines[row] = fields.join(",");
    lines.join("\n") + "\n"
}

#[test]
fn an_integer_a_double_cannot_hold_is_refused_naming_it_as_written() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "big.csv",
        with_cell(4, 2, "4611686018427387998").as_bytes(),
    );
    let r = run(dir.path(), &["estimate", "big.csv"]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(r.stderr.contains("row 5, column 'J3'"), "{}", r.stderr);
    assert!(r.stderr.contains("'4611686018427387998'"), "{}", r.stderr);
    assert!(r.stderr.contains("beyond 2^53"), "{}", r.stderr);
    // One that a double holds exactly (2^62) is read.
    write(
        dir.path(),
        "exact.csv",
        with_cell(4, 2, "4611686018427387904").as_bytes(),
    );
    let r = run(dir.path(), &["estimate", "exact.csv"]);
    assert!(!r.stderr.contains("2^53"), "{}", r.stderr);
}

#[test]
fn a_value_beyond_the_magnitude_limit_names_its_row() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "huge.csv", with_cell(4, 0, "1e200").as_bytes());
    let r = run(dir.path(), &["estimate", "huge.csv"]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(r.stderr.contains("row 5, column 'J1'"), "{}", r.stderr);
}

#[test]
fn export_scripts_read_missing_values_as_the_loader_does() {
    // `Null`, `nA`, `NA ` and `-NaN` are missing to rhoscope; the scripts read every cell as
    // text and compare it trimmed and lowercased with the loader's own list.
    let dir = tempfile::tempdir().unwrap();
    let mut s = with_cell(4, 0, "Null");
    for (row, col, cell) in [(8, 1, "nA"), (10, 2, "NA "), (12, 3, "-NaN")] {
        let mut lines: Vec<String> = s.lines().map(str::to_string).collect();
        let mut f: Vec<String> = lines[row].split(',').map(str::to_string).collect();
        f[col] = cell.to_string();
        lines[row] = f.join(",");
        s = lines.join("\n") + "\n";
    }
    write(dir.path(), "na.csv", s.as_bytes());
    let r = run(dir.path(), &["estimate", "na.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("4 dropped"), "{}", r.stdout);
    let lavaan = run(dir.path(), &["export", "na.csv"]).stdout;
    assert!(
        lavaan.contains("x <- trimws(x); x[tolower(x) %in% c("),
        "{lavaan}"
    );
    let semopy = run(dir.path(), &["export", "na.csv", "--syntax", "semopy"]).stdout;
    assert!(
        semopy.contains("c.str.strip().str.lower().isin(MISSING)"),
        "{semopy}"
    );
    for script in [&lavaan, &semopy] {
        for cell in ["null", "na", "-nan"] {
            assert!(script.contains(&format!("\"{cell}\"")), "{cell}: {script}");
        }
        assert!(!script.contains("na.strings = c(") && !script.contains("na_values"));
    }
}

#[test]
fn a_tsv_with_commas_in_its_names_is_read_as_tab_separated() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = String::from("judge, a\tjudge, b\tjudge, c\tanchor, x\tanchor, y\n");
    for line in panel().lines().skip(1) {
        s.push_str(&line.replace(',', "\t"));
        s.push('\n');
    }
    write(dir.path(), "names.tsv", s.as_bytes());
    // The names hold commas, so the roles go by position.
    let r2 = run(
        dir.path(),
        &[
            "estimate",
            "names.tsv",
            "--judges",
            "1,2,3",
            "--anchors",
            "4,5",
        ],
    );
    assert_eq!(r2.code, 0, "{}", r2.stderr);
    assert!(!r2.stderr.contains("ragged"), "{}", r2.stderr);
    // A truly ragged file says which delimiter it was read with.
    write(dir.path(), "rag.csv", b"J1,J2,J3,A1,A2\n1,2,3,4,5\n1,2,3\n");
    let r = run(dir.path(), &["estimate", "rag.csv"]);
    assert!(
        r.stderr.contains("(read as comma-separated)"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_families_file_row_is_a_header_only_when_it_names_no_column_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", panel().as_bytes());
    // A mistyped first judge: read as a header, with a note saying so.
    write(dir.path(), "typo.csv", b"J7,a\nJ1,b\n");
    let r = run(dir.path(), &["estimate", "p.csv", "--families", "typo.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("row 1 ('J7,a') names no judge"),
        "{}",
        r.stderr
    );
    // `judge,family` is a header without a note.
    write(dir.path(), "std.csv", b"judge,family\nJ1,b\n");
    let r = run(dir.path(), &["estimate", "p.csv", "--families", "std.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("read as a header"), "{}", r.stderr);
    // An anchor is refused wherever it stands.
    for (name, text, row) in [("a1.csv", "A1,a\nJ2,b\n", 1), ("a2.csv", "J1,b\nA1,a\n", 2)] {
        write(dir.path(), name, text.as_bytes());
        let r = run(dir.path(), &["estimate", "p.csv", "--families", name]);
        assert_eq!(r.code, 65, "{name}: {}", r.stderr);
        assert!(
            r.stderr.contains(&format!("row {row}")),
            "{name}: {}",
            r.stderr
        );
        assert!(r.stderr.contains("anchor"), "{name}: {}", r.stderr);
    }
    // An empty family in row 1 is that, not a header problem.
    write(dir.path(), "empty.csv", b"J1,\nJ2,b\n");
    let r = run(
        dir.path(),
        &["estimate", "p.csv", "--families", "empty.csv"],
    );
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(
        r.stderr.contains("judge 'J1' has an empty family"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("header"), "{}", r.stderr);
    // An empty path names the flag.
    let r = run(dir.path(), &["estimate", "p.csv", "--families", ""]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("--families: '' is empty"), "{}", r.stderr);
}

#[test]
fn a_folder_families_file_that_names_the_judges_but_is_invalid_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("ff")).unwrap();
    write(&dir.path().join("ff"), "p.csv", panel().as_bytes());
    write(&dir.path().join("ff"), "families.csv", b"J1,a\nJ1,b\n");
    let r = run(dir.path(), &["estimate", "ff/p.csv"]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(r.stderr.contains("families.csv"), "{}", r.stderr);
    assert!(r.stderr.contains("listed twice"), "{}", r.stderr);
    // One that names none of this panel's judges is another panel's: no error.
    write(&dir.path().join("ff"), "families.csv", b"K1,a\nK1,b\n");
    let r = run(dir.path(), &["estimate", "ff/p.csv"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn a_set_key_given_twice_is_refused_naming_both_values() {
    let dir = tempfile::tempdir().unwrap();
    let sim = |sets: &[&str]| {
        let mut args = vec!["simulate", "--n", "30", "--seed", "1"];
        for s in sets {
            args.extend(["--set", s]);
        }
        run(dir.path(), &args)
    };
    let r = sim(&["sigma_t2=2", "sigma_t2=0.5"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("sigma_t2 is given twice (2, then 0.5)"),
        "{}",
        r.stderr
    );
    let r = sim(&["s=0.1", "shared_residual=0.2"]);
    assert_eq!(r.code, 2, "an alias is the same key: {}", r.stderr);
    let r = sim(&["ordinal=all:7", "ordinal=J1:3"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("column J1"), "{}", r.stderr);
    // Different columns are different settings.
    let r = sim(&["ordinal=J1:2", "ordinal=J2:3"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(
        dir.path(),
        &[
            "plan",
            "--target",
            "ci-width=0.5",
            "--set",
            "rho=0.3",
            "--set",
            "rho=0.4",
        ],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
}

#[test]
fn plan_target_numbers_follow_the_decimal_flag_rule() {
    let dir = tempfile::tempdir().unwrap();
    for (target, needle) in [
        ("ci-width=1e-300", "too small to tell from 0"),
        ("ci-width=1.99999999999999999999999", "out of range"),
        ("power=test-a:0.8@1e-300", "the strength S"),
        ("power=A:0.8@0.4", "'A' is not a test"),
    ] {
        let r = run(
            dir.path(),
            &["plan", "--target", target, "--reps", "5", "--max-n", "100"],
        );
        assert_eq!(r.code, 2, "{target}: {}", r.stderr);
        assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(needle), "{target}: {}", r.stderr);
        assert!(r.stdout.is_empty());
    }
}

#[cfg(unix)]
#[test]
fn bytes_a_message_cannot_print_are_escaped_not_replaced_or_stripped() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    // A Latin-1 byte in a cell.
    let mut bytes = with_cell(4, 0, "1@").into_bytes();
    let at = bytes.iter().position(|b| *b == b'@').unwrap();
    bytes[at] = 0xE9;
    write(dir.path(), "lat1.csv", &bytes);
    let r = run(dir.path(), &["estimate", "lat1.csv"]);
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert!(r.stderr.contains(r"(value '1\xE9')"), "{}", r.stderr);
    // A non-UTF-8 RAYON_NUM_THREADS.
    write(dir.path(), "p.csv", panel().as_bytes());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_rhoscope"))
        .args(["estimate", "p.csv"])
        .current_dir(dir.path())
        .env("RAYON_NUM_THREADS", std::ffi::OsStr::from_bytes(b"\xff"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains(r"\xFF") && !err.contains('\u{FFFD}'), "{err}");
    // A header with an escape sequence is selected by its name as the file writes it, and a
    // refused name is printed escaped.
    let text = panel().replacen("J1", "J1\u{1b}[2J", 1);
    write(dir.path(), "esc.csv", text.as_bytes());
    let r = run(
        dir.path(),
        &[
            "estimate",
            "esc.csv",
            "--judges",
            "J1\u{1b}[2J,J2,J3",
            "--anchors",
            "A1,A2",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(
        dir.path(),
        &["estimate", "esc.csv", "--set-aside", "X\u{1b}[2J"],
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains(r"'X\u{1b}[2J'"), "{}", r.stderr);
}

#[test]
fn explore_refuses_flags_that_do_not_fit_the_file_as_the_commands_do() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "p.csv", panel().as_bytes());
    for (flag, value, needle) in [
        ("--judges", "nosuch", "--judges names no column 'nosuch'"),
        (
            "--families",
            "J1=a,J1=b",
            "--families names judge 'J1' twice",
        ),
    ] {
        let r = run(dir.path(), &["explore", "p.csv", flag, value]);
        assert_eq!(r.code, 2, "{flag}: {}", r.stderr);
        assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(needle), "{flag}: {}", r.stderr);
        assert!(!r.stderr.contains("Space on a column"), "{}", r.stderr);
    }
}

#[test]
fn only_a_file_some_choice_of_columns_makes_a_panel_could_be_one() {
    let dir = tempfile::tempdir().unwrap();
    let yes = write(dir.path(), "p.csv", panel().as_bytes());
    let text = write(
        dir.path(),
        "text3.csv",
        b"name,model,notes\nfoo,bar,baz\nqux,quux,corge\nx,y,z\n",
    );
    let header_rows = write(
        dir.path(),
        "rep.csv",
        b"J1,J2,A1,A2\nJ1,J2,A1,A2\nJ1,J2,A1,A2\n",
    );
    let report = write(
        dir.path(),
        "out.txt",
        b"Configuration: 3 judges, 2 anchors, no families\n  anchor  beta, sigma, rho\n  A1 0.3, 0.2, 0.1 and more\nNext steps: none\n",
    );
    assert!(rhoscope::data::could_be_panel(&yes));
    for no in [text, header_rows, report] {
        assert!(!rhoscope::data::could_be_panel(&no), "{}", no.display());
    }
}

#[test]
fn validate_reports_no_pass_when_no_test_could_run() {
    let dir = tempfile::tempdir().unwrap();
    let r = run(
        dir.path(),
        &[
            "simulate",
            "--preset",
            "shared-residual",
            "--n",
            "10",
            "--seed",
            "2",
            "--set",
            "sigma_t2=0.001",
            "--set",
            "judge_var=0",
            "--set",
            "ordinal=all:7",
            "-o",
            "k.csv",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run(
        dir.path(),
        &["validate", "k.csv", "--bootstrap", "100", "--reps", "4"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        !r.stdout.contains("Every test stays within"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("No test could run"), "{}", r.stdout);
}
