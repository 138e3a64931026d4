//! Judge families from the request (pairs or a file) or the sidecar `simulate` writes.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use csv::ByteRecord;

use super::DataError;
use super::raw::{Beside, families_beside};
use super::{Families as Asked, MAX_COLUMNS, PanelRequest, Source, is_blank, preview};
use crate::location::{Location, sanitize};
use crate::wording::{Said, Setting};

/// Family labels per judge, the file they came from, and notes for the user.
pub(super) type Families = (Option<Vec<String>>, Option<PathBuf>, Vec<Said>);

/// Where a family assignment came from, for errors that name it.
pub(super) enum FamilyOrigin {
    /// Judge → family pairs given with the request.
    Inline,
    /// A families file given with the request.
    File(PathBuf),
    /// The sidecar beside the panel, adopted without being asked for.
    Sidecar(PathBuf),
}

/// Families from the request (pairs or a file), or from the sidecar; the third value holds
/// the one-line note that says a sidecar was adopted.
pub(super) fn load_families(
    panel_path: &Path,
    (judges, anchors): (&[String], &[String]),
    opts: &PanelRequest,
) -> Result<Families, DataError> {
    let mut header_note = None;
    let mut read = |p: &Path, adopted: bool| {
        read_families_file(p, (judges, anchors), adopted).map(|(pairs, note)| {
            header_note = note;
            pairs
        })
    };
    let (pairs, origin) = match &opts.families {
        Some(Asked::Pairs(given)) => (inline_pairs(given)?, FamilyOrigin::Inline),
        Some(Asked::File(p)) => (read(p, false)?, FamilyOrigin::File(p.clone())),
        None => match families_beside(panel_path) {
            None => return Ok((None, None, Vec::new())),
            Some((side, Beside::Own)) => (read(&side, true)?, FamilyOrigin::Sidecar(side)),
            Some((side, Beside::Folder)) => {
                // The folder's file speaks for several panels: only this panel's judges count.
                // A file that names none of them is another panel's; one that names them but
                // cannot be read is this panel's error, never silently dropped.
                let (listed, pairs) = match read(&side, true) {
                    Ok(pairs) => (!pairs.is_empty(), pairs),
                    Err(e) if names_a_judge(&side, judges) => return Err(e),
                    Err(_) => (false, Vec::new()),
                };
                // Rows naming neither a judge nor an anchor are other panels': dropped unsaid.
                let pairs: Vec<_> = pairs
                    .into_iter()
                    .filter(|(name, _, _)| judges.contains(name) || anchors.contains(name))
                    .collect();
                if !pairs.iter().any(|(name, _, _)| judges.contains(name)) {
                    if !listed {
                        return Ok((None, None, Vec::new()));
                    }
                    // Found and not used: said, so no front end is silent about it.
                    let note = DataError::data(
                        panel_path,
                        Said::new(format!(
                            "note: {} beside it names none of this panel's judges, so no families are read from it (",
                            side.display()
                        ))
                        .setting(Setting::Families)
                        .text(" gives them)"),
                    )
                    .said();
                    return Ok((None, None, vec![note]));
                }
                (pairs, FamilyOrigin::Sidecar(side))
            }
        },
    };
    // An adopted file never blocks a role change: its rows for columns that are not judges
    // here (made anchors, set aside, left out of the judges) are skipped, and said once.
    let (pairs, skipped): (Vec<Entry>, Vec<Entry>) = match origin {
        FamilyOrigin::Sidecar(_) => pairs
            .into_iter()
            .partition(|(name, _, _)| judges.contains(name)),
        _ => (pairs, Vec::new()),
    };
    let position: HashMap<&str, usize> = judges
        .iter()
        .enumerate()
        .map(|(i, n)| (n.as_str(), i))
        .collect();
    let mut fam: Vec<Option<String>> = vec![None; judges.len()];
    for (name, family, line) in pairs {
        let Some(&j) = position.get(name.as_str()) else {
            return Err(not_a_judge(&origin, &name, line, judges));
        };
        fam[j] = Some(sanitize(&family));
    }
    // A judge left out of the list forms a family of its own.
    let labels = fam
        .into_iter()
        .zip(judges)
        .map(|(f, j)| f.unwrap_or_else(|| format!("{j} (own)")))
        .collect();
    let (source, mut notes) = match origin {
        FamilyOrigin::Inline => (None, Vec::new()),
        FamilyOrigin::File(p) => (Some(p), Vec::new()),
        FamilyOrigin::Sidecar(p) => {
            let note = adopted_note(panel_path, &p, &skipped);
            (Some(p), vec![note])
        }
    };
    notes.extend(header_note);
    Ok((Some(labels), source, notes))
}

/// The one note an adopted families file gets: where the families came from, and which of its
/// rows were skipped because they name columns that are not judges in this panel.
fn adopted_note(panel_path: &Path, side: &Path, skipped: &[Entry]) -> Said {
    let mut text = format!(
        "note: judge families read from {} beside it",
        side.display()
    );
    if !skipped.is_empty() {
        let names: Vec<String> = skipped.iter().map(|(n, _, _)| n.clone()).collect();
        let rows = if skipped.len() == 1 {
            "its row for"
        } else {
            "its rows for"
        };
        let _ = write!(
            text,
            "; {rows} {} skipped: not a judge in this panel",
            preview(&names)
        );
    }
    text.push_str(" (");
    DataError::data(
        panel_path,
        Said::new(text)
            .setting(Setting::Families)
            .text(" overrides)"),
    )
    .said()
}

/// The judge → family pairs given with the request, trimmed and checked.
fn inline_pairs(given: &[(String, String)]) -> Result<Vec<(String, String, u64)>, DataError> {
    if given.len() > MAX_COLUMNS {
        return Err(DataError::Usage(
            Said::new("").setting(Setting::Families).text(format!(
                " gives {} families; at most {MAX_COLUMNS}",
                given.len()
            )),
        ));
    }
    let pairs: Vec<(String, String, u64)> = given
        .iter()
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string(), 0))
        .collect();
    check_inline_families(&pairs)?;
    Ok(pairs)
}

/// Whether the file at `path` has a `judge,family` row naming one of `judges` (read
/// leniently: a wide panel that happens to be called `families.csv` names none). A file that
/// cannot be opened as text at all (UTF-16, binary) may name them: its error is said, as the
/// sidecar's is, never dropped.
fn names_a_judge(path: &Path, judges: &[String]) -> bool {
    let Ok(mut src) = Source::open_rows(path) else {
        return true;
    };
    let entry = |fields: &[String]| fields.len() == 2 && judges.contains(&fields[0]);
    if entry(&src.header) {
        return true;
    }
    let mut rec = ByteRecord::new();
    while let Ok(Some(_)) = src.next(&mut rec) {
        let fields: Vec<String> = rec
            .iter()
            .map(|f| sanitize(&String::from_utf8_lossy(f)))
            .collect();
        if entry(&fields) {
            return true;
        }
    }
    false
}

/// Given families name each judge once, each with a family: a repeated judge would silently
/// keep its last family, an empty one would form a family named "".
pub(super) fn check_inline_families(pairs: &[(String, String, u64)]) -> Result<(), DataError> {
    let mut seen: HashMap<&str, &str> = HashMap::new();
    for (name, family, _) in pairs {
        if name.is_empty() {
            return Err(DataError::Usage(
                Said::new("").setting(Setting::Families).text(format!(
                    " gives family '{}' to no judge (an empty judge name)",
                    sanitize(family)
                )),
            ));
        }
        if family.is_empty() {
            return Err(DataError::Usage(
                Said::new("")
                    .setting(Setting::Families)
                    .text(format!(" gives judge '{}' an empty family", sanitize(name))),
            ));
        }
        if let Some(before) = seen.insert(name, family) {
            return Err(DataError::Usage(
                Said::new("").setting(Setting::Families).text(format!(
                    " names judge '{}' twice ({} and {}); give each judge one family",
                    sanitize(name),
                    sanitize(before),
                    sanitize(family)
                )),
            ));
        }
    }
    Ok(())
}

/// A family entry naming no judge: a usage error for given pairs, a data error naming
/// the file and row for a file asked for.
pub(super) fn not_a_judge(
    origin: &FamilyOrigin,
    name: &str,
    line: u64,
    judges: &[String],
) -> DataError {
    let at = Location {
        row: Some(line),
        column: None,
        value: Some(name.to_string()),
    };
    match origin {
        FamilyOrigin::Inline => {
            DataError::Usage(Said::new("").setting(Setting::Families).text(format!(
                " names '{}', which is not a judge (judges: {})",
                sanitize(name),
                preview(judges)
            )))
        }
        // An adopted file's rows for non-judges are skipped before this is reached.
        FamilyOrigin::File(p) | FamilyOrigin::Sidecar(p) => DataError::data_at(
            p,
            at,
            format!(
                "names a judge the panel does not have (judges: {})",
                preview(judges)
            ),
        ),
    }
}

/// One entry of a families file: judge, family, row.
type Entry = (String, String, u64);

/// A two-column `judge,family` file, with the row of each entry, and a note when row 1 was
/// read as a header other than `judge,…`. Row 1 is a header when it names neither a judge
/// nor an anchor; every other row is an entry, and an entry naming an anchor (in a file asked
/// for), with an empty family or with a judge already listed is refused.
pub(super) fn read_families_file(
    path: &Path,
    (judges, anchors): (&[String], &[String]),
    adopted: bool,
) -> Result<(Vec<Entry>, Option<Said>), DataError> {
    let mut src = Source::open_rows(path)?;
    let mut out = Vec::new();
    let first = &src.header;
    let named = |f: &String| judges.contains(f) || anchors.contains(f);
    // Errors name a column by the header's name when row 1 is one, else by position.
    let mut columns = [String::from("#1"), String::from("#2")];
    let note = if first.first().is_some_and(named) {
        entry(
            path,
            first,
            1,
            (judges, anchors, &columns, adopted),
            &mut out,
        )?;
        None
    } else if first
        .first()
        .is_some_and(|f| f.eq_ignore_ascii_case("judge"))
    {
        for (c, name) in columns.iter_mut().zip(first) {
            c.clone_from(name);
        }
        None
    } else {
        Some(
            DataError::data(
                path,
                format!(
                    "note: row 1 ('{}') names no judge, so it is read as a header",
                    first.join(",")
                ),
            )
            .said(),
        )
    };
    let mut rec = ByteRecord::new();
    while let Some(line) = src.next(&mut rec)? {
        if is_blank(&rec) {
            continue;
        }
        let fields: Vec<String> = rec
            .iter()
            .map(|f| sanitize(&String::from_utf8_lossy(f)))
            .collect();
        entry(
            path,
            &fields,
            line,
            (judges, anchors, &columns, adopted),
            &mut out,
        )?;
    }
    if out.is_empty() {
        return Err(DataError::data(
            path,
            "no families in the file (a header only): list judge,family rows",
        ));
    }
    Ok((out, note))
}

/// Checks one `judge,family` row and adds it to `out`.
fn entry(
    path: &Path,
    fields: &[String],
    line: u64,
    (judges, anchors, columns, adopted): (&[String], &[String], &[String; 2], bool),
    out: &mut Vec<Entry>,
) -> Result<(), DataError> {
    let [judge, family] = fields else {
        return Err(bad_family_row(path, line));
    };
    let at = |column: usize, value: &str| Location {
        row: Some(line),
        column: Some(columns[column].clone()),
        value: Some(value.to_string()),
    };
    if out.len() >= MAX_COLUMNS {
        return Err(DataError::data_at(
            path,
            Location {
                row: Some(line),
                ..Location::default()
            },
            format!("more than {MAX_COLUMNS} family entries"),
        ));
    }
    // An adopted file's row for an anchor is skipped by the caller; a file asked for refuses.
    if !adopted && anchors.contains(judge) && !judges.contains(judge) {
        return Err(DataError::data_at(
            path,
            at(0, judge),
            format!(
                "names an anchor, not a judge (judges: {}): families group judges",
                preview(judges)
            ),
        ));
    }
    if family.is_empty() {
        return Err(DataError::data_at(
            path,
            at(1, family),
            format!(
                "judge '{judge}' has an empty family: give it one, or leave the judge out (a judge left out forms a family of its own)"
            ),
        ));
    }
    if let Some((_, before, first)) = out.iter().find(|(j, _, _)| j == judge) {
        return Err(DataError::data_at(
            path,
            at(0, judge),
            format!(
                "judge '{judge}' is listed twice (row {first}, family '{before}'; and here, family '{family}'): give each judge one family"
            ),
        ));
    }
    out.push((judge.clone(), family.clone(), line));
    Ok(())
}

pub(super) fn bad_family_row(path: &Path, line: u64) -> DataError {
    DataError::data_at(
        path,
        Location {
            row: Some(line),
            ..Location::default()
        },
        "a families file has two columns: judge,family",
    )
}
