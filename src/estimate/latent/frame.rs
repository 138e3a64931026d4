//! What a latent correlation matrix identifies under Assumption 1 with ordinal anchors
//! (docs/method.md §7b): every column's standardised loadings on (t, c), up to one rotation of
//! the (t, c) plane (and a mirror image). Fixed here in the judges' own frame: the judges'
//! common direction, each anchor's projection g_k on it and its loading h_k across it.

use nalgebra::DMatrix;

use super::super::EstimateError;
use super::super::free_scale::one_factor_uls;

/// Fewest judges (their one-factor loadings need 3) and anchors (ρ_d = 0 identifies the others
/// only at m ≥ 3, docs/method.md §7b) the latent fits accept.
pub const MIN_JUDGES: usize = 3;
pub const MIN_ANCHORS: usize = 3;

/// The anchors' residual factor explains too little when the RMS of its misfit exceeds this
/// share of the RMS of what it is fitted to.
pub const MISFIT_SHARE: f64 = 0.5;

/// The judges' frame of a latent correlation matrix (judges first, then anchors).
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// Each judge's loading on the judges' common direction (one-factor ULS).
    pub lambda: Vec<f64>,
    /// Each anchor's loading on the judges' direction: Σ_j λ_j r_jk / Σ_j λ_j².
    pub g: Vec<f64>,
    /// Each anchor's loading across it: one-factor ULS of R_kl − g_k g_l (k ≠ l); sign as
    /// fitted (Σ h ≥ 0), the mirror image being the other sign.
    pub h: Vec<f64>,
    /// RMS of the judges' one-factor residuals.
    pub judge_rms: f64,
    /// RMS of R_kl − g_k g_l − h_k h_l over anchor pairs, and of R_kl − g_k g_l.
    pub anchor_rms: f64,
    pub residual_rms: f64,
    /// Whether both one-factor fits converged.
    pub converged: bool,
}

impl Frame {
    /// The frame of `r` with `p` judges.
    ///
    /// # Errors
    /// Fewer than 3 judges or 3 anchors, non-finite entries, or judges with no common factor.
    pub fn of(r: &DMatrix<f64>, p: usize) -> Result<Frame, EstimateError> {
        let m = r.nrows().saturating_sub(p);
        if p < MIN_JUDGES {
            return Err(EstimateError::LatentJudges(p));
        }
        if m < MIN_ANCHORS {
            return Err(EstimateError::LatentAnchors(m));
        }
        let (lambda, judge_rms, ok_j) = one_factor_uls(&r.view((0, 0), (p, p)).into_owned())?;
        let ll: f64 = lambda.iter().map(|l| l * l).sum();
        if ll <= 1e-12 || !ll.is_finite() {
            return Err(EstimateError::FreeScale(
                "the judges share no common factor (their correlations are all about 0)".into(),
            ));
        }
        let g: Vec<f64> = (0..m)
            .map(|k| (0..p).map(|j| lambda[j] * r[(j, p + k)]).sum::<f64>() / ll)
            .collect();
        // The anchors' residual block; its diagonal (what is left of each anchor) only seeds
        // the one-factor start.
        let e = DMatrix::from_fn(m, m, |k, l| {
            if k == l {
                (1.0 - g[k] * g[k]).max(0.0)
            } else {
                r[(p + k, p + l)] - g[k] * g[l]
            }
        });
        let (h, anchor_rms, ok_a) = one_factor_uls(&e)?;
        let n_off = (m * (m - 1) / 2) as f64;
        let residual_rms = ((0..m)
            .flat_map(|k| (k + 1..m).map(move |l| (k, l)))
            .map(|(k, l)| e[(k, l)] * e[(k, l)])
            .sum::<f64>()
            / n_off)
            .sqrt();
        Ok(Frame {
            lambda,
            g,
            h,
            judge_rms,
            anchor_rms,
            residual_rms,
            converged: ok_j && ok_a,
        })
    }

    /// Number of anchors.
    #[must_use]
    pub fn m(&self) -> usize {
        self.g.len()
    }

    /// Whether the anchors' residuals fail to share one factor ([`MISFIT_SHARE`]), or an
    /// anchor's loadings leave it no error variance ([`Frame::heywood`]).
    #[must_use]
    pub fn misfits(&self) -> bool {
        self.anchor_rms > MISFIT_SHARE * self.residual_rms || self.heywood().is_some()
    }

    /// The first anchor whose loading length √(g_k² + h_k²) is ≥ 1: a negative error
    /// variance (Heywood case), which no world of the model has.
    #[must_use]
    pub fn heywood(&self) -> Option<usize> {
        (0..self.m()).find(|&k| {
            let n = self.g[k].hypot(self.h[k]);
            n >= 1.0 || n.is_nan()
        })
    }

    /// The world at judge angle φ (tan φ = σ_c/σ_t) on branch `s` (+1: h as fitted, −1: its
    /// mirror): each anchor's standardised loadings (a_k on t, w_k on c).
    #[must_use]
    pub fn world(&self, s: f64, phi: f64) -> Vec<(f64, f64)> {
        let (c, sn) = (phi.cos(), phi.sin());
        self.g
            .iter()
            .zip(&self.h)
            .map(|(g, h)| (g * c - s * h * sn, g * sn + s * h * c))
            .collect()
    }

    /// The branch and angle at which anchor `d` is clean (w_d = 0): the t axis along the
    /// anchor. The branch puts φ ≥ 0; φ > π/2 when the anchor loads against the judges.
    #[must_use]
    pub fn clean_at(&self, d: usize) -> (f64, f64) {
        let s = if self.h[d] > 0.0 { -1.0 } else { 1.0 };
        (s, (-s * self.h[d]).atan2(self.g[d]))
    }
}

/// ρ_k of standardised loadings: w_k / √(1 − a_k²) (Corr of the anchor's error with c);
/// `None` when a_k ≤ 0 (the anchor would load against quality) or a_k ≥ 1.
#[must_use]
pub fn rho_of((a, w): (f64, f64)) -> Option<f64> {
    (a > 0.0 && a < 1.0).then(|| w / (1.0 - a * a).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Latent correlations of judges at angle φ with loadings κ_j, anchors (a_k, w_k).
    fn corr(kappa: &[f64], phi: f64, load: &[(f64, f64)]) -> DMatrix<f64> {
        let mut v: Vec<(f64, f64)> = kappa
            .iter()
            .map(|k| (k * phi.cos(), k * phi.sin()))
            .collect();
        v.extend_from_slice(load);
        let q = v.len();
        DMatrix::from_fn(q, q, |i, j| {
            if i == j {
                1.0
            } else {
                v[i].0 * v[j].0 + v[i].1 * v[j].1
            }
        })
    }

    #[test]
    fn the_frame_recovers_the_clean_world_exactly() {
        // ρ = (0, 0.5, 0.3) built by hand: a_k, w_k with w_1 = 0.
        let load = [(0.7, 0.0), (0.55, 0.35), (0.6, 0.2)];
        let phi = 0.6;
        let r = corr(&[0.8, 0.7, 0.75, 0.6], phi, &load);
        let f = Frame::of(&r, 4).unwrap();
        assert!(f.anchor_rms < 1e-10 && !f.misfits());
        let (s, got) = f.clean_at(0);
        assert!((got - phi).abs() < 1e-9, "{got}");
        for (x, y) in f.world(s, got).iter().zip(&load) {
            assert!((x.0 - y.0).abs() < 1e-9 && (x.1 - y.1).abs() < 1e-9);
        }
        assert!((rho_of((0.6, 0.2)).unwrap() - 0.2 / 0.64f64.sqrt()).abs() < 1e-15);
        assert_eq!(rho_of((-0.1, 0.2)), None);
    }

    #[test]
    fn too_few_anchors_or_judges_are_refused() {
        let r = corr(&[0.8, 0.7, 0.75], 0.5, &[(0.7, 0.0), (0.5, 0.3)]);
        assert_eq!(Frame::of(&r, 3), Err(EstimateError::LatentAnchors(2)));
        assert_eq!(Frame::of(&r, 2), Err(EstimateError::LatentJudges(2)));
    }
}
