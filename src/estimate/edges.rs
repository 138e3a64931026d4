//! The model's edges that the data show without a fit (docs/method.md §8): columns read as
//! numbers whose values pile at an end (censoring), and judges' errors with heavy tails. Both
//! hold for every estimator; the common-scale checks live in [`super::scale`].

use super::{Flag, FlagCode, FlagRemedy};
use crate::panel::{Panel, Scale};

/// A column read as numbers with at least this share of its items on its lowest or its
/// highest value is censored there: a Gaussian column never ties on this many items, and a
/// Likert column with equal-probability codes already puts 20 % at each end.
pub const CENSORED_SHARE: f64 = 0.10;

/// Excess kurtosis of a judge's residuals (its score minus the other judges' mean) above which
/// the item bootstrap's intervals are optimistic: a Gaussian sample's sits within
/// 4·√(24/N) ≈ 0.9 of 0 at N = 500, a t(5) error's is 6.
pub const HEAVY_KURTOSIS: f64 = 2.0;

/// The column (judges first, then anchors) read as numbers with the largest end pile, as the
/// flag that names it; `None` when no column reaches [`CENSORED_SHARE`].
#[must_use]
pub fn censored(panel: &Panel) -> Option<Flag> {
    let p = panel.p();
    let mut worst: Option<(usize, f64)> = None;
    for c in (0..panel.q()).filter(|&c| !panel.scales[c].is_ordinal()) {
        let Some(pile) = end_pile(panel.col(c)) else {
            continue;
        };
        if pile.abs() >= CENSORED_SHARE && worst.is_none_or(|(_, w)| pile.abs() > w.abs()) {
            worst = Some((c, pile));
        }
    }
    let (c, pile) = worst?;
    // Integer codes read as numbers by choice can go back to ordinal; other values cannot.
    let remedy = if Scale::detect(panel.col(c)).is_ordinal() {
        FlagRemedy::MarkOrdinal
    } else {
        FlagRemedy::Outside
    };
    let flag = Flag {
        remedy: Some(remedy),
        ..Flag::new(FlagCode::Censored, pile)
    };
    Some(if c < p {
        Flag {
            pair: Some((c, c)),
            ..flag
        }
    } else {
        Flag {
            anchor: Some(c - p),
            ..flag
        }
    })
}

/// The larger share of items tied (two or more) on a column's lowest or highest value,
/// negative when it is the lowest; `None` for a column with fewer than two distinct finite
/// values.
fn end_pile(col: &[f64]) -> Option<f64> {
    let lo = col.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = col.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !(lo.is_finite() && hi.is_finite()) || lo >= hi {
        return None;
    }
    let n = col.len() as f64;
    // One item on an end value is no pile: only a tie can be.
    let at = |v: f64| match col.iter().filter(|&&x| x == v).count() {
        0 | 1 => 0.0,
        k => k as f64 / n,
    };
    let (low, high) = (at(lo), at(hi));
    Some(if low > high { -low } else { high })
}

/// The largest excess kurtosis of a judge's residual (its score minus the other judges' mean,
/// which removes what they share), over the judges read as numbers; `None` with fewer than two
/// such judges or no residual that varies.
#[must_use]
pub fn residual_kurtosis(panel: &Panel) -> Option<f64> {
    let (n, p) = (panel.n, panel.p());
    let judges: Vec<usize> = (0..p).filter(|&j| !panel.scales[j].is_ordinal()).collect();
    if judges.len() < 2 || n < 4 {
        return None;
    }
    let total: Vec<f64> = (0..n)
        .map(|i| judges.iter().map(|&j| panel.col(j)[i]).sum())
        .collect();
    let others = (judges.len() - 1) as f64;
    let mut worst: Option<f64> = None;
    for &j in &judges {
        let col = panel.col(j);
        let r: Vec<f64> = (0..n)
            .map(|i| col[i] - (total[i] - col[i]) / others)
            .collect();
        if let Some(k) = excess_kurtosis(&r) {
            worst = Some(worst.map_or(k, |w: f64| w.max(k)));
        }
    }
    worst
}

/// The sample excess kurtosis m₄/m₂² − 3; `None` when the values do not vary.
fn excess_kurtosis(x: &[f64]) -> Option<f64> {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let m2 = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    let m4 = x.iter().map(|v| (v - mean).powi(4)).sum::<f64>() / n;
    let k = m4 / (m2 * m2) - 3.0;
    (m2 > 0.0 && k.is_finite()).then_some(k)
}

/// The heavy-tail flag, when the judges' residuals pass [`HEAVY_KURTOSIS`].
#[must_use]
pub fn heavy_tails(panel: &Panel) -> Option<Flag> {
    residual_kurtosis(panel)
        .filter(|&k| k > HEAVY_KURTOSIS)
        .map(|k| Flag::new(FlagCode::HeavyTails, k))
}

/// The edge flags of any estimator's fit on `panel`.
#[must_use]
pub fn flags(panel: &Panel) -> Vec<Flag> {
    censored(panel)
        .into_iter()
        .chain(heavy_tails(panel))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_end_pile_is_signed_by_its_end() {
        assert_eq!(end_pile(&[1.0, 1.0, 2.0, 3.0]), Some(-0.5));
        assert_eq!(end_pile(&[1.0, 2.0, 3.0, 3.0]), Some(0.5));
        assert_eq!(end_pile(&[2.0, 2.0]), None);
        // Five distinct values: 20 % at each end, but no tie, so no pile.
        assert_eq!(end_pile(&[1.0, 2.0, 3.0, 4.0, 5.0]), Some(0.0));
        assert_eq!(end_pile(&[f64::NAN, 1.0]), None);
    }

    #[test]
    fn kurtosis_of_a_two_point_and_a_spike() {
        // ±1 with equal weight: m₄/m₂² = 1, so −2; a spike of 1 among 99 zeros: n − 3 − 1/(n−1)…
        assert!((excess_kurtosis(&[1.0, -1.0, 1.0, -1.0]).unwrap() + 2.0).abs() < 1e-12);
        let mut spike = vec![0.0; 99];
        spike.push(1.0);
        // m₂ = 0.99/100, m₄ = (0.99⁴ + 99·0.01⁴)/100 → 94.01…
        let want = ((0.99f64.powi(4) + 99.0 * 1e-8) / 100.0) / (0.0099f64 * 0.0099) - 3.0;
        assert!((excess_kurtosis(&spike).unwrap() - want).abs() < 1e-9);
        assert_eq!(excess_kurtosis(&[3.0; 5]), None);
    }
}
