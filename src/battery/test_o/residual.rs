//! Browne's residual statistic for the free-scale fit (docs/method.md §7, Test O): the misfit
//! of the moments (q, P_kl) weighted by their own normal-theory covariance, so that its null
//! is χ² with m(m − 1)/2 − 2 degrees of freedom whatever the parameters, where the unweighted
//! misfit's null moves with them and a plug-in threshold of it scatters from panel to panel.

use nalgebra::{DMatrix, DVector};

use crate::estimate::free_scale::FreeScaleFit;

/// Browne's T_B / N at the fit: rᵀ(Γ⁻¹ − Γ⁻¹Δ(ΔᵀΓ⁻¹Δ)⁻¹ΔᵀΓ⁻¹)r with r the moments' residuals,
/// Γ their normal-theory covariance by the delta method through the judges' one-factor fit,
/// and Δ the model's Jacobian; `None` when Γ is singular or an entry is not finite.
#[must_use]
pub fn browne(r: &DMatrix<f64>, anchor_cov: &DMatrix<f64>, p: usize, fit: &FreeScaleFit) -> Option<f64> {
    let s = standardised(r, anchor_cov, p);
    let (g, jac) = moments_jacobian(&s, p, &fit.lambda)?;
    let gamma = &jac * vech_cov(&s) * jac.transpose();
    let e = &fit.estimate;
    let beta: Vec<f64> = e.anchors.iter().map(|a| a.beta).collect();
    let (model, delta) = model_and_jacobian(e.sigma_t2, e.sigma_c2, &beta);
    let chol = gamma.cholesky()?;
    let resid = chol.l().solve_lower_triangular(&(g - model))?;
    let d = chol.l().solve_lower_triangular(&delta)?;
    // Project out the model's tangent space by its singular vectors: near equal β̂ (the ridge,
    // §9) Δ is nearly rank-deficient and its normal equations would square that.
    let svd = d.svd(true, false);
    let u = svd.u?;
    let top = svd.singular_values.max();
    let fitted: f64 = (0..svd.singular_values.len())
        .filter(|&i| svd.singular_values[i] > 1e-10 * top)
        .map(|i| u.column(i).dot(&resid).powi(2))
        .sum();
    let t = (resid.norm_squared() - fitted).max(0.0);
    t.is_finite().then_some(t)
}

/// The covariance the fit reads, judges standardised: judge correlations, judge–anchor
/// correlations times SD(A_k), and the anchors' covariances (q is free of the judges' scales).
fn standardised(r: &DMatrix<f64>, anchor_cov: &DMatrix<f64>, p: usize) -> DMatrix<f64> {
    let m = anchor_cov.nrows();
    let sd: Vec<f64> = (0..m).map(|k| anchor_cov[(k, k)].sqrt()).collect();
    DMatrix::from_fn(p + m, p + m, |i, j| match (i < p, j < p) {
        (true, true) => r[(i, j)],
        (true, false) => r[(i, j)] * sd[j - p],
        (false, true) => r[(i, j)] * sd[i - p],
        (false, false) => anchor_cov[(i - p, j - p)],
    })
}

/// The pairs (i, j), i ≤ j, of a symmetric n × n matrix's free entries, row by row.
fn vech_pairs(n: usize) -> Vec<(usize, usize)> {
    (0..n).flat_map(|i| (i..n).map(move |j| (i, j))).collect()
}

/// N · Cov(vech S) of a normal sample: σ_ik σ_jl + σ_il σ_jk.
fn vech_cov(s: &DMatrix<f64>) -> DMatrix<f64> {
    let pairs = vech_pairs(s.nrows());
    DMatrix::from_fn(pairs.len(), pairs.len(), |a, b| {
        let ((i, j), (k, l)) = (pairs[a], pairs[b]);
        s[(i, k)] * s[(j, l)] + s[(i, l)] * s[(j, k)]
    })
}

/// The moments g = (q_k, P_kl for k < l) of `s` and their Jacobian in vech S; λ's derivative
/// comes from the one-factor ULS stationarity conditions (implicit function theorem).
fn moments_jacobian(s: &DMatrix<f64>, p: usize, lambda: &[f64]) -> Option<(DVector<f64>, DMatrix<f64>)> {
    let n = s.nrows();
    let m = n - p;
    let d: Vec<f64> = (0..n).map(|i| s[(i, i)].sqrt()).collect();
    let rj = |i: usize, j: usize| s[(i, j)] / (d[i] * d[j]);
    let w: f64 = lambda.iter().map(|l| l * l).sum();
    // ∂F/∂λ of F_i = Σ_{j≠i} (R_ij − λ_i λ_j) λ_j, the ULS stationarity conditions.
    let a = DMatrix::from_fn(p, p, |i, k| {
        if i == k {
            -(w - lambda[i] * lambda[i])
        } else {
            rj(i, k) - 2.0 * lambda[i] * lambda[k]
        }
    });
    let a_lu = a.lu();
    let c = |j: usize, k: usize| s[(j, p + k)] / d[j];
    let u: Vec<f64> = (0..m).map(|k| (0..p).map(|j| lambda[j] * c(j, k)).sum()).collect();
    let pairs = vech_pairs(n);
    let upper: Vec<(usize, usize)> = vech_pairs(m).into_iter().filter(|(k, l)| k < l).collect();
    let mut g = DVector::zeros(m + upper.len());
    for k in 0..m {
        g[k] = u[k] / w;
    }
    for (x, &(k, l)) in upper.iter().enumerate() {
        g[m + x] = s[(p + k, p + l)];
    }
    let mut jac = DMatrix::zeros(g.len(), pairs.len());
    for (col, &(i, j)) in pairs.iter().enumerate() {
        let ds = |x: usize, y: usize| f64::from(u8::from((x, y) == (i, j) || (y, x) == (i, j)));
        let dd = |x: usize| ds(x, x) / s[(x, x)];
        let rhs = DVector::from_fn(p, |x, _| {
            (0..p)
                .filter(|&y| y != x)
                .map(|y| (ds(x, y) / (d[x] * d[y]) - rj(x, y) / 2.0 * (dd(x) + dd(y))) * lambda[y])
                .sum()
        });
        let dlam = -a_lu.solve(&rhs)?;
        let dw: f64 = 2.0 * (0..p).map(|x| lambda[x] * dlam[x]).sum::<f64>();
        for k in 0..m {
            let du: f64 = (0..p)
                .map(|x| dlam[x] * c(x, k) + lambda[x] * (ds(x, p + k) / d[x] - c(x, k) * dd(x) / 2.0))
                .sum();
            jac[(k, col)] = du / w - u[k] * dw / (w * w);
        }
        for (x, &(k, l)) in upper.iter().enumerate() {
            jac[(m + x, col)] = ds(p + k, p + l);
        }
    }
    Some((g, jac))
}

/// The free-scale model's moments at (σ_t², σ_c², β) and their Jacobian in those parameters:
/// q_k = (σ_t² + β_k)/√K, P_kl = σ_t² + β_k β_l/σ_c².
fn model_and_jacobian(st: f64, sc: f64, beta: &[f64]) -> (DVector<f64>, DMatrix<f64>) {
    let m = beta.len();
    let upper: Vec<(usize, usize)> = vech_pairs(m).into_iter().filter(|(k, l)| k < l).collect();
    let rk = (st + sc).sqrt();
    let k32 = rk * rk * rk;
    let mut g = DVector::zeros(m + upper.len());
    let mut jac = DMatrix::zeros(m + upper.len(), m + 2);
    for k in 0..m {
        g[k] = (st + beta[k]) / rk;
        jac[(k, 0)] = 1.0 / rk - (st + beta[k]) / (2.0 * k32);
        jac[(k, 1)] = -(st + beta[k]) / (2.0 * k32);
        jac[(k, 2 + k)] = 1.0 / rk;
    }
    for (x, &(k, l)) in upper.iter().enumerate() {
        g[m + x] = st + beta[k] * beta[l] / sc;
        jac[(m + x, 0)] = 1.0;
        jac[(m + x, 1)] = -beta[k] * beta[l] / (sc * sc);
        jac[(m + x, 2 + k)] = beta[l] / sc;
        jac[(m + x, 2 + l)] = beta[k] / sc;
    }
    (g, jac)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::estimate::free_scale::{fit, one_factor_uls};

    /// Σ of six judges J_j = a_j (t + c) + e_j and four anchors A_k = t + (β_k/σ_c²) c + h_k d +
    /// u_k (σ_t² = 1, σ_c² = 0.8; h = 0: the model holds), as (correlations, anchor covariances).
    fn population(h: f64) -> (DMatrix<f64>, DMatrix<f64>) {
        let (p, m, st, sc) = (6, 4, 1.0, 0.8);
        let a = [1.0, 0.7, 1.4, 1.0, 2.0, 0.5];
        let beta = [0.12, 0.29, 0.28, 0.08];
        let sa = [0.5, 0.6, 0.7, 0.55];
        let hk = [h, h / 2.0, 0.0, -h];
        // Loadings on (t, c, d) and the unique variances.
        let mut load = DMatrix::zeros(p + m, 3);
        let mut uniq = vec![0.0; p + m];
        for j in 0..p {
            load[(j, 0)] = a[j];
            load[(j, 1)] = a[j];
            uniq[j] = 1.0;
        }
        for k in 0..m {
            load[(p + k, 0)] = 1.0;
            load[(p + k, 1)] = beta[k] / sc;
            load[(p + k, 2)] = hk[k];
            uniq[p + k] = sa[k] * sa[k] - beta[k] * beta[k] / sc;
        }
        let phi = DMatrix::from_diagonal(&DVector::from_vec(vec![st, sc, 1.0]));
        let sigma = &load * phi * load.transpose() + DMatrix::from_diagonal(&DVector::from_vec(uniq));
        let d: Vec<f64> = (0..p + m).map(|i| sigma[(i, i)].sqrt()).collect();
        let r = DMatrix::from_fn(p + m, p + m, |i, j| sigma[(i, j)] / (d[i] * d[j]));
        (r, sigma.view((p, p), (m, m)).into_owned())
    }

    fn statistic_of(r: &DMatrix<f64>, anchor_cov: &DMatrix<f64>) -> f64 {
        let p = 6;
        let f = fit(
            &r.view((0, 0), (p, p)).into_owned(),
            &r.view((0, p), (p, anchor_cov.nrows())).into_owned(),
            anchor_cov,
        )
        .expect("fits");
        browne(r, anchor_cov, p, &f).expect("defined")
    }

    #[test]
    fn zero_where_the_model_holds_and_positive_under_an_anchor_factor() {
        let (r, cov) = population(0.0);
        assert!(statistic_of(&r, &cov) < 1e-12, "{}", statistic_of(&r, &cov));
        let (r, cov) = population(0.3);
        assert!(statistic_of(&r, &cov) > 1e-3, "{}", statistic_of(&r, &cov));
    }

    #[test]
    fn free_of_the_anchors_units() {
        let (r, cov) = population(0.3);
        let (a, b) = (statistic_of(&r, &cov), statistic_of(&r, &(&cov * 25.0)));
        assert!((a - b).abs() < 1e-8 * a, "{a} against {b}");
    }

    /// The delta method's Jacobian against central differences of the moments refitted from
    /// scratch (the judges' loadings by their own ULS fit, not by the implicit function).
    #[test]
    fn the_jacobian_is_the_central_difference_of_the_refitted_moments() {
        let (r, cov) = population(0.3);
        let p = 6;
        let s = standardised(&r, &cov, p);
        let moments = |s: &DMatrix<f64>| -> DVector<f64> {
            let n = s.nrows();
            let d: Vec<f64> = (0..n).map(|i| s[(i, i)].sqrt()).collect();
            let rj = DMatrix::from_fn(p, p, |i, j| s[(i, j)] / (d[i] * d[j]));
            let (lam, _, ok) = one_factor_uls(&rj).expect("fits");
            assert!(ok);
            let w: f64 = lam.iter().map(|l| l * l).sum();
            let mut g: Vec<f64> = (p..n)
                .map(|a| (0..p).map(|j| lam[j] * s[(j, a)] / d[j]).sum::<f64>() / w)
                .collect();
            for k in p..n {
                g.extend((k + 1..n).map(|l| s[(k, l)]));
            }
            DVector::from_vec(g)
        };
        let rj = s.view((0, 0), (p, p)).into_owned();
        let (lam, _, _) = one_factor_uls(&rj).expect("fits");
        let (g, jac) = moments_jacobian(&s, p, &lam).expect("regular");
        assert!((&g - moments(&s)).amax() < 1e-12);
        let h = 1e-6;
        for (col, (i, j)) in vech_pairs(s.nrows()).into_iter().enumerate() {
            let mut up = s.clone();
            let mut down = s.clone();
            for (x, y) in [(i, j), (j, i)] {
                up[(x, y)] = s[(x, y)] + h;
                down[(x, y)] = s[(x, y)] - h;
            }
            let numeric = (moments(&up) - moments(&down)) / (2.0 * h);
            let err = (numeric - jac.column(col)).amax();
            assert!(err < 1e-6, "entry ({i}, {j}): {err}");
        }
    }
}
