//! From raw columns to a panel: role counts, complete cases, constant and out-of-range
//! columns, scales, families and notes.

use std::path::Path;

use rayon::prelude::*;

use super::DataError;
use super::raw::{Loaded, MIN_ITEMS, Raw};
use super::{Columns, PanelRequest, check_column_count, load_families, preview, resolve_list};
use crate::location::Location;
use crate::panel::{Panel, Scale, Short};
use crate::wording::{Said, Setting};

mod copies;

use copies::{copied_anchors_note, identical_judges_note};

/// Role counts, complete-case filtering, constant columns, scales and families.
pub(super) fn finish(path: &Path, raw: &mut Raw, opts: &PanelRequest) -> Result<Loaded, DataError> {
    check_role_counts(path, raw, opts)?;
    let names: Vec<String> = raw.judges.iter().chain(&raw.anchors).cloned().collect();
    check_column_count(path, names.len(), "judge and anchor columns")?;
    let (q, rows, stride) = (names.len(), raw.lines.len(), raw.stride);
    let is_item: Vec<bool> = raw.lines.iter().map(|l| *l != 0).collect();
    let total = is_item.iter().filter(|k| **k).count();
    if total == 0 {
        return Err(DataError::data(
            path,
            "no data rows (the file has a header only)",
        ));
    }
    let col = |c: usize| &raw.data[c * stride..c * stride + rows];
    let missing: Vec<usize> = (0..q)
        .into_par_iter()
        .map(|c| {
            col(c)
                .iter()
                .zip(&is_item)
                .filter(|(x, k)| **k && x.is_nan())
                .count()
        })
        .collect();
    let mut complete = is_item;
    for (c, m) in missing.iter().enumerate() {
        if *m > 0 {
            for (k, x) in complete.iter_mut().zip(col(c)) {
                *k &= !x.is_nan();
            }
        }
    }
    let n = complete.iter().filter(|c| **c).count();
    let first_dropped = (0..rows)
        .find(|&i| raw.lines[i] != 0 && !complete[i])
        .map(|i| {
            let c = (0..q).position(|c| col(c)[i].is_nan()).unwrap_or(0);
            Location {
                row: Some(raw.lines[i]),
                column: Some(names[c].clone()),
                value: None,
            }
        });
    if n < MIN_ITEMS {
        return Err(too_few_items(path, &names, &missing, (n, total)));
    }
    let mut data = std::mem::take(&mut raw.data);
    compact(&mut data, stride, &complete, q, n);
    check_constant(path, &names, &data, n)?;
    let item_lines: Vec<u64> = (0..rows)
        .filter(|&i| complete[i])
        .map(|i| raw.lines[i])
        .collect();
    check_magnitude(path, &names, &data, &item_lines)?;
    let mut scales: Vec<Scale> = (0..q)
        .into_par_iter()
        .map(|c| Scale::detect(&data[c * n..(c + 1) * n]))
        .collect();
    for c in forced_continuous(&names, opts.continuous.as_ref())? {
        scales[c] = Scale::Continuous;
    }
    let (families, families_source, mut notes) =
        load_families(path, (&raw.judges, &raw.anchors), opts)?;
    notes.extend(raw.notes.drain(..).map(crate::wording::Said::new));
    if let Some(note) = identical_judges_note(path, &raw.judges, &data, n) {
        notes.push(note);
    }
    if let Some(note) = copied_anchors_note(path, &names, raw.judges.len(), &data, n) {
        notes.push(note);
    }
    if let Some(note) = off_scale_note(path, (&raw.judges, &raw.anchors), &data, n, &scales) {
        notes.push(note);
    }
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
        drop_note: drop_note(path, raw, first_dropped.as_ref(), (total - n, total)),
        first_dropped,
        header: Vec::new(),
        notes,
        delimiter: b',',
        raw_names: Vec::new(),
        raw_places: Vec::new(),
    })
}

/// The note that `dropped` of `total` items were dropped for missing values, at the first
/// one: its row and column (wide), or its item and the rater with no score (long, where the
/// score has no row of its own and the rater is no column).
pub(super) fn drop_note(
    path: &Path,
    raw: &Raw,
    first: Option<&Location>,
    (dropped, total): (usize, usize),
) -> Option<Said> {
    let at = first?;
    let count = format!("note: {dropped} of {total} items dropped for missing values");
    let Some(rater_column) = &raw.rater_column else {
        return Some(DataError::data_at(path, at.clone(), format!("{count} (first here)")).said());
    };
    let row = at.row.unwrap_or(0);
    let item = raw
        .lines
        .iter()
        .position(|&l| l == row)
        .and_then(|i| raw.item_ids.get(i))
        .map_or("", String::as_str);
    let rater = at.column.as_deref().unwrap_or("");
    Some(
        DataError::data(
            path,
            format!(
                "{count} (the first: item '{item}' has no score by rater '{rater}' in column '{rater_column}'; the item's first row is {row})"
            ),
        )
        .said(),
    )
}

/// Too few complete items: the count, and the column that empties the panel most, named,
/// so the user knows what to leave out.
fn too_few_items(
    path: &Path,
    names: &[String],
    missing: &[usize],
    (n, total): (usize, usize),
) -> DataError {
    let q = names.len();
    // The column that empties the panel most, named: what to leave out.
    let worst = (0..q).max_by_key(|&c| (missing[c], std::cmp::Reverse(c)));
    let culprit = worst
        .filter(|&c| missing[c] > 0)
        .map_or_else(String::new, |c| {
            format!(
                "; column '{}' is missing in {} of {total} rows",
                crate::location::sanitize(&names[c]),
                missing[c]
            )
        });
    DataError::data(
        path,
        format!(
            "only {n} complete item{} ({} dropped for missing values{culprit}); at least {MIN_ITEMS} are needed",
            if n == 1 { "" } else { "s" },
            total - n
        ),
    )
}

/// Keeps the rows marked in `keep` (the first `keep.len()` of each column of `stride` rows),
/// in place: column c ends at `c * n`. Moving forward never overwrites an unread value, since
/// `c * n + k <= c * stride + i` whenever `k <= i` and `n <= stride`.
pub(super) fn compact(data: &mut Vec<f64>, stride: usize, keep: &[bool], q: usize, n: usize) {
    if n == stride && keep.len() == stride {
        data.truncate(n * q);
        return;
    }
    for c in 0..q {
        let mut k = c * n;
        for (i, keep) in keep.iter().enumerate() {
            if *keep {
                data[k] = data[c * stride + i];
                k += 1;
            }
        }
    }
    data.truncate(n * q);
    data.shrink_to_fit();
}

/// At least 2 judges and `min_anchors` anchors; a usage error when the user named them.
pub(super) fn check_role_counts(
    path: &Path,
    raw: &Raw,
    opts: &PanelRequest,
) -> Result<(), DataError> {
    let count_error = |given: bool, msg: Said| {
        if given {
            DataError::Usage(msg)
        } else {
            DataError::data(path, msg)
        }
    };
    // The way out is offered only when the file has the columns it asks for, and "name them"
    // only to a user who has not just named them.
    let way_out = |said: String, needed: usize, setting: Setting, given: bool| {
        let said_ = Said::new(said.clone());
        if given {
            // Named by the setting the user typed, which gave too few.
            let joint = if said.starts_with("fewer") {
                " gives "
            } else {
                ": "
            };
            Said::new("")
                .setting(setting)
                .text(format!("{joint}{said}"))
        } else if raw.width >= needed {
            said_.text("; name them with ").setting(setting)
        } else {
            said_.text(format!(
                "; the file has {} column(s) that could take a role",
                raw.width
            ))
        }
    };
    if raw.judges.len() < 2 {
        let said = format!(
            "fewer than 2 judges ({} found{})",
            raw.judges.len(),
            found_names(&raw.judges)
        );
        return Err(count_error(
            raw.judges_given,
            way_out(said, 2, Setting::Judges, raw.judges_given),
        ));
    }
    if raw.anchors.len() < opts.min_anchors {
        let needs = if opts.min_anchors == 1 {
            "needs at least 1 anchor".to_string()
        } else {
            format!("fewer than {} anchors", opts.min_anchors)
        };
        let said = format!(
            "{needs} ({} found{})",
            raw.anchors.len(),
            found_names(&raw.anchors)
        );
        return Err(count_error(
            raw.anchors_given,
            way_out(
                said,
                raw.judges.len() + opts.min_anchors,
                Setting::Anchors,
                raw.anchors_given,
            ),
        ));
    }
    Ok(())
}

/// A constant column carries no covariance: an error naming it and its value.
pub(super) fn check_constant(
    path: &Path,
    names: &[String],
    data: &[f64],
    n: usize,
) -> Result<(), DataError> {
    for (ci, name) in names.iter().enumerate() {
        let col = &data[ci * n..(ci + 1) * n];
        #[expect(
            clippy::float_cmp,
            reason = "a constant column is exactly equal values"
        )]
        let constant = col.iter().all(|x| *x == col[0]);
        if constant {
            return Err(DataError::data_at(
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

/// Beyond this magnitude (or spread below its inverse) a column's second moments overflow or
/// underflow double precision, and every statistic would be silently wrong.
pub const MAX_MAGNITUDE: f64 = 1e150;

/// Values so large, or spreads so small, that products of two of them leave the range of a
/// double: refused with the reason, never turned into a quiet NaN or a changed answer.
pub(super) fn check_magnitude(
    path: &Path,
    names: &[String],
    data: &[f64],
    lines: &[u64],
) -> Result<(), DataError> {
    let n = lines.len();
    for (ci, name) in names.iter().enumerate() {
        let col = &data[ci * n..(ci + 1) * n];
        let (lo, hi) = col
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                (a.min(*x), b.max(*x))
            });
        let biggest = if lo.abs() > hi.abs() { lo } else { hi };
        let located = |row: Option<u64>, value: f64, message: &str| {
            DataError::data_at(
                path,
                Location {
                    row,
                    column: Some(name.clone()),
                    value: Some(format!("{value:e}")),
                },
                message,
            )
        };
        if biggest.abs() > MAX_MAGNITUDE {
            // The first row that holds it (its file line).
            let row = col.iter().position(|x| x.to_bits() == biggest.to_bits());
            return Err(located(
                row.map(|r| lines[r]),
                biggest,
                "a value beyond ±1e150 overflows the covariances in double precision; rescale the column (ρ does not depend on its units)",
            ));
        }
        if hi - lo < 1.0 / MAX_MAGNITUDE {
            return Err(located(
                None,
                hi - lo,
                "the column's values differ by less than 1e-150, so its covariances underflow double precision; rescale the column (ρ does not depend on its units)",
            ));
        }
    }
    Ok(())
}

/// Indices of the panel's columns marked continuous.
pub(super) fn forced_continuous(
    names: &[String],
    marked: Option<&Columns>,
) -> Result<Vec<usize>, DataError> {
    match marked {
        None => Ok(Vec::new()),
        Some(Columns::All) => Ok((0..names.len()).collect()),
        Some(Columns::Listed(cols)) => resolve_list(cols, names, false, Setting::Continuous),
    }
}

pub(super) fn found_names(names: &[String]) -> String {
    if names.is_empty() {
        String::new()
    } else {
        format!(": {}", preview(names))
    }
}

/// How far (as a ratio of SDs) an anchor may vary from the judges' median SD before the note.
const OFF_SCALE: f64 = 5.0;

/// Which anchors (by SD) are on another scale than the judges (median SD `median`): one beyond
/// [`OFF_SCALE`] times off, and then every anchor nearer (as a ratio) to such an anchor than
/// to the judges, so that two anchors on one scale are named together or not at all.
fn off_scale(median: f64, sds: &[f64]) -> Vec<bool> {
    let far = |s: f64| (s / median).ln().abs();
    let mut named: Vec<bool> = sds.iter().map(|&s| far(s) > OFF_SCALE.ln()).collect();
    let seeds: Vec<f64> = sds
        .iter()
        .zip(&named)
        .filter(|x| *x.1)
        .map(|x| *x.0)
        .collect();
    for (s, n) in sds.iter().zip(&mut named) {
        if seeds.iter().any(|&t| (s / t).ln().abs() < far(*s)) {
            *n = true;
        }
    }
    named
}

/// A note when continuous anchors vary on another scale than the judges (an SD more than
/// [`OFF_SCALE`] times theirs, or less than a fifth): the model puts every column on the
/// quality's one scale (Assumption 1), so flags such as a non-positive σ̂_a² may come from the
/// scale alone (bleu on 0–100, say, against 1–5 judges).
pub(super) fn off_scale_note(
    path: &Path,
    (judges, anchors): (&[String], &[String]),
    data: &[f64],
    n: usize,
    scales: &[Scale],
) -> Option<Said> {
    let p = judges.len();
    let sd = |c: usize| {
        let x = &data[c * n..(c + 1) * n];
        let mean = x.iter().sum::<f64>() / n as f64;
        (x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n as f64).sqrt()
    };
    let mut judge_sd: Vec<f64> = (0..p).map(sd).filter(|s| *s > 0.0).collect();
    if judge_sd.is_empty() || n == 0 {
        return None;
    }
    judge_sd.sort_by(f64::total_cmp);
    let median = judge_sd[judge_sd.len() / 2];
    let sds: Vec<(&String, f64)> = anchors
        .iter()
        .enumerate()
        .filter(|(k, _)| !scales[p + k].is_ordinal())
        .map(|(k, name)| (name, sd(p + k)))
        .collect();
    let named = off_scale(median, &sds.iter().map(|x| x.1).collect::<Vec<_>>());
    let off: Vec<String> = sds
        .iter()
        .zip(&named)
        .filter(|(_, named)| **named)
        .map(|((name, s), _)| {
            let factor = median / s;
            format!(
                "'{}' (SD {}; × {} puts it on the judges' scale)",
                crate::location::sanitize(name),
                Short(*s),
                Short(factor)
            )
        })
        .collect();
    if off.is_empty() {
        return None;
    }
    Some(
        DataError::data(
            path,
            format!(
                "note: anchor{} {} on another scale than the judges (median SD {}): the model reads every column on one scale, so their ρ̂ and flags (a non-positive σ̂_a², say) may come from the scale alone; no setting in rhoscope rescales a column: multiply each by its factor outside rhoscope and load the panel again, and the battery will say whether a ρ̂ then reads.",
                if off.len() == 1 { "" } else { "s" },
                off.join(", "),
                Short(median)
            ),
        )
        .said(),
    )
}
