//! Duplicated judge and anchor columns (docs/method.md §6): equal columns, or exact affine copies of one
//! another, which Test A cannot see.

use std::path::Path;

use rayon::prelude::*;

use crate::data::DataError;
use crate::wording::Said;

/// Equal and affine-copied pairs among the columns `names` (column-major in `data`, `n` rows
/// each), worded `'A' = 'B'` and `'B' = a·'A' + b`, for the pairs `keep` accepts.
fn copied_pairs(
    names: &[String],
    data: &[f64],
    n: usize,
    keep: impl Fn(usize, usize) -> bool,
) -> (Vec<String>, Vec<String>) {
    let q = names.len();
    let col = |c: usize| &data[c * n..(c + 1) * n];
    let hashes: Vec<u64> = (0..q)
        .into_par_iter()
        .map(|c| {
            col(c).iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, x| {
                // `+ 0.0` makes -0 and +0 hash alike, as they compare equal.
                (h ^ (x + 0.0).to_bits()).wrapping_mul(0x0100_0000_01b3)
            })
        })
        .collect();
    let moments: Vec<(f64, f64)> = (0..q).into_par_iter().map(|c| moments(col(c))).collect();
    let (mut equal, mut affine) = (Vec::new(), Vec::new());
    for a in 0..q {
        for b in a + 1..q {
            if !keep(a, b) {
                continue;
            }
            if hashes[a] == hashes[b] && col(a) == col(b) {
                equal.push(format!("'{}' = '{}'", names[a], names[b]));
            } else if let Some((slope, shift)) =
                affine_copy((col(a), moments[a]), (col(b), moments[b]))
            {
                let shift = match short(shift.abs()) {
                    s if s == "0" => String::new(),
                    s => format!(" {} {s}", if shift < 0.0 { '−' } else { '+' }),
                };
                affine.push(format!(
                    "'{}' = {}·'{}'{shift}",
                    names[b],
                    short(slope),
                    names[a]
                ));
            }
        }
    }
    (equal, affine)
}

/// docs/method.md §6: a judge column identical to another (every complete item, same value), or
/// an exact affine copy of it (J₂ = a·J₁ + b, |r| = 1 to rounding: a rescaled re-export), is a
/// duplicated column or a judge with no independent error; either way Test A cannot see it.
/// One line naming the pairs, or `None`. Equal columns are found by a hash, then in full.
pub(super) fn identical_judges_note(
    path: &Path,
    judges: &[String],
    data: &[f64],
    n: usize,
) -> Option<Said> {
    let (equal, affine) = copied_pairs(judges, &data[..judges.len() * n], n, |_, _| true);
    let text = match (equal.is_empty(), affine.is_empty()) {
        (true, true) => return None,
        (false, true) => format!("identical judge columns {}", listed(equal)),
        (true, false) => format!(
            "judge columns that are exact affine copies of one another ({}, correlation ±1)",
            listed(affine)
        ),
        (false, false) => format!(
            "identical judge columns {}, and exact affine copies {} (correlation ±1)",
            listed(equal),
            listed(affine)
        ),
    };
    Some(
        DataError::data(
            path,
            format!(
                "warning: {text}: a duplicated or rescaled column, or judges without an error of their own, which the model rules out; keep one of each pair"
            ),
        )
        .said(),
    )
}

/// An anchor column equal to, or an exact affine copy of, another column (an export that
/// wrote the reference twice): its ρ̂ is ±1 to rounding, or its fit singular, for that
/// reason alone; one line naming the pairs, or `None`. `names` are the judges then anchors.
pub(super) fn copied_anchors_note(
    path: &Path,
    names: &[String],
    p: usize,
    data: &[f64],
    n: usize,
) -> Option<Said> {
    let (mut pairs, affine) = copied_pairs(names, data, n, |_, b| b >= p);
    pairs.extend(affine);
    (!pairs.is_empty()).then(|| {
        DataError::data(
            path,
            format!(
                "warning: anchor columns that copy another column ({}, correlation ±1): a reference written twice or rescaled, not a second measurement; keep one of each pair",
                listed(pairs)
            ),
        )
        .said()
    })
}

/// The first three pairs, and how many more.
fn listed(mut pairs: Vec<String>) -> String {
    let more = pairs.len().saturating_sub(3);
    pairs.truncate(3);
    if more > 0 {
        format!("{} and {more} more pairs", pairs.join(", "))
    } else {
        pairs.join(", ")
    }
}

/// A column's mean and standard deviation, to compare columns standardised.
fn moments(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    (mean, var.sqrt())
}

/// (a, b) when `y` = a·`x` + b on every item to rounding (standardised values within 1e-6 of
/// each other, up to sign); the first item that differs ends the comparison, so unrelated
/// columns cost a few items.
fn affine_copy(
    (x, (mx, sx)): (&[f64], (f64, f64)),
    (y, (my, sy)): (&[f64], (f64, f64)),
) -> Option<(f64, f64)> {
    if !(sx > 0.0 && sy > 0.0 && sx.is_finite() && sy.is_finite()) {
        return None;
    }
    let z = |v: f64, m: f64, s: f64| (v - m) / s;
    let first = x.iter().position(|&v| z(v, mx, sx).abs() > 0.5)?;
    let sign = (z(x[first], mx, sx) * z(y[first], my, sy)).signum();
    let close = x
        .iter()
        .zip(y)
        .all(|(&u, &v)| (z(u, mx, sx) - sign * z(v, my, sy)).abs() <= 1e-6);
    close.then(|| {
        let slope = sign * sy / sx;
        (slope, my - slope * mx)
    })
}

/// A coefficient as a person would write it: an integer bare, otherwise 4 decimals or
/// e-notation.
fn short(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 * x.abs().max(1.0) {
        format!("{}", x.round() + 0.0)
    } else if x.abs() < 1e-3 || x.abs() >= 1e6 {
        format!("{x:.3e}")
    } else {
        let s = format!("{x:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}
