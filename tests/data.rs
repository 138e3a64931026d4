//! Loading real and long-layout panels: the HANNA coherence panel read from its wide file
//! and from the official long-format ratings table must be the same 431 × 3 panel.
#![cfg(feature = "cli")]

mod common;

use std::fmt::Write as _;

use common::{run, shared};
use std::path::Path;

use rhoscope::data::{
    Column, ColumnRef, Columns, Families, Loaded, LongColumns, PanelRequest, Table, load,
    load_table,
};

const WORKERS: [&str; 3] = ["A1IZ4NX41GKU4X", "A2VE5IV9OD2SK1", "A3CFNUD7VR2E1E"];

#[test]
fn hanna_long_layout_equals_the_wide_panel() {
    let data = shared().join("hanna");
    let judges = Some(WORKERS.map(ColumnRef::from).to_vec());
    let wide = load(
        &data.join("hanna_coherence_panel.csv"),
        &PanelRequest {
            judges: judges.clone(),
            min_anchors: 0,
            ..PanelRequest::default()
        },
    )
    .unwrap()
    .panel;
    let long = load(
        &data.join("hanna_ratings_with_workers.csv"),
        &PanelRequest {
            judges,
            long: Some(LongColumns {
                item: "Story ID".into(),
                rater: "Worker ID".into(),
                score: "Coherence".into(),
            }),
            min_anchors: 0,
            ..PanelRequest::default()
        },
    )
    .unwrap()
    .panel;
    assert_eq!(wide.n, 431);
    assert_eq!(long.n, 431);
    assert_eq!(long.n_dropped, 1056 - 431);
    assert_eq!(wide.data, long.data);
    assert!(wide.scales.iter().all(rhoscope::panel::Scale::is_ordinal));
    // The three off-diagonal covariances give Test A's statistic 0.5888 (docs/method.md §3): sd with
    // divisor n over their mean.
    let s = wide.covariance();
    let off = [s[(0, 1)], s[(0, 2)], s[(1, 2)]];
    let mean = off.iter().sum::<f64>() / 3.0;
    let sd = (off.iter().map(|c| (c - mean).powi(2)).sum::<f64>() / 3.0).sqrt();
    assert!((sd / mean - 0.5888).abs() < 5e-5, "{}", sd / mean);
}

#[test]
fn long_layout_errors_name_the_rater() {
    let data = shared().join("hanna");
    let r = run(
        &data,
        &[
            "estimate",
            "hanna_ratings_with_workers.csv",
            "--long",
            "Story ID,Worker ID,Coherence",
            "--judges",
            "A1IZ4NX41GKU4X,NOBODY",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("no rater 'NOBODY'"), "{}", r.stderr);
}

#[test]
fn long_layout_rejects_a_second_score_for_the_same_item_and_rater() {
    let dir = tempfile::tempdir().unwrap();
    common::write(
        dir.path(),
        "l.csv",
        b"item,rater,score\n1,J1,3\n1,J2,4\n1,J1,5\n",
    );
    let r = run(
        dir.path(),
        &["estimate", "l.csv", "--long", "item,rater,score"],
    );
    assert_eq!(r.code, 65);
    assert!(
        r.stderr.contains("row 4") && r.stderr.contains("second score"),
        "{}",
        r.stderr
    );
}

#[test]
fn long_layout_with_default_roles_matches_wide() {
    let dir = tempfile::tempdir().unwrap();
    let wide = "J1,J2,A1,A2\n1,2,3,4\n2,1,4,2\n3,3,1,1\n0,5,2,3\n";
    common::write(dir.path(), "w.csv", wide.as_bytes());
    let mut long = String::from("item\trater\tscore\n");
    for (i, line) in wide.lines().skip(1).enumerate() {
        for (name, v) in ["J1", "J2", "A1", "A2"].iter().zip(line.split(',')) {
            writeln!(long, "it{i}\t{name}\t{v}").unwrap();
        }
    }
    common::write(dir.path(), "l.tsv", long.as_bytes());
    // Integer codes would be all ordinal (ρ not identified): read them as numbers.
    let a = run(
        dir.path(),
        &["estimate", "w.csv", "--continuous", "all", "--json"],
    );
    let b = run(
        dir.path(),
        &[
            "estimate",
            "l.tsv",
            "--long",
            "item,rater,score",
            "--continuous",
            "all",
            "--json",
        ],
    );
    assert_eq!(a.code, 0, "{}", a.stderr);
    assert_eq!(b.code, 0, "{}", b.stderr);
    let ea: serde_json::Value = serde_json::from_str(&a.stdout).unwrap();
    let eb: serde_json::Value = serde_json::from_str(&b.stdout).unwrap();
    assert_eq!(ea["estimate"], eb["estimate"]);
}

/// Bits of every value, so that -0.0 and NaN payloads count too.
fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

#[test]
fn a_simulated_panel_reads_back_bit_identical_in_every_dialect() {
    // 30,000 rows (about 4.5 MB): many parallel chunks of the fast reader. The same text with
    // BOM + CRLF + semicolons, and with a quoted header (which takes the csv reader), must give
    // the same bits as the panel that was written.
    let pm = rhoscope::scenario::preset("families").unwrap();
    let panel = rhoscope::simulate::simulate(&pm, 30_000, 9).unwrap();
    let mut text = Vec::new();
    panel.write_csv(&mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut odd = b"\xEF\xBB\xBF".to_vec();
    odd.extend(text.replace(',', ";").replace('\n', "\r\n").bytes());
    let quoted = text.replacen("J1,", "\"J1\",", 1);
    let opts = PanelRequest::default();
    for (name, bytes) in [
        ("plain.csv", text.as_bytes()),
        ("odd.csv", &odd[..]),
        ("quoted.csv", quoted.as_bytes()),
    ] {
        let path = common::write(dir.path(), name, bytes);
        let loaded = load(&path, &opts).unwrap();
        assert_eq!(loaded.panel.n, 30_000, "{name}");
        assert_eq!(loaded.panel.judges, panel.judges, "{name}");
        assert_eq!(bits(&loaded.panel.data), bits(&panel.data), "{name}");
        assert_eq!(loaded.header.len(), 8, "{name}");
    }
}

#[test]
fn missing_markers_drop_the_same_items_in_both_readers() {
    // NA, NaN, null and empty cells, with blank lines between rows: the fast reader (no
    // quotes) and the csv reader (a quote in one cell) must drop the same items and name the
    // same first dropped row.
    let mut s = String::from("J1,J2,J3,A1,A2\n");
    for i in 0..2_000u32 {
        let cell = match i % 11 {
            0 => "NA",
            3 => "nan",
            5 => "null",
            7 => "",
            _ => ["1.5", "2.5", "4"][i as usize % 3],
        };
        let x = f64::from(i) * 0.37;
        writeln!(
            s,
            "{x},{},{cell},{},{}",
            x.sin(),
            f64::from(i % 13),
            x.cos()
        )
        .unwrap();
        if i % 100 == 0 {
            s.push_str("\n  \n");
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let fast = common::write(dir.path(), "fast.csv", s.as_bytes());
    let slow = common::write(
        dir.path(),
        "slow.csv",
        s.replacen(",4,", ",\"4\",", 1).as_bytes(),
    );
    assert!(std::fs::read(&slow).unwrap().contains(&b'"'));
    let a = load(&fast, &PanelRequest::default()).unwrap();
    let b = load(&slow, &PanelRequest::default()).unwrap();
    let dropped = (0..2_000)
        .filter(|i| [0, 3, 5, 7].contains(&(i % 11)))
        .count();
    assert_eq!(a.panel.n_dropped, dropped);
    assert_eq!(bits(&a.panel.data), bits(&b.panel.data));
    assert_eq!(a.panel.missing, b.panel.missing);
    assert_eq!(a.first_dropped, b.first_dropped);
    assert_eq!(a.first_dropped.unwrap().row, Some(2));
}

/// A column of a CSV file as a data frame holds it: numbers when every cell is one or
/// missing, else text.
enum FrameColumn {
    Numbers(Vec<f64>),
    Text(Vec<Option<String>>),
}

/// A CSV file's names and columns, as `pandas.read_csv` would hand them over.
fn frame(path: &Path) -> (Vec<String>, Vec<FrameColumn>) {
    let mut r = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_path(path)
        .unwrap();
    let names: Vec<String> = r.headers().unwrap().iter().map(String::from).collect();
    let mut cells: Vec<Vec<String>> = vec![Vec::new(); names.len()];
    for rec in r.records() {
        for (c, f) in rec.unwrap().iter().enumerate() {
            cells[c].push(f.to_string());
        }
    }
    let missing =
        |s: &str| s.is_empty() || ["na", "nan", "null"].contains(&s.to_lowercase().as_str());
    let columns = cells
        .into_iter()
        .map(|col| {
            let nums: Option<Vec<f64>> = col
                .iter()
                .map(|s| {
                    if missing(s) {
                        Some(f64::NAN)
                    } else {
                        s.parse().ok()
                    }
                })
                .collect();
            nums.map_or_else(
                || {
                    FrameColumn::Text(
                        col.iter()
                            .map(|s| (!s.is_empty()).then(|| s.clone()))
                            .collect(),
                    )
                },
                FrameColumn::Numbers,
            )
        })
        .collect();
    (names, columns)
}

const MEMORY: &str = "<frame>";

/// Loads `path` from its file and from its columns in memory.
fn both(path: &Path, opts: &PanelRequest) -> (Result<Loaded, String>, Result<Loaded, String>) {
    let (names, cols) = frame(path);
    let table = Table {
        names: &names,
        columns: cols
            .iter()
            .map(|c| match c {
                FrameColumn::Numbers(x) => Column::Numbers(x),
                FrameColumn::Text(t) => Column::Text(t),
            })
            .collect(),
    };
    let file = load(path, opts).map_err(|e| e.to_string());
    let memory = load_table(Path::new(MEMORY), &table, opts).map_err(|e| e.to_string());
    (file, memory)
}

/// A file message as the memory loader words it: the table's name, and a file row (the
/// header is row 1, which a table's names do not have) as a row index.
fn as_memory(message: &str, path: &Path) -> String {
    let m = message.replace(&path.display().to_string(), MEMORY);
    let Some(at) = m.find(": row ") else { return m };
    let rest = &m[at + 6..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    let row: u64 = digits.parse().unwrap();
    if row == 1 {
        // The header's row: a table's names have no row.
        return format!("{}{}", &m[..at], &rest[digits.len()..]);
    }
    format!(
        "{}: row index {}{}",
        &m[..at],
        row - 2,
        &rest[digits.len()..]
    )
}

/// The memory loader gives the file loader's panel, header, names, notes and errors.
fn memory_equals_file(path: &Path, opts: &PanelRequest) {
    match both(path, opts) {
        (Ok(f), Ok(m)) => {
            assert_eq!(
                bits(&f.panel.data),
                bits(&m.panel.data),
                "{}",
                path.display()
            );
            assert_eq!(f.panel, m.panel, "{}", path.display());
            assert_eq!(f.header, m.header);
            assert_eq!(f.raw_names, m.raw_names);
            let notes: Vec<String> = f
                .notes
                .iter()
                .map(|n| as_memory(&n.to_string(), path))
                .collect();
            let memory: Vec<String> = m.notes.iter().map(ToString::to_string).collect();
            assert_eq!(notes, memory);
            assert_eq!(
                f.first_dropped
                    .as_ref()
                    .map(|at| (at.row.map(|r| r - 2), at.column.clone())),
                m.first_dropped
                    .as_ref()
                    .map(|at| (at.row, at.column.clone()))
            );
        }
        (Err(f), Err(m)) => assert_eq!(as_memory(&f, path), m),
        (f, m) => panic!(
            "{}: the file gives {:?}, memory {:?}",
            path.display(),
            f.map(|l| l.panel.n),
            m.map(|l| l.panel.n)
        ),
    }
}

#[test]
fn memory_loader_equals_the_file_loader_on_the_fixtures() {
    let fixtures = common::root().join("tests/fixtures");
    for name in ["notes.csv", "pipeline.csv", "pipeline_pandas_default.csv"] {
        memory_equals_file(&fixtures.join(name), &PanelRequest::default());
        memory_equals_file(
            &fixtures.join(name),
            &PanelRequest {
                continuous: Some(Columns::All),
                judges: Some(vec!["J2".into(), "J1".into(), "J3".into()]),
                ..PanelRequest::default()
            },
        );
    }
    // (assets/families.csv and three-anchor.csv are left out: a file adopts its families
    // sidecar, a table has none.)
    for asset in ["mid.csv", "boundary.csv"] {
        memory_equals_file(
            &common::root().join("assets").join(asset),
            &PanelRequest::default(),
        );
    }
}

#[test]
fn memory_loader_equals_the_file_loader_on_the_shared_data() {
    let data = common::root().join("../shared/data");
    if !data.is_dir() {
        eprintln!("skipped: {} is not beside the checkout", data.display());
        return;
    }
    let workers = Some(WORKERS.map(ColumnRef::from).to_vec());
    memory_equals_file(
        &data.join("hanna/hanna_coherence_panel.csv"),
        &PanelRequest {
            judges: workers.clone(),
            min_anchors: 0,
            ..PanelRequest::default()
        },
    );
    memory_equals_file(
        &data.join("hanna/hanna_ratings_with_workers.csv"),
        &PanelRequest {
            judges: workers,
            long: Some(LongColumns {
                item: "Story ID".into(),
                rater: "Worker ID".into(),
                score: "Coherence".into(),
            }),
            min_anchors: 0,
            ..PanelRequest::default()
        },
    );
    let llm = |s: &str| Some(s.split(',').map(ColumnRef::from).collect::<Vec<_>>());
    memory_equals_file(
        &data.join("hanna-llm/hanna_llm_coherence.csv"),
        &PanelRequest {
            judges: llm("beluga_13b,orca_platypus_13b,mistral_7b,llama2_13b_chat,chatgpt"),
            anchors: llm("human1,human2,human3"),
            families: Some(Families::File(data.join("hanna-llm/families.csv"))),
            id: Some("story_id".into()),
            min_anchors: 2,
            ..PanelRequest::default()
        },
    );
}

#[test]
fn memory_loader_errors_are_the_file_loaders_by_row_index() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, PanelRequest); 7] = [
        (
            "J1,J2,A1,A2\n1,2,3,4\n2,oops,4,1\n3,1,2,2\n",
            PanelRequest::default(),
        ),
        (
            "J1,J2,A1,A2\n1,2,3,4\n2,1,4,inf\n3,1,2,2\n0,2,1,1\n",
            PanelRequest::default(),
        ),
        ("J1,J2,A1,A2\n1,2,3,4\n2,1,4,1\n", PanelRequest::default()),
        (
            "J1,J2,A1,A2\n1,2,3,4\n1,1,4,1\n1,3,2,2\n1,0,5,1\n",
            PanelRequest::default(),
        ),
        ("J1,J1,A1,A2\n1,2,3,4\n", PanelRequest::default()),
        (
            "J1,Q2,A1,A2\n1,2,3,4\n2,1,4,1\n3,3,1,2\n",
            PanelRequest {
                min_anchors: 2,
                ..PanelRequest::default()
            },
        ),
        (
            "item,rater,score\n1,J1,3\n1,J2,4\n1,J1,5\n",
            PanelRequest {
                long: Some(LongColumns {
                    item: "item".into(),
                    rater: "rater".into(),
                    score: "score".into(),
                }),
                ..PanelRequest::default()
            },
        ),
    ];
    for (i, (text, opts)) in cases.iter().enumerate() {
        let path = common::write(dir.path(), &format!("e{i}.csv"), text.as_bytes());
        let (file, memory) = both(&path, opts);
        let (Err(f), Err(m)) = (&file, &memory) else {
            panic!(
                "{text}: both must fail: {:?} {:?}",
                file.is_ok(),
                memory.is_ok()
            );
        };
        assert_eq!(&as_memory(f, &path), m, "{text}");
    }
}
