//! The estimate layer: one [`Estimate`] shape for every estimator, built by one set of range
//! rules (docs/method.md §1: out-of-range values are flagged, never clipped). Each estimator is a
//! submodule with its registry entry ([`registry`]); Theorem 1's closed form is [`closed`].

#[macro_use]
pub mod registry;

pub mod bias;
pub mod edges;
mod error;
pub mod fits;
pub mod flags;
pub mod identified;
pub mod null;
pub mod scale;

// The registered estimators, in report order: a new one is its file here plus one line.
registry! {
    ClosedForm => closed,
    Ml => ml,
    Blocked => blocked,
    DesignatedClean => clean,
    DesignatedCleanLatent => latent,
    FreeScale => free_scale,
    #[cfg(test)]
    Throwaway => throwaway,
}

pub use closed::{RELATIVE_ZERO, closed_form, pair_estimate};
pub use error::EstimateError;
pub use fits::{Context, Detail, Fit, Fits};
pub use flags::{Flag, FlagCode};
pub use registry::{BATTERY, EXPLORER, Entry};

use closed::finish;

/// A fit of the single-common-factor model. Undefined numbers are `NaN` (or `None` for ρ);
/// the flags say why.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// σ̂_t²: the plain mean of the per-pair values (docs/method.md §1).
    pub sigma_t2: f64,
    /// σ̂_c² = K − σ̂_t².
    pub sigma_c2: f64,
    /// K used by this fit.
    pub k: f64,
    /// The mean of the pair denominators (Corollary 1); `NaN` when no pair was used.
    pub denominator: f64,
    /// One entry per anchor pair k < l.
    pub pairs: Vec<PairEstimate>,
    /// One entry per anchor, in the order given.
    pub anchors: Vec<AnchorEstimate>,
    /// Out-of-range and identification flags.
    pub flags: Vec<Flag>,
}

/// σ_t² from one anchor pair, eq. (1).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PairEstimate {
    /// Anchor indices (k, l), k < l.
    pub anchors: (usize, usize),
    /// (K·P_kl − M_k·M_l) / den, `NaN` at a zero denominator.
    pub sigma_t2: f64,
    /// den = (K + P_kl) − (M_k + M_l) = (σ_c² − β_k)(σ_c² − β_l)/σ_c² (Corollary 1).
    pub denominator: f64,
}

/// Per-anchor parameters of Theorem 1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AnchorEstimate {
    /// β̂_k = M_k − σ̂_t² = Cov(A_k, c).
    pub beta: f64,
    /// σ̂_ak² = Var(A_k) − σ̂_t².
    pub sigma_a2: f64,
    /// ρ̂_k = β̂_k / (σ̂_ak σ̂_c); `None` when σ̂_c² ≤ 0, σ̂_ak² ≤ 0 or σ̂_t² is undefined.
    pub rho: Option<f64>,
}

/// The raw parameters of a fit, before the range rules of docs/method.md §1 are applied. Every
/// estimator (closed form, blocked, designated-clean, ML, …) builds its [`Estimate`] from
/// these through [`Estimate::from_parts`], so the flags mean the same thing everywhere.
#[derive(Debug, Clone, PartialEq)]
pub struct Parts {
    pub sigma_t2: f64,
    pub sigma_c2: f64,
    /// K = σ_t² + σ_c² as this fit sees it.
    pub k: f64,
    pub denominator: f64,
    pub pairs: Vec<PairEstimate>,
    /// β̂_k per anchor.
    pub beta: Vec<f64>,
    /// σ̂_ak² per anchor.
    pub sigma_a2: Vec<f64>,
    /// An anchor whose ρ is 0 by assumption, not by estimate.
    pub clean: Option<usize>,
    /// Flags the estimator raised itself (zero denominators, not identified).
    pub flags: Vec<Flag>,
}

impl Estimate {
    /// The one rule set for out-of-range values (docs/method.md §1): σ̂_c² ≤ 0, σ̂_t² ∉ (0, K),
    /// σ̂_ak² ≤ 0 and |ρ̂_k| > 1 are flagged, never clipped; ρ̂_k = β̂_k / (σ̂_ak σ̂_c) is
    /// undefined when σ̂_t² is undefined, σ̂_c² ≤ 0 or σ̂_ak² ≤ 0.
    #[must_use]
    pub fn from_parts(parts: Parts) -> Estimate {
        let Parts {
            sigma_t2,
            sigma_c2,
            k,
            denominator,
            pairs,
            beta,
            sigma_a2,
            clean,
            mut flags,
        } = parts;
        let defined = sigma_t2.is_finite() && sigma_c2.is_finite();
        // Numerically zero counts as zero: a σ̂_c² of 1e−16·K is rounding, not variance.
        let c_positive = sigma_c2 > RELATIVE_ZERO * (sigma_t2.abs() + sigma_c2.abs());
        if defined && !c_positive {
            flags.push(Flag::new(FlagCode::SigmaC2Nonpositive, sigma_c2));
        }
        if defined && !(sigma_t2 > 0.0 && sigma_t2 < k) {
            flags.push(Flag::new(FlagCode::SigmaT2Outside0K, sigma_t2));
        }
        let anchors = beta
            .iter()
            .zip(&sigma_a2)
            .enumerate()
            .map(|(a, (&beta, &sigma_a2))| {
                let a_positive = sigma_a2 > RELATIVE_ZERO * (sigma_t2.abs() + sigma_a2.abs());
                if defined && !a_positive {
                    flags.push(Flag {
                        anchor: Some(a),
                        ..Flag::new(FlagCode::SigmaA2Nonpositive, sigma_a2)
                    });
                }
                // The designated-clean anchor's ρ is 0 by assumption (docs/method.md §1), whatever σ̂_a².
                let rho = if clean == Some(a) {
                    Some(0.0)
                } else {
                    // A negative σ̂_t² is a variance below zero (Heywood): no ρ̂ from it.
                    (defined && c_positive && a_positive && sigma_t2 > 0.0)
                        .then(|| beta / (sigma_a2.sqrt() * sigma_c2.sqrt()))
                };
                if let Some(r) = rho.filter(|r| r.abs() > 1.0) {
                    flags.push(Flag {
                        anchor: Some(a),
                        ..Flag::new(FlagCode::RhoOutsideUnit, r)
                    });
                }
                AnchorEstimate {
                    beta,
                    sigma_a2,
                    rho,
                }
            })
            .collect();
        Estimate {
            sigma_t2,
            sigma_c2,
            k,
            denominator,
            pairs,
            anchors,
            flags,
        }
    }
}

impl Estimate {
    /// ρ̂ of every anchor (`None` where undefined).
    #[must_use]
    pub fn rho(&self) -> Vec<Option<f64>> {
        self.anchors.iter().map(|a| a.rho).collect()
    }

    /// Marks the whole fit unusable: raises `flag` and makes every ρ̂ undefined (a designated
    /// clean anchor's too), dropping |ρ̂| > 1 flags that described values no longer reported.
    pub fn undefine(&mut self, flag: Flag) {
        self.flags.retain(|f| f.code != FlagCode::RhoOutsideUnit);
        if !self
            .flags
            .iter()
            .any(|f| f.code == flag.code && f.anchor == flag.anchor && f.pair == flag.pair)
        {
            self.flags.push(flag);
        }
        self.anchors.iter_mut().for_each(|a| a.rho = None);
    }

    /// Whether a flag questions the points themselves (not only their intervals, as heavy
    /// tails do): such a fit cannot be read as points.
    #[must_use]
    pub fn flagged(&self) -> bool {
        self.flags.iter().any(|f| !f.code.leaves_points())
    }

    /// Whether any flag of this code is raised.
    #[must_use]
    pub fn has_flag(&self, code: FlagCode) -> bool {
        self.flags.iter().any(|f| f.code == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Params;
    use crate::moments::{JudgePairs, Moments};

    fn population(pm: &Params) -> Moments {
        Moments::from_cov(&pm.population_cov(), pm.p, JudgePairs::All).unwrap()
    }

    #[test]
    fn inverts_base_design() {
        let est = closed_form(&population(&Params::default()));
        assert!((est.sigma_t2 - 1.0).abs() < 1e-12);
        assert!((est.sigma_c2 - 0.8).abs() < 1e-12);
        assert!((est.anchors[0].rho.unwrap() - 0.3).abs() < 1e-12);
        assert!((est.anchors[1].rho.unwrap() - 0.7).abs() < 1e-12);
        assert!(est.flags.is_empty());
    }

    #[test]
    fn denominator_is_corollary_1_product() {
        let pm = Params::default();
        let est = closed_form(&population(&pm));
        let b = pm.beta();
        let want = (0.8 - b[0]) * (0.8 - b[1]) / 0.8;
        assert!((est.denominator - want).abs() < 1e-12);
    }

    #[test]
    fn single_anchor_is_not_identified() {
        let pm = Params {
            rho: vec![0.3],
            sigma_a: vec![0.5],
            ..Params::default()
        };
        let est = closed_form(&population(&pm));
        assert!(est.has_flag(FlagCode::NotIdentified));
        assert!(est.anchors[0].rho.is_none());
    }

    #[test]
    fn rho_is_the_same_at_any_scale_of_the_moments() {
        let base = population(&Params::default());
        let want = closed_form(&base).rho();
        for scale in [1e-150, 1e-100, 1e100, 1e150] {
            let mut mom = base.clone();
            mom.k *= scale;
            mom.m.iter_mut().for_each(|x| *x *= scale);
            mom.pa *= scale;
            let got = closed_form(&mom);
            for (g, w) in got.rho().iter().zip(&want) {
                assert!((g.unwrap() - w.unwrap()).abs() < 1e-12, "scale {scale}");
            }
            assert!((got.sigma_t2 / scale - 1.0).abs() < 1e-12, "scale {scale}");
        }
    }

    #[test]
    fn a_numerically_zero_sigma_c2_is_flagged_and_rho_undefined() {
        let mut mom = population(&Params::default());
        // σ_c² = K − σ_t² = 8.9e−16 relative to K: rounding, not common-mode variance.
        mom.k = 1.0 + 8.9e-16;
        let est = finish(&mom, 1.0, 0.5, Vec::new(), None, Vec::new());
        assert!(est.has_flag(FlagCode::SigmaC2Nonpositive));
        assert!(est.rho().iter().all(Option::is_none));
    }

    /// Issue 23: "|ρ̂| = 1.0000 > 1" contradicted itself; the value shows the digits that
    /// put it above 1.
    #[test]
    fn a_flagged_value_is_printed_with_the_digits_that_flag_it() {
        let est = closed_form(&population(&Params::default()));
        let names = vec!["A1".to_string(), "A2".to_string()];
        let flag = Flag {
            anchor: Some(0),
            ..Flag::new(FlagCode::RhoOutsideUnit, -1.000_04)
        };
        let msg = flag.message(&est, &names);
        assert!(msg.starts_with("|ρ̂| = 1.00004 > 1"), "{msg}");
        let flag = Flag::new(FlagCode::RhoOutsideUnit, 1.25);
        assert!(flag.message(&est, &names).starts_with("|ρ̂| = 1.2500 > 1"));
        let flag = Flag::new(FlagCode::SigmaT2Outside0K, est.k + 3e-7);
        let msg = flag.message(&est, &names);
        assert!(
            msg.contains("1.8000003 lies outside (0, K = 1.8000000)"),
            "{msg}"
        );
    }

    #[test]
    fn heywood_case_is_flagged_not_clipped() {
        // K smaller than every M_k forces σ̂_c² < 0.
        let mut mom = population(&Params::default());
        mom.k = 0.5;
        let est = closed_form(&mom);
        assert!(est.sigma_c2.is_finite());
        assert!(
            est.has_flag(FlagCode::SigmaC2Nonpositive) || est.has_flag(FlagCode::SigmaT2Outside0K)
        );
    }
}
