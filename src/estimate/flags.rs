//! The flags a fit raises instead of clipping (docs/method.md §1): their stable codes and the one
//! sentence each prints, naming anchors by the panel's names.

use super::shape::Estimate;
use crate::wording::Setting;

/// The kinds of trouble a fit can report (docs/method.md §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagCode {
    /// σ̂_c² ≤ 0.
    SigmaC2Nonpositive,
    /// σ̂_t² ∉ (0, K).
    SigmaT2Outside0K,
    /// σ̂_ak² ≤ 0 for one anchor.
    SigmaA2Nonpositive,
    /// σ̂_ak² ≤ 0 for the anchor designated as clean: the data contradict the assumption.
    CleanContradicted,
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
    /// The anchors' β are (nearly) equal, so only a set of ρ is identified (docs/method.md §7).
    Ridge,
    /// No free-scale parameters fit the anchors' moments within sampling error.
    AnchorsMisfit,
    /// An anchor loads against quality in the designated-clean latent world (a_k ≤ 0).
    AgainstQuality,
    /// The anchors' latent residual correlations share no single factor.
    LatentMisfit,
    /// Ordinal judges read as numbers by an estimator that needs one common scale.
    OrdinalCodes,
    /// An ordinal anchor read as numbers by an estimator that needs one common scale.
    OrdinalAnchor,
    /// Judges and anchors on visibly different ranges (Assumption 1): integer codes of
    /// different widths, or continuous columns whose central spans differ twofold.
    ScaleMismatch,
    /// A column read as numbers piles its items on its lowest or highest value (censoring).
    Censored,
    /// The judges' residuals have heavy tails: the item bootstrap's intervals are too short.
    HeavyTails,

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
            FlagCode::CleanContradicted => "clean_anchor_contradicted",
            FlagCode::ZeroDenominator => "zero_denominator",
            FlagCode::RhoOutsideUnit => "rho_outside_unit",
            FlagCode::NotIdentified => "not_identified",
            FlagCode::NotConverged => "not_converged",
            FlagCode::HeywoodJudge => "heywood_judge",
            FlagCode::Boundary => "boundary",
            FlagCode::Ridge => "ridge",
            FlagCode::AnchorsMisfit => "anchors_misfit",
            FlagCode::AgainstQuality => "against_quality",
            FlagCode::LatentMisfit => "latent_misfit",
            FlagCode::OrdinalCodes => "ordinal_codes",
            FlagCode::OrdinalAnchor => "ordinal_anchor",
            FlagCode::ScaleMismatch => "scale_mismatch",
            FlagCode::Censored => "censored",
            FlagCode::HeavyTails => "heavy_tails",
            FlagCode::NoMlSolution => "no_ml_solution",
            FlagCode::HeywoodVariance => "heywood_variance",
            FlagCode::WeakIdentification => "weak_identification",
        }
    }

    /// Whether the fit's ρ̂ may still be read as points under this flag: only its intervals are
    /// in question (heavy tails), not the numbers themselves.
    #[must_use]
    pub fn leaves_points(self) -> bool {
        matches!(self, FlagCode::HeavyTails)
    }
}

/// What kind of trouble a flag reports: the one classification every sentence about flags
/// uses, so a censored column is never called "out of range" (trial 45 finding 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum FlagKind {
    /// A fitted value outside its admissible range (σ̂_c² ≤ 0, |ρ̂| > 1, a Heywood case).
    Range,
    /// A column read on a scale the estimator cannot use (Likert codes as numbers, censoring,
    /// mismatched ranges).
    Scale,
    /// ρ not point-identified (too few anchors, a ridge, σ̂_c² too near 0 for its interval).
    Identification,
    /// The fit itself failed (no convergence, no ML solution, no world of the model fits).
    Fit,
    /// Only the intervals are in question (heavy tails).
    Precision,
}

impl FlagKind {
    /// The kind as a short badge word ("2 range, 1 scale").
    #[must_use]
    pub fn short(self) -> &'static str {
        match self {
            FlagKind::Range => "range",
            FlagKind::Scale => "scale",
            FlagKind::Identification => "identification",
            FlagKind::Fit => "fit",
            FlagKind::Precision => "precision",
        }
    }
}

impl FlagCode {
    /// The kind of trouble this code reports.
    #[must_use]
    pub fn kind(self) -> FlagKind {
        use FlagCode as C;
        match self {
            C::SigmaC2Nonpositive
            | C::SigmaT2Outside0K
            | C::SigmaA2Nonpositive
            | C::CleanContradicted
            | C::ZeroDenominator
            | C::RhoOutsideUnit
            | C::HeywoodJudge
            | C::Boundary
            | C::AgainstQuality
            | C::HeywoodVariance => FlagKind::Range,
            C::OrdinalCodes | C::OrdinalAnchor | C::ScaleMismatch | C::Censored => FlagKind::Scale,
            C::NotIdentified | C::Ridge | C::WeakIdentification => FlagKind::Identification,
            C::NotConverged | C::NoMlSolution | C::AnchorsMisfit | C::LatentMisfit => FlagKind::Fit,
            C::HeavyTails => FlagKind::Precision,
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
    /// What the panel lets its user do about it, where the flag's sentence names an action.
    pub remedy: Option<FlagRemedy>,
}

/// The one action a flag's sentence may advise, as the panel allows it: decided where the flag
/// is raised (which knows the column), worded by the sentence, never guessed by a front end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FlagRemedy {
    /// The column's values are integer codes with ≤ 10 levels read as numbers by choice:
    /// marking it ordinal reads it on its own thresholds.
    MarkOrdinal,
    /// The column cannot be read as ordinal (fractional values or more than 10 levels): no
    /// setting helps; it must be scored on a wider scale or rounded to codes outside rhoscope.
    Outside,
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
            remedy: None,
        }
    }

    /// One sentence on what the flag means and what to do, naming anchors by `names` and
    /// judges by `judges` (the panel's column names).
    #[must_use]
    pub fn message(&self, est: &Estimate, names: &[String], judges: &[String]) -> String {
        let name = |i: usize| {
            names
                .get(i)
                .map_or_else(|| format!("A{}", i + 1), Clone::clone)
        };
        let judge = |j: usize| judge_name(judges, j);
        match self.code {
            FlagCode::SigmaC2Nonpositive => format!(
                "σ̂_c² = {} ≤ 0: no common-mode variance is left once quality is removed, so every ρ̂ is undefined; this out-of-range (Heywood-type) fit signals misspecification or weak identification, and no point or interval of it can be read (the answer says which estimate, if any, can).",
                shown(self.value)
            ),
            FlagCode::SigmaT2Outside0K => {
                // Each number at its own precision: σ̂_t² told apart from the bound it crossed.
                let bound = if self.value <= 0.0 { 0.0 } else { est.k };
                format!(
                    "σ̂_t² = {} lies outside (0, K = {}): an out-of-range (Heywood-type) fit that signals misspecification or weak identification{}",
                    beside(self.value, bound),
                    beside(est.k, self.value),
                    if self.value <= 0.0 {
                        "; a variance at or below zero, so every ρ̂ is undefined (the battery's answer says which estimate, if any, can be read)."
                    } else {
                        "; do not interpret the point estimates."
                    }
                )
            }
            FlagCode::SigmaA2Nonpositive => format!(
                "σ̂_a² = {} ≤ 0 for anchor {}: its error variance came out non-positive, so its ρ̂ is undefined; the anchor may be nearly error-free, on a scale other than the judges' (the closed form reads every column on one scale, Assumption 1), or the model misspecified.",
                shown(self.value),
                name(self.anchor.unwrap_or(0))
            ),
            FlagCode::CleanContradicted => format!(
                "σ̂_a² = {} ≤ 0 for anchor {}, the anchor designated as clean: trusted as clean (σ_t² = its covariance with the judges), it is left no error of its own, so the data contradict the assumption; its ρ = 0 is assumed, not estimated, and the other anchors' ρ̂ rest on it: designate another anchor, or read another estimate.",
                shown(self.value),
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
                "{} has a one-factor loading λ = {:.4}, at or beyond 1 (a Heywood case: a negative error variance), so the judges' common factor and every ρ̂ are undefined; look for a judge that duplicates another or a second judge factor (Test J).",
                judge(self.pair.map_or(0, |p| p.0)),
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
            FlagCode::AgainstQuality | FlagCode::LatentMisfit => {
                self.latent_message(&name(self.anchor.unwrap_or(0)))
            }
            FlagCode::OrdinalCodes => "the judges are ordinal, and this estimator reads their codes as numbers on the anchors' scale, which Likert codes do not share (Assumption 1; Section 7), so every ρ̂ is undefined; an estimator that frees each judge's scale is needed (the reading says whether one can be read here).".to_string(),
            FlagCode::OrdinalAnchor => "at least one anchor is ordinal (the panel's scales name it), and this estimator reads its codes as numbers on the judges' scale, which Likert codes do not share (Assumption 1; Section 7); σ̂_t² comes from every anchor pair, so every ρ̂ is undefined, the continuous anchors' too; the battery's next steps say what this panel can do about it.".to_string(),
            FlagCode::ScaleMismatch | FlagCode::Censored | FlagCode::HeavyTails => {
                self.edge_message(est, &name, &judge)
            }
            FlagCode::AnchorsMisfit => "no free-scale parameters fit the anchors' covariances within sampling error: the model is rejected here, so every ρ̂ is undefined, and Test O, which asks the same, reads this rejection rather than a null drawn from a rejected fit.".to_string(),
            FlagCode::NotConverged
            | FlagCode::NoMlSolution
            | FlagCode::WeakIdentification
            | FlagCode::HeywoodVariance => self.ml_message(&name, &judge),
        }
    }

    /// The sentences of the maximum-likelihood fit's flags (no convergence, no solution, weak
    /// identification, a variance at or below zero).
    fn ml_message(
        &self,
        name: &dyn Fn(usize) -> String,
        judge: &dyn Fn(usize) -> String,
    ) -> String {
        match self.code {
            FlagCode::NotConverged => format!(
                "the fit did not converge{}: its values are where the optimiser stopped, not an estimate, so every ρ̂ is undefined; report none (the battery's answer says which estimate, if any, can be read).",
                if self.value.is_finite() { format!(" (largest gradient entry {:.1e})", self.value) } else { String::new() }
            ),
            FlagCode::NoMlSolution => "no maximum-likelihood solution: the likelihood keeps rising as σ_t² and σ_c² run off to ∓∞ together (every ρ → ±1), so the values above are where the optimiser gave up, not estimates, and every ρ̂ is undefined; the single-factor model does not fit these data (the battery's answer and the closed form's flags say more).".to_string(),
            FlagCode::WeakIdentification => format!(
                "σ̂_c² is {:.2} standard errors from 0 (< 4): ρ = β/(σ_a σ_c) is weakly identified and its standard-error interval cannot be trusted; read the battery's bootstrap intervals and weak-identification screen.",
                self.value
            ),
            FlagCode::HeywoodVariance => format!(
                "{} = {} ≤ 0 in the ML fit: a variance at or below zero (a Heywood case) lies outside the model, so every ρ̂ is undefined; a judge or anchor may be a near-copy of the common factor, or the model misspecified (the battery's answer says which estimate, if any, can be read).",
                match self.anchor {
                    Some(a) => format!("the residual variance ω of anchor {}", name(a)),
                    None if self.pair.is_some() => format!(
                        "the residual variance ψ of {}",
                        judge(self.pair.map_or(0, |p| p.0))
                    ),
                    None => "σ̂_t²".to_string(),
                },
                shown(self.value)
            ),
            _ => String::new(),
        }
    }

    /// The sentences of the flags on the model's edges (a range apart, a censored column,
    /// heavy tails), none of which names another estimate to read.
    fn edge_message(
        &self,
        est: &Estimate,
        name: &dyn Fn(usize) -> String,
        judge: &dyn Fn(usize) -> String,
    ) -> String {
        match self.code {
            // One direction, as the loader's note: the anchors go onto the judges' scale.
            FlagCode::ScaleMismatch => format!(
                "{}, but Assumption 1 needs judges and anchors on one scale: these ρ̂ are biased by an unknown amount{}; no setting in rhoscope rescales a column, so {} the anchors' scores by about {} outside it (each by its own factor where their ranges differ) and load the panel again (the battery then says whether a ρ̂ reads).",
                if self.value >= 1.0 {
                    format!(
                        "the judges' scores span {} times the range of the anchors' (as 1–10 against 1–5 would)",
                        crate::panel::Short(self.value)
                    )
                } else {
                    format!(
                        "the anchors' scores span {} times the range of the judges' (as 0–100 against 1–5 would)",
                        crate::panel::Short(1.0 / self.value)
                    )
                },
                if est.anchors.len() < 3 {
                    " (with two anchors nothing in the data can test a common scale: a rescaling of the judges fits the covariances as well, so this range is the only check there is)"
                } else {
                    ""
                },
                if self.value >= 1.0 {
                    "multiply"
                } else {
                    "divide"
                },
                crate::panel::Short(if self.value >= 1.0 {
                    self.value
                } else {
                    1.0 / self.value
                })
            ),
            FlagCode::Censored => format!(
                "{} piles {:.0}% of its items on its {} value: read as numbers, a column censored at an end flattens every covariance it enters, so each ρ̂ is biased by an unknown amount (toward 0 where measured) and its interval covers less often than it says; {}",
                match (self.anchor, self.pair) {
                    (Some(a), _) => format!("anchor {}", name(a)),
                    (None, Some((j, _))) => judge(j),
                    (None, None) => "a column".to_string(),
                },
                100.0 * self.value.abs(),
                if self.value < 0.0 {
                    "lowest"
                } else {
                    "highest"
                },
                match self.remedy {
                    Some(FlagRemedy::MarkOrdinal) => format!(
                        "its values are integer codes, so mark the column ordinal ({}) to read it on its own thresholds.",
                        Setting::Ordinal.marked()
                    ),
                    _ => format!(
                        "its values are not integer codes with at most {} levels, so it cannot be read as ordinal and no setting here helps: score it on a wider scale, or round it to integer codes, outside rhoscope.",
                        crate::panel::MAX_ORDINAL_LEVELS
                    ),
                }
            ),
            FlagCode::HeavyTails => format!(
                "the judges' residuals have heavy tails (excess kurtosis {:.1}, 0 for normal errors): the points stand, but the item bootstrap understates their spread, so every interval is too short (with t(3) errors at N = 5000 a 95 % interval covered 0.89, its bootstrap SD 0.85× the true one); read the intervals as optimistic.",
                self.value
            ),
            _ => String::new(),
        }
    }
}

impl Flag {
    /// The sentences of the latent designated-clean fit's own flags (docs/method.md §7b).
    fn latent_message(&self, anchor: &str) -> String {
        if self.code == FlagCode::AgainstQuality {
            format!(
                "in the world where the designated anchor is clean, anchor {anchor} loads against quality (latent loading on t = {:.4} ≤ 0), which the model's unit loading forbids, so its ρ̂ is undefined; the designated anchor may not be clean, or the model misfits.",
                self.value
            )
        } else {
            format!(
                "the anchors' latent correlations, once the judges' direction is removed, share no single factor (misfit {:.2} of what it is fitted to, or an anchor left no error variance): no world of the model fits them, so every ρ̂ is undefined; an anchor may measure something else, or the raters disagree beyond noise.",
                self.value
            )
        }
    }
}

/// A judge named by its column ("judge chatgpt"), by position only when no name is given.
fn judge_name(judges: &[String], j: usize) -> String {
    judges
        .get(j)
        .map_or_else(|| format!("judge {}", j + 1), |n| format!("judge {n}"))
}

/// A variance as the tables print it: 4 decimals, scientific notation where 4 decimals would
/// show 0.0000 or a number hundreds of digits long (values up to the loader's 1e150 square).
fn shown(x: f64) -> String {
    if x != 0.0 && !(1e-4..1e6).contains(&x.abs()) {
        format!("{x:.4e}")
    } else {
        format!("{x:.4}")
    }
}

/// `x` at a sensible precision beside `bound`: 4 decimals, more only to tell it from a
/// `bound` it is close to, exactly 0 as "0", and a tiny nonzero value in scientific notation
/// (never "0.000000000000000").
fn beside(x: f64, bound: f64) -> String {
    if x == 0.0 {
        "0".into()
    } else if x.abs() < 1e-4 || x.abs() >= 1e6 {
        format!("{x:.3e}")
    } else {
        let d = apart(x, bound);
        format!("{x:.d$}")
    }
}

/// Decimals (4 to 15) that print `x` and `bound` differently, so a flag never shows
/// "|ρ̂| = 1.0000 > 1": the fewest that tell them apart, or 15 when they are that close.
fn apart(x: f64, bound: f64) -> usize {
    (4..=15)
        .find(|&d| format!("{x:.d$}") != format!("{bound:.d$}"))
        .unwrap_or(15)
}

#[cfg(test)]
mod tests {
    use super::{beside, shown};

    /// Hostile pass 43, finding 4: a variance near the loader's limits printed 300 digits
    /// (and one near 0 printed -0.0000) where the tables beside it use e-notation.
    #[test]
    fn flag_numbers_switch_to_e_notation_at_both_ends() {
        assert_eq!(shown(-5.5468e296), "-5.5468e296");
        assert_eq!(shown(-5.5468e-300), "-5.5468e-300");
        assert_eq!(shown(-0.0397), "-0.0397");
        assert_eq!(shown(0.0), "0.0000");
        assert!(beside(3.2e200, 1.0).len() < 12, "{}", beside(3.2e200, 1.0));
        assert_eq!(beside(0.35, 0.3416), "0.3500");
    }
}
