//! The family-blocked estimator (Section 5): K from cross-family judge pairs only, which
//! cancels family-level shared residuals exactly; M_k, P and Var(A) are unchanged.

use nalgebra::DMatrix;

use super::registry::{Entry, Fitter, OnMoments, Shown};
use super::{Context, EstimateError, closed_form};
use super::shape::Estimate;
use crate::moments::{JudgePairs, Moments};

/// The family-blocked estimator's registry entry; `estimate --blocked` asks for it.
pub const ENTRY: Entry = Entry {
    key: "blocked",
    title: |_, _| "Family-blocked".into(),
    label: |_, _| "blocked (cross-family K)".into(),
    short: "blocked",
    basis: "Section 5; K from cross-family judge pairs only",
    applicable,
    fit: Fitter::Moments(OnMoments {
        pairs: cross_family,
        estimate: |mom, _| closed_form(mom),
        undefined: EstimateError::OneFamily,
    }),
    bootstrapped: true,
    shown: Shown {
        method: None,
        explorer: true,
        battery: true,
    },
};

/// Whether the judges' families allow cross-family pairs.
fn applicable(ctx: &Context, _: usize) -> Result<(), EstimateError> {
    match &ctx.families {
        None => Err(EstimateError::NoFamilies),
        Some(f) if !f.blockable() => Err(EstimateError::OneFamily),
        Some(_) => Ok(()),
    }
}

/// K from cross-family judge pairs (all pairs when no families are known).
fn cross_family(ctx: &Context) -> JudgePairs<'_> {
    match &ctx.families {
        Some(f) => JudgePairs::CrossFamily(&f.index),
        None => JudgePairs::All,
    }
}

/// Why the blocked estimator (or Test C) cannot run on a panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotApplicable {
    /// No family metadata was given.
    NoFamilies,
    /// Every judge is in one family, so there is no cross-family pair.
    OneFamily,
}

impl std::fmt::Display for NotApplicable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            NotApplicable::NoFamilies => "needs judge families",
            NotApplicable::OneFamily => "needs judges from at least 2 families",
        })
    }
}

/// The family-blocked estimate from a covariance matrix with `p = family.len()` judges first.
///
/// # Errors
/// [`NotApplicable::OneFamily`] when no cross-family judge pair exists.
pub fn family_blocked(s: &DMatrix<f64>, family: &[usize]) -> Result<Estimate, NotApplicable> {
    let mom = Moments::from_cov(s, family.len(), JudgePairs::CrossFamily(family))
        .ok_or(NotApplicable::OneFamily)?;
    Ok(closed_form(&mom))
}
