//! The generator of docs/method.md §4: draws panels from [`Params`] with every violation knob, one
//! random stream per replicate derived from `(seed, replicate)`, so results are bit-identical
//! at any thread count.

use rand::Rng;
use rand_distr::{Distribution, StandardNormal, StudentT};
use rayon::prelude::*;
use statrs::distribution::{ContinuousCDF, Normal};

use crate::data::limits::MAX_CELLS;
use crate::model::{Dist, Params};
use crate::panel::Panel;

pub use crate::rng::{Purpose, replicate_rng, stream_rng};

/// A validated design, expanded once so that drawing many replicates does no set-up work.
#[derive(Debug, Clone)]
pub struct Design {
    params: Params,
    sd_t: f64,
    sd_c: f64,
    judge_sd: Vec<f64>,
    /// Judge scales a_j (docs/method.md §7); ones by default, and `1.0 * x` is exact, so the default
    /// draws are bit-identical to a generator without scales.
    judge_scale: Vec<f64>,
    g: Vec<f64>,
    h: Vec<f64>,
    anchor_c: Vec<f64>,
    anchor_sd_u: Vec<f64>,
    family: Option<(Vec<usize>, usize)>,
    second_factor: bool,
    /// Per column: absolute cut points on the column's own scale.
    cuts: Vec<Option<Vec<f64>>>,
}

impl Design {
    /// Expands `params` for drawing.
    ///
    /// # Errors
    /// The validation message when `params` break a model constraint.
    pub fn new(params: &Params) -> Result<Design, SimError> {
        params
            .validate()
            .map_err(|e| SimError::Invalid(e.to_string()))?;
        let (p, m) = (params.p, params.m());
        let beta = params.beta();
        let sa = params.sigma_a_full();
        let (g, h) = (params.g(), params.h());
        let second_factor = g.iter().chain(&h).any(|x| *x != 0.0);
        let pop = params.population_cov();
        if pop.iter().any(|x| !x.is_finite()) {
            return Err(SimError::Overflow);
        }
        let std_normal = Normal::standard();
        let mut cuts = vec![None; p + m];
        for (col, d) in &params.violations.ordinal {
            let sd = pop[(*col, *col)].sqrt();
            cuts[*col] = Some(
                d.cum_probs
                    .iter()
                    .map(|pr| sd * std_normal.inverse_cdf(*pr))
                    .collect(),
            );
        }
        Ok(Design {
            sd_t: params.sigma_t2.sqrt(),
            sd_c: params.sigma_c2.sqrt(),
            judge_sd: params.judge_var_full().iter().map(|v| v.sqrt()).collect(),
            judge_scale: params.judge_scale_full(),
            anchor_c: beta.iter().map(|b| b / params.sigma_c2).collect(),
            anchor_sd_u: beta
                .iter()
                .zip(&sa)
                .map(|(b, s)| (s * s - b * b / params.sigma_c2).sqrt())
                .collect(),
            family: params
                .family_index()
                .filter(|_| params.violations.sigma_f > 0.0),
            g,
            h,
            second_factor,
            cuts,
            params: params.clone(),
        })
    }

    /// The parameters this design was built from.
    #[must_use]
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Draws `n` items into `out` (column-major, judges then anchors).
    ///
    /// Draw order, fixed for reproducibility: t, c, the second factor d (if any loading is
    /// non-zero), the shared residual r (if s > 0), one residual per family (if σ_f > 0),
    /// then each judge's residual column, then each anchor's.
    pub fn draw_into<R: Rng + ?Sized>(&self, n: usize, rng: &mut R, out: &mut Vec<f64>) {
        let pm = &self.params;
        let v = &pm.violations;
        let (p, m) = (pm.p, pm.m());
        let dist = v.dist;
        let mut t = vec![0.0; n];
        let mut c = vec![0.0; n];
        fill_std(dist, rng, &mut t);
        fill_std(dist, rng, &mut c);
        let d = self.second_factor.then(|| filled(dist, rng, n));
        let r = (v.shared_residual > 0.0).then(|| filled(dist, rng, n));
        let fam: Vec<Vec<f64>> = self
            .family
            .as_ref()
            .map(|(_, k)| (0..*k).map(|_| filled(dist, rng, n)).collect())
            .unwrap_or_default();
        // Heteroscedastic residual scale, docs/method.md §4: sqrt((1 + γ z_t²)/(1 + γ)).
        let hetero: Option<Vec<f64>> = (v.hetero > 0.0).then(|| {
            let gam = v.hetero;
            t.iter()
                .map(|z| ((1.0 + gam * z * z) / (1.0 + gam)).sqrt())
                .collect()
        });
        for x in &mut t {
            *x *= self.sd_t;
        }
        for x in &mut c {
            *x *= self.sd_c;
        }
        out.clear();
        out.resize(n * (p + m), 0.0);
        for j in 0..p {
            let col = &mut out[j * n..(j + 1) * n];
            fill_std(dist, rng, col);
            scale_residual(col, self.judge_sd[j], hetero.as_deref());
            let aj = self.judge_scale[j];
            for i in 0..n {
                col[i] += aj * (t[i] + c[i]);
            }
            if let Some(d) = &d {
                axpy(col, self.g[j], d);
            }
            if let Some(r) = &r {
                axpy(col, v.shared_residual, r);
            }
            if let Some((idx, _)) = &self.family {
                axpy(col, v.sigma_f, &fam[idx[j]]);
            }
        }
        for k in 0..m {
            let col = &mut out[(p + k) * n..(p + k + 1) * n];
            fill_std(dist, rng, col);
            scale_residual(col, self.anchor_sd_u[k], hetero.as_deref());
            let lc = self.anchor_c[k];
            for i in 0..n {
                col[i] += t[i] + lc * c[i];
            }
            if let Some(d) = &d {
                axpy(col, self.h[k], d);
            }
        }
        for (ci, cuts) in self.cuts.iter().enumerate() {
            if let Some(cuts) = cuts {
                for x in &mut out[ci * n..(ci + 1) * n] {
                    *x = 1.0 + cuts.iter().filter(|cut| **cut < *x).count() as f64;
                }
            }
        }
    }

    /// One panel of `n` items from `rng`, named `J1..Jp, A1..Am`, with family labels.
    pub fn panel<R: Rng + ?Sized>(&self, n: usize, rng: &mut R) -> Panel {
        let mut data = Vec::new();
        self.draw_into(n, rng, &mut data);
        let names = self.params.column_names();
        let (j, a) = names.split_at(self.params.p);
        let mut panel = Panel::new(n, data, j.to_vec(), a.to_vec());
        panel.families = self.params.family_labels();
        panel
    }
}

/// Why a design cannot be drawn; its message is the one the command line shows.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SimError {
    /// The parameters break a model constraint (the model's own message).
    #[error("{0}")]
    Invalid(String),
    #[error("the design's covariance overflows (a variance, SD or loading is too large)")]
    Overflow,
    #[error("N = {n} items × {q} columns is over the limit of {max} cells ({mem}) that every panel has, read or simulated: use N ≤ {most}", max = MAX_CELLS, mem = crate::data::limits::MAX_CELLS_MEMORY, most = MAX_CELLS / (*q).max(1))]
    TooManyCells { n: usize, q: usize },
    #[error("cannot start {0} worker threads: {1}")]
    Workers(usize, String),
    #[error(
        "the design drew a non-finite value (column {column}, item {item}): a knob is too extreme for floating point"
    )]
    NonFinite { column: String, item: usize },
}

impl From<SimError> for String {
    fn from(e: SimError) -> String {
        e.to_string()
    }
}

/// The panel of replicate 0 for `seed`: what `rhoscope simulate` writes.
///
/// # Errors
/// The validation message when `params` break a model constraint, when `n` × q passes
/// [`MAX_CELLS`] (checked before anything is drawn), or when a draw is not finite.
pub fn simulate(params: &Params, n: usize, seed: u64) -> Result<Panel, SimError> {
    let design = Design::new(params)?;
    let q = params.q();
    if n.saturating_mul(q) > MAX_CELLS {
        return Err(SimError::TooManyCells { n, q });
    }
    let panel = design.panel(n, &mut replicate_rng(seed, 0));
    if let Some(i) = panel.data.iter().position(|x| !x.is_finite()) {
        return Err(SimError::NonFinite {
            column: panel.names()[i / n.max(1)].clone(),
            item: i % n.max(1) + 1,
        });
    }
    Ok(panel)
}

/// How many panels of `n` × `q` cells may be drawn at once: as many as fit in
/// [`MAX_CELLS`] together, so a study holds no more numbers than the largest panel rhoscope
/// reads (docs/file-formats.md "Limits"), whatever the thread count.
///
/// # Errors
/// [`SimError::TooManyCells`] when one panel alone is over the limit.
pub fn concurrent_panels(n: usize, q: usize) -> Result<usize, SimError> {
    let cells = n.saturating_mul(q);
    if cells > MAX_CELLS {
        return Err(SimError::TooManyCells { n, q });
    }
    Ok((MAX_CELLS / cells.max(1)).max(1))
}

/// Runs `work`, which draws panels of up to `n` × `q` cells on rayon's workers, on at most
/// [`concurrent_panels`] workers (a pool of its own when the current one is larger); results
/// do not depend on the thread count, so only the time changes.
///
/// # Errors
/// [`SimError::TooManyCells`], before anything is drawn; [`SimError::Workers`] when the OS
/// will not start the smaller pool.
pub fn within_cells<T: Send>(
    n: usize,
    q: usize,
    work: impl FnOnce() -> T + Send,
) -> Result<T, SimError> {
    let workers = concurrent_panels(n, q)?;
    if rayon::current_num_threads() <= workers {
        return Ok(work());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()
        .map_err(|e| SimError::Workers(workers, e.to_string()))?;
    Ok(pool.install(work))
}

/// Runs `f` on replicates `0..reps` in parallel (rayon); replicate r's data comes from
/// `replicate_rng(seed, r)`, and the results are returned in replicate order, so the output
/// is identical at any thread count.
pub fn replicates<T, F>(design: &Design, n: usize, seed: u64, reps: u64, f: F) -> Vec<T>
where
    T: Send,
    F: Fn(u64, &[f64]) -> T + Sync,
{
    (0..reps)
        .into_par_iter()
        .map_init(Vec::new, |buf, r| {
            design.draw_into(n, &mut replicate_rng(seed, r), buf);
            f(r, buf)
        })
        .collect()
}

fn filled<R: Rng + ?Sized>(dist: Dist, rng: &mut R, n: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    fill_std(dist, rng, &mut v);
    v
}

/// Fills `buf` with standardised (mean 0, variance 1) draws from `dist`.
fn fill_std<R: Rng + ?Sized>(dist: Dist, rng: &mut R, buf: &mut [f64]) {
    match dist {
        Dist::Gaussian => {
            for x in buf {
                *x = StandardNormal.sample(rng);
            }
        }
        Dist::Lognormal { sigma } => {
            // exp(σZ) has mean e^{σ²/2} and variance (e^{σ²} − 1)e^{σ²}.
            let mean = (sigma * sigma / 2.0).exp();
            let sd = ((sigma * sigma).exp_m1() * (sigma * sigma).exp()).sqrt();
            for x in buf {
                let z: f64 = StandardNormal.sample(rng);
                *x = ((sigma * z).exp() - mean) / sd;
            }
        }
        Dist::StudentT4 => {
            // Var(t_4) = 4/(4 − 2) = 2.
            let t4 = StudentT::new(4.0).expect("4 degrees of freedom is valid");
            for x in buf {
                *x = t4.sample(rng) / std::f64::consts::SQRT_2;
            }
        }
    }
}

fn scale_residual(col: &mut [f64], sd: f64, hetero: Option<&[f64]>) {
    match hetero {
        Some(hs) => {
            for (x, h) in col.iter_mut().zip(hs) {
                *x *= sd * h;
            }
        }
        None => {
            for x in col.iter_mut() {
                *x *= sd;
            }
        }
    }
}

fn axpy(y: &mut [f64], a: f64, x: &[f64]) {
    for (yi, xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Discretise;

    #[test]
    fn same_seed_same_panel_different_replicate_different_panel() {
        let d = Design::new(&Params::default()).unwrap();
        let a = d.panel(50, &mut replicate_rng(7, 0));
        let b = d.panel(50, &mut replicate_rng(7, 0));
        let c = d.panel(50, &mut replicate_rng(7, 1));
        assert_eq!(a, b);
        assert_ne!(a.data, c.data);
    }

    #[test]
    fn ordinal_columns_take_levels_one_to_l() {
        let mut pm = Params::default();
        pm.violations.ordinal = vec![(0, Discretise::equal_probability(5))];
        let panel = simulate(&pm, 2000, 3).unwrap();
        let levels: Vec<f64> = {
            let mut v = panel.col(0).to_vec();
            v.sort_by(f64::total_cmp);
            v.dedup();
            v
        };
        assert_eq!(levels, vec![1.0, 2.0, 3.0, 4.0, 5.0]);
        // Equal-probability cuts: each level holds about 1/5 of 2000 items; binomial SD ≈ 17.9,
        // so 4 SD ≈ 72 around 400.
        for l in 1..=5 {
            let count = panel.col(0).iter().filter(|x| **x == f64::from(l)).count();
            assert!((count as f64 - 400.0).abs() < 72.0, "level {l}: {count}");
        }
    }

    #[test]
    fn extreme_knobs_are_refused_not_written_as_nan() {
        let mut pm = Params::default();
        pm.violations.dist = Dist::Lognormal { sigma: 1000.0 };
        assert!(
            simulate(&pm, 10, 1)
                .unwrap_err()
                .to_string()
                .contains("lognormal_sd")
        );
        let pm = Params {
            sigma_a: vec![1e200],
            ..Params::default()
        };
        assert!(
            simulate(&pm, 10, 1)
                .unwrap_err()
                .to_string()
                .contains("overflows")
        );
        let pm = Params {
            p: 200,
            ..Params::default()
        };
        assert!(
            simulate(&pm, 2_000_000, 1)
                .unwrap_err()
                .to_string()
                .contains("cells")
        );
    }

    #[test]
    fn invalid_params_are_reported_not_panicked() {
        let pm = Params {
            sigma_c2: -1.0,
            ..Params::default()
        };
        assert!(
            simulate(&pm, 10, 1)
                .unwrap_err()
                .to_string()
                .contains("sigma_c2")
        );
    }
}
