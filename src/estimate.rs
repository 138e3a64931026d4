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
mod shape;

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

pub use closed::{closed_form, pair_estimate};
pub use error::EstimateError;
pub use fits::{Context, Detail, Fit, Fits};
pub use flags::{Flag, FlagCode, FlagKind, FlagRemedy};
pub use registry::{BATTERY, EXPLORER, Entry};
pub use shape::{AnchorEstimate, Estimate, PairEstimate, Parts, RELATIVE_ZERO};

use closed::finish;

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
        let msg = flag.message(&est, &names, &[]);
        assert!(msg.starts_with("|ρ̂| = 1.00004 > 1"), "{msg}");
        let flag = Flag::new(FlagCode::RhoOutsideUnit, 1.25);
        assert!(
            flag.message(&est, &names, &[])
                .starts_with("|ρ̂| = 1.2500 > 1")
        );
        let flag = Flag::new(FlagCode::SigmaT2Outside0K, est.k + 3e-7);
        let msg = flag.message(&est, &names, &[]);
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
