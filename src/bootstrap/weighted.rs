//! Count-weighted sums of per-item features (Section 6, docs/method.md §2): a resample is how often it
//! drew each item, and the moments an estimator refits on are Σ_i c(i)·f(i) over its items'
//! features f(i). The closed form's features ([`super::features`]) and the free-scale
//! estimator's second moments ([`super::second`]) are summed by the same machinery here.

use nalgebra::{DMatrix, DMatrixView};

use crate::panel::Panel;

/// Most memory for an estimator's per-item features kept for every item (formed once rather
/// than once per batch of resamples); larger ones are formed a block of items at a time.
pub const STORED_BYTES: usize = 8 << 20;

/// The means of the panel's first `cols` columns, subtracted before per-item features are
/// formed so their sums stay well conditioned.
pub(crate) fn column_means(panel: &Panel, cols: usize) -> Vec<f64> {
    (0..cols)
        .map(|c| crate::moments::sum(panel.col(c)) / panel.n.max(1) as f64)
        .collect()
}

/// Every item's features (N × `d` numbers, filled by `form`), when they take at most
/// [`STORED_BYTES`]; otherwise `None`, and they are formed a block at a time.
pub(crate) fn kept(n: usize, d: usize, form: impl FnOnce(&mut [f64])) -> Option<Vec<f64>> {
    (n * d * size_of::<f64>() <= STORED_BYTES).then(|| {
        let mut all = vec![0.0; n * d];
        form(&mut all);
        all
    })
}

/// Numbers per item whose count-weighted sums are a resample's moments.
pub trait PerItem {
    /// Items multiplied at once: a block's features and counts stay a few megabytes.
    const BLOCK: usize;

    /// Items N.
    fn items(&self) -> usize;

    /// Numbers per item d.
    fn numbers(&self) -> usize;

    /// Every item's features (item i at `i * d..(i + 1) * d`), when they were kept.
    fn stored(&self) -> Option<&[f64]>;

    /// The features of items `start..start + len` into `out` (item `start + i` at `i * d`);
    /// `scratch` is the caller's, for any sums the forming needs.
    fn form(&self, start: usize, len: usize, out: &mut [f64], scratch: &mut Vec<f64>);

    /// Σ_i c_r(i) · f(i) for every resample r of a batch: `counts[r * n + i]` is how often
    /// resample r drew item i (each resample's counts contiguous, so drawing them stays in
    /// cache), and column r of the returned d × batch matrix holds resample r's sums. Items
    /// go in blocks: a block's counts become an f64 tile C (items × resamples) and the sums
    /// grow by F·C, F the block's d × items features — a small matrix product (nalgebra hands
    /// it to a blocked, vectorised kernel). The blocks depend on N alone, so the sums are the
    /// same at any thread count.
    ///
    /// # Panics
    /// If `counts` does not hold `batch` resamples of N items.
    #[must_use]
    fn weighted_sums(&self, counts: &[u8], batch: usize) -> DMatrix<f64> {
        let (n, d, block) = (self.items(), self.numbers(), Self::BLOCK);
        assert_eq!(counts.len(), batch * n);
        let mut acc = DMatrix::zeros(d, batch);
        let mut tile = DMatrix::zeros(block.min(n), batch);
        let formed = if self.stored().is_some() {
            0
        } else {
            block.min(n)
        };
        let (mut values, mut scratch) = (vec![0.0; d * formed], Vec::new());
        for start in (0..n).step_by(block) {
            let len = block.min(n - start);
            if tile.nrows() != len {
                tile = DMatrix::zeros(len, batch);
            }
            let features = if let Some(all) = self.stored() {
                &all[start * d..(start + len) * d]
            } else {
                self.form(start, len, &mut values[..len * d], &mut scratch);
                &values[..len * d]
            };
            for r in 0..batch {
                let row = &counts[r * n + start..r * n + start + len];
                for (x, &k) in tile.column_mut(r).iter_mut().zip(row) {
                    *x = f64::from(k);
                }
            }
            let features = DMatrixView::from_slice(features, d, len);
            acc.gemm(1.0, &features, &tile, 1.0);
        }
        acc
    }

    /// Σ over the drawn items of their features, one draw at a time: the slow path for a
    /// resample whose counts do not fit a byte. Equal to the weighted sums up to rounding.
    fn sum_draws(&self, draws: impl Iterator<Item = usize>) -> Vec<f64> {
        let d = self.numbers();
        let (mut w, mut f, mut scratch) = (vec![0.0; d], vec![0.0; d], Vec::new());
        for i in draws {
            self.form(i, 1, &mut f, &mut scratch);
            for (a, x) in w.iter_mut().zip(&f) {
                *a += x;
            }
        }
        w
    }
}
