//! The model's implied covariance Σ(θ), its derivatives, and the discrepancy F with its
//! gradient and expected Hessian (Fisher scoring's ingredients).

use nalgebra::{DMatrix, DVector};

use crate::estimate::Estimate;

/// The ML fit and its diagnostics.
#[derive(Debug, Clone, PartialEq)]
pub struct MlFit {
    /// The fit in the closed form's shape (K is the implied σ_t² + σ_c²).
    pub estimate: Estimate,
    /// The optimiser met its criterion at a finite point (false when there is no maximum).
    pub converged: bool,
    pub iterations: usize,
    /// The minimised discrepancy F.
    pub discrepancy: f64,
    /// Standard errors (`NaN` when the information matrix is singular).
    pub se: MlSe,
    /// Judge and anchor residual variances ψ_j, ω_k.
    pub psi: Vec<f64>,
    pub omega: Vec<f64>,
    /// Where the optimiser started: `closed form`, `fallback`, `grid` or `given`.
    pub start: &'static str,
}

/// Standard errors of the ML parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct MlSe {
    pub sigma_t2: f64,
    pub sigma_c2: f64,
    pub beta: Vec<f64>,
    pub rho: Vec<f64>,
}

/// The layout of θ.
#[derive(Debug, Clone, Copy)]
pub(super) struct Layout {
    pub(super) p: usize,
    pub(super) m: usize,
}

impl Layout {
    pub(super) fn n_params(self) -> usize {
        2 + self.p + 2 * self.m
    }
    pub(super) fn beta(k: usize) -> usize {
        2 + k
    }
    pub(super) fn psi(self, j: usize) -> usize {
        2 + self.m + j
    }
    pub(super) fn omega(self, k: usize) -> usize {
        2 + self.m + self.p + k
    }
}

/// Σ(θ).
pub(super) fn implied(th: &DVector<f64>, l: Layout) -> DMatrix<f64> {
    let (p, m) = (l.p, l.m);
    let (st, sc) = (th[0], th[1]);
    DMatrix::from_fn(p + m, p + m, |r, c| match (r < p, c < p) {
        (true, true) => st + sc + if r == c { th[l.psi(r)] } else { 0.0 },
        (true, false) => st + th[Layout::beta(c - p)],
        (false, true) => st + th[Layout::beta(r - p)],
        (false, false) => {
            let (k, kk) = (r - p, c - p);
            st + th[Layout::beta(k)] * th[Layout::beta(kk)] / sc
                + if k == kk { th[l.omega(k)] } else { 0.0 }
        }
    })
}

/// ∂Σ/∂θ_i.
pub(super) fn d_sigma(th: &DVector<f64>, l: Layout, i: usize) -> DMatrix<f64> {
    let (p, m) = (l.p, l.m);
    let q = p + m;
    let sc = th[1];
    let mut d = DMatrix::zeros(q, q);
    match i {
        0 => d.fill(1.0),
        1 => {
            for r in 0..p {
                for c in 0..p {
                    d[(r, c)] = 1.0;
                }
            }
            for k in 0..m {
                for kk in 0..m {
                    d[(p + k, p + kk)] = -th[Layout::beta(k)] * th[Layout::beta(kk)] / (sc * sc);
                }
            }
        }
        i if i < 2 + m => {
            let k = i - 2;
            for j in 0..p {
                d[(j, p + k)] = 1.0;
                d[(p + k, j)] = 1.0;
            }
            for kk in 0..m {
                let v = th[Layout::beta(kk)] / sc;
                d[(p + k, p + kk)] += v;
                d[(p + kk, p + k)] += v;
            }
        }
        i if i < 2 + m + p => {
            let j = i - 2 - m;
            d[(j, j)] = 1.0;
        }
        i => {
            let k = i - 2 - m - p;
            d[(p + k, p + k)] = 1.0;
        }
    }
    d
}

/// F and Σ⁻¹, or `None` when Σ is not positive definite.
pub(super) fn discrepancy(
    th: &DVector<f64>,
    l: Layout,
    s: &DMatrix<f64>,
    logdet_s: f64,
) -> Option<(f64, DMatrix<f64>)> {
    let sigma = implied(th, l);
    let chol = sigma.cholesky()?;
    let logdet: f64 = chol.l().diagonal().iter().map(|d| 2.0 * d.ln()).sum();
    let inv = chol.inverse();
    let q = s.nrows() as f64;
    let tr = (s * &inv).trace();
    let f = logdet + tr - logdet_s - q;
    f.is_finite().then_some((f, inv))
}

/// Gradient and expected Hessian at θ.
pub(super) fn score(
    th: &DVector<f64>,
    l: Layout,
    s: &DMatrix<f64>,
    inv: &DMatrix<f64>,
) -> (DVector<f64>, DMatrix<f64>) {
    let n = l.n_params();
    let sigma = implied(th, l);
    let w = inv * (&sigma - s) * inv;
    let a: Vec<DMatrix<f64>> = (0..n).map(|i| inv * d_sigma(th, l, i)).collect();
    let d: Vec<DMatrix<f64>> = (0..n).map(|i| d_sigma(th, l, i)).collect();
    let g = DVector::from_fn(n, |i, _| w.component_mul(&d[i]).sum());
    let mut h = DMatrix::zeros(n, n);
    for i in 0..n {
        for j in i..n {
            // tr(A_i A_j) = Σ_ab A_i[a,b] A_j[b,a].
            let v = a[i].component_mul(&a[j].transpose()).sum();
            h[(i, j)] = v;
            h[(j, i)] = v;
        }
    }
    (g, h)
}
