//! The one shape every estimator's fit takes, and the range rules that build it
//! (docs/method.md §1: out-of-range values are flagged, never clipped).

use super::flags::{Flag, FlagCode};

/// A quantity is treated as zero when it is below this fraction of the moments it is made
/// of: the denominator of Theorem 1 against K, P and M; σ̂_c² against K; σ̂_ak² against
/// Var(A_k). Rounding leaves about 1e−16 of noise, so 1e−12 separates "zero" from "small".
pub const RELATIVE_ZERO: f64 = 1e-12;

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
    /// ρ_k is 0 by assumption (the anchor designated as clean), not an estimate: shown so.
    pub assumed: bool,
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
                    // The anchor trusted as clean left with no error variance: the data
                    // contradict the assumption itself, not an estimate of its ρ.
                    let code = if clean == Some(a) {
                        FlagCode::CleanContradicted
                    } else {
                        FlagCode::SigmaA2Nonpositive
                    };
                    flags.push(Flag {
                        anchor: Some(a),
                        ..Flag::new(code, sigma_a2)
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
                    assumed: clean == Some(a),
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
