//! Step 1 of the free-scale fit: the judges' one-factor loadings λ from their correlations
//! (unweighted least squares on the off-diagonal, Newton polished).

use nalgebra::{DMatrix, DVector};

use super::tolerances::{GRAD_TOL, MAX_DAMP, MAX_ITER, STALL_TOL, STEP_TOL};

/// One-factor ULS of a correlation matrix's off-diagonal: λ minimising Σ_{i<j}(R_ij − λ_iλ_j)²,
/// the RMS of those residuals, and whether Newton converged. Starts from the leading
/// eigenvector (scaled by √eigenvalue), sign chosen so Σλ ≥ 0.
///
/// # Errors
/// Fewer than 3 variables (the one-factor model is then not identified), a non-square
/// matrix, or a non-finite entry.
pub fn one_factor_uls(r: &DMatrix<f64>) -> Result<(Vec<f64>, f64, bool), crate::estimate::EstimateError> {
    let p = r.nrows();
    if p < 3 {
        return Err(crate::estimate::EstimateError::FreeScale(format!(
            "a one-factor fit needs at least 3 judges (got {p})"
        )));
    }
    if r.ncols() != p || r.iter().any(|x| !x.is_finite()) {
        return Err(crate::estimate::EstimateError::FreeScale(
            "a one-factor fit needs a square matrix of finite correlations".into(),
        ));
    }
    let eig = r.clone().symmetric_eigen();
    let top = eig.eigenvalues.imax();
    let mut lam: DVector<f64> = eig.eigenvectors.column(top) * eig.eigenvalues[top].max(0.0).sqrt();
    if lam.sum() < 0.0 {
        lam = -lam;
    }
    let cost = |l: &DVector<f64>| -> f64 {
        let mut s = 0.0;
        for i in 0..p {
            for j in i + 1..p {
                let e = r[(i, j)] - l[i] * l[j];
                s += e * e;
            }
        }
        s
    };
    let mut f = cost(&lam);
    let mut mu = 1e-3;
    let mut converged = false;
    let mut g = DVector::zeros(p);
    let mut h = DMatrix::zeros(p, p);
    for _ in 0..MAX_ITER {
        // Gradient and exact Hessian of the cost.
        g.fill(0.0);
        h.fill(0.0);
        for i in 0..p {
            for j in 0..p {
                if i == j {
                    continue;
                }
                let e = r[(i, j)] - lam[i] * lam[j];
                g[i] -= 2.0 * e * lam[j];
                h[(i, i)] += 2.0 * lam[j] * lam[j];
                h[(i, j)] = 2.0 * (2.0 * lam[i] * lam[j] - r[(i, j)]);
            }
        }
        if g.amax() <= GRAD_TOL * (1.0 + lam.amax()) {
            converged = true;
            break;
        }
        let mut accepted = false;
        for _ in 0..MAX_DAMP {
            let mut hd = h.clone();
            for i in 0..p {
                hd[(i, i)] += mu * (1.0 + h[(i, i)]);
            }
            let Some(step) = hd.cholesky().map(|c| c.solve(&(-&g))) else {
                mu *= 10.0;
                continue;
            };
            let trial = &lam + &step;
            let ft = cost(&trial);
            if ft <= f {
                let small = step.amax() <= STEP_TOL * (1.0 + lam.amax());
                let stalled = f - ft <= 1e-12 * f;
                lam = trial;
                f = ft;
                mu = (mu / 10.0).max(1e-12);
                accepted = true;
                converged = small || stalled;
                break;
            }
            mu *= 10.0;
        }
        if !accepted {
            converged = g.amax() <= STALL_TOL;
            break;
        }
        if converged {
            break;
        }
    }
    let n_off = (p * (p - 1) / 2) as f64;
    Ok((lam.iter().copied().collect(), (f / n_off).sqrt(), converged))
}
