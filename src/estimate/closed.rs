//! Theorem 1's closed form (eq. 1): σ_t² from every anchor pair k < l, with per-pair
//! denominators and the plain mean over pairs for m > 2 (docs/method.md §1).

use super::registry::{Entry, Fitter, MethodValue, OnMoments, Shown, all_pairs};
use super::shape::{Estimate, PairEstimate, Parts, RELATIVE_ZERO};
use super::{EstimateError, Flag, FlagCode};
use crate::moments::Moments;

/// The closed form's registry entry: every estimator is compared against it.
pub const ENTRY: Entry = Entry {
    key: "estimate",
    title: |_, _| "Closed form".into(),
    label: |_, _| "closed form".into(),
    short: "Thm 1",
    basis: "Theorem 1; K = mean of all judge-pair covariances",
    applicable: |_, _| Ok(()),
    fit: Fitter::Moments(OnMoments {
        pairs: all_pairs,
        estimate: |mom, _| closed_form(mom),
        undefined: EstimateError::TooFewJudges,
    }),
    bootstrapped: true,
    shown: Shown {
        method: Some(MethodValue {
            name: "closed",
            help: "Theorem 1's closed form",
        }),
        explorer: true,
        battery: true,
    },
};

/// Theorem 1 for every anchor pair k < l, averaged as docs/method.md §1 prescribes.
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
pub(super) fn finish(
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
