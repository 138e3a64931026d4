//! The long layout (item, rater and score columns): one row a score, gathered into the panel's
//! columns.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use csv::ByteRecord;

use super::DataError;
use super::raw::Raw;
use super::{
    ColumnRef, LongColumns, MAX_COLUMNS, PanelRequest, Role, Source, cell_value, check_cells,
    check_width, default_role, is_blank, position_note, preview, resolve_list,
};
use crate::location::{Location, escape, sanitize};
use crate::wording::{Said, Setting};

/// Long layout: which raters are selected, and their scores, kept sparse (one entry per
/// scored (rater, item)) so that a file naming a new rater on every row cannot make a
/// raters × items matrix before the limits are checked. Listed raters keep list order;
/// default-pattern raters are added on first sight, so the file is read once.
pub(super) struct RaterColumns {
    judges: Vec<String>,
    anchors: Vec<String>,
    listed_judges: bool,
    listed_anchors: bool,
    /// Listed raters by name.
    listed: HashMap<String, (Role, usize)>,
    /// Raters set aside: never given a role by the name patterns.
    aside: HashSet<String>,
    slot_of: HashMap<Vec<u8>, Option<(Role, usize)>>,
    seen: Vec<String>,
    seen_set: HashSet<String>,
    /// Score of each scored (rater, item), keyed by [`score_key`]; `NaN` when missing.
    /// About 20 bytes an entry, so memory follows the file's rows, not raters × items.
    scores: HashMap<u64, f64>,
}

impl RaterColumns {
    fn new(opts: &PanelRequest) -> Result<Self, DataError> {
        let judges = rater_ids(opts.judges.as_deref(), Setting::Judges)?;
        let anchors = rater_ids(opts.anchors.as_deref(), Setting::Anchors)?;
        let aside: HashSet<String> = rater_ids(Some(&opts.set_aside), Setting::SetAside)?
            .into_iter()
            .collect();
        if let Some(dup) = judges.iter().find(|j| anchors.contains(j)) {
            return Err(DataError::Usage(
                Said::new(format!("rater '{}' is named by both ", sanitize(dup)))
                    .setting(Setting::Judges)
                    .text(" and ")
                    .setting(Setting::Anchors),
            ));
        }
        if let Some(dup) = judges.iter().chain(&anchors).find(|j| aside.contains(*j)) {
            return Err(DataError::Usage(
                Said::new(format!(
                    "rater '{}' is both selected and set aside (",
                    sanitize(dup)
                ))
                .setting(Setting::SetAside)
                .text(")"),
            ));
        }
        if judges.len() + anchors.len() > MAX_COLUMNS {
            return Err(DataError::Usage(
                Said::new("")
                    .setting(Setting::Judges)
                    .text(" and ")
                    .setting(Setting::Anchors)
                    .text(format!(
                        " name {} raters; at most {MAX_COLUMNS} are supported",
                        judges.len() + anchors.len()
                    )),
            ));
        }
        let mut by_name = HashMap::new();
        for (i, a) in anchors.iter().enumerate() {
            by_name.entry(a.clone()).or_insert((Role::Anchor, i));
        }
        for (i, j) in judges.iter().enumerate() {
            by_name.insert(j.clone(), (Role::Judge, i));
        }
        Ok(RaterColumns {
            judges,
            anchors,
            listed_judges: opts.judges.is_some(),
            listed_anchors: opts.anchors.is_some(),
            listed: by_name,
            aside,
            slot_of: HashMap::new(),
            seen: Vec::new(),
            seen_set: HashSet::new(),
            scores: HashMap::new(),
        })
    }

    /// The slot of `rater`, deciding its role on first sight; `None` if not selected.
    fn slot(&mut self, rater: &[u8]) -> Option<(Role, usize)> {
        let rater = &*id_key(rater);
        if let Some(s) = self.slot_of.get(rater) {
            return *s;
        }
        let id = sanitize(&String::from_utf8_lossy(rater));
        if self.seen_set.insert(id.clone()) {
            self.seen.push(id.clone());
        }
        let s = self.decide(id);
        self.slot_of.insert(rater.to_vec(), s);
        s
    }

    fn decide(&mut self, id: String) -> Option<(Role, usize)> {
        if let Some(&(role, i)) = self.listed.get(&id) {
            let listed = match role {
                Role::Judge => self.listed_judges,
                Role::Anchor => self.listed_anchors,
            };
            return listed.then_some((role, i));
        }
        if self.aside.contains(&id) {
            return None;
        }
        match default_role(&id) {
            Some(Role::Judge) if !self.listed_judges => {
                self.judges.push(id);
                Some((Role::Judge, self.judges.len() - 1))
            }
            Some(Role::Anchor) if !self.listed_anchors => {
                self.anchors.push(id);
                Some((Role::Anchor, self.anchors.len() - 1))
            }
            _ => None,
        }
    }

    fn count(&self) -> usize {
        self.judges.len() + self.anchors.len()
    }

    /// Fails when a listed rater never appeared in the file.
    fn check_listed(&self, rater_column: &str) -> Result<(), DataError> {
        for (list, listed, setting) in [
            (&self.judges, self.listed_judges, Setting::Judges),
            (&self.anchors, self.listed_anchors, Setting::Anchors),
        ] {
            if let Some(unknown) = list.iter().find(|r| listed && !self.seen_set.contains(*r)) {
                // A number here is a rater id: positions pick columns of the wide layout only.
                let digits = unknown.bytes().all(|b| b.is_ascii_digit());
                return Err(DataError::Usage(Said::new("").setting(setting).text(
                    format!(
                        " names no rater '{}' in column '{rater_column}' (raters: {}){}",
                        escape(unknown),
                        preview(&self.seen),
                        if digits {
                            "; with the long layout a number is a rater id, not a position"
                        } else {
                            ""
                        }
                    ),
                )));
            }
        }
        Ok(())
    }
}

/// The rater ids a setting lists (trimmed); a position names no rater.
fn rater_ids(list: Option<&[ColumnRef]>, setting: Setting) -> Result<Vec<String>, DataError> {
    list.unwrap_or_default()
        .iter()
        .map(|c| match c {
            ColumnRef::Name(n) | ColumnRef::NameOrPosition(n) => {
                Ok(String::from_utf8_lossy(&id_key(n.trim().as_bytes())).into_owned())
            }
            ColumnRef::Position(p) => Err(DataError::Usage(Said::new("").setting(setting).text(
                format!(
                    " gives position {p}, but raters of the long layout are named by their ids"
                ),
            ))),
        })
        .collect()
}

/// The rater ids of a long-layout file, in order of first sight (at most
/// [`MAX_COLUMNS`](super::MAX_COLUMNS) + 1): the columns the explorer lists for roles, since
/// the file's own header names only its item, rater and score columns.
///
/// # Errors
/// The file cannot be read, or the layout's three columns are not in its header.
pub fn long_raters(path: &Path, spec: &LongColumns) -> Result<Vec<String>, DataError> {
    let mut src = Source::open(path)?;
    let names = src.header.clone();
    let three = [spec.item.clone(), spec.rater.clone(), spec.score.clone()];
    let rater = resolve_list(&three, &names, true, Setting::Long)?[1];
    let (mut seen, mut set) = (Vec::new(), HashSet::new());
    let mut rec = ByteRecord::new();
    while src.next(&mut rec)?.is_some() && seen.len() <= MAX_COLUMNS {
        if let Some(r) = rec.get(rater).filter(|_| !is_blank(&rec)) {
            let id = sanitize(&String::from_utf8_lossy(r));
            if set.insert(id.clone()) {
                seen.push(id);
            }
        }
    }
    Ok(seen)
}

pub(super) fn read_long(
    src: &mut Source,
    spec: &LongColumns,
    opts: &PanelRequest,
) -> Result<Raw, DataError> {
    let names = src.header.clone();
    let path = src.path.clone();
    let mut long = LongReader::new(&path, &names, spec, opts)?;
    let (ci, cr, cs) = long.columns;
    let mut rec = ByteRecord::new();
    src.ids(&[ci, cr])?;
    let kept = src.keep(&[ci, cr, cs]);
    let [ai, ar, at] = [kept.at[0], kept.at[1], kept.at[2]];
    while let Some(line) = src.next(&mut rec)? {
        if !kept.projected {
            if is_blank(&rec) {
                continue;
            }
            check_width(&path, &rec, &names, (line, src.delimiter))?;
        }
        long.row(line, &rec[ai], &rec[ar], || {
            cell_value(&path, &rec[at], line, &names[cs])
        })?;
    }
    long.finish()
}

/// The long layout's rules, row by row, whatever holds the rows (a file, a table in memory):
/// rater roles, item order, one score per (item, rater), the limits.
pub(super) struct LongReader<'a> {
    path: &'a Path,
    names: &'a [String],
    /// The item, rater and score columns.
    pub(super) columns: (usize, usize, usize),
    opts: &'a PanelRequest,
    raters: RaterColumns,
    items: HashMap<Vec<u8>, usize>,
    lines: Vec<u64>,
    /// Each item's id as written, in item order.
    ids: Vec<String>,
    /// The note when a number in `--long` names a column other than its position would.
    note: Option<String>,
}

impl<'a> LongReader<'a> {
    /// Resolves the item, rater and score columns against the header.
    pub(super) fn new(
        path: &'a Path,
        names: &'a [String],
        spec: &LongColumns,
        opts: &'a PanelRequest,
    ) -> Result<Self, DataError> {
        let three = [spec.item.clone(), spec.rater.clone(), spec.score.clone()];
        let idx = resolve_list(&three, names, true, Setting::Long)?;
        let note = position_note(path, &three, names, Setting::Long);
        Ok(LongReader {
            path,
            names,
            columns: (idx[0], idx[1], idx[2]),
            opts,
            raters: RaterColumns::new(opts)?,
            items: HashMap::new(),
            lines: Vec::new(),
            ids: Vec::new(),
            note,
        })
    }

    /// One row (file line or table row `line`): its item and rater ids, and its score,
    /// parsed only when the rater is selected.
    pub(super) fn row(
        &mut self,
        line: u64,
        item_id: &[u8],
        rater: &[u8],
        score: impl FnOnce() -> Result<f64, DataError>,
    ) -> Result<(), DataError> {
        let (ci, cr) = (self.columns.0, self.columns.1);
        // A missing id names no rater or item: the row's score would be dropped without a
        // word (a rater), or gathered under an item called "NA" (an item).
        for (id, c, what) in [(rater, cr, "rater"), (item_id, ci, "item")] {
            if super::is_missing(&String::from_utf8_lossy(id)) {
                return Err(DataError::data_at(
                    self.path,
                    Location {
                        row: Some(line),
                        column: Some(self.names[c].clone()),
                        value: Some(String::from_utf8_lossy(id).into_owned()),
                    },
                    format!(
                        "the {what} id is missing, so this row's score belongs to no {what}: fill it in or delete the row"
                    ),
                ));
            }
        }
        let raters = &mut self.raters;
        let before = raters.count();
        let Some((role, slot)) = raters.slot(rater) else {
            return Ok(());
        };
        let at_rater = || Location {
            row: Some(line),
            column: Some(self.names[cr].clone()),
            value: Some(String::from_utf8_lossy(rater).into_owned()),
        };
        if raters.count() > before && raters.count() > MAX_COLUMNS {
            return Err(DataError::data_at(
                self.path,
                at_rater(),
                Said::new(format!(
                    "more than {MAX_COLUMNS} judge and anchor raters; at most {MAX_COLUMNS} are supported: select some with "
                ))
                .setting(Setting::Judges)
                .text(" and ")
                .setting(Setting::Anchors),
            ));
        }
        let next_item = self.items.len();
        let item = *self
            .items
            .entry(id_key(item_id).into_owned())
            .or_insert(next_item);
        if item == self.lines.len() {
            self.lines.push(line);
            self.ids.push(sanitize(&String::from_utf8_lossy(item_id)));
        }
        let cell = raters
            .scores
            .entry(score_key(role, slot, item))
            .or_insert(f64::NAN);
        if !cell.is_nan() {
            return Err(DataError::data_at(
                self.path,
                at_rater(),
                format!(
                    "a second score for item '{}' by the same rater",
                    sanitize(&String::from_utf8_lossy(item_id))
                ),
            ));
        }
        *cell = score()?;
        Ok(())
    }

    /// The raters' columns, once every row is read.
    pub(super) fn finish(self) -> Result<Raw, DataError> {
        let raters = self.raters;
        raters.check_listed(&self.names[self.columns.1])?;
        let n = self.lines.len();
        let (p, q) = (raters.judges.len(), raters.count());
        check_cells(self.path, n, q, "items")?;
        let mut data = vec![f64::NAN; n * q];
        for (&key, &x) in &raters.scores {
            let (role, slot, item) = split_key(key);
            let col = match role {
                Role::Judge => slot,
                Role::Anchor => p + slot,
            };
            data[col * n + item] = x;
        }
        Ok(Raw {
            judges: raters.judges,
            anchors: raters.anchors,
            data,
            stride: n,
            lines: self.lines,
            judges_given: self.opts.judges.is_some(),
            anchors_given: self.opts.anchors.is_some(),
            written_names: Vec::new(),
            written_places: Vec::new(),
            notes: self.note.into_iter().collect(),
            item_ids: self.ids,
            rater_column: Some(self.names[self.columns.1].clone()),
            width: usize::MAX,
        })
    }
}

/// An item or rater id as it is compared: a number by its value (`1`, `1.0` and `01` are one
/// id, as pandas writes `1.0` once a column holds a missing value), other text as written.
/// A number with more than 15 significant digits stays text, so no two ids merge by rounding.
pub(super) fn id_key(id: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let text = std::str::from_utf8(id).unwrap_or("").trim();
    let digits = text
        .bytes()
        .take_while(|b| !matches!(b, b'e' | b'E'))
        .filter(u8::is_ascii_digit)
        .skip_while(|&b| b == b'0')
        .count();
    match text.parse::<f64>() {
        Ok(x) if x.is_finite() && digits <= 15 && text.bytes().any(|b| b.is_ascii_digit()) => {
            std::borrow::Cow::Owned(format!("{}", x + 0.0).into_bytes())
        }
        _ => std::borrow::Cow::Borrowed(id),
    }
}

/// Bits of a long-layout score key: the item index takes the low 40 (a file has fewer rows),
/// the rater slot the next 22, the role the top bit.
pub(super) const ITEM_BITS: u32 = 40;

pub(super) fn score_key(role: Role, slot: usize, item: usize) -> u64 {
    let role = u64::from(role == Role::Anchor) << 63;
    role | ((slot as u64) << ITEM_BITS) | item as u64
}

pub(super) fn split_key(key: u64) -> (Role, usize, usize) {
    let role = if key >> 63 == 1 {
        Role::Anchor
    } else {
        Role::Judge
    };
    let (slot, item) = (
        ((key >> ITEM_BITS) & ((1 << 22) - 1)) as usize,
        (key & ((1 << ITEM_BITS) - 1)) as usize,
    );
    (role, slot, item)
}
