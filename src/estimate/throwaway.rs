//! A throwaway estimator, registered only in the crate's own tests; `crate::throwaway` watches
//! it reach every output that lists estimators.

use super::registry::{Entry, Fitter, MethodValue, OnMoments, Shown, all_pairs};
use super::{EstimateError, closed_form};

/// Theorem 1's numbers under another name, listed everywhere an estimator can be.
pub const ENTRY: Entry = Entry {
    key: "throwaway",
    title: |_, _| "Throwaway".into(),
    label: |_, _| "throwaway".into(),
    short: "throw",
    basis: "a test's own estimator",
    applicable: |_, _| Ok(()),
    fit: Fitter::Moments(OnMoments {
        pairs: all_pairs,
        estimate: |mom, _| closed_form(mom),
        undefined: EstimateError::TooFewJudges,
    }),
    bootstrapped: true,
    shown: Shown {
        method: Some(MethodValue {
            name: "throwaway",
            help: "A test's own estimator",
        }),
        explorer: true,
        battery: true,
    },
};
