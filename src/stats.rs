//! Small statistics used across the crate: means, standard deviations with a stated divisor,
//! and percentiles with linear interpolation between order statistics (docs/method.md §2–3); the
//! percentile interval and its 80 % rule; the number format of every table. The normal
//! distributions and Brent's methods sit in submodules, below every layer that uses them.

pub mod brent;
pub mod normal;

/// An interval is reported only when at least this share of the resamples gives an
/// admissible (defined) value for it; otherwise it is "undefined (k of B admissible)".
pub const MIN_ADMISSIBLE: f64 = 0.8;
/// The weak-identification screen flags T below this (Section 6); ML's weak-ID flag uses it too.
pub const WEAK_ID_T: f64 = 4.0;

/// A two-sided percentile interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

impl Interval {
    #[must_use]
    pub fn width(&self) -> f64 {
        self.hi - self.lo
    }

    #[must_use]
    pub fn contains(&self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }
}

/// Arithmetic mean; `NaN` for an empty slice.
#[must_use]
pub fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// Sample standard deviation (divisor n − 1); `NaN` for fewer than 2 values.
#[must_use]
pub fn sd(v: &[f64]) -> f64 {
    if v.len() < 2 {
        return f64::NAN;
    }
    let m = mean(v);
    (v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() as f64 - 1.0)).sqrt()
}

/// Mean and sample SD (divisor n − 1).
#[must_use]
pub fn mean_sd(v: &[f64]) -> (f64, f64) {
    (mean(v), sd(v))
}

/// Mean and population SD (divisor n), as the battery's statistics use (docs/method.md §3).
#[must_use]
pub fn mean_sd_pop(v: &[f64]) -> (f64, f64) {
    let m = mean(v);
    let var = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / v.len() as f64;
    (m, var.sqrt())
}

/// Percentile with linear interpolation between order statistics (numpy's default);
/// `sorted` must be ascending and non-empty.
#[must_use]
pub fn percentile(sorted: &[f64], q: f64) -> f64 {
    let h = (sorted.len() - 1) as f64 * q;
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "0 ≤ h < len"
    )]
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - lo as f64) * (sorted[hi] - sorted[lo])
}

/// Fixed-width number for tables; `undefined` for non-finite values; scientific notation
/// past ±1e7, so a huge value cannot stretch a table across the screen, and below ±5e-5, so a
/// small-scale panel's variances are not printed as 0.0000.
#[must_use]
pub fn fmt_num(x: f64) -> String {
    if !x.is_finite() {
        "undefined".into()
    } else if x.abs() >= 1e7 || (x != 0.0 && x.abs() < 5e-5) {
        // Too large for the columns, or so small that four decimals would print it as 0.
        format!("{x:.4e}")
    } else {
        format!("{x:.4}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_nonzero_number_never_prints_as_zero() {
        assert_eq!(fmt_num(3.2e-7), "3.2000e-7");
        assert_eq!(fmt_num(-4.9e-5), "-4.9000e-5");
        assert_eq!(fmt_num(5e-5), "0.0001");
        assert_eq!(fmt_num(0.0), "0.0000");
    }

    #[test]
    fn percentile_interpolates_like_numpy() {
        let v = [1.0, 2.0, 3.0, 4.0, 5.0];
        assert_eq!(percentile(&v, 0.5), 3.0);
        assert!((percentile(&v, 0.975) - 4.9).abs() < 1e-12);
        assert!((percentile(&v, 0.025) - 1.1).abs() < 1e-12);
    }

    #[test]
    fn sd_uses_divisor_n_minus_1_and_pop_uses_n() {
        assert!((sd(&[1.0, 2.0, 3.0, 4.0]) - (5.0f64 / 3.0).sqrt()).abs() < 1e-15);
        assert!(sd(&[1.0]).is_nan());
        assert!((mean_sd_pop(&[1.0, 3.0]).1 - 1.0).abs() < 1e-15);
    }
}
