//! Full-information maximum likelihood for the same single-common-factor model (Section 6's
//! comparison): unit loadings of t on every variable and of c on the judges, free loadings
//! of c on the anchors, t ⟂ c, free residual variances.
//!
//! Parameters θ = (σ_t², σ_c², β_1..β_m, ψ_1..ψ_p, ω_1..ω_m) with β_k = Cov(A_k, c) and
//! ψ_j, ω_k the judge and anchor residual variances. The implied covariance is
//! Σ_JJ = σ_t² + σ_c² (+ ψ_j on the diagonal), Σ_JA = σ_t² + β_k,
//! Σ_AA = σ_t² + β_k β_l / σ_c² (+ ω_k on the diagonal). The fit minimises
//! F = log|Σ| + tr(S Σ⁻¹) − log|S| − q by Fisher scoring (a Newton method on the expected
//! Hessian H_ij = tr(Σ⁻¹ ∂_iΣ Σ⁻¹ ∂_jΣ)) with the analytic gradient
//! g_i = tr(Σ⁻¹(Σ − S)Σ⁻¹ ∂_iΣ) and step halving that keeps Σ positive definite. It starts
//! from the closed form, a neutral start and a small grid, and keeps the lowest finite
//! optimum (an admissible one among ties). The likelihood need not have a maximum: it can keep
//! rising as σ_t² → ∓∞ with σ_c², β_k → ±∞ (every ρ → ±1); a fit that runs off
//! ([`RUNAWAY`]) or still improves out there is flagged `no_ml_solution`, one that stops short
//! `not_converged`, and a variance at or below zero `heywood_variance` (values reported, never
//! clipped); each leaves every ρ̂ undefined. Standard errors come from (2/(N − 1)) H⁻¹, and
//! ρ's by the delta method.

use nalgebra::{DMatrix, DVector};

pub mod model;
mod starts;

use model::{Layout, discrepancy, score};
pub use model::{MlFit, MlSe};
pub use starts::{FULL_GRID_COLUMNS, starts};
use starts::{closed_start, more_starts};

use super::registry::{Entry, Fitter, MethodValue, Shown};
use super::{Context, Detail, EstimateError, Flag, FlagCode};
use super::shape::{Estimate, PairEstimate, Parts};
use crate::moments::{JudgePairs, Moments};
use crate::panel::Panel;

/// The ML fit's registry entry: `estimate --method ml`, never bootstrapped (too slow to refit
/// B times).
pub const ENTRY: Entry = Entry {
    key: "ml",
    title: |_, _| "Maximum likelihood".into(),
    label: |_, _| "maximum likelihood".into(),
    short: "ML",
    basis: "full-information ML of the same model; K = implied σ_t² + σ_c²",
    applicable: |_, _| Ok(()),
    fit: Fitter::Panel(fit_entry),
    bootstrapped: false,
    shown: Shown {
        method: Some(MethodValue {
            name: "ml",
            help: "Full-information maximum likelihood (with the closed form in JSON)",
        }),
        explorer: false,
        battery: false,
    },
};

/// [`fit`] on a panel, with Assumption 1's common-scale flags.
fn fit_entry(
    panel: &Panel,
    s: &DMatrix<f64>,
    _: &Context,
    _: bool,
) -> Result<(Estimate, Detail), EstimateError> {
    let fit = fit(s, panel.p(), panel.n)?;
    let mut estimate = fit.estimate.clone();
    super::scale::common_scale(&mut estimate, panel);
    Ok((estimate, Detail::Ml(Box::new(fit))))
}

/// Largest number of scoring steps.
pub const MAX_ITER: usize = 200;
/// Most judge + anchor columns ML accepts. Each scoring step forms the expected information,
/// (p + 2m + 2)² traces of q × q products, so a fit costs about q⁴ (see
/// [`crate::cost::ml_seconds`]): its bound at this ceiling is about 27 s (two starts above 40
/// columns, each up to 13 s; the real 120-judge HANNA-LLM panel took 38 CPU s under load), 300
/// took two minutes. Above this the closed form (Theorem 1) still answers at once.
pub const MAX_VARIABLES: usize = 128;
/// Convergence: the largest |gradient| entry below this.
pub const GRAD_TOL: f64 = 1e-9;

/// Where Fisher scoring stopped.
#[derive(Clone)]
struct Optimum {
    th: DVector<f64>,
    f: f64,
    converged: bool,
    iterations: usize,
    /// The expected Hessian at θ.
    h: DMatrix<f64>,
    /// The largest |gradient| entry at θ.
    grad: f64,
}

/// Fisher scoring from `th`.
fn optimise(mut th: DVector<f64>, l: Layout, s: &DMatrix<f64>, logdet_s: f64) -> Option<Optimum> {
    let (mut f, mut inv) = discrepancy(&th, l, s, logdet_s)?;
    for it in 0..MAX_ITER {
        let (g, h) = score(&th, l, s, &inv);
        let grad = g.amax();
        let done = |th, f, converged, h| Optimum {
            th,
            f,
            converged,
            iterations: it,
            h,
            grad,
        };
        if g.amax() < GRAD_TOL {
            return Some(done(th, f, true, h));
        }
        let Some(step) = h.clone().lu().solve(&g) else {
            return Some(done(th, f, false, h));
        };
        let mut t = 1.0;
        loop {
            let cand = &th - &step * t;
            match discrepancy(&cand, l, s, logdet_s) {
                Some((fc, ic)) if fc <= f + 1e-14 * f.abs().max(1.0) => {
                    th = cand;
                    f = fc;
                    inv = ic;
                    break;
                }
                _ => {}
            }
            t /= 2.0;
            if t < 1e-10 {
                let converged = g.amax() < 1e-6;
                return Some(done(th, f, converged, h));
            }
        }
    }
    let (g, h) = score(&th, l, s, &inv);
    Some(Optimum {
        th,
        f,
        converged: false,
        iterations: MAX_ITER,
        h,
        grad: g.amax(),
    })
}

/// A starting point for the optimiser, in the model's own parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct Start {
    pub sigma_t2: f64,
    pub sigma_c2: f64,
    pub beta: Vec<f64>,
    pub psi: Vec<f64>,
    pub omega: Vec<f64>,
}

/// As [`fit`], but starting from `start` (then the usual fallbacks).
///
/// # Errors
/// As [`fit`].
pub fn fit_from(
    s: &DMatrix<f64>,
    p: usize,
    n: usize,
    start: &Start,
) -> Result<MlFit, EstimateError> {
    let l = Layout {
        p,
        m: s.nrows() - p,
    };
    let mut th = DVector::zeros(l.n_params());
    th[0] = start.sigma_t2;
    th[1] = start.sigma_c2;
    for k in 0..l.m {
        th[Layout::beta(k)] = start.beta[k];
        th[l.omega(k)] = start.omega[k];
    }
    for j in 0..p {
        th[l.psi(j)] = start.psi[j];
    }
    fit_starts(s, l, n, vec![(th, "given")])
}

/// Fits the model by ML to a sample covariance of N items (p judges first).
///
/// # Errors
/// When S is not positive definite or no start gives a positive-definite Σ.
pub fn fit(s: &DMatrix<f64>, p: usize, n: usize) -> Result<MlFit, EstimateError> {
    let l = Layout {
        p,
        m: s.nrows() - p,
    };
    let starts = closed_start(s, l)
        .map(|t| (t, "closed form"))
        .into_iter()
        .collect();
    fit_starts(s, l, n, starts)
}

fn fit_starts(
    s: &DMatrix<f64>,
    l: Layout,
    n: usize,
    first: Vec<(DVector<f64>, &'static str)>,
) -> Result<MlFit, EstimateError> {
    fittable(s, l, n)?;
    // Fitted at unit scale (every entry of θ is a variance or covariance, degree 1 in S), so
    // the starts, the step rules and the convergence test do not depend on the scores' units.
    let unit = crate::moments::unit_scale(s);
    let s = &(s / unit);
    let first: Vec<_> = first.into_iter().map(|(th, label)| (th / unit, label)).collect();
    let chol_s = s
        .clone()
        .cholesky()
        .ok_or(EstimateError::MlNotPositiveDefinite)?;
    let logdet_s: f64 = chol_s.l().diagonal().iter().map(|d| 2.0 * d.ln()).sum();
    let mut starts = first;
    if let Some(th) = closed_start(s, l).filter(|_| !starts.iter().any(|x| x.1 == "closed form")) {
        starts.push((th, "closed form"));
    }
    starts.extend(more_starts(s, l));
    let runs: Vec<(Optimum, &'static str)> = starts
        .into_iter()
        .filter_map(|(th0, label)| optimise(th0, l, s, logdet_s).map(|o| (o, label)))
        .collect();
    let (mut o, start, no_solution) = best_run(&runs, l, s, logdet_s)?;
    if no_solution {
        o.converged = false;
    }
    let mut fit = assemble(&o, l, n, start, unit);
    // Back to the scores' units for the flags' values; the gradient stays relative, as the
    // convergence test read it.
    o.th *= unit;
    flag_fit(&mut fit, &o, l, no_solution);
    Ok(fit)
}

/// Refuses a panel the likelihood cannot be maximised on: too few columns or items.
fn fittable(s: &DMatrix<f64>, l: Layout, n: usize) -> Result<(), EstimateError> {
    if l.p < 2 || l.m < 2 {
        return Err(EstimateError::MlTooSmall);
    }
    if l.p + l.m > MAX_VARIABLES {
        return Err(EstimateError::MlTooManyColumns(l.p + l.m));
    }
    // N items span at most N − 1 dimensions: S is singular whatever rounding lets Cholesky
    // through (6 items of 8 columns used to "fit", without converging).
    if n <= s.nrows() {
        return Err(EstimateError::MlTooFewItems {
            items: n,
            columns: s.nrows(),
        });
    }
    Ok(())
}

/// The maximum among the runs, its start's label, and whether there is no maximum at all.
fn best_run(
    runs: &[(Optimum, &'static str)],
    l: Layout,
    s: &DMatrix<f64>,
    logdet_s: f64,
) -> Result<(Optimum, &'static str, bool), EstimateError> {
    let bound = RUNAWAY * s.trace();
    let runaway = |o: &Optimum| o.th.iter().any(|x| x.is_nan() || x.abs() > bound);
    let lowest = |it: &mut dyn Iterator<Item = &(Optimum, &'static str)>| {
        it.min_by(|a, b| a.0.f.total_cmp(&b.0.f))
            .map(|x| (x.0.clone(), x.1))
    };
    let finite = lowest(&mut runs.iter().filter(|r| !runaway(&r.0)));
    let off = lowest(&mut runs.iter().filter(|r| runaway(&r.0)));
    // Among finite optima that tie with the lowest, an admissible one is preferred.
    let finite = finite.map(|(best, label)| {
        runs.iter()
            .filter(|r| !runaway(&r.0) && r.0.converged && r.0.f <= best.f + F_TIE)
            .find(|r| admissible(&r.0.th, l))
            .map_or((best, label), |r| (r.0.clone(), r.1))
    });
    // No maximum: only runaway ends, a runaway end below every finite one, or the likelihood
    // still rising along the one direction where the parameters can leave (σ_t² → ∓∞ with
    // σ_c², β_k → ±∞, which keeps Σ finite).
    let no_solution = match (&finite, &off) {
        (None, None) => return Err(EstimateError::MlNoStart),
        (None, Some(_)) => true,
        (Some((o, _)), off) => {
            off.as_ref().is_some_and(|(r, _)| r.f < o.f - F_TIE)
                || rises_at_infinity(&o.th, l, s, logdet_s, o.f)
        }
    };
    let picked = if no_solution { off.or(finite) } else { finite };
    let (o, start) = picked.ok_or(EstimateError::MlNoStart)?;
    Ok((o, start, no_solution))
}

/// The flags of a fit at optimum `o`: no solution, not converged, Heywood variances, and weak
/// identification of ρ where σ̂_c² is within a few standard errors of 0.
fn flag_fit(fit: &mut MlFit, o: &Optimum, l: Layout, no_solution: bool) {
    let est = &mut fit.estimate;
    if no_solution {
        // Range flags would describe values that are only where the optimiser gave up.
        est.flags.clear();
        est.undefine(Flag::new(FlagCode::NoMlSolution, o.f));
    } else if !o.converged {
        est.undefine(Flag::new(FlagCode::NotConverged, o.grad));
    }
    if !no_solution {
        if o.th[0] <= 0.0 {
            est.undefine(Flag::new(FlagCode::HeywoodVariance, o.th[0]));
        }
        for j in 0..l.p {
            if o.th[l.psi(j)] <= 0.0 {
                est.undefine(Flag {
                    pair: Some((j, j)),
                    ..Flag::new(FlagCode::HeywoodVariance, o.th[l.psi(j)])
                });
            }
        }
        for k in 0..l.m {
            if o.th[l.omega(k)] <= 0.0 {
                est.undefine(Flag {
                    anchor: Some(k),
                    ..Flag::new(FlagCode::HeywoodVariance, o.th[l.omega(k)])
                });
            }
        }
    }
    // ρ = β/(σ_a σ_c) is weakly identified when σ̂_c² is within a few SEs of 0: the Wald
    // interval then undercovers (measured in the recovery harness), so the fit is flagged.
    let ratio = fit.estimate.sigma_c2 / fit.se.sigma_c2;
    if fit.estimate.flags.is_empty() && (ratio.is_nan() || ratio < crate::stats::WEAK_ID_T) {
        fit.estimate
            .flags
            .push(Flag::new(FlagCode::WeakIdentification, ratio));
    }
}

/// A fit whose parameters pass this multiple of the data's total variance (trace S) has run
/// off: under the model σ_t², σ_c², |β_k| and the residual variances are at most the largest
/// variance, so no finite optimum lies out there.
pub const RUNAWAY: f64 = 100.0;
/// Discrepancies closer than this are ties (F is −2 log-likelihood ratio per N − 1 items).
const F_TIE: f64 = 1e-9;

/// Every variance of θ (σ_t², σ_c², ψ_j, ω_k) positive.
fn admissible(th: &DVector<f64>, l: Layout) -> bool {
    th[0] > 0.0
        && th[1] > 0.0
        && (0..l.p).all(|j| th[l.psi(j)] > 0.0)
        && (0..l.m).all(|k| th[l.omega(k)] > 0.0)
}

/// Whether F falls below `f` far out along σ_t² → ∓s, σ_c² → ±s, β_k → ±s (ψ, ω held): the
/// only way the parameters can run off with Σ finite, since Σ_JJ holds σ_t² + σ_c² and
/// Σ_JA holds σ_t² + β_k. Checked up to 10⁶ times the total variance.
fn rises_at_infinity(
    th: &DVector<f64>,
    l: Layout,
    s: &DMatrix<f64>,
    logdet_s: f64,
    f: f64,
) -> bool {
    let tv = s.trace();
    [1.0, -1.0].iter().any(|&sign| {
        [10.0, 1e3, 1e6].iter().any(|&far| {
            let step = sign * far * tv;
            let mut t = th.clone();
            t[0] -= step;
            t[1] += step;
            for k in 0..l.m {
                t[Layout::beta(k)] += step;
            }
            discrepancy(&t, l, s, logdet_s).is_some_and(|(ft, _)| ft < f - F_TIE)
        })
    })
}

/// The fit at optimum `o` (found at unit scale), reported in the scores' units: θ and its
/// standard errors times `unit`, ρ and its standard error as they are.
fn assemble(o: &Optimum, l: Layout, n: usize, start: &'static str, unit: f64) -> MlFit {
    let (th, h) = (&o.th, &o.h);
    let (f, converged, iterations) = (o.f, o.converged, o.iterations);
    let (st, sc) = (th[0], th[1]);
    // Standard errors only mean something at a converged optimum: elsewhere they are
    // undefined (NaN, JSON null), never a claim of perfect precision.
    let cov = h
        .clone()
        .try_inverse()
        .filter(|_| converged)
        .map(|hi| hi * (2.0 / (n as f64 - 1.0).max(1.0)));
    // A non-positive variance from the inverted information is no precision at all: NaN.
    let root = |v: f64| if v > 0.0 { v.sqrt() } else { f64::NAN };
    let var = |i: usize| cov.as_ref().map_or(f64::NAN, |c| root(c[(i, i)]));
    let mut beta = Vec::with_capacity(l.m);
    let mut sigma_a2s = Vec::with_capacity(l.m);
    let mut se_rho = Vec::with_capacity(l.m);
    for k in 0..l.m {
        let (b, w) = (th[Layout::beta(k)], th[l.omega(k)]);
        let sigma_a2 = b * b / sc + w;
        // ρ = β / sqrt(β² + ω σ_c²) = β/(σ_a σ_c); its gradient in (σ_c², β, ω).
        let d = b * b + w * sc;
        let grad = [
            (1, -b * w / (2.0 * d.powf(1.5))),
            (Layout::beta(k), w * sc / d.powf(1.5)),
            (l.omega(k), -b * sc / (2.0 * d.powf(1.5))),
        ];
        let se = cov.as_ref().map_or(f64::NAN, |c| {
            let mut v = 0.0;
            for (i, gi) in grad {
                for (j, gj) in grad {
                    v += gi * gj * c[(i, j)];
                }
            }
            root(v)
        });
        se_rho.push(se);
        beta.push(b * unit);
        sigma_a2s.push(sigma_a2 * unit);
    }
    let pairs: Vec<PairEstimate> = (0..l.m)
        .flat_map(|k| (k + 1..l.m).map(move |kk| (k, kk)))
        .map(|(k, kk)| PairEstimate {
            anchors: (k, kk),
            sigma_t2: st * unit,
            denominator: (sc - th[Layout::beta(k)]) * (sc - th[Layout::beta(kk)]) / sc * unit,
        })
        .collect();
    let denominator = pairs.iter().map(|p| p.denominator).sum::<f64>() / pairs.len().max(1) as f64;
    MlFit {
        estimate: Estimate::from_parts(Parts {
            sigma_t2: st * unit,
            sigma_c2: sc * unit,
            k: (st + sc) * unit,
            denominator,
            pairs,
            beta,
            sigma_a2: sigma_a2s,
            clean: None,
            flags: Vec::new(),
        }),
        converged,
        iterations,
        discrepancy: f,
        se: MlSe {
            sigma_t2: var(0) * unit,
            sigma_c2: var(1) * unit,
            beta: (0..l.m).map(|k| var(Layout::beta(k)) * unit).collect(),
            rho: se_rho,
        },
        psi: (0..l.p).map(|j| th[l.psi(j)] * unit).collect(),
        omega: (0..l.m).map(|k| th[l.omega(k)] * unit).collect(),
        start,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Params;

    #[test]
    fn analytic_gradient_matches_finite_differences() {
        let pm = Params::default();
        let s = pm.population_cov() * 1.1 + DMatrix::identity(8, 8) * 0.05;
        let l = Layout { p: 6, m: 2 };
        let th = closed_start(&pm.population_cov(), l).unwrap();
        let logdet_s: f64 = s
            .clone()
            .cholesky()
            .unwrap()
            .l()
            .diagonal()
            .iter()
            .map(|d| 2.0 * d.ln())
            .sum();
        let (_, inv) = discrepancy(&th, l, &s, logdet_s).unwrap();
        let (g, _) = score(&th, l, &s, &inv);
        for i in 0..l.n_params() {
            let h = 1e-6;
            let mut up = th.clone();
            up[i] += h;
            let mut dn = th.clone();
            dn[i] -= h;
            let fd = (discrepancy(&up, l, &s, logdet_s).unwrap().0
                - discrepancy(&dn, l, &s, logdet_s).unwrap().0)
                / (2.0 * h);
            assert!(
                (fd - g[i]).abs() < 1e-6,
                "param {i}: fd {fd} vs analytic {}",
                g[i]
            );
        }
    }
}
