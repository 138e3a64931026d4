//! Where Fisher scoring starts: the closed form, a neutral split of K, and a small grid.

use nalgebra::{DMatrix, DVector};

use super::model::Layout;
use super::{JudgePairs, Moments};

/// θ from the closed form, or `None` when it is not a usable start.
pub(super) fn closed_start(s: &DMatrix<f64>, l: Layout) -> Option<DVector<f64>> {
    let mom = Moments::from_cov(s, l.p, JudgePairs::All)?;
    let est = crate::estimate::closed_form(&mom);
    if !(est.sigma_t2.is_finite() && est.sigma_c2 > 0.0) {
        return None;
    }
    let mut th = DVector::zeros(l.n_params());
    th[0] = est.sigma_t2;
    th[1] = est.sigma_c2;
    for (k, a) in est.anchors.iter().enumerate() {
        th[Layout::beta(k)] = a.beta;
        th[l.omega(k)] =
            (a.sigma_a2 - a.beta * a.beta / est.sigma_c2).max(0.05 * s[(l.p + k, l.p + k)]);
    }
    for j in 0..l.p {
        th[l.psi(j)] = (s[(j, j)] - est.k).max(0.05 * s[(j, j)]);
    }
    Some(th)
}

/// A neutral start: K split evenly between t and c, no contamination.
pub(super) fn fallback_start(s: &DMatrix<f64>, l: Layout) -> DVector<f64> {
    grid_start(s, l, 0.5, false)
}

/// A start with σ_t² = `share`·K and σ_c² = (1 − share)·K; β_k from the moments
/// (M_k − σ_t², kept to |ρ| ≤ 0.9) when `moment_beta`, else 0; residual variances what is left
/// of each variance (at least a tenth of it).
pub(super) fn grid_start(
    s: &DMatrix<f64>,
    l: Layout,
    share: f64,
    moment_beta: bool,
) -> DVector<f64> {
    let k = crate::moments::mean_judge_cov(s, l.p, JudgePairs::All)
        .unwrap_or(1.0)
        .abs()
        .max(1e-3);
    let (st, sc) = (share * k, (1.0 - share) * k);
    let mut th = DVector::zeros(l.n_params());
    th[0] = st;
    th[1] = sc;
    for j in 0..l.p {
        th[l.psi(j)] = (s[(j, j)] - k).max(0.1 * s[(j, j)]);
    }
    for kk in 0..l.m {
        let v = s[(l.p + kk, l.p + kk)];
        let beta = if moment_beta {
            let mk = (0..l.p).map(|j| s[(j, l.p + kk)]).sum::<f64>() / l.p as f64;
            let cap = 0.9 * (sc * (v - st).max(0.1 * v)).sqrt();
            (mk - st).clamp(-cap, cap)
        } else {
            0.0
        };
        th[Layout::beta(kk)] = beta;
        th[l.omega(kk)] = (v - st - beta * beta / sc).max(0.1 * v);
    }
    th
}

/// Columns above which the grid is left out (the closed-form and neutral starts and the
/// check at infinity remain): each start costs a fit of about q⁴.
pub const FULL_GRID_COLUMNS: usize = 40;

/// How many starts a fit of `q` columns makes (for cost estimates): the closed form, the
/// neutral start, and the grid up to [`FULL_GRID_COLUMNS`].
#[must_use]
pub fn starts(q: usize) -> usize {
    if q <= FULL_GRID_COLUMNS { 7 } else { 2 }
}

/// The starts after the closed form's: the neutral one, then a small grid over the split of K
/// and the anchors' contamination, so a local optimum is not taken for the global one.
pub(super) fn more_starts(s: &DMatrix<f64>, l: Layout) -> Vec<(DVector<f64>, &'static str)> {
    let mut v = vec![(fallback_start(s, l), "fallback")];
    let grid: &[(f64, bool)] = if l.p + l.m <= FULL_GRID_COLUMNS {
        &[
            (0.2, true),
            (0.5, true),
            (0.8, true),
            (0.2, false),
            (0.8, false),
        ]
    } else {
        &[]
    };
    v.extend(
        grid.iter()
            .map(|&(share, b)| (grid_start(s, l, share, b), "grid")),
    );
    v
}
