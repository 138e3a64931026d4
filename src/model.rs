//! The single-common-factor model of Assumption 1 (Section 3) with every violation knob of
//! docs/method.md §4, parameter validation, and the population covariance matrix.
//!
//! Judges are `J_j = t + c + e_j`, anchors `A_k = t + (β_k/σ_c²) c + u_k` with
//! `β_k = ρ_k σ_ak σ_c`. Lists that describe judges or anchors may hold one value, which is
//! broadcast to every judge (or anchor), so a caller can change `p` without rewriting them.

use nalgebra::DMatrix;

use crate::data::limits::{MAX_COLUMNS, MAX_LEVELS};

/// Largest log-scale SD of the lognormal knob (docs/method.md §4): at 3 a standardised draw already
/// reaches the hundreds; far beyond, `exp(σ²)` overflows and a panel fills with NaN.
pub const MAX_LOGNORMAL_SD: f64 = 3.0;

/// Parameters of the generative model. `Default` is the paper's base ("mid") design.
#[derive(Debug, Clone, PartialEq)]
pub struct Params {
    /// Quality variance σ_t².
    pub sigma_t2: f64,
    /// Common-mode variance σ_c².
    pub sigma_c2: f64,
    /// Number of judges p.
    pub p: usize,
    /// Judge error variances Var(e_j): one value (broadcast) or p values.
    pub judge_var: Vec<f64>,
    /// Anchor contamination ρ_k; its length is the number of anchors m.
    pub rho: Vec<f64>,
    /// Anchor total error SDs σ_ak: one value (broadcast) or m values.
    pub sigma_a: Vec<f64>,
    /// Departures from Assumptions 1–2; all off by default.
    pub violations: Violations,
}

/// The violation knobs of docs/method.md §4. Each is off at its default.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Violations {
    /// Second common factor d ~ (0, 1): judge loadings g_j (empty = none, one value = uniform).
    pub judge_loading: Vec<f64>,
    /// Second common factor: anchor loadings h_k (empty = none, one value = uniform).
    pub anchor_loading: Vec<f64>,
    /// Shared judge residual strength s: `J_j += s·r` with r common to all judges
    /// (Assumption 2's panel-wide violation; raises K by s²).
    pub shared_residual: f64,
    /// Judge families (lineage metadata). Also used, with `sigma_f > 0`, for family residuals.
    pub families: Families,
    /// Family residual SD σ_f: `J_j += f_{b(j)}`, f_b ~ (0, σ_f²).
    pub sigma_f: f64,
    /// Heteroscedasticity γ: residual SD × sqrt((1 + γ t²/σ_t²)/(1 + γ)).
    pub hetero: f64,
    /// Distribution of every standardised latent and residual draw.
    pub dist: Dist,
    /// Columns observed on an ordinal scale, in column order (judges then anchors).
    pub ordinal: Vec<(usize, Discretise)>,
    /// Judge scales a_j (docs/method.md §7, congeneric judges): `J_j = a_j (t + c) + e_j`. Empty = all
    /// ones (the paper's unit loadings), one value = broadcast, or p values; each > 0.
    pub judge_scale: Vec<f64>,
}

/// How judges are grouped into families.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum Families {
    /// No family metadata.
    #[default]
    None,
    /// `k` contiguous blocks of (nearly) equal size: judge j is in block ⌊j·k/p⌋.
    Blocks(usize),
    /// One label per judge.
    Labels(Vec<String>),
}

/// Distribution of the standardised (mean 0, variance 1) draws.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Dist {
    #[default]
    Gaussian,
    /// Standardised lognormal with the given log-scale SD (default 0.5).
    Lognormal { sigma: f64 },
    /// Standardised Student t with 4 degrees of freedom.
    StudentT4,
}

/// Ordinal observation of one column: cut points at these cumulative probabilities of the
/// column's Gaussian marginal with its population variance; levels are coded 1..=L.
#[derive(Debug, Clone, PartialEq)]
pub struct Discretise {
    /// Strictly increasing cumulative probabilities in (0, 1); L − 1 of them.
    pub cum_probs: Vec<f64>,
}

impl Discretise {
    /// L levels with equal probability under the Gaussian marginal.
    #[must_use]
    pub fn equal_probability(levels: usize) -> Self {
        let cum_probs = (1..levels).map(|i| i as f64 / levels as f64).collect();
        Discretise { cum_probs }
    }
}

impl Default for Params {
    /// The paper's base design (Section 4): σ_t² = 1, σ_c² = 0.8, p = 6 judges with error
    /// variance 1, ρ = (0.3, 0.7), σ_a = (0.5, 0.6).
    fn default() -> Self {
        Params {
            sigma_t2: 1.0,
            sigma_c2: 0.8,
            p: 6,
            judge_var: vec![1.0],
            rho: vec![0.3, 0.7],
            sigma_a: vec![0.5, 0.6],
            violations: Violations::default(),
        }
    }
}

/// Expands a broadcastable list to length `n`: empty → zeros, one value → repeated.
#[must_use]
pub fn expand(v: &[f64], n: usize) -> Vec<f64> {
    match v.len() {
        0 => vec![0.0; n],
        1 => vec![v[0]; n],
        _ => v.to_vec(),
    }
}

impl Params {
    /// The paper's three-anchor design (docs/method.md §4): the base design plus ρ_3 = 0.5, σ_a3 = 0.7.
    #[must_use]
    pub fn three_anchor() -> Params {
        Params::default().with_third_anchor()
    }

    /// These parameters with the base design's anchors and the paper's third anchor:
    /// ρ = (0.3, 0.7, 0.5), σ_a = (0.5, 0.6, 0.7).
    #[must_use]
    pub fn with_third_anchor(self) -> Params {
        Params {
            rho: vec![0.3, 0.7, 0.5],
            sigma_a: vec![0.5, 0.6, 0.7],
            ..self
        }
    }

    /// Number of anchors m.
    #[must_use]
    pub fn m(&self) -> usize {
        self.rho.len()
    }

    /// Number of observed columns q = p + m.
    #[must_use]
    pub fn q(&self) -> usize {
        self.p + self.m()
    }

    /// Anchor total error SDs, one per anchor.
    #[must_use]
    pub fn sigma_a_full(&self) -> Vec<f64> {
        expand(&self.sigma_a, self.m())
    }

    /// Judge error variances, one per judge.
    #[must_use]
    pub fn judge_var_full(&self) -> Vec<f64> {
        expand(&self.judge_var, self.p)
    }

    /// β_k = ρ_k σ_ak σ_c = Cov(A_k, c) (Section 3).
    #[must_use]
    pub fn beta(&self) -> Vec<f64> {
        let sc = self.sigma_c2.sqrt();
        self.rho
            .iter()
            .zip(self.sigma_a_full())
            .map(|(r, sa)| r * sa * sc)
            .collect()
    }

    /// Judge scales a_j of docs/method.md §7 (ones when absent).
    #[must_use]
    pub fn judge_scale_full(&self) -> Vec<f64> {
        if self.violations.judge_scale.is_empty() {
            vec![1.0; self.p]
        } else {
            expand(&self.violations.judge_scale, self.p)
        }
    }

    /// Judge loadings g_j on the second factor (zeros when absent).
    #[must_use]
    pub fn g(&self) -> Vec<f64> {
        expand(&self.violations.judge_loading, self.p)
    }

    /// Anchor loadings h_k on the second factor (zeros when absent).
    #[must_use]
    pub fn h(&self) -> Vec<f64> {
        expand(&self.violations.anchor_loading, self.m())
    }

    /// Family index of each judge, and the number of families; `None` without metadata.
    #[must_use]
    pub fn family_index(&self) -> Option<(Vec<usize>, usize)> {
        match &self.violations.families {
            Families::None => None,
            Families::Blocks(k) => {
                let k = (*k).max(1);
                Some(((0..self.p).map(|j| j * k / self.p).collect(), k.min(self.p)))
            }
            Families::Labels(labels) => Some(crate::panel::first_appearance(labels)),
        }
    }

    /// Family label of each judge (`F1`, `F2`, … for block families).
    #[must_use]
    pub fn family_labels(&self) -> Option<Vec<String>> {
        match &self.violations.families {
            Families::None => None,
            Families::Labels(l) => Some(l.clone()),
            Families::Blocks(_) => self
                .family_index()
                .map(|(idx, _)| idx.iter().map(|i| format!("F{}", i + 1)).collect()),
        }
    }

    /// Column names of a simulated panel: `J1..Jp`, then `A1..Am`.
    #[must_use]
    pub fn column_names(&self) -> Vec<String> {
        (1..=self.p)
            .map(|j| format!("J{j}"))
            .chain((1..=self.m()).map(|k| format!("A{k}")))
            .collect()
    }

    /// Checks every constraint of the model, with a message a user can act on, and the
    /// size limits of [`crate::data::limits`] (so no later step allocates by an absurd count).
    ///
    /// # Errors
    /// A one-sentence description of the first violated constraint.
    pub fn validate(&self) -> Result<(), ModelError> {
        let (p, m) = (self.p, self.m());
        positive("sigma_t2", self.sigma_t2)?;
        positive("sigma_c2", self.sigma_c2)?;
        if p < 1 {
            return Err(ModelError::Invalid("p must be at least 1 judge".into()));
        }
        if p.saturating_add(m) > MAX_COLUMNS {
            return Err(ModelError::Invalid(format!(
                "{p} judges and {m} anchors: at most {MAX_COLUMNS} columns in all are supported"
            )));
        }
        let v = &self.violations;
        check_len("judge_var", &self.judge_var, p, "judges", false)?;
        check_len("sigma_a", &self.sigma_a, m, "anchors", m == 0)?;
        check_len("g (judge loadings)", &v.judge_loading, p, "judges", true)?;
        check_len("h (anchor loadings)", &v.anchor_loading, m, "anchors", true)?;
        check_len("judge_scale", &v.judge_scale, p, "judges", true)?;
        for (j, &a) in v.judge_scale.iter().enumerate() {
            positive(&format!("judge_scale[{}]", j + 1), a)?;
        }
        for (j, &ev) in self.judge_var.iter().enumerate() {
            if !(ev.is_finite() && ev >= 0.0) {
                return Err(ModelError::Invalid(format!(
                    "judge_var[{}] = {ev} must be ≥ 0",
                    j + 1
                )));
            }
        }
        for (k, (&r, sa)) in self.rho.iter().zip(self.sigma_a_full()).enumerate() {
            positive(&format!("sigma_a for A{}", k + 1), sa)?;
            if !r.is_finite() || r * r >= 1.0 {
                return Err(ModelError::Invalid(format!(
                    "anchor A{}: Var(u_k) = σ_a² − β²/σ_c² = σ_a²(1 − ρ²) = {:.4} must be > 0, so |ρ| must be < 1 (got ρ = {r})",
                    k + 1,
                    sa * sa * (1.0 - r * r)
                )));
            }
        }
        for x in v.judge_loading.iter().chain(&v.anchor_loading) {
            finite("loading", *x)?;
        }
        nonneg("shared_residual", v.shared_residual)?;
        nonneg("sigma_f", v.sigma_f)?;
        nonneg("hetero", v.hetero)?;
        check_families(v, p)?;
        if let Dist::Lognormal { sigma } = v.dist {
            positive("lognormal_sd", sigma)?;
            if sigma > MAX_LOGNORMAL_SD {
                return Err(ModelError::Invalid(format!(
                    "lognormal_sd = {sigma} must be at most {MAX_LOGNORMAL_SD}: beyond that the standardised lognormal's moments overflow or one draw dominates the sample"
                )));
            }
        }
        for (col, d) in &v.ordinal {
            if *col >= p + m {
                return Err(ModelError::Invalid(format!(
                    "ordinal column {} does not exist",
                    col + 1
                )));
            }
            let ok = d.cum_probs.iter().all(|x| *x > 0.0 && *x < 1.0)
                && d.cum_probs.windows(2).all(|w| w[0] < w[1]);
            if d.cum_probs.len() >= MAX_LEVELS {
                return Err(ModelError::Invalid(format!(
                    "ordinal column {}: at most {MAX_LEVELS} levels are supported",
                    col + 1
                )));
            }
            if !ok || d.cum_probs.is_empty() {
                return Err(ModelError::Invalid(
                    "ordinal thresholds must be strictly increasing probabilities in (0, 1)".into(),
                ));
            }
        }
        Ok(())
    }

    /// The population covariance matrix Σ of (J_1..J_p, A_1..A_m) (Section 3 and docs/method.md §4;
    /// judge scales a_j of docs/method.md §7 multiply the judges' t + c part).
    /// Heteroscedastic and non-Gaussian knobs preserve variances, so they do not enter;
    /// ordinal observation is not a second-moment operation and is ignored here.
    #[must_use]
    pub fn population_cov(&self) -> DMatrix<f64> {
        let (p, m) = (self.p, self.m());
        let (g, h, beta) = (self.g(), self.h(), self.beta());
        let a = self.judge_scale_full();
        let ev = self.judge_var_full();
        let sa = self.sigma_a_full();
        let v = &self.violations;
        let s2 = v.shared_residual * v.shared_residual;
        let f2 = v.sigma_f * v.sigma_f;
        let fam = self.family_index().map(|(idx, _)| idx);
        let same_family = |i: usize, j: usize| fam.as_ref().is_some_and(|f| f[i] == f[j]);
        let base = self.sigma_t2;
        DMatrix::from_fn(p + m, p + m, |r, c| match (r < p, c < p) {
            (true, true) => {
                let mut x = a[r] * a[c] * (base + self.sigma_c2) + g[r] * g[c] + s2;
                if same_family(r, c) {
                    x += f2;
                }
                if r == c {
                    x += ev[r];
                }
                x
            }
            (true, false) => a[r] * (base + beta[c - p]) + g[r] * h[c - p],
            (false, true) => a[c] * (base + beta[r - p]) + g[c] * h[r - p],
            (false, false) => {
                let (k, l) = (r - p, c - p);
                if k == l {
                    base + sa[k] * sa[k] + h[k] * h[k]
                } else {
                    base + beta[k] * beta[l] / self.sigma_c2 + h[k] * h[l]
                }
            }
        })
    }
}

/// Why a parameter set is not a model: typed for a library caller, worded for a user.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModelError {
    /// A scale or variance that must be a finite positive number.
    #[error("{name} = {value} must be a finite number > 0")]
    NotPositive { name: String, value: f64 },
    /// A variance-like knob that must be a finite non-negative number.
    #[error("{name} = {value} must be a finite number ≥ 0")]
    Negative { name: String, value: f64 },
    /// A loading that must be finite.
    #[error("{name} = {value} must be finite")]
    NotFinite { name: String, value: f64 },
    /// A per-judge or per-anchor list of the wrong length.
    #[error("{name} has {len} values but there are {n} {what}: give one value or {n}")]
    Length {
        name: String,
        len: usize,
        n: usize,
        what: String,
    },
    /// Any other violated constraint, described from its context.
    #[error("{0}")]
    Invalid(String),
}

/// Callers that still speak in messages keep working with `?`.
impl From<ModelError> for String {
    fn from(e: ModelError) -> String {
        e.to_string()
    }
}

/// The family knobs: labels one per judge, a block count within the judges, plain labels.
fn check_families(v: &Violations, p: usize) -> Result<(), ModelError> {
    match &v.families {
        Families::Labels(l) if l.len() != p => {
            return Err(ModelError::Invalid(format!(
                "families lists {} labels for {p} judges",
                l.len()
            )));
        }
        Families::Blocks(0) => {
            return Err(ModelError::Invalid(
                "families must be at least 1 block".into(),
            ));
        }
        Families::Blocks(k) if *k > MAX_COLUMNS => {
            return Err(ModelError::Invalid(format!(
                "families={k}: at most {MAX_COLUMNS} families"
            )));
        }
        // Block j·k/p would skip labels and index past the k-th family when k > p.
        Families::Blocks(k) if *k > p => {
            return Err(ModelError::Invalid(format!(
                "families = {k} exceeds p = {p} judges (at most one family per judge)"
            )));
        }
        Families::Labels(l) => {
            if let Some(bad) = l
                .iter()
                .find(|x| x.is_empty() || **x != crate::location::sanitize(x) || x.contains('"'))
            {
                return Err(ModelError::Invalid(format!(
                    "family label '{}' must be non-empty plain text (no quotes or control characters)",
                    crate::location::sanitize(bad)
                )));
            }
        }
        Families::None if v.sigma_f > 0.0 => {
            return Err(ModelError::Invalid(
                "sigma_f > 0 needs families (families=3, say)".into(),
            ));
        }
        _ => {}
    }
    Ok(())
}

fn positive(name: &str, x: f64) -> Result<(), ModelError> {
    if x.is_finite() && x > 0.0 {
        Ok(())
    } else {
        Err(ModelError::NotPositive {
            name: name.to_string(),
            value: x,
        })
    }
}

fn nonneg(name: &str, x: f64) -> Result<(), ModelError> {
    if x.is_finite() && x >= 0.0 {
        Ok(())
    } else {
        Err(ModelError::Negative {
            name: name.to_string(),
            value: x,
        })
    }
}

fn finite(name: &str, x: f64) -> Result<(), ModelError> {
    if x.is_finite() {
        Ok(())
    } else {
        Err(ModelError::NotFinite {
            name: name.to_string(),
            value: x,
        })
    }
}

fn check_len(
    name: &str,
    v: &[f64],
    n: usize,
    what: &str,
    empty_ok: bool,
) -> Result<(), ModelError> {
    match v.len() {
        0 if empty_ok => Ok(()),
        1 => Ok(()),
        l if l == n && l > 0 => Ok(()),
        len => Err(ModelError::Length {
            name: name.to_string(),
            len,
            n,
            what: what.to_string(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_design_moments_match_section_3() {
        let pm = Params::default();
        let s = pm.population_cov();
        // K = σ_t² + σ_c²; M_k = σ_t² + β_k; Var(A_k) = σ_t² + σ_ak².
        assert!((s[(0, 1)] - 1.8).abs() < 1e-15);
        let beta = pm.beta();
        assert!((s[(0, 6)] - (1.0 + beta[0])).abs() < 1e-15);
        assert!((s[(6, 6)] - 1.25).abs() < 1e-15);
        assert!((s[(6, 7)] - (1.0 + beta[0] * beta[1] / 0.8)).abs() < 1e-15);
    }

    #[test]
    fn rho_one_is_rejected_with_var_u_message() {
        let pm = Params {
            rho: vec![0.3, 1.0],
            ..Params::default()
        };
        let e = pm.validate().unwrap_err().to_string();
        assert!(e.contains("Var(u_k)") && e.contains("A2"), "{e}");
    }

    #[test]
    fn mismatched_lengths_are_rejected() {
        let pm = Params {
            sigma_a: vec![0.5, 0.6, 0.7],
            ..Params::default()
        };
        assert!(
            pm.validate()
                .unwrap_err()
                .to_string()
                .contains("sigma_a has 3 values")
        );
    }

    #[test]
    fn block_families_split_contiguously() {
        let mut pm = Params::default();
        pm.violations.families = Families::Blocks(3);
        assert_eq!(pm.family_index().unwrap(), (vec![0, 0, 1, 1, 2, 2], 3));
    }
}
