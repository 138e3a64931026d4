//! Every second moment of a resample from its counts: the free-scale estimator (Section 7,
//! docs/method.md §7) reads the whole correlation matrix, so on a panel whose columns are all continuous
//! its bootstrap needs Σ_i c(i)·x_a(i)·x_b(i) for every column pair (a ≤ b) and Σ_i c(i)·x_a(i)
//! for every column: q + q(q+1)/2 numbers per item. They are formed from the centred panel,
//! once and kept when they take at most [`super::weighted::STORED_BYTES`], otherwise a block of items at
//! a time (memory stays the panel's own), and multiplied by the block's counts for a batch of
//! resamples at once, as the closed form's features are ([`super::features`]).

use nalgebra::DMatrix;

use super::weighted::PerItem;

use crate::panel::Panel;

/// A panel and its column means: the features are formed from the panel as they are summed.
#[derive(Debug, Clone, PartialEq)]
pub struct SecondMoments<'a> {
    n: usize,
    q: usize,
    panel: &'a Panel,
    /// Full-sample column means (judges, then anchors), subtracted before forming products.
    means: Vec<f64>,
    /// Every item's features (item i at `i * width..(i + 1) * width`), when they were kept.
    stored: Option<Vec<f64>>,
}

impl SecondMoments<'_> {
    /// The second moments of `panel` (judges first, then anchors).
    #[must_use]
    pub fn of(panel: &Panel) -> SecondMoments<'_> {
        let (n, q) = (panel.n, panel.q());
        let mut s = SecondMoments {
            n,
            q,
            panel,
            means: super::weighted::column_means(panel, q),
            stored: None,
        };
        let d = s.width();
        let stored = super::weighted::kept(n, d, |all| {
            for (i, f) in all.chunks_exact_mut(d).enumerate() {
                s.item(i, f);
            }
        });
        s.stored = stored;
        s
    }

    /// Numbers per item: q sums and q(q+1)/2 products.
    #[must_use]
    pub fn width(&self) -> usize {
        self.q + self.q * (self.q + 1) / 2
    }

    /// Item i's features into `out` (width numbers): its centred values, then the products
    /// x_a·x_b for a ≤ b in row-major upper-triangle order.
    fn item(&self, i: usize, out: &mut [f64]) {
        let q = self.q;
        for (c, (x, m)) in out[..q].iter_mut().zip(&self.means).enumerate() {
            *x = self.panel.col(c)[i] - m;
        }
        let mut f = q;
        for a in 0..q {
            let xa = out[a];
            for b in a..q {
                out[f] = xa * out[b];
                f += 1;
            }
        }
    }

    /// The q × q covariance (divisor N − 1) of a resample of `total` items from its sums.
    #[must_use]
    pub fn covariance(&self, w: &[f64], total: f64) -> DMatrix<f64> {
        let q = self.q;
        let denom = (total - 1.0).max(1.0);
        let mean: Vec<f64> = w[..q].iter().map(|s| s / total).collect();
        let mut s = DMatrix::zeros(q, q);
        let mut f = q;
        for a in 0..q {
            for b in a..q {
                let v = (w[f] - total * mean[a] * mean[b]) / denom;
                s[(a, b)] = v;
                s[(b, a)] = v;
                f += 1;
            }
        }
        s
    }
}

impl PerItem for SecondMoments<'_> {
    const BLOCK: usize = 1024;

    fn items(&self) -> usize {
        self.n
    }

    fn numbers(&self) -> usize {
        self.width()
    }

    fn stored(&self) -> Option<&[f64]> {
        self.stored.as_deref()
    }

    fn form(&self, start: usize, len: usize, out: &mut [f64], _: &mut Vec<f64>) {
        let d = self.width();
        for (j, f) in out.chunks_exact_mut(d).take(len).enumerate() {
            self.item(start + j, f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_count_weighted_covariance_is_the_resampled_panels() {
        let panel = crate::simulate::simulate(&crate::model::Params::three_anchor(), 2500, 4)
            .expect("a valid design");
        let s = SecondMoments::of(&panel);
        let (n, q) = (panel.n, panel.q());
        // Items 0..n drawn with counts (i mod 3), i.e. a resample of some total size.
        let counts: Vec<u8> = (0..n).map(|i| u8::try_from(i % 3).unwrap()).collect();
        let total: usize = counts.iter().map(|&c| usize::from(c)).sum();
        let w = s.weighted_sums(&counts, 1);
        let cov = s.covariance(w.column(0).as_slice(), total as f64);
        let draws: Vec<usize> = (0..n).flat_map(|i| std::iter::repeat_n(i, i % 3)).collect();
        let mut data = vec![0.0; total * q];
        for c in 0..q {
            for (r, &i) in draws.iter().enumerate() {
                data[c * total + r] = panel.col(c)[i];
            }
        }
        let direct = crate::moments::covariance(&data, total, q, &mut Vec::new());
        for (a, b) in cov.iter().zip(direct.iter()) {
            assert!((a - b).abs() < 1e-12, "{a} {b}");
        }
        let by_draw = s.sum_draws(draws.into_iter());
        for (a, b) in w.iter().zip(&by_draw) {
            assert!((a - b).abs() <= 1e-9 * (1.0 + a.abs()), "{a} {b}");
        }
    }

    #[test]
    fn kept_products_sum_as_the_blocks_formed_on_the_fly() {
        let panel = crate::simulate::simulate(&crate::model::Params::three_anchor(), 2500, 5)
            .expect("a valid design");
        let kept = SecondMoments::of(&panel);
        assert!(kept.stored.is_some());
        let mut formed = kept.clone();
        formed.stored = None;
        let counts: Vec<u8> = (0..2 * 2500)
            .map(|i| u8::try_from(i * 3 % 4).unwrap())
            .collect();
        assert_eq!(
            kept.weighted_sums(&counts, 2),
            formed.weighted_sums(&counts, 2)
        );
    }
}
