//! The effective number of judges: how many independent votes a panel of p correlated judges
//! is worth. The design effect of a mean of p equally correlated scores gives
//! n_eff = p / (1 + (p − 1) r̄), r̄ the mean off-diagonal judge correlation.
//!
//! r̄ is the plain mean of the p(p − 1)/2 Pearson correlations of the judge columns (of the
//! codes, for ordinal judges: this is about the scores the panel averages, not latent ones).
//! The interval is the item bootstrap's percentile interval (docs/method.md §2): resample b draws its
//! items from stream b of `Purpose::Bootstrap` for the battery's seed, so it uses exactly the
//! items the battery's resample b uses, and it is reported only when at least 80 % of the
//! resamples give a value, like every interval of the battery. Each judge's *shared share* is
//! its squared loading λ_j² in the one-factor fit of the judge correlation matrix (the ULS fit
//! of docs/method.md §7, [`crate::estimate::free_scale::one_factor_uls`]): the share of that judge's
//! variance the panel's common factor explains, t + c in the paper's model (Assumption 1),
//! which the judges share whatever part of it is quality and whatever is common-mode error.

use nalgebra::DMatrix;

use crate::panel::Panel;
use crate::stats::{Interval, MIN_ADMISSIBLE, percentile};

/// The effective number of judges of a panel, with its bootstrap interval when one was run.
#[derive(Debug, Clone, PartialEq)]
pub struct Neff {
    /// Judges p.
    pub p: usize,
    /// Mean off-diagonal judge correlation r̄ (`None` with fewer than 2 judges).
    pub r_bar: Option<f64>,
    /// n_eff = p / (1 + (p − 1) r̄); 1 for a single judge; `None` when r̄ < 0 (see [`n_eff`])
    /// or a judge is constant.
    pub n_eff: Option<f64>,
    /// Each judge's squared one-factor loading λ_j² (needs 3 judges: with 2, one
    /// correlation cannot say how the shared part splits); ≥ 1 marks a Heywood judge
    /// ([`is_heywood`]).
    pub shares: Option<Vec<f64>>,
    /// The bootstrap, when run.
    pub boot: Option<NeffBoot>,
}

/// The percentile interval of n_eff over item resamples.
#[derive(Debug, Clone, PartialEq)]
pub struct NeffBoot {
    /// 2.5 % and 97.5 % percentiles; `None` when fewer than 80 % of resamples gave a value.
    pub ci: Option<Interval>,
    pub resamples: usize,
    /// Resamples where n_eff was undefined (a judge constant in the resample).
    pub dropped: usize,
    pub seed: u64,
}

/// The design effect n_eff = p / (1 + (p − 1) r̄). `None` when r̄ < 0 (it would claim more
/// independent votes than judges: the judges are negatively correlated on average) or r̄ is
/// not finite, so n_eff always lies in [1, p].
#[must_use]
pub fn n_eff(p: usize, r_bar: f64) -> Option<f64> {
    if p == 1 {
        return Some(1.0);
    }
    let den = 1.0 + (p as f64 - 1.0) * r_bar;
    (r_bar >= 0.0 && r_bar.is_finite()).then(|| p as f64 / den)
}

/// A shared share (squared one-factor loading) of 1 or more leaves the judge no variance of
/// its own: a Heywood judge, reported in words, never as a share above 1.
#[must_use]
pub fn is_heywood(share: f64) -> bool {
    share >= 1.0
}

/// The mean off-diagonal correlation of a covariance matrix; `None` with fewer than 2
/// variables or a variance that is not positive.
#[must_use]
pub fn mean_correlation(cov: &DMatrix<f64>) -> Option<f64> {
    let p = cov.nrows();
    if p < 2 || (0..p).any(|j| cov[(j, j)].partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)) {
        return None;
    }
    let mut sum = 0.0;
    for j in 0..p {
        for k in j + 1..p {
            sum += cov[(j, k)] / (cov[(j, j)].sqrt() * cov[(k, k)].sqrt());
        }
    }
    let r = sum / (p * (p - 1) / 2) as f64;
    r.is_finite().then_some(r)
}

/// n_eff of a judge covariance matrix (a resample's, when the bootstrap has every second
/// moment at hand): `None` when a judge is constant.
#[must_use]
pub(crate) fn of_covariance(cov: &DMatrix<f64>) -> Option<f64> {
    mean_correlation(cov).and_then(|r| n_eff(cov.nrows(), r))
}

/// The squared one-factor loadings of the correlation matrix of `cov`, or `None` below 3
/// variables or when the fit fails.
#[must_use]
pub fn shared_shares(cov: &DMatrix<f64>) -> Option<Vec<f64>> {
    let p = cov.nrows();
    if p < 3 || (0..p).any(|j| cov[(j, j)].partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater)) {
        return None;
    }
    let r = DMatrix::from_fn(p, p, |i, j| {
        cov[(i, j)] / (cov[(i, i)].sqrt() * cov[(j, j)].sqrt())
    });
    let (lambda, _, _) = crate::estimate::free_scale::one_factor_uls(&r).ok()?;
    Some(lambda.iter().map(|l| l * l).collect())
}

/// n_eff, r̄ and the shares of a panel's judges, without an interval.
#[must_use]
pub fn of_panel(panel: &Panel) -> Neff {
    let p = panel.p();
    let cov = crate::moments::covariance(&panel.data[..p * panel.n], panel.n, p, &mut Vec::new());
    from_cov(p, &cov)
}

fn from_cov(p: usize, cov: &DMatrix<f64>) -> Neff {
    let r_bar = mean_correlation(cov);
    Neff {
        p,
        r_bar,
        n_eff: if p == 1 {
            Some(1.0)
        } else {
            r_bar.and_then(|r| n_eff(p, r))
        },
        shares: shared_shares(cov),
        boot: None,
    }
}

/// Items per feature tile.
const BLOCK: usize = 2048;

/// The judge columns, centred: the resamples' sums of products then lose no precision to a
/// large mean.
#[must_use]
pub(crate) fn centred_judges(panel: &Panel) -> Centred<'_> {
    let means = (0..panel.p())
        .map(|c| crate::moments::sum(panel.col(c)) / panel.n.max(1) as f64)
        .collect();
    Centred { panel, means }
}

/// The judge columns minus their means, read from the panel (no copy).
pub(crate) struct Centred<'a> {
    panel: &'a Panel,
    means: Vec<f64>,
}

/// The percentile interval of n_eff over the resamples' values (the shared 80 % rule).
#[must_use]
pub(crate) fn summarise(values: &[Option<f64>], resamples: usize, seed: u64) -> NeffBoot {
    let mut kept: Vec<f64> = values.iter().flatten().copied().collect();
    let dropped = resamples - kept.len();
    kept.sort_by(f64::total_cmp);
    let admissible = kept.len() as f64 >= MIN_ADMISSIBLE * resamples as f64;
    NeffBoot {
        ci: (admissible && !kept.is_empty()).then(|| Interval {
            lo: percentile(&kept, 0.025),
            hi: percentile(&kept, 0.975),
        }),
        resamples,
        dropped,
        seed,
    }
}

/// n_eff of each resample of a batch, in O(N·p) per resample rather than the O(N·p²) of a
/// correlation matrix: with w_j = 1/s_j the resample's judge SDs, the sum of the pairwise
/// correlations is (Var(Σ_j w_j x_j) − Σ_j w_j² s_j²) / 2. `vars[r]` holds resample r's judge
/// variances (from its count-weighted feature sums, the bootstrap's features); one pass
/// over the items in tiles of [`BLOCK`] sums u = Σ_j w_j x_j and u², weighted by
/// `counts[r * n + i]` or by the 32-bit counts of a resample listed in `wide`.
pub(crate) fn resample_n_eff(
    centred: &Centred<'_>,
    vars: &[Vec<f64>],
    counts: &[u8],
    wide: &[(usize, Vec<u32>)],
) -> Vec<Option<f64>> {
    let p = centred.means.len();
    let (n, batch) = (centred.panel.n, vars.len());
    let nf = n as f64;
    let ok: Vec<bool> = vars.iter().map(|v| v.iter().all(|&x| x > 0.0)).collect();
    let w = DMatrix::from_fn(
        p,
        batch,
        |j, r| {
            if ok[r] { 1.0 / vars[r][j].sqrt() } else { 0.0 }
        },
    );
    let (mut su, mut suu) = (vec![0.0; batch], vec![0.0; batch]);
    let mut x = DMatrix::zeros(BLOCK.min(n), p);
    let mut u = DMatrix::zeros(BLOCK.min(n), batch);
    for start in (0..n).step_by(BLOCK) {
        let len = BLOCK.min(n - start);
        if x.nrows() != len {
            x = DMatrix::zeros(len, p);
            u = DMatrix::zeros(len, batch);
        }
        for (j, col) in x.column_iter_mut().enumerate() {
            let values = &centred.panel.col(j)[start..start + len];
            for (out, v) in col.into_iter().zip(values) {
                *out = v - centred.means[j];
            }
        }
        u.gemm(1.0, &x, &w, 0.0);
        for r in 0..batch {
            let ur = u.column(r);
            let (a, b) = match wide.iter().find(|(k, _)| *k == r) {
                Some((_, full)) => weighted(&full[start..start + len], ur.as_slice()),
                None => weighted(&counts[r * n + start..r * n + start + len], ur.as_slice()),
            };
            su[r] += a;
            suu[r] += b;
        }
    }
    let pairs = (p * (p - 1) / 2) as f64;
    (0..batch)
        .map(|r| {
            if !ok[r] {
                return None;
            }
            let var_u = (suu[r] - su[r] * su[r] / nf) / (nf - 1.0);
            let own: f64 = (0..p).map(|j| w[(j, r)] * w[(j, r)] * vars[r][j]).sum();
            let r_bar = (var_u - own) / 2.0 / pairs;
            n_eff(p, r_bar)
        })
        .collect()
}

/// Σ c·u and Σ c·u² over a tile's items, c their counts, in four interleaved partial sums
/// (independent chains the compiler can vectorise; the order is fixed, so the sums are the
/// same at any thread count).
fn weighted<C: Copy + Into<f64>>(counts: &[C], u: &[f64]) -> (f64, f64) {
    const LANES: usize = 4;
    let (mut a, mut b) = ([0.0; LANES], [0.0; LANES]);
    let (cs, us) = (counts.chunks_exact(LANES), u.chunks_exact(LANES));
    let tail = cs.remainder().iter().zip(us.remainder());
    for (c, v) in cs.zip(us) {
        for k in 0..LANES {
            let cv = c[k].into() * v[k];
            a[k] += cv;
            b[k] += cv * v[k];
        }
    }
    for (&c, &v) in tail {
        let cv = c.into() * v;
        a[0] += cv;
        b[0] += cv * v;
    }
    ((a[0] + a[1]) + (a[2] + a[3]), (b[0] + b[1]) + (b[2] + b[3]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A population covariance with every judge correlation equal to r̄ = 0.6 (unequal
    /// variances: correlations, not covariances, enter r̄): n_eff = 6 / (1 + 5 · 0.6) = 1.5.
    fn equicorrelated(p: usize, r: f64) -> DMatrix<f64> {
        let sd: Vec<f64> = (0..p).map(|j| 0.5 + 0.3 * j as f64).collect();
        DMatrix::from_fn(p, p, |i, j| sd[i] * sd[j] * if i == j { 1.0 } else { r })
    }

    #[test]
    fn exact_on_a_population_covariance_with_known_mean_correlation() {
        let n = from_cov(6, &equicorrelated(6, 0.6));
        assert!((n.r_bar.unwrap() - 0.6).abs() < 1e-15);
        assert!((n.n_eff.unwrap() - 1.5).abs() < 1e-14);
        // Equal correlations 0.6 = λ_iλ_j: every λ² is 0.6.
        for s in n.shares.unwrap() {
            assert!((s - 0.6).abs() < 1e-9, "{s}");
        }
        // Independent judges are worth p votes; perfectly correlated ones, one.
        assert!((n_eff(6, 0.0).unwrap() - 6.0).abs() < 1e-15);
        assert!((n_eff(6, 1.0).unwrap() - 1.0).abs() < 1e-15);
        // Mixed correlations: r̄ is their plain mean. Judges 1–2 correlate 0.9, the rest 0.3:
        // r̄ = (0.9 + 2 · 0.3) / 3 = 0.5, n_eff = 3 / (1 + 2 · 0.5) = 1.5.
        let mut c = equicorrelated(3, 0.3);
        c[(0, 1)] = 0.9 * c[(0, 0)].sqrt() * c[(1, 1)].sqrt();
        c[(1, 0)] = c[(0, 1)];
        let n = from_cov(3, &c);
        assert!((n.r_bar.unwrap() - 0.5).abs() < 1e-15);
        assert!((n.n_eff.unwrap() - 1.5).abs() < 1e-14);
        // λ1λ2 = 0.9, λ1λ3 = λ2λ3 = 0.3 → λ3² = 0.3 · 0.3 / 0.9 = 0.1, λ1² = λ2² = 0.9.
        let s = n.shares.unwrap();
        for (got, want) in s.iter().zip([0.9, 0.9, 0.1]) {
            assert!((got - want).abs() < 1e-9, "{s:?}");
        }
    }

    #[test]
    fn one_judge_is_one_vote_and_two_have_no_shares() {
        let one = from_cov(1, &DMatrix::from_element(1, 1, 2.0));
        assert_eq!((one.r_bar, one.n_eff, one.shares), (None, Some(1.0), None));
        let two = from_cov(2, &equicorrelated(2, 0.5));
        assert!((two.n_eff.unwrap() - 2.0 / 1.5).abs() < 1e-14);
        assert!(two.shares.is_none());
        // A denominator that is not positive (r̄ ≤ −1/(p − 1)) has no n_eff.
        assert_eq!(n_eff(3, -0.5), None);
        assert_eq!(n_eff(3, f64::NAN), None);
    }

    /// Issue 23: judges negatively correlated on average gave "6 judges ≈ 6.39 independent
    /// votes"; n_eff never exceeds p.
    #[test]
    fn negatively_correlated_judges_have_no_n_eff_above_p() {
        assert_eq!(n_eff(6, -0.0125), None);
        let n = from_cov(6, &equicorrelated(6, -0.0125));
        assert!(n.r_bar.unwrap() < 0.0);
        assert_eq!(n.n_eff, None);
        for r in [0.0, 0.01, 0.5, 1.0] {
            let v = n_eff(6, r).unwrap();
            assert!((1.0..=6.0).contains(&v), "{r}: {v}");
        }
    }

    /// Correlations .85/.85/.60 force λ_1² = .85²/.60 ≈ 1.20: a Heywood judge.
    #[test]
    fn a_loading_above_one_is_a_heywood_judge() {
        let mut c = equicorrelated(3, 0.85);
        c[(1, 2)] = 0.6 * (c[(1, 1)] * c[(2, 2)]).sqrt();
        c[(2, 1)] = c[(1, 2)];
        let s = from_cov(3, &c).shares.unwrap();
        assert!((s[0] - 0.85 * 0.85 / 0.6).abs() < 1e-6, "{s:?}");
        assert!(is_heywood(s[0]) && !is_heywood(s[1]) && !is_heywood(s[2]));
    }
}
