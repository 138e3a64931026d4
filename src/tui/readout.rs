//! What more than one view reads off the library's results: the judges' loadings λ, the
//! panel's answer in one sentence with the next step that would change it, and the
//! explorer's own wording of advice the command line words for its flags.

use crate::battery::{BatteryReport, TestId, Verdict};
use crate::estimate::{Context, Estimator, Fits};
use crate::panel::Panel;

/// The judges' one-factor loadings λ: the free-scale fit's where it ran, else the square
/// roots of the shares the effective number of judges reads (the same loadings). `None` for
/// a Heywood judge (a share of 1 or more).
#[must_use]
pub fn loadings(fits: Option<&Fits>, battery: Option<&BatteryReport>) -> Option<Vec<Option<f64>>> {
    if let Some(fs) = fits.and_then(Fits::free_scale) {
        return Some(fs.lambda.iter().map(|&l| Some(l)).collect());
    }
    let shares = battery?.n_eff.shares.as_ref()?;
    Some(
        shares
            .iter()
            .map(|&s| (!crate::neff::is_heywood(s) && s >= 0.0).then(|| s.sqrt()))
            .collect(),
    )
}

/// λ as numbers in judge order (`Heywood` where a loading is 1 or more).
#[must_use]
pub fn loading_list(lambda: &[Option<f64>]) -> String {
    lambda
        .iter()
        .map(|l| l.map_or_else(|| "Heywood".into(), |l| format!("{l:.2}")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// λ with the judges' names, lowest first, for a sentence.
#[must_use]
pub fn named_loadings(panel: &Panel, lambda: &[Option<f64>]) -> String {
    let mut pairs: Vec<(String, Option<f64>)> = panel
        .judges
        .iter()
        .map(|j| crate::error::sanitize(j))
        .zip(lambda.iter().copied())
        .collect();
    pairs.sort_by(|a, b| {
        a.1.unwrap_or(f64::INFINITY)
            .total_cmp(&b.1.unwrap_or(f64::INFINITY))
    });
    pairs
        .iter()
        .map(|(j, l)| l.map_or_else(|| format!("{j} Heywood"), |l| format!("{j} {l:.2}")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Advice worded for the command line, worded for the explorer: an ordinal anchor cannot be
/// left out when every anchor is ordinal; `c` scores it continuously instead.
#[must_use]
pub fn explorer_advice(text: &str, panel: Option<&Panel>) -> String {
    let all_ordinal =
        panel.is_some_and(|p| p.m() > 0 && (0..p.m()).all(|k| p.scales[p.p() + k].is_ordinal()));
    if all_ordinal {
        text.replace(
            "; leave it out of the anchors",
            "; every anchor is ordinal: c on an anchor in the data pane scores it as continuous",
        )
    } else {
        text.to_string()
    }
}

/// The panel's answer in one sentence: the estimate to read and the anchors whose interval
/// lies above zero, or that no ρ̂ can be read.
#[must_use]
pub fn answer(r: &BatteryReport, names: &[String]) -> String {
    const NONE: &str = "Answer: no anchor's ρ can be read from this panel as it stands: every estimate is undefined or guarded by a test that fires.";
    let Some(e) = r.route.read else {
        return NONE.into();
    };
    let Some(inf) = r.fit(e) else {
        return NONE.into();
    };
    let label = e.label(
        &Context {
            clean: Some(0),
            ..Context::default()
        },
        names,
    );
    let mut hit = Vec::new();
    let mut clean = Vec::new();
    for (k, rho) in inf.estimate.rho().iter().enumerate() {
        let name = names
            .get(k)
            .cloned()
            .unwrap_or_else(|| format!("ρ_{}", k + 1));
        match (rho, inf.boot.rho.get(k).copied().flatten()) {
            (Some(x), Some(c)) if c.lo > 0.0 => {
                hit.push(format!("{name} (ρ̂ {x:.2} [{:.2}, {:.2}])", c.lo, c.hi));
            }
            _ => clean.push(name),
        }
    }
    let hit_text = if hit.is_empty() {
        "no anchor is contaminated beyond chance".to_string()
    } else {
        format!("contaminated: {}", hit.join(", "))
    };
    let rest = if clean.is_empty() || hit.is_empty() {
        String::new()
    } else {
        format!("; {} not distinguishable from clean", clean.join(", "))
    };
    format!("Answer (read {label}): {hit_text}{rest}.")
}

/// The next step that would change the answer, most telling first.
#[must_use]
pub fn next_step(r: &BatteryReport, panel: &Panel, fits: Option<&Fits>) -> String {
    let (p, m) = (panel.p(), panel.m());
    let ordinal_anchors = (0..m).filter(|&k| panel.scales[p + k].is_ordinal()).count();
    let fires = |t: TestId| r.tests[t].verdict == Verdict::Fires;
    let free_ran = fits
        .and_then(|f| f.estimate(Estimator::FreeScale))
        .is_some();
    if ordinal_anchors > 0 && !free_ran && p >= 3 && m >= 3 {
        return "Next: score the anchors continuously (c on each anchor in the data pane) to run the free-scale estimate and Test O, which frees each judge's scale.".into();
    }
    if fires(TestId::J) {
        let lambda = loadings(fits, Some(r)).map(|l| named_loadings(panel, &l));
        return format!(
            "Next: the judges need a second factor; set aside the judge that loads least (λ: {}) with Space in the data pane and rerun.",
            lambda.unwrap_or_default()
        );
    }
    if m < 3 {
        return "Next: add a third anchor: it brings Test B and, with continuous anchors, the free-scale estimate.".into();
    }
    if panel.families.is_none() {
        return "Next: give the judges their families (F in the data pane): Test C and the family-blocked estimate need them.".into();
    }
    if fires(TestId::O) {
        return "Next: the anchors' covariances reject the model; check each anchor's scoring, or set aside the one the free-scale misfit points at.".into();
    }
    "Next: more items (a larger N) narrow every interval; the configuration pane says how many."
        .into()
}
