//! The closed-form estimator of Theorem 1 (eq. 1) with SPEC §1's conventions: per-pair σ_t²
//! and denominators, the plain mean over pairs for m > 2, and out-of-range values reported as
//! flags, never clipped. The family-blocked and designated-clean variants live in submodules.

pub mod bias;
pub mod blocked;
pub mod clean;
pub mod fits;
pub mod free_scale;
pub mod identified;
pub mod ml;
pub mod scale;

pub use fits::{Context, Detail, Estimator, Fit, Fits};

use crate::moments::Moments;

/// A fit of the single-common-factor model. Undefined numbers are `NaN` (or `None` for ρ);
/// the flags say why.
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    /// σ̂_t²: the plain mean of the per-pair values (SPEC §1).
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

/// The kinds of trouble a fit can report (SPEC §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagCode {
    /// σ̂_c² ≤ 0.
    SigmaC2Nonpositive,
    /// σ̂_t² ∉ (0, K).
    SigmaT2Outside0K,
    /// σ̂_ak² ≤ 0 for one anchor.
    SigmaA2Nonpositive,
    /// A pair's denominator is zero: both anchors at the boundary β = σ_c².
    ZeroDenominator,
    /// |ρ̂_k| > 1.
    RhoOutsideUnit,
    /// Fewer than two anchors (or judges): σ_t² is not identified.
    NotIdentified,
    /// The optimiser stopped before its gradient tolerance: no minimum was found.
    NotConverged,
    /// A judge's one-factor loading |λ_j| ≥ 1: a negative error variance (Heywood case).
    HeywoodJudge,
    /// The fit ended on the boundary σ_t² → 0 or σ_c² → 0 of the free-scale model.
    Boundary,
    /// The anchors' β are (nearly) equal, so only a set of ρ is identified (SPEC §7).
    Ridge,
    /// No free-scale parameters fit the anchors' moments within sampling error.
    AnchorsMisfit,
    /// Ordinal judges read as numbers by an estimator that needs one common scale.
    OrdinalCodes,
    /// Judges and anchors coded on integer ranges of different widths (Assumption 1).
    ScaleMismatch,

    // Trouble of an iterative fit (issue 23): each makes every ρ̂ of the fit undefined.
    /// The likelihood has no maximum: it keeps rising as σ_t² and σ_c² run off to ∓∞.
    NoMlSolution,
    /// A variance of the ML fit (σ_t², a judge's ψ_j or an anchor's ω_k) is at or below zero.
    HeywoodVariance,
    /// σ̂_c² within 4 of its standard errors of 0: ρ's Wald interval cannot be trusted.
    WeakIdentification,
}

impl FlagCode {
    /// The stable machine-readable code (JSON `code`).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            FlagCode::SigmaC2Nonpositive => "sigma_c2_nonpositive",
            FlagCode::SigmaT2Outside0K => "sigma_t2_outside_0_K",
            FlagCode::SigmaA2Nonpositive => "sigma_a2_nonpositive",
            FlagCode::ZeroDenominator => "zero_denominator",
            FlagCode::RhoOutsideUnit => "rho_outside_unit",
            FlagCode::NotIdentified => "not_identified",
            FlagCode::NotConverged => "not_converged",
            FlagCode::HeywoodJudge => "heywood_judge",
            FlagCode::Boundary => "boundary",
            FlagCode::Ridge => "ridge",
            FlagCode::AnchorsMisfit => "anchors_misfit",
            FlagCode::OrdinalCodes => "ordinal_codes",
            FlagCode::ScaleMismatch => "scale_mismatch",
            FlagCode::NoMlSolution => "no_ml_solution",
            FlagCode::HeywoodVariance => "heywood_variance",
            FlagCode::WeakIdentification => "weak_identification",
        }
    }
}

/// One flag: its code, the anchor (or anchor pair) it concerns, and the offending value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Flag {
    pub code: FlagCode,
    /// The anchor concerned, if any.
    pub anchor: Option<usize>,
    /// The anchor pair concerned (zero denominators); `heywood_variance` of a judge's ψ_j
    /// carries (j, j).
    pub pair: Option<(usize, usize)>,
    /// The offending value.
    pub value: f64,
}

impl Flag {
    /// A flag with no anchor or pair attached.
    #[must_use]
    pub fn new(code: FlagCode, value: f64) -> Self {
        Flag {
            code,
            anchor: None,
            pair: None,
            value,
        }
    }

    /// One sentence on what the flag means and what to do, naming anchors by `names`.
    #[must_use]
    pub fn message(&self, est: &Estimate, names: &[String]) -> String {
        let name = |i: usize| {
            names
                .get(i)
                .map_or_else(|| format!("A{}", i + 1), Clone::clone)
        };
        match self.code {
            FlagCode::SigmaC2Nonpositive => format!(
                "σ̂_c² = {:.4} ≤ 0: no common-mode variance is left once quality is removed, so every ρ̂ is undefined; this out-of-range (Heywood-type) fit signals misspecification or weak identification — run the battery and report intervals only.",
                self.value
            ),
            FlagCode::SigmaT2Outside0K => {
                let d = apart(self.value, est.k).max(apart(self.value, 0.0));
                format!(
                    "σ̂_t² = {:.d$} lies outside (0, K = {:.d$}): an out-of-range (Heywood-type) fit that signals misspecification or weak identification; do not interpret the point estimates.",
                    self.value, est.k
                )
            }
            FlagCode::SigmaA2Nonpositive => format!(
                "σ̂_a² = {:.4} ≤ 0 for anchor {}: its error variance came out non-positive, so its ρ̂ is undefined; the anchor may be nearly error-free or the model misspecified.",
                self.value,
                name(self.anchor.unwrap_or(0))
            ),
            FlagCode::ZeroDenominator => {
                let (k, l) = self.pair.unwrap_or((0, 1));
                format!(
                    "the denominator of Theorem 1 for anchors ({}, {}) is zero: both sit on the identification boundary β = σ_c² (Corollary 1), so this pair carries no information and is left out of the mean.",
                    name(k),
                    name(l)
                )
            }
            FlagCode::RhoOutsideUnit => format!(
                "|ρ̂| = {:.d$} > 1 for anchor {}: impossible under the model, so this is evidence of misspecification or weak identification (Section 3); gate it behind the battery before using it.",
                self.value.abs(),
                name(self.anchor.unwrap_or(0)),
                d = apart(self.value.abs(), 1.0)
            ),
            FlagCode::NotIdentified => {
                "σ_t² is not identified: Theorem 1 needs at least 2 judges and 2 anchors with a non-zero denominator; no ρ̂ can be reported.".to_string()
            }
            FlagCode::HeywoodJudge => format!(
                "judge number {} has a one-factor loading λ = {:.4}, at or beyond 1 (a Heywood case: a negative error variance), so the judges' common factor and every ρ̂ are undefined; look for a judge that duplicates another or a second judge factor (Test J).",
                self.pair.map_or(0, |p| p.0) + 1,
                self.value
            ),
            FlagCode::Boundary => format!(
                "the fit ended on the boundary of the model ({}), where ρ cannot be estimated, so every ρ̂ is undefined; the common-mode variance may be too small to measure at this N.",
                if self.value > 0.0 { "σ̂_c² → 0" } else { "σ̂_t² → 0" }
            ),
            FlagCode::Ridge => if self.value.is_infinite() {
                "the anchors' moments do not bound σ_t²: their β look equal (every anchor clean, or all equally contaminated) or N is too small to tell them apart, so shared contamination cannot be told from σ_t² and only a set of ρ is identified, not a point; a designated-clean anchor, or an anchor with a clearly different ρ, would identify it.".to_string()
            } else {
                format!(
                    "the identified set of ρ for anchor {} is {:.2} wide, more than half of [−1, 1]: the data cannot place its contamination, so its ρ̂ is undefined; read its set, or add items.",
                    name(self.anchor.unwrap_or(0)),
                    self.value
                )
            },
            FlagCode::OrdinalCodes => "the judges are ordinal, and this estimator reads their codes as numbers on the anchors' scale, which Likert codes do not share (Assumption 1; Section 7), so every ρ̂ is undefined; read the free-scale estimate (`--method free-scale`, ≥ 3 judges and ≥ 3 continuous anchors).".to_string(),
            FlagCode::ScaleMismatch => format!(
                "the judges' scores span {:.1}× the range of the anchors' (e.g. 1–10 against 1–5), but Assumption 1 needs judges and anchors on one scale: these ρ̂ are biased by an unknown amount; put the judges on the anchors' scale, or read the free-scale estimate (it needs ≥ 3 continuous anchors).",
                self.value
            ),
            FlagCode::AnchorsMisfit => "no free-scale parameters fit the anchors' covariances within sampling error: the model is rejected here (Test O asks the same), so every ρ̂ is undefined.".to_string(),
            FlagCode::NotConverged => format!(
                "the fit did not converge{}: its values are where the optimiser stopped, not an estimate, so every ρ̂ is undefined; report none, and run the battery.",
                if self.value.is_finite() { format!(" (largest gradient entry {:.1e})", self.value) } else { String::new() }
            ),
            FlagCode::NoMlSolution => "no maximum-likelihood solution: the likelihood keeps rising as σ_t² and σ_c² run off to ∓∞ together (every ρ → ±1), so the values above are where the optimiser gave up, not estimates, and every ρ̂ is undefined; the single-factor model does not fit these data — run the battery and read the closed form's flags.".to_string(),
            FlagCode::WeakIdentification => format!(
                "σ̂_c² is {:.2} standard errors from 0 (< 4): ρ = β/(σ_a σ_c) is weakly identified and its standard-error interval cannot be trusted; read the battery's bootstrap intervals and weak-identification screen.",
                self.value
            ),
            FlagCode::HeywoodVariance => format!(
                "{} = {:.4} ≤ 0 in the ML fit: a variance at or below zero (a Heywood case) lies outside the model, so every ρ̂ is undefined; a judge or anchor may be a near-copy of the common factor, or the model misspecified — run the battery.",
                match self.anchor {
                    Some(a) => format!("the residual variance ω of anchor {}", name(a)),
                    None if self.pair.is_some() => format!(
                        "the residual variance ψ of judge number {}",
                        self.pair.map_or(0, |p| p.0) + 1
                    ),
                    None => "σ̂_t²".to_string(),
                },
                self.value
            ),
        }
    }
}

/// Decimals (4 to 15) that print `x` and `bound` differently, so a flag never shows
/// "|ρ̂| = 1.0000 > 1": the fewest that tell them apart, or 15 when they are that close.
fn apart(x: f64, bound: f64) -> usize {
    (4..=15)
        .find(|&d| format!("{x:.d$}") != format!("{bound:.d$}"))
        .unwrap_or(15)
}

/// A quantity is treated as zero when it is below this fraction of the moments it is made
/// of: the denominator of Theorem 1 against K, P and M; σ̂_c² against K; σ̂_ak² against
/// Var(A_k). Rounding leaves about 1e−16 of noise, so 1e−12 separates "zero" from "small".
pub const RELATIVE_ZERO: f64 = 1e-12;

/// Theorem 1 for every anchor pair k < l, averaged as SPEC §1 prescribes.
#[must_use]
pub fn closed_form(mom: &Moments) -> Estimate {
    let m = mom.n_anchors();
    let mut pairs = Vec::with_capacity(m * m.saturating_sub(1) / 2);
    for k in 0..m {
        for l in k + 1..m {
            pairs.push(pair_estimate(mom, k, l));
        }
    }
    let used: Vec<&PairEstimate> = pairs.iter().filter(|p| p.sigma_t2.is_finite()).collect();
    let (sigma_t2, denominator) = if used.is_empty() {
        (f64::NAN, f64::NAN)
    } else {
        let n = used.len() as f64;
        (
            used.iter().map(|p| p.sigma_t2).sum::<f64>() / n,
            used.iter().map(|p| p.denominator).sum::<f64>() / n,
        )
    };
    let mut flags: Vec<Flag> = pairs
        .iter()
        .filter(|p| !p.sigma_t2.is_finite())
        .map(|p| Flag {
            pair: Some(p.anchors),
            ..Flag::new(FlagCode::ZeroDenominator, p.denominator)
        })
        .collect();
    if used.is_empty() {
        flags.push(Flag::new(FlagCode::NotIdentified, f64::NAN));
    }
    finish(mom, sigma_t2, denominator, pairs, None, flags)
}

/// σ_t² from one pair; `NaN` when the denominator vanishes relative to the moments' scale.
#[must_use]
pub fn pair_estimate(mom: &Moments, k: usize, l: usize) -> PairEstimate {
    let (kk, pkl, mk, ml) = (mom.k, mom.pa[(k, l)], mom.m[k], mom.m[l]);
    let denominator = (kk + pkl) - (mk + ml);
    let scale = kk.abs() + pkl.abs() + mk.abs() + ml.abs();
    // The products K·P and M_k·M_l are fourth-order in the data's units: form them on moments
    // divided by their scale, so data in units of 1e−100 or 1e100 neither underflow nor
    // overflow (σ_t² is homogeneous of degree 1 in the moments).
    let sigma_t2 = if denominator.abs() <= RELATIVE_ZERO * scale || !denominator.is_finite() {
        f64::NAN
    } else {
        let (a, b, c, d) = (kk / scale, pkl / scale, mk / scale, ml / scale);
        scale * (a * b - c * d) / (denominator / scale)
    };
    PairEstimate {
        anchors: (k, l),
        sigma_t2,
        denominator,
    }
}

/// Everything after σ̂_t² for the closed-form family: β̂_k = M_k − σ̂_t², σ̂_ak² = Var(A_k) −
/// σ̂_t², then [`Estimate::from_parts`]. `clean` marks an anchor whose ρ is fixed at 0 by
/// assumption (the designated-clean estimator).
fn finish(
    mom: &Moments,
    sigma_t2: f64,
    denominator: f64,
    pairs: Vec<PairEstimate>,
    clean: Option<usize>,
    flags: Vec<Flag>,
) -> Estimate {
    let m = mom.n_anchors();
    Estimate::from_parts(Parts {
        sigma_t2,
        sigma_c2: mom.k - sigma_t2,
        k: mom.k,
        denominator,
        pairs,
        beta: (0..m)
            .map(|a| {
                if clean == Some(a) {
                    0.0
                } else {
                    mom.m[a] - sigma_t2
                }
            })
            .collect(),
        sigma_a2: (0..m).map(|a| mom.pa[(a, a)] - sigma_t2).collect(),
        clean,
        flags,
    })
}

/// The raw parameters of a fit, before the range rules of SPEC §1 are applied. Every
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
    /// The one rule set for out-of-range values (SPEC §1): σ̂_c² ≤ 0, σ̂_t² ∉ (0, K),
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
                // The designated-clean anchor's ρ is 0 by assumption (SPEC §1), whatever σ̂_a².
                let rho = if clean == Some(a) {
                    Some(0.0)
                } else {
                    (defined && c_positive && a_positive)
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
