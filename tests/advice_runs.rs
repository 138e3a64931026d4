//! Advice and flag sentences that are one core fact: the battery's "collect more items" step
//! is a planner request that runs as given, flags are worded by their kind, and an anchor
//! trusted as clean is worded as the assumption it is.

mod common;

use rhoscope::battery::phrase::{flag_counts, flagged, rho_entries};
use rhoscope::estimate::FlagCode as C;

/// each kind of flag is said in its own words and counted as its own kind.
#[test]
fn flags_are_worded_by_their_kind() {
    let codes = [
        C::SigmaC2Nonpositive,
        C::SigmaT2Outside0K,
        C::OrdinalAnchor,
        C::Censored,
    ];
    let s = flagged(&codes);
    assert!(
        s.starts_with("is out of range (σ̂_c² ≤ 0, σ̂_t² outside (0, K))"),
        "{s}"
    );
    assert!(
        s.ends_with("reads a column on a scale it cannot use (Likert codes read as numbers on an anchor, censored)"),
        "{s}"
    );
    assert_eq!(flag_counts(&codes), "2 range, 2 scale");
    assert_eq!(
        flagged(&[C::Censored]),
        "reads a column on a scale it cannot use (censored)"
    );
}

/// Trial 45 finding 10: a flag raised by two anchors is one fact, said once, in words.
#[test]
fn a_flag_of_two_anchors_is_said_once() {
    let codes = [
        C::SigmaA2Nonpositive,
        C::SigmaA2Nonpositive,
        C::Boundary,
        C::NotConverged,
        C::AnchorsMisfit,
        C::Censored,
    ];
    let s = flagged(&codes);
    assert_eq!(s.matches("σ̂_a² ≤ 0").count(), 1, "{s}");
    assert!(
        s.contains("σ̂_a² ≤ 0 (2 anchors)") && !s.contains("sigma_a2"),
        "{s}"
    );
}
