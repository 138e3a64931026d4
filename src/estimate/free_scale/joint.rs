//! Step 3 of the free-scale fit: σ_t², σ_c² and β jointly from q and the anchors'
//! covariances, a grid for the basin then Levenberg–Marquardt (with an exact Hessian).

use nalgebra::DMatrix;

use super::tolerances::{GN_ITERS, GRAD_TOL, MAX_DAMP, MAX_ITER, SAME_BASIN, STALL_TOL, STEP_TOL};

/// Residuals of the joint fit at θ = (ln σ_t², ln σ_c², β_1..β_m) into `e`, and, when asked,
/// their Jacobian into `jac` (row-major, one row per residual); returns Σ e².
pub(super) fn residuals(
    th: &[f64],
    q: &[f64],
    pa: &DMatrix<f64>,
    e: &mut [f64],
    jac: Option<&mut [f64]>,
) -> f64 {
    let m = q.len();
    let n = m + 2;
    let (st, sc) = (th[0].exp(), th[1].exp());
    let k = st + sc;
    let rk = k.sqrt();
    let mut jac = jac;
    if let Some(j) = jac.as_deref_mut() {
        j.fill(0.0);
    }
    for kk in 0..m {
        let b = th[2 + kk];
        e[kk] = q[kk] - (st + b) / rk;
        if let Some(j) = jac.as_deref_mut() {
            let d_sc = (st + b) / (2.0 * k * rk);
            let d_st = -1.0 / rk + d_sc;
            j[kk * n] = d_st * st;
            j[kk * n + 1] = d_sc * sc;
            j[kk * n + 2 + kk] = -1.0 / rk;
        }
    }
    let mut row = m;
    for kk in 0..m {
        for l in kk + 1..m {
            let (bk, bl) = (th[2 + kk], th[2 + l]);
            e[row] = pa[(kk, l)] - st - bk * bl / sc;
            if let Some(j) = jac.as_deref_mut() {
                j[row * n] = -st;
                j[row * n + 1] = bk * bl / sc;
                j[row * n + 2 + kk] = -bl / sc;
                j[row * n + 2 + l] = -bk / sc;
            }
            row += 1;
        }
    }
    e.iter().map(|x| x * x).sum()
}

/// Solves (A + μ·diag(A) + μ·1e-12·I) x = b in place of `x` by Cholesky on a copy in `work`;
/// false when the damped matrix is not positive definite.
pub(super) fn damped_solve(
    a: &[f64],
    b: &[f64],
    mu: f64,
    n: usize,
    work: &mut [f64],
    x: &mut [f64],
) -> bool {
    work.copy_from_slice(a);
    for i in 0..n {
        work[i * n + i] += mu * (a[i * n + i] + 1e-12);
    }
    for j in 0..n {
        let mut d = work[j * n + j];
        for k in 0..j {
            d -= work[j * n + k] * work[j * n + k];
        }
        if d.is_nan() || d <= 0.0 {
            return false;
        }
        let d = d.sqrt();
        work[j * n + j] = d;
        for i in j + 1..n {
            let mut v = work[i * n + j];
            for k in 0..j {
                v -= work[i * n + k] * work[j * n + k];
            }
            work[i * n + j] = v / d;
        }
    }
    for i in 0..n {
        let mut v = b[i];
        for k in 0..i {
            v -= work[i * n + k] * x[k];
        }
        x[i] = v / work[i * n + i];
    }
    for i in (0..n).rev() {
        let mut v = x[i];
        for k in i + 1..n {
            v -= work[k * n + i] * x[k];
        }
        x[i] = v / work[i * n + i];
    }
    true
}

/// Grid on (σ_t², σ_c²) for the start of the joint fit.
pub(super) const GRID_T: usize = 16;
pub(super) const GRID_C: usize = 24;

/// The joint fit of step 3: θ̂, the minimised misfit, and convergence.
pub(super) fn fit_anchor_block(q: &[f64], pa: &DMatrix<f64>) -> (Vec<f64>, f64, bool) {
    let m = q.len();
    let vmax = (0..m).map(|k| pa[(k, k)]).fold(0.0f64, f64::max);
    // Anchor misfit with β from the q equations, on the grid.
    let mut grid = vec![f64::INFINITY; GRID_T * GRID_C];
    let st_at = |i: usize| vmax * (i as f64 + 0.5) / GRID_T as f64;
    let sc_at = |j: usize| vmax * 10f64.powf(-3.0 + 6.0 * j as f64 / (GRID_C - 1) as f64);
    let sc_axis: Vec<f64> = (0..GRID_C).map(sc_at).collect();
    let mut beta = vec![0.0; m];
    for i in 0..GRID_T {
        for (j, &sc) in sc_axis.iter().enumerate() {
            let st = st_at(i);
            let rk = (st + sc).sqrt();
            for k in 0..m {
                beta[k] = q[k] * rk - st;
            }
            let mut s = 0.0;
            for k in 0..m {
                for l in k + 1..m {
                    let e = pa[(k, l)] - st - beta[k] * beta[l] / sc;
                    s += e * e;
                }
            }
            grid[i * GRID_C + j] = s;
        }
    }
    // The grid's local minima (no lower one among the 8 neighbours), lowest first. Diagonal
    // neighbours count: a valley running across the grid's axes otherwise yields a string of
    // spurious minima that all polish to the same point.
    let mut minima: Vec<(f64, usize, usize)> = Vec::new();
    for i in 0..GRID_T {
        for j in 0..GRID_C {
            let v = grid[i * GRID_C + j];
            let is_min = (i.saturating_sub(1)..(i + 2).min(GRID_T)).all(|a| {
                (j.saturating_sub(1)..(j + 2).min(GRID_C)).all(|b| grid[a * GRID_C + b] >= v)
            });
            if is_min && v.is_finite() {
                minima.push((v, i, j));
            }
        }
    }
    minima.sort_by(|a, b| a.0.total_cmp(&b.0));

    minima.truncate(3);
    let mut best: Option<(Vec<f64>, f64, bool)> = None;
    for (_, i, j) in minima {
        let (st, sc) = (st_at(i), sc_axis[j]);
        let rk = (st + sc).sqrt();
        let mut th = vec![0.0; m + 2];
        th[0] = st.ln();
        th[1] = sc.ln();
        for k in 0..m {
            th[2 + k] = q[k] * rk - st;
        }
        let known = best.as_ref().filter(|b| b.2).map(|b| b.0.as_slice());
        let (th, f, ok) = levenberg_marquardt(th, q, pa, known);

        if best.as_ref().is_none_or(|b| f < b.1) {
            best = Some((th, f, ok));
        }
    }
    best.unwrap_or_else(|| (vec![f64::NAN; m + 2], f64::NAN, false))
}

/// Levenberg–Marquardt on the Gauss–Newton matrix (a Newton step with a finite-difference
/// Hessian converged in fewer steps but cost more per fit). `known` is the
/// minimum an earlier start found: a run that comes within [`SAME_BASIN`] of it stops and
/// reports an infinite misfit, since it can only end there.
pub(super) fn levenberg_marquardt(
    mut th: Vec<f64>,
    q: &[f64],
    pa: &DMatrix<f64>,
    known: Option<&[f64]>,
) -> (Vec<f64>, f64, bool) {
    let n = th.len();
    let m = q.len();
    let n_res = m + m * (m - 1) / 2;
    let amax = |v: &[f64]| v.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    let mut jac = vec![0.0; n_res * n];
    let mut e = vec![0.0; n_res];
    let mut et = vec![0.0; n_res];
    let (mut a, mut work) = (vec![0.0; n * n], vec![0.0; n * n]);
    let (mut g, mut step, mut trial) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut hess = vec![0.0; n * n];
    let mut f = residuals(&th, q, pa, &mut e, Some(&mut jac));
    let mut mu = 1e-3;
    for it in 0..MAX_ITER {
        if let Some(seen) = known
            && th.iter().zip(seen).all(|(a, b)| (a - b).abs() < SAME_BASIN)
        {
            // This start has reached the basin of an earlier start's minimum.
            return (th, f64::INFINITY, true);
        }
        // g = −Jᵀe and A = JᵀJ.
        for c in 0..n {
            g[c] = -(0..n_res).map(|r| jac[r * n + c] * e[r]).sum::<f64>();
            for c2 in 0..=c {
                let v: f64 = (0..n_res).map(|r| jac[r * n + c] * jac[r * n + c2]).sum();
                a[c * n + c2] = v;
                a[c2 * n + c] = v;
            }
        }
        // Stationary: the gradient is at rounding level of the residuals' scale.
        if amax(&g) <= GRAD_TOL * (1.0 + amax(&e)) || f == 0.0 {
            return (th, f, true);
        }
        // Past GN_ITERS the run is crawling along a curved, nearly flat valley (anchors with
        // nearly equal β sit near a non-identified ridge), where the Gauss–Newton model is
        // poor: try a Newton step on the exact Hessian (the fixed point stays exact; only the
        // rate depends on it).
        if it >= GN_ITERS {
            exact_hessian(&th, &e, &a, &mut hess);
            if damped_solve(&hess, &g, 0.0, n, &mut work, &mut step) {
                for i in 0..n {
                    trial[i] = th[i] + step[i];
                }
                let ft = residuals(&trial, q, pa, &mut et, None);
                if ft.is_finite() && ft <= f {
                    let small = amax(&step) <= STEP_TOL * (1.0 + amax(&th));
                    let stalled = f - ft <= 1e-12 * f;
                    th.copy_from_slice(&trial);
                    f = residuals(&th, q, pa, &mut e, Some(&mut jac));
                    if small || stalled {
                        return (th, f, true);
                    }
                    continue;
                }
            }
        }
        let mut accepted = false;
        for _ in 0..MAX_DAMP {
            if !damped_solve(&a, &g, mu, n, &mut work, &mut step) {
                mu *= 10.0;
                continue;
            }
            for i in 0..n {
                trial[i] = th[i] + step[i];
            }
            let ft = residuals(&trial, q, pa, &mut et, None);
            if ft.is_finite() && ft <= f {
                let small = amax(&step) <= STEP_TOL * (1.0 + amax(&th));
                let stalled = f - ft <= 1e-12 * f;
                th.copy_from_slice(&trial);
                f = residuals(&th, q, pa, &mut e, Some(&mut jac));
                mu = (mu / 10.0).max(1e-15);
                accepted = true;
                if small || stalled {
                    return (th, f, true);
                }
                break;
            }
            mu *= 10.0;
        }
        if !accepted {
            // No decrease at any damping: a minimum to rounding, if the gradient is small.
            let ok = amax(&g) <= STALL_TOL * (1.0 + f.sqrt());
            return (th, f, ok);
        }
    }
    // Out of iterations: a minimum all the same when the gradient is far below what moves ρ.
    residuals(&th, q, pa, &mut e, Some(&mut jac));
    let g_max = (0..n)
        .map(|c| (0..n_res).map(|r| jac[r * n + c] * e[r]).sum::<f64>().abs())
        .fold(0.0, f64::max);
    let ok = g_max <= STALL_TOL * (1.0 + f.sqrt());
    (th, f, ok)
}

/// Buffers for [`newton_hessian`].
#[cfg(test)]
pub(super) struct NewtonScratch {
    th: Vec<f64>,
    e: Vec<f64>,
    jac: Vec<f64>,
    gp: Vec<f64>,
    gm: Vec<f64>,
}

#[cfg(test)]
impl NewtonScratch {
    pub(super) fn new(n: usize, n_res: usize) -> Self {
        NewtonScratch {
            th: vec![0.0; n],
            e: vec![0.0; n_res],
            jac: vec![0.0; n_res * n],
            gp: vec![0.0; n],
            gm: vec![0.0; n],
        }
    }

    /// −Jᵀe at `th` into `gp` (`plus`) or `gm`.
    fn jte(&mut self, th: &[f64], q: &[f64], pa: &DMatrix<f64>, plus: bool) {
        let n = th.len();
        let n_res = self.e.len();
        residuals(th, q, pa, &mut self.e, Some(&mut self.jac));
        let out = if plus { &mut self.gp } else { &mut self.gm };
        for (c, o) in out.iter_mut().enumerate().take(n) {
            *o = -(0..n_res)
                .map(|r| self.jac[r * n + c] * self.e[r])
                .sum::<f64>();
        }
    }
}

/// H = ∂(Jᵀe)/∂θ (half the Hessian of Σe²) by central differences, symmetrised: the test
/// oracle of [`exact_hessian`].
#[cfg(test)]
pub(super) fn newton_hessian(
    th: &[f64],
    q: &[f64],
    pa: &DMatrix<f64>,
    hess: &mut [f64],
    s: &mut NewtonScratch,
) {
    let n = th.len();
    let mut t = std::mem::take(&mut s.th);
    for c in 0..n {
        let h = 1e-6 * (1.0 + th[c].abs());
        t.copy_from_slice(th);
        t[c] = th[c] + h;
        s.jte(&t, q, pa, true);
        t[c] = th[c] - h;
        s.jte(&t, q, pa, false);
        for r in 0..n {
            // gp, gm hold −Jᵀe, so the derivative of Jᵀe is (gm − gp)/2h.
            hess[r * n + c] = (s.gm[r] - s.gp[r]) / (2.0 * h);
        }
    }
    s.th = t;
    for r in 0..n {
        for c in 0..r {
            let v = 0.5 * (hess[r * n + c] + hess[c * n + r]);
            hess[r * n + c] = v;
            hess[c * n + r] = v;
        }
    }
}

/// H = JᵀJ + Σ_r e_r ∇²e_r, half the Hessian of Σe² at θ = (ln σ_t², ln σ_c², β), from the
/// Gauss–Newton matrix `jtj` (JᵀJ at θ) and the residuals `e` of [`residuals`] at θ. The second
/// derivatives are analytic: with s_t = e^{θ_0}, s_c = e^{θ_1}, K = s_t + s_c and u_k = s_t + β_k,
/// e_k = q_k − u_k K^{−1/2} and e_kl = P_kl − s_t − β_k β_l / s_c.
pub(super) fn exact_hessian(th: &[f64], e: &[f64], jtj: &[f64], hess: &mut [f64]) {
    let n = th.len();
    let m = n - 2;
    let (st, sc) = (th[0].exp(), th[1].exp());
    let k = st + sc;
    let (k32, k52) = (k.powf(-1.5), k.powf(-2.5));
    hess.copy_from_slice(jtj);
    let mut add = |r: usize, c: usize, v: f64| {
        hess[r * n + c] += v;
        if r != c {
            hess[c * n + r] += v;
        }
    };
    for kk in 0..m {
        let u = st + th[2 + kk];
        // f = u K^{-1/2}: its derivatives in (s_t, s_c, β_k), then in the log scales.
        let f_t = k.sqrt().recip() - 0.5 * u * k32;
        let f_tt = -k32 + 0.75 * u * k52;
        let f_tc = -0.5 * k32 + 0.75 * u * k52;
        let f_cc = 0.75 * u * k52;
        let f_tb = -0.5 * k32;
        let f_cb = -0.5 * k32;
        let f_c = -0.5 * u * k32;
        let w = -e[kk]; // e_k = q_k − f
        add(0, 0, w * (st * st * f_tt + st * f_t));
        add(0, 1, w * st * sc * f_tc);
        add(1, 1, w * (sc * sc * f_cc + sc * f_c));
        add(0, 2 + kk, w * st * f_tb);
        add(1, 2 + kk, w * sc * f_cb);
    }
    let mut row = m;
    for kk in 0..m {
        for l in kk + 1..m {
            let (bk, bl) = (th[2 + kk], th[2 + l]);
            // g = s_t + β_k β_l e^{−θ_1}; e_kl = P_kl − g.
            let w = -e[row];
            add(0, 0, w * st);
            add(1, 1, w * bk * bl / sc);
            add(1, 2 + kk, -w * bl / sc);
            add(1, 2 + l, -w * bk / sc);
            add(2 + kk, 2 + l, w / sc);
            row += 1;
        }
    }
}
