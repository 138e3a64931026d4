//! Column roles (docs/method.md §6): judges and anchors from the request's lists or the default
//! name patterns, less the columns set aside.

use std::collections::HashMap;

use super::DataError;
use super::{ColumnRef, MAX_COLUMNS, PanelRequest};
use crate::location::{escape, sanitize};
use crate::wording::{Said, Setting};

/// docs/method.md §6 default roles: `judge…` or `J<digits>` is a judge; `anchor…` or `A<digits>` an anchor.
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Judge,
    Anchor,
}

/// A column reference as a message shows it: `'NAME'` or `position P`.
pub(super) fn shown(col: &ColumnRef) -> String {
    match col {
        // Escaped, not stripped: the value printed is the value refused.
        ColumnRef::Name(n) | ColumnRef::NameOrPosition(n) => format!("'{}'", escape(n.trim())),
        ColumnRef::Position(p) => format!("position {p}"),
    }
}

/// Resolves the columns a `setting` names to indices into `names`: a name exactly, then
/// (when `by_index`) a 1-based position, then a unique case-insensitive name.
pub(super) fn resolve_list(
    cols: &[ColumnRef],
    names: &[String],
    by_index: bool,
    setting: Setting,
) -> Result<Vec<usize>, DataError> {
    if cols.len() > MAX_COLUMNS {
        return Err(DataError::Usage(Said::new("").setting(setting).text(
            format!(
                " names {} columns; at most {MAX_COLUMNS} are supported",
                cols.len()
            ),
        )));
    }
    let mut exact: HashMap<&str, usize> = HashMap::with_capacity(names.len());
    let mut folded: HashMap<String, Option<usize>> = HashMap::with_capacity(names.len());
    for (i, n) in names.iter().enumerate() {
        exact.entry(n.as_str()).or_insert(i);
        folded
            .entry(n.to_lowercase())
            .and_modify(|e| *e = None)
            .or_insert(Some(i));
    }
    // A header's names are shown without control characters; a flag may give the name as
    // the file writes it, with them.
    let by_name = |n: &str| {
        exact
            .get(n)
            .or_else(|| exact.get(n.trim()))
            .or_else(|| exact.get(sanitize(n.trim()).as_str()))
            .copied()
            .or_else(|| folded.get(&n.trim().to_lowercase()).copied().flatten())
    };
    let position = |p: usize| (by_index && (1..=names.len()).contains(&p)).then(|| p - 1);
    let mut out = Vec::with_capacity(cols.len());
    for col in cols {
        let found = match col {
            ColumnRef::Name(n) => by_name(n),
            ColumnRef::Position(p) => position(*p),
            ColumnRef::NameOrPosition(t) => exact
                .get(t.trim())
                .copied()
                .or_else(|| as_position(t).and_then(position))
                .or_else(|| by_name(t)),
        };
        let Some(i) = found else {
            let why = match col {
                ColumnRef::Position(_) if !by_index => {
                    " gives a position, but these are named: give the name".to_string()
                }
                ColumnRef::Position(p) => format!(
                    " gives position {p}, outside the header's 1 to {}",
                    names.len()
                ),
                // A whole number that is no name: a Python user's 0 or −1 is no position either.
                ColumnRef::NameOrPosition(t) if by_index && t.trim().parse::<i128>().is_ok() => {
                    format!(
                        ": {} is no column's name or position (positions count from 1: 1 to {})",
                        escape(t.trim()),
                        names.len()
                    )
                }
                _ => format!(
                    " names no column {} (columns: {})",
                    shown(col),
                    preview(names)
                ),
            };
            return Err(DataError::Usage(Said::new("").setting(setting).text(why)));
        };
        let by_position = match col {
            ColumnRef::Position(_) => true,
            ColumnRef::NameOrPosition(t) => !exact.contains_key(t.trim()),
            ColumnRef::Name(_) => false,
        };
        if by_position
            && matches!(setting, Setting::Judges | Setting::Anchors)
            && pandas_index(&names[i], i)
        {
            return Err(DataError::Usage(Said::new("").setting(setting).text(format!(
                " gives position {}, the column '{}', which is pandas' index (df.to_csv writes it first), not scores: give the score columns' positions or names, or write the frame with index=False",
                i + 1,
                escape(&names[i])
            ))));
        }
        if let Some(first) = out.iter().position(|&j| j == i) {
            // Both tokens as typed: a position and a name can reach the same column.
            return Err(DataError::Usage(Said::new("").setting(setting).text(
                format!(
                    " names column '{}' twice (as {} and {})",
                    escape(&names[i]),
                    shown(&cols[first]),
                    shown(col)
                ),
            )));
        }
        out.push(i);
    }
    Ok(out)
}

/// Whether column `i` named `name` is the index pandas writes as a frame's first column
/// (unnamed, `Unnamed: 0` once read back, `index` or `level_0` after `reset_index`).
fn pandas_index(name: &str, i: usize) -> bool {
    i == 0 && matches!(name.trim(), "" | "#1" | "Unnamed: 0" | "index" | "level_0")
}

/// The 1-based position a typed token gives: ASCII digits alone (no sign, no space inside).
fn as_position(token: &str) -> Option<usize> {
    let t = token.trim();
    (!t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| t.parse().ok())
        .flatten()
}

/// A note when a number in `tokens` names a column (so picks it by name) but as a 1-based
/// position would pick another, or picks by position while columns are named with that number
/// written otherwise (`01`): frames pivoted from integer rater ids have such headers.
pub(super) fn position_note(
    path: &std::path::Path,
    refs: &[super::request::ColumnRef],
    names: &[String],
    setting: crate::wording::Setting,
) -> Option<String> {
    let mut by_name = Vec::new();
    let mut by_position = Vec::new();
    let mut padded = Vec::new();
    let typed = refs.iter().filter_map(|r| match r {
        super::request::ColumnRef::NameOrPosition(t) => Some(t.trim()),
        _ => None,
    });
    for tok in typed {
        let Some(pos) = as_position(tok).filter(|i| (1..=names.len()).contains(i)) else {
            continue;
        };
        if names.iter().any(|n| n == tok) {
            if names[pos - 1] != tok {
                by_name.push(sanitize(tok));
                by_position.push(sanitize(&names[pos - 1]));
            }
        } else if let Some(n) = names
            .iter()
            .find(|n| as_position(n) == Some(pos) && n.trim() != names[pos - 1].trim())
        {
            padded.push(format!(
                "{tok} picks the column named {} by position, not the column named {}",
                sanitize(&names[pos - 1]),
                sanitize(n)
            ));
        }
    }
    let message = if !by_name.is_empty() {
        format!(
            "note: {} {} picks the columns named {} by name; by position it would pick the columns named {} (a number that is a column's name is read as the name)",
            setting.marked(),
            by_name.join(","),
            by_name.join(", "),
            by_position.join(", ")
        )
    } else if !padded.is_empty() {
        format!(
            "note: {}: {} (a number that is no column's name is a 1-based position)",
            setting.marked(),
            padded.join("; ")
        )
    } else {
        return None;
    };
    // Kept marked, not displayed: each front end words the setting when it prints the note.
    Some(format!(
        "{}: {message}",
        sanitize(&path.display().to_string())
    ))
}

pub(super) fn preview(names: &[String]) -> String {
    let shown: Vec<&str> = names.iter().take(12).map(String::as_str).collect();
    let more = names.len().saturating_sub(12);
    if more > 0 {
        format!("{}, … {more} more", shown.join(", "))
    } else {
        shown.join(", ")
    }
}

/// Judge and anchor column indices into `names`, from the lists or the default patterns;
/// `excluded` (the id column) and the columns set aside take no role.
pub(super) fn assign_roles(
    names: &[String],
    excluded: &[usize],
    opts: &PanelRequest,
    by_index: bool,
) -> Result<(Vec<usize>, Vec<usize>), DataError> {
    let listed = |list: &Option<Vec<ColumnRef>>, setting| match list {
        Some(t) => resolve_list(t, names, by_index, setting),
        None => Ok(Vec::new()),
    };
    let judges = listed(&opts.judges, Setting::Judges)?;
    let anchors = listed(&opts.anchors, Setting::Anchors)?;
    let aside = resolve_list(&opts.set_aside, names, by_index, Setting::SetAside)?;
    if let Some(i) = judges.iter().find(|i| anchors.contains(i)) {
        return Err(DataError::Usage(
            Said::new(format!("column '{}' is named by both ", names[*i]))
                .setting(Setting::Judges)
                .text(" and ")
                .setting(Setting::Anchors),
        ));
    }
    for i in judges.iter().chain(&anchors) {
        if excluded.contains(i) {
            return Err(DataError::Usage(
                Said::new(format!(
                    "column '{}' is the id column and cannot be a judge or anchor",
                    names[*i]
                ))
                .text(" (")
                .setting(Setting::Id)
                .text(")"),
            ));
        }
        if aside.contains(i) {
            let role = if judges.contains(i) {
                Setting::Judges
            } else {
                Setting::Anchors
            };
            return Err(DataError::Usage(
                Said::new(format!("column '{}' is named by both ", names[*i]))
                    .setting(role)
                    .text(" and ")
                    .setting(Setting::SetAside),
            ));
        }
    }
    let by_pattern = |role: Role, taken: &[usize]| -> Vec<usize> {
        let mut skip = vec![false; names.len()];
        for &i in excluded.iter().chain(taken).chain(&aside) {
            skip[i] = true;
        }
        (0..names.len())
            .filter(|&i| !skip[i] && default_role(&names[i]) == Some(role))
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
