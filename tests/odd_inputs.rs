//! Inputs that are not plain files or not plain text: FIFOs and standard input read once,
//! old Mac line ends, UTF-16, quoted header names, and rows over the length limit refused
//! as soon as they are seen.

#![cfg(all(feature = "cli", unix))]

mod common;

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
        if start.elapsed() > Duration::from_secs(60) {
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
