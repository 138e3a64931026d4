//! The files pipelines write: JSON records, JSON Lines, Parquet, gzip, standard input and
//! pandas' default CSV give the same panel, and the same `estimate --json`, as the CSV they
//! hold; every format rhoscope does not read is named in one line.

mod common;

use std::fmt::Write as _;
use std::fs::File;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rhoscope::data::{Loaded, PanelRequest, load};

/// The panel every format here carries: 60 items, 4 judges, 3 anchors (one integer-valued),
/// a string id and three missing cells.
fn fixture(name: &str) -> PathBuf {
    common::root().join("tests/fixtures").join(name)
}

fn csv_text() -> String {
    std::fs::read_to_string(fixture("pipeline.csv")).unwrap()
}

/// The CSV's header and rows, as text cells.
fn cells() -> (Vec<String>, Vec<Vec<String>>) {
    let text = csv_text();
    let mut lines = text.lines();
    let header = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    (header, rows)
}

/// A JSON value for a cell: the number as written (so it parses to the same bits), null when
/// empty, a string for the id.
fn json_cell(name: &str, cell: &str) -> String {
    if cell.is_empty() {
        "null".into()
    } else if name == "item" {
        format!("\"{cell}\"")
    } else {
        cell.into()
    }
}

fn jsonl() -> String {
    let (header, rows) = cells();
    let mut out = String::new();
    for r in &rows {
        let pairs: Vec<String> = header
            .iter()
            .zip(r)
            .map(|(h, c)| format!("\"{h}\": {}", json_cell(h, c)))
            .collect();
        writeln!(out, "{{{}}}", pairs.join(", ")).unwrap();
    }
    out
}

fn json_array() -> String {
    let lines: Vec<String> = jsonl().lines().map(String::from).collect();
    format!("[\n  {}\n]\n", lines.join(",\n  "))
}

/// Long records, one score a line; the missing cells are left out (as harnesses do).
fn long_jsonl() -> String {
    let (header, rows) = cells();
    let mut out = String::new();
    for r in &rows {
        for (h, c) in header.iter().zip(r).skip(1) {
            if !c.is_empty() {
                writeln!(
                    out,
                    "{{\"item\": \"{}\", \"rater\": \"{h}\", \"score\": {c}}}",
                    r[0]
                )
                .unwrap();
            }
        }
    }
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).unwrap();
    enc.finish().unwrap()
}

/// The panel written as Parquet by the parquet crate: a UTF-8 id, optional doubles, and an
/// optional int64 anchor; empty cells are nulls.
fn write_parquet(path: &Path) {
    use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;
    let (header, rows) = cells();
    let fields: Vec<String> = header
        .iter()
        .map(|h| match h.as_str() {
            "item" => "required binary item (UTF8);".to_string(),
            "A3" => "optional int64 A3;".to_string(),
            h => format!("optional double {h};"),
        })
        .collect();
    let schema = parquet::schema::parser::parse_message_type(&format!(
        "message panel {{ {} }}",
        fields.join(" ")
    ))
    .unwrap();
    let props = Arc::new(WriterProperties::builder().build());
    let file = File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, Arc::new(schema), props).unwrap();
    let mut group = writer.next_row_group().unwrap();
    let mut c = 0;
    while let Some(mut col) = group.next_column().unwrap() {
        let cells: Vec<&str> = rows.iter().map(|r| r[c].as_str()).collect();
        let defs: Vec<i16> = cells.iter().map(|s| i16::from(!s.is_empty())).collect();
        let present = cells.iter().filter(|s| !s.is_empty());
        match header[c].as_str() {
            "item" => {
                let v: Vec<ByteArray> = present.map(|s| ByteArray::from(*s)).collect();
                col.typed::<ByteArrayType>()
                    .write_batch(&v, None, None)
                    .unwrap();
            }
            "A3" => {
                let v: Vec<i64> = present.map(|s| s.parse().unwrap()).collect();
                col.typed::<Int64Type>()
                    .write_batch(&v, Some(&defs), None)
                    .unwrap();
            }
            _ => {
                let v: Vec<f64> = present.map(|s| s.parse().unwrap()).collect();
                col.typed::<DoubleType>()
                    .write_batch(&v, Some(&defs), None)
                    .unwrap();
            }
        }
        col.close().unwrap();
        c += 1;
    }
    group.close().unwrap();
    writer.close().unwrap();
}

fn load_ok(path: &Path, opts: &PanelRequest) -> Loaded {
    load(path, opts).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn bits(l: &Loaded) -> Vec<u64> {
    l.panel.data.iter().map(|x| x.to_bits()).collect()
}

/// Every format through the library loader gives the CSV's panel, bit for bit.
#[test]
fn every_format_loads_the_same_panel() {
    let dir = tempfile::tempdir().unwrap();
    let reference = load_ok(&fixture("pipeline.csv"), &PanelRequest::default());
    let pq = dir.path().join("written.parquet");
    write_parquet(&pq);
    let files: Vec<PathBuf> = vec![
        fixture("pipeline_snappy.parquet"),
        fixture("pipeline_zstd.parquet"),
        fixture("pipeline_pandas_default.csv"),
        pq,
        common::write(dir.path(), "p.jsonl", jsonl().as_bytes()),
        common::write(dir.path(), "p.json", json_array().as_bytes()),
        common::write(dir.path(), "records.txt", jsonl().as_bytes()),
        common::write(dir.path(), "p.csv.gz", &gzip(csv_text().as_bytes())),
        common::write(dir.path(), "p.jsonl.gz", &gzip(jsonl().as_bytes())),
        common::write(dir.path(), "p.data", &gzip(csv_text().as_bytes())),
    ];
    for f in &files {
        let got = load_ok(f, &PanelRequest::default());
        assert_eq!(bits(&got), bits(&reference), "{}", f.display());
        assert_eq!(got.panel, reference.panel, "{}", f.display());
    }
    let long = PanelRequest {
        long: Some(rhoscope::data::LongColumns {
            item: "item".into(),
            rater: "rater".into(),
            score: "score".into(),
        }),
        ..PanelRequest::default()
    };
    let f = common::write(dir.path(), "long.jsonl", long_jsonl().as_bytes());
    let got = load_ok(&f, &long);
    assert_eq!(bits(&got), bits(&reference));
    assert_eq!(got.panel.names(), reference.panel.names());
}

/// pandas' default `to_csv` writes its index under an empty name: that column is the id.
#[test]
fn pandas_index_column_is_an_id() {
    let l = load_ok(
        &fixture("pipeline_pandas_default.csv"),
        &PanelRequest::default(),
    );
    assert_eq!(l.header[0], "");
    assert_eq!(l.panel.p(), 4);
    let dir = tempfile::tempdir().unwrap();
    let f = common::write(dir.path(), "e.csv", b"J1,,A1\n1,2,3\n");
    let e = load(&f, &PanelRequest::default()).unwrap_err().to_string();
    assert!(
        e.contains("column '#2': the header has an empty column name"),
        "{e}"
    );
}

/// Formats rhoscope does not read, each named with what to do, by signature or by name.
const REFUSED: [(&str, &[u8], &str); 12] = [
    (
        "book.xlsx",
        b"PK\x03\x04\x14\x00[Content_Types].xml",
        "an Excel workbook: save it as CSV",
    ),
    (
        "book.bin",
        b"PK\x03\x04\x14\x00xl/workbook.xml",
        "an Excel workbook: save it as CSV",
    ),
    (
        "old.xls",
        b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\x00",
        "an Excel workbook: save it as CSV",
    ),
    (
        "p.csv",
        b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1\x00",
        "an Excel workbook: save it as CSV",
    ),
    ("files.zip", b"PK\x03\x04\x14\x00p.csv", "a ZIP archive"),
    ("p.feather", b"ARROW1\x00\x00", "a Feather/Arrow IPC file"),
    ("p.csv.bz2", b"BZh91AY&SY", "bzip2-compressed"),
    ("p.csv.xz", b"\xFD7zXZ\x00\x00", "xz-compressed"),
    ("p.csv.zst", b"\x28\xB5\x2F\xFD\x00", "zstd-compressed"),
    ("p.db", b"SQLite format 3\x00", "an SQLite database"),
    ("p.pdf", b"%PDF-1.7\n", "a PDF document"),
    (
        "p.csv.gz",
        b"J1,J2,A1\n",
        "named .gz but not gzip-compressed",
    ),
];

#[test]
fn unsupported_formats_are_named() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes, said) in REFUSED {
        let f = common::write(dir.path(), name, bytes);
        let e = load(&f, &PanelRequest::default()).unwrap_err();
        assert_eq!(
            rhoscope::error::Error::from(e.clone()).exit_code(),
            65,
            "{name}"
        );
        let e = e.to_string();
        assert!(e.contains(said) && !e.contains('\n'), "{name}: {e}");
    }
}

/// Bad records are located (row and column), never a panic.
#[test]
fn bad_records_are_located() {
    let dir = tempfile::tempdir().unwrap();
    let csv = csv_text();
    let truncated = gzip(csv.as_bytes());
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "syntax.jsonl",
            b"{\"J1\": 1, \"J2\": 2, \"A1\": 3}\n{\"J1\": 1, \"J2\": x}\n".to_vec(),
            "row 2, column 'J2': not valid JSON",
        ),
        (
            "word.jsonl",
            jsonl()
                .replacen("\"J3\": ", "\"J3\": \"high\", \"x\": ", 1)
                .into_bytes(),
            "row 1, column 'J3': not a number (value 'high')",
        ),
        (
            "scalar.json",
            b"[{\"J1\": 1}, 7]".to_vec(),
            "row 2: a record is a number",
        ),
        (
            "nested.jsonl",
            jsonl()
                .replacen("\"J3\": ", "\"J3\": [1], \"y\": ", 1)
                .into_bytes(),
            "row 1, column 'J3': not a number",
        ),
        ("empty.json", b"  \n".to_vec(), "the file is empty"),
        (
            "cut.csv.gz",
            truncated[..truncated.len() / 2].to_vec(),
            "the gzip data is corrupt or truncated",
        ),
        (
            "cut.parquet",
            std::fs::read(fixture("pipeline_snappy.parquet")).unwrap()[..3000].to_vec(),
            "not a readable Parquet file",
        ),
    ];
    for (name, bytes, said) in cases {
        let f = common::write(dir.path(), name, &bytes);
        let e = load(&f, &PanelRequest::default()).unwrap_err().to_string();
        assert!(e.contains(said) && !e.contains('\n'), "{name}: {e}");
    }
}

/// Limits hold for the new formats: more judge columns than supported is refused.
#[test]
fn column_limit_holds_for_records() {
    let dir = tempfile::tempdir().unwrap();
    let pairs: Vec<String> = (0..300).map(|i| format!("\"J{i}\": {i}")).collect();
    let line = format!("{{{}, \"A1\": 1, \"A2\": 2}}\n", pairs.join(", "));
    let f = common::write(dir.path(), "wide.jsonl", line.repeat(4).as_bytes());
    let e = load(&f, &PanelRequest::default()).unwrap_err().to_string();
    assert!(e.contains("at most 256 are supported"), "{e}");
}

#[cfg(feature = "cli")]
mod cli {
    use super::*;
    use std::process::{Command, Stdio};

    /// `estimate --json` without its `source` line (the file's name).
    fn estimate(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> String {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_rhoscope"));
        cmd.arg("estimate")
            .args(args)
            .arg("--json")
            .current_dir(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        let mut input = child.stdin.take().unwrap();
        input.write_all(stdin.unwrap_or_default()).unwrap();
        drop(input);
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .filter(|l| !l.trim_start().starts_with("\"source\""))
            // The drop note names its file and that file's own row (a text header counts), so it
            // differs by format by design; tests/cli_edges46.rs checks the note itself.
            .filter(|l| !l.contains("items dropped for missing values"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn estimate_json_is_the_same_on_every_format() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let csv = fixture("pipeline.csv");
        let reference = estimate(d, &[csv.to_str().unwrap()], None);
        let pq = d.join("written.parquet");
        write_parquet(&pq);
        let files = [
            fixture("pipeline_snappy.parquet"),
            fixture("pipeline_zstd.parquet"),
            fixture("pipeline_pandas_default.csv"),
            pq,
            common::write(d, "p.jsonl", jsonl().as_bytes()),
            common::write(d, "p.json", json_array().as_bytes()),
            common::write(d, "p.csv.gz", &gzip(csv_text().as_bytes())),
            common::write(d, "p.jsonl.gz", &gzip(jsonl().as_bytes())),
        ];
        for f in &files {
            let got = estimate(d, &[f.to_str().unwrap()], None);
            assert_eq!(got, reference, "{}", f.display());
        }
        let long = common::write(d, "long.jsonl", long_jsonl().as_bytes());
        let got = estimate(
            d,
            &[long.to_str().unwrap(), "--long", "item,rater,score"],
            None,
        );
        assert_eq!(got, reference, "long JSON Lines");
        for bytes in [
            csv_text().into_bytes(),
            jsonl().into_bytes(),
            gzip(csv_text().as_bytes()),
            std::fs::read(fixture("pipeline_zstd.parquet")).unwrap(),
        ] {
            assert_eq!(estimate(d, &["-"], Some(&bytes)), reference, "stdin");
        }
    }

    #[test]
    fn unsupported_formats_are_named_by_the_cli() {
        let dir = tempfile::tempdir().unwrap();
        for (name, bytes, said) in REFUSED {
            common::write(dir.path(), name, bytes);
            let r = common::run(dir.path(), &["estimate", name]);
            assert_eq!(r.code, 65, "{name}: {}", r.stderr);
            assert_eq!(r.stderr.lines().count(), 1, "{name}: {}", r.stderr);
            assert!(r.stderr.contains(said), "{name}: {}", r.stderr);
        }
    }
}
