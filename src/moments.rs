//! Observable second moments (Section 3, docs/method.md §1): the sample covariance matrix (divisor
//! N − 1) and the quantities the closed form uses — K, M_k, P_kl and Var(A_k).

use nalgebra::DMatrix;

/// Sample covariance (divisor N − 1) of `q` columns stored column-major in `data`
/// (`data[c * n + i]` is item i of column c). `scratch` is reused to hold centred columns,
/// which keeps the hot loop allocation-free when called repeatedly (bootstrap, simulation).
///
/// # Panics
/// If `data.len() != n * q` (a programming error, not a data error).
#[must_use]
pub fn covariance(data: &[f64], n: usize, q: usize, scratch: &mut Vec<f64>) -> DMatrix<f64> {
    assert_eq!(data.len(), n * q, "column-major data must hold n*q values");
    scratch.clear();
    scratch.extend_from_slice(data);
    for col in scratch.chunks_exact_mut(n.max(1)).take(q) {
        let mean = sum(col) / n as f64;
        for x in col.iter_mut() {
            *x -= mean;
        }
    }
    let denom = (n as f64 - 1.0).max(1.0);
    let mut s = DMatrix::zeros(q, q);
    for a in 0..q {
        let ca = &scratch[a * n..(a + 1) * n];
        for b in a..q {
            let v = dot(ca, &scratch[b * n..(b + 1) * n]) / denom;
            s[(a, b)] = v;
            s[(b, a)] = v;
        }
    }
    s
}

/// Sum with `LANES` (8) independent accumulators so the compiler can vectorise it; the fixed
/// association order keeps the result bit-identical run to run.
///
/// # Panics
/// Never: `chunks_exact` yields chunks of exactly `LANES` items.
#[must_use]
pub fn sum(a: &[f64]) -> f64 {
    let chunks = a.chunks_exact(LANES);
    let tail: f64 = chunks.remainder().iter().sum();
    let mut acc = [0.0f64; LANES];
    for c in chunks {
        let c: &[f64; LANES] = c.try_into().expect("chunks_exact yields LANES items");
        for i in 0..LANES {
            acc[i] += c[i];
        }
    }
    reduce(acc) + tail
}

/// Dot product with `LANES` independent accumulators (see [`sum`]).
///
/// # Panics
/// Never: `chunks_exact` yields chunks of exactly `LANES` items.
#[must_use]
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let ca = a.chunks_exact(LANES);
    let cb = b.chunks_exact(LANES);
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    let mut acc = [0.0f64; LANES];
    for (x, y) in ca.zip(cb) {
        let x: &[f64; LANES] = x.try_into().expect("chunks_exact yields LANES items");
        let y: &[f64; LANES] = y.try_into().expect("chunks_exact yields LANES items");
        for i in 0..LANES {
            acc[i] += x[i] * y[i];
        }
    }
    reduce(acc) + tail
}

/// Adds the centred column `col − mean` into `acc` and returns its sum of squares: one
/// vectorisable pass for a judge's variance and its share of Σ_j J_j.
fn centre_into_sum(col: &[f64], mean: f64, acc: &mut [f64]) -> f64 {
    let cc = col.chunks_exact(LANES);
    let tail_start = col.len() - cc.remainder().len();
    let mut sq = [0.0f64; LANES];
    for (c, a) in cc.zip(acc.chunks_exact_mut(LANES)) {
        let c: &[f64; LANES] = c.try_into().expect("chunks_exact yields LANES items");
        let a: &mut [f64; LANES] = a.try_into().expect("chunks_exact yields LANES items");
        for i in 0..LANES {
            let d = c[i] - mean;
            a[i] += d;
            sq[i] += d * d;
        }
    }
    let mut tail = 0.0;
    for (x, a) in col[tail_start..].iter().zip(&mut acc[tail_start..]) {
        let d = x - mean;
        *a += d;
        tail += d * d;
    }
    reduce(sq) + tail
}

/// Independent accumulators: enough SSE2 registers in flight to hide add latency.
const LANES: usize = 8;

/// Pairwise tree over adjacent lanes (so SIMD registers hold neighbouring lanes).
fn reduce(acc: [f64; LANES]) -> f64 {
    let mut v = acc;
    let mut width = LANES;
    while width > 1 {
        width /= 2;
        for i in 0..width {
            v[i] = v[2 * i] + v[2 * i + 1];
        }
    }
    v[0]
}

/// The moments of Theorem 1 for p judges and m anchors.
#[derive(Debug, Clone, PartialEq)]
pub struct Moments {
    /// K: mean of the judge-pair covariances used (all distinct pairs, or cross-family only).
    pub k: f64,
    /// M_k = Cov(J̄, A_k), J̄ the row mean of the judges.
    pub m: Vec<f64>,
    /// The anchor covariance block: `pa[(k, l)] = P_kl`, `pa[(k, k)] = Var(A_k)`.
    pub pa: DMatrix<f64>,
}

/// Which judge pairs enter K.
#[derive(Debug, Clone, Copy)]
pub enum JudgePairs<'a> {
    /// All p(p−1)/2 distinct pairs (docs/method.md §1).
    All,
    /// Pairs from different families only (the family-blocked estimator, Section 5).
    CrossFamily(&'a [usize]),
}

impl Moments {
    /// Moments from a covariance matrix whose first `p` rows are judges and the rest anchors.
    /// K is `None` when no judge pair qualifies (p < 2, or a single family when blocked).
    #[must_use]
    pub fn from_cov(s: &DMatrix<f64>, p: usize, pairs: JudgePairs<'_>) -> Option<Moments> {
        let k = mean_judge_cov(s, p, pairs)?;
        let q = s.nrows();
        let m = (p..q)
            .map(|a| (0..p).map(|j| s[(j, a)]).sum::<f64>() / p as f64)
            .collect();
        let pa = s.view((p, p), (q - p, q - p)).into_owned();
        Some(Moments { k, m, pa })
    }

    /// Number of anchors.
    #[must_use]
    pub fn n_anchors(&self) -> usize {
        self.m.len()
    }
}

impl Moments {
    /// The moments straight from column-major data (judges first), without forming the full
    /// covariance matrix: the fit's hot path (bootstrap, simulation studies).
    ///
    /// Judge-pair covariances enter only through sums, so they come from variances of
    /// sums: Σ_{j<l} Cov(J_j, J_l) = [Var(Σ_j J_j) − Σ_j Var(J_j)]/2, and likewise within each
    /// family, which leaves the cross-family sum by subtraction. M_k = Cov(Σ_j J_j, A_k)/p.
    /// Algebraically identical to [`Moments::from_cov`] of [`covariance`] (tested to 1e-12);
    /// it needs p + 1 + m + m(m+1)/2 (+ families) products instead of q(q+1)/2.
    ///
    /// # Panics
    /// If `data.len() != n * (p + m)` or a family index is out of range.
    #[must_use]
    pub fn from_data(
        data: &[f64],
        n: usize,
        p: usize,
        pairs: JudgePairs<'_>,
        scratch: &mut Vec<f64>,
    ) -> Option<Moments> {
        let q = data.len() / n.max(1);
        assert_eq!(data.len(), n * q, "column-major data must hold n*q values");
        let m = q - p;
        let n_fam = match pairs {
            JudgePairs::All => 0,
            JudgePairs::CrossFamily(f) => f.iter().max().map_or(0, |x| x + 1),
        };
        // scratch: [Σ judges | anchors | family sums], all centred.
        scratch.clear();
        scratch.resize(n * (1 + m + n_fam), 0.0);
        let (sum_j, rest) = scratch.split_at_mut(n);
        let (anchors, fam_sums) = rest.split_at_mut(n * m);
        let mut var_sum = 0.0;
        let mut fam_var = vec![0.0; n_fam];
        for j in 0..p {
            let col = &data[j * n..(j + 1) * n];
            let mean = sum(col) / n as f64;
            let v = centre_into_sum(col, mean, sum_j);
            var_sum += v;
            if let JudgePairs::CrossFamily(f) = pairs {
                fam_var[f[j]] += v;
                let fs = &mut fam_sums[f[j] * n..(f[j] + 1) * n];
                for (y, x) in fs.iter_mut().zip(col) {
                    *y += x - mean;
                }
            }
        }
        for k in 0..m {
            let col = &data[(p + k) * n..(p + k + 1) * n];
            let mean = sum(col) / n as f64;
            for (y, x) in anchors[k * n..(k + 1) * n].iter_mut().zip(col) {
                *y = x - mean;
            }
        }
        let denom = (n as f64 - 1.0).max(1.0);
        let all_pairs = (dot(sum_j, sum_j) - var_sum) / 2.0;
        let (pair_total, count) = match pairs {
            JudgePairs::All => (all_pairs, p * p.saturating_sub(1) / 2),
            JudgePairs::CrossFamily(f) => {
                let within: f64 = (0..n_fam)
                    .map(|b| {
                        let fs = &fam_sums[b * n..(b + 1) * n];
                        (dot(fs, fs) - fam_var[b]) / 2.0
                    })
                    .sum();
                (all_pairs - within, cross_pairs(f))
            }
        };
        if count == 0 {
            return None;
        }
        let k = pair_total / count as f64 / denom;
        let mk = (0..m)
            .map(|a| dot(sum_j, &anchors[a * n..(a + 1) * n]) / p as f64 / denom)
            .collect();
        let mut pa = DMatrix::zeros(m, m);
        for a in 0..m {
            for b in a..m {
                let v = dot(&anchors[a * n..(a + 1) * n], &anchors[b * n..(b + 1) * n]) / denom;
                pa[(a, b)] = v;
                pa[(b, a)] = v;
            }
        }
        Some(Moments { k, m: mk, pa })
    }
}

/// Number of judge pairs in different families.
#[must_use]
pub fn cross_pairs(family: &[usize]) -> usize {
    let p = family.len();
    (0..p)
        .flat_map(|j| (j + 1..p).map(move |l| (j, l)))
        .filter(|&(j, l)| family[j] != family[l])
        .count()
}

/// The off-diagonal judge covariances in row order (j < l).
#[must_use]
pub fn judge_offdiag(s: &DMatrix<f64>, p: usize) -> Vec<f64> {
    (0..p)
        .flat_map(|j| (j + 1..p).map(move |l| (j, l)))
        .map(|(j, l)| s[(j, l)])
        .collect()
}

/// Mean judge-pair covariance over the pairs selected; `None` when there are none.
#[must_use]
pub fn mean_judge_cov(s: &DMatrix<f64>, p: usize, pairs: JudgePairs<'_>) -> Option<f64> {
    let mut total = 0.0;
    let mut count = 0usize;
    for j in 0..p {
        for l in j + 1..p {
            let keep = match pairs {
                JudgePairs::All => true,
                JudgePairs::CrossFamily(fam) => fam[j] != fam[l],
            };
            if keep {
                total += s[(j, l)];
                count += 1;
            }
        }
    }
    (count > 0).then(|| total / count as f64)
}

/// The mean variance of S: the unit a fit runs in, so that products of four scores neither
/// under- nor overflow (1 when S has no positive finite scale, which the fits then refuse).
#[must_use]
pub fn unit_scale(s: &DMatrix<f64>) -> f64 {
    let q = s.nrows().max(1) as f64;
    let unit = s.diagonal().iter().map(|v| v / q).sum::<f64>();
    if unit.is_finite() && unit > 0.0 {
        unit
    } else {
        1.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covariance_matches_textbook_formula() {
        // Two columns: x = 1..5, y = (2, 4, 5, 4, 5).
        let data = [1.0, 2.0, 3.0, 4.0, 5.0, 2.0, 4.0, 5.0, 4.0, 5.0];
        let s = covariance(&data, 5, 2, &mut Vec::new());
        assert!((s[(0, 0)] - 2.5).abs() < 1e-15);
        assert!((s[(1, 1)] - 1.5).abs() < 1e-15);
        assert!((s[(0, 1)] - 1.5).abs() < 1e-15);
    }

    #[test]
    fn dot_and_sum_handle_remainders() {
        let a: Vec<f64> = (1..=11).map(f64::from).collect();
        assert_eq!(sum(&a), 66.0);
        assert_eq!(dot(&a, &a), 506.0);
    }

    #[test]
    fn from_data_equals_the_full_covariance_route() {
        use crate::model::Params;
        use crate::simulate::simulate;
        let panel = simulate(&Params::default(), 300, 9).unwrap();
        let s = covariance(&panel.data, 300, 8, &mut Vec::new());
        let fam = [0, 0, 1, 1, 2, 2];
        for pairs in [JudgePairs::All, JudgePairs::CrossFamily(&fam)] {
            let a = Moments::from_cov(&s, 6, pairs).unwrap();
            let b = Moments::from_data(&panel.data, 300, 6, pairs, &mut Vec::new()).unwrap();
            assert!((a.k - b.k).abs() < 1e-12 * a.k.abs());
            for (x, y) in a.m.iter().zip(&b.m) {
                assert!((x - y).abs() < 1e-12);
            }
            assert!((a.pa - b.pa).abs().max() < 1e-12);
        }
        let one = [0; 6];
        assert!(
            Moments::from_data(
                &panel.data,
                300,
                6,
                JudgePairs::CrossFamily(&one),
                &mut Vec::new()
            )
            .is_none()
        );
    }

    #[test]
    fn m_k_is_covariance_with_judge_mean() {
        let s = DMatrix::from_row_slice(3, 3, &[2.0, 1.0, 0.4, 1.0, 3.0, 0.8, 0.4, 0.8, 1.0]);
        let mom = Moments::from_cov(&s, 2, JudgePairs::All).unwrap();
        assert!((mom.k - 1.0).abs() < 1e-15);
        assert!((mom.m[0] - 0.6).abs() < 1e-15);
        assert!(Moments::from_cov(&s, 2, JudgePairs::CrossFamily(&[0, 0])).is_none());
    }
}
