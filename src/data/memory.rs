//! Panels held in memory (a data frame's columns): the same wide and long readers, roles,
//! missing values, ordinal rule, limits and errors as a file, with no text in between. A
//! number column is read where it lies; text cells are parsed as a file's cells are. Errors
//! name the row by its index (from 0), since there is no file row.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use super::DataError;
use super::assemble::assemble;
use super::raw::{Loaded, Raw};
use super::sniff::check_header;
use super::{
    LongColumns, PanelRequest, cell_value, check_cells, long::LongReader, wide::ItemIds,
    wide_layout,
};
use crate::location::{Location, clip, sanitize};
use crate::wording::{Said, Setting};

/// One column of a table in memory.
#[derive(Debug, Clone, Copy)]
pub enum Column<'a> {
    /// Numbers, `NaN` missing.
    Numbers(&'a [f64]),
    /// Text cells, read as a file's cells are (`None` missing).
    Text(&'a [Option<String>]),
    /// A categorical's labels whose order was never declared: an id as it is, refused as
    /// scores, since ranking its labels in any order would be a guess.
    Unordered(&'a [Option<String>]),
}

impl Column<'_> {
    /// The number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        match self {
            Column::Numbers(x) => x.len(),
            Column::Text(x) | Column::Unordered(x) => x.len(),
        }
    }

    /// Whether the column has no rows.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Row `i`'s value, `NaN` when missing; `line` (row index + 1) and `name` locate an error.
    fn value(&self, path: &Path, i: usize, line: u64, name: &str) -> Result<f64, DataError> {
        match self {
            Column::Numbers(x) => number(path, x[i], line, name),
            Column::Text(t) => cell_value(path, cell_bytes(t[i].as_deref()), line, name),
            // Refused before any row is read (`read_wide`, `read_long`); kept whole here.
            Column::Unordered(_) => Err(unordered(path, name, Setting::Long, false)),
        }
    }

    /// Row `i` as an id (item or rater): text as it is, a number in its shortest form,
    /// missing as empty.
    fn id<'b>(&'b self, i: usize, buf: &'b mut String) -> &'b [u8] {
        match self {
            Column::Text(t) | Column::Unordered(t) => cell_bytes(t[i].as_deref()),
            Column::Numbers(x) => {
                buf.clear();
                if !x[i].is_nan() {
                    let _ = write!(buf, "{}", x[i]);
                }
                buf.as_bytes()
            }
        }
    }
}

/// The refusal of an undeclared-order categorical that `role` reads as scores, with both
/// fixes: declare the order, or give the labels as numbers (or, when the role came by
/// default, set the column aside).
fn unordered(path: &Path, name: &str, role: Setting, by_default: bool) -> DataError {
    let name = clip(&sanitize(name), 60);
    let mut said = Said::new(format!(
        "column '{name}' is a categorical whose order was never declared, and "
    ))
    .setting(role);
    if by_default {
        said = said.text(" takes it by default");
    } else {
        said = said.text(" takes it");
    }
    said = said.text(
        ": declare its order (an ordered categorical, lowest first) or give its labels \
         as numbers",
    );
    if by_default {
        said = said
            .text(", or set it aside with ")
            .setting(Setting::SetAside);
    }
    DataError::data(path, said)
}

fn cell_bytes(cell: Option<&str>) -> &[u8] {
    cell.map_or(&[][..], str::as_bytes)
}

/// A number cell: finite as it is, `NaN` missing, an infinity refused as a file's `inf` is.
fn number(path: &Path, x: f64, line: u64, name: &str) -> Result<f64, DataError> {
    if x.is_infinite() {
        return Err(DataError::data_at(
            path,
            Location {
                row: Some(line),
                column: Some(name.to_string()),
                value: Some(x.to_string()),
            },
            "infinite value",
        ));
    }
    Ok(x)
}

/// A table in memory: named columns of equal length, read in the wide layout, or in the
/// long one with `--long` naming its item, rater and score columns.
#[derive(Debug, Clone)]
pub struct Table<'a> {
    pub names: &'a [String],
    pub columns: Vec<Column<'a>>,
}

/// What holds a table in memory for as long as it is registered (the bindings hold a data
/// frame's arrays).
pub trait TableSource: Send + Sync {
    /// The table, borrowed from its holder.
    fn table(&self) -> Table<'_>;
}

/// How a registered table is named where a panel path goes: no character that a figure's
/// SVG text or a message would escape, so a caller can replace the name it shows.
const PREFIX: &str = "in-memory panel #";

type Registry = Mutex<Vec<(PathBuf, Arc<dyn TableSource>)>>;

static TABLES: Registry = Mutex::new(Vec::new());

/// A table registered under a panel path of its own; unregistered when dropped.
pub struct Registered {
    path: PathBuf,
}

impl Registered {
    /// The path that names the table to [`super::load`] (and so to every command).
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl std::fmt::Debug for Registered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Registered")
            .field("path", &self.path)
            .finish()
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        let mut tables = TABLES.lock().unwrap_or_else(PoisonError::into_inner);
        tables.retain(|(p, _)| p != &self.path);
    }
}

/// Registers `source` so that [`super::load`] reads it under the returned path, as if it
/// were a file: commands given that path load the table with no text in between.
#[must_use]
pub fn register(source: Arc<dyn TableSource>) -> Registered {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let path = PathBuf::from(format!("{PREFIX}{}", NEXT.fetch_add(1, Ordering::Relaxed)));
    TABLES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push((path.clone(), source));
    Registered { path }
}

/// The table registered under `path`, if any.
pub(super) fn lookup(path: &Path) -> Option<Arc<dyn TableSource>> {
    if !path.to_str().is_some_and(|p| p.starts_with(PREFIX)) {
        return None;
    }
    let tables = TABLES.lock().unwrap_or_else(PoisonError::into_inner);
    tables
        .iter()
        .find(|(p, _)| p == path)
        .map(|(_, s)| Arc::clone(s))
}

/// The table's header (sanitised, checked as a file's is) and its number of rows.
fn header(path: &Path, table: &Table<'_>) -> Result<(Vec<String>, usize), DataError> {
    if table.names.len() != table.columns.len() {
        return Err(DataError::Usage(
            format!(
                "{} column names for {} columns",
                table.names.len(),
                table.columns.len()
            )
            .into(),
        ));
    }
    let rows = table.columns.first().map_or(0, Column::len);
    if table.columns.iter().any(|c| c.len() != rows) {
        return Err(DataError::Usage("the columns differ in length".into()));
    }
    if table.names.is_empty() {
        return Err(DataError::data(path, "the file is empty (no header row)"));
    }
    // The CSV reader's rule (`Trim::All`): a frame read from a file names the columns the
    // command reads in that file, spaces around a header's names and all.
    let names: Vec<String> = table
        .names
        .iter()
        .map(|n| sanitize(n.trim_ascii()))
        .collect();
    // A table has no header row: its name errors name the column alone.
    check_header(path, &names).map_err(|e| match e {
        DataError::Data { path, at, message } => DataError::Data {
            path,
            at: Location { row: None, ..at },
            message,
        },
        e => e,
    })?;
    Ok((names, rows))
}

/// Loads a table as [`super::load`] loads a file with the same cells; `path` names it in
/// messages.
///
/// # Errors
/// As [`super::load`]; a cell's error names its row index (from 0) and column.
pub fn load_table(
    path: &Path,
    table: &Table<'_>,
    opts: &PanelRequest,
) -> Result<Loaded, DataError> {
    let result = (|| {
        let (names, rows) = header(path, table)?;
        let mut raw = match &opts.long {
            Some(spec) => read_long(path, table, &names, rows, spec, opts)?,
            None => read_wide(path, table, &names, rows, opts)?,
        };
        let mut l = assemble(path, &mut raw, names, b',', opts)?;
        by_index_dropped(path, &mut raw, &mut l);
        Ok(l)
    })();
    result.map_err(|e| by_index(e, path))
}

/// The first dropped item's row as the row index, in its location and in the drop note
/// every front end prints, so they count rows on one base.
fn by_index_dropped(path: &Path, raw: &mut Raw, l: &mut Loaded) {
    let Some(at) = l.first_dropped.take() else {
        return;
    };
    let at = Location {
        row: at.row.map(|r| r - 1),
        ..at
    };
    for line in &mut raw.lines {
        *line = line.saturating_sub(1);
    }
    let total = l.panel.n + l.panel.n_dropped;
    l.drop_note = super::checks::drop_note(path, raw, Some(&at), (l.panel.n_dropped, total));
    l.first_dropped = Some(at);
}

/// A located error's row in the table (index + 1 while loading) as the row index, before
/// its column; another file's (a families file's) keeps its line.
fn by_index(e: DataError, table: &Path) -> DataError {
    match e {
        DataError::Data {
            path,
            at:
                Location {
                    row: Some(r),
                    column,
                    value,
                },
            message,
        } if path == table => {
            let mut m = format!("row index {}", r - 1);
            if let Some(c) = column {
                let _ = write!(m, ", column '{}'", clip(&sanitize(&c), 60));
            }
            m.push_str(": ");
            DataError::Data {
                path,
                at: Location {
                    value,
                    ..Location::default()
                },
                message: message.after(m),
            }
        }
        e => e,
    }
}

/// Row `i`'s line as the readers count it: index + 1, so 0 still marks no item.
fn line(i: usize) -> u64 {
    i as u64 + 1
}

fn read_wide(
    path: &Path,
    table: &Table<'_>,
    names: &[String],
    rows: usize,
    opts: &PanelRequest,
) -> Result<Raw, DataError> {
    let (mut raw, selected, id) = wide_layout(path, names, table.names, opts)?;
    check_cells(path, rows, selected.len(), "rows")?;
    let judges = raw.judges.len();
    if let Some((slot, &c)) = selected
        .iter()
        .enumerate()
        .find(|&(_, &c)| matches!(table.columns[c], Column::Unordered(_)))
    {
        let (role, given) = if slot < judges {
            (Setting::Judges, raw.judges_given)
        } else {
            (Setting::Anchors, raw.anchors_given)
        };
        return Err(unordered(path, &names[c], role, !given));
    }
    if let Some(c) = id {
        let mut ids = ItemIds::indexed();
        let mut buf = String::new();
        for i in 0..rows {
            ids.add(path, table.columns[c].id(i, &mut buf), line(i), &names[c])?;
        }
    }
    // The first bad cell in row order (then column order within a row), as a file reports it.
    let mut first: Option<(usize, usize, DataError)> = None;
    let mut data = Vec::with_capacity(rows * selected.len());
    for (slot, &c) in selected.iter().enumerate() {
        let col = table.columns[c];
        if let Column::Numbers(x) = col
            && x.iter().all(|v| !v.is_infinite())
        {
            data.extend_from_slice(x);
            continue;
        }
        for i in 0..rows {
            match col.value(path, i, line(i), &names[c]) {
                Ok(v) => data.push(v),
                Err(e) => {
                    if first.as_ref().is_none_or(|(r, _, _)| i < *r) {
                        first = Some((i, slot, e));
                    }
                    data.push(f64::NAN);
                    break;
                }
            }
        }
        data.resize((slot + 1) * rows, f64::NAN);
    }
    if let Some((_, _, e)) = first {
        return Err(e);
    }
    raw.data = data;
    raw.stride = rows;
    raw.lines = (0..rows).map(line).collect();
    Ok(raw)
}

fn read_long(
    path: &Path,
    table: &Table<'_>,
    names: &[String],
    rows: usize,
    spec: &LongColumns,
    opts: &PanelRequest,
) -> Result<Raw, DataError> {
    let mut long = LongReader::new(path, names, spec, opts)?;
    let (ci, cr, cs) = long.columns;
    let (items, raters, scores) = (table.columns[ci], table.columns[cr], table.columns[cs]);
    if let Column::Unordered(_) = scores {
        return Err(unordered(path, &names[cs], Setting::Long, false));
    }
    let (mut item_buf, mut rater_buf) = (String::new(), String::new());
    for i in 0..rows {
        let item = items.id(i, &mut item_buf);
        let rater = raters.id(i, &mut rater_buf);
        long.row(line(i), item, rater, || {
            scores.value(path, i, line(i), &names[cs])
        })?;
    }
    long.finish()
}
