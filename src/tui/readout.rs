//! What more than one view reads off the library's results: the judges' loadings λ. The
//! panel's answer and next steps are the core's reading, worded in `tui::reading`.

use crate::battery::BatteryReport;
use crate::estimate::Fits;
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

/// The estimates pane's λ line in `width` characters: every judge by name where that fits on
/// one line, else the lowest and the highest, names clipped alike until the line fits.
#[must_use]
pub fn loading_line(panel: &Panel, lambda: &[Option<f64>], width: usize) -> String {
    let named: Vec<(String, String)> = panel
        .judges
        .iter()
        .zip(lambda)
        .map(|(j, l)| {
            (
                crate::error::sanitize(j),
                l.map_or_else(|| "Heywood".into(), |l| format!("{l:.2}")),
            )
        })
        .collect();
    let all: Vec<String> = named.iter().map(|(j, l)| format!("{j} {l}")).collect();
    let full = format!("judge loadings λ: {}", all.join(", "));
    if full.chars().count() <= width {
        return full;
    }
    let order = |l: &Option<f64>| l.unwrap_or(f64::INFINITY);
    let by_value: Vec<usize> = {
        let mut v: Vec<usize> = (0..named.len()).collect();
        v.sort_by(|&a, &b| order(&lambda[a]).total_cmp(&order(&lambda[b])));
        v
    };
    let (Some(&lo), Some(&hi)) = (by_value.first(), by_value.last()) else {
        return full;
    };
    let longest = named
        .iter()
        .map(|(j, _)| j.chars().count())
        .max()
        .unwrap_or(0);
    let names: Vec<String> = named.iter().map(|(j, _)| j.clone()).collect();
    let line = |w: usize| {
        // Cut at the end where that leaves no two judges reading the same (model names differ
        // at their start), else where they differ (not to a shared prefix).
        let shown = crate::tui::widgets::elide_keeping_starts(&names, w);
        format!(
            "λ lowest {} {}, highest {} {}",
            shown[lo], named[lo].1, shown[hi], named[hi].1
        )
    };
    (4..=longest)
        .rev()
        .map(line)
        .find(|l| l.chars().count() <= width)
        .unwrap_or_else(|| line(4))
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
