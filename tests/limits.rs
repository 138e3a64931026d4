//! Resource bombs: small files and flags that used to take the machine down. Each must be
//! refused with one line and exit 65 (a file) or 2 (a flag) *before* the memory is allocated,
//! which the tests check by running the binary under `ulimit -v` (2 GB of address space; the
//! old code asked for 4.7 to 80 GB and aborted).
#![cfg(feature = "cli")]

mod common;

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use common::{Run, write};
use rhoscope::data::limits::{MAX_CELLS, MAX_COLUMNS, max_threads};

/// Address space allowed to the binary in these tests, in KiB.
const VMEM_KB: u64 = 2_000_000;

/// Runs the binary in `dir` under `ulimit -v kb`.
fn run_limited(dir: &Path, kb: u64, args: &[&str]) -> Run {
    run_limited_from(dir, kb, args, "")
}

/// [`run_limited`] with shell redirections (e.g. `< /dev/zero`).
fn run_limited_from(dir: &Path, kb: u64, args: &[&str], redirect: &str) -> Run {
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let script = format!(
        "ulimit -v {kb} && exec '{}' {} {redirect}",
        env!("CARGO_BIN_EXE_rhoscope"),
        quoted.join(" ")
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &script])
        .current_dir(dir)
        .env_remove("RUST_BACKTRACE")
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh runs");
    Run::from(out)
}

/// One clean line on stderr with every needle, the expected exit code, nothing on stdout.
fn refused(r: &Run, code: i32, needles: &[&str]) {
    let err = r.stderr.trim_end();
    assert_eq!(r.code, code, "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    assert!(
        !err.contains("panicked") && !err.contains("memory allocation"),
        "{err}"
    );
    for n in needles {
        assert!(err.contains(n), "'{n}' missing from: {err}");
    }
    assert!(r.stdout.is_empty());
}

#[test]
fn a_hundred_thousand_judge_columns_are_refused_before_the_covariance() {
    // 1.5 MB: 100,000 J* columns and 4 rows; the covariance alone would be 80 GB.
    let dir = tempfile::tempdir().unwrap();
    let width = 100_000;
    let mut s = (1..=width)
        .map(|j| format!("J{j}"))
        .collect::<Vec<_>>()
        .join(",");
    s.push_str(",A1,A2\n");
    for i in 0..4 {
        let row: Vec<String> = (0..width + 2)
            .map(|j| ((i * 7 + j) % 5).to_string())
            .collect();
        s.push_str(&row.join(","));
        s.push('\n');
    }
    write(dir.path(), "wide.csv", s.as_bytes());
    let limit = format!("at most {MAX_COLUMNS}");
    for cmd in ["estimate", "battery"] {
        let r = run_limited(dir.path(), VMEM_KB, &[cmd, "wide.csv"]);
        refused(
            &r,
            65,
            &["wide.csv", "100002 judge and anchor columns", &limit],
        );
    }
    // Exactly at the limit is accepted as far as the column count goes.
    let ok = (1..=MAX_COLUMNS - 2)
        .map(|j| format!("J{j}"))
        .collect::<Vec<_>>()
        .join(",");
    let mut small = format!("{ok},A1,A2\n");
    for i in 0..5 {
        let row: Vec<String> = (0..MAX_COLUMNS)
            .map(|j| ((i * 3 + j * j) % 7).to_string())
            .collect();
        writeln!(small, "{}", row.join(",")).unwrap();
    }
    write(dir.path(), "edge.csv", small.as_bytes());
    let r = run_limited(dir.path(), VMEM_KB, &["estimate", "edge.csv"]);
    assert!(!r.stderr.contains("are supported"), "{}", r.stderr);
}

#[test]
fn duplicate_names_in_a_huge_header_are_found() {
    // The duplicate check was quadratic (30 s at 100,000 columns); it is a hash now.
    let dir = tempfile::tempdir().unwrap();
    let mut s = (0..100_000)
        .map(|j| format!("x{j}"))
        .collect::<Vec<_>>()
        .join(",");
    s.push_str(",x1\n");
    write(dir.path(), "dup.csv", s.as_bytes());
    let r = run_limited(dir.path(), VMEM_KB, &["estimate", "dup.csv"]);
    refused(&r, 65, &["row 1, column 'x1'", "duplicate", "2 and 100001"]);
}

#[test]
fn long_layout_with_a_new_rater_on_every_row_is_refused_early() {
    // 300 KB: each row names a new rater on a new item; the old loader built a
    // raters × items matrix (4.7 GB) before any check.
    let dir = tempfile::tempdir().unwrap();
    let mut s = String::from("item,rater,score\n");
    for k in 0..25_000 {
        writeln!(s, "i{k},J{k},{}", k % 5).unwrap();
    }
    write(dir.path(), "long.csv", s.as_bytes());
    let r = run_limited(
        dir.path(),
        VMEM_KB,
        &["estimate", "long.csv", "--long", "item,rater,score"],
    );
    // J0 … J{MAX_COLUMNS - 1} are allowed; the next rater, on line MAX_COLUMNS + 2, is not.
    refused(
        &r,
        65,
        &[
            &format!("long.csv: row {}, column 'rater'", MAX_COLUMNS + 2),
            &format!("more than {MAX_COLUMNS}"),
            &format!("value 'J{MAX_COLUMNS}'"),
        ],
    );
}

#[test]
fn long_layout_cells_over_the_limit_are_refused_before_the_matrix() {
    // MAX_COLUMNS raters (allowed) but just over MAX_CELLS / MAX_COLUMNS items: the matrix
    // would be over 2 GiB. The file is about 16 MB, one row per item.
    let dir = tempfile::tempdir().unwrap();
    let mut s = String::from("item,rater,score\n");
    let items = MAX_CELLS / MAX_COLUMNS + 1;
    for k in 0..items {
        writeln!(s, "i{k},J{},{}", k % MAX_COLUMNS + 1, k % 5).unwrap();
    }
    write(dir.path(), "sparse.csv", s.as_bytes());
    let r = run_limited(
        dir.path(),
        VMEM_KB,
        &["estimate", "sparse.csv", "--long", "item,rater,score"],
    );
    refused(
        &r,
        65,
        &[
            "sparse.csv",
            &format!("{items} items × {MAX_COLUMNS} judge and anchor columns"),
            "over the limit",
        ],
    );
}

#[test]
fn simulate_sizes_are_refused_before_allocation() {
    let dir = tempfile::tempdir().unwrap();
    for (args, needle) in [
        (
            vec!["--set", "p=18446744073709551615", "--n", "3"],
            "judges are supported",
        ),
        (
            vec!["--set", "p=1000000000", "--n", "3"],
            "judges are supported",
        ),
        (vec!["--set", "p=200", "--n", "100000000"], "cells"),
        (
            vec!["--set", "ordinal=J1:4000000000", "--n", "3"],
            "at most 100 levels",
        ),
        (
            vec!["--set", "families=99999999999", "--n", "3"],
            "families are supported",
        ),
    ] {
        let mut all = vec!["simulate", "--seed", "1", "-o", "out.csv"];
        all.extend(args);
        let r = run_limited(dir.path(), VMEM_KB, &all);
        refused(&r, 2, &[needle]);
        assert!(!dir.path().join("out.csv").exists());
    }
}

#[test]
fn threads_are_bounded_by_the_cores() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "p.csv",
        b"J1,J2,A1,A2\n1,2,3,4\n2,1,4,2\n3,3,1,1\n0,5,2,3\n",
    );
    let max = max_threads();
    assert!((1..=256).contains(&max));
    for t in [max + 1, 4000, 65535] {
        let r = common::run(
            dir.path(),
            &["--threads", &t.to_string(), "battery", "p.csv"],
        );
        refused(&r, 2, &["--threads", &t.to_string()]);
    }
    let r = common::run(
        dir.path(),
        &[
            "--threads",
            &max.to_string(),
            "estimate",
            "p.csv",
            "--continuous",
            "all",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // The environment variable rayon reads is held to the same bound; the flag wins over it.
    let r = common::run_env(
        dir.path(),
        &["battery", "p.csv"],
        &[("RAYON_NUM_THREADS", "4000")],
    );
    refused(
        &r,
        2,
        &["RAYON_NUM_THREADS: 4000 is out of range", "use 1 to"],
    );
    let r = common::run_env(
        dir.path(),
        &["--threads", "1", "estimate", "p.csv", "--continuous", "all"],
        &[("RAYON_NUM_THREADS", "4000")],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
}

#[test]
fn a_thread_pool_the_os_refuses_is_an_error_not_a_panic() {
    // Under a small address-space limit the worker stacks cannot be mapped. Whatever the
    // limit, the run either works or fails with one clean line; at some limit the pool
    // itself is refused (exit 71, EX_OSERR) — the old code ignored that and panicked later.
    let dir = tempfile::tempdir().unwrap();
    let mut s = String::from("J1,J2,J3,A1,A2\n");
    for i in 0..40 {
        writeln!(
            s,
            "{},{},{},{},{}",
            i % 7,
            (i * 3) % 5,
            i % 4,
            (i * i) % 9,
            i % 6
        )
        .unwrap();
    }
    write(dir.path(), "p.csv", s.as_bytes());
    let threads = max_threads().to_string();
    let mut refused_pool = false;
    for kb in (8_000..=60_000).step_by(4_000) {
        let r = run_limited(
            dir.path(),
            kb,
            &[
                "--threads",
                &threads,
                "battery",
                "p.csv",
                "--null-draws",
                "20",
                "--bootstrap",
                "100",
            ],
        );
        // Near the limit the standard library itself can run out of memory while starting a
        // thread (its signal stack, an allocation in its own code) and abort; no program can
        // turn that into a clean error, so such runs prove nothing either way. Any other
        // panic is ours and fails the test.
        let std_oom = r.stderr.contains("failed to allocate an alternative stack")
            || r.stderr.contains("memory allocation of");
        if std_oom {
            continue;
        }
        assert!(!r.stderr.contains("panicked"), "{kb} KiB: {}", r.stderr);
        if r.code == 71 {
            refused(&r, 71, &["cannot start", "worker threads"]);
            refused_pool = true;
        }
    }
    assert!(
        refused_pool,
        "no limit between 8 and 60 MB refused the pool"
    );
}

#[test]
fn ml_above_its_column_limit_is_refused_and_a_slow_fit_is_announced() {
    use rhoscope::estimate::ml::MAX_VARIABLES;
    let dir = tempfile::tempdir().unwrap();
    // One column over the limit: refused before the fit, with the count and the limit.
    let over = (MAX_VARIABLES - 1).to_string();
    let r = common::run(
        dir.path(),
        &[
            "simulate",
            "--set",
            &format!("p={over}"),
            "--n",
            "200",
            "--seed",
            "1",
            "-o",
            "over.csv",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run_limited(
        dir.path(),
        VMEM_KB,
        &["estimate", "over.csv", "--method", "ml"],
    );
    let limit = format!("ML is limited to {MAX_VARIABLES}");
    refused(
        &r,
        65,
        &["over.csv", "129 judge and anchor columns", &limit],
    );
    // Under it, a fit expected to take over a second says so on stderr before it starts. (This
    // panel has fewer items than columns, so the fit itself is refused at once afterwards.)
    let r = common::run(
        dir.path(),
        &[
            "simulate", "--set", "p=110", "--n", "40", "--seed", "1", "-o", "wide.csv",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = common::run(dir.path(), &["estimate", "wide.csv", "--method", "ml"]);
    let first = r.stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(
            "rhoscope: note: maximum likelihood on 110 judges and 2 anchors may take up to about "
        ),
        "{}",
        r.stderr
    );
    // The paper's designs are quick and say nothing.
    let r = common::run(
        &common::root(),
        &["estimate", "assets/mid.csv", "--method", "ml"],
    );
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    let r = common::run(&common::root(), &["battery", "assets/mid.csv", "--json"]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
}

/// `records` JSON records `{"J1":…,"J2":…,"J3":…,"A1":…,"A2":…,"A3":…}` as an array.
fn json_array(records: usize) -> Vec<u8> {
    let mut s = String::with_capacity(records * 60 + 2);
    s.push('[');
    for i in 0..records {
        if i > 0 {
            s.push(',');
        }
        let (a, b) = (i % 5, (i * 7) % 5);
        write!(
            s,
            r#"{{"J1":{a}.5,"J2":{b}.5,"J3":{}.25,"A1":{a},"A2":{b},"A3":{}}}"#,
            (a + b) % 5,
            (a * b) % 5
        )
        .unwrap();
    }
    s.push(']');
    s.into_bytes()
}

#[cfg(feature = "tui")]
#[test]
fn the_explorers_file_list_reads_only_the_first_bytes_of_each_file() {
    // A 200 MB JSON array and a gzip of 40 MB of JSON beside a panel: telling whether each is
    // a panel read, decompressed and parsed them whole (minutes and GBs at start-up).
    let dir = tempfile::tempdir().unwrap();
    let chunk = json_array(20_000);
    let body = &chunk[1..chunk.len() - 1];
    let mut big =
        std::io::BufWriter::new(std::fs::File::create(dir.path().join("big.json")).unwrap());
    big.write_all(b"[").unwrap();
    let mut written = 0;
    while written < 200 << 20 {
        if written > 0 {
            big.write_all(b",").unwrap();
        }
        big.write_all(body).unwrap();
        written += body.len();
    }
    big.write_all(b"]").unwrap();
    big.into_inner().unwrap().sync_all().unwrap();
    let gz = std::fs::File::create(dir.path().join("big.jsonl.gz")).unwrap();
    let mut enc = flate2::write::GzEncoder::new(gz, flate2::Compression::fast());
    let line = b"{\"J1\":1.5,\"J2\":2.5,\"J3\":3.5,\"A1\":1,\"A2\":2,\"A3\":3}\n".repeat(20_000);
    for _ in 0..40 {
        enc.write_all(&line).unwrap();
    }
    enc.finish().unwrap();
    for name in ["big.json", "big.jsonl.gz"] {
        let start = std::time::Instant::now();
        let listed = rhoscope::tui::is_panel_file(&dir.path().join(name));
        let took = start.elapsed();
        assert!(listed, "{name} holds J and A columns");
        assert!(took.as_secs_f64() < 1.0, "{name}: {took:?}");
    }
}

#[test]
fn a_json_array_is_read_record_by_record_not_as_a_tree() {
    // 46 MB of JSON records: the tree of the whole document took about 25 times the file
    // (over 1 GB); read record by record it needs the bytes and the matrix.
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "big.json", &json_array(800_000));
    let r = run_limited(dir.path(), 700_000, &["estimate", "big.json", "--json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["n_items"], 800_000, "{}", r.stdout);
}

#[test]
fn a_sparse_long_file_is_refused_by_its_cell_count_before_the_matrix() {
    // 13 MB: 256 raters score one item, then a million items have one score each. The
    // items × raters matrix (2 GiB) was allocated, and under 2 GB aborted with a backtrace.
    let dir = tempfile::tempdir().unwrap();
    let mut s = String::from("item,rater,score\n");
    for r in 0..MAX_COLUMNS / 2 {
        writeln!(s, "i0,J{r},1\ni0,A{r},2").unwrap();
    }
    for k in 1..1_000_000 {
        writeln!(s, "i{k},J0,1").unwrap();
    }
    write(dir.path(), "lbomb.csv", s.as_bytes());
    let r = run_limited(
        dir.path(),
        VMEM_KB,
        &["estimate", "lbomb.csv", "--long", "item,rater,score"],
    );
    let cells = format!("1000000 items × {MAX_COLUMNS} judge and anchor columns");
    refused(
        &r,
        65,
        &["lbomb.csv", &cells, &format!("{MAX_CELLS} cells")],
    );
}

#[test]
fn a_small_gzip_of_a_wide_panel_over_the_cell_limit_is_refused_in_one_line() {
    // 256 columns × 300,000 rows of `1` in well under 1 MB of gzip: 77 million cells.
    let dir = tempfile::tempdir().unwrap();
    let header: Vec<String> = (0..128)
        .map(|j| format!("J{j}"))
        .chain((0..128).map(|a| format!("A{a}")))
        .collect();
    let row = format!("{}\n", vec!["1"; 256].join(","));
    let gz = std::fs::File::create(dir.path().join("wbomb.csv.gz")).unwrap();
    let mut enc = flate2::write::GzEncoder::new(gz, flate2::Compression::fast());
    writeln!(enc, "{}", header.join(",")).unwrap();
    let block = row.repeat(1000);
    for _ in 0..300 {
        enc.write_all(block.as_bytes()).unwrap();
    }
    enc.finish().unwrap();
    let r = run_limited(dir.path(), VMEM_KB, &["estimate", "wbomb.csv.gz"]);
    refused(
        &r,
        65,
        &[
            "wbomb.csv.gz",
            "over the limit",
            &format!("{MAX_CELLS} cells"),
            // Reading stopped at the limit, so the file's own count is not known.
            &format!("more than {} rows × 256", MAX_CELLS / 256),
        ],
    );
}

#[test]
fn a_parquet_file_over_the_cell_limit_is_refused_from_its_footer() {
    // 256 constant columns × 300,000 rows in a small file: its footer states the row count,
    // so it is refused with that count before a row is decoded.
    use parquet::data_type::DoubleType;
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    use std::sync::Arc;
    let dir = tempfile::tempdir().unwrap();
    let fields: Vec<String> = (0..128)
        .map(|j| format!("required double J{j};"))
        .chain((0..128).map(|a| format!("required double A{a};")))
        .collect();
    let schema = parquet::schema::parser::parse_message_type(&format!(
        "message p {{ {} }}",
        fields.join(" ")
    ))
    .unwrap();
    let props = Arc::new(WriterProperties::builder().build());
    let file = std::fs::File::create(dir.path().join("pbomb.parquet")).unwrap();
    let mut writer = SerializedFileWriter::new(file, Arc::new(schema), props).unwrap();
    let mut group = writer.next_row_group().unwrap();
    let values = vec![1.0; 300_000];
    while let Some(mut col) = group.next_column().unwrap() {
        col.typed::<DoubleType>()
            .write_batch(&values, None, None)
            .unwrap();
        col.close().unwrap();
    }
    group.close().unwrap();
    writer.close().unwrap();
    let r = run_limited(dir.path(), VMEM_KB, &["estimate", "pbomb.parquet"]);
    refused(
        &r,
        65,
        &["pbomb.parquet", "300000 rows × 256", "over the limit"],
    );
}

#[test]
fn binary_standard_input_is_refused_after_its_first_mebibyte() {
    // /dev/zero never ends: it was held up to 2 GiB (and then called too big).
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "p.csv",
        b"J1,J2,A1,A2\n1,2,3,4\n2,1,4,2\n3,3,1,1\n0,5,2,3\n",
    );
    for args in [
        &["estimate", "-"][..],
        &["estimate", "p.csv", "--families", "-"],
    ] {
        let r = run_limited_from(dir.path(), VMEM_KB, args, "< /dev/zero");
        refused(&r, 65, &["-: not a text panel", "binary"]);
    }
    // A text header with no line end in its first MiB is no panel either.
    let r = run_limited_from(dir.path(), VMEM_KB, &["estimate", "-"], "< /dev/urandom");
    assert_eq!(r.code, 65, "{}", r.stderr);
    assert_eq!(r.stderr.trim_end().lines().count(), 1, "{}", r.stderr);
}

#[test]
fn every_simulated_study_holds_its_panels_to_the_cell_limit() {
    // 10^7 items × 6 or more columns is over 2^26 cells: each study refuses it in one line,
    // before its cost note and before drawing (it used to abort in the allocator).
    let dir = tempfile::tempdir().unwrap();
    // A panel with no families file beside it, so the refusal is the only line.
    let panel = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/mid.csv");
    let panel = panel.to_str().unwrap();
    let n = "10000000";
    let studies: [Vec<&str>; 5] = [
        vec![
            "validate",
            panel,
            "--reps",
            "4",
            "--bootstrap",
            "100",
            "--null-draws",
            "0",
            "--n",
            n,
        ],
        vec![
            "power",
            "--design",
            "test-a",
            "--strength",
            "0.4",
            "--n",
            n,
            "--reps",
            "8",
            "--null-draws",
            "20",
        ],
        vec![
            "plan",
            "--target",
            "ci-width=0.001",
            "--max-n",
            n,
            "--reps",
            "8",
            "--bootstrap",
            "100",
        ],
        vec!["plot", "power", "--ns", n, "--reps", "8", "-o", "pp.svg"],
        vec!["plot", "boundary", "--n", n, "--reps", "8", "-o", "pb.svg"],
    ];
    for args in studies {
        let mut all = args.clone();
        all.extend(["--threads", "4"]);
        let r = run_limited(dir.path(), VMEM_KB, &all);
        refused(
            &r,
            2,
            &[
                "N = 10000000 items",
                "over the limit of 67108864 cells",
                "use N ≤",
            ],
        );
    }
    assert!(
        std::fs::read_dir(dir.path()).unwrap().next().is_none(),
        "no file left"
    );
}

#[test]
fn json_lines_with_a_new_key_on_every_record_load_in_linear_time() {
    // Each record names the four panel keys and one key of its own (a log export's shape):
    // every row used to be filled out to every key the file names (records × keys: 60,000
    // records took minutes); now a row costs its own keys.
    let dir = tempfile::tempdir().unwrap();
    let mut s = String::new();
    for i in 0..60_000u32 {
        let x = |k: u32| f64::from((i * 7 + k * 13) % 17) / 4.0 + f64::from(k);
        writeln!(
            s,
            r#"{{"J1":{},"J2":{},"J3":{},"A1":{},"A2":{},"x{i}":1}}"#,
            x(1),
            x(2),
            x(3),
            x(4),
            x(5)
        )
        .unwrap();
    }
    write(dir.path(), "keys.jsonl", s.as_bytes());
    let start = std::time::Instant::now();
    let r = run_limited(
        dir.path(),
        VMEM_KB,
        &[
            "estimate",
            "keys.jsonl",
            "--judges",
            "J1,J2,J3",
            "--anchors",
            "A1,A2",
        ],
    );
    let took = start.elapsed().as_secs_f64();
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("items: 60000"), "{}", r.stdout);
    assert!(took < 20.0, "took {took:.1} s");
}

#[test]
fn a_column_layout_json_over_its_limit_is_refused_before_it_is_parsed() {
    // pandas' column layout is parsed whole (about 16 bytes a byte): above 64 MiB it is
    // refused in one line, naming the layout that is read record by record, instead of an
    // allocator abort under 2 GB.
    let dir = tempfile::tempdir().unwrap();
    let rows = 1_400_000;
    let mut s = String::from("{");
    for (c, name) in ["J1", "J2", "J3", "A1", "A2"].iter().enumerate() {
        if c > 0 {
            s.push(',');
        }
        write!(s, r#""{name}":{{"#).unwrap();
        for i in 0..rows {
            if i > 0 {
                s.push(',');
            }
            write!(s, r#""{i}":{}.25"#, (i + c) % 9).unwrap();
        }
        s.push('}');
    }
    s.push('}');
    assert!(s.len() > 64 << 20, "{} bytes", s.len());
    write(dir.path(), "pandas.json", s.as_bytes());
    let r = run_limited(dir.path(), VMEM_KB, &["estimate", "pandas.json"]);
    refused(
        &r,
        65,
        &[
            "pandas.json",
            "column layout",
            "at most 64 MiB",
            "orient='records'",
        ],
    );
}
