//! Loads a panel (docs/method.md §6) from delimited text — comma, tab or semicolon, sniffed from the
//! header — or from the files pipelines write (JSON records, Parquet, gzip, standard input;
//! docs/file-formats.md): wide or long layout, column roles, families, complete-case handling and located
//! errors. Only the numeric matrix of selected columns is kept.
//!
//! Speed (docs/method.md §6, "Data files"): a wide file whose body holds no quote character and no bare
//! carriage return is read as raw bytes in two passes. The first counts lines, so the matrix is
//! allocated once at its final size — and refused *before* allocation when it would pass
//! [`limits::MAX_CELLS`]; the second parses blocks of rows in parallel (rayon) straight into the
//! column-major matrix with a correctly rounded float parser. Any other file goes through the
//! `csv` crate row by row. Both paths give bit-identical numbers and the same located errors
//! (a unit test runs them against each other).

use std::path::Path;

use crate::wording::Said;

pub mod limits;

use limits::MAX_COLUMNS;

/// Every column name of a panel file's header (sanitised).
///
/// # Errors
/// As [`load`], for the header only.
pub fn header(path: &Path) -> Result<Vec<String>, DataError> {
    if let Some(source) = memory::lookup(path) {
        return Ok(source
            .table()
            .names
            .iter()
            .map(|n| crate::location::sanitize(n))
            .collect());
    }
    Ok(Source::open(path)?.header)
}

/// A file's column names told from its first bytes only (at most 2 MiB, decompressed): a
/// text header line, a JSON input's first record (or the columns of pandas' layout seen so
/// far), a Parquet file's schema. The explorer's file list calls it for every file in the
/// folder, so a large file there costs no more than a small one.
///
/// # Errors
/// When the first bytes hold no readable header.
pub fn sniff_header(path: &Path) -> Result<Vec<String>, DataError> {
    let (format, bytes) = input::head(path)?;
    let names = match format {
        format::Format::Parquet => return Source::open(path).map(|s| s.header),
        format::Format::Json => json::first_keys(path, &bytes)?,
        _ => {
            let buf = std::io::BufReader::new(
                Box::new(std::io::Cursor::new(bytes)) as Box<dyn std::io::Read + Send>
            );
            return Source::text(path, buf, false).map(|s| s.header);
        }
    };
    Ok(names.iter().map(|n| crate::location::sanitize(n)).collect())
}

/// Whether some choice of columns could make the file at `path` a panel, told from its first
/// bytes (as [`sniff_header`]): at least 3 columns, and for text at least two rows, each as
/// wide as the header, and a column whose cells there are all numbers or missing (a long
/// layout's scores, at the least). The explorer lists only such files, and keeps the panel on
/// screen when another is none.
#[must_use]
pub fn could_be_panel(path: &Path) -> bool {
    let Ok((format, bytes)) = input::head(path) else {
        return false;
    };
    if matches!(format, format::Format::Parquet | format::Format::Json) {
        return sniff_header(path).is_ok_and(|h| h.len() >= 3);
    }
    let cut = bytes.len() as u64 >= input::SNIFF_BYTES;
    let buf = std::io::BufReader::new(
        Box::new(std::io::Cursor::new(bytes)) as Box<dyn std::io::Read + Send>
    );
    let Ok(mut src) = Source::text(path, buf, false) else {
        return false;
    };
    let width = src.header.len();
    let mut numeric = vec![true; width];
    let (mut rows, mut rec) = (0, csv::ByteRecord::new());
    while rows < 50
        && let Ok(Some(line)) = src.next(&mut rec)
    {
        if is_blank(&rec) {
            continue;
        }
        if rec.len() != width {
            // The head's last line may be cut short; any other short or long row is no table.
            if cut {
                break;
            }
            return false;
        }
        for (ok, field) in numeric.iter_mut().zip(&rec) {
            *ok &= cell_value(path, field, line, "").is_ok();
        }
        rows += 1;
    }
    width >= 3 && rows >= 2 && numeric.contains(&true)
}

/// Loads a panel.
///
/// # Errors
/// [`DataError::NoInput`] when the file cannot be read, [`DataError::Data`] for unusable contents
/// (with row, column and value) or a panel over a [`limits`] bound, [`DataError::Usage`] for role
/// lists that do not fit the file.
pub fn load(path: &Path, opts: &PanelRequest) -> Result<Loaded, DataError> {
    load_with(path, opts, Strategy::Auto)
}

fn load_with(path: &Path, opts: &PanelRequest, strategy: Strategy) -> Result<Loaded, DataError> {
    if let Some(Families::File(f)) = &opts.families
        && names_stdin(path)
        && names_stdin(f)
    {
        return Err(DataError::Usage(
            Said::new("the panel and ")
                .setting(crate::wording::Setting::Families)
                .text(" both name standard input, which can be read once: write one of them to a file"),
        ));
    }
    if let Some(source) = memory::lookup(path) {
        return memory::load_table(path, &source.table(), opts);
    }
    let mut src = Source::open(path)?;
    let mut raw = if let Some(cols) = &opts.long {
        read_long(&mut src, cols, opts)?
    } else {
        read_wide(&mut src, opts, strategy)?
    };
    assemble(path, &mut raw, src.header, src.delimiter, opts)
}

mod assemble;
mod cells;
mod checks;
mod columnar;
mod disguised;
mod error;
mod family_files;
mod fast;
mod format;
#[cfg(test)]
mod format_z;
mod input;
mod json;
mod json_numbers;
mod json_pandas;
mod json_rows;
mod json_scan;
mod json_shape;
mod json_strict;
mod long;
pub mod memory;
mod raw;
mod records;
mod request;
mod roles;
mod sniff;
mod wide;

pub use cells::{MISSING, is_missing};
pub use checks::MAX_MAGNITUDE;
pub use columnar::panic_is_caught;
pub use error::DataError;
pub use format::Format;
pub use input::note_stdin_closed;
pub use long::long_raters;
pub use memory::{Column, Table, TableSource, load_table, register};
pub use raw::{Beside, Loaded, MIN_ITEMS, families_beside, families_sidecar};
pub use request::{ColumnRef, Columns, Families, LongColumns, PanelRequest};
pub use roles::{Role, default_role};

use assemble::assemble;
use cells::cell_value;
use error::io_reason;
use family_files::load_families;
use input::names_stdin;
use limits::{check_cells, check_cells_so_far, check_column_count};
use long::read_long;
use raw::Strategy;
use records::Opened;
use records::Records;
use roles::{assign_roles, position_note, preview, resolve_list};
use sniff::Source;
use wide::{Wide, check_width, is_blank, ragged, read_wide, wide_layout};

#[cfg(test)]
mod tests {
    use super::cells::fast_number;
    use super::long::{score_key, split_key};
    use super::sniff::{check_header, sniff};
    use super::*;
    use std::fmt::Write as _;

    #[test]
    fn sniffs_each_delimiter() {
        assert_eq!(sniff(b"a,b,c\n"), b',');
        assert_eq!(sniff(b"a\tb\tc\n"), b'\t');
        assert_eq!(sniff(b"a;b;c\n"), b';');
        assert_eq!(sniff(b"abc\n"), b',');
    }

    #[test]
    fn default_roles_follow_spec_patterns() {
        assert_eq!(default_role("J1"), Some(Role::Judge));
        assert_eq!(default_role("judge_gpt"), Some(Role::Judge));
        assert_eq!(default_role("A12"), Some(Role::Anchor));
        assert_eq!(default_role("Anchor-human"), Some(Role::Anchor));
        assert_eq!(default_role("A1IZ4NX41GKU4X"), None);
        assert_eq!(default_role("J"), None);
        assert_eq!(default_role("story_id"), None);
    }

    /// Loads `content` through both readers and requires identical results or errors.
    fn both(content: &[u8], opts: &PanelRequest) -> Result<Loaded, String> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.csv");
        std::fs::write(&path, content).unwrap();
        let fast = load_with(&path, opts, Strategy::Auto);
        let slow = load_with(&path, opts, Strategy::Sequential);
        match (fast, slow) {
            (Ok(a), Ok(b)) => {
                let bits =
                    |l: &Loaded| l.panel.data.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
                assert_eq!(bits(&a), bits(&b), "{}", String::from_utf8_lossy(content));
                assert_eq!(a.panel, b.panel);
                assert_eq!(a.first_dropped, b.first_dropped);
                assert_eq!(a.header, b.header);
                assert_eq!(a.notes, b.notes);
                Ok(a)
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string());
                Err(a.to_string())
            }
            (a, b) => panic!(
                "the readers disagree on {:?}: fast {:?}, csv {:?}",
                String::from_utf8_lossy(content),
                a.map(|l| l.panel),
                b.map(|l| l.panel)
            ),
        }
    }

    const GOOD: &str = "J1,J2,J3,A1,A2\n1.5,2,3,4,5\n2,1,4.25,2,1\n3,3,1,1,2\n0,5,2,3,-1e-3\n";

    #[test]
    fn fast_and_csv_readers_agree_on_awkward_files() {
        let opts = PanelRequest::default();
        let cases: Vec<String> = vec![
            GOOD.into(),
            GOOD.trim_end().into(),
            GOOD.replace('\n', "\r\n"),
            GOOD.replace("\n3,", "\n\n   \n\t\n3,"),
            GOOD.replace("\n3,3", "\n NA ,nan"),
            GOOD.replace(",4.25,", ",null,").replace(",1,2\n", ",,2\n"),
            GOOD.replace("4.25", "abc"),
            GOOD.replace("4.25", "1e400"),
            GOOD.replace("4.25", "-inf"),
            GOOD.replace("4.25", "+.5"),
            GOOD.replace("4.25", "1_000"),
            GOOD.replace("4.25", "0x10"),
            GOOD.replace("4.25", "5."),
            GOOD.replace("4.25", "\u{a0}7\u{a0}"),
            GOOD.replace("3,3,1,1,2", "3,3,1,1"),
            GOOD.replace("3,3,1,1,2", "3,3,1,1,2,9"),
            GOOD.replace(',', ";"),
            GOOD.replace(',', "\t"),
            GOOD.replace(",4,5\n", ",4,\"5\"\n"),
            GOOD.replace("\n3,3", "\r3,3"),
            format!("{GOOD}\n\n\n"),
            "J1,J2,A1,A2\n1,2,3,4\n1,2,3,4\n2,2,4,4\n3,3,1,7\n".into(),
            "J1,J2,A1\n".into(),
        ];
        for c in &cases {
            let _ = both(c.as_bytes(), &opts);
        }
        let mut bytes = GOOD.as_bytes().to_vec();
        bytes[30] = 0xff;
        let _ = both(&bytes, &opts);
    }

    #[test]
    fn fast_reader_handles_many_blocks_and_chunks() {
        // About 1.2 MB: several parallel chunks, rows spanning chunk boundaries, with missing
        // cells and a late bad cell whose row must be exact.
        let mut s = String::from("id,J1,J2,A1,A2\n");
        for i in 0..40_000u32 {
            let x = f64::from(i).sqrt() * 1.000_000_1;
            let miss = if i % 997 == 0 {
                "NA".to_string()
            } else {
                format!("{}.25", i % 5)
            };
            writeln!(
                s,
                "it{i},{x},{},{},{miss}",
                1.0 / f64::from(i + 1),
                f64::from(i % 7) - 3.3
            )
            .unwrap();
        }
        let ok = both(s.as_bytes(), &PanelRequest::default()).unwrap();
        assert_eq!(ok.panel.n + ok.panel.n_dropped, 40_000);
        let bad = s.replacen("it39000,", "it39000,oops", 1);
        let err = both(bad.as_bytes(), &PanelRequest::default()).unwrap_err();
        assert!(err.contains("row 39002, column 'J1'"), "{err}");
        // A row longer than a read block (1 MiB) grows the buffer and still parses.
        let long = format!(
            "J1,J2,A1,A2\n1,2,3,4\n2,{}5,1,3\n3,1,2,2\n0,4,4,1\n",
            " ".repeat(3 << 19)
        );
        let ok = both(long.as_bytes(), &PanelRequest::default()).unwrap();
        assert_eq!(ok.panel.n, 4);
        assert_eq!(ok.panel.col(1), &[2.0, 5.0, 1.0, 4.0][..]);
    }

    #[test]
    fn identical_judges_are_noted_once() {
        let ok = both(
            b"J1,J2,J3,A1,A2\n1,1,2,3,4\n2,2,1,4,1\n3,3,3,1,2\n0,0,5,2,3\n",
            &PanelRequest::default(),
        )
        .unwrap();
        assert_eq!(ok.notes.len(), 1);
        assert!(
            ok.notes[0].to_string().contains("'J1' = 'J2'"),
            "{:?}",
            ok.notes
        );
        let fine = both(GOOD.as_bytes(), &PanelRequest::default()).unwrap();
        assert!(fine.notes.is_empty());
    }

    #[test]
    fn score_keys_round_trip() {
        for (role, slot, item) in [
            (Role::Judge, 0, 0),
            (Role::Anchor, 255, (1 << 40) - 1),
            (Role::Judge, 17, 123_456_789),
        ] {
            assert_eq!(split_key(score_key(role, slot, item)), (role, slot, item));
        }
    }

    #[test]
    fn duplicate_header_check_is_linear() {
        let names: Vec<String> = (0..100_000).map(|i| format!("X{i}")).collect();
        check_header(Path::new("h.csv"), &names).unwrap();
        let mut dup = names;
        dup.push("X5".into());
        let e = check_header(Path::new("h.csv"), &dup)
            .unwrap_err()
            .to_string();
        assert!(e.contains("columns 6 and 100001"), "{e}");
    }

    proptest::proptest! {
        /// The fast float parser gives std's bits, or defers to it.
        #[test]
        fn fast_number_matches_std(s in "[-+]?[0-9]{0,20}(\\.[0-9]{0,20})?([eE][-+]?[0-9]{1,3})?") {
            if let Some(x) = fast_number(s.as_bytes()) {
                proptest::prop_assert_eq!(Some(x.to_bits()), s.parse::<f64>().ok().map(f64::to_bits));
            }
        }

        #[test]
        fn fast_number_matches_std_on_doubles(x in proptest::num::f64::NORMAL | proptest::num::f64::SUBNORMAL) {
            for s in [format!("{x}"), format!("{x:e}"), format!("{x:.3}")] {
                let got = fast_number(s.as_bytes()).map(f64::to_bits);
                proptest::prop_assert_eq!(got, s.parse::<f64>().ok().map(f64::to_bits));
            }
        }
    }
}
