//! Exact null draws of an all-ordinal one-factor null from its code patterns, whatever N.
//!
//! When every column is ordinal and the latent covariance has one factor (Cov = λλᵀ off the
//! diagonal, as the judges' own null and the matched judges' null have), the columns are
//! independent given the factor f, so a code pattern's probability is a one-dimensional
//! integral, P(k) = ∫ φ(f) Π_j P(level k_j of column j | f) df. An item's pattern is then one
//! categorical draw (Walker's alias table, one 64-bit number per item) instead of p normals, a
//! Cholesky product and p level searches. The tally is the same multinomial table the
//! simulated rows give (the same distribution, other random numbers), and the statistics read
//! only the tally, so the null is the same null (docs/method.md §3).

use rand::Rng;

use super::tally::{Layout, Tally};
use crate::stats::normal::{norm_cdf, norm_pdf};

/// Largest off-diagonal misfit |r_ij − λ_iλ_j| a covariance may have and still be drawn as
/// one factor: rounding only (a model built one-factor passes; any other structure fails).
const ONE_FACTOR_TOL: f64 = 1e-10;
/// Largest |Σ P(k) − 1| the quadrature may leave before the rows are simulated instead.
const MASS_TOL: f64 = 1e-9;
/// The factor's range of integration (mass outside: 2·10⁻¹⁹).
const F_MAX: f64 = 9.0;
/// Gauss–Legendre 6-point rule on (−1, 1): half the nodes and their weights.
const GL_X: [f64; 3] = [
    0.932_469_514_203_152,
    0.661_209_386_466_265,
    0.238_619_186_083_197,
];
const GL_W: [f64; 3] = [
    0.171_324_492_379_170,
    0.360_761_573_048_139,
    0.467_913_934_572_691,
];

/// Pattern probabilities of a one-factor all-ordinal null, ready to draw tallies from.
#[derive(Debug, Clone)]
pub struct PatternNull {
    pub layout: Layout,
    /// Level of each column, per pattern (patterns × columns; pattern index in the layout's
    /// mixed radix).
    levels: Vec<u8>,
    /// Alias table: each slot keeps itself when the draw's fraction is below `keep[slot]`
    /// (a fraction of 2⁶⁴), else gives `alias[slot]`.
    keep: Vec<u64>,
    alias: Vec<u32>,
}

impl PatternNull {
    /// The pattern null of a latent covariance `cov` whose every column is observed at cut
    /// points `cuts[j]` (ascending, on that column's scale) with level values `values[j]`;
    /// `None` when the covariance is not one-factor, the patterns do not fit a dense index, or
    /// the quadrature does not reach the mass of one.
    #[must_use]
    pub fn new(cov: &nalgebra::DMatrix<f64>, cuts: &[&[f64]], values: &[&[f64]]) -> Option<Self> {
        let q = cov.nrows();
        if q < 3 || cuts.len() != q {
            return None;
        }
        let sd: Vec<f64> = (0..q).map(|j| cov[(j, j)].sqrt()).collect();
        let lambda = one_factor(&nalgebra::DMatrix::from_fn(q, q, |i, j| {
            cov[(i, j)] / (sd[i] * sd[j])
        }))?;
        let layout = Layout::new(values.iter().map(|v| Some(v.to_vec())).collect());
        let k = layout.dense_patterns()?;
        let std_cuts: Vec<Vec<f64>> = (0..q)
            .map(|j| cuts[j].iter().map(|c| c / sd[j]).collect())
            .collect();
        let prob = pattern_probabilities(&lambda, &std_cuts, k);
        let mass: f64 = prob.iter().sum();
        if !mass.is_finite() || (mass - 1.0).abs() > MASS_TOL {
            return None;
        }
        let (keep, alias) = alias_table(&prob, mass);
        let levels = (0..k).flat_map(|i| decode(&layout, i)).collect();
        Some(PatternNull {
            layout,
            levels,
            keep,
            alias,
        })
    }

    /// The tally of `n` items drawn from the pattern probabilities: one 64-bit number per item
    /// (its high product with the pattern count picks the slot, the low one is the coin).
    pub fn draw<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> Tally {
        let k = self.keep.len();
        let mut weight = vec![0u64; k];
        for _ in 0..n {
            let wide = u128::from(rng.next_u64()) * k as u128;
            #[expect(clippy::cast_possible_truncation, reason = "the high half is below k")]
            let slot = (wide >> 64) as usize;
            #[expect(clippy::cast_possible_truncation, reason = "the low half, by design")]
            let coin = wide as u64;
            let hit = if coin < self.keep[slot] {
                slot
            } else {
                self.alias[slot] as usize
            };
            weight[hit] += 1;
        }
        let q = self.layout.kinds.len();
        let used = weight.iter().filter(|w| **w > 0).count();
        let mut t = Tally::zeros(&self.layout, used);
        for (j, (i, &w)) in weight
            .iter()
            .enumerate()
            .filter(|(_, w)| **w > 0)
            .enumerate()
        {
            t.weight[j] = w;
            t.levels[j * q..(j + 1) * q].copy_from_slice(&self.levels[i * q..(i + 1) * q]);
        }
        t
    }
}

/// The loadings λ of a correlation matrix with exactly one factor (every off-diagonal
/// r_ij = λ_iλ_j to rounding, |λ_j| < 1), from the triad with the largest product.
fn one_factor(r: &nalgebra::DMatrix<f64>) -> Option<Vec<f64>> {
    let q = r.nrows();
    let mut best = (0.0, 0, 1, 2);
    for i in 0..q {
        for j in 0..q {
            for l in j + 1..q {
                let v = (r[(i, j)] * r[(i, l)] * r[(j, l)]).abs();
                if i != j && i != l && v > best.0 {
                    best = (v, i, j, l);
                }
            }
        }
    }
    let (v, i0, j, l) = best;
    let sq = r[(i0, j)] * r[(i0, l)] / r[(j, l)];
    if v <= 0.0 || !sq.is_finite() || sq <= 0.0 {
        return None;
    }
    let l0 = sq.sqrt();
    let lambda: Vec<f64> = (0..q)
        .map(|i| if i == i0 { l0 } else { r[(i0, i)] / l0 })
        .collect();
    let fits = (0..q).all(|a| {
        lambda[a].abs() < 1.0
            && (a + 1..q).all(|b| (r[(a, b)] - lambda[a] * lambda[b]).abs() <= ONE_FACTOR_TOL)
    });
    fits.then_some(lambda)
}

/// P(k) for every pattern k (mixed radix, column 0 fastest) by composite 6-point
/// Gauss–Legendre over f ∈ [−9, 9], panels narrow enough for the steepest column's
/// conditional probabilities (width ½·min_j √(1 − λ_j²)/|λ_j|).
fn pattern_probabilities(lambda: &[f64], cuts: &[Vec<f64>], k: usize) -> Vec<f64> {
    let s: Vec<f64> = lambda.iter().map(|l| (1.0 - l * l).sqrt()).collect();
    let steep = lambda
        .iter()
        .zip(&s)
        .map(|(l, s)| s / l.abs().max(1e-3))
        .fold(f64::INFINITY, f64::min);
    let h = (0.5 * steep).clamp(0.01, 0.5);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "36 to 1800 panels"
    )]
    let panels = (2.0 * F_MAX / h).ceil() as usize;
    let h = 2.0 * F_MAX / panels as f64;
    let mut prob = vec![0.0; k];
    let (mut cur, mut next) = (Vec::with_capacity(k), Vec::with_capacity(k));
    let mut cond: Vec<Vec<f64>> = cuts.iter().map(|c| vec![0.0; c.len() + 1]).collect();
    for panel in 0..panels {
        let mid = -F_MAX + (panel as f64 + 0.5) * h;
        for (x, w) in GL_X.iter().zip(GL_W) {
            for f in [mid - 0.5 * h * x, mid + 0.5 * h * x] {
                let weight = 0.5 * h * w * norm_pdf(f);
                for (j, c) in cuts.iter().enumerate() {
                    let mut below = 0.0;
                    for (l, cut) in c.iter().enumerate() {
                        let at = norm_cdf((cut - lambda[j] * f) / s[j]);
                        cond[j][l] = at - below;
                        below = at;
                    }
                    cond[j][c.len()] = 1.0 - below;
                }
                expand(&cond, weight, &mut cur, &mut next, &mut prob);
            }
        }
    }
    prob
}

/// Adds `weight` · Π_j cond[j][k_j] to every pattern's probability, building the products
/// from the last column down (so pattern k = Σ_j k_j · radix_j, column 0 fastest).
fn expand(
    cond: &[Vec<f64>],
    weight: f64,
    cur: &mut Vec<f64>,
    next: &mut Vec<f64>,
    prob: &mut [f64],
) {
    cur.clear();
    cur.push(weight);
    for c in cond.iter().rev() {
        next.clear();
        for v in cur.iter() {
            next.extend(c.iter().map(|p| v * p));
        }
        std::mem::swap(cur, next);
    }
    for (p, v) in prob.iter_mut().zip(cur.iter()) {
        *p += v;
    }
}

/// Walker's alias table of `prob` (summing to `mass`), Vose's construction.
fn alias_table(prob: &[f64], mass: f64) -> (Vec<u64>, Vec<u32>) {
    let k = prob.len();
    let mut scaled: Vec<f64> = prob.iter().map(|p| p * k as f64 / mass).collect();
    let mut alias: Vec<u32> = (0..k).map(|i| u32::try_from(i).unwrap_or(0)).collect();
    let (mut small, mut large): (Vec<usize>, Vec<usize>) = (0..k).partition(|&i| scaled[i] < 1.0);
    while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
        small.pop();
        alias[s] = u32::try_from(l).unwrap_or(0);
        scaled[l] -= 1.0 - scaled[s];
        if scaled[l] < 1.0 {
            large.pop();
            small.push(l);
        }
    }
    // Slots left on either list keep themselves (their scaled mass is 1 to rounding).
    for i in small.into_iter().chain(large) {
        scaled[i] = 1.0;
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a fraction in [0, 1] of 2⁶⁴, saturating at the top"
    )]
    let keep = scaled
        .iter()
        .map(|&v| {
            if v >= 1.0 {
                u64::MAX
            } else {
                (v * 18_446_744_073_709_551_616.0) as u64
            }
        })
        .collect();
    (keep, alias)
}

/// The level of each column in pattern `i`.
fn decode(layout: &Layout, i: usize) -> Vec<u8> {
    let radix = layout.radix.as_deref().unwrap_or(&[]);
    layout
        .kinds
        .iter()
        .zip(radix)
        .map(|(kind, place)| {
            let l = kind.as_ref().map_or(1, Vec::len).max(1);
            #[expect(clippy::cast_possible_truncation, reason = "at most 10 levels")]
            let level = ((i / place) % l) as u8;
            level
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ordinal::bvn_cdf;
    use crate::rng::{Purpose, Streams};
    use nalgebra::DMatrix;

    /// Six judges with loadings up to 0.95, sparse and skewed cut points (a level under 1 %,
    /// one with 62 % of items).
    fn model() -> (DMatrix<f64>, Vec<Vec<f64>>, Vec<Vec<f64>>) {
        let lambda = [0.95, 0.8, 0.7, 0.6, 0.5, 0.3];
        let sd = [1.0, 2.0, 0.5, 1.0, 1.0, 3.0];
        let cov = DMatrix::from_fn(6, 6, |i, j| {
            sd[i] * sd[j] * if i == j { 1.0 } else { lambda[i] * lambda[j] }
        });
        let z: Vec<Vec<f64>> = vec![
            vec![-2.4, -1.0, 0.0, 1.0],
            vec![-0.5, 0.305],
            vec![-1.0, 0.0, 2.5],
            vec![-1.2, -0.4, 0.4, 1.2],
            vec![0.0],
            vec![-2.6, -1.5, 0.3, 2.33],
        ];
        let cuts = z
            .iter()
            .zip(sd)
            .map(|(c, s)| c.iter().map(|x| x * s).collect())
            .collect();
        let values = z
            .iter()
            .map(|c| (1..=c.len() + 1).map(|l| l as f64).collect())
            .collect();
        (cov, cuts, values)
    }

    fn build(cov: &DMatrix<f64>, cuts: &[Vec<f64>], values: &[Vec<f64>]) -> Option<PatternNull> {
        let c: Vec<&[f64]> = cuts.iter().map(Vec::as_slice).collect();
        let v: Vec<&[f64]> = values.iter().map(Vec::as_slice).collect();
        PatternNull::new(cov, &c, &v)
    }

    #[test]
    fn pattern_pairs_have_the_bivariate_normal_rectangles() {
        let (cov, cuts, values) = model();
        let pn = build(&cov, &cuts, &values).unwrap();
        let k = pn.keep.len();
        // Recover each pattern's probability from the alias table.
        let mut p = vec![0.0; k];
        for s in 0..k {
            let keep = pn.keep[s] as f64 / 18_446_744_073_709_551_616.0;
            p[s] += keep / k as f64;
            p[pn.alias[s] as usize] += (1.0 - keep) / k as f64;
        }
        let sd: Vec<f64> = (0..6).map(|j| cov[(j, j)].sqrt()).collect();
        let edge = |j: usize, l: usize| -> f64 {
            let c = &cuts[j];
            if l == 0 {
                -40.0
            } else if l > c.len() {
                40.0
            } else {
                c[l - 1] / sd[j]
            }
        };
        for (a, b) in [(0, 1), (0, 5), (2, 3), (4, 5)] {
            let r = cov[(a, b)] / (sd[a] * sd[b]);
            for la in 0..=cuts[a].len() {
                for lb in 0..=cuts[b].len() {
                    let want = bvn_cdf(edge(a, la + 1), edge(b, lb + 1), r)
                        - bvn_cdf(edge(a, la), edge(b, lb + 1), r)
                        - bvn_cdf(edge(a, la + 1), edge(b, lb), r)
                        + bvn_cdf(edge(a, la), edge(b, lb), r);
                    let got: f64 = (0..k)
                        .filter(|&i| {
                            let lev = &pn.levels[i * 6..(i + 1) * 6];
                            usize::from(lev[a]) == la && usize::from(lev[b]) == lb
                        })
                        .map(|i| p[i])
                        .sum();
                    assert!((got - want).abs() < 1e-9, "{a} {b} {la} {lb}: {got} {want}");
                }
            }
        }
    }

    #[test]
    fn only_a_one_factor_covariance_takes_the_pattern_draws() {
        let (mut cov, cuts, values) = model();
        assert!(build(&cov, &cuts, &values).is_some());
        cov[(2, 3)] += 0.05;
        cov[(3, 2)] += 0.05;
        assert!(build(&cov, &cuts, &values).is_none());
        // Independent columns have no triad to read loadings from.
        let eye = DMatrix::identity(6, 6);
        assert!(build(&eye, &cuts, &values).is_none());
    }

    #[test]
    fn drawn_tallies_have_the_pattern_frequencies() {
        let (cov, cuts, values) = model();
        let pn = build(&cov, &cuts, &values).unwrap();
        let mut rng = Streams::of(5).rng(Purpose::Null, 0);
        let n = 200_000;
        let t = pn.draw(n, &mut rng);
        assert_eq!(t.weight.iter().sum::<u64>(), n as u64);
        // Judge 0's lowest level has probability Φ(−2.4) = 0.0082: its count within 5 SE.
        let low: u64 = (0..t.weight.len())
            .filter(|&j| t.levels[j * 6] == 0)
            .map(|j| t.weight[j])
            .sum();
        let pr = norm_cdf(-2.4);
        let se = (n as f64 * pr * (1.0 - pr)).sqrt();
        assert!((low as f64 - n as f64 * pr).abs() < 5.0 * se, "{low}");
        // The same stream gives the same tally.
        let again = pn.draw(n, &mut Streams::of(5).rng(Purpose::Null, 0));
        assert_eq!(t, again);
    }
}
