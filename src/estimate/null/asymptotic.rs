//! The asymptotic null of the latent correlations (docs/method.md §3): at large N the vector of
//! a null draw's polychoric/polyserial correlations and continuous covariances is normal around
//! the model's values with a covariance Γ/N, the Likert analogue of the Wishart shortcut.
//!
//! Γ/N is estimated once per calibration from a pilot of simulated draws at
//! N₀ = min(N, [`PILOT_MAX_N`]) (scaled by N₀/N), and each of the calibration's draws is then
//! the model's vector plus a Gaussian combination of the pilot's centred vectors: O(pilot · d)
//! per draw instead of N simulated items and a polychoric fit per ordinal pair.

use nalgebra::DMatrix;
use rand::Rng;
use rand_distr::{Distribution, StandardNormal};

/// Simulated draws that estimate Γ (more than the 42 coordinates of nine columns).
pub const PILOT_DRAWS: usize = 200;
/// The pilot's largest N: Γ/N is read at N₀ and scaled by N₀/N beyond it.
pub const PILOT_MAX_N: usize = 5000;
/// The smallest N the asymptotic draw is used at.
pub const MIN_N: usize = 500;
/// The smallest expected count of an ordinal column's rarest level at the pilot's N₀: below
/// it thresholds and polychorics are far from normal, and the draws are simulated.
pub const MIN_LEVEL_COUNT: f64 = 20.0;

/// Which matrix entry one coordinate of the vector is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Entry {
    /// A correlation of a pair with an ordinal column (polychoric or polyserial).
    Corr(usize, usize),
    /// A covariance (or variance) of two continuous columns.
    Cov(usize, usize),
}

/// One calibration's asymptotic draws: the model's vector and the pilot's scaled deviations.
#[derive(Debug, Clone)]
pub struct Asymptotic {
    entries: Vec<Entry>,
    mean: Vec<f64>,
    /// Pilot draws × coordinates: (v_r − v̄) · √(N₀/N) / √(R − 1), so Σ_r w_r dev_r with
    /// w ~ N(0, I) has the pilot's covariance scaled to N.
    dev: Vec<f64>,
    model_cov: DMatrix<f64>,
}

/// The coordinates a null of these columns (`ordinal[c]`: column c is ordinal) draws:
/// correlations of pairs with an ordinal column, covariances of continuous pairs.
fn entries(ordinal: &[bool]) -> Vec<Entry> {
    let q = ordinal.len();
    let ord = |c: usize| ordinal[c];
    let mut e = Vec::new();
    for a in 0..q {
        for b in a..q {
            if ord(a) || ord(b) {
                if a != b {
                    e.push(Entry::Corr(a, b));
                }
            } else {
                e.push(Entry::Cov(a, b));
            }
        }
    }
    e
}

/// The expected count of the rarest level of any ordinal column (`cuts[c]`, on the scale of
/// `cov`'s column c) at N = `n` (∞ when none).
pub(super) fn rarest_level_count(cov: &DMatrix<f64>, cuts: &[Option<&[f64]>], n: usize) -> f64 {
    let z = |x: f64| crate::stats::normal::norm_cdf(x);
    let mut rarest = f64::INFINITY;
    for (c, d) in cuts.iter().enumerate() {
        let Some(d) = d else { continue };
        let sd = cov[(c, c)].sqrt();
        let mut below = 0.0;
        for cut in *d {
            let at = z(cut / sd);
            rarest = rarest.min(at - below);
            below = at;
        }
        rarest = rarest.min(1.0 - below);
    }
    rarest * n as f64
}

/// Whether the asymptotic draw is accurate enough for a null at N = `n` whose correlations are
/// read: some column ordinal, N ≥ [`MIN_N`], and every level expected [`MIN_LEVEL_COUNT`] times
/// at the pilot's N₀.
pub(super) fn holds(cov: &DMatrix<f64>, cuts: &[Option<&[f64]>], n: usize) -> bool {
    cuts.iter().any(Option::is_some)
        && n >= MIN_N
        && rarest_level_count(cov, cuts, n.min(PILOT_MAX_N)) >= MIN_LEVEL_COUNT
}

impl Asymptotic {
    /// The asymptotic draws at N = `n` of a null of latent covariance `cov` (`ordinal[c]`:
    /// column c is ordinal) from pilot vectors ([`Asymptotic::vector_of`]) drawn at N₀ = `n0`;
    /// `None` under [`PILOT_DRAWS`]/2 of them.
    #[must_use]
    pub fn from_pilot(
        (cov, ordinal): (&DMatrix<f64>, &[bool]),
        n: usize,
        n0: usize,
        pilot: &[Vec<f64>],
    ) -> Option<Self> {
        let entries = entries(ordinal);
        let (r, d) = (pilot.len(), entries.len());
        if 2 * r < PILOT_DRAWS {
            return None;
        }
        let centre: Vec<f64> = (0..d)
            .map(|k| pilot.iter().map(|v| v[k]).sum::<f64>() / r as f64)
            .collect();
        let scale = (n0 as f64 / n as f64).sqrt() / ((r - 1) as f64).sqrt();
        let dev = pilot
            .iter()
            .flat_map(|v| v.iter().zip(&centre).map(|(x, c)| (x - c) * scale))
            .collect();
        let sd: Vec<f64> = (0..cov.nrows()).map(|c| cov[(c, c)].sqrt()).collect();
        let model_corr = DMatrix::from_fn(cov.nrows(), cov.nrows(), |a, b| {
            cov[(a, b)] / (sd[a] * sd[b])
        });
        let mean = vector(&entries, cov, &model_corr);
        Some(Asymptotic {
            entries,
            mean,
            dev,
            model_cov: cov.clone(),
        })
    }

    /// The coordinates of one simulated draw of a null whose `ordinal` columns are ordinal
    /// (`None` when one is not finite).
    #[must_use]
    pub fn vector_of(
        ordinal: &[bool],
        cov: &DMatrix<f64>,
        corr: &DMatrix<f64>,
    ) -> Option<Vec<f64>> {
        let v = vector(&entries(ordinal), cov, corr);
        v.iter().all(|x| x.is_finite()).then_some(v)
    }

    /// One draw: the covariance (the model's, with the drawn continuous block) and the mixed
    /// correlations (drawn, continuous pairs from the drawn covariances, clipped to ±maxcor).
    pub fn draw<R: Rng + ?Sized>(&self, rng: &mut R) -> (DMatrix<f64>, DMatrix<f64>) {
        let d = self.mean.len();
        let mut v = self.mean.clone();
        for dev in self.dev.chunks_exact(d) {
            let w: f64 = StandardNormal.sample(rng);
            for (x, e) in v.iter_mut().zip(dev) {
                *x += w * e;
            }
        }
        let q = self.model_cov.nrows();
        let mut cov = self.model_cov.clone();
        let mut corr = DMatrix::identity(q, q);
        let clip = |x: f64| x.clamp(-crate::ordinal::MAXCOR, crate::ordinal::MAXCOR);
        for (e, x) in self.entries.iter().zip(&v) {
            match *e {
                Entry::Corr(a, b) => {
                    corr[(a, b)] = clip(*x);
                    corr[(b, a)] = clip(*x);
                }
                Entry::Cov(a, b) => {
                    cov[(a, b)] = *x;
                    cov[(b, a)] = *x;
                }
            }
        }
        for e in &self.entries {
            if let Entry::Cov(a, b) = *e
                && a != b
            {
                let r = cov[(a, b)] / (cov[(a, a)] * cov[(b, b)]).sqrt();
                corr[(a, b)] = r;
                corr[(b, a)] = r;
            }
        }
        (cov, corr)
    }
}

/// The coordinates of one sample.
fn vector(entries: &[Entry], cov: &DMatrix<f64>, corr: &DMatrix<f64>) -> Vec<f64> {
    entries
        .iter()
        .map(|e| match *e {
            Entry::Corr(a, b) => corr[(a, b)],
            Entry::Cov(a, b) => cov[(a, b)],
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Purpose;

    const ORDINAL: [bool; 4] = [true, true, false, false];
    /// Cut points of five equally likely levels on a unit scale.
    const CUTS: [f64; 4] = [
        -0.841_621_233_572_914_3,
        -0.253_347_103_135_799_7,
        0.253_347_103_135_799_7,
        0.841_621_233_572_914_3,
    ];

    /// Two ordinal columns and two continuous ones, one factor.
    fn cov() -> DMatrix<f64> {
        DMatrix::from_fn(4, 4, |i, j| if i == j { 1.0 } else { 0.5 })
    }

    #[test]
    fn draws_centre_on_the_model_with_the_pilots_covariance_scaled_to_n() {
        let mut rng = crate::rng::stream_rng(1, Purpose::Null, 0);
        // A pilot of 200 vectors with known spread: coordinate k is 0.1·(k + 1)·z_k.
        let d = entries(&ORDINAL).len();
        let pilot: Vec<Vec<f64>> = (0..PILOT_DRAWS)
            .map(|_| {
                (0..d)
                    .map(|k| {
                        let z: f64 = StandardNormal.sample(&mut rng);
                        0.1 * (k + 1) as f64 * z
                    })
                    .collect()
            })
            .collect();
        let var = |k: usize| {
            let m = pilot.iter().map(|v| v[k]).sum::<f64>() / pilot.len() as f64;
            pilot.iter().map(|v| (v[k] - m).powi(2)).sum::<f64>() / (pilot.len() - 1) as f64
        };
        let cov = cov();
        let a = Asymptotic::from_pilot((&cov, &ORDINAL), 4000, 1000, &pilot).unwrap();
        let draws: Vec<(DMatrix<f64>, DMatrix<f64>)> =
            (0..20_000).map(|_| a.draw(&mut rng)).collect();
        // Entries: (0,1) corr, (0,2) corr, (0,3) corr, (1,2), (1,3), then the continuous
        // covariances (2,2), (2,3), (3,3).
        let coord =
            |k: usize, (cov, corr): &(DMatrix<f64>, DMatrix<f64>)| match entries(&ORDINAL)[k] {
                Entry::Corr(i, j) => corr[(i, j)],
                Entry::Cov(i, j) => cov[(i, j)],
            };
        for k in 0..d {
            let xs: Vec<f64> = draws.iter().map(|s| coord(k, s)).collect();
            let mean = xs.iter().sum::<f64>() / xs.len() as f64;
            let v = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (xs.len() - 1) as f64;
            let model = if k == 5 || k == 7 { 1.0 } else { 0.5 };
            let want = var(k) / 4.0;
            assert!(
                (mean - model).abs() < 4.0 * (want / 20_000.0).sqrt(),
                "{k}: {mean}"
            );
            assert!((v / want - 1.0).abs() < 0.05, "{k}: {v} against {want}");
        }
    }

    #[test]
    fn a_pilot_with_most_draws_undefined_gives_no_asymptotic_null() {
        let few = vec![vec![0.0; entries(&ORDINAL).len()]; PILOT_DRAWS / 2 - 1];
        assert!(Asymptotic::from_pilot((&cov(), &ORDINAL), 2000, 2000, &few).is_none());
    }

    #[test]
    fn the_rarest_level_is_counted_from_the_cuts() {
        // Levels at 20 % each: the rarest is expected 0.2·N times.
        let cuts = [Some(&CUTS[..]), Some(&CUTS[..]), None, None];
        assert!((rarest_level_count(&cov(), &cuts, 1000) - 200.0).abs() < 1e-6);
        assert!(holds(&cov(), &cuts, 2000));
        assert!(!holds(&cov(), &cuts, MIN_N - 1));
        assert!(!holds(&cov(), &[None, None, None, None], 2000));
    }
}
