//! Ordinal columns and their two-step thresholds: Φ⁻¹ of the cumulative level proportions.

use super::OrdinalError;
use super::bounds::MAX_LEVELS;
use crate::stats::normal::norm_quantile;

/// An ordinal column: each item's level index (0-based, in increasing order of code) and
/// the two-step thresholds.
#[derive(Debug, Clone, PartialEq)]
pub struct OrdinalColumn {
    /// The distinct codes, increasing.
    pub levels: Vec<f64>,
    /// Items per level.
    pub counts: Vec<usize>,
    /// τ_i = Φ⁻¹(cumulative proportion through level i), i = 1..L−1 (L − 1 values).
    pub thresholds: Vec<f64>,
    /// Level index (0..L) of every item.
    pub index: Vec<u8>,
}

impl OrdinalColumn {
    /// Codes → levels, counts and thresholds.
    ///
    /// # Errors
    /// Fewer than 2 levels, more than [`MAX_LEVELS`], or a non-finite value.
    pub fn new(codes: &[f64]) -> Result<OrdinalColumn, OrdinalError> {
        let mut levels: Vec<f64> = Vec::new();
        for &x in codes {
            if !x.is_finite() {
                return Err(OrdinalError::NonFiniteCode(x));
            }
            if let Err(pos) = levels.binary_search_by(|l| l.total_cmp(&x)) {
                if levels.len() == MAX_LEVELS {
                    return Err(OrdinalError::TooManyLevels);
                }
                levels.insert(pos, x);
            }
        }
        if levels.len() < 2 {
            return Err(OrdinalError::TooFewLevels(levels.len()));
        }
        let mut counts = vec![0usize; levels.len()];
        let index: Vec<u8> = codes
            .iter()
            .map(|x| {
                let i = levels
                    .binary_search_by(|l| l.total_cmp(x))
                    .unwrap_or_default();
                counts[i] += 1;
                #[expect(clippy::cast_possible_truncation, reason = "at most 10 levels")]
                let i = i as u8;
                i
            })
            .collect();
        let thresholds = thresholds_from_counts(&counts);
        Ok(OrdinalColumn {
            levels,
            counts,
            thresholds,
            index,
        })
    }

    /// Number of levels L.
    #[must_use]
    pub fn n_levels(&self) -> usize {
        self.levels.len()
    }
}

/// Two-step thresholds from level counts: Φ⁻¹ of the cumulative proportions, the last
/// (which is 1) dropped — R `qnorm(cumsum(tab)/n)[-s]`.
#[must_use]
pub fn thresholds_from_counts(counts: &[usize]) -> Vec<f64> {
    let n: usize = counts.iter().sum();
    let mut cum = 0usize;
    counts[..counts.len().saturating_sub(1)]
        .iter()
        .map(|c| {
            cum += c;
            norm_quantile(cum as f64 / n as f64)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_quantiles_of_cumulative_proportions() {
        let t = thresholds_from_counts(&[25, 25, 50]);
        assert_eq!(t.len(), 2);
        assert!((t[0] - norm_quantile(0.25)).abs() < 1e-15 && t[1].abs() < 1e-15);
    }
    #[test]
    fn ordinal_column_indexes_levels_in_order() {
        let c = OrdinalColumn::new(&[5.0, 1.0, 3.0, 3.0]).unwrap();
        assert_eq!(c.levels, vec![1.0, 3.0, 5.0]);
        assert_eq!(c.counts, vec![1, 2, 1]);
        assert_eq!(c.index, vec![2, 0, 1, 1]);
        assert!(OrdinalColumn::new(&[f64::NAN, 1.0]).is_err());
    }
}
