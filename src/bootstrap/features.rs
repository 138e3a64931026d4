//! Per-item features for the count-weighted bootstrap (Section 6, docs/method.md §2). The closed form's
//! moments are sums over items of a few numbers per item: each judge J_j, Σ_j J_j², S² with
//! S = Σ_j J_j, each anchor A_k, S·A_k and A_k·A_l (p + 2 + 2m + m(m+1)/2 numbers); the
//! family-blocked estimator adds, per family b, F_b² (F_b the family's judge sum) and
//! Σ_{j∈b} J_j²; the effective number of judges ([`crate::neff`]) adds each J_j², for the
//! resample's judge variances. A resample is a vector of counts, and its moments are
//! count-weighted sums of these features, computed once, instead of a gathered copy of the
//! panel.
//!
//! Columns are centred at their full-sample means before the features are formed, so the raw
//! sums stay well conditioned whatever the data's location. The features are formed once and
//! kept when they take at most [`super::weighted::STORED_BYTES`]; otherwise a block of items at a time
//! as they are summed (for each batch of resamples), so memory stays the panel's size.

use super::weighted::PerItem;

use crate::moments::{JudgePairs, Moments, cross_pairs};
use crate::panel::Panel;

/// Which features are formed, and where each lives in an item's feature vector.
#[derive(Debug, Clone, PartialEq)]
pub struct FeatureSet {
    p: usize,
    m: usize,
    /// Family index per judge, when some estimator blocks by family.
    families: Option<Vec<usize>>,
    n_fam: usize,
    /// Whether each judge's square is formed (the resample's judge variances, for n_eff).
    judge_squares: bool,
}

/// The features of a panel's items: kept for every item when they are small enough
/// ([`super::weighted::STORED_BYTES`]), otherwise formed a block of items at a time when they are summed
/// (at a million items they would outweigh the panel).
#[derive(Debug, Clone, PartialEq)]
pub struct Features<'a> {
    pub set: FeatureSet,
    pub n: usize,
    panel: &'a Panel,
    /// Full-sample column means (judges, then anchors), subtracted before forming features.
    means: Vec<f64>,
    /// Every item's features (item i at `i * d..(i + 1) * d`), when they were kept.
    stored: Option<Vec<f64>>,
}

impl FeatureSet {
    /// The features of the closed form on p judges and m anchors, plus the per-family ones
    /// when `families` is given (the blocked estimator).
    #[must_use]
    pub fn new(p: usize, m: usize, families: Option<Vec<usize>>) -> FeatureSet {
        let n_fam = families
            .as_ref()
            .and_then(|f| f.iter().max())
            .map_or(0, |x| x + 1);
        FeatureSet {
            p,
            m,
            families,
            n_fam,
            judge_squares: false,
        }
    }

    /// The same features and each judge's square J_j², from whose sums
    /// [`FeatureSet::judge_variances`] gives a resample's judge variances.
    #[must_use]
    pub fn with_judge_squares(self) -> FeatureSet {
        FeatureSet {
            judge_squares: true,
            ..self
        }
    }

    /// Judges.
    #[must_use]
    pub fn p(&self) -> usize {
        self.p
    }

    /// Numbers per item.
    #[must_use]
    pub fn width(&self) -> usize {
        self.judge_square(0) + if self.judge_squares { self.p } else { 0 }
    }

    fn anchor(&self, k: usize) -> usize {
        self.p + 2 + k
    }

    fn sum_anchor(&self, k: usize) -> usize {
        self.p + 2 + self.m + k
    }

    fn anchor_pair(&self, k: usize, l: usize) -> usize {
        self.p + 2 + 2 * self.m + tri_index(self.m, k, l)
    }

    fn family_square(&self, b: usize) -> usize {
        self.p + 2 + 2 * self.m + self.m * (self.m + 1) / 2 + b
    }

    fn family_judge_squares(&self, b: usize) -> usize {
        self.family_square(0) + self.n_fam + b
    }

    fn judge_square(&self, j: usize) -> usize {
        self.family_square(0) + 2 * self.n_fam + j
    }

    /// Each judge's variance (divisor N − 1) in a resample of `total` items, from its feature
    /// sums `w`; `None` unless the set forms the judges' squares.
    #[must_use]
    pub fn judge_variances(&self, w: &[f64], total: f64) -> Option<Vec<f64>> {
        self.judge_squares.then(|| {
            (0..self.p)
                .map(|j| (w[self.judge_square(j)] - w[j] * w[j] / total) / (total - 1.0))
                .collect()
        })
    }

    /// The features of `panel`'s items (judges first, then anchors).
    #[must_use]
    pub fn compute(self, panel: &Panel) -> Features<'_> {
        let n = panel.n;
        let means = super::weighted::column_means(panel, self.p + self.m);
        let mut features = Features {
            set: self,
            n,
            panel,
            means,
            stored: None,
        };
        let d = features.d();
        let stored = super::weighted::kept(n, d, |all| features.block(0, n, all, &mut Vec::new()));
        features.stored = stored;
        features
    }

    /// The moments of one resample from its count-weighted feature sums `w` over `total`
    /// items (N), with divisor N − 1 as everywhere; `None` when no judge pair qualifies.
    /// Algebraically identical to [`Moments::from_data`] on the resampled panel.
    #[must_use]
    pub fn moments(&self, w: &[f64], total: f64, pairs: JudgePairs<'_>) -> Option<Moments> {
        let (p, m) = (self.p, self.m);
        let denom = (total - 1.0).max(1.0);
        let mean = |f: usize| w[f] / total;
        let judge_means: Vec<f64> = (0..p).map(mean).collect();
        let s_mean: f64 = judge_means.iter().sum();
        let var_sum = w[p] - total * judge_means.iter().map(|x| x * x).sum::<f64>();
        let var_s = w[p + 1] - total * s_mean * s_mean;
        let all_pairs = (var_s - var_sum) / 2.0;
        let (pair_total, count) = match pairs {
            JudgePairs::All => (all_pairs, p * p.saturating_sub(1) / 2),
            JudgePairs::CrossFamily(fam) => {
                let mut within = 0.0;
                for b in 0..self.n_fam {
                    let members = (0..p).filter(|j| fam[*j] == b);
                    let (fm, fsq): (f64, f64) = members
                        .map(|j| judge_means[j])
                        .fold((0.0, 0.0), |(a, q), x| (a + x, q + x * x));
                    let var_f = w[self.family_square(b)] - total * fm * fm;
                    let var_b = w[self.family_judge_squares(b)] - total * fsq;
                    within += (var_f - var_b) / 2.0;
                }
                (all_pairs - within, cross_pairs(fam))
            }
        };
        if count == 0 {
            return None;
        }
        let k = pair_total / count as f64 / denom;
        let anchor_means: Vec<f64> = (0..m).map(|k| mean(self.anchor(k))).collect();
        let mk = (0..m)
            .map(|a| (w[self.sum_anchor(a)] - total * s_mean * anchor_means[a]) / p as f64 / denom)
            .collect();
        let mut pa = nalgebra::DMatrix::zeros(m, m);
        for a in 0..m {
            for b in a..m {
                let v =
                    (w[self.anchor_pair(a, b)] - total * anchor_means[a] * anchor_means[b]) / denom;
                pa[(a, b)] = v;
                pa[(b, a)] = v;
            }
        }
        Some(Moments { k, m: mk, pa })
    }
}

/// Items whose features are formed together: their rows (d numbers each) stay in cache while
/// the columns are written across them.
const FORM: usize = 64;

/// Position of (k, l), k ≤ l, in the row-major upper triangle of an m × m matrix.
fn tri_index(m: usize, k: usize, l: usize) -> usize {
    k * m - k * (k + 1) / 2 + l
}

impl Features<'_> {
    /// Numbers per item.
    #[must_use]
    pub fn d(&self) -> usize {
        self.set.width()
    }

    /// The features of items `start..start + len` into `out` (item `start + i`'s d numbers at
    /// `i * d`), [`FORM`] items at a time so the rows being written stay in cache.
    fn block(&self, start: usize, len: usize, out: &mut [f64], scratch: &mut Vec<f64>) {
        let d = self.d();
        for (k, rows) in out[..len * d].chunks_mut(FORM * d).enumerate() {
            self.columns(start + k * FORM, rows.len() / d, rows, scratch);
        }
    }

    /// [`Features::block`] for a few items, formed a column at a time: each panel column is
    /// read in order, and every per-item sum (S, Σ_j J_j², the family sums) adds the judges in
    /// the same order as one item at a time would. `scratch` holds those sums.
    fn columns(&self, start: usize, len: usize, out: &mut [f64], scratch: &mut Vec<f64>) {
        let (set, p, m, d) = (&self.set, self.set.p, self.set.m, self.d());
        let n_fam = set.n_fam;
        scratch.clear();
        scratch.resize((2 + 2 * n_fam) * len, 0.0);
        let (s, rest) = scratch.split_at_mut(len);
        let (sq, rest) = rest.split_at_mut(len);
        let (fam_sum, fam_sq) = rest.split_at_mut(n_fam * len);
        let centred = |c: usize| {
            let mean = self.means[c];
            self.panel.col(c)[start..start + len]
                .iter()
                .map(move |v| v - mean)
        };
        for j in 0..p {
            for (((f, x), s), sq) in out
                .chunks_exact_mut(d)
                .zip(centred(j))
                .zip(&mut *s)
                .zip(&mut *sq)
            {
                f[j] = x;
                *s += x;
                *sq += x * x;
            }
            if set.judge_squares {
                let at = set.judge_square(j);
                for (f, x) in out.chunks_exact_mut(d).zip(centred(j)) {
                    f[at] = x * x;
                }
            }
            if let Some(families) = &set.families {
                let b = families[j] * len;
                let (fs, fq) = (&mut fam_sum[b..b + len], &mut fam_sq[b..b + len]);
                for ((x, fs), fq) in centred(j).zip(fs).zip(fq) {
                    *fs += x;
                    *fq += x * x;
                }
            }
        }
        for ((f, s), sq) in out.chunks_exact_mut(d).zip(&*s).zip(&*sq) {
            f[p] = *sq;
            f[p + 1] = s * s;
        }
        for k in 0..m {
            let (at, sum_at) = (set.anchor(k), set.sum_anchor(k));
            for ((f, a), s) in out.chunks_exact_mut(d).zip(centred(p + k)).zip(&*s) {
                f[at] = a;
                f[sum_at] = s * a;
            }
        }
        for f in out.chunks_exact_mut(d).take(len) {
            for k in 0..m {
                for l in k..m {
                    f[set.anchor_pair(k, l)] = f[set.anchor(k)] * f[set.anchor(l)];
                }
            }
        }
        for b in 0..n_fam {
            let (sq_at, judges_at) = (set.family_square(b), set.family_judge_squares(b));
            let sums = fam_sum[b * len..(b + 1) * len].iter();
            for ((f, fs), fq) in out.chunks_exact_mut(d).zip(sums).zip(&fam_sq[b * len..]) {
                f[sq_at] = fs * fs;
                f[judges_at] = *fq;
            }
        }
    }
}

impl PerItem for Features<'_> {
    const BLOCK: usize = 2048;

    fn items(&self) -> usize {
        self.n
    }

    fn numbers(&self) -> usize {
        self.d()
    }

    fn stored(&self) -> Option<&[f64]> {
        self.stored.as_deref()
    }

    fn form(&self, start: usize, len: usize, out: &mut [f64], scratch: &mut Vec<f64>) {
        self.block(start, len, out, scratch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_by_draw_sums_equal_the_count_weighted_ones() {
        let panel = crate::simulate::simulate(&crate::model::Params::three_anchor(), 50, 2)
            .expect("a valid design");
        let f = FeatureSet::new(panel.p(), panel.m(), Some(vec![0, 0, 1, 1, 2, 2])).compute(&panel);
        let draws: Vec<usize> = (0..50).map(|k| (k * 7 + 3) % 50).chain([4, 4, 4]).collect();
        let mut counts = vec![0u8; 50];
        for &i in &draws {
            counts[i] += 1;
        }
        let dense = f.weighted_sums(&counts, 1);
        let direct = f.sum_draws(draws.into_iter());
        for (a, b) in dense.iter().zip(&direct) {
            assert!((a - b).abs() <= 1e-12 * (1.0 + a.abs()), "{a} {b}");
        }
    }

    #[test]
    fn kept_features_sum_as_the_blocks_formed_on_the_fly() {
        // 5000 items: more than one block of 2048, and a last block that is not a multiple of
        // the 64 items formed together.
        let panel = crate::simulate::simulate(&crate::model::Params::three_anchor(), 5000, 7)
            .expect("a valid design");
        let set = FeatureSet::new(panel.p(), panel.m(), Some(vec![0, 1, 1, 2, 2, 2]));
        let kept = set.with_judge_squares().compute(&panel);
        assert!(kept.stored.is_some());
        let mut formed = kept.clone();
        formed.stored = None;
        let counts: Vec<u8> = (0..3 * 5000)
            .map(|i| u8::try_from(i * 7 % 5).unwrap())
            .collect();
        let (a, b) = (
            kept.weighted_sums(&counts, 3),
            formed.weighted_sums(&counts, 3),
        );
        assert_eq!(a, b);
    }
}
