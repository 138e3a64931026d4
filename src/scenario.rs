//! Named simulation presets (docs/method.md §4's designs) and `KEY=VALUE` overrides, shared by the
//! `simulate` command and, later, the explorer's sliders.

use crate::data::limits::{MAX_COLUMNS, MAX_LEVELS};
use crate::model::{Discretise, Dist, Families, Params};

/// The presets, with one line each on what they show.
pub const PRESETS: &[(&str, &str)] = &[
    (
        "mid",
        "the paper's base design: σ_t²=1, σ_c²=0.8, p=6, ρ=(0.3, 0.7), σ_a=(0.5, 0.6)",
    ),
    (
        "boundary",
        "near the identification boundary: σ_a=(0.9, 0.6), ρ=(0.95, 0.5)",
    ),
    (
        "three-anchor",
        "mid plus a third anchor ρ_3=0.5, σ_a3=0.7 (enables Test B)",
    ),
    (
        "families",
        "mid with three families of two judges and family residual σ_f=0.5",
    ),
    (
        "shared-residual",
        "mid with a shared judge residual of strength s=0.6 (Assumption 2 violated)",
    ),
];

/// Why a preset name or a `KEY=VALUE` override cannot be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScenarioError {
    /// No preset has this name.
    #[error("unknown preset '{name}' (choose one of: {known})")]
    UnknownPreset { name: String, known: String },
    /// The override has no `=`.
    #[error("scenario setting '{0}' is not KEY=VALUE")]
    NotAssignment(String),
    /// The override's key is not one of [`KEYS`].
    #[error("unknown scenario key '{key}' (known: {known})")]
    UnknownKey { key: String, known: String },
    /// A value that must be a finite number.
    #[error("{key}: '{value}' is not a finite number")]
    NotNumber { key: String, value: String },
    /// A value that must be a whole number from `lo` to `max`.
    #[error("{key}: '{value}' is not a whole number; use {lo} to {max}")]
    NotCount {
        key: String,
        value: String,
        lo: usize,
        max: usize,
    },
    /// A whole number below `lo` (a negative one included).
    #[error("{key}={value}: out of range; use {lo} to {max}")]
    CountOutOfRange {
        key: String,
        value: String,
        lo: usize,
        max: usize,
    },
    /// A count beyond the size limits, refused before anything is sized by it.
    #[error("{key}={value}: at most {max} {what} are supported")]
    TooMany {
        key: String,
        value: String,
        max: usize,
        what: String,
    },
    /// A value outside what the readers take back from a simulated panel.
    #[error("{key}={value}: out of range; use {range}")]
    OutOfRange {
        key: String,
        value: String,
        range: &'static str,
    },
    /// Any other unusable value, described from its context.
    #[error("{0}")]
    Invalid(String),
}

/// Callers that still speak in messages keep working with `?`.
impl From<ScenarioError> for String {
    fn from(e: ScenarioError) -> String {
        e.to_string()
    }
}

/// The parameters of a named preset.
///
/// # Errors
/// An unknown name, with the list of known ones.
pub fn preset(name: &str) -> Result<Params, ScenarioError> {
    let mut pm = Params::default();
    match name {
        "mid" => {}
        "boundary" => {
            pm.sigma_a = vec![0.9, 0.6];
            pm.rho = vec![0.95, 0.5];
        }
        "three-anchor" => pm = pm.with_third_anchor(),
        "families" => {
            pm.violations.families = Families::Blocks(3);
            pm.violations.sigma_f = 0.5;
        }
        "shared-residual" => pm.violations.shared_residual = 0.6,
        _ => {
            let names: Vec<&str> = PRESETS.iter().map(|(n, _)| *n).collect();
            return Err(ScenarioError::UnknownPreset {
                name: name.to_string(),
                known: names.join(", "),
            });
        }
    }
    Ok(pm)
}

/// The keys `apply_set` understands, with one line each (shown in `simulate --help`).
pub const KEYS: &[(&str, &str)] = &[
    ("sigma_t2", "quality variance σ_t² (> 0)"),
    ("sigma_c2", "common-mode variance σ_c² (> 0)"),
    ("p", "number of judges"),
    ("judge_var", "judge error variances: one value or p values"),
    (
        "rho",
        "anchor contaminations ρ_k (|ρ| < 1); the count sets m",
    ),
    ("sigma_a", "anchor total error SDs: one value or m values"),
    (
        "g",
        "judge loadings on a second factor: one value or p values",
    ),
    (
        "h",
        "anchor loadings on a second factor: one value or m values",
    ),
    (
        "shared_residual",
        "shared judge residual strength s (alias: s)",
    ),
    (
        "families",
        "judge families: a count of blocks (3) or p labels",
    ),
    ("sigma_f", "family residual SD σ_f (needs families)"),
    ("hetero", "heteroscedasticity γ ≥ 0"),
    (
        "judge_scale",
        "judge scales a_j > 0 (J = a(t+c)+e): one value or p values",
    ),
    ("dist", "gaussian | lognormal | t4"),
    (
        "lognormal_sd",
        "log-scale SD of the lognormal (default 0.5; at most 3)",
    ),
    (
        "ordinal",
        "COLS:L — discretise into L equal-probability levels; COLS is judges, anchors, all or a column (J2); none clears",
    ),
    (
        "thresholds",
        "COLS:p1/p2/… — discretise at these cumulative probabilities (L = count + 1)",
    ),
];

/// Applies one `KEY=VALUE` override to `pm`. Lengths are checked later by
/// [`Params::validate`], so keys may come in any order.
///
/// # Errors
/// An unknown key or an unparsable value, in one sentence.
pub fn apply_set(pm: &mut Params, assignment: &str) -> Result<(), ScenarioError> {
    let (key, value) = assignment
        .split_once('=')
        .ok_or_else(|| ScenarioError::NotAssignment(assignment.to_string()))?;
    let (key, value) = (key.trim(), value.trim());
    let v = &mut pm.violations;
    match key {
        "sigma_t2" => pm.sigma_t2 = one(key, value, VARIANCE)?,
        "sigma_c2" => pm.sigma_c2 = one(key, value, VARIANCE)?,
        "p" => pm.p = judges(key, value)?,
        "judge_var" => pm.judge_var = within(key, value, VARIANCE_OR_ZERO)?,
        "rho" => pm.rho = list(key, value)?,
        "sigma_a" => pm.sigma_a = within(key, value, SCALE)?,
        "g" => v.judge_loading = within(key, value, LOADING)?,
        "h" => v.anchor_loading = within(key, value, LOADING)?,
        "shared_residual" | "s" => v.shared_residual = one(key, value, SCALE_OR_ZERO)?,
        "sigma_f" => v.sigma_f = one(key, value, SCALE_OR_ZERO)?,
        "hetero" => v.hetero = number(key, value)?,
        "judge_scale" | "a" => v.judge_scale = within(key, value, SCALE)?,
        "lognormal_sd" => {
            v.dist = Dist::Lognormal {
                sigma: number(key, value)?,
            }
        }
        "dist" => {
            v.dist = match value {
                "gaussian" | "normal" => Dist::Gaussian,
                "lognormal" => Dist::Lognormal { sigma: 0.5 },
                "t4" => Dist::StudentT4,
                _ => {
                    return Err(ScenarioError::Invalid(format!(
                        "dist '{value}': choose gaussian, lognormal or t4"
                    )));
                }
            }
        }
        "families" => v.families = families(key, value)?,
        "ordinal" | "thresholds" => set_ordinal(pm, key, value)?,
        _ => {
            let keys: Vec<&str> = KEYS.iter().map(|(k, _)| *k).collect();
            return Err(ScenarioError::UnknownKey {
                key: key.to_string(),
                known: keys.join(", "),
            });
        }
    }
    Ok(())
}

/// Applies every `--set` in order, refusing a key given twice (either spelling of an
/// alias), or two `ordinal=`/`thresholds=` for one column: the last would silently win.
///
/// # Errors
/// The first assignment [`apply_set`] refuses, or the second of a repeated key.
pub fn apply_sets(pm: &mut Params, assignments: &[String]) -> Result<(), ScenarioError> {
    let mut seen: Vec<(&str, &str)> = Vec::new();
    let mut ordinal_columns: Vec<(usize, &str)> = Vec::new();
    // `dist` first, so that `lognormal_sd` refines it whatever the order they were given in.
    let value_of = |key: &str| {
        assignments.iter().find_map(|a| {
            a.split_once('=')
                .filter(|(k, _)| k.trim() == key)
                .map(|(_, v)| v.trim())
        })
    };
    if let (Some(dist), Some(sd)) = (value_of("dist"), value_of("lognormal_sd"))
        && dist != "lognormal"
    {
        return Err(ScenarioError::Invalid(format!(
            "lognormal_sd={sd} applies to dist=lognormal only, and dist={dist} is given: drop one"
        )));
    }
    let is_dist = |a: &&String| a.split_once('=').is_some_and(|(k, _)| k.trim() == "dist");
    let ordered = assignments
        .iter()
        .filter(is_dist)
        .chain(assignments.iter().filter(|a| !is_dist(a)));
    for a in ordered {
        let (key, value) = a
            .split_once('=')
            .map(|(k, v)| (k.trim(), v.trim()))
            .ok_or_else(|| ScenarioError::NotAssignment(a.clone()))?;
        let canonical = match key {
            "s" => "shared_residual",
            "a" => "judge_scale",
            k => k,
        };
        if matches!(canonical, "ordinal" | "thresholds") {
            if let Some((cols, _)) = value.split_once(':') {
                for c in ordinal_targets(pm, cols)? {
                    if let Some((_, before)) = ordinal_columns.iter().find(|(o, _)| *o == c) {
                        return Err(ScenarioError::Invalid(format!(
                            "the settings give column {} ordinal levels twice ({before}, then {key}={value}): give each column once",
                            pm.column_names()[c]
                        )));
                    }
                    ordinal_columns.push((c, a.as_str()));
                }
            }
        } else if let Some((_, before)) = seen.iter().find(|(k, _)| *k == canonical) {
            return Err(ScenarioError::Invalid(format!(
                "the setting {canonical} is given twice ({before}, then {value}): give it once"
            )));
        } else {
            seen.push((canonical, value));
        }
        apply_set(pm, a)?;
    }
    let given: Vec<&str> = seen.iter().map(|(k, _)| *k).collect();
    counts_agree(pm, &given)
}

/// A count the settings changed (`rho`'s anchors, `p`'s judges) that a list the preset
/// keeps does not match, refused naming the setting the user gave, not the preset's list.
fn counts_agree(pm: &Params, given: &[&str]) -> Result<(), ScenarioError> {
    if given.contains(&"rho")
        && let Some(r) = pm.rho.iter().find(|r| !(r.is_finite() && r.abs() < 1.0))
    {
        return Err(ScenarioError::Invalid(format!(
            "rho {r}: each ρ must be strictly between -1 and 1"
        )));
    }
    let v = &pm.violations;
    let lists: [(&str, &str, usize, &str, &[f64]); 5] = [
        ("rho", "sigma_a", pm.rho.len(), "anchors", &pm.sigma_a),
        ("rho", "h", pm.rho.len(), "anchors", &v.anchor_loading),
        ("p", "judge_var", pm.p, "judges", &pm.judge_var),
        ("p", "g", pm.p, "judges", &v.judge_loading),
        ("p", "judge_scale", pm.p, "judges", &v.judge_scale),
    ];
    for (count, list, n, what, values) in lists {
        let len = values.len();
        if given.contains(&count) && !given.contains(&list) && len > 1 && len != n {
            let fix = if count == "p" {
                format!("p={len}")
            } else {
                format!("{len} values of {count}")
            };
            return Err(ScenarioError::Invalid(format!(
                "{count} gives {n} {what}, but the preset's {list} has {len} values: give {fix}, or set {list} too (one value or {n})"
            )));
        }
    }
    Ok(())
}

/// The columns an `ordinal=`/`thresholds=` COLS part names.
fn ordinal_targets(pm: &Params, cols: &str) -> Result<Vec<usize>, ScenarioError> {
    let (p, m) = (pm.p, pm.m());
    Ok(match cols {
        "judges" => (0..p).collect(),
        "anchors" => (p..p + m).collect(),
        "all" => (0..p + m).collect(),
        name => vec![column_index(name, p, m)?],
    })
}

fn set_ordinal(pm: &mut Params, key: &str, value: &str) -> Result<(), ScenarioError> {
    if value == "none" {
        pm.violations.ordinal.clear();
        return Ok(());
    }
    let (cols, spec) = value.split_once(':').ok_or_else(|| {
        ScenarioError::Invalid(format!("{key}={value}: expected COLS:{}", spec_hint(key)))
    })?;
    let disc = if key == "ordinal" {
        let levels = bounded_count(key, spec, 2, MAX_LEVELS, "levels")?;
        Discretise::equal_probability(levels)
    } else {
        let cum_probs = spec
            .split('/')
            .map(|s| number(key, s))
            .collect::<Result<_, _>>()?;
        Discretise { cum_probs }
    };
    let targets = ordinal_targets(pm, cols)?;
    let ord = &mut pm.violations.ordinal;
    ord.retain(|(c, _)| !targets.contains(c));
    ord.extend(targets.into_iter().map(|c| (c, disc.clone())));
    ord.sort_by_key(|(c, _)| *c);
    Ok(())
}

fn spec_hint(key: &str) -> &'static str {
    if key == "ordinal" {
        "LEVELS"
    } else {
        "p1/p2/…"
    }
}

fn column_index(name: &str, p: usize, m: usize) -> Result<usize, ScenarioError> {
    let parse = |prefix: char, n: usize, offset: usize| {
        name.strip_prefix(prefix)
            .and_then(|d| d.parse::<usize>().ok())
            .filter(|i| (1..=n).contains(i))
            .map(|i| offset + i - 1)
    };
    parse('J', p, 0)
        .or_else(|| parse('A', m, p))
        .ok_or_else(|| {
            ScenarioError::Invalid(format!(
                "no column '{name}' (columns are J1..J{p} and A1..A{m})"
            ))
        })
}

fn number(key: &str, s: &str) -> Result<f64, ScenarioError> {
    s.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| ScenarioError::NotNumber {
            key: key.to_string(),
            value: s.to_string(),
        })
}

/// `families`: a count of blocks (0 for none), or one label per judge. A value with no comma
/// is a count (p ≥ 2 judges need at least two labels), so `1.5` or `-1` is refused as one.
fn families(key: &str, value: &str) -> Result<Families, ScenarioError> {
    if value.contains(',') {
        return Ok(Families::Labels(
            value.split(',').map(|s| s.trim().into()).collect(),
        ));
    }
    Ok(
        match bounded_count(key, value, 0, MAX_COLUMNS, "families") {
            Ok(0) => Families::None,
            Ok(k) => Families::Blocks(k),
            Err(ScenarioError::NotCount { .. }) => {
                return Err(ScenarioError::Invalid(format!(
                    "{key}: '{value}' is not a count; give a count of families (0 to {MAX_COLUMNS}) or one label per judge, comma-separated"
                )));
            }
            Err(e) => return Err(e),
        },
    )
}

/// A whole number from `lo` to `max` (docs/method.md §4 designs; [`crate::data::limits`]),
/// refused before anything is sized by it: text that is no whole number, one below `lo` (a
/// negative one too) and one above `max` (past 64 bits too) each say the range.
fn bounded_count(
    key: &str,
    s: &str,
    lo: usize,
    max: usize,
    what: &str,
) -> Result<usize, ScenarioError> {
    let t = s.trim();
    let (negative, digits) = t.strip_prefix('-').map_or((false, t), |d| (true, d));
    let digits = digits
        .strip_prefix('+')
        .filter(|_| !negative)
        .unwrap_or(digits);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ScenarioError::NotCount {
            key: key.to_string(),
            value: t.to_string(),
            lo,
            max,
        });
    }
    let n = digits.parse::<usize>().unwrap_or(usize::MAX);
    if n > max && !negative {
        return Err(ScenarioError::TooMany {
            key: key.to_string(),
            value: t.to_string(),
            max,
            what: what.to_string(),
        });
    }
    if n < lo || (negative && n != 0) {
        return Err(ScenarioError::CountOutOfRange {
            key: key.to_string(),
            value: t.to_string(),
            lo,
            max,
        });
    }
    Ok(n)
}

/// A range a `--set` value must lie in, and its wording: a simulated column's values must
/// stay within what the readers accept (|x| ≤ 1e150, spreads ≥ 1e-150; data::MAX_MAGNITUDE),
/// so every scale is held to 1e-100 … 1e100 (variances to their squares), which leaves room
/// for the draws' tails and for sums of several terms.
type Range = (f64, f64, bool, &'static str);
const VARIANCE: Range = (1e-200, 1e200, false, "1e-200 to 1e200");
const VARIANCE_OR_ZERO: Range = (1e-200, 1e200, true, "0, or 1e-200 to 1e200");
const SCALE: Range = (1e-100, 1e100, false, "1e-100 to 1e100");
const SCALE_OR_ZERO: Range = (1e-100, 1e100, true, "0, or 1e-100 to 1e100");
const LOADING: Range = (1e-100, 1e100, true, "0, or ±1e-100 to ±1e100");

/// The numbers of a one-or-list value, each in `range` (by magnitude, for loadings).
fn within(key: &str, s: &str, range: Range) -> Result<Vec<f64>, ScenarioError> {
    let (lo, hi, zero, words) = range;
    let xs = list(key, s)?;
    let signed = range == LOADING;
    let ok = |x: f64| {
        let m = if signed { x.abs() } else { x };
        (zero && x == 0.0) || (lo..=hi).contains(&m)
    };
    match xs.iter().find(|x| !ok(**x)) {
        None => Ok(xs),
        Some(_) => Err(ScenarioError::OutOfRange {
            key: key.to_string(),
            value: s.trim().to_string(),
            range: words,
        }),
    }
}

/// One number in `range`.
fn one(key: &str, s: &str, range: Range) -> Result<f64, ScenarioError> {
    number(key, s)?;
    within(key, s, range).map(|xs| xs[0])
}

/// `p`: 2 judges (the fewest any command reads) up to the column limit.
fn judges(key: &str, s: &str) -> Result<usize, ScenarioError> {
    bounded_count(key, s, 2, MAX_COLUMNS, "judges")
}

fn list(key: &str, s: &str) -> Result<Vec<f64>, ScenarioError> {
    s.split(',').map(|x| number(key, x)).collect()
}

#[cfg(test)]
mod tests {
    /// `dist` and `lognormal_sd` give one distribution in any order, or a refusal: never the
    /// silent override where the later one wins.
    #[test]
    fn dist_and_lognormal_sd_agree_in_any_order_or_are_refused() {
        use super::*;
        let run = |sets: &[&str]| {
            let mut pm = Params::three_anchor();
            apply_sets(
                &mut pm,
                &sets.iter().map(|s| (*s).to_string()).collect::<Vec<_>>(),
            )
            .map(|()| pm.violations.dist)
        };
        let want = Dist::Lognormal { sigma: 2.0 };
        assert_eq!(run(&["lognormal_sd=2", "dist=lognormal"]).unwrap(), want);
        assert_eq!(run(&["dist=lognormal", "lognormal_sd=2"]).unwrap(), want);
        for sets in [
            ["dist=gaussian", "lognormal_sd=2"],
            ["lognormal_sd=1", "dist=t4"],
        ] {
            let e = run(&sets).unwrap_err().to_string();
            assert!(e.contains("applies to dist=lognormal only"), "{e}");
        }
    }

    use super::*;

    #[test]
    fn every_preset_is_valid() {
        for (name, _) in PRESETS {
            preset(name).unwrap().validate().unwrap();
        }
        assert!(preset("nope").unwrap_err().to_string().contains("mid"));
    }

    #[test]
    fn sets_apply_in_any_order() {
        let mut pm = preset("mid").unwrap();
        apply_set(&mut pm, "rho=0.1,0.2,0.3").unwrap();
        apply_set(&mut pm, "sigma_a=0.5").unwrap();
        apply_set(&mut pm, "ordinal=judges:5").unwrap();
        apply_set(&mut pm, "thresholds=A1:0.2/0.5").unwrap();
        pm.validate().unwrap();
        assert_eq!(pm.m(), 3);
        assert_eq!(pm.violations.ordinal.len(), 7);
        assert!(
            apply_set(&mut pm, "bogus=1")
                .unwrap_err()
                .to_string()
                .contains("known")
        );
        assert!(
            apply_set(&mut pm, "rho=x")
                .unwrap_err()
                .to_string()
                .contains("not a finite")
        );
    }

    #[test]
    fn sizes_are_refused_before_anything_is_allocated() {
        let mut pm = preset("mid").unwrap();
        for bad in [
            "p=18446744073709551615",
            "p=1000000000",
            "families=18446744073709551615",
            "ordinal=judges:18446744073709551615",
        ] {
            let e = apply_set(&mut pm, bad).unwrap_err().to_string();
            assert!(e.contains("at most"), "{bad}: {e}");
        }
        apply_set(&mut pm, &format!("p={MAX_COLUMNS}")).unwrap();
        let e = pm.validate().unwrap_err().to_string();
        assert!(e.contains(&format!("at most {MAX_COLUMNS}")), "{e}");
    }
}
