//! The wide layout: one row an item, one column a rater; the `csv` crate's reader, and the
//! checks of a row's width.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::path::Path;

use csv::ByteRecord;

use super::DataError;
use super::raw::{Raw, Strategy};
use super::{
    PanelRequest, Source, assign_roles, cell_value, check_cells, check_cells_so_far,
    check_column_count, fast, long::id_key, position_note, resolve_list,
};
use crate::location::{Location, escape_bytes};
use crate::wording::Setting;

/// The columns of a wide file that a row is parsed for.
pub(super) struct Wide<'a> {
    pub(super) path: &'a Path,
    pub(super) names: &'a [String],
    pub(super) selected: &'a [usize],
    /// The id column, whose values are checked for repeats.
    pub(super) id: Option<usize>,
    pub(super) delimiter: u8,
}

/// The wide layout's columns: the id, the judge and anchor roles and the raw columns they
/// fill, decided from the header alone (a file's or a table's in memory); the selected
/// columns' indices into `names`, judges then anchors; the id column's index.
pub(super) fn wide_layout(
    path: &Path,
    names: &[String],
    raw_header: &[String],
    opts: &PanelRequest,
) -> Result<(Raw, Vec<usize>, Option<usize>), DataError> {
    let id = match &opts.id {
        Some(tok) => resolve_list(std::slice::from_ref(tok), names, true, Setting::Id)?,
        None => Vec::new(),
    };
    let (judges, anchors) = assign_roles(names, &id, opts, true)?;
    let selected: Vec<usize> = judges.iter().chain(&anchors).copied().collect();
    let given = [
        (Setting::Id, opts.id.as_ref().map(std::slice::from_ref)),
        (Setting::Judges, opts.judges.as_deref()),
        (Setting::Anchors, opts.anchors.as_deref()),
        (Setting::SetAside, Some(opts.set_aside.as_slice())),
    ];
    let taken: Vec<usize> = selected.iter().chain(&id).copied().collect();
    let notes = given
        .into_iter()
        .filter_map(|(flag, tokens)| position_note(path, tokens?, names, flag))
        .chain(super::disguised::disguised_note(
            path, raw_header, &taken, opts,
        ))
        .collect();
    let raw = Raw {
        judges: judges.iter().map(|&i| names[i].clone()).collect(),
        anchors: anchors.iter().map(|&i| names[i].clone()).collect(),
        data: Vec::new(),
        stride: 0,
        lines: Vec::new(),
        judges_given: opts.judges.is_some(),
        anchors_given: opts.anchors.is_some(),
        written_names: selected.iter().map(|&i| raw_header[i].clone()).collect(),
        written_places: selected.clone(),
        notes,
        item_ids: Vec::new(),
        rater_column: None,
        width: names.len() - id.len(),
    };
    // Role counts are checked after the rows (as before: a bad row is reported first); the
    // column limit before them, since it guards the allocation.
    check_column_count(path, selected.len(), "judge and anchor columns")?;
    Ok((raw, selected, id.first().copied()))
}

pub(super) fn read_wide(
    src: &mut Source,
    opts: &PanelRequest,
    strategy: Strategy,
) -> Result<Raw, DataError> {
    let names = src.header.clone();
    let (mut raw, selected, id) = wide_layout(&src.path, &names, &src.raw_header, opts)?;
    let path = src.path.clone();
    let wide = Wide {
        path: &path,
        names: &names,
        selected: &selected,
        id,
        delimiter: src.delimiter,
    };
    // The fast reader parses numbers only; ids go through the `csv` reader.
    if let (Strategy::Auto, Some(offset), None) = (strategy, src.body_offset, id)
        && let Some((data, stride, lines)) = fast::read(&wide, offset)?
    {
        raw.data = data;
        raw.stride = stride;
        raw.lines = lines;
        return Ok(raw);
    }
    let (data, lines) = read_wide_csv(src, &wide)?;
    raw.stride = lines.len();
    raw.data = data;
    raw.lines = lines;
    Ok(raw)
}

/// The reference reader: the `csv` crate, one record at a time (quoted fields, bare carriage
/// returns, a quoted header).
pub(super) fn read_wide_csv(src: &mut Source, w: &Wide) -> Result<(Vec<f64>, Vec<u64>), DataError> {
    let mut cols: Vec<Vec<f64>> = vec![Vec::new(); w.selected.len()];
    let mut lines = Vec::new();
    let mut rec = ByteRecord::new();
    let mut wanted = w.selected.to_vec();
    wanted.extend(w.id);
    let kept = src.keep(&wanted);
    let mut ids = ItemIds::default();
    if let Some(rows) = src.rows_stated() {
        // A count the file states (Parquet's footer): refused before a row is decoded.
        check_cells(w.path, rows, w.selected.len(), "rows")?;
    }
    while let Some(line) = src.next(&mut rec)? {
        if !kept.projected {
            if is_blank(&rec) {
                continue;
            }
            check_width(w.path, &rec, w.names, (line, w.delimiter))?;
        }
        check_cells_so_far(w.path, lines.len() + 1, w.selected.len(), "rows")?;
        for (slot, (&c, &at)) in w.selected.iter().zip(&kept.at).enumerate() {
            cols[slot].push(cell_value(w.path, &rec[at], line, &w.names[c])?);
        }
        if let Some(c) = w.id {
            ids.add(w.path, &rec[kept.at[w.selected.len()]], line, &w.names[c])?;
        }
        lines.push(line);
    }
    let mut data = Vec::with_capacity(lines.len() * cols.len());
    for c in cols {
        data.extend_from_slice(&c);
    }
    Ok((data, lines))
}

/// Item ids seen so far in an id column: a second row for one item is refused, as the long
/// layout refuses a second score (a merge gone wrong would count the item twice).
#[derive(Default)]
pub(super) struct ItemIds(HashMap<Vec<u8>, u64>, bool);

impl ItemIds {
    /// A table's ids, whose lines are row index + 1: the first row is named by its index, as
    /// the second's place is.
    pub(super) fn indexed() -> Self {
        ItemIds(HashMap::new(), true)
    }

    /// Records `id` at `line`; fails naming both rows when the item was seen before. A blank
    /// id names no item.
    pub(super) fn add(
        &mut self,
        path: &Path,
        id: &[u8],
        line: u64,
        column: &str,
    ) -> Result<(), DataError> {
        if id.trim_ascii().is_empty() {
            return Ok(());
        }
        match self.0.entry(id_key(id).into_owned()) {
            Entry::Vacant(v) => {
                v.insert(line);
                Ok(())
            }
            Entry::Occupied(first) => Err(DataError::data_at(
                path,
                Location {
                    row: Some(line),
                    column: Some(column.to_string()),
                    value: None,
                },
                if self.1 {
                    format!(
                        "a second row for item '{}' (the first is row index {})",
                        escape_bytes(id.trim_ascii()),
                        first.get() - 1
                    )
                } else {
                    format!(
                        "a second row for item '{}' (the first is row {})",
                        escape_bytes(id.trim_ascii()),
                        first.get()
                    )
                },
            )),
        }
    }
}

pub(super) fn is_blank(rec: &ByteRecord) -> bool {
    rec.len() == 1 && rec.get(0).is_some_and(<[u8]>::is_empty)
}

/// A record whose width is not the header's; when a field spans lines, the cause is a quote
/// that never closed, and the message says so.
pub(super) fn check_width(
    path: &Path,
    rec: &ByteRecord,
    names: &[String],
    (line, delimiter): (u64, u8),
) -> Result<(), DataError> {
    let width = names.len();
    if rec.len() == width {
        return Ok(());
    }
    if let Some(k) = rec.iter().position(|f| f.contains(&b'\n')) {
        let column = names
            .get(k)
            .cloned()
            .unwrap_or_else(|| format!("#{}", k + 1));
        return Err(DataError::data_at(
            path,
            Location {
                row: Some(line),
                column: Some(column),
                value: None,
            },
            format!(
                "unterminated quote: a quoted field opens here and does not close on its line, so the row reads as {} fields where the header has {width}",
                rec.len()
            ),
        ));
    }
    Err(ragged(path, line, (rec.len(), width), delimiter))
}

pub(super) fn ragged(
    path: &Path,
    line: u64,
    (fields, width): (usize, usize),
    delimiter: u8,
) -> DataError {
    let read_as = match delimiter {
        b'\t' => "tab",
        b';' => "semicolon",
        _ => "comma",
    };
    // One field where many were expected: the row is likely split by another delimiter.
    let hint = if fields == 1 && width > 1 {
        "; this row may use another delimiter than the header"
    } else {
        ""
    };
    let noun = if fields == 1 { "field" } else { "fields" };
    DataError::data_at(
        path,
        Location {
            row: Some(line),
            ..Location::default()
        },
        format!(
            "ragged row: {fields} {noun} where the header has {width} (read as {read_as}-separated{hint})"
        ),
    )
}
