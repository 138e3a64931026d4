//! A panel's rater textures and the synthetic panels built on them.

use rand::{Rng, RngExt};
use rand_distr::{Distribution, StandardNormal};

use super::design::{SIGMA_C2, SIGMA_T2, Thresholds, anchor_sd};
use super::error::ValidateError;
use crate::panel::{Panel, Scale};

/// One real judge's texture: its residuals and, when ordinal, its levels and cumulative
/// code proportions.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeTexture {
    pub name: String,
    /// Item-centred residuals: score minus the item's mean over the real judges.
    pub residuals: Vec<f64>,
    /// `None` for a continuous judge; the levels and the cumulative proportion of each
    /// level but the last for an ordinal one.
    pub ordinal: Option<(Vec<f64>, Vec<f64>)>,
}

/// The textures of a panel's judges (its anchors are not used).
#[derive(Debug, Clone, PartialEq)]
pub struct Texture {
    pub judges: Vec<JudgeTexture>,
    pub families: Option<Vec<String>>,
    /// The real panel's N.
    pub n: usize,
}

impl Texture {
    /// The largest |skewness| and the largest excess kurtosis of the judges' residuals: the
    /// textures a Gaussian-latent null does not carry (heavy tails, asymmetry). `None` when no
    /// judge's residuals vary (judges that agree exactly), so there is no shape to read.
    #[must_use]
    pub fn shape(&self) -> Option<(f64, f64)> {
        let mut shape: Option<(f64, f64)> = None;
        for j in &self.judges {
            let r = &j.residuals;
            let n = r.len() as f64;
            let mean = r.iter().sum::<f64>() / n;
            let m2 = r.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n;
            if m2.is_nan() || m2 <= 0.0 {
                continue;
            }
            let m3 = r.iter().map(|x| (x - mean).powi(3)).sum::<f64>() / n;
            let m4 = r.iter().map(|x| (x - mean).powi(4)).sum::<f64>() / n;
            let (skew, kurt) = ((m3 / m2.powf(1.5)).abs(), m4 / (m2 * m2) - 3.0);
            let (s0, k0) = shape.unwrap_or((0.0, f64::NEG_INFINITY));
            shape = Some((s0.max(skew), k0.max(kurt)));
        }
        shape
    }

    /// The textures of `panel`'s judges.
    ///
    /// # Errors
    /// Fewer than 3 judges (the free-scale estimator needs p ≥ 3) or fewer than 2 items.
    pub fn of(panel: &Panel) -> Result<Texture, ValidateError> {
        let (n, p) = (panel.n, panel.p());
        if p < 3 {
            return Err(ValidateError::TooFewJudges(p));
        }
        if n < 2 {
            return Err(ValidateError::TooFewItems);
        }
        let means: Vec<f64> = (0..n)
            .map(|i| (0..p).map(|j| panel.col(j)[i]).sum::<f64>() / p as f64)
            .collect();
        // A residual within the rounding of its item's mean is 0: judges that agree exactly
        // leave no noise for the shape to read.
        let tolerance: Vec<f64> = (0..n)
            .map(|i| {
                let top = (0..p).map(|j| panel.col(j)[i].abs()).fold(0.0, f64::max);
                4.0 * p as f64 * f64::EPSILON * top
            })
            .collect();
        let judges = (0..p)
            .map(|j| {
                let col = panel.col(j);
                let ordinal = match &panel.scales[j] {
                    Scale::Ordinal { levels } => {
                        let mut cum = Vec::with_capacity(levels.len().saturating_sub(1));
                        let mut below = 0usize;
                        for &l in &levels[..levels.len().saturating_sub(1)] {
                            below += col.iter().filter(|&&x| x == l as f64).count();
                            cum.push(below as f64 / n as f64);
                        }
                        Some((levels.iter().map(|&l| l as f64).collect(), cum))
                    }
                    Scale::Continuous => None,
                };
                JudgeTexture {
                    name: panel.judges[j].clone(),
                    residuals: col
                        .iter()
                        .zip(means.iter().zip(&tolerance))
                        .map(|(&x, (&m, &tol))| residual(x, m, tol))
                        .collect(),
                    ordinal,
                }
            })
            .collect();
        Ok(Texture {
            judges,
            families: panel.families.clone(),
            n,
        })
    }

    /// Whether any judge is ordinal.
    #[must_use]
    pub fn any_ordinal(&self) -> bool {
        self.judges.iter().any(|j| j.ordinal.is_some())
    }
}

/// `x − m`, or exactly 0 when within `tol` of 0 (the rounding of the item's mean).
fn residual(x: f64, m: f64, tol: f64) -> f64 {
    let r = x - m;
    if r.abs() <= tol { 0.0 } else { r }
}

/// Level index of each value when `cum` (cumulative proportions of all levels but the last)
/// is applied as quantiles of `score`: the items ranked below round(N·π_1) get level 0, and
/// so on. Ties in `score` are broken by item order, so the result is deterministic.
fn cut_at_quantiles(score: &[f64], cum: &[f64]) -> Vec<usize> {
    let n = score.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| score[a].total_cmp(&score[b]).then(a.cmp(&b)));
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "0 ≤ π ≤ 1, so the product is in [0, N]"
    )]
    let bounds: Vec<usize> = cum
        .iter()
        .map(|&c| (c * n as f64).round() as usize)
        .collect();
    let mut level = vec![0usize; n];
    let mut l = 0;
    for (rank, &i) in order.iter().enumerate() {
        while l < bounds.len() && rank >= bounds[l] {
            l += 1;
        }
        level[i] = l;
    }
    level
}

/// One synthetic panel of `n` items on `tex`'s textures, with anchors `A1…Am` at the
/// injected ρ: judges first, then anchors (docs/method.md §7, "Real rater textures").
#[must_use]
pub fn synthetic_panel(
    tex: &Texture,
    inject: &[f64],
    n: usize,
    thresholds: Thresholds,
    rng: &mut impl Rng,
) -> Panel {
    let (p, m) = (tex.judges.len(), inject.len());
    let (st, sc) = (SIGMA_T2.sqrt(), SIGMA_C2.sqrt());
    let mut t = Vec::with_capacity(n);
    let mut c = Vec::with_capacity(n);
    for _ in 0..n {
        let zt: f64 = StandardNormal.sample(rng);
        let zc: f64 = StandardNormal.sample(rng);
        t.push(st * zt);
        c.push(sc * zc);
    }
    let mut data = Vec::with_capacity(n * (p + m));
    for j in &tex.judges {
        let score: Vec<f64> = (0..n)
            .map(|i| t[i] + c[i] + j.residuals[rng.random_range(0..j.residuals.len())])
            .collect();
        match &j.ordinal {
            None => data.extend(score),
            Some((levels, cum)) => {
                let cum: Vec<f64> = match thresholds {
                    Thresholds::Own => cum.clone(),
                    Thresholds::Balanced => (1..levels.len())
                        .map(|l| l as f64 / levels.len() as f64)
                        .collect(),
                };
                data.extend(cut_at_quantiles(&score, &cum).iter().map(|&l| levels[l]));
            }
        }
    }
    for (k, &rho) in inject.iter().enumerate() {
        let sa = anchor_sd(k);
        let beta = rho * sa * sc;
        let su = (sa * sa - beta * beta / SIGMA_C2).sqrt();
        for i in 0..n {
            let z: f64 = StandardNormal.sample(rng);
            data.push(t[i] + beta / SIGMA_C2 * c[i] + su * z);
        }
    }
    let judges = tex.judges.iter().map(|j| j.name.clone()).collect();
    let anchors = (1..=m).map(|k| format!("A{k}")).collect();
    let mut panel = Panel::new(n, data, judges, anchors);
    panel.families.clone_from(&tex.families);
    panel
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_cut_gives_the_proportions() {
        // 10 items, proportions 0.2 and 0.7: 2 items in level 0, 5 in level 1, 3 in level 2.
        let score = [9.0, 1.0, 8.0, 2.0, 7.0, 3.0, 6.0, 4.0, 5.0, 0.0];
        let l = cut_at_quantiles(&score, &[0.2, 0.7]);
        assert_eq!(l, vec![2, 0, 2, 1, 2, 1, 1, 1, 1, 0]);
    }
}
