//! Column roles (docs/method.md §6): judges and anchors from `--judges`/`--anchors` or the default name
//! patterns.

use std::collections::HashMap;

use super::DataError;
use super::{LoadOptions, MAX_COLUMNS};
use crate::error::sanitize;

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

/// Resolves `--judges`/`--anchors` tokens to indices into `names`: exact name, then a
/// 1-based index (when `by_index`), then a unique case-insensitive name.
pub(super) fn resolve_list(
    tokens: &[String],
    names: &[String],
    by_index: bool,
    flag: &str,
) -> Result<Vec<usize>, DataError> {
    if tokens.len() > MAX_COLUMNS {
        return Err(DataError::Usage(format!(
            "{flag} lists {} columns; at most {MAX_COLUMNS} are supported",
            tokens.len()
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
    let mut out = Vec::with_capacity(tokens.len());
    for tok in tokens {
        let tok = tok.trim();
        let found = exact
            .get(tok)
            .copied()
            .or_else(|| {
                by_index
                    .then(|| tok.parse::<usize>().ok())
                    .flatten()
                    .filter(|i| (1..=names.len()).contains(i))
                    .map(|i| i - 1)
            })
            .or_else(|| folded.get(&tok.to_lowercase()).copied().flatten());
        let Some(i) = found else {
            return Err(DataError::Usage(format!(
                "{flag}: no column '{}' (columns: {})",
                sanitize(tok),
                preview(names)
            )));
        };
        if out.contains(&i) {
            return Err(DataError::Usage(format!(
                "{flag}: column '{}' is listed twice",
                names[i]
            )));
        }
        out.push(i);
    }
    Ok(out)
}

/// A note when a number in `tokens` names a column (so picks it by name) but as a 1-based
/// position would pick another: frames pivoted from integer rater ids have such headers.
pub(super) fn position_note(
    path: &std::path::Path,
    tokens: &[String],
    names: &[String],
    flag: &str,
) -> Option<String> {
    let mut by_name = Vec::new();
    let mut by_position = Vec::new();
    for tok in tokens.iter().map(|t| t.trim()) {
        let Some(pos) = tok
            .parse::<usize>()
            .ok()
            .filter(|i| (1..=names.len()).contains(i))
        else {
            continue;
        };
        if names.iter().any(|n| n == tok) && names[pos - 1] != tok {
            by_name.push(sanitize(tok));
            by_position.push(sanitize(&names[pos - 1]));
        }
    }
    if by_name.is_empty() {
        return None;
    }
    let message = format!(
        "note: {flag} {} picks the columns named {} by name; by position it would pick the columns named {} (a number that is a column's name is read as the name)",
        by_name.join(","),
        by_name.join(", "),
        by_position.join(", ")
    );
    Some(DataError::data(path, message).to_string())
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

/// Judge and anchor column indices into `names`, from the lists or the default patterns.
pub(super) fn assign_roles(
    names: &[String],
    excluded: &[usize],
    opts: &LoadOptions,
    by_index: bool,
) -> Result<(Vec<usize>, Vec<usize>), DataError> {
    let judges = match &opts.judges {
        Some(t) => resolve_list(t, names, by_index, "--judges")?,
        None => Vec::new(),
    };
    let anchors = match &opts.anchors {
        Some(t) => resolve_list(t, names, by_index, "--anchors")?,
        None => Vec::new(),
    };
    if let Some(i) = judges.iter().find(|i| anchors.contains(i)) {
        return Err(DataError::Usage(format!(
            "column '{}' is given as both judge and anchor",
            names[*i]
        )));
    }
    for i in judges.iter().chain(&anchors) {
        if excluded.contains(i) {
            return Err(DataError::Usage(format!(
                "column '{}' is the id column and cannot be a judge or anchor",
                names[*i]
            )));
        }
    }
    let by_pattern = |role: Role, taken: &[usize]| -> Vec<usize> {
        let mut skip = vec![false; names.len()];
        for &i in excluded.iter().chain(taken) {
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
