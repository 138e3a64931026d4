//! What the free-scale fit identifies (docs/method.md §7). With free judge scales the anchors carry all
//! the information on (σ_t², σ_c², β); when their β are (nearly) equal — every anchor clean, or
//! all equally contaminated — the moments pin only a ridge of (σ_t², σ_c²), and a point
//! estimate slides along it. This module finds the set of ρ_k the data cannot reject:
//!
//! 1. The anchor moments m = (q_1..q_m, P_kl for k < l) and their sampling covariance Γ from
//!    a delete-a-group jackknife over [`GROUPS`] interleaved item groups (distribution-free,
//!    deterministic, and valid for polychoric and polyserial correlations alike).
//! 2. For each (σ_t², σ_c²) on a grid, β_k = q_k √(σ_t² + σ_c²) − σ_t² fits the q equations
//!    exactly and R_kl = P_kl − σ_t² − β_k β_l / σ_c² are the residuals left; under the model
//!    at the true (σ_t², σ_c²), T = Rᵀ Cov(R)⁻¹ R is χ² with m(m − 1)/2 degrees of freedom
//!    whether or not the point is identified (an Anderson–Rubin test), Cov(R) = D Γ Dᵀ by the
//!    delta method; with Γ from G jackknife groups it is Hotelling's T²(d, G − 1), d the
//!    degrees of freedom. The points with T at or below its 95 % point,
//!    d(G − 1)/(G − d)·F_{d, G − d}(0.95), form the confidence set.
//! 3. Each ρ_k = β_k / √((V_k − σ_t²) σ_c²) over that set is its identified set (a
//!    conservative 95 % projection). ρ̂_k is a point only when the set is non-empty, bounded
//!    away from the edges of the parameter space, and no wider than [`WIDE_SET`] for anchor k.

use nalgebra::DMatrix;
use statrs::distribution::{ContinuousCDF, FisherSnedecor};

use super::free_scale::point::{self, FreeScaleFit};
pub use super::free_scale::point::{IdentifiedSet, WIDE_SET};
use crate::ordinal::correlation_matrix;
use crate::panel::Panel;

/// Item groups of the jackknife: enough for a stable Γ of up to a few dozen moments.
pub const GROUPS: usize = 50;
/// Confidence level of the set.
pub const LEVEL: f64 = 0.95;
/// Grid points per axis (σ_t² linear, σ_c² logarithmic), fewer for many anchors.
const GRID: usize = 96;
const GRID_MANY: usize = 48;
/// σ_c² spans this factor either side of the largest anchor variance.
const C_SPAN: f64 = 1e3;

/// The anchor moments the set is built on: q (m), then P_kl for k < l, then V_k (m).
#[derive(Debug, Clone, PartialEq)]
pub struct AnchorMoments {
    pub q: Vec<f64>,
    pub p: Vec<f64>,
    pub v: Vec<f64>,
}

impl AnchorMoments {
    fn vector(&self) -> Vec<f64> {
        self.q.iter().chain(&self.p).copied().collect()
    }
}

/// The anchor moments of a fit (q from its λ, P and V from the anchor covariance).
#[must_use]
pub fn moments_of(fit: &FreeScaleFit, anchor_cov: &DMatrix<f64>) -> AnchorMoments {
    let m = anchor_cov.nrows();
    let mut p = Vec::with_capacity(m * m.saturating_sub(1) / 2);
    for k in 0..m {
        for l in k + 1..m {
            p.push(anchor_cov[(k, l)]);
        }
    }
    AnchorMoments {
        q: fit.q.clone(),
        p,
        v: (0..m).map(|k| anchor_cov[(k, k)]).collect(),
    }
}

/// The identified set of a panel's free-scale fit, its Γ from the jackknife. `None` when a
/// jackknife sample cannot be fitted (a judge left with one level, say).
#[must_use]
pub fn of_panel(panel: &Panel, mom: &AnchorMoments) -> Option<IdentifiedSet> {
    let draws = jackknife(panel)?;
    let gamma = jackknife_cov(&draws);
    Some(set(mom, &gamma, draws.len()))
}

/// The moment vector of each delete-a-group sample; items go to group i mod [`GROUPS`].
fn jackknife(panel: &Panel) -> Option<Vec<Vec<f64>>> {
    let (n, p, m, q) = (panel.n, panel.p(), panel.m(), panel.q());
    let groups = GROUPS.min(n / 2);
    if groups < 2 {
        return None;
    }
    if panel.scales.iter().all(|s| !s.is_ordinal()) {
        return jackknife_continuous(panel, groups);
    }
    (0..groups)
        .map(|g| {
            let keep: Vec<usize> = (0..n).filter(|i| i % groups != g).collect();
            let mut data = Vec::with_capacity(keep.len() * q);
            for c in 0..q {
                let col = panel.col(c);
                data.extend(keep.iter().map(|&i| col[i]));
            }
            let sub = Panel {
                n: keep.len(),
                data,
                judges: panel.judges.clone(),
                anchors: panel.anchors.clone(),
                families: None,
                scales: panel.scales.clone(),
                missing: vec![0; q],
                n_dropped: 0,
            };
            let corr = correlation_matrix(&sub).ok()?;
            let r_judges = corr.r.view((0, 0), (p, p)).into_owned();
            let r_ja = corr.r.view((0, p), (p, m)).into_owned();
            let cov = crate::moments::covariance(&sub.data[p * sub.n..], sub.n, m, &mut Vec::new());
            vector_of(&r_judges, &r_ja, &cov)
        })
        .collect()
}

/// The jackknife of an all-continuous panel from group sums of centred cross-products, so it
/// costs one pass over the items.
fn jackknife_continuous(panel: &Panel, groups: usize) -> Option<Vec<Vec<f64>>> {
    let (n, p, m, q) = (panel.n, panel.p(), panel.m(), panel.q());
    let means: Vec<f64> = (0..q)
        .map(|c| panel.col(c).iter().sum::<f64>() / n as f64)
        .collect();
    let mut s1 = vec![0.0; groups * q];
    let mut s2 = vec![0.0; groups * q * q];
    let mut counts = vec![0usize; groups];
    let mut x = vec![0.0; q];
    for i in 0..n {
        let g = i % groups;
        counts[g] += 1;
        for (c, xc) in x.iter_mut().enumerate() {
            *xc = panel.data[c * n + i] - means[c];
            s1[g * q + c] += *xc;
        }
        let block = &mut s2[g * q * q..(g + 1) * q * q];
        for a in 0..q {
            for b in a..q {
                block[a * q + b] += x[a] * x[b];
            }
        }
    }
    let total1: Vec<f64> = (0..q)
        .map(|c| (0..groups).map(|g| s1[g * q + c]).sum())
        .collect();
    let total2: Vec<f64> = (0..q * q)
        .map(|ab| (0..groups).map(|g| s2[g * q * q + ab]).sum())
        .collect();
    (0..groups)
        .map(|g| {
            let k = (n - counts[g]) as f64;
            let mean = |c: usize| (total1[c] - s1[g * q + c]) / k;
            let cov = DMatrix::from_fn(q, q, |a, b| {
                let (a, b) = (a.min(b), a.max(b));
                let s = total2[a * q + b] - s2[g * q * q + a * q + b];
                (s - k * mean(a) * mean(b)) / (k - 1.0)
            });
            let (r_judges, r_ja, anchor_cov) = point::inputs_of_covariance(p, m, &cov)?;
            vector_of(&r_judges, &r_ja, &anchor_cov)
        })
        .collect()
}

/// (q, P_kl) of one sample, through the same λ and q as the fit.
fn vector_of(
    r_judges: &DMatrix<f64>,
    r_ja: &DMatrix<f64>,
    anchor_cov: &DMatrix<f64>,
) -> Option<Vec<f64>> {
    let fit = point::fit(r_judges, r_ja, anchor_cov).ok()?;
    Some(moments_of(&fit, anchor_cov).vector())
}

/// Γ = (G − 1)/G Σ_g (m_g − m̄)(m_g − m̄)ᵀ.
fn jackknife_cov(draws: &[Vec<f64>]) -> DMatrix<f64> {
    let g = draws.len() as f64;
    let d = draws[0].len();
    let mean: Vec<f64> = (0..d)
        .map(|i| draws.iter().map(|x| x[i]).sum::<f64>() / g)
        .collect();
    DMatrix::from_fn(d, d, |a, b| {
        draws
            .iter()
            .map(|x| (x[a] - mean[a]) * (x[b] - mean[b]))
            .sum::<f64>()
            * (g - 1.0)
            / g
    })
}

/// Buffers of [`ar_at`], reused over the grid.
struct Scratch {
    beta: Vec<f64>,
    rho: Vec<f64>,
    resid: Vec<f64>,
    cov: Vec<f64>,
    /// Per pair row: the moment indices (q_k, q_l, P_kl) and their derivatives.
    idx: Vec<[usize; 3]>,
    der: Vec<[f64; 3]>,
}

impl Scratch {
    fn new(m: usize) -> Self {
        let np = m * m.saturating_sub(1) / 2;
        let mut idx = Vec::with_capacity(np);
        for k in 0..m {
            for l in k + 1..m {
                idx.push([k, l, m + idx.len()]);
            }
        }
        Scratch {
            beta: vec![0.0; m],
            rho: vec![0.0; m],
            resid: vec![0.0; np],
            cov: vec![0.0; np * np],
            idx,
            der: vec![[0.0; 3]; np],
        }
    }
}

/// The Anderson–Rubin statistic at (σ_t², σ_c²) = (s, c), the ρ_k there left in `w.rho`;
/// `None` where the point is inadmissible (σ_ak² ≤ 0 or |ρ_k| ≥ 1) or Cov(R) is singular.
/// Cov(R) = D Γ Dᵀ uses that each residual depends on three moments only.
fn ar_at(
    mom: &AnchorMoments,
    gamma: &DMatrix<f64>,
    s: f64,
    c: f64,
    w: &mut Scratch,
) -> Option<f64> {
    let m = mom.q.len();
    let root = (s + c).sqrt();
    for k in 0..m {
        w.beta[k] = mom.q[k] * root - s;
        let a2 = mom.v[k] - s;
        if a2 <= 0.0 {
            return None;
        }
        let r = w.beta[k] / (a2.sqrt() * c.sqrt());
        if r.is_nan() || r.abs() >= 1.0 {
            return None;
        }
        w.rho[k] = r;
    }
    let np = w.idx.len();
    for (r, &[k, l, _]) in w.idx.iter().enumerate() {
        w.resid[r] = mom.p[r] - s - w.beta[k] * w.beta[l] / c;
        w.der[r] = [-root * w.beta[l] / c, -root * w.beta[k] / c, 1.0];
    }
    for r1 in 0..np {
        for r2 in 0..=r1 {
            let mut v = 0.0;
            for (a, da) in w.idx[r1].iter().zip(w.der[r1]) {
                for (b, db) in w.idx[r2].iter().zip(w.der[r2]) {
                    v += da * gamma[(*a, *b)] * db;
                }
            }
            w.cov[r1 * np + r2] = v;
        }
    }
    // Cholesky of the lower triangle in place, then Rᵀ Cov⁻¹ R = |L⁻¹ R|².
    for j in 0..np {
        let mut d = w.cov[j * np + j];
        for k in 0..j {
            d -= w.cov[j * np + k] * w.cov[j * np + k];
        }
        if d.is_nan() || d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        w.cov[j * np + j] = d;
        for i in j + 1..np {
            let mut v = w.cov[i * np + j];
            for k in 0..j {
                v -= w.cov[i * np + k] * w.cov[j * np + k];
            }
            w.cov[i * np + j] = v / d;
        }
    }
    let mut t = 0.0;
    for i in 0..np {
        let mut v = w.resid[i];
        for k in 0..i {
            v -= w.cov[i * np + k] * w.resid[k];
        }
        w.resid[i] = v / w.cov[i * np + i];
        t += w.resid[i] * w.resid[i];
    }
    t.is_finite().then_some(t)
}

/// The confidence set of (σ_t², σ_c²) on a grid, refined once over its bounding box; `groups`
/// is the number of jackknife groups Γ came from (fewer than [`GROUPS`] when N < 100).
#[must_use]
pub fn set(mom: &AnchorMoments, gamma: &DMatrix<f64>, groups: usize) -> IdentifiedSet {
    let m = mom.q.len();
    let df = mom.p.len() as f64;
    // Γ comes from G jackknife groups, so T is Hotelling's T²(d, G − 1), not χ²_d: at six
    // anchors (d = 15, G = 50) χ²'s point (25.0) rejected 17 % of null panels against T²'s 41.
    let crit = hotelling_point(df, groups);
    let n = if m <= 4 { GRID } else { GRID_MANY };
    let s_max = mom.v.iter().copied().fold(f64::INFINITY, f64::min);
    let v_max = mom.v.iter().copied().fold(0.0f64, f64::max);
    let (lc_lo, lc_hi) = ((v_max / C_SPAN).ln(), (v_max * C_SPAN).ln());
    let mut out = Accepted::new(m);
    let mut w = Scratch::new(m);
    // Coarse grid: s over (0, min V_k), ln c over [ln(V/1e3), ln(V·1e3)].
    let s_at = |i: usize| s_max * (i as f64 + 0.5) / n as f64;
    let lc_at = |j: usize| lc_lo + (lc_hi - lc_lo) * j as f64 / (n - 1) as f64;
    let (mut i_lo, mut i_hi, mut j_lo, mut j_hi) = (n, 0, n, 0);
    for i in 0..n {
        for j in 0..n {
            let (s, c) = (s_at(i), lc_at(j).exp());
            if ar_at(mom, gamma, s, c, &mut w).is_some_and(|t| t <= crit) {
                out.add(s, &w.rho);
                (i_lo, i_hi) = (i_lo.min(i), i_hi.max(i));
                (j_lo, j_hi) = (j_lo.min(j), j_hi.max(j));
            }
        }
    }
    let unbounded = out.any && (i_lo == 0 || j_lo == 0 || j_hi == n - 1);
    if out.any {
        // Refine over the accepted box, one coarse cell beyond it on every side.
        let (s0, s1) = (s_at(i_lo.saturating_sub(1)), s_at((i_hi + 1).min(n - 1)));
        let (c0, c1) = (lc_at(j_lo.saturating_sub(1)), lc_at((j_hi + 1).min(n - 1)));
        for i in 0..n {
            for j in 0..n {
                let s = s0 + (s1 - s0) * i as f64 / (n - 1) as f64;
                let c = (c0 + (c1 - c0) * j as f64 / (n - 1) as f64).exp();
                if ar_at(mom, gamma, s, c, &mut w).is_some_and(|t| t <= crit) {
                    out.add(s, &w.rho);
                }
            }
        }
    }
    IdentifiedSet {
        rho: if out.any {
            out.rho.iter().map(|&r| Some(r)).collect()
        } else {
            vec![None; m]
        },
        sigma_t2: out.any.then_some(out.s),
        unbounded,
        groups,
    }
}

/// The 95 % point of Hotelling's T²(d, G − 1): d(G − 1)/(G − d)·F_{d, G − d}; infinite (no
/// point rejected) when G ≤ d, where Γ is singular anyway.
fn hotelling_point(d: f64, groups: usize) -> f64 {
    let g = groups as f64;
    if g <= d {
        return f64::INFINITY;
    }
    FisherSnedecor::new(d, g - d).map_or(f64::INFINITY, |f| {
        d * (g - 1.0) / (g - d) * f.inverse_cdf(LEVEL)
    })
}

/// Running ranges of the accepted points.
struct Accepted {
    any: bool,
    s: (f64, f64),
    rho: Vec<(f64, f64)>,
}

impl Accepted {
    fn new(m: usize) -> Self {
        Accepted {
            any: false,
            s: (f64::INFINITY, f64::NEG_INFINITY),
            rho: vec![(f64::INFINITY, f64::NEG_INFINITY); m],
        }
    }

    fn add(&mut self, s: f64, rho: &[f64]) {
        self.any = true;
        self.s = (self.s.0.min(s), self.s.1.max(s));
        for (r, &x) in self.rho.iter_mut().zip(rho) {
            *r = (r.0.min(x), r.1.max(x));
        }
    }
}

#[cfg(test)]
/// Population moments of the free-scale model at (s, c, β) with anchor variances `v`.
pub(crate) fn population(s: f64, c: f64, beta: &[f64], v: &[f64]) -> AnchorMoments {
    let m = beta.len();
    let mut p = Vec::new();
    for k in 0..m {
        for l in k + 1..m {
            p.push(s + beta[k] * beta[l] / c);
        }
    }
    AnchorMoments {
        q: beta.iter().map(|b| (s + b) / (s + c).sqrt()).collect(),
        p,
        v: v.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small diagonal Γ: moments known to about `sd`.
    fn gamma(d: usize, sd: f64) -> DMatrix<f64> {
        DMatrix::identity(d, d) * (sd * sd)
    }

    #[test]
    fn distinct_betas_give_a_narrow_set_around_the_truth() {
        // ρ = (0.3, 0.7, 0.5), σ_a = (0.5, 0.6, 0.7), σ_t² = 1, σ_c² = 0.8.
        let (s, c) = (1.0, 0.8f64);
        let sa = [0.5f64, 0.6, 0.7];
        let rho = [0.3, 0.7, 0.5];
        let beta: Vec<f64> = (0..3).map(|k| rho[k] * sa[k] * c.sqrt()).collect();
        let v: Vec<f64> = sa.iter().map(|a| s + a * a).collect();
        let mom = population(s, c, &beta, &v);
        let set = set(&mom, &gamma(6, 1e-3), GROUPS);
        assert!(set.is_point(), "{set:?}");
        for (k, r) in set.rho.iter().enumerate() {
            let (lo, hi) = r.unwrap();
            assert!(lo <= rho[k] && rho[k] <= hi, "anchor {k}: {lo}..{hi}");
            assert!(hi - lo < 0.1, "anchor {k}: {lo}..{hi}");
        }
    }

    #[test]
    fn clean_anchors_give_the_ridge_not_a_point() {
        // docs/method.md §7's worked case: ρ = 0, population moments; ρ_1 spans about [−0.80, 0.89].
        let (s, c) = (1.0, 0.8);
        let v = [1.25, 1.36, 1.49];
        let mom = population(s, c, &[0.0; 3], &v);
        let set = set(&mom, &gamma(6, 1e-3), GROUPS);
        assert!(!set.is_point(), "{set:?}");
        let (lo, hi) = set.rho[0].unwrap();
        assert!(lo < -0.7 && hi > 0.8, "{lo}..{hi}");
        assert!(lo <= 0.0 && 0.0 <= hi);
    }

    #[test]
    fn equally_contaminated_anchors_give_the_ridge() {
        let (s, c) = (1.0, 0.8f64);
        let sa = [0.5f64, 0.6, 0.7];
        let b = 0.2;
        let v: Vec<f64> = sa.iter().map(|a| s + a * a).collect();
        let mom = population(s, c, &[b; 3], &v);
        let set = set(&mom, &gamma(6, 1e-3), GROUPS);
        assert!(!set.is_point(), "{set:?}");
        for (k, r) in set.rho.iter().enumerate() {
            let truth = b / (sa[k] * c.sqrt());
            let (lo, hi) = r.unwrap();
            assert!(
                lo <= truth && truth <= hi,
                "anchor {k}: {truth} not in {lo}..{hi}"
            );
        }
    }

    #[test]
    fn the_cut_is_hotellings_point_for_the_groups_used() {
        // d(G − 1)/(G − d)·F_{d, G−d}(0.95) from F tables: F_{3,17} = 3.1968, F_{3,47} = 2.8024.
        assert!((hotelling_point(3.0, 20) - 10.7186).abs() < 1e-3);
        assert!((hotelling_point(3.0, 50) - 8.7648).abs() < 1e-3);
        assert_eq!(hotelling_point(3.0, 3), f64::INFINITY);
    }

    #[test]
    fn a_small_panel_cuts_at_the_groups_its_jackknife_used() {
        // N = 40 leaves 20 jackknife groups, not 50: the set must say so and cut at T²(d, 19).
        let panel =
            crate::simulate::simulate(&crate::model::Params::three_anchor(), 40, 3).unwrap();
        let (fit, _) = super::super::free_scale::fit_panel_identified(&panel).unwrap();
        let set = fit.identified.expect("a set at N = 40");
        assert_eq!(set.groups, 20);
    }

    #[test]
    fn fewer_groups_accept_more() {
        // The same moments and Γ: with 20 groups the cut is higher, so the set is no smaller.
        let (s, c) = (1.0, 0.8f64);
        let sa = [0.5f64, 0.6, 0.7];
        let beta: Vec<f64> = [0.3, 0.7, 0.5]
            .iter()
            .zip(sa)
            .map(|(r, a)| r * a * c.sqrt())
            .collect();
        let v: Vec<f64> = sa.iter().map(|a| s + a * a).collect();
        let mom = population(s, c, &beta, &v);
        let (few, many) = (
            set(&mom, &gamma(6, 0.02), 20),
            set(&mom, &gamma(6, 0.02), 50),
        );
        let width = |x: &IdentifiedSet| x.rho[0].map_or(0.0, |(lo, hi)| hi - lo);
        assert!(width(&few) > width(&many), "{few:?} vs {many:?}");
    }

    #[test]
    fn moments_no_model_can_fit_give_an_empty_set() {
        // P far above anything q allows: a negative σ_c² would be needed.
        let mom = AnchorMoments {
            q: vec![0.1, 0.1, 0.1],
            p: vec![5.0, -5.0, 5.0],
            v: vec![10.0, 10.0, 10.0],
        };
        let set = set(&mom, &gamma(6, 1e-3), GROUPS);
        assert!(set.is_empty());
        assert!(!set.is_point());
    }
}
