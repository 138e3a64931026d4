//! Loads a panel from delimited text (SPEC §6): comma, tab or semicolon (sniffed from the
//! header), wide or long layout, column roles, families, complete-case handling and located
//! errors. The file is streamed; only the numeric matrix of selected columns is kept.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Cursor, Read};
use std::path::{Path, PathBuf};

use csv::{ByteRecord, ReaderBuilder, Trim};

use crate::error::{Error, Location, sanitize};
use crate::panel::{Panel, Scale};

/// Fewest complete items a panel may have: two degrees of freedom for every covariance.
pub const MIN_ITEMS: usize = 3;

/// How to read a panel file. `Default` reads a wide file with roles from the header.
#[derive(Debug, Clone, Default)]
pub struct LoadOptions {
    /// `--judges`: names or 1-based column indices (rater ids in long layout).
    pub judges: Option<Vec<String>>,
    /// `--anchors`: as `judges`.
    pub anchors: Option<Vec<String>>,
    /// `--id`: an id column (wide layout), which takes no role.
    pub id: Option<String>,
    /// `--long ITEM,RATER,SCORE`: read the long layout with these three columns.
    pub long: Option<Vec<String>>,
    /// `--families`: `NAME=FAMILY,...` or the path of a two-column file.
    pub families: Option<String>,
    /// `--continuous`: columns (judges or anchors, by name) forced to the continuous scale,
    /// or `all`.
    pub continuous: Option<Vec<String>>,
    /// Fewest anchors accepted (2 for `estimate`; the battery accepts 0).
    pub min_anchors: usize,
}

/// A loaded panel and where its families came from.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub panel: Panel,
    /// The sidecar or file families were read from, if any.
    pub families_source: Option<PathBuf>,
    /// The first dropped item's location, for a one-line note.
    pub first_dropped: Option<Location>,
    /// Every column name of the file's header (sanitised), whatever its role; the long
    /// layout's header names its item, rater and score columns.
    pub header: Vec<String>,
}

/// Every column name of a panel file's header (sanitised).
///
/// # Errors
/// As [`load`], for the header only.
pub fn header(path: &Path) -> Result<Vec<String>, Error> {
    Ok(Source::open(path)?.header)
}

/// The families sidecar that `simulate` writes next to a panel: `x.csv` → `x.families.csv`.
#[must_use]
pub fn families_sidecar(panel_path: &Path) -> PathBuf {
    let stem = panel_path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    panel_path.with_file_name(format!("{stem}.families.csv"))
}

/// Loads a panel.
///
/// # Errors
/// [`Error::NoInput`] when the file cannot be read, [`Error::Data`] for unusable contents
/// (with row, column and value), [`Error::Usage`] for role lists that do not fit the file.
pub fn load(path: &Path, opts: &LoadOptions) -> Result<Loaded, Error> {
    let mut src = Source::open(path)?;
    let mut raw = if let Some(cols) = &opts.long {
        read_long(&mut src, cols, opts)?
    } else {
        read_wide(&mut src, opts)?
    };
    let mut loaded = finish(path, &mut raw, opts)?;
    loaded.header = src.header;
    Ok(loaded)
}

/// An opened file with its sniffed delimiter and header line.
struct Source {
    path: PathBuf,
    reader: csv::Reader<std::io::Chain<Cursor<Vec<u8>>, BufReader<File>>>,
    header: Vec<String>,
}

const MAX_HEADER: u64 = 1 << 20;

impl Source {
    fn open(path: &Path) -> Result<Source, Error> {
        let no_input = |reason: String| Error::NoInput {
            path: path.to_path_buf(),
            reason,
        };
        if path.is_dir() {
            return Err(no_input("is a directory".into()));
        }
        let file = File::open(path).map_err(|e| no_input(io_reason(&e)))?;
        let mut buf = BufReader::with_capacity(1 << 16, file);
        let mut first = Vec::new();
        (&mut buf)
            .take(MAX_HEADER)
            .read_until(b'\n', &mut first)
            .map_err(|e| no_input(io_reason(&e)))?;
        if first.strip_prefix(b"\xEF\xBB\xBF").is_some() {
            first.drain(..3);
        }
        if first.iter().all(u8::is_ascii_whitespace) {
            return Err(Error::data(path, "the file is empty (no header row)"));
        }
        let truncated = !first.ends_with(b"\n") && first.len() as u64 == MAX_HEADER;
        if first.contains(&0) || std::str::from_utf8(&first).is_err() || truncated {
            return Err(Error::data(
                path,
                "not a text panel: the header is binary, not UTF-8 or over 1 MiB",
            ));
        }
        let delimiter = sniff(&first);
        let mut reader = ReaderBuilder::new()
            .delimiter(delimiter)
            .has_headers(false)
            .flexible(true)
            .trim(Trim::All)
            .from_reader(Cursor::new(first).chain(buf));
        let mut rec = ByteRecord::new();
        reader
            .read_byte_record(&mut rec)
            .map_err(|e| csv_error(path, &e))?;
        let header: Vec<String> = rec
            .iter()
            .map(|f| sanitize(&String::from_utf8_lossy(f)))
            .collect();
        check_header(path, &header)?;
        Ok(Source {
            path: path.to_path_buf(),
            reader,
            header,
        })
    }

    /// The next record, or `None` at the end; the line number comes with it.
    fn next(&mut self, rec: &mut ByteRecord) -> Result<Option<u64>, Error> {
        match self.reader.read_byte_record(rec) {
            Ok(true) => Ok(Some(rec.position().map_or(0, csv::Position::line))),
            Ok(false) => Ok(None),
            Err(e) => Err(csv_error(&self.path, &e)),
        }
    }
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

fn csv_error(path: &Path, e: &csv::Error) -> Error {
    let row = e.position().map(csv::Position::line);
    match e.kind() {
        csv::ErrorKind::Io(io) => Error::NoInput {
            path: path.to_path_buf(),
            reason: io_reason(io),
        },
        _ => Error::data_at(
            path,
            Location {
                row,
                ..Location::default()
            },
            "malformed delimited text",
        ),
    }
}

/// The delimiter with the most occurrences in the header: comma, tab or semicolon.
fn sniff(header: &[u8]) -> u8 {
    #[expect(clippy::naive_bytecount, reason = "one short header line")]
    let count = |d: u8| header.iter().filter(|b| **b == d).count();
    [b',', b'\t', b';']
        .into_iter()
        .max_by_key(|d| (count(*d), u8::MAX - *d))
        .filter(|d| count(*d) > 0)
        .unwrap_or(b',')
}

fn check_header(path: &Path, header: &[String]) -> Result<(), Error> {
    for (i, name) in header.iter().enumerate() {
        if name.is_empty() {
            return Err(Error::data_at(
                path,
                Location {
                    row: Some(1),
                    column: Some(format!("#{}", i + 1)),
                    value: None,
                },
                "the header has an empty column name",
            ));
        }
        if let Some(j) = header[..i].iter().position(|n| n == name) {
            return Err(Error::data_at(
                path,
                Location {
                    row: Some(1),
                    column: Some(name.clone()),
                    value: None,
                },
                format!("duplicate column name (columns {} and {})", j + 1, i + 1),
            ));
        }
    }
    Ok(())
}

/// A parsed cell: a finite number, or missing (empty, NA, NaN, null — SPEC §6).
fn parse_cell(path: &Path, field: &[u8], row: u64, column: &str) -> Result<Option<f64>, Error> {
    let at = || Location {
        row: Some(row),
        column: Some(column.to_string()),
        value: Some(String::from_utf8_lossy(field).into_owned()),
    };
    let Ok(s) = std::str::from_utf8(field) else {
        return Err(Error::data_at(path, at(), "not a number (binary data)"));
    };
    let s = s.trim();
    if s.is_empty()
        || ["na", "nan", "null"]
            .iter()
            .any(|t| s.eq_ignore_ascii_case(t))
    {
        return Ok(None);
    }
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(Some(x)),
        Ok(x) if x.is_nan() => Ok(None),
        Ok(_) => Err(Error::data_at(path, at(), "infinite value")),
        Err(_) => Err(Error::data_at(path, at(), "not a number")),
    }
}

/// Columns of selected raters before complete-case filtering (`NaN` = missing).
struct Raw {
    judges: Vec<String>,
    anchors: Vec<String>,
    /// One vector per selected column (judges then anchors), one entry per item.
    cols: Vec<Vec<f64>>,
    /// Line of each item (wide: its row; long: the row where it first appeared).
    lines: Vec<u64>,
    judges_given: bool,
    anchors_given: bool,
}

/// SPEC §6 default roles: `judge…` or `J<digits>` is a judge; `anchor…` or `A<digits>` an anchor.
#[must_use]
pub fn default_role(name: &str) -> Option<Role> {
    let lower = name.to_ascii_lowercase();
    let tagged = |word: &str, letter: char| {
        lower.starts_with(word)
            || lower
                .strip_prefix(letter)
                .is_some_and(|rest| !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit()))
    };
    if tagged("judge", 'j') {
        Some(Role::Judge)
    } else if tagged("anchor", 'a') {
        Some(Role::Anchor)
    } else {
        None
    }
}

/// The role of a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Judge,
    Anchor,
}

/// Resolves `--judges`/`--anchors` tokens to indices into `names`: exact name, then a
/// 1-based index (when `by_index`), then a unique case-insensitive name.
fn resolve_list(
    tokens: &[String],
    names: &[String],
    by_index: bool,
    flag: &str,
) -> Result<Vec<usize>, Error> {
    let mut out = Vec::with_capacity(tokens.len());
    for tok in tokens {
        let tok = tok.trim();
        let found = names
            .iter()
            .position(|n| n == tok)
            .or_else(|| {
                by_index
                    .then(|| tok.parse::<usize>().ok())
                    .flatten()
                    .filter(|i| (1..=names.len()).contains(i))
                    .map(|i| i - 1)
            })
            .or_else(|| {
                let hits: Vec<usize> = (0..names.len())
                    .filter(|&i| names[i].eq_ignore_ascii_case(tok))
                    .collect();
                (hits.len() == 1).then(|| hits[0])
            });
        let Some(i) = found else {
            return Err(Error::Usage(format!(
                "{flag}: no column '{}' (columns: {})",
                sanitize(tok),
                preview(names)
            )));
        };
        if out.contains(&i) {
            return Err(Error::Usage(format!(
                "{flag}: column '{}' is listed twice",
                names[i]
            )));
        }
        out.push(i);
    }
    Ok(out)
}

fn preview(names: &[String]) -> String {
    let shown: Vec<&str> = names.iter().take(12).map(String::as_str).collect();
    let more = names.len().saturating_sub(12);
    if more > 0 {
        format!("{}, … {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// Judge and anchor column indices into `names`, from the lists or the default patterns.
fn assign_roles(
    names: &[String],
    excluded: &[usize],
    opts: &LoadOptions,
    by_index: bool,
) -> Result<(Vec<usize>, Vec<usize>), Error> {
    let judges = match &opts.judges {
        Some(t) => resolve_list(t, names, by_index, "--judges")?,
        None => Vec::new(),
    };
    let anchors = match &opts.anchors {
        Some(t) => resolve_list(t, names, by_index, "--anchors")?,
        None => Vec::new(),
    };
    if let Some(i) = judges.iter().find(|i| anchors.contains(i)) {
        return Err(Error::Usage(format!(
            "column '{}' is given as both judge and anchor",
            names[*i]
        )));
    }
    for i in judges.iter().chain(&anchors) {
        if excluded.contains(i) {
            return Err(Error::Usage(format!(
                "column '{}' is the id column and cannot be a judge or anchor",
                names[*i]
            )));
        }
    }
    let by_pattern = |role: Role, taken: &[usize]| -> Vec<usize> {
        (0..names.len())
            .filter(|i| !excluded.contains(i) && !taken.contains(i))
            .filter(|&i| default_role(&names[i]) == Some(role))
            .collect()
    };
    let judges = if opts.judges.is_some() {
        judges
    } else {
        by_pattern(Role::Judge, &anchors)
    };
    let anchors = if opts.anchors.is_some() {
        anchors
    } else {
        by_pattern(Role::Anchor, &judges)
    };
    Ok((judges, anchors))
}

fn read_wide(src: &mut Source, opts: &LoadOptions) -> Result<Raw, Error> {
    let names = src.header.clone();
    let id = match &opts.id {
        Some(tok) => resolve_list(std::slice::from_ref(tok), &names, true, "--id")?,
        None => Vec::new(),
    };
    let (judges, anchors) = assign_roles(&names, &id, opts, true)?;
    let selected: Vec<usize> = judges.iter().chain(&anchors).copied().collect();
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); selected.len()];
    let mut lines = Vec::new();
    let mut rec = ByteRecord::new();
    while let Some(line) = src.next(&mut rec)? {
        if is_blank(&rec) {
            continue;
        }
        check_width(&src.path, &rec, names.len(), line)?;
        for (slot, &c) in selected.iter().enumerate() {
            let v = parse_cell(&src.path, &rec[c], line, &names[c])?;
            cols[slot].push(v.unwrap_or(f64::NAN));
        }
        lines.push(line);
    }
    Ok(Raw {
        judges: judges.iter().map(|&i| names[i].clone()).collect(),
        anchors: anchors.iter().map(|&i| names[i].clone()).collect(),
        cols,
        lines,
        judges_given: opts.judges.is_some(),
        anchors_given: opts.anchors.is_some(),
    })
}

/// Long layout: which raters are selected, and their columns (one value per item, `NaN`
/// while missing). Listed raters keep list order; default-pattern raters are added on first
/// sight, so the file is read once.
struct RaterColumns {
    judges: Vec<String>,
    anchors: Vec<String>,
    judge_cols: Vec<Vec<f64>>,
    anchor_cols: Vec<Vec<f64>>,
    listed_judges: bool,
    listed_anchors: bool,
    slot_of: HashMap<Vec<u8>, Option<(Role, usize)>>,
    seen: Vec<String>,
}

impl RaterColumns {
    fn new(opts: &LoadOptions) -> Result<Self, Error> {
        let listed = |l: &Option<Vec<String>>| -> Vec<String> {
            l.iter().flatten().map(|s| s.trim().to_string()).collect()
        };
        let (judges, anchors) = (listed(&opts.judges), listed(&opts.anchors));
        if let Some(dup) = judges.iter().find(|j| anchors.contains(j)) {
            return Err(Error::Usage(format!(
                "rater '{}' is given as both judge and anchor",
                sanitize(dup)
            )));
        }
        Ok(RaterColumns {
            judge_cols: vec![Vec::new(); judges.len()],
            anchor_cols: vec![Vec::new(); anchors.len()],
            judges,
            anchors,
            listed_judges: opts.judges.is_some(),
            listed_anchors: opts.anchors.is_some(),
            slot_of: HashMap::new(),
            seen: Vec::new(),
        })
    }

    /// The column of `rater`, deciding its role on first sight; `None` if not selected.
    fn column(&mut self, rater: &[u8]) -> Option<&mut Vec<f64>> {
        let slot = if let Some(s) = self.slot_of.get(rater) {
            *s
        } else {
            let id = sanitize(&String::from_utf8_lossy(rater));
            self.seen.push(id.clone());
            let s = self.decide(id);
            self.slot_of.insert(rater.to_vec(), s);
            s
        };
        match slot? {
            (Role::Judge, i) => Some(&mut self.judge_cols[i]),
            (Role::Anchor, i) => Some(&mut self.anchor_cols[i]),
        }
    }

    fn decide(&mut self, id: String) -> Option<(Role, usize)> {
        if let Some(j) = self.judges.iter().position(|n| *n == id) {
            return self.listed_judges.then_some((Role::Judge, j));
        }
        if let Some(a) = self.anchors.iter().position(|n| *n == id) {
            return self.listed_anchors.then_some((Role::Anchor, a));
        }
        match default_role(&id) {
            Some(Role::Judge) if !self.listed_judges => {
                self.judges.push(id);
                self.judge_cols.push(Vec::new());
                Some((Role::Judge, self.judges.len() - 1))
            }
            Some(Role::Anchor) if !self.listed_anchors => {
                self.anchors.push(id);
                self.anchor_cols.push(Vec::new());
                Some((Role::Anchor, self.anchors.len() - 1))
            }
            _ => None,
        }
    }

    /// Fails when a listed rater never appeared in the file.
    fn check_listed(&self, rater_column: &str) -> Result<(), Error> {
        for (list, listed, flag) in [
            (&self.judges, self.listed_judges, "--judges"),
            (&self.anchors, self.listed_anchors, "--anchors"),
        ] {
            if let Some(unknown) = list.iter().find(|r| listed && !self.seen.contains(r)) {
                return Err(Error::Usage(format!(
                    "{flag}: no rater '{}' in column '{rater_column}' (raters: {})",
                    sanitize(unknown),
                    preview(&self.seen)
                )));
            }
        }
        Ok(())
    }
}

fn read_long(src: &mut Source, spec: &[String], opts: &LoadOptions) -> Result<Raw, Error> {
    if spec.len() != 3 {
        return Err(Error::Usage(
            "--long takes three columns: ITEM,RATER,SCORE".into(),
        ));
    }
    let names = src.header.clone();
    let idx = resolve_list(spec, &names, true, "--long")?;
    let (ci, cr, cs) = (idx[0], idx[1], idx[2]);
    let mut raters = RaterColumns::new(opts)?;
    let mut items: HashMap<Vec<u8>, usize> = HashMap::new();
    let mut lines: Vec<u64> = Vec::new();
    let mut rec = ByteRecord::new();
    while let Some(line) = src.next(&mut rec)? {
        if is_blank(&rec) {
            continue;
        }
        check_width(&src.path, &rec, names.len(), line)?;
        let Some(col) = raters.column(&rec[cr]) else {
            continue;
        };
        let next_item = items.len();
        let item = *items.entry(rec[ci].to_vec()).or_insert(next_item);
        if item == lines.len() {
            lines.push(line);
        }
        if col.len() <= item {
            col.resize(item + 1, f64::NAN);
        }
        if !col[item].is_nan() {
            return Err(Error::data_at(
                &src.path,
                Location {
                    row: Some(line),
                    column: Some(names[cr].clone()),
                    value: Some(String::from_utf8_lossy(&rec[cr]).into_owned()),
                },
                format!(
                    "a second score for item '{}' by the same rater",
                    sanitize(&String::from_utf8_lossy(&rec[ci]))
                ),
            ));
        }
        col[item] = parse_cell(&src.path, &rec[cs], line, &names[cs])?.unwrap_or(f64::NAN);
    }
    raters.check_listed(&names[cr])?;
    let n = lines.len();
    let mut cols: Vec<Vec<f64>> = raters
        .judge_cols
        .into_iter()
        .chain(raters.anchor_cols)
        .collect();
    for c in &mut cols {
        c.resize(n, f64::NAN);
    }
    Ok(Raw {
        judges: raters.judges,
        anchors: raters.anchors,
        cols,
        lines,
        judges_given: opts.judges.is_some(),
        anchors_given: opts.anchors.is_some(),
    })
}

fn is_blank(rec: &ByteRecord) -> bool {
    rec.len() == 1 && rec.get(0).is_some_and(<[u8]>::is_empty)
}

fn check_width(path: &Path, rec: &ByteRecord, width: usize, line: u64) -> Result<(), Error> {
    if rec.len() == width {
        return Ok(());
    }
    Err(Error::data_at(
        path,
        Location {
            row: Some(line),
            ..Location::default()
        },
        format!(
            "ragged row: {} fields where the header has {width}",
            rec.len()
        ),
    ))
}

/// Role counts, complete-case filtering, constant columns, scales and families.
fn finish(path: &Path, raw: &mut Raw, opts: &LoadOptions) -> Result<Loaded, Error> {
    check_role_counts(path, raw, opts)?;
    let names: Vec<String> = raw.judges.iter().chain(&raw.anchors).cloned().collect();
    let total = raw.lines.len();
    if total == 0 {
        return Err(Error::data(
            path,
            "no data rows (the file has a header only)",
        ));
    }
    let missing: Vec<usize> = raw
        .cols
        .iter()
        .map(|c| c.iter().filter(|x| x.is_nan()).count())
        .collect();
    let complete: Vec<bool> = (0..total)
        .map(|i| raw.cols.iter().all(|c| !c[i].is_nan()))
        .collect();
    let n = complete.iter().filter(|c| **c).count();
    let first_dropped = complete.iter().position(|c| !c).map(|i| {
        let col = raw.cols.iter().position(|c| c[i].is_nan()).unwrap_or(0);
        Location {
            row: Some(raw.lines[i]),
            column: Some(names[col].clone()),
            value: None,
        }
    });
    if n < MIN_ITEMS {
        return Err(Error::data(
            path,
            format!(
                "only {n} complete items ({} dropped for missing values); at least {MIN_ITEMS} are needed",
                total - n
            ),
        ));
    }
    let mut data = Vec::with_capacity(n * names.len());
    for c in &mut raw.cols {
        if n == total {
            data.append(c);
        } else {
            data.extend(
                c.iter()
                    .zip(&complete)
                    .filter(|(_, k)| **k)
                    .map(|(x, _)| *x),
            );
            *c = Vec::new();
        }
    }
    check_constant(path, &names, &data, n)?;
    let mut scales: Vec<Scale> = (0..names.len())
        .map(|c| Scale::detect(&data[c * n..(c + 1) * n]))
        .collect();
    for c in forced_continuous(&names, opts.continuous.as_deref())? {
        scales[c] = Scale::Continuous;
    }
    let (families, families_source) = load_families(path, &raw.judges, opts)?;
    Ok(Loaded {
        panel: Panel {
            n,
            data,
            judges: raw.judges.clone(),
            anchors: raw.anchors.clone(),
            families,
            scales,
            missing,
            n_dropped: total - n,
        },
        families_source,
        first_dropped,
        header: Vec::new(),
    })
}

/// At least 2 judges and `min_anchors` anchors; a usage error when the user named them.
fn check_role_counts(path: &Path, raw: &Raw, opts: &LoadOptions) -> Result<(), Error> {
    let count_error = |given: bool, msg: String| {
        if given {
            Error::Usage(msg)
        } else {
            Error::data(path, msg)
        }
    };
    if raw.judges.len() < 2 {
        return Err(count_error(
            raw.judges_given,
            format!(
                "fewer than 2 judges ({} found{}); name them with --judges",
                raw.judges.len(),
                found_names(&raw.judges)
            ),
        ));
    }
    if raw.anchors.len() < opts.min_anchors {
        return Err(count_error(
            raw.anchors_given,
            format!(
                "fewer than {} anchors ({} found{}); name them with --anchors",
                opts.min_anchors,
                raw.anchors.len(),
                found_names(&raw.anchors)
            ),
        ));
    }
    Ok(())
}

/// A constant column carries no covariance: an error naming it and its value.
fn check_constant(path: &Path, names: &[String], data: &[f64], n: usize) -> Result<(), Error> {
    for (ci, name) in names.iter().enumerate() {
        let col = &data[ci * n..(ci + 1) * n];
        #[expect(
            clippy::float_cmp,
            reason = "a constant column is exactly equal values"
        )]
        let constant = col.iter().all(|x| *x == col[0]);
        if constant {
            return Err(Error::data_at(
                path,
                Location {
                    column: Some(name.clone()),
                    value: Some(col[0].to_string()),
                    ..Location::default()
                },
                "constant column: every complete item has the same value, so it carries no covariance",
            ));
        }
    }
    Ok(())
}

/// Column indices named by `--continuous` (`all` names every column).
fn forced_continuous(names: &[String], list: Option<&[String]>) -> Result<Vec<usize>, Error> {
    match list {
        None => Ok(Vec::new()),
        Some([one]) if one.trim().eq_ignore_ascii_case("all") => Ok((0..names.len()).collect()),
        Some(tokens) => resolve_list(tokens, names, false, "--continuous"),
    }
}

fn found_names(names: &[String]) -> String {
    if names.is_empty() {
        String::new()
    } else {
        format!(": {}", preview(names))
    }
}

/// Families from `--families` (a `NAME=FAMILY` list or a file), or from the sidecar.
fn load_families(
    panel_path: &Path,
    judges: &[String],
    opts: &LoadOptions,
) -> Result<(Option<Vec<String>>, Option<PathBuf>), Error> {
    let (pairs, source) = match &opts.families {
        Some(spec) if spec.contains('=') => {
            let pairs = spec
                .split(',')
                .map(|kv| {
                    kv.split_once('=')
                        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
                        .ok_or_else(|| {
                            Error::Usage(format!(
                                "--families: '{}' is not NAME=FAMILY",
                                sanitize(kv)
                            ))
                        })
                })
                .collect::<Result<Vec<_>, _>>()?;
            (pairs, None)
        }
        Some(file) => {
            let p = PathBuf::from(file);
            (read_families_file(&p, judges)?, Some(p))
        }
        None => {
            let side = families_sidecar(panel_path);
            if !side.is_file() {
                return Ok((None, None));
            }
            (read_families_file(&side, judges)?, Some(side))
        }
    };
    let mut fam: Vec<Option<String>> = vec![None; judges.len()];
    for (name, family) in pairs {
        let Some(j) = judges.iter().position(|n| *n == name) else {
            return Err(Error::Usage(format!(
                "--families names '{}', which is not a judge (judges: {})",
                sanitize(&name),
                preview(judges)
            )));
        };
        fam[j] = Some(sanitize(&family));
    }
    // A judge left out of the list forms a family of its own.
    let labels = fam
        .into_iter()
        .zip(judges)
        .map(|(f, j)| f.unwrap_or_else(|| format!("{j} (own)")))
        .collect();
    Ok((Some(labels), source))
}

/// A two-column `judge,family` file; a first row that names no judge is a header.
fn read_families_file(path: &Path, judges: &[String]) -> Result<Vec<(String, String)>, Error> {
    let mut src = Source::open(path)?;
    let mut out = Vec::new();
    if judges.contains(&src.header[0]) {
        if src.header.len() != 2 {
            return Err(bad_family_row(path, 1));
        }
        out.push((src.header[0].clone(), src.header[1].clone()));
    }
    let mut rec = ByteRecord::new();
    while let Some(line) = src.next(&mut rec)? {
        if is_blank(&rec) {
            continue;
        }
        if rec.len() != 2 {
            return Err(bad_family_row(path, line));
        }
        let field = |i: usize| sanitize(&String::from_utf8_lossy(&rec[i]));
        out.push((field(0), field(1)));
    }
    Ok(out)
}

fn bad_family_row(path: &Path, line: u64) -> Error {
    Error::data_at(
        path,
        Location {
            row: Some(line),
            ..Location::default()
        },
        "a families file has two columns: judge,family",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
